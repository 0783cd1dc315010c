//! The Warp rasterizer: set-up (a triangle's planes 8 at once), binning into 64x64
//! tiles, and tile execution in parallel (one band of tiles per task, in a
//! long-lived rayon pool), each tile walking its primitives in submission
//! order: 8x8 blocks trivially rejected / accepted per edge, 4x2 stamps
//! with edge masks, shading and merging in 8 SIMD lanes.
//!
//! Invariant: a pixel is only ever touched by the task that owns its band,
//! and within a band primitives run in submission order, so the image is
//! bit-identical for any thread count; every float formula repeats the
//! Reference driver's, so the image equals the Reference image too.

mod points;
mod setup;
mod tile;

use rayon::prelude::*;

use crate::driver::DrawState;
use crate::driver::FrameTargets;
use crate::driver::{Inputs, point_size, point_size_row};
use crate::geom::{Prim, VertexBuf};
use crate::pixel::PixelStage;
use crate::pixel::setup::{PrimSetup, point_bbox, setup_point, snap};
use crate::simd::{Backend, FloatV, IntV, MaskV, Simd};
use crate::state::Rect;

/// Tile width in pixels.
pub(crate) const TILE_W: i32 = 64;

/// Tile height in pixels; a band (the unit of parallel work) is one row of
/// tiles, or half of one where that balances the workers ([`band_rows`]).
/// 32-row tiles (binned at 32 rows) were not adopted: the point scene S6
/// measured slower with them, in a period too noisy to settle it.
pub(crate) const TILE_H: i32 = 64;

/// Primitives per part of a draw's set-up. Parts are set up and binned
/// independently (in parallel on a pool) and rasterized in order.
pub(crate) const PART_PRIMS: usize = 8192;

/// One part of a draw: consecutive primitives set up, with their
/// attribute planes and their tile bins (indices into `setups`).
#[derive(Debug, Default)]
pub(crate) struct Part {
    pub(crate) setups: Vec<PrimSetup>,
    pub(crate) planes: Vec<crate::pixel::Plane>,
    /// Single-pixel points of a compact point draw (see [`PointRec`]).
    pub(crate) points: Vec<PointRec>,
    /// Per tile, in submission order: indices into `setups`, or into
    /// `points` with [`COMPACT`] set.
    pub(crate) bins: Vec<Vec<u32>>,
}

/// Marks a bin entry that indexes [`Part::points`].
pub(crate) const COMPACT: u32 = 1 << 31;

/// Marks the first of [`POINT_GROUP`] compact bin entries (consecutive
/// records) whose points are consecutive vertices on consecutive pixels
/// of one pixel row, left to right: a span the tile gathers in one step.
/// (A part holds fewer than 2^30 points: a draw has at most 2^20 primitives.)
pub(crate) const SPAN: u32 = 1 << 30;

/// The record or set-up index of a bin entry (without [`COMPACT`] and [`SPAN`]).
#[inline(always)]
pub(crate) fn entry_index(entry: u32) -> usize {
    (entry & !(COMPACT | SPAN)) as usize
}

/// A point that covers exactly one pixel, in a draw whose points are
/// gathered (`points`): its pixel and vertex, instead of a [`PrimSetup`]
/// and constant planes (about 20 times the bytes, written and read back
/// for every point of a point cloud).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointRec {
    pub(crate) x: i32,
    pub(crate) y: i32,
    pub(crate) v: u32,
}

/// Buffers reused from draw to draw (no fresh allocation, no page faults).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) parts: Vec<Part>,
    /// Every vertex's snapped screen position (16.8), for triangle draws:
    /// a vertex shared by several triangles is snapped once.
    pub(crate) snapped: Vec<[i32; 2]>,
}

/// Rows per band (the unit of parallel work) for a draw clipped to `clip`
/// on `workers` threads: a tile row, unless the clip's tile rows do not
/// divide evenly among the workers; then half a tile row, so that the
/// worker left with one band more waits half as long (a 1080-row target
/// has 17 tile rows: 9 against 8 on two workers, 17 against 17 halves).
/// A half band walks its tiles' bins like a whole one, clipped to its rows.
fn band_rows(clip: &Rect, workers: usize) -> usize {
    if clip.is_empty() {
        return TILE_H as usize;
    }
    let tile_rows = (clip.bottom - 1) / TILE_H - clip.top / TILE_H + 1;
    if (tile_rows as usize).is_multiple_of(workers.max(1)) {
        TILE_H as usize
    } else {
        TILE_H as usize / 2
    }
}

/// A draw's primitives, as [`draw`] takes them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Primitives<'a> {
    /// Assembled primitives, all of one type. `point_words` (a point
    /// list's, one per vertex) are [`point_word`]s the vertex stage computed.
    Assembled {
        prims: &'a [Prim],
        point_words: Option<&'a [u32]>,
    },
    /// A vertex-processed point list that [`compact_points`] allows, drawn
    /// without a primitive list: one point per vertex number of `order`
    /// (None: every vertex of `words`, in order), whose [`point_word`]s are
    /// `words` (one per vertex; the dropped ones' words name no pixel).
    Points {
        words: &'a [u32],
        order: Option<&'a [u32]>,
    },
}

impl Primitives<'_> {
    /// How many primitives the draw has.
    fn len(&self) -> usize {
        match *self {
            Primitives::Assembled { prims, .. } => prims.len(),
            Primitives::Points { words, order } => order.map_or(words.len(), <[u32]>::len),
        }
    }
}

/// Whether a point list under `st` drawn with `stage` is drawn compactly: a
/// point covering one pixel becomes a [`PointRec`] and its stamps gather
/// their lanes from several points (no point sprites, whose texture
/// coordinates vary over the square; a stage whose lanes are independent).
pub(crate) fn compact_points<P: PixelStage>(st: &DrawState, stage: &P) -> bool {
    stage.lanes_independent() && !st.point_sprite
}

/// Sets up and bins part `k` of `prims` (its [`PART_PRIMS`] primitives)
/// into `part`.
#[allow(clippy::too_many_arguments)]
fn build_part(
    st: &DrawState,
    buf: &VertexBuf,
    snapped: &[[i32; 2]],
    prims: Primitives<'_>,
    k: usize,
    inputs: &Inputs<'_>,
    backend: Backend,
    tiles_x: i32,
    tiles_y: i32,
    compact: bool,
    part: &mut Part,
) {
    part.setups.clear();
    part.planes.clear();
    part.points.clear();
    part.bins
        .resize_with((tiles_x * tiles_y) as usize, Vec::new);
    for b in part.bins.iter_mut() {
        b.clear();
    }
    let lo = k * PART_PRIMS;
    let hi = (lo + PART_PRIMS).min(prims.len());
    let (prims, words) = match prims {
        Primitives::Assembled { prims, point_words } => (&prims[lo..hi], point_words),
        Primitives::Points { words, order } => {
            match order {
                Some(order) => build_points(
                    st,
                    buf,
                    order[lo..hi].iter().copied(),
                    inputs,
                    tiles_x,
                    Some(words),
                    part,
                ),
                None => {
                    build_point_run(st, buf, lo as u32..hi as u32, inputs, tiles_x, words, part)
                }
            }
            return;
        }
    };
    if compact {
        let vertices = prims.iter().filter_map(|p| match *p {
            Prim::Point(v) => Some(v),
            _ => None,
        });
        build_points(st, buf, vertices, inputs, tiles_x, words, part);
        return;
    }
    part.setups.reserve(prims.len());
    setup::build(
        st,
        buf,
        snapped,
        prims,
        inputs,
        backend,
        &mut part.setups,
        &mut part.planes,
    );
    for (i, p) in part.setups.iter().enumerate() {
        bin(&mut part.bins, tiles_x, &p.bbox, i as u32);
    }
}

/// The tiles a draw's bins name, as half-open ranges of tile columns and
/// rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileRange {
    pub(crate) tx0: i32,
    pub(crate) tx1: i32,
    pub(crate) ty0: i32,
    pub(crate) ty1: i32,
}

/// The smallest [`TileRange`] holding every non-empty bin of `parts`;
/// None when the draw binned nothing.
fn touched_tiles(parts: &[Part], tiles_x: i32) -> Option<TileRange> {
    let mut r: Option<TileRange> = None;
    for part in parts {
        for (i, _) in part.bins.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
            let (tx, ty) = (i as i32 % tiles_x, i as i32 / tiles_x);
            r = Some(match r {
                None => TileRange {
                    tx0: tx,
                    tx1: tx + 1,
                    ty0: ty,
                    ty1: ty + 1,
                },
                Some(t) => TileRange {
                    tx0: t.tx0.min(tx),
                    tx1: t.tx1.max(tx + 1),
                    ty0: t.ty0.min(ty),
                    ty1: t.ty1.max(ty + 1),
                },
            });
        }
    }
    r
}

/// Set-ups a draw may have and still get its exact rows ([`used_rows`]):
/// the rows matter for batches of small draws, and reading back every
/// set-up of a large draw from memory cost S2 (four draws of 98,304
/// triangles) 2 % of its instructions on the caller's thread (callgrind).
const EXACT_ROWS_SETUPS: usize = 1024;

/// The pixel rows `top..bottom` of `parts`' work: their set-ups' boxes
/// for a small draw; the rows of the tiles `used` for a large one or one
/// with gathered points (not read one by one: a point cloud has a million).
fn used_rows(parts: &[Part], used: &TileRange) -> (i32, i32) {
    let tiles = (used.ty0 * TILE_H, used.ty1 * TILE_H);
    let setups: usize = parts.iter().map(|p| p.setups.len()).sum();
    if setups > EXACT_ROWS_SETUPS {
        return tiles;
    }
    let mut rows = (i32::MAX, i32::MIN);
    for part in parts {
        if !part.points.is_empty() {
            return tiles;
        }
        for b in part.setups.iter().map(|p| p.bbox).filter(|b| !b.is_empty()) {
            rows = (rows.0.min(b.top), rows.1.max(b.bottom));
        }
    }
    if rows.0 >= rows.1 {
        // Nothing with a box (cannot happen for binned work): the tiles.
        return tiles;
    }
    rows
}

/// Bins `entry`: tile (tx, ty) of the clip rectangle's grid gets every
/// primitive whose bounding box touches it, in order.
#[inline(always)]
fn bin(bins: &mut [Vec<u32>], tiles_x: i32, bbox: &Rect, entry: u32) {
    if bbox.is_empty() {
        return;
    }
    let (tx0, tx1) = (bbox.left / TILE_W, (bbox.right - 1) / TILE_W);
    let (ty0, ty1) = (bbox.top / TILE_H, (bbox.bottom - 1) / TILE_H);
    // The usual case of a small triangle: one tile, no loop.
    if tx0 == tx1 && ty0 == ty1 {
        bins[(ty0 * tiles_x + tx0) as usize].push(entry);
        return;
    }
    for ty in ty0..=ty1 {
        for tx in tx0..=tx1 {
            bins[(ty * tiles_x + tx) as usize].push(entry);
        }
    }
}

/// A point's word when its square covers more than one pixel.
const POINT_GENERAL: u32 = u32::MAX - 1;
/// A point's word when its square covers no pixel of the clip rectangle.
/// It and the words above it (`vertex_pass::POINT_DROPPED` is the top
/// one) name no pixel: a pixel word's row is below 0xFFFF.
const POINT_EMPTY: u32 = u32::MAX - 2;

/// The point word of projected vertex `v` (screen-space header) under
/// `st`, as [`build_points`] reads it: the one pixel its square covers,
/// `(y << 16) | x`, or [`POINT_GENERAL`] or [`POINT_EMPTY`]. The size and
/// the square are [`point_size`]'s and [`point_bbox`]'s, the set-up's own.
pub(crate) fn point_word(st: &DrawState, v: &[f32]) -> u32 {
    let size = point_size_row(st, v);
    let bbox = point_bbox(v, size, st.clip);
    if bbox.is_empty() {
        POINT_EMPTY
    } else if bbox.right - bbox.left == 1
        && bbox.bottom - bbox.top == 1
        && (0..0xFFFF).contains(&bbox.left)
        && (0..0xFFFF).contains(&bbox.top)
    {
        ((bbox.top as u32) << 16) | bbox.left as u32
    } else {
        POINT_GENERAL
    }
}

/// [`point_word`] of 8 projected vertices at once (screen x, y, and the
/// header's point size), with its operations in the same order; None when
/// a lane's square reaches a coordinate [`snap`] saturates (or is NaN),
/// which only the scalar form handles.
#[inline(always)]
pub(crate) fn point_words8<S: Simd>(
    s: S,
    st: &DrawState,
    x: S::F,
    y: S::F,
    size: S::F,
) -> Option<S::I> {
    // `point_size_row`: NaN reads D3DRS_POINTSIZE; fmax, then fmin.
    let size = size
        .ne(size)
        .select_f(s.splat(st.point_size), size)
        .max(s.splat(st.point_size_min))
        .min(s.splat(st.point_size_max));
    let h = size * s.splat(0.5);
    let (l, ok_l) = snap8(s, x - h);
    let (t, ok_t) = snap8(s, y - h);
    let (r, ok_r) = snap8(s, x + h);
    let (b, ok_b) = snap8(s, y + h);
    if !(ok_l & ok_t & ok_r & ok_b).all() {
        return None;
    }
    // `ceil_div(n, 256)`, exact for the snapped range (|n| < 2^23).
    let ceil = |n: S::I| (n + s.splat_i(255)).sra(8);
    let c = st.clip;
    let left = ceil(l).max(s.splat_i(c.left));
    let top = ceil(t).max(s.splat_i(c.top));
    let right = ceil(r).min(s.splat_i(c.right));
    let bottom = ceil(b).min(s.splat_i(c.bottom));
    let empty = !right.gt(left) | !bottom.gt(top);
    let one = s.splat_i(1);
    let max = s.splat_i(0xFFFF);
    let single = (right - left).eq(one)
        & (bottom - top).eq(one)
        & left.gt(s.splat_i(-1))
        & left.lt(max)
        & top.gt(s.splat_i(-1))
        & top.lt(max);
    let pixel = top.shl(16) | left;
    let word = single.select_i(pixel, s.splat_i(POINT_GENERAL as i32));
    Some(empty.select_i(s.splat_i(POINT_EMPTY as i32), word))
}

/// [`snap`] of 8 values, and where it is exact: `|v * 256| < 2^23` (not
/// NaN), where the scalar form rounds the remainder of its truncation.
#[inline(always)]
pub(super) fn snap8<S: Simd>(s: S, v: S::F) -> (S::I, S::M) {
    let t = v * s.splat(256.0);
    let big = s.splat(8_388_608.0);
    let ok = t.lt(big) & t.gt(s.splat(-8_388_608.0));
    let i = t.to_i32();
    let f = t - i.to_f32();
    // Masks are -1 where set: subtracting adds one.
    let up = f.ge(s.splat(0.5)).to_i();
    let down = f.le(s.splat(-0.5)).to_i();
    (i - up + down, ok)
}

/// Sets up and bins the points of `vertices` (a compact point draw's, in
/// order): a point covering one pixel becomes a [`PointRec`], any other
/// the usual set-up. `words` (one per vertex, [`point_word`]) are the
/// vertex stage's verdicts where it gave them, so the vertices need not be
/// read here.
fn build_points(
    st: &DrawState,
    buf: &VertexBuf,
    vertices: impl Iterator<Item = u32>,
    inputs: &Inputs<'_>,
    tiles_x: i32,
    words: Option<&[u32]>,
    part: &mut Part,
) {
    part.points.reserve(vertices.size_hint().1.unwrap_or(0));
    for v in vertices {
        let word = match words.and_then(|w| w.get(v as usize)) {
            Some(&w) => w,
            None => point_word(st, buf.get(v)),
        };
        // POINT_EMPTY, or a dropped point (clipping removes those first).
        if word >= POINT_EMPTY && word != POINT_GENERAL {
            continue;
        }
        if word != POINT_GENERAL {
            let (x, y) = word_pixel(word);
            part.points.push(PointRec { x, y, v });
            let entry = (part.points.len() - 1) as u32 | COMPACT;
            bins_push(&mut part.bins, tiles_x, x, y, entry);
            continue;
        }
        let size = point_size(st, buf, v);
        let bbox = point_bbox(buf.get(v), size, st.clip);
        let Some(p) = setup_point(
            buf,
            v,
            size,
            false,
            inputs.list,
            st.clip,
            &mut part.planes,
            None,
        ) else {
            continue;
        };
        part.setups.push(p);
        bin(
            &mut part.bins,
            tiles_x,
            &bbox,
            (part.setups.len() - 1) as u32,
        );
    }
}

/// Points per group of [`build_point_run`] (and per [`SPAN`]).
pub(crate) const POINT_GROUP: usize = 8;

/// The tile of a pixel word (`(y << 16) | x`): the word without the low
/// bits of x and y inside a 64x64 tile.
const TILE_OF_WORD: u32 = !(((TILE_H as u32 - 1) << 16) | (TILE_W as u32 - 1));

/// [`build_points`] for the consecutive vertices `range` whose point words
/// are `words` (indexed by vertex number): each group of
/// [`POINT_GROUP`] points that all cover one pixel of one tile (a point
/// cloud's neighbours usually do) is recorded and binned in bulk, the
/// others one by one; the records and bin entries are the same, in the
/// same order.
fn build_point_run(
    st: &DrawState,
    buf: &VertexBuf,
    range: std::ops::Range<u32>,
    inputs: &Inputs<'_>,
    tiles_x: i32,
    words: &[u32],
    part: &mut Part,
) {
    const _: () = assert!(
        TILE_W == 64 && TILE_H == 64,
        "TILE_OF_WORD assumes 64x64 tiles"
    );
    let end = range.end;
    let mut v = range.start;
    part.points.reserve(range.len());
    while v < end {
        let group = words
            .get(v as usize..v as usize + POINT_GROUP)
            .filter(|_| v as usize + POINT_GROUP <= end as usize);
        if let Some(group) = group {
            let tile = group[0] & TILE_OF_WORD;
            // Pixel words only (below POINT_EMPTY), all in the first's tile.
            let mut uniform = true;
            for &w in group {
                uniform &= (w < POINT_EMPTY) & (w & TILE_OF_WORD == tile);
            }
            if uniform {
                let first = part.points.len() as u32;
                for (k, &w) in group.iter().enumerate() {
                    let (x, y) = word_pixel(w);
                    part.points.push(PointRec {
                        x,
                        y,
                        v: v + k as u32,
                    });
                }
                let (x, y) = word_pixel(group[0]);
                let bin = &mut part.bins[bin_index(tiles_x, x, y)];
                let at = bin.len();
                bin.extend((first..first + POINT_GROUP as u32).map(|e| e | COMPACT));
                // Words one apart, all in one tile: one row, x to x + 7.
                let mut span = true;
                for (k, &w) in group.iter().enumerate() {
                    span &= w == group[0] + k as u32;
                }
                if span {
                    bin[at] |= SPAN;
                }
                v += POINT_GROUP as u32;
                continue;
            }
        }
        let next = (v + POINT_GROUP as u32).min(end);
        build_points(st, buf, v..next, inputs, tiles_x, Some(words), part);
        v = next;
    }
}

/// The pixel (x, y) of a pixel word (`(y << 16) | x`, see [`point_word`]).
#[inline(always)]
fn word_pixel(word: u32) -> (i32, i32) {
    ((word & 0xFFFF) as i32, (word >> 16) as i32)
}

/// The bin of the tile holding pixel (x, y) (x, y >= 0).
#[inline(always)]
fn bin_index(tiles_x: i32, x: i32, y: i32) -> usize {
    ((y / TILE_H) * tiles_x + x / TILE_W) as usize
}

/// Bins `entry` of the one pixel (x, y).
#[inline(always)]
fn bins_push(bins: &mut [Vec<u32>], tiles_x: i32, x: i32, y: i32, entry: u32) {
    bins[bin_index(tiles_x, x, y)].push(entry);
}

/// Vertices per task of [`snap_all`]: below two of them the pool's
/// hand-off costs more than the snapping.
const SNAP_CHUNK: usize = 4096;

/// Every vertex's snapped screen position into `snapped` (emptied
/// first), on `pool` for large buffers: each position depends on its
/// vertex alone, so the split cannot change a bit. Serial, this pass was
/// about 7 % of the lit-mesh scene's two-thread frame.
fn snap_all(buf: &VertexBuf, snapped: &mut Vec<[i32; 2]>, pool: Option<&rayon::ThreadPool>) {
    let n = buf.len();
    snapped.clear();
    snapped.resize(n, [0, 0]);
    let stride = buf.stride;
    let one = |(out, rows): (&mut [[i32; 2]], &[f32])| {
        for (o, v) in out.iter_mut().zip(rows.chunks_exact(stride)) {
            *o = [snap(v[0]), snap(v[1])];
        }
    };
    let rows = &buf.data[..n * stride];
    match pool {
        Some(pool) if n >= 2 * SNAP_CHUNK => pool.install(|| {
            snapped
                .par_chunks_mut(SNAP_CHUNK)
                .zip(rows.par_chunks(SNAP_CHUNK * stride))
                .for_each(one)
        }),
        _ => one((&mut snapped[..], rows)),
    }
}

/// A draw set up and binned: what its bands read besides the draw's
/// state, vertices, inputs and pixel stage ([`bin_draw`], [`shade_band`]).
#[derive(Debug)]
pub(crate) struct Binned {
    /// The draw's parts, in submission order (a draw of `n` parts uses the
    /// first `n`: the vector is reused from draw to draw).
    pub(crate) parts: Vec<Part>,
    n_parts: usize,
    tiles_x: i32,
    tiles_y: i32,
    gather_points: bool,
    /// The tiles with binned work (None: the draw binned nothing).
    used: Option<TileRange>,
    /// The pixel rows `top..bottom` the draw's work lies in (its
    /// primitives' boxes; a tile row for gathered points): a small draw
    /// is shaded by the bands these rows meet, not by every band of its
    /// tile row.
    rows: (i32, i32),
    fast: Option<crate::om::FastOm>,
    w_fog: bool,
}

impl Binned {
    /// Whether the draw has work in the band of rows `y0..y0 + rows`.
    pub(crate) fn touches(&self, st: &DrawState, y0: i32, rows: i32) -> bool {
        let Some(used) = self.used else {
            return false;
        };
        if y0 >= st.clip.bottom || y0 + rows <= st.clip.top {
            return false;
        }
        let ty = y0.div_euclid(TILE_H);
        ty >= used.ty0 && ty < used.ty1 && y0 < self.rows.1 && y0 + rows > self.rows.0
    }

    /// The pixel rows `top..bottom` holding the draw's work (None: it
    /// binned nothing).
    pub(crate) fn rows(&self) -> Option<(i32, i32)> {
        self.used.map(|_| self.rows)
    }

    /// Bytes the draw's set-ups, planes, point records and bin entries hold.
    pub(crate) fn bytes(&self) -> usize {
        self.parts[..self.n_parts]
            .iter()
            .map(|p| {
                p.setups.len() * std::mem::size_of::<PrimSetup>()
                    + p.planes.len() * std::mem::size_of::<crate::pixel::Plane>()
                    + p.points.len() * std::mem::size_of::<PointRec>()
                    + p.setups.len().max(p.points.len()) * 4
            })
            .sum()
    }

    /// Whether the draw binned any primitive.
    pub(crate) fn is_empty(&self) -> bool {
        self.used.is_none()
    }

    /// Tiles the draw's bins touch.
    fn tiles_touched(&self) -> i32 {
        self.used.map_or(0, |u| (u.tx1 - u.tx0) * (u.ty1 - u.ty0))
    }
}

/// Sets up and bins `prims` of one draw into `parts` (reused: their
/// vectors keep their capacity), `snapped` a buffer for the vertices'
/// snapped positions. Set-up and binning run per part of [`PART_PRIMS`]
/// primitives, on the pool when there are several parts: a primitive's
/// set-up does not depend on the others, and tiles walk the parts in
/// order, so the result is the same for any thread count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bin_draw<P: PixelStage>(
    parts: Vec<Part>,
    snapped: &mut Vec<[i32; 2]>,
    st: &DrawState,
    buf: &VertexBuf,
    prims: Primitives<'_>,
    inputs: &Inputs<'_>,
    stage: &P,
    backend: Backend,
    pool: Option<&rayon::ThreadPool>,
) -> Binned {
    let mut parts = parts;
    let tiles_x = st.clip.right.div_euclid(TILE_W) + 1;
    let tiles_y = st.clip.bottom.div_euclid(TILE_H) + 1;
    let n_prims = prims.len();
    let n_parts = n_prims.div_ceil(PART_PRIMS).max(1);
    snapped.clear();
    // A draw has one primitive type; only triangles read the snapped positions.
    let first = match prims {
        Primitives::Assembled { prims, .. } => prims.first().copied(),
        Primitives::Points { .. } => None,
    };
    if matches!(first, Some(Prim::Tri { .. })) && buf.stride > 0 {
        snap_all(buf, snapped, pool);
    }
    let snapped = &snapped[..];
    if parts.len() < n_parts {
        parts.resize_with(n_parts, Part::default);
    }
    let gather_points = match prims {
        Primitives::Assembled { .. } => {
            matches!(first, Some(Prim::Point(_))) && stage.lanes_independent()
        }
        Primitives::Points { .. } => true,
    };
    debug_assert!(
        !matches!(prims, Primitives::Points { .. }) || compact_points(st, stage),
        "a point list drawn without primitives must be compact"
    );
    let compact = gather_points && !st.point_sprite;
    let build = |(k, part): (usize, &mut Part)| {
        build_part(
            st, buf, snapped, prims, k, inputs, backend, tiles_x, tiles_y, compact, part,
        );
    };
    let used_parts = &mut parts[..n_parts];
    match pool {
        Some(pool) if n_parts > 1 => {
            pool.install(|| used_parts.par_iter_mut().enumerate().for_each(build))
        }
        _ => used_parts.iter_mut().enumerate().for_each(build),
    }
    // A small draw touches a few tiles of the target: only their bands
    // and columns are visited (each band visited sets up a pixel stage's
    // scratch and the merger's views, which a 4,096-draw frame paid for
    // every band of the target on every draw).
    let used = touched_tiles(&parts[..n_parts], tiles_x);
    let rows = used.map_or((0, 0), |u| used_rows(&parts[..n_parts], &u));
    Binned {
        parts,
        n_parts,
        tiles_x,
        tiles_y,
        gather_points,
        used,
        rows,
        fast: crate::om::FastOm::new(st),
        w_fog: matches!(
            st.fog.map(|f| f.source),
            Some(crate::driver::state::FogSource::Table { w_based: true, .. })
        ),
    }
}

/// Shades one band of a binned draw (`band` holds the targets' rows the
/// band owns); returns the samples that passed depth and stencil.
pub(crate) fn shade_band<P: PixelStage>(
    binned: &Binned,
    st: &DrawState,
    buf: &VertexBuf,
    inputs: &Inputs<'_>,
    stage: &P,
    band: FrameTargets<'_>,
    backend: Backend,
) -> u64 {
    let Some(used) = binned.used else {
        return 0;
    };
    if !binned.touches(st, band.y0, band.rows) {
        return 0;
    }
    let ctx = tile::Ctx {
        st,
        parts: &binned.parts[..binned.n_parts],
        inputs,
        stage,
        tiles_x: binned.tiles_x,
        tiles_y: binned.tiles_y,
        fast: binned.fast,
        w_fog: binned.w_fog,
        gather_points: binned.gather_points,
        buf,
        used,
    };
    crate::simd::dispatch(
        backend,
        tile::Band {
            ctx: &ctx,
            fb: band,
        },
    )
}

/// Rows per band for a batch of draws on targets `width` x `height`
/// shaded by `workers` threads, whose work lies in pixel rows `rows`
/// ([`Binned::rows`]): [`band_rows`], halved (down to 16) while the
/// batch's rows make fewer than three bands per worker. A batch of small
/// draws issued in screen order covers a strip of the target (S7: 512
/// draws, 90 rows), which tile-row bands gave mostly to one worker (one
/// worker shaded 72 % of the pixels, measured with perf); a draw is
/// visited only by the bands its own rows meet, so finer bands cost the
/// draws that straddle a band boundary, not every draw.
pub(crate) fn batch_band_rows(width: i32, height: i32, workers: usize, rows: (i32, i32)) -> usize {
    let mut band = band_rows(&Rect::new(0, 0, width, height), workers);
    if workers > 1 {
        let extent = (rows.1.min(height) - rows.0.max(0)).max(0) as usize;
        while band > 16 && extent / band < 3 * workers {
            band /= 2;
        }
    }
    band
}

/// Renders `prims` of one draw into `fb` ([`bin_draw`], then every band
/// [`shade_band`]); returns the samples that passed depth and stencil.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw<P: PixelStage>(
    scratch: &mut Scratch,
    st: &DrawState,
    buf: &VertexBuf,
    prims: Primitives<'_>,
    inputs: &Inputs<'_>,
    stage: &P,
    fb: FrameTargets<'_>,
    backend: Backend,
    pool: Option<&rayon::ThreadPool>,
) -> u64 {
    let parts = std::mem::take(&mut scratch.parts);
    let binned = bin_draw(
        parts,
        &mut scratch.snapped,
        st,
        buf,
        prims,
        inputs,
        stage,
        backend,
        pool,
    );
    let passed = if binned.is_empty() {
        0
    } else {
        let workers = pool.map_or(1, rayon::ThreadPool::current_num_threads);
        let bands = fb.bands(band_rows(&st.clip, workers));
        let run = |band: FrameTargets<'_>| -> u64 {
            shade_band(&binned, st, buf, inputs, stage, band, backend)
        };
        // A draw inside a tile or two is shaded where it is: splitting its
        // bands across workers costs a hand-off per draw and buys nothing.
        match pool {
            Some(pool) if binned.tiles_touched() > SMALL_DRAW_TILES => {
                let bands: Vec<_> = bands.collect();
                pool.install(|| bands.into_par_iter().map(run).sum())
            }
            _ => bands.map(run).sum(),
        }
    };
    scratch.parts = binned.parts;
    passed
}

/// Tiles a draw may touch and still be shaded on one worker (see [`draw`]).
const SMALL_DRAW_TILES: i32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch of small draws in a 90-row strip of a 1280x720 target gets
    /// 16-row bands on two workers (64 → 32 → 16: 90 / 32 = 2 bands is
    /// fewer than 3 per worker); a batch over the whole target keeps
    /// tile-row bands, and one worker always does.
    #[test]
    fn batch_bands_split_a_strip_among_the_workers() {
        assert_eq!(batch_band_rows(1280, 720, 2, (0, 90)), 16);
        assert_eq!(batch_band_rows(1280, 720, 2, (300, 700)), 64);
        assert_eq!(batch_band_rows(1280, 720, 2, (0, 720)), 64);
        assert_eq!(batch_band_rows(1280, 720, 1, (0, 90)), 64);
        // 1080 rows: 17 tile rows do not divide between two workers.
        assert_eq!(batch_band_rows(1920, 1080, 2, (0, 1080)), 32);
        assert_eq!(batch_band_rows(1920, 1080, 2, (0, 60)), 16);
        // Rows outside the target count for nothing.
        assert_eq!(batch_band_rows(1280, 720, 2, (-5000, 5000)), 64);
    }
}
