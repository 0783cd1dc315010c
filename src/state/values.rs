//! The typed values of D3D9 states (`D3DCMPFUNC`, `D3DBLEND`, ...), each with
//! its D3D9 number, and the [`StateValue`] conversion every state uses to
//! travel between its typed and raw (`u32`) forms.
//!
//! Raw values are what the device stores: D3D9's setters accept any value of
//! a known state, so a stored value need not be a valid enum member. The
//! draw-time validation decodes and rejects such values.

/// A state value with a D3D9 numeric (`DWORD`) form.
pub trait StateValue: Sized + Copy {
    /// The D3D9 DWORD for this value.
    fn to_raw(self) -> u32;
    /// The value for a D3D9 DWORD, if it is one.
    fn from_raw(raw: u32) -> Option<Self>;
}

impl StateValue for u32 {
    fn to_raw(self) -> u32 {
        self
    }
    fn from_raw(raw: u32) -> Option<Self> {
        Some(raw)
    }
}

impl StateValue for bool {
    fn to_raw(self) -> u32 {
        u32::from(self)
    }
    /// D3D9 treats any non-zero DWORD as TRUE.
    fn from_raw(raw: u32) -> Option<Self> {
        Some(raw != 0)
    }
}

impl StateValue for f32 {
    /// Float states travel as their bit pattern, as D3D9's `*(DWORD*)&f`.
    fn to_raw(self) -> u32 {
        self.to_bits()
    }
    fn from_raw(raw: u32) -> Option<Self> {
        Some(f32::from_bits(raw))
    }
}

/// A `D3DCOLOR`: 0xAARRGGBB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Color(pub u32);

impl Color {
    /// The colour as linear floats (r, g, b, a) in [0, 1].
    pub fn to_rgba(self) -> [f32; 4] {
        let c = |s: u32| ((self.0 >> s) & 0xFF) as f32 / 255.0;
        [c(16), c(8), c(0), c(24)]
    }
}

impl StateValue for Color {
    fn to_raw(self) -> u32 {
        self.0
    }
    fn from_raw(raw: u32) -> Option<Self> {
        Some(Color(raw))
    }
}

/// Declares a D3D9 enumeration: a Rust enum whose discriminants are the D3D9 numbers.
macro_rules! d3d_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:expr),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum $name {
            $($(#[$vmeta])* $variant = $value),+
        }

        impl $name {
            /// Every value, in D3D9 order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
        }

        impl StateValue for $name {
            fn to_raw(self) -> u32 {
                self as u32
            }
            fn from_raw(raw: u32) -> Option<Self> {
                match raw {
                    $(x if x == $value => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

d3d_enum! {
    /// `D3DZBUFFERTYPE`.
    ZBufferType { /** D3DZB_FALSE */ False = 0, /** D3DZB_TRUE */ True = 1, /** D3DZB_USEW */ UseW = 2 }
}

d3d_enum! {
    /// `D3DFILLMODE`.
    FillMode { /** D3DFILL_POINT */ Point = 1, /** D3DFILL_WIREFRAME */ Wireframe = 2, /** D3DFILL_SOLID */ Solid = 3 }
}

d3d_enum! {
    /// `D3DSHADEMODE`.
    ShadeMode { /** D3DSHADE_FLAT */ Flat = 1, /** D3DSHADE_GOURAUD */ Gouraud = 2, /** D3DSHADE_PHONG (no device implements it) */ Phong = 3 }
}

d3d_enum! {
    /// `D3DBLEND`.
    Blend {
        /** D3DBLEND_ZERO */ Zero = 1,
        /** D3DBLEND_ONE */ One = 2,
        /** D3DBLEND_SRCCOLOR */ SrcColor = 3,
        /** D3DBLEND_INVSRCCOLOR */ InvSrcColor = 4,
        /** D3DBLEND_SRCALPHA */ SrcAlpha = 5,
        /** D3DBLEND_INVSRCALPHA */ InvSrcAlpha = 6,
        /** D3DBLEND_DESTALPHA */ DestAlpha = 7,
        /** D3DBLEND_INVDESTALPHA */ InvDestAlpha = 8,
        /** D3DBLEND_DESTCOLOR */ DestColor = 9,
        /** D3DBLEND_INVDESTCOLOR */ InvDestColor = 10,
        /** D3DBLEND_SRCALPHASAT */ SrcAlphaSat = 11,
        /** D3DBLEND_BOTHSRCALPHA (obsolete: src = SRCALPHA, dest = INVSRCALPHA) */ BothSrcAlpha = 12,
        /** D3DBLEND_BOTHINVSRCALPHA (obsolete: src = INVSRCALPHA, dest = SRCALPHA) */ BothInvSrcAlpha = 13,
        /** D3DBLEND_BLENDFACTOR */ BlendFactor = 14,
        /** D3DBLEND_INVBLENDFACTOR */ InvBlendFactor = 15,
        /** D3DBLEND_SRCCOLOR2 (9Ex) */ SrcColor2 = 16,
        /** D3DBLEND_INVSRCCOLOR2 (9Ex) */ InvSrcColor2 = 17,
    }
}

d3d_enum! {
    /// `D3DBLENDOP`.
    BlendOp {
        /** D3DBLENDOP_ADD */ Add = 1,
        /** D3DBLENDOP_SUBTRACT */ Subtract = 2,
        /** D3DBLENDOP_REVSUBTRACT */ RevSubtract = 3,
        /** D3DBLENDOP_MIN */ Min = 4,
        /** D3DBLENDOP_MAX */ Max = 5,
    }
}

d3d_enum! {
    /// `D3DCULL`.
    Cull { /** D3DCULL_NONE */ None = 1, /** D3DCULL_CW */ Cw = 2, /** D3DCULL_CCW */ Ccw = 3 }
}

d3d_enum! {
    /// `D3DCMPFUNC`.
    CmpFunc {
        /** D3DCMP_NEVER */ Never = 1,
        /** D3DCMP_LESS */ Less = 2,
        /** D3DCMP_EQUAL */ Equal = 3,
        /** D3DCMP_LESSEQUAL */ LessEqual = 4,
        /** D3DCMP_GREATER */ Greater = 5,
        /** D3DCMP_NOTEQUAL */ NotEqual = 6,
        /** D3DCMP_GREATEREQUAL */ GreaterEqual = 7,
        /** D3DCMP_ALWAYS */ Always = 8,
    }
}

d3d_enum! {
    /// `D3DSTENCILOP`.
    StencilOp {
        /** D3DSTENCILOP_KEEP */ Keep = 1,
        /** D3DSTENCILOP_ZERO */ Zero = 2,
        /** D3DSTENCILOP_REPLACE */ Replace = 3,
        /** D3DSTENCILOP_INCRSAT */ IncrSat = 4,
        /** D3DSTENCILOP_DECRSAT */ DecrSat = 5,
        /** D3DSTENCILOP_INVERT */ Invert = 6,
        /** D3DSTENCILOP_INCR */ Incr = 7,
        /** D3DSTENCILOP_DECR */ Decr = 8,
    }
}

d3d_enum! {
    /// `D3DFOGMODE`.
    FogMode { /** D3DFOG_NONE */ None = 0, /** D3DFOG_EXP */ Exp = 1, /** D3DFOG_EXP2 */ Exp2 = 2, /** D3DFOG_LINEAR */ Linear = 3 }
}

d3d_enum! {
    /// `D3DMATERIALCOLORSOURCE`.
    MaterialColorSource { /** D3DMCS_MATERIAL */ Material = 0, /** D3DMCS_COLOR1 */ Color1 = 1, /** D3DMCS_COLOR2 */ Color2 = 2 }
}

d3d_enum! {
    /// `D3DVERTEXBLENDFLAGS`.
    VertexBlendFlags {
        /** D3DVBF_DISABLE */ Disable = 0,
        /** D3DVBF_1WEIGHTS */ Weights1 = 1,
        /** D3DVBF_2WEIGHTS */ Weights2 = 2,
        /** D3DVBF_3WEIGHTS */ Weights3 = 3,
        /** D3DVBF_TWEENING */ Tweening = 255,
        /** D3DVBF_0WEIGHTS */ Weights0 = 256,
    }
}

d3d_enum! {
    /// `D3DPATCHEDGESTYLE`.
    PatchEdgeStyle { /** D3DPATCHEDGE_DISCRETE */ Discrete = 0, /** D3DPATCHEDGE_CONTINUOUS */ Continuous = 1 }
}

d3d_enum! {
    /// `D3DDEGREETYPE`.
    DegreeType { /** D3DDEGREE_LINEAR */ Linear = 1, /** D3DDEGREE_QUADRATIC */ Quadratic = 2, /** D3DDEGREE_CUBIC */ Cubic = 3, /** D3DDEGREE_QUINTIC */ Quintic = 5 }
}

d3d_enum! {
    /// `D3DTEXTUREADDRESS`.
    TextureAddress {
        /** D3DTADDRESS_WRAP */ Wrap = 1,
        /** D3DTADDRESS_MIRROR */ Mirror = 2,
        /** D3DTADDRESS_CLAMP */ Clamp = 3,
        /** D3DTADDRESS_BORDER */ Border = 4,
        /** D3DTADDRESS_MIRRORONCE */ MirrorOnce = 5,
    }
}

d3d_enum! {
    /// `D3DTEXTUREFILTERTYPE`.
    TextureFilter {
        /** D3DTEXF_NONE */ None = 0,
        /** D3DTEXF_POINT */ Point = 1,
        /** D3DTEXF_LINEAR */ Linear = 2,
        /** D3DTEXF_ANISOTROPIC */ Anisotropic = 3,
        /** D3DTEXF_PYRAMIDALQUAD */ PyramidalQuad = 6,
        /** D3DTEXF_GAUSSIANQUAD */ GaussianQuad = 7,
        /** D3DTEXF_CONVOLUTIONMONO (9Ex) */ ConvolutionMono = 8,
    }
}

d3d_enum! {
    /// `D3DTEXTUREOP`.
    TextureOp {
        /** D3DTOP_DISABLE */ Disable = 1,
        /** D3DTOP_SELECTARG1 */ SelectArg1 = 2,
        /** D3DTOP_SELECTARG2 */ SelectArg2 = 3,
        /** D3DTOP_MODULATE */ Modulate = 4,
        /** D3DTOP_MODULATE2X */ Modulate2x = 5,
        /** D3DTOP_MODULATE4X */ Modulate4x = 6,
        /** D3DTOP_ADD */ Add = 7,
        /** D3DTOP_ADDSIGNED */ AddSigned = 8,
        /** D3DTOP_ADDSIGNED2X */ AddSigned2x = 9,
        /** D3DTOP_SUBTRACT */ Subtract = 10,
        /** D3DTOP_ADDSMOOTH */ AddSmooth = 11,
        /** D3DTOP_BLENDDIFFUSEALPHA */ BlendDiffuseAlpha = 12,
        /** D3DTOP_BLENDTEXTUREALPHA */ BlendTextureAlpha = 13,
        /** D3DTOP_BLENDFACTORALPHA */ BlendFactorAlpha = 14,
        /** D3DTOP_BLENDTEXTUREALPHAPM */ BlendTextureAlphaPm = 15,
        /** D3DTOP_BLENDCURRENTALPHA */ BlendCurrentAlpha = 16,
        /** D3DTOP_PREMODULATE */ Premodulate = 17,
        /** D3DTOP_MODULATEALPHA_ADDCOLOR */ ModulateAlphaAddColor = 18,
        /** D3DTOP_MODULATECOLOR_ADDALPHA */ ModulateColorAddAlpha = 19,
        /** D3DTOP_MODULATEINVALPHA_ADDCOLOR */ ModulateInvAlphaAddColor = 20,
        /** D3DTOP_MODULATEINVCOLOR_ADDALPHA */ ModulateInvColorAddAlpha = 21,
        /** D3DTOP_BUMPENVMAP */ BumpEnvMap = 22,
        /** D3DTOP_BUMPENVMAPLUMINANCE */ BumpEnvMapLuminance = 23,
        /** D3DTOP_DOTPRODUCT3 */ DotProduct3 = 24,
        /** D3DTOP_MULTIPLYADD */ MultiplyAdd = 25,
        /** D3DTOP_LERP */ Lerp = 26,
    }
}

impl TextureOp {
    /// The `D3DTEXOPCAPS_*` bit that advertises this operation.
    pub const fn cap_bit(self) -> u32 {
        1 << (self as u32 - 1)
    }
}

impl Blend {
    /// The `D3DPBLENDCAPS_*` bit that advertises this factor (INVBLENDFACTOR shares BLENDFACTOR's).
    pub const fn cap_bit(self) -> u32 {
        match self {
            Blend::InvBlendFactor => 0x2000,
            other => 1 << (other as u32 - 1),
        }
    }
}

impl CmpFunc {
    /// The `D3DPCMPCAPS_*` bit that advertises this comparison.
    pub const fn cap_bit(self) -> u32 {
        1 << (self as u32 - 1)
    }
}

impl StencilOp {
    /// The `D3DSTENCILCAPS_*` bit that advertises this operation.
    pub const fn cap_bit(self) -> u32 {
        1 << (self as u32 - 1)
    }
}

impl TextureAddress {
    /// The `D3DPTADDRESSCAPS_*` bit that advertises this mode.
    pub const fn cap_bit(self) -> u32 {
        match self {
            TextureAddress::Wrap => 0x1,
            TextureAddress::Mirror => 0x2,
            TextureAddress::Clamp => 0x4,
            TextureAddress::Border => 0x8,
            TextureAddress::MirrorOnce => 0x20,
        }
    }
}

/// A texture-stage argument (`D3DTA_*`): a source selector plus modifier flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureArg(pub u32);

impl TextureArg {
    /// D3DTA_DIFFUSE.
    pub const DIFFUSE: TextureArg = TextureArg(0);
    /// D3DTA_CURRENT.
    pub const CURRENT: TextureArg = TextureArg(1);
    /// D3DTA_TEXTURE.
    pub const TEXTURE: TextureArg = TextureArg(2);
    /// D3DTA_TFACTOR.
    pub const TFACTOR: TextureArg = TextureArg(3);
    /// D3DTA_SPECULAR.
    pub const SPECULAR: TextureArg = TextureArg(4);
    /// D3DTA_TEMP.
    pub const TEMP: TextureArg = TextureArg(5);
    /// D3DTA_CONSTANT.
    pub const CONSTANT: TextureArg = TextureArg(6);
    /// D3DTA_SELECTMASK: the selector bits.
    pub const SELECT_MASK: u32 = 0xF;
    /// D3DTA_COMPLEMENT: use 1 - x.
    pub const COMPLEMENT: u32 = 0x10;
    /// D3DTA_ALPHAREPLICATE: replicate alpha into the colour channels.
    pub const ALPHAREPLICATE: u32 = 0x20;

    /// This argument with D3DTA_COMPLEMENT.
    pub const fn complement(self) -> TextureArg {
        TextureArg(self.0 | Self::COMPLEMENT)
    }

    /// This argument with D3DTA_ALPHAREPLICATE.
    pub const fn alpha_replicate(self) -> TextureArg {
        TextureArg(self.0 | Self::ALPHAREPLICATE)
    }

    /// The source selector (D3DTA_DIFFUSE .. D3DTA_CONSTANT).
    pub const fn select(self) -> u32 {
        self.0 & Self::SELECT_MASK
    }

    /// Whether the value is a selector known to D3D9 with only known modifier bits.
    pub const fn is_valid(self) -> bool {
        self.select() <= 6 && self.0 & !(Self::SELECT_MASK | 0x30) == 0
    }
}

impl StateValue for TextureArg {
    fn to_raw(self) -> u32 {
        self.0
    }
    fn from_raw(raw: u32) -> Option<Self> {
        let arg = TextureArg(raw);
        arg.is_valid().then_some(arg)
    }
}

/// `D3DTEXTURETRANSFORMFLAGS`: the coordinate count (0..4) and PROJECTED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureTransformFlags {
    /// D3DTTFF_COUNTn: how many coordinates the transform outputs (0 = disabled).
    pub count: u32,
    /// D3DTTFF_PROJECTED: divide by the last coordinate.
    pub projected: bool,
}

impl TextureTransformFlags {
    /// How a draw reads any stored value, valid or not: the PROJECTED bit
    /// counts, and a count beyond 4 reads as 0 (no transform, the input's
    /// width). Windows drivers draw `0xFFFFFFFF` as PROJECTED with the
    /// coordinate's own width (Wine `texture_transform_flags_test`).
    pub fn lenient(raw: u32) -> TextureTransformFlags {
        let count = raw & 0xFF;
        TextureTransformFlags {
            count: if count <= 4 { count } else { 0 },
            projected: raw & 256 != 0,
        }
    }
}

impl StateValue for TextureTransformFlags {
    fn to_raw(self) -> u32 {
        self.count | if self.projected { 256 } else { 0 }
    }
    fn from_raw(raw: u32) -> Option<Self> {
        let count = raw & 0xFF;
        (count <= 4 && raw & !0x1FF == 0).then_some(TextureTransformFlags {
            count,
            projected: raw & 256 != 0,
        })
    }
}

/// `D3DTSS_TEXCOORDINDEX`: the coordinate set index and the texgen mode (`D3DTSS_TCI_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexCoordIndex {
    /// Which texture-coordinate set of the vertex (0..7).
    pub index: u32,
    /// How coordinates are generated.
    pub generate: TexGen,
}

d3d_enum! {
    /// `D3DTSS_TCI_*` texture-coordinate generation modes (the high word of TEXCOORDINDEX, shifted down).
    TexGen {
        /** D3DTSS_TCI_PASSTHRU */ PassThru = 0,
        /** D3DTSS_TCI_CAMERASPACENORMAL */ CameraSpaceNormal = 1,
        /** D3DTSS_TCI_CAMERASPACEPOSITION */ CameraSpacePosition = 2,
        /** D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR */ CameraSpaceReflectionVector = 3,
        /** D3DTSS_TCI_SPHEREMAP */ SphereMap = 4,
    }
}

impl StateValue for TexCoordIndex {
    fn to_raw(self) -> u32 {
        (self.generate.to_raw() << 16) | self.index
    }
    fn from_raw(raw: u32) -> Option<Self> {
        let index = raw & 0xFFFF;
        let generate = TexGen::from_raw(raw >> 16)?;
        (index < 8).then_some(TexCoordIndex { index, generate })
    }
}
