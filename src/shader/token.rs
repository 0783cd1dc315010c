//! Bit layout of D3D9 shader tokens (bytecode.md §2–§3) and the small value
//! types that name their fields.
//!
//! Everything here is a pure function of token bits; no allocation, no
//! panics. Enums only have variants for values the format defines, so a
//! value of one of these types is always encodable.

/// The end token `0x0000FFFF`.
pub const END_TOKEN: u32 = 0x0000_FFFF;
/// Opcode field value of a comment token.
pub const COMMENT_OPCODE: u32 = 0xFFFE;
/// `'CTAB'` as a little-endian DWORD.
pub const FOURCC_CTAB: u32 = 0x4241_5443;

/// Vertex or pixel shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderType {
    /// `vs_*` (version token high half `0xFFFE`).
    Vertex,
    /// `ps_*` (version token high half `0xFFFF`).
    Pixel,
}

/// A decoded version token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub shader_type: ShaderType,
    /// Major version (1, 2 or 3).
    pub major: u8,
    /// Minor version (`0xFF` for the `_sw` profiles, 1 for `2_x`).
    pub minor: u8,
}

impl Version {
    /// Decode and check a version token; `None` for anything that is not a
    /// shader version this crate knows (§2.1).
    pub fn from_token(tok: u32) -> Option<Version> {
        let shader_type = match tok >> 16 {
            0xFFFE => ShaderType::Vertex,
            0xFFFF => ShaderType::Pixel,
            _ => return None,
        };
        let major = ((tok >> 8) & 0xFF) as u8;
        let minor = (tok & 0xFF) as u8;
        let ok = match (shader_type, major) {
            (ShaderType::Vertex, 1) => minor <= 1,
            (ShaderType::Pixel, 1) => minor <= 4,
            (_, 2) => minor <= 1 || minor == 0xFF,
            (_, 3) => minor == 0 || minor == 0xFF,
            _ => false,
        };
        ok.then_some(Version {
            shader_type,
            major,
            minor,
        })
    }

    /// The version token.
    pub const fn token(self) -> u32 {
        let hi = match self.shader_type {
            ShaderType::Vertex => 0xFFFE_0000,
            ShaderType::Pixel => 0xFFFF_0000,
        };
        hi | ((self.major as u32) << 8) | self.minor as u32
    }

    /// True for a vertex shader.
    pub const fn is_vertex(self) -> bool {
        matches!(self.shader_type, ShaderType::Vertex)
    }

    /// True for a pixel shader.
    pub const fn is_pixel(self) -> bool {
        matches!(self.shader_type, ShaderType::Pixel)
    }

    /// True for shader model 1 (vs_1_x, ps_1_x): no length fields.
    pub const fn is_sm1(self) -> bool {
        self.major < 2
    }

    /// True for the `_sw` software profiles.
    pub const fn is_software(self) -> bool {
        self.minor == 0xFF
    }

    /// `(major, minor)` with `2_x` and `_sw` kept as is, for ordering checks
    /// use [`Version::at_least`].
    pub const fn at_least(self, major: u8, minor: u8) -> bool {
        self.major > major || (self.major == major && self.minor >= minor)
    }

    /// The profile name: `vs_2_0`, `ps_2_x`, `vs_3_sw`, ...
    pub fn profile_name(self) -> String {
        let t = if self.is_vertex() { "vs" } else { "ps" };
        match self.minor {
            0xFF => format!("{t}_{}_sw", self.major),
            1 if self.major == 2 => format!("{t}_2_x"),
            m => format!("{t}_{}_{m}", self.major),
        }
    }
}

/// Register file (`D3DSHADER_PARAM_REGISTER_TYPE`, §4.1). `TEMPFLOAT16`
/// (16) is never emitted and is rejected by the decoder, so it has no variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum RegisterFile {
    /// `r#`
    Temp = 0,
    /// `v#`
    Input = 1,
    /// `c#` 0–2047
    Const = 2,
    /// `a0` in vertex shaders, `t#` in pixel shaders.
    AddrOrTexture = 3,
    /// `oPos`, `oFog`, `oPts`
    RastOut = 4,
    /// `oD#`
    AttrOut = 5,
    /// `oT#` (vs < 3.0) / `o#` (vs_3_0)
    Output = 6,
    /// `i#`
    ConstInt = 7,
    /// `oC#`
    ColorOut = 8,
    /// `oDepth`
    DepthOut = 9,
    /// `s#`
    Sampler = 10,
    /// `c#` 2048–4095
    Const2 = 11,
    /// `c#` 4096–6143
    Const3 = 12,
    /// `c#` 6144–8191
    Const4 = 13,
    /// `b#`
    ConstBool = 14,
    /// `aL`
    Loop = 15,
    /// `vPos` (0), `vFace` (1)
    MiscType = 17,
    /// `l#`
    Label = 18,
    /// `p0`
    Predicate = 19,
}

impl RegisterFile {
    /// From the 5-bit type code.
    pub fn from_code(code: u32) -> Option<RegisterFile> {
        use RegisterFile::*;
        Some(match code {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 => AddrOrTexture,
            4 => RastOut,
            5 => AttrOut,
            6 => Output,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            17 => MiscType,
            18 => Label,
            19 => Predicate,
            _ => return None,
        })
    }

    /// The 5-bit type code.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// True for the four float-constant files.
    pub const fn is_float_const(self) -> bool {
        matches!(
            self,
            Self::Const | Self::Const2 | Self::Const3 | Self::Const4
        )
    }
}

/// A register: file plus number (`[10:0]` of the token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Register {
    /// Register file.
    pub file: RegisterFile,
    /// Register number as encoded (for `Const2..4` without the 2048 offset).
    pub index: u16,
}

impl Register {
    /// Shorthand constructor.
    pub const fn new(file: RegisterFile, index: u16) -> Register {
        Register { file, index }
    }

    /// Float-constant index including the `Const2..4` offsets; the plain
    /// index for every other file.
    pub const fn logical_index(self) -> u32 {
        let base = match self.file {
            RegisterFile::Const2 => 2048,
            RegisterFile::Const3 => 4096,
            RegisterFile::Const4 => 6144,
            _ => 0,
        };
        base + self.index as u32
    }
}

/// Read the register file and number of a parameter token.
pub fn param_register(tok: u32) -> Option<Register> {
    let code = ((tok >> 28) & 0x7) | ((tok >> 8) & 0x18);
    let file = RegisterFile::from_code(code)?;
    Some(Register {
        file,
        index: (tok & 0x7FF) as u16,
    })
}

/// Encode register file and number into parameter-token bits (bit 31 included).
pub const fn register_bits(reg: Register) -> u32 {
    let code = reg.file.code();
    0x8000_0000 | ((code & 0x7) << 28) | ((code & 0x18) << 8) | (reg.index as u32 & 0x7FF)
}

/// A source swizzle: four 2-bit component selectors, x in the low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`
    pub const IDENTITY: Swizzle = Swizzle(0xE4);

    /// Replicate swizzle of component `c` (0..=3).
    pub const fn replicate(c: u8) -> Swizzle {
        let c = c & 3;
        Swizzle(c | (c << 2) | (c << 4) | (c << 6))
    }

    /// Selector for output channel `i` (0..=3).
    pub const fn get(self, i: usize) -> u8 {
        (self.0 >> ((i & 3) * 2)) & 3
    }

    /// True if all four selectors are equal.
    pub const fn is_replicate(self) -> bool {
        self.0 == Swizzle::replicate(self.0 & 3).0
    }

    /// Set of source components read when writing the channels in `mask`.
    pub const fn components_read(self, mask: WriteMask) -> WriteMask {
        let mut out = 0u8;
        let mut i = 0;
        while i < 4 {
            if mask.0 & (1 << i) != 0 {
                out |= 1 << self.get(i);
            }
            i += 1;
        }
        WriteMask(out)
    }
}

/// A destination write mask, bit 0 = x.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// `.xyzw`
    pub const ALL: WriteMask = WriteMask(0xF);

    /// True if channel `i` is written.
    pub const fn has(self, i: usize) -> bool {
        self.0 & (1 << (i & 3)) != 0
    }

    /// True if the masks share a channel.
    pub const fn overlaps(self, other: WriteMask) -> bool {
        self.0 & other.0 != 0
    }
}

/// Source modifier (`D3DSHADER_PARAM_SRCMOD_TYPE`, §3.4). Values 14 and 15
/// are reserved and rejected by the decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SrcModifier {
    /// no modifier
    None = 0,
    /// `-r`
    Neg = 1,
    /// `r_bias`
    Bias = 2,
    /// `-r_bias`
    BiasNeg = 3,
    /// `r_bx2`
    Sign = 4,
    /// `-r_bx2`
    SignNeg = 5,
    /// `1 - r`
    Comp = 6,
    /// `r_x2`
    X2 = 7,
    /// `-r_x2`
    X2Neg = 8,
    /// `r_dz`
    Dz = 9,
    /// `r_dw`
    Dw = 10,
    /// `r_abs`
    Abs = 11,
    /// `-r_abs`
    AbsNeg = 12,
    /// `!r`
    Not = 13,
}

impl SrcModifier {
    /// From the 4-bit field.
    pub fn from_code(v: u32) -> Option<SrcModifier> {
        use SrcModifier::*;
        Some(match v {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            _ => return Option::None,
        })
    }

    /// True for the modifiers legal in SM2+ arithmetic (none, neg, abs, -abs).
    pub const fn is_sm2(self) -> bool {
        matches!(self, Self::None | Self::Neg | Self::Abs | Self::AbsNeg)
    }
}

/// Comparison control of `ifc`, `breakc`, `setp` (§3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Comparison {
    /// `_gt`
    Gt = 1,
    /// `_eq`
    Eq = 2,
    /// `_ge`
    Ge = 3,
    /// `_lt`
    Lt = 4,
    /// `_ne`
    Ne = 5,
    /// `_le`
    Le = 6,
}

impl Comparison {
    /// From the control field; 0 and 7 are invalid.
    pub fn from_code(v: u8) -> Option<Comparison> {
        use Comparison::*;
        Some(match v {
            1 => Gt,
            2 => Eq,
            3 => Ge,
            4 => Lt,
            5 => Ne,
            6 => Le,
            _ => return None,
        })
    }

    /// Assembly suffix without the underscore.
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Gt => "gt",
            Self::Eq => "eq",
            Self::Ge => "ge",
            Self::Lt => "lt",
            Self::Ne => "ne",
            Self::Le => "le",
        }
    }

    /// Parse an assembly suffix.
    pub fn from_suffix(s: &str) -> Option<Comparison> {
        [Self::Gt, Self::Eq, Self::Ge, Self::Lt, Self::Ne, Self::Le]
            .into_iter()
            .find(|c| c.suffix() == s)
    }
}

/// Sampler texture type of a `dcl` (`D3DSAMPLER_TEXTURE_TYPE`, §3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TextureType {
    /// `dcl s#` (unknown)
    Unknown = 0,
    /// `dcl_1d`
    Tex1D = 1,
    /// `dcl_2d`
    Tex2D = 2,
    /// `dcl_cube`
    Cube = 3,
    /// `dcl_volume`
    Volume = 4,
}

impl TextureType {
    /// From the `[30:27]` field.
    pub fn from_code(v: u32) -> Option<TextureType> {
        Some(match v {
            0 => Self::Unknown,
            1 => Self::Tex1D,
            2 => Self::Tex2D,
            3 => Self::Cube,
            4 => Self::Volume,
            _ => return None,
        })
    }

    /// Assembly suffix (`2d`, `cube`, ...); empty for unknown.
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Unknown => "",
            Self::Tex1D => "1d",
            Self::Tex2D => "2d",
            Self::Cube => "cube",
            Self::Volume => "volume",
        }
    }

    /// Number of coordinate components a lookup reads (xy, xyz, ...).
    pub const fn coord_mask(self) -> WriteMask {
        match self {
            Self::Tex1D => WriteMask(0x1),
            Self::Tex2D => WriteMask(0x3),
            Self::Cube | Self::Volume => WriteMask(0x7),
            Self::Unknown => WriteMask(0xF),
        }
    }
}

/// Result-modifier bit: `_sat`.
pub const DST_SATURATE: u8 = 0x1;
/// Result-modifier bit: `_pp`.
pub const DST_PARTIAL_PRECISION: u8 = 0x2;
/// Result-modifier bit: `_centroid`.
pub const DST_CENTROID: u8 = 0x4;
