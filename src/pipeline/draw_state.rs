//! The wiring of one draw: which vertex stage (pre-transformed, fixed
//! function, vertex shader) and which pixel stage (fixed-function texture
//! stages, pixel shader) run, how the vertex outputs link to the pixel
//! inputs (bytecode.md 8), where the fog factor comes from
//! (fixed-function.md 9.2), and the hand-over to the Warp or Reference
//! rasterizer.
//!
//! Path of a draw: `Device::execute` → `DrawDevice::execute` → [`execute`],
//! a few steps, each one function:
//! 1. [`DrawPlan::new`]: the programs (ps and vs prepared per bool-constant
//!    key, cached per shader; or the fixed-function state), the pixel
//!    inputs, the vertex outputs, and [`link`] between them;
//! 2. the vertices (`vertices`): pre-transformed ones fetched and
//!    guard-band clipped, or transformed once per distinct vertex and
//!    instance (`VertexProc::run`), assembled, clipped in clip space and
//!    projected (`clip_and_project`);
//! 3. the pixel stage, built once with one `BoundTextures` snapshot
//!    (`hand_off::pixel_stage`);
//! 4. the hand-off (`hand_off::hand_off`): queued with the batch, or drawn
//!    by `raster::draw` (Warp) or `reference::draw` (Reference).
//!
//! Invariant: every decision is made here, once per draw, identically for
//! both drivers; where the drivers run a stage differently, the draw's
//! [`DriverForm`](super::DriverForm) says so, decided in one place.

use std::sync::Arc;

use crate::error::Result;
use crate::ffp::key::FfpVertexKey;
use crate::ffp::stages::cascade_extent;
use crate::ffp::texgen::{projection_divisor, stage_divisors};
use crate::ffp::{FfpInputLayout, FfpPixelCache, FfpState, FfpVertexCache, StageTexture};
use crate::geom::fetch::FetchLayout;
use crate::resource::BaseTexture;
use crate::sampler::BoundTextures;
use crate::shader::exec::regs::{OUT_D0, OUT_T0};
use crate::shader::exec::{
    InputLayout, Link, LinkSource, OutputLayout, Prepared, ProgramCache, Varying, link, ps1,
};
use crate::shader::object::{PixelShader, ShaderInner, VertexShader};
use crate::state::{StateValue, TexCoordIndex, TextureStageStateType, TextureTransformFlags};
use crate::vertex::{DeclUsage, FetchPlan, PrimitiveType, StreamInput, VertexDeclaration};

use super::hand_off::{hand_off, pixel_stage};
use super::state::{DrawState, FogSource};
use super::vertices::{pretransformed_vertices, transformed_vertices};
use super::{DrawCall, DrawDevice};

/// Compiled code kept across draws: prepared shaders (per shader and
/// bool-constant key) and the fixed-function routines (per state key).
#[derive(Debug, Default)]
pub(crate) struct Caches {
    pub(super) ffp_vertex: FfpVertexCache,
    pub(super) ffp_pixel: FfpPixelCache,
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
    pub(super) fn prepared_projected(
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
pub(super) fn stream_inputs(d: &DrawDevice<'_>, call: &DrawCall) -> [Option<StreamInput>; 16] {
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
pub(super) fn bump_env(d: &DrawDevice<'_>) -> [ps1::BumpEnv; 8] {
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
pub(super) fn ps1_projection(
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

/// A draw's programs and how they connect, decided from the device state
/// before any vertex runs: the vertex and pixel programs (prepared, cached),
/// the fixed-function state both sides read, and the links from the vertex
/// outputs to the pixel inputs.
pub(super) struct DrawPlan {
    pub(super) decl: VertexDeclaration,
    pub(super) points: bool,
    pub(super) textures: Arc<BoundTextures>,
    pub(super) vs: Option<VertexShader>,
    pub(super) ps: Option<PixelShader>,
    pub(super) vs_prog: Option<Arc<Prepared>>,
    pub(super) ps_prog: Option<Arc<Prepared>>,
    /// The fixed-function state (an unused default when both shaders are bound).
    pub(super) ffp: Arc<FfpState>,
    pub(super) ffp_layout: FfpInputLayout,
    pub(super) ffp_plan: FetchPlan,
    pub(super) max_lights: u32,
    pub(super) stage_tex: [StageTexture; 8],
    /// Pre-transformed vertices' fetch layout (None: a vertex stage runs).
    pub(super) fetch_layout: Option<FetchLayout>,
    pub(super) ps3: bool,
    pub(super) links: Vec<Link>,
    /// The vertex output slots some pixel input reads (bit per slot).
    pub(super) needed: u16,
    /// The texture-coordinate sets the pixel side reads (bit per set).
    pub(super) tex_stages: u8,
    /// Fog is interpolated from the specular alpha (vertex fog).
    pub(super) fog_interp: bool,
}

impl DrawPlan {
    /// The plan of a draw of `call` with vertices described by `decl`;
    /// turns `st`'s fog off for a ps_3_0, which does its own
    /// (fixed-function.md 9.2).
    fn new(
        d: &mut DrawDevice<'_>,
        call: &DrawCall,
        decl: VertexDeclaration,
        st: &mut DrawState,
    ) -> DrawPlan {
        let pretransformed = decl.is_pretransformed();
        let textures = Arc::new(BoundTextures::from_state(
            &d.state.textures,
            &d.state.sampler,
            d.caps.max_anisotropy,
        ));
        let vs = (!pretransformed)
            .then(|| d.state.vertex_shader.clone())
            .flatten();
        let ps = d.state.pixel_shader.clone();
        let ffp = if vs.is_none() || ps.is_none() {
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
            st.fog = None;
        }
        let ps_inputs = match &ps_prog {
            Some(p) => p.inputs().clone(),
            None => ffp_pixel_inputs(&ffp, cascade_extent(&ffp, &stage_tex).0, pretransformed),
        };
        // Vertex side: its outputs, then the links.
        // Pre-transformed vertices feed a ps_3_0 every declared element its
        // inputs name, by semantic (Wine pretransformed_varying_test); anything
        // else gets the fixed-function colours and texture coordinates.
        let fetch_layout = pretransformed.then(|| {
            if ps3 {
                FetchLayout::by_semantic(
                    &decl,
                    ps_inputs.varyings.iter().map(|v| (v.usage, v.index)),
                )
            } else {
                FetchLayout::legacy(&decl)
            }
        });
        let vs_out = vertex_outputs(vs_prog.as_deref(), fetch_layout.as_ref(), ps3);
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
        DrawPlan {
            decl,
            points: call.primitive == PrimitiveType::PointList,
            textures,
            vs,
            ps,
            vs_prog,
            ps_prog,
            ffp,
            ffp_layout,
            ffp_plan,
            max_lights,
            stage_tex,
            fetch_layout,
            ps3,
            links,
            needed,
            tex_stages: ((needed >> OUT_T0) & 0xFF) as u8,
            fog_interp: matches!(st.fog.map(|f| f.source), Some(FogSource::SpecularAlpha)),
        }
    }
}

/// What the vertex side of a draw writes: a vertex shader's outputs,
/// pre-transformed vertices' fetched attributes (all of them, by semantic,
/// for a ps_3_0; else the fixed-function colours and coordinate sets), or
/// the fixed-function vertex stage's.
fn vertex_outputs(
    vs_prog: Option<&Prepared>,
    fetch_layout: Option<&FetchLayout>,
    ps3: bool,
) -> OutputLayout {
    match (vs_prog, fetch_layout) {
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
    }
}

/// Runs a validated draw (see the module docs): its plan, its vertices,
/// its pixel stage, then the hand-off to the driver.
pub(crate) fn execute(d: &mut DrawDevice<'_>, call: DrawCall) -> Result<()> {
    let Some(decl) = d.state.vertex_input.declaration().cloned() else {
        return Ok(());
    };
    let mut st = DrawState::from_device(d, decl.is_pretransformed());
    if st.clip.is_empty() {
        return Ok(());
    }
    let plan = DrawPlan::new(d, &call, decl, &mut st);
    let form = d.form();
    let vertices = match &plan.fetch_layout {
        Some(layout) => pretransformed_vertices(d, &call, &plan, layout),
        None => transformed_vertices(d, &call, &plan, &st, form),
    };
    if !vertices.drawn() {
        vertices.recycle(d.pipeline);
        return Ok(());
    }
    let stage = pixel_stage(d, &plan, &vertices, &st, form);
    let fog_attr = if plan.fog_interp {
        vertices.var.fog
    } else {
        None
    };
    hand_off(d, &call, st, vertices, stage, fog_attr, form);
    Ok(())
}
