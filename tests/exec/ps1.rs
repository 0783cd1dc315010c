//! ps_1_1–ps_1_4 execution: constants clamped to [−1, 1], result shifts
//! and source modifiers, co-issue, `texcoord`/`texcrd`, every texture
//! instruction through the fetch interface, projection, `phase`, depth
//! replacement — hand-computed values, scalar vs every SIMD backend bit for
//! bit (`run_ps_prepared` asserts the agreement).

use crate::exec_support;

use exec_support::{
    Consts, checker_texel as texel, checker_texture, program, quads, run_ps_prepared,
};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::ps1::{self, BumpEnv};
use warp9::internals::exec::{ExecKey, Prepared, ScalarPixelInputs, ScalarPixelOutput};
use warp9::shader::{self, ShaderLimits};

const ALL: u32 = 0xFF;

/// The checker bound at each of `slots`.
fn fetch(slots: &[usize]) -> PointFetch {
    let mut f = PointFetch::default();
    for &s in slots {
        f.bind(s, checker_texture());
    }
    f
}

/// The constant bank a draw gives a ps_1_x program.
fn bank(app: &[[f32; 4]], bump: &[BumpEnv; 8]) -> Consts {
    Consts {
        float: ps1::constants(app, bump),
        int: vec![[0; 4]; 16],
        bool: vec![false; 16],
    }
}

/// Runs `text` with input slot `k` = `input(k, x, y)` (v0, v1, then t0–t7).
fn run_with(
    text: &str,
    proj: [Option<u8>; 8],
    consts: &Consts,
    f: &PointFetch,
    input: impl Fn(usize, f32, f32) -> [f32; 4],
) -> (Vec<ScalarPixelOutput>, [ScalarPixelInputs; 8]) {
    let prog = program(text);
    // Every program here is one a D3D9 device accepts at the lowest level.
    if let Err(e) = shader::validate(&prog, &ShaderLimits::level_9_1()) {
        panic!("not valid at 9_1: {e}\n{text}");
    }
    let mut key = ExecKey::new(&prog, &[]);
    key.proj = ps1::pack_projection(proj);
    let p = Prepared::new(&prog, key);
    let inputs = quads(0.0, 0.0, input);
    (run_ps_prepared(&p, &inputs, consts, f, ALL), inputs)
}

fn run(text: &str, consts: &Consts) -> Vec<ScalarPixelOutput> {
    run_with(text, [None; 8], consts, &fetch(&[]), |_, _, _| [0.0; 4]).0
}

fn no_bump() -> [BumpEnv; 8] {
    [BumpEnv::default(); 8]
}

/// The colour of every lane, asserted equal, returned once.
fn uniform(out: &[ScalarPixelOutput]) -> [f32; 4] {
    for o in out {
        assert_eq!(o.color[0], out[0].color[0]);
    }
    out[0].color[0]
}

/// Asserts that every lane's colour is `want` of the lane's pixel.
fn assert_lanes(
    out: &[ScalarPixelOutput],
    inputs: &[ScalarPixelInputs; 8],
    what: &str,
    want: impl Fn(u32, u32) -> [f32; 4],
) {
    for (l, o) in out.iter().enumerate() {
        let (x, y) = (inputs[l].pos[0] as u32, inputs[l].pos[1] as u32);
        assert_eq!(o.color[0], want(x, y), "{what}, lane {l}");
    }
}

/// Texture coordinate of the centre of checker texel (x, y).
fn centre(x: f32, y: f32) -> (f32, f32) {
    ((x + 0.5) / 4.0, (y + 0.5) / 4.0)
}

#[test]
fn constants_clamp_to_unit_range_but_results_do_not() {
    // Wine constant_clamp_ps_test: c1 -> (1, -0.5, -1, 1), c2 -> (-0.5, 1, 1, 1).
    let app = [[0.0; 4], [1.25, -0.5, -1.5, 1.0], [-0.5, 1.25, 2.0, 1.0]];
    let consts = bank(&app, &no_bump());
    let out = run("ps_1_1\nmov r1, c1\nadd r0, r1, c2\n", &consts);
    assert_eq!(uniform(&out), [0.5, 0.5, 0.0, 2.0]);
    // A def'd constant is clamped the same way (ps_1_4 case of the test).
    let out = run(
        "ps_1_4\ndef c2, -0.5, 1.25, 2, 1\nmov r1, c1\nadd r0, r1, c2\n",
        &consts,
    );
    assert_eq!(uniform(&out), [0.5, 0.5, 0.0, 2.0]);
    // NaN is not a number to clamp: it stays NaN.
    assert!(ps1::clamp_constant(f32::NAN).is_nan());
    assert_eq!(ps1::clamp_constant(f32::INFINITY), 1.0);
    assert_eq!(ps1::clamp_constant(-0.0).to_bits(), (-0.0f32).to_bits());
}

#[test]
fn result_shifts_scale_before_saturation() {
    let consts = bank(&[], &no_bump());
    let def = "def c0, 0.25, 0.5, 0.75, -0.5\n";
    let cases: [(&str, [f32; 4]); 6] = [
        ("mov_x4_sat r0, c0", [1.0, 1.0, 1.0, 0.0]),
        ("mov_x2 r0, c0", [0.5, 1.0, 1.5, -1.0]),
        ("mov_d2 r0, c0", [0.125, 0.25, 0.375, -0.25]),
        ("add_x4 r0, c0, c0", [2.0, 4.0, 6.0, -4.0]),
        ("mul_sat r0, c0, c0", [0.0625, 0.25, 0.5625, 0.25]),
        ("mov_d4 r0, c0", [0.0625, 0.125, 0.1875, -0.125]),
    ];
    for (line, want) in cases {
        let v = if line.contains("_x4") || line.contains("_d4") {
            "ps_1_4\n"
        } else {
            "ps_1_1\n"
        };
        let out = run(&format!("{v}{def}{line}\n"), &consts);
        assert_eq!(uniform(&out), want, "{line}");
    }
}

#[test]
fn source_modifiers_and_selectors() {
    let consts = bank(&[], &no_bump());
    let def = "ps_1_1\ndef c0, 0.25, 0.5, 0.75, 1\n";
    let cases: [(&str, [f32; 4]); 6] = [
        ("mov r0, c0_bx2", [-0.5, 0.0, 0.5, 1.0]),
        ("mov r0, 1-c0", [0.75, 0.5, 0.25, 0.0]),
        ("mov r0, -c0_bias", [0.25, 0.0, -0.25, -0.5]),
        ("mov r0, c0_bias", [-0.25, 0.0, 0.25, 0.5]),
        ("mov r0, -c0_bx2", [0.5, -0.0, -0.5, -1.0]),
        ("mov r0, c0.a", [1.0; 4]),
    ];
    for (line, want) in cases {
        let out = run(&format!("{def}{line}\n"), &consts);
        assert_eq!(uniform(&out), want, "{line}");
    }
    let out = run(
        "ps_1_4\ndef c0, 0.25, 0.5, 0.75, 1\nmov r0, c0_x2\n",
        &consts,
    );
    assert_eq!(uniform(&out), [0.5, 1.0, 1.5, 2.0]);
}

#[test]
fn coissued_pair_reads_before_either_writes() {
    let consts = bank(&[], &no_bump());
    // The rgb half reads r0.a, which its alpha partner overwrites: it sees
    // the old value (1), not the new one (0).
    let text = "ps_1_1\ndef c0, 1, 1, 1, 1\ndef c1, 0, 0, 0, 0\nmov r0, c0\nmov r0.a, c1\n+mov r0.rgb, r0.a\n";
    assert_eq!(uniform(&run(text, &consts)), [1.0, 1.0, 1.0, 0.0]);
    // Without the pairing the second mov sees the new alpha.
    let text = "ps_1_1\ndef c0, 1, 1, 1, 1\ndef c1, 0, 0, 0, 0\nmov r0, c0\nmov r0.a, c1\nmov r0.rgb, r0.a\n";
    assert_eq!(uniform(&run(text, &consts)), [0.0, 0.0, 0.0, 0.0]);
    // Wine cnd_test pass 2 for ps_1_1-1_3: the coissued rgb cnd reads the
    // r0.a of `texcoord` (1.0 > 0.5), so it always picks src1.
    let app = [[0.0; 4], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0]];
    let consts = bank(&app, &no_bump());
    let text = "ps_1_1\ndef c0, 1, 0, 0, 0\ndef c3, 0.5, 0.5, 0.5, 0\ntexcoord t0\nmov r0, t0\nsub r0, r0, c3\nadd r1, c0, c0\ndp3 r1, r0, r1\nmov r0.a, r1.a\n+cnd r0.rgb, r0.a, c1, c2\n";
    let (out, _) = run_with(text, [None; 8], &consts, &fetch(&[]), |k, x, _| {
        if k == 2 {
            [x / 4.0, 0.25, 0.0, 1.0]
        } else {
            [0.0; 4]
        }
    });
    for (l, o) in out.iter().enumerate() {
        let u = (l & 3) as f32 / 4.0;
        assert_eq!(o.color[0][..3], [0.0, 1.0, 0.0], "lane {l}");
        assert_eq!(o.color[0][3], 2.0 * (u - 0.5), "lane {l}");
    }
}

#[test]
fn cnd_compares_greater_than_half() {
    let consts = bank(&[], &no_bump());
    // ps_1_1: r0.a selects the whole result; 0.5 itself is not greater.
    for (a, want) in [(0.5, 0.25), (0.5001, 1.0), (1.0, 1.0), (-1.0, 0.25)] {
        let text = format!(
            "ps_1_1\ndef c0, 0, 0, 0, {a}\ndef c1, 1, 1, 1, 1\ndef c2, 0.25, 0.25, 0.25, 0.25\nmov r0, c0\ncnd r0, r0.a, c1, c2\n"
        );
        assert_eq!(uniform(&run(&text, &consts)), [want; 4], "a = {a}");
    }
    // ps_1_4: per component.
    let text = "ps_1_4\ndef c0, 0.5, 0.75, 0, 1\ndef c1, 1, 1, 1, 1\ndef c2, 0.25, 0.25, 0.25, 0.25\nmov r1, c0\ncnd r0, r1, c1, c2\n";
    assert_eq!(uniform(&run(text, &consts)), [0.25, 1.0, 0.25, 1.0]);
    // cmp (1_2+): >= 0, and -0 counts as >= 0.
    let text = "ps_1_2\ndef c0, -0.25, 0, 0.5, -1\ndef c1, 1, 1, 1, 1\ndef c2, 0.25, 0.25, 0.25, 0.25\nmov r1, c0\ncmp r0, r1, c1, c2\n";
    assert_eq!(uniform(&run(text, &consts)), [0.25, 1.0, 1.0, 0.25]);
    // lrp and dp4.
    let text = "ps_1_2\ndef c0, 0.25, 0.5, 0.75, 1\ndef c1, 1, 1, 1, 1\ndef c2, 0, 0, 0, 0\nmov r0, c1\nlrp r1, c0, r0, c2\ndp4 r0, r1, c0\n";
    assert_eq!(uniform(&run(text, &consts)), [1.875; 4]);
}

#[test]
fn texcoord_clamps_and_sets_w_texcrd_projects() {
    let consts = bank(&[], &no_bump());
    let input = |k: usize, _: f32, _: f32| match k {
        2 => [1.5, -0.25, 0.5, 7.0],
        3 => [1.0, 2.0, 4.0, 0.0],
        4 => [1.0, 2.0, 0.0, 8.0],
        _ => [0.0; 4],
    };
    let (out, _) = run_with(
        "ps_1_1\ntexcoord t0\nmov r0, t0\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        input,
    );
    assert_eq!(uniform(&out), [1.0, 0.0, 0.5, 1.0]);
    // texcrd: no clamp; _dw divides x, y by w, 1.0 where w is 0.
    let (out, _) = run_with(
        "ps_1_4\ntexcrd r0.rgb, t0\nmov r0.a, c0.a\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        input,
    );
    assert_eq!(uniform(&out), [1.5, -0.25, 0.5, 0.0]);
    let (out, _) = run_with(
        "ps_1_4\ntexcrd r1.rg, t1_dw.xyw\ntexcrd r2.rg, t2_dw.xyw\nmov r0.rg, r1\nmov r0.b, r2.r\n+mov r0.a, r2.g\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        input,
    );
    assert_eq!(uniform(&out), [1.0, 1.0, 0.125, 0.25]);
    // texld's _dz (phase 2, r# source): x and y divided by z.
    let f = fetch(&[3]);
    let (out, inputs) = run_with(
        "ps_1_4\ntexcrd r3.rgb, t3\nphase\ntexld r3, r3_dz\nmov r0, r3\n",
        [None; 8],
        &consts,
        &f,
        |k, x, y| {
            let (u, v) = centre(x, y);
            if k == 5 {
                [2.0 * u, 2.0 * v, 2.0, 0.0]
            } else {
                [0.0; 4]
            }
        },
    );
    assert_lanes(&out, &inputs, "texld _dz", texel);
}

#[test]
fn tex_samples_the_destination_stage_and_projects_by_the_key() {
    let consts = bank(&[], &no_bump());
    let f = fetch(&[1]);
    let at = |w: f32| {
        move |k: usize, x: f32, y: f32| {
            let (u, v) = centre(x, y);
            if k == 3 {
                [u * w, v * w, 3.0 * w, w]
            } else {
                [0.0; 4]
            }
        }
    };
    let (out, inputs) = run_with(
        "ps_1_1\ntex t1\nmov r0, t1\n",
        [None; 8],
        &consts,
        &f,
        at(1.0),
    );
    assert_lanes(&out, &inputs, "texel", texel);
    // D3DTTFF_PROJECTED with a w divisor: coordinates scaled by w = 2.
    let mut proj = [None; 8];
    proj[1] = Some(3);
    let (out, inputs) = run_with("ps_1_1\ntex t1\nmov r0, t1\n", proj, &consts, &f, at(2.0));
    assert_lanes(&out, &inputs, "projected", texel);
    // The same projection is ignored in ps_1_4 (texld projects only with _dw).
    let (out, inputs) = run_with(
        "ps_1_4\ntexld r1, t1_dw.xyw\nmov r0, r1\n",
        [None; 8],
        &consts,
        &f,
        at(2.0),
    );
    assert_lanes(&out, &inputs, "texld _dw", texel);
}

#[test]
fn texbem_and_texbeml_offset_by_the_stage_matrix() {
    let mut bump = no_bump();
    bump[1] = BumpEnv {
        mat: [0.25, 0.0, 0.0, 0.5],
        lscale: 0.5,
        loffset: 0.25,
    };
    let consts = bank(&[], &bump);
    let f = fetch(&[1]);
    // t0 (texcoord, clamped) = (0.5, 0.25, 0.5, 1): offset (0.125, 0.125).
    let input = |k: usize, x: f32, y: f32| {
        let (u, v) = centre(x, y);
        match k {
            2 => [0.5, 0.25, 0.5, 1.0],
            3 => [u - 0.125, v - 0.125, 0.0, 1.0],
            _ => [0.0; 4],
        }
    };
    let (out, inputs) = run_with(
        "ps_1_1\ntexcoord t0\ntexbem t1, t0\nmov r0, t1\n",
        [None; 8],
        &consts,
        &f,
        input,
    );
    assert_lanes(&out, &inputs, "texbem", texel);
    let (out, inputs) = run_with(
        "ps_1_1\ntexcoord t0\ntexbeml t1, t0\nmov r0, t1\n",
        [None; 8],
        &consts,
        &f,
        input,
    );
    // Luminance sat(0.5 * 0.5 + 0.25) = 0.5 scales rgb, not alpha.
    assert_lanes(&out, &inputs, "texbeml", |x, y| {
        let t = texel(x, y);
        [t[0] * 0.5, t[1] * 0.5, t[2] * 0.5, t[3]]
    });
    // ps_1_4 bem: r2.xy = s0.xy + the stage-2 matrix times s1.xy.
    bump[2].mat = [1.0, 0.5, 0.25, 2.0];
    let consts = bank(&[], &bump);
    let out = run(
        "ps_1_4\ndef c0, 0.5, 0.25, 0, 0\ndef c1, 0.5, 0.25, 0, 0\nmov r1, c1\nbem r2.rg, c0, r1\nphase\nmov r0, c0\nmov r0.rg, r2\n",
        &consts,
    );
    // x = 0.5 + 1 * 0.5 + 0.25 * 0.25, y = 0.25 + 0.5 * 0.5 + 2 * 0.25.
    assert_eq!(uniform(&out)[..2], [1.0625, 1.0]);
}

#[test]
fn texreg2_reads_coordinates_from_a_texture_register() {
    let consts = bank(&[], &no_bump());
    let f = fetch(&[1]);
    let input = |k: usize, x: f32, y: f32| {
        let (u, v) = centre(x, y);
        if k == 2 { [v, u, v, 0.0] } else { [0.0; 4] }
    };
    // gb: (t0.g, t0.b) = (u, v).
    let (out, inputs) = run_with(
        "ps_1_1\ntexcoord t0\ntexreg2gb t1, t0\nmov r0, t1\n",
        [None; 8],
        &consts,
        &f,
        input,
    );
    assert_lanes(&out, &inputs, "gb", texel);
    // ar: (t0.a, t0.r) = (1 from texcoord, v): u = 1 wraps to column 0.
    let (out, inputs) = run_with(
        "ps_1_1\ntexcoord t0\ntexreg2ar t1, t0\nmov r0, t1\n",
        [None; 8],
        &consts,
        &f,
        input,
    );
    for (l, o) in out.iter().enumerate() {
        let y = inputs[l].pos[1] as u32;
        assert_eq!(o.color[0], texel(0, y), "ar, lane {l}");
    }
}

#[test]
fn matrix_instructions_transform_by_the_coordinate_rows() {
    let consts = bank(&[], &no_bump());
    let f = fetch(&[2, 3]);
    let rows = |k: usize, x: f32, y: f32| {
        let (u, v) = centre(x, y);
        match k {
            2 => [u, v, 0.5, 1.0],
            3 => [1.0, 0.0, 0.0, 0.0],
            4 => [0.0, 1.0, 0.0, 0.0],
            5 => [0.0, 0.0, 1.0, 0.0],
            _ => [0.0; 4],
        }
    };
    let (out, inputs) = run_with(
        "ps_1_1\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n",
        [None; 8],
        &consts,
        &f,
        rows,
    );
    assert_lanes(&out, &inputs, "texm3x2tex", texel);
    let (out, inputs) = run_with(
        "ps_1_2\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3\n",
        [None; 8],
        &consts,
        &f,
        rows,
    );
    for (l, o) in out.iter().enumerate() {
        let (u, v) = centre(inputs[l].pos[0], inputs[l].pos[1]);
        assert_eq!(o.color[0], [u, v, 0.5, 1.0], "texm3x3, lane {l}");
    }
    // texdp3tex: u = dot(t1, t0) = t0.x, v = 0.
    let (out, inputs) = run_with(
        "ps_1_2\ntexcoord t0\ntexdp3tex t2, t0\nmov r0, t2\n",
        [None; 8],
        &consts,
        &f,
        |k, x, y| {
            if k == 4 {
                [1.0, 0.0, 0.0, 0.0]
            } else {
                rows(k, x, y)
            }
        },
    );
    assert_lanes(&out, &inputs, "texdp3tex", |x, _| texel(x, 0));
    let (out, inputs) = run_with(
        "ps_1_2\ntexcoord t0\ntexdp3 t3, t0\nmov r0, t3\n",
        [None; 8],
        &consts,
        &f,
        |k, x, y| {
            if k == 5 {
                [0.0, 2.0, 0.0, 0.0]
            } else {
                rows(k, x, y)
            }
        },
    );
    for (l, o) in out.iter().enumerate() {
        let (_, v) = centre(inputs[l].pos[0], inputs[l].pos[1]);
        assert_eq!(o.color[0], [2.0 * v; 4], "texdp3, lane {l}");
    }
}

#[test]
fn texm3x3spec_and_vspec_reflect_the_eye_vector() {
    // N = t0 = (0, 1, 0) through identity rows; E = (0.5, 0.5, 0):
    // R = 2·N·(N·E)/(N·N) − E = (−0.5, 0.5, 0), which wraps to texel (2, 2).
    let app = [[0.5, 0.5, 0.0, 0.0]];
    let consts = bank(&app, &no_bump());
    let f = fetch(&[3]);
    let input = |eye: bool| {
        move |k: usize, _: f32, _: f32| match k {
            2 => [0.0, 1.0, 0.0, 1.0],
            3 => [1.0, 0.0, 0.0, if eye { 0.5 } else { 0.0 }],
            4 => [0.0, 1.0, 0.0, if eye { 0.5 } else { 0.0 }],
            5 => [0.0, 0.0, 1.0, 0.0],
            _ => [0.0; 4],
        }
    };
    let (out, _) = run_with(
        "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n",
        [None; 8],
        &consts,
        &f,
        input(false),
    );
    assert_eq!(uniform(&out), texel(2, 2));
    let (out, _) = run_with(
        "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n",
        [None; 8],
        &consts,
        &f,
        input(true),
    );
    assert_eq!(uniform(&out), texel(2, 2));
}

#[test]
fn depth_replacement_divides_and_guards_zero() {
    let consts = bank(&[], &no_bump());
    let rows = |t0: [f32; 4]| {
        move |k: usize, _: f32, _: f32| match k {
            2 => t0,
            3 => [1.0, 0.0, 0.0, 0.0],
            4 => [0.0, 2.0, 0.0, 0.0],
            _ => [0.0; 4],
        }
    };
    let text = "ps_1_3\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n";
    let (out, _) = run_with(
        text,
        [None; 8],
        &consts,
        &fetch(&[]),
        rows([0.25, 0.5, 0.0, 1.0]),
    );
    for o in &out {
        assert_eq!(o.depth, Some(0.25));
    }
    let (out, _) = run_with(
        text,
        [None; 8],
        &consts,
        &fetch(&[]),
        rows([0.25, 0.0, 0.0, 1.0]),
    );
    for o in &out {
        assert_eq!(o.depth, Some(1.0));
    }
    // ps_1_4 texdepth: r5.r / r5.g.
    let (out, _) = run_with(
        "ps_1_4\ntexcrd r5.rgb, t0\nphase\ntexdepth r5\nmov r0, c0\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        rows([0.25, 0.5, 0.0, 1.0]),
    );
    for o in &out {
        assert_eq!(o.depth, Some(0.5));
    }
}

#[test]
fn phase_drops_alpha_and_allows_dependent_reads() {
    let consts = bank(&[], &no_bump());
    let f = fetch(&[1]);
    let input = |k: usize, x: f32, y: f32| {
        let (u, v) = centre(x, y);
        if k == 2 { [u, v, 0.0, 1.0] } else { [0.0; 4] }
    };
    let (out, inputs) = run_with(
        "ps_1_4\ndef c0, 1, 1, 1, 0.5\ntexcrd r0.rgb, t0\nmov r3, c0\nphase\ntexld r1, r0\nmov r0.rgb, r1\n+mov r0.a, c0.a\n",
        [None; 8],
        &consts,
        &f,
        input,
    );
    assert_lanes(&out, &inputs, "dependent read", |x, y| {
        let t = texel(x, y);
        [t[0], t[1], t[2], 0.5]
    });
    // Reading a register's alpha after the marker is invalid (the
    // validator refuses it); run anyway, the interpreter reads 0.
    let prog = program("ps_1_4\ndef c0, 1, 1, 1, 1\nmov r3, c0\nphase\nmov r0, r3\n");
    let p = Prepared::new(&prog, ExecKey::new(&prog, &[]));
    let out = run_ps_prepared(&p, &quads(0.0, 0.0, |_, _, _| [0.0; 4]), &consts, &f, ALL);
    assert_eq!(uniform(&out), [1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn texkill_tests_xyz_of_the_coordinate() {
    let consts = bank(&[], &no_bump());
    let (out, _) = run_with(
        "ps_1_1\ntexkill t0\nmov r0, c0\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        |k, x, _| {
            if k == 2 {
                [1.0, 1.0, x - 1.5, -1.0]
            } else {
                [0.0; 4]
            }
        },
    );
    for (l, o) in out.iter().enumerate() {
        assert_eq!(o.killed, (l & 3) < 2, "lane {l}");
    }
}

#[test]
fn colour_inputs_feed_arithmetic() {
    let consts = bank(&[], &no_bump());
    let (out, _) = run_with(
        "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.25\nadd r0, v0, v1\nmul r0, r0, c0\n",
        [None; 8],
        &consts,
        &fetch(&[]),
        |k, _, _| match k {
            0 => [1.0, 0.5, 0.0, 1.0],
            1 => [0.0, 0.5, 1.0, 0.0],
            _ => [0.0; 4],
        },
    );
    assert_eq!(uniform(&out), [0.25; 4]);
}
