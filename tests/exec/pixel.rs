//! Pixel-shader execution: texture instructions through the fetch
//! interface (texld, texldp, texldb, texldl, texldd, vertex texture fetch),
//! derivatives in the 2x2 quad layout, texkill, vPos/vFace, oDepth and MRT
//! outputs, helper lanes — scalar vs every SIMD backend bit for bit.

use crate::exec_support;

use exec_support::{
    Consts, LodProbe, checker_texel as texel, checker_texture, quads, run_ps, run_vs_prepared, vin,
};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{ExecKey, Prepared};

const ALL: u32 = 0xFF;

/// The checker texture at slot 0.
fn checker() -> PointFetch {
    let mut f = PointFetch::default();
    f.bind(0, checker_texture());
    f
}

#[test]
fn texld_point_samples_with_wrap_and_unbound_slots() {
    let text = "ps_2_0\ndcl t0.xy\ndcl_2d s0\ndcl_2d s1\ntexld r0, t0, s0\ntexld r1, t0, s1\nmov oC0, r0\nmov oC1, r1\n";
    // t0 = ((x + 0.5) / 4, (y + 0.5) / 4) + 1 (wraps), x in 0..4.
    let inputs = quads(0.0, 2.0, |slot, x, y| {
        if slot == 2 {
            [(x + 0.5) / 4.0 + 1.0, (y + 0.5) / 4.0 - 1.0, 0.0, 1.0]
        } else {
            [0.0; 4]
        }
    });
    let out = run_ps(text, &inputs, &Consts::indexed(), &checker(), ALL);
    for (l, o) in out.iter().enumerate() {
        let (x, y) = (inputs[l].pos[0] as u32, inputs[l].pos[1] as u32);
        assert_eq!(o.color[0], texel(x, y), "lane {l}");
        assert_eq!(o.color[1], [0.0, 0.0, 0.0, 1.0], "unbound slot, lane {l}");
        assert!(!o.killed);
        assert_eq!(o.depth, None);
    }
}

#[test]
fn sampler_swizzle_and_write_mask_apply_to_the_texel() {
    let text = "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_2d s0\nmov r0, c9\ntexld r0.xzw, v0, s0.wzyx\nmov oC0, r0\n";
    let inputs = quads(0.0, 0.0, |_, x, y| {
        [(x + 0.5) / 4.0, (y + 0.5) / 4.0, 0.0, 0.0]
    });
    let out = run_ps(text, &inputs, &Consts::indexed(), &checker(), ALL);
    for (l, o) in out.iter().enumerate() {
        let t = texel(inputs[l].pos[0] as u32, inputs[l].pos[1] as u32);
        assert_eq!(o.color[0], [t[3], 9.0, t[1], t[0]], "lane {l}");
    }
}

#[test]
fn lod_inputs_of_every_texture_instruction() {
    // v0 = (2x + 3y, 5x + 7y, x, w): quad derivatives d/dx = (2, 5, 1),
    // d/dy = (3, 7, 0).
    let text = "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_2d s3\n\
                texld r0, v0, s3\ntexldp r1, v0, s3\ntexldb r2, v0, s3\ntexldl r3, v0, s3\n\
                texldd r4, v0, s3, v1, v1.yxzw\n\
                mov oC0, r0\nmov oC1, r1\nmov oC2, r2\nmov oC3, r3\nmov oDepth, r4.z\n";
    let inputs = quads(4.0, 6.0, |slot, x, y| match slot {
        0 => [2.0 * x + 3.0 * y, 5.0 * x + 7.0 * y, x, 4.0],
        1 => [0.5, 0.25, 0.125, 0.0],
        _ => [0.0; 4],
    });
    let out = run_ps(text, &inputs, &Consts::indexed(), &LodProbe, ALL);
    for (l, o) in out.iter().enumerate() {
        let c = inputs[l].v[0];
        assert_eq!(o.color[0], [2.0, 7.0, c[0], 301.0], "texld lane {l}");
        // texldp divides by w = 4 first: derivatives of the projection.
        assert_eq!(
            o.color[1],
            [0.5, 1.75, c[0] / 4.0, 301.0],
            "texldp lane {l}"
        );
        assert_eq!(o.color[2], [2.0, 7.0, 4.0, 302.0], "texldb lane {l}");
        assert_eq!(o.color[3], [c[0], c[1], 4.0, 303.0], "texldl lane {l}");
        // texldd: ddx = v1 = (0.5, 0.25, 0.125), ddy = v1.yxz; z = 0.125 + 0.125.
        assert_eq!(o.depth, Some(0.25), "texldd lane {l}");
    }
}

#[test]
fn dsx_dsy_are_fine_per_quad_and_y_grows_down() {
    // v0.x = x * y + x; fine derivatives (rasterization.md 18): ddx in the
    // pixel's own row of its quad, ddy in its own column.
    let text = "ps_3_0\ndcl_texcoord0 v0\ndsx r0, v0\ndsy r1, v0\nmov oC0, r0\nmov oC1, r1\ndsx_sat oC2, -v0\n";
    let inputs = quads(2.0, 4.0, |_, x, y| [x * y + x, 10.0 * y, 3.0, -x]);
    let out = run_ps(
        text,
        &inputs,
        &Consts::indexed(),
        &PointFetch::default(),
        ALL,
    );
    for (l, o) in out.iter().enumerate() {
        let [x, y] = inputs[l].pos;
        let ddx_x = y + 1.0; // v(x1, y) - v(x0, y)
        let ddy_x = x; // v(x, y1) - v(x, y0)
        assert_eq!(o.color[0], [ddx_x, 0.0, 0.0, -1.0], "lane {l}");
        assert_eq!(o.color[1], [ddy_x, 10.0, 0.0, 0.0], "lane {l}");
        assert_eq!(o.color[2], [0.0, 0.0, 0.0, 1.0], "lane {l}");
    }
}

#[test]
fn texkill_marks_lanes_and_keeps_them_running() {
    let text = "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ntexkill v0\nsetp_gt p0.x, v1.x, c0.x\nmov r1, v1.y\n(p0.x) texkill r1\nmov oC0, v0\n";
    let inputs = quads(0.0, 0.0, |slot, x, y| {
        let l = (x + 2.0 * y) as i32 + if x >= 2.0 { 2 } else { 0 };
        match slot {
            0 => match l {
                1 => [1.0, -0.0, 1.0, 1.0],     // -0 is not < 0
                2 => [1.0, 1.0, 1.0, -0.5],     // w counts (full mask)
                3 => [f32::NAN, 1.0, 1.0, 1.0], // NaN is not < 0
                4 => [-1.0, 1.0, 1.0, 1.0],
                _ => [1.0; 4],
            },
            1 => match l {
                5 => [1.0, -1.0, 0.0, 0.0],  // predicate on → killed
                6 => [-1.0, -1.0, 0.0, 0.0], // predicate off → kept
                _ => [0.0; 4],
            },
            _ => [0.0; 4],
        }
    });
    let out = run_ps(
        text,
        &inputs,
        &Consts::indexed(),
        &PointFetch::default(),
        ALL,
    );
    let killed: Vec<bool> = out.iter().map(|o| o.killed).collect();
    // Lane order: quad 0 lanes 0..3 = (0,0),(1,0),(0,1),(1,1); quad 1 from x = 2.
    let lane_id = |l: usize| {
        let (x, y) = (inputs[l].pos[0], inputs[l].pos[1]);
        (x + 2.0 * y) as i32 + if x >= 2.0 { 2 } else { 0 }
    };
    for (l, k) in killed.iter().enumerate() {
        assert_eq!(
            *k,
            matches!(lane_id(l), 2 | 4 | 5),
            "lane {l} id {}",
            lane_id(l)
        );
        // Killed lanes keep executing: their colour is written.
        assert_eq!(
            exec_support::bits(&[out[l].color[0]]),
            exec_support::bits(&[inputs[l].v[0]])
        );
    }
}

#[test]
fn vpos_vface_depth_mrt_and_helper_lanes() {
    let text = "ps_3_0\ndcl vPos.xy\ndcl vFace\nmov r0.xy, vPos\nmov r0.zw, c0\ncmp oC0, vFace, r0, -r0\nmov oC3, vPos.yxyx\nmul oDepth, vPos.x, c1.x\n";
    let mut inputs = quads(10.0, 20.0, |_, _, _| [0.0; 4]);
    for (l, i) in inputs.iter_mut().enumerate() {
        i.face = if l % 3 == 0 { -1.0 } else { 1.0 };
    }
    let active = 0b1011_0111;
    let mut c = Consts::indexed();
    c.float[1] = [0.5; 4];
    let out = run_ps(text, &inputs, &c, &PointFetch::default(), active);
    for (l, o) in out.iter().enumerate() {
        let [x, y] = inputs[l].pos;
        if active & (1 << l) == 0 {
            // Lanes outside `active` are not run: everything stays zero.
            assert_eq!(o.color, [[0.0; 4]; 4]);
            assert_eq!(o.depth, Some(0.0));
            continue;
        }
        let s = if l % 3 == 0 { -1.0 } else { 1.0 };
        assert_eq!(
            o.color[0],
            [s * x, s * y, 0.0, 0.0].map(|v| v + 0.0),
            "lane {l}"
        );
        assert_eq!(o.color[3], [y, x, y, x]);
        assert_eq!(o.color[1], [0.0; 4]);
        assert_eq!(o.depth, Some(x * 0.5));
    }
}

#[test]
fn vertex_texture_fetch_uses_the_vertex_sampler_slots() {
    let prog = exec_support::program(
        "vs_3_0\ndcl_texcoord0 v0\ndcl_2d s1\ndcl_position o0\ntexldl o0, v0, s1\n",
    );
    let p = Prepared::new(&prog, ExecKey::default());
    let lanes: Vec<_> = (0..8)
        .map(|l| vin(&[[l as f32, 0.5, 0.0, l as f32 - 2.0]]))
        .collect();
    let out = run_vs_prepared(&p, &lanes, &Consts::indexed(), &LodProbe);
    for (l, o) in out.iter().enumerate() {
        // Slot 17 + 1, explicit level = v0.w.
        assert_eq!(o[0], [l as f32, 0.5, l as f32 - 2.0, 1803.0]);
    }
}
