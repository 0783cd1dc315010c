//! The draw fuzzer's logic, shared by the cargo-fuzz target
//! (`fuzz_targets/draw.rs`) and the stable test `tests/draw_fuzz.rs`.
//!
//! The input is decoded into a device description and a list of calls
//! (render, sampler and stage states with any values, transforms, viewports,
//! scissor rectangles, clears, a texture, FVFs, a ps_1_x pixel shader, and
//! draws of every kind with
//! vertices full of NaN, infinities, huge and degenerate values, random
//! indices, counts and strides). The same calls run on a Warp and a
//! Reference device. Checked: no panic; both drivers give the same result
//! (Ok, or the same error kind) for every call; the back buffers are
//! byte-for-byte equal at the end.

use glam::Mat4;
use warp9::state::{Rect, Viewport};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, ErrorKind, FeatureLevel, Format, Fvf, Pool,
    PrimitiveType, Texture, Usage,
};

/// Reads the fuzz input; past the end every read is 0.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.u8() as usize % items.len()]
    }

    /// A float: ordinary coordinates mostly, special values often.
    fn f32(&mut self) -> f32 {
        match self.u8() % 8 {
            0 => self.pick(&[
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e30,
                -1e30,
                0.0,
                -0.0,
            ]),
            1 => f32::from_bits(self.u32()),
            2 => (self.u8() as f32 - 128.0) * 100.0,
            _ => (self.u8() as f32 - 128.0) / 64.0,
        }
    }

    fn small(&mut self) -> u32 {
        u32::from(self.u8() % 16)
    }
}

/// Render states worth fuzzing (D3DRS numbers): depth, stencil, blending,
/// alpha test, culling, fill, shading, fog, lighting, clipping, scissor,
/// colour writes, depth bias, points, sRGB, separate alpha.
const RENDER_STATES: [u32; 40] = [
    7, 8, 9, 14, 15, 16, 19, 20, 22, 23, 24, 25, 27, 28, 29, 34, 35, 36, 37, 38, 52, 53, 54, 55,
    56, 57, 58, 59, 60, 136, 137, 139, 152, 154, 168, 171, 174, 185, 194, 195,
];

const FVFS: [u32; 6] = [0x002, 0x004, 0x042, 0x044, 0x142, 0x1C4];

/// One call, decoded once and applied to both devices.
#[derive(Debug)]
enum Op {
    RenderState(u32, u32),
    SamplerState(u32, u32, u32),
    StageState(u32, u32, u32),
    Transform(u32, [f32; 16]),
    Viewport(Viewport),
    Scissor(Rect),
    Clear(Vec<Rect>, u32, u32, f32, u32),
    Texture(u32, u32, Vec<u8>),
    Fvf(u32),
    /// One of [`PS1_SHADERS`] (index past the end: no pixel shader).
    PixelShader(u8),
    DrawUp(u32, u32, Vec<u8>, u32),
    DrawIndexedUp(u32, u32, Vec<u8>, bool, Vec<u8>, u32),
    DrawBuffer(u32, u32, u32, Vec<u8>, u32),
}

fn rect(inp: &mut Input) -> Rect {
    let c = |inp: &mut Input| i32::from(inp.u8()) - 16;
    Rect::new(c(inp), c(inp), c(inp), c(inp))
}

/// ps_1_x pixel shaders a fuzzed draw may run: bump mapping, depth
/// replacement, the 3x3 reflection, ps_1_4's dependent read and texkill,
/// under whatever stage states (bump matrices, transform flags) the input
/// sets.
pub(crate) const PS1_SHADERS: [&str; 5] = [
    "ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1\n",
    "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
    "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n",
    "ps_1_4\ntexld r0, t0\ntexcrd r1.rgb, t1\nphase\ntexld r2, r1_dz\nmov r0.rgb, r2\n+mov r0.a, c0.a\n",
    "ps_1_2\ndef c0, 0.5, 0.5, 0.5, 1\ntexcoord t0\ntexkill t1\nmul_x2_sat r0, t0, c0\n",
];

fn vertices(inp: &mut Input) -> Vec<u8> {
    let n = inp.u8() as usize % 48;
    (0..n).flat_map(|_| inp.f32().to_le_bytes()).collect()
}

fn decode(inp: &mut Input) -> Vec<Op> {
    let mut ops = Vec::new();
    while !inp.0.is_empty() && ops.len() < 40 {
        let op = match inp.u8() % 16 {
            0..=2 => {
                let s = inp.pick(&RENDER_STATES);
                let v = if inp.u8().is_multiple_of(2) {
                    inp.small()
                } else {
                    inp.u32()
                };
                Op::RenderState(s, v)
            }
            3 => Op::SamplerState(inp.u8().into(), 1 + inp.small() % 13, inp.small()),
            4 => Op::StageState(inp.small() % 8, 1 + inp.u8() as u32 % 32, inp.small()),
            5 => Op::Transform(
                inp.pick(&[2, 3, 16, 256]),
                std::array::from_fn(|_| inp.f32()),
            ),
            6 => Op::Viewport(Viewport {
                x: inp.small(),
                y: inp.small(),
                width: inp.u8().into(),
                height: inp.u8().into(),
                min_z: inp.pick(&[0.0, 0.25, 1.0]),
                max_z: inp.pick(&[0.0, 0.5, 1.0]),
            }),
            7 => Op::Scissor(rect(inp)),
            8 => {
                let rects = (0..inp.u8() % 3).map(|_| rect(inp)).collect();
                Op::Clear(rects, 1 + inp.small() % 7, inp.u32(), inp.f32(), inp.u32())
            }
            9 => {
                let (w, h) = (1 << (inp.u8() % 4), 1 << (inp.u8() % 4));
                let texels = (0..w * h * 4).map(|_| inp.u8()).collect();
                Op::Texture(w, h, texels)
            }
            10 => Op::Fvf(inp.pick(&FVFS)),
            11 => Op::PixelShader(inp.u8() % (PS1_SHADERS.len() as u8 + 1)),
            12 | 13 => Op::DrawUp(
                inp.u8().into(),
                inp.small(),
                vertices(inp),
                inp.pick(&[12, 16, 20, 24, 0, 4, 7]),
            ),
            14 => {
                let idx = (0..inp.u8() % 24).map(|_| inp.u8() % 12).collect();
                Op::DrawIndexedUp(
                    inp.u8().into(),
                    inp.small(),
                    idx,
                    inp.u8().is_multiple_of(4),
                    vertices(inp),
                    inp.pick(&[16, 20, 24]),
                )
            }
            _ => Op::DrawBuffer(
                inp.u8().into(),
                inp.small(),
                inp.small(),
                vertices(inp),
                inp.pick(&[16, 20, 24, 28]),
            ),
        };
        ops.push(op);
    }
    ops
}

fn apply(d: &mut Device, op: &Op, texture: &mut Option<Texture>) -> Result<(), ErrorKind> {
    let kind = |e: warp9::Error| e.kind();
    let prim = |p: u32| PrimitiveType::from_raw(p % 8);
    match op {
        Op::RenderState(s, v) => d.set_render_state_raw(*s, *v).map_err(kind),
        Op::SamplerState(s, k, v) => d.set_sampler_state_raw(*s % 20, *k, *v).map_err(kind),
        Op::StageState(s, k, v) => d.set_texture_stage_state_raw(*s, *k, *v).map_err(kind),
        Op::Transform(t, m) => d
            .set_transform_raw(*t, &Mat4::from_cols_array(m))
            .map_err(kind),
        Op::Viewport(vp) => d.set_viewport(vp).map_err(kind),
        Op::Scissor(r) => d.set_scissor_rect(r).map_err(kind),
        Op::Clear(rects, flags, color, z, stencil) => d
            .clear(
                rects,
                ClearFlags::from_bits_retain(*flags),
                *color,
                *z,
                *stencil,
            )
            .map_err(kind),
        Op::Texture(w, h, texels) => {
            let t = d
                .create_texture(*w, *h, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
                .map_err(kind)?;
            t.write_level(0, None, texels, *w as usize * 4)
                .map_err(kind)?;
            d.set_texture(0, Some((&t).into())).map_err(kind)?;
            *texture = Some(t);
            Ok(())
        }
        Op::Fvf(f) => d.set_fvf(Fvf::from_bits_retain(*f)).map_err(kind),
        Op::PixelShader(i) => match PS1_SHADERS.get(*i as usize) {
            Some(text) => {
                let tokens = warp9::shader::assemble(text).expect("the listings assemble");
                let ps = d.create_pixel_shader(&tokens).map_err(kind)?;
                d.set_pixel_shader(Some(&ps));
                Ok(())
            }
            None => {
                d.set_pixel_shader(None);
                Ok(())
            }
        },
        Op::DrawUp(p, n, data, stride) => match prim(*p) {
            Some(k) => d.draw_primitive_up(k, *n, data, *stride).map_err(kind),
            None => Ok(()),
        },
        Op::DrawIndexedUp(p, n, idx, wide, data, stride) => {
            let (format, bytes): (Format, Vec<u8>) = if *wide {
                (
                    Format::Index32,
                    idx.iter()
                        .flat_map(|&i| u32::from(i).to_le_bytes())
                        .collect(),
                )
            } else {
                (
                    Format::Index16,
                    idx.iter()
                        .flat_map(|&i| u16::from(i).to_le_bytes())
                        .collect(),
                )
            };
            match prim(*p) {
                Some(k) => d
                    .draw_indexed_primitive_up(k, 0, 12, *n, &bytes, format, data, *stride)
                    .map_err(kind),
                None => Ok(()),
            }
        }
        Op::DrawBuffer(p, start, n, data, stride) => {
            let Some(k) = prim(*p) else { return Ok(()) };
            if data.is_empty() {
                return Ok(());
            }
            let vb = d
                .create_vertex_buffer(
                    data.len() as u32,
                    Usage::WRITE_ONLY,
                    Fvf::empty(),
                    Pool::Managed,
                )
                .map_err(kind)?;
            vb.write(0, data).map_err(kind)?;
            d.set_stream_source(0, Some(&vb), 0, *stride)
                .map_err(kind)?;
            d.draw_primitive(k, *start, *n).map_err(kind)
        }
    }
}

fn device(driver: DriverType, level: FeatureLevel, w: u32, h: u32, threads: usize) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[level],
        back_buffer: (w, h, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        memory_budget: Some(16 << 20),
        ..DeviceDesc::default()
    })
    .expect("small devices can always be created")
}

/// Runs one fuzz input; panics on a finding. Returns how many draws succeeded.
pub fn run(data: &[u8]) -> usize {
    let mut inp = Input(data);
    let level = FeatureLevel::SUPPORTED[inp.u8() as usize % 4];
    let (w, h) = (1 + u32::from(inp.u8() % 64), 1 + u32::from(inp.u8() % 48));
    let threads = 1 + inp.u8() as usize % 3;
    let ops = decode(&mut inp);
    let mut warp = device(DriverType::Warp, level, w, h, threads);
    let mut reference = device(DriverType::Reference, level, w, h, 1);
    let (mut tw, mut tr) = (None, None);
    for d in [&mut warp, &mut reference] {
        d.begin_scene().expect("begin_scene on a new device");
    }
    let mut drawn = 0;
    for (i, op) in ops.iter().enumerate() {
        let a = apply(&mut warp, op, &mut tw);
        let b = apply(&mut reference, op, &mut tr);
        assert_eq!(a, b, "call {i} {op:?}: Warp and Reference disagree");
        let is_draw = matches!(
            op,
            Op::DrawUp(..) | Op::DrawIndexedUp(..) | Op::DrawBuffer(..)
        );
        drawn += usize::from(is_draw && a.is_ok());
    }
    for d in [&mut warp, &mut reference] {
        d.end_scene().expect("end_scene");
    }
    let (a, b) = (warp.back_buffer(), reference.back_buffer());
    let (pa, pb) = (
        warp.read_surface_argb(&a).expect("read Warp"),
        reference.read_surface_argb(&b).expect("read Reference"),
    );
    if let Some(i) = (0..pa.len()).find(|&i| pa[i] != pb[i]) {
        panic!(
            "Warp and Reference differ at ({}, {}): 0x{:08x} vs 0x{:08x} after {ops:?}",
            i as u32 % w,
            i as u32 / w,
            pa[i],
            pb[i]
        );
    }
    drawn
}
