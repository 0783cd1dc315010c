//! A fixed amount of the `benches/sampler.rs` work, for instruction counting:
//! `valgrind --tool=callgrind --toggle-collect='*sample_blocks*'
//! target/release/examples/sampler_count [portable|avx2]` counts 16 blocks
//! of 64x64 trilinear samples (65,536 pixels; divide by 65,536 for
//! instructions per pixel). Prints a checksum of the samples; with a second
//! argument `time`, also the fastest of 300 timed runs in ns per pixel.

use std::hint::black_box;
use warp9::caps::{DriverType, FeatureLevel};
use warp9::sampler::{BoundTextures, SamplerDesc};
use warp9::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use warp9::state::TextureFilter;
use warp9::texture_fetch::{Lod, TextureFetch, ddx, ddy};
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

/// 64x64 pixels as 512 stamps of two 2x2 quads (as in the bench).
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
                let u = (px + py * s.splat(0.125)) * s.splat(SCALE);
                let v = (py - px * s.splat(0.125)) * s.splat(SCALE);
                let z = s.splat(0.0);
                let lod = Lod::Implicit {
                    ddx: [ddx(s, u), ddx(s, v), z],
                    ddy: [ddy(s, u), ddy(s, v), z],
                };
                let c =
                    TextureFetch::<S>::sample(self.tex, s, 0, [u, v, z, s.splat(1.0)], lod, all);
                acc = acc + c[0] + c[1] + c[2] + c[3];
            }
        }
        acc.to_array().iter().sum()
    }
}

#[inline(never)]
fn sample_blocks(tex: &BoundTextures, backend: Backend) -> f32 {
    let mut sum = 0.0;
    let mut o = 0.0f32;
    for _ in 0..16 {
        o = (o + 61.0) % 900.0;
        sum += dispatch(
            backend,
            Block {
                tex,
                origin: (o, o * 0.5),
            },
        );
    }
    sum
}

fn main() {
    let want_avx2 = std::env::args().nth(1).as_deref() != Some("portable");
    let backend = Backend::new(want_avx2);
    let tex = setup();
    let sum = black_box(sample_blocks(&tex, backend));
    println!("{} {sum}", backend.name());
    // `sampler_count <backend> time`: the fastest of 300 runs (robust on a loaded machine).
    if std::env::args().nth(2).as_deref() == Some("time") {
        let mut best = f64::MAX;
        for _ in 0..300 {
            let t = std::time::Instant::now();
            black_box(sample_blocks(&tex, backend));
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("min {:.2} ns/pixel", best * 1e9 / 65536.0);
    }
}
