#![allow(clippy::legacy_numeric_constants)] // The f32::NAN-style names read as the spec writes them.
//! Per-instruction tests with hand-computed results, special cases
//! included (±0, ±Inf, NaN, denormals), run on the scalar interpreter and
//! on every SIMD backend with bit equality between them (bytecode.md §6,
//! §7, §11.7).

use crate::exec_support;

use exec_support::{Consts, program, run_vs, vin};
use std::f32::{INFINITY as INF, NAN, NEG_INFINITY as NINF};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{ExecKey, Prepared};

const MAXF: f32 = f32::MAX;
const DEN: f32 = 1e-40; // a denormal

fn same(a: f32, e: f32) -> bool {
    if e.is_nan() {
        a.is_nan()
    } else {
        a.to_bits() == e.to_bits()
    }
}

/// Runs `body` in a vs_3_0 program where r0 starts as (9, 9, 9, 9) and
/// ends in `o0`; each case gives v0.. and the expected r0.
fn check(profile: &str, body: &str, cases: &[(&[[f32; 4]], [f32; 4])]) {
    // vs < 3.0 writes oT0 (output slot 5), vs_3_0 o0 (slot 0).
    let (out, slot) = if profile.starts_with("ps") {
        ("oC0", 0)
    } else if profile.starts_with("vs_3") {
        ("o0", 0)
    } else {
        ("oT0", 5)
    };
    let text = format!("{profile}\nmov r0, c9\n{body}\nmov {out}, r0\n");
    for chunk in cases.chunks(8) {
        let lanes: Vec<[[f32; 4]; 16]> = chunk.iter().map(|(v, _)| vin(v)).collect();
        let res = if profile.starts_with("ps") {
            run_ps_inputs(&text, &lanes)
        } else {
            run_vs(&text, &lanes, &Consts::indexed())
                .into_iter()
                .map(|o| o[slot])
                .collect()
        };
        for ((inp, exp), got) in chunk.iter().zip(res) {
            assert!(
                (0..4).all(|c| same(got[c], exp[c])),
                "`{body}` with {inp:?}: got {got:?}, expected {exp:?}"
            );
        }
    }
}

/// Pixel-shader form of [`check`]: inputs in v0.. of every lane.
fn run_ps_inputs(text: &str, lanes: &[[[f32; 4]; 16]]) -> Vec<[f32; 4]> {
    let mut inputs = exec_support::quads(0.0, 0.0, |_, _, _| [0.0; 4]);
    for (l, v) in lanes.iter().enumerate() {
        inputs[l].v = *v;
    }
    let active = (1u32 << lanes.len()) - 1;
    exec_support::run_ps(
        text,
        &inputs,
        &Consts::indexed(),
        &warp9::internals::exec::point_fetch::PointFetch::default(),
        active,
    )
    .into_iter()
    .take(lanes.len())
    .map(|o| o.color[0])
    .collect()
}

fn x(v: f32) -> [f32; 4] {
    [v, 0.0, 0.0, 0.0]
}

#[test]
fn rcp_special_cases() {
    check(
        "vs_3_0",
        "rcp r0, v0.x",
        &[
            (&[x(0.0)], [INF; 4]),
            (&[x(-0.0)], [NINF; 4]),
            (&[x(1.0)], [1.0; 4]),
            (&[x(2.0)], [0.5; 4]),
            (&[x(INF)], [0.0; 4]),
            (&[x(NINF)], [-0.0; 4]),
            (&[x(NAN)], [NAN; 4]),
            (&[x(DEN)], [INF; 4]),
            (&[x(-4.0)], [-0.25; 4]),
        ],
    );
}

#[test]
fn rsq_special_cases() {
    check(
        "vs_3_0",
        "rsq r0, v0.x",
        &[
            (&[x(-4.0)], [0.5; 4]),
            (&[x(0.0)], [INF; 4]),
            (&[x(-0.0)], [INF; 4]),
            (&[x(1.0)], [1.0; 4]),
            (&[x(INF)], [0.0; 4]),
            (&[x(NAN)], [NAN; 4]),
            (&[x(0.25)], [2.0; 4]),
            (&[x(NINF)], [0.0; 4]),
        ],
    );
}

#[test]
fn log_and_logp_special_cases() {
    for op in ["log", "logp"] {
        check(
            "vs_3_0",
            &format!("{op} r0, v0.x"),
            &[
                (&[x(0.0)], [NINF; 4]),
                (&[x(-0.0)], [NINF; 4]),
                (&[x(-8.0)], [3.0; 4]),
                (&[x(1.0)], [0.0; 4]),
                (&[x(INF)], [INF; 4]),
                (&[x(NAN)], [NAN; 4]),
                (&[x(0.5)], [-1.0; 4]),
                (&[x(f32::from_bits(1 << 9))], [-140.0; 4]), // denormal 2^-140
            ],
        );
    }
}

#[test]
fn exp_and_expp_special_cases() {
    for op in ["exp", "expp"] {
        check(
            "vs_3_0",
            &format!("{op} r0, v0.x"),
            &[
                (&[x(NINF)], [0.0; 4]),
                (&[x(0.0)], [1.0; 4]),
                (&[x(3.0)], [8.0; 4]),
                (&[x(200.0)], [INF; 4]),
                (&[x(-1.0)], [0.5; 4]),
                (&[x(NAN)], [NAN; 4]),
                (&[x(0.5)], [std::f32::consts::SQRT_2; 4]),
                (&[x(-149.0)], [f32::from_bits(1); 4]),
            ],
        );
    }
}

#[test]
fn pow_special_cases() {
    let p = |a: f32, b: f32| [a, b, 0.0, 0.0];
    check(
        "vs_3_0",
        "pow r0, v0.x, v0.y",
        &[
            (&[p(-2.0, 3.0)], [8.0; 4]),
            (&[p(0.0, 0.0)], [1.0; 4]),
            (&[p(0.0, 2.0)], [0.0; 4]),
            (&[p(0.0, -1.0)], [INF; 4]),
            (&[p(2.0, 0.5)], [std::f32::consts::SQRT_2; 4]),
            (&[p(4.0, -0.5)], [0.5; 4]),
            (&[p(NAN, 0.0)], [1.0; 4]),
            (&[p(1.0, NAN)], [1.0; 4]),
            (&[p(-0.0, 3.0)], [0.0; 4]),
            (&[p(2.0, NAN)], [NAN; 4]),
        ],
    );
}

#[test]
fn frc_range_and_specials() {
    check(
        "vs_3_0",
        "frc r0, v0",
        &[
            (&[[1.25, -1.25, 0.0, -0.0]], [0.25, 0.75, 0.0, 0.0]),
            (&[[-1e-9, INF, NAN, 3.75]], [0.999_999_94, NAN, NAN, 0.75]),
            (&[[-DEN, DEN, -2.0, 1e30]], [0.999_999_94, DEN, 0.0, 0.0]),
        ],
    );
}

#[test]
fn nrm_including_zero_vectors() {
    check(
        "vs_3_0",
        "nrm r0, v0",
        &[
            (&[[3.0, 0.0, 4.0, 10.0]], [0.6, 0.0, 0.8, 2.0]),
            (&[[0.0, 0.0, 0.0, 2.0]], [0.0, 0.0, 0.0, INF]),
            (&[[0.0, 0.0, 0.0, 0.0]], [0.0; 4]),
            (&[[0.0, 0.0, 0.0, -1.0]], [0.0, 0.0, 0.0, -MAXF]),
            (&[[-0.0, 0.0, 0.0, 1.0]], [-0.0, 0.0, 0.0, MAXF]),
            (&[[NAN, 0.0, 0.0, 1.0]], [NAN; 4]),
        ],
    );
}

#[test]
fn lit_cases() {
    check(
        "vs_3_0",
        "lit r0, v0",
        &[
            (&[[0.5, 0.25, 7.0, 2.0]], [1.0, 0.5, 0.0625, 1.0]),
            (&[[-0.5, 0.25, 7.0, 2.0]], [1.0, 0.0, 0.0, 1.0]),
            (&[[0.5, 0.0, 7.0, 0.0]], [1.0, 0.5, 0.0, 1.0]),
            (&[[0.5, -1.0, 7.0, 3.0]], [1.0, 0.5, 0.0, 1.0]),
            (&[[1.0, 4.0, 7.0, 0.5]], [1.0, 1.0, 2.0, 1.0]),
            // The exponent is clamped to ±127.9961: 2^(-127.9961) is not 0.
            (
                &[[1.0, 0.5, 7.0, 1000.0]],
                [1.0, 1.0, 2.0f32.powf(-127.9961), 1.0],
            ),
            (&[[NAN, 0.5, 7.0, 1.0]], [1.0, 0.0, 0.0, 1.0]),
        ],
    );
}

#[test]
fn dst_and_crs() {
    check(
        "vs_3_0",
        "dst r0, v0, v1",
        &[(
            &[[7.0, 4.0, 4.0, 7.0], [7.0, 0.5, 7.0, 0.5]],
            [1.0, 2.0, 4.0, 0.5],
        )],
    );
    check(
        "vs_3_0",
        "crs r0.xyz, v0, v1",
        &[
            (
                &[[1.0, 0.0, 0.0, 5.0], [0.0, 1.0, 0.0, 5.0]],
                [0.0, 0.0, 1.0, 9.0],
            ),
            (
                &[[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0]],
                [-3.0, 6.0, -3.0, 9.0],
            ),
        ],
    );
    // A full mask still leaves w alone (§7.5).
    check(
        "vs_3_0",
        "crs r0, v0, v1",
        &[(
            &[[0.0, 1.0, 0.0, 5.0], [1.0, 0.0, 0.0, 5.0]],
            [0.0, 0.0, -1.0, 9.0],
        )],
    );
}

#[test]
fn sgn_cases() {
    check(
        "vs_3_0",
        "sgn r0, v0",
        &[
            (&[[-3.0, 0.0, 2.0, -0.0]], [-1.0, 0.0, 1.0, 0.0]),
            (&[[NAN, INF, NINF, DEN]], [0.0, 1.0, -1.0, 1.0]),
        ],
    );
    // vs_2_x three-operand form: the scratch temps stay unchanged.
    check(
        "vs_2_x",
        "mov r1, c3\nmov r2, c4\nsgn r0, v0, r1, r2\nadd r0, r0, r1\nadd r0, r0, r2",
        &[(&[[-3.0, 0.0, 2.0, -0.0]], [6.0, 7.0, 8.0, 7.0])],
    );
}

#[test]
fn cmp_cnd_lrp_dp2add_in_pixel_shaders() {
    check(
        "ps_3_0",
        "cmp r0, v0, v1, v2",
        &[
            (
                &[[-0.6, 0.6, 0.0, -0.0], [0.0; 4], [1.0; 4]],
                [1.0, 0.0, 0.0, 0.0],
            ),
            (
                &[[NAN, INF, NINF, -DEN], [0.0; 4], [1.0; 4]],
                [1.0, 0.0, 1.0, 1.0],
            ),
        ],
    );
    check(
        "ps_3_0",
        "lrp r0, v0, v1, v2",
        &[(
            &[[0.5, 0.0, 1.0, 0.25], [2.0; 4], [0.0, 4.0, 1.0, 8.0]],
            [1.0, 4.0, 2.0, 6.5],
        )],
    );
    check(
        "ps_3_0",
        "dp2add r0, v0, v1, v2.z",
        &[
            (
                &[
                    [1.0, 2.0, 100.0, 100.0],
                    [3.0, 4.0, 100.0, 100.0],
                    [0.0, 0.0, 5.0, 0.0],
                ],
                [16.0; 4],
            ),
            (
                &[[INF, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0; 4]],
                [NAN; 4],
            ),
        ],
    );
}

#[test]
fn min_max_slt_sge_with_nan_and_signed_zero() {
    let a = [NAN, 1.0, -0.0, 3.0];
    let b = [1.0, NAN, 0.0, 2.0];
    check(
        "vs_3_0",
        "min r0, v0, v1",
        &[(&[a, b], [1.0, 1.0, 0.0, 2.0])],
    );
    check(
        "vs_3_0",
        "max r0, v0, v1",
        &[(&[a, b], [1.0, 1.0, -0.0, 3.0])],
    );
    check(
        "vs_3_0",
        "slt r0, v0, v1",
        &[(&[a, b], [0.0, 0.0, 0.0, 0.0])],
    );
    check(
        "vs_3_0",
        "sge r0, v0, v1",
        &[(&[a, b], [0.0, 0.0, 1.0, 1.0])],
    );
    check(
        "vs_3_0",
        "min r0, v0, v1",
        &[
            (&[[NAN; 4], [NAN; 4]], [NAN; 4]),
            (&[[NINF, INF, -1.0, DEN], [0.0; 4]], [NINF, 0.0, -1.0, 0.0]),
        ],
    );
}

#[test]
fn saturate_modifiers_swizzles_masks() {
    check(
        "vs_3_0",
        "mov_sat r0, v0",
        &[
            (&[[NAN, -0.0, 2.0, 0.5]], [0.0, 0.0, 1.0, 0.5]),
            (&[[NINF, INF, -1.0, DEN]], [0.0, 1.0, 0.0, DEN]),
        ],
    );
    check(
        "vs_3_0",
        "mov r0, -v0_abs",
        &[(&[[-1.0, 2.0, -0.0, NAN]], [-1.0, -2.0, -0.0, NAN])],
    );
    check(
        "vs_3_0",
        "add r0, -v0, v1_abs",
        &[(
            &[[1.0, -2.0, 0.0, 0.0], [-3.0, 3.0, -0.0, 0.0]],
            [2.0, 5.0, 0.0, 0.0],
        )],
    );
    check(
        "vs_3_0",
        "mov r0, v0.wzyx",
        &[(&[[1.0, 2.0, 3.0, 4.0]], [4.0, 3.0, 2.0, 1.0])],
    );
    check(
        "vs_3_0",
        "mov r0.xw, v0.yyzz",
        &[(&[[1.0, 2.0, 3.0, 4.0]], [2.0, 9.0, 9.0, 3.0])],
    );
    check(
        "vs_3_0",
        "abs r0.yz, v0",
        &[(&[[-1.0, -0.0, NINF, 5.0]], [9.0, 0.0, INF, 9.0])],
    );
    // Sources are all read before the destination is written (§6.1).
    check(
        "vs_3_0",
        "mov r0, v0\nadd r0, r0, r0.yzwx",
        &[(&[[1.0, 2.0, 3.0, 4.0]], [3.0, 5.0, 7.0, 5.0])],
    );
}

#[test]
fn basic_arithmetic_and_denormals() {
    check(
        "vs_3_0",
        "mad r0, v0, v1, v2",
        &[
            (
                &[
                    [1.0, 2.0, INF, DEN],
                    [3.0, 4.0, 0.0, 1.0],
                    [1.0, -8.0, 1.0, DEN],
                ],
                [4.0, 0.0, NAN, DEN + DEN],
            ),
            // Unfused: the product rounds first (1+2^-12)^2 - 1 loses 2^-24.
            (
                &[[1.0 + 1.0 / 4096.0; 4], [1.0 + 1.0 / 4096.0; 4], [-1.0; 4]],
                [((1.0f32 + 1.0 / 4096.0) * (1.0 + 1.0 / 4096.0)) - 1.0; 4],
            ),
        ],
    );
    check(
        "vs_3_0",
        "mul r0, v0, v1",
        &[(
            &[[1e-20, -0.0, INF, 2.0], [1e-20, 5.0, 0.0, 3.0]],
            [1e-20 * 1e-20, -0.0, NAN, 6.0],
        )],
    );
    check(
        "vs_3_0",
        "sub r0, v0, v1",
        &[(
            &[[1.0, INF, 0.0, 5.0], [1.0, INF, -0.0, 7.0]],
            [0.0, NAN, 0.0, -2.0],
        )],
    );
    check(
        "vs_3_0",
        "dp3 r0, v0, v1",
        &[(&[[1.0, 2.0, 3.0, 100.0], [4.0, 5.0, 6.0, 100.0]], [32.0; 4])],
    );
    check(
        "vs_3_0",
        "dp4 r0.xz, v0, v1",
        &[(
            &[[1.0, 2.0, 3.0, 4.0], [4.0, 5.0, 6.0, 0.5]],
            [34.0, 9.0, 34.0, 9.0],
        )],
    );
}

#[test]
fn matrix_macros() {
    let defs =
        "def c30, 1, 2, 3, 4\ndef c31, 0, 1, 0, 0\ndef c32, 0, 0, 2, 0\ndef c33, 1, 1, 1, 1\n";
    let v = [1.0, 1.0, 1.0, 1.0];
    for (op, exp) in [
        ("m4x4 r0, v0, c30", [10.0, 1.0, 2.0, 4.0]),
        ("m4x3 r0.xyz, v0, c30", [10.0, 1.0, 2.0, 9.0]),
        ("m3x4 r0, v0, c30", [6.0, 1.0, 2.0, 3.0]),
        ("m3x3 r0.xyz, v0, c30", [6.0, 1.0, 2.0, 9.0]),
        ("m3x2 r0.xy, v0, c30", [6.0, 1.0, 9.0, 9.0]),
        ("m4x4 r0, -v0.wzyx, c30", [-10.0, -1.0, -2.0, -4.0]),
    ] {
        check("vs_3_0", &format!("{defs}{op}"), &[(&[v], exp)]);
    }
    // Rows from application constants and from temps.
    check(
        "vs_3_0",
        "m3x2 r0.xy, v0, c1",
        &[(&[[1.0, 2.0, 3.0, 0.0]], [6.0, 12.0, 9.0, 9.0])],
    );
    check(
        "vs_3_0",
        "mov r4, v1\nmov r5, v1.yxzw\nm3x2 r0.xy, v0, r4",
        &[(
            &[[1.0, 2.0, 3.0, 0.0], [1.0, 0.0, 0.0, 0.0]],
            [1.0, 2.0, 9.0, 9.0],
        )],
    );
}

#[test]
fn sincos_writes_only_its_mask() {
    let half_pi = std::f32::consts::FRAC_PI_2;
    let (s, c) = (half_pi as f64).sin_cos();
    let (s, c) = (s as f32, c as f32);
    assert!(c.abs() < 1e-7 && s == 1.0);
    check(
        "vs_3_0",
        "sincos r0.xy, v0.x",
        &[(&[x(half_pi)], [c, s, 9.0, 9.0])],
    );
    check(
        "vs_3_0",
        "sincos r0.x, v0.x",
        &[(&[x(0.0)], [1.0, 9.0, 9.0, 9.0])],
    );
    check(
        "vs_3_0",
        "sincos r0.y, v0.x",
        &[(&[x(0.0)], [9.0, 0.0, 9.0, 9.0])],
    );
    check(
        "vs_3_0",
        "sincos r0.xy, v0.x",
        &[(&[x(NAN)], [NAN, NAN, 9.0, 9.0])],
    );
    // SM2 form with the two constant operands (ignored).
    check(
        "vs_2_0",
        "sincos r0.xy, v0.x, c10, c11",
        &[(&[x(half_pi)], [c, s, 9.0, 9.0])],
    );
}

#[test]
fn mova_rounds_half_away_and_relative_reads_are_range_checked() {
    let cases: Vec<(f32, f32)> = vec![
        (1.5, 22.0),
        (-1.5, 18.0),
        (1.4, 21.0),
        (2.5, 23.0),
        (-2.5, 17.0),
        (NAN, 20.0),
        (1e9, 0.0),   // clamped, then out of range → 0
        (-30.0, 0.0), // c-10: out of range → 0
    ];
    let inputs: Vec<[[f32; 4]; 1]> = cases.iter().map(|c| [x(c.0)]).collect();
    let cs: Vec<(&[[f32; 4]], [f32; 4])> = inputs
        .iter()
        .zip(&cases)
        .map(|(i, c)| (&i[..], [c.1; 4]))
        .collect();
    check("vs_3_0", "mova a0.x, v0.x\nmov r0, c20[a0.x]", &cs);
    // Per-component a0 with different lanes, and mova_sat.
    check(
        "vs_3_0",
        "mova a0.yw, v0\nmov r0.x, c10[a0.y]\nmov r0.y, c10[a0.w]",
        &[(&[[0.0, 3.4, 0.0, -2.6]], [13.0, 7.0, 9.0, 9.0])],
    );
    check(
        "vs_3_0",
        "mova_sat a0.x, v0.x\nmov r0, c10[a0.x]",
        &[(&[x(7.0)], [11.0; 4]), (&[x(-7.0)], [10.0; 4])],
    );
}

#[test]
fn vs_1_1_mov_a0_floors_and_expp_has_four_components() {
    let text = "vs_1_1\nmov a0.x, v0.x\nmov oT0, c[a0.x + 20]\nexpp r1, v1.x\nmov oT1, r1\n";
    let lanes = [vin(&[x(1.7), x(2.5)]), vin(&[x(-0.3), x(2.5)])];
    let out = run_vs(text, &lanes, &Consts::indexed());
    assert_eq!(out[0][5], [21.0; 4]);
    assert_eq!(out[1][5], [19.0; 4]);
    assert_eq!(out[0][6], [4.0, 0.5, 2f32.powf(2.5), 1.0]);
    assert!((out[0][6][2] - 5.656854).abs() < 1e-6);
}

/// Runs a validated program on `lanes` (scalar and every backend, bit-equal).
fn run_valid(text: &str, lanes: &[[[f32; 4]; 16]]) -> Vec<[[f32; 4]; 16]> {
    let prog = exec_support::valid_program(text);
    let p = Prepared::new(&prog, ExecKey::new(&prog, &[]));
    exec_support::run_vs_prepared(&p, lanes, &Consts::indexed(), &PointFetch::default())
}

/// vs_1_1 `mov a0.x` floors (bytecode.md §4.3, §7.7) where vs_2_0 `mova`
/// rounds half away from zero; both index `c[a0.x + 20]` (c# = #), and an
/// index outside the 64 constants reads 0 as in vs_2_0.
#[test]
fn vs_1_1_mov_a0_floors_where_mova_rounds() {
    // (v0.x, vs_1_1 a0.x, vs_2_0 a0.x)
    let cases: [(f32, f32, f32); 12] = [
        (1.7, 1.0, 2.0),
        (1.5, 1.0, 2.0),
        (1.4, 1.0, 1.0),
        (2.0, 2.0, 2.0),
        (0.0, 0.0, 0.0),
        (-0.0, 0.0, 0.0),
        (-0.3, -1.0, 0.0),
        (-0.5, -1.0, -1.0),
        (-1.0, -1.0, -1.0),
        (-1.5, -2.0, -2.0),
        (-2.5, -3.0, -3.0),
        (0.999_999_9, 0.0, 1.0),
    ];
    let vs11 = "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov a0.x, v0.x\nmov oT0, c[a0.x + 20]\n";
    let vs20 = "vs_2_0\ndcl_position v0\nmov oPos, v0\nmova a0.x, v0.x\nmov oT0, c[a0.x + 20]\n";
    for chunk in cases.chunks(8) {
        let lanes: Vec<_> = chunk.iter().map(|c| vin(&[x(c.0)])).collect();
        let (o11, o20) = (run_valid(vs11, &lanes), run_valid(vs20, &lanes));
        for (k, &(v, floor, round)) in chunk.iter().enumerate() {
            assert_eq!(o11[k][5], [20.0 + floor; 4], "vs_1_1 mov a0.x, {v}");
            assert_eq!(o20[k][5], [20.0 + round; 4], "vs_2_0 mova a0.x, {v}");
        }
    }
    // Out of range both ways: c[-1] and c[64] read (0, 0, 0, 0).
    let lanes = [vin(&[x(-20.5)]), vin(&[x(44.2)]), vin(&[x(43.9)])];
    let o = run_valid(vs11, &lanes);
    assert_eq!(o[0][5], [0.0; 4]);
    assert_eq!(o[1][5], [0.0; 4]);
    assert_eq!(o[2][5], [63.0; 4]);
}

/// vs_1_1 `expp` is (2^floor(v), v − floor(v), 2^v, 1) (§7, §11.7 vector
/// c0.x = 2.5 → (4, 0.5, 5.656854, 1)); vs_2_0 `expp` replicates 2^v, and
/// `logp` replicates log2|v| in both.
#[test]
fn vs_1_1_expp_has_four_components_and_logp_replicates() {
    let body =
        "dcl_position v0\nmov oPos, v0\nexpp r0, v0.x\nlogp r1, v0.x\nmov oT0, r0\nmov oT1, r1\n";
    let lanes = [vin(&[x(2.5)]), vin(&[x(-1.5)]), vin(&[x(3.0)])];
    let o11 = run_valid(&format!("vs_1_1\n{body}"), &lanes);
    let o20 = run_valid(&format!("vs_2_0\n{body}"), &lanes);
    let e25 = 2f32.powf(2.5);
    assert_eq!(o11[0][5][..2], [4.0, 0.5]);
    assert!((o11[0][5][2] - 5.656854).abs() < 1e-6, "{:?}", o11[0][5]);
    assert_eq!(o11[0][5][3], 1.0);
    assert_eq!(o11[1][5][..2], [0.25, 0.5]);
    assert!((o11[1][5][2] - 2f32.powf(-1.5)).abs() < 1e-7);
    assert_eq!(o11[1][5][3], 1.0);
    assert_eq!(o11[2][5], [8.0, 0.0, 8.0, 1.0]);
    assert!(
        o20[0][5].iter().all(|&c| (c - e25).abs() < 1e-6),
        "{:?}",
        o20[0][5]
    );
    assert_eq!(o20[2][5], [8.0; 4]);
    for o in [&o11, &o20] {
        for (k, v) in [2.5f32, 1.5, 3.0].into_iter().enumerate() {
            let l = o[k][6];
            assert!(l.iter().all(|&c| c == l[0]), "logp {v}: {l:?}");
            assert!((l[0] - v.log2()).abs() < 1e-6, "logp {v}: {l:?}");
        }
    }
}

/// A vs_1_1 scalar source without a replicate swizzle uses the w channel's
/// component (§6.2), and the validator accepts it there.
#[test]
fn vs_1_1_scalar_source_uses_the_w_channel() {
    let text =
        "vs_1_1\ndcl_position v0\nmov oPos, v0\nrcp oT0, v0.xyzw\nexpp r0, v0.wzyx\nmov oT1, r0\n";
    let o = run_valid(text, &[vin(&[[1.0, 2.0, 4.0, 8.0]])]);
    assert_eq!(o[0][5], [0.125; 4]);
    assert_eq!(o[0][6], [2.0, 0.0, 2.0, 1.0]);
}

#[test]
fn def_overrides_application_constants() {
    let mut c = Consts::indexed();
    c.float[5] = [100.0; 4];
    let text = "vs_3_0\ndef c5, 1, 2, 3, 4\ndefi i0, 2, 0, 0, 0\nmov r0, c5\nmov r1, c5[a0.x]\nmov o0, r0\nmov o1, r1\n";
    let out = run_vs(text, &[vin(&[])], &c);
    assert_eq!(out[0][0], [1.0, 2.0, 3.0, 4.0]);
    // Relative reads see the def value too (a0 = 0).
    assert_eq!(out[0][1], [1.0, 2.0, 3.0, 4.0]);
    // The prepared program folded the def into an immediate.
    let p = program(text);
    assert!(warp9::internals::exec::branch_bools(&p) == 0);
}
