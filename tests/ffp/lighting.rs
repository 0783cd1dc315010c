//! Lighting (fixed-function.md §5): the worked vectors of §5.6 (Wine's
//! test_specular_lighting, Windows reference values) and hand-computed
//! values for every term, material source and the LIGHTING-off path.
//! Every case also checks Warp (all backends) == Reference bit for bit.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use crate::ffp_common;

use ffp_common::*;
use glam::Vec3;
use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::*;
use warp9::state::{Light, LightType, Material, MaterialColorSource, RenderState};
use warp9::vertex::{DeclType as D, DeclUsage as U};

fn spec_state(light: Light, local_viewer: bool, power: f32) -> FfpState {
    let mut s = FfpState::default();
    s.lights = vec![light];
    s.material = Material {
        specular: [1.0; 4],
        power,
        ..Material::default()
    };
    s.set_render(RenderState::SpecularEnable(true));
    s.set_render(RenderState::LocalViewer(local_viewer));
    s
}

fn directional() -> Light {
    Light {
        light_type: LightType::Directional,
        direction: Vec3::Z,
        specular: [1.0, 1.0, 1.0, 0.0],
        diffuse: [0.0; 4],
        ..Light::default()
    }
}

fn point(range: f32) -> Light {
    Light {
        light_type: LightType::Point,
        position: Vec3::ZERO,
        specular: [1.0, 1.0, 1.0, 0.0],
        diffuse: [0.0; 4],
        range,
        attenuation2: 1.0,
        ..Light::default()
    }
}

fn spot() -> Light {
    Light {
        light_type: LightType::Spot,
        direction: Vec3::Z,
        theta: std::f32::consts::PI / 12.0,
        phi: std::f32::consts::PI / 3.0,
        falloff: 1.0,
        ..point(100.0)
    }
}

/// The 8-bit grey of the specular output at vertex (x, y, 1) with normal (0, 0, -1).
fn grey(state: &FfpState, x: f32, y: f32) -> i32 {
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    let out = run(
        state,
        &els,
        &f32s(&[x, y, 1.0, 0.0, 0.0, -1.0]),
        24,
        1,
        DrawOptions::default(),
    );
    // Diffuse is black (all other material colours 0): the pixel is the specular add.
    assert_eq!(&out[0].diffuse[..3], &[0.0; 3]);
    (out[0].specular[0] * 255.0).round() as i32
}

/// Name, light, LOCALVIEWER, Power, vertex (x, y), Windows grey value.
type Row = (&'static str, Light, bool, f32, (f32, f32), i32);

#[test]
fn worked_specular_vectors_of_5_6() {
    let rows: [Row; 11] = [
        (
            "directional, non-local",
            directional(),
            false,
            30.0,
            (-0.5, 0.5),
            255,
        ),
        (
            "directional, local",
            directional(),
            true,
            30.0,
            (-0.5, 0.5),
            0x3C,
        ),
        (
            "point range 100",
            point(100.0),
            false,
            30.0,
            (-0.5, 0.5),
            0x28,
        ),
        (
            "point range 1.2, outside",
            point(1.2),
            false,
            30.0,
            (-0.5, 0.5),
            0,
        ),
        (
            "point range 1.2, inside",
            point(1.2),
            false,
            30.0,
            (0.0, 0.5),
            0x5A,
        ),
        ("spot", spot(), false, 30.0, (0.0, 0.5), 0x14),
        (
            "point behind the surface, power 0",
            Light {
                position: Vec3::new(-1.1, 0.0, 1.1),
                ..point(100.0)
            },
            true,
            0.0,
            (0.3, -0.2),
            0,
        ),
        (
            "point, power 0",
            point(100.0),
            false,
            0.0,
            (-0.5, 0.5),
            0xAA,
        ),
        (
            "directional, local, centre",
            directional(),
            true,
            30.0,
            (0.0, 0.5),
            0x71,
        ),
        ("point, local", point(100.0), true, 30.0, (0.0, 0.5), 0x07),
        ("spot, local", spot(), true, 30.0, (0.0, 0.5), 0x02),
    ];
    for (name, light, lv, power, (x, y), want) in rows {
        let got = grey(&spec_state(light, lv, power), x, y);
        assert!((got - want).abs() <= 1, "{name}: got {got}, Windows {want}");
    }
    // "any vertex" rows hold across the quad.
    for (x, y) in [(-1.0, -1.0), (0.7, 0.2), (1.0, 1.0)] {
        assert_eq!(grey(&spec_state(directional(), false, 30.0), x, y), 255);
    }
}

/// Diffuse + ambient + emissive with hand-computed numbers.
#[test]
fn diffuse_ambient_emissive_terms() {
    let mut s = FfpState::default();
    s.set_render(RenderState::Ambient(warp9::state::Color(0xFF33_6699)));
    s.material = Material {
        diffuse: [0.5, 0.25, 1.0, 0.75],
        ambient: [1.0, 0.5, 0.0, 1.0],
        emissive: [0.0, 0.0, 0.125, 0.0],
        ..Material::default()
    };
    // Directional light from +y with diffuse and ambient parts.
    s.lights = vec![Light {
        light_type: LightType::Directional,
        direction: Vec3::new(0.0, -1.0, 0.0),
        diffuse: [0.8, 0.6, 0.4, 1.0],
        ambient: [0.1, 0.2, 0.3, 1.0],
        ..Light::default()
    }];
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    // Normal at 60 degrees from the light: N·L = 0.5.
    let n = [0.0, 0.5, (0.75f32).sqrt()];
    let out = run(
        &s,
        &els,
        &f32s(&[1.0, 2.0, 3.0, n[0], n[1], n[2]]),
        24,
        1,
        DrawOptions::default(),
    );
    let g = [0.2, 0.4, 0.6];
    let want = [
        1.0 * (g[0] + 0.1) + 0.5 * 0.8 * 0.5,
        0.5 * (g[1] + 0.2) + 0.25 * 0.6 * 0.5,
        0.0 * (g[2] + 0.3) + 1.0 * 0.4 * 0.5 + 0.125,
        0.75,
    ];
    close(&out[0].diffuse, &want, 1e-6);
    // SPECULARENABLE off: specular is (0, 0, 0, Cs.a).
    assert_eq!(out[0].specular, [0.0; 4]);

    // A back-facing normal gets ambient only; a missing normal too.
    let out = run(
        &s,
        &els,
        &f32s(&[1.0, 2.0, 3.0, 0.0, -1.0, 0.0]),
        24,
        1,
        DrawOptions::default(),
    );
    close(&out[0].diffuse[..3], &[0.3, 0.3, 0.125], 1e-6);
    let els1 = [el(0, D::Float3, U::Position, 0)];
    let out = run(
        &s,
        &els1,
        &f32s(&[1.0, 2.0, 3.0]),
        12,
        1,
        DrawOptions::default(),
    );
    close(&out[0].diffuse[..3], &[0.3, 0.3, 0.125], 1e-6);
}

#[test]
fn attenuation_and_range() {
    let mut s = FfpState::default();
    s.material.diffuse = [1.0; 4];
    s.lights = vec![Light {
        light_type: LightType::Point,
        position: Vec3::new(0.0, 0.0, -2.0),
        diffuse: [1.0; 4],
        range: 5.0,
        attenuation0: 0.5,
        attenuation1: 0.25,
        attenuation2: 0.125,
        ..Light::default()
    }];
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    // Vertex at z = 2 facing the light: d = 4, atten = 1 / (0.5 + 1 + 2) = 1/3.5.
    let vb = f32s(&[0.0, 0.0, 2.0, 0.0, 0.0, -1.0, 0.0, 0.0, 3.5, 0.0, 0.0, -1.0]);
    let out = run(&s, &els, &vb, 24, 2, DrawOptions::default());
    close(&out[0].diffuse[..3], &[1.0 / 3.5; 3], 1e-6);
    // d = 5.5 > range: nothing.
    assert_eq!(&out[1].diffuse[..3], &[0.0; 3]);
    // Saturation: with all attenuation 0 the light is infinitely bright (decision), clamped to 1.
    s.lights[0].attenuation0 = 0.0;
    s.lights[0].attenuation1 = 0.0;
    s.lights[0].attenuation2 = 0.0;
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    assert_eq!(&out[0].diffuse[..3], &[1.0; 3]);
}

#[test]
fn spot_cone_and_falloff() {
    let mut s = FfpState::default();
    s.material.diffuse = [1.0; 4];
    s.lights = vec![Light {
        light_type: LightType::Spot,
        position: Vec3::ZERO,
        direction: Vec3::Z,
        diffuse: [1.0; 4],
        range: 100.0,
        attenuation0: 1.0,
        theta: 0.5,
        phi: 1.5,
        falloff: 2.0,
        ..Light::default()
    }];
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    // Three vertices on a sphere of radius 1 at angles 0.1 (inner), 0.5 (penumbra), 1.0 (outside).
    let mut vb = vec![];
    for a in [0.1f32, 0.5, 1.0] {
        let p = [a.sin(), 0.0, a.cos()];
        vb.extend(f32s(&[p[0], p[1], p[2], -p[0], -p[1], -p[2]]));
    }
    let out = run(&s, &els, &vb, 24, 3, DrawOptions::default());
    assert!((out[0].diffuse[0] - 1.0).abs() < 1e-6);
    let (ct, cp) = ((0.25f32).cos(), (0.75f32).cos());
    let want = ((0.5f32.cos() - cp) / (ct - cp)).powf(2.0);
    assert!(
        (out[1].diffuse[0] - want).abs() < 2e-6,
        "{} vs {want}",
        out[1].diffuse[0]
    );
    assert_eq!(out[2].diffuse[0], 0.0);
}

#[test]
fn material_sources_and_color_vertex() {
    let mut s = FfpState::default();
    s.material = Material {
        diffuse: [0.0; 4],
        ambient: [0.5; 4],
        emissive: [0.25; 4],
        specular: [1.0, 0.0, 0.0, 0.5],
        power: 1.0,
    };
    s.set_render(RenderState::Ambient(warp9::state::Color(0xFFFF_FFFF)));
    s.set_render(RenderState::SpecularEnable(true));
    s.set_render(RenderState::LocalViewer(false));
    s.lights = vec![Light {
        direction: Vec3::Z,
        specular: [1.0; 4],
        diffuse: [1.0; 4],
        ..Light::default()
    }];
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
        el(24, D::D3dColor, U::Color, 0),
        el(28, D::D3dColor, U::Color, 1),
    ];
    let mut vb = f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, -1.0]);
    vb.extend(0x80FF_0000u32.to_le_bytes()); // diffuse: red, alpha 128
    vb.extend(0x4000_FF00u32.to_le_bytes()); // specular: green, alpha 64
    // Defaults: diffuse from COLOR0 (COLOR1 source), specular from COLOR1, ambient/emissive material.
    let out = run(&s, &els, &vb, 32, 1, DrawOptions::default());
    close(&out[0].diffuse, &[1.0, 0.75, 0.75, 128.0 / 255.0], 1e-6);
    close(&out[0].specular, &[0.0, 1.0, 0.0, 64.0 / 255.0], 1e-6);
    // Emissive from COLOR2 (vertex specular), ambient from COLOR1 (vertex diffuse).
    s.set_render(RenderState::EmissiveMaterialSource(
        MaterialColorSource::Color2,
    ));
    s.set_render(RenderState::AmbientMaterialSource(
        MaterialColorSource::Color1,
    ));
    let out = run(&s, &els, &vb, 32, 1, DrawOptions::default());
    close(&out[0].diffuse[..3], &[1.0, 1.0, 0.0], 1e-6);
    // COLORVERTEX off: all material.
    s.set_render(RenderState::ColorVertex(false));
    let out = run(&s, &els, &vb, 32, 1, DrawOptions::default());
    close(&out[0].diffuse, &[0.5 + 0.25, 0.75, 0.75, 0.0], 1e-6);
    close(&out[0].specular, &[1.0, 0.0, 0.0, 0.5], 1e-6);
    // Missing vertex colour with a vertex source: the material is used.
    s.set_render(RenderState::ColorVertex(true));
    let out = run(&s, &els[..2], &vb, 32, 1, DrawOptions::default());
    close(&out[0].specular, &[1.0, 0.0, 0.0, 0.5], 1e-6);
}

#[test]
fn lighting_off_passes_colours_with_defaults() {
    let mut s = FfpState::default();
    s.set_render(RenderState::Lighting(false));
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::D3dColor, U::Color, 0),
    ];
    let mut vb = f32s(&[0.0, 0.0, 1.0]);
    vb.extend(0x11223344u32.to_le_bytes());
    let out = run(&s, &els, &vb, 16, 1, DrawOptions::default());
    close(
        &out[0].diffuse,
        &[
            0x22 as f32 / 255.0,
            0x33 as f32 / 255.0,
            0x44 as f32 / 255.0,
            0x11 as f32 / 255.0,
        ],
        0.0,
    );
    assert_eq!(out[0].specular, [0.0; 4]);
    let out = run(&s, &els[..1], &vb, 16, 1, DrawOptions::default());
    assert_eq!(out[0].diffuse, [1.0; 4]);
    // Float colours from a declaration are clamped.
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float4, U::Color, 1),
    ];
    let out = run(
        &s,
        &els,
        &f32s(&[0.0, 0.0, 1.0, 2.0, -1.0, 0.5, 7.0]),
        28,
        1,
        DrawOptions::default(),
    );
    assert_eq!(out[0].specular, [1.0, 0.0, 0.5, 1.0]);
}

#[test]
fn no_lights_and_max_lights() {
    let mut s = FfpState::default();
    s.material = Material {
        ambient: [0.5; 4],
        emissive: [0.25; 4],
        diffuse: [0.0, 0.0, 0.0, 0.5],
        ..Material::default()
    };
    s.set_render(RenderState::Ambient(warp9::state::Color(0xFF80_8080)));
    let els = [
        el(0, D::Float3, U::Position, 0),
        el(12, D::Float3, U::Normal, 0),
    ];
    let vb = f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, -1.0]);
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    let a = 0.5 * (128.0 / 255.0) + 0.25;
    close(&out[0].diffuse, &[a, a, a, 0.5], 1e-6);
    // A hardware limit of 1 light ignores the second (validation refuses more; the cut is only a guard).
    s.material.diffuse = [1.0; 4];
    s.lights = vec![
        Light {
            direction: Vec3::Z,
            diffuse: [0.25; 4],
            ..Light::default()
        },
        Light {
            direction: Vec3::Z,
            diffuse: [0.5; 4],
            ..Light::default()
        },
    ];
    let one = DrawOptions {
        max_lights: 1,
        ..DrawOptions::default()
    };
    let out = run(&s, &els, &vb, 24, 1, one);
    close(&out[0].diffuse[..3], &[a - 0.25 + 0.25 + 0.25; 3], 1e-6);
    let out = run(&s, &els, &vb, 24, 1, DrawOptions::default());
    close(&out[0].diffuse[..3], &[(a + 0.75).min(1.0); 3], 1e-6);
}
