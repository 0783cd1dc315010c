//! End-to-end draws through the whole pipeline (vertex stage → clip-space
//! clipping and viewport → rasterizer → pixel stage with texture sampling →
//! output merger) with hand-computed pixels, on both drivers, plus random
//! fixed-function and shader draws on which Warp and Reference must agree
//! bit for bit.

// 6.28 is just a random range and `% n == 0` a coin flip, not maths to name.
#![allow(clippy::approx_constant, clippy::manual_is_multiple_of)]

use glam::{Mat4, Vec3};
use warp9::state::{
    Color, Cull, FogMode, Light, LightType, Material, TextureAddress, TextureFilter, TransformType,
};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    RenderState, SamplerState, Usage,
};

fn device(driver: DriverType, size: u32) -> Device {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (size, size, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(2),
        ..DeviceDesc::default()
    })
    .expect("device");
    d.set_render_state(RenderState::CullMode(Cull::None));
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
        .unwrap();
    d
}

fn pixels(d: &Device) -> Vec<u32> {
    d.read_surface_argb(&d.back_buffer()).unwrap()
}

fn floats(vs: &[&[f32]]) -> (Vec<u8>, u32) {
    let stride = vs[0].len() as u32 * 4;
    let b = vs
        .iter()
        .flat_map(|v| v.iter().flat_map(|f| f.to_le_bytes()))
        .collect();
    (b, stride)
}

fn both(f: impl Fn(DriverType) -> Vec<u32>) -> Vec<u32> {
    let w = f(DriverType::Warp);
    let r = f(DriverType::Reference);
    assert_eq!(w, r, "Warp and Reference differ");
    w
}

fn near(a: u32, b: u32) -> bool {
    (0..4).all(|i| ((a >> (8 * i)) & 0xFF).abs_diff((b >> (8 * i)) & 0xFF) <= 1)
}

/// A triangle covering the whole target: NDC (-1, 1), (3, 1), (-1, -3).
const FULL: [[f32; 2]; 3] = [[-1.0, 1.0], [3.0, 1.0], [-1.0, -3.0]];

#[test]
fn lit_triangle_is_material_diffuse_times_light() {
    let img = both(|driver| {
        let mut d = device(driver, 8);
        d.set_fvf(Fvf::XYZ | Fvf::NORMAL).unwrap();
        let light = Light {
            light_type: LightType::Directional,
            diffuse: [1.0, 1.0, 1.0, 1.0],
            direction: Vec3::new(0.0, 0.0, 1.0),
            ..Light::default()
        };
        d.set_light(0, &light).unwrap();
        d.light_enable(0, true);
        d.set_material(&Material {
            diffuse: [1.0, 0.2, 0.0, 1.0],
            ..Material::default()
        });
        d.set_render_state(RenderState::Ambient(Color(0)));
        let v: Vec<Vec<f32>> = FULL
            .iter()
            .map(|p| vec![p[0], p[1], 0.5, 0.0, 0.0, -1.0])
            .collect();
        let refs: Vec<&[f32]> = v.iter().map(|v| v.as_slice()).collect();
        let (b, stride) = floats(&refs);
        d.draw_primitive_up(PrimitiveType::TriangleList, 1, &b, stride)
            .unwrap();
        pixels(&d)
    });
    // N·L = 1: diffuse = material (1, 0.2, 0) → 0xFF, 0x33, 0x00.
    assert!(img.iter().all(|&p| p == 0xFFFF_3300), "{:08X}", img[0]);
}

#[test]
fn viewport_maps_ndc_to_pixel_centres() {
    let img = both(|driver| {
        let mut d = device(driver, 16);
        d.set_fvf(Fvf::XYZ | Fvf::DIFFUSE).unwrap();
        d.set_render_state(RenderState::Lighting(false));
        // Screen (0, 0), (8, 0), (0, 8): centres with x + y < 8 are inside.
        let mut b = Vec::new();
        for p in [[-1.0f32, 1.0], [0.0, 1.0], [-1.0, 0.0]] {
            for f in [p[0], p[1], 0.5] {
                b.extend_from_slice(&f.to_le_bytes());
            }
            b.extend_from_slice(&0xFF00_FF00u32.to_le_bytes());
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, 1, &b, 16)
            .unwrap();
        pixels(&d)
    });
    for y in 0..16 {
        for x in 0..16 {
            let want = if x + y < 8 { 0xFF00_FF00 } else { 0 };
            assert_eq!(img[y * 16 + x], want, "pixel ({x}, {y})");
        }
    }
}

fn texture_2x2(d: &mut Device, texels: [u32; 4]) -> warp9::Texture {
    let t = d
        .create_texture(2, 2, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    t.write_level(0, None, bytemuck::cast_slice(&texels), 8)
        .unwrap();
    t
}

const TEXELS: [u32; 4] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF];

/// A full-target quad (two triangles) with (u, v) = (0, 0) at the top-left corner.
fn textured_quad(d: &mut Device) {
    let q = [
        [-1.0f32, 1.0, 0.0, 0.0],
        [1.0, 1.0, 1.0, 0.0],
        [1.0, -1.0, 1.0, 1.0],
        [-1.0, -1.0, 0.0, 1.0],
    ];
    let mut b = Vec::new();
    for i in [0, 1, 2, 0, 2, 3] {
        for f in [q[i][0], q[i][1], 0.5, q[i][2], q[i][3]] {
            b.extend_from_slice(&f.to_le_bytes());
        }
    }
    d.draw_primitive_up(PrimitiveType::TriangleList, 2, &b, 20)
        .unwrap();
}

#[test]
fn textured_quad_point_samples_texel_per_pixel() {
    let img = both(|driver| {
        let mut d = device(driver, 4);
        d.set_fvf(Fvf::XYZ | Fvf::TEX1).unwrap();
        d.set_render_state(RenderState::Lighting(false));
        let t = texture_2x2(&mut d, TEXELS);
        d.set_texture(0, Some((&t).into())).unwrap();
        textured_quad(&mut d);
        pixels(&d)
    });
    // Pixel centres at integers: pixel x samples u = x / 4 → texel x / 2.
    for y in 0..4 {
        for x in 0..4 {
            assert_eq!(img[y * 4 + x], TEXELS[(y / 2) * 2 + x / 2], "({x}, {y})");
        }
    }
}

fn asm(text: &str) -> Vec<u32> {
    warp9::shader::assemble(text).expect("assembles")
}

#[test]
fn ps_2_0_samples_and_uses_constants() {
    let img = both(|driver| {
        let mut d = device(driver, 4);
        d.set_fvf(Fvf::XYZ | Fvf::TEX1).unwrap();
        let vs = d
            .create_vertex_shader(&asm(
                "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n",
            ))
            .unwrap();
        let ps = d
            .create_pixel_shader(&asm(
                "ps_2_0\ndef c0, 1, 0.2, 1, 1\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\n\
                 mul r0, r0, c0\nadd r0, r0, c1\nmov oC0, r0\n",
            ))
            .unwrap();
        d.set_vertex_shader(Some(&vs));
        d.set_pixel_shader(Some(&ps));
        d.set_pixel_shader_constant_f(1, &[[0.0, 0.0, 0.2, 0.0]])
            .unwrap();
        let t = texture_2x2(&mut d, TEXELS);
        d.set_texture(0, Some((&t).into())).unwrap();
        textured_quad(&mut d);
        pixels(&d)
    });
    // texel * (1, 0.2, 1, 1) + (0, 0, 0.2, 0), saturated by the target.
    let want = [0xFFFF_0033, 0xFF00_3333, 0xFF00_00FF, 0xFFFF_33FF];
    for y in 0..4 {
        for x in 0..4 {
            assert_eq!(img[y * 4 + x], want[(y / 2) * 2 + x / 2], "({x}, {y})");
        }
    }
}

/// Draws `textured_quad` through a vs_1_1 shader and a ps_2_0 that
/// outputs `out` (`v0` or `t0`), with vertex constants `c0`, `c3`–`c6`.
fn vs_1_1_quad(driver: DriverType, c0: [f32; 4], out: &str) -> Vec<u32> {
    let mut d = device(driver, 4);
    d.set_fvf(Fvf::XYZ | Fvf::TEX1).unwrap();
    // vs_1_1 `mov a0.x` floors; `expp` has the four-component form.
    let vs = d
        .create_vertex_shader(&asm(
            "vs_1_1\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov a0.x, c0.x\n\
             mov oD0, c[a0.x + 4]\nexpp r0, c0.y\nmov oT0, r0\n",
        ))
        .unwrap();
    let ps = d
        .create_pixel_shader(&asm(&format!("ps_2_0\ndcl v0\ndcl t0\nmov oC0, {out}\n")))
        .unwrap();
    d.set_vertex_shader(Some(&vs));
    d.set_pixel_shader(Some(&ps));
    d.set_vertex_shader_constant_f(0, &[c0]).unwrap();
    d.set_vertex_shader_constant_f(
        3,
        &[
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [1.0, 1.0, 0.0, 1.0],
        ],
    )
    .unwrap();
    textured_quad(&mut d);
    pixels(&d)
}

#[test]
fn vs_1_1_draws_with_floor_a0_and_four_component_expp() {
    // c[a0.x + 4] with a0.x = floor(c0.x): c3 red, c4 green, c5 blue, c6 yellow.
    // (vs_2_0 `mova` would pick c6 for 1.5 and c4 for -0.3 and -0.5.)
    for (x, want) in [
        (1.5, 0xFF00_00FF),
        (1.0, 0xFF00_00FF),
        (-0.3, 0xFFFF_0000),
        (-0.5, 0xFFFF_0000),
        (0.0, 0xFF00_FF00),
        (2.99, 0xFFFF_FF00),
    ] {
        let img = both(|driver| vs_1_1_quad(driver, [x, 0.0, 0.0, 0.0], "v0"));
        assert!(img.iter().all(|&p| p == want), "a0 from {x}: {img:08x?}");
    }
    // expp of -1.5: (2^-2, 0.5, 2^-1.5, 1) → ARGB (1, 0.25, 0.5, 0.354).
    let img = both(|driver| vs_1_1_quad(driver, [0.0, -1.5, 0.0, 0.0], "t0"));
    assert!(
        img.iter().all(|&p| near(p, 0xFF40_805A)),
        "expp: {img:08x?}"
    );
}

fn fogged(table: bool) -> Vec<u32> {
    both(|driver| {
        let mut d = device(driver, 4);
        d.set_fvf(Fvf::XYZ | Fvf::DIFFUSE).unwrap();
        d.set_render_state(RenderState::Lighting(false));
        d.set_render_state(RenderState::FogEnable(true));
        d.set_render_state(RenderState::FogColor(Color(0xFF00_00FF)));
        if table {
            d.set_render_state(RenderState::FogTableMode(FogMode::Linear));
        } else {
            d.set_render_state(RenderState::FogVertexMode(FogMode::Linear));
        }
        d.set_render_state(RenderState::FogStart(0.0));
        d.set_render_state(RenderState::FogEnd(1.0));
        let mut b = Vec::new();
        for p in FULL {
            for f in [p[0], p[1], 0.6] {
                b.extend_from_slice(&f.to_le_bytes());
            }
            b.extend_from_slice(&0xFFFF_0000u32.to_le_bytes());
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, 1, &b, 16)
            .unwrap();
        pixels(&d)
    })
}

#[test]
fn vertex_and_table_fog_blend_towards_the_fog_colour() {
    // d = 0.6 (eye z with identity transforms; device z with an affine
    // projection): f = (1 - 0.6) / 1 = 0.4 → 0.4 red + 0.6 blue.
    for table in [false, true] {
        let img = fogged(table);
        assert!(
            img.iter().all(|&p| near(p, 0xFF66_0099)),
            "table {table}: {:08X}",
            img[0]
        );
    }
}

#[test]
fn near_plane_and_user_planes_clip_in_clip_space() {
    let img = both(|driver| {
        let mut d = device(driver, 8);
        d.set_fvf(Fvf::XYZ | Fvf::DIFFUSE).unwrap();
        d.set_render_state(RenderState::Lighting(false));
        // World-space plane x <= 0 (fixed function): keeps the left half.
        d.set_clip_plane(0, [-1.0, 0.0, 0.0, 0.0]).unwrap();
        d.set_render_state(RenderState::ClipPlaneEnable(1));
        let mut b = Vec::new();
        for p in FULL {
            for f in [p[0], p[1], 0.5] {
                b.extend_from_slice(&f.to_le_bytes());
            }
            b.extend_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, 1, &b, 16)
            .unwrap();
        // Behind the near plane (z < 0): nothing.
        d.set_render_state(RenderState::ClipPlaneEnable(0));
        let mut b = Vec::new();
        for p in FULL {
            for f in [p[0], p[1], -0.5] {
                b.extend_from_slice(&f.to_le_bytes());
            }
            b.extend_from_slice(&0xFF00_FF00u32.to_le_bytes());
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, 1, &b, 16)
            .unwrap();
        pixels(&d)
    });
    for y in 0..8 {
        for x in 0..8 {
            let want = if x < 4 { 0xFFFF_FFFF } else { 0 };
            assert_eq!(img[y * 8 + x], want, "({x}, {y})");
        }
    }
}

/// Deterministic xorshift.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() % 10_000) as f32 / 10_000.0
    }
}

/// D3D's perspective (fov 90 degrees, z in 0.5..20), stored as the device
/// stores D3D matrices (glam column i = D3D row i).
fn perspective() -> Mat4 {
    let (zn, zf) = (0.5, 20.0);
    let q = zf / (zf - zn);
    Mat4::from_cols_array_2d(&[
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, q, 1.0],
        [0.0, 0.0, -zn * q, 0.0],
    ])
}

/// The camera 4 units in front of the origin, looking along +z.
fn view() -> Mat4 {
    Mat4::from_translation(Vec3::new(0.0, 0.0, 4.0))
}

/// Random draws of one kind on `driver`; returns the final image.
fn random_scene(driver: DriverType, seed: u64, shaders: bool) -> Vec<u32> {
    let mut r = Rng(seed);
    let mut d = device(driver, 24);
    let tex = d
        .create_texture(16, 16, 0, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    for level in 0..tex.level_count() {
        let s = 16 >> level;
        let px: Vec<u32> = (0..s * s).map(|_| r.next() | 0xFF00_0000).collect();
        tex.write_level(level, None, bytemuck::cast_slice(&px), (s * 4) as usize)
            .unwrap();
    }
    d.set_texture(0, Some((&tex).into())).unwrap();
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Linear))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Linear))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MipFilter(TextureFilter::Linear))
        .unwrap();
    d.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Mirror))
        .unwrap();
    d.set_transform(TransformType::Projection, &perspective())
        .unwrap();
    d.set_transform(TransformType::View, &view()).unwrap();
    d.set_render_state(RenderState::ZEnable(warp9::state::ZBufferType::True));
    d.set_fvf(Fvf::XYZ | Fvf::NORMAL | Fvf::DIFFUSE | Fvf::TEX1)
        .unwrap();
    if shaders {
        let vs = d
            .create_vertex_shader(&asm(
                "vs_3_0\ndcl_position v0\ndcl_normal v1\ndcl_color v2\ndcl_texcoord v3\n\
                 dcl_position o0\ndcl_color o1\ndcl_texcoord0 o2\ndcl_texcoord1 o3.xy\n\
                 m4x4 o0, v0, c0\nmul o1, v2, c4\nmad o2, v3, c5.x, c5.y\n\
                 dp3 r0.x, v1, c6\nmov o3.xy, r0.x\n",
            ))
            .unwrap();
        let ps = d
            .create_pixel_shader(&asm(
                "ps_3_0\ndcl_color v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2.xy\ndcl_2d s0\n\
                 dcl vFace\ndcl vPos.xy\n\
                 texld r0, v1, s0\ndsx r1, v1\nmul r0, r0, v0\nadd r0, r0, r1\n\
                 cmp r0.w, vFace, r0.w, v2.x\nmul r2.x, vPos.x, c0.x\nadd r0.x, r0.x, r2.x\n\
                 texkill v2\nmov oC0, r0\n",
            ))
            .unwrap();
        d.set_vertex_shader(Some(&vs));
        d.set_pixel_shader(Some(&ps));
    }
    for _ in 0..12 {
        let world = Mat4::from_rotation_y(r.f(0.0, 6.28))
            * Mat4::from_rotation_x(r.f(0.0, 6.28))
            * Mat4::from_translation(Vec3::new(r.f(-1.0, 1.0), r.f(-1.0, 1.0), r.f(-2.0, 3.0)));
        d.set_transform(TransformType::World(0), &world).unwrap();
        if shaders {
            // D3D's World·View·Projection in the device's storage; m4x4
            // reads its columns, which are the stored matrix's rows.
            let wvp = perspective() * view() * world;
            let m = wvp.transpose().to_cols_array_2d();
            d.set_vertex_shader_constant_f(0, &m).unwrap();
            d.set_vertex_shader_constant_f(
                4,
                &[
                    [r.f(0.0, 1.5), r.f(0.0, 1.5), r.f(0.0, 1.5), 1.0],
                    [r.f(0.5, 3.0), r.f(-1.0, 1.0), 0.0, 0.0],
                    [r.f(-1.0, 1.0), r.f(-1.0, 1.0), r.f(-1.0, 1.0), 0.0],
                ],
            )
            .unwrap();
            d.set_pixel_shader_constant_f(0, &[[r.f(0.0, 0.05), 0.0, 0.0, 0.0]])
                .unwrap();
        } else {
            d.set_render_state(RenderState::Lighting(r.next() % 3 != 0));
            d.set_render_state(RenderState::SpecularEnable(r.next() % 2 == 0));
            d.set_render_state(RenderState::FogEnable(r.next() % 2 == 0));
            d.set_render_state(RenderState::FogVertexMode(FogMode::Exp));
            d.set_render_state(RenderState::FogDensity(r.f(0.0, 0.3)));
            d.set_render_state(RenderState::ShadeMode(if r.next() % 4 == 0 {
                warp9::state::ShadeMode::Flat
            } else {
                warp9::state::ShadeMode::Gouraud
            }));
            let light = Light {
                light_type: if r.next() % 2 == 0 {
                    LightType::Point
                } else {
                    LightType::Directional
                },
                diffuse: [r.f(0.0, 1.0), r.f(0.0, 1.0), r.f(0.0, 1.0), 1.0],
                specular: [1.0; 4],
                position: Vec3::new(r.f(-3.0, 3.0), r.f(-3.0, 3.0), r.f(-5.0, 0.0)),
                direction: Vec3::new(r.f(-1.0, 1.0), r.f(-1.0, 1.0), 1.0),
                range: 100.0,
                attenuation0: 1.0,
                ..Light::default()
            };
            d.set_light(0, &light).unwrap();
            d.light_enable(0, true);
            d.set_material(&Material {
                diffuse: [1.0, 1.0, 1.0, 1.0],
                ambient: [0.2, 0.2, 0.2, 1.0],
                specular: [0.5, 0.5, 0.5, 1.0],
                emissive: [0.0; 4],
                power: r.f(1.0, 30.0),
            });
        }
        // A random triangle list (some behind the eye, some crossing the near plane).
        let n = 1 + r.next() as usize % 4;
        let mut b = Vec::new();
        for _ in 0..3 * n {
            for _ in 0..3 {
                b.extend_from_slice(&r.f(-2.5, 2.5).to_le_bytes());
            }
            let nrm = Vec3::new(r.f(-1.0, 1.0), r.f(-1.0, 1.0), r.f(-1.0, 1.0)).normalize_or_zero();
            for f in nrm.to_array() {
                b.extend_from_slice(&f.to_le_bytes());
            }
            b.extend_from_slice(&(r.next() | 0xFF00_0000).to_le_bytes());
            for _ in 0..2 {
                b.extend_from_slice(&r.f(-1.0, 2.0).to_le_bytes());
            }
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, n as u32, &b, 36)
            .unwrap();
    }
    pixels(&d)
}

#[test]
fn random_ffp_draws_agree_between_drivers() {
    for seed in 1..=6u64 {
        let w = random_scene(DriverType::Warp, seed * 7919, false);
        let r = random_scene(DriverType::Reference, seed * 7919, false);
        assert!(w.iter().any(|&p| p != 0), "seed {seed}: nothing drawn");
        assert_eq!(w, r, "seed {seed}");
    }
}

#[test]
fn random_shader_draws_agree_between_drivers() {
    for seed in 1..=6u64 {
        let w = random_scene(DriverType::Warp, seed * 104_729, true);
        let r = random_scene(DriverType::Reference, seed * 104_729, true);
        assert!(w.iter().any(|&p| p != 0), "seed {seed}: nothing drawn");
        assert_eq!(w, r, "seed {seed}");
    }
}

/// A full-target pre-transformed quad (POSITIONT, NORMAL as FLOAT3, FOG as
/// FLOAT1, TEXCOORD0 as FLOAT2) drawn with no vertex shader and a ps_3_0
/// whose output is `out`, an input read by semantic.
fn pretransformed_ps3(driver: DriverType, dcl: &str, out: &str) -> Vec<u32> {
    use warp9::vertex::{DeclType, DeclUsage, VertexElement};
    let mut d = device(driver, 4);
    let decl = d
        .create_vertex_declaration(&[
            VertexElement::new(0, 0, DeclType::Float4, DeclUsage::PositionT, 0),
            VertexElement::new(0, 16, DeclType::Float3, DeclUsage::Normal, 0),
            VertexElement::new(0, 28, DeclType::Float1, DeclUsage::Fog, 0),
            VertexElement::new(0, 32, DeclType::Float2, DeclUsage::TexCoord, 0),
        ])
        .unwrap();
    d.set_vertex_declaration(Some(&decl));
    let ps = d
        .create_pixel_shader(&asm(&format!("ps_3_0\n{dcl}\nmov oC0, {out}\n")))
        .unwrap();
    d.set_pixel_shader(Some(&ps));
    let mut b = Vec::new();
    for (x, y) in [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0), (4.0, 4.0)] {
        for f in [x, y, 0.5, 1.0, 0.2, 0.4, 0.6, 0.8, 0.25, 0.75] {
            b.extend_from_slice(&f32::to_le_bytes(f));
        }
    }
    d.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &b, 40)
        .unwrap();
    pixels(&d)
}

#[test]
fn ps_3_0_reads_pretransformed_elements_by_semantic() {
    // Missing components read as the declaration type's defaults (0, 0, 0, 1);
    // a semantic the declaration lacks reads 0 in every component.
    for (dcl, out, want) in [
        ("dcl_normal v0", "v0", 0xFF33_6699),
        ("dcl_fog v0", "v0", 0xFFCC_0000),
        ("dcl_texcoord0 v0", "v0", 0xFF40_BF00),
        ("dcl_texcoord1 v0", "v0", 0x0000_0000),
        ("dcl_blendweight v0", "v0.w", 0x0000_0000),
        ("dcl_normal v0\ndcl_fog v1", "v1.x", 0xCCCC_CCCC),
    ] {
        let img = both(|driver| pretransformed_ps3(driver, dcl, out));
        assert!(
            img.iter().all(|&p| near(p, want)),
            "{dcl} / {out}: {img:08x?}"
        );
    }
}

/// Columns of [`shader_fog_columns`]: one fog value per pixel column.
const FOG_VALUES: [f32; 11] = [
    -1.0,
    0.0,
    0.25,
    0.5,
    1.0,
    2.0,
    f32::NAN,
    -0.0,
    0.75,
    1e30,
    -1e30,
];

/// An 11 x 2 target, column i a quad (66 vertices: eight full batches of 8
/// and a partial one) whose vertex shader (`vs`, reading the fog value as
/// TEXCOORD0.x and writing colour c0 = red) writes fog value
/// `FOG_VALUES[i]` on its left edge and `FOG_VALUES[(i + shift) % 11]` on
/// its right, drawn with vertex fog towards blue and no pixel shader. With
/// a shift, the fog varies across a quad, so saturating before or after
/// interpolation differs.
fn shader_fog_columns(driver: DriverType, vs: &str, shift: usize) -> Vec<u32> {
    let mut d = device(driver, 11);
    d.set_fvf(Fvf::XYZ | Fvf::TEX1).unwrap();
    let vs = d.create_vertex_shader(&asm(vs)).unwrap();
    d.set_vertex_shader(Some(&vs));
    d.set_vertex_shader_constant_f(0, &[[1.0, 0.0, 0.0, 1.0]])
        .unwrap();
    d.set_render_state(RenderState::FogEnable(true));
    d.set_render_state(RenderState::FogColor(Color(0xFF00_00FF)));
    let mut b = Vec::new();
    for (i, &fog) in FOG_VALUES.iter().enumerate() {
        // Column i of 11 in NDC, the top two pixel rows of the 11 x 11 target.
        let x0 = -1.0 + 2.0 * i as f32 / 11.0;
        let x1 = x0 + 2.0 / 11.0;
        let (y0, y1) = (1.0, 1.0 - 4.0 / 11.0);
        let right = FOG_VALUES[(i + shift) % FOG_VALUES.len()];
        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y0), (x1, y1), (x0, y1)] {
            let fog = if x == x0 { fog } else { right };
            for f in [x, y, 0.5, fog, 0.0] {
                b.extend_from_slice(&f32::to_le_bytes(f));
            }
        }
    }
    d.draw_primitive_up(PrimitiveType::TriangleList, 22, &b, 20)
        .unwrap();
    pixels(&d)[..11].to_vec()
}

#[test]
fn vertex_shader_fog_output_is_saturated_alike_on_both_drivers() {
    // vs_3_0: the FOG output, saturated (fixed-function.md 9.2): below 0
    // (and NaN, and -0) is all fog colour, above 1 none.
    let vs3 = "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_fog o1\n\
               dcl_color o2\nmov o0, v0\nmov o1.x, v1.x\nmov o2, c0\n";
    let img = both(|driver| shader_fog_columns(driver, vs3, 0));
    let want: [u32; 11] = [
        0xFF00_00FF,
        0xFF00_00FF,
        0xFF40_00BF,
        0xFF80_0080,
        0xFFFF_0000,
        0xFFFF_0000,
        0xFF00_00FF,
        0xFF00_00FF,
        0xFFBF_0040,
        0xFFFF_0000,
        0xFF00_00FF,
    ];
    for (i, (&got, &w)) in img.iter().zip(&want).enumerate() {
        assert!(near(got, w), "column {i}: {got:08x}, want {w:08x}");
    }
    // vs_2_0: oFog (saturated when written), through the same rows.
    let vs2 = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oFog, v1.x\n\
               mov oD0, c0\n";
    let img2 = both(|driver| shader_fog_columns(driver, vs2, 0));
    assert_eq!(img2[4], img[4]);
    assert_eq!(img2[3], img[3]);
    // Fog varying across each quad: the saturation happens per vertex.
    for shift in [1, 3, 5] {
        both(|driver| shader_fog_columns(driver, vs3, shift));
        both(|driver| shader_fog_columns(driver, vs2, shift));
    }
}
