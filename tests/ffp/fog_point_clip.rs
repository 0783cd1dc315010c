//! Vertex fog, the fog decision table and table-fog factors (fixed-function.md
//! §9), point size and sprite coordinates (§8), user clip distances (§10),
//! against hand-computed values; vertex cases also check Warp == Reference.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use crate::ffp_common;

use ffp_common::*;
use glam::{Mat4, Vec3};
use warp9::internals::ffp::fog::{VertexPath, vertex_fog_factor};
use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::point::sprite_coord;
use warp9::internals::ffp::*;
use warp9::state::{Color, FogMode, RenderState, TransformType as Tt};
use warp9::vertex::{DeclType as D, DeclUsage as U};

fn fog_state(mode: FogMode) -> FfpState {
    let mut s = FfpState::default();
    s.set_render(RenderState::Lighting(false));
    s.set_render(RenderState::FogEnable(true));
    s.set_render(RenderState::FogVertexMode(mode));
    s.set_render(RenderState::FogStart(2.0));
    s.set_render(RenderState::FogEnd(10.0));
    s.set_render(RenderState::FogDensity(0.5));
    s
}

fn fog_of(s: &FfpState, p: [f32; 3]) -> VertexOutput<f32> {
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::D3dColor, U::Color, 1),
    ];
    let mut vb = f32s(&p);
    vb.extend(0x8000_0000u32.to_le_bytes());
    run(s, &els, &vb, 16, 1, DrawOptions::default())[0]
}

#[test]
fn vertex_fog_formulas() {
    let s = fog_state(FogMode::Linear);
    let o = fog_of(&s, [1.0, 1.0, 4.0]);
    assert_eq!(o.fog, 0.75);
    assert_eq!(o.specular[3], 0.75, "written to specular alpha");
    assert_eq!(fog_of(&s, [0.0, 0.0, -4.0]).fog, 0.75, "|z|");
    assert_eq!(fog_of(&s, [0.0, 0.0, 1.0]).fog, 1.0, "clamped");
    assert_eq!(fog_of(&s, [0.0, 0.0, 20.0]).fog, 0.0, "clamped");
    let mut r = s.clone();
    r.set_render(RenderState::RangeFogEnable(true));
    assert_eq!(fog_of(&r, [3.0, 0.0, 4.0]).fog, 0.625, "range fog: d = 5");
    let e = fog_of(&fog_state(FogMode::Exp), [0.0, 0.0, 4.0]).fog;
    assert!((e - (-2.0f32).exp()).abs() < 1e-7, "{e}");
    let e2 = fog_of(&fog_state(FogMode::Exp2), [0.0, 0.0, 4.0]).fog;
    assert!((e2 - (-4.0f32).exp()).abs() < 1e-7, "{e2}");
    // FOGSTART == FOGEND: fully fogged.
    let mut eq = s.clone();
    eq.set_render(RenderState::FogEnd(2.0));
    assert_eq!(fog_of(&eq, [0.0, 0.0, 1.0]).fog, 0.0);
    // Both modes NONE: the vertex's COLOR1 alpha; table fog: no vertex factor, specular alpha kept.
    let none = fog_state(FogMode::None);
    assert_eq!(fog_of(&none, [0.0, 0.0, 4.0]).fog, 128.0 / 255.0);
    let mut table = s.clone();
    table.set_render(RenderState::FogTableMode(FogMode::Exp));
    let o = fog_of(&table, [0.0, 0.0, 4.0]);
    assert_eq!((o.fog, o.specular[3]), (1.0, 128.0 / 255.0));
    // Fog off.
    let mut off = s;
    off.set_render(RenderState::FogEnable(false));
    assert_eq!(fog_of(&off, [0.0, 0.0, 4.0]).fog, 1.0);
}

#[test]
fn fog_decision_table() {
    let mut s = fog_state(FogMode::Linear);
    assert_eq!(
        fog_decision(&s, VertexPath::FixedFunction, false, true),
        FogPath::Interpolated
    );
    assert_eq!(
        fog_decision(&s, VertexPath::Shader, false, true),
        FogPath::Interpolated
    );
    assert_eq!(
        fog_decision(&s, VertexPath::Shader, true, true),
        FogPath::Off,
        "ps_3_0"
    );
    s.set_render(RenderState::FogTableMode(FogMode::Exp2));
    // Identity projection: z-based.
    assert_eq!(
        fog_decision(&s, VertexPath::Pretransformed, false, true),
        FogPath::Table {
            mode: FogMode::Exp2,
            w_based: false
        }
    );
    // A perspective projection (fourth column not (0,0,0,1)): w-based where WFOG is reported.
    let mut p = Mat4::IDENTITY;
    p.z_axis.w = 1.0;
    p.w_axis.w = 0.0;
    s.set_transform(Tt::Projection, p);
    assert_eq!(
        fog_decision(&s, VertexPath::FixedFunction, false, true),
        FogPath::Table {
            mode: FogMode::Exp2,
            w_based: true
        }
    );
    assert_eq!(
        fog_decision(&s, VertexPath::FixedFunction, false, false),
        FogPath::Table {
            mode: FogMode::Exp2,
            w_based: false
        }
    );
    s.set_render(RenderState::FogEnable(false));
    assert_eq!(
        fog_decision(&s, VertexPath::FixedFunction, false, true),
        FogPath::Off
    );
}

#[test]
fn table_fog_and_blend() {
    // Wine test_table_fog_zw: linear 0..1, z = 0.7 → f = 0.3; red geometry, green fog → 0x004CB200.
    let f = table_fog_factor(FogMode::Linear, 0.7f32, [0.0, 1.0, 1.0]);
    assert!((f - 0.3).abs() < 1e-6);
    let c = fog_blend([1.0f32, 0.0, 0.0, 1.0], f, Color(0xFF00_FF00).to_rgba());
    // Within 1 per channel of the Windows value (the 8-bit conversion of 76.5 and 178.5 is the target's).
    let px = c.map(|v| (v * 255.0).round() as i32);
    for (got, want) in px.iter().zip([0x4C, 0xB2, 0x00]) {
        assert!((got - want).abs() <= 1, "{px:?}");
    }
    assert_eq!(c[3], 1.0, "alpha untouched");
    // START == END for table fog: unfogged below, fogged from the start on.
    assert_eq!(
        table_fog_factor(FogMode::Linear, 0.49f32, [0.5, 0.5, 1.0]),
        1.0
    );
    assert_eq!(
        table_fog_factor(FogMode::Linear, 0.5f32, [0.5, 0.5, 1.0]),
        0.0
    );
    assert_eq!(
        vertex_fog_factor(FogMode::Linear, 0.49f32, [0.5, 0.5, 1.0]),
        0.0
    );
    let e = table_fog_factor(FogMode::Exp, 0.5f32, [0.0, 1.0, 2.0]);
    assert!((e - (-1.0f32).exp()).abs() < 1e-7);
    assert_eq!(
        table_fog_factor(FogMode::Exp, f32::NAN, [0.0, 1.0, 2.0]),
        0.0,
        "NaN depth does not escape the clamp"
    );
}

fn psize(s: &FfpState, els: &[warp9::vertex::VertexElement], vb: &[u8], stride: u32) -> f32 {
    run(
        s,
        els,
        vb,
        stride,
        1,
        DrawOptions {
            points: true,
            ..DrawOptions::default()
        },
    )[0]
    .point_size
}

#[test]
fn point_sizes() {
    let mut s = FfpState::default();
    s.set_render(RenderState::Lighting(false));
    let p = [el(0, D::Float3, U::Position, 0)];
    let vb = f32s(&[3.0, 0.0, 4.0, 2.5]);
    s.set_render(RenderState::PointSize(4.0));
    assert_eq!(psize(&s, &p, &vb, 16), 4.0);
    s.set_render(RenderState::PointSizeMin(5.0));
    assert_eq!(psize(&s, &p, &vb, 16), 5.0, "MIN clamp");
    s.set_render(RenderState::PointSizeMin(1.0));
    // Per-vertex PSIZE wins over the state.
    let pv = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float1, U::PSize, 0),
    ];
    assert_eq!(psize(&s, &pv, &vb, 16), 2.5);
    // Scaling: viewport height 100, A = B = 0, C = 1: S = 100 · 2.5 / De with De = 5.
    s.viewport.height = 100;
    s.set_render(RenderState::PointScaleEnable(true));
    s.set_render(RenderState::PointScaleA(0.0));
    s.set_render(RenderState::PointScaleC(1.0));
    assert!((psize(&s, &pv, &vb, 16) - 50.0).abs() < 1e-4);
    // A + B·De + C·De²: 1 + 0.6·5 = 4 → sqrt(1/4) = 0.5.
    s.set_render(RenderState::PointScaleA(1.0));
    s.set_render(RenderState::PointScaleB(0.6));
    s.set_render(RenderState::PointScaleC(0.0));
    assert_eq!(psize(&s, &pv, &vb, 16), 64.0, "POINTSIZE_MAX default 64");
    s.set_render(RenderState::PointSizeMax(1000.0));
    assert!((psize(&s, &pv, &vb, 16) - 125.0).abs() < 1e-3);
    // A non-positive denominator: +INF, clamped to min(MAX, MaxPointSize).
    s.set_render(RenderState::PointScaleA(0.0));
    s.set_render(RenderState::PointScaleB(0.0));
    assert_eq!(psize(&s, &pv, &vb, 16), 256.0);
    // Pre-transformed vertices are never scaled.
    let t = [
        el(0, D::Float4, U::PositionT, 0),
        el(16, D::Float1, U::PSize, 0),
    ];
    assert_eq!(psize(&s, &t, &f32s(&[1.0, 2.0, 0.5, 1.0, 3.0]), 20), 3.0);
    // Sprite coordinates: (0, 0) top-left to (1, 1) bottom-right.
    assert_eq!(sprite_coord([10.0f32, 20.0], [12.0, 22.0], 4.0), [0.0, 0.0]);
    assert_eq!(sprite_coord([14.0f32, 24.0], [12.0, 22.0], 4.0), [1.0, 1.0]);
    assert_eq!(
        sprite_coord([13.0f32, 21.0], [12.0, 22.0], 4.0),
        [0.75, 0.25]
    );
}

#[test]
fn user_clip_planes_in_world_space() {
    let mut s = FfpState::default();
    s.set_render(RenderState::Lighting(false));
    s.clip_planes[0] = [1.0, 0.0, 0.0, -1.0]; // world x >= 1
    s.clip_planes[2] = [0.0, 0.0, 1.0, 0.0]; // world z >= 0
    s.set_render(RenderState::ClipPlaneEnable(0b101));
    // The view (and projection) do not move world-space planes.
    s.set_transform(
        Tt::View,
        Mat4::from_translation(Vec3::new(5.0, -2.0, 7.0)) * Mat4::from_rotation_y(0.3),
    );
    s.set_transform(Tt::WORLD, Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0)));
    let p = [el(0, D::Float3, U::Position, 0)];
    let out = run(
        &s,
        &p,
        &f32s(&[2.5, 1.0, -3.0, 0.0, 0.0, 1.0]),
        12,
        2,
        DrawOptions::default(),
    );
    close(
        &out[0].clip_distance,
        &[2.0, 0.0, -3.0, 0.0, 0.0, 0.0],
        1e-5,
    );
    close(
        &out[1].clip_distance,
        &[-0.5, 0.0, 1.0, 0.0, 0.0, 0.0],
        1e-5,
    );
    // CLIPPING off: no user planes.
    s.set_render(RenderState::Clipping(false));
    let out = run(
        &s,
        &p,
        &f32s(&[2.5, 1.0, -3.0]),
        12,
        1,
        DrawOptions::default(),
    );
    assert_eq!(out[0].clip_distance, [0.0; 6]);
}

#[test]
fn process_vertices_screen_mapping() {
    use warp9::internals::ffp::output::screen_position;
    let vp = warp9::state::Viewport {
        x: 10,
        y: 20,
        width: 200,
        height: 100,
        min_z: 0.25,
        max_z: 0.75,
    };
    assert_eq!(
        screen_position([1.0, 1.0, 1.0, 2.0], &vp),
        [160.0, 45.0, 0.5, 0.5]
    );
    assert_eq!(
        screen_position([-2.0, -2.0, 0.0, 2.0], &vp),
        [10.0, 120.0, 0.25, 0.5]
    );
}

#[test]
fn stage_divisors_follow_the_vertex_key() {
    use warp9::internals::ffp::texgen::stage_divisors;
    use warp9::state::{TextureStageState as Tss, TextureTransformFlags};
    let mut s = FfpState::default();
    s.set_stage(
        0,
        Tss::TextureTransformFlags(TextureTransformFlags {
            count: 3,
            projected: true,
        }),
    );
    s.set_stage(
        1,
        Tss::TextureTransformFlags(TextureTransformFlags {
            count: 0,
            projected: true,
        }),
    );
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::TexCoord, 0),
        el(24, D::Float2, U::TexCoord, 1),
    ];
    let (layout, _) = FfpInputLayout::new(&els);
    let key = FfpVertexKey::new(&s, &layout, DrawOptions::default());
    let d = stage_divisors(&s, Some(&key));
    assert_eq!(&d[..3], &[Some(2), Some(1), None]);
    // Vertex shaders project by w.
    assert_eq!(stage_divisors(&s, None)[1], Some(3));
}
