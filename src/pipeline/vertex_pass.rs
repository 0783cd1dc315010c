//! The per-vertex half of the clip-space front end ([`super::clip_space`]):
//! each vertex's outcode and, for point lists, its projection and point
//! word, run on each chunk of vertices as soon as the vertex stage wrote
//! it, while the chunk is in cache.
//!
//! Points are projected here because clipping never cuts a point (it is
//! kept or dropped whole by its centre, rasterization.md 4.2), so no
//! clipped vertex needs the clip-space position afterwards. Lines and
//! triangles are projected after clipping
//! ([`super::clip_space::clip_and_project`]).
//!
//! Invariants: the Reference runs the scalar form on its whole buffer;
//! Warp runs 8 vertices at a time through the `simd` module, with the
//! scalar form's operations in the same order, and hands a group of 8 to
//! the scalar form whenever a lane is unusual (outside a plane, `w <= 0`,
//! a non-finite result, a coordinate the 16.8 snap saturates). So both
//! drivers get the same bits, and each vertex's result depends on that
//! vertex alone: the chunking and the thread count cannot change a bit.

// `!(d >= 0.0)` is deliberate: a NaN distance counts as outside.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::clip_space::{ClipPlane, Projection};
use super::state::DrawState;
use crate::geom::clip::GUARD;
use crate::simd::{Backend, FloatV, IntV, Kernel, MaskV, Simd, dispatch};
use crate::state::Viewport;

/// A point's code when the point is dropped: outside a plane, or its
/// projection is not usable.
pub(crate) const POINT_DROPPED: u32 = u32::MAX;

/// The per-vertex pass of one draw (see the module docs).
pub(crate) struct VertexPass<'a> {
    /// Clip-space planes with their outcode bit.
    homogeneous: Vec<(u32, [f32; 4])>,
    /// Stored distances (float index in the vertex) with their outcode bit.
    stored: Vec<(u32, usize)>,
    proj: Projection,
    /// Point lists: the draw state that decides each point's pixels.
    points: Option<&'a DrawState>,
    /// Warp's backend, or None for the Reference's scalar form.
    simd: Option<Backend>,
}

impl<'a> VertexPass<'a> {
    /// The pass for `planes` and viewport `vp`; `points` (the draw state)
    /// for a point list; `simd` for Warp. The plane kinds are sorted out
    /// once, not once per vertex and plane.
    pub(crate) fn new(
        planes: &[ClipPlane],
        vp: &Viewport,
        points: Option<&'a DrawState>,
        simd: Option<Backend>,
    ) -> VertexPass<'a> {
        let mut homogeneous = Vec::new();
        let mut stored = Vec::new();
        for (i, p) in planes.iter().enumerate() {
            match *p {
                ClipPlane::Homogeneous(h) => homogeneous.push((1 << i, h)),
                ClipPlane::Stored(at) => stored.push((1 << i, at)),
            }
        }
        VertexPass {
            homogeneous,
            stored,
            proj: Projection::new(vp),
            points,
            simd,
        }
    }

    /// Whether the pass projects the vertices (a point list).
    pub(crate) fn projects(&self) -> bool {
        self.points.is_some()
    }

    /// Writes the code of each vertex of `rows` (`stride` floats each) to
    /// `codes`: its outcode (bit i: outside plane i), or for a point list
    /// the point word of the projected vertex (`raster::point_word`), or
    /// [`POINT_DROPPED`].
    pub(crate) fn run(&self, rows: &mut [f32], stride: usize, codes: &mut [u32]) {
        if stride == 0 {
            return;
        }
        match self.simd {
            Some(backend) => dispatch(
                backend,
                Groups {
                    pass: self,
                    rows,
                    stride,
                    codes,
                },
            ),
            None => self.scalar(rows, stride, codes),
        }
    }

    /// The outcode of one vertex.
    #[inline]
    fn outcode(&self, v: &[f32]) -> u32 {
        let mut code = 0;
        let (x, y, z, w) = (v[0], v[1], v[2], v[3]);
        for &(bit, p) in &self.homogeneous {
            // The same expression, in the same order, as `ClipPlane::dist`.
            let d = p[0] * x + p[1] * y + p[2] * z + p[3] * w;
            if !(d >= 0.0) {
                code |= bit;
            }
        }
        for &(bit, at) in &self.stored {
            if !(v[at] >= 0.0) {
                code |= bit;
            }
        }
        code
    }

    /// The scalar form of [`VertexPass::run`].
    fn scalar(&self, rows: &mut [f32], stride: usize, codes: &mut [u32]) {
        for (v, code) in rows.chunks_exact_mut(stride).zip(codes.iter_mut()) {
            let c = self.outcode(v);
            *code = match self.points {
                None => c,
                Some(st) => {
                    if c == 0 && self.proj.apply(v) {
                        crate::raster::point_word(st, v)
                    } else {
                        POINT_DROPPED
                    }
                }
            };
        }
    }

    /// [`VertexPass::scalar`] for 8 vertices at once, or false (having
    /// written nothing) when a lane is unusual (see the module docs).
    #[inline(always)]
    fn group<S: Simd>(&self, s: S, rows: &mut [f32], stride: usize, codes: &mut [u32]) -> bool {
        let col = |k: usize| s.f32s(std::array::from_fn(|i| rows[i * stride + k]));
        let (x, y, z, w) = (col(0), col(1), col(2), col(3));
        let zero = s.splat(0.0);
        let none = s.splat_i(0);
        let mut code = none;
        for &(bit, p) in &self.homogeneous {
            let d = s.splat(p[0]) * x + s.splat(p[1]) * y + s.splat(p[2]) * z + s.splat(p[3]) * w;
            code = code | (!d.ge(zero)).select_i(s.splat_i(bit as i32), none);
        }
        for &(bit, at) in &self.stored {
            code = code | (!col(at).ge(zero)).select_i(s.splat_i(bit as i32), none);
        }
        let Some(st) = self.points else {
            code.store_u32(codes);
            return true;
        };
        if !(code.eq(none) & w.gt(zero)).all() {
            return false;
        }
        let p = &self.proj;
        let one = s.splat(1.0);
        let (xn, yn, zn) = (x / w, y / w, z / w);
        let sx = s.splat(p.x0) + (one + xn) * s.splat(p.hw);
        let sy = s.splat(p.y0) + (one - yn) * s.splat(p.hh);
        let sz = s.splat(p.min_z) + zn * s.splat(p.dz);
        let rhw = one / w;
        // The scalar clamp keeps a NaN (unusable); `max`/`min` would not.
        let finite = |v: S::F| v.lt(s.splat(f32::INFINITY)) & v.gt(s.splat(f32::NEG_INFINITY));
        let usable = sx.eq(sx) & sy.eq(sy) & finite(sz) & finite(rhw) & rhw.gt(zero);
        if !usable.all() {
            return false;
        }
        let (lo, hi) = (s.splat(-GUARD), s.splat(GUARD));
        let sx = sx.max(lo).min(hi);
        let sy = sy.max(lo).min(hi);
        let Some(word) = crate::raster::point_words8(s, st, sx, sy, col(4)) else {
            return false;
        };
        let (sx, sy, sz, rhw) = (sx.to_array(), sy.to_array(), sz.to_array(), rhw.to_array());
        for (i, v) in rows.chunks_exact_mut(stride).take(8).enumerate() {
            v[0] = sx[i];
            v[1] = sy[i];
            v[2] = sz[i];
            v[3] = rhw[i];
        }
        word.store_u32(codes);
        true
    }
}

/// [`VertexPass::run`] on Warp: groups of 8 vertices, the rest scalar.
struct Groups<'p, 'r> {
    pass: &'p VertexPass<'p>,
    rows: &'r mut [f32],
    stride: usize,
    codes: &'r mut [u32],
}

impl Kernel for Groups<'_, '_> {
    type Output = ();
    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let Groups {
            pass,
            rows,
            stride,
            codes,
        } = self;
        let n = codes.len().min(rows.len() / stride);
        let full = n / 8 * 8;
        for b in (0..full).step_by(8) {
            let rows = &mut rows[b * stride..(b + 8) * stride];
            let codes = &mut codes[b..b + 8];
            if !pass.group(s, rows, stride, codes) {
                pass.scalar(rows, stride, codes);
            }
        }
        pass.scalar(
            &mut rows[full * stride..n * stride],
            stride,
            &mut codes[full..n],
        );
    }
}
