//! The one error type of the shader toolchain.
//!
//! Every failure names what kind of failure it is (malformed bytecode, a
//! validation rule, something the crate does not run, or assembler syntax),
//! where it happened (instruction index or source line/column) and, for
//! validation, the rule and the cap involved, so the device layer can map it
//! to `D3DERR_INVALIDCALL` / `D3DERR_NOTAVAILABLE` and a human can fix it.

use std::fmt;

/// What class of failure a [`ShaderError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderErrorKind {
    /// The token stream cannot be decoded (truncated, bad lengths, unknown
    /// opcodes or registers, missing end token, ...).
    Malformed,
    /// The program decodes but breaks a validation rule of its profile or of
    /// the device limits.
    Invalid,
    /// The program is well formed but the crate cannot run it (the `_sw`
    /// pixel-shader profiles).
    NotAvailable,
    /// The assembler could not parse or encode its input text.
    Syntax,
}

/// A decoding, validation or assembly failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ShaderError {
    /// Failure class.
    pub kind: ShaderErrorKind,
    /// Index of the offending instruction (0-based, comments not counted), if any.
    pub instruction: Option<u32>,
    /// Mnemonic of the offending instruction, if known.
    pub mnemonic: Option<String>,
    /// Token offset in the stream (decoder errors), if known.
    pub token: Option<u32>,
    /// Source position `(line, column)`, 1-based (assembler errors).
    pub position: Option<(u32, u32)>,
    /// Short stable name of the violated rule, e.g. `"gradient-instructions"`.
    pub rule: &'static str,
    /// Device cap involved, e.g. `"PS20Caps.GRADIENTINSTRUCTIONS"`.
    pub cap: Option<&'static str>,
    /// Human-readable explanation.
    pub message: String,
}

impl ShaderError {
    /// A bare error of `kind` for `rule` with `message`.
    pub fn new(kind: ShaderErrorKind, rule: &'static str, message: impl Into<String>) -> Self {
        ShaderError {
            kind,
            instruction: None,
            mnemonic: None,
            token: None,
            position: None,
            rule,
            cap: None,
            message: message.into(),
        }
    }

    /// A decoder error at token offset `token`.
    pub fn malformed(token: usize, rule: &'static str, message: impl Into<String>) -> Self {
        let mut e = Self::new(ShaderErrorKind::Malformed, rule, message);
        e.token = Some(sat(token));
        e
    }

    /// An assembler error at `(line, column)`.
    pub fn syntax(line: usize, column: usize, message: impl Into<String>) -> Self {
        let mut e = Self::new(ShaderErrorKind::Syntax, "syntax", message);
        e.position = Some((sat(line), sat(column)));
        e
    }

    /// Attach the instruction index and mnemonic.
    pub fn at(mut self, index: usize, mnemonic: impl Into<String>) -> Self {
        self.instruction = Some(sat(index));
        self.mnemonic = Some(mnemonic.into());
        self
    }

    /// Attach the cap name.
    pub fn with_cap(mut self, cap: &'static str) -> Self {
        self.cap = Some(cap);
        self
    }
}

impl ShaderError {
    fn render(&self) -> String {
        let mut s = String::new();
        let _ = self.write_to(&mut s);
        s
    }

    fn write_to(&self, f: &mut impl fmt::Write) -> fmt::Result {
        if let Some((line, col)) = self.position {
            write!(f, "line {line}, column {col}: ")?;
        }
        match (self.instruction, &self.mnemonic) {
            (Some(i), Some(m)) => write!(f, "instruction {i} ({m}): ")?,
            (Some(i), None) => write!(f, "instruction {i}: ")?,
            _ => {}
        }
        if self.position.is_none()
            && self.instruction.is_none()
            && let Some(t) = self.token
        {
            write!(f, "token {t}: ")?;
        }
        write!(f, "{} [rule {}", self.message, self.rule)?;
        if let Some(cap) = self.cap {
            write!(f, ", cap {cap}")?;
        }
        write!(f, "]")
    }
}

/// `usize` → `u32`, saturating (streams and texts never get that long;
/// the field stays small so `Result<_, ShaderError>` stays cheap).
pub(crate) fn sat(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}
