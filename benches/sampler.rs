//! Sampler throughput: 8-lane trilinear samples of a 1024x1024 A8R8G8B8
//! texture with a full mip chain (the S4 scene's sampling), WRAP
//! addressing, minified about 1.5x (LOD ~0.6, so every sample blends two
//! levels). Reports time per 64x64-pixel block; divide by 4096 for ns per
//! pixel. `cargo bench --bench sampler`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warp9::caps::{DriverType, FeatureLevel};
use warp9::sampler::{BoundTextures, SamplerDesc};
use warp9::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use warp9::state::TextureFilter;
use warp9::texture_fetch::{Lod, TextureFetch, TextureFetchScalar, ddx, ddy};
use warp9::{Device, DeviceDesc, Format, Pool, Usage};

const SCALE: f32 = 1.5 / 1024.0;

fn setup() -> BoundTextures {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_3],
        back_buffer: (8, 8, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap();
    let t = d
        .create_texture(
            1024,
            1024,
            0,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        )
        .unwrap();
    for l in 0..t.level_count() {
        let n = (1024usize >> l).max(1);
        let bytes: Vec<u8> = (0..n * n)
            .flat_map(|i| ((i as u32).wrapping_mul(2_654_435_761) | 0xFF00_0000).to_le_bytes())
            .collect();
        t.write_level(l, None, &bytes, n * 4).unwrap();
    }
    let desc = SamplerDesc {
        mag_filter: TextureFilter::Linear,
        min_filter: TextureFilter::Linear,
        mip_filter: TextureFilter::Linear,
        ..SamplerDesc::default()
    };
    let mut b = BoundTextures::new();
    b.bind(0, Some(&t.into()), &desc);
    b
}

/// 64x64 pixels as 512 stamps of two 2x2 quads.
struct Block<'a> {
    tex: &'a BoundTextures,
    origin: (f32, f32),
}

impl Kernel for Block<'_> {
    type Output = f32;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> f32 {
        let mut acc = s.splat(0.0);
        let lx = s.f32s([0.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 3.0]);
        let ly = s.f32s([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0]);
        let all = s.mask_from_bits(0xFF);
        for y in (0..64).step_by(2) {
            for x in (0..64).step_by(4) {
                let px = lx + s.splat(self.origin.0 + x as f32);
                let py = ly + s.splat(self.origin.1 + y as f32);
                // A slightly rotated mapping, as a textured quad in a scene would have.
                let u = (px + py * s.splat(0.125)) * s.splat(SCALE);
                let v = (py - px * s.splat(0.125)) * s.splat(SCALE);
                let z = s.splat(0.0);
                let lod = Lod::Implicit {
                    ddx: [ddx(s, u), ddx(s, v), z],
                    ddy: [ddy(s, u), ddy(s, v), z],
                };
                let c =
                    TextureFetch::<S>::sample(self.tex, s, 0, [u, v, z, s.splat(1.0)], lod, all);
                acc = acc + c[0] + c[3];
            }
        }
        acc.to_array().iter().sum()
    }
}

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
