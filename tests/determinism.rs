//! Determinism (issue 9): the same frames rendered with 1, 2 and 3 threads
//! and with each SIMD backend are byte-identical, and equal to the
//! Reference driver's, over small versions of the benchmark scenes and a
//! set of fixed-function and shader draws.

use glam::{Mat4, Vec3};
use warp9::caps::{DriverType, FeatureLevel};
use warp9::state::{Color, Light, LightType, Material, TransformType};
use warp9::{ClearFlags, Device, DeviceDesc, Format, Fvf, PrimitiveType, RenderState, SimdChoice};

const W: u32 = 96;
const H: u32 = 72;

fn device(driver: DriverType, threads: usize, simd: SimdChoice) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (W, H, Format::X8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        simd,
        ..DeviceDesc::default()
    })
    .expect("device")
}

/// xorshift32 as SCENES.md defines it.
struct Gen(u32);
impl Gen {
    fn next(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        ((x as f64) / 4_294_967_296.0).min(0.999_999_94) as f32
    }
}

fn tl_vertex(x: f32, y: f32, z: f32, color: u32) -> [u32; 5] {
    [
        x.to_bits(),
        y.to_bits(),
        z.to_bits(),
        1.0f32.to_bits(),
        color,
    ]
}

/// S1 in small: 16 overlapping full-screen Gouraud quads far to near (pre-transformed).
fn s1(dev: &mut Device) -> warp9::Result<()> {
    dev.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER,
        0xFF00_0000,
        1.0,
        0,
    )?;
    dev.set_fvf(Fvf::XYZRHW | Fvf::DIFFUSE)?;
    for i in 0..16 {
        let z = 1.0 - (i + 1) as f32 / 17.0;
        let (l, t, r, b) = (-0.5, -0.5, W as f32 - 0.5, H as f32 - 0.5);
        let q = [
            tl_vertex(l, t, z, 0xFFFF_0000),
            tl_vertex(r, t, z, 0xFF00_FF00),
            tl_vertex(r, b, z, 0xFF00_00FF),
            tl_vertex(l, t, z, 0xFFFF_0000),
            tl_vertex(r, b, z, 0xFF00_00FF),
            tl_vertex(l, b, z, 0xFFFF_FFFF),
        ];
        dev.draw_primitive_up(PrimitiveType::TriangleList, 2, bytemuck::cast_slice(&q), 20)?;
    }
    Ok(())
}

/// S2 in small: a grid of 4x4-pixel cells with random vertex colours, drawn at four depths.
fn s2(dev: &mut Device) -> warp9::Result<()> {
    dev.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER,
        0xFF00_0000,
        1.0,
        0,
    )?;
    let (cw, ch) = (W / 4, H / 4);
    let mut g = Gen(0x9E37_79B9);
    let colors: Vec<u32> = (0..(cw + 1) * (ch + 1))
        .map(|_| {
            let b = |v: f32| (v * 256.0) as u32;
            0xFF00_0000 | (b(g.next()) << 16) | (b(g.next()) << 8) | b(g.next())
        })
        .collect();
    let mut indices: Vec<u16> = Vec::new();
    for y in 0..ch {
        for x in 0..cw {
            let a = (y * (cw + 1) + x) as u16;
            let c = a + (cw + 1) as u16;
            indices.extend_from_slice(&[a, a + 1, c + 1, a, c + 1, c]);
        }
    }
    dev.set_fvf(Fvf::XYZRHW | Fvf::DIFFUSE)?;
    for z in [0.8f32, 0.6, 0.4, 0.2] {
        let verts: Vec<[u32; 5]> = (0..(cw + 1) * (ch + 1))
            .map(|k| {
                let (x, y) = ((k % (cw + 1)) * 4, (k / (cw + 1)) * 4);
                tl_vertex(
                    x as f32 - 0.5 + z,
                    y as f32 - 0.5 + z * 0.5,
                    z,
                    colors[k as usize],
                )
            })
            .collect();
        dev.draw_indexed_primitive_up(
            PrimitiveType::TriangleList,
            0,
            verts.len() as u32,
            (indices.len() / 3) as u32,
            bytemuck::cast_slice(&indices),
            Format::Index16,
            bytemuck::cast_slice(&verts),
            20,
        )?;
    }
    Ok(())
}

/// A lit, fogged sphere through fixed-function T&L.
fn lit(dev: &mut Device) -> warp9::Result<()> {
    dev.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER,
        0xFF20_2020,
        1.0,
        0,
    )?;
    let (rings, segs) = (10u32, 14u32);
    let mut v: Vec<f32> = Vec::new();
    for i in 0..=rings {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..=segs {
            let ph = std::f32::consts::TAU * j as f32 / segs as f32;
            let n = Vec3::new(th.sin() * ph.cos(), th.cos(), th.sin() * ph.sin());
            v.extend_from_slice(&[n.x, n.y, n.z, n.x, n.y, n.z]);
        }
    }
    let mut idx: Vec<u16> = Vec::new();
    for i in 0..rings {
        for j in 0..segs {
            let a = (i * (segs + 1) + j) as u16;
            let c = a + (segs + 1) as u16;
            idx.extend_from_slice(&[a, a + 1, c, a + 1, c + 1, c]);
        }
    }
    dev.set_transform(
        TransformType::View,
        &glam::camera::lh::view::look_at_mat4(Vec3::new(0.0, 1.0, -3.0), Vec3::ZERO, Vec3::Y),
    )?;
    dev.set_transform(
        TransformType::Projection,
        &glam::camera::lh::proj::directx::perspective(1.0, W as f32 / H as f32, 0.5, 20.0),
    )?;
    dev.set_transform(TransformType::WORLD, &Mat4::from_rotation_y(0.3))?;
    dev.set_light(
        0,
        &Light {
            light_type: LightType::Directional,
            diffuse: [0.9, 0.8, 0.7, 1.0],
            specular: [1.0; 4],
            direction: Vec3::new(1.0, -1.0, 1.0),
            ..Light::default()
        },
    )?;
    dev.light_enable(0, true);
    dev.set_light(
        1,
        &Light {
            light_type: LightType::Point,
            diffuse: [0.2, 0.4, 1.0, 1.0],
            position: Vec3::new(0.0, 2.0, -2.0),
            range: 10.0,
            attenuation0: 1.0,
            attenuation1: 0.1,
            ..Light::default()
        },
    )?;
    dev.light_enable(1, true);
    dev.set_material(&Material {
        diffuse: [1.0; 4],
        ambient: [1.0; 4],
        specular: [1.0; 4],
        emissive: [0.0; 4],
        power: 16.0,
    });
    dev.set_render_state(RenderState::SpecularEnable(true));
    dev.set_render_state(RenderState::Ambient(Color(0xFF19_1919)));
    dev.set_render_state(RenderState::FogEnable(true));
    dev.set_render_state(RenderState::FogVertexMode(warp9::state::FogMode::Linear));
    dev.set_render_state(RenderState::FogStart(2.0));
    dev.set_render_state(RenderState::FogEnd(4.5));
    dev.set_fvf(Fvf::XYZ | Fvf::NORMAL)?;
    dev.draw_indexed_primitive_up(
        PrimitiveType::TriangleList,
        0,
        (v.len() / 6) as u32,
        (idx.len() / 3) as u32,
        bytemuck::cast_slice(&idx),
        Format::Index16,
        bytemuck::cast_slice(&v),
        24,
    )
}

/// The S3 pixel shader on a full-screen quad.
fn alu(dev: &mut Device) -> warp9::Result<()> {
    let mut text = String::from(
        "ps_3_0\ndef c0, 1.01, 0.99, 1.02, 0.98\ndef c1, 0.01, 0.02, 0.03, 0.04\ndef c2, 0.3, 0.59, 0.11, 0\ndcl_color v0\nmov r0, v0\n",
    );
    for _ in 0..16 {
        text.push_str("mad r1, r0, c0, c1\ndp3 r2, r1, c2\nmad r0, r2, r1, r0\nfrc r0, r0\n");
    }
    text.push_str("mov oC0, r0\n");
    let ps = dev.create_pixel_shader(&warp9::shader::assemble(&text).expect("assembles"))?;
    dev.set_pixel_shader(Some(&ps));
    dev.set_render_state(RenderState::ZEnable(warp9::state::ZBufferType::False));
    let r = s1(dev);
    dev.set_pixel_shader(None);
    r
}

fn frame(
    driver: DriverType,
    threads: usize,
    simd: SimdChoice,
    scene: fn(&mut Device) -> warp9::Result<()>,
) -> Vec<u32> {
    let mut dev = device(driver, threads, simd);
    dev.begin_scene().unwrap();
    scene(&mut dev).expect("scene draws");
    dev.end_scene().unwrap();
    let mut out = vec![0u32; (W * H) as usize];
    dev.present_into(&mut out).unwrap();
    out
}

fn check(name: &str, scene: fn(&mut Device) -> warp9::Result<()>, must_draw: bool) {
    let reference = frame(DriverType::Reference, 1, SimdChoice::Portable, scene);
    if must_draw {
        assert!(
            reference.iter().any(|&p| p != reference[0]),
            "{name}: the reference frame is blank"
        );
    }
    for simd in [SimdChoice::Portable, SimdChoice::Avx2] {
        for threads in [1, 2, 3] {
            let warp = frame(DriverType::Warp, threads, simd, scene);
            let diff = warp.iter().zip(&reference).filter(|(a, b)| a != b).count();
            assert_eq!(
                diff, 0,
                "{name}: Warp ({threads} threads, {simd:?}) differs from Reference in {diff} pixels"
            );
        }
    }
}

#[test]
fn s1_fill_is_identical_for_every_thread_count_and_backend() {
    check("S1", s1, true);
}

#[test]
fn s2_small_triangles_are_identical_for_every_thread_count_and_backend() {
    check("S2", s2, true);
}

#[test]
fn lit_fixed_function_draws_are_identical() {
    check("lit", lit, true);
}

#[test]
fn s3_shader_draws_are_identical() {
    check("S3", alu, true);
}

#[path = "../examples/scenes/defs/mod.rs"]
mod defs;

/// One frame of benchmark scene `name` (full size, as `examples/scenes`
/// renders it) on Warp.
fn scene_frame(name: &str, threads: usize, simd: SimdChoice) -> Vec<u32> {
    let mut scene = defs::build(name, DriverType::Warp, threads, simd).expect("scene");
    scene.frame().expect("frame");
    let d = &scene.device;
    d.read_surface_argb(&d.back_buffer()).expect("readback")
}

/// Every benchmark scene, S7's 4,096 small draws (which run on the
/// caller's thread) included, and S6-64 (S6 as 64 draws of 16,384 points).
#[test]
fn every_benchmark_scene_is_identical_for_every_thread_count_and_backend() {
    for name in defs::ALL.into_iter().chain(["S6-64"]) {
        let base = scene_frame(name, 1, SimdChoice::Portable);
        let drawn = base.iter().filter(|&&p| p & 0x00FF_FFFF != 0).count();
        assert!(drawn > base.len() / 20, "{name}: only {drawn} pixels drawn");
        for simd in [SimdChoice::Portable, SimdChoice::Avx2] {
            for threads in [1, 2, 3] {
                if (threads, simd) == (1, SimdChoice::Portable) {
                    continue;
                }
                let img = scene_frame(name, threads, simd);
                let diff = img.iter().zip(&base).filter(|(a, b)| a != b).count();
                assert_eq!(
                    diff, 0,
                    "{name}: {threads} threads, {simd:?} differs from 1 thread, portable in {diff} pixels"
                );
            }
        }
    }
}
