//! The validated draw the API hands to a driver's pipeline, and its dispatch:
//! vertex fetch, assembly and clipping (`geom`), then the Warp rasterizer
//! (`raster`) or the Reference one (`reference`).
//!
//! Invariant: a `DrawCall` has passed every API check (state against caps,
//! index ranges, stream bounds), so the pipeline never fails and never reads
//! outside a buffer. A draw's front end (vertices, clipping, set-up, bins)
//! runs before `execute` returns; a small Warp draw on more than one
//! thread is then shaded later with a batch of draws (`deferred`), and
//! anything that reads or writes its targets (readback, locks, Clear,
//! copies, queries through `Device::flush`, the device's drop) completes
//! the batch first, so it always sees every earlier draw.

mod clip_space;
mod deferred;
mod draw_state;
mod hand_off;
mod pixel_stages;
pub(crate) mod state;
mod tex_stage;
mod vertex_pass;
mod vertex_stage;
mod vertices;

use std::sync::Arc;

use crate::caps::{Caps, DriverType};
use crate::device_state::DeviceState;
use crate::error::Result;
use crate::resource::Surface;
use crate::simd::Backend;
use crate::vertex::IndexList;
use crate::vertex::PrimitiveType;

/// Where a draw's vertices come from.
#[derive(Clone, Debug)]
pub(crate) enum VertexSource {
    /// Consecutive vertices from `start_vertex`.
    Streams {
        /// First vertex.
        start_vertex: u32,
    },
    /// Through an index buffer snapshot.
    Indexed(Indices),
}

/// A validated index range.
#[derive(Clone, Debug)]
pub(crate) struct Indices {
    /// The index bytes (a snapshot: later writes do not change this draw).
    pub(crate) bytes: Arc<Vec<u8>>,
    /// 32-bit (else 16-bit) indices.
    pub(crate) index32: bool,
    /// The first index read.
    pub(crate) start_index: u32,
    /// Added to every index.
    pub(crate) base_vertex: i32,
    /// The lowest and highest vertex number the indices name (index plus
    /// `base_vertex`; validation refuses a negative one), as validation
    /// found them.
    pub(crate) range: (u64, u64),
}

impl Indices {
    /// The `count` indices the draw reads, from `start_index` (validation
    /// checked that the snapshot holds them).
    pub(crate) fn list(&self, count: usize) -> IndexList<'_> {
        let size = IndexList::index_size(self.index32);
        let start = self.start_index as usize * size;
        IndexList::new(&self.bytes[start..start + count * size], self.index32)
    }
}

/// One validated draw.
#[derive(Clone, Debug)]
pub(crate) struct DrawCall {
    pub(crate) primitive: PrimitiveType,
    pub(crate) primitive_count: u32,
    pub(crate) source: VertexSource,
    /// DrawPrimitiveUP data standing in for stream 0: (bytes, stride).
    pub(crate) up_stream0: Option<(Arc<Vec<u8>>, u32)>,
}

/// Pipeline resources that live as long as the device: the Warp worker pool.
#[derive(Debug, Default)]
pub(crate) struct Pipeline {
    pool: Option<(usize, Arc<rayon::ThreadPool>)>,
    scratch: crate::raster::Scratch,
    /// The floats of the last vertex-processed draw's vertex buffer, kept
    /// so the next draw reuses the allocation (a fresh one of tens of
    /// megabytes costs page faults on every draw).
    pub(crate) vertex_data: Vec<f32>,
    /// The last draw's assembled primitives, kept for the same reason.
    pub(crate) prims: Vec<crate::geom::Prim>,
    /// The last pre-transformed indexed draw's vertex offsets, kept for
    /// the same reason.
    pub(crate) index_map: Vec<u32>,
    /// The last vertex-processed draw's outcodes (or point words), kept
    /// for the same reason.
    pub(crate) codes: Vec<u32>,
    /// Prepared shaders and fixed-function routines (`draw_state`).
    caches: draw_state::Caches,
    /// Warp draws waiting to be shaded (`deferred`).
    queue: Arc<deferred::DrawQueue>,
    /// The draw just set up, on its way into `queue` (pushed on the
    /// application's thread when the draw returns).
    pending: Option<deferred::PendingDraw>,
}

impl Pipeline {
    /// Shades every queued draw; returns the samples that passed depth
    /// and stencil in draws shaded since the last call (occlusion queries).
    pub(crate) fn flush(&mut self) -> u64 {
        self.queue.flush();
        self.queue.take_samples()
    }
}

impl Drop for Pipeline {
    /// Queued draws still reach their targets, which outlive the device
    /// when the application holds them.
    fn drop(&mut self) {
        self.queue.flush();
    }
}

/// Stack size of each Warp worker, and of the segment a draw gets on a
/// caller with less than [`DRAW_STACK_RED_ZONE`] left. Unoptimised (an application's debug
/// build, or its `cargo test`, compiles warp9 at opt-level 0), a draw
/// with the fixed-function pixel stage needs over 2 MB of stack,
/// which is all a Rust thread gets by default; the workers get room to
/// spare. Only the pages a worker touches are committed.
const WORKER_STACK_BYTES: usize = 32 << 20;

/// Vertices a draw may have and still run on the caller's thread (see
/// `Device::execute`): one chunk of the vertex stage, which a larger draw
/// splits across the workers.
const CALLER_DRAW_VERTICES: u64 = vertex_stage::VERTEX_CHUNK as u64;

/// Stack a draw needs left on the caller's thread to run there: twice
/// what an unoptimised draw was measured to use.
const DRAW_STACK_RED_ZONE: usize = 4 << 20;

impl Pipeline {
    /// The long-lived pool for `threads` workers (rebuilt when the count
    /// changes). One thread gets a pool of one worker, so draws never run
    /// on the caller's stack, whose size warp9 does not choose (a test
    /// harness's threads have 2 MB). None only when the system cannot
    /// start a thread; work then runs on the caller.
    pub(crate) fn pool(&mut self, threads: usize) -> Option<Arc<rayon::ThreadPool>> {
        let threads = threads.max(1);
        if let Some((n, p)) = &self.pool
            && *n == threads
        {
            return Some(Arc::clone(p));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(WORKER_STACK_BYTES)
            .thread_name(|i| format!("warp9-raster-{i}"))
            .build()
            .ok()?;
        let pool = Arc::new(pool);
        self.pool = Some((threads, Arc::clone(&pool)));
        Some(pool)
    }

    /// The pool to split a draw's or a clear's phases across: None for the
    /// Reference (the spec's scalar oracle runs on the caller) and for one
    /// thread, so its phases run one after another on the worker the draw
    /// runs on (rayon's splitting costs a one-worker pool time and buys
    /// nothing).
    pub(crate) fn split_pool(
        &mut self,
        driver: DriverType,
        threads: usize,
    ) -> Option<Arc<rayon::ThreadPool>> {
        if driver == DriverType::Reference || threads <= 1 {
            return None;
        }
        self.pool(threads)
    }
}

/// An indexed draw's vertex numbers as offsets from the lowest, when they
/// are dense: `Some((lo, hi, offsets))` where `hi - lo <= slack(count)`.
/// The range is the one validation found (`Indices::range`), so the
/// indices are read once, for the offsets, instead of into a list of
/// vertex numbers walked twice more; this runs before the draw's parallel
/// phases, so its time is the whole frame's. The offsets go into `out`
/// (emptied first: passing the last draw's reuses its allocation, whose
/// fresh pages would otherwise fault on every draw).
fn dense_indices(
    call: &DrawCall,
    slack: impl Fn(usize) -> usize,
    mut out: Vec<u32>,
) -> Option<(u32, u32, Vec<u32>)> {
    let VertexSource::Indexed(ix) = &call.source else {
        return None;
    };
    let n = call.primitive.vertex_count(call.primitive_count) as usize;
    let (lo, hi) = ix.range;
    let (lo, hi) = (u32::try_from(lo).ok()?, u32::try_from(hi).ok()?);
    if n == 0 || lo > hi || (hi - lo) as usize > slack(n) {
        return None;
    }
    // Every index plus the base is at least `lo` (validation), so each
    // offset is `index - raw_lo` with no clamp.
    let raw_lo = u32::try_from(i64::from(lo) - i64::from(ix.base_vertex)).ok()?;
    out.clear();
    ix.list(n).extend_mapped(&mut out, |v| v - raw_lo);
    Some((lo, hi, out))
}

/// Reads the draw's index list (or vertex numbers) into source vertex numbers.
fn vertex_numbers(call: &DrawCall) -> Vec<u32> {
    let n = call.primitive.vertex_count(call.primitive_count) as usize;
    match &call.source {
        VertexSource::Streams { start_vertex } => (0..n as u32)
            .map(|i| start_vertex.wrapping_add(i))
            .collect(),
        VertexSource::Indexed(ix) => {
            let base = i64::from(ix.base_vertex);
            let mut out = Vec::with_capacity(n);
            ix.list(n)
                .extend_mapped(&mut out, |v| (i64::from(v) + base).max(0) as u32);
            out
        }
    }
}

/// What a draw reads and writes of the device, borrowed from it by `api`
/// (`Device::execute`), so nothing below `api` names the device: its
/// state, caps and targets, the driver choice, and the pipeline's caches,
/// buffers and pools.
pub(crate) struct DrawDevice<'a> {
    pub(crate) state: &'a DeviceState,
    pub(crate) caps: &'a Caps,
    pub(crate) driver: DriverType,
    /// The SIMD backend the device chose (`SimdChoice`, resolved).
    pub(crate) backend: Backend,
    pub(crate) software_vp: bool,
    pub(crate) threads: usize,
    pub(crate) render_targets: &'a [Option<Surface>],
    pub(crate) depth_stencil: &'a Option<Surface>,
    pub(crate) pipeline: &'a mut Pipeline,
    /// The occlusion-query counter the draw adds its passing samples to.
    pub(crate) samples_passed: &'a mut u64,
}

/// How a draw's stages run on the device's driver, decided once a draw
/// ([`DrawDevice::form`]): the one place the wiring asks which driver it
/// serves. The rest of the wiring reads these fields, and the drivers
/// themselves part only at `hand_off`'s call of `raster::draw` or
/// `reference::draw`, over the `driver` contract.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DriverForm {
    /// Warp's 8-lane vertex stage and vertex pass on this backend; None:
    /// the Reference's scalar, vertex-at-a-time forms.
    pub(crate) lanes: Option<Backend>,
    /// Point lists reach the rasterizer as point words, without a
    /// primitive list (Warp).
    pub(crate) point_words: bool,
    /// A single texture stage runs in its closed one-texture form (Warp);
    /// the Reference keeps the literal cascade, the form's oracle.
    pub(crate) one_texture_stage: bool,
    /// Draws are queued and shaded with a batch (Warp on more than one
    /// thread; `deferred`), their front end run on the caller.
    pub(crate) defers_draws: bool,
    /// The Reference driver rasterizes.
    pub(crate) reference: bool,
}

impl DrawDevice<'_> {
    /// The form the device's driver runs a draw in (see [`DriverForm`]).
    pub(crate) fn form(&self) -> DriverForm {
        let warp = self.driver != DriverType::Reference;
        DriverForm {
            lanes: warp.then_some(self.backend),
            point_words: warp,
            one_texture_stage: warp,
            defers_draws: warp && self.threads > 1,
            reference: !warp,
        }
    }

    /// Runs a validated draw on the device's driver (the wiring is in
    /// `draw_state`: vertex stage, links, pixel stage, rasterizer).
    ///
    /// A small draw (at most [`CALLER_DRAW_VERTICES`] vertices) runs on the
    /// caller's thread, so it costs no hand-off to a worker and back (S7's
    /// 4,096 draws a frame paid one each); its raster phase still splits
    /// across the workers when it covers the screen. A larger Warp draw
    /// runs whole on the device's workers, whose phases then fork and join
    /// among themselves (injecting each phase from outside the pool cost
    /// S2 and S5-nocull a few per cent). On more than one thread every
    /// Warp draw is then queued (`deferred`): its shading joins the batch
    /// and the next draw's front end runs while it is shaded (S6 as 64
    /// draws paid a fork and join for the shading of every draw); the
    /// draw enters the queue here, on the application's thread, since a
    /// hand-over may wait for the batch before. The caller's stack is not warp9's
    /// choice, so a draw there gets [`DRAW_STACK_RED_ZONE`] of it, or a
    /// fresh segment of [`WORKER_STACK_BYTES`] where less is left
    /// (`stacker`): a test harness's 2 MB thread draws as the main thread
    /// does.
    pub(crate) fn execute(&mut self, call: DrawCall) -> Result<()> {
        let vertices = call.primitive.vertex_count(call.primitive_count);
        let drawn = match self.draw_pool() {
            Some(pool) if vertices > CALLER_DRAW_VERTICES => {
                pool.install(|| draw_state::execute(self, call))
            }
            // Miri cannot switch stacks (stacker's segment is made by assembly).
            _ if cfg!(miri) => draw_state::execute(self, call),
            _ => stacker::maybe_grow(DRAW_STACK_RED_ZONE, WORKER_STACK_BYTES, || {
                draw_state::execute(self, call)
            }),
        };
        if let Some(draw) = self.pipeline.pending.take() {
            self.pipeline.queue.push(draw);
        }
        drawn
    }

    /// The pool a large draw runs on: the Warp driver's workers, None for
    /// the Reference (the spec's scalar oracle runs on the caller).
    fn draw_pool(&mut self) -> Option<Arc<rayon::ThreadPool>> {
        if self.form().reference {
            return None;
        }
        self.pipeline.pool(self.threads)
    }

    /// The pool a draw's phases split across ([`Pipeline::split_pool`]).
    pub(crate) fn split_pool(&mut self) -> Option<Arc<rayon::ThreadPool>> {
        self.pipeline.split_pool(self.driver, self.threads)
    }
}
