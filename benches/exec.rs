//! Shader interpreter benches. `s3_alu`: the S3 scene's pixel shader
//! (shared bench/SCENES.md: 64 arithmetic instructions, mad/dp3/mad/frc
//! x16, on the interpolated colour) over a 16x16 block = 32 batches of
//! 8 lanes per iteration; throughput is in pixels, so ns per pixel =
//! time / 256. Run: `cargo bench --bench exec`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{
    Constants, ExecKey, Executor, PixelInputs, Prepared, ScalarPixelInputs, scalar,
};
use warp9::internals::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use warp9::shader::{assemble, decode};

/// The S3 program: r0 = colour; 16 x (mad, dp3, mad, frc); oC0 = r0.
fn s3_source() -> String {
    let mut s = String::from(
        "ps_3_0\ndef c0, 1.01, 0.99, 1.02, 0.98\ndef c1, 0.01, 0.02, 0.03, 0.04\ndef c2, 0.3, 0.59, 0.11, 0\ndcl_color0 v0\nmov r0, v0\n",
    );
    for _ in 0..16 {
        s.push_str("mad r1, r0, c0, c1\ndp3 r2, r1, c2\nmad r0, r2, r1, r0\nfrc r0, r0\n");
    }
    s.push_str("mov oC0, r0\n");
    s
}

const BLOCK: usize = 16;
const BATCHES: usize = BLOCK * BLOCK / 8;

struct S3<'a> {
    prog: &'a Prepared,
    colours: &'a [[[f32; 8]; 4]; BATCHES],
    fetch: &'a PointFetch,
}

impl Kernel for S3<'_> {
    type Output = f32;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> f32 {
        let consts = Constants::default();
        let z = s.splat(0.0);
        let mut acc = z;
        let mut ex = Executor::new(self.prog, s, &consts, self.fetch);
        for c in self.colours {
            let mut v = [[z; 4]; 16];
            v[0] = c.map(|a| s.f32s(a));
            let inputs = PixelInputs::<S> {
                v,
                pos: [z, z],
                face: s.splat(1.0),
            };
            let out = ex.run_pixel(&inputs, s.mask_from_bits(0xFF));
            acc = acc + out.color[0][0];
        }
        acc.to_array()[0]
    }
}

fn bench(c: &mut Criterion) {
    let program = decode(&assemble(&s3_source()).expect("assemble")).expect("decode");
    let prog = Prepared::new(&program, ExecKey::new(&program, &[]));
    let fetch = PointFetch::default();
    let colours: [[[f32; 8]; 4]; BATCHES] = std::array::from_fn(|b| {
        std::array::from_fn(|ch| std::array::from_fn(|l| ((b * 8 + l) * 4 + ch) as f32 / 1024.0))
    });
    let mut g = c.benchmark_group("s3_alu");
    g.throughput(Throughput::Elements((BLOCK * BLOCK) as u64));
    for want_avx2 in [false, true] {
        let backend = Backend::new(want_avx2);
        if want_avx2 && backend == Backend::new(false) {
            continue;
        }
        g.bench_function(format!("simd_{}", backend.name()), |b| {
            b.iter(|| {
                dispatch(
                    backend,
                    S3 {
                        prog: &prog,
                        colours: black_box(&colours),
                        fetch: &fetch,
                    },
                )
            })
        });
    }
    g.bench_function("scalar", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for col in black_box(&colours) {
                for q in 0..2 {
                    let inputs: [ScalarPixelInputs; 4] = std::array::from_fn(|l| {
                        let mut i = ScalarPixelInputs::default();
                        i.v[0] = std::array::from_fn(|ch| col[ch][q * 4 + l]);
                        i
                    });
                    let o =
                        scalar::run_quad(&prog, &inputs, &Constants::default(), &fetch, [true; 4]);
                    acc += o[0].color[0][0];
                }
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
