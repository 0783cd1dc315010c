//! What both drivers take from the vertex stage besides the vertices: the
//! interpolated attributes of the pixel stage and the point-size rule.

use crate::geom::VertexBuf;

use super::state::DrawState;

/// Inputs of a draw's primitives: which attributes, which are flat.
pub(crate) struct Inputs<'a> {
    pub(crate) list: &'a [usize],
    pub(crate) flat: u64,
    /// Plane index of the fog factor (specular alpha), if fog needs it.
    pub(crate) fog: Option<usize>,
}

/// Point size of vertex `v` (rasterization.md 8.1).
pub(crate) fn point_size(st: &DrawState, buf: &VertexBuf, v: u32) -> f32 {
    point_size_row(st, buf.get(v))
}

/// [`point_size`] of a vertex's floats.
pub(crate) fn point_size_row(st: &DrawState, v: &[f32]) -> f32 {
    let p = v[4];
    let s = if p.is_nan() { st.point_size } else { p };
    crate::simd::fmin(crate::simd::fmax(s, st.point_size_min), st.point_size_max)
}
