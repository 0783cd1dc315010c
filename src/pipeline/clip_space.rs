//! The clip-space front end of vertex-processed draws (fixed-function T&L
//! or a vertex shader): view-volume clipping (near `z >= 0`, far `z <= w`,
//! the guard band of caps.md, user clip planes), then the perspective
//! divide and the viewport transform (rasterization.md 1, 3, 4).
//!
//! Input: a [`VertexBuf`] whose header holds the clip-space position
//! `(x, y, z, w)` and the point size; output: the same buffer in the screen
//! space the rasterizers take (`x`, `y` pixels, `z` depth, `rhw`), with the
//! vertices the clipper made appended and the primitives that survive.
//!
//! Invariants: both drivers run this same code, so their inputs are
//! identical; every emitted primitive has finite positions inside the
//! guard band and `rhw > 0`. Primitives entirely inside every plane are
//! not touched (so unclipped geometry keeps its exact vertices); clipped
//! polygons become fans that keep the winding and the provoking vertex.

use rayon::prelude::*;

use super::vertex_pass::POINT_DROPPED;
pub(crate) use crate::geom::clip::ClipPlane;
use crate::geom::clip::{GUARD, clip_polygon, clip_segment};
use crate::geom::{Prim, VertexBuf};
use crate::state::Viewport;

/// The view volume's planes for `vp`: near and far when `clip_depth`
/// (else depth is clamped per pixel, rasterization.md 4.4), and the guard
/// band (x and y in [-GUARD, GUARD] pixels after the viewport transform).
/// The guard band's planes alone keep `w >= 0` (`x - a·w >= 0` and
/// `b·w - x >= 0` with `a < b`), so without near and far every clipped
/// vertex still has `w > 0` except where a primitive passes exactly
/// through the eye, which the projection then drops.
pub(crate) fn volume_planes(vp: &Viewport, clip_depth: bool) -> Vec<ClipPlane> {
    let (x0, y0) = (vp.x as f32, vp.y as f32);
    let hw = (vp.width.max(1) as f32) * 0.5;
    let hh = (vp.height.max(1) as f32) * 0.5;
    // xs = X + (1 + xn) * W/2 in [-G, G]  <=>  xn in [a, b].
    let a = (-GUARD - x0) / hw - 1.0;
    let b = (GUARD - x0) / hw - 1.0;
    // ys = Y + (1 - yn) * H/2 in [-G, G]  <=>  yn in [c, d].
    let c = 1.0 - (GUARD - y0) / hh;
    let d = 1.0 - (-GUARD - y0) / hh;
    let guard = [
        ClipPlane::Homogeneous([1.0, 0.0, 0.0, -a]),
        ClipPlane::Homogeneous([-1.0, 0.0, 0.0, b]),
        ClipPlane::Homogeneous([0.0, 1.0, 0.0, -c]),
        ClipPlane::Homogeneous([0.0, -1.0, 0.0, d]),
    ];
    let depth = [
        ClipPlane::Homogeneous([0.0, 0.0, 1.0, 0.0]),
        ClipPlane::Homogeneous([0.0, 0.0, -1.0, 1.0]),
    ];
    let depth: &[ClipPlane] = if clip_depth { &depth } else { &[] };
    [depth, &guard].concat()
}

/// Vertex counts above which the projection of a clipped draw runs on
/// the Warp pool: each vertex's result depends on it alone, so the split
/// cannot change a bit.
const PARALLEL_VERTICES: usize = 16384;

/// Clips `prims` of `buf` by `codes` (one per vertex, from
/// [`VertexPass`]) against `planes` (new vertices are appended), then maps
/// every vertex to screen space through `vp` and drops primitives left
/// with a non-finite position or `w <= 0`. A point list's vertices are
/// already projected (`codes` hold point words): its points are kept or
/// dropped by their codes. With a `pool` (Warp), the projection of large
/// draws runs on it.
pub(crate) fn clip_and_project(
    buf: &mut VertexBuf,
    prims: Vec<Prim>,
    planes: &[ClipPlane],
    codes: &[u32],
    projected: bool,
    vp: &Viewport,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<Prim> {
    let in_range = |p: &Prim| p.vertices().iter().all(|&i| (i as usize) < codes.len());
    if projected {
        let kept = |p: &Prim| {
            p.vertices()
                .iter()
                .all(|&i| codes.get(i as usize).is_some_and(|&c| c != POINT_DROPPED))
        };
        // Only point lists are projected here, one point per vertex
        // number, and the numbers index `codes` (one per processed
        // vertex, by the draw's construction): without a dropped code
        // every point is kept, and the list is not walked.
        let dropped = codes
            .iter()
            .fold(false, |any, &c| any | (c == POINT_DROPPED));
        let mut out = prims;
        if dropped {
            out.retain(kept);
        }
        debug_assert!(out.iter().all(in_range));
        return out;
    }
    let mut out;
    // Every vertex inside every plane (the common case): every primitive
    // is kept as it is, so the list is not walked and copied.
    let inside = codes.iter().all(|&c| c == 0) && prims.iter().all(in_range);
    if inside {
        out = prims;
    } else {
        out = Vec::with_capacity(prims.len());
        clip_prims(buf, prims, planes, codes, &mut out);
    }
    let usable = project(buf, vp, pool);
    if usable.iter().all(|&u| u) {
        // Every vertex usable: nothing to drop (the vertex numbers were
        // checked against the outcodes, one per vertex, above or below).
        return out;
    }
    let ok = |i: u32| usable.get(i as usize).copied().unwrap_or(false);
    out.retain(|p| p.vertices().iter().all(|&i| ok(i)));
    out
}

/// Clips each of `prims` by its vertices' outcodes `codes` into `out`:
/// kept whole, dropped, or cut (new vertices appended to `buf`).
fn clip_prims(
    buf: &mut VertexBuf,
    prims: Vec<Prim>,
    planes: &[ClipPlane],
    codes: &[u32],
    out: &mut Vec<Prim>,
) {
    let stride = buf.stride;
    let code = |i: u32| codes.get(i as usize).copied().unwrap_or(u32::MAX);
    for p in prims {
        match p {
            Prim::Point(v) => {
                // Points are kept or dropped whole by their centre (4.2).
                if code(v) == 0 {
                    out.push(p);
                }
            }
            Prim::Line { v, provoking, last } => {
                let (ca, cb) = (code(v[0]), code(v[1]));
                if ca | cb == 0 {
                    out.push(p);
                    continue;
                }
                if ca & cb != 0 {
                    continue;
                }
                let (a, b) = (buf.get(v[0]).to_vec(), buf.get(v[1]).to_vec());
                if let Some((na, nb)) = clip_segment(&a, &b, planes) {
                    let ia = buf.push(&na);
                    let ib = buf.push(&nb);
                    out.push(Prim::Line {
                        v: [ia, ib],
                        provoking,
                        last,
                    });
                }
            }
            Prim::Tri { v, provoking } => {
                let codes = [code(v[0]), code(v[1]), code(v[2])];
                if codes[0] | codes[1] | codes[2] == 0 {
                    out.push(p);
                    continue;
                }
                if codes[0] & codes[1] & codes[2] != 0 {
                    continue;
                }
                let poly: Vec<f32> = v.iter().flat_map(|&i| buf.get(i).to_vec()).collect();
                // Only the planes some vertex is outside of can cut.
                let code = codes[0] | codes[1] | codes[2];
                let cutting = planes
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| code & (1 << i) != 0)
                    .map(|(_, p)| p);
                let poly = clip_polygon(poly, stride, cutting);
                let n = poly.len() / stride;
                if n < 3 {
                    continue;
                }
                let ids: Vec<u32> = (0..n)
                    .map(|i| buf.push(&poly[i * stride..(i + 1) * stride]))
                    .collect();
                for i in 1..n - 1 {
                    out.push(Prim::Tri {
                        v: [ids[0], ids[i], ids[i + 1]],
                        provoking,
                    });
                }
            }
        }
    }
}

/// The perspective divide and viewport transform (rasterization.md 3):
/// `(x, y, z, w)` → `(xs, ys, zs, 1/w)`.
pub(super) struct Projection {
    pub(super) x0: f32,
    pub(super) y0: f32,
    pub(super) hw: f32,
    pub(super) hh: f32,
    pub(super) min_z: f32,
    pub(super) dz: f32,
}

impl Projection {
    pub(super) fn new(vp: &Viewport) -> Projection {
        let (min_z, max_z) = vp.depth_range();
        Projection {
            x0: vp.x as f32,
            y0: vp.y as f32,
            hw: vp.width as f32 * 0.5,
            hh: vp.height as f32 * 0.5,
            min_z,
            dz: max_z - min_z,
        }
    }

    /// Projects vertex `v` in place; returns whether the result is usable
    /// (finite, `rhw > 0`).
    #[inline]
    pub(super) fn apply(&self, v: &mut [f32]) -> bool {
        let w = v[3];
        // Negated so that a NaN `w` is unusable too.
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        if !(w > 0.0) {
            v[3] = 0.0;
            return false;
        }
        let (xn, yn, zn) = (v[0] / w, v[1] / w, v[2] / w);
        v[0] = (self.x0 + (1.0 + xn) * self.hw).clamp(-GUARD, GUARD);
        v[1] = (self.y0 + (1.0 - yn) * self.hh).clamp(-GUARD, GUARD);
        v[2] = self.min_z + zn * self.dz;
        v[3] = 1.0 / w;
        v[..4].iter().all(|c| c.is_finite()) && v[3] > 0.0
    }
}

/// Projects every vertex of `buf` in place ([`Projection`]); returns per
/// vertex whether the result is usable.
fn project(buf: &mut VertexBuf, vp: &Viewport, pool: Option<&rayon::ThreadPool>) -> Vec<bool> {
    let proj = Projection::new(vp);
    // `max(1)`: chunks of zero floats are not a thing (an empty buffer).
    let stride = buf.stride.max(1);
    let one = |v: &mut [f32]| proj.apply(v);
    match pool {
        Some(pool) if buf.len() > PARALLEL_VERTICES => {
            pool.install(|| buf.data.par_chunks_exact_mut(stride).map(one).collect())
        }
        _ => buf.data.chunks_exact_mut(stride).map(one).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::vertex_pass::VertexPass;

    /// The codes pass, then the clip and projection, as a draw runs them.
    fn clip_and_project_all(
        buf: &mut VertexBuf,
        prims: Vec<Prim>,
        planes: &[ClipPlane],
    ) -> Vec<Prim> {
        let mut codes = vec![0; buf.len()];
        let stride = buf.stride;
        VertexPass::new(planes, &vp(), None, None).run(&mut buf.data, stride, &mut codes);
        clip_and_project(buf, prims, planes, &codes, false, &vp(), None)
    }

    fn vp() -> Viewport {
        Viewport {
            x: 0,
            y: 0,
            width: 100,
            height: 50,
            min_z: 0.0,
            max_z: 1.0,
        }
    }

    #[test]
    fn viewport_maps_ndc_corners_to_pixels() {
        let mut buf = VertexBuf {
            stride: 5,
            data: vec![-1.0, 1.0, 0.0, 1.0, 0.0, 2.0, -2.0, 1.0, 2.0, 0.0],
        };
        let prims = vec![Prim::Line {
            v: [0, 1],
            provoking: 0,
            last: false,
        }];
        let out = clip_and_project_all(&mut buf, prims, &volume_planes(&vp(), true));
        assert_eq!(out.len(), 1);
        assert_eq!(&buf.get(0)[..4], &[0.0, 0.0, 0.0, 1.0]);
        assert_eq!(&buf.get(1)[..4], &[100.0, 50.0, 0.5, 0.5]);
    }

    #[test]
    fn near_plane_clips_and_stored_distances_clip() {
        // One vertex behind the eye (z < 0): the triangle becomes a quad.
        let mut buf = VertexBuf {
            stride: 6,
            data: vec![
                0.0, 0.0, -1.0, 1.0, 0.0, 1.0, //
                0.5, 0.0, 0.5, 1.0, 0.0, 1.0, //
                0.0, 0.5, 0.5, 1.0, 0.0, -1.0,
            ],
        };
        let tri = Prim::Tri {
            v: [0, 1, 2],
            provoking: 0,
        };
        let out = clip_and_project_all(&mut buf, vec![tri], &volume_planes(&vp(), true));
        assert_eq!(out.len(), 2);
        assert!(
            out.iter()
                .all(|p| matches!(p, Prim::Tri { provoking: 0, .. }))
        );
        // A stored distance (float 5) that is negative at vertex 2 cuts it off.
        let mut planes = volume_planes(&vp(), true);
        planes.push(ClipPlane::Stored(5));
        let mut buf2 = VertexBuf {
            stride: 6,
            data: vec![
                0.0, 0.0, 0.5, 1.0, 0.0, 1.0, //
                0.5, 0.0, 0.5, 1.0, 0.0, 1.0, //
                0.0, 0.5, 0.5, 1.0, 0.0, -1.0,
            ],
        };
        let out = clip_and_project_all(&mut buf2, vec![tri], &planes);
        assert_eq!(out.len(), 2);
        // Entirely behind: nothing.
        let mut buf3 = VertexBuf {
            stride: 5,
            data: [0.0, 0.0, -1.0, -1.0, 0.0].repeat(3),
        };
        assert!(clip_and_project_all(&mut buf3, vec![tri], &volume_planes(&vp(), true)).is_empty());
    }
}
