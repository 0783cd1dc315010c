//! Sampler throughput: 8-lane trilinear samples of a 1024x1024 A8R8G8B8
//! texture with a full mip chain (the S4 scene's sampling), WRAP
//! addressing, minified about 1.5x (LOD ~0.6, so every sample blends two
//! levels). Reports time per 64x64-pixel block; divide by 4096 for ns per
//! pixel. `cargo bench --bench sampler`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warp9::internals::simd::{Backend, dispatch};
use warp9::internals::texture_fetch::{Lod, TextureFetchScalar};

#[path = "../examples/common/sampler_block.rs"]
mod sampler_block;
use sampler_block::{Block, SCALE, setup};

fn bench(c: &mut Criterion) {
    let tex = setup();
    let mut g = c.benchmark_group("trilinear_1024_argb8_block64x64");
    for (name, backend) in [
        ("portable", Backend::new(false)),
        ("avx2", Backend::new(true)),
    ] {
        if backend.name() != name {
            continue;
        }
        let mut o = 0.0f32;
        g.bench_function(name, |b| {
            b.iter(|| {
                o = (o + 61.0) % 900.0;
                black_box(dispatch(
                    backend,
                    Block {
                        tex: &tex,
                        origin: (o, o * 0.5),
                    },
                ))
            })
        });
    }
    g.bench_function("reference", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for y in 0..64 {
                for x in 0..64 {
                    let (px, py) = (x as f32, y as f32);
                    let u = (px + py * 0.125) * SCALE;
                    let v = (py - px * 0.125) * SCALE;
                    let lod = Lod::Implicit {
                        ddx: [SCALE, -0.125 * SCALE, 0.0],
                        ddy: [0.125 * SCALE, SCALE, 0.0],
                    };
                    acc += TextureFetchScalar::sample(&tex, 0, [u, v, 0.0, 1.0], lod)[0];
                }
            }
            black_box(acc)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
