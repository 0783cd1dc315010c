//! The fixed-function T&L scenes: S5 (lit, textured torus; S5-nocull) and
//! S6 (a million lit points).

use glam::{Mat4, Vec3};
use warp9::state::{Color, Cull, Light, LightType, Material, TextureOp, TransformType};
use warp9::{Device, Fvf, PrimitiveType, RenderState, Result, TextureStageState};

use super::flat::noise_texture;
use super::{Draw, Gen, Opts, Scene, device, half_pixel, push_f32s};

/// The four S5 lights: directional (direction of travel) or point
/// (position), and diffuse colour (= specular colour, resolved detail 5).
const S5_LIGHTS: [(bool, [f32; 3], [f32; 3]); 4] = [
    (false, [1.0, -1.0, 1.0], [0.8, 0.8, 0.8]),
    (false, [-1.0, -0.5, 0.5], [0.3, 0.3, 0.5]),
    (false, [0.0, -1.0, 0.0], [0.2, 0.2, 0.2]),
    (true, [0.0, 2.0, -2.0], [1.0, 0.9, 0.8]),
];

/// Sets `n` lights (S5's four, then the same four negated), the material,
/// global ambient and specular of S5/S6.
fn lighting(d: &mut Device, n: usize) -> Result<()> {
    for i in 0..n {
        let (point, v, c) = S5_LIGHTS[i % 4];
        let sign = if i < 4 { 1.0 } else { -1.0 };
        let v = Vec3::from_array(v) * sign;
        let colour = [c[0], c[1], c[2], 1.0];
        let light = if point {
            Light {
                light_type: LightType::Point,
                position: v,
                range: 10.0,
                attenuation0: 1.0,
                attenuation1: 0.1,
                attenuation2: 0.0,
                ..Light::default()
            }
        } else {
            Light {
                light_type: LightType::Directional,
                direction: v,
                ..Light::default()
            }
        };
        let light = Light {
            diffuse: colour,
            specular: colour,
            ambient: [0.0, 0.0, 0.0, 1.0],
            ..light
        };
        d.set_light(i as u32, &light)?;
        d.light_enable(i as u32, true);
    }
    d.set_material(&Material {
        diffuse: [1.0; 4],
        ambient: [1.0; 4],
        specular: [1.0; 4],
        emissive: [0.0; 4],
        power: 16.0,
    });
    d.set_render_state(RenderState::Lighting(true));
    d.set_render_state(RenderState::SpecularEnable(true));
    // (0.1, 0.1, 0.1) as D3DCOLOR_COLORVALUE makes it (truncated to 25/255).
    d.set_render_state(RenderState::Ambient(Color(0xFF19_1919)));
    Ok(())
}

/// D3DXMatrixLookAtLH in D3D's row-major layout.
fn look_at_lh(eye: Vec3, at: Vec3, up: Vec3) -> [f32; 16] {
    let z = (at - eye).normalize();
    let x = up.cross(z).normalize();
    let y = z.cross(x);
    [
        x.x,
        y.x,
        z.x,
        0.0,
        x.y,
        y.y,
        z.y,
        0.0,
        x.z,
        y.z,
        z.z,
        0.0,
        -x.dot(eye),
        -y.dot(eye),
        -z.dot(eye),
        1.0,
    ]
}

/// D3DXMatrixPerspectiveFovLH in D3D's row-major layout (depth 0..1).
fn perspective_fov_lh(fovy: f32, aspect: f32, zn: f32, zf: f32) -> [f32; 16] {
    let ys = 1.0 / (fovy * 0.5).tan();
    let xs = ys / aspect;
    let q = zf / (zf - zn);
    [
        xs,
        0.0,
        0.0,
        0.0,
        0.0,
        ys,
        0.0,
        0.0,
        0.0,
        0.0,
        q,
        1.0,
        0.0,
        0.0,
        -zn * q,
        0.0,
    ]
}

/// The S5 torus: 257 x 193 vertices (position, normal, uv; seams
/// duplicated), vertex (i, j) at i * 193 + j, and clockwise-front indices.
fn torus() -> (Vec<u8>, Vec<u16>) {
    let (nu, nv) = (257usize, 193usize);
    let (big_r, r) = (1.0f64, 0.4f64);
    let mut vb = Vec::with_capacity(nu * nv * 32);
    for i in 0..nu {
        let th = std::f64::consts::TAU * i as f64 / 256.0;
        for j in 0..nv {
            let ph = std::f64::consts::TAU * j as f64 / 192.0;
            let ring = big_r + r * ph.cos();
            let p = [ring * th.cos(), r * ph.sin(), ring * th.sin()];
            let n = [ph.cos() * th.cos(), ph.sin(), ph.cos() * th.sin()];
            push_f32s(&mut vb, &p.map(|x| x as f32));
            push_f32s(&mut vb, &n.map(|x| x as f32));
            push_f32s(&mut vb, &[i as f32 / 256.0, j as f32 / 192.0]);
        }
    }
    let mut ib = Vec::with_capacity(256 * 192 * 6);
    for i in 0..256 {
        for j in 0..192 {
            let a = (i * nv + j) as u16;
            let b = a + 1;
            let c = ((i + 1) * nv + j) as u16;
            ib.extend([a, b, c, c, b, c + 1]);
        }
    }
    (vb, ib)
}

/// S5: the lit, trilinear-textured torus through fixed-function T&L;
/// `cull` = D3D9's default CCW culling (S5), else none (S5-nocull).
pub fn s5(opts: &Opts, cull: bool) -> Result<Scene> {
    let (w, h) = (1920u32, 1080u32);
    let mut d = device((w, h), true, opts)?;
    d.set_fvf(Fvf::XYZ | Fvf::NORMAL | Fvf::TEX1)?;
    let view = look_at_lh(Vec3::new(0.0, 1.5, -3.5), Vec3::ZERO, Vec3::Y);
    let fov = (60.0 * std::f64::consts::PI / 180.0) as f32;
    let proj = perspective_fov_lh(fov, 1920.0 / 1080.0, 0.1, 100.0);
    // Device storage: glam column i = D3D row i, so the D3D arrays load as
    // columns; the half-pixel translation comes after the projection.
    d.set_transform(TransformType::View, &Mat4::from_cols_array(&view))?;
    let proj = half_pixel(w, h) * Mat4::from_cols_array(&proj);
    d.set_transform(TransformType::Projection, &proj)?;
    lighting(&mut d, 4)?;
    let tex = noise_texture(&mut d)?;
    // Stage 0 keeps D3D9's defaults: MODULATE(TEXTURE, CURRENT = diffuse);
    // the specular colour is added after the stages.
    if !cull {
        d.set_render_state(RenderState::CullMode(Cull::None));
    }
    let (vb, ib) = torus();
    let draws = vec![Draw::Indexed {
        prim: PrimitiveType::TriangleList,
        base: 0,
        vertices: 257 * 193,
        count: 256 * 192 * 2,
    }];
    let name = if cull { "S5" } else { "S5-nocull" };
    let mut s = Scene::new(d, name, true, (0.0, 1.0, "ms/frame"), draws);
    s.keep(tex);
    s.bind_buffers(&vb, 32, &ib)?;
    Ok(s)
}

/// S6: 1024 x 1024 points, one per pixel centre at z = 0.5, normals from
/// the generator, 8 lights, NORMALIZENORMALS, colour = diffuse + specular,
/// in `parts` draws (2 for S6: MaxPrimitiveCount is 2^20 - 1; 64 for
/// "S6-64", the per-draw cost check of the draw-path work).
pub fn s6(opts: &Opts, name: &'static str, parts: u32) -> Result<Scene> {
    let size = 1024u32;
    let mut d = device((size, size), false, opts)?;
    d.set_fvf(Fvf::XYZ | Fvf::NORMAL)?;
    d.set_transform(TransformType::Projection, &half_pixel(size, size))?;
    lighting(&mut d, 8)?;
    d.set_render_state(RenderState::NormalizeNormals(true));
    // No texture: stage 0 disabled passes the diffuse colour through.
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Disable))?;
    let mut g = Gen::new();
    let mut vb = Vec::with_capacity((size * size * 24) as usize);
    let step = 2.0 / size as f32;
    for y in 0..size {
        for x in 0..size {
            let px = (x as f32 + 0.5) * step - 1.0;
            let py = 1.0 - (y as f32 + 0.5) * step;
            let n = Vec3::new(g.next(), g.next(), g.next()) * 2.0 - Vec3::ONE;
            let l = n.length();
            let n = if l > 0.0 { n / l } else { n };
            push_f32s(&mut vb, &[px, py, 0.5, n.x, n.y, n.z]);
        }
    }
    let part = size * size / parts;
    let draws = (0..parts)
        .map(|k| Draw::Plain {
            prim: PrimitiveType::PointList,
            start: k * part,
            count: part,
        })
        .collect();
    let work = (f64::from(size * size), 1e6, "Mvertices/s");
    let mut s = Scene::new(d, name, false, work, draws);
    s.bind_buffers(&vb, 24, &[])?;
    Ok(s)
}
