//! The Warp rasterizer: set-up (8 triangles at once), binning into 64x64
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

use crate::geom::{Prim, VertexBuf};
use crate::pipeline::FrameTargets;
use crate::pipeline::state::DrawState;
use crate::pixel::PixelStage;
use crate::pixel::setup::{PrimSetup, point_bbox, setup_point, snap};
use crate::reference::{Inputs, point_size};
use crate::simd::Backend;
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
    parts: Vec<Part>,
    /// Every vertex's snapped screen position (16.8), for triangle draws:
    /// a vertex shared by several triangles is snapped once.
    snapped: Vec<[i32; 2]>,
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

/// Sets up and bins `prims` (one part) into `part`.
#[allow(clippy::too_many_arguments)]
fn build_part(
    st: &DrawState,
    buf: &VertexBuf,
    snapped: &[[i32; 2]],
    prims: &[Prim],
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
    if compact {
        build_points(st, buf, prims, inputs, tiles_x, part);
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

/// Bins `entry`: tile (tx, ty) of the clip rectangle's grid gets every
/// primitive whose bounding box touches it, in order.
#[inline(always)]
fn bin(bins: &mut [Vec<u32>], tiles_x: i32, bbox: &Rect, entry: u32) {
    if bbox.is_empty() {
        return;
    }
    for ty in bbox.top / TILE_H..=(bbox.bottom - 1) / TILE_H {
        for tx in bbox.left / TILE_W..=(bbox.right - 1) / TILE_W {
            bins[(ty * tiles_x + tx) as usize].push(entry);
        }
    }
}

/// Sets up and bins the points of a compact point draw: a point covering
/// one pixel becomes a [`PointRec`], any other the usual set-up.
fn build_points(
    st: &DrawState,
    buf: &VertexBuf,
    prims: &[Prim],
    inputs: &Inputs<'_>,
    tiles_x: i32,
    part: &mut Part,
) {
    for prim in prims {
        let Prim::Point(v) = *prim else {
            continue;
        };
        let size = point_size(st, buf, v);
        let bbox = point_bbox(buf.get(v), size, st.clip);
        if bbox.is_empty() {
            continue;
        }
        let entry = if bbox.right - bbox.left == 1 && bbox.bottom - bbox.top == 1 {
            part.points.push(PointRec {
                x: bbox.left,
                y: bbox.top,
                v,
            });
            (part.points.len() - 1) as u32 | COMPACT
        } else {
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
            (part.setups.len() - 1) as u32
        };
        bin(&mut part.bins, tiles_x, &bbox, entry);
    }
}

/// Renders `prims` of one draw into `fb`; returns the samples that passed
/// depth and stencil. Set-up and binning run per part of [`PART_PRIMS`]
/// primitives, on the pool when there are several parts: a primitive's
/// set-up does not depend on the others, and tiles walk the parts in
/// order, so the result is the same for any thread count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw<P: PixelStage>(
    scratch: &mut Scratch,
    st: &DrawState,
    buf: &VertexBuf,
    prims: &[Prim],
    inputs: &Inputs<'_>,
    stage: &P,
    fb: FrameTargets<'_>,
    backend: Backend,
    pool: Option<&rayon::ThreadPool>,
) -> u64 {
    let tiles_x = st.clip.right.div_euclid(TILE_W) + 1;
    let tiles_y = st.clip.bottom.div_euclid(TILE_H) + 1;
    let n_parts = prims.len().div_ceil(PART_PRIMS).max(1);
    let Scratch { parts, snapped } = scratch;
    snapped.clear();
    // A draw has one primitive type; only triangles read the snapped positions.
    if matches!(prims.first(), Some(Prim::Tri { .. })) && buf.stride > 0 {
        snapped.extend(
            buf.data
                .chunks_exact(buf.stride)
                .map(|v| [snap(v[0]), snap(v[1])]),
        );
    }
    let snapped = &snapped[..];
    if parts.len() < n_parts {
        parts.resize_with(n_parts, Part::default);
    }
    let parts = &mut parts[..n_parts];
    let gather_points = matches!(prims.first(), Some(Prim::Point(_))) && stage.lanes_independent();
    let compact = gather_points && !st.point_sprite;
    let build = |(chunk, part): (&[Prim], &mut Part)| {
        build_part(
            st, buf, snapped, chunk, inputs, backend, tiles_x, tiles_y, compact, part,
        );
    };
    match pool {
        Some(pool) if n_parts > 1 => pool.install(|| {
            prims
                .par_chunks(PART_PRIMS)
                .zip(parts.par_iter_mut())
                .for_each(build)
        }),
        _ => prims
            .chunks(PART_PRIMS)
            .zip(parts.iter_mut())
            .for_each(build),
    }
    if prims.is_empty() {
        parts[0].setups.clear();
        parts[0].points.clear();
    }
    if parts
        .iter()
        .all(|p| p.setups.is_empty() && p.points.is_empty())
    {
        return 0;
    }
    let parts = &*parts;
    let workers = pool.map_or(1, rayon::ThreadPool::current_num_threads);
    let bands = fb.into_bands(band_rows(&st.clip, workers));
    let ctx = tile::Ctx {
        st,
        parts,
        inputs,
        stage,
        tiles_x,
        tiles_y,
        fast: crate::om::FastOm::new(st),
        w_fog: matches!(
            st.fog.map(|f| f.source),
            Some(crate::pipeline::state::FogSource::Table { w_based: true, .. })
        ),
        gather_points,
        buf,
    };
    let run = |band: FrameTargets<'_>| -> u64 {
        if band.y0 >= st.clip.bottom || band.y0 + band.rows <= st.clip.top {
            return 0;
        }
        crate::simd::dispatch(
            backend,
            tile::Band {
                ctx: &ctx,
                fb: band,
            },
        )
    };
    match pool {
        Some(pool) => pool.install(|| bands.into_par_iter().map(run).sum()),
        None => bands.into_iter().map(run).sum(),
    }
}
