//! Shader Model 3 content, assembled at run time from text with the crate's
//! own assembler: a vs_3_0 that displaces a grid by a height texture (vertex
//! texture fetch) and a ps_3_0 with a loop, a dynamic branch and
//! derivatives (dsx/dsy) for an analytic grid line.
//!
//! `cargo run --release --example shaders` (a window, or
//! headless PNGs without a display).

mod common;

use common::{FrameClock, Options, Output};
use warp9::caps::{DriverType, FeatureLevel};
use warp9::vertex::{DeclType, DeclUsage, VertexElement};
use warp9::{ClearFlags, Device, DeviceDesc, Format, Pool, PrimitiveType, Usage};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 480;
const GRID: u32 = 64;

const VERTEX_SHADER: &str = "
vs_3_0
// c0-c3: world-view-projection; c4.x: time
dcl_position v0
dcl_texcoord v1
dcl_2d s0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
def c5, 0, 0.6, 0, 0
mov r0, v1
mov r0.zw, c5.x
texldl r1, r0, s0          // vertex texture fetch: height
mov r3, v0
mad r3.y, r1.x, c5.y, v0.y
m4x4 o0, r3, c0
mov o1, v1
mov o2, r1.x
";

const PIXEL_SHADER: &str = "
ps_3_0
// c0.x: time; i0: loop count
defi i0, 4, 0, 1, 0
def c1, 0.5, 2.0, 1.0, 0.0
def c2, 0.1, 0.3, 0.8, 1.0
def c3, 0.9, 0.6, 0.2, 1.0
def c4, 0.02, 8.0, 0.0, 0.0
dcl_texcoord0 v0.xy
dcl_texcoord1 v1.x
mov r0, c1.w
mov r1.x, c1.z
loop aL, i0                 // a few octaves of rings
  mul r2.xy, v0, r1.x
  frc r2.xy, r2
  add r0.x, r0.x, r2.x
  mul r1.x, r1.x, c1.y
endloop
mul r0.x, r0.x, c1.x
if_gt v1.x, c1.x            // dynamic branch on the height
  lrp r3, r0.x, c3, c2
else
  lrp r3, r0.x, c2, c3
endif
mul r4.xy, v0, c4.y         // grid lines with screen-space width from derivatives
frc r4.xy, r4
dsx r5.xy, r4
dsy r6.xy, r4
add r5.xy, r5_abs, r6_abs
add r8.xy, r4, -r5
cmp r7.xy, r8, c1.w, c1.z   // 1 where the fraction is within a pixel of the line
max r7.x, r7.x, r7.y
lrp oC0, r7.x, c1.w, r3
";

fn main() {
    if let Err(e) = run() {
        eprintln!("shaders: {e}");
        std::process::exit(1);
    }
}

fn run() -> warp9::Result<()> {
    let opts = Options::from_args(30);
    let mut dev = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (WIDTH, HEIGHT, Format::X8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        ..DeviceDesc::default()
    })?;
    let asm = |text: &str| {
        warp9::shader::assemble(text)
            .map_err(|e| warp9::Error::invalid_call(format!("assembler: {e}")))
    };
    let vs = dev.create_vertex_shader(&asm(VERTEX_SHADER)?)?;
    let ps = dev.create_pixel_shader(&asm(PIXEL_SHADER)?)?;
    // A grid of positions and texture coordinates.
    let mut verts = Vec::new();
    for j in 0..=GRID {
        for i in 0..=GRID {
            let (u, v) = (i as f32 / GRID as f32, j as f32 / GRID as f32);
            verts.extend_from_slice(&[u * 8.0 - 4.0, 0.0, v * 8.0 - 4.0, u, v]);
        }
    }
    let mut indices: Vec<u16> = Vec::new();
    for j in 0..GRID {
        for i in 0..GRID {
            let a = (j * (GRID + 1) + i) as u16;
            let b = a + 1;
            let c = a + (GRID + 1) as u16;
            indices.extend_from_slice(&[a, c, b, b, c, c + 1]);
        }
    }
    let vbytes: &[u8] = bytemuck::cast_slice(&verts);
    let vb = dev.create_vertex_buffer(
        vbytes.len() as u32,
        Usage::WRITE_ONLY,
        warp9::Fvf::empty(),
        Pool::Managed,
    )?;
    vb.write(0, vbytes)?;
    let ibytes: &[u8] = bytemuck::cast_slice(&indices);
    let ib = dev.create_index_buffer(
        ibytes.len() as u32,
        Usage::WRITE_ONLY,
        Format::Index16,
        Pool::Managed,
    )?;
    ib.write(0, ibytes)?;
    let decl = dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float2, DeclUsage::TexCoord, 0),
    ])?;
    // A height map for the vertex texture fetch (R32F: every format is a vertex texture at sm3).
    let heights = dev.create_texture(64, 64, 1, Usage::empty(), Format::R32F, Pool::Managed)?;
    let h: Vec<f32> = (0..64 * 64)
        .map(|k| {
            let (x, y) = ((k % 64) as f32 / 64.0, (k / 64) as f32 / 64.0);
            0.5 + 0.5 * ((x * 12.0).sin() * (y * 9.0).cos())
        })
        .collect();
    heights.write_level(0, None, bytemuck::cast_slice(&h), 64 * 4)?;
    dev.set_texture(257, Some((&heights).into()))?;

    let mut frame = vec![0u32; (WIDTH * HEIGHT) as usize];
    let mut clock = FrameClock::new();
    let draw = |dev: &mut Device, t: f32, frame: &mut [u32]| -> warp9::Result<()> {
        let view = glam::camera::lh::view::look_at_mat4(
            glam::Vec3::new(6.0 * (t * 0.3).sin(), 4.0, -6.0 * (t * 0.3).cos()),
            glam::Vec3::ZERO,
            glam::Vec3::Y,
        );
        let proj = glam::camera::lh::proj::directx::perspective(
            0.9,
            WIDTH as f32 / HEIGHT as f32,
            0.5,
            50.0,
        );
        // Shader constants are rows of the matrix applied as v * M: the transpose of glam's columns.
        let wvp = (proj * view).transpose();
        let rows: Vec<[f32; 4]> = wvp.to_cols_array_2d().to_vec();
        dev.clear(
            &[],
            ClearFlags::TARGET | ClearFlags::ZBUFFER,
            0xFF10_1018,
            1.0,
            0,
        )?;
        dev.begin_scene()?;
        dev.set_vertex_shader(Some(&vs));
        dev.set_pixel_shader(Some(&ps));
        dev.set_vertex_shader_constant_f(0, &rows)?;
        dev.set_vertex_shader_constant_f(4, &[[t, 0.0, 0.0, 0.0]])?;
        dev.set_pixel_shader_constant_f(0, &[[t, 0.0, 0.0, 0.0]])?;
        dev.set_vertex_declaration(Some(&decl));
        dev.set_stream_source(0, Some(&vb), 0, 20)?;
        dev.set_indices(Some(&ib))?;
        dev.draw_indexed_primitive(
            PrimitiveType::TriangleList,
            0,
            0,
            (GRID + 1) * (GRID + 1),
            0,
            GRID * GRID * 2,
        )?;
        dev.end_scene()?;
        dev.present_into(frame)
    };
    match common::open("warp9 shaders", WIDTH, HEIGHT, &opts) {
        Output::Headless { frames, dir } => {
            for n in 0..frames {
                draw(&mut dev, n as f32 / 30.0, &mut frame)?;
                clock.tick();
                if n + 1 == frames {
                    let path = dir.join(format!("shaders_{n:04}.png"));
                    warp9::api::save_argb_png(&frame, WIDTH, HEIGHT, &path)?;
                    println!("wrote {}", path.display());
                }
            }
            println!(
                "shaders: {} frames in {:.2} s: {:.1} fps",
                clock.frames(),
                clock.seconds(),
                clock.average_fps()
            );
        }
        #[cfg(feature = "window")]
        Output::Window(mut window) => {
            while window.is_open()
                && !window.is_key_down(minifb::Key::Escape)
                && !opts.window_done(&clock)
            {
                draw(&mut dev, opts.window_time(&clock), &mut frame)?;
                if clock.tick() {
                    window.set_title(&format!("warp9 shaders | {:.1} fps", clock.fps));
                }
                window
                    .update_with_buffer(&frame, WIDTH as usize, HEIGHT as usize)
                    .map_err(|e| warp9::Error::invalid_call(format!("window: {e}")))?;
                common::announce_first_frame(&clock, "shaders");
            }
        }
    }
    Ok(())
}
