//! Flow control: loops with aL and relative addressing, rep, break,
//! breakc, breakp, dynamic if/else diverging per lane, predication,
//! call/callnz/ret, static branches resolved per key, the
//! executed-instruction budget — on both interpreters and every backend
//! with bit equality (bytecode.md §6.3, §7.8, §7.9, §11.7).

use crate::exec_support;

use exec_support::{Consts, program, run_vs, run_vs_prepared, vin};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{ExecKey, Prepared};

fn x(v: f32) -> [f32; 4] {
    [v, 0.0, 0.0, 0.0]
}

/// Runs a vs_3_0 body per lane (inputs v0 = (x, 0, 0, 0)) and returns o0.x, o1.x.
fn run_xs(body: &str, xs: &[f32], consts: &Consts) -> Vec<(f32, f32)> {
    let text = format!("vs_3_0\n{body}\nmov o0, r0\nmov o1, r1\n");
    let lanes: Vec<_> = xs.iter().map(|&v| vin(&[x(v)])).collect();
    run_vs(&text, &lanes, consts)
        .into_iter()
        .map(|o| (o[0][0], o[1][0]))
        .collect()
}

#[test]
fn loop_al_runs_from_start_by_step() {
    let mut c = Consts::indexed();
    c.int[0] = [3, 2, 5, 0];
    let out = run_xs("loop aL, i0\nadd r0, r0, c0[aL]\nendloop", &[0.0], &c);
    assert_eq!(out[0].0, 2.0 + 7.0 + 12.0);
    // aL also indexes outputs (vs_3_0 o[aL]): aL = 1, 3, 5.
    c.int[0] = [3, 1, 2, 0];
    let text = "vs_3_0\nloop aL, i0\nmov o0[aL], c0[aL]\nendloop\n";
    let out = run_vs(text, &[vin(&[])], &c);
    let got: Vec<f32> = (0..8).map(|s| out[0][s][0]).collect();
    assert_eq!(got, [0.0, 1.0, 0.0, 3.0, 0.0, 5.0, 0.0, 0.0]);
    // Out-of-range relative output writes are dropped: aL = 14, 16, 18.
    c.int[0] = [3, 14, 2, 0];
    let out = run_vs(text, &[vin(&[])], &c);
    assert_eq!(out[0][14], [14.0; 4]);
    assert_eq!(out[0][15], [0.0; 4]);
}

#[test]
fn rep_counts_are_clamped_and_zero_skips() {
    let mut c = Consts::indexed();
    for (count, expect) in [(0, 0.0), (-5, 0.0), (1, 1.0), (300, 255.0), (255, 255.0)] {
        c.int[0] = [count, 0, 0, 0];
        let out = run_xs("rep i0\nadd r0, r0, c1\nendrep", &[0.0], &c);
        assert_eq!(out[0].0, expect, "rep count {count}");
    }
    // defi overrides i0.
    c.int[0] = [100, 0, 0, 0];
    let out = run_xs(
        "defi i0, 3, 0, 0, 0\nrep i0\nadd r0, r0, c1\nendrep",
        &[0.0],
        &c,
    );
    assert_eq!(out[0].0, 3.0);
}

#[test]
fn nested_loops_restore_al_and_rep_sees_the_enclosing_al() {
    let mut c = Consts::indexed();
    c.int[0] = [3, 0, 1, 0];
    c.int[1] = [2, 10, 1, 0];
    let body = "loop aL, i0\nloop aL, i1\nadd r0, r0, c0[aL]\nendloop\nadd r1, r1, c0[aL]\nendloop";
    let out = run_xs(body, &[0.0], &c);
    assert_eq!(out[0], (3.0 * (10.0 + 11.0), 0.0 + 1.0 + 2.0));
    c.int[0] = [2, 4, 1, 0];
    c.int[1] = [3, 0, 0, 0];
    let out = run_xs(
        "loop aL, i0\nrep i1\nadd r0, r0, c0[aL]\nendrep\nendloop",
        &[0.0],
        &c,
    );
    assert_eq!(out[0].0, 3.0 * (4.0 + 5.0));
}

#[test]
fn relative_input_reads_with_al_and_a0() {
    let mut c = Consts::indexed();
    c.int[0] = [4, 0, 1, 0];
    let text = "vs_3_0\nloop aL, i0\nadd r0, r0, v0[aL]\nendloop\nmova a0.x, v5.x\nmov r1, v0[a0.x]\nmov o0, r0\nmov o1, r1\n";
    let lanes: Vec<_> = (0..8)
        .map(|l| {
            let mut v = [[0.0f32; 4]; 16];
            for (i, r) in v.iter_mut().enumerate() {
                *r = [(i * 10 + l) as f32; 4];
            }
            v[5] = x(l as f32 * 3.0 - 4.0); // a0.x = -4, -1, 2, 5, 8, 11, 14, 17
            v
        })
        .collect();
    let out = run_vs(text, &lanes, &c);
    for (l, o) in out.iter().enumerate() {
        assert_eq!(o[0][0], (0..4).map(|i| (i * 10 + l) as f32).sum::<f32>());
        let idx = l as i32 * 3 - 4;
        let expect = if (0..16).contains(&idx) {
            if idx == 5 {
                lanes[l][5][1]
            } else {
                (idx as usize * 10 + l) as f32
            }
        } else {
            0.0
        };
        assert_eq!(o[1][1], expect, "lane {l} index {idx}");
    }
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
        // r1 counts the iterations that did not break.
        #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN lanes must take this branch.
        let full = if expect[l] == 10.0 && !(xs[l] <= 10.0) {
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
    // if on the predicate, with else.
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
fn predicated_instructions_write_per_component() {
    let c = Consts::indexed();
    let text = "vs_3_0\nmov r0, c9\nsetp_gt p0, v0, v1\n(p0) mov r0, c5\n(!p0.x) add r0.yz, r0, c2\n(p0.w) setp_lt p0.x, v0.x, c0.x\n(p0.x) mov r1, c3\nmov o0, r0\nmov o1, r1\n";
    let lanes = [
        vin(&[[1.0, 0.0, 1.0, 0.0], [0.0; 4]]),
        vin(&[[-1.0, 1.0, -1.0, 1.0], [0.0; 4]]),
    ];
    let out = run_vs(text, &lanes, &c);
    // Lane 0: p0 = (T, F, T, F): r0 = (5, 9, 5, 9); !p0.x false → no add;
    // p0.w false → p0.x stays T → r1 = 3.
    assert_eq!(out[0][0], [5.0, 9.0, 5.0, 9.0]);
    assert_eq!(out[0][1], [3.0; 4]);
    // Lane 1: p0 = (F, T, F, T): r0 = (9, 5, 9, 5), then +2 on y, z;
    // p0.w true → p0.x = (-1 < 0) = T → r1 = 3.
    assert_eq!(out[1][0], [9.0, 7.0, 11.0, 5.0]);
    assert_eq!(out[1][1], [3.0; 4]);
}

#[test]
fn call_callnz_ret_and_early_return() {
    let mut c = Consts::indexed();
    c.int[0] = [3, 1, 1, 0];
    let xs = [-1.0, 0.0, 1.0, 2.0];
    let body = "setp_gt p0.x, v0.x, c0.x\ncallnz l0, p0.x\ncall l1\nloop aL, i0\ncall l2\nendloop\nret\n\
                label l0\nadd r0, r0, c100\nret\n\
                label l1\ncall l3\nadd r1, r1, c1\nret\n\
                label l2\nadd r0, r0, c0[aL]\nret\n\
                label l3\nif_gt v0.x, c1.x\nret\nendif\nadd r1, r1, c10\nret";
    // c100 is beyond the indexed constants: reads 0; use a def instead.
    let body = format!(
        "def c60, 1000, 1000, 1000, 1000\n{}",
        body.replace("c100", "c60")
    );
    let text = format!("vs_3_0\n{}", body.replace("\nret\n\nlabel", "\nret\nlabel"));
    let text = text.replacen("ret\nlabel l0", "mov o0, r0\nmov o1, r1\nret\nlabel l0", 1);
    let lanes: Vec<_> = xs.iter().map(|&v| vin(&[x(v)])).collect();
    let out = run_vs(&text, &lanes, &c);
    for (l, o) in out.iter().enumerate() {
        let v = xs[l];
        let r0 = if v > 0.0 { 1000.0 } else { 0.0 } + 1.0 + 2.0 + 3.0;
        let r1 = if v > 1.0 { 0.0 } else { 10.0 } + 1.0;
        assert_eq!((o[0][0], o[1][0]), (r0, r1), "lane {l} ({v})");
    }
}

#[test]
fn static_branches_are_resolved_per_key() {
    let text = "vs_3_0\nif b3\nmov r0, c1\nelse\nmov r0, c2\nendif\nif !b4\nadd r0, r0, c10\nendif\ncallnz l0, b3\nmov o0, r0\nret\nlabel l0\nadd r0, r0, c20\nret\n";
    let prog = program(text);
    assert_eq!(
        warp9::internals::exec::branch_bools(&prog),
        (1 << 3) | (1 << 4)
    );
    let mut c = Consts::indexed();
    let mut lens = Vec::new();
    for (b3, b4, expect) in [
        (false, false, 12.0),
        (true, false, 31.0),
        (false, true, 2.0),
        (true, true, 21.0),
    ] {
        c.bool[3] = b3;
        c.bool[4] = b4;
        let key = ExecKey::new(&prog, &c.bool);
        let p = Prepared::new(&prog, key);
        lens.push(p.len());
        let out = run_vs_prepared(&p, &[vin(&[])], &c, &PointFetch::default());
        assert_eq!(out[0][0][0], expect, "b3 {b3} b4 {b4}");
    }
    // The resolved programs carry no branch ops: lengths differ per key.
    assert!(lens.iter().any(|&l| l != lens[0]));
    // Unused bools do not change the key; defb wins over the application.
    c.bool[7] = true;
    let k1 = ExecKey::new(&prog, &c.bool);
    c.bool[7] = false;
    assert_eq!(k1, ExecKey::new(&prog, &c.bool));
    let text = "vs_3_0\ndefb b3, true\nif b3\nmov r0, c1\nelse\nmov r0, c2\nendif\nmov o0, r0\n";
    c.bool[3] = false;
    assert_eq!(run_vs(text, &[vin(&[])], &c)[0][0][0], 1.0);
}

#[test]
fn cache_prepares_once_per_key() {
    let prog = program("vs_3_0\nif b0\nmov o0, c1\nendif\n");
    let mut cache = warp9::internals::exec::ProgramCache::new(prog);
    let a = cache.get(&[true, true]);
    let b = cache.get(&[true, false]);
    let c = cache.get(&[false]);
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert!(!std::sync::Arc::ptr_eq(&a, &c));
    assert_eq!(cache.len(), 2);
}

/// A program that branches on eight boolean constants has 256 variants:
/// walking through them keeps at most `PREPARED_VARIANTS`, and the variant
/// in use stays the same object while the cache holds it.
#[test]
fn cache_stays_bounded_over_many_bool_keys() {
    use warp9::internals::exec::PREPARED_VARIANTS;
    let mut text = String::from("vs_3_0\n");
    for b in 0..8 {
        text += &format!("if b{b}\nadd r0, r0, c{b}\nendif\n");
    }
    text += "mov o0, r0\n";
    let mut cache = warp9::internals::exec::ProgramCache::new(program(&text));
    let bools = |k: u32| (0..8).map(|b| k & (1 << b) != 0).collect::<Vec<_>>();
    for k in 0..256u32 {
        let p = cache.get(&bools(k));
        assert!(cache.len() <= PREPARED_VARIANTS, "{} variants", cache.len());
        assert!(std::sync::Arc::ptr_eq(&p, &cache.get(&bools(k))));
    }
    const { assert!(256 > PREPARED_VARIANTS, "the keys must overflow the cache") };
    assert!(!cache.is_empty());
}

#[test]
fn budget_stops_lanes_with_their_current_outputs() {
    let mut c = Consts::indexed();
    c.int[0] = [255, 0, 0, 0];
    let prog = program("vs_3_0\nrep i0\nadd r0, r0, c1\nmov o0, r0\nendrep\nmov o1, c5\n");
    let p = Prepared::new(&prog, ExecKey::default()).with_budget(100);
    let out = run_vs_prepared(&p, &[vin(&[])], &c, &PointFetch::default());
    // Each iteration counts 3 (add, mov, endrep); the lane stops after
    // the iteration that takes it over 100: 34 iterations, no o1.
    assert_eq!(out[0][0][0], 34.0);
    assert_eq!(out[0][1], [0.0; 4]);
    // Four nested 255-iteration loops (4·10^9 instructions) end quickly
    // under the default budget, identically on every interpreter.
    let prog = program(
        "vs_3_0\nrep i0\nrep i0\nrep i0\nrep i0\nadd r0, r0, c1\nmov o0, r0\nendrep\nendrep\nendrep\nendrep\n",
    );
    let p = Prepared::new(&prog, ExecKey::default());
    let t = std::time::Instant::now();
    let out = run_vs_prepared(&p, &[vin(&[]), vin(&[])], &c, &PointFetch::default());
    assert!(t.elapsed().as_secs() < 20);
    assert!(
        out[0][0][0] > 20000.0 && out[0][0][0] < 40000.0,
        "{}",
        out[0][0][0]
    );
}

#[test]
fn uniform_runtime_bool_branches_beyond_the_key() {
    // The software profile has 2048 booleans; b200 is not in the key.
    let Ok(tokens) =
        warp9::shader::assemble("vs_3_sw\nif b200\nmov o0, c1\nelse\nmov o0, c2\nendif\n")
    else {
        eprintln!("skipping: the assembler has no vs_3_sw");
        return;
    };
    let prog = warp9::shader::decode(&tokens).unwrap();
    let mut c = Consts::indexed();
    c.bool = vec![false; 256];
    for v in [false, true] {
        c.bool[200] = v;
        let p = Prepared::new(&prog, ExecKey::new(&prog, &c.bool));
        let out = run_vs_prepared(&p, &[vin(&[])], &c, &PointFetch::default());
        assert_eq!(out[0][0][0], if v { 1.0 } else { 2.0 });
    }
}
