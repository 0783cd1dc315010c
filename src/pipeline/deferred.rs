//! Deferred Warp draws: a draw's front end (vertex stage, clipping, set-up
//! and binning) runs when the application issues it; its pixels wait in a
//! batch with the draws after it. A full batch goes to the workers without
//! waiting (the caller sets up the next draws meanwhile), which shade it
//! band by band, the bands in parallel, each band replaying the batch's
//! draws in submission order. A frame of thousands of small draws thus pays
//! one hand-off to the workers per batch instead of one per draw (or none,
//! and one core), and its pixel work overlaps its set-up.
//!
//! Invariants:
//! - A band owns its rows of every target, and within a band the draws run
//!   in submission order: the image is bit-identical to drawing each draw
//!   at once, for any thread count.
//! - A queued draw owns everything it reads (its state, vertices, bins,
//!   pixel stage with its texture and constant snapshots), so later state
//!   changes and resource writes cannot reach it.
//! - Whatever next reads or writes a queued draw's target completes the
//!   batch first: each target's storage names the queue as its pending
//!   writer (`resource::storage`), so `lock_rect`, readback, `Clear`,
//!   `Present`, copies and a texture snapshot of a render target all see
//!   every earlier draw. The device flushes before queries and when it is
//!   dropped.
//! - The batch is bounded ([`MAX_DRAWS`], [`MAX_VERTEX_FLOATS`]), and its
//!   buffers are recycled, so a queued draw allocates nothing once warm.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};

use rayon::prelude::*;

use crate::driver::targets::{DrawSurfaces, Writer, with_surfaces};
use crate::driver::{DrawState, FrameTargets, Inputs};
use crate::geom::VertexBuf;
use crate::pixel::ColorStage;
use crate::raster::{Binned, Part};
use crate::resource::PendingWriter;
use crate::simd::Backend;

use super::pixel_stages::{FfpPixelStage, ShaderPixelStage};
use super::tex_stage::TexStage;

/// The pixel stage a draw runs, chosen once per draw (`hand_off::pixel_stage`).
/// Not boxed: a stage is built once per draw and moved once, into its
/// queued draw.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Stage {
    Color(ColorStage),
    Ffp(FfpPixelStage),
    Tex(TexStage),
    Shader(ShaderPixelStage),
}

impl std::fmt::Debug for Stage {
    /// The kind of stage (its programs and snapshots are not worth printing).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Color(_) => "Stage::Color",
            Stage::Ffp(_) => "Stage::Ffp",
            Stage::Tex(_) => "Stage::Tex",
            Stage::Shader(_) => "Stage::Shader",
        })
    }
}

/// Runs `$body` with `$s` bound to the stage inside `$stage` (each arm is
/// compiled for its own pixel stage type).
macro_rules! with_stage {
    ($stage:expr, |$s:ident| $body:expr) => {
        match $stage {
            Stage::Color($s) => $body,
            Stage::Ffp($s) => $body,
            Stage::Tex($s) => $body,
            Stage::Shader($s) => $body,
        }
    };
}
pub(super) use with_stage;

/// Draws a batch holds before it is shaded: enough that a frame of small
/// draws pays a hand-off per few hundred draws, few enough that the
/// batch's bins stay in the caches' reach.
pub(crate) const MAX_DRAWS: usize = 512;

/// Bytes of vertices and bins a batch holds before it is shaded: about
/// what a core's second-level cache keeps, so the batch's set-up data is
/// still near when its bands read it.
pub(crate) const MAX_BATCH_BYTES: usize = 512 << 10;

/// What shading a set-up and binned draw needs: its state, vertices,
/// pixel stage, inputs and bins.
#[derive(Debug)]
pub(crate) struct ShadeWork {
    pub(crate) st: DrawState,
    pub(crate) buf: VertexBuf,
    pub(crate) stage: Stage,
    /// The pixel stage's input planes (`Inputs::list`), the fog plane last.
    pub(crate) inputs: Vec<usize>,
    pub(crate) flat: u64,
    pub(crate) fog: Option<usize>,
    pub(crate) binned: Binned,
}

/// A draw on its way into the batch ([`DrawQueue::push`]): its work, and
/// the workers and backend it is shaded with.
#[derive(Debug)]
pub(crate) struct PendingDraw {
    pub(crate) work: ShadeWork,
    pub(crate) pool: Option<Arc<rayon::ThreadPool>>,
    pub(crate) backend: Backend,
}

/// A draw whose pixels wait in the batch.
#[derive(Debug)]
struct QueuedDraw {
    work: ShadeWork,
    /// The surfaces the draw writes: depth, then colour targets 0..4.
    depth: bool,
    colors: [bool; 4],
}

impl QueuedDraw {
    /// Shades the draw's part of `band`.
    fn shade(&self, band: &mut FrameTargets<'_>, backend: Backend) -> u64 {
        let w = &self.work;
        if !w.binned.touches(&w.st, band.y0, band.rows) {
            return 0;
        }
        let inputs = Inputs {
            list: &w.inputs,
            flat: w.flat,
            fog: w.fog,
        };
        let view = band.view(self.depth, self.colors);
        with_stage!(&w.stage, |s| crate::raster::shade_band(
            &w.binned, &w.st, &w.buf, &inputs, s, view, backend
        ))
    }
}

/// Queued draws and what shading them needs: the batch being filled, or
/// one handed to the workers.
#[derive(Debug, Default)]
struct Batch {
    draws: Vec<QueuedDraw>,
    /// The union of the draws' surfaces (every draw of a batch writes the
    /// same colour targets and depth buffer, or a subset).
    surfaces: DrawSurfaces,
    /// The workers the batch is shaded on (None: the caller).
    pool: Option<Arc<rayon::ThreadPool>>,
    backend: Option<Backend>,
    /// Bytes the draws' vertices and bins hold (see [`MAX_BATCH_BYTES`]).
    bytes: usize,
    /// The pixel rows `top..bottom` the draws' work lies in.
    rows: Option<(i32, i32)>,
}

/// Buffers of shaded draws, for the next draws to fill.
#[derive(Debug, Default)]
struct FreeBuffers {
    parts: Vec<Vec<Part>>,
    floats: Vec<Vec<f32>>,
    /// A shaded batch's list of draws, emptied: the next batch fills it
    /// (growing a list of 512 draws from empty cost S7 about 1.5 % of the
    /// caller's instructions in reallocations).
    draws: Vec<QueuedDraw>,
}

/// A batch being shaded on the workers: done when `done` is set.
struct Inflight {
    state: Mutex<InflightState>,
    finished: Condvar,
    /// The workers it runs on.
    pool: Arc<rayon::ThreadPool>,
}

#[derive(Default)]
struct InflightState {
    done: bool,
    /// A panic of the shading, raised again on the thread that waits.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl std::fmt::Debug for Inflight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Inflight")
    }
}

/// A device's batch of deferred Warp draws (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct DrawQueue {
    batch: Mutex<Batch>,
    /// Held while a batch is taken and started: batches start in order.
    order: Mutex<()>,
    /// The batch being shaded on the workers, if any.
    inflight: Mutex<Option<Arc<Inflight>>>,
    /// Samples that passed depth and stencil in shaded batches, not yet
    /// collected by the device ([`DrawQueue::take_samples`]).
    samples: AtomicU64,
    free: Mutex<FreeBuffers>,
}

/// Whether two optional surfaces can share a batch: the same surface, or
/// one of them absent.
fn compatible(a: &Option<crate::resource::Surface>, b: &Option<crate::resource::Surface>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.same(b),
        _ => true,
    }
}

/// Locks `m`; a panic elsewhere while it was held leaves the data
/// consistent (batches are taken whole), so it is used as it is.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl DrawQueue {
    /// Buffers for the next queued draw's bins and vertices, recycled from
    /// shaded draws where there are any.
    pub(crate) fn buffers(&self) -> (Vec<Part>, Vec<f32>) {
        let mut free = lock(&self.free);
        let parts = free.parts.pop().unwrap_or_default();
        let floats = free.floats.pop().unwrap_or_default();
        (parts, floats)
    }

    /// Returns a binned draw's buffers unused (it binned nothing).
    pub(crate) fn recycle(&self, parts: Vec<Part>, floats: Vec<f32>) {
        let mut free = lock(&self.free);
        if free.parts.len() < MAX_DRAWS {
            free.parts.push(parts);
            free.floats.push(floats);
        }
    }

    /// Whether a draw writing `surfaces` on `pool` with `backend`, holding
    /// `bytes`, can join the batch (the same targets, workers and SIMD
    /// backend, and room).
    fn accepts(
        &self,
        surfaces: &DrawSurfaces,
        pool: &Option<Arc<rayon::ThreadPool>>,
        backend: Backend,
        bytes: usize,
    ) -> bool {
        let b = lock(&self.batch);
        if b.draws.is_empty() {
            return true;
        }
        let same_pool = match (&b.pool, pool) {
            (Some(a), Some(p)) => Arc::ptr_eq(a, p),
            (None, None) => true,
            _ => false,
        };
        same_pool
            && b.backend == Some(backend)
            && b.draws.len() < MAX_DRAWS
            && b.bytes + bytes <= MAX_BATCH_BYTES
            && b.surfaces
                .iter()
                .zip(surfaces)
                .all(|(a, s)| compatible(a, s))
    }

    /// Queues a binned draw, after handing the batch to the workers when
    /// the draw cannot join it ([`DrawQueue::accepts`]). Called on the
    /// application's thread only (`DrawDevice::execute`): a hand-over may
    /// wait for the batch before, and a wait on one of the pool's workers
    /// would run other jobs while holding the queue's order.
    pub(crate) fn push(self: &Arc<Self>, draw: PendingDraw) {
        let PendingDraw {
            work,
            pool,
            backend,
        } = draw;
        let surfaces = crate::driver::targets::draw_surfaces(&work.st);
        let bytes = work.buf.data.len() * std::mem::size_of::<f32>() + work.binned.bytes();
        if !self.accepts(&surfaces, &pool, backend, bytes) {
            self.submit();
        }
        let mut b = lock(&self.batch);
        if b.draws.is_empty() {
            b.pool = pool;
            b.backend = Some(backend);
            if b.draws.capacity() == 0 {
                b.draws = std::mem::take(&mut lock(&self.free).draws);
            }
        }
        for (slot, s) in b.surfaces.iter_mut().zip(&surfaces) {
            if slot.is_none()
                && let Some(s) = s
            {
                let this: Weak<DrawQueue> = Arc::downgrade(self);
                let writer: Weak<dyn PendingWriter> = this;
                s.storage().set_pending_writer(writer);
                *slot = Some(s.clone());
            }
        }
        b.bytes += bytes;
        if let Some(r) = work.binned.rows() {
            b.rows = Some(b.rows.map_or(r, |u| (u.0.min(r.0), u.1.max(r.1))));
        }
        let [c0, c1, c2, c3, depth] = surfaces.map(|s| s.is_some());
        b.draws.push(QueuedDraw {
            work,
            depth,
            colors: [c0, c1, c2, c3],
        });
        // A full batch (a large draw fills one alone) goes to the workers
        // now: nothing can join it.
        if b.bytes >= MAX_BATCH_BYTES || b.draws.len() >= MAX_DRAWS {
            drop(b);
            self.submit();
        }
    }

    /// Samples that passed in shaded batches since the last call.
    pub(crate) fn take_samples(&self) -> u64 {
        self.samples.swap(0, Ordering::AcqRel)
    }

    /// Hands the batch to the workers without waiting for it (after the
    /// batch before it is done): the caller goes on with the next draws'
    /// front ends while this batch is shaded.
    pub(crate) fn submit(self: &Arc<Self>) {
        let _order = lock(&self.order);
        let work = std::mem::take(&mut *lock(&self.batch));
        if work.draws.is_empty() {
            return;
        }
        self.wait_inflight();
        let Some(pool) = work.pool.clone() else {
            self.shade(work);
            return;
        };
        let inflight = Arc::new(Inflight {
            state: Mutex::new(InflightState::default()),
            finished: Condvar::new(),
            pool: Arc::clone(&pool),
        });
        *lock(&self.inflight) = Some(Arc::clone(&inflight));
        let queue = Arc::clone(self);
        pool.spawn(move || {
            let shaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                queue.shade(work);
            }));
            let mut state = lock(&inflight.state);
            state.done = true;
            state.panic = shaded.err();
            inflight.finished.notify_all();
        });
    }

    /// Shades every queued draw and waits for the batch on the workers:
    /// on return, the targets hold every queued draw's pixels.
    pub(crate) fn flush(&self) {
        let _order = lock(&self.order);
        let work = std::mem::take(&mut *lock(&self.batch));
        self.wait_inflight();
        if !work.draws.is_empty() {
            match work.pool.clone() {
                // On the workers, whose stacks are sized for a draw.
                Some(pool) => pool.install(|| self.shade(work)),
                None => self.shade(work),
            }
        }
    }

    /// Waits for the batch on the workers, if any; raises its panic here.
    /// On one of the pool's own workers, the wait runs the pool's pending
    /// jobs instead of sleeping: the batch may be one of them, queued on
    /// this very worker, and a worker asleep on a lock would never run it.
    fn wait_inflight(&self) {
        let Some(inflight) = lock(&self.inflight).take() else {
            return;
        };
        let mut state = lock(&inflight.state);
        while !state.done {
            if inflight.pool.current_thread_index().is_some() {
                drop(state);
                if inflight.pool.yield_now() != Some(rayon::Yield::Executed) {
                    std::thread::yield_now();
                }
                state = lock(&inflight.state);
            } else {
                state = inflight
                    .finished
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
        if let Some(panic) = state.panic.take() {
            std::panic::resume_unwind(panic);
        }
    }

    /// Shades a batch band by band (see the module docs), then recycles its
    /// buffers.
    fn shade(&self, work: Batch) {
        let Batch {
            draws,
            surfaces,
            pool,
            backend,
            rows: used_rows,
            ..
        } = work;
        let backend = backend.unwrap_or(Backend::Portable);
        let workers = pool.as_ref().map_or(1, |p| p.current_num_threads());
        let (width, height) = surfaces[0]
            .as_ref()
            .map_or((0, 0), |s| (s.desc().width as i32, s.desc().height as i32));
        let rows = crate::raster::batch_band_rows(
            width,
            height,
            workers,
            used_rows.unwrap_or((0, height)),
        );
        let [s0, s1, s2, s3, sd] = &surfaces;
        let passed = with_surfaces(
            [
                s0.as_ref(),
                s1.as_ref(),
                s2.as_ref(),
                s3.as_ref(),
                sd.as_ref(),
            ],
            Writer::Queued,
            |fb| {
                let run = |mut band: FrameTargets<'_>| -> u64 {
                    draws.iter().map(|d| d.shade(&mut band, backend)).sum()
                };
                let bands = fb.into_bands(rows);
                if workers > 1 {
                    bands.into_par_iter().map(run).sum()
                } else {
                    bands.into_iter().map(run).sum::<u64>()
                }
            },
        );
        self.samples.fetch_add(passed, Ordering::AcqRel);
        let mut draws = draws;
        let mut free = lock(&self.free);
        for d in draws.drain(..) {
            if free.parts.len() < MAX_DRAWS {
                free.parts.push(d.work.binned.parts);
                free.floats.push(d.work.buf.data);
            }
        }
        if draws.capacity() > free.draws.capacity() {
            free.draws = draws;
        }
    }
}

impl PendingWriter for DrawQueue {
    fn complete(&self) {
        self.flush();
    }
}
