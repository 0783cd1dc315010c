//! Vertex → pixel linkage (bytecode.md §8): output and input layouts of
//! every model pair, semantic matching by component position, defaults
//! for unmatched inputs, and one end-to-end run feeding a pixel program
//! from a vertex program's outputs through the links.

use crate::exec_support;

use exec_support::{Consts, program, quads, run_ps_prepared, run_vs_prepared, vin};
use warp9::internals::exec::point_fetch::PointFetch;
use warp9::internals::exec::{
    ExecKey, InputLayout, LinkSource, OutputLayout, Prepared, link, regs,
};
use warp9::vertex::DeclUsage;

fn src(links: &[warp9::internals::exec::Link], input: u16, comp: u8) -> LinkSource {
    links
        .iter()
        .find(|l| l.input == input && l.comp == comp)
        .unwrap_or_else(|| panic!("no link for input {input}.{comp}"))
        .source
}

fn out(slot: u16, comp: u8) -> LinkSource {
    LinkSource::Output { slot, comp }
}

#[test]
fn vs_3_0_to_ps_3_0_by_semantic_and_component_position() {
    let vs = program(
        "vs_3_0\ndcl_position o0\ndcl_color0 o1\ndcl_texcoord0 o3.xy\ndcl_texcoord1 o3.zw\ndcl_fog o4.x\ndcl_psize o4.y\n\
         mov o0, c0\nmov o1, c1\nmov o3, c2\nmov o4.x, c3\nmov o4.y, c4\n",
    );
    let ps = program(
        "ps_3_0\ndcl_color0 v0\ndcl_texcoord1 v5.zw\ndcl_texcoord1_centroid v6.xy\ndcl_normal0 v1\ndcl_fog v2.x\ndcl vPos.xy\nmov oC0, v0\n",
    );
    let o = OutputLayout::of_program(&vs);
    assert_eq!(o.position, Some(0));
    assert_eq!(o.fog, Some((4, 0)));
    assert_eq!(o.point_size, Some((4, 1)));
    let i = InputLayout::of_program(&ps);
    assert!(i.uses_vpos && !i.uses_vface);
    let links = link(&o, &i, false);
    for c in 0..4 {
        assert_eq!(src(&links, 0, c), out(1, c), "COLOR0.{c}");
        assert_eq!(
            src(&links, 1, c),
            LinkSource::Constant(0.0),
            "NORMAL0 unmatched"
        );
    }
    // TEXCOORD1 lives in o3.zw: v5.zw gets it, v6.xy (other positions) gets 0.
    assert_eq!(src(&links, 5, 2), out(3, 2));
    assert_eq!(src(&links, 5, 3), out(3, 3));
    assert_eq!(src(&links, 6, 0), LinkSource::Constant(0.0));
    assert_eq!(src(&links, 2, 0), out(4, 0));
    let l6 = links.iter().find(|l| l.input == 6).unwrap();
    assert!(l6.centroid && !l6.color);
    assert!(links.iter().find(|l| l.input == 0).unwrap().color);
    assert_eq!(links.len(), 4 + 2 + 2 + 4 + 1);
}

#[test]
fn vs_2_0_to_ps_2_0_fixed_registers_and_defaults() {
    let vs = program("vs_2_0\nmov oPos, c0\nmov oD0.xyz, c1\nmov oT2.xy, c2\nmov oFog, c3.x\n");
    let o = OutputLayout::of_program(&vs);
    let slots: Vec<(u16, DeclUsage, u8)> = o
        .varyings
        .iter()
        .map(|v| (v.slot, v.usage, v.index))
        .collect();
    assert_eq!(
        slots,
        [
            (regs::OUT_POS, DeclUsage::Position, 0),
            (regs::OUT_FOG, DeclUsage::Fog, 0),
            (regs::OUT_D0, DeclUsage::Color, 0),
            (regs::OUT_T0 + 2, DeclUsage::TexCoord, 2),
        ]
    );
    let ps = program("ps_2_0\ndcl v0\ndcl v1\ndcl t2\ndcl t3.xy\nmov oC0, v0\n");
    let i = InputLayout::of_program(&ps);
    let links = link(&o, &i, true);
    // v0 ← oD0 (whole register: unwritten components carry the defaults).
    for c in 0..4 {
        assert_eq!(src(&links, 0, c), out(regs::OUT_D0, c));
        assert_eq!(
            src(&links, 1, c),
            LinkSource::Constant(0.0),
            "v1 without oD1"
        );
        assert_eq!(
            src(&links, 4, c),
            out(regs::OUT_T0 + 2, c),
            "t2 is input slot 4"
        );
    }
    assert_eq!(
        src(&links, 5, 0),
        LinkSource::Constant(0.0),
        "t3 without oT3"
    );
    // A ps_2_0 v0 fed by a vertex stage without oD0 reads 1 (§10).
    let no_d0 = OutputLayout::of_program(&program("vs_2_0\nmov oPos, c0\n"));
    let links = link(&no_d0, &i, true);
    assert_eq!(src(&links, 0, 3), LinkSource::Constant(1.0));
    // ... but a ps_3_0 COLOR0 input without a source reads 0.
    let ps3 = InputLayout::of_program(&program("ps_3_0\ndcl_color0 v0\nmov oC0, v0\n"));
    assert_eq!(
        src(&link(&no_d0, &ps3, false), 0, 0),
        LinkSource::Constant(0.0)
    );
}

#[test]
fn legacy_outputs_feed_ps_3_0_by_their_implied_semantics() {
    let o = OutputLayout::fixed_function();
    assert_eq!(o.varyings.len(), 13);
    let ps = InputLayout::of_program(&program(
        "ps_3_0\ndcl_color1 v0\ndcl_texcoord7 v1\ndcl_fog v2.x\ndcl_position v3\nmov oC0, v0\n",
    ));
    let links = link(&o, &ps, false);
    assert_eq!(src(&links, 0, 0), out(regs::OUT_D0 + 1, 0));
    assert_eq!(src(&links, 1, 3), out(regs::OUT_T0 + 7, 3));
    assert_eq!(src(&links, 2, 0), out(regs::OUT_FOG, 0));
    assert_eq!(src(&links, 3, 2), out(regs::OUT_POS, 2));
}

#[test]
fn vs_outputs_defaults_and_saturation_before_linking() {
    // vs < 3.0: oD0 unwritten components read 1, oD1/oT 0; oD#/oFog clamp.
    let vs = program("vs_2_0\nmov oD0.xy, c0\nmov oD1, c1\nmov oFog, c2.x\nmov oT0.x, c3.x\n");
    let p = Prepared::new(&vs, ExecKey::default());
    let mut c = Consts::indexed();
    c.float[0] = [2.0, -1.0, 0.0, 0.0];
    c.float[1] = [0.5, f32::NAN, 3.0, -3.0];
    c.float[2] = [-4.0; 4];
    c.float[3] = [-4.0; 4];
    let o = run_vs_prepared(&p, &[vin(&[])], &c, &PointFetch::default());
    assert_eq!(o[0][regs::OUT_D0 as usize], [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(o[0][regs::OUT_D0 as usize + 1], [0.5, 0.0, 1.0, 0.0]);
    assert_eq!(o[0][regs::OUT_FOG as usize][0], 0.0);
    assert_eq!(o[0][regs::OUT_T0 as usize], [-4.0, 0.0, 0.0, 0.0]);
    // vs_3_0 outputs are not clamped.
    let vs3 = program("vs_3_0\ndcl_color0 o1\nmov o1, c1\n");
    let p = Prepared::new(&vs3, ExecKey::default());
    let o = run_vs_prepared(&p, &[vin(&[])], &c, &PointFetch::default());
    assert_eq!(o[0][1][2], 3.0);
}

#[test]
fn end_to_end_vertex_outputs_feed_pixel_inputs_through_the_links() {
    let vs = program(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord3 o2.zw\ndcl_color0 o5\n\
         mov o0, v0\nmul o2.zw, v0.xxxy, c1.x\nadd o5, v0, c2\n",
    );
    let ps = program("ps_3_0\ndcl_texcoord3 v7.zw\ndcl_color0 v1\nadd oC0, v7.zwzw, v1\n");
    let pv = Prepared::new(&vs, ExecKey::default());
    let pp = Prepared::new(&ps, ExecKey::default());
    let links = link(pv.outputs(), pp.inputs(), false);
    let mut c = Consts::indexed();
    c.float[1] = [10.0; 4];
    c.float[2] = [0.5, 0.25, 0.125, 1.0];
    // Eight "vertices", one per pixel lane (a stand-in for interpolation).
    let verts: Vec<_> = (0..8)
        .map(|l| vin(&[[l as f32, 2.0 * l as f32, 0.0, 1.0]]))
        .collect();
    let vout = run_vs_prepared(&pv, &verts, &c, &PointFetch::default());
    let mut inputs = quads(0.0, 0.0, |_, _, _| [0.0; 4]);
    for (l, i) in inputs.iter_mut().enumerate() {
        for k in &links {
            i.v[k.input as usize][k.comp as usize] = match k.source {
                LinkSource::Output { slot, comp } => vout[l][slot as usize][comp as usize],
                LinkSource::Constant(v) => v,
            };
        }
    }
    let o = run_ps_prepared(&pp, &inputs, &c, &PointFetch::default(), 0xFF);
    for (l, px) in o.iter().enumerate() {
        let (x, y) = (l as f32, 2.0 * l as f32);
        let tc = [10.0 * x, 10.0 * y];
        let col = [x + 0.5, y + 0.25, 0.125, 2.0];
        assert_eq!(
            px.color[0],
            [
                tc[0] + col[0],
                tc[1] + col[1],
                tc[0] + col[2],
                tc[1] + col[3]
            ],
            "lane {l}"
        );
    }
}
