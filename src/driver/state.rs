//! The per-draw state both drivers read: render-state DWORDs decoded once
//! into plain values (the API validated them, so decoding never fails;
//! anything undecodable falls back to the D3D9 default). The pipeline
//! builds it from the device (`pipeline::state`); nothing here names the
//! device.
//!
//! Invariant: `DrawState` holds values, not code choices; the Warp and
//! Reference drivers interpret it each in their own way and must agree.

use crate::format::Format;
use crate::resource::Surface;
use crate::state::{Blend, BlendOp, CmpFunc, Cull, FillMode, FogMode, Rect, StencilOp};

/// One side's stencil operations and function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StencilFace {
    pub(crate) fail: StencilOp,
    pub(crate) zfail: StencilOp,
    pub(crate) pass: StencilOp,
    pub(crate) func: CmpFunc,
}

/// Stencil state (only when enabled and the depth buffer has stencil bits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StencilState {
    /// Clockwise faces, lines and points.
    pub(crate) front: StencilFace,
    /// Counter-clockwise faces (equals `front` unless two-sided).
    pub(crate) back: StencilFace,
    /// Reference, already reduced modulo 2^bits.
    pub(crate) reference: u32,
    pub(crate) mask: u32,
    pub(crate) write_mask: u32,
    /// Stencil bits of the format (8 for D24S8).
    pub(crate) bits: u32,
}

/// Depth-stencil buffer state; `None` in `DrawState` when no buffer is bound.
#[derive(Clone, Debug)]
pub(crate) struct DepthState {
    pub(crate) surface: Surface,
    pub(crate) format: Format,
    /// Depth test and write active (`ZENABLE` not FALSE).
    pub(crate) test: bool,
    pub(crate) func: CmpFunc,
    pub(crate) write: bool,
    pub(crate) stencil: Option<StencilState>,
}

/// Alpha blending state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BlendState {
    pub(crate) src: Blend,
    pub(crate) dst: Blend,
    pub(crate) op: BlendOp,
    pub(crate) src_alpha: Blend,
    pub(crate) dst_alpha: Blend,
    pub(crate) op_alpha: BlendOp,
    /// `D3DRS_BLENDFACTOR` as (r, g, b, a).
    pub(crate) factor: [f32; 4],
}

/// Where the fog factor comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum FogSource {
    /// The interpolated specular alpha (vertex fog, pre-transformed vertices).
    SpecularAlpha,
    /// Pixel (table) fog from the pixel's depth (`w_based`: from 1/rhw).
    Table {
        mode: FogMode,
        w_based: bool,
        start: f32,
        end: f32,
        density: f32,
    },
}

/// Fog blend state (RT0 only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FogState {
    pub(crate) color: [f32; 3],
    pub(crate) source: FogSource,
}

/// One bound colour target.
#[derive(Clone, Debug)]
pub(crate) struct TargetState {
    pub(crate) surface: Surface,
    pub(crate) format: Format,
    /// Bits 0..3: red, green, blue, alpha.
    pub(crate) write_mask: u32,
    /// sRGB conversion on write (RT0 of an 8-bit RGB format only).
    pub(crate) srgb: bool,
}

/// Everything after the vertex stage needs for one draw.
#[derive(Clone, Debug)]
pub(crate) struct DrawState {
    /// Pixels that may be written: viewport ∩ render target ∩ scissor, as
    /// [left, right) x [top, bottom).
    pub(crate) clip: Rect,
    pub(crate) min_z: f32,
    pub(crate) max_z: f32,
    pub(crate) cull: Cull,
    pub(crate) fill: FillMode,
    pub(crate) flat: bool,
    pub(crate) last_pixel: bool,
    /// Pre-transformed input on a device with D3DPMISCCAPS_CLIPTLVERTS:
    /// pixels with z outside [0, 1] are discarded.
    pub(crate) z_clip_per_pixel: bool,
    pub(crate) depth: Option<DepthState>,
    pub(crate) alpha_test: Option<(CmpFunc, f32)>,
    pub(crate) blend: Option<BlendState>,
    /// Slot i = render target i (None: unbound).
    pub(crate) targets: Vec<Option<TargetState>>,
    pub(crate) fog: Option<FogState>,
    pub(crate) specular_add: bool,
    pub(crate) depth_bias: f32,
    pub(crate) slope_bias: f32,
    pub(crate) point_size: f32,
    pub(crate) point_size_min: f32,
    pub(crate) point_size_max: f32,
    pub(crate) point_sprite: bool,
}
