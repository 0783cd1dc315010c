//! S7 "draws": 4,096 small textured spheres a frame, each drawn after its
//! own vertex-shader matrix, pixel-shader colour, texture and blend state
//! (SCENES.md S7 and resolved detail 8). It measures what a real D3D9
//! frame of many small objects costs per draw, not pixel throughput.

use warp9::state::{Blend, TextureFilter};
use warp9::{
    Device, Format, Fvf, Pool, PrimitiveType, RenderState, Result, SamplerState, Texture, Usage,
};

use super::{Gen, Opts, Scene, device, push_f32s};

/// Objects per grid row and column.
const GRID: usize = 64;
/// Textures the objects cycle through.
const TEXTURES: usize = 8;
/// Texture edge in texels.
const TEX_SIZE: usize = 64;
/// Sphere segments around the y axis and rings from pole to pole.
const SEGMENTS: usize = 8;
const RINGS: usize = 6;

/// What one object's draw sets before it draws.
#[derive(Clone, Debug)]
pub struct Object {
    /// Vertex-shader constants c0..c3: the columns of the object's D3D
    /// row-vector matrix (transpose(M), as HLSL's `mul(pos, M)` reads it).
    pub matrix: [[f32; 4]; 4],
    /// Pixel-shader constant c0: the object's colour.
    pub color: [f32; 4],
    /// Index of the texture bound to sampler 0.
    pub texture: usize,
    /// D3DRS_ALPHABLENDENABLE for this draw.
    pub blend: bool,
}

/// The per-draw part of S7: the objects and the textures they name.
pub struct Objects {
    /// Objects in draw order (k = 64 * row + column).
    pub list: Vec<Object>,
    /// The 8 textures.
    pub textures: Vec<Texture>,
    /// Vertices and primitives of the shared mesh.
    pub mesh: (u32, u32),
}

impl Objects {
    /// Draws every object with the calls S7 makes for it, in S7's order,
    /// every call made even when its value did not change.
    pub fn draw(&self, d: &mut Device) -> Result<()> {
        let (vertices, primitives) = self.mesh;
        for o in &self.list {
            d.set_vertex_shader_constant_f(0, &o.matrix)?;
            d.set_pixel_shader_constant_f(0, &[o.color])?;
            d.set_texture(0, Some(self.textures[o.texture].clone().into()))?;
            d.set_render_state(RenderState::AlphaBlendEnable(o.blend));
            d.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, vertices, 0, primitives)?;
        }
        Ok(())
    }
}

const VERTEX_SHADER: &str = "vs_2_0
dcl_position v0
dcl_texcoord v1
dp4 oPos.x, v0, c0
dp4 oPos.y, v0, c1
dp4 oPos.z, v0, c2
dp4 oPos.w, v0, c3
mov oT0.xy, v1
";

const PIXEL_SHADER: &str = "ps_2_0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
mul oC0, r0, c0
";

/// The UV sphere of radius 1: vertex (i, j) is 9j + i, position
/// (sin φ cos θ, cos φ, sin φ sin θ) computed in f64 and rounded, (u, v) =
/// (i/8, j/6); triangles (a, b, c), (b, d, c) ring by ring from the north
/// pole. Returns the vertex bytes (XYZ | TEX1, 20 bytes) and the indices.
fn sphere() -> (Vec<u8>, Vec<u16>) {
    let mut vb = Vec::new();
    for j in 0..=RINGS {
        let phi = std::f64::consts::PI * j as f64 / RINGS as f64;
        for i in 0..=SEGMENTS {
            let theta = 2.0 * std::f64::consts::PI * i as f64 / SEGMENTS as f64;
            push_f32s(
                &mut vb,
                &[
                    (phi.sin() * theta.cos()) as f32,
                    phi.cos() as f32,
                    (phi.sin() * theta.sin()) as f32,
                    i as f32 / SEGMENTS as f32,
                    j as f32 / RINGS as f32,
                ],
            );
        }
    }
    let row = (SEGMENTS + 1) as u16;
    let mut ib = Vec::new();
    for j in 0..RINGS as u16 {
        for i in 0..SEGMENTS as u16 {
            let a = j * row + i;
            let (b, c) = (a + 1, a + row);
            ib.extend([a, b, c, b, c + 1, c]);
        }
    }
    (vb, ib)
}

/// S7 at 1280x720: depth LESSEQUAL with writes, culling off, bilinear
/// sampling of 8 generated 64x64 textures, SRCALPHA/INVSRCALPHA blending
/// on odd rows.
pub fn s7(opts: &Opts) -> Result<Scene> {
    let (w, h) = (1280u32, 720u32);
    let mut d = device((w, h), true, opts)?;
    d.set_render_state(RenderState::CullMode(warp9::state::Cull::None));
    d.set_render_state(RenderState::SrcBlend(Blend::SrcAlpha));
    d.set_render_state(RenderState::DestBlend(Blend::InvSrcAlpha));
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Linear))?;
    d.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Linear))?;
    d.set_sampler_state(0, SamplerState::MipFilter(TextureFilter::None))?;
    d.set_fvf(Fvf::XYZ | Fvf::TEX1)?;
    let assemble = |src: &str| {
        warp9::shader::assemble(src).map_err(|e| warp9::Error::invalid_call(e.to_string()))
    };
    let vs = d.create_vertex_shader(&assemble(VERTEX_SHADER)?)?;
    let ps = d.create_pixel_shader(&assemble(PIXEL_SHADER)?)?;
    d.set_vertex_shader(Some(&vs));
    d.set_pixel_shader(Some(&ps));

    let mut g = Gen::new();
    let byte = |v: f32| (v * 256.0) as u8;
    let mut textures = Vec::new();
    for _ in 0..TEXTURES {
        let tex = d.create_texture(
            TEX_SIZE as u32,
            TEX_SIZE as u32,
            1,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        )?;
        // BGRA bytes: the memory layout of A8R8G8B8.
        let mut texels = Vec::with_capacity(TEX_SIZE * TEX_SIZE * 4);
        for _ in 0..TEX_SIZE * TEX_SIZE {
            let [a, r, gg, b] = [g.next(), g.next(), g.next(), g.next()].map(byte);
            texels.extend([b, gg, r, a]);
        }
        tex.write_level(0, None, &texels, TEX_SIZE * 4)?;
        textures.push(tex);
    }
    // Radius 3.375 pixels in clip space; depth z_k + z/16; the half-pixel
    // offset of the common rules moves the centre by (-1/1280, +1/720).
    let (sx, sy, sz) = (0.005_273_437_5f32, 0.009_375f32, 0.0625f32);
    let list = (0..GRID * GRID)
        .map(|k| {
            let vz = g.next();
            let z = (0.1 + 0.8 * f64::from(vz)) as f32;
            let color = [g.next(), g.next(), g.next(), g.next()];
            let (row, column) = (k / GRID, k % GRID);
            let cx = (2 * column as i32 + 1 - GRID as i32) as f32 / GRID as f32 - 1.0 / w as f32;
            let cy = (GRID as i32 - 2 * row as i32 - 1) as f32 / GRID as f32 + 1.0 / h as f32;
            Object {
                matrix: [
                    [sx, 0.0, 0.0, cx],
                    [0.0, sy, 0.0, cy],
                    [0.0, 0.0, sz, z],
                    [0.0, 0.0, 0.0, 1.0],
                ],
                color,
                texture: k % TEXTURES,
                blend: (k / GRID) % 2 == 1,
            }
        })
        .collect();
    let (vb, ib) = sphere();
    let mesh = ((vb.len() / 20) as u32, (ib.len() / 3) as u32);
    // SCENES.md: 9 x 7 = 63 vertices, 96 triangles.
    debug_assert_eq!(mesh, (63, 96));
    let work = ((GRID * GRID) as f64, 1e3, "kdraws/s");
    let mut s = Scene::new(d, "S7", true, work, Vec::new());
    s.keep(vs);
    s.keep(ps);
    s.bind_buffers(&vb, 20, &ib)?;
    s.objects = Some(Objects {
        list,
        textures,
        mesh,
    });
    Ok(s)
}
