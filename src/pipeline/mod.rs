//! The validated draw the API hands to a driver's pipeline, and its dispatch.
//!
//! Invariant: a `DrawCall` has passed every API check (state against caps,
//! index ranges, stream bounds), so the pipeline never fails and never reads
//! outside a buffer.

use std::sync::Arc;

use crate::api::{Device, PrimitiveType};
use crate::error::Result;

/// Where a draw's vertices come from.
#[derive(Clone, Debug)]
#[expect(dead_code, reason = "read by the rasterizer (issue 3)")]
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
#[expect(dead_code, reason = "read by the rasterizer (issue 3)")]
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
#[expect(
    dead_code,
    reason = "read by the rasterizer (issue 3), which consumes the call in `execute`"
)]
pub(crate) struct DrawCall {
    pub(crate) primitive: PrimitiveType,
    pub(crate) primitive_count: u32,
    pub(crate) source: VertexSource,
    /// DrawPrimitiveUP data standing in for stream 0: (bytes, stride).
    pub(crate) up_stream0: Option<(Arc<Vec<u8>>, u32)>,
}

impl Device {
    /// Runs a validated draw on the device's driver.
    pub(crate) fn execute(&mut self, call: DrawCall) -> Result<()> {
        // The rasterizer (Warp and Reference) consumes the call here; until it
        // lands a validated draw changes no pixels.
        let _ = call;
        Ok(())
    }

    /// Finishes all queued work, so readback, locks and queries see every
    /// earlier call's result. Work is currently executed at the call, so
    /// there is nothing queued.
    pub fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}
