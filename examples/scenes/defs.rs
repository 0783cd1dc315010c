//! The benchmark scenes of shared/bench/SCENES.md (S1, S2) as warp9 draws,
//! shared by `examples/scenes` and `benches/scenes.rs`.
//!
//! Vertices are pre-transformed (POSITIONT, FLOAT4 COLOR0): the clip-space
//! positions of SCENES.md go through the viewport transform with D3D9's
//! half-pixel offset (x_screen = (1 + x) * W / 2 - 0.5), so pixels sample
//! exactly where the GL peers sample and the colours are the peers' floats.
#![allow(dead_code)]

use warp9::resource::{IndexBuffer, VertexBuffer};
use warp9::vertex::{DeclType, DeclUsage, VertexElement};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, Format, Fvf, Pool, PrimitiveType, Result,
    SimdChoice, Usage,
};

/// A scene ready to render frames.
pub struct Scene {
    pub name: &'static str,
    pub device: Device,
    /// Units of the figure per frame (pixels, triangles).
    pub work: f64,
    pub unit: &'static str,
    draws: Vec<(i32, u32)>,
    vertices_per_copy: u32,
    _vb: VertexBuffer,
    _ib: IndexBuffer,
}

/// xorshift32 from the SCENES.md seed, values in [0, 1) rounded to f32.
pub struct Gen(u32);

impl Gen {
    pub fn new() -> Gen {
        Gen(0x9E37_79B9)
    }
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

fn vertex_bytes(out: &mut Vec<u8>, p: [f32; 4], c: [f32; 4]) {
    for f in p.into_iter().chain(c) {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// Creates the device and resources of scene `name` (S1, S2).
pub fn build(name: &str, driver: DriverType, threads: usize, simd: SimdChoice) -> Result<Scene> {
    let (w, h) = match name {
        "S1" => (1920u32, 1080u32),
        "S2" => (1024, 768),
        _ => return Err(warp9::Error::invalid_call(format!("unknown scene {name}"))),
    };
    let drivers = [driver];
    let mut device = Device::create(&DeviceDesc {
        drivers: &drivers,
        back_buffer: (w, h, Format::X8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        simd,
        ..DeviceDesc::default()
    })?;
    let decl = device.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, DeclUsage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::Float4, DeclUsage::Color, 0),
    ])?;
    device.set_vertex_declaration(Some(&decl));
    let sx = |x: f32| (1.0 + x) * w as f32 / 2.0 - 0.5;
    let sy = |y: f32| (1.0 - y) * h as f32 / 2.0 - 0.5;
    let mut vb = Vec::new();
    let mut ib: Vec<u16> = Vec::new();
    let (draws, per_copy, work, unit, nm) = if name == "S1" {
        let xy = [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
        let col = [
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [1.0; 4],
        ];
        for q in 0..16u16 {
            let z = 1.0 - (q as f32 + 1.0) / 17.0;
            for c in 0..4 {
                vertex_bytes(&mut vb, [sx(xy[c].0), sy(xy[c].1), z, 1.0], col[c]);
            }
            ib.extend([0, 1, 2, 0, 2, 3].map(|k| q * 4 + k));
        }
        (
            vec![(0, 32)],
            64,
            16.0 * f64::from(w * h),
            "Mpixels/s",
            "S1",
        )
    } else {
        let (nx, ny) = (257u32, 193u32);
        let mut g = Gen::new();
        let mut cols = Vec::new();
        for _ in 0..nx * ny {
            cols.push([g.next(), g.next(), g.next(), 1.0]);
        }
        for z in [0.8f32, 0.6, 0.4, 0.2] {
            for j in 0..ny {
                for i in 0..nx {
                    let x = -1.0 + (i * 4) as f32 * 2.0 / 1024.0;
                    let y = 1.0 - (j * 4) as f32 * 2.0 / 768.0;
                    vertex_bytes(&mut vb, [sx(x), sy(y), z, 1.0], cols[(j * nx + i) as usize]);
                }
            }
        }
        for j in 0..192u32 {
            for i in 0..256u32 {
                let a = (j * nx + i) as u16;
                let (b, c) = (a + 1, a + nx as u16);
                let d = c + 1;
                ib.extend([a, b, c, b, d, c]);
            }
        }
        let n = nx * ny;
        let draws = (0..4).map(|k| ((k * n) as i32, 256 * 192 * 2)).collect();
        (draws, n, 4.0 * 256.0 * 192.0 * 2.0, "Mtriangles/s", "S2")
    };
    let vbuf = device.create_vertex_buffer(
        vb.len() as u32,
        Usage::WRITE_ONLY,
        Fvf::empty(),
        Pool::Default,
    )?;
    vbuf.write(0, &vb)?;
    let ibytes: Vec<u8> = ib.iter().flat_map(|i| i.to_le_bytes()).collect();
    let ibuf = device.create_index_buffer(
        ibytes.len() as u32,
        Usage::WRITE_ONLY,
        Format::Index16,
        Pool::Default,
    )?;
    ibuf.write(0, &ibytes)?;
    device.set_stream_source(0, Some(&vbuf), 0, 32)?;
    device.set_indices(Some(&ibuf))?;
    Ok(Scene {
        name: nm,
        device,
        work,
        unit,
        draws,
        vertices_per_copy: per_copy,
        _vb: vbuf,
        _ib: ibuf,
    })
}

impl Scene {
    /// One frame: clear colour and depth, then every draw (complete on return).
    pub fn frame(&mut self) -> Result<()> {
        let d = &mut self.device;
        d.clear(
            &[],
            ClearFlags::TARGET | ClearFlags::ZBUFFER,
            0xFF00_0000,
            1.0,
            0,
        )?;
        for &(base, count) in &self.draws {
            d.draw_indexed_primitive(
                PrimitiveType::TriangleList,
                base,
                0,
                self.vertices_per_copy,
                0,
                count,
            )?;
        }
        Ok(())
    }
}
