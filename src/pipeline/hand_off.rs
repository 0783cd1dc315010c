//! The pixel side of a draw and its hand-off to the driver: the pixel
//! stage built once (a pixel shader, the plain colour stage, the
//! one-texture form or the general fixed-function cascade), then the draw
//! queued with the batch (a small Warp draw on more than one thread,
//! `deferred`), drawn by Warp's rasterizer at once, or drawn by the
//! Reference driver.

use std::sync::Arc;

use crate::driver::Inputs;
use crate::ffp::texgen::stage_divisors;
use crate::ffp::{FfpPixelConsts, FfpPixelKey};
use crate::geom::{ATTR_DIFFUSE, ATTR_SPECULAR, Prim, VertexBuf};
use crate::pixel::{ColorStage, PixelStage};
use crate::raster::Primitives;
use crate::shader::exec::ps1;
use crate::shader::exec::regs::OUT_D0;

use super::deferred::{PendingDraw, ShadeWork, Stage, with_stage};
use super::draw_state::{DrawPlan, bump_env, ps1_projection};
use super::pixel_stages::{FfpPixelStage, InputMap, OwnedConstants, ShaderPixelStage};
use super::state::DrawState;
use super::tex_stage::TexStage;
use super::vertices::{DeferredPoints, DrawVertices, give_back};
use super::{CALLER_DRAW_VERTICES, DrawCall, DrawDevice, DriverForm};

/// The pixel stage of a draw, built once (see the module docs).
pub(super) fn pixel_stage(
    d: &mut DrawDevice<'_>,
    plan: &DrawPlan,
    vertices: &DrawVertices,
    st: &DrawState,
    form: DriverForm,
) -> Stage {
    let var = &vertices.var;
    let attr = |slot: u16, comp: u8| var.attr(slot, comp);
    if let Some(p) = &plan.ps_prog {
        let sm1 = p.version().is_sm1();
        // ps_1_1-1_3 `tex` projects as the stages' transform flags say;
        // the divisors need the vertex key, known only now.
        let p = match &plan.ps {
            Some(shader) if sm1 && p.version().minor < 4 => {
                let proj =
                    ps1_projection(d, &plan.ffp, vertices.ffp_key.as_ref(), plan.vs.is_some());
                d.pipeline
                    .caches
                    .prepared_projected(&shader.0, &d.state.ps_b, proj)
            }
            _ => Arc::clone(p),
        };
        let written = u32::from(p.written_outputs & 0xF);
        let map = InputMap::new(&plan.links, attr, p.version().major < 3);
        return Stage::Shader(ShaderPixelStage {
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
            textures: Arc::clone(&plan.textures),
            written,
        });
    }
    let divisors = stage_divisors(&plan.ffp, vertices.ffp_key.as_ref());
    let key = FfpPixelKey::new(&plan.ffp, plan.stage_tex, divisors);
    let standard = var.slot_attr[OUT_D0 as usize] == Some(ATTR_DIFFUSE)
        && var.slot_attr[OUT_D0 as usize + 1] == Some(ATTR_SPECULAR);
    if key.stages.is_empty() && standard {
        return Stage::Color(ColorStage::new(st.specular_add));
    }
    let program = d.pipeline.caches.ffp_pixel.get(&key);
    let general = FfpPixelStage {
        map: InputMap::new(&plan.links, attr, true),
        program,
        consts: FfpPixelConsts::new(&plan.ffp),
        textures: Arc::clone(&plan.textures),
        state: Arc::clone(&plan.ffp),
        stage_textures: plan.stage_tex,
        divisors,
    };
    if !form.one_texture_stage {
        return Stage::Ffp(general);
    }
    match TexStage::new(general) {
        Ok(t) => Stage::Tex(t),
        Err(general) => Stage::Ffp(*general),
    }
}

/// Hands a draw with its vertices and pixel stage to the driver: queued
/// with the batch when small and the driver defers, else drawn now. The
/// buffers go back to the device either way.
pub(super) fn hand_off(
    d: &mut DrawDevice<'_>,
    call: &DrawCall,
    st: DrawState,
    vertices: DrawVertices,
    stage: Stage,
    fog_attr: Option<usize>,
    form: DriverForm,
) {
    let DrawVertices {
        buf,
        mut prims,
        points,
        ..
    } = vertices;
    let large = call.primitive.vertex_count(call.primitive_count) > CALLER_DRAW_VERTICES;
    let data = if form.defers_draws {
        // A Warp draw on more than one thread: binned now, shaded with the
        // batch (a large one binned across the workers, its batch handed
        // over at once).
        let bin_pool = if large { d.split_pool() } else { None };
        let ctx = QueueContext {
            fog_attr,
            bin_pool: bin_pool.as_deref(),
        };
        queue(d, st, buf, &mut prims, points.as_ref(), stage, ctx)
    } else {
        // Its targets' writes complete the batch first (`deferred`).
        with_stage!(&stage, |s| render(
            d,
            &st,
            &buf,
            &mut prims,
            points.as_ref(),
            s,
            fog_attr,
            form
        ));
        buf.data
    };
    give_back(d.pipeline, data, prims, points);
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

/// What [`queue`] needs besides the draw: where the fog factor is
/// interpolated from, and the workers a large draw is binned on.
struct QueueContext<'a> {
    fog_attr: Option<usize>,
    bin_pool: Option<&'a rayon::ThreadPool>,
}

/// Queues a Warp draw: bins it and hands it to the device's batch
/// of deferred draws (`deferred`), shading it there. Returns a vertex
/// buffer for the next draw to fill (the draw keeps its own).
fn queue(
    d: &mut DrawDevice<'_>,
    st: DrawState,
    buf: VertexBuf,
    prims: &mut Vec<Prim>,
    points: Option<&DeferredPoints>,
    stage: Stage,
    ctx: QueueContext<'_>,
) -> Vec<f32> {
    let (list, flat, fog) = with_stage!(&stage, |s| stage_inputs(s, ctx.fog_attr));
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
            ctx.bin_pool,
        )
    });
    if binned.is_empty() {
        queue.recycle(binned.parts, floats);
        return buf.data;
    }
    // Pushed by `DrawDevice::execute`, on the application's thread.
    d.pipeline.pending = Some(PendingDraw {
        work: ShadeWork {
            st,
            buf,
            stage,
            inputs: list,
            flat,
            fog,
            binned,
        },
        pool,
        backend,
    });
    floats
}

/// Hands the draw to the device's driver: `prims`, or for a Warp point
/// list `points` (whose primitives are assembled into `prims` only when the
/// rasterizer cannot draw them compactly).
#[allow(clippy::too_many_arguments)]
fn render<P: PixelStage>(
    d: &mut DrawDevice<'_>,
    st: &DrawState,
    buf: &VertexBuf,
    prims: &mut Vec<Prim>,
    points: Option<&DeferredPoints>,
    stage: &P,
    fog_attr: Option<usize>,
    form: DriverForm,
) {
    let (list, flat, fog) = stage_inputs(stage, fog_attr);
    let inputs = Inputs {
        list: &list,
        flat,
        fog,
    };
    let backend = d.backend;
    let pool = d.split_pool();
    let mut scratch = std::mem::take(&mut d.pipeline.scratch);
    let passed = crate::driver::with_targets(st, |fb| {
        if form.reference {
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
