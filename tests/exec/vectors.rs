//! bytecode.md §11 programs executed (§11.1–§11.4 listings with chosen
//! inputs and hand-computed outputs) and the §11.7 execution-vector table
//! row by row, on the scalar interpreter and every SIMD backend.

use crate::exec_support;

use exec_support::{Consts, quads, run_ps_prepared, run_vs, run_vs_prepared, valid_program, vin};
use warp9::internals::exec::point_fetch::{PointFetch, Texture2D};
use warp9::internals::exec::{ExecKey, Prepared, regs};

const INF: f32 = f32::INFINITY;

fn one_texel(slot: usize, argb: u32, f: &mut PointFetch) {
    f.bind(
        slot,
        Texture2D {
            width: 1,
            height: 1,
            texels: vec![argb],
        },
    );
}

fn unorm(argb: u32) -> [f32; 4] {
    let c = |s: u32| ((argb >> s) & 0xFF) as f32 / 255.0;
    [c(16), c(8), c(0), c(24)]
}

#[test]
fn listing_11_1_vs_2_0_light_relative_rep() {
    let p = valid_program(
        "vs_2_0\ndef c8, 0.0, 1.0, 0.5, 0.0\ndcl_position v0\ndcl_normal v1\ndcl_texcoord0 v2\n\
         dp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\n\
         dp3 r0.x, v1, c4\nmax r0.x, r0.x, c8.x\nmul r1, r0.x, c5\nadd oD0, r1, c6\n\
         mova a0.x, v2.z\nmov oT0.xy, v2\nmov oT1, -c10[a0.x]\nrep i0\nadd r1, r1, c7\nendrep\nmov oT2, r1\n",
    );
    let mut c = Consts::indexed();
    c.float[0] = [1.0, 0.0, 0.0, 0.0];
    c.float[1] = [0.0, 1.0, 0.0, 0.0];
    c.float[2] = [0.0, 0.0, 1.0, 0.0];
    c.float[3] = [0.0, 0.0, 0.0, 1.0];
    c.float[4] = [0.0, 0.0, 1.0, 0.0];
    c.float[5] = [0.5, 0.25, 0.125, 1.0];
    c.float[6] = [0.25, 0.5, 1.0, 0.5];
    c.float[7] = [1.0, 2.0, 3.0, 4.0];
    c.float[8] = [99.0; 4]; // overridden by the def
    c.int[0] = [3, 0, 0, 0];
    let lanes = [
        vin(&[
            [1.0, 2.0, 3.0, 1.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.25, 0.75, 1.6, 0.0],
        ]),
        vin(&[
            [4.0, 5.0, 6.0, 1.0],
            [0.0, 0.0, -1.0, 0.0],
            [0.5, 0.5, -1.5, 0.0],
        ]),
    ];
    let pr = Prepared::new(&p, ExecKey::default());
    let out = run_vs_prepared(&pr, &lanes, &c, &PointFetch::default());
    let (pos, d0, t0) = (
        regs::OUT_POS as usize,
        regs::OUT_D0 as usize,
        regs::OUT_T0 as usize,
    );
    assert_eq!(out[0][pos], [1.0, 2.0, 3.0, 1.0]);
    assert_eq!(out[0][d0], [0.75, 0.75, 1.0, 1.0]); // saturated
    assert_eq!(out[0][t0], [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(out[0][t0 + 1], [-12.0; 4]); // a0.x = round(1.6) = 2 → c12
    assert_eq!(out[0][t0 + 2], [3.5, 6.25, 9.125, 13.0]);
    assert_eq!(out[1][pos], [4.0, 5.0, 6.0, 1.0]);
    assert_eq!(out[1][d0], [0.25, 0.5, 1.0, 0.5]);
    // a0.x = round(-1.5) = -2 → c8, whose def value wins: -(0, 1, 0.5, 0).
    assert_eq!(
        exec_support::bits(&[out[1][t0 + 1]]),
        exec_support::bits(&[[-0.0, -1.0, -0.5, -0.0]])
    );
    assert_eq!(out[1][t0 + 2], [3.0, 6.0, 9.0, 12.0]);
    // Unwritten legacy outputs keep their defaults (oD1 = 0).
    assert_eq!(out[0][d0 + 1], [0.0; 4]);
}

#[test]
fn listing_11_2_ps_2_0_lrp_cmp() {
    let p = valid_program(
        "ps_2_0\ndef c0, 0.5, 0.0, 1.0, 2.0\ndcl t0.xy\ndcl t1.xyz\ndcl v0\ndcl_2d s0\ndcl_cube s1\n\
         texld r0, t0, s0\ntexld r1, t1, s1\nmul r0, r0, v0\nlrp_sat r0, c0.x, r0, r1\n\
         cmp r0, -r0.w, c0.y, r0\nmov oC0, r0\n",
    );
    let mut f = PointFetch::default();
    one_texel(0, 0xFF80_4020, &mut f);
    one_texel(1, 0x00FF_FFFF, &mut f);
    let inputs = quads(0.0, 0.0, |slot, x, _| match slot {
        0 if x == 1.0 => [1.0, 1.0, 1.0, 0.0],
        0 => [1.0; 4],
        _ => [0.5; 4],
    });
    let pr = Prepared::new(&p, ExecKey::default());
    let out = run_ps_prepared(&pr, &inputs, &Consts::default(), &f, 0xFF);
    let t0 = unorm(0xFF80_4020);
    for (l, o) in out.iter().enumerate() {
        let vw = inputs[l].v[0][3];
        let r0: [f32; 4] = std::array::from_fn(|c| t0[c] * if c == 3 { vw } else { 1.0 });
        let r1 = [1.0, 1.0, 1.0, 0.0];
        let lrp: [f32; 4] =
            std::array::from_fn(|c| (r1[c] + 0.5 * (r0[c] - r1[c])).clamp(0.0, 1.0));
        let expect = if -lrp[3] >= 0.0 { [0.0; 4] } else { lrp };
        assert_eq!(o.color[0], expect, "lane {l}");
    }
    assert_eq!(out[1].color[0], [0.0; 4]);
    assert_ne!(out[0].color[0], [0.0; 4]);
}

#[test]
fn listing_11_3_vs_3_0_loop_al() {
    let p = valid_program(
        "vs_3_0\ndef c8, 0.0, 0.0, 0.0, 0.0\ndefi i0, 4, 0, 1, 0\ndcl_position v0\ndcl_texcoord0 v1\n\
         dcl_position o0\ndcl_texcoord0 o1.xy\ndcl_color0 o2\nm4x4 o0, v0, c0\nmov o1.xy, v1\nmov r0, c8\n\
         loop aL, i0\nadd r0, r0, c4[aL]\nendloop\nmov_sat o2, r0\n",
    );
    let mut c = Consts::indexed();
    for i in 0..4 {
        c.float[i] = std::array::from_fn(|k| if k == i { 2.0 } else { 0.0 });
    }
    c.float[4] = [0.25, 0.0, 0.0, 0.0];
    c.float[5] = [0.25, 0.5, 0.0, 0.0];
    c.float[6] = [0.0, 0.25, 1.0, 0.0];
    c.float[7] = [0.0, 0.0, 1.0, -1.0];
    let pr = Prepared::new(&p, ExecKey::default());
    let out = run_vs_prepared(
        &pr,
        &[vin(&[[1.0, 2.0, 3.0, 4.0], [0.5, 0.25, 9.0, 9.0]])],
        &c,
        &PointFetch::default(),
    );
    assert_eq!(out[0][0], [2.0, 4.0, 6.0, 8.0]);
    assert_eq!(out[0][1], [0.5, 0.25, 0.0, 0.0]);
    assert_eq!(out[0][2], [0.5, 0.75, 1.0, 0.0]);
    let layout = pr.outputs();
    assert_eq!(layout.position, Some(0));
    assert_eq!(layout.varyings.len(), 3);
}

#[test]
fn listing_11_4_ps_3_0_vface_setp_predication_dynamic_if() {
    let p = valid_program(
        "ps_3_0\ndef c0, 0.0, 0.5, 1.0, 0.0\ndcl_texcoord0 v0.xy\ndcl_color0 v1\ndcl vFace\ndcl_2d s0\n\
         texld r0, v0, s0\nsetp_lt p0.x, vFace, c0.x\n(p0.x) mul r0.xyz, r0, c0.y\n\
         if_gt v1.w, c0.y\nmul r0.w, r0.w, c0.y\nendif\nmul oC0, r0, v1\n",
    );
    let mut f = PointFetch::default();
    one_texel(0, 0x8040_2010, &mut f);
    let mut inputs = quads(0.0, 0.0, |slot, x, y| match slot {
        1 => [1.0, 0.5, 0.25, if x + y >= 1.0 { 1.0 } else { 0.25 }],
        _ => [0.0; 4],
    });
    for (l, i) in inputs.iter_mut().enumerate() {
        i.face = if l % 2 == 0 { 1.0 } else { -1.0 };
    }
    let pr = Prepared::new(&p, ExecKey::default());
    let out = run_ps_prepared(&pr, &inputs, &Consts::default(), &f, 0xFF);
    let t = unorm(0x8040_2010);
    for (l, o) in out.iter().enumerate() {
        let v1 = inputs[l].v[1];
        let mut r0 = t;
        if inputs[l].face < 0.0 {
            for c in r0.iter_mut().take(3) {
                *c *= 0.5;
            }
        }
        if v1[3] > 0.5 {
            r0[3] *= 0.5;
        }
        let expect: [f32; 4] = std::array::from_fn(|c| r0[c] * v1[c]);
        assert_eq!(o.color[0], expect, "lane {l}");
    }
}

/// Runs `body` with uniform constants `c` and returns output slot `slot`.
fn row(profile: &str, body: &str, c: &[[f32; 4]], out: &str, slot: usize) -> [f32; 4] {
    let mut k = Consts::indexed();
    k.float[..c.len()].copy_from_slice(c);
    let text = format!("{profile}\n{body}\nmov {out}, r0\n");
    run_vs(&text, &[vin(&[])], &k)[0][slot]
}

fn vs3(body: &str, c: &[[f32; 4]]) -> [f32; 4] {
    row("vs_3_0", &format!("mov r0, c9\n{body}"), c, "o0", 0)
}

#[test]
fn execution_vectors_11_7() {
    let z = [0.0f32; 4];
    assert_eq!(vs3("rcp r0, c0.x", &[z]), [INF; 4]);
    assert_eq!(vs3("rcp r0, c0.x", &[[-0.0, 0.0, 0.0, 0.0]]), [-INF; 4]);
    assert_eq!(vs3("rsq r0, c0.x", &[[-4.0, 0.0, 0.0, 0.0]]), [0.5; 4]);
    assert_eq!(vs3("log r0, c0.x", &[z]), [-INF; 4]);
    assert_eq!(vs3("log r0, c0.x", &[[-8.0, 0.0, 0.0, 0.0]]), [3.0; 4]);
    assert_eq!(
        vs3("pow r0, c0.x, c0.y", &[[-2.0, 3.0, 0.0, 0.0]]),
        [8.0; 4]
    );
    assert_eq!(vs3("pow r0, c0.x, c0.y", &[z]), [1.0; 4]);
    assert_eq!(
        vs3("frc r0, c0", &[[1.25, -1.25, 0.0, -0.0]]),
        [0.25, 0.75, 0.0, 0.0]
    );
    assert_eq!(
        vs3("nrm r0, c0", &[[3.0, 0.0, 4.0, 10.0]]),
        [0.6, 0.0, 0.8, 2.0]
    );
    assert_eq!(
        vs3("lit r0, c0", &[[0.5, 0.25, 0.0, 2.0]]),
        [1.0, 0.5, 0.0625, 1.0]
    );
    assert_eq!(
        vs3("lit r0, c0", &[[-0.5, 0.25, 0.0, 2.0]]),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        vs3("lit r0, c0", &[[0.5, 0.0, 0.0, 0.0]]),
        [1.0, 0.5, 0.0, 1.0]
    );
    assert_eq!(
        vs3(
            "dst r0, c0, c1",
            &[[0.0, 4.0, 4.0, 0.0], [0.0, 0.5, 0.0, 0.5]]
        ),
        [1.0, 2.0, 4.0, 0.5]
    );
    let e = row("vs_1_1", "expp r0, c0.x", &[[2.5, 0.0, 0.0, 0.0]], "oT0", 5);
    assert_eq!(e[..2], [4.0, 0.5]);
    assert!((e[2] - 5.656854).abs() < 1e-6 && e[3] == 1.0);
    assert_eq!(
        exec_support::bits(&[vs3("sgn r0, c0", &[[-3.0, 0.0, 2.0, -0.0]])]),
        exec_support::bits(&[[-1.0, 0.0, 1.0, 0.0]])
    );
    let cmp = row(
        "ps_3_0",
        "cmp r0, c0, c1, c2",
        &[[-0.6, 0.6, 0.0, -0.0], [0.0; 4], [1.0; 4]],
        "oC0",
        0,
    );
    assert_eq!(cmp, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        vs3(
            "crs r0.xyz, c0, c1",
            &[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
        ),
        [0.0, 0.0, 1.0, 9.0]
    );
    for (v, a0) in [(1.5, 2.0), (-1.5, -2.0), (1.4, 1.0)] {
        let r = vs3("mova a0.x, c0.x\nmov r0, c20[a0.x]", &[[v, 0.0, 0.0, 0.0]]);
        assert_eq!(r, [20.0 + a0; 4], "mova {v}");
    }
    for (v, a0) in [(1.7, 1.0), (-0.3, -1.0)] {
        let r = row(
            "vs_1_1",
            "mov a0.x, c0.x\nmov r0, c[a0.x + 20]",
            &[[v, 0.0, 0.0, 0.0]],
            "oT0",
            5,
        );
        assert_eq!(r, [20.0 + a0; 4], "vs_1_1 mov a0.x {v}");
    }
    // loop aL, i0 with i0 = (3, 2, 5, 0): the body sees aL = 2, 7, 12.
    let mut k = Consts::indexed();
    k.int[0] = [3, 2, 5, 0];
    let out = run_vs(
        "vs_3_0\nloop aL, i0\nmov o0[aL], c0[aL]\nendloop\n",
        &[vin(&[])],
        &k,
    );
    let written: Vec<usize> = (0..16).filter(|&s| out[0][s] != [0.0; 4]).collect();
    assert_eq!(written, [2, 7, 12]);
    assert_eq!(out[0][7], [7.0; 4]);
    // rep i0 with i0.x = 0: body not executed.
    k.int[0] = [0, 0, 0, 0];
    let out = run_vs(
        "vs_3_0\nmov r0, c9\nrep i0\nmov r0, c1\nendrep\nmov o0, r0\n",
        &[vin(&[])],
        &k,
    );
    assert_eq!(out[0][0], [9.0; 4]);
    // sincos r0.xy, c0.x with c0.x = π/2 and r0 = (9, 9, 9, 9) before.
    let r = vs3(
        "sincos r0.xy, c0.x",
        &[[std::f32::consts::FRAC_PI_2, 0.0, 0.0, 0.0]],
    );
    assert!(
        r[0].abs() < 1e-7 && r[1] == 1.0 && r[2] == 9.0 && r[3] == 9.0,
        "{r:?}"
    );
}
