//! Fixed-function transforms (fixed-function.md §2–§4), texture coordinate
//! generation and transforms (§6–§7), against hand-computed values; every
//! case also checks Warp (all backends) == Reference bit for bit.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use crate::ffp_common;

use ffp_common::*;
use glam::{Mat4, Vec3, Vec4};
use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::texgen::projection_divisor;
use warp9::internals::ffp::*;
use warp9::state::{
    RenderState, TexCoordIndex, TexGen, TextureStageState as Tss, TextureTransformFlags,
    TransformType as Tt, VertexBlendFlags,
};
use warp9::vertex::{DeclType as D, DeclUsage as U};

fn pos() -> [warp9::vertex::VertexElement; 1] {
    [el(0, D::Float3, U::Position, 0)]
}

fn unlit() -> FfpState {
    let mut s = FfpState::default();
    s.set_render(RenderState::Lighting(false));
    s
}

/// Stage 0 generates `gen` (set 0) with transform flags `count`.
fn texgen(s: &mut FfpState, mode: TexGen, count: u32) {
    s.set_stage(
        0,
        Tss::TexCoordIndex(TexCoordIndex {
            index: 0,
            generate: mode,
        }),
    );
    s.set_stage(
        0,
        Tss::TextureTransformFlags(TextureTransformFlags {
            count,
            projected: false,
        }),
    );
}

#[test]
fn world_view_projection() {
    let mut s = unlit();
    s.set_transform(Tt::WORLD, Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0)));
    s.set_transform(Tt::View, Mat4::from_scale(Vec3::splat(2.0)));
    // D3DXMatrixPerspectiveLH-style rows, as glam columns.
    let (zn, zf) = (0.5f32, 50.0f32);
    let proj = Mat4::from_cols(
        Vec4::new(1.5, 0.0, 0.0, 0.0),
        Vec4::new(0.0, 2.0, 0.0, 0.0),
        Vec4::new(0.0, 0.0, zf / (zf - zn), 1.0),
        Vec4::new(0.0, 0.0, -zn * zf / (zf - zn), 0.0),
    );
    s.set_transform(Tt::Projection, proj);
    let out = run(
        &s,
        &pos(),
        &f32s(&[0.5, -1.0, 4.0]),
        12,
        1,
        DrawOptions::default(),
    );
    let want = proj * Vec4::new(3.0, 2.0, 14.0, 1.0);
    close(&out[0].position, &want.to_array(), 1e-5);
    // XYZW input uses its own w.
    let els = [el(0, D::Float4, U::Position, 0)];
    let out = run(
        &s,
        &els,
        &f32s(&[0.5, -1.0, 4.0, 2.0]),
        16,
        1,
        DrawOptions::default(),
    );
    let want = proj
        * Vec4::new(
            2.0 * (0.5 + 2.0),
            2.0 * (-1.0 + 4.0),
            2.0 * (4.0 + 6.0),
            2.0,
        );
    close(&out[0].position, &want.to_array(), 1e-5);
}

#[test]
fn normal_matrix_normalize_and_singular_world() {
    let mut s = unlit();
    texgen(&mut s, TexGen::CameraSpaceNormal, 0);
    s.set_transform(Tt::WORLD, Mat4::from_scale(Vec3::new(2.0, 1.0, 1.0)));
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    let vb = f32s(&[0.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    // Inverse transpose of diag(2, 1, 1): (0.5, 1, 0); not normalised by default.
    close(&out[0].texcoord[0], &[0.5, 1.0, 0.0, 1.0], 1e-6);
    s.set_render(RenderState::NormalizeNormals(true));
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    let l = (1.25f32).sqrt();
    close(&out[0].texcoord[0], &[0.5 / l, 1.0 / l, 0.0, 1.0], 1e-6);
    // Singular World·View: the 3x3 itself (decision §2.4).
    s.set_render(RenderState::NormalizeNormals(false));
    s.set_transform(Tt::WORLD, Mat4::from_scale(Vec3::new(0.0, 3.0, 1.0)));
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    close(&out[0].texcoord[0], &[0.0, 3.0, 0.0, 1.0], 1e-6);
    // Non-affine World·View: the 4x4 inverse transpose's 3x3 (Windows lights
    // Wine's lighting_test non-affine quad black: N = (0, 0, -1) → 0).
    s.set_transform(
        Tt::WORLD,
        Mat4::from_cols_array_2d(&[
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, -1.0],
            [10.0, 10.0, 10.0, 0.0],
        ]),
    );
    let out = run(
        &s,
        &els,
        &f32s(&[0.0, 0.0, 0.0, 0.0, 0.0, -1.0]),
        24,
        1,
        DrawOptions::default(),
    );
    close(&out[0].texcoord[0], &[0.0, 0.0, 0.0, 1.0], 1e-6);
    let out = run(
        &s,
        &els,
        &f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
        24,
        1,
        DrawOptions::default(),
    );
    close(&out[0].texcoord[0], &[1.0, 0.0, -1.0, 1.0], 1e-6);
    // A zero normal normalises to zero.
    s.set_render(RenderState::NormalizeNormals(true));
    let out = run(&s, &els, &f32s(&[0.0; 6]), 24, 1, DrawOptions::default());
    assert_eq!(out[0].texcoord[0], [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn weighted_blending() {
    let mut s = unlit();
    texgen(&mut s, TexGen::CameraSpacePosition, 0);
    s.set_stage(
        1,
        Tss::TexCoordIndex(TexCoordIndex {
            index: 0,
            generate: TexGen::CameraSpaceNormal,
        }),
    );
    for (i, t) in [
        (4.0, 0.0, 0.0),
        (0.0, 8.0, 0.0),
        (0.0, 0.0, 16.0),
        (32.0, 0.0, 0.0),
    ]
    .iter()
    .enumerate()
    {
        let m = Mat4::from_translation(Vec3::new(t.0, t.1, t.2))
            * Mat4::from_scale(Vec3::new(1.0 + i as f32, 1.0, 1.0));
        s.set_transform(Tt::World(i as u8), m);
    }
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::BlendWeight, 0),
        el(24, D::Float3, U::Normal, 0),
    ];
    let vb = f32s(&[0.0, 0.0, 0.0, 0.5, 0.25, 0.125, 1.0, 0.0, 0.0]);
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Weights1));
    let out = run(&s, &els, &vb, 36, 1, DrawOptions::default());
    close(&out[0].texcoord[0][..3], &[2.0, 4.0, 0.0], 1e-6);
    // Blended normals use the plain 3x3 (decision §3.4): 0.5·2 + 0.5·1... of x-scales 1 and 2.
    close(
        &out[0].texcoord[1][..3],
        &[0.5 * 1.0 + 0.5 * 2.0, 0.0, 0.0],
        1e-6,
    );
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Weights3));
    let out = run(&s, &els, &vb, 36, 1, DrawOptions::default());
    // Weights 0.5, 0.25, 0.125 and 1 − 0.875 = 0.125.
    close(
        &out[0].texcoord[0][..3],
        &[2.0 + 0.125 * 32.0, 2.0, 2.0],
        1e-6,
    );
    close(
        &out[0].texcoord[1][..3],
        &[0.5 + 0.5 + 0.375 + 0.5, 0.0, 0.0],
        1e-6,
    );
    // Without BLENDWEIGHT0 blending is off: World0 only, inverse-transpose normal.
    let out = run(
        &s,
        &[els[0], el(12, D::Float3, U::Normal, 0)],
        &f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
        24,
        1,
        DrawOptions::default(),
    );
    close(&out[0].texcoord[0][..3], &[4.0, 0.0, 0.0], 1e-6);
}

#[test]
fn indexed_blending_per_lane() {
    let mut s = unlit();
    texgen(&mut s, TexGen::CameraSpacePosition, 0);
    for i in 0..=255u8 {
        s.set_transform(
            Tt::World(i),
            Mat4::from_translation(Vec3::new(i as f32, 1000.0 * (i % 3) as f32, 0.0)),
        );
    }
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Weights2));
    s.set_render(RenderState::IndexedVertexBlendEnable(true));
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float2, U::BlendWeight, 0),
        el(20, D::UByte4, U::BlendIndices, 0),
    ];
    let mut vb = vec![];
    let idx: [[u8; 4]; 9] = [
        [10, 200, 3, 0],
        [0, 1, 2, 3],
        [255, 254, 253, 9],
        [7, 7, 7, 7],
        [1, 0, 0, 0],
        [100, 50, 25, 0],
        [9, 8, 7, 6],
        [30, 60, 90, 0],
        [3, 200, 10, 0],
    ];
    for ix in idx {
        vb.extend(f32s(&[0.0, 0.0, 0.0, 0.5, 0.25]));
        vb.extend(ix);
    }
    let out = run(&s, &els, &vb, 24, 9, DrawOptions::default());
    for (v, ix) in idx.iter().enumerate() {
        let w = [0.5f32, 0.25, 0.25];
        let x: f32 = (0..3).map(|i| w[i] * ix[i] as f32).sum();
        let y: f32 = (0..3).map(|i| w[i] * 1000.0 * (ix[i] % 3) as f32).sum();
        close(&out[v].texcoord[0][..2], &[x, y], 1e-3);
    }
    // 0WEIGHTS: one matrix, index 0, weight 1.
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Weights0));
    let out = run(&s, &els, &vb, 24, 9, DrawOptions::default());
    for (v, ix) in idx.iter().enumerate() {
        close(
            &out[v].texcoord[0][..2],
            &[ix[0] as f32, 1000.0 * (ix[0] % 3) as f32],
            0.0,
        );
    }
    // XYZB5 without LASTBETA: a FLOAT1 index, rounded.
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Weights0));
    let els = warp9::Fvf::XYZB5.to_elements();
    let out = run(
        &s,
        &els,
        &f32s(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.6]),
        32,
        1,
        DrawOptions::default(),
    );
    close(&out[0].texcoord[0][..2], &[3.0, 0.0], 0.0);
}

#[test]
fn tweening() {
    let mut s = unlit();
    texgen(&mut s, TexGen::CameraSpacePosition, 0);
    s.set_stage(
        1,
        Tss::TexCoordIndex(TexCoordIndex {
            index: 0,
            generate: TexGen::CameraSpaceNormal,
        }),
    );
    s.set_render(RenderState::VertexBlend(VertexBlendFlags::Tweening));
    s.set_render(RenderState::TweenFactor(0.25));
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Position, 1),
        el(24, D::Float3, U::Normal, 0),
        el(36, D::Float3, U::Normal, 1),
    ];
    let vb = f32s(&[0.0, 0.0, 0.0, 2.0, 4.0, 6.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let out = run(&s, &els, &vb, 48, 1, DrawOptions::default());
    close(&out[0].texcoord[0][..3], &[0.5, 1.0, 1.5], 1e-6);
    close(&out[0].texcoord[1][..3], &[0.75, 0.25, 0.0], 1e-6);
    // Only POSITION1: the normal is NORMAL0.
    let out = run(&s, &els[..3], &vb, 48, 1, DrawOptions::default());
    close(&out[0].texcoord[1][..3], &[1.0, 0.0, 0.0], 0.0);
    // Neither: behaves as DISABLE.
    let out = run(&s, &[els[0], els[2]], &vb, 48, 1, DrawOptions::default());
    close(&out[0].texcoord[0][..3], &[0.0; 3], 0.0);
}

#[test]
fn texgen_modes() {
    let mut s = unlit();
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    let vb = f32s(&[3.0, 0.0, 4.0, 0.0, 0.0, -1.0]);
    texgen(&mut s, TexGen::CameraSpaceReflectionVector, 0);
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    close(&out[0].texcoord[0], &[0.6, 0.0, -0.8, 1.0], 1e-6);
    texgen(&mut s, TexGen::SphereMap, 0);
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    let m = 2.0 * (0.4f32).sqrt();
    close(&out[0].texcoord[0], &[0.6 / m + 0.5, 0.5, 0.0, 1.0], 1e-6);
    // The view matrix moves the camera-space position.
    texgen(&mut s, TexGen::CameraSpacePosition, 0);
    s.set_transform(Tt::View, Mat4::from_translation(Vec3::new(0.0, 1.0, 2.0)));
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    close(&out[0].texcoord[0], &[3.0, 1.0, 6.0, 1.0], 0.0);
    // Pass-through of set 1 into stage 3; unused stages read (0, 0, 0, 1).
    s.set_stage(
        3,
        Tss::TexCoordIndex(TexCoordIndex {
            index: 1,
            generate: TexGen::PassThru,
        }),
    );
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float2, U::TexCoord, 1),
    ];
    let out = run(
        &s,
        &els,
        &f32s(&[0.0, 0.0, 0.0, 0.25, 0.75]),
        20,
        1,
        DrawOptions {
            tex_stages: 0b1010,
            ..DrawOptions::default()
        },
    );
    assert_eq!(out[0].texcoord[3], [0.25, 0.75, 0.0, 1.0]);
    // Stage 1 reads set 1 by default (TEXCOORDINDEX = stage).
    assert_eq!(out[0].texcoord[1], [0.25, 0.75, 0.0, 1.0]);
    // Stages 0 and 2 are not needed by the draw.
    assert_eq!(out[0].texcoord[0], [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(out[0].texcoord[2], [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn texture_transforms() {
    let mut s = unlit();
    let m = Mat4::from_cols(
        Vec4::new(2.0, 0.0, 0.0, 0.0),
        Vec4::new(0.0, 3.0, 0.0, 0.0),
        Vec4::new(0.5, 0.25, 0.0, 0.0),
        Vec4::new(9.0, 8.0, 7.0, 6.0),
    );
    s.set_transform(Tt::Texture(0), m);
    let uv = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float2, U::TexCoord, 0),
    ];
    let vb = f32s(&[0.0, 0.0, 0.0, 1.0, 1.0]);
    let cases = [
        // COUNT1 keeps t1 like COUNT2 (ATI; Wine texture_transform_flags_test).
        (1, [2.5, 3.25, 0.0, 1.0]),
        (2, [2.5, 3.25, 0.0, 1.0]),
        (3, [2.5, 3.25, 0.0, 1.0]),
        (4, [2.5, 3.25, 0.0, 0.0]),
        (0, [1.0, 1.0, 0.0, 1.0]),
    ];
    for (count, want) in cases {
        texgen(&mut s, TexGen::PassThru, count);
        let out = run(&s, &uv, &vb, 20, 1, DrawOptions::default());
        assert_eq!(out[0].texcoord[0], want, "COUNT{count}");
    }
    // FLOAT1 pads to (u, 1, 0, 0); FLOAT3 to (u, v, w, 1).
    texgen(&mut s, TexGen::PassThru, 4);
    let u1 = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float1, U::TexCoord, 0),
    ];
    let out = run(
        &s,
        &u1,
        &f32s(&[0.0, 0.0, 0.0, 1.0]),
        16,
        1,
        DrawOptions::default(),
    );
    assert_eq!(out[0].texcoord[0], [2.0, 3.0, 0.0, 0.0]);
    let u3 = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::TexCoord, 0),
    ];
    let out = run(
        &s,
        &u3,
        &f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 1.0]),
        24,
        1,
        DrawOptions::default(),
    );
    assert_eq!(out[0].texcoord[0], [11.5, 8.25, 7.0, 6.0]);
    // A missing set is (0, 0, 0, 1): the fourth row.
    let out = run(&s, &pos(), &f32s(&[0.0; 3]), 12, 1, DrawOptions::default());
    assert_eq!(out[0].texcoord[0], [9.0, 8.0, 7.0, 6.0]);
    // Generated position (P, 1) through COUNT3.
    texgen(&mut s, TexGen::CameraSpacePosition, 3);
    let out = run(
        &s,
        &pos(),
        &f32s(&[1.0, 1.0, 2.0]),
        12,
        1,
        DrawOptions::default(),
    );
    assert_eq!(
        out[0].texcoord[0],
        [2.0 + 1.0 + 9.0, 3.0 + 0.5 + 8.0, 7.0, 1.0]
    );
}

#[test]
fn projection_rules_of_7_2() {
    use warp9::internals::ffp::key::{TexKey, TexSource};
    let pass = |width, count| {
        Some(TexKey {
            source: TexSource::PassThru { set: 0, width },
            count,
        })
    };
    let generated = |count| {
        Some(TexKey {
            source: TexSource::Position,
            count,
        })
    };
    assert_eq!(projection_divisor(false, 3, pass(3, 3)), None);
    assert_eq!(projection_divisor(true, 3, pass(3, 3)), Some(2));
    assert_eq!(projection_divisor(true, 4, pass(4, 4)), Some(3));
    assert_eq!(
        projection_divisor(true, 1, pass(2, 1)),
        None,
        "COUNT1|PROJECTED does not project"
    );
    assert_eq!(
        projection_divisor(true, 0, pass(3, 0)),
        Some(2),
        "DISABLE|PROJECTED: the input width"
    );
    assert_eq!(
        projection_divisor(true, 0, generated(0)),
        Some(3),
        "generated: 4"
    );
    assert_eq!(
        projection_divisor(true, 4, pass(2, 4)),
        None,
        "count beyond the input width"
    );
    assert_eq!(projection_divisor(true, 2, generated(2)), Some(1));
    assert_eq!(
        projection_divisor(true, 0, None),
        Some(3),
        "vertex shader: w"
    );
}

#[test]
fn pretransformed_vertices_pass_through() {
    let mut s = FfpState::default();
    s.set_render(RenderState::FogEnable(true));
    s.set_render(RenderState::FogVertexMode(warp9::state::FogMode::Linear));
    texgen(&mut s, TexGen::CameraSpaceNormal, 2);
    let fvf = warp9::Fvf::XYZRHW | warp9::Fvf::DIFFUSE | warp9::Fvf::SPECULAR | warp9::Fvf::TEX1;
    let mut vb = f32s(&[10.0, 20.0, 0.5, 0.0]);
    vb.extend(0xFF00_FF00u32.to_le_bytes());
    vb.extend(0x4000_0000u32.to_le_bytes());
    vb.extend(f32s(&[0.25, 0.5]));
    let out = run(
        &s,
        &fvf.to_elements(),
        &vb,
        32,
        1,
        DrawOptions {
            points: true,
            ..DrawOptions::default()
        },
    );
    assert_eq!(out[0].position, [10.0, 20.0, 0.5, 1.0], "rhw 0 reads as 1");
    assert_eq!(out[0].diffuse, [0.0, 1.0, 0.0, 1.0], "no lighting");
    assert_eq!(
        out[0].texcoord[0],
        [0.25, 0.5, 0.0, 1.0],
        "no generation, no matrix"
    );
    assert_eq!(
        out[0].fog,
        64.0 / 255.0,
        "the specular alpha is the fog factor"
    );
    assert_eq!(out[0].point_size, 1.0);
}

#[test]
fn instanced_world_offsets_through_the_vertex_stage() {
    use std::sync::Arc;
    use warp9::vertex::{
        FetchStreams, STREAMSOURCE_INDEXEDDATA, STREAMSOURCE_INSTANCEDATA, StreamInput,
        VertexElement,
    };
    // Stream 0: positions per vertex; stream 1: one colour per instance (the per-instance data).
    let mut s = unlit();
    s.set_render(RenderState::Lighting(false));
    let els = [
        VertexElement::new(0, 0, D::Float3, U::Position, 0),
        VertexElement::new(1, 0, D::Float4, U::Color, 0),
    ];
    let mut st: [Option<StreamInput>; 16] = Default::default();
    st[0] = Some(StreamInput {
        data: Arc::new(f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])),
        offset: 0,
        stride: 12,
        freq: STREAMSOURCE_INDEXEDDATA | 3,
    });
    st[1] = Some(StreamInput {
        data: Arc::new(f32s(&[
            0.1, 0.0, 0.0, 1.0, 0.2, 0.0, 0.0, 1.0, 0.3, 0.0, 0.0, 1.0,
        ])),
        offset: 0,
        stride: 16,
        freq: STREAMSOURCE_INSTANCEDATA | 1,
    });
    let streams = FetchStreams::new(st, true);
    for instance in 0..3u32 {
        let out = run_streams(
            &s,
            &els,
            &streams,
            &[0, 1],
            instance,
            DrawOptions::default(),
        );
        assert_eq!(out[1].position, [4.0, 5.0, 6.0, 1.0]);
        assert_eq!(out[0].diffuse[0], [0.1, 0.2, 0.3][instance as usize]);
    }
}

/// The fixed-function vertex cache returns one program per key while it
/// holds it, and never holds more than `FFP_CACHE_ENTRIES` programs
/// however many states an application walks through.
#[test]
fn vertex_cache_reuses_programs_and_stays_bounded() {
    let state = FfpState::default();
    let (layout, _) = FfpInputLayout::new(&[
        warp9::vertex::VertexElement::new(0, 0, D::Float3, U::Position, 0),
        warp9::vertex::VertexElement::new(0, 12, D::Float2, U::TexCoord, 0),
    ]);
    let key = |tex_stages: u8, points: bool| {
        FfpVertexKey::new(
            &state,
            &layout,
            DrawOptions {
                points,
                tex_stages,
                max_lights: 8,
            },
        )
    };
    let mut cache = FfpVertexCache::default();
    let first = cache.get(&key(1, false));
    assert!(std::sync::Arc::ptr_eq(&first, &cache.get(&key(1, false))));
    assert_eq!(cache.len(), 1);
    // 512 distinct keys: every subset of the 8 stages, with and without points.
    let mut distinct = std::collections::HashSet::new();
    for points in [false, true] {
        for t in 0..=255u8 {
            let k = key(t, points);
            distinct.insert(k.clone());
            cache.get(&k);
            assert!(cache.len() <= FFP_CACHE_ENTRIES, "{} programs", cache.len());
        }
    }
    assert!(
        distinct.len() > FFP_CACHE_ENTRIES,
        "the keys must overflow the cache"
    );
    // The last key is still there: a repeated state costs a lookup.
    let last = cache.get(&key(255, true));
    assert!(std::sync::Arc::ptr_eq(&last, &cache.get(&key(255, true))));
}
