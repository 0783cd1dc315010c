//! The sampler: texture fetch for the Warp (8-lane) and Reference (scalar)
//! pipelines, implementing [`TextureFetch`] and [`TextureFetchScalar`].
//!
//! A draw builds a [`BoundTextures`] once — from the device's state with
//! [`BoundTextures::from_state`], or slot by slot with
//! [`BoundTextures::bind`] — and the pixel and vertex stages call
//! `sample(slot, coords, lod)` on it. Building takes a snapshot of every
//! bound level (copy-on-write: later writes to the texture do not change
//! what the draw samples) and resolves the sampler states into a `Slot`:
//! filters, address modes, border colour in the filter domain, LOD bias,
//! most detailed level (`max(MAXMIPLEVEL, SetLOD)`; SetLOD alone with
//! MIPFILTER NONE, as Windows drivers do in Wine's maxmip_test), sRGB (only
//! for formats that the format table lets read sRGB), and depth comparison
//! for depth textures (textures.md section 8).
//!
//! The algorithm (textures.md sections 4–8), identical in both paths:
//! 1. Coordinates: 2D (u, v), volume (u, v, w), cube: direction → face and
//!    face (u, v) clamped to [0, 1] (`cube`). Projected reads are divided by
//!    the caller (texldp, D3DTTFF_PROJECTED) before sampling.
//! 2. LOD (`lod`): texel-space derivatives → isotropic LOD, or for
//!    ANISOTROPIC minification of 2D textures the minor-axis LOD and
//!    `ceil(ratio)` probes; `Lod::Level` takes the value as is. Then
//!    `+ MIPMAPLODBIAS`, then `+ bias` (texldb); clamped to ±64.
//! 3. `lod <= 0` magnifies (MAGFILTER, most detailed level); otherwise
//!    MINFILTER with the mip filter choosing one level or two and a weight.
//! 4. Per level: point (1 tap), bilinear (4), volume trilinear (8), cube
//!    bilinear across face edges, anisotropic probes averaged.
//! 5. Levels blended `c0 + (c1 - c0) f` (skipped when `f == 0`), then each
//!    channel divided by its format divisor (`decode`).
//!
//! Invariants: nothing here panics or returns errors on any input; a slot
//! with no texture reads (0, 0, 0, 1); Warp and Reference give bit-identical
//! results for identical requests (no FMA, no approximate reciprocals, one
//! shared texel decode; `tests/sampler/` check it on both backends).

mod address;
mod bytes;
mod cube;
mod decode;
mod fast;
mod lod;
mod quick;
mod reference;
mod warp;

use std::sync::Arc;

pub use decode::decode_dxt_block;

use crate::caps::{FeatureLevel, check_format};
use crate::format::{Format, ResourceKind, Usage};
use crate::resource::BaseTexture;
use crate::simd::{Outlined, Simd};
use crate::state::{
    SAMPLER_SLOTS, SAMPLER_STATE_COUNT, SamplerStateType, StateValue, TextureAddress, TextureFilter,
};
use crate::texture_fetch::{Lod, SamplerSlot, TextureFetch, TextureFetchScalar};
use decode::{Chan, Decoder, LevelData};

/// Typed sampler states of one slot (`D3DSAMP_*`), as the sampler uses them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerDesc {
    /// D3DSAMP_ADDRESSU, V, W.
    pub address: [TextureAddress; 3],
    /// D3DSAMP_BORDERCOLOR (`0xAARRGGBB`).
    pub border_color: u32,
    /// D3DSAMP_MAGFILTER.
    pub mag_filter: TextureFilter,
    /// D3DSAMP_MINFILTER.
    pub min_filter: TextureFilter,
    /// D3DSAMP_MIPFILTER.
    pub mip_filter: TextureFilter,
    /// D3DSAMP_MIPMAPLODBIAS.
    pub mip_lod_bias: f32,
    /// D3DSAMP_MAXMIPLEVEL: the most detailed level allowed.
    pub max_mip_level: u32,
    /// D3DSAMP_MAXANISOTROPY.
    pub max_anisotropy: u32,
    /// D3DSAMP_SRGBTEXTURE.
    pub srgb: bool,
}

impl Default for SamplerDesc {
    /// D3D9's defaults: WRAP, border 0, POINT/POINT/NONE, no bias, level 0, anisotropy 1, no sRGB.
    fn default() -> Self {
        SamplerDesc {
            address: [TextureAddress::Wrap; 3],
            border_color: 0,
            mag_filter: TextureFilter::Point,
            min_filter: TextureFilter::Point,
            mip_filter: TextureFilter::None,
            mip_lod_bias: 0.0,
            max_mip_level: 0,
            max_anisotropy: 1,
            srgb: false,
        }
    }
}

impl SamplerDesc {
    /// From the raw DWORDs the device stores (`[D3DSAMP]`). Values that are
    /// not valid members (which draw validation rejects) read as the defaults.
    pub fn from_raw(raw: &[u32; SAMPLER_STATE_COUNT]) -> SamplerDesc {
        let get = |k: SamplerStateType| raw[k.raw() as usize];
        let addr = |k| TextureAddress::from_raw(get(k)).unwrap_or(TextureAddress::Wrap);
        let filt = |k, d| TextureFilter::from_raw(get(k)).unwrap_or(d);
        SamplerDesc {
            address: [
                addr(SamplerStateType::AddressU),
                addr(SamplerStateType::AddressV),
                addr(SamplerStateType::AddressW),
            ],
            border_color: get(SamplerStateType::BorderColor),
            mag_filter: filt(SamplerStateType::MagFilter, TextureFilter::Point),
            min_filter: filt(SamplerStateType::MinFilter, TextureFilter::Point),
            mip_filter: filt(SamplerStateType::MipFilter, TextureFilter::None),
            mip_lod_bias: f32::from_bits(get(SamplerStateType::MipMapLodBias)),
            max_mip_level: get(SamplerStateType::MaxMipLevel),
            max_anisotropy: get(SamplerStateType::MaxAnisotropy),
            srgb: get(SamplerStateType::SrgbTexture) != 0,
        }
    }
}

/// The texture dimension a slot samples (the bound texture's type decides,
/// whatever the shader declared: Wine's test_mismatched_sample_types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dim {
    Tex2D,
    Cube,
    Volume,
}

/// A min/mag filter as the sampler runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filt {
    Point,
    Linear,
    Aniso,
}

/// A mip filter as the sampler runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mip {
    None,
    Point,
    Linear,
}

/// One bound texture with its resolved sampler state.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) dim: Dim,
    /// Mip levels; cube maps store `level * 6 + face`.
    pub(crate) levels: Vec<LevelData>,
    /// Index of the last level, as f32.
    pub(crate) last: f32,
    /// Level 0's (width, height, depth) as f32.
    pub(crate) size0: [f32; 3],
    pub(crate) decoder: Decoder,
    /// Per-channel divisor applied after filtering (1 for depth comparison).
    pub(crate) divisor: [f32; 4],
    pub(crate) srgb: bool,
    /// Depth comparison: the depth code's divisor.
    pub(crate) compare: Option<f32>,
    pub(crate) address: [TextureAddress; 3],
    /// Border colour in the filter domain.
    pub(crate) border: [f32; 4],
    pub(crate) mag: Filt,
    pub(crate) min: Filt,
    pub(crate) mip: Mip,
    pub(crate) lod_bias: f32,
    /// Most detailed level with mip filtering: `min(max(MAXMIPLEVEL, SetLOD), last)`.
    pub(crate) base: f32,
    /// Most detailed level with MIPFILTER NONE: `min(SetLOD, last)`.
    pub(crate) base_none: f32,
    /// MAXANISOTROPY clamped to [1, the device's MaxAnisotropy].
    pub(crate) max_aniso: f32,
    /// [`Slot::sample_quick`] serves this slot (`quick_shape`).
    pub(crate) quick: bool,
    /// The quick path's byte kernel, when the slot has its shape.
    pub(crate) bytes: Option<bytes::BytePlan>,
}

impl Slot {
    /// Resolves `texture` and `desc` into a slot, snapshotting every level.
    pub(crate) fn new(texture: &BaseTexture, desc: &SamplerDesc, max_aniso_cap: u32) -> Slot {
        let td = texture.desc();
        let format = td.format;
        let (dim, levels): (Dim, Vec<LevelData>) = match texture {
            BaseTexture::Texture(t) => (
                Dim::Tex2D,
                t.levels()
                    .iter()
                    .map(|s| {
                        let d = s.desc();
                        let bytes = s.storage().snapshot();
                        LevelData::new(format, bytes, [d.width, d.height, 1], s.pitch(), 0)
                    })
                    .collect(),
            ),
            BaseTexture::Cube(t) => {
                let n = td.levels as usize;
                let faces = t.faces();
                let mut v = Vec::with_capacity(6 * n);
                for l in 0..n {
                    for f in 0..6 {
                        let s = &faces[f * n + l];
                        let d = s.desc();
                        let bytes = s.storage().snapshot();
                        v.push(LevelData::new(
                            format,
                            bytes,
                            [d.width, d.height, 1],
                            s.pitch(),
                            0,
                        ));
                    }
                }
                (Dim::Cube, v)
            }
            BaseTexture::Volume(t) => (
                Dim::Volume,
                t.levels()
                    .iter()
                    .map(|vol| {
                        let d = vol.desc();
                        let (rp, sp) = vol.pitches();
                        let bytes = vol.storage().snapshot();
                        LevelData::new(format, bytes, [d.width, d.height, d.depth], rp, sp)
                    })
                    .collect(),
            ),
        };
        let set_lod = match texture {
            BaseTexture::Texture(t) => t.lod(),
            BaseTexture::Cube(t) => t.lod(),
            BaseTexture::Volume(t) => t.lod(),
        };
        let last = td.levels.max(1) - 1;
        let decoder = Decoder::for_format(format);
        let compare = format.is_depth().then(|| decoder.divisor()[0]);
        let divisor = if compare.is_some() {
            [1.0; 4]
        } else {
            decoder.divisor()
        };
        // sRGB reads only where the format table allows them (textures.md 5.5).
        let srgb = desc.srgb
            && decoder.srgb_capable()
            && check_format(
                FeatureLevel::Sm3,
                ResourceKind::Texture,
                format,
                Usage::QUERY_SRGBREAD,
                false,
            )
            .is_ok();
        let border = border_domain(decoder, desc.border_color);
        let filt = |f: TextureFilter| match f {
            TextureFilter::None | TextureFilter::Point => Filt::Point,
            TextureFilter::Anisotropic if dim == Dim::Tex2D => Filt::Aniso,
            _ => Filt::Linear,
        };
        let mag = match filt(desc.mag_filter) {
            Filt::Aniso => Filt::Linear,
            f => f,
        };
        let mip = match desc.mip_filter {
            TextureFilter::None => Mip::None,
            TextureFilter::Point => Mip::Point,
            _ => Mip::Linear,
        };
        let max_aniso = desc.max_anisotropy.clamp(1, max_aniso_cap.max(1));
        let min = match filt(desc.min_filter) {
            // Depth comparison never filters anisotropically (textures.md 8).
            Filt::Aniso if compare.is_some() || max_aniso == 1 => Filt::Linear,
            f => f,
        };
        let mut slot = Slot {
            dim,
            levels,
            last: last as f32,
            size0: [td.width as f32, td.height as f32, td.depth.max(1) as f32],
            decoder,
            divisor,
            srgb,
            compare,
            address: desc.address,
            border,
            mag,
            min,
            mip,
            lod_bias: desc.mip_lod_bias,
            base: desc.max_mip_level.max(set_lod).min(last) as f32,
            base_none: set_lod.min(last) as f32,
            max_aniso: max_aniso as f32,
            quick: false,
            bytes: None,
        };
        slot.quick = slot.quick_shape();
        // After `quick`: the byte plan refines the quick shape.
        slot.bytes = bytes::BytePlan::new(&slot);
        slot
    }

    /// Level `level` (face `face` for cube maps).
    #[inline(always)]
    pub(crate) fn level(&self, level: usize, face: usize) -> &LevelData {
        let i = if self.dim == Dim::Cube {
            level * 6 + face
        } else {
            level
        };
        &self.levels[i.min(self.levels.len() - 1)]
    }

    /// One tap in the filter domain: the border colour or texel (x, y, z),
    /// then for depth textures the comparison `reference <= depth` (1 or 0).
    #[inline(always)]
    pub(crate) fn tap(
        &self,
        level: &LevelData,
        x: i32,
        y: i32,
        z: i32,
        border: bool,
        reference: f32,
    ) -> [f32; 4] {
        let v = if border {
            self.border
        } else {
            level.fetch(self.decoder, self.srgb, x, y, z)
        };
        match self.compare {
            Some(div) => [if reference <= v[0] / div { 1.0 } else { 0.0 }; 4],
            None => v,
        }
    }
}

/// The border colour (`0xAARRGGBB`) in `decoder`'s filter domain: each
/// channel's byte scaled to the channel's divisor; missing channels keep
/// the format's defaults (textures.md 4.2).
fn border_domain(decoder: Decoder, color: u32) -> [f32; 4] {
    let bytes = [
        (color >> 16) & 0xFF,
        (color >> 8) & 0xFF,
        color & 0xFF,
        color >> 24,
    ];
    let chans = match decoder {
        Decoder::Packed { chans, .. } => chans,
        Decoder::Float => return bytes.map(|b| b as f32 / 255.0),
    };
    std::array::from_fn(|i| match chans[i] {
        Chan::Const(v) => v,
        c => (f64::from(bytes[i]) * f64::from(c.divisor()) / 255.0) as f32,
    })
}

/// The textures and sampler states of one draw, ready to sample from both
/// pipelines. Cheap to clone (slots are shared).
#[derive(Clone, Debug, Default)]
pub struct BoundTextures {
    slots: Vec<Option<Arc<Slot>>>,
}

impl BoundTextures {
    /// No texture in any slot: every sample reads (0, 0, 0, 1).
    pub fn new() -> BoundTextures {
        BoundTextures {
            slots: vec![None; SAMPLER_SLOTS],
        }
    }

    /// The textures bound per slot with each slot's raw sampler states, as a
    /// device holds them (MaxAnisotropy limited to `max_anisotropy`, the
    /// device's cap). Slots beyond either list stay unbound.
    pub fn from_state(
        textures: &[Option<BaseTexture>],
        samplers: &[[u32; SAMPLER_STATE_COUNT]],
        max_anisotropy: u32,
    ) -> BoundTextures {
        let mut b = BoundTextures::new();
        for ((slot, tex), raw) in textures.iter().enumerate().zip(samplers) {
            if let (Some(t), Some(dst)) = (tex, b.slots.get_mut(slot)) {
                let desc = SamplerDesc::from_raw(raw);
                *dst = Some(Arc::new(Slot::new(t, &desc, max_anisotropy)));
            }
        }
        b
    }

    /// Binds `texture` with `desc` to `slot` (0..15 pixel, 16 displacement
    /// map, 17..20 vertex samplers), snapshotting its levels now; None unbinds.
    /// Out-of-range slots are ignored. MaxAnisotropy is limited to 16.
    pub fn bind(&mut self, slot: SamplerSlot, texture: Option<&BaseTexture>, desc: &SamplerDesc) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = texture.map(|t| Arc::new(Slot::new(t, desc, 16)));
        }
    }

    /// Whether a texture is bound at `slot`.
    pub fn is_bound(&self, slot: SamplerSlot) -> bool {
        self.slots.get(slot).is_some_and(Option::is_some)
    }

    fn slot(&self, slot: SamplerSlot) -> Option<&Slot> {
        self.slots.get(slot).and_then(|s| s.as_deref())
    }

    /// [`TextureFetch::sample`] with an implicit LOD through the sampler's
    /// shortcut (`Slot::sample_quick`, the same values), when it applies:
    /// None otherwise, and the caller samples the general way. Pixel stages
    /// call it for their texture reads; public so that tests can check it.
    #[inline(always)]
    pub fn sample_quick<S: Simd>(
        &self,
        s: S,
        slot: SamplerSlot,
        c: [S::F; 3],
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> Option<[S::F; 4]> {
        self.slot(slot)?.sample_quick(s, c, ddx, ddy, active)
    }

    /// [`BoundTextures::sample_quick`] quantised for an 8-bit render
    /// target: each channel times 255, plus 0.5, truncated (the fast
    /// merger's quantisation of a colour in [0, 1]), packed B, G, R, A from
    /// the low byte up; 0 outside `active`. None where the shortcut does
    /// not apply or the slot is not of the 8-bit kernel's shape.
    #[inline(always)]
    pub fn sample_quick_packed<S: Simd>(
        &self,
        s: S,
        slot: SamplerSlot,
        c: [S::F; 3],
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> Option<S::I> {
        self.slot(slot)?.sample_quick_packed(s, c, ddx, ddy, active)
    }
}

/// What an unbound slot reads (TEXLDL; textures.md 5.6).
const NO_TEXTURE: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

impl TextureFetchScalar for BoundTextures {
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        match self.slot(slot) {
            Some(s) => s.sample_ref(coords, lod),
            None => NO_TEXTURE,
        }
    }
}

impl<S: Simd> TextureFetch<S> for BoundTextures {
    /// The general sampler, one copy per backend ([`Simd::outline`]): it
    /// covers every format, filter and address mode, so inlining it into
    /// each caller (the texture-stage cascade, the shader interpreter's
    /// `dyn` fetch, the one-texture stage's fallback) multiplied the crate's
    /// code generation; a call per 8 lanes costs nothing beside its work.
    /// Through the `dyn` fetch it also runs with the backend's features
    /// enabled, which a plain vtable method is not.
    #[inline(always)]
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        s.outline(GeneralSample {
            textures: self,
            slot,
            coords,
            lod,
            active,
        })
    }
}

/// One [`TextureFetch::sample`] request, run by [`Simd::outline`].
struct GeneralSample<'a, S: Simd> {
    textures: &'a BoundTextures,
    slot: SamplerSlot,
    coords: [S::F; 4],
    lod: Lod<S::F>,
    active: S::M,
}

impl<S: Simd> Outlined<S> for GeneralSample<'_, S> {
    type Output = [S::F; 4];
    #[inline(always)]
    fn run(self, s: S) -> [S::F; 4] {
        use crate::simd::MaskV;
        let zero = s.splat(0.0);
        match self.textures.slot(self.slot) {
            Some(t) => {
                // The shortcut gives the general path's values where it
                // applies (a shader's texld of a plain 2D texture, S7's
                // every pixel), for a fraction of the work.
                if let Lod::Implicit { ddx, ddy } = self.lod
                    && let Some(v) = t.sample_quick(
                        s,
                        [self.coords[0], self.coords[1], self.coords[2]],
                        ddx,
                        ddy,
                        self.active,
                    )
                {
                    return v;
                }
                t.sample_warp(s, self.coords, self.lod, self.active)
            }
            None => {
                let one = self.active.select_f(s.splat(1.0), zero);
                [zero, zero, zero, one]
            }
        }
    }
}

/// Whether `format` may be sampled with LINEAR or ANISOTROPIC filters at
/// `level` (the `D3DUSAGE_QUERY_FILTER` answer of the format table).
pub fn filterable(level: FeatureLevel, format: Format) -> bool {
    check_format(
        level,
        ResourceKind::Texture,
        format,
        Usage::QUERY_FILTER,
        false,
    )
    .is_ok()
}
