//! One line of assembly → one [`Instruction`].
//!
//! Accepts fxc's listing syntax and the common variants of Microsoft's
//! assembler: `c[a0.x + 4]` as well as `c4[a0.x]`, `rgba` swizzle letters,
//! `_db`/`_da` for `_dz`/`_dw`, modifiers in any order, usage index 0 with
//! or without the digit. Every error carries line and column.

use super::lexer::{Lexeme, Tok};
use crate::shader::error::ShaderError;
use crate::shader::ir::{Declaration, Dst, Instruction, Payload, RelativeAddress, Src};
use crate::shader::opcode::Opcode;
use crate::shader::token::{
    Comparison, DST_CENTROID, DST_PARTIAL_PRECISION, DST_SATURATE, Register, RegisterFile,
    ShaderType, SrcModifier, Swizzle, TextureType, Version, WriteMask,
};
use crate::vertex::DeclUsage;

/// Parse a profile name such as `ps_2_0`, `vs_2_a`, `ps_3_sw`.
pub fn parse_version(word: &str) -> Option<Version> {
    let (t, rest) = word.split_at_checked(3)?;
    let shader_type = match t {
        "vs_" => ShaderType::Vertex,
        "ps_" => ShaderType::Pixel,
        _ => return None,
    };
    let (major, minor) = rest.split_once('_')?;
    let major: u8 = major.parse().ok()?;
    let minor = match minor {
        "x" | "a" | "b" if major == 2 => 1,
        "sw" => 0xFF,
        m => m.parse().ok()?,
    };
    Version::from_token(
        Version {
            shader_type,
            major,
            minor,
        }
        .token(),
    )
}

/// Parsed operand before it is turned into a source or destination.
struct Operand {
    reg: Register,
    relative: Option<RelativeAddress>,
    modifier: SrcModifier,
    letters: Option<(String, usize)>,
    col: usize,
}

/// Cursor over the lexemes of one line.
pub struct LineParser<'a> {
    toks: &'a [Lexeme],
    pos: usize,
    line: usize,
    end_col: usize,
    v: Version,
}

impl<'a> LineParser<'a> {
    /// A parser for `toks`, which came from line `line` of length `len`.
    pub fn new(toks: &'a [Lexeme], line: usize, len: usize, v: Version) -> Self {
        LineParser {
            toks,
            pos: 0,
            line,
            end_col: len + 1,
            v,
        }
    }

    fn col(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end_col, |l| l.col)
    }

    fn err(&self, col: usize, msg: impl Into<String>) -> ShaderError {
        ShaderError::syntax(self.line, col, msg)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|l| &l.tok)
    }

    fn peek_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let hit = self.peek_punct(c);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn expect_punct(&mut self, c: char) -> Result<(), ShaderError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.err(self.col(), format!("expected `{c}`")))
        }
    }

    fn word(&mut self) -> Result<(String, usize), ShaderError> {
        let col = self.col();
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok((w, col))
            }
            _ => Err(self.err(col, "expected a name")),
        }
    }

    /// Parse a whole instruction line.
    pub fn instruction(&mut self) -> Result<Instruction, ShaderError> {
        let coissue = self.eat_punct('+');
        let predicate = if self.eat_punct('(') {
            let col = self.col();
            let op = self.operand()?;
            let p = self.to_src(op)?;
            if p.relative.is_some() {
                // The predicate token has no room for an address register.
                return Err(self.err(col, "a predicate cannot use relative addressing"));
            }
            self.expect_punct(')')?;
            Some(p)
        } else {
            None
        };
        let (mn, mcol) = self.word()?;
        let mut segs = mn.split('_');
        let base = segs.next().unwrap_or("");
        let mut rest: Vec<&str> = segs.collect();
        let mut ins = if base == "dcl" {
            return self.dcl(&rest, mcol, coissue, predicate);
        } else {
            let (op, control) = self.resolve(base, &mut rest, mcol)?;
            let mut i = Instruction::new(op);
            i.control = control;
            i
        };
        ins.coissue = coissue;
        ins.predicate = predicate;
        let (modifiers, shift) = self.modifiers(&rest, mcol)?;
        match ins.opcode {
            Opcode::Def | Opcode::DefI | Opcode::DefB => {
                let mut d = self.dst(false)?;
                d.modifiers = modifiers;
                d.shift = shift;
                ins.dst = Some(d);
                ins.payload = Payload::Def(self.immediates(ins.opcode)?);
            }
            op => {
                let shape = op
                    .shape(self.v)
                    .ok_or_else(|| self.err(mcol, format!("`{mn}` is not an instruction")))?;
                let mut first = true;
                if shape.dst {
                    let mut d = self.dst(true)?;
                    d.modifiers = modifiers;
                    d.shift = shift;
                    ins.dst = Some(d);
                    first = false;
                } else if modifiers != 0 || shift != 0 {
                    return Err(self.err(mcol, format!("`{mn}` takes no result modifiers")));
                }
                for _ in 0..shape.srcs {
                    if !first {
                        self.expect_punct(',')?;
                    }
                    first = false;
                    let op = self.operand()?;
                    let s = self.to_src(op)?;
                    ins.push_src(s);
                }
            }
        }
        if self.pos < self.toks.len() {
            return Err(self.err(self.col(), "unexpected text after the last operand"));
        }
        Ok(ins)
    }

    fn resolve(
        &self,
        base: &str,
        rest: &mut Vec<&str>,
        col: usize,
    ) -> Result<(Opcode, u8), ShaderError> {
        let cmp = rest.first().and_then(|s| Comparison::from_suffix(s));
        let sm1 = self.v.is_sm1();
        let r = match base {
            "if" | "break" | "setp" if cmp.is_some() => {
                rest.remove(0);
                let op = match base {
                    "if" => Opcode::IfC,
                    "break" => Opcode::BreakC,
                    _ => Opcode::SetP,
                };
                (op, cmp.map_or(0, |c| c as u8))
            }
            "setp" => return Err(self.err(col, "setp needs a comparison suffix (_gt, _lt, ...)")),
            "texld" | "tex" => (Opcode::Tex, 0),
            "texldp" if !sm1 => (Opcode::Tex, 1),
            "texldb" if !sm1 => (Opcode::Tex, 2),
            "texcrd" | "texcoord" => (Opcode::TexCoord, 0),
            _ => {
                let op = Opcode::ALL
                    .iter()
                    .copied()
                    .find(|o| o.base_name() == base && !matches!(o, Opcode::Tex | Opcode::TexCoord))
                    .ok_or_else(|| self.err(col, format!("unknown instruction `{base}`")))?;
                (op, 0)
            }
        };
        Ok(r)
    }

    fn modifiers(&self, segs: &[&str], col: usize) -> Result<(u8, i8), ShaderError> {
        let mut m = 0u8;
        let mut shift = 0i8;
        for s in segs {
            match *s {
                "sat" => m |= DST_SATURATE,
                "pp" => m |= DST_PARTIAL_PRECISION,
                "centroid" => m |= DST_CENTROID,
                _ => {
                    let (k, n) = s.split_at_checked(1).unwrap_or(("", ""));
                    let n: u32 = n
                        .parse()
                        .map_err(|_| self.err(col, format!("unknown modifier `_{s}`")))?;
                    if !n.is_power_of_two() || !(2..=256).contains(&n) {
                        return Err(self.err(col, format!("unknown modifier `_{s}`")));
                    }
                    let e = n.trailing_zeros() as i8;
                    shift = match k {
                        "x" if e <= 7 => e,
                        "d" if e <= 8 => -e,
                        _ => return Err(self.err(col, format!("unknown modifier `_{s}`"))),
                    };
                }
            }
        }
        Ok((m, shift))
    }

    fn dcl(
        &mut self,
        segs: &[&str],
        col: usize,
        coissue: bool,
        pred: Option<Src>,
    ) -> Result<Instruction, ShaderError> {
        if coissue || pred.is_some() {
            return Err(self.err(col, "dcl cannot be co-issued or predicated"));
        }
        let mut texture = None;
        let mut semantic = None;
        let mut mods = Vec::new();
        for (i, s) in segs.iter().enumerate() {
            if i == 0 {
                if let Some(t) = [
                    TextureType::Tex1D,
                    TextureType::Tex2D,
                    TextureType::Cube,
                    TextureType::Volume,
                ]
                .into_iter()
                .find(|t| t.suffix() == *s)
                {
                    texture = Some(t);
                    continue;
                }
                let digits = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                let name = &s[..s.len() - digits.len()];
                if let Some(u) = DeclUsage::ALL.iter().copied().find(|u| u.name() == name) {
                    let index = if digits.is_empty() {
                        0
                    } else {
                        digits
                            .parse::<u8>()
                            .ok()
                            .filter(|&n| n <= 15)
                            .ok_or_else(|| self.err(col, "usage index must be 0..15"))?
                    };
                    semantic = Some((u, index));
                    continue;
                }
            }
            mods.push(*s);
        }
        let (modifiers, shift) = self.modifiers(&mods, col)?;
        let mut d = self.dst(false)?;
        d.modifiers = modifiers;
        d.shift = shift;
        let decl = if d.reg.file == RegisterFile::Sampler {
            if semantic.is_some() {
                return Err(self.err(col, "a sampler takes a texture type, not a usage"));
            }
            Declaration::Sampler(texture.unwrap_or(TextureType::Unknown))
        } else {
            if texture.is_some() {
                return Err(self.err(col, "texture types can only be declared on samplers"));
            }
            let (usage, index) = semantic.unwrap_or((DeclUsage::Position, 0));
            Declaration::Semantic { usage, index }
        };
        if self.pos < self.toks.len() {
            return Err(self.err(self.col(), "unexpected text after the declared register"));
        }
        let mut ins = Instruction::new(Opcode::Dcl);
        ins.dst = Some(d);
        ins.payload = Payload::Dcl(decl);
        Ok(ins)
    }

    fn immediates(&mut self, op: Opcode) -> Result<[u32; 4], ShaderError> {
        let mut vals = [0u32; 4];
        let n = if op == Opcode::DefB { 1 } else { 4 };
        for v in vals.iter_mut().take(n) {
            self.expect_punct(',')?;
            let col = self.col();
            let neg = self.eat_punct('-');
            let text = match self.peek() {
                Some(Tok::Number(t)) | Some(Tok::Word(t)) => t.clone(),
                _ => return Err(self.err(col, "expected a number")),
            };
            self.pos += 1;
            let bad = || self.err(col, format!("invalid value `{text}`"));
            let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
            *v = if let Some(h) = hex {
                let bits = u32::from_str_radix(h, 16).map_err(|_| bad())?;
                if neg { bits.wrapping_neg() } else { bits }
            } else {
                match op {
                    Opcode::Def => {
                        let f: f32 = text.parse().map_err(|_| bad())?;
                        (if neg { -f } else { f }).to_bits()
                    }
                    Opcode::DefB if text == "true" && !neg => 1,
                    Opcode::DefB if text == "false" && !neg => 0,
                    _ => {
                        let i: i64 = text.parse().map_err(|_| bad())?;
                        let i = if neg { -i } else { i };
                        i32::try_from(i)
                            .map(|x| x as u32)
                            .or_else(|_| u32::try_from(i))
                            .map_err(|_| bad())?
                    }
                }
            };
        }
        Ok(vals)
    }

    fn register(
        &self,
        name: &str,
        col: usize,
        indexed: bool,
    ) -> Result<(Register, bool), ShaderError> {
        use RegisterFile::*;
        let v = self.v;
        let fixed = match name {
            "oPos" => Some((RastOut, 0)),
            "oFog" => Some((RastOut, 1)),
            "oPts" => Some((RastOut, 2)),
            "oDepth" => Some((DepthOut, 0)),
            "aL" => Some((Loop, 0)),
            "vPos" => Some((MiscType, 0)),
            "vFace" => Some((MiscType, 1)),
            _ => None,
        };
        if let Some((f, i)) = fixed {
            return Ok((Register::new(f, i), true));
        }
        let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let prefix = &name[..name.len() - digits.len()];
        let file = match prefix {
            "r" => Temp,
            "v" => Input,
            "c" => Const,
            "a" if v.is_vertex() => AddrOrTexture,
            "t" if v.is_pixel() => AddrOrTexture,
            "oD" => AttrOut,
            "oT" | "o" => Output,
            "i" => ConstInt,
            "oC" => ColorOut,
            "s" => Sampler,
            "b" => ConstBool,
            "l" => Label,
            "p" => Predicate,
            _ => return Err(self.err(col, format!("unknown register `{name}`"))),
        };
        if digits.is_empty() {
            if indexed && matches!(file, Const | Input | Output) {
                return Ok((Register::new(file, 0), false));
            }
            return Err(self.err(col, format!("register `{name}` needs a number")));
        }
        let n: u32 = digits
            .parse()
            .map_err(|_| self.err(col, format!("bad register number in `{name}`")))?;
        Ok((self.numbered(file, n, col)?, true))
    }

    fn numbered(&self, file: RegisterFile, n: u32, col: usize) -> Result<Register, ShaderError> {
        let (file, n) = if file == RegisterFile::Const {
            match n {
                0..=2047 => (RegisterFile::Const, n),
                2048..=4095 => (RegisterFile::Const2, n - 2048),
                4096..=6143 => (RegisterFile::Const3, n - 4096),
                6144..=8191 => (RegisterFile::Const4, n - 6144),
                _ => return Err(self.err(col, format!("constant index {n} above 8191"))),
            }
        } else {
            (file, n)
        };
        if n > 2047 {
            return Err(self.err(col, format!("register number {n} above 2047")));
        }
        Ok(Register::new(file, n as u16))
    }

    fn operand(&mut self) -> Result<Operand, ShaderError> {
        let col = self.col();
        let mut neg = false;
        let mut not = false;
        let mut comp = false;
        if self.eat_punct('-') {
            neg = true;
        } else if self.eat_punct('!') {
            not = true;
        } else if self.peek() == Some(&Tok::Number("1".into()))
            && self.toks.get(self.pos + 1).map(|l| &l.tok) == Some(&Tok::Punct('-'))
        {
            self.pos += 2;
            comp = true;
        }
        let (word, wcol) = self.word()?;
        let (name, mut suffix) = match word.find('_') {
            Some(i) => (word[..i].to_string(), Some(word[i..].to_string())),
            None => (word.clone(), None),
        };
        let bracket = self.peek_punct('[');
        let (mut reg, has_index) = self.register(&name, wcol, bracket)?;
        let mut relative = None;
        if self.eat_punct('[') {
            let mut offset: u32 = if has_index { reg.logical_index() } else { 0 };
            let mut addr = None;
            loop {
                let c = self.col();
                match self.peek().cloned() {
                    Some(Tok::Number(n)) => {
                        self.pos += 1;
                        let k: u32 = n.parse().map_err(|_| self.err(c, "bad offset"))?;
                        offset = offset
                            .checked_add(k)
                            .ok_or_else(|| self.err(c, "offset too large"))?;
                    }
                    Some(Tok::Word(w)) => {
                        self.pos += 1;
                        let (r, _) = self.register(&w, c, false)?;
                        let sw = if self.eat_punct('.') {
                            let (l, lc) = self.word()?;
                            self.swizzle(&l, lc)?
                        } else {
                            Swizzle::IDENTITY
                        };
                        if addr
                            .replace(RelativeAddress {
                                reg: r,
                                swizzle: sw,
                            })
                            .is_some()
                        {
                            return Err(self.err(c, "two index registers"));
                        }
                    }
                    _ => return Err(self.err(c, "expected an index register or offset")),
                }
                if !self.eat_punct('+') {
                    break;
                }
            }
            self.expect_punct(']')?;
            let addr =
                addr.ok_or_else(|| self.err(col, "relative address without an index register"))?;
            reg = self.numbered(reg.file, offset, wcol)?;
            relative = Some(addr);
            if suffix.is_none()
                && let Some(Tok::Word(w)) = self.peek()
                && w.starts_with('_')
            {
                suffix = Some(w.clone());
                self.pos += 1;
            }
        } else if !has_index {
            return Err(self.err(wcol, format!("register `{name}` needs a number")));
        }
        let modifier = match (suffix.as_deref(), neg) {
            (None, false) if not => SrcModifier::Not,
            (None, false) if comp => SrcModifier::Comp,
            (None, false) => SrcModifier::None,
            (None, true) => SrcModifier::Neg,
            (Some(_), _) if not || comp => {
                return Err(self.err(col, "conflicting source modifiers"));
            }
            (Some("_abs"), n) => {
                if n {
                    SrcModifier::AbsNeg
                } else {
                    SrcModifier::Abs
                }
            }
            (Some("_bias"), n) => {
                if n {
                    SrcModifier::BiasNeg
                } else {
                    SrcModifier::Bias
                }
            }
            (Some("_bx2"), n) => {
                if n {
                    SrcModifier::SignNeg
                } else {
                    SrcModifier::Sign
                }
            }
            (Some("_x2"), n) => {
                if n {
                    SrcModifier::X2Neg
                } else {
                    SrcModifier::X2
                }
            }
            (Some("_dz" | "_db"), false) => SrcModifier::Dz,
            (Some("_dw" | "_da"), false) => SrcModifier::Dw,
            (Some(s), _) => return Err(self.err(wcol, format!("unknown source modifier `{s}`"))),
        };
        let letters = if self.eat_punct('.') {
            Some(self.word()?)
        } else {
            None
        };
        Ok(Operand {
            reg,
            relative,
            modifier,
            letters,
            col,
        })
    }

    fn swizzle(&self, letters: &str, col: usize) -> Result<Swizzle, ShaderError> {
        let mut sel = Vec::new();
        for ch in letters.chars() {
            sel.push(
                component(ch).ok_or_else(|| self.err(col, format!("bad swizzle `.{letters}`")))?,
            );
        }
        if sel.is_empty() || sel.len() > 4 {
            return Err(self.err(col, format!("bad swizzle `.{letters}`")));
        }
        let last = sel[sel.len() - 1];
        let mut v = 0u8;
        for i in 0..4 {
            v |= sel.get(i).copied().unwrap_or(last) << (2 * i);
        }
        Ok(Swizzle(v))
    }

    fn to_src(&self, op: Operand) -> Result<Src, ShaderError> {
        let mut relative = op.relative;
        if self.v.is_sm1()
            && let Some(r) = &mut relative
        {
            // SM1 has no address token; `a0.x` is implied.
            if r.reg.file != RegisterFile::AddrOrTexture || r.swizzle.get(0) != 0 {
                return Err(self.err(op.col, "shader model 1 relative addressing uses a0.x"));
            }
            r.swizzle = Swizzle::replicate(0);
        }
        let swizzle = match op.letters {
            Some((l, c)) => self.swizzle(&l, c)?,
            None => Swizzle::IDENTITY,
        };
        Ok(Src {
            reg: op.reg,
            swizzle,
            modifier: op.modifier,
            relative,
        })
    }

    /// A destination operand; `allow_relative` mirrors the decoder (relative
    /// addressing only on instruction destinations of shader model 2 and up,
    /// never on dcl/def), so whatever assembles also decodes.
    fn dst(&mut self, allow_relative: bool) -> Result<Dst, ShaderError> {
        let op = self.operand()?;
        if op.modifier != SrcModifier::None {
            return Err(self.err(op.col, "source modifiers are not allowed on a destination"));
        }
        if op.relative.is_some() && (!allow_relative || self.v.major < 2) {
            return Err(self.err(
                op.col,
                "relative addressing is not allowed on this destination",
            ));
        }
        let mask = match op.letters {
            None => WriteMask::ALL,
            Some((l, c)) => {
                let mut m = 0u8;
                let mut last: i32 = -1;
                for ch in l.chars() {
                    let k = component(ch)
                        .ok_or_else(|| self.err(c, format!("bad write mask `.{l}`")))?
                        as i32;
                    if k <= last {
                        return Err(self.err(
                            c,
                            format!("write mask `.{l}` must list components in order"),
                        ));
                    }
                    last = k;
                    m |= 1 << k;
                }
                WriteMask(m)
            }
        };
        Ok(Dst {
            reg: op.reg,
            mask,
            modifiers: 0,
            shift: 0,
            relative: op.relative,
        })
    }
}

fn component(c: char) -> Option<u8> {
    match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}
