//! Single-pixel points gathered into full stamps.
//!
//! A point of size 1 covers one pixel, so shading it as its own 4x2 stamp
//! wastes seven lanes, and a point cloud (scene S6: a million of them) pays
//! the stamp's whole cost per point. When the pixel stage's lanes are
//! independent ([`PixelStage::lanes_independent`]: no derivatives, no
//! implicit texture LOD), the points of a tile that land on distinct pixels
//! are gathered into the stamps that hold those pixels and shaded eight at
//! a time.
//!
//! Invariants, which keep the image bit-identical to drawing point by
//! point (and so to the Reference driver):
//! - a gathered lane's depth, `1 / q` and inputs are its own point's planes
//!   evaluated at its pixel with the formula of `tile::Terms` (the same
//!   operations in the same order);
//! - a batch never holds two points on one pixel: a point whose pixel is
//!   taken flushes the batch first, and so does any primitive that is not
//!   gathered, so every pixel sees its primitives in submission order
//!   (pixels are independent of each other, so their order across pixels
//!   does not matter);
//! - only front-facing points without depth bias or perspective planes are
//!   gathered (a stamp merges with one bias and one facing).

use super::tile::{Ctx, Sink};
use super::{COMPACT, POINT_GROUP, Part, SPAN, TILE_H, TILE_W, entry_index, snap8};
use crate::geom::{HEADER, VertexBuf};
use crate::pixel::setup::{Cover, rel, snap};
use crate::pixel::{AttrPlanes, PixelOut, PixelStage, Plane, Stamp};
use crate::simd::{IntV, MaskV, Simd};
use crate::state::Rect;

/// Stamps per tile row and per tile.
const STAMP_COLS: usize = TILE_W as usize / 4;
const STAMPS: usize = STAMP_COLS * TILE_H as usize / 2;

/// How many stamps ahead [`Gather::flush`] prefetches gathered points' vertex rows.
const PREFETCH_STAMPS: usize = 4;

/// What [`Gather::add`] did with a primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Added {
    /// Gathered (or nothing of it is inside the tile).
    Yes,
    /// Its pixel already holds a gathered point: flush, then add again.
    Taken,
    /// Not a gatherable point: flush, then draw it the usual way.
    No,
}

/// The points gathered in one tile, waiting to be shaded.
pub(super) struct Gather {
    /// The tile's grid origin (multiples of the tile size).
    x0: i32,
    y0: i32,
    /// Bit x of `rows[y]`: pixel (x0 + x, y0 + y) holds a point.
    rows: [u64; TILE_H as usize],
    /// Stamps holding points (`sy * STAMP_COLS + sx`), first touch first.
    touched: Vec<u16>,
    /// Per stamp: lanes holding points.
    bits: Vec<u8>,
    /// Per stamp and lane: the point's part and set-up index, or for a
    /// [`super::PointRec`] its part with [`COMPACT`] set and its vertex.
    lanes: Vec<[(u32, u32); 8]>,
    /// Per stamp plane (z, q, inputs): the 8 lanes' values.
    vals: Vec<[f32; 8]>,
}

impl Gather {
    /// An empty gather.
    pub(super) fn new() -> Gather {
        Gather {
            x0: 0,
            y0: 0,
            rows: [0; TILE_H as usize],
            touched: Vec::with_capacity(STAMPS),
            bits: vec![0; STAMPS],
            lanes: vec![[(0, 0); 8]; STAMPS],
            vals: Vec::new(),
        }
    }

    /// Starts tile `(tx, ty)`; the gather must be empty (flushed).
    pub(super) fn start(&mut self, tx: i32, ty: i32) {
        debug_assert!(self.touched.is_empty());
        self.x0 = tx * TILE_W;
        self.y0 = ty * TILE_H;
    }

    /// Gathers bin entry `entry` of part `part` (number `part_index`),
    /// clipped to `tile`.
    #[inline(always)]
    pub(super) fn add(&mut self, part: &Part, part_index: u32, entry: u32, tile: &Rect) -> Added {
        let (x, y, lane_entry) = if entry & COMPACT != 0 {
            let rec = &part.points[entry_index(entry)];
            if rec.x < tile.left || rec.x >= tile.right || rec.y < tile.top || rec.y >= tile.bottom
            {
                return Added::Yes;
            }
            // The lane keeps the vertex, so the flush reads it directly.
            (rec.x, rec.y, (part_index | COMPACT, rec.v))
        } else {
            let p = &part.setups[entry_index(entry)];
            let r = p.bbox.intersect(tile);
            if r.is_empty() {
                return Added::Yes;
            }
            if !matches!(p.cover, Cover::Rect)
                || r.right - r.left != 1
                || r.bottom - r.top != 1
                || p.persp != 0
                || p.bias.to_bits() != 0
                || !p.front
            {
                return Added::No;
            }
            (r.left, r.top, (part_index, entry))
        };
        let (px, py) = ((x - self.x0) as usize, (y - self.y0) as usize);
        let row = &mut self.rows[py];
        if *row & (1 << px) != 0 {
            return Added::Taken;
        }
        *row |= 1 << px;
        self.put(px, py, lane_entry);
        Added::Yes
    }

    /// Puts `lane_entry` in the stamp lane of tile pixel (px, py), whose
    /// row bit the caller has set.
    #[inline(always)]
    fn put(&mut self, px: usize, py: usize, lane_entry: (u32, u32)) {
        let stamp = (py / 2) * STAMP_COLS + px / 4;
        let lane = (py & 1) * 4 + (px & 3);
        if self.bits[stamp] == 0 {
            self.touched.push(stamp as u16);
        }
        self.bits[stamp] |= 1 << lane;
        self.lanes[stamp][lane] = lane_entry;
    }

    /// Gathers the [`POINT_GROUP`] points of the [`SPAN`] that bin entry
    /// `entry` starts, all at once, and returns true (also when its row is
    /// outside `tile`: nothing of it is inside); or returns false, having
    /// gathered nothing, when the span is partly outside `tile` or a pixel
    /// of it is taken (its points then go one by one through
    /// [`Gather::add`]). Gathering the span is what `add` does with its
    /// points in order when each returns [`Added::Yes`].
    #[inline(always)]
    pub(super) fn add_span(
        &mut self,
        part: &Part,
        part_index: u32,
        entry: u32,
        tile: &Rect,
    ) -> bool {
        debug_assert!(entry & SPAN != 0 && entry & COMPACT != 0);
        let rec = &part.points[entry_index(entry)];
        if rec.y < tile.top || rec.y >= tile.bottom {
            return true;
        }
        if rec.x < tile.left || rec.x + POINT_GROUP as i32 > tile.right {
            return false;
        }
        let (px, py) = ((rec.x - self.x0) as usize, (rec.y - self.y0) as usize);
        let pixels = ((1u64 << POINT_GROUP) - 1) << px;
        let row = &mut self.rows[py];
        if *row & pixels != 0 {
            return false;
        }
        *row |= pixels;
        for k in 0..POINT_GROUP {
            self.put(px + k, py, (part_index | COMPACT, rec.v + k as u32));
        }
        true
    }

    /// Shades and merges every gathered stamp; returns the samples that
    /// passed depth and stencil. Leaves the gather empty.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn flush<'c, S: Simd, P: PixelStage, K: Sink<S>>(
        &mut self,
        s: S,
        ctx: &Ctx<'c, P>,
        sink: &mut K,
        out: &mut PixelOut<S>,
        inputs: &mut Vec<S::F>,
        scratch: &mut P::Scratch<'c, S>,
    ) -> u32 {
        if self.touched.is_empty() {
            return 0;
        }
        let n = ctx.inputs.list.len();
        let np = 2 + n;
        if self.vals.len() < np {
            self.vals.resize(np, [0.0; 8]);
        }
        if inputs.len() != n {
            inputs.resize(n, s.splat(0.0));
        }
        let parts: &[Part] = ctx.parts;
        let one = s.splat(1.0);
        let mut samples = 0;
        for ti in 0..self.touched.len() {
            // The vertex rows of gathered points are read here first, in
            // stamp order, not in the order they were written: ask for a
            // later stamp's rows now so they arrive before they are needed.
            if let Some(&ahead) = self.touched.get(ti + PREFETCH_STAMPS) {
                let ahead = ahead as usize;
                let bits = self.bits[ahead];
                for (lane, &(part, v)) in self.lanes[ahead].iter().enumerate() {
                    if bits & (1 << lane) != 0 && part & COMPACT != 0 {
                        let at = v as usize * ctx.buf.stride;
                        crate::simd::prefetch(&ctx.buf.data, at);
                        crate::simd::prefetch(&ctx.buf.data, at + ctx.buf.stride - 1);
                    }
                }
            }
            let stamp = self.touched[ti] as usize;
            let bits = u32::from(self.bits[stamp]);
            self.bits[stamp] = 0;
            let x = self.x0 + 4 * (stamp % STAMP_COLS) as i32;
            let y = self.y0 + 2 * (stamp / STAMP_COLS) as i32;
            let lanes = &self.lanes[stamp];
            let all_compact = (0..8).all(|l| bits & (1 << l) == 0 || lanes[l].0 & COMPACT != 0);
            let vector = if all_compact {
                compact_stamp(s, ctx.buf, ctx.inputs.list, lanes, bits, (x, y), inputs)
            } else {
                None
            };
            let (z, q) = match vector {
                Some(zq) => zq,
                None => lane_stamp(
                    s,
                    ctx.buf,
                    ctx.inputs.list,
                    parts,
                    lanes,
                    bits,
                    (x, y),
                    &mut self.vals[..np],
                    inputs,
                ),
            };
            let wq = if ctx.w_fog { one / q } else { one };
            let st = Stamp {
                x,
                y,
                coverage: s.mask_from_bits(bits),
                front: true,
                w: one,
                inputs: &inputs[..],
            };
            // No planes: a gathered stamp is several primitives, and only
            // stages that never read the planes gather.
            let attrs = AttrPlanes {
                planes: &[],
                persp: 0,
            };
            ctx.stage.shade(s, &st, &attrs, out, scratch);
            // Points are front-facing, without bias (see the module docs).
            samples += super::tile::finish(
                s,
                ctx,
                (0.0, true),
                x,
                y,
                bits,
                z,
                wq,
                &inputs[..],
                out,
                sink,
            );
        }
        self.touched.clear();
        self.rows = [0; TILE_H as usize];
        samples
    }
}

/// [`Gather::flush`]'s per-lane values for a stamp (top-left pixel `xy`)
/// with points of any kind in its `bits` lanes, one lane at a time:
/// `inputs` gets the input planes' values, and the depth and `q` values
/// are returned; lanes outside `bits` are 0. `vals` (2 + inputs rows) is
/// where the lanes are assembled.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lane_stamp<S: Simd>(
    s: S,
    buf: &VertexBuf,
    list: &[usize],
    parts: &[Part],
    lanes: &[(u32, u32); 8],
    bits: u32,
    (x, y): (i32, i32),
    vals: &mut [[f32; 8]],
    inputs: &mut [S::F],
) -> (S::F, S::F) {
    let n = list.len();
    for (lane, &(part, entry)) in lanes.iter().enumerate() {
        if bits & (1 << lane) == 0 {
            for v in vals.iter_mut() {
                v[lane] = 0.0;
            }
            continue;
        }
        let (lx, ly) = ((lane & 3) as f32, (lane >> 2) as f32);
        if part & COMPACT != 0 {
            // The planes setup_point would make: constants.
            let v = buf.get(entry);
            let fx = rel(x, snap(v[0])) + lx;
            let fy = rel(y, snap(v[1])) + ly;
            vals[0][lane] = eval(&Plane::constant(v[2]), fx, fy);
            vals[1][lane] = eval(&Plane::constant(v[3]), fx, fy);
            let attrs = &v[HEADER..];
            for (val, &k) in vals[2..].iter_mut().zip(list) {
                val[lane] = eval(&Plane::constant(attrs[k]), fx, fy);
            }
        } else {
            let part = &parts[part as usize];
            let p = &part.setups[entry as usize];
            let pl = &part.planes[p.attr_off as usize..p.attr_off as usize + n];
            let fx = rel(x, p.ox) + lx;
            let fy = rel(y, p.oy) + ly;
            vals[0][lane] = eval(&p.z, fx, fy);
            vals[1][lane] = eval(&p.q, fx, fy);
            for (val, pl) in vals[2..].iter_mut().zip(pl) {
                val[lane] = eval(pl, fx, fy);
            }
        }
    }
    for (dst, v) in inputs.iter_mut().zip(&vals[2..]) {
        *dst = s.f32s(*v);
    }
    (s.f32s(vals[0]), s.f32s(vals[1]))
}

/// Lane offsets of a stamp's pixels from its top-left pixel.
const LANE_X: [f32; 8] = [0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0];
const LANE_Y: [f32; 8] = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];

/// [`Gather::flush`]'s per-lane values for a stamp (top-left pixel `xy`)
/// whose `bits` lanes all hold [`super::PointRec`] points, computed 8 lanes
/// at once: `inputs` gets the input planes' values, and the depth and `q`
/// values are returned. Each lane runs the per-lane form's operations in
/// its order (`snap`, `rel`, then `eval` of a constant plane), so the bits
/// are the same; lanes outside `bits` are 0, as there. None (nothing
/// written) when a lane's position is outside the range where the vector
/// `snap` is exact, or a row's offset does not fit an i32 lane: the
/// per-lane form then runs.
#[inline(always)]
fn compact_stamp<S: Simd>(
    s: S,
    buf: &VertexBuf,
    list: &[usize],
    lanes: &[(u32, u32); 8],
    bits: u32,
    (x, y): (i32, i32),
    inputs: &mut [S::F],
) -> Option<(S::F, S::F)> {
    let stride = buf.stride;
    // Lanes without a point read the first point's row (any valid row).
    let first = lanes[bits.trailing_zeros() as usize & 7].1;
    let mut rows = [0i32; 8];
    for (l, row) in rows.iter_mut().enumerate() {
        let v = if bits & (1 << l) != 0 {
            lanes[l].1
        } else {
            first
        };
        let end = (v as usize + 1).checked_mul(stride)?;
        if end > i32::MAX as usize {
            return None;
        }
        *row = (v as usize * stride) as i32;
    }
    let words: &[u32] = bytemuck::cast_slice(&buf.data);
    // Rows whose first 16 floats hold every column read (the usual colour
    // stage's rows do) are loaded whole and transposed, 16 loads and two
    // 8x8 transposes instead of a gather per column: the same floats.
    let whole = list.iter().all(|&k| HEADER + k < WIDE_COLUMNS)
        && rows
            .iter()
            .all(|&r| r as usize + WIDE_COLUMNS <= buf.data.len());
    let cols = if whole {
        let mut cols = [s.splat(0.0); WIDE_COLUMNS];
        for half in 0..2 {
            let mut m = [s.splat(0.0); 8];
            for (l, v) in m.iter_mut().enumerate() {
                let at = rows[l] as usize + 8 * half;
                let mut a = [0f32; 8];
                a.copy_from_slice(&buf.data[at..at + 8]);
                *v = s.f32s(a);
            }
            let t = s.transpose8(m);
            cols[8 * half..8 * half + 8].copy_from_slice(&t);
        }
        Some(cols)
    } else {
        None
    };
    let rows = s.i32s(rows);
    let col = Columns {
        whole: cols.as_ref(),
        words,
        rows,
    };
    let (px, py) = (col.get(s, 0), col.get(s, 1));
    let (sx, ok_x) = snap8(s, px);
    let (sy, ok_y) = snap8(s, py);
    if !(ok_x & ok_y).all() {
        return None;
    }
    let scale = s.splat(1.0 / 256.0);
    let fx = (s.splat_i(x.wrapping_mul(256)) - sx).to_f32() * scale + s.f32s(LANE_X);
    let fy = (s.splat_i(y.wrapping_mul(256)) - sy).to_f32() * scale + s.f32s(LANE_Y);
    let zero = s.splat(0.0);
    let (zx, zy) = (zero * fx, zero * fy);
    let live = s.mask_from_bits(bits);
    // No closures here: they would not inherit the AVX2 entry point's
    // target features, and the intrinsics inside would become calls.
    for (dst, &k) in inputs.iter_mut().zip(list) {
        let c = col.get(s, HEADER + k);
        *dst = live.select_f((c + zx) + zy, zero);
    }
    let (z, q) = (col.get(s, 2), col.get(s, 3));
    Some((
        live.select_f((z + zx) + zy, zero),
        live.select_f((q + zx) + zy, zero),
    ))
}

/// Floats at the start of a vertex row that [`compact_stamp`] loads whole.
const WIDE_COLUMNS: usize = 16;

/// Where [`compact_stamp`] reads its columns: the rows' first
/// [`WIDE_COLUMNS`] floats, transposed, or a gather per column.
struct Columns<'a, S: Simd> {
    whole: Option<&'a [S::F; WIDE_COLUMNS]>,
    words: &'a [u32],
    rows: S::I,
}

impl<S: Simd> Columns<'_, S> {
    /// Float `k` of each lane's row.
    #[inline(always)]
    fn get(&self, s: S, k: usize) -> S::F {
        match self.whole {
            Some(cols) => cols[k],
            None => column(s, self.words, self.rows, k),
        }
    }
}

/// Float `k` of each lane's vertex row (`rows`: the rows' first words).
#[inline(always)]
fn column<S: Simd>(s: S, words: &[u32], rows: S::I, k: usize) -> S::F {
    s.gather_u32(words, rows + s.splat_i(k as i32)).cast_f32()
}

/// A plane at a pixel with `tile::Terms`' formula, `(a0 + ddx * fx) + ddy * fy`.
#[inline(always)]
fn eval(p: &Plane, fx: f32, fy: f32) -> f32 {
    (p.a0 + p.ddx * fx) + p.ddy * fy
}
