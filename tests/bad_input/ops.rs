//! The random calls of `bad_input.rs`: a deterministic generator of
//! interesting numbers and one arm per public call family.

use super::rng::Rng;
use glam::{Mat4, Vec3};
use warp9::api::{IssueFlags, PixelShader, Query, QueryType, StateBlock, VertexShader};
use warp9::resource::{
    BaseTexture, Box3, CubeFace, CubeTexture, IndexBuffer, LockFlags, VertexBuffer, VolumeTexture,
};
use warp9::state::{
    Light, LightType, Material, Rect, RenderStateType, TextureAddress, TextureArg, TextureFilter,
    TextureOp, TransformType, Viewport,
};
use warp9::vertex::{RawVertexElement, VertexDeclaration};
use warp9::{
    ClearFlags, Device, Error, ErrorKind, Format, Fvf, Pool, PrimitiveType, RenderState,
    SamplerState, StateBlockType, Surface, Texture, TextureStageState, Usage,
};

/// The device under test and the objects created so far.
pub struct Ctx {
    pub device: Device,
    pub back_buffer: Surface,
    pub depth: Surface,
    pub defaults: StateBlock,
    pub lights: Vec<u32>,
    vbs: Vec<VertexBuffer>,
    ibs: Vec<IndexBuffer>,
    textures: Vec<Texture>,
    cubes: Vec<CubeTexture>,
    volumes: Vec<VolumeTexture>,
    surfaces: Vec<Surface>,
    vshaders: Vec<VertexShader>,
    pshaders: Vec<PixelShader>,
    decls: Vec<VertexDeclaration>,
    blocks: Vec<StateBlock>,
    queries: Vec<Query>,
}

fn keep<T>(pool: &mut Vec<T>, item: T, rng: &mut Rng) {
    if pool.len() < 6 {
        pool.push(item);
    } else {
        let i = rng.below(pool.len() as u64) as usize;
        pool[i] = item;
    }
}

fn any<T: Clone>(pool: &[T], rng: &mut Rng) -> Option<T> {
    if pool.is_empty() || rng.chance(8) {
        None
    } else {
        Some(pool[rng.below(pool.len() as u64) as usize].clone())
    }
}

impl Ctx {
    pub fn new(device: Device) -> Ctx {
        let back_buffer = device.back_buffer();
        let depth = device.get_depth_stencil_surface().expect("auto depth");
        let defaults = device
            .create_state_block(StateBlockType::All)
            .expect("default state block");
        Ctx {
            device,
            back_buffer,
            depth,
            defaults,
            lights: Vec::new(),
            vbs: Vec::new(),
            ibs: Vec::new(),
            textures: Vec::new(),
            cubes: Vec::new(),
            volumes: Vec::new(),
            surfaces: Vec::new(),
            vshaders: Vec::new(),
            pshaders: Vec::new(),
            decls: Vec::new(),
            blocks: Vec::new(),
            queries: Vec::new(),
        }
    }

    /// Drops every object the sequence created, keeping only the device.
    pub fn into_device(self) -> Device {
        self.device
    }

    fn any_texture(&self, rng: &mut Rng) -> Option<BaseTexture> {
        match rng.below(3) {
            0 => any(&self.textures, rng).map(BaseTexture::from),
            1 => any(&self.cubes, rng).map(BaseTexture::from),
            _ => any(&self.volumes, rng).map(BaseTexture::from),
        }
    }

    /// Every surface the sequence can reach (swap chain, created, texture levels).
    fn all_surfaces(&self) -> Vec<Surface> {
        let mut all = vec![self.back_buffer.clone(), self.depth.clone()];
        all.extend(self.surfaces.iter().cloned());
        for t in &self.textures {
            all.extend((0..t.level_count()).filter_map(|l| t.surface_level(l).ok()));
        }
        for c in &self.cubes {
            all.extend(c.cube_map_surface(CubeFace::PositiveX, 0).ok());
        }
        all
    }

    fn partner_surface(&self, a: &Surface, rng: &mut Rng) -> Option<Surface> {
        let same: Vec<Surface> = self
            .all_surfaces()
            .into_iter()
            .filter(|s| {
                let copyable = [Pool::Default, Pool::SystemMem];
                s.desc().format == a.desc().format
                    && !s.same(a)
                    && copyable.contains(&s.desc().pool)
            })
            .collect();
        any(&same, rng)
    }

    fn partner_texture(&self, a: &BaseTexture, rng: &mut Rng) -> Option<BaseTexture> {
        let all: Vec<BaseTexture> = (self.textures.iter().map(BaseTexture::from))
            .chain(self.cubes.iter().map(BaseTexture::from))
            .chain(self.volumes.iter().map(BaseTexture::from))
            .filter(|t| {
                let (x, y) = (t.desc(), a.desc());
                (x.format, x.width, x.height, x.depth) == (y.format, y.width, y.height, y.depth)
                    && x.pool != y.pool
                    && [x.pool, y.pool]
                        .iter()
                        .all(|p| [Pool::Default, Pool::SystemMem].contains(p))
                    && std::mem::discriminant(t) == std::mem::discriminant(a)
            })
            .collect();
        any(&all, rng)
    }

    fn any_surface(&self, rng: &mut Rng) -> Option<Surface> {
        match rng.below(5) {
            0 => Some(self.back_buffer.clone()),
            1 => Some(self.depth.clone()),
            2 => any(&self.textures, rng).and_then(|t| t.surface_level(rng.below(3) as u32).ok()),
            3 => any(&self.cubes, rng)
                .and_then(|c| c.cube_map_surface(rng.pick(&CubeFace::ALL), 0).ok()),
            _ => any(&self.surfaces, rng),
        }
    }
}

/// Panics unless `e` is a documented error of a public call.
pub fn check_error(call: &str, e: &Error) {
    let allowed = [
        ErrorKind::InvalidCall,
        ErrorKind::NotAvailable,
        ErrorKind::OutOfMemory,
    ];
    let validation = [
        ErrorKind::UnsupportedTextureFilter,
        ErrorKind::ConflictingTextureFilter,
        ErrorKind::UnsupportedColorOperation,
        ErrorKind::UnsupportedColorArg,
        ErrorKind::UnsupportedAlphaOperation,
        ErrorKind::UnsupportedAlphaArg,
        ErrorKind::TooManyOperations,
        ErrorKind::UnsupportedFactorValue,
        ErrorKind::ConflictingRenderState,
        ErrorKind::WrongTextureFormat,
    ];
    let ok = allowed.contains(&e.kind())
        || (call == "validate_device" && validation.contains(&e.kind()));
    assert!(ok, "{call}: undocumented error kind {:?}: {e}", e.kind());
    assert!(
        !e.message().is_empty(),
        "{call}: an error without a message"
    );
    assert_eq!(e.hresult(), e.kind().hresult());
}

fn shader_tokens(rng: &mut Rng, pixel: bool) -> Vec<u32> {
    let version = if pixel { 0xFFFF_0000 } else { 0xFFFE_0000 };
    let mut t: Vec<u32> = (0..rng.below(40)).map(|_| rng.u32()).collect();
    match rng.below(3) {
        0 => {}
        1 => t.insert(
            0,
            version | (rng.below(4) as u32) << 8 | rng.below(5) as u32,
        ),
        _ => {
            // A valid program, then mutated.
            let text = if pixel {
                "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n"
            } else {
                "vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n"
            };
            t = warp9::shader::assemble(text).expect("assemble a known program");
            for _ in 0..rng.below(4) {
                let i = rng.below(t.len() as u64) as usize;
                t[i] = if rng.chance(2) {
                    rng.u32()
                } else {
                    t[i] ^ (1 << rng.below(32))
                };
            }
            if rng.chance(4) {
                t.truncate(rng.below(t.len() as u64) as usize);
            }
        }
    }
    t
}

fn raw_decl(rng: &mut Rng) -> Vec<RawVertexElement> {
    let mut v: Vec<RawVertexElement> = (0..rng.below(6))
        .map(|_| RawVertexElement {
            stream: if rng.chance(6) {
                rng.u32() as u16
            } else {
                rng.below(3) as u16
            },
            offset: if rng.chance(6) {
                rng.u32() as u16
            } else {
                4 * rng.below(10) as u16
            },
            decl_type: rng.below(19) as u8,
            method: if rng.chance(8) { rng.below(8) as u8 } else { 0 },
            usage: rng.below(15) as u8,
            usage_index: rng.below(3) as u8,
        })
        .collect();
    if !rng.chance(8) {
        v.push(RawVertexElement::END);
    }
    v
}

type Call = (String, warp9::Result<()>);

fn named(name: &str, r: warp9::Result<()>) -> Call {
    (name.to_string(), r)
}

/// One random public call; returns its name and result.
pub fn random_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    match rng.below(46) {
        0..=9 => state_call(ctx, rng),
        10..=19 => resource_call(ctx, rng),
        20..=27 => draw_call(ctx, rng),
        28..=33 => lock_call(ctx, rng),
        _ => misc_call(ctx, rng),
    }
}

fn state_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    let d = &mut ctx.device;
    match rng.below(16) {
        0 => named(
            "set_render_state_raw",
            d.set_render_state_raw(rng.small_or_wild(), rng.u32()),
        ),
        1 => {
            let key = rng.pick(RenderStateType::ALL);
            if let Some(s) = RenderState::from_raw(key, rng.u32()) {
                d.set_render_state(s);
            }
            named("set_render_state", Ok(()))
        }
        2 => named(
            "set_sampler_state_raw",
            d.set_sampler_state_raw(rng.small_or_wild(), rng.below(16) as u32, rng.u32()),
        ),
        3 => {
            let s = match rng.below(5) {
                0 => SamplerState::AddressU(rng.pick(TextureAddress::ALL)),
                1 => SamplerState::MagFilter(rng.pick(TextureFilter::ALL)),
                2 => SamplerState::MipMapLodBias(rng.f32()),
                3 => SamplerState::MaxAnisotropy(rng.u32()),
                _ => SamplerState::MaxMipLevel(rng.u32()),
            };
            named(
                "set_sampler_state",
                d.set_sampler_state(rng.small_or_wild(), s),
            )
        }
        4 => named(
            "set_texture_stage_state_raw",
            d.set_texture_stage_state_raw(rng.below(10) as u32, rng.below(40) as u32, rng.u32()),
        ),
        5 => {
            let s = match rng.below(4) {
                0 => TextureStageState::ColorOp(rng.pick(TextureOp::ALL)),
                1 => TextureStageState::ColorArg1(TextureArg(rng.u32())),
                2 => TextureStageState::BumpEnvMat00(rng.f32()),
                _ => TextureStageState::AlphaOp(rng.pick(TextureOp::ALL)),
            };
            named(
                "set_texture_stage_state",
                d.set_texture_stage_state(rng.below(10) as u32, s),
            )
        }
        6 => {
            let m = Mat4::from_cols_array(&std::array::from_fn(|_| rng.f32()));
            named(
                "set_transform_raw",
                d.set_transform_raw(rng.small_or_wild(), &m),
            )
        }
        7 => {
            let m = Mat4::from_cols_array(&std::array::from_fn(|_| rng.f32()));
            named(
                "multiply_transform",
                d.multiply_transform(TransformType::Texture(rng.below(12) as u8), &m),
            )
        }
        8 => {
            let before = d.get_viewport().ok();
            let sane = rng.chance(2);
            let mut n = || {
                if sane {
                    rng.below(40) as u32
                } else {
                    rng.small_or_wild()
                }
            };
            let (x, y, width, height) = (n(), n(), n(), n());
            let mut z = || {
                if sane {
                    rng.pick(&[0.0, 0.5, 1.0])
                } else {
                    rng.f32()
                }
            };
            let (min_z, max_z) = (z(), z());
            let vp = Viewport {
                x,
                y,
                width,
                height,
                min_z,
                max_z,
            };
            let r = d.set_viewport(&vp);
            if r.is_err() {
                assert_eq!(
                    d.get_viewport().ok(),
                    before,
                    "a failed SetViewport changed the viewport"
                );
            }
            named("set_viewport", r)
        }
        9 => named("set_scissor_rect", d.set_scissor_rect(&rng.rect())),
        10 => named(
            "set_clip_plane",
            d.set_clip_plane(
                rng.small_or_wild(),
                [rng.f32(), rng.f32(), rng.f32(), rng.f32()],
            ),
        ),
        11 => {
            let index = rng.small_or_wild();
            ctx.lights.push(index);
            let light = Light {
                light_type: rng.pick(&[LightType::Point, LightType::Spot, LightType::Directional]),
                diffuse: [rng.f32(), 1.0, 1.0, 1.0],
                position: Vec3::new(rng.f32(), rng.f32(), rng.f32()),
                direction: Vec3::new(rng.f32(), rng.f32(), rng.f32()),
                range: rng.f32(),
                attenuation0: rng.f32(),
                theta: rng.f32(),
                phi: rng.f32(),
                ..Light::default()
            };
            let r = d.set_light(index, &light);
            d.light_enable(index, rng.chance(2));
            named("set_light", r)
        }
        12 => {
            d.set_material(&Material {
                diffuse: [rng.f32(); 4],
                power: rng.f32(),
                ..Material::default()
            });
            named("set_material", Ok(()))
        }
        13 => {
            let data: Vec<[f32; 4]> = (0..rng.below(10)).map(|_| [rng.f32(); 4]).collect();
            let start = rng.small_or_wild();
            match rng.below(4) {
                0 => named(
                    "set_vs_const_f",
                    d.set_vertex_shader_constant_f(start, &data),
                ),
                1 => named(
                    "set_ps_const_f",
                    d.set_pixel_shader_constant_f(start, &data),
                ),
                2 => named(
                    "get_vs_const_f",
                    d.get_vertex_shader_constant_f(start, rng.small_or_wild())
                        .map(drop),
                ),
                _ => named(
                    "get_ps_const_f",
                    d.get_pixel_shader_constant_f(start, rng.small_or_wild())
                        .map(drop),
                ),
            }
        }
        14 => {
            let start = rng.small_or_wild();
            let n = rng.below(20) as usize;
            match rng.below(4) {
                0 => named(
                    "set_vs_const_i",
                    d.set_vertex_shader_constant_i(start, &vec![[1; 4]; n]),
                ),
                1 => named(
                    "set_ps_const_i",
                    d.set_pixel_shader_constant_i(start, &vec![[1; 4]; n]),
                ),
                2 => named(
                    "set_vs_const_b",
                    d.set_vertex_shader_constant_b(start, &vec![true; n]),
                ),
                _ => named(
                    "set_ps_const_b",
                    d.set_pixel_shader_constant_b(start, &vec![true; n]),
                ),
            }
        }
        _ => {
            let block = ctx.blocks.last().cloned();
            match rng.below(5) {
                0 => named("begin_state_block", d.begin_state_block()),
                1 => match d.end_state_block() {
                    Ok(b) => {
                        keep(&mut ctx.blocks, b, rng);
                        named("end_state_block", Ok(()))
                    }
                    Err(e) => named("end_state_block", Err(e)),
                },
                2 => {
                    let kind = rng.pick(&[
                        StateBlockType::All,
                        StateBlockType::PixelState,
                        StateBlockType::VertexState,
                    ]);
                    match d.create_state_block(kind) {
                        Ok(b) => {
                            keep(&mut ctx.blocks, b, rng);
                            named("create_state_block", Ok(()))
                        }
                        Err(e) => named("create_state_block", Err(e)),
                    }
                }
                3 => named("apply_state_block", block.map_or(Ok(()), |b| b.apply(d))),
                _ => {
                    let r = match ctx.blocks.last_mut() {
                        Some(b) => b.capture(d),
                        None => Ok(()),
                    };
                    named("capture_state_block", r)
                }
            }
        }
    }
}

fn resource_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    let d = &mut ctx.device;
    // Half the calls are plausible (so later calls have resources to abuse), half absurd.
    let sane = rng.chance(2);
    let format = if sane {
        rng.pick(&[
            Format::A8R8G8B8,
            Format::X8R8G8B8,
            Format::R5G6B5,
            Format::L8,
            Format::DXT1,
            Format::A16B16G16R16F,
            Format::D24S8,
        ])
    } else {
        rng.pick(&Format::ALL)
    };
    let pool = rng.pick(&[Pool::Default, Pool::Managed, Pool::SystemMem, Pool::Scratch]);
    let usage = Usage::from_bits_retain(if !sane && rng.chance(3) {
        rng.u32()
    } else {
        rng.pick(&[0, 0, 0x1, 0x2, 0x8, 0x200, 0x400, 0x10])
    });
    let levels = if sane || rng.chance(2) {
        rng.below(4) as u32
    } else {
        rng.u32()
    };
    let mut dims = [0u32; 3];
    for v in &mut dims {
        *v = if sane { 1 << rng.below(7) } else { rng.dim() };
    }
    let [w, h, z] = dims;
    match rng.below(9) {
        0 | 1 => match d.create_texture(w, h, levels, usage, format, pool) {
            Ok(t) => {
                keep(&mut ctx.textures, t, rng);
                named("create_texture", Ok(()))
            }
            Err(e) => named("create_texture", Err(e)),
        },
        2 => match d.create_cube_texture(w, levels, usage, format, pool) {
            Ok(t) => {
                keep(&mut ctx.cubes, t, rng);
                named("create_cube_texture", Ok(()))
            }
            Err(e) => named("create_cube_texture", Err(e)),
        },
        3 => match d.create_volume_texture(w, h, z, levels, usage, format, pool) {
            Ok(t) => {
                keep(&mut ctx.volumes, t, rng);
                named("create_volume_texture", Ok(()))
            }
            Err(e) => named("create_volume_texture", Err(e)),
        },
        4 => {
            let fvf = Fvf::from_bits_retain(if rng.chance(2) { 0x42 } else { rng.u32() });
            match d.create_vertex_buffer(rng.dim(), usage, fvf, pool) {
                Ok(b) => {
                    keep(&mut ctx.vbs, b, rng);
                    named("create_vertex_buffer", Ok(()))
                }
                Err(e) => named("create_vertex_buffer", Err(e)),
            }
        }
        5 => {
            let f = rng.pick(&[Format::Index16, Format::Index32, format]);
            match d.create_index_buffer(rng.dim(), usage, f, pool) {
                Ok(b) => {
                    keep(&mut ctx.ibs, b, rng);
                    named("create_index_buffer", Ok(()))
                }
                Err(e) => named("create_index_buffer", Err(e)),
            }
        }
        6 => {
            let r = match rng.below(3) {
                0 => d.create_render_target(w, h, format, rng.chance(2)),
                1 => d.create_depth_stencil_surface(w, h, format),
                _ => d.create_offscreen_plain_surface(w, h, format, pool),
            };
            match r {
                Ok(s) => {
                    keep(&mut ctx.surfaces, s, rng);
                    named("create_surface", Ok(()))
                }
                Err(e) => named("create_surface", Err(e)),
            }
        }
        7 => {
            let pixel = rng.chance(2);
            let tokens = shader_tokens(rng, pixel);
            if pixel {
                match d.create_pixel_shader(&tokens) {
                    Ok(s) => {
                        keep(&mut ctx.pshaders, s, rng);
                        named("create_pixel_shader", Ok(()))
                    }
                    Err(e) => named("create_pixel_shader", Err(e)),
                }
            } else {
                match d.create_vertex_shader(&tokens) {
                    Ok(s) => {
                        keep(&mut ctx.vshaders, s, rng);
                        named("create_vertex_shader", Ok(()))
                    }
                    Err(e) => named("create_vertex_shader", Err(e)),
                }
            }
        }
        _ => match d.create_vertex_declaration_raw(&raw_decl(rng)) {
            Ok(decl) => {
                keep(&mut ctx.decls, decl, rng);
                named("create_vertex_declaration", Ok(()))
            }
            Err(e) => named("create_vertex_declaration", Err(e)),
        },
    }
}

fn prim(rng: &mut Rng) -> Option<PrimitiveType> {
    PrimitiveType::from_raw(rng.below(8) as u32)
}

fn draw_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    let vb = any(&ctx.vbs, rng);
    let ib = any(&ctx.ibs, rng);
    let decl = any(&ctx.decls, rng);
    let vs = any(&ctx.vshaders, rng);
    let ps = any(&ctx.pshaders, rng);
    let tex = ctx.any_texture(rng);
    let d = &mut ctx.device;
    let count = if rng.chance(2) {
        rng.below(8) as u32
    } else {
        rng.u32()
    };
    match rng.below(12) {
        0 => named(
            "set_stream_source",
            d.set_stream_source(
                rng.below(20) as u32,
                vb.as_ref(),
                rng.small_or_wild(),
                rng.small_or_wild(),
            ),
        ),
        1 => named(
            "set_stream_source_freq",
            d.set_stream_source_freq(rng.below(20) as u32, rng.u32()),
        ),
        2 => named("set_indices", d.set_indices(ib.as_ref())),
        3 => named(
            "set_fvf",
            d.set_fvf(Fvf::from_bits_retain(if rng.chance(3) {
                rng.u32()
            } else {
                rng.pick(&[0x42, 0x44, 0x102, 0x112])
            })),
        ),
        4 => {
            d.set_vertex_declaration(decl.as_ref());
            d.set_vertex_shader(vs.as_ref());
            d.set_pixel_shader(ps.as_ref());
            named("set_vertex_declaration", Ok(()))
        }
        5 => named("set_texture", d.set_texture(rng.small_or_wild(), tex)),
        6 | 7 => match prim(rng) {
            Some(k) => named(
                "draw_primitive",
                d.draw_primitive(k, rng.small_or_wild(), count),
            ),
            None => named("noop", Ok(())),
        },
        8 => match prim(rng) {
            Some(k) => named(
                "draw_indexed_primitive",
                d.draw_indexed_primitive(
                    k,
                    rng.i32(),
                    rng.u32(),
                    rng.u32(),
                    rng.small_or_wild(),
                    count,
                ),
            ),
            None => named("noop", Ok(())),
        },
        9 | 10 => {
            let data = rng.bytes(200);
            match prim(rng) {
                Some(k) => named(
                    "draw_primitive_up",
                    d.draw_primitive_up(k, count, &data, rng.small_or_wild()),
                ),
                None => named("noop", Ok(())),
            }
        }
        _ => {
            let (idx, data) = (rng.bytes(60), rng.bytes(200));
            let f = rng.pick(&[Format::Index16, Format::Index32, Format::A8R8G8B8]);
            match prim(rng) {
                Some(k) => named(
                    "draw_indexed_primitive_up",
                    d.draw_indexed_primitive_up(
                        k,
                        rng.u32(),
                        rng.u32(),
                        count,
                        &idx,
                        f,
                        &data,
                        rng.small_or_wild(),
                    ),
                ),
                None => named("noop", Ok(())),
            }
        }
    }
}

/// Writes every locked byte (a slice past the resource would panic here).
fn scribble(bytes: &mut [u8]) {
    for b in bytes.iter_mut() {
        *b = b.wrapping_add(1);
    }
}

fn lock_flags(rng: &mut Rng) -> LockFlags {
    let wild = rng.u32();
    LockFlags::from_bits_retain(rng.pick(&[0, 0x10, 0x1000, 0x2000, 0x2010, wild]))
}

fn lock_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    match rng.below(6) {
        0 => match any(&ctx.vbs, rng) {
            Some(b) => {
                let (offset, size) = (rng.small_or_wild(), rng.small_or_wild());
                let r = b.lock(offset, size, lock_flags(rng)).map(|mut l| {
                    let whole = offset == 0 && size == 0;
                    let expect = if whole || size == 0 {
                        b.desc().size - offset
                    } else {
                        size
                    };
                    assert_eq!(l.len() as u32, expect, "lock({offset}, {size}) length");
                    scribble(&mut l);
                });
                named("vertex_buffer.lock", r)
            }
            None => named("noop", Ok(())),
        },
        1 => match any(&ctx.ibs, rng) {
            Some(b) => {
                let data = rng.bytes(80);
                named("index_buffer.write", b.write(rng.small_or_wild(), &data))
            }
            None => named("noop", Ok(())),
        },
        2 => match ctx.any_surface(rng) {
            Some(s) => {
                let rect = if rng.chance(4) {
                    None
                } else {
                    Some(rng.rect())
                };
                named(
                    "surface.lock_rect",
                    s.lock_rect(rect, lock_flags(rng))
                        .map(|mut l| scribble(&mut l.bytes)),
                )
            }
            None => named("noop", Ok(())),
        },
        3 => match any(&ctx.textures, rng) {
            Some(t) => {
                let data = rng.bytes(300);
                let wild = rng.below(100) as usize;
                let pitch = rng.pick(&[0, 4, 16, 64, wild]);
                let rect = if rng.chance(3) {
                    None
                } else {
                    Some(rng.rect())
                };
                named(
                    "texture.write_level",
                    t.write_level(rng.below(4) as u32, rect, &data, pitch),
                )
            }
            None => named("noop", Ok(())),
        },
        4 => match any(&ctx.volumes, rng).map(|v| v.volume_level(rng.below(3) as u32)) {
            Some(Ok(v)) => {
                let bx = Box3 {
                    left: rng.small_or_wild(),
                    top: rng.small_or_wild(),
                    right: rng.small_or_wild(),
                    bottom: rng.small_or_wild(),
                    front: rng.small_or_wild(),
                    back: rng.small_or_wild(),
                };
                let bx = if rng.chance(4) { None } else { Some(bx) };
                named(
                    "volume.lock_box",
                    v.lock_box(bx, lock_flags(rng))
                        .map(|mut l| scribble(&mut l.bytes)),
                )
            }
            Some(Err(e)) => named("volume_level", Err(e)),
            None => named("noop", Ok(())),
        },
        _ => match any(&ctx.textures, rng) {
            Some(t) => {
                let r = t
                    .lock_rect(rng.below(4) as u32, Some(rng.rect()), lock_flags(rng))
                    .map(|mut l| scribble(&mut l.bytes));
                named("texture.lock_rect", r)
            }
            None => named("noop", Ok(())),
        },
    }
}

fn misc_call(ctx: &mut Ctx, rng: &mut Rng) -> Call {
    let s1 = ctx.any_surface(rng);
    // The second object is usually a compatible partner (same format, size and type), so
    // copies get past their preconditions and into the rectangle arithmetic.
    let s2 = match &s1 {
        Some(_) if rng.chance(4) => ctx.any_surface(rng),
        Some(a) => ctx.partner_surface(a, rng),
        None => None,
    };
    let t1 = ctx.any_texture(rng);
    let t2 = match &t1 {
        Some(a) if !rng.chance(4) => ctx.partner_texture(a, rng),
        _ => ctx.any_texture(rng),
    };
    let rect = |rng: &mut Rng| {
        if rng.chance(2) {
            None
        } else {
            Some(rng.rect())
        }
    };
    let query = any(&ctx.queries, rng);
    let d = &mut ctx.device;
    match rng.below(13) {
        0 => named(
            "set_render_target",
            d.set_render_target(rng.below(6) as u32, s1.as_ref()),
        ),
        1 => named(
            "set_depth_stencil_surface",
            d.set_depth_stencil_surface(s1.as_ref()),
        ),
        2 => {
            let rects: Vec<Rect> = (0..rng.below(3)).map(|_| rng.rect()).collect();
            let flags = ClearFlags::from_bits_retain(rng.below(16) as u32);
            named(
                "clear",
                d.clear(&rects, flags, rng.u32(), rng.f32(), rng.u32()),
            )
        }
        3 => match (s1, s2) {
            (Some(a), Some(b)) => named(
                "stretch_rect",
                d.stretch_rect(
                    &a,
                    Some(rng.rect()),
                    &b,
                    Some(rng.rect()),
                    rng.pick(TextureFilter::ALL),
                ),
            ),
            _ => named("noop", Ok(())),
        },
        4 => match (s1, s2) {
            (Some(a), Some(b)) => {
                let (a, b) = if a.desc().pool == Pool::SystemMem || rng.chance(4) {
                    (a, b)
                } else {
                    (b, a)
                };
                let point = if rng.chance(2) {
                    None
                } else {
                    Some((rng.i32(), rng.i32()))
                };
                named("update_surface", d.update_surface(&a, rect(rng), &b, point))
            }
            _ => named("noop", Ok(())),
        },
        5 => match (t1, t2) {
            (Some(a), Some(b)) => {
                // Usually system memory to default, the one order that can succeed.
                let (a, b) = if a.desc().pool == Pool::SystemMem || rng.chance(4) {
                    (a, b)
                } else {
                    (b, a)
                };
                named("update_texture", d.update_texture(&a, &b))
            }
            (Some(a), None) => {
                d.generate_mip_sub_levels(&a);
                named("generate_mip_sub_levels", Ok(()))
            }
            _ => named("noop", Ok(())),
        },
        6 => match (s1, s2) {
            (Some(a), Some(b)) if rng.chance(2) => {
                named("get_render_target_data", d.get_render_target_data(&a, &b))
            }
            (Some(a), _) => named("color_fill", d.color_fill(&a, Some(rng.rect()), rng.u32())),
            _ => named("noop", Ok(())),
        },
        7 => named("validate_device", d.validate_device().map(drop)),
        8 => match d.create_query(QueryType::from_raw(rng.below(14) as u32)) {
            Ok(q) => {
                keep(&mut ctx.queries, q, rng);
                named("create_query", Ok(()))
            }
            Err(e) => named("create_query", Err(e)),
        },
        9 => match query {
            Some(q) => {
                let r = d.issue_query(&q, IssueFlags::from_bits_retain(rng.below(5) as u32));
                let _ = q.get_data();
                named("issue_query", r)
            }
            None => named("noop", Ok(())),
        },
        10 => {
            let r = if rng.chance(2) {
                d.begin_scene()
            } else {
                d.end_scene()
            };
            named("begin_end_scene", r)
        }
        11 => {
            let bb = ctx.back_buffer.desc();
            let len = if rng.chance(2) {
                (bb.width * bb.height) as usize
            } else {
                rng.below(5000) as usize
            };
            let mut out = vec![0u32; len];
            named("present_into", d.present_into(&mut out))
        }
        _ => match s1 {
            Some(s) => named("read_surface_argb", d.read_surface_argb(&s).map(drop)),
            None => named("noop", Ok(())),
        },
    }
}
