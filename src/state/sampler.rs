//! Sampler states (`D3DSAMPLERSTATETYPE`) and sampler slots.

use super::values::*;

/// A sampler state with its typed value (`IDirect3DDevice9::SetSamplerState`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SamplerState {
    /// D3DSAMP_ADDRESSU.
    AddressU(TextureAddress),
    /// D3DSAMP_ADDRESSV.
    AddressV(TextureAddress),
    /// D3DSAMP_ADDRESSW.
    AddressW(TextureAddress),
    /// D3DSAMP_BORDERCOLOR.
    BorderColor(Color),
    /// D3DSAMP_MAGFILTER.
    MagFilter(TextureFilter),
    /// D3DSAMP_MINFILTER.
    MinFilter(TextureFilter),
    /// D3DSAMP_MIPFILTER.
    MipFilter(TextureFilter),
    /// D3DSAMP_MIPMAPLODBIAS.
    MipMapLodBias(f32),
    /// D3DSAMP_MAXMIPLEVEL.
    MaxMipLevel(u32),
    /// D3DSAMP_MAXANISOTROPY.
    MaxAnisotropy(u32),
    /// D3DSAMP_SRGBTEXTURE.
    SrgbTexture(bool),
    /// D3DSAMP_ELEMENTINDEX.
    ElementIndex(u32),
    /// D3DSAMP_DMAPOFFSET.
    DmapOffset(u32),
}

/// A sampler state key (`D3DSAMP_*`), with its D3D9 number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum SamplerStateType {
    /// D3DSAMP_ADDRESSU.
    AddressU = 1,
    /// D3DSAMP_ADDRESSV.
    AddressV = 2,
    /// D3DSAMP_ADDRESSW.
    AddressW = 3,
    /// D3DSAMP_BORDERCOLOR.
    BorderColor = 4,
    /// D3DSAMP_MAGFILTER.
    MagFilter = 5,
    /// D3DSAMP_MINFILTER.
    MinFilter = 6,
    /// D3DSAMP_MIPFILTER.
    MipFilter = 7,
    /// D3DSAMP_MIPMAPLODBIAS.
    MipMapLodBias = 8,
    /// D3DSAMP_MAXMIPLEVEL.
    MaxMipLevel = 9,
    /// D3DSAMP_MAXANISOTROPY.
    MaxAnisotropy = 10,
    /// D3DSAMP_SRGBTEXTURE.
    SrgbTexture = 11,
    /// D3DSAMP_ELEMENTINDEX.
    ElementIndex = 12,
    /// D3DSAMP_DMAPOFFSET.
    DmapOffset = 13,
}

/// One past the largest D3DSAMP number.
pub const SAMPLER_STATE_COUNT: usize = 14;

impl SamplerStateType {
    /// Every sampler state, in D3DSAMP order.
    pub const ALL: [SamplerStateType; 13] = [
        SamplerStateType::AddressU,
        SamplerStateType::AddressV,
        SamplerStateType::AddressW,
        SamplerStateType::BorderColor,
        SamplerStateType::MagFilter,
        SamplerStateType::MinFilter,
        SamplerStateType::MipFilter,
        SamplerStateType::MipMapLodBias,
        SamplerStateType::MaxMipLevel,
        SamplerStateType::MaxAnisotropy,
        SamplerStateType::SrgbTexture,
        SamplerStateType::ElementIndex,
        SamplerStateType::DmapOffset,
    ];

    /// The key with D3DSAMP number `raw`.
    pub fn from_raw(raw: u32) -> Option<Self> {
        Self::ALL.get((raw as usize).wrapping_sub(1)).copied()
    }

    /// The D3DSAMP number.
    pub const fn raw(self) -> u32 {
        self as u32
    }

    /// The D3D9 default value (raw).
    pub const fn default_raw(self) -> u32 {
        match self {
            SamplerStateType::AddressU
            | SamplerStateType::AddressV
            | SamplerStateType::AddressW => TextureAddress::Wrap as u32,
            SamplerStateType::MagFilter | SamplerStateType::MinFilter => {
                TextureFilter::Point as u32
            }
            SamplerStateType::MaxAnisotropy => 1,
            _ => 0,
        }
    }

    /// Whether this is vertex state (only DMAPOFFSET) rather than pixel state.
    pub const fn is_vertex_state(self) -> bool {
        matches!(self, SamplerStateType::DmapOffset)
    }
}

impl SamplerState {
    /// The key and raw DWORD of this state.
    pub fn to_raw(self) -> (SamplerStateType, u32) {
        use SamplerState as S;
        use SamplerStateType as T;
        match self {
            S::AddressU(v) => (T::AddressU, v.to_raw()),
            S::AddressV(v) => (T::AddressV, v.to_raw()),
            S::AddressW(v) => (T::AddressW, v.to_raw()),
            S::BorderColor(v) => (T::BorderColor, v.to_raw()),
            S::MagFilter(v) => (T::MagFilter, v.to_raw()),
            S::MinFilter(v) => (T::MinFilter, v.to_raw()),
            S::MipFilter(v) => (T::MipFilter, v.to_raw()),
            S::MipMapLodBias(v) => (T::MipMapLodBias, v.to_raw()),
            S::MaxMipLevel(v) => (T::MaxMipLevel, v),
            S::MaxAnisotropy(v) => (T::MaxAnisotropy, v),
            S::SrgbTexture(v) => (T::SrgbTexture, v.to_raw()),
            S::ElementIndex(v) => (T::ElementIndex, v),
            S::DmapOffset(v) => (T::DmapOffset, v),
        }
    }
}

/// A sampler slot: pixel samplers 0..15, the displacement-map sampler, and
/// the four vertex samplers (`D3DVERTEXTEXTURESAMPLER0..3` = 257..260).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampler {
    /// Pixel sampler s0..s15 (also the fixed-function stages 0..7).
    Pixel(u8),
    /// D3DDMAPSAMPLER (256).
    DisplacementMap,
    /// Vertex sampler 0..3 (`D3DVERTEXTEXTURESAMPLER0 + n`).
    Vertex(u8),
}

/// The number of sampler slots the device stores: 16 pixel, 1 displacement map, 4 vertex.
pub const SAMPLER_SLOTS: usize = 21;

impl Sampler {
    /// The slot for a D3D9 sampler number (0..15, 256, 257..260).
    pub fn from_raw(raw: u32) -> Option<Sampler> {
        match raw {
            0..=15 => Some(Sampler::Pixel(raw as u8)),
            256 => Some(Sampler::DisplacementMap),
            257..=260 => Some(Sampler::Vertex((raw - 257) as u8)),
            _ => None,
        }
    }

    /// The D3D9 sampler number.
    pub const fn raw(self) -> u32 {
        match self {
            Sampler::Pixel(i) => i as u32,
            Sampler::DisplacementMap => 256,
            Sampler::Vertex(i) => 257 + i as u32,
        }
    }

    /// Index into the device's sampler arrays (0..21); `None` if out of range.
    pub const fn slot(self) -> Option<usize> {
        match self {
            Sampler::Pixel(i) if i < 16 => Some(i as usize),
            Sampler::DisplacementMap => Some(16),
            Sampler::Vertex(i) if i < 4 => Some(17 + i as usize),
            _ => None,
        }
    }

    /// The slot for an array index (inverse of [`Sampler::slot`]).
    pub const fn from_slot(slot: usize) -> Sampler {
        match slot {
            0..=15 => Sampler::Pixel(slot as u8),
            16 => Sampler::DisplacementMap,
            _ => Sampler::Vertex((slot - 17) as u8),
        }
    }
}
