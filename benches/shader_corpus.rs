//! Decoding and validating every program of the fxc conformance set
//! (`../shared/conformance/fxc`, read at run time; the bench says so and
//! does nothing when it is absent). Issue 4 asks for under one second in
//! release mode for the whole set.

use criterion::{Criterion, criterion_group, criterion_main};
use warp9::caps::{Caps, FeatureLevel};

fn load_corpus() -> Vec<Vec<u32>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/fxc");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "shader_corpus: {} is absent; nothing to measure",
            dir.display()
        );
        return Vec::new();
    };
    let mut programs: Vec<Vec<u32>> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|b| b.len() % 4 == 0)
        .map(|b| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect();
    programs.sort();
    programs
}

fn decode_and_validate(c: &mut Criterion) {
    let programs = load_corpus();
    if programs.is_empty() {
        return;
    }
    let levels: Vec<(FeatureLevel, warp9::shader::ShaderLimits)> = FeatureLevel::SUPPORTED
        .iter()
        .map(|&l| {
            (
                l,
                Caps::for_level(l)
                    .expect("supported")
                    .shader_limits(l, false),
            )
        })
        .collect();
    let mut group = c.benchmark_group("fxc_corpus");
    group.sample_size(20);
    group.bench_function(
        format!("decode_validate_lowest_level_{}_programs", programs.len()),
        |b| {
            b.iter(|| {
                let mut valid = 0usize;
                for tokens in &programs {
                    if let Ok(program) = warp9::shader::decode(tokens) {
                        // The lowest level that accepts it, as the conformance test finds it.
                        if levels
                            .iter()
                            .any(|(_, limits)| warp9::shader::validate(&program, limits).is_ok())
                        {
                            valid += 1;
                        }
                    }
                }
                valid
            })
        },
    );
    group.finish();
}

criterion_group!(benches, decode_and_validate);
criterion_main!(benches);
