//! Render states (`D3DRENDERSTATETYPE`): the typed [`RenderState`], the
//! [`RenderStateType`] keys with their D3D9 numbers, the D3D9 defaults, and
//! which states are pixel or vertex state for state blocks.

use super::values::*;

macro_rules! render_states {
    ($($(#[$doc:meta])* $name:ident = $num:literal : $ty:ty = $default:expr, $class:ident;)+) => {
        /// A render state with its typed value (`IDirect3DDevice9::SetRenderState`).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum RenderState {
            $($(#[$doc])* $name($ty),)+
        }

        /// A render state key (`D3DRS_*`), with its D3D9 number as discriminant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum RenderStateType {
            $($(#[$doc])* $name = $num,)+
        }

        impl RenderStateType {
            /// Every render state D3D9 defines, in D3DRS order.
            pub const ALL: &'static [RenderStateType] = &[$(RenderStateType::$name),+];

            /// The key with D3DRS number `raw`, if D3D9 defines one.
            pub fn from_raw(raw: u32) -> Option<RenderStateType> {
                match raw {
                    $($num => Some(RenderStateType::$name),)+
                    _ => None,
                }
            }

            /// The D3DRS number.
            pub const fn raw(self) -> u32 {
                self as u32
            }

            /// The D3D9 default value (raw), for a device with an automatic depth buffer when `auto_depth`.
            pub fn default_raw(self, auto_depth: bool) -> u32 {
                if self == RenderStateType::ZEnable {
                    return u32::from(auto_depth);
                }
                match self {
                    $(RenderStateType::$name => StateValue::to_raw({ let v: $ty = $default; v }),)+
                }
            }

            /// Which state-block class the state belongs to.
            pub const fn class(self) -> StateClass {
                match self {
                    $(RenderStateType::$name => StateClass::$class,)+
                }
            }

            /// The D3D9 name (`D3DRS_ZENABLE`, ...).
            pub fn d3d_name(self) -> String {
                let rust = format!("{self:?}");
                format!("D3DRS_{}", rust.to_ascii_uppercase())
            }
        }

        impl RenderState {
            /// The key and raw DWORD of this state.
            pub fn to_raw(self) -> (RenderStateType, u32) {
                match self {
                    $(RenderState::$name(v) => (RenderStateType::$name, StateValue::to_raw(v)),)+
                }
            }

            /// The typed state for a key and raw value; `None` if the value is not one of the state's values.
            pub fn from_raw(key: RenderStateType, raw: u32) -> Option<RenderState> {
                match key {
                    $(RenderStateType::$name => <$ty as StateValue>::from_raw(raw).map(RenderState::$name),)+
                }
            }
        }
    };
}

/// Which part of the pipeline a state belongs to, for D3DSBT_PIXELSTATE / D3DSBT_VERTEXSTATE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateClass {
    /// Pixel state only.
    Pixel,
    /// Vertex state only.
    Vertex,
    /// Both pixel and vertex state (the fog range states, TEXCOORDINDEX, TEXTURETRANSFORMFLAGS).
    Both,
    /// Neither (captured only by D3DSBT_ALL).
    Other,
}

const TRUE: bool = true;
const FALSE: bool = false;

render_states! {
    /// D3DRS_ZENABLE (default TRUE with an automatic depth buffer, else FALSE).
    ZEnable = 7: ZBufferType = ZBufferType::False, Pixel;
    /// D3DRS_FILLMODE.
    FillMode = 8: FillMode = FillMode::Solid, Pixel;
    /// D3DRS_SHADEMODE.
    ShadeMode = 9: ShadeMode = ShadeMode::Gouraud, Both;
    /// D3DRS_ZWRITEENABLE.
    ZWriteEnable = 14: bool = TRUE, Pixel;
    /// D3DRS_ALPHATESTENABLE.
    AlphaTestEnable = 15: bool = FALSE, Pixel;
    /// D3DRS_LASTPIXEL.
    LastPixel = 16: bool = TRUE, Pixel;
    /// D3DRS_SRCBLEND.
    SrcBlend = 19: Blend = Blend::One, Pixel;
    /// D3DRS_DESTBLEND.
    DestBlend = 20: Blend = Blend::Zero, Pixel;
    /// D3DRS_CULLMODE.
    CullMode = 22: Cull = Cull::Ccw, Vertex;
    /// D3DRS_ZFUNC.
    ZFunc = 23: CmpFunc = CmpFunc::LessEqual, Pixel;
    /// D3DRS_ALPHAREF.
    AlphaRef = 24: u32 = 0, Pixel;
    /// D3DRS_ALPHAFUNC.
    AlphaFunc = 25: CmpFunc = CmpFunc::Always, Pixel;
    /// D3DRS_DITHERENABLE.
    DitherEnable = 26: bool = FALSE, Pixel;
    /// D3DRS_ALPHABLENDENABLE.
    AlphaBlendEnable = 27: bool = FALSE, Pixel;
    /// D3DRS_FOGENABLE.
    FogEnable = 28: bool = FALSE, Vertex;
    /// D3DRS_SPECULARENABLE.
    SpecularEnable = 29: bool = FALSE, Vertex;
    /// D3DRS_FOGCOLOR.
    FogColor = 34: Color = Color(0), Vertex;
    /// D3DRS_FOGTABLEMODE.
    FogTableMode = 35: FogMode = FogMode::None, Vertex;
    /// D3DRS_FOGSTART.
    FogStart = 36: f32 = 0.0, Both;
    /// D3DRS_FOGEND.
    FogEnd = 37: f32 = 1.0, Both;
    /// D3DRS_FOGDENSITY.
    FogDensity = 38: f32 = 1.0, Both;
    /// D3DRS_RANGEFOGENABLE.
    RangeFogEnable = 48: bool = FALSE, Vertex;
    /// D3DRS_STENCILENABLE.
    StencilEnable = 52: bool = FALSE, Pixel;
    /// D3DRS_STENCILFAIL.
    StencilFail = 53: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_STENCILZFAIL.
    StencilZFail = 54: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_STENCILPASS.
    StencilPass = 55: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_STENCILFUNC.
    StencilFunc = 56: CmpFunc = CmpFunc::Always, Pixel;
    /// D3DRS_STENCILREF.
    StencilRef = 57: u32 = 0, Pixel;
    /// D3DRS_STENCILMASK.
    StencilMask = 58: u32 = 0xFFFF_FFFF, Pixel;
    /// D3DRS_STENCILWRITEMASK.
    StencilWriteMask = 59: u32 = 0xFFFF_FFFF, Pixel;
    /// D3DRS_TEXTUREFACTOR.
    TextureFactor = 60: Color = Color(0xFFFF_FFFF), Pixel;
    /// D3DRS_WRAP0.
    Wrap0 = 128: u32 = 0, Pixel;
    /// D3DRS_WRAP1.
    Wrap1 = 129: u32 = 0, Pixel;
    /// D3DRS_WRAP2.
    Wrap2 = 130: u32 = 0, Pixel;
    /// D3DRS_WRAP3.
    Wrap3 = 131: u32 = 0, Pixel;
    /// D3DRS_WRAP4.
    Wrap4 = 132: u32 = 0, Pixel;
    /// D3DRS_WRAP5.
    Wrap5 = 133: u32 = 0, Pixel;
    /// D3DRS_WRAP6.
    Wrap6 = 134: u32 = 0, Pixel;
    /// D3DRS_WRAP7.
    Wrap7 = 135: u32 = 0, Pixel;
    /// D3DRS_CLIPPING.
    Clipping = 136: bool = TRUE, Vertex;
    /// D3DRS_LIGHTING.
    Lighting = 137: bool = TRUE, Vertex;
    /// D3DRS_AMBIENT.
    Ambient = 139: Color = Color(0), Vertex;
    /// D3DRS_FOGVERTEXMODE.
    FogVertexMode = 140: FogMode = FogMode::None, Vertex;
    /// D3DRS_COLORVERTEX.
    ColorVertex = 141: bool = TRUE, Vertex;
    /// D3DRS_LOCALVIEWER.
    LocalViewer = 142: bool = TRUE, Vertex;
    /// D3DRS_NORMALIZENORMALS.
    NormalizeNormals = 143: bool = FALSE, Vertex;
    /// D3DRS_DIFFUSEMATERIALSOURCE.
    DiffuseMaterialSource = 145: MaterialColorSource = MaterialColorSource::Color1, Vertex;
    /// D3DRS_SPECULARMATERIALSOURCE.
    SpecularMaterialSource = 146: MaterialColorSource = MaterialColorSource::Color2, Vertex;
    /// D3DRS_AMBIENTMATERIALSOURCE.
    AmbientMaterialSource = 147: MaterialColorSource = MaterialColorSource::Material, Vertex;
    /// D3DRS_EMISSIVEMATERIALSOURCE.
    EmissiveMaterialSource = 148: MaterialColorSource = MaterialColorSource::Material, Vertex;
    /// D3DRS_VERTEXBLEND.
    VertexBlend = 151: VertexBlendFlags = VertexBlendFlags::Disable, Vertex;
    /// D3DRS_CLIPPLANEENABLE (bit i enables plane i).
    ClipPlaneEnable = 152: u32 = 0, Vertex;
    /// D3DRS_POINTSIZE.
    PointSize = 154: f32 = 1.0, Vertex;
    /// D3DRS_POINTSIZE_MIN.
    PointSizeMin = 155: f32 = 1.0, Vertex;
    /// D3DRS_POINTSPRITEENABLE.
    PointSpriteEnable = 156: bool = FALSE, Vertex;
    /// D3DRS_POINTSCALEENABLE.
    PointScaleEnable = 157: bool = FALSE, Vertex;
    /// D3DRS_POINTSCALE_A.
    PointScaleA = 158: f32 = 1.0, Vertex;
    /// D3DRS_POINTSCALE_B.
    PointScaleB = 159: f32 = 0.0, Vertex;
    /// D3DRS_POINTSCALE_C.
    PointScaleC = 160: f32 = 0.0, Vertex;
    /// D3DRS_MULTISAMPLEANTIALIAS.
    MultisampleAntialias = 161: bool = TRUE, Vertex;
    /// D3DRS_MULTISAMPLEMASK.
    MultisampleMask = 162: u32 = 0xFFFF_FFFF, Vertex;
    /// D3DRS_PATCHEDGESTYLE.
    PatchEdgeStyle = 163: PatchEdgeStyle = PatchEdgeStyle::Discrete, Vertex;
    /// D3DRS_DEBUGMONITORTOKEN.
    DebugMonitorToken = 165: u32 = 0xBAAD_CAFE, Other;
    /// D3DRS_POINTSIZE_MAX.
    PointSizeMax = 166: f32 = 64.0, Vertex;
    /// D3DRS_INDEXEDVERTEXBLENDENABLE.
    IndexedVertexBlendEnable = 167: bool = FALSE, Vertex;
    /// D3DRS_COLORWRITEENABLE (D3DCOLORWRITEENABLE_RED 1, GREEN 2, BLUE 4, ALPHA 8).
    ColorWriteEnable = 168: u32 = 0xF, Pixel;
    /// D3DRS_TWEENFACTOR.
    TweenFactor = 170: f32 = 0.0, Vertex;
    /// D3DRS_BLENDOP.
    BlendOp = 171: BlendOp = BlendOp::Add, Pixel;
    /// D3DRS_POSITIONDEGREE.
    PositionDegree = 172: DegreeType = DegreeType::Cubic, Vertex;
    /// D3DRS_NORMALDEGREE.
    NormalDegree = 173: DegreeType = DegreeType::Linear, Vertex;
    /// D3DRS_SCISSORTESTENABLE.
    ScissorTestEnable = 174: bool = FALSE, Pixel;
    /// D3DRS_SLOPESCALEDEPTHBIAS.
    SlopeScaleDepthBias = 175: f32 = 0.0, Pixel;
    /// D3DRS_ANTIALIASEDLINEENABLE.
    AntialiasedLineEnable = 176: bool = FALSE, Pixel;
    /// D3DRS_MINTESSELLATIONLEVEL.
    MinTessellationLevel = 178: f32 = 1.0, Vertex;
    /// D3DRS_MAXTESSELLATIONLEVEL.
    MaxTessellationLevel = 179: f32 = 1.0, Vertex;
    /// D3DRS_ADAPTIVETESS_X.
    AdaptiveTessX = 180: f32 = 0.0, Vertex;
    /// D3DRS_ADAPTIVETESS_Y.
    AdaptiveTessY = 181: f32 = 0.0, Vertex;
    /// D3DRS_ADAPTIVETESS_Z.
    AdaptiveTessZ = 182: f32 = 1.0, Vertex;
    /// D3DRS_ADAPTIVETESS_W.
    AdaptiveTessW = 183: f32 = 0.0, Vertex;
    /// D3DRS_ENABLEADAPTIVETESSELLATION.
    EnableAdaptiveTessellation = 184: bool = FALSE, Vertex;
    /// D3DRS_TWOSIDEDSTENCILMODE.
    TwoSidedStencilMode = 185: bool = FALSE, Pixel;
    /// D3DRS_CCW_STENCILFAIL.
    CcwStencilFail = 186: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_CCW_STENCILZFAIL.
    CcwStencilZFail = 187: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_CCW_STENCILPASS.
    CcwStencilPass = 188: StencilOp = StencilOp::Keep, Pixel;
    /// D3DRS_CCW_STENCILFUNC.
    CcwStencilFunc = 189: CmpFunc = CmpFunc::Always, Pixel;
    /// D3DRS_COLORWRITEENABLE1.
    ColorWriteEnable1 = 190: u32 = 0xF, Pixel;
    /// D3DRS_COLORWRITEENABLE2.
    ColorWriteEnable2 = 191: u32 = 0xF, Pixel;
    /// D3DRS_COLORWRITEENABLE3.
    ColorWriteEnable3 = 192: u32 = 0xF, Pixel;
    /// D3DRS_BLENDFACTOR.
    BlendFactor = 193: Color = Color(0xFFFF_FFFF), Pixel;
    /// D3DRS_SRGBWRITEENABLE.
    SrgbWriteEnable = 194: bool = FALSE, Pixel;
    /// D3DRS_DEPTHBIAS.
    DepthBias = 195: f32 = 0.0, Pixel;
    /// D3DRS_WRAP8.
    Wrap8 = 198: u32 = 0, Pixel;
    /// D3DRS_WRAP9.
    Wrap9 = 199: u32 = 0, Pixel;
    /// D3DRS_WRAP10.
    Wrap10 = 200: u32 = 0, Pixel;
    /// D3DRS_WRAP11.
    Wrap11 = 201: u32 = 0, Pixel;
    /// D3DRS_WRAP12.
    Wrap12 = 202: u32 = 0, Pixel;
    /// D3DRS_WRAP13.
    Wrap13 = 203: u32 = 0, Pixel;
    /// D3DRS_WRAP14.
    Wrap14 = 204: u32 = 0, Pixel;
    /// D3DRS_WRAP15.
    Wrap15 = 205: u32 = 0, Pixel;
    /// D3DRS_SEPARATEALPHABLENDENABLE.
    SeparateAlphaBlendEnable = 206: bool = FALSE, Pixel;
    /// D3DRS_SRCBLENDALPHA.
    SrcBlendAlpha = 207: Blend = Blend::One, Pixel;
    /// D3DRS_DESTBLENDALPHA.
    DestBlendAlpha = 208: Blend = Blend::Zero, Pixel;
    /// D3DRS_BLENDOPALPHA.
    BlendOpAlpha = 209: BlendOp = BlendOp::Add, Pixel;
}

/// One past the largest D3DRS number: the size of the raw render-state array.
pub const RENDER_STATE_COUNT: usize = 210;
