//! The batched pixel interpreter against lone runs, shared by the
//! interpreter tests (`tests/exec/exec_support.rs`) and the `exec` fuzz target.

use warp9::internals::exec::{Constants, PixelInputs, Prepared, simd};
use warp9::internals::simd::{FloatV, MaskV, Simd};
use warp9::internals::texture_fetch::TextureFetch;

/// Runs `inputs` as stamp 1 of a batch of 3 (the other stamps get other
/// inputs), twice on one executor, and asserts that the lanes of the
/// quads of `active` equal a lone run with those quads active (the
/// rasterizer's masks are whole quads; the batch may compute other lanes).
pub fn check_batch<S: Simd>(
    s: S,
    p: &Prepared,
    inputs: &PixelInputs<S>,
    consts: &Constants<'_>,
    fetch: &dyn TextureFetch<S>,
    active: u32,
) {
    let quads =
        if active & 0x33 != 0 { 0x33 } else { 0 } | if active & 0xCC != 0 { 0xCC } else { 0 };
    let lone = simd::run_pixel(p, s, inputs, consts, fetch, s.mask_from_bits(quads));
    let mut ex = simd::Executor::new(p, s, consts, fetch);
    let z = s.splat(0.0);
    let other = |k: usize| {
        inputs
            .v
            .map(|r| r.map(|x| x * s.splat(k as f32 + 2.0) + s.splat(0.25)))
    };
    let mut pos = [[z; 2]; simd::BATCH];
    let mut face = [z; simd::BATCH];
    let mut act = [s.mask_from_bits(0xFF); simd::BATCH];
    for round in 0..2 {
        for k in 0..3 {
            let v = if k == 1 { inputs.v } else { other(k + round) };
            ex.batch_inputs_mut(k).copy_from_slice(&v);
            pos[k] = inputs.pos;
            face[k] = inputs.face;
        }
        act[1] = s.mask_from_bits(quads);
        let mut got = lone;
        got.kill = s.mask_from_bits(0);
        let mut seen = 0;
        ex.run_pixel_batch(3, &pos, &face, &act, |k, color, depth, kill| {
            seen |= 1 << k;
            if k == 1 {
                got.color = *color;
                got.depth = depth;
                got.kill = kill;
            }
        });
        assert_eq!(seen, 0b111, "every stamp of the batch is delivered");
        let got = &got;
        for l in (0..8).filter(|l| quads & (1 << l) != 0) {
            for t in 0..4 {
                for c in 0..4 {
                    let (a, b) = (
                        got.color[t][c].to_array()[l],
                        lone.color[t][c].to_array()[l],
                    );
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "batch lane {l} oC{t}[{c}]: {a} vs {b}"
                    );
                }
            }
            assert_eq!(
                got.depth.map(|d| d.to_array()[l].to_bits()),
                lone.depth.map(|d| d.to_array()[l].to_bits()),
                "batch lane {l} depth"
            );
        }
        assert_eq!(
            got.kill.bits() & quads,
            lone.kill.bits() & quads,
            "batch kill"
        );
    }
}
