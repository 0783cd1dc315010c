//! Shared helpers of the fixed-function tests: vertex byte builders, and a
//! runner that processes vertices through the 8-lane routine on every SIMD
//! backend and through the scalar Reference, asserts that all agree bit for
//! bit, and returns the Reference outputs for the formula checks.
#![allow(dead_code)]

use std::sync::Arc;

use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::state::IN_COUNT;
use warp9::internals::ffp::*;
use warp9::internals::simd::Backend;
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
    // The register-level entry point (`run8`) gives every field unmasked.
    for b in backends() {
        let got = warp9::internals::simd::dispatch(
            b,
            Run8 {
                program: &program,
                consts: &consts,
                streams,
                plan: &plan,
                vertices,
                instance,
            },
        );
        for (i, w) in want.iter().enumerate().take(8) {
            assert!(
                same(&got[i], w),
                "{} run8 vertex {i}: {:?}\nreference {w:?}",
                b.name(),
                got[i]
            );
        }
    }
    let layout = program.layout();
    let want: Vec<VertexOutput<f32>> = want.iter().map(|w| layout.mask(w)).collect();
    for b in backends() {
        let mut out = VertexBatches::default();
        let job = VertexJob {
            program: &program,
            consts: &consts,
            streams,
            plan: &plan,
            instance,
        };
        process_vertices(b, job, vertices, &mut out);
        for (i, w) in want.iter().enumerate() {
            let got = out.vertex(i);
            assert!(
                same(&got, w),
                "{} vertex {i}: warp {got:?}\nreference {w:?}\nkey {key:?}",
                b.name()
            );
        }
    }
    want
}

/// Fetch + `FfpVertexProgram::run8` on the first 8 vertices.
struct Run8<'a> {
    program: &'a FfpVertexProgram,
    consts: &'a FfpVertexConsts,
    streams: &'a FetchStreams,
    plan: &'a warp9::vertex::FetchPlan,
    vertices: &'a [u32],
    instance: u32,
}

impl warp9::internals::simd::Kernel for Run8<'_> {
    type Output = Vec<VertexOutput<f32>>;
    fn run<S: warp9::internals::simd::Simd>(self, s: S) -> Self::Output {
        use warp9::internals::simd::FloatV;
        let last = self.vertices[self.vertices.len().min(8) - 1];
        let idx: [u32; 8] = std::array::from_fn(|i| self.vertices.get(i).copied().unwrap_or(last));
        let mut regs = [[s.splat(0.0); 4]; IN_COUNT];
        self.streams
            .fetch8(s, self.plan, &idx, self.instance, &mut regs);
        let o = self
            .program
            .run8(s, self.consts, &regs)
            .map(|v| v.to_array());
        (0..8).map(|i| o.map(|a| a[i])).collect()
    }
}

/// Asserts `|a - b| <= tol` per component.
#[track_caller]
pub fn close(a: &[f32], b: &[f32], tol: f32) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() <= tol, "component {i}: {a:?} vs {b:?}");
    }
}

use warp9::internals::ffp::stages::{PixelInput, StageTexture};
use warp9::internals::simd::{FloatV, MaskV, Simd};
use warp9::internals::texture_fetch::{Lod, SamplerSlot, TextureFetch, TextureFetchScalar};

/// A test texture: `f(coords, lod)` per slot; slots without one return (0, 0, 0, 1).
pub type TexFn = fn([f32; 4], [f32; 6]) -> [f32; 4];

/// Procedural textures for the stage tests, with identical 8-lane and scalar forms.
#[derive(Clone, Copy)]
pub struct TestTextures(pub [Option<TexFn>; 8]);

impl TestTextures {
    fn one(&self, slot: SamplerSlot, c: [f32; 4], lod: [f32; 6]) -> [f32; 4] {
        match self.0.get(slot) {
            Some(Some(f)) => f(c, lod),
            _ => [0.0, 0.0, 0.0, 1.0],
        }
    }
}

fn lod_values<T: Copy>(lod: &Lod<T>) -> Option<([T; 3], [T; 3])> {
    match lod {
        Lod::Implicit { ddx, ddy } => Some((*ddx, *ddy)),
        _ => None,
    }
}

impl TextureFetchScalar for TestTextures {
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        let (dx, dy) = lod_values(&lod).expect("fixed-function stages use implicit LOD");
        self.one(slot, coords, [dx[0], dx[1], dx[2], dy[0], dy[1], dy[2]])
    }
}

impl<S: Simd> TextureFetch<S> for TestTextures {
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        let (dx, dy) = lod_values(&lod).expect("fixed-function stages use implicit LOD");
        let c = coords.map(|v| v.to_array());
        let d = [dx[0], dx[1], dx[2], dy[0], dy[1], dy[2]].map(|v| v.to_array());
        let bits = active.bits();
        let mut out = [[0f32; 8]; 4];
        for l in 0..8 {
            if bits & (1 << l) != 0 {
                let r = self.one(slot, c.map(|a| a[l]), d.map(|a| a[l]));
                for k in 0..4 {
                    out[k][l] = r[k];
                }
            }
        }
        out.map(|a| s.f32s(a))
    }
}

/// Shades 8 pixels through the 8-lane cascade on every backend and the
/// Reference; asserts identical bits; returns the Reference colours.
pub fn shade(
    state: &FfpState,
    textures: [StageTexture; 8],
    divisors: [Option<u8>; 8],
    inp: &[PixelInput<f32>; 8],
    fetch: &TestTextures,
    active: u8,
) -> [[f32; 4]; 8] {
    use warp9::internals::simd::{Kernel, dispatch};
    let want =
        warp9::internals::ffp::reference_shade8(state, textures, divisors, inp, fetch, active);
    let key = FfpPixelKey::new(state, textures, divisors);
    let program = FfpPixelProgram::new(key.clone());
    let consts = FfpPixelConsts::new(state);
    struct K<'a> {
        p: &'a FfpPixelProgram,
        c: &'a FfpPixelConsts,
        inp: &'a [PixelInput<f32>; 8],
        f: &'a TestTextures,
        active: u8,
    }
    impl Kernel for K<'_> {
        type Output = [[f32; 8]; 4];
        fn run<S: Simd>(self, s: S) -> Self::Output {
            let soa = |g: &dyn Fn(&PixelInput<f32>) -> f32| {
                s.f32s(std::array::from_fn(|l| g(&self.inp[l])))
            };
            let v = PixelInput {
                diffuse: std::array::from_fn(|i| soa(&|p| p.diffuse[i])),
                specular: std::array::from_fn(|i| soa(&|p| p.specular[i])),
                texcoord: std::array::from_fn(|t| {
                    std::array::from_fn(|i| soa(&|p| p.texcoord[t][i]))
                }),
            };
            let r = self.p.shade8(
                s,
                self.c,
                &v,
                self.f,
                s.mask_from_bits(u32::from(self.active)),
            );
            r.map(|x| x.to_array())
        }
    }
    for b in backends() {
        let got = dispatch(
            b,
            K {
                p: &program,
                c: &consts,
                inp,
                f: fetch,
                active,
            },
        );
        for (l, w) in want.iter().enumerate() {
            let g: [f32; 4] = std::array::from_fn(|i| got[i][l]);
            let eq = g
                .iter()
                .zip(w)
                .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()));
            assert!(
                eq,
                "{} pixel {l}: warp {g:?} reference {w:?}\nkey {key:?}",
                b.name()
            );
        }
    }
    want
}

/// A pixel input with the given colours and all coordinates `tc`.
pub fn pixel(diffuse: [f32; 4], specular: [f32; 4], tc: [f32; 4]) -> PixelInput<f32> {
    PixelInput {
        diffuse,
        specular,
        texcoord: [tc; 8],
    }
}
