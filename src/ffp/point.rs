//! Point size (fixed-function.md §8) and point-sprite texture coordinates
//! (rasterization.md §8.1), generic over [`Real`].
//!
//! Job: the per-vertex size the rasterizer expands points with, and the
//! rule the rasterizer calls per sprite pixel for generated coordinates.
//! Decisions implemented: a non-positive scale denominator gives +INF
//! (clamped to the maximum); the clamp applies the minimum first, then the
//! maximum (so the maximum wins when MIN > MAX).

use super::math::Real;

/// Point size of one vertex. `si`: PSIZE or D3DRS_POINTSIZE; `scale`:
/// `Some(d2)` with `d2 = |P_eye|²` when POINTSCALEENABLE applies;
/// `point` = (POINTSIZE, MIN, effective MAX, viewport height),
/// `abc` = POINTSCALE_A/B/C.
#[inline(always)]
pub fn point_size<R: Real>(si: R, scale: Option<R>, point: [f32; 4], abc: [f32; 3]) -> R {
    let s = match scale {
        Some(d2) => {
            let de = d2.sqrt();
            let den = si.k(abc[0]) + si.k(abc[1]) * de + si.k(abc[2]) * d2;
            let f = (si.k(1.0) / den).sqrt();
            let f = R::sel(den.le(si.k(0.0)), si.k(f32::INFINITY), f);
            si.k(point[3]) * si * f
        }
        None => si,
    };
    s.max(si.k(point[1])).min(si.k(point[2]))
}

/// Texture coordinate (u, v) of a point-sprite pixel: (0, 0) at the
/// sprite's top-left corner, (1, 1) at its bottom-right; `pixel` is the
/// sample position, `center` the point's screen position, `size` its size.
#[inline(always)]
pub fn sprite_coord<R: Real>(pixel: [R; 2], center: [R; 2], size: R) -> [R; 2] {
    let half = size * size.k(0.5);
    [
        (pixel[0] - (center[0] - half)) / size,
        (pixel[1] - (center[1] - half)) / size,
    ]
}
