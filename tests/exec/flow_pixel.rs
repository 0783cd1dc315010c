//! Flow control in pixel programs, where the 8-lane interpreter runs a
//! whole batch of stamps at once: loops with `aL` and relative input
//! reads, `rep`, `break`/`breakc`/`breakp`, `if`/`else` nested and on the
//! predicate, predication, `call`/`callnz`/`ret` with early returns,
//! `texkill` and derivatives inside branches. Every program runs through
//! `run_ps`: the scalar oracle, the lone 8-lane run on each backend, and
//! batches of three stamps that diverge from one another
//! (`batch_check`), all bit-equal; the values are checked by hand here.

use crate::exec_support::{Consts, run_ps};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{ScalarPixelInputs, ScalarPixelOutput};

/// Every lane and both quads.
const ALL: u32 = 0xFF;

/// Runs a ps_3_0 program (`text` after the `ps_3_0` line and the `v0`
/// declaration) with lane `l`'s `v0` = (xs[l], 0, 0, 0), `xs` repeated
/// to 8 lanes.
fn run_text(text: &str, xs: &[f32], consts: &Consts) -> Vec<ScalarPixelOutput> {
    let text = format!("ps_3_0\ndcl_texcoord0 v0\n{text}");
    let inputs: [ScalarPixelInputs; 8] = std::array::from_fn(|l| {
        let mut v = [[0.0; 4]; 16];
        v[0] = [xs[l % xs.len()], 0.0, 0.0, 0.0];
        ScalarPixelInputs {
            v,
            pos: [(l & 3) as f32, (l >> 2) as f32],
            face: 1.0,
        }
    });
    run_ps(&text, &inputs, consts, &PointFetch::default(), ALL)
}

/// Runs a ps_3_0 body as [`run_text`] does and returns oC0 and oC1 per
/// lane (the body's r0, r1).
fn run_px(body: &str, xs: &[f32], consts: &Consts) -> Vec<([f32; 4], [f32; 4])> {
    run_text(&format!("{body}\nmov oC0, r0\nmov oC1, r1\n"), xs, consts)
        .into_iter()
        .map(|o| (o.color[0], o.color[1]))
        .collect()
}

/// The x components of [`run_px`]'s results.
fn run_xs(body: &str, xs: &[f32], consts: &Consts) -> Vec<(f32, f32)> {
    run_px(body, xs, consts)
        .into_iter()
        .map(|(a, b)| (a[0], b[0]))
        .collect()
}

#[test]
fn loops_with_al_index_constants_and_inputs() {
    let mut c = Consts::indexed();
    c.int[0] = [3, 2, 5, 0];
    let out = run_xs("loop aL, i0\nadd r0, r0, c0[aL]\nendloop", &[0.0], &c);
    assert!(out.iter().all(|o| o.0 == 2.0 + 7.0 + 12.0), "{out:?}");
    // v[aL]: aL = 0 reads v0 (x per lane), aL = 1, 2 read the zero inputs.
    c.int[0] = [3, 0, 1, 0];
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let out = run_xs("loop aL, i0\nadd r0, r0, v0[aL]\nendloop", &xs, &c);
    for (l, o) in out.iter().enumerate() {
        assert_eq!(o.0, xs[l], "lane {l}");
    }
}

#[test]
fn loop_counts_are_clamped_zero_skips_and_rep_nests() {
    let mut c = Consts::indexed();
    for (count, expect) in [(0, 0.0), (-5, 0.0), (1, 1.0), (300, 255.0)] {
        c.int[0] = [count, 0, 0, 0];
        let out = run_xs("rep i0\nadd r0, r0, c1\nendrep", &[0.0], &c);
        assert!(out.iter().all(|o| o.0 == expect), "rep {count}: {out:?}");
    }
    c.int[0] = [3, 0, 0, 0];
    c.int[1] = [4, 0, 0, 0];
    let out = run_xs(
        "rep i0\nrep i1\nadd r0, r0, c1\nendrep\nadd r1, r1, c2\nendrep",
        &[0.0],
        &c,
    );
    assert!(out.iter().all(|o| *o == (12.0, 6.0)), "{out:?}");
}

#[test]
fn breakc_leaves_the_loop_per_lane() {
    let mut c = Consts::indexed();
    c.int[0] = [10, 0, 0, 0];
    let xs = [0.0, 1.0, 2.5, 3.0, 7.0, 20.0, f32::NAN, -1.0];
    let out = run_xs(
        "rep i0\nadd r0, r0, c1\nbreak_ge r0.x, v0.x\nadd r1, r1, c1\nendrep",
        &xs,
        &c,
    );
    let expect = [1.0, 1.0, 3.0, 3.0, 7.0, 10.0, 10.0, 1.0];
    for (l, o) in out.iter().enumerate() {
        assert_eq!(o.0, expect[l], "lane {l}");
        // r1 counts the iterations that did not break (NaN never breaks).
        let full = if l == 5 || l == 6 {
            10.0
        } else {
            expect[l] - 1.0
        };
        assert_eq!(o.1, full, "lane {l}");
    }
}

#[test]
fn break_inside_if_else_and_breakp() {
    let mut c = Consts::indexed();
    c.int[0] = [5, 0, 0, 0];
    let xs = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 100.0];
    let out = run_xs(
        "rep i0\nif_lt r0.x, v0.x\nadd r0, r0, c1\nelse\nbreak\nendif\nadd r1, r1, c1\nendrep",
        &xs,
        &c,
    );
    for (l, o) in out.iter().enumerate() {
        let n = xs[l].min(5.0);
        assert_eq!(*o, (n, n), "lane {l}");
    }
    let out = run_xs(
        "rep i0\nsetp_ge p0.x, r0.x, v0.x\nbreakp p0.x\nadd r0, r0, c1\nendrep\nrep i0\nsetp_lt p0.y, r1.x, v0.x\nbreakp !p0.y\nadd r1, r1, c2\nendrep",
        &xs,
        &c,
    );
    for (l, o) in out.iter().enumerate() {
        let n = xs[l].min(5.0);
        let m = (xs[l] / 2.0).ceil().min(5.0) * 2.0;
        assert_eq!(*o, (n, m), "lane {l}");
    }
}

#[test]
fn dynamic_if_else_diverges_per_lane_and_nests() {
    let c = Consts::indexed();
    let xs = [-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, f32::NAN, 3.0];
    let body = "if_gt v0.x, c0.x\n  if_lt v0.x, c2.x\n    mov r0, c10\n  else\n    mov r0, c20\n  endif\n  add r1, r1, c1\nelse\n  if_eq v0.x, c0.x\n    mov r0, c30\n  endif\n  add r1, r1, c5\nendif";
    let out = run_xs(body, &xs, &c);
    for (l, o) in out.iter().enumerate() {
        let v = xs[l];
        let expect = if v > 0.0 {
            (if v < 2.0 { 10.0 } else { 20.0 }, 1.0)
        } else {
            (if v == 0.0 { 30.0 } else { 0.0 }, 5.0)
        };
        assert_eq!(*o, expect, "lane {l} ({v})");
    }
    let out = run_xs(
        "setp_ne p0.z, v0.x, c0.x\nif !p0.z\nmov r0, c7\nelse\nmov r0, c8\nendif",
        &xs,
        &c,
    );
    for (l, o) in out.iter().enumerate() {
        assert_eq!(o.0, if xs[l] != 0.0 { 8.0 } else { 7.0 }, "lane {l}");
    }
}

#[test]
fn the_branch_scene_shape_accumulates_both_sides() {
    // S8's loop: a per-lane branch inside a counted loop, masked writes of
    // partial registers (r2.x, r2.y) and a full accumulator on both sides.
    let mut c = Consts::indexed();
    c.int[0] = [4, 0, 1, 0];
    let body = "def c40, 0.5, 3, 0.25, 0\nmov r0, v0.x\nloop aL, i0\n\
                if_gt r0.x, c40.x\nmad r1, r0.x, c1, r1\nmul r0.x, r0.x, c40.x\n\
                else\nadd r2.y, c40.x, -r0.x\nmad r1, r2.y, c2, r1\nmul r0.x, r0.x, c40.y\n\
                endif\nadd r0.x, r0.x, c40.z\nendloop";
    let xs = [0.0, 0.3, 0.6, 0.9, 1.5, 4.0, -1.0, 0.5];
    let out = run_xs(body, &xs, &c);
    for (l, o) in out.iter().enumerate() {
        let (mut x, mut acc) = (xs[l], 0.0f32);
        for _ in 0..4 {
            if x > 0.5 {
                acc += x;
                x *= 0.5;
            } else {
                acc += (0.5 - x) * 2.0;
                x *= 3.0;
            }
            x += 0.25;
        }
        assert_eq!(*o, (x, acc), "lane {l} ({})", xs[l]);
    }
}

#[test]
fn predicated_instructions_write_per_component() {
    let c = Consts::indexed();
    let text = "mov r0, c9\nsetp_gt p0, v0, c0\n(p0) mov r0, c5\n(!p0.x) add r0.yz, r0, c2\n(p0.x) mov r1, c3";
    let out = run_px(text, &[1.0, -1.0], &c);
    for (l, o) in out.iter().enumerate() {
        if l % 2 == 0 {
            // p0 = (T, F, F, F): r0 = (5, 9, 9, 9), no add, r1 = 3.
            assert_eq!(*o, ([5.0, 9.0, 9.0, 9.0], [3.0; 4]), "lane {l}");
        } else {
            // p0 = (F, F, F, F): r0 = (9, 11, 11, 9), r1 untouched.
            assert_eq!(*o, ([9.0, 11.0, 11.0, 9.0], [0.0; 4]), "lane {l}");
        }
    }
}

#[test]
fn call_callnz_ret_and_early_return() {
    let mut c = Consts::indexed();
    c.int[0] = [3, 1, 1, 0];
    let xs = [-1.0, 0.0, 1.0, 2.0];
    let text = "def c60, 1000, 1000, 1000, 1000\n\
                setp_gt p0.x, v0.x, c0.x\ncallnz l0, p0.x\ncall l1\nloop aL, i0\ncall l2\nendloop\n\
                mov oC0, r0\nmov oC1, r1\nret\n\
                label l0\nadd r0, r0, c60\nret\n\
                label l1\ncall l3\nadd r1, r1, c1\nret\n\
                label l2\nadd r0, r0, c0[aL]\nret\n\
                label l3\nif_gt v0.x, c1.x\nret\nendif\nadd r1, r1, c10\nret";
    let out = run_text(text, &xs, &c);
    for (l, o) in out.iter().enumerate() {
        let o = (o.color[0][0], o.color[1][0]);
        let v = xs[l % 4];
        let r0 = if v > 0.0 { 1000.0 } else { 0.0 } + 1.0 + 2.0 + 3.0;
        let r1 = if v > 1.0 { 0.0 } else { 10.0 } + 1.0;
        assert_eq!(o, (r0, r1), "lane {l} ({v})");
    }
}

#[test]
fn texkill_and_derivatives_inside_branches() {
    let c = Consts::indexed();
    // Quad 0 (lanes 0, 1, 4, 5) has x < 2 and takes the `if` side: dsx of
    // the position is 1 there; quad 1 takes the `else` side and kills the
    // lanes whose v0.x is negative.
    let body = "if_lt vPos.x, c2.x\ndsx r0, vPos\nelse\ntexkill v0\nmov r1, c3\nendif";
    let text = format!("dcl vPos.xy\n{body}\nmov oC0, r0\nmov oC1, r1\n");
    let xs = [1.0, 1.0, 1.0, -1.0];
    let out = run_text(&text, &xs, &c);
    for (l, o) in out.iter().enumerate() {
        let (dsx, r1, killed) = if (l & 3) < 2 {
            (1.0, 0.0, false)
        } else {
            (0.0, 3.0, l & 3 == 3)
        };
        assert_eq!(o.color[0][0], dsx, "lane {l} dsx");
        assert_eq!(o.color[1][0], r1, "lane {l}");
        assert_eq!(o.killed, killed, "lane {l} texkill");
    }
}

/// The instruction budget stops the lanes still looping in the batch path
/// too, with the outputs they had, while lanes that left the loop earlier
/// keep theirs; the `if` inside diverges per lane.
#[test]
fn budget_stops_the_lanes_still_looping() {
    use crate::exec_support::{program, run_ps_prepared};
    use warp9::internals::exec::{ExecKey, Prepared};
    let mut c = Consts::indexed();
    c.int[0] = [255, 0, 0, 0];
    // The body is 8 ops with `endrep` (add, break_ge, if, add, mov, endif,
    // mov, endrep): a lane is charged 8 a pass and stops after the pass
    // that takes it over 100, the 13th (104). Lanes that break do so
    // before the budget matters.
    let text = "ps_3_0\ndcl_texcoord0 v0\nrep i0\nadd r0, r0, c1\nbreak_ge r0.x, v0.x\n\
                if_gt v0.x, c10.x\nadd r1, r1, c1\nmov oC1, r1\nendif\nmov oC0, r0\nendrep\n";
    let prog = program(text);
    let p = Prepared::new(&prog, ExecKey::new(&prog, &c.bool)).with_budget(100);
    // 1000: loops until the budget, taking the `if` (v0.x above c10 =
    // 10); 5 and 2: break in their 5th and 2nd pass, never taking it.
    let xs = [1000.0f32, 5.0, 1000.0, 2.0, 5.0, 1000.0, 2.0, 1000.0];
    let inputs: [ScalarPixelInputs; 8] = std::array::from_fn(|l| {
        let mut v = [[0.0; 4]; 16];
        v[0] = [xs[l], 0.0, 0.0, 0.0];
        ScalarPixelInputs {
            v,
            pos: [(l & 3) as f32, (l >> 2) as f32],
            face: 1.0,
        }
    });
    let out = run_ps_prepared(&p, &inputs, &c, &PointFetch::default(), ALL);
    for (l, o) in out.iter().enumerate() {
        // (oC0.x, oC1.x): r0 after the last full pass, the if-body count.
        let expect = match xs[l] {
            1000.0 => (13.0, 13.0),
            // Breaks in pass 5 (r0 = 5), after 4 full passes.
            5.0 => (4.0, 0.0),
            // Breaks in pass 2, after 1.
            _ => (1.0, 0.0),
        };
        assert_eq!((o.color[0][0], o.color[1][0]), expect, "lane {l}");
    }
}
