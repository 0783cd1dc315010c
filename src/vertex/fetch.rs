//! Vertex fetch: declaration + stream bindings → float4 input registers,
//! 8 vertices at a time in SoA (Warp) or one at a time (Reference).
//!
//! Job: address computation with stream offsets, strides and frequency
//! (instancing and the plain divider of fixed-function.md §1.4), and the
//! conversion of every `D3DDECLTYPE` to float4 (§1.2). Used by the
//! fixed-function vertex stage and, later, the vertex shader interpreters:
//! the caller decides which destination register each element fills.
//!
//! Invariants:
//! - Both forms, and the pre-transformed fetch of `geom`, convert through
//!   the same scalar function
//!   ([`convert_element`]), so the 8-lane fetch is bit-identical to the
//!   scalar one; a gather is per-lane work anyway.
//! - Never panics and never reads outside a buffer: bytes past the end read
//!   as 0 (fixed-function.md §1.3 decision). Draw validation already keeps
//!   valid draws inside their buffers, so this is only a guard.

use std::sync::Arc;

use super::decl::{DeclType, VertexElement};
use crate::simd::Simd;

/// `D3DSTREAMSOURCE_INDEXEDDATA`.
pub const STREAMSOURCE_INDEXEDDATA: u32 = 1 << 30;
/// `D3DSTREAMSOURCE_INSTANCEDATA`.
pub const STREAMSOURCE_INSTANCEDATA: u32 = 2 << 30;

/// One bound vertex stream as a draw sees it.
#[derive(Clone, Debug)]
pub struct StreamInput {
    /// The buffer contents (a snapshot taken at the draw).
    pub data: Arc<Vec<u8>>,
    /// `SetStreamSource` offset in bytes.
    pub offset: u32,
    /// Stride in bytes (0: every vertex reads the same data).
    pub stride: u32,
    /// `SetStreamSourceFreq` value (1 by default).
    pub freq: u32,
}

/// How a stream's fetch index follows the vertex and instance numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamStep {
    /// `fetch_index = vertex`.
    PerVertex,
    /// Plain frequency divider F > 1: `fetch_index = vertex / F`.
    Divide(u32),
    /// Instance data every D instances: `fetch_index = instance / D`.
    PerInstance(u32),
}

impl StreamStep {
    /// The step of a stream with frequency value `freq` (§1.4) in a draw
    /// where instancing is active (`instancing`, see [`instancing`]) or not.
    pub fn of(freq: u32, instancing: bool) -> StreamStep {
        let count = (freq & 0x7F_FFFF).max(1);
        if instancing {
            if freq & STREAMSOURCE_INSTANCEDATA != 0 {
                StreamStep::PerInstance(count)
            } else {
                StreamStep::PerVertex
            }
        } else if freq & (STREAMSOURCE_INDEXEDDATA | STREAMSOURCE_INSTANCEDATA) == 0 && freq > 1 {
            StreamStep::Divide(freq)
        } else {
            StreamStep::PerVertex
        }
    }

    /// The highest element index fetched for vertices `0..=last_vertex`
    /// of `instances` instances: what draw validation checks the stream
    /// against, by the same rule as [`index`](Self::index).
    pub fn last_index(self, last_vertex: u64, instances: u32) -> u64 {
        match self {
            StreamStep::PerVertex => last_vertex,
            StreamStep::Divide(f) => last_vertex / u64::from(f),
            StreamStep::PerInstance(d) => u64::from(instances.saturating_sub(1) / d),
        }
    }

    /// The element index fetched for `vertex` of `instance`.
    #[inline(always)]
    pub fn index(self, vertex: u32, instance: u32) -> u32 {
        match self {
            StreamStep::PerVertex => vertex,
            StreamStep::Divide(f) => vertex / f,
            StreamStep::PerInstance(d) => instance / d,
        }
    }
}

/// Whether instancing is active (§1.4): an indexed draw with INDEXEDDATA on
/// stream 0 or INSTANCEDATA on any stream. Also returns the instance count
/// (stream 0's count; 0 for `INDEXEDDATA | 0`, which draws nothing).
pub fn instancing(freqs: &[u32], indexed: bool) -> (bool, u32) {
    let f0 = freqs.first().copied().unwrap_or(1);
    let any = freqs
        .iter()
        .skip(1)
        .any(|f| f & STREAMSOURCE_INSTANCEDATA != 0);
    let active = indexed && (f0 & STREAMSOURCE_INDEXEDDATA != 0 || any);
    let count = if f0 & STREAMSOURCE_INDEXEDDATA != 0 {
        f0 & 0x7F_FFFF
    } else {
        1
    };
    (active, if active { count } else { 1 })
}

/// One element of a fetch plan: where it lives and which register it fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchElement {
    /// Stream index.
    pub stream: u8,
    /// Byte offset inside the stream's vertex.
    pub offset: u16,
    /// Storage type.
    pub decl_type: DeclType,
    /// Destination register.
    pub dst: u16,
}

/// A compiled fetch: the elements to read, grouped by nothing but order.
#[derive(Clone, Debug, Default)]
pub struct FetchPlan {
    /// The elements, in declaration order.
    pub elements: Vec<FetchElement>,
}

impl FetchPlan {
    /// A plan reading every element of `elements` for which `dst` returns a
    /// register (and, optionally, a storage type to read it as instead).
    pub fn new(
        elements: &[VertexElement],
        mut dst: impl FnMut(&VertexElement) -> Option<(u16, DeclType)>,
    ) -> FetchPlan {
        FetchPlan {
            elements: elements
                .iter()
                .filter_map(|e| {
                    dst(e).map(|(d, t)| FetchElement {
                        stream: e.stream.min(15) as u8,
                        offset: e.offset,
                        decl_type: t,
                        dst: d,
                    })
                })
                .collect(),
        }
    }
}

/// The streams of one draw, with each stream's step resolved.
#[derive(Clone, Debug)]
pub struct FetchStreams {
    /// Stream bindings (`None`: unbound, reads zeros).
    pub streams: [Option<StreamInput>; 16],
    /// Each stream's fetch step.
    pub steps: [StreamStep; 16],
}

impl FetchStreams {
    /// Resolves the steps of `streams` for an indexed (`indexed`) or non-indexed draw.
    pub fn new(streams: [Option<StreamInput>; 16], indexed: bool) -> FetchStreams {
        let freqs: [u32; 16] = std::array::from_fn(|i| streams[i].as_ref().map_or(1, |s| s.freq));
        let (inst, _) = instancing(&freqs, indexed);
        let steps = std::array::from_fn(|i| StreamStep::of(freqs[i], inst));
        FetchStreams { streams, steps }
    }

    /// The bytes of element `e` for `vertex`/`instance`, zero-padded past the end of the buffer.
    #[inline(always)]
    fn element_bytes(&self, e: &FetchElement, vertex: u32, instance: u32) -> [u8; 16] {
        let mut out = [0u8; 16];
        let s = e.stream as usize;
        let Some(st) = &self.streams[s] else {
            return out;
        };
        let idx = u64::from(self.steps[s].index(vertex, instance));
        let at = u64::from(st.offset) + u64::from(st.stride) * idx + u64::from(e.offset);
        let n = e.decl_type.size() as usize;
        let len = st.data.len() as u64;
        if at + n as u64 <= len {
            let at = at as usize;
            out[..n].copy_from_slice(&st.data[at..at + n]);
        } else if at < len {
            let at = at as usize;
            let avail = st.data.len() - at;
            out[..avail].copy_from_slice(&st.data[at..]);
        }
        out
    }

    /// Scalar fetch of one vertex: fills `regs[dst]` for every element of `plan`.
    pub fn fetch1(&self, plan: &FetchPlan, vertex: u32, instance: u32, regs: &mut [[f32; 4]]) {
        for e in &plan.elements {
            let b = self.element_bytes(e, vertex, instance);
            if let Some(r) = regs.get_mut(e.dst as usize) {
                *r = convert_element(e.decl_type, &b);
            }
        }
    }

    /// 8-lane fetch: lane i is `vertices[i]` of `instance`; fills `regs[dst]` in SoA.
    /// Lanes beyond a draw's end may repeat a valid vertex; they are simply not used.
    #[inline(always)]
    pub fn fetch8<S: Simd>(
        &self,
        s: S,
        plan: &FetchPlan,
        vertices: &[u32; 8],
        instance: u32,
        regs: &mut [[S::F; 4]],
    ) {
        for e in &plan.elements {
            // The type is resolved outside the lane loop, and every read has a
            // constant size (a runtime-sized copy would be a memmove call).
            let t = e.decl_type;
            let soa = match t {
                DeclType::Float1 => {
                    self.lanes::<4>(e, vertices, instance, |b| [f32_at(b, 0), 0.0, 0.0, 1.0])
                }
                DeclType::Float2 => self.lanes::<8>(e, vertices, instance, |b| {
                    [f32_at(b, 0), f32_at(b, 1), 0.0, 1.0]
                }),
                DeclType::Float3 => self.lanes::<12>(e, vertices, instance, |b| {
                    [f32_at(b, 0), f32_at(b, 1), f32_at(b, 2), 1.0]
                }),
                DeclType::Float4 => self.lanes::<16>(e, vertices, instance, |b| {
                    [f32_at(b, 0), f32_at(b, 1), f32_at(b, 2), f32_at(b, 3)]
                }),
                DeclType::D3dColor => self.lanes::<4>(e, vertices, instance, |b| {
                    convert_element(DeclType::D3dColor, b)
                }),
                t => match t.size() {
                    4 => self.lanes::<4>(e, vertices, instance, |b| convert_element(t, b)),
                    8 => self.lanes::<8>(e, vertices, instance, |b| convert_element(t, b)),
                    _ => self.lanes::<0>(e, vertices, instance, |b| convert_element(t, b)),
                },
            };
            if let Some(r) = regs.get_mut(e.dst as usize) {
                // A loop, not `map`: see `ffp::math` on closures and target features.
                for (rk, a) in r.iter_mut().zip(soa) {
                    *rk = s.f32s(a);
                }
            }
        }
    }

    /// The 8 lanes of one element of `N` bytes, converted by `conv`, in SoA.
    #[inline(always)]
    fn lanes<const N: usize>(
        &self,
        e: &FetchElement,
        vertices: &[u32; 8],
        instance: u32,
        conv: impl Fn(&[u8; 16]) -> [f32; 4],
    ) -> [[f32; 8]; 4] {
        let mut soa = [[0f32; 8]; 4];
        let s = e.stream as usize;
        let Some(st) = &self.streams[s] else {
            let c = conv(&[0; 16]);
            for (k, row) in soa.iter_mut().enumerate() {
                *row = [c[k]; 8];
            }
            return soa;
        };
        let data = &st.data[..];
        for (lane, &v) in vertices.iter().enumerate() {
            let idx = u64::from(self.steps[s].index(v, instance));
            let at = u64::from(st.offset) + u64::from(st.stride) * idx + u64::from(e.offset);
            let mut b = [0u8; 16];
            match data.get(at as usize..(at as usize).saturating_add(N)) {
                Some(src) if at + N as u64 <= data.len() as u64 => b[..N].copy_from_slice(src),
                _ => b = self.element_bytes(e, v, instance),
            }
            let c = conv(&b);
            for k in 0..4 {
                soa[k][lane] = c[k];
            }
        }
        soa
    }
}

#[inline(always)]
fn f32_at(b: &[u8; 16], i: usize) -> f32 {
    f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}
#[inline(always)]
fn i16_at(b: &[u8; 16], i: usize) -> f32 {
    f32::from(i16::from_le_bytes([b[2 * i], b[2 * i + 1]]))
}
#[inline(always)]
fn u16_at(b: &[u8; 16], i: usize) -> f32 {
    f32::from(u16::from_le_bytes([b[2 * i], b[2 * i + 1]]))
}
#[inline(always)]
fn h_at(b: &[u8; 16], i: usize) -> f32 {
    half::f16::from_bits(u16::from_le_bytes([b[2 * i], b[2 * i + 1]])).to_f32()
}

/// Converts the bytes of one element to its float4 register value
/// (fixed-function.md §1.2 table). The one `D3DDECLTYPE` decoder of the
/// crate: every fetch path calls it, so no two paths can disagree. Signed
/// normalised values clamp at -1: D3D9's D3DDECLTYPE page only says
/// "short/32767.0", which leaves -32768 (and DEC3N's -512) just below -1;
/// the clamp is the D3D10 rule the spec chose.
#[inline(always)]
pub fn convert_element(t: DeclType, b: &[u8; 16]) -> [f32; 4] {
    let snorm = |v: f32, m: f32| (v / m).max(-1.0);
    match t {
        DeclType::Float1 => [f32_at(b, 0), 0.0, 0.0, 1.0],
        DeclType::Float2 => [f32_at(b, 0), f32_at(b, 1), 0.0, 1.0],
        DeclType::Float3 => [f32_at(b, 0), f32_at(b, 1), f32_at(b, 2), 1.0],
        DeclType::Float4 => [f32_at(b, 0), f32_at(b, 1), f32_at(b, 2), f32_at(b, 3)],
        DeclType::D3dColor => [
            f32::from(b[2]) / 255.0,
            f32::from(b[1]) / 255.0,
            f32::from(b[0]) / 255.0,
            f32::from(b[3]) / 255.0,
        ],
        DeclType::UByte4 => [b[0], b[1], b[2], b[3]].map(f32::from),
        DeclType::UByte4N => [b[0], b[1], b[2], b[3]].map(|v| f32::from(v) / 255.0),
        DeclType::Short2 => [i16_at(b, 0), i16_at(b, 1), 0.0, 1.0],
        DeclType::Short4 => [i16_at(b, 0), i16_at(b, 1), i16_at(b, 2), i16_at(b, 3)],
        DeclType::Short2N => [
            snorm(i16_at(b, 0), 32767.0),
            snorm(i16_at(b, 1), 32767.0),
            0.0,
            1.0,
        ],
        DeclType::Short4N => [0, 1, 2, 3].map(|i| snorm(i16_at(b, i), 32767.0)),
        DeclType::UShort2N => [u16_at(b, 0) / 65535.0, u16_at(b, 1) / 65535.0, 0.0, 1.0],
        DeclType::UShort4N => [0, 1, 2, 3].map(|i| u16_at(b, i) / 65535.0),
        DeclType::UDec3 => {
            let d = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            [
                (d & 0x3FF) as f32,
                ((d >> 10) & 0x3FF) as f32,
                ((d >> 20) & 0x3FF) as f32,
                1.0,
            ]
        }
        DeclType::Dec3N => {
            let d = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            // Sign-extend each 10-bit field.
            let f = |sh: u32| snorm((((d >> sh) << 22) as i32 >> 22) as f32, 511.0);
            [f(0), f(10), f(20), 1.0]
        }
        DeclType::Float16_2 => [h_at(b, 0), h_at(b, 1), 0.0, 1.0],
        DeclType::Float16_4 => [h_at(b, 0), h_at(b, 1), h_at(b, 2), h_at(b, 3)],
        DeclType::Unused => [0.0, 0.0, 0.0, 1.0],
    }
}
