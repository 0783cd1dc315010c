//! The per-vertex half of the clip-space front end ([`super::clip_space`]):
//! each vertex's outcode and, for point lists, its projection and point
//! word, run on each chunk of vertices as soon as the vertex stage wrote
//! it, while the chunk is in cache; Warp's fixed-function stage runs it
//! earlier still, on each batch of 8 before spreading it into rows
//! ([`FusedPass`]).
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
use crate::ffp::{BatchPass, RowSource, RowSpread};
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
        let none = s.splat_i(0);
        let mut stored = none;
        for &(bit, at) in &self.stored {
            stored = stored | (!col(at).ge(s.splat(0.0))).select_i(s.splat_i(bit as i32), none);
        }
        let pos = [col(0), col(1), col(2), col(3)];
        let Some(projected) = self.lanes(s, pos, col(4), stored, codes) else {
            return false;
        };
        if let Some(p) = projected {
            let p = p.map(|v| v.to_array());
            for (i, v) in rows.chunks_exact_mut(stride).take(8).enumerate() {
                for k in 0..4 {
                    v[k] = p[k][i];
                }
            }
        }
        true
    }

    /// The pass on 8 vertices given as lanes: clip-space position `pos`,
    /// point size `size` (the row's float 4) and the outcode bits of the
    /// stored planes, `stored`. Writes the 8 `codes` and returns, for a
    /// point list, the projected position (what goes to the rows' floats
    /// 0-3); None, having written nothing, when a lane is unusual.
    #[inline(always)]
    #[allow(clippy::option_option)]
    fn lanes<S: Simd>(
        &self,
        s: S,
        pos: [S::F; 4],
        size: S::F,
        stored: S::I,
        codes: &mut [u32],
    ) -> Option<Option<[S::F; 4]>> {
        let [x, y, z, w] = pos;
        let zero = s.splat(0.0);
        let none = s.splat_i(0);
        let mut code = stored;
        for &(bit, p) in &self.homogeneous {
            let d = s.splat(p[0]) * x + s.splat(p[1]) * y + s.splat(p[2]) * z + s.splat(p[3]) * w;
            code = code | (!d.ge(zero)).select_i(s.splat_i(bit as i32), none);
        }
        let Some(st) = self.points else {
            code.store_u32(codes);
            return Some(None);
        };
        if !(code.eq(none) & w.gt(zero)).all() {
            return None;
        }
        let p = &self.proj;
        let one = s.splat(1.0);
        let (xn, yn, zn) = (x / w, y / w, z / w);
        let sx = s.splat(p.x0) + (one + xn) * s.splat(p.hw);
        let sy = s.splat(p.y0) + (one - yn) * s.splat(p.hh);
        let sz = s.splat(p.min_z) + zn * s.splat(p.dz);
        let rhw = one / w;
        // The scalar clamp keeps a NaN (unusable); `max`/`min` would not.
        let inf = s.splat(f32::INFINITY);
        let ninf = s.splat(f32::NEG_INFINITY);
        let usable = sx.eq(sx)
            & sy.eq(sy)
            & sz.lt(inf)
            & sz.gt(ninf)
            & rhw.lt(inf)
            & rhw.gt(ninf)
            & rhw.gt(zero);
        if !usable.all() {
            return None;
        }
        let (lo, hi) = (s.splat(-GUARD), s.splat(GUARD));
        let sx = sx.max(lo).min(hi);
        let sy = sy.max(lo).min(hi);
        let word = crate::raster::point_words8(s, st, sx, sy, size)?;
        word.store_u32(codes);
        Some(Some([sx, sy, sz, rhw]))
    }

    /// The pass fused into Warp's fixed-function vertex stage for rows
    /// spread by `spread`: it then runs on each full batch before the batch
    /// is spread (see [`FusedPass`]). None when `spread` does not put the
    /// position (floats 0-3) in rows of their own or the pass has stored
    /// planes (the rows run the pass afterwards instead).
    pub(crate) fn fused(&self, spread: &RowSpread) -> Option<FusedPass<'_>> {
        if !self.stored.is_empty() || self.simd.is_none() {
            return None;
        }
        let sources = spread.sources();
        let row = |k: usize| match sources.get(k) {
            Some(&RowSource::Row(r)) => Some(r),
            _ => None,
        };
        let pos = [row(0)?, row(1)?, row(2)?, row(3)?];
        let size = *sources.get(4)?;
        // A projected point rewrites its position rows: no other float may
        // read them.
        let shared = sources
            .iter()
            .enumerate()
            .any(|(k, src)| k >= 4 && matches!(*src, RowSource::Row(r) if pos.contains(&r)));
        let distinct = (0..4).all(|i| (0..i).all(|j| pos[i] != pos[j]));
        (distinct && !shared).then_some(FusedPass {
            pass: self,
            pos,
            size,
        })
    }
}

/// A [`VertexPass`] run by the fixed-function vertex stage on each full
/// batch of 8 vertices while the batch is in SoA rows (`ffp::BatchPass`),
/// so its position need not be gathered back from the vertex rows; the
/// same lanes, operations and results as [`VertexPass::run`] on the rows.
pub(crate) struct FusedPass<'p> {
    pass: &'p VertexPass<'p>,
    /// The batch rows of the clip-space position's x, y, z, w.
    pos: [usize; 4],
    /// Where a row's point size (float 4) comes from.
    size: RowSource,
}

impl BatchPass for FusedPass<'_> {
    #[inline(always)]
    fn batch<S: Simd>(&self, s: S, batch: &mut [[f32; 8]], codes: &mut [u32]) -> bool {
        let [rx, ry, rz, rw] = self.pos;
        if rx.max(ry).max(rz).max(rw) >= batch.len() || codes.len() < 8 {
            return false;
        }
        let pos = [
            s.f32s(batch[rx]),
            s.f32s(batch[ry]),
            s.f32s(batch[rz]),
            s.f32s(batch[rw]),
        ];
        // `RowSpread` reads a row past the batch as 0.
        let size = match self.size {
            RowSource::Row(r) => batch.get(r).map_or(s.splat(0.0), |b| s.f32s(*b)),
            RowSource::Const(c) => s.splat(c),
        };
        let Some(projected) = self.pass.lanes(s, pos, size, s.splat_i(0), codes) else {
            return false;
        };
        if let Some(p) = projected {
            for (v, r) in p.into_iter().zip(self.pos) {
                v.store(&mut batch[r]);
            }
        }
        true
    }

    fn rows(&self, rows: &mut [f32], stride: usize, codes: &mut [u32]) {
        // What `run` does with a group `group` declines, and with a tail.
        self.pass.scalar(rows, stride, codes);
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
