//! A fixed amount of the `benches/sampler.rs` work, for instruction counting:
//! `valgrind --tool=callgrind --toggle-collect='*sample_blocks*'
//! target/release/examples/sampler_count [portable|avx2]` counts 16 blocks
//! of 64x64 trilinear samples (65,536 pixels; divide by 65,536 for
//! instructions per pixel). Prints a checksum of the samples; with a second
//! argument `time`, also the fastest of 300 timed runs in ns per pixel.

use std::hint::black_box;
use warp9::internals::sampler::BoundTextures;
use warp9::internals::simd::{Backend, dispatch};

#[path = "common/sampler_block.rs"]
mod sampler_block;
use sampler_block::{Block, setup};

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
