//! The batched pixel interpreter against lone runs, shared by the
//! interpreter tests (`tests/exec/exec_support.rs`) and the `exec` fuzz target.

use warp9::internals::exec::{Constants, PixelInputs, Prepared, simd};
use warp9::internals::simd::{FloatV, MaskV, Simd};
use warp9::internals::texture_fetch::TextureFetch;

/// Runs `inputs` as stamp 1 of a batch of 3 (the other stamps get other
/// inputs and other masks, so that branches and loops diverge between the
/// stamps of the batch), twice on one executor, and asserts that the lanes
/// of each stamp's active quads equal a lone run of that stamp with those
/// quads active (the rasterizer's masks are whole quads; the batch may
/// compute other lanes).
pub fn check_batch<S: Simd>(
    s: S,
    p: &Prepared,
    inputs: &PixelInputs<S>,
    consts: &Constants<'_>,
    fetch: &dyn TextureFetch<S>,
    active: u32,
) {
    let whole = |bits: u32| {
        let quad = |q: u32| if bits & q != 0 { q } else { 0 };
        quad(0x33) | quad(0xCC)
    };
    let mut ex = simd::Executor::new(p, s, consts, fetch);
    let z = s.splat(0.0);
    let other = |k: usize| PixelInputs::<S> {
        v: inputs
            .v
            .map(|r| r.map(|x| x * s.splat(k as f32 + 2.0) + s.splat(0.25))),
        ..*inputs
    };
    let mut pos = [[z; 2]; simd::BATCH];
    let mut face = [z; simd::BATCH];
    let mut act = [s.mask_from_bits(0); simd::BATCH];
    for round in 0..2 {
        let stamp_inputs: [PixelInputs<S>; 3] =
            std::array::from_fn(|k| if k == 1 { *inputs } else { other(k + round) });
        // Stamp 1 runs the caller's quads; stamp 0 every lane; stamp 2 one
        // quad in the first round and both in the second.
        let quads = [0xFF, whole(active), if round == 0 { 0xCC } else { 0xFF }];
        for k in 0..3 {
            ex.batch_inputs_mut(k).copy_from_slice(&stamp_inputs[k].v);
            pos[k] = inputs.pos;
            face[k] = inputs.face;
            act[k] = s.mask_from_bits(quads[k]);
        }
        let mut got = [None; 3];
        ex.run_pixel_batch(3, &pos, &face, &act, |k, color, depth, kill| {
            got[k] = Some((*color, depth, kill));
        });
        for k in 0..3 {
            let (color, depth, kill) = got[k].expect("every stamp of the batch is delivered");
            let lone = simd::run_pixel(
                p,
                s,
                &stamp_inputs[k],
                consts,
                fetch,
                s.mask_from_bits(quads[k]),
            );
            for l in (0..8).filter(|l| quads[k] & (1 << l) != 0) {
                for (t, (got_t, lone_t)) in color.iter().zip(&lone.color).enumerate() {
                    for (c, (g, o)) in got_t.iter().zip(lone_t).enumerate() {
                        let (a, b) = (g.to_array()[l], o.to_array()[l]);
                        assert_eq!(
                            a.to_bits(),
                            b.to_bits(),
                            "batch stamp {k} lane {l} oC{t}[{c}]: {a} vs {b}"
                        );
                    }
                }
                assert_eq!(
                    depth.map(|d| d.to_array()[l].to_bits()),
                    lone.depth.map(|d| d.to_array()[l].to_bits()),
                    "batch stamp {k} lane {l} depth"
                );
            }
            assert_eq!(
                kill.bits() & quads[k],
                lone.kill.bits() & quads[k],
                "batch stamp {k} kill"
            );
        }
    }
}
