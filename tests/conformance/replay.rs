//! Replays a case on a fresh device through the public API, as the Wine
//! test's C code would: case state, textures, clear, draws, steps. Every
//! API error stops the case and names the call that failed and why.

use std::collections::HashMap;

use glam::Mat4;
use warp9::api::{PixelShader, VertexShader};
use warp9::resource::{BaseTexture, CubeFace, CubeTexture, LockFlags, VolumeTexture};
use warp9::vertex::RawVertexElement;
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    Surface, Texture, Usage,
};

use super::case::{
    Case, ClearOp, Content, DEFAULT_TARGET, Draw, Method, RenderTarget, Setup, ShaderSpec, Step,
    TextureKind, TextureSpec, Viewport,
};

/// Why a replay stopped.
pub enum Stop {
    /// An API call failed: the case fails with this message.
    Fail(String),
}

type R<T> = Result<T, Stop>;

fn api<T>(what: impl FnOnce() -> String, r: warp9::Result<T>) -> R<T> {
    r.map_err(|e| Stop::Fail(format!("{} failed: {e}", what())))
}

/// A named resource a step created.
enum Named {
    Texture(Texture),
    Surface(Surface),
}

/// A device after a case's calls, with the resources probes may read.
pub struct Replay {
    pub device: Device,
    named: HashMap<String, Named>,
    bound: HashMap<u32, BaseTexture>,
}

/// The device every case starts from: by the README's convention 640x480
/// A8R8G8B8 with an automatic D24S8 buffer, depth 1.0 and stencil 0.
pub fn fresh_device(driver: DriverType, level: FeatureLevel) -> warp9::Result<Device> {
    device_for(driver, level, &DEFAULT_TARGET)
}

/// A fresh device with the back buffer and automatic depth buffer `rt` names.
pub fn device_for(
    driver: DriverType,
    level: FeatureLevel,
    rt: &RenderTarget,
) -> warp9::Result<Device> {
    let unknown = |what: &str, f: u32| {
        warp9::Error::invalid_call(format!("{what} format {f} unknown to warp9"))
    };
    let format = Format::from_raw(rt.format).ok_or_else(|| unknown("back buffer", rt.format))?;
    let depth_stencil = match rt.depth_stencil {
        Some(f) => Some(Format::from_raw(f).ok_or_else(|| unknown("depth", f))?),
        None => None,
    };
    let mut device = Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[level],
        back_buffer: (rt.width, rt.height, format),
        depth_stencil,
        ..DeviceDesc::default()
    })?;
    let mut flags = ClearFlags::TARGET;
    if depth_stencil.is_some() {
        flags |= ClearFlags::ZBUFFER | ClearFlags::STENCIL;
    }
    device.clear(&[], flags, 0, 1.0, 0)?;
    Ok(device)
}

impl Replay {
    /// Runs every call of `case` on a fresh device of `driver` at `level`.
    pub fn run(case: &Case, driver: DriverType, level: FeatureLevel) -> R<Replay> {
        let device = api(
            || {
                format!(
                    "Device::create({driver:?}, {level:?}, {:?})",
                    case.render_target
                )
            },
            device_for(driver, level, &case.render_target),
        )?;
        let mut r = Replay {
            device,
            named: HashMap::new(),
            bound: HashMap::new(),
        };
        r.apply_setup(&case.setup)?;
        let d = &mut r.device;
        for l in &case.lights {
            if let Some(light) = &l.light {
                api(
                    || format!("SetLight({})", l.index),
                    d.set_light(l.index, light),
                )?;
            }
            if let Some(enabled) = l.enabled {
                d.light_enable(l.index, enabled);
            }
        }
        if let Some(m) = &case.material {
            d.set_material(m);
        }
        for &(i, plane) in &case.clip_planes {
            api(|| format!("SetClipPlane({i})"), d.set_clip_plane(i, plane))?;
        }
        for (sampler, spec) in &case.textures {
            let t = r.create_texture(spec)?;
            api(
                || format!("SetTexture({sampler})"),
                r.device.set_texture(*sampler, Some(t.clone())),
            )?;
            r.bound.insert(*sampler, t);
        }
        r.set_viewport(&case.viewport)?;
        if let Some(c) = &case.clear {
            r.clear(c)?;
        }
        api(|| "BeginScene".into(), r.device.begin_scene())?;
        for (i, draw) in case.draws.iter().enumerate() {
            r.draw(draw).map_err(|s| prefix(s, &format!("draw {i}")))?;
        }
        for (i, step) in case.steps.iter().enumerate() {
            r.step(step).map_err(|s| prefix(s, &format!("step {i}")))?;
        }
        api(|| "EndScene".into(), r.device.end_scene())?;
        Ok(r)
    }

    /// The surface a probe reads: the back buffer, or a created target.
    pub fn surface(&self, name: Option<&str>) -> Result<Surface, String> {
        match name {
            None | Some("backbuffer") => Ok(self.device.back_buffer()),
            Some(n) => match self.named.get(n) {
                Some(Named::Surface(s)) => Ok(s.clone()),
                Some(Named::Texture(t)) => t.surface_level(0).map_err(|e| e.to_string()),
                None => Err(format!("no resource named {n:?}")),
            },
        }
    }

    fn set_viewport(&mut self, v: &Viewport) -> R<()> {
        let vp = warp9::state::Viewport {
            x: v.x,
            y: v.y,
            width: v.width,
            height: v.height,
            min_z: v.min_z,
            max_z: v.max_z,
        };
        api(
            || format!("SetViewport({vp:?})"),
            self.device.set_viewport(&vp),
        )
    }

    fn clear(&mut self, c: &ClearOp) -> R<()> {
        api(
            || {
                format!(
                    "Clear(0x{:x}, 0x{:08x}, {}, {})",
                    c.flags, c.color, c.z, c.stencil
                )
            },
            self.device.clear(
                &[],
                ClearFlags::from_bits_retain(c.flags),
                c.color,
                c.z,
                c.stencil,
            ),
        )
    }

    fn shader(
        &mut self,
        spec: &ShaderSpec,
        pixel: bool,
    ) -> R<(Option<VertexShader>, Option<PixelShader>)> {
        let what = || {
            let call = if pixel {
                "CreatePixelShader"
            } else {
                "CreateVertexShader"
            };
            format!("{call}({} {})", spec.version, spec.name)
        };
        let result = if pixel {
            self.device
                .create_pixel_shader(&spec.tokens)
                .map(|s| (None, Some(s)))
        } else {
            self.device
                .create_vertex_shader(&spec.tokens)
                .map(|s| (Some(s), None))
        };
        api(what, result)
    }

    fn apply_setup(&mut self, s: &Setup) -> R<()> {
        let d = &mut self.device;
        for &(state, value) in &s.render {
            api(
                || format!("SetRenderState({state}, 0x{value:x})"),
                d.set_render_state_raw(state, value),
            )?;
        }
        for &(stage, state, value) in &s.stage {
            api(
                || format!("SetTextureStageState({stage}, {state}, 0x{value:x})"),
                d.set_texture_stage_state_raw(stage, state, value),
            )?;
        }
        for &(sampler, state, value) in &s.sampler {
            api(
                || format!("SetSamplerState({sampler}, {state}, 0x{value:x})"),
                d.set_sampler_state_raw(sampler, state, value),
            )?;
        }
        if let Some(sh) = &s.shaders {
            let vs = match &sh.vertex {
                Some(spec) => self.shader(spec, false)?.0,
                None => None,
            };
            let ps = match &sh.pixel {
                Some(spec) => self.shader(spec, true)?.1,
                None => None,
            };
            self.device.set_vertex_shader(vs.as_ref());
            self.device.set_pixel_shader(ps.as_ref());
        }
        let d = &mut self.device;
        for &(reg, v) in &s.vs_f {
            api(
                || format!("SetVertexShaderConstantF({reg})"),
                d.set_vertex_shader_constant_f(reg, &[v]),
            )?;
        }
        for &(reg, v) in &s.ps_f {
            api(
                || format!("SetPixelShaderConstantF({reg})"),
                d.set_pixel_shader_constant_f(reg, &[v]),
            )?;
        }
        for &(reg, v) in &s.vs_i {
            api(
                || format!("SetVertexShaderConstantI({reg})"),
                d.set_vertex_shader_constant_i(reg, &[v]),
            )?;
        }
        for &(reg, v) in &s.ps_i {
            api(
                || format!("SetPixelShaderConstantI({reg})"),
                d.set_pixel_shader_constant_i(reg, &[v]),
            )?;
        }
        for &(reg, v) in &s.vs_b {
            api(
                || format!("SetVertexShaderConstantB({reg})"),
                d.set_vertex_shader_constant_b(reg, &[v]),
            )?;
        }
        for &(reg, v) in &s.ps_b {
            api(
                || format!("SetPixelShaderConstantB({reg})"),
                d.set_pixel_shader_constant_b(reg, &[v]),
            )?;
        }
        for &(which, m) in &s.transforms {
            // D3D's m[row][col] in memory order are glam's columns (see Device::multiply_transform).
            api(
                || format!("SetTransform({which})"),
                d.set_transform_raw(which, &Mat4::from_cols_array_2d(&m)),
            )?;
        }
        Ok(())
    }

    fn create_texture(&mut self, spec: &TextureSpec) -> R<BaseTexture> {
        let format = Format::from_raw(spec.format)
            .ok_or_else(|| Stop::Fail(format!("format {} unknown to warp9", spec.format)))?;
        let pool = Pool::from_raw(spec.pool)
            .ok_or_else(|| Stop::Fail(format!("pool {} unknown", spec.pool)))?;
        // D3DPOOL_DEFAULT textures are not lockable: fill a SYSTEMMEM twin and UpdateTexture it.
        let fill_pool = if pool == Pool::Default {
            Pool::SystemMem
        } else {
            pool
        };
        let (spec_pool, usage) = (pool, Usage::from_bits_retain(spec.usage));
        let d = &mut self.device;
        let make = |d: &mut Device, pool: Pool| -> R<BaseTexture> {
            // The SYSTEMMEM twin only carries texels: render-target or dynamic usage is the destination's.
            let u = if pool == spec_pool {
                usage
            } else {
                Usage::empty()
            };
            Ok(match spec.kind {
                TextureKind::Flat { width, height } => BaseTexture::from(api(
                    || format!("CreateTexture({width}x{height}, {format:?}, {pool:?})"),
                    d.create_texture(width, height, spec.levels, u, format, pool),
                )?),
                TextureKind::Cube { edge } => BaseTexture::from(api(
                    || format!("CreateCubeTexture({edge}, {format:?}, {pool:?})"),
                    d.create_cube_texture(edge, spec.levels, u, format, pool),
                )?),
                TextureKind::Volume {
                    width,
                    height,
                    depth,
                } => BaseTexture::from(api(
                    || format!("CreateVolumeTexture({width}x{height}x{depth}, {format:?})"),
                    d.create_volume_texture(width, height, depth, spec.levels, u, format, pool),
                )?),
            })
        };
        let staging = make(d, fill_pool)?;
        fill_texture(&staging, format, &spec.content)
            .map_err(|e| Stop::Fail(format!("filling the texture: {e}")))?;
        if fill_pool == pool {
            return Ok(staging);
        }
        let dest = make(d, pool)?;
        api(|| "UpdateTexture".into(), d.update_texture(&staging, &dest))?;
        Ok(dest)
    }

    fn draw(&mut self, draw: &Draw) -> R<()> {
        self.apply_setup(&draw.setup)?;
        for &(sampler, lod) in &draw.texture_lod {
            match self.bound.get(&sampler) {
                Some(BaseTexture::Texture(t)) => {
                    t.set_lod(lod);
                }
                _ => return Err(Stop::Fail(format!("SetLOD: no 2D texture at {sampler}"))),
            }
        }
        let d = &mut self.device;
        if draw.fvf != 0 {
            api(
                || format!("SetFVF(0x{:x})", draw.fvf),
                d.set_fvf(Fvf::from_bits_retain(draw.fvf)),
            )?;
        } else {
            let mut elements: Vec<RawVertexElement> = draw
                .decl
                .iter()
                .map(
                    |&(stream, offset, decl_type, method, usage, usage_index)| RawVertexElement {
                        stream,
                        offset,
                        decl_type,
                        method,
                        usage,
                        usage_index,
                    },
                )
                .collect();
            elements.push(RawVertexElement::END);
            let decl = api(
                || "CreateVertexDeclaration".into(),
                d.create_vertex_declaration_raw(&elements),
            )?;
            d.set_vertex_declaration(Some(&decl));
        }
        let kind = PrimitiveType::from_raw(draw.primitive)
            .ok_or_else(|| Stop::Fail(format!("primitive type {}", draw.primitive)))?;
        match draw.method {
            Method::Up => api(
                || {
                    format!(
                        "DrawPrimitiveUP({kind:?}, {}, stride {})",
                        draw.count, draw.stride
                    )
                },
                d.draw_primitive_up(kind, draw.count, &draw.vertices, draw.stride),
            ),
            Method::IndexedUp => {
                let format = Format::from_raw(draw.index_format).unwrap_or(Format::Unknown);
                let bytes: Vec<u8> = if format == Format::Index32 {
                    draw.indices.iter().flat_map(|i| i.to_le_bytes()).collect()
                } else {
                    draw.indices
                        .iter()
                        .flat_map(|&i| (i as u16).to_le_bytes())
                        .collect()
                };
                api(
                    || format!("DrawIndexedPrimitiveUP({kind:?}, {})", draw.count),
                    d.draw_indexed_primitive_up(
                        kind,
                        draw.min_index,
                        draw.num_vertices,
                        draw.count,
                        &bytes,
                        format,
                        &draw.vertices,
                        draw.stride,
                    ),
                )
            }
            Method::Buffer => {
                let len = draw.vertices.len() as u32;
                let vb = api(
                    || format!("CreateVertexBuffer({len})"),
                    d.create_vertex_buffer(len, Usage::WRITE_ONLY, Fvf::empty(), Pool::Managed),
                )?;
                api(|| "VertexBuffer::write".into(), vb.write(0, &draw.vertices))?;
                api(
                    || format!("SetStreamSource(0, stride {})", draw.stride),
                    d.set_stream_source(0, Some(&vb), 0, draw.stride),
                )?;
                api(
                    || {
                        format!(
                            "DrawPrimitive({kind:?}, {}, {})",
                            draw.start_vertex, draw.count
                        )
                    },
                    d.draw_primitive(kind, draw.start_vertex, draw.count),
                )
            }
        }
    }

    fn named_surface(&self, name: &str) -> R<Surface> {
        self.surface(Some(name)).map_err(Stop::Fail)
    }

    fn step(&mut self, step: &Step) -> R<()> {
        let d = &mut self.device;
        match step {
            Step::CreateTexture {
                name,
                width,
                height,
                levels,
                usage,
                format,
                pool,
            } => {
                let t = api(
                    || format!("CreateTexture({name})"),
                    d.create_texture(
                        *width,
                        *height,
                        *levels,
                        Usage::from_bits_retain(*usage),
                        Format::from_raw(*format).unwrap_or(Format::Unknown),
                        Pool::from_raw(*pool).unwrap_or(Pool::Default),
                    ),
                )?;
                self.named.insert(name.clone(), Named::Texture(t));
            }
            Step::CreateRenderTarget {
                name,
                width,
                height,
                format,
                lockable,
                ..
            } => {
                let s = api(
                    || format!("CreateRenderTarget({name})"),
                    d.create_render_target(
                        *width,
                        *height,
                        Format::from_raw(*format).unwrap_or(Format::Unknown),
                        *lockable,
                    ),
                )?;
                self.named.insert(name.clone(), Named::Surface(s));
            }
            Step::CreateDepthStencil {
                name,
                width,
                height,
                format,
                ..
            } => {
                let s = api(
                    || format!("CreateDepthStencilSurface({name})"),
                    d.create_depth_stencil_surface(
                        *width,
                        *height,
                        Format::from_raw(*format).unwrap_or(Format::Unknown),
                    ),
                )?;
                self.named.insert(name.clone(), Named::Surface(s));
            }
            Step::SetRenderTarget { index, target } => {
                let s = self.named_surface(target)?;
                api(
                    || format!("SetRenderTarget({index}, {target})"),
                    self.device.set_render_target(*index, Some(&s)),
                )?;
            }
            Step::SetDepthStencil { target } => {
                let s = self.named_surface(target)?;
                api(
                    || format!("SetDepthStencilSurface({target})"),
                    self.device.set_depth_stencil_surface(Some(&s)),
                )?;
            }
            Step::SetViewport(v) => self.set_viewport(v)?,
            Step::Clear(c) => self.clear(c)?,
            Step::Draw {
                setup,
                textures,
                draw,
            } => {
                self.apply_setup(setup)?;
                for (sampler, name) in textures {
                    let t = match self.named.get(name) {
                        Some(Named::Texture(t)) => BaseTexture::from(t),
                        _ => return Err(Stop::Fail(format!("no texture named {name:?}"))),
                    };
                    api(
                        || format!("SetTexture({sampler}, {name})"),
                        self.device.set_texture(*sampler, Some(t)),
                    )?;
                }
                self.draw(draw)?;
            }
        }
        Ok(())
    }
}

fn prefix(s: Stop, p: &str) -> Stop {
    match s {
        Stop::Fail(m) => Stop::Fail(format!("{p}: {m}")),
    }
}

/// Bytes of a `w` x `h` level where every texel is `texel(x, y)` in native packing.
fn level_bytes(w: u32, h: u32, size: usize, texel: impl Fn(u32, u32) -> u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(w as usize * h as usize * size);
    for y in 0..h {
        for x in 0..w {
            out.extend_from_slice(&texel(x, y).to_le_bytes()[..size]);
        }
    }
    out
}

fn texel_size(format: Format) -> Result<usize, String> {
    match format.layout() {
        warp9::format::Layout::Texel { bytes } => Ok(bytes as usize),
        l => Err(format!("{format:?} has layout {l:?}")),
    }
}

fn rows_texel(rows: &[Vec<u32>]) -> impl Fn(u32, u32) -> u32 + '_ {
    |x, y| rows[y as usize][x as usize]
}

fn fill_texel(rects: &[([u32; 4], u32)]) -> impl Fn(u32, u32) -> u32 + '_ {
    |x, y| {
        rects
            .iter()
            .rev()
            .find(|([l, t, r, b], _)| (*l..*r).contains(&x) && (*t..*b).contains(&y))
            .map_or(0, |&(_, c)| c)
    }
}

/// Fills a lockable texture with `content` (level 0 unless the content is per level).
fn fill_texture(t: &BaseTexture, format: Format, content: &Content) -> Result<(), String> {
    let size = texel_size(format)?;
    let argb = matches!(format, Format::A8R8G8B8 | Format::X8R8G8B8);
    let need_argb = |what: &str| {
        if argb {
            Ok(())
        } else {
            Err(format!(
                "{what} of {format:?} is not supported by the harness"
            ))
        }
    };
    match (t, content) {
        (_, Content::None) => Ok(()),
        (BaseTexture::Texture(tex), c) => {
            let d = tex.desc();
            let write = |level: u32, texel: &dyn Fn(u32, u32) -> u32| {
                let s = tex.surface_level(level).map_err(|e| e.to_string())?;
                let sd = s.desc();
                let bytes = level_bytes(sd.width, sd.height, size, texel);
                tex.write_level(level, None, &bytes, sd.width as usize * size)
                    .map_err(|e| e.to_string())
            };
            match c {
                Content::Rows(rows) => write(0, &rows_texel(rows)),
                Content::Fill(rects) => {
                    need_argb("fill")?;
                    write(0, &fill_texel(rects))
                }
                Content::LevelsFill(colors) => {
                    need_argb("levels_fill")?;
                    for (level, &c) in colors.iter().enumerate() {
                        write(level as u32, &|_, _| c)?;
                    }
                    Ok(())
                }
                Content::UvGradient => {
                    need_argb("the gradient")?;
                    let (w, h) = (d.width as f32, d.height as f32);
                    write(0, &|x, y| {
                        let r = (y as f32 / h * 255.0) as u32;
                        let g = (x as f32 / w * 255.0) as u32;
                        0xFF00_0000 | (r << 16) | (g << 8)
                    })
                }
                _ => Err("this content does not fit a 2D texture".into()),
            }
        }
        (BaseTexture::Cube(cube), Content::Faces(faces)) => fill_cube(cube, faces, size),
        (BaseTexture::Volume(vol), Content::Slices(slices)) => fill_volume(vol, slices, size),
        _ => Err("content does not match the texture type".into()),
    }
}

fn fill_cube(cube: &CubeTexture, faces: &[(u32, Content)], size: usize) -> Result<(), String> {
    for (face, c) in faces {
        let face = *CubeFace::ALL
            .get(*face as usize)
            .ok_or_else(|| format!("face {face}"))?;
        let s = cube.cube_map_surface(face, 0).map_err(|e| e.to_string())?;
        let sd = s.desc();
        let bytes = match c {
            Content::Fill(rects) => level_bytes(sd.width, sd.height, size, fill_texel(rects)),
            Content::Rows(rows) => level_bytes(sd.width, sd.height, size, rows_texel(rows)),
            _ => return Err("unsupported cube face content".into()),
        };
        s.write_rect(None, &bytes, sd.width as usize * size)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn fill_volume(vol: &VolumeTexture, slices: &[Vec<Vec<u32>>], size: usize) -> Result<(), String> {
    let v = vol.volume_level(0).map_err(|e| e.to_string())?;
    let mut locked = v
        .lock_box(None, LockFlags::empty())
        .map_err(|e| e.to_string())?;
    let (rp, sp) = (locked.row_pitch, locked.slice_pitch);
    for (z, rows) in slices.iter().enumerate() {
        for (y, row) in rows.iter().enumerate() {
            for (x, &texel) in row.iter().enumerate() {
                let at = z * sp + y * rp + x * size;
                let dst = locked
                    .bytes
                    .get_mut(at..at + size)
                    .ok_or("slice data beyond the volume")?;
                dst.copy_from_slice(&texel.to_le_bytes()[..size]);
            }
        }
    }
    Ok(())
}
