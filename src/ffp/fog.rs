//! Fog: the decision table of fixed-function.md §9.2, the fog-factor
//! formulas (§9.1) for vertex fog (§9.3) and table/pixel fog (§9.4), and
//! the fog blend.
//!
//! Job: one place for every fog formula, generic over [`Real`] so the
//! vertex stage, the Reference path and the output merger (Warp and
//! Reference) compute identical factors.
//!
//! Interface for the output merger (rasterizer engineer): per draw call
//! [`fog_decision`] → [`FogPath`]. With `Interpolated`, the pixel's factor
//! is the interpolated vertex output `fog` (already clamped per vertex,
//! clamp again after interpolation with [`super::math::sat`]); with
//! `Table`, call [`table_fog_factor`] with the pixel's depth (z-based:
//! `z/w` of clip space; w-based: the interpolated clip-space w). Then
//! [`fog_blend`] after the texture stages and the specular add, before the
//! alpha test; alpha is unchanged.

use super::math::{Real, exp, sat};
use super::state::FfpState;
use crate::state::{FogMode, RenderStateType as R, StateValue};

/// What the vertex stage writes as the fog factor (key part).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexFog {
    /// No per-vertex factor is used (fog off, table fog, ps_3_0): `fog` = 1.
    None,
    /// Computed per vertex (§9.3) and also written to specular alpha.
    Compute {
        /// EXP, EXP2 or LINEAR.
        mode: FogMode,
        /// RANGEFOGENABLE: Euclidean distance instead of |z|.
        range: bool,
    },
    /// The vertex's own COLOR1 alpha is the factor (both modes NONE, or
    /// pre-transformed vertices with table mode NONE).
    Color1Alpha,
}

/// How the pixel stage obtains the fog factor of a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FogPath {
    /// No fixed-function fog.
    Off,
    /// The interpolated per-vertex factor (vertex fog, specular alpha, or a vertex shader's oFog).
    Interpolated,
    /// Table (pixel) fog from the pixel's depth.
    Table {
        /// EXP, EXP2 or LINEAR.
        mode: FogMode,
        /// w-based (eye-relative) depth; else z-based.
        w_based: bool,
    },
}

/// What produces the vertices of a draw (for the fog decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexPath {
    /// Fixed-function processing of untransformed vertices.
    FixedFunction,
    /// Pre-transformed (XYZRHW / POSITIONT) vertices.
    Pretransformed,
    /// A vertex shader (its oFog / FOG output is the factor).
    Shader,
}

fn decoded(raw: u32) -> FogMode {
    FogMode::from_raw(raw).unwrap_or(FogMode::None)
}

/// The fog decision table of §9.2. `ps3`: a ps_3_0 shader is bound;
/// `wfog`: the level reports D3DPRASTERCAPS_WFOG.
pub fn fog_decision(state: &FfpState, vertex: VertexPath, ps3: bool, wfog: bool) -> FogPath {
    if !state.rs_bool(R::FogEnable) || ps3 {
        return FogPath::Off;
    }
    let table = decoded(state.rs(R::FogTableMode));
    if table != FogMode::None {
        return FogPath::Table {
            mode: table,
            w_based: wfog && !projection_is_affine(state),
        };
    }
    // Every vertex path then supplies the factor per vertex: computed vertex
    // fog, the specular alpha, or the shader's oFog (§9.2 rows 2–5).
    let _ = vertex;
    FogPath::Interpolated
}

/// Wine's test for z-based table fog (§9.4): the projection's fourth column is (0, 0, 0, 1).
pub fn projection_is_affine(state: &FfpState) -> bool {
    let p = state.transform(crate::state::TransformType::Projection);
    // glam column i = D3D row i, so D3D's _i4 is col(i).w.
    p.x_axis.w == 0.0 && p.y_axis.w == 0.0 && p.z_axis.w == 0.0 && p.w_axis.w == 1.0
}

/// The vertex-stage part of the decision (key): what the `fog` output holds.
pub fn vertex_fog(state: &FfpState, pretransformed: bool) -> VertexFog {
    if !state.rs_bool(R::FogEnable) || decoded(state.rs(R::FogTableMode)) != FogMode::None {
        return VertexFog::None;
    }
    let mode = decoded(state.rs(R::FogVertexMode));
    if pretransformed || mode == FogMode::None {
        VertexFog::Color1Alpha
    } else {
        VertexFog::Compute {
            mode,
            range: state.rs_bool(R::RangeFogEnable),
        }
    }
}

/// FOGSTART, FOGEND, FOGDENSITY of the state.
pub fn fog_params(state: &FfpState) -> [f32; 3] {
    [
        state.rs_f32(R::FogStart),
        state.rs_f32(R::FogEnd),
        state.rs_f32(R::FogDensity),
    ]
}

/// The unclamped formula of §9.1 (LINEAR, EXP, EXP2; NONE gives 1).
#[inline(always)]
fn formula<R: Real>(mode: FogMode, d: R, start: f32, end: f32, density: f32) -> R {
    match mode {
        FogMode::Linear => (d.k(end) - d) / (d.k(end) - d.k(start)),
        FogMode::Exp => exp(d.k(0.0) - d * d.k(density)),
        FogMode::Exp2 => {
            let x = d * d.k(density);
            exp(d.k(0.0) - x * x)
        }
        FogMode::None => d.k(1.0),
    }
}

/// Vertex fog factor (§9.3) for distance `d`, clamped to [0, 1];
/// FOGSTART == FOGEND with LINEAR fogs fully (f = 0).
#[inline(always)]
pub fn vertex_fog_factor<R: Real>(mode: FogMode, d: R, params: [f32; 3]) -> R {
    let [start, end, density] = params;
    if mode == FogMode::Linear && start == end {
        return d.k(0.0);
    }
    sat(formula(mode, d, start, end, density))
}

/// Table (pixel) fog factor (§9.4) for pixel depth `d`, clamped to [0, 1];
/// FOGSTART == FOGEND with LINEAR: 1 below start, 0 from start on.
#[inline(always)]
pub fn table_fog_factor<R: Real>(mode: FogMode, d: R, params: [f32; 3]) -> R {
    let [start, end, density] = params;
    if mode == FogMode::Linear && start == end {
        return R::sel(d.lt(d.k(start)), d.k(1.0), d.k(0.0));
    }
    sat(formula(mode, d, start, end, density))
}

/// `rgb = f·rgb + (1 − f)·fog_color.rgb`; alpha unchanged (§9.1).
#[inline(always)]
pub fn fog_blend<R: Real>(color: [R; 4], f: R, fog_color: [f32; 4]) -> [R; 4] {
    let g = f.k(1.0) - f;
    let c = |i: usize| f * color[i] + g * f.k(fog_color[i]);
    [c(0), c(1), c(2), color[3]]
}
