//! The screen-aligned scenes: S1 fill, S2 small triangles, S3 pixel-shader
//! arithmetic, S4 texture sampling, S8 pixel-shader flow control.

use warp9::state::{TextureArg, TextureFilter, TextureOp};
use warp9::vertex::{DeclType, DeclUsage, VertexDeclaration, VertexElement};
use warp9::{
    Device, Format, Fvf, Pool, PrimitiveType, RenderState, Result, SamplerState, TextureStageState,
    Usage,
};

use super::{Draw, Gen, Opts, Scene, device, push_f32s, screen_x, screen_y};

/// Clip-space corners of a full-screen quad: TL, TR, BR, BL.
const QUAD_XY: [(f32, f32); 4] = [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
/// Corner colours of the S1/S3 quads (resolved detail 1).
const QUAD_RGBA: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0; 4],
];
/// The quad's two clockwise triangles TL-TR-BR and TL-BR-BL.
const QUAD_IDX: [u16; 6] = [0, 1, 2, 0, 2, 3];

/// Binds a pre-transformed position + FLOAT4 colour declaration.
fn positiont_color(d: &mut Device) -> Result<VertexDeclaration> {
    let decl = d.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, DeclUsage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::Float4, DeclUsage::Color, 0),
    ])?;
    d.set_vertex_declaration(Some(&decl));
    Ok(decl)
}

/// S1: 16 full-screen Gouraud quads far to near, depth LESSEQUAL.
pub fn s1(opts: &Opts) -> Result<Scene> {
    let (w, h) = (1920u32, 1080u32);
    let mut d = device((w, h), true, opts)?;
    let decl = positiont_color(&mut d)?;
    let mut vb = Vec::new();
    let mut ib = Vec::new();
    for q in 0..16u16 {
        let z = 1.0 - (f32::from(q) + 1.0) / 17.0;
        for (c, &(x, y)) in QUAD_XY.iter().enumerate() {
            push_f32s(&mut vb, &[screen_x(x, w), screen_y(y, h), z, 1.0]);
            push_f32s(&mut vb, &QUAD_RGBA[c]);
        }
        ib.extend(QUAD_IDX.map(|k| q * 4 + k));
    }
    let draws = vec![Draw::Indexed {
        prim: PrimitiveType::TriangleList,
        base: 0,
        vertices: 64,
        count: 32,
    }];
    let work = (16.0 * f64::from(w * h), 1e6, "Mpixels/s");
    let mut s = Scene::new(d, "S1", true, work, draws);
    s.keep(decl);
    s.bind_buffers(&vb, 32, &ib)?;
    Ok(s)
}

/// S2: a 256x192 grid of 4x4-pixel cells, drawn 4 times at decreasing z.
pub fn s2(opts: &Opts) -> Result<Scene> {
    let (w, h) = (1024u32, 768u32);
    let mut d = device((w, h), true, opts)?;
    let decl = positiont_color(&mut d)?;
    let (nx, ny) = (257u32, 193u32);
    let mut g = Gen::new();
    let cols: Vec<[f32; 4]> = (0..nx * ny)
        .map(|_| [g.next(), g.next(), g.next(), 1.0])
        .collect();
    let mut vb = Vec::new();
    for z in [0.8f32, 0.6, 0.4, 0.2] {
        for j in 0..ny {
            for i in 0..nx {
                let x = -1.0 + (i * 4) as f32 * 2.0 / w as f32;
                let y = 1.0 - (j * 4) as f32 * 2.0 / h as f32;
                push_f32s(&mut vb, &[screen_x(x, w), screen_y(y, h), z, 1.0]);
                push_f32s(&mut vb, &cols[(j * nx + i) as usize]);
            }
        }
    }
    let mut ib: Vec<u16> = Vec::new();
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let a = (j * nx + i) as u16;
            let (b, c) = (a + 1, a + nx as u16);
            ib.extend([a, b, c, b, c + 1, c]);
        }
    }
    let n = nx * ny;
    let draws = (0..4)
        .map(|k| Draw::Indexed {
            prim: PrimitiveType::TriangleList,
            base: (k * n) as i32,
            vertices: n,
            count: 256 * 192 * 2,
        })
        .collect();
    let work = (4.0 * 256.0 * 192.0 * 2.0, 1e6, "Mtriangles/s");
    let mut s = Scene::new(d, "S2", true, work, draws);
    s.keep(decl);
    s.bind_buffers(&vb, 32, &ib)?;
    Ok(s)
}

/// Assembles shader text, reporting assembler errors as invalid calls.
fn assemble(text: &str) -> Result<Vec<u32>> {
    warp9::shader::assemble(text).map_err(|e| warp9::Error::invalid_call(format!("{e}")))
}

/// S3's pixel shader: the 4-instruction body unrolled 16 times. The first
/// body reads the interpolated colour v0 directly ("r0 starts as the
/// interpolated colour"), so the shader is exactly 64 arithmetic
/// instructions and the output move — one slot more than ps_2_0's 64.
fn s3_pixel_shader() -> String {
    let mut s = String::from(
        "ps_3_0\n\
         def c0, 1.01, 0.99, 1.02, 0.98\n\
         def c1, 0.01, 0.02, 0.03, 0.04\n\
         def c2, 0.3, 0.59, 0.11, 0\n\
         dcl_color v0\n",
    );
    for k in 0..16 {
        let r0 = if k == 0 { "v0" } else { "r0" };
        s += &format!("mad r1, {r0}, c0, c1\ndp3 r2, r1, c2\nmad r0, r2, r1, {r0}\nfrc r0, r0\n");
    }
    s + "mov oC0, r0\n"
}

/// S3: one full-screen quad with S1's corner colours through a 64-instruction
/// ps_3_0 shader.
pub fn s3(opts: &Opts) -> Result<Scene> {
    let work = (64.0 * 1920.0 * 1080.0, 1e9, "Ginstructions/s");
    shaded_quad(opts, "S3", &s3_pixel_shader(), work)
}

/// S8's pixel shader, as SCENES.md lists it: an 8-iteration `loop` with a
/// per-pixel `if_gt` that goes both ways inside most quads.
const S8_PIXEL_SHADER: &str = "ps_3_0
def c0, 512, 1.7, 0.13, 0.5
def c1, 0.05, 0.15, 0.4, 0
def c2, 0.6, 0.6, -0.2, 0
def c3, 0.2, 0.12, 0.04, 0
def c4, 0, 1, 0, 0
defi i0, 8, 0, 1, 0
dcl_color0 v0
mul r0, v0, c0.x
frc r0, r0
mov r1, c4.x
loop aL, i0
dp3 r2.x, r0, c2
if_gt r2.x, c0.w
mad r1, r2.x, c3, r1
else
add r2.y, c0.w, -r2.x
mad r1, r2.y, c1, r1
endif
mad r0, r0, c0.y, c0.z
frc r0, r0
endloop
mov r1.w, c4.y
mov oC0, r1
";

/// S3's full-screen quad with S1's corner colours through `pixel_shader`
/// (a ps_3_0; the vs_3_0 that feeds it applies the half-pixel offset from c0).
fn shaded_quad(
    opts: &Opts,
    name: &'static str,
    pixel_shader: &str,
    work: (f64, f64, &'static str),
) -> Result<Scene> {
    let (w, h) = (1920u32, 1080u32);
    let mut d = device((w, h), false, opts)?;
    let decl = d.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float4, DeclUsage::Color, 0),
    ])?;
    d.set_vertex_declaration(Some(&decl));
    let vs = d.create_vertex_shader(&assemble(
        "vs_3_0\ndcl_position v0\ndcl_color v1\ndcl_position o0\ndcl_color o1\n\
         add o0, v0, c0\nmov o1, v1\n",
    )?)?;
    let ps = d.create_pixel_shader(&assemble(pixel_shader)?)?;
    d.set_vertex_shader(Some(&vs));
    d.set_pixel_shader(Some(&ps));
    // Clip-space half-pixel offset for w = 1: -0.5 px in x and y.
    d.set_vertex_shader_constant_f(0, &[[-1.0 / w as f32, 1.0 / h as f32, 0.0, 0.0]])?;
    let mut vb = Vec::new();
    for (c, &(x, y)) in QUAD_XY.iter().enumerate() {
        push_f32s(&mut vb, &[x, y, 0.0]);
        push_f32s(&mut vb, &QUAD_RGBA[c]);
    }
    let draws = vec![Draw::Indexed {
        prim: PrimitiveType::TriangleList,
        base: 0,
        vertices: 4,
        count: 2,
    }];
    let mut s = Scene::new(d, name, false, work, draws);
    s.keep(decl);
    s.keep(vs);
    s.keep(ps);
    s.bind_buffers(&vb, 28, &QUAD_IDX)?;
    Ok(s)
}

/// S8: S3's quad through a ps_3_0 with a loop and a divergent per-pixel branch.
pub fn s8(opts: &Opts) -> Result<Scene> {
    shaded_quad(
        opts,
        "S8",
        S8_PIXEL_SHADER,
        (1920.0 * 1080.0, 1e6, "Mpixels/s"),
    )
}

/// The S4/S5 texture: 1024x1024 A8R8G8B8, level 0 from the generator
/// (a, r, g, b per texel), levels 1..10 as rounded 2x2 box filters; trilinear
/// filtering on sampler 0 (wrap addressing is the default).
pub fn noise_texture(d: &mut Device) -> Result<warp9::Texture> {
    let mut size = 1024usize;
    let tex = d.create_texture(
        size as u32,
        size as u32,
        11,
        Usage::empty(),
        Format::A8R8G8B8,
        Pool::Managed,
    )?;
    let mut g = Gen::new();
    // BGRA bytes: the memory layout of A8R8G8B8.
    let mut level: Vec<u8> = Vec::with_capacity(size * size * 4);
    let byte = |v: f32| (v * 256.0) as u8;
    for _ in 0..size * size {
        let [a, r, gg, b] = [g.next(), g.next(), g.next(), g.next()].map(byte);
        level.extend([b, gg, r, a]);
    }
    for l in 0..11u32 {
        tex.write_level(l, None, &level, size * 4)?;
        if size == 1 {
            break;
        }
        let half = size / 2;
        let mut next = vec![0u8; half * half * 4];
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |yy: usize, xx: usize| u32::from(level[(yy * size + xx) * 4 + c]);
                    let sum = at(2 * y, 2 * x)
                        + at(2 * y, 2 * x + 1)
                        + at(2 * y + 1, 2 * x)
                        + at(2 * y + 1, 2 * x + 1);
                    next[(y * half + x) * 4 + c] = ((sum + 2) / 4) as u8;
                }
            }
        }
        level = next;
        size = half;
    }
    for f in [
        SamplerState::MinFilter(TextureFilter::Linear),
        SamplerState::MagFilter(TextureFilter::Linear),
        SamplerState::MipFilter(TextureFilter::Linear),
    ] {
        d.set_sampler_state(0, f)?;
    }
    d.set_texture(0, Some((&tex).into()))?;
    Ok(tex)
}

/// S4: one full-screen quad, texture coordinates (0,0)..(1.875, 1.0546875),
/// colour = texel (stage 0 SELECTARG1 TEXTURE).
pub fn s4(opts: &Opts) -> Result<Scene> {
    let (w, h) = (1920u32, 1080u32);
    let mut d = device((w, h), false, opts)?;
    d.set_fvf(Fvf::XYZRHW | Fvf::TEX1)?;
    let tex = noise_texture(&mut d)?;
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::SelectArg1))?;
    d.set_texture_stage_state(0, TextureStageState::ColorArg1(TextureArg::TEXTURE))?;
    d.set_texture_stage_state(0, TextureStageState::AlphaOp(TextureOp::SelectArg1))?;
    d.set_texture_stage_state(0, TextureStageState::AlphaArg1(TextureArg::TEXTURE))?;
    d.set_render_state(RenderState::Lighting(false));
    let uv = [
        (0.0, 0.0),
        (1.875, 0.0),
        (1.875, 1.054_687_5),
        (0.0, 1.054_687_5),
    ];
    let mut vb = Vec::new();
    for (c, &(x, y)) in QUAD_XY.iter().enumerate() {
        push_f32s(&mut vb, &[screen_x(x, w), screen_y(y, h), 0.0, 1.0]);
        push_f32s(&mut vb, &[uv[c].0, uv[c].1]);
    }
    let draws = vec![Draw::Indexed {
        prim: PrimitiveType::TriangleList,
        base: 0,
        vertices: 4,
        count: 2,
    }];
    let work = (f64::from(w * h), 1e6, "Mtexels/s");
    let mut s = Scene::new(d, "S4", false, work, draws);
    s.keep(tex);
    s.bind_buffers(&vb, 24, &QUAD_IDX)?;
    Ok(s)
}
