//! Renders the benchmark scenes of shared/bench/SCENES.md (S1..S8 and
//! S5-nocull) with the peers' timing rules and output format; `S6-64` is
//! S6 drawn as 64 draws of 16,384 points (not in `all`: no peer draws it),
//! which shows what a draw costs beyond its work:
//!
//! `cargo run --release --example scenes -- [--warmup N] [--min-frames N]
//! [--min-seconds S] [--out DIR] [--no-png] [--driver warp|reference]
//! [--threads N] [--simd auto|avx2|portable] [--compare DIR [--peer NAME]]
//! [SCENE... | all]`
//!
//! Each scene prints `scene=S1 peer=warp9 ms_per_frame=... figure=...
//! unit=Mpixels/s frames=... median_ms=... min_ms=... threads=2 simd=avx2`
//! and writes its final frame to `DIR/warp9_<scene>.png`. With `--compare
//! DIR` it also prints a `compare` line: the mean absolute difference per
//! channel and the largest difference against `DIR/<peer>_<scene>.png`
//! (peer `llvmpipe` by default), and writes `|ours - peer| x 8` to
//! `out/diff_<scene>.png`.

mod compare;
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
    let mut simd = SimdChoice::Auto;
    let mut compare_dir: Option<String> = None;
    let mut peer = String::from("llvmpipe");
    let mut scenes: Vec<String> = Vec::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let usage = || -> ! {
        eprintln!(
            "usage: scenes [--warmup N] [--min-frames N] [--min-seconds S] [--out DIR] [--no-png] [--driver warp|reference] [--threads N] [--simd auto|avx2|portable] [--compare DIR] [--peer NAME] [S1..S8 S5-nocull S6-64 all]"
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
            "--compare" => compare_dir = Some(val()),
            "--peer" => peer = val(),
            "--simd" => {
                simd = match val().as_str() {
                    "auto" => SimdChoice::Auto,
                    "avx2" => SimdChoice::Avx2,
                    "portable" => SimdChoice::Portable,
                    _ => usage(),
                }
            }
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
        scenes = defs::ALL.iter().map(|s| s.to_string()).collect();
    }
    if png || compare_dir.is_some() {
        let _ = std::fs::create_dir_all(&out);
    }
    for name in scenes {
        let name = name.to_ascii_uppercase();
        let mut scene = match defs::build(&name, driver, threads, simd) {
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
        // S7's line also gives the mean frame time per draw, as the peer's.
        let per_draw = if scene.unit == "kdraws/s" {
            format!(" us_per_draw={:.3}", mean * 1e6 / scene.work)
        } else {
            String::new()
        };
        println!(
            "scene={} peer=warp9 ms_per_frame={:.3} figure={:.3} unit={} frames={} median_ms={:.3} min_ms={:.3} threads={} simd={} driver={}{per_draw}",
            scene.name,
            mean * 1e3,
            scene.figure(mean),
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
        if let Some(dir) = &compare_dir {
            report_compare(&scene, dir, &peer, &out);
        }
    }
}

/// Prints the `compare` line of `scene`'s final frame against the peer's
/// PNG and writes the difference image.
fn report_compare(scene: &defs::Scene, dir: &str, peer: &str, out: &str) {
    let path = format!("{dir}/{peer}_{}.png", scene.name);
    let d = &scene.device;
    let bb = d.back_buffer();
    let ours = d.read_surface_argb(&bb).expect("read back buffer");
    let (w, h) = (bb.desc().width, bb.desc().height);
    let theirs = match compare::load_rgb(&path) {
        Ok((pw, ph, px)) if (pw, ph) == (w, h) => px,
        Ok((pw, ph, _)) => {
            eprintln!("scenes: {path}: {pw}x{ph}, ours {w}x{h}");
            return;
        }
        Err(e) => {
            eprintln!("scenes: {e}");
            return;
        }
    };
    let r = compare::diff(&ours, &theirs, w);
    let n = (w * h) as f64;
    println!(
        "compare scene={} vs={peer} mean_abs_r={:.4} mean_abs_g={:.4} mean_abs_b={:.4} max={} over8={} ({:.3}%) over32={} ({:.3}%) worst=({},{}) ours={:06X} peer={:06X} hist(0,1,2,3-4,5-8,9-32,>32)={:?}",
        scene.name,
        r.mean[0],
        r.mean[1],
        r.mean[2],
        r.max,
        r.over[0],
        100.0 * r.over[0] as f64 / n,
        r.over[1],
        100.0 * r.over[1] as f64 / n,
        r.worst.0,
        r.worst.1,
        r.worst.2,
        r.worst.3,
        r.hist,
    );
    let diff_path = format!("{out}/diff_{}.png", scene.name);
    if let Err(e) = compare::save_diff_png(&ours, &theirs, (w, h), &diff_path) {
        eprintln!("scenes: {e}");
    }
}
