//! The benchmark scenes of shared/bench/SCENES.md (S1..S8, S5-nocull) as
//! warp9 draws, shared by `examples/scenes` and `benches/scenes.rs`.
//!
//! Every scene applies D3D9's half-pixel offset of SCENES.md (each vertex
//! moved by (-0.5, -0.5) pixels), so its pixels sample exactly where the GL
//! peers sample and the images compare pixel by pixel: pre-transformed
//! scenes (S1, S2, S4) through their screen positions, the vertex shader of
//! S3 through a constant, and the T&L scenes (S5, S6) through a translation
//! appended to the projection.
#![allow(dead_code)]

mod draws;
mod flat;
mod lit;

use std::any::Any;

use glam::{Mat4, Vec3};
use warp9::resource::{IndexBuffer, VertexBuffer};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    Result, SimdChoice, Usage,
};

/// The scene names "all" stands for, in the peers' order.
pub const ALL: [&str; 9] = ["S1", "S2", "S3", "S4", "S5", "S5-nocull", "S6", "S7", "S8"];

/// One draw call of a frame.
#[derive(Clone, Copy, Debug)]
pub enum Draw {
    /// `DrawIndexedPrimitive` of `count` primitives from index 0, vertices
    /// `base..base + vertices`.
    Indexed {
        /// Primitive type.
        prim: PrimitiveType,
        /// Base vertex index added to every index.
        base: i32,
        /// Vertices the indices address.
        vertices: u32,
        /// Primitives.
        count: u32,
    },
    /// `DrawPrimitive` of `count` primitives from vertex `start`.
    Plain {
        /// Primitive type.
        prim: PrimitiveType,
        /// First vertex.
        start: u32,
        /// Primitives.
        count: u32,
    },
}

/// A scene ready to render frames.
pub struct Scene {
    /// Scene name as the peers print it.
    pub name: &'static str,
    /// The device holding the scene's resources and state.
    pub device: Device,
    /// Units of the figure per frame (pixels, triangles, instructions...);
    /// 0 for scenes whose figure is the frame time itself (S5).
    pub work: f64,
    /// Units per unit of the figure (1e6 for Mpixels/s, 1e9 for G...).
    pub scale: f64,
    /// Unit of the figure, as the peers print it.
    pub unit: &'static str,
    draws: Vec<Draw>,
    /// Draws that each set their own state first (S7), after `draws`.
    objects: Option<draws::Objects>,
    clear: ClearFlags,
    /// Buffers, textures and shaders the device state refers to.
    held: Vec<Box<dyn Any>>,
}

/// xorshift32 from the SCENES.md seed, values in [0, 1) rounded to f32.
pub struct Gen(u32);

impl Gen {
    /// The generator at the seed (every scene restarts it).
    pub fn new() -> Gen {
        Gen(0x9E37_79B9)
    }
    /// The next value: x/2^32 rounded to f32, clamped below 1.
    pub fn next(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        let f = (f64::from(x) / 4_294_967_296.0) as f32;
        if f >= 1.0 { 0.999_999_94 } else { f }
    }
}

/// Appends `fs` as little-endian f32s.
fn push_f32s(out: &mut Vec<u8>, fs: &[f32]) {
    for f in fs {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// Screen-space x of clip-space `x` on a `w`-pixel target, with the
/// half-pixel offset.
fn screen_x(x: f32, w: u32) -> f32 {
    (1.0 + x) * w as f32 / 2.0 - 0.5
}

/// Screen-space y of clip-space `y` on an `h`-pixel target, with the
/// half-pixel offset.
fn screen_y(y: f32, h: u32) -> f32 {
    (1.0 - y) * h as f32 / 2.0 - 0.5
}

/// The half-pixel offset as a clip-space translation applied after the
/// projection (x - w/W, y + w/H), in the device's matrix storage (glam
/// product order = D3D order reversed).
fn half_pixel(w: u32, h: u32) -> Mat4 {
    Mat4::from_translation(Vec3::new(-1.0 / w as f32, 1.0 / h as f32, 0.0))
}

/// Creates the scene's device: X8R8G8B8 back buffer, D24S8 when `depth`,
/// at the Sm3 level (S3's ps_3_0; 2^20 - 1 primitives a draw).
fn device(size: (u32, u32), depth: bool, opts: &Opts) -> Result<Device> {
    Device::create(&DeviceDesc {
        drivers: &[opts.driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (size.0, size.1, Format::X8R8G8B8),
        depth_stencil: depth.then_some(Format::D24S8),
        threads: Some(opts.threads),
        simd: opts.simd,
        ..DeviceDesc::default()
    })
}

/// Uploads vertex bytes into a new buffer.
fn vertex_buffer(d: &mut Device, bytes: &[u8]) -> Result<VertexBuffer> {
    let vb = d.create_vertex_buffer(
        bytes.len() as u32,
        Usage::WRITE_ONLY,
        Fvf::empty(),
        Pool::Default,
    )?;
    vb.write(0, bytes)?;
    Ok(vb)
}

/// Uploads 16-bit indices into a new buffer.
fn index_buffer(d: &mut Device, indices: &[u16]) -> Result<IndexBuffer> {
    let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let ib = d.create_index_buffer(
        bytes.len() as u32,
        Usage::WRITE_ONLY,
        Format::Index16,
        Pool::Default,
    )?;
    ib.write(0, &bytes)?;
    Ok(ib)
}

/// How to create a scene's device.
#[derive(Clone, Copy, Debug)]
pub struct Opts {
    /// Driver (Warp or Reference).
    pub driver: DriverType,
    /// Worker threads.
    pub threads: usize,
    /// SIMD backend.
    pub simd: SimdChoice,
}

/// Creates the device and resources of scene `name` (see [`ALL`]).
pub fn build(name: &str, driver: DriverType, threads: usize, simd: SimdChoice) -> Result<Scene> {
    let opts = Opts {
        driver,
        threads,
        simd,
    };
    match name {
        "S1" => flat::s1(&opts),
        "S2" => flat::s2(&opts),
        "S3" => flat::s3(&opts),
        "S4" => flat::s4(&opts),
        "S5" => lit::s5(&opts, true),
        "S5-NOCULL" | "S5-nocull" => lit::s5(&opts, false),
        "S6" => lit::s6(&opts, "S6", 2),
        "S6-64" => lit::s6(&opts, "S6-64", 64),
        "S7" => draws::s7(&opts),
        "S8" => flat::s8(&opts),
        _ => Err(warp9::Error::invalid_call(format!("unknown scene {name}"))),
    }
}

impl Scene {
    /// A scene on `device` drawing `draws`, clearing depth too when `depth`;
    /// `work` = (units per frame, units per figure unit, unit name).
    fn new(
        device: Device,
        name: &'static str,
        depth: bool,
        (work, scale, unit): (f64, f64, &'static str),
        draws: Vec<Draw>,
    ) -> Scene {
        let clear = if depth {
            ClearFlags::TARGET | ClearFlags::ZBUFFER
        } else {
            ClearFlags::TARGET
        };
        Scene {
            name,
            device,
            work,
            scale,
            unit,
            draws,
            objects: None,
            clear,
            held: Vec::new(),
        }
    }

    /// Keeps `resource` alive as long as the scene.
    fn keep(&mut self, resource: impl Any) {
        self.held.push(Box::new(resource));
    }

    /// Uploads `vb` (vertices of `stride` bytes) to stream 0 and `ib` as the
    /// index buffer (none when empty).
    fn bind_buffers(&mut self, vb: &[u8], stride: u32, ib: &[u16]) -> Result<()> {
        let d = &mut self.device;
        let vbuf = vertex_buffer(d, vb)?;
        d.set_stream_source(0, Some(&vbuf), 0, stride)?;
        self.keep(vbuf);
        if !ib.is_empty() {
            let ibuf = index_buffer(&mut self.device, ib)?;
            self.device.set_indices(Some(&ibuf))?;
            self.keep(ibuf);
        }
        Ok(())
    }

    /// One frame: clear colour (and depth), then every draw (complete on
    /// return).
    pub fn frame(&mut self) -> Result<()> {
        let d = &mut self.device;
        d.clear(&[], self.clear, 0xFF00_0000, 1.0, 0)?;
        for &draw in &self.draws {
            match draw {
                Draw::Indexed {
                    prim,
                    base,
                    vertices,
                    count,
                } => d.draw_indexed_primitive(prim, base, 0, vertices, 0, count)?,
                Draw::Plain { prim, start, count } => d.draw_primitive(prim, start, count)?,
            }
        }
        if let Some(objects) = &self.objects {
            objects.draw(d)?;
        }
        // Small draws wait in the device's batch: the frame is complete
        // when every pixel is in the target (SCENES.md).
        d.flush()
    }

    /// The figure for a mean frame time of `mean` seconds (S5: the frame
    /// time in ms).
    pub fn figure(&self, mean: f64) -> f64 {
        if self.work == 0.0 {
            mean * 1e3
        } else {
            self.work / mean / self.scale
        }
    }
}
