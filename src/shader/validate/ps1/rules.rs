//! The per-version tables of ps_1_1–ps_1_4 validation: which opcodes exist,
//! which of them are texture-addressing instructions, register counts,
//! read ports, source modifiers, selectors and instruction costs.
//!
//! Sources: Microsoft's "ps_1_1, ps_1_2, ps_1_3, ps_1_4 Instructions" table,
//! "Registers - ps_1_X", "Pixel Shader Source Register Modifiers", "Source
//! Register Swizzling", "Destination Register Write Mask", "Modifiers for
//! ps_1_X", and where those pages are silent or disagree with each other,
//! the behaviour of the Direct3D 8.1 reference validator (`psval10` /
//! `psval14`), whose rules the Direct3D 9 runtime kept for ps_1_x.

use crate::shader::opcode::Opcode;
use crate::shader::token::{RegisterFile, SrcModifier, Swizzle, Version};

/// `.xyzw`: no selector.
pub(super) const XYZW: u8 = 0xE4;
/// `.xyz` (= `.xyzz`), the texld/texcrd selector without a divide.
pub(super) const XYZZ: u8 = 0xA4;
/// `.xyw` (= `.xyww`), the texld/texcrd selector of a `_dw` divide.
pub(super) const XYWW: u8 = 0xF4;

/// Red, green and blue: the colour (vector) pipe of a ps_1_x unit.
pub(super) const RGB: u8 = 0x7;
/// Alpha: the scalar pipe.
pub(super) const ALPHA: u8 = 0x8;

/// One ps_1_x profile (minor version 1 to 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ps1 {
    /// The minor version: 1, 2, 3 or 4.
    pub minor: u8,
}

impl Ps1 {
    /// The profile of `v`, or `None` for ps_1_0, which Direct3D 9 does not
    /// accept (its assembler answers "ps.1.0 is no longer supported").
    pub fn new(v: Version) -> Option<Ps1> {
        (v.is_pixel() && v.major == 1 && (1..=4).contains(&v.minor))
            .then_some(Ps1 { minor: v.minor })
    }

    /// ps_1_4: two phases, r# as texture destinations, t# read-only.
    pub fn is14(self) -> bool {
        self.minor == 4
    }

    /// True if `op` is an instruction of this version (the instruction
    /// table of "ps_1_1, ps_1_2, ps_1_3, ps_1_4 Instructions").
    pub fn has_opcode(self, op: Opcode) -> bool {
        use Opcode::*;
        let m = self.minor;
        match op {
            Nop | Def | Mov | Add | Sub | Mul | Mad | Lrp | Dp3 | Cnd | TexKill => true,
            Tex | TexCoord => true, // `tex`/`texcoord` below 1_4, `texld`/`texcrd` in 1_4
            TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexM3x2Pad | TexM3x2Tex | TexM3x3Pad
            | TexM3x3Tex | TexM3x3Spec | TexM3x3VSpec => m <= 3,
            TexReg2Rgb | TexDp3Tex | TexDp3 | TexM3x3 => (2..=3).contains(&m),
            TexM3x2Depth => m == 3,
            Cmp | Dp4 => m >= 2,
            TexDepth | Bem | Phase => m == 4,
            _ => false,
        }
    }

    /// True for the texture-addressing instructions, which form the block
    /// before the arithmetic (one block per phase in 1_4).
    pub fn is_texture_op(self, op: Opcode) -> bool {
        use Opcode::*;
        if self.is14() {
            return matches!(op, Tex | TexCoord | TexKill | TexDepth);
        }
        matches!(
            op,
            Tex | TexCoord
                | TexKill
                | TexBem
                | TexBemL
                | TexReg2Ar
                | TexReg2Gb
                | TexReg2Rgb
                | TexM3x2Pad
                | TexM3x2Tex
                | TexM3x2Depth
                | TexM3x3Pad
                | TexM3x3Tex
                | TexM3x3Spec
                | TexM3x3VSpec
                | TexM3x3
                | TexDp3
                | TexDp3Tex
        )
    }

    /// True for the arithmetic instructions (everything that costs an
    /// arithmetic slot and may be co-issued in principle).
    pub fn is_arithmetic(self, op: Opcode) -> bool {
        use Opcode::*;
        matches!(
            op,
            Mov | Add | Sub | Mul | Mad | Lrp | Dp3 | Dp4 | Cnd | Cmp | Bem
        )
    }

    /// The instructions that sample the texture of the stage their
    /// destination names.
    pub fn samples(self, op: Opcode) -> bool {
        use Opcode::*;
        if self.is14() {
            return op == Tex;
        }
        matches!(
            op,
            Tex | TexBem
                | TexBemL
                | TexReg2Ar
                | TexReg2Gb
                | TexReg2Rgb
                | TexM3x2Tex
                | TexM3x3Tex
                | TexM3x3Spec
                | TexM3x3VSpec
                | TexDp3Tex
        )
    }

    /// Number of registers of `file` (the register-type table of
    /// "Registers - ps_1_X"); `None` for a file ps_1_x does not have.
    pub fn file_count(self, file: RegisterFile) -> Option<u16> {
        match file {
            RegisterFile::Temp => Some(if self.is14() { 6 } else { 2 }),
            RegisterFile::AddrOrTexture => Some(if self.is14() { 6 } else { 4 }),
            RegisterFile::Const => Some(8),
            RegisterFile::Input => Some(2),
            _ => None,
        }
    }

    /// Distinct registers of `file` one instruction may read (the read-port
    /// table of "Registers - ps_1_X").
    pub fn read_ports(self, file: RegisterFile) -> usize {
        match (file, self.minor) {
            (RegisterFile::Temp, 4) => 3,
            (RegisterFile::AddrOrTexture, 4) => 1,
            (RegisterFile::AddrOrTexture, 2 | 3) => 3,
            _ => 2,
        }
    }

    /// True if `shift` (the signed result-shift field) is a result modifier
    /// of this version: `_x2 _x4 _d2` everywhere, `_x8 _d4 _d8` in 1_4.
    pub fn shift_ok(self, shift: i8) -> bool {
        match shift {
            -1..=2 => true,
            -3 | -2 | 3 => self.is14(),
            _ => false,
        }
    }

    /// True if `m` may modify a source of an arithmetic instruction: `-`,
    /// `_bias`, `_bx2`, `1-x` everywhere, `_x2` only in 1_4.
    pub fn arithmetic_modifier_ok(self, m: SrcModifier) -> bool {
        use SrcModifier::*;
        match m {
            None | Neg | Bias | BiasNeg | Sign | SignNeg | Comp => true,
            X2 | X2Neg => self.is14(),
            _ => false,
        }
    }

    /// True if `sw` is a selector of an arithmetic source: none or `.a`
    /// everywhere, `.b` below 1_4 in the alpha pipe only (`alpha_only`),
    /// and `.r .g .b .a` in 1_4 (no other swizzles exist in ps_1_x).
    pub fn arithmetic_swizzle_ok(self, sw: Swizzle, alpha_only: bool) -> bool {
        if sw.0 == XYZW || sw.0 == Swizzle::replicate(3).0 {
            return true;
        }
        if self.is14() {
            return sw.is_replicate();
        }
        sw.0 == Swizzle::replicate(2).0 && alpha_only
    }

    /// Arithmetic slots `op` costs: `bem` 2, `cmp` and `dp4` 2 in 1_2/1_3
    /// (the instruction table's footnote; 1 in 1_4), everything else 1.
    pub fn arithmetic_cost(self, op: Opcode) -> u32 {
        match op {
            Opcode::Bem => 2,
            Opcode::Cmp | Opcode::Dp4 if !self.is14() => 2,
            _ => 1,
        }
    }

    /// Texture-instruction slots per block: 4 below 1_4, 6 per phase in 1_4.
    pub fn texture_limit(self) -> u32 {
        if self.is14() { 6 } else { 4 }
    }

    /// Arithmetic slots per block (a co-issued pair counts once): 8, per
    /// phase in 1_4.
    pub const ARITHMETIC_LIMIT: u32 = 8;
}

/// True for the texm3x* instructions (the matrix sequences of 1_1–1_3).
pub(super) fn is_texm(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        TexM3x2Pad
            | TexM3x2Tex
            | TexM3x2Depth
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexM3x3
    )
}

/// True if the result a 1_1–1_3 texture instruction leaves in its `t#` may
/// not be read: `texkill` and the `pad` rows produce nothing, and
/// `texm3x2depth`'s register carries the depth ("is no longer available").
pub(super) fn result_unreadable(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, TexKill | TexM3x2Pad | TexM3x3Pad | TexM3x2Depth)
}

/// True if a 1_1–1_3 texture instruction reads the texture coordinate set
/// of its destination's stage (every one but the `texreg2*` family, which
/// takes its coordinates from another register).
pub(super) fn reads_own_coordinates(op: Opcode) -> bool {
    use Opcode::*;
    !matches!(op, TexReg2Ar | TexReg2Gb | TexReg2Rgb)
}

/// The source components an instruction needs before its selector is
/// applied: the destination's channels for component-wise instructions,
/// fixed sets for the dot products, `bem`, `texbem` and the 1_4 texture
/// instructions, all four for the other 1_1–1_3 texture instructions.
pub(super) fn needed_components(p: Ps1, op: Opcode, dst_mask: u8) -> u8 {
    use Opcode::*;
    match op {
        Tex | TexCoord if p.is14() => RGB,
        TexBem | TexBemL | Bem => 0x3,
        Dp3 => RGB,
        Dp4 => 0xF,
        _ if p.is_texture_op(op) => 0xF,
        _ => dst_mask,
    }
}
