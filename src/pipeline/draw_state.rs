//! The wiring of one draw: which vertex stage (pre-transformed, fixed
//! function, vertex shader) and which pixel stage (fixed-function texture
//! stages, pixel shader) run, how the vertex outputs link to the pixel
//! inputs (bytecode.md 8), where the fog factor comes from
//! (fixed-function.md 9.2), and the hand-over to the Warp or Reference
//! rasterizer.
//!
//! Path of a draw: `Device::execute` → `DrawDevice::execute` → [`execute`]:
//! 1. pixel side: the program (ps prepared per bool-constant key, cached
//!    per shader) or the ffp cascade key → its input layout;
//! 2. vertex side: its output layout (`OutputLayout`), [`link`] → the
//!    pixel inputs' sources → the vertex-buffer layout ([`Varyings`]);
//! 3. vertices: pre-transformed (`geom::fetch`, guard-band clip) or
//!    transformed once per distinct vertex and instance
//!    ([`VertexProc::run`]), assembled, clipped in clip space and projected
//!    ([`clip_and_project`]);
//! 4. the pixel stage (built once, with one [`BoundTextures`] snapshot)
//!    goes to `raster::draw` (Warp) or `reference::draw` (Reference).
//!
//! Invariant: every decision is made here, once per draw, identically for
//! both drivers; the drivers differ only in how they run the same stages.

use std::sync::Arc;

use crate::caps::DriverType;
use crate::driver::Inputs;
use crate::error::Result;
use crate::ffp::key::FfpVertexKey;
use crate::ffp::stages::cascade_extent;
use crate::ffp::texgen::{projection_divisor, stage_divisors};
use crate::ffp::{
    DrawOptions, FfpInputLayout, FfpPixelCache, FfpPixelConsts, FfpPixelKey, FfpState,
    FfpVertexCache, FfpVertexConsts, StageTexture,
};
use crate::geom::assemble::{assemble, assemble_on};
use crate::geom::clip::clip_pretransformed;
use crate::geom::fetch::{FetchLayout, StreamView, fetch_all};
use crate::geom::{ATTR_DIFFUSE, ATTR_SPECULAR, ATTR_TEX0, HEADER, Prim, VertexBuf};
use crate::pixel::{ColorStage, PixelStage};
use crate::raster::Primitives;
use crate::resource::BaseTexture;
use crate::sampler::BoundTextures;
use crate::shader::exec::regs::{OUT_D0, OUT_T0};
use crate::shader::exec::{
    InputLayout, Link, LinkSource, OutputLayout, Prepared, ProgramCache, Varying, link, ps1,
};
use crate::shader::object::ShaderInner;
use crate::state::{
    RenderStateType as Rs, StateValue, TexCoordIndex, TextureStageStateType, TextureTransformFlags,
};
use crate::vertex::PrimitiveType;
use crate::vertex::{DeclUsage, FetchStreams, StreamInput, instancing};

use super::clip_space::{ClipPlane, clip_and_project, volume_planes};
use super::deferred::{Stage, with_stage};
use super::pixel_stages::{FfpPixelStage, InputMap, OwnedConstants, ShaderPixelStage};
use super::state::{DrawState, FogSource, clips_depth};
use super::tex_stage::TexStage;
use super::vertex_pass::{POINT_DROPPED, VertexPass};
use super::vertex_stage::{Varyings, VertexInputs, VertexProc, shader_plan, texcoord_slots};
use super::{DrawCall, DrawDevice, VertexSource, dense_indices, vertex_numbers};

/// Compiled code kept across draws: prepared shaders (per shader and
/// bool-constant key) and the fixed-function routines (per state key).
#[derive(Debug, Default)]
pub(crate) struct Caches {
    ffp_vertex: FfpVertexCache,
    ffp_pixel: FfpPixelCache,
    shaders: Vec<(Arc<ShaderInner>, ProgramCache)>,
    /// The fixed-function state a draw with both shaders carries unused,
    /// made once (building it cost a shader draw about 1.5 % of S7).
    unused_ffp: Option<Arc<FfpState>>,
}

/// Shaders whose prepared forms are kept (least recently used dropped).
const SHADER_CACHE: usize = 64;

impl Caches {
    fn prepared(&mut self, shader: &Arc<ShaderInner>, bools: &[bool]) -> Arc<Prepared> {
        self.prepared_projected(shader, bools, 0)
    }

    /// [`Caches::prepared`] for a ps_1_1–1_3 program whose `tex` projects
    /// by `proj` ([`ps1::pack_projection`]).
    fn prepared_projected(
        &mut self,
        shader: &Arc<ShaderInner>,
        bools: &[bool],
        proj: u32,
    ) -> Arc<Prepared> {
        let i = match self
            .shaders
            .iter()
            .position(|(s, _)| Arc::ptr_eq(s, shader))
        {
            Some(i) => i,
            None => {
                if self.shaders.len() >= SHADER_CACHE {
                    self.shaders.remove(0);
                }
                self.shaders.push((
                    Arc::clone(shader),
                    ProgramCache::new(shader.program.clone()),
                ));
                self.shaders.len() - 1
            }
        };
        let entry = self.shaders.remove(i);
        self.shaders.push(entry);
        let last = self.shaders.len() - 1;
        self.shaders[last].1.get_projected(bools, proj)
    }
}

/// The fixed-function state of the device.
fn ffp_state(d: &DrawDevice<'_>) -> FfpState {
    let s = &d.state;
    FfpState {
        render: s.render.to_vec(),
        stage: std::array::from_fn(|i| s.stage[i]),
        transforms: s.transforms.clone(),
        lights: s
            .lights
            .values()
            .filter(|l| l.enabled)
            .map(|l| l.light)
            .collect(),
        material: s.material,
        clip_planes: std::array::from_fn(|i| s.clip_planes[i]),
        viewport: s.viewport,
        max_point_size: d.caps.max_point_size,
    }
}

/// The draw's streams (`up_stream0` replaces stream 0 for the UP draws).
fn stream_inputs(d: &DrawDevice<'_>, call: &DrawCall) -> [Option<StreamInput>; 16] {
    std::array::from_fn(|s| {
        if s == 0
            && let Some((bytes, stride)) = &call.up_stream0
        {
            return Some(StreamInput {
                data: Arc::clone(bytes),
                offset: 0,
                stride: *stride,
                freq: 1,
            });
        }
        let b = d.state.streams.get(s)?;
        b.buffer.as_ref().map(|vb| StreamInput {
            data: vb.0.storage.snapshot(),
            offset: b.offset,
            stride: b.stride,
            freq: b.freq,
        })
    })
}

/// The kind of texture bound to each fixed-function stage.
fn stage_textures(d: &DrawDevice<'_>) -> [StageTexture; 8] {
    std::array::from_fn(|i| match &d.state.textures[i] {
        None => StageTexture::None,
        Some(BaseTexture::Cube(_)) => StageTexture::Cube,
        Some(_) => StageTexture::Flat,
    })
}

/// The fixed-function pixel stage's inputs as a ps_2_x would declare them:
/// v0 = COLOR0, v1 = COLOR1, t(s) = stage s's coordinate (TEXCOORD s, or
/// for pre-transformed vertices the set TEXCOORDINDEX selects).
fn ffp_pixel_inputs(ffp: &FfpState, stages: usize, pretransformed: bool) -> InputLayout {
    let var = |slot: u16, usage, index: u8| Varying {
        slot,
        usage,
        index,
        mask: 0xF,
        centroid: false,
    };
    let mut l = InputLayout::default();
    l.varyings.push(var(0, DeclUsage::Color, 0));
    l.varyings.push(var(1, DeclUsage::Color, 1));
    for s in 0..stages.min(8) {
        let set = if pretransformed {
            let raw = ffp.tss(s, TextureStageStateType::TexCoordIndex);
            TexCoordIndex::from_raw(raw).map_or((raw & 7) as u8, |t| (t.index & 7) as u8)
        } else {
            s as u8
        };
        l.varyings.push(var(2 + s as u16, DeclUsage::TexCoord, set));
    }
    l
}

/// The bump-environment states of the eight stages (ps_1_x `texbem`, `bem`).
fn bump_env(d: &DrawDevice<'_>) -> [ps1::BumpEnv; 8] {
    use TextureStageStateType as T;
    std::array::from_fn(|s| {
        let get = |k: T| f32::from_bits(d.state.stage[s][k.raw() as usize]);
        ps1::BumpEnv {
            mat: [
                get(T::BumpEnvMat00),
                get(T::BumpEnvMat01),
                get(T::BumpEnvMat10),
                get(T::BumpEnvMat11),
            ],
            lscale: get(T::BumpEnvLScale),
            loffset: get(T::BumpEnvLOffset),
        }
    })
}

/// The projection divisors of a ps_1_1–1_3 draw's stages, packed
/// ([`ps1::pack_projection`]): the fixed-function rule (fixed-function.md
/// 7.2) with the vertex key when fixed-function vertex processing made the
/// coordinates, by w after a vertex shader; never for a cube texture.
fn ps1_projection(
    d: &DrawDevice<'_>,
    ffp: &FfpState,
    ffp_key: Option<&FfpVertexKey>,
    vertex_shader: bool,
) -> u32 {
    let mut divisors = if vertex_shader {
        std::array::from_fn(|s| {
            let raw = d.state.stage[s][TextureStageStateType::TextureTransformFlags.raw() as usize];
            let f = TextureTransformFlags::lenient(raw);
            projection_divisor(f.projected, f.count as u8, None)
        })
    } else {
        stage_divisors(ffp, ffp_key)
    };
    for (s, div) in divisors.iter_mut().enumerate() {
        if matches!(d.state.textures.get(s), Some(Some(BaseTexture::Cube(_)))) {
            *div = None;
        }
    }
    ps1::pack_projection(divisors)
}

/// The pixel stage of a draw (one per draw, never moved: size does not matter).
/// Runs a validated draw (see the module docs).
pub(crate) fn execute(d: &mut DrawDevice<'_>, call: DrawCall) -> Result<()> {
    let Some(decl) = d.state.vertex_input.declaration().cloned() else {
        return Ok(());
    };
    let pretransformed = decl.is_pretransformed();
    let mut st = DrawState::from_device(d, pretransformed);
    if st.clip.is_empty() {
        return Ok(());
    }
    let textures = Arc::new(BoundTextures::from_state(
        &d.state.textures,
        &d.state.sampler,
        d.caps.max_anisotropy,
    ));
    let vs = (!pretransformed)
        .then(|| d.state.vertex_shader.clone())
        .flatten();
    let ps = d.state.pixel_shader.clone();
    let points = call.primitive == PrimitiveType::PointList;
    let ffp_needed = vs.is_none() || ps.is_none();
    let ffp = if ffp_needed {
        Arc::new(ffp_state(d))
    } else {
        Arc::clone(
            d.pipeline
                .caches
                .unused_ffp
                .get_or_insert_with(|| Arc::new(FfpState::default())),
        )
    };
    let (ffp_layout, ffp_plan) = FfpInputLayout::new(decl.elements());
    let max_lights = if d.software_vp {
        u32::MAX
    } else {
        d.caps.max_active_lights
    };

    // Pixel side: its inputs.
    let stage_tex = stage_textures(d);
    let vs_prog = vs
        .as_ref()
        .map(|v| d.pipeline.caches.prepared(&v.0, &d.state.vs_b));
    let ps_prog = ps
        .as_ref()
        .map(|p| d.pipeline.caches.prepared(&p.0, &d.state.ps_b));
    let ps3 = ps_prog.as_ref().is_some_and(|p| p.version().major >= 3);
    if ps3 {
        // ps_3_0: the shader does its own fog (fixed-function.md 9.2).
        st.fog = None;
    }
    let ffp_run = cascade_extent(&ffp, &stage_tex).0;
    let ps_inputs = match &ps_prog {
        Some(p) => p.inputs().clone(),
        None => ffp_pixel_inputs(&ffp, ffp_run, pretransformed),
    };
    // Vertex side: its outputs, then the links.
    // Pre-transformed vertices feed a ps_3_0 every declared element its
    // inputs name, by semantic (Wine pretransformed_varying_test); anything
    // else gets the fixed-function colours and texture coordinates.
    let fetch_layout = pretransformed.then(|| {
        if ps3 {
            FetchLayout::by_semantic(&decl, ps_inputs.varyings.iter().map(|v| (v.usage, v.index)))
        } else {
            FetchLayout::legacy(&decl)
        }
    });
    let vs_out = match (&vs_prog, &fetch_layout) {
        (_, Some(layout)) if ps3 => {
            let mut out = OutputLayout::default();
            for (k, &(usage, index, _)) in layout.attrs.iter().enumerate() {
                out.varyings.push(Varying {
                    slot: k as u16,
                    usage,
                    index,
                    mask: 0xF,
                    centroid: false,
                });
            }
            out
        }
        (_, Some(layout)) => {
            let sets = layout.tex_sets();
            OutputLayout::legacy(
                (1 << OUT_D0) | (1 << (OUT_D0 + 1)) | (((1 << sets) - 1) << OUT_T0),
            )
        }
        (Some(p), None) => p.outputs().clone(),
        (None, None) => OutputLayout::fixed_function(),
    };
    let legacy_ps = ps_prog.as_ref().is_none_or(|p| p.version().major < 3);
    let links: Vec<Link> = link(&vs_out, &ps_inputs, legacy_ps);
    let mut needed = 0u16;
    for l in &links {
        if let LinkSource::Output { slot, .. } = l.source
            && slot < 16
        {
            needed |= 1 << slot;
        }
    }
    let tex_stages = ((needed >> OUT_T0) & 0xFF) as u8;
    let fog_interp = matches!(st.fog.map(|f| f.source), Some(FogSource::SpecularAlpha));

    // Vertices.
    let streams = FetchStreams::new(
        stream_inputs(d, &call),
        matches!(call.source, VertexSource::Indexed(_)),
    );
    let backend = d.backend;
    let reference = d.driver == DriverType::Reference;
    let pool = d.split_pool();
    let mut ffp_key: Option<FfpVertexKey> = None;
    // A Warp point list drawn from its point words (`raster::point_word`).
    let mut deferred: Option<DeferredPoints> = None;
    let (buf, prims, var) = if let Some(layout) = &fetch_layout {
        let views: Vec<Option<StreamView>> = (0..d.state.streams.len())
            .map(|s| {
                streams
                    .streams
                    .get(s)
                    .cloned()
                    .flatten()
                    .map(|si| StreamView {
                        bytes: si.data,
                        offset: si.offset as usize,
                        stride: si.stride as usize,
                    })
            })
            .collect();
        // Dense vertex numbers fetch their whole range (a few unused
        // vertices at most), each once, with the offsets as the map.
        let slack = |n: usize| 2 * n + 64;
        let mut numbers = Vec::new();
        let reuse = std::mem::take(&mut d.pipeline.index_map);
        let dense = dense_indices(&call, slack, reuse).or_else(|| {
            numbers = vertex_numbers(&call);
            let (lo, hi) = numbers
                .iter()
                .fold((u32::MAX, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
            (!numbers.is_empty() && (hi - lo) as usize <= slack(numbers.len()))
                .then(|| (lo, hi, numbers.iter().map(|&v| v - lo).collect()))
        });
        let data = std::mem::take(&mut d.pipeline.vertex_data);
        let (mut buf, map): (VertexBuf, Vec<u32>) = match dense {
            Some((lo, hi, offsets)) => {
                let count = (hi - lo) as usize + 1;
                let buf = fetch_all(
                    &decl,
                    &views,
                    layout,
                    count,
                    |k| lo + k as u32,
                    data,
                    pool.as_deref(),
                );
                (buf, offsets)
            }
            None => {
                let buf = fetch_all(
                    &decl,
                    &views,
                    layout,
                    numbers.len(),
                    |k| numbers[k],
                    data,
                    pool.as_deref(),
                );
                (buf, (0..numbers.len() as u32).collect())
            }
        };
        // The last draw's primitive list, emptied: its allocation is reused.
        let mut prims = std::mem::take(&mut d.pipeline.prims);
        prims.clear();
        prims.reserve(call.primitive_count as usize);
        assemble_on(
            call.primitive,
            call.primitive_count,
            &map,
            &mut prims,
            pool.as_deref(),
        );
        d.pipeline.index_map = map;
        let prims = clip_pretransformed(&mut buf, prims, pool.as_deref());
        let mut var = Varyings::default();
        if ps3 {
            // Output slot k is attribute k (see `vs_out`).
            for k in 0..layout.attrs.len().min(var.slot_attr.len()) {
                var.slot_attr[k] = Some(4 * k);
            }
        } else {
            var.slot_attr[OUT_D0 as usize] = Some(ATTR_DIFFUSE);
            var.slot_attr[OUT_D0 as usize + 1] = Some(ATTR_SPECULAR);
            for s in 0..layout.tex_sets() {
                var.slot_attr[OUT_T0 as usize + s] = Some(ATTR_TEX0 + 4 * s);
            }
            var.fog = Some(ATTR_SPECULAR + 3);
        }
        var.attrs = buf.stride - HEADER;
        ffp_key = Some(FfpVertexKey::new(
            &ffp,
            &ffp_layout,
            DrawOptions {
                points,
                tex_stages: 0xFF,
                max_lights,
            },
        ));
        (buf, prims, var)
    } else {
        let (proc_, var, user_planes) = match (&vs, &vs_prog) {
            (Some(vs), Some(p)) => {
                let prog = &vs.0.program;
                let legacy = p.version().major < 3;
                let colors: &[u16] = if legacy { &[OUT_D0, OUT_D0 + 1] } else { &[] };
                let tex = if legacy {
                    0xFF << OUT_T0
                } else {
                    texcoord_slots(p.outputs())
                };
                let var = Varyings::new(
                    needed,
                    tex,
                    colors_needed(colors, needed),
                    fog_interp,
                    false,
                );
                // Shader clip planes are in clip space (rasterization.md 4.2).
                let mut planes = Vec::new();
                if d.state.rs_bool(Rs::Clipping) {
                    let en = d.state.rs(Rs::ClipPlaneEnable);
                    for i in 0..6 {
                        if en & (1 << i) != 0 {
                            planes.push(ClipPlane::Homogeneous(d.state.clip_planes[i]));
                        }
                    }
                }
                let consts = OwnedConstants {
                    float: Arc::clone(&d.state.vs_f),
                    int: d.state.vs_i.to_vec(),
                    bool: d.state.vs_b.to_vec(),
                };
                let plan = shader_plan(prog, &decl);
                (
                    VertexProc::Shader {
                        program: Arc::clone(p),
                        plan,
                        consts,
                    },
                    var,
                    planes,
                )
            }
            _ => {
                let opts = DrawOptions {
                    points,
                    tex_stages,
                    max_lights,
                };
                let key = FfpVertexKey::new(&ffp, &ffp_layout, opts);
                let program = d.pipeline.caches.ffp_vertex.get(&key);
                let consts = FfpVertexConsts::new(&ffp, &key);
                let clip = key.clip_planes != 0;
                let var = Varyings::new(
                    needed | (1 << OUT_D0) | (1 << (OUT_D0 + 1)),
                    0xFF << OUT_T0,
                    &[OUT_D0, OUT_D0 + 1],
                    fog_interp,
                    clip,
                );
                let mut planes = Vec::new();
                if let Some(c) = var.clip {
                    for i in 0..6 {
                        if key.clip_planes & (1 << i) != 0 {
                            planes.push(ClipPlane::Stored(HEADER + c + i));
                        }
                    }
                }
                ffp_key = Some(key);
                (
                    VertexProc::Ffp {
                        state: Arc::clone(&ffp),
                        layout: ffp_layout.clone(),
                        plan: ffp_plan.clone(),
                        opts,
                        program,
                        consts,
                    },
                    var,
                    planes,
                )
            }
        };
        let (numbers, map) = distinct_vertices(&call);
        // Warp's point lists are drawn from their point words without a
        // primitive list (`raster::Primitives::Points`): one point per
        // vertex, in `map` order (None: the identity, every vertex in
        // order, which a non-indexed draw's instances are too).
        let defer_points = points && !reference;
        let freqs: [u32; 16] =
            std::array::from_fn(|i| streams.streams[i].as_ref().map_or(1, |s| s.freq));
        let (_, instances) = instancing(&freqs, matches!(call.source, VertexSource::Indexed(_)));
        let mut planes = volume_planes(&d.state.viewport, clips_depth(d, false));
        planes.extend(user_planes);
        let pass = VertexPass::new(
            &planes,
            &d.state.viewport,
            points.then_some(&st),
            (!reference).then_some(backend),
        );
        // The last draw's buffer, resized: the vertex stage writes every
        // float of every row, so only growth is zero-filled.
        let stride = var.stride();
        let count = numbers.len() * instances as usize;
        let mut data = std::mem::take(&mut d.pipeline.vertex_data);
        data.truncate(count * stride);
        data.resize(count * stride, 0.0);
        let mut codes = std::mem::take(&mut d.pipeline.codes);
        codes.clear();
        codes.resize(count, 0);
        // The last draw's primitive list, emptied: its allocation is reused.
        let mut prims = std::mem::take(&mut d.pipeline.prims);
        prims.clear();
        prims.reserve(call.primitive_count as usize);
        let mut shifted = Vec::new();
        let mut order: Option<Vec<u32>> = None;
        let per_instance = numbers.len();
        let indexed = map.is_some();
        let identity: Vec<u32> = match map {
            None if !defer_points => (0..per_instance as u32).collect(),
            _ => Vec::new(),
        };
        let map: &[u32] = map.as_deref().unwrap_or(&identity);
        for inst in 0..instances {
            let first = inst as usize * per_instance;
            let inputs = VertexInputs {
                reference,
                backend,
                streams: &streams,
                instance: inst,
                textures: &textures,
                var: &var,
            };
            proc_.run(
                &inputs,
                &numbers,
                stride,
                &mut data[first * stride..(first + per_instance) * stride],
                &pass,
                &mut codes[first..first + per_instance],
                pool.as_deref(),
            );
            if defer_points {
                if indexed {
                    let order = order.get_or_insert_with(Vec::new);
                    order.extend(map.iter().map(|&m| m + first as u32));
                }
                continue;
            }
            // Instance 0's vertices start at 0: its map needs no shift.
            let map = if first == 0 {
                map
            } else {
                shifted.clear();
                shifted.extend(map.iter().map(|&m| m + first as u32));
                &shifted[..]
            };
            assemble(call.primitive, call.primitive_count, map, &mut prims);
        }
        let mut buf = VertexBuf { stride, data };
        if defer_points {
            // Dropped points are skipped by their words: no clipping pass.
            deferred = Some(DeferredPoints {
                words: codes,
                order,
            });
        } else {
            prims = clip_and_project(
                &mut buf,
                prims,
                &planes,
                &codes,
                pass.projects(),
                &d.state.viewport,
                pool.as_deref(),
            );
            d.pipeline.codes = codes;
        }
        (buf, prims, var)
    };
    let drawn = match &deferred {
        Some(p) => p.count() > 0,
        None => !prims.is_empty(),
    };
    if !drawn {
        if let Some(p) = deferred {
            d.pipeline.codes = p.words;
        }
        d.pipeline.vertex_data = buf.data;
        d.pipeline.prims = prims;
        return Ok(());
    }

    // The pixel stage.
    let attr = |slot: u16, comp: u8| var.attr(slot, comp);
    let stage = match ps_prog {
        Some(p) => {
            let sm1 = p.version().is_sm1();
            // ps_1_1-1_3 `tex` projects as the stages' transform flags say;
            // the divisors need the vertex key, known only now.
            let p = match &ps {
                Some(shader) if sm1 && p.version().minor < 4 => {
                    let proj = ps1_projection(d, &ffp, ffp_key.as_ref(), vs.is_some());
                    d.pipeline
                        .caches
                        .prepared_projected(&shader.0, &d.state.ps_b, proj)
                }
                _ => p,
            };
            let written = u32::from(p.written_outputs & 0xF);
            let map = InputMap::new(&links, attr, p.version().major < 3);
            Stage::Shader(ShaderPixelStage {
                map,
                program: p,
                consts: OwnedConstants {
                    float: if sm1 {
                        Arc::new(ps1::constants(&d.state.ps_f, &bump_env(d)))
                    } else {
                        Arc::clone(&d.state.ps_f)
                    },
                    int: d.state.ps_i.to_vec(),
                    bool: d.state.ps_b.to_vec(),
                },
                textures: Arc::clone(&textures),
                written,
            })
        }
        None => {
            let divisors = stage_divisors(&ffp, ffp_key.as_ref());
            let key = FfpPixelKey::new(&ffp, stage_tex, divisors);
            let standard = var.slot_attr[OUT_D0 as usize] == Some(ATTR_DIFFUSE)
                && var.slot_attr[OUT_D0 as usize + 1] == Some(ATTR_SPECULAR);
            if key.stages.is_empty() && standard {
                Stage::Color(ColorStage::new(st.specular_add))
            } else {
                let program = d.pipeline.caches.ffp_pixel.get(&key);
                let general = FfpPixelStage {
                    map: InputMap::new(&links, attr, true),
                    program,
                    consts: FfpPixelConsts::new(&ffp),
                    textures: Arc::clone(&textures),
                    state: Arc::clone(&ffp),
                    stage_textures: stage_tex,
                    divisors,
                };
                // The Reference driver keeps the literal cascade: it is the
                // oracle the one-texture form is tested against.
                if d.driver == DriverType::Reference {
                    Stage::Ffp(general)
                } else {
                    match TexStage::new(general) {
                        Ok(t) => Stage::Tex(t),
                        Err(general) => Stage::Ffp(*general),
                    }
                }
            }
        }
    };
    let fog_attr = if fog_interp { var.fog } else { None };
    let points = deferred.as_ref();
    let mut prims = prims;
    let vertices = call.primitive.vertex_count(call.primitive_count);
    if d.driver != DriverType::Reference && d.threads > 1 && vertices <= super::CALLER_DRAW_VERTICES
    {
        // A small Warp draw: binned now, shaded with the batch.
        let buf = queue(d, st, buf, &mut prims, points, stage, fog_attr);
        d.pipeline.vertex_data = buf;
    } else {
        // Its targets' writes complete the batch first (`deferred`).
        with_stage!(&stage, |s| render(
            d, &st, &buf, &mut prims, points, s, fog_attr
        ));
        d.pipeline.vertex_data = buf.data;
    }
    d.pipeline.prims = prims;
    if let Some(p) = deferred {
        d.pipeline.codes = p.words;
    }
    Ok(())
}

/// The colour slots to place first, those of them the draw stores.
fn colors_needed(colors: &[u16], needed: u16) -> &'static [u16] {
    let d0 = colors.contains(&OUT_D0) && needed & (1 << OUT_D0) != 0;
    let d1 = colors.contains(&(OUT_D0 + 1)) && needed & (1 << (OUT_D0 + 1)) != 0;
    match (d0, d1) {
        (true, true) => &[OUT_D0, OUT_D0 + 1],
        (true, false) => &[OUT_D0],
        (false, true) => &[OUT_D0 + 1],
        (false, false) => &[],
    }
}

/// The distinct vertex numbers a draw references (each transformed once)
/// and, per assembled position, its index among them (None: the identity).
fn distinct_vertices(call: &DrawCall) -> (Vec<u32>, Option<Vec<u32>>) {
    if let VertexSource::Streams { start_vertex } = call.source {
        // Consecutive vertices, each used once, in order.
        let n = call.primitive.vertex_count(call.primitive_count) as u32;
        return ((0..n).map(|i| start_vertex.wrapping_add(i)).collect(), None);
    }
    // Dense: transform the whole range.
    if let Some((lo, hi, map)) = dense_indices(call, |n| n + 64, Vec::new()) {
        return ((lo..=hi).collect(), Some(map));
    }
    let numbers = vertex_numbers(call);
    if numbers.is_empty() {
        return (Vec::new(), None);
    }
    let mut uniq = numbers.clone();
    uniq.sort_unstable();
    uniq.dedup();
    let map = numbers
        .iter()
        .map(|v| uniq.binary_search(v).unwrap_or(0) as u32)
        .collect();
    (uniq, Some(map))
}

/// A Warp point list's vertex-stage verdicts, drawn without a primitive
/// list (see `raster::Primitives::Points`).
struct DeferredPoints {
    /// One point word per processed vertex (`raster::point_word`, or
    /// [`POINT_DROPPED`]).
    words: Vec<u32>,
    /// The points' vertex numbers in draw order; None: every vertex, in order.
    order: Option<Vec<u32>>,
}

impl DeferredPoints {
    /// How many points the draw has, dropped ones included.
    fn count(&self) -> usize {
        self.order.as_ref().map_or(self.words.len(), Vec::len)
    }

    /// The point list as primitives, dropped points left out (what
    /// clipping would have kept), into `prims`.
    fn assemble(&self, prims: &mut Vec<Prim>) {
        let kept = |v: u32| {
            self.words
                .get(v as usize)
                .is_some_and(|&w| w != POINT_DROPPED)
        };
        prims.clear();
        match &self.order {
            Some(order) => {
                prims.extend(order.iter().copied().filter(|&v| kept(v)).map(Prim::Point))
            }
            None => prims.extend(
                (0..self.words.len() as u32)
                    .filter(|&v| kept(v))
                    .map(Prim::Point),
            ),
        }
    }
}

/// The pixel stage's inputs as the drivers take them: its planes, then
/// the fog factor's plane when fog is interpolated (`fog_attr`).
fn stage_inputs<P: PixelStage>(
    stage: &P,
    fog_attr: Option<usize>,
) -> (Vec<usize>, u64, Option<usize>) {
    let mut list = stage.inputs().to_vec();
    let n = list.len();
    let fog = fog_attr.map(|a| {
        list.push(a);
        n
    });
    let flat = stage.flat_inputs() & if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    (list, flat, fog)
}

/// The Warp rasterizer's view of a draw's primitives: `prims`, or for a
/// point list `points` (assembled into `prims` when they cannot be drawn
/// compactly).
fn warp_primitives<'a, P: PixelStage>(
    st: &DrawState,
    stage: &P,
    prims: &'a mut Vec<Prim>,
    points: Option<&'a DeferredPoints>,
) -> Primitives<'a> {
    match points {
        Some(p) if crate::raster::compact_points(st, stage) => Primitives::Points {
            words: &p.words,
            order: p.order.as_deref(),
        },
        Some(p) => {
            p.assemble(prims);
            Primitives::Assembled {
                prims,
                point_words: Some(&p.words),
            }
        }
        None => Primitives::Assembled {
            prims,
            point_words: None,
        },
    }
}

/// Queues a small Warp draw: bins it and hands it to the device's batch
/// of deferred draws (`deferred`), shading it there. Returns a vertex
/// buffer for the next draw to fill (the draw keeps its own).
fn queue(
    d: &mut DrawDevice<'_>,
    st: DrawState,
    buf: VertexBuf,
    prims: &mut Vec<Prim>,
    points: Option<&DeferredPoints>,
    stage: Stage,
    fog_attr: Option<usize>,
) -> Vec<f32> {
    let (list, flat, fog) = with_stage!(&stage, |s| stage_inputs(s, fog_attr));
    let inputs = Inputs {
        list: &list,
        flat,
        fog,
    };
    let backend = d.backend;
    // The batch is shaded on the draw pool (one worker for one thread),
    // whose stacks are sized for a draw.
    let pool = d.pipeline.pool(d.threads);
    let queue = Arc::clone(&d.pipeline.queue);
    let (parts, floats) = queue.buffers();
    let binned = with_stage!(&stage, |s| {
        let prims = warp_primitives(&st, s, prims, points);
        crate::raster::bin_draw(
            parts,
            &mut d.pipeline.scratch.snapped,
            &st,
            &buf,
            prims,
            &inputs,
            s,
            backend,
            None,
        )
    });
    if binned.is_empty() {
        queue.recycle(binned.parts, floats);
        return buf.data;
    }
    queue.push(st, buf, stage, &inputs, binned, pool, backend);
    floats
}

/// Hands the draw to the device's driver: `prims`, or for a Warp point
/// list `points` (whose primitives are assembled into `prims` only when the
/// rasterizer cannot draw them compactly).
fn render<P: PixelStage>(
    d: &mut DrawDevice<'_>,
    st: &DrawState,
    buf: &VertexBuf,
    prims: &mut Vec<Prim>,
    points: Option<&DeferredPoints>,
    stage: &P,
    fog_attr: Option<usize>,
) {
    let (list, flat, fog) = stage_inputs(stage, fog_attr);
    let inputs = Inputs {
        list: &list,
        flat,
        fog,
    };
    let driver = d.driver;
    let backend = d.backend;
    let pool = d.split_pool();
    let mut scratch = std::mem::take(&mut d.pipeline.scratch);
    let passed = crate::driver::with_targets(st, |fb| {
        if driver == DriverType::Reference {
            let mut fb = fb;
            crate::reference::draw(st, buf, prims, &inputs, stage, &mut fb)
        } else {
            let prims = warp_primitives(st, stage, prims, points);
            crate::raster::draw(
                &mut scratch,
                st,
                buf,
                prims,
                &inputs,
                stage,
                fb,
                backend,
                pool.as_deref(),
            )
        }
    });
    d.pipeline.scratch = scratch;
    *d.samples_passed += passed;
}
