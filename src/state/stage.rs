//! Texture-stage states (`D3DTEXTURESTAGESTATETYPE`) of the fixed-function pixel pipeline.

use super::values::*;

/// A texture-stage state with its typed value (`IDirect3DDevice9::SetTextureStageState`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextureStageState {
    /// D3DTSS_COLOROP.
    ColorOp(TextureOp),
    /// D3DTSS_COLORARG1.
    ColorArg1(TextureArg),
    /// D3DTSS_COLORARG2.
    ColorArg2(TextureArg),
    /// D3DTSS_ALPHAOP.
    AlphaOp(TextureOp),
    /// D3DTSS_ALPHAARG1.
    AlphaArg1(TextureArg),
    /// D3DTSS_ALPHAARG2.
    AlphaArg2(TextureArg),
    /// D3DTSS_BUMPENVMAT00.
    BumpEnvMat00(f32),
    /// D3DTSS_BUMPENVMAT01.
    BumpEnvMat01(f32),
    /// D3DTSS_BUMPENVMAT10.
    BumpEnvMat10(f32),
    /// D3DTSS_BUMPENVMAT11.
    BumpEnvMat11(f32),
    /// D3DTSS_TEXCOORDINDEX.
    TexCoordIndex(TexCoordIndex),
    /// D3DTSS_BUMPENVLSCALE.
    BumpEnvLScale(f32),
    /// D3DTSS_BUMPENVLOFFSET.
    BumpEnvLOffset(f32),
    /// D3DTSS_TEXTURETRANSFORMFLAGS.
    TextureTransformFlags(TextureTransformFlags),
    /// D3DTSS_COLORARG0.
    ColorArg0(TextureArg),
    /// D3DTSS_ALPHAARG0.
    AlphaArg0(TextureArg),
    /// D3DTSS_RESULTARG.
    ResultArg(TextureArg),
    /// D3DTSS_CONSTANT.
    Constant(Color),
}

/// A texture-stage state key (`D3DTSS_*`), with its D3D9 number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum TextureStageStateType {
    /// D3DTSS_COLOROP.
    ColorOp = 1,
    /// D3DTSS_COLORARG1.
    ColorArg1 = 2,
    /// D3DTSS_COLORARG2.
    ColorArg2 = 3,
    /// D3DTSS_ALPHAOP.
    AlphaOp = 4,
    /// D3DTSS_ALPHAARG1.
    AlphaArg1 = 5,
    /// D3DTSS_ALPHAARG2.
    AlphaArg2 = 6,
    /// D3DTSS_BUMPENVMAT00.
    BumpEnvMat00 = 7,
    /// D3DTSS_BUMPENVMAT01.
    BumpEnvMat01 = 8,
    /// D3DTSS_BUMPENVMAT10.
    BumpEnvMat10 = 9,
    /// D3DTSS_BUMPENVMAT11.
    BumpEnvMat11 = 10,
    /// D3DTSS_TEXCOORDINDEX.
    TexCoordIndex = 11,
    /// D3DTSS_BUMPENVLSCALE.
    BumpEnvLScale = 22,
    /// D3DTSS_BUMPENVLOFFSET.
    BumpEnvLOffset = 23,
    /// D3DTSS_TEXTURETRANSFORMFLAGS.
    TextureTransformFlags = 24,
    /// D3DTSS_COLORARG0.
    ColorArg0 = 26,
    /// D3DTSS_ALPHAARG0.
    AlphaArg0 = 27,
    /// D3DTSS_RESULTARG.
    ResultArg = 28,
    /// D3DTSS_CONSTANT.
    Constant = 32,
}

/// One past the largest D3DTSS number.
pub const STAGE_STATE_COUNT: usize = 33;

impl TextureStageStateType {
    /// Every texture-stage state, in D3DTSS order.
    pub const ALL: [TextureStageStateType; 18] = [
        TextureStageStateType::ColorOp,
        TextureStageStateType::ColorArg1,
        TextureStageStateType::ColorArg2,
        TextureStageStateType::AlphaOp,
        TextureStageStateType::AlphaArg1,
        TextureStageStateType::AlphaArg2,
        TextureStageStateType::BumpEnvMat00,
        TextureStageStateType::BumpEnvMat01,
        TextureStageStateType::BumpEnvMat10,
        TextureStageStateType::BumpEnvMat11,
        TextureStageStateType::TexCoordIndex,
        TextureStageStateType::BumpEnvLScale,
        TextureStageStateType::BumpEnvLOffset,
        TextureStageStateType::TextureTransformFlags,
        TextureStageStateType::ColorArg0,
        TextureStageStateType::AlphaArg0,
        TextureStageStateType::ResultArg,
        TextureStageStateType::Constant,
    ];

    /// The key with D3DTSS number `raw`.
    pub fn from_raw(raw: u32) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.raw() == raw)
    }

    /// The D3DTSS number.
    pub const fn raw(self) -> u32 {
        self as u32
    }

    /// The D3D9 default value (raw) at `stage`.
    pub const fn default_raw(self, stage: u32) -> u32 {
        use TextureStageStateType as T;
        match self {
            T::ColorOp if stage == 0 => TextureOp::Modulate as u32,
            T::AlphaOp if stage == 0 => TextureOp::SelectArg1 as u32,
            T::ColorOp | T::AlphaOp => TextureOp::Disable as u32,
            T::ColorArg1 | T::AlphaArg1 => TextureArg::TEXTURE.0,
            T::ColorArg2 | T::AlphaArg2 | T::ColorArg0 | T::AlphaArg0 | T::ResultArg => {
                TextureArg::CURRENT.0
            }
            T::TexCoordIndex => stage,
            _ => 0,
        }
    }

    /// Whether the state is also vertex state (TEXCOORDINDEX, TEXTURETRANSFORMFLAGS).
    pub const fn is_vertex_state(self) -> bool {
        matches!(
            self,
            TextureStageStateType::TexCoordIndex | TextureStageStateType::TextureTransformFlags
        )
    }
}

impl TextureStageState {
    /// The key and raw DWORD of this state.
    pub fn to_raw(self) -> (TextureStageStateType, u32) {
        use TextureStageState as S;
        use TextureStageStateType as T;
        match self {
            S::ColorOp(v) => (T::ColorOp, v.to_raw()),
            S::ColorArg1(v) => (T::ColorArg1, v.to_raw()),
            S::ColorArg2(v) => (T::ColorArg2, v.to_raw()),
            S::AlphaOp(v) => (T::AlphaOp, v.to_raw()),
            S::AlphaArg1(v) => (T::AlphaArg1, v.to_raw()),
            S::AlphaArg2(v) => (T::AlphaArg2, v.to_raw()),
            S::BumpEnvMat00(v) => (T::BumpEnvMat00, v.to_raw()),
            S::BumpEnvMat01(v) => (T::BumpEnvMat01, v.to_raw()),
            S::BumpEnvMat10(v) => (T::BumpEnvMat10, v.to_raw()),
            S::BumpEnvMat11(v) => (T::BumpEnvMat11, v.to_raw()),
            S::TexCoordIndex(v) => (T::TexCoordIndex, v.to_raw()),
            S::BumpEnvLScale(v) => (T::BumpEnvLScale, v.to_raw()),
            S::BumpEnvLOffset(v) => (T::BumpEnvLOffset, v.to_raw()),
            S::TextureTransformFlags(v) => (T::TextureTransformFlags, v.to_raw()),
            S::ColorArg0(v) => (T::ColorArg0, v.to_raw()),
            S::AlphaArg0(v) => (T::AlphaArg0, v.to_raw()),
            S::ResultArg(v) => (T::ResultArg, v.to_raw()),
            S::Constant(v) => (T::Constant, v.to_raw()),
        }
    }
}
