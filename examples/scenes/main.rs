//! Renders the benchmark scenes of shared/bench/SCENES.md (S1, S2) with the
//! peers' timing rules and output format:
//!
//! `cargo run --release --example scenes -- [--warmup N] [--min-frames N]
//! [--min-seconds S] [--out DIR] [--no-png] [--driver warp|reference]
//! [--threads N] [SCENE...]`
//!
//! Each scene prints `scene=S1 peer=warp9 ms_per_frame=... figure=...
//! unit=Mpixels/s frames=... median_ms=... min_ms=... threads=2 simd=avx2`
//! and writes its final frame to `DIR/warp9_<scene>.png`.

mod defs;

use std::time::Instant;

use warp9::{DriverType, SimdChoice};

fn main() {
    let mut warmup = 2usize;
    let mut min_frames = 10usize;
    let mut min_seconds = 3.0f64;
    let mut out = String::from("out");
    let mut png = true;
    let mut driver = DriverType::Warp;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut scenes: Vec<String> = Vec::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let usage = || -> ! {
        eprintln!(
            "usage: scenes [--warmup N] [--min-frames N] [--min-seconds S] [--out DIR] [--no-png] [--driver warp|reference] [--threads N] [S1 S2 all]"
        );
        std::process::exit(2)
    };
    while i < args.len() {
        let a = args[i].as_str();
        let mut val = || {
            i += 1;
            args.get(i).cloned().unwrap_or_else(|| usage())
        };
        match a {
            "--warmup" => warmup = val().parse().unwrap_or_else(|_| usage()),
            "--min-frames" => min_frames = val().parse().unwrap_or_else(|_| usage()),
            "--min-seconds" => min_seconds = val().parse().unwrap_or_else(|_| usage()),
            "--out" => out = val(),
            "--no-png" => png = false,
            "--threads" => threads = val().parse().unwrap_or_else(|_| usage()),
            "--driver" => {
                driver = match val().as_str() {
                    "warp" => DriverType::Warp,
                    "reference" => DriverType::Reference,
                    _ => usage(),
                }
            }
            s if s.starts_with('-') => usage(),
            s => scenes.push(s.to_string()),
        }
        i += 1;
    }
    if scenes.is_empty() || scenes.iter().any(|s| s.eq_ignore_ascii_case("all")) {
        scenes = vec!["S1".into(), "S2".into()];
    }
    if png {
        let _ = std::fs::create_dir_all(&out);
    }
    for name in scenes {
        let name = name.to_ascii_uppercase();
        let mut scene = match defs::build(&name, driver, threads, SimdChoice::Auto) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("scenes: {name}: {e}");
                std::process::exit(1);
            }
        };
        for _ in 0..warmup {
            scene.frame().expect("frame");
        }
        let mut times = Vec::new();
        let mut total = 0.0;
        while times.len() < min_frames || total < min_seconds {
            let t = Instant::now();
            scene.frame().expect("frame");
            let dt = t.elapsed().as_secs_f64();
            times.push(dt);
            total += dt;
        }
        let mean = total / times.len() as f64;
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let median = if n % 2 == 1 {
            times[n / 2]
        } else {
            0.5 * (times[n / 2 - 1] + times[n / 2])
        };
        let simd = match scene.device.simd_backend() {
            SimdChoice::Avx2 => "avx2",
            _ => "portable",
        };
        println!(
            "scene={} peer=warp9 ms_per_frame={:.3} figure={:.3} unit={} frames={} median_ms={:.3} min_ms={:.3} threads={} simd={} driver={}",
            scene.name,
            mean * 1e3,
            scene.work / mean / 1e6,
            scene.unit,
            n,
            median * 1e3,
            times[0] * 1e3,
            scene.device.thread_count(),
            simd,
            if driver == DriverType::Reference {
                "reference"
            } else {
                "warp"
            },
        );
        if png {
            let path = format!("{out}/warp9_{}.png", scene.name);
            let bb = scene.device.back_buffer();
            if let Err(e) = scene.device.save_surface_png(&bb, &path) {
                eprintln!("scenes: {path}: {e}");
            }
        }
    }
}
