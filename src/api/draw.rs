//! Draw calls: validation of the call, its buffers and the state, then
//! hand-off to the driver's pipeline.
//!
//! Everything that can make a draw read outside a buffer is checked here,
//! once: index ranges, every fetched index against MaxVertexIndex and
//! against every stream it reads. Internals take the validated
//! [`DrawCall`](crate::pipeline::DrawCall) and never return errors.

use std::sync::Arc;

use super::desc::VertexProcessing;
use super::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::format::{Format, Pool, Usage};
use crate::pipeline::{DrawCall, DrawDevice, Indices, VertexSource};
use crate::vertex::{IndexList, PrimitiveType, StreamStep, instancing};

impl Device {
    fn check_primitive_count(&self, count: u32) -> Result<()> {
        if count > self.caps.max_primitive_count {
            return Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                "MaxPrimitiveCount",
                self.level,
                self.caps.max_primitive_count,
                count,
            ));
        }
        Ok(())
    }

    /// The state check shared by every draw: a failure renders nothing and is `InvalidCall`.
    fn check_draw_state(&self) -> Result<()> {
        if self.recording.is_some() {
            return Err(Error::invalid_call("draw while recording a state block"));
        }
        if self.state.vertex_input.declaration().is_none() {
            return Err(Error::invalid_call(
                "draw without a vertex declaration or FVF (SetFVF / SetVertexDeclaration)",
            ));
        }
        self.validate_state()
            .map_err(|e| Error::invalid_call(format!("draw refused: {}", e.message())))
    }

    /// Checks every stream the declaration reads covers vertices `lo..=hi`
    /// (and, with instancing, the instance data), so the fetch never reads out of bounds.
    fn check_streams(
        &self,
        lo: u64,
        hi: u64,
        up: Option<(usize, u32)>,
        indexed: bool,
    ) -> Result<()> {
        let Some(decl) = self.state.vertex_input.declaration() else {
            return Err(Error::invalid_call("draw without a vertex declaration"));
        };
        // The frequencies the fetch sees (`pipeline::draw_state`): a UP
        // draw's stream 0 and unbound streams step per vertex.
        let freqs: [u32; 16] = std::array::from_fn(|s| match &self.state.streams[s] {
            _ if s == 0 && up.is_some() => 1,
            b if b.buffer.is_none() => 1,
            b => b.freq,
        });
        let (instancing, instances) = instancing(&freqs, indexed);
        for e in decl.elements() {
            let s = e.stream as usize;
            let end_in_vertex = u64::from(e.offset) + u64::from(e.decl_type.size());
            let (size, offset, stride, buffer_ok) = match (s, up) {
                (0, Some((len, stride))) => (len as u64, 0u64, u64::from(stride), true),
                _ => {
                    let binding = &self.state.streams[s];
                    let Some(buffer) = &binding.buffer else {
                        return Err(Error::invalid_call(format!(
                            "the declaration reads stream {s}, which has no vertex buffer"
                        )));
                    };
                    let d = buffer.desc();
                    let sw_ok = !self.software_vp
                        || self.vp_mode == VertexProcessing::Software
                        || d.usage.contains(Usage::SOFTWAREPROCESSING)
                        || d.pool == Pool::SystemMem;
                    (
                        u64::from(d.size),
                        u64::from(binding.offset),
                        u64::from(binding.stride),
                        sw_ok,
                    )
                }
            };
            if !buffer_ok {
                return Err(Error::invalid_call(format!(
                    "stream {s}: under software vertex processing a mixed device reads only buffers created with D3DUSAGE_SOFTWAREPROCESSING or in D3DPOOL_SYSTEMMEM"
                )));
            }
            let last = StreamStep::of(freqs[s], instancing).last_index(hi, instances);
            let _ = lo;
            let needed = offset + stride * last + end_in_vertex;
            if needed > size {
                return Err(Error::invalid_call(format!(
                    "stream {s}: vertex {last} (offset {offset}, stride {stride}) ends at byte {needed}, past the {size}-byte buffer"
                )));
            }
        }
        Ok(())
    }

    /// `DrawPrimitive`: `count` primitives from vertex `start_vertex` of the bound streams.
    pub fn draw_primitive(
        &mut self,
        kind: PrimitiveType,
        start_vertex: u32,
        count: u32,
    ) -> Result<()> {
        self.check_primitive_count(count)?;
        self.check_draw_state()?;
        if count == 0 {
            return Ok(());
        }
        let n = kind.vertex_count(count);
        let hi = u64::from(start_vertex) + n - 1;
        self.check_streams(u64::from(start_vertex), hi, None, false)?;
        self.execute(DrawCall {
            primitive: kind,
            primitive_count: count,
            source: VertexSource::Streams { start_vertex },
            up_stream0: None,
        })
    }

    /// `DrawIndexedPrimitive`: `count` primitives from the bound index buffer at
    /// `start_index`, each index offset by `base_vertex`.
    pub fn draw_indexed_primitive(
        &mut self,
        kind: PrimitiveType,
        base_vertex: i32,
        min_index: u32,
        num_vertices: u32,
        start_index: u32,
        count: u32,
    ) -> Result<()> {
        self.check_primitive_count(count)?;
        self.check_draw_state()?;
        let Some(ib) = self.state.indices.clone() else {
            return Err(Error::invalid_call(
                "DrawIndexedPrimitive without an index buffer (SetIndices)",
            ));
        };
        if count == 0 {
            return Ok(());
        }
        let format = ib.desc().format;
        let bytes = ib.0.storage.snapshot();
        // D3D9 does not check MinIndex/NumVertices against the indices; neither do we.
        let _ = (min_index, num_vertices);
        let indices =
            self.checked_indices(kind, count, format, bytes, start_index, base_vertex, None)?;
        self.execute(DrawCall {
            primitive: kind,
            primitive_count: count,
            source: VertexSource::Indexed(indices),
            up_stream0: None,
        })
    }

    /// Validates an index range and every index in it (against the buffer,
    /// MaxVertexIndex, and every stream the draw reads; `up` stands in for
    /// stream 0 in the UP draws); returns the draw's index source.
    #[allow(clippy::too_many_arguments)]
    fn checked_indices(
        &self,
        kind: PrimitiveType,
        count: u32,
        format: Format,
        bytes: Arc<Vec<u8>>,
        start_index: u32,
        base_vertex: i32,
        up: Option<(usize, u32)>,
    ) -> Result<Indices> {
        let index32 = format == Format::Index32;
        if index32 && !self.limits.index32 {
            return Err(Error::invalid_call(format!(
                "32-bit indices cannot be drawn at level {} (16-bit index buffers only; MaxVertexIndex {})",
                self.level, self.caps.max_vertex_index
            )));
        }
        let size: u64 = if index32 { 4 } else { 2 };
        let n = kind.vertex_count(count);
        let end = (u64::from(start_index) + n) * size;
        if end > bytes.len() as u64 {
            return Err(Error::invalid_call(format!(
                "indices {start_index}..{} need {end} bytes; the index buffer has {}",
                u64::from(start_index) + n,
                bytes.len()
            )));
        }
        let max_index = self.vertex_caps().max_vertex_index;
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        let first = start_index as usize * size as usize;
        let used = &bytes[first..end as usize];
        let list = IndexList::new(used, index32);
        // The common case first, in one pass the compiler vectorises: every
        // raw index within the cap and none negative after the base. Only a
        // failing buffer is walked again, for the first offending position.
        let (raw_lo, raw_hi) = list.min_max().unwrap_or((u32::MAX, 0));
        let valid = n > 0 && raw_hi <= max_index && i64::from(raw_lo) + i64::from(base_vertex) >= 0;
        if valid {
            lo = (i64::from(raw_lo) + i64::from(base_vertex)) as u64;
            hi = (i64::from(raw_hi) + i64::from(base_vertex)) as u64;
        }
        for i in 0..if valid { 0 } else { n as usize } {
            let raw = list.get(i);
            if raw > max_index {
                return Err(Error::cap_exceeded(
                    ErrorKind::InvalidCall,
                    "MaxVertexIndex",
                    self.level,
                    max_index,
                    format!(
                        "index {raw} at position {}",
                        u64::from(start_index) + i as u64
                    ),
                ));
            }
            let v = i64::from(raw) + i64::from(base_vertex);
            if v < 0 {
                return Err(Error::invalid_call(format!(
                    "index {raw} + BaseVertexIndex {base_vertex} is negative"
                )));
            }
            lo = lo.min(v as u64);
            hi = hi.max(v as u64);
        }
        self.check_streams(lo, hi, up, true)?;
        Ok(Indices {
            bytes,
            index32,
            start_index,
            base_vertex,
            range: (lo, hi),
        })
    }

    /// `DrawPrimitiveUP`: vertices from `data` (stride `stride`) as stream 0.
    /// Afterwards stream 0 is unbound, as in D3D9.
    pub fn draw_primitive_up(
        &mut self,
        kind: PrimitiveType,
        count: u32,
        data: &[u8],
        stride: u32,
    ) -> Result<()> {
        self.check_primitive_count(count)?;
        self.check_draw_state()?;
        if stride == 0 {
            return Err(Error::invalid_call("DrawPrimitiveUP: stride 0"));
        }
        if count > 0 {
            let n = kind.vertex_count(count);
            self.check_streams(0, n - 1, Some((data.len(), stride)), false)?;
            self.execute(DrawCall {
                primitive: kind,
                primitive_count: count,
                source: VertexSource::Streams { start_vertex: 0 },
                up_stream0: Some((Arc::new(data.to_vec()), stride)),
            })?;
        }
        self.reset_stream0_after_up(false);
        Ok(())
    }

    /// `DrawIndexedPrimitiveUP`: indices and vertices from caller memory.
    /// Afterwards stream 0 and the index buffer are unbound, as in D3D9.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_primitive_up(
        &mut self,
        kind: PrimitiveType,
        min_index: u32,
        num_vertices: u32,
        count: u32,
        indices: &[u8],
        index_format: Format,
        data: &[u8],
        stride: u32,
    ) -> Result<()> {
        self.check_primitive_count(count)?;
        self.check_draw_state()?;
        if stride == 0 {
            return Err(Error::invalid_call("DrawIndexedPrimitiveUP: stride 0"));
        }
        if !matches!(index_format, Format::Index16 | Format::Index32) {
            return Err(Error::invalid_call(format!(
                "DrawIndexedPrimitiveUP: {index_format:?} is not INDEX16 or INDEX32"
            )));
        }
        if count > 0 {
            let bytes = Arc::new(indices.to_vec());
            let _ = (min_index, num_vertices);
            let up = Some((data.len(), stride));
            let idx = self.checked_indices(kind, count, index_format, bytes, 0, 0, up)?;
            self.execute(DrawCall {
                primitive: kind,
                primitive_count: count,
                source: VertexSource::Indexed(idx),
                up_stream0: Some((Arc::new(data.to_vec()), stride)),
            })?;
        }
        self.reset_stream0_after_up(true);
        Ok(())
    }

    fn reset_stream0_after_up(&mut self, indices_too: bool) {
        let s = &mut self.state.streams[0];
        s.buffer = None;
        s.offset = 0;
        s.stride = 0;
        if indices_too {
            self.state.indices = None;
        }
    }
}

impl Device {
    /// Runs a validated draw: the pipeline gets the parts of the device a
    /// draw reads and writes ([`DrawDevice`]), not the device.
    pub(crate) fn execute(&mut self, call: DrawCall) -> Result<()> {
        DrawDevice {
            state: &self.state,
            caps: &self.caps,
            driver: self.driver,
            backend: crate::simd::Backend::new(self.simd == super::SimdChoice::Avx2),
            software_vp: self.software_vp,
            threads: self.threads,
            render_targets: &self.render_targets,
            depth_stencil: &self.depth_stencil,
            pipeline: &mut self.pipeline,
            samples_passed: &mut self.samples_passed,
        }
        .execute(call)
    }

    /// The pool a clear's bands split across (`Pipeline::split_pool`).
    pub(crate) fn split_pool(&mut self) -> Option<Arc<rayon::ThreadPool>> {
        self.pipeline.split_pool(self.driver, self.threads)
    }

    /// Finishes all queued work, so that occlusion counts include every
    /// earlier draw and the targets hold its pixels. (Readback, locks,
    /// copies and `Clear` of a target wait for the draws queued into it on
    /// their own; an application needs this only to measure or to hand
    /// the work to the workers at a point of its choosing.)
    pub fn flush(&mut self) -> Result<()> {
        self.samples_passed += self.pipeline.flush();
        Ok(())
    }
}
