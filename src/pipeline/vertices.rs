//! The vertex side of a draw: its vertices made (pre-transformed ones
//! fetched and guard-band clipped; others run through the fixed-function
//! or vertex-shader stage once per distinct vertex and instance), assembled
//! into primitives, clipped in clip space and projected. The device's
//! vertex, code and primitive buffers are taken for the draw and given back
//! after it ([`DrawVertices::recycle`]), so a draw allocates only on growth.

use std::sync::Arc;

use crate::ffp::key::FfpVertexKey;
use crate::ffp::{DrawOptions, FfpVertexConsts};
use crate::geom::assemble::{assemble, assemble_on};
use crate::geom::clip::clip_pretransformed;
use crate::geom::fetch::{FetchLayout, StreamView, fetch_all};
use crate::geom::{ATTR_DIFFUSE, ATTR_SPECULAR, ATTR_TEX0, HEADER, Prim, VertexBuf};
use crate::shader::exec::regs::{OUT_D0, OUT_T0};
use crate::state::RenderStateType as Rs;
use crate::vertex::{FetchStreams, instancing};

use super::clip_space::{ClipPlane, clip_and_project, volume_planes};
use super::draw_state::{DrawPlan, stream_inputs};
use super::pixel_stages::OwnedConstants;
use super::state::{DrawState, clips_depth};
use super::vertex_pass::{POINT_DROPPED, VertexPass};
use super::vertex_stage::{Varyings, VertexInputs, VertexProc, shader_plan, texcoord_slots};
use super::{
    DrawCall, DrawDevice, DriverForm, Pipeline, VertexSource, dense_indices, vertex_numbers,
};

/// A draw's vertices, ready for a pixel stage: the vertex rows, the
/// primitives over them, where each vertex output landed in a row, the
/// fixed-function vertex key (for the stages' projection rule), and for a
/// Warp point list the points' words instead of primitives.
pub(super) struct DrawVertices {
    pub(super) buf: VertexBuf,
    pub(super) prims: Vec<Prim>,
    pub(super) var: Varyings,
    pub(super) ffp_key: Option<FfpVertexKey>,
    pub(super) points: Option<DeferredPoints>,
}

impl DrawVertices {
    /// Whether anything is left to draw after clipping.
    pub(super) fn drawn(&self) -> bool {
        match &self.points {
            Some(p) => p.count() > 0,
            None => !self.prims.is_empty(),
        }
    }

    /// Gives the device back the buffers the draw took.
    pub(super) fn recycle(self, pipeline: &mut Pipeline) {
        give_back(pipeline, self.buf.data, self.prims, self.points);
    }
}

/// Gives the device back a draw's buffers for the next draw to fill: its
/// vertex floats, primitive list and point words.
pub(super) fn give_back(
    pipeline: &mut Pipeline,
    vertex_data: Vec<f32>,
    prims: Vec<Prim>,
    points: Option<DeferredPoints>,
) {
    if let Some(p) = points {
        pipeline.codes = p.words;
    }
    pipeline.vertex_data = vertex_data;
    pipeline.prims = prims;
}

/// Pre-transformed vertices (`layout`): the distinct vertex numbers the
/// draw reads fetched once each (a dense range whole), assembled and
/// clipped to the guard band.
pub(super) fn pretransformed_vertices(
    d: &mut DrawDevice<'_>,
    call: &DrawCall,
    plan: &DrawPlan,
    layout: &FetchLayout,
) -> DrawVertices {
    let streams = FetchStreams::new(
        stream_inputs(d, call),
        matches!(call.source, VertexSource::Indexed(_)),
    );
    let pool = d.split_pool();
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
    let dense = dense_indices(call, slack, reuse).or_else(|| {
        numbers = vertex_numbers(call);
        let (lo, hi) = numbers
            .iter()
            .fold((u32::MAX, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        (!numbers.is_empty() && (hi - lo) as usize <= slack(numbers.len()))
            .then(|| (lo, hi, numbers.iter().map(|&v| v - lo).collect()))
    });
    let data = std::mem::take(&mut d.pipeline.vertex_data);
    let decl = &plan.decl;
    let (mut buf, map): (VertexBuf, Vec<u32>) = match dense {
        Some((lo, hi, offsets)) => {
            let count = (hi - lo) as usize + 1;
            let buf = fetch_all(
                decl,
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
                decl,
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
    if plan.ps3 {
        // Output slot k is attribute k (see `vertex_outputs`).
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
    let ffp_key = FfpVertexKey::new(
        &plan.ffp,
        &plan.ffp_layout,
        DrawOptions {
            points: plan.points,
            tex_stages: 0xFF,
            max_lights: plan.max_lights,
        },
    );
    DrawVertices {
        buf,
        prims,
        var,
        ffp_key: Some(ffp_key),
        points: None,
    }
}

/// The vertex stage a draw runs (its shader, or the fixed-function
/// routine of its state key), where its outputs go in a row, and its user
/// clip planes; with the fixed-function key when that stage runs.
fn vertex_proc(
    d: &mut DrawDevice<'_>,
    plan: &DrawPlan,
) -> (VertexProc, Varyings, Vec<ClipPlane>, Option<FfpVertexKey>) {
    if let (Some(vs), Some(p)) = (&plan.vs, &plan.vs_prog) {
        let prog = &vs.0.program;
        let legacy = p.version().major < 3;
        let colors: &[u16] = if legacy { &[OUT_D0, OUT_D0 + 1] } else { &[] };
        let tex = if legacy {
            0xFF << OUT_T0
        } else {
            texcoord_slots(p.outputs())
        };
        let var = Varyings::new(
            plan.needed,
            tex,
            colors_needed(colors, plan.needed),
            plan.fog_interp,
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
        let plan = shader_plan(prog, &plan.decl);
        let proc_ = VertexProc::Shader {
            program: Arc::clone(p),
            plan,
            consts,
        };
        return (proc_, var, planes, None);
    }
    let opts = DrawOptions {
        points: plan.points,
        tex_stages: plan.tex_stages,
        max_lights: plan.max_lights,
    };
    let key = FfpVertexKey::new(&plan.ffp, &plan.ffp_layout, opts);
    let program = d.pipeline.caches.ffp_vertex.get(&key);
    let consts = FfpVertexConsts::new(&plan.ffp, &key);
    let var = Varyings::new(
        plan.needed | (1 << OUT_D0) | (1 << (OUT_D0 + 1)),
        0xFF << OUT_T0,
        &[OUT_D0, OUT_D0 + 1],
        plan.fog_interp,
        key.clip_planes != 0,
    );
    let mut planes = Vec::new();
    if let Some(c) = var.clip {
        for i in 0..6 {
            if key.clip_planes & (1 << i) != 0 {
                planes.push(ClipPlane::Stored(HEADER + c + i));
            }
        }
    }
    let proc_ = VertexProc::Ffp {
        state: Arc::clone(&plan.ffp),
        layout: plan.ffp_layout.clone(),
        plan: plan.ffp_plan.clone(),
        opts,
        program,
        consts,
    };
    (proc_, var, planes, Some(key))
}

/// Vertices a vertex stage makes: each distinct vertex of each instance
/// once, with its clip codes (or a Warp point list's point words), then
/// assembled, clipped and projected.
pub(super) fn transformed_vertices(
    d: &mut DrawDevice<'_>,
    call: &DrawCall,
    plan: &DrawPlan,
    st: &DrawState,
    form: DriverForm,
) -> DrawVertices {
    let streams = FetchStreams::new(
        stream_inputs(d, call),
        matches!(call.source, VertexSource::Indexed(_)),
    );
    let pool = d.split_pool();
    let (proc_, var, user_planes, ffp_key) = vertex_proc(d, plan);
    let (numbers, map) = distinct_vertices(call);
    // Warp's point lists are drawn from their point words without a
    // primitive list (`raster::Primitives::Points`): one point per
    // vertex, in `map` order (None: the identity, every vertex in
    // order, which a non-indexed draw's instances are too).
    let point_words = plan.points && form.point_words;
    let freqs: [u32; 16] =
        std::array::from_fn(|i| streams.streams[i].as_ref().map_or(1, |s| s.freq));
    let (_, instances) = instancing(&freqs, matches!(call.source, VertexSource::Indexed(_)));
    let mut planes = volume_planes(&d.state.viewport, clips_depth(d, false));
    planes.extend(user_planes);
    let pass = VertexPass::new(
        &planes,
        &d.state.viewport,
        plan.points.then_some(st),
        form.lanes,
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
        None if !point_words => (0..per_instance as u32).collect(),
        _ => Vec::new(),
    };
    let map: &[u32] = map.as_deref().unwrap_or(&identity);
    for inst in 0..instances {
        let first = inst as usize * per_instance;
        let inputs = VertexInputs {
            lanes: form.lanes,
            streams: &streams,
            instance: inst,
            textures: &plan.textures,
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
        if point_words {
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
    let points = if point_words {
        // Dropped points are skipped by their words: no clipping pass.
        Some(DeferredPoints {
            words: codes,
            order,
        })
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
        None
    };
    DrawVertices {
        buf,
        prims,
        var,
        ffp_key,
        points,
    }
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
pub(super) struct DeferredPoints {
    /// One point word per processed vertex (`raster::point_word`, or
    /// [`POINT_DROPPED`]).
    pub(super) words: Vec<u32>,
    /// The points' vertex numbers in draw order; None: every vertex, in order.
    pub(super) order: Option<Vec<u32>>,
}

impl DeferredPoints {
    /// How many points the draw has, dropped ones included.
    pub(super) fn count(&self) -> usize {
        self.order.as_ref().map_or(self.words.len(), Vec::len)
    }

    /// The point list as primitives, dropped points left out (what
    /// clipping would have kept), into `prims`.
    pub(super) fn assemble(&self, prims: &mut Vec<Prim>) {
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
