//! The opcode table (bytecode.md §5): mnemonics, operand shapes and
//! instruction-slot costs.
//!
//! Operand counts are per version because `sincos`/`sgn` (SM2 vs SM3) and
//! the ps_1_x texture opcodes change shape; everything the decoder,
//! validator, disassembler and assembler know about an opcode lives here.

use super::token::Version;

macro_rules! opcodes {
    ($($name:ident = $code:expr, $mn:expr;)*) => {
        /// An instruction opcode (`D3DSHADER_INSTRUCTION_OPCODE_TYPE`).
        /// Reserved values have no variant; comment and end tokens are not
        /// instructions and have none either.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Opcode { $($name = $code,)* }

        impl Opcode {
            /// From the 16-bit opcode field.
            pub fn from_code(v: u32) -> Option<Opcode> {
                match v { $($code => Some(Opcode::$name),)* _ => None }
            }

            /// Base mnemonic (without comparison/texld variant, without
            /// the ps_1_x renamings; see [`Opcode::mnemonic`]).
            pub const fn base_name(self) -> &'static str {
                match self { $(Opcode::$name => $mn,)* }
            }

            /// All opcodes in code order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];
        }
    };
}

opcodes! {
    Nop = 0x00, "nop";
    Mov = 0x01, "mov";
    Add = 0x02, "add";
    Sub = 0x03, "sub";
    Mad = 0x04, "mad";
    Mul = 0x05, "mul";
    Rcp = 0x06, "rcp";
    Rsq = 0x07, "rsq";
    Dp3 = 0x08, "dp3";
    Dp4 = 0x09, "dp4";
    Min = 0x0A, "min";
    Max = 0x0B, "max";
    Slt = 0x0C, "slt";
    Sge = 0x0D, "sge";
    Exp = 0x0E, "exp";
    Log = 0x0F, "log";
    Lit = 0x10, "lit";
    Dst = 0x11, "dst";
    Lrp = 0x12, "lrp";
    Frc = 0x13, "frc";
    M4x4 = 0x14, "m4x4";
    M4x3 = 0x15, "m4x3";
    M3x4 = 0x16, "m3x4";
    M3x3 = 0x17, "m3x3";
    M3x2 = 0x18, "m3x2";
    Call = 0x19, "call";
    CallNz = 0x1A, "callnz";
    Loop = 0x1B, "loop";
    Ret = 0x1C, "ret";
    EndLoop = 0x1D, "endloop";
    Label = 0x1E, "label";
    Dcl = 0x1F, "dcl";
    Pow = 0x20, "pow";
    Crs = 0x21, "crs";
    Sgn = 0x22, "sgn";
    Abs = 0x23, "abs";
    Nrm = 0x24, "nrm";
    SinCos = 0x25, "sincos";
    Rep = 0x26, "rep";
    EndRep = 0x27, "endrep";
    If = 0x28, "if";
    IfC = 0x29, "if";
    Else = 0x2A, "else";
    EndIf = 0x2B, "endif";
    Break = 0x2C, "break";
    BreakC = 0x2D, "break";
    MovA = 0x2E, "mova";
    DefB = 0x2F, "defb";
    DefI = 0x30, "defi";
    TexCoord = 0x40, "texcoord";
    TexKill = 0x41, "texkill";
    Tex = 0x42, "texld";
    TexBem = 0x43, "texbem";
    TexBemL = 0x44, "texbeml";
    TexReg2Ar = 0x45, "texreg2ar";
    TexReg2Gb = 0x46, "texreg2gb";
    TexM3x2Pad = 0x47, "texm3x2pad";
    TexM3x2Tex = 0x48, "texm3x2tex";
    TexM3x3Pad = 0x49, "texm3x3pad";
    TexM3x3Tex = 0x4A, "texm3x3tex";
    TexM3x3Spec = 0x4C, "texm3x3spec";
    TexM3x3VSpec = 0x4D, "texm3x3vspec";
    ExpP = 0x4E, "expp";
    LogP = 0x4F, "logp";
    Cnd = 0x50, "cnd";
    Def = 0x51, "def";
    TexReg2Rgb = 0x52, "texreg2rgb";
    TexDp3Tex = 0x53, "texdp3tex";
    TexM3x2Depth = 0x54, "texm3x2depth";
    TexDp3 = 0x55, "texdp3";
    TexM3x3 = 0x56, "texm3x3";
    TexDepth = 0x57, "texdepth";
    Cmp = 0x58, "cmp";
    Bem = 0x59, "bem";
    Dp2Add = 0x5A, "dp2add";
    Dsx = 0x5B, "dsx";
    Dsy = 0x5C, "dsy";
    TexLdd = 0x5D, "texldd";
    SetP = 0x5E, "setp";
    TexLdl = 0x5F, "texldl";
    BreakP = 0x60, "breakp";
    Phase = 0xFFFD, "phase";
}

/// How the operands of an opcode are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// A destination token comes first.
    pub dst: bool,
    /// Number of source tokens (not counting relative-address tokens).
    pub srcs: u8,
}

impl Opcode {
    /// Numeric opcode value.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// True for the comparison opcodes whose control field is a
    /// [`super::token::Comparison`].
    pub const fn has_comparison(self) -> bool {
        matches!(self, Opcode::IfC | Opcode::BreakC | Opcode::SetP)
    }

    /// True for `dcl`, `def`, `defi`, `defb`.
    pub const fn is_declaration(self) -> bool {
        matches!(
            self,
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB
        )
    }

    /// True for flow-control opcodes (never predicated, cost flow slots).
    pub const fn is_flow_control(self) -> bool {
        matches!(
            self,
            Opcode::Call
                | Opcode::CallNz
                | Opcode::Loop
                | Opcode::Ret
                | Opcode::EndLoop
                | Opcode::Label
                | Opcode::Rep
                | Opcode::EndRep
                | Opcode::If
                | Opcode::IfC
                | Opcode::Else
                | Opcode::EndIf
                | Opcode::Break
                | Opcode::BreakC
                | Opcode::BreakP
        )
    }

    /// True for the ps_2_0+/vs_3_0 texture-sampling opcodes.
    pub const fn is_texture_sample(self) -> bool {
        matches!(self, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl)
    }

    /// Operand layout for `version`, or `None` if this opcode has no
    /// defined layout there (`dcl`/`def*` are laid out by the decoder).
    pub fn shape(self, v: Version) -> Option<Shape> {
        use Opcode::*;
        let sm1 = v.is_sm1();
        let ps14 = v.is_pixel() && v.major == 1 && v.minor >= 4;
        let s = |dst, srcs| Some(Shape { dst, srcs });
        match self {
            Nop | Ret | EndLoop | EndRep | Else | EndIf | Break | Phase => s(false, 0),
            Mov | Rcp | Rsq | Exp | Log | Lit | Frc | Abs | Nrm | MovA | ExpP | LogP | Dsx
            | Dsy => s(true, 1),
            Add | Sub | Mul | Dp3 | Dp4 | Min | Max | Slt | Sge | Dst | M4x4 | M4x3 | M3x4
            | M3x3 | M3x2 | Pow | Crs | SetP | Bem => s(true, 2),
            Mad | Lrp | Cmp | Cnd | Dp2Add => s(true, 3),
            Sgn | SinCos => {
                if v.major >= 3 {
                    s(true, 1)
                } else {
                    s(true, 3)
                }
            }
            Call | Label | Rep | If | BreakP => s(false, 1),
            CallNz | Loop | IfC | BreakC => s(false, 2),
            TexKill | TexDepth => s(true, 0),
            TexCoord => {
                if ps14 {
                    s(true, 1)
                } else {
                    s(true, 0)
                }
            }
            Tex => {
                if sm1 {
                    if ps14 { s(true, 1) } else { s(true, 0) }
                } else {
                    s(true, 2)
                }
            }
            TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexM3x2Pad | TexM3x2Tex | TexM3x3Pad
            | TexM3x3Tex | TexM3x3VSpec | TexReg2Rgb | TexDp3Tex | TexM3x2Depth | TexDp3
            | TexM3x3 => s(true, 1),
            TexM3x3Spec => s(true, 2),
            TexLdd => s(true, 4),
            TexLdl => s(true, 2),
            Dcl | Def | DefI | DefB => None,
        }
    }

    /// Mnemonic as printed, including the comparison suffix or texld
    /// variant selected by `control` and the ps_1_x names of 0x40/0x42.
    pub fn mnemonic(self, control: u8, v: Version) -> String {
        use super::token::Comparison;
        match self {
            Opcode::IfC | Opcode::BreakC | Opcode::SetP => {
                let base = self.base_name();
                match Comparison::from_code(control) {
                    Some(c) => format!("{base}_{}", c.suffix()),
                    None => format!("{base}_{control}"),
                }
            }
            Opcode::Tex if v.is_sm1() => if v.minor >= 4 { "texld" } else { "tex" }.to_string(),
            Opcode::Tex => match control {
                1 => "texldp".into(),
                2 => "texldb".into(),
                _ => "texld".into(),
            },
            Opcode::TexCoord if v.is_sm1() && v.minor >= 4 => "texcrd".into(),
            _ => self.base_name().to_string(),
        }
    }

    /// Instruction slots this opcode costs in vs_1_1, where `exp` and
    /// `log` are 10-slot macros, `frc` 3 and `lit` 1 (§5).
    pub fn vs11_slots(self) -> u32 {
        match self {
            Opcode::Exp | Opcode::Log => 10,
            Opcode::Frc => 3,
            Opcode::Lit => 1,
            other => other.slots(0, false, false),
        }
    }

    /// Instruction slots this opcode costs (§4.4, §5); `texture_slots`
    /// (`lrp` and ps_3_0 `texkill` cost 1 and `nop` 0, as in fxc's own estimates over
    /// the conformance corpus, where the spec table says 2);
    /// selects the ps_3_0 / NOTEXINSTRUCTIONLIMIT costs of texture
    /// instructions, `cube` the cube/volume variant of `texld*`.
    pub fn slots(self, control: u8, texture_slots: bool, cube: bool) -> u32 {
        use Opcode::*;
        match self {
            Dcl | Def | DefI | DefB | Label | Phase | Nop => 0,
            Lit | Pow | Nrm | Sgn | Loop | Rep | If | IfC | CallNz | BreakC | BreakP => 3,
            M4x4 | M3x4 => 4,
            M4x3 | M3x3 => 3,
            M3x2 | Crs | Call | EndLoop | EndRep | Dp2Add | Dsx | Dsy | Bem | TexBemL => 2,
            SinCos => 8,
            Tex if texture_slots => match (control, cube) {
                (0, true) | (1, true) => 4,
                (1, false) => 3,
                (2, _) => 6,
                _ => 1,
            },
            TexLdl if texture_slots => {
                if cube {
                    5
                } else {
                    2
                }
            }
            TexLdl => 2,
            TexLdd if texture_slots => 3,
            TexLdd => 3,
            _ => 1,
        }
    }
}
