//! The decoded program: a flat, compact, typed list of instructions that
//! every later stage (validator, disassembler, encoder, interpreters) walks.
//!
//! Invariants: every value in the IR is encodable back into tokens (enums
//! only name defined values, counts are bounded by fixed arrays), so
//! `encode(decode(x)) == x` for every decodable `x`. The IR holds no
//! references into the input.

use super::opcode::Opcode;
use super::token::{
    Comparison, DST_CENTROID, DST_PARTIAL_PRECISION, DST_SATURATE, Register, RegisterFile,
    SrcModifier, Swizzle, TextureType, Version, WriteMask,
};
use crate::vertex::DeclUsage;

/// The index register of a relative address (`a0.x`, `aL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelativeAddress {
    /// `a0` (AddrOrTexture) or `aL` (Loop).
    pub reg: Register,
    /// Swizzle of the address token; its x selector picks the component.
    /// SM1 (implicit `a0.x`) stores `.x`.
    pub swizzle: Swizzle,
}

impl RelativeAddress {
    /// The selected component (0 = x ... 3 = w).
    pub const fn component(self) -> u8 {
        self.swizzle.get(0)
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    /// Register read.
    pub reg: Register,
    /// Component swizzle.
    pub swizzle: Swizzle,
    /// Source modifier.
    pub modifier: SrcModifier,
    /// Relative addressing, if bit 13 was set.
    pub relative: Option<RelativeAddress>,
}

impl Src {
    /// Plain source with identity swizzle.
    pub const fn new(reg: Register) -> Src {
        Src {
            reg,
            swizzle: Swizzle::IDENTITY,
            modifier: SrcModifier::None,
            relative: None,
        }
    }
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dst {
    /// Register written.
    pub reg: Register,
    /// Channels written.
    pub mask: WriteMask,
    /// `DST_SATURATE | DST_PARTIAL_PRECISION | DST_CENTROID` bits.
    pub modifiers: u8,
    /// ps_1_x result shift (−3..=3 in practice; any 4-bit signed value).
    pub shift: i8,
    /// Relative addressing (vs_3_0 `o[aL + n]`).
    pub relative: Option<RelativeAddress>,
}

impl Dst {
    /// Plain destination with full mask.
    pub const fn new(reg: Register) -> Dst {
        Dst {
            reg,
            mask: WriteMask::ALL,
            modifiers: 0,
            shift: 0,
            relative: None,
        }
    }

    /// `_sat`
    pub const fn saturate(&self) -> bool {
        self.modifiers & DST_SATURATE != 0
    }

    /// `_pp`
    pub const fn partial_precision(&self) -> bool {
        self.modifiers & DST_PARTIAL_PRECISION != 0
    }

    /// `_centroid`
    pub const fn centroid(&self) -> bool {
        self.modifiers & DST_CENTROID != 0
    }
}

/// What a `dcl` declares (token A, §3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// Input/output semantic: usage and usage index (0..=15).
    Semantic {
        /// DeclUsage.
        usage: DeclUsage,
        /// DeclUsage index.
        index: u8,
    },
    /// Sampler texture type.
    Sampler(TextureType),
}

/// Extra data carried by some instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Payload {
    /// Nothing beyond the operands.
    None,
    /// `dcl`: the declaration (the declared register is the destination).
    Dcl(Declaration),
    /// `def` (f32 bits), `defi` (i32 bits), `defb` (value in `[0]`).
    Def([u32; 4]),
}

/// Maximum number of source operands of any instruction (`texldd`).
pub const MAX_SRCS: usize = 4;

/// One decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Opcode.
    pub opcode: Opcode,
    /// Raw opcode-specific control `[23:16]` (comparison, texld variant).
    pub control: u8,
    /// ps_1_x co-issue flag (`+` prefix).
    pub coissue: bool,
    /// Predicate source (`(p0.x)` / `(!p0)`), if bit 28 was set.
    pub predicate: Option<Src>,
    /// Destination operand.
    pub dst: Option<Dst>,
    srcs: [Src; MAX_SRCS],
    num_srcs: u8,
    /// `dcl`/`def*` data.
    pub payload: Payload,
}

const FILLER: Src = Src::new(Register::new(RegisterFile::Temp, 0));

impl Instruction {
    /// An instruction with no operands.
    pub const fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            control: 0,
            coissue: false,
            predicate: None,
            dst: None,
            srcs: [FILLER; MAX_SRCS],
            num_srcs: 0,
            payload: Payload::None,
        }
    }

    /// Source operands in order.
    pub fn srcs(&self) -> &[Src] {
        &self.srcs[..self.num_srcs as usize]
    }

    /// Mutable source operands.
    pub fn srcs_mut(&mut self) -> &mut [Src] {
        &mut self.srcs[..self.num_srcs as usize]
    }

    /// Append a source; `false` if all [`MAX_SRCS`] slots are taken.
    pub fn push_src(&mut self, src: Src) -> bool {
        match self.srcs.get_mut(self.num_srcs as usize) {
            Some(slot) => {
                *slot = src;
                self.num_srcs += 1;
                true
            }
            None => false,
        }
    }

    /// The comparison of `ifc`/`breakc`/`setp`.
    pub fn comparison(&self) -> Option<Comparison> {
        if self.opcode.has_comparison() {
            Comparison::from_code(self.control)
        } else {
            None
        }
    }

    /// The declaration of a `dcl`.
    pub fn declaration(&self) -> Option<Declaration> {
        match self.payload {
            Payload::Dcl(d) => Some(d),
            _ => None,
        }
    }
}

/// A comment block and where it sat in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Index of the instruction the comment preceded (== number of
    /// instructions when it sat before the end token).
    pub before_instruction: usize,
    /// Payload DWORDs (without the comment token).
    pub data: Vec<u32>,
}

/// A decoded shader program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Version token contents.
    pub version: Version,
    /// Instructions in stream order (declarations included).
    pub instructions: Vec<Instruction>,
    /// Comment blocks in stream order.
    pub comments: Vec<Comment>,
}

impl Program {
    /// The D3DX constant table, if a `CTAB` comment is present.
    ///
    /// Returns `Ok(None)` when there is no CTAB comment and an error when
    /// one is present but malformed (the runtime ignores comments, so a bad
    /// table does not make the program undecodable).
    pub fn constant_table(&self) -> Result<Option<super::ctab::ConstantTable>, super::ShaderError> {
        for c in &self.comments {
            if let Some((&tag, rest)) = c.data.split_first()
                && tag == super::token::FOURCC_CTAB
            {
                return super::ctab::parse(rest).map(Some);
            }
        }
        Ok(None)
    }
}
