//! The validated draw the API hands to a driver's pipeline, and its dispatch:
//! vertex fetch, assembly and clipping (`geom`), then the Warp rasterizer
//! (`raster`) or the Reference one (`reference`).
//!
//! Invariant: a `DrawCall` has passed every API check (state against caps,
//! index ranges, stream bounds), so the pipeline never fails and never reads
//! outside a buffer. Draws execute before `execute` returns, so readback,
//! locks, Clear and queries always see every earlier draw.

pub(crate) mod state;
mod targets;

use std::sync::Arc;

pub(crate) use targets::{FrameTargets, TargetBytes};

use crate::api::{Device, PrimitiveType};
use crate::caps::DriverType;
use crate::error::Result;
use crate::geom::assemble::assemble;
use crate::geom::clip::clip_pretransformed;
use crate::geom::fetch::{StreamView, attr_info, fetch_all};
use crate::geom::{ATTR_SPECULAR, Prim, VertexBuf};
use crate::pixel::{ColorStage, PixelStage};
use crate::reference::Inputs;
use state::{DrawState, FogSource};

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
}

impl Pipeline {
    /// The long-lived pool for `threads` workers (rebuilt when the count changes);
    /// None for one thread (work runs on the caller).
    pub(crate) fn pool(&mut self, threads: usize) -> Option<Arc<rayon::ThreadPool>> {
        if threads <= 1 {
            return None;
        }
        if let Some((n, p)) = &self.pool
            && *n == threads
        {
            return Some(Arc::clone(p));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("warp9-raster-{i}"))
            .build()
            .ok()?;
        let pool = Arc::new(pool);
        self.pool = Some((threads, Arc::clone(&pool)));
        Some(pool)
    }
}

/// Reads the draw's index list (or vertex numbers) into source vertex numbers.
fn vertex_numbers(call: &DrawCall) -> Vec<u32> {
    let n = call.primitive.vertex_count(call.primitive_count) as usize;
    match &call.source {
        VertexSource::Streams { start_vertex } => (0..n as u32).map(|i| start_vertex + i).collect(),
        VertexSource::Indexed(ix) => {
            let size = if ix.index32 { 4 } else { 2 };
            let start = ix.start_index as usize * size;
            let raw = &ix.bytes[start..start + n * size];
            let base = i64::from(ix.base_vertex);
            let conv = |v: u32| (i64::from(v) + base).max(0) as u32;
            if ix.index32 {
                raw.chunks_exact(4)
                    .map(|c| conv(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .collect()
            } else {
                raw.chunks_exact(2)
                    .map(|c| conv(u32::from(u16::from_le_bytes([c[0], c[1]]))))
                    .collect()
            }
        }
    }
}

impl Device {
    /// Runs a validated draw on the device's driver.
    pub(crate) fn execute(&mut self, call: DrawCall) -> Result<()> {
        let Some(decl) = self.state.vertex_input.declaration().cloned() else {
            return Ok(());
        };
        // Without a vertex stage (transform & lighting, vertex shaders: later
        // issues) only pre-transformed vertices can be drawn.
        if !decl.is_pretransformed() {
            return Ok(());
        }
        let streams: Vec<Option<StreamView>> = (0..self.state.streams.len())
            .map(|s| {
                if s == 0
                    && let Some((bytes, stride)) = &call.up_stream0
                {
                    return Some(StreamView {
                        bytes: Arc::clone(bytes),
                        offset: 0,
                        stride: *stride as usize,
                    });
                }
                let b = &self.state.streams[s];
                b.buffer.as_ref().map(|vb| StreamView {
                    bytes: vb.0.storage.snapshot(),
                    offset: b.offset as usize,
                    stride: b.stride as usize,
                })
            })
            .collect();
        let numbers = vertex_numbers(&call);
        let info = attr_info(&decl);
        // Fetch each distinct vertex once when the index range is compact.
        let (lo, hi) = numbers
            .iter()
            .fold((u32::MAX, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let (mut buf, map): (VertexBuf, Vec<u32>) =
            if !numbers.is_empty() && (hi - lo) as usize <= 2 * numbers.len() + 64 {
                let buf = fetch_all(&decl, &streams, info, lo..=hi);
                (buf, numbers.iter().map(|&v| v - lo).collect())
            } else {
                let buf = fetch_all(&decl, &streams, info, numbers.iter().copied());
                (buf, (0..numbers.len() as u32).collect())
            };
        let mut prims: Vec<Prim> = Vec::with_capacity(call.primitive_count as usize);
        assemble(call.primitive, call.primitive_count, &map, &mut prims);
        let prims = clip_pretransformed(&mut buf, prims);
        if prims.is_empty() {
            return Ok(());
        }
        let st = DrawState::from_device(self, true);
        if st.clip.is_empty() {
            return Ok(());
        }
        let stage = ColorStage::new(st.specular_add);
        let mut list = stage.inputs().to_vec();
        let fog = match st.fog.map(|f| f.source) {
            Some(FogSource::SpecularAlpha) => {
                list.push(ATTR_SPECULAR + 3);
                Some(list.len() - 1)
            }
            _ => None,
        };
        let inputs = Inputs {
            list: &list,
            flat: stage.flat_inputs() & ((1u64 << stage.inputs().len()) - 1),
            fog,
        };
        let driver = self.driver;
        let threads = self.threads;
        let backend = crate::simd::Backend::new(self.simd == crate::api::SimdChoice::Avx2);
        let pool = if driver == DriverType::Reference {
            None
        } else {
            self.pipeline.pool(threads)
        };
        let mut scratch = std::mem::take(&mut self.pipeline.scratch);
        let passed = targets::with_targets(&st, |fb| {
            if driver == DriverType::Reference {
                let mut fb = fb;
                crate::reference::draw(&st, &buf, &prims, &inputs, &stage, &mut fb)
            } else {
                crate::raster::draw(
                    &mut scratch,
                    &st,
                    &buf,
                    &prims,
                    &inputs,
                    &stage,
                    fb,
                    backend,
                    pool.as_deref(),
                )
            }
        });
        self.pipeline.scratch = scratch;
        self.samples_passed += passed;
        Ok(())
    }

    /// Finishes all queued work, so readback, locks and queries see every
    /// earlier call's result. Draws execute before they return, so there is
    /// nothing queued.
    pub fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}
