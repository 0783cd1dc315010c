//! Tile execution: one band (a row of tiles, or its upper or lower half:
//! `band_rows`) per task; per tile, the binned primitives in order;
//! triangles hierarchically (tile-level edge
//! classification, 8x8 blocks trivially accepted or rejected per edge,
//! 4x2 stamps with edge masks), points and lines by their own coverage.
//!
//! Edge values inside a tile fit in i32: an edge that neither accepts nor
//! rejects the tile crosses it, so its values there are within
//! 68 * (|a| + |b|) < 2^30 of zero (|a|, |b| < 2^23 inside the guard band).

use super::points::{Added, Gather};
use super::{POINT_GROUP, SPAN, TILE_H, TILE_W};
use crate::driver::DrawState;
use crate::driver::FrameTargets;
use crate::driver::Inputs;
use crate::om::{
    FastOm, FastTargets, StampIn, StampRows, merge, merge_fast, merge_fast_packed, merge_fast_rows,
};
use crate::pixel::BATCH;
use crate::pixel::setup::{Cover, Edge, PrimSetup, rel};
use crate::pixel::{AttrPlanes, PixelOut, PixelStage, Plane, Stamp};
use crate::simd::{FloatV, IntV, Kernel, MaskV, Simd};
use crate::state::CmpFunc;
use crate::state::Rect;

/// What every band of a draw reads.
pub(crate) struct Ctx<'a, P> {
    pub(crate) st: &'a DrawState,
    /// The draw's primitives in submission order, part by part.
    pub(crate) parts: &'a [super::Part],
    pub(crate) inputs: &'a Inputs<'a>,
    pub(crate) stage: &'a P,
    pub(crate) tiles_x: i32,
    pub(crate) tiles_y: i32,
    /// The merger's fast path, when the draw's state selects it.
    pub(crate) fast: Option<FastOm>,
    /// Table fog from w (stamps need `1 / q` even for affine primitives).
    pub(crate) w_fog: bool,
    /// Single-pixel points are gathered into stamps (`points`).
    pub(crate) gather_points: bool,
    /// The draw's vertices (compact points read theirs here).
    pub(crate) buf: &'a crate::geom::VertexBuf,
    /// The tiles with binned work; bands and columns outside are skipped.
    pub(crate) used: super::TileRange,
}

/// Where stamps are merged: the general merger, or its fast path on word
/// views of the band's depth buffer and RT0.
pub(super) trait Sink<S: Simd> {
    /// First surface row of the band.
    fn y0(&self) -> i32;
    /// Prefetches pixel columns `x0..x1` of the band (a hint; nothing by
    /// default).
    #[inline(always)]
    fn prefetch_columns(&self, _x0: i32, _x1: i32) {}
    /// Merges one stamp (`inp.y` band-relative).
    fn merge(&mut self, s: S, st: &DrawState, out: &PixelOut<S>, inp: &StampIn<S>) -> u32;
    /// Shades and merges the fully covered 8x8 block at (`bx`, `by`) of
    /// `p` in one loop (see [`full_block`]); None when this sink has no
    /// such path or the block is not inside its views.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn full_block<'c, P: PixelStage>(
        &mut self,
        _s: S,
        _ctx: &Ctx<'c, P>,
        _p: &PrimSetup,
        _pl: &[Plane],
        _terms: &Terms<S>,
        _bx: i32,
        _by: i32,
        _scratch: &mut P::Scratch<'c, S>,
    ) -> Option<u32> {
        None
    }
    /// Shades and merges a triangle's small region (see [`small`]) on a
    /// path of this sink's own; None when it has none or the region's
    /// stamps are not inside its views.
    #[inline(always)]
    fn small_region<'c, P: PixelStage>(
        &mut self,
        _s: S,
        _g: &Region<'_, 'c, S, P>,
        _vals: &mut Vec<S::F>,
        _scratch: &mut P::Scratch<'c, S>,
    ) -> Option<u32> {
        None
    }
}

/// The general merger on the band's targets.
struct General<'a, 'b> {
    fb: &'a mut FrameTargets<'b>,
}

impl<S: Simd> Sink<S> for General<'_, '_> {
    #[inline(always)]
    fn y0(&self) -> i32 {
        self.fb.y0
    }
    #[inline(always)]
    fn merge(&mut self, s: S, st: &DrawState, out: &PixelOut<S>, inp: &StampIn<S>) -> u32 {
        merge(s, st, out, inp, self.fb.depth.as_mut(), &mut self.fb.colors)
    }
}

/// The fast path ([`merge_fast`]), with the general merger on the same
/// views for stamps that reach past the band's bytes.
struct Fast<'a> {
    f: FastOm,
    t: FastTargets<'a>,
    y0: i32,
}

impl<S: Simd> Sink<S> for Fast<'_> {
    #[inline(always)]
    fn y0(&self) -> i32 {
        self.y0
    }
    #[inline(always)]
    fn prefetch_columns(&self, x0: i32, x1: i32) {
        if let (Ok(x0), Ok(x1)) = (usize::try_from(x0), usize::try_from(x1)) {
            self.t.prefetch_columns(x0, x1);
        }
    }
    #[inline(always)]
    fn merge(&mut self, s: S, st: &DrawState, out: &PixelOut<S>, inp: &StampIn<S>) -> u32 {
        if self.t.holds(inp.x, inp.y) {
            merge_fast(s, &self.f, out, inp, &mut self.t)
        } else {
            self.t.merge_general(s, st, out, inp)
        }
    }
    #[inline(always)]
    fn small_region<'c, P: PixelStage>(
        &mut self,
        s: S,
        g: &Region<'_, 'c, S, P>,
        vals: &mut Vec<S::F>,
        scratch: &mut P::Scratch<'c, S>,
    ) -> Option<u32> {
        self.small_region_fast(s, g, vals, scratch)
    }
    #[inline(always)]
    fn full_block<'c, P: PixelStage>(
        &mut self,
        s: S,
        ctx: &Ctx<'c, P>,
        p: &PrimSetup,
        pl: &[Plane],
        terms: &Terms<S>,
        bx: i32,
        by: i32,
        scratch: &mut P::Scratch<'c, S>,
    ) -> Option<u32> {
        let y = by - self.y0;
        if !(self.t.holds(bx, y) && self.t.holds(bx + 4, y + 6)) {
            return None;
        }
        let b = Block {
            ctx,
            p,
            pl,
            terms,
            bx,
            by,
            y0: self.y0,
        };
        let (f, t) = (&self.f, &mut self.t);
        if !S::SPECIALISE {
            let func = f.func();
            return Some(if f.z_clip() {
                full_block::<S, P, true, false>(s, &b, f, func, t, scratch)
            } else {
                full_block::<S, P, false, false>(s, &b, f, func, t, scratch)
            });
        }
        let zclip = self.f.z_clip() && !b.depth_inside();
        let affine = p.persp == 0 && !ctx.w_fog;
        Some(match (zclip, affine) {
            (false, true) => block_func::<S, P, false, true>(s, &b, f, t, scratch),
            (false, false) => block_func::<S, P, false, false>(s, &b, f, t, scratch),
            (true, true) => block_func::<S, P, true, true>(s, &b, f, t, scratch),
            (true, false) => block_func::<S, P, true, false>(s, &b, f, t, scratch),
        })
    }
}

impl Fast<'_> {
    /// [`Sink::small_region`] for the fast path.
    #[inline(always)]
    fn small_region_fast<'c, S: Simd, P: PixelStage>(
        &mut self,
        s: S,
        g: &Region<'_, 'c, S, P>,
        vals: &mut Vec<S::F>,
        scratch: &mut P::Scratch<'c, S>,
    ) -> Option<u32> {
        let [(x0, y0), (x1, y1)] = g.stamps();
        if !self.t.holds_region(x0, y0 - self.y0, x1, y1 - self.y0) {
            return None;
        }
        let p = g.p;
        let f = &self.f;
        // A primitive of constant depth has it at every pixel: `(a0 + 0 *
        // fx) + 0 * fy` is `a0` (or +-0 when `a0` is a zero, which
        // quantise alike).
        let constant = p.z.ddx == 0.0 && p.z.ddy == 0.0;
        let flat = if f.has_depth() && constant {
            Some(f.quantize(s, s.splat(p.z.a0), p.bias))
        } else {
            None
        };
        let zclip = f.z_clip()
            && !if constant {
                unit(p.z.a0)
            } else {
                g.depth_inside()
            };
        let (func, t, y0) = (f.func(), &mut self.t, self.y0);
        let out = PixelOut::new(s);
        Some(if zclip {
            let mut m = FastRegion::<S, true> {
                f,
                func,
                t,
                y0,
                flat,
                out,
            };
            small_fast(s, g, vals, &mut m, scratch)
        } else {
            let mut m = FastRegion::<S, false> {
                f,
                func,
                t,
                y0,
                flat,
                out,
            };
            small_fast(s, g, vals, &mut m, scratch)
        })
    }
}

/// Plane values of one primitive over a region, factored by column and row:
/// `v = (a0 + ddx * fx) + ddy * fy` is `t[col] + u[row]` with the same
/// roundings as the direct evaluation (the Reference driver's formula), at
/// one add per stamp instead of two multiplies and two adds.
struct Interp<S: Simd> {
    terms: Terms<S>,
    /// The current stamp's input values.
    vals: Vec<S::F>,
    /// Stamps waiting for a batching stage.
    queue: Queue<S>,
}

/// The column and row terms of one primitive over a region.
pub(super) struct Terms<S: Simd> {
    x0: i32,
    y0: i32,
    /// Planes per column / row: z, q, then the inputs.
    np: usize,
    /// Column terms, `np` per stamp column.
    t: Vec<S::F>,
    /// Row terms, `np` per stamp row.
    u: Vec<S::F>,
}

impl<S: Simd> Interp<S> {
    #[inline(always)]
    fn new(s: S) -> Interp<S> {
        Interp {
            terms: Terms {
                x0: 0,
                y0: 0,
                np: 0,
                t: Vec::new(),
                u: Vec::new(),
            },
            vals: Vec::new(),
            queue: Queue::new(s),
        }
    }

    /// Builds the terms of `p`'s planes (z, q, `inputs`) over region `r`.
    #[inline(always)]
    fn build(&mut self, s: S, p: &PrimSetup, inputs: &[Plane], r: &Rect) {
        self.terms.build(s, p, inputs, r);
        if self.vals.len() != inputs.len() {
            self.vals.resize(inputs.len(), s.splat(0.0));
        }
    }
}

impl<S: Simd> Terms<S> {
    /// Builds the terms of `p`'s planes (z, q, `inputs`) over region `r`.
    #[inline(always)]
    fn build(&mut self, s: S, p: &PrimSetup, inputs: &[Plane], r: &Rect) {
        self.x0 = r.left & !3;
        self.y0 = r.top & !1;
        let cols = ((r.right - self.x0 + 3) / 4) as usize;
        let rows = ((r.bottom - self.y0 + 1) / 2) as usize;
        let np = 2 + inputs.len();
        self.np = np;
        let zero = s.splat(0.0);
        // Grow only: every term this region reads is written below (no
        // clear-and-refill per primitive and tile).
        if self.t.len() < cols * np {
            self.t.resize(cols * np, zero);
        }
        if self.u.len() < rows * np {
            self.u.resize(rows * np, zero);
        }
        let lx = s.f32s([0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0]);
        let ly = s.f32s([0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        // Column by column and row by row: each pixel offset is converted
        // once for all planes (the same operations per plane as before).
        let t = &mut self.t[..cols * np];
        for (c, tc) in t.chunks_exact_mut(np).enumerate() {
            let fx = s.splat(rel(self.x0 + 4 * c as i32, p.ox)) + lx;
            tc[0] = s.splat(p.z.a0) + s.splat(p.z.ddx) * fx;
            tc[1] = s.splat(p.q.a0) + s.splat(p.q.ddx) * fx;
            for (v, pl) in tc[2..].iter_mut().zip(inputs) {
                *v = s.splat(pl.a0) + s.splat(pl.ddx) * fx;
            }
        }
        let u = &mut self.u[..rows * np];
        for (r, ur) in u.chunks_exact_mut(np).enumerate() {
            let fy = s.splat(rel(self.y0 + 2 * r as i32, p.oy)) + ly;
            ur[0] = s.splat(p.z.ddy) * fy;
            ur[1] = s.splat(p.q.ddy) * fy;
            for (v, pl) in ur[2..].iter_mut().zip(inputs) {
                *v = s.splat(pl.ddy) * fy;
            }
        }
    }

    /// The interpolated depth, `1 / q` (also for affine primitives when
    /// `w_fog`) and inputs (into `vals`) of stamp (x, y) of `p`.
    #[inline(always)]
    fn eval(
        &self,
        s: S,
        w_fog: bool,
        p: &PrimSetup,
        x: i32,
        y: i32,
        vals: &mut [S::F],
    ) -> (S::F, S::F) {
        let (np, c, r) = (self.np, self.col(x), self.row(y));
        eval_terms(s, w_fog, p, &self.t[c..c + np], &self.u[r..r + np], vals)
    }

    /// Where the terms of the stamp column holding pixel column `x` start in `t`.
    #[inline(always)]
    fn col(&self, x: i32) -> usize {
        ((x - self.x0) >> 2) as usize * self.np
    }

    /// Where the terms of the stamp row holding pixel row `y` start in `u`.
    #[inline(always)]
    fn row(&self, y: i32) -> usize {
        ((y - self.y0) >> 1) as usize * self.np
    }
}

/// `vals[k] = ti[k] + ui[k]`: the affine inputs of a stamp.
#[inline(always)]
fn sum_terms<F: FloatV>(vals: &mut [F], ti: &[F], ui: &[F]) {
    // The common colour-only stage (4 inputs): unrolled, no bounds checks.
    if let (Ok(v4), Some(t4), Some(u4)) = (
        <&mut [F; 4]>::try_from(&mut *vals),
        ti.first_chunk::<4>(),
        ui.first_chunk::<4>(),
    ) {
        v4[0] = t4[0] + u4[0];
        v4[1] = t4[1] + u4[1];
        v4[2] = t4[2] + u4[2];
        v4[3] = t4[3] + u4[3];
    } else {
        // Zipped slices: no per-element bounds checks (no closures either).
        for ((v, &t), &u) in vals.iter_mut().zip(ti).zip(ui) {
            *v = t + u;
        }
    }
}

/// The interpolated depth, `1 / q` and inputs (into `vals`) from a stamp's
/// column terms `tc` and row terms `ur` (see [`Terms`]).
#[inline(always)]
fn eval_terms<S: Simd>(
    s: S,
    w_fog: bool,
    p: &PrimSetup,
    tc: &[S::F],
    ur: &[S::F],
    vals: &mut [S::F],
) -> (S::F, S::F) {
    let one = s.splat(1.0);
    let z = tc[0] + ur[0];
    let wq = if p.persp != 0 || w_fog {
        one / (tc[1] + ur[1])
    } else {
        one
    };
    let (ti, ui) = (&tc[2..], &ur[2..]);
    if p.persp == 0 {
        sum_terms(vals, ti, ui);
    } else {
        for (k, ((v, &t), &u)) in vals.iter_mut().zip(ti).zip(ui).enumerate() {
            let v0 = t + u;
            *v = if p.persp & (1 << k) != 0 { v0 * wq } else { v0 };
        }
    }
    (z, wq)
}

/// One band of a draw: the kernel a worker runs.
pub(crate) struct Band<'a, 'b, P> {
    pub(crate) ctx: &'a Ctx<'a, P>,
    pub(crate) fb: FrameTargets<'b>,
}

impl<P: PixelStage> Kernel for Band<'_, '_, P> {
    type Output = u64;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> u64 {
        let ctx = self.ctx;
        let mut fb = self.fb;
        let ty = fb.y0 / TILE_H;
        if ty >= ctx.tiles_y {
            return 0;
        }
        let band = Rect::new(0, fb.y0, i32::MAX, fb.y0 + fb.rows);
        let y0 = fb.y0;
        if let Some(f) = ctx.fast
            && let Some(t) = FastTargets::new(&f, fb.depth.as_mut(), fb.colors[0].as_mut())
        {
            return tiles(s, ctx, ty, band, &mut Fast { f, t, y0 });
        }
        tiles(s, ctx, ty, band, &mut General { fb: &mut fb })
    }
}

/// The tiles of band row `ty` (pixels inside `band`), each tile's binned
/// primitives in order.
#[inline(always)]
fn tiles<S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'_, P>,
    ty: i32,
    band: Rect,
    sink: &mut K,
) -> u64 {
    let mut samples = 0u64;
    let mut out = PixelOut::new(s);
    let mut ip = Interp::new(s);
    let mut scratch = ctx.stage.scratch(s);
    let mut gather = ctx.gather_points.then(Gather::new);
    for tx in ctx.used.tx0..ctx.used.tx1 {
        let tile = Rect::new(
            tx * TILE_W,
            ty * TILE_H,
            (tx + 1) * TILE_W,
            (ty + 1) * TILE_H,
        )
        .intersect(&ctx.st.clip)
        .intersect(&band);
        if tile.is_empty() {
            continue;
        }
        let n_in = ctx.inputs.list.len();
        let t = (ty * ctx.tiles_x + tx) as usize;
        // Bring the next tile's pixels in while this one is shaded, when
        // the draw has primitives there: a tile's first touch of each row
        // otherwise waits on memory (the depth loads of the small-triangle
        // scene S2 were its hottest instructions).
        if tx + 1 < ctx.used.tx1
            && ctx
                .parts
                .iter()
                .any(|part| part.bins.get(t + 1).is_some_and(|b| !b.is_empty()))
        {
            sink.prefetch_columns((tx + 1) * TILE_W, (tx + 2) * TILE_W);
        }
        if let Some(g) = &mut gather {
            g.start(tx, ty);
        }
        for (part_index, part) in ctx.parts.iter().enumerate() {
            let bin = part.bins.get(t).map_or(&[][..], |b| &b[..]);
            let mut next = 0;
            while let Some(&pi) = bin.get(next) {
                next += 1;
                // The record and the planes of the primitive PREFETCH_AHEAD
                // entries on: a bin jumps through its part, so they are
                // rarely in cache, and the loads of a record's plane offset
                // and of its planes stalled the small-triangle scene S2's
                // tiles (a compact point's record is read where it is
                // gathered). Where a triangle draw's planes start is a guess
                // (`n_in` per record: no record has yet been read); a
                // wrong guess costs only the hint.
                if let Some(&later) = bin.get(next + PREFETCH_AHEAD)
                    && later & super::COMPACT == 0
                {
                    let i = super::entry_index(later);
                    crate::simd::prefetch(&part.setups, i);
                    crate::simd::prefetch(&part.planes, i * n_in);
                    crate::simd::prefetch(&part.planes, i * n_in + n_in.max(1) - 1);
                }
                if let Some(g) = &mut gather {
                    if pi & SPAN != 0 && g.add_span(part, part_index as u32, pi, &tile) {
                        next += POINT_GROUP - 1;
                        continue;
                    }
                    let added = g.add(part, part_index as u32, pi, &tile);
                    if added == Added::Yes {
                        continue;
                    }
                    samples +=
                        u64::from(g.flush(s, ctx, sink, &mut out, &mut ip.vals, &mut scratch));
                    if added == Added::Taken {
                        let again = g.add(part, part_index as u32, pi, &tile);
                        debug_assert_eq!(again, Added::Yes);
                        continue;
                    }
                }
                let p = &part.setups[pi as usize];
                let pl = &part.planes[p.attr_off as usize..p.attr_off as usize + n_in];
                samples += u64::from(prim(
                    s,
                    ctx,
                    p,
                    pl,
                    tile,
                    sink,
                    &mut out,
                    &mut ip,
                    &mut scratch,
                ));
            }
        }
        if let Some(g) = &mut gather {
            samples += u64::from(g.flush(s, ctx, sink, &mut out, &mut ip.vals, &mut scratch));
        }
    }
    samples
}

/// How many bin entries ahead [`tiles`] prefetches a primitive's record
/// and planes (S2, one thread, median ms/frame: 43.7-44.5 without, 42.5-43.4
/// at 16; 8 measured about the same).
const PREFETCH_AHEAD: usize = 16;

/// Lanes of stamp (x, y) inside `r`.
#[inline(always)]
fn region_bits(r: &Rect, x: i32, y: i32) -> u32 {
    // Columns x..x+4 inside [left, right): a 4-bit run, without a loop.
    let lo = (r.left - x).clamp(0, 4);
    let hi = (r.right - x).clamp(0, 4);
    let cols = ((1u32 << hi) - 1) & !((1u32 << lo) - 1);
    let mut bits = 0;
    if y >= r.top && y < r.bottom {
        bits |= cols;
    }
    if y + 1 >= r.top && y + 1 < r.bottom {
        bits |= cols << 4;
    }
    bits
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn prim<'c, S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'c, P>,
    p: &PrimSetup,
    pl: &[Plane],
    tile: Rect,
    fb: &mut K,
    out: &mut PixelOut<S>,
    ip: &mut Interp<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let r = p.bbox.intersect(&tile);
    if r.is_empty() {
        return 0;
    }
    if !matches!(p.cover, Cover::Tri(_)) {
        ip.build(s, p, pl, &r);
    }
    let mut n = 0;
    match p.cover {
        Cover::Tri(e) => n += tri(s, ctx, p, pl, &e, r, fb, out, ip, scratch),
        Cover::Rect | Cover::Line(_) => {
            let mut y = r.top & !1;
            while y < r.bottom {
                let mut x = r.left & !3;
                while x < r.right {
                    let mut bits = region_bits(&r, x, y);
                    if let Cover::Line(l) = &p.cover {
                        for lane in 0..8 {
                            if bits & (1 << lane) != 0 && !l.covers(x + (lane & 3), y + (lane >> 2))
                            {
                                bits &= !(1 << lane);
                            }
                        }
                    }
                    if bits != 0 {
                        n += stamp(s, ctx, p, pl, x, y, bits, fb, out, ip, scratch);
                    }
                    x += 4;
                }
                y += 2;
            }
        }
    }
    if P::BATCH > 1 {
        n += flush(s, ctx, p, pl, fb, ip, scratch);
    }
    n
}

/// One partially covering edge, relative to the region's stamp origin.
#[derive(Clone, Copy)]
struct PEdge<I> {
    a: i32,
    b: i32,
    /// F at the origin.
    f0: i32,
    /// a * lane_x + b * lane_y.
    step: I,
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn tri<'c, S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'c, P>,
    p: &PrimSetup,
    pl: &[Plane],
    e: &[Edge; 3],
    r: Rect,
    fb: &mut K,
    out: &mut PixelOut<S>,
    ip: &mut Interp<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let (ox, oy) = (r.left & !7, r.top & !7);
    let (w, h) = (
        i64::from(r.right - 1 - r.left),
        i64::from(r.bottom - 1 - r.top),
    );
    let lx = s.i32s([0, 1, 2, 3, 0, 1, 2, 3]);
    let ly = s.i32s([0, 0, 0, 0, 1, 1, 1, 1]);
    // Plain arrays with a count, not `Option`s: an array of
    // `Option<PEdge>` is copied through byte-offset stack slots, and the
    // wide reloads of those stores stall (store forwarding fails).
    let unused = PEdge {
        a: 0,
        b: 0,
        f0: 0,
        step: s.splat_i(0),
    };
    let mut edges = [unused; 3];
    let mut count = 0;
    for ed in e {
        let f = ed.at(r.left.into(), r.top.into());
        let (ea, eb) = (i64::from(ed.a), i64::from(ed.b));
        let min = f + ea.min(0) * w + eb.min(0) * h;
        let max = f + ea.max(0) * w + eb.max(0) * h;
        if max <= 0 {
            return 0;
        }
        if min > 0 {
            continue;
        }
        let (a, b) = (ed.a, ed.b);
        edges[count] = PEdge {
            a,
            b,
            f0: ed.at(ox.into(), oy.into()) as i32,
            step: s.splat_i(a).mul_lo(lx) + s.splat_i(b).mul_lo(ly),
        };
        count += 1;
    }
    let edges = &edges[..count];
    // A region of at most 2x4 stamps (a small triangle's usual share of a
    // tile): its stamps tested and interpolated directly, without the
    // column and row terms and the 8x8 block classification, whose set-up
    // costs more than it saves over so few stamps.
    let (sx0, sy0) = (r.left & !3, r.top & !1);
    if P::BATCH == 1 && r.right - sx0 <= 8 && r.bottom - sy0 <= 8 {
        let region = Region {
            ctx,
            p,
            pl,
            edges,
            origin: (ox, oy),
            r,
        };
        if let Some(n) = fb.small_region(s, &region, &mut ip.vals, scratch) {
            return n;
        }
        let mut m = Merged { fb, out };
        return small(s, &region, &mut ip.vals, &mut m, scratch);
    }
    // The triangle touches this tile: build its interpolation terms.
    ip.build(s, p, pl, &r);
    let zero = s.splat_i(0);
    let mut n = 0;
    let mut by = oy;
    while by < r.bottom {
        let mut bx = ox;
        while bx < r.right {
            // Classify the 8x8 block per edge.
            let mut live = [(unused, 0); 3];
            let mut nl = 0;
            let mut rejected = false;
            for pe in edges {
                let fb0 = pe.f0 + pe.a * (bx - ox) + pe.b * (by - oy);
                let min = fb0 + pe.a.min(0) * 7 + pe.b.min(0) * 7;
                let max = fb0 + pe.a.max(0) * 7 + pe.b.max(0) * 7;
                if max <= 0 {
                    rejected = true;
                    break;
                }
                if min <= 0 {
                    live[nl] = (*pe, fb0);
                    nl += 1;
                }
            }
            let inner = bx >= r.left && by >= r.top && bx + 8 <= r.right && by + 8 <= r.bottom;
            let mut done = rejected;
            // A fully covered block of a stage cheap enough to inline:
            // shaded and merged in one loop where the sink allows.
            if !done
                && P::INLINE_BLOCKS
                && nl == 0
                && inner
                && ip.vals.len() <= BLOCK_INPUTS
                && let Some(k) = fb.full_block(s, ctx, p, pl, &ip.terms, bx, by, scratch)
            {
                n += k;
                done = true;
            }
            if !done {
                let live = &live[..nl];
                let mut sy = by.max(r.top & !1);
                let sy_end = (by + 8).min(r.bottom);
                while sy < sy_end {
                    let mut sx = bx.max(r.left & !3);
                    let sx_end = (bx + 8).min(r.right);
                    while sx < sx_end {
                        let mut bits = if inner { 0xFF } else { region_bits(&r, sx, sy) };
                        // A plain loop over the live edges (iterator adaptors
                        // are closures: see the simd docs).
                        for (pe, fb0) in live {
                            let f = fb0 + pe.a * (sx - bx) + pe.b * (sy - by);
                            bits &= (s.splat_i(f) + pe.step).gt(zero).bits();
                        }
                        if bits != 0 {
                            n += stamp(s, ctx, p, pl, sx, sy, bits, fb, out, ip, scratch);
                        }
                        sx += 4;
                    }
                    sy += 2;
                }
            }
            bx += 8;
        }
        by += 8;
    }
    n
}

/// A triangle's region of at most 2x4 stamps in one tile, for [`small`].
pub(super) struct Region<'a, 'c, S: Simd, P> {
    ctx: &'a Ctx<'c, P>,
    p: &'a PrimSetup,
    pl: &'a [Plane],
    /// The edges crossing the region, their `f0` at `origin`.
    edges: &'a [PEdge<S::I>],
    origin: (i32, i32),
    r: Rect,
}

impl<S: Simd, P> Region<'_, '_, S, P> {
    /// The region's first and last stamps (pixel x, y of their lane 0).
    #[inline(always)]
    fn stamps(&self) -> [(i32, i32); 2] {
        let r = &self.r;
        [
            (r.left & !3, r.top & !1),
            ((r.right - 1) & !3, (r.bottom - 1) & !1),
        ]
    }

    /// Whether the primitive's depth, as [`small`] interpolates it, lies
    /// in [0, 1] at every lane of the region's stamps, judged from the
    /// corners of their box: `(a0 + ddx * fx) + ddy * fy` is monotonic in
    /// `fx` and in `fy` (every rounded operation is), so it lies between
    /// its corner values. Non-finite corners fail.
    #[inline(always)]
    fn depth_inside(&self) -> bool {
        let (z, p) = (&self.p.z, self.p);
        let [(x0, y0), (x1, y1)] = self.stamps();
        let (fx0, fx1) = (rel(x0, p.ox), rel(x1, p.ox) + 3.0);
        let (fy0, fy1) = (rel(y0, p.oy), rel(y1, p.oy) + 1.0);
        let (c0, c1) = (z.a0 + z.ddx * fx0, z.a0 + z.ddx * fx1);
        unit(c0 + z.ddy * fy0)
            & unit(c0 + z.ddy * fy1)
            & unit(c1 + z.ddy * fy0)
            & unit(c1 + z.ddy * fy1)
    }
}

/// Whether `v` lies in [0, 1] (not NaN).
#[inline(always)]
fn unit(v: f32) -> bool {
    (0.0..=1.0).contains(&v)
}

/// Where [`small`] sends each covered stamp: shaded and merged.
trait StampSink<'c, S: Simd, P: PixelStage> {
    /// Shades and merges stamp (x, y) of the region's primitive with
    /// coverage `bits`, depth and `1 / q` `(z, wq)` and inputs `vals`.
    #[allow(clippy::too_many_arguments)]
    fn put(
        &mut self,
        s: S,
        g: &Region<'_, 'c, S, P>,
        at: (i32, i32),
        bits: u32,
        zw: (S::F, S::F),
        vals: &[S::F],
        scratch: &mut P::Scratch<'c, S>,
    ) -> u32;
}

/// [`small`]'s stamps through [`shade_stamp`] into any sink.
struct Merged<'a, K, O> {
    fb: &'a mut K,
    out: &'a mut O,
}

impl<'c, S: Simd, P: PixelStage, K: Sink<S>> StampSink<'c, S, P> for Merged<'_, K, PixelOut<S>> {
    #[inline(always)]
    fn put(
        &mut self,
        s: S,
        g: &Region<'_, 'c, S, P>,
        (x, y): (i32, i32),
        bits: u32,
        zw: (S::F, S::F),
        vals: &[S::F],
        scratch: &mut P::Scratch<'c, S>,
    ) -> u32 {
        shade_stamp(
            s, g.ctx, g.p, g.pl, x, y, bits, zw, vals, self.fb, self.out, scratch,
        )
    }
}

/// [`small`]'s stamps merged by the fast path on a region whose stamps lie
/// inside the views (checked once, at its corner stamps), with the depth
/// function `func` (a constant where the caller passes one). `ZCLIP`
/// false: the region's depth is known to lie in [0, 1]. `flat`: the
/// primitive's quantised depth when it is the same at every pixel. The
/// same operations per stamp as [`shade_stamp`] and [`merge_fast`], so
/// the same bytes.
struct FastRegion<'a, 'b, S: Simd, const ZCLIP: bool> {
    f: &'a FastOm,
    func: CmpFunc,
    t: &'a mut FastTargets<'b>,
    /// First surface row of the band.
    y0: i32,
    flat: Option<S::I>,
    out: PixelOut<S>,
}

impl<'c, S: Simd, P: PixelStage, const ZCLIP: bool> StampSink<'c, S, P>
    for FastRegion<'_, '_, S, ZCLIP>
{
    #[inline(always)]
    fn put(
        &mut self,
        s: S,
        g: &Region<'_, 'c, S, P>,
        (x, y): (i32, i32),
        bits: u32,
        (z, wq): (S::F, S::F),
        vals: &[S::F],
        scratch: &mut P::Scratch<'c, S>,
    ) -> u32 {
        let p = g.p;
        let live = s.mask_from_bits(bits);
        let st = Stamp {
            x,
            y,
            coverage: live,
            front: p.front,
            w: if p.persp != 0 { wq } else { s.splat(1.0) },
            inputs: vals,
        };
        let attrs = AttrPlanes {
            planes: g.pl,
            persp: p.persp,
        };
        let rows = self.t.stamp_rows(x as usize, (y - self.y0) as usize);
        let depth = FastDepth {
            func: self.func,
            z,
            bias: p.bias,
            flat: self.flat,
        };
        let stage = g.ctx.stage;
        shade_fast::<S, P, ZCLIP>(
            s,
            stage,
            &st,
            &attrs,
            self.f,
            &depth,
            rows,
            &mut self.out,
            scratch,
        )
    }
}

/// [`small`] into a [`FastRegion`] with the common depth functions as
/// constants (the others as a value).
#[inline(always)]
fn small_fast<'c, S: Simd, P: PixelStage, const ZCLIP: bool>(
    s: S,
    g: &Region<'_, 'c, S, P>,
    vals: &mut Vec<S::F>,
    m: &mut FastRegion<'_, '_, S, ZCLIP>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    if !S::SPECIALISE {
        return small(s, g, vals, m, scratch);
    }
    match m.func {
        CmpFunc::LessEqual => {
            m.func = CmpFunc::LessEqual;
            small(s, g, vals, m, scratch)
        }
        CmpFunc::Less => {
            m.func = CmpFunc::Less;
            small(s, g, vals, m, scratch)
        }
        _ => small(s, g, vals, m, scratch),
    }
}

/// [`tri`] over a region of at most 2x4 stamps, for a stage that shades
/// one stamp at a time: each stamp's coverage from the crossing edges,
/// and its plane values evaluated directly with [`Terms`]' operations in
/// its order (`(a0 + ddx * fx) + ddy * fy`), so the bits are the same.
/// The region's bits always apply: the edges that accept the whole region
/// were dropped, and they need not accept the stamps' pixels outside it.
#[inline(always)]
fn small<'c, S: Simd, P: PixelStage, M: StampSink<'c, S, P>>(
    s: S,
    g: &Region<'_, 'c, S, P>,
    vals: &mut Vec<S::F>,
    m: &mut M,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let (ctx, p, pl, r) = (g.ctx, g.p, g.pl, &g.r);
    let (ox, oy) = g.origin;
    let n_in = pl.len();
    if vals.len() != n_in {
        vals.resize(n_in, s.splat(0.0));
    }
    let zero = s.splat_i(0);
    let lx = s.f32s([0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0]);
    let ly = s.f32s([0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
    let one = s.splat(1.0);
    let need_q = p.persp != 0 || ctx.w_fog;
    let mut n = 0;
    let mut sy = r.top & !1;
    while sy < r.bottom {
        let fy = s.splat(rel(sy, p.oy)) + ly;
        let mut sx = r.left & !3;
        while sx < r.right {
            let mut bits = region_bits(r, sx, sy);
            for pe in g.edges {
                let f = pe.f0 + pe.a * (sx - ox) + pe.b * (sy - oy);
                bits &= (s.splat_i(f) + pe.step).gt(zero).bits();
            }
            if bits != 0 {
                let fx = s.splat(rel(sx, p.ox)) + lx;
                let z = plane_at(s, &p.z, fx, fy);
                let wq = if need_q {
                    one / plane_at(s, &p.q, fx, fy)
                } else {
                    one
                };
                if p.persp == 0 {
                    affine_inputs(s, vals, pl, fx, fy);
                } else {
                    // Zipped slices and a plain loop (no closures: see the simd docs).
                    for (k, (v, plane)) in vals.iter_mut().zip(pl).enumerate() {
                        let v0 = plane_at(s, plane, fx, fy);
                        *v = if p.persp & (1 << k) != 0 { v0 * wq } else { v0 };
                    }
                }
                n += m.put(s, g, (sx, sy), bits, (z, wq), vals, scratch);
            }
            sx += 4;
        }
        sy += 2;
    }
    n
}

/// Plane `pl` at pixel offsets (fx, fy) from its origin: `(a0 + ddx * fx)
/// + ddy * fy`, [`Terms`]' operations in its order.
#[inline(always)]
fn plane_at<S: Simd>(s: S, pl: &Plane, fx: S::F, fy: S::F) -> S::F {
    (s.splat(pl.a0) + s.splat(pl.ddx) * fx) + s.splat(pl.ddy) * fy
}

/// [`small`]'s inputs of a primitive without perspective: every plane at
/// (fx, fy), the colour-only stage's four unrolled (no per-plane
/// perspective test and loop step: they were a third of this loop's
/// instructions in the small-triangle scene S2).
#[inline(always)]
fn affine_inputs<S: Simd>(s: S, vals: &mut [S::F], pl: &[Plane], fx: S::F, fy: S::F) {
    if let (Ok(v4), Some(p4)) = (
        <&mut [S::F; 4]>::try_from(&mut *vals),
        pl.first_chunk::<4>(),
    ) {
        v4[0] = plane_at(s, &p4[0], fx, fy);
        v4[1] = plane_at(s, &p4[1], fx, fy);
        v4[2] = plane_at(s, &p4[2], fx, fy);
        v4[3] = plane_at(s, &p4[3], fx, fy);
    } else {
        for (v, plane) in vals.iter_mut().zip(pl) {
            *v = plane_at(s, plane, fx, fy);
        }
    }
}

/// A fully covered 8x8 block of one primitive, for [`full_block`].
struct Block<'a, 'c, S: Simd, P> {
    ctx: &'a Ctx<'c, P>,
    p: &'a PrimSetup,
    pl: &'a [Plane],
    terms: &'a Terms<S>,
    bx: i32,
    by: i32,
    /// First surface row of the band.
    y0: i32,
}

impl<S: Simd, P> Block<'_, '_, S, P> {
    /// Whether the interpolated depth lies in [0, 1] at every pixel of the
    /// block, judged from its corners: a stamp's depth is `t + u`, a column
    /// term plus a row term, each `a + d * f` of an exact pixel offset `f`,
    /// and every rounded operation there is monotonic, so the depth over
    /// the block lies between its corner values. Non-finite corners fail.
    #[inline(always)]
    fn depth_inside(&self) -> bool {
        let terms = self.terms;
        let (np, c0, r0) = (terms.np, terms.col(self.bx), terms.row(self.by));
        // Column terms of pixel columns bx and bx + 7, row terms of rows
        // by and by + 7 (lane 4 of a row term is the stamp's second row).
        let t = [terms.t[c0].to_array()[0], terms.t[c0 + np].to_array()[3]];
        let u = [
            terms.u[r0].to_array()[0],
            terms.u[r0 + 3 * np].to_array()[4],
        ];
        t.iter()
            .all(|&t| u.iter().all(|&u| (0.0..=1.0).contains(&(t + u))))
    }
}

/// [`full_block`] with the common depth functions as constants (the others
/// as a value).
#[inline(always)]
fn block_func<'c, S: Simd, P: PixelStage, const ZCLIP: bool, const AFFINE: bool>(
    s: S,
    b: &Block<'_, 'c, S, P>,
    f: &FastOm,
    t: &mut FastTargets<'_>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    match f.func() {
        CmpFunc::LessEqual => {
            full_block::<S, P, ZCLIP, AFFINE>(s, b, f, CmpFunc::LessEqual, t, scratch)
        }
        CmpFunc::Less => full_block::<S, P, ZCLIP, AFFINE>(s, b, f, CmpFunc::Less, t, scratch),
        func => full_block::<S, P, ZCLIP, AFFINE>(s, b, f, func, t, scratch),
    }
}

/// Most inputs of a stage that [`full_block`] interpolates.
const BLOCK_INPUTS: usize = 12;

/// Shades and merges the 8 stamps of a fully covered 8x8 block (inside
/// `t`) in one loop: no coverage or region tests, the block's column and
/// row terms found once, the inputs and the stage's output kept in locals,
/// and the depth function `func` a constant where the caller passes one.
/// `ZCLIP` false: the block's depth is known to lie in [0, 1]
/// ([`Block::depth_inside`]); `AFFINE`: no input is perspective-corrected
/// and no fog needs `1 / q`. The same operations per stamp as [`stamp`] and
/// [`merge_fast`], so the same bytes.
#[inline(always)]
fn full_block<'c, S: Simd, P: PixelStage, const ZCLIP: bool, const AFFINE: bool>(
    s: S,
    b: &Block<'_, 'c, S, P>,
    f: &FastOm,
    func: CmpFunc,
    t: &mut FastTargets<'_>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let terms = b.terms;
    let np = terms.np;
    let n = np - 2;
    let (c0, r0) = (terms.col(b.bx), terms.row(b.by));
    let cols = &terms.t[c0..c0 + 2 * np];
    let rows = &terms.u[r0..r0 + 4 * np];
    let (left_cols, right_cols) = cols.split_at(np);
    let mut vals = [s.splat(0.0); BLOCK_INPUTS];
    let vals = &mut vals[..n];
    let mut out = PixelOut::new(s);
    let mut samples = 0;
    // A primitive of constant depth (a full-screen layer, a sprite, any
    // screen-parallel triangle) has the same depth in every stamp: every
    // stamp's `t + u` is `a0` plus zero terms, which is `a0` (or +-0 when
    // `a0` is a zero, and those quantise alike). So it is quantised once.
    // (An `if`, not `bool::then`: a closure is compiled outside the AVX2
    // trampoline.)
    let p = b.p;
    let flat = if f.has_depth() && p.z.ddx == 0.0 && p.z.ddy == 0.0 {
        Some(f.quantize(s, cols[0] + rows[0], p.bias))
    } else {
        None
    };
    // Index loops and one stamp function called twice rather than iterator
    // adaptors or an array of the two halves: LLVM left a zip of chunks out
    // of line (a call inside the AVX2 loop spills every vector register,
    // all being caller-saved, and runs `vzeroupper`), and an array of
    // `Option`s went through the stack.
    for r in 0..4 {
        let ur = &rows[r * np..(r + 1) * np];
        let y = b.by + 2 * r as i32;
        let [left, right] = t.block_rows(b.bx as usize, (y - b.y0) as usize);
        let st = BlockStamp {
            x: b.bx,
            y,
            tc: left_cols,
            ur,
        };
        samples += block_stamp::<S, P, ZCLIP, AFFINE>(
            s, b, f, func, &st, left, flat, vals, &mut out, scratch,
        );
        let st = BlockStamp {
            x: b.bx + 4,
            y,
            tc: right_cols,
            ur,
        };
        samples += block_stamp::<S, P, ZCLIP, AFFINE>(
            s, b, f, func, &st, right, flat, vals, &mut out, scratch,
        );
    }
    samples
}

/// Where one stamp of a [`full_block`] lies: its pixel and its column and row terms.
struct BlockStamp<'a, S: Simd> {
    x: i32,
    y: i32,
    tc: &'a [S::F],
    ur: &'a [S::F],
}

/// One fully covered stamp of [`full_block`]: interpolated, shaded and
/// merged into `words`; returns the samples that passed.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_stamp<'c, S: Simd, P: PixelStage, const ZCLIP: bool, const AFFINE: bool>(
    s: S,
    b: &Block<'_, 'c, S, P>,
    f: &FastOm,
    func: CmpFunc,
    at: &BlockStamp<'_, S>,
    words: StampRows<'_>,
    flat: Option<S::I>,
    vals: &mut [S::F],
    out: &mut PixelOut<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let (ctx, p) = (b.ctx, b.p);
    let one = s.splat(1.0);
    let full = s.mask_from_bits(0xFF);
    let (tc, ur) = (at.tc, at.ur);
    let (z, wq) = if AFFINE {
        // `eval_terms` for an affine primitive, without its tests.
        sum_terms(vals, &tc[2..], &ur[2..]);
        (tc[0] + ur[0], one)
    } else {
        eval_terms(s, ctx.w_fog, p, tc, ur, vals)
    };
    let st = Stamp {
        x: at.x,
        y: at.y,
        coverage: full,
        front: p.front,
        w: if !AFFINE && p.persp != 0 { wq } else { one },
        inputs: vals,
    };
    let attrs = AttrPlanes {
        planes: b.pl,
        persp: p.persp,
    };
    let depth = FastDepth {
        func,
        z,
        bias: p.bias,
        flat,
    };
    shade_fast::<S, P, ZCLIP>(s, ctx.stage, &st, &attrs, f, &depth, words, out, scratch)
}

/// A stamp's depth for [`shade_fast`]: the depth function (`FastOm`'s, or
/// the same value as a constant), the interpolated depth and the
/// primitive's bias, and the quantised depth when the caller knows it is
/// the same in every lane.
struct FastDepth<S: Simd> {
    func: CmpFunc,
    z: S::F,
    bias: f32,
    flat: Option<S::I>,
}

/// Shades stamp `st` and merges it on the fast path into `words` (its
/// coverage the live lanes): RT0 packed by the stage where it offers, the
/// colour's clamp left out for a saturating stage.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shade_fast<'c, S: Simd, P: PixelStage, const ZCLIP: bool>(
    s: S,
    stage: &'c P,
    st: &Stamp<'_, S>,
    attrs: &AttrPlanes<'_>,
    f: &FastOm,
    d: &FastDepth<S>,
    words: StampRows<'_>,
    out: &mut PixelOut<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let (func, live) = (d.func, st.coverage);
    if P::PACKS {
        if let Some(word) = stage.shade_packed(s, st, attrs, out, scratch) {
            return merge_fast_packed::<S, ZCLIP>(
                s, f, func, word, live, d.z, d.bias, d.flat, words,
            );
        }
    } else {
        stage.shade(s, st, attrs, out, scratch);
    }
    // The fast merger has no fog, so the fog alpha is not needed.
    let (z, bias) = merged_depth(s, d.bias, out, d.z);
    // `oDepth` replaces the primitive's depth.
    let flat = if out.depth.is_none() { d.flat } else { None };
    if P::SATURATES {
        merge_fast_rows::<S, true, ZCLIP>(s, f, func, out, live, z, bias, flat, words)
    } else {
        merge_fast_rows::<S, false, ZCLIP>(s, f, func, out, live, z, bias, flat, words)
    }
}

/// The depth a stamp merges with, and its bias (the primitive's `bias`):
/// `oDepth` replaces the interpolated `z`, clamped and unbiased
/// (bytecode.md 10).
#[inline(always)]
fn merged_depth<S: Simd>(s: S, bias: f32, out: &PixelOut<S>, z: S::F) -> (S::F, f32) {
    match out.depth {
        Some(d) => (d.max(s.splat(0.0)).min(s.splat(1.0)), 0.0),
        None => (z, bias),
    }
}

/// Shades and merges one stamp of `p` with coverage `bits`; a batching
/// stage ([`PixelStage::BATCH`] > 1) queues it instead (see [`Queue`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn stamp<'c, S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'c, P>,
    p: &PrimSetup,
    pl: &[Plane],
    x: i32,
    y: i32,
    bits: u32,
    fb: &mut K,
    out: &mut PixelOut<S>,
    ip: &mut Interp<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    if P::BATCH > 1 {
        let k = ip.queue.n;
        let n = ip.terms.np - 2;
        if ip.queue.vals.len() < BATCH * n {
            ip.queue.vals.resize(BATCH * n, s.splat(0.0));
        }
        let vals = &mut ip.queue.vals[k * n..(k + 1) * n];
        let (z, wq) = ip.terms.eval(s, ctx.w_fog, p, x, y, vals);
        let q = &mut ip.queue;
        q.x[k] = x;
        q.y[k] = y;
        q.bits[k] = bits;
        q.z[k] = z;
        q.wq[k] = wq;
        q.n += 1;
        if q.n == BATCH {
            return flush(s, ctx, p, pl, fb, ip, scratch);
        }
        return 0;
    }
    let n = ip.terms.np - 2;
    let zw = ip.terms.eval(s, ctx.w_fog, p, x, y, &mut ip.vals[..n]);
    shade_stamp(s, ctx, p, pl, x, y, bits, zw, &ip.vals, fb, out, scratch)
}

/// Shades and merges one stamp of `p` with coverage `bits`, interpolated
/// depth and `1 / q` `(z, wq)` and inputs `vals`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shade_stamp<'c, S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'c, P>,
    p: &PrimSetup,
    pl: &[Plane],
    x: i32,
    y: i32,
    bits: u32,
    (z, wq): (S::F, S::F),
    vals: &[S::F],
    fb: &mut K,
    out: &mut PixelOut<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let attrs = AttrPlanes {
        planes: pl,
        persp: p.persp,
    };
    let st = Stamp {
        x,
        y,
        coverage: s.mask_from_bits(bits),
        front: p.front,
        w: if p.persp != 0 { wq } else { s.splat(1.0) },
        inputs: vals,
    };
    ctx.stage.shade(s, &st, &attrs, out, scratch);
    finish(s, ctx, (p.bias, p.front), x, y, bits, z, wq, vals, out, fb)
}

/// Stamps interpolated but not yet shaded, all of one primitive, for a
/// stage that shades [`BATCH`] stamps at a time. Shading does not read the
/// targets, so shading a batch and then merging its stamps in order gives
/// the image of shading and merging stamp by stamp.
struct Queue<S: Simd> {
    n: usize,
    x: [i32; BATCH],
    y: [i32; BATCH],
    bits: [u32; BATCH],
    z: [S::F; BATCH],
    wq: [S::F; BATCH],
    /// Stamp k's inputs at `k * inputs ..`.
    vals: Vec<S::F>,
    outs: Vec<PixelOut<S>>,
}

impl<S: Simd> Queue<S> {
    #[inline(always)]
    fn new(s: S) -> Queue<S> {
        Queue {
            n: 0,
            x: [0; BATCH],
            y: [0; BATCH],
            bits: [0; BATCH],
            z: [s.splat(0.0); BATCH],
            wq: [s.splat(0.0); BATCH],
            vals: Vec::new(),
            outs: vec![PixelOut::new(s); BATCH],
        }
    }
}

/// Shades the queued stamps of `p` as one batch and merges them in order.
#[inline(always)]
fn flush<'c, S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'c, P>,
    p: &PrimSetup,
    pl: &[Plane],
    fb: &mut K,
    ip: &mut Interp<S>,
    scratch: &mut P::Scratch<'c, S>,
) -> u32 {
    let q = &mut ip.queue;
    let count = q.n;
    if count == 0 {
        return 0;
    }
    q.n = 0;
    let n = ip.terms.np - 2;
    let one = s.splat(1.0);
    // A plain loop: an `array::from_fn` closure would be compiled outside
    // the AVX2 context (see the simd module docs).
    let mut stamps = [Stamp {
        x: 0,
        y: 0,
        coverage: s.mask_from_bits(0),
        front: p.front,
        w: one,
        inputs: &[],
    }; BATCH];
    for (k, st) in stamps.iter_mut().enumerate().take(count) {
        st.x = q.x[k];
        st.y = q.y[k];
        st.coverage = s.mask_from_bits(q.bits[k]);
        st.w = if p.persp != 0 { q.wq[k] } else { one };
        st.inputs = &q.vals[k * n..(k + 1) * n];
    }
    let attrs = AttrPlanes {
        planes: pl,
        persp: p.persp,
    };
    ctx.stage
        .shade_batch(s, &stamps[..count], &attrs, &mut q.outs[..count], scratch);
    let mut samples = 0;
    for k in 0..count {
        samples += finish(
            s,
            ctx,
            (p.bias, p.front),
            q.x[k],
            q.y[k],
            q.bits[k],
            q.z[k],
            q.wq[k],
            &q.vals[k * n..(k + 1) * n],
            &q.outs[k],
            fb,
        );
    }
    samples
}

/// Merges one shaded stamp of a primitive with depth bias `bias` and
/// facing `front`: fog alpha, `oDepth` or the interpolated depth.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn finish<S: Simd, P: PixelStage, K: Sink<S>>(
    s: S,
    ctx: &Ctx<'_, P>,
    (bias, front): (f32, bool),
    x: i32,
    y: i32,
    bits: u32,
    z: S::F,
    wq: S::F,
    vals: &[S::F],
    out: &PixelOut<S>,
    fb: &mut K,
) -> u32 {
    let one = s.splat(1.0);
    let fog_alpha = match ctx.inputs.fog {
        Some(k) => vals[k],
        None => one,
    };
    let (z, bias) = merged_depth(s, bias, out, z);
    let inp = StampIn {
        live: bits,
        z,
        w: wq,
        fog_alpha,
        bias,
        front,
        x,
        y: y - fb.y0(),
    };
    fb.merge(s, ctx.st, out, &inp)
}
