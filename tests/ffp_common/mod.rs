//! Shared helpers of the fixed-function tests: vertex byte builders, and a
//! runner that processes vertices through the 8-lane routine on every SIMD
//! backend and through the scalar Reference, asserts that all agree bit for
//! bit, and returns the Reference outputs for the formula checks.
#![allow(dead_code)]

use std::sync::Arc;

use warp9::ffp::key::DrawOptions;
use warp9::ffp::state::IN_COUNT;
use warp9::ffp::*;
use warp9::simd::Backend;
use warp9::vertex::{DeclType, DeclUsage, FetchStreams, StreamInput, VertexElement};

/// Little-endian bytes of floats.
pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// An element in stream 0.
pub fn el(offset: u16, t: DeclType, u: DeclUsage, i: u8) -> VertexElement {
    VertexElement::new(0, offset, t, u, i)
}

/// The backends to compare: portable, and AVX2 where the CPU has it.
pub fn backends() -> Vec<Backend> {
    let mut b = vec![Backend::Portable];
    let avx = Backend::new(true);
    if avx != Backend::Portable {
        b.push(avx);
    }
    b
}

/// Bitwise equality of two outputs (NaN equal to NaN).
pub fn same(a: &VertexOutput<f32>, b: &VertexOutput<f32>) -> bool {
    a.flat()
        .iter()
        .zip(b.flat())
        .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

/// Runs `n` vertices of stream 0 (`data`, `stride`) through Warp (all
/// backends) and Reference; asserts identical bits; returns Reference outputs.
pub fn run(
    state: &FfpState,
    elements: &[VertexElement],
    data: &[u8],
    stride: u32,
    n: usize,
    opts: DrawOptions,
) -> Vec<VertexOutput<f32>> {
    let mut streams: [Option<StreamInput>; 16] = Default::default();
    streams[0] = Some(StreamInput {
        data: Arc::new(data.to_vec()),
        offset: 0,
        stride,
        freq: 1,
    });
    let streams = FetchStreams::new(streams, false);
    let vertices: Vec<u32> = (0..n as u32).collect();
    run_streams(state, elements, &streams, &vertices, 0, opts)
}

/// As [`run`] with explicit streams, vertex indices and instance.
pub fn run_streams(
    state: &FfpState,
    elements: &[VertexElement],
    streams: &FetchStreams,
    vertices: &[u32],
    instance: u32,
    opts: DrawOptions,
) -> Vec<VertexOutput<f32>> {
    let (layout, plan) = FfpInputLayout::new(elements);
    let key = FfpVertexKey::new(state, &layout, opts);
    let program = FfpVertexProgram::new(key.clone());
    let consts = FfpVertexConsts::new(state, &key);
    let reference = ReferenceVertex::new(state, &layout, opts);
    let want: Vec<VertexOutput<f32>> = vertices
        .iter()
        .map(|&v| {
            let mut regs = [[0.0f32; 4]; IN_COUNT];
            streams.fetch1(&plan, v, instance, &mut regs);
            reference.process(&regs)
        })
        .collect();
    for b in backends() {
        let mut out = Vec::new();
        let job = VertexJob {
            program: &program,
            consts: &consts,
            streams,
            plan: &plan,
            instance,
        };
        process_vertices(b, job, vertices, &mut out);
        for (i, w) in want.iter().enumerate() {
            let got = out[i / 8].lane(i % 8);
            assert!(
                same(&got, w),
                "{} vertex {i}: warp {got:?}\nreference {w:?}\nkey {key:?}",
                b.name()
            );
        }
    }
    want
}

/// Asserts `|a - b| <= tol` per component.
#[track_caller]
pub fn close(a: &[f32], b: &[f32], tol: f32) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() <= tol, "component {i}: {a:?} vs {b:?}");
    }
}
