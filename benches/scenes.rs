//! Criterion benches of the SCENES.md scenes (S1..S8 and S5-nocull), one
//! frame (clear + draws) per iteration on the Warp driver.

use criterion::{Criterion, criterion_group, criterion_main};
use warp9::{DriverType, SimdChoice};

#[path = "../examples/scenes/defs/mod.rs"]
mod defs;

fn scenes(c: &mut Criterion) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut g = c.benchmark_group("scenes");
    g.sample_size(10);
    for name in defs::ALL {
        let mut scene =
            defs::build(name, DriverType::Warp, threads, SimdChoice::Auto).expect("scene");
        g.bench_function(name, |b| b.iter(|| scene.frame().expect("frame")));
    }
    g.finish();
}

criterion_group!(benches, scenes);
criterion_main!(benches);
