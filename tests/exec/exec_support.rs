//! Shared helpers for the interpreter tests: assemble a listing, run it on
//! the scalar interpreter and on the 8-lane interpreter with every SIMD
//! backend the CPU has, assert that all of them agree bit for bit, and
//! return the scalar results for value checks.
#![allow(dead_code)]

// The batch check shared with the exec fuzz target, loaded once in this
// binary (by the fuzz target's module that `fuzz_inputs` includes).
use crate::fuzz_inputs::exec::{batch_check, fresh_and_reused};

use warp9::internals::exec::point_fetch::{PointFetch, Texture2D};
use warp9::internals::exec::{
    Constants, ExecKey, PixelInputs, Prepared, ScalarPixelInputs, ScalarPixelOutput, scalar, simd,
};
use warp9::internals::simd::{Backend, FloatV, Kernel, MaskV, Simd, dispatch};
use warp9::internals::texture_fetch::{Lod, SamplerSlot, TextureFetch, TextureFetchScalar};
use warp9::shader::{self, Program};

/// Every backend to compare: portable, and AVX2 when the CPU has it.
pub fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::new(false)];
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        v.push(Backend::new(true));
        assert_ne!(
            v[1], v[0],
            "AVX2 detected but the AVX2 backend was not selected"
        );
    }
    v
}

/// Assembles and decodes a listing (the first line is the profile).
pub fn program(text: &str) -> Program {
    let tokens = shader::assemble(text).unwrap_or_else(|e| panic!("assemble: {e}\n{text}"));
    shader::decode(&tokens).expect("decode")
}

/// Assembles, decodes and validates at the SM3 level.
pub fn valid_program(text: &str) -> Program {
    let p = program(text);
    if let Err(e) = shader::validate(&p, &shader::ShaderLimits::sm3()) {
        panic!("validate: {e}\n{text}");
    }
    p
}

/// Both fetch traits at once, so one value serves both interpreters.
pub trait Fetch: TextureFetchScalar + Sync {
    /// The 8-lane view for backend `S`.
    fn lanes<S: Simd>(&self) -> &dyn TextureFetch<S>;
}

impl Fetch for PointFetch {
    fn lanes<S: Simd>(&self) -> &dyn TextureFetch<S> {
        self
    }
}

/// A fetch that returns the level-of-detail inputs instead of a texel:
/// (ddx.u, ddy.v, bias or level, kind) with kind 1 implicit, 2 bias,
/// 3 level, 4 gradients; plus `coords.x` added to the kind's tenths so
/// the coordinate reaches the result too.
pub struct LodProbe;

fn probe(slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
    let tag = slot as f32 * 100.0;
    match lod {
        Lod::Implicit { ddx, ddy } => [ddx[0], ddy[1], coords[0], tag + 1.0],
        Lod::Bias { ddx, ddy, bias } => [ddx[0], ddy[1], bias, tag + 2.0],
        Lod::Level(l) => [coords[0], coords[1], l, tag + 3.0],
        Lod::Grad { ddx, ddy } => [ddx[0], ddy[1], ddx[2] + ddy[2], tag + 4.0],
    }
}

impl TextureFetchScalar for LodProbe {
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        probe(slot, coords, lod)
    }
}

impl<S: Simd> TextureFetch<S> for LodProbe {
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        let c = coords.map(|v| v.to_array());
        let lane = |l: usize| -> Lod<f32> {
            match lod {
                Lod::Implicit { ddx, ddy } => Lod::Implicit {
                    ddx: ddx.map(|v| v.to_array()[l]),
                    ddy: ddy.map(|v| v.to_array()[l]),
                },
                Lod::Bias { ddx, ddy, bias } => Lod::Bias {
                    ddx: ddx.map(|v| v.to_array()[l]),
                    ddy: ddy.map(|v| v.to_array()[l]),
                    bias: bias.to_array()[l],
                },
                Lod::Level(v) => Lod::Level(v.to_array()[l]),
                Lod::Grad { ddx, ddy } => Lod::Grad {
                    ddx: ddx.map(|v| v.to_array()[l]),
                    ddy: ddy.map(|v| v.to_array()[l]),
                },
            }
        };
        let bits = active.bits();
        let t: [[f32; 4]; 8] = std::array::from_fn(|l| {
            if bits & (1 << l) != 0 {
                probe(slot, [c[0][l], c[1][l], c[2][l], c[3][l]], lane(l))
            } else {
                [0.0; 4]
            }
        });
        std::array::from_fn(|k| s.f32s(std::array::from_fn(|l| t[l][k])))
    }
}

impl Fetch for LodProbe {
    fn lanes<S: Simd>(&self) -> &dyn TextureFetch<S> {
        self
    }
}

/// Owned constants.
#[derive(Clone, Debug, Default)]
pub struct Consts {
    pub float: Vec<[f32; 4]>,
    pub int: Vec<[i32; 4]>,
    pub bool: Vec<bool>,
}

impl Consts {
    /// `c#` = (#, #, #, #) for # < 64, no int/bool constants.
    pub fn indexed() -> Consts {
        Consts {
            float: (0..64).map(|i| [i as f32; 4]).collect(),
            int: vec![[0; 4]; 16],
            bool: vec![false; 16],
        }
    }

    pub fn view(&self) -> Constants<'_> {
        Constants {
            float: &self.float,
            int: &self.int,
            bool: &self.bool,
        }
    }
}

fn soa<S: Simd>(s: S, lanes: &[[[f32; 4]; 16]; 8]) -> [[S::F; 4]; 16] {
    std::array::from_fn(|r| {
        std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| lanes[l][r][c])))
    })
}

fn aos<S: Simd>(v: &[[S::F; 4]]) -> Vec<Vec<[f32; 4]>> {
    let arr: Vec<[[f32; 8]; 4]> = v.iter().map(|r| r.map(|x| x.to_array())).collect();
    (0..8)
        .map(|l| {
            arr.iter()
                .map(|r| [r[0][l], r[1][l], r[2][l], r[3][l]])
                .collect()
        })
        .collect()
}

struct VsKernel<'a, F: Fetch> {
    p: &'a Prepared,
    inputs: &'a [[[f32; 4]; 16]; 8],
    consts: &'a Constants<'a>,
    fetch: &'a F,
    active: u32,
}

impl<F: Fetch> Kernel for VsKernel<'_, F> {
    type Output = Vec<Vec<[f32; 4]>>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Self::Output {
        let fetch = self.fetch.lanes::<S>();
        let active = s.mask_from_bits(self.active);
        // A fresh executor's run, and a reused one's after a batch with
        // other inputs, must agree.
        let mut other = *self.inputs;
        other.reverse();
        let (inputs, other) = (soa(s, self.inputs), soa(s, &other));
        let (fresh, reused) = fresh_and_reused(
            s,
            self.p,
            self.consts,
            fetch,
            [&inputs, &other],
            active,
            |ex, inputs, active| ex.run_vertex(inputs, active),
        );
        let (fresh, reused) = (aos::<S>(&fresh), aos::<S>(&reused));
        for (f, r) in fresh.iter().zip(&reused) {
            assert_eq!(bits(f), bits(r), "reused executor differs from a fresh run");
        }
        fresh
    }
}

/// Bit patterns, for comparisons that treat NaN and ±0 exactly.
pub fn bits(v: &[[f32; 4]]) -> Vec<[u32; 4]> {
    v.iter().map(|r| r.map(f32::to_bits)).collect()
}

/// Runs a prepared vertex program on up to 8 vertices with every
/// interpreter and backend; asserts bit equality; returns the outputs per
/// vertex (16 slots each).
pub fn run_vs_prepared(
    p: &Prepared,
    lanes: &[[[f32; 4]; 16]],
    consts: &Consts,
    fetch: &impl Fetch,
) -> Vec<[[f32; 4]; 16]> {
    assert!(lanes.len() <= 8);
    let mut inputs = [[[0.0f32; 4]; 16]; 8];
    inputs[..lanes.len()].copy_from_slice(lanes);
    let c = consts.view();
    let scalar: Vec<[[f32; 4]; 16]> = (0..lanes.len())
        .map(|l| scalar::run_vertex(p, &inputs[l], &c, fetch))
        .collect();
    let active = (1u32 << lanes.len()) - 1;
    for b in backends() {
        let out = dispatch(
            b,
            VsKernel {
                p,
                inputs: &inputs,
                consts: &c,
                fetch,
                active,
            },
        );
        for (l, sc) in scalar.iter().enumerate() {
            assert_eq!(
                bits(&out[l]),
                bits(sc),
                "lane {l}: {} differs from scalar\nsimd   {:?}\nscalar {:?}",
                b.name(),
                out[l],
                sc
            );
        }
    }
    scalar
}

/// Assembles `text` (no validation), prepares it with `bools` and runs it.
pub fn run_vs(text: &str, lanes: &[[[f32; 4]; 16]], consts: &Consts) -> Vec<[[f32; 4]; 16]> {
    let prog = program(text);
    let p = Prepared::new(&prog, ExecKey::new(&prog, &consts.bool));
    run_vs_prepared(&p, lanes, consts, &PointFetch::default())
}

/// Vertex inputs with `v0`..`vn` set from `v` and the rest zero.
pub fn vin(v: &[[f32; 4]]) -> [[f32; 4]; 16] {
    let mut out = [[0.0; 4]; 16];
    out[..v.len()].copy_from_slice(v);
    out
}

struct PsKernel<'a, F: Fetch> {
    p: &'a Prepared,
    inputs: &'a [ScalarPixelInputs; 8],
    consts: &'a Constants<'a>,
    fetch: &'a F,
    active: u32,
}

/// 8-lane pixel results in per-lane form.
type PsOut = (Vec<Vec<[f32; 4]>>, Option<[f32; 8]>, u32);

impl<F: Fetch> Kernel for PsKernel<'_, F> {
    type Output = PsOut;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> PsOut {
        let i = self.inputs;
        let inputs = PixelInputs::<S> {
            v: std::array::from_fn(|r| {
                std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| i[l].v[r][c])))
            }),
            pos: [
                s.f32s(std::array::from_fn(|l| i[l].pos[0])),
                s.f32s(std::array::from_fn(|l| i[l].pos[1])),
            ],
            face: s.f32s(std::array::from_fn(|l| i[l].face)),
        };
        let o = simd::run_pixel(
            self.p,
            s,
            &inputs,
            self.consts,
            self.fetch.lanes::<S>(),
            s.mask_from_bits(self.active),
        );
        batch_check::check_batch(
            s,
            self.p,
            &inputs,
            self.consts,
            self.fetch.lanes::<S>(),
            self.active,
        );
        (
            aos::<S>(&o.color),
            o.depth.map(|d| d.to_array()),
            o.kill.bits(),
        )
    }
}

/// Runs a prepared pixel program on two quads (8 lanes) with every
/// interpreter and backend; asserts bit equality; returns per-lane results.
pub fn run_ps_prepared(
    p: &Prepared,
    inputs: &[ScalarPixelInputs; 8],
    consts: &Consts,
    fetch: &impl Fetch,
    active: u32,
) -> Vec<ScalarPixelOutput> {
    let c = consts.view();
    let mut scalar_out = vec![ScalarPixelOutput::default(); 8];
    for q in 0..2 {
        // Quad q of the 4x2 stamp is lanes {2q, 2q + 1, 2q + 4, 2q + 5}.
        let lane = |l: usize| 2 * q + (l & 1) + 2 * (l & 2);
        let qi: [ScalarPixelInputs; 4] = std::array::from_fn(|l| inputs[lane(l)]);
        let qa: [bool; 4] = std::array::from_fn(|l| active & (1 << lane(l)) != 0);
        let r = scalar::run_quad(p, &qi, &c, fetch, qa);
        for (l, o) in r.into_iter().enumerate() {
            scalar_out[lane(l)] = o;
        }
    }
    for b in backends() {
        let (color, depth, kill) = dispatch(
            b,
            PsKernel {
                p,
                inputs,
                consts: &c,
                fetch,
                active,
            },
        );
        for (l, sc) in scalar_out.iter().enumerate() {
            assert_eq!(
                bits(&color[l]),
                bits(&sc.color),
                "lane {l}: {} colours differ from scalar",
                b.name()
            );
            assert_eq!(
                depth.map(|d| d[l].to_bits()),
                sc.depth.map(f32::to_bits),
                "lane {l}: {} depth differs",
                b.name()
            );
            assert_eq!(
                kill & (1 << l) != 0,
                sc.killed,
                "lane {l}: {} kill differs",
                b.name()
            );
        }
    }
    scalar_out
}

/// Assembles, prepares and runs a pixel program.
pub fn run_ps(
    text: &str,
    inputs: &[ScalarPixelInputs; 8],
    consts: &Consts,
    fetch: &impl Fetch,
    active: u32,
) -> Vec<ScalarPixelOutput> {
    let prog = program(text);
    let p = Prepared::new(&prog, ExecKey::new(&prog, &consts.bool));
    run_ps_prepared(&p, inputs, consts, fetch, active)
}

/// Pixel inputs for one 4x2 stamp at (x0, y0) (the quads at (x0, y0) and
/// (x0 + 2, y0); lane l is pixel (x0 + (l & 3), y0 + (l >> 2))) with `vPos`
/// set and each input slot filled by `f(slot, x, y)`.
pub fn quads(x0: f32, y0: f32, f: impl Fn(usize, f32, f32) -> [f32; 4]) -> [ScalarPixelInputs; 8] {
    std::array::from_fn(|l| {
        let x = x0 + (l & 3) as f32;
        let y = y0 + (l >> 2) as f32;
        ScalarPixelInputs {
            v: std::array::from_fn(|r| f(r, x, y)),
            pos: [x, y],
            face: 1.0,
        }
    })
}

/// Deterministic xorshift generator for the random tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A float drawn to hit the special cases often: ±0, ±Inf, NaN,
    /// denormals, exact halves, small integers, and plain values.
    pub fn special(&mut self) -> f32 {
        match self.below(16) {
            0 => 0.0,
            1 => -0.0,
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => f32::NAN,
            5 => f32::from_bits(1 + self.below(0x7F_FFFF) as u32), // denormal
            6 => -f32::from_bits(1 + self.below(0x7F_FFFF) as u32),
            7 => (self.below(9) as f32 - 4.0) * 0.5,
            8 => self.below(7) as f32 - 3.0,
            _ => (self.next() >> 40) as f32 / (1u64 << 22) as f32 - 2.0,
        }
    }
}

/// A 4x4 A8R8G8B8 texture whose texel (x, y) is R = 16·x, G = 16·y, B = 7,
/// A = 255 − x (see [`checker_texel`]).
pub fn checker_texture() -> Texture2D {
    let texels = (0..16)
        .map(|i| {
            let (x, y) = (i % 4, i / 4);
            ((255 - x) << 24) | ((16 * x) << 16) | ((16 * y) << 8) | 7
        })
        .collect();
    Texture2D {
        width: 4,
        height: 4,
        texels,
    }
}

/// Texel (x, y) of [`checker_texture`] as the sampler returns it.
pub fn checker_texel(x: u32, y: u32) -> [f32; 4] {
    [
        (16 * x) as f32 / 255.0,
        (16 * y) as f32 / 255.0,
        7.0 / 255.0,
        (255 - x) as f32 / 255.0,
    ]
}
