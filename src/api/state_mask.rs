//! Which parts of the device state a state block holds (`StateMask`), the
//! predefined masks of `CreateStateBlock`, and the copy between a block and
//! the device.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::caps::internal::{
    MAX_CLIP_PLANES, MAX_CONST_B, MAX_CONST_I, MAX_PS_CONST_F, MAX_STREAMS, MAX_TEXTURE_STAGES,
    MAX_VS_CONST_F,
};
use crate::device_state::DeviceState;
use crate::state::*;

/// A set of small indices, as bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits(Vec<u64>);

impl Bits {
    pub(crate) fn with_len(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    pub(crate) fn set(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    pub(crate) fn fill(&mut self, n: usize) {
        for i in 0..n {
            self.set(i);
        }
    }

    pub(crate) fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(wi, &w)| {
            (0..64)
                .filter(move |b| w & (1 << b) != 0)
                .map(move |b| wi * 64 + b)
        })
    }
}

/// Which parts of the device state a state block holds.
#[derive(Clone, Debug)]
pub(crate) struct StateMask {
    pub(crate) render: Bits,
    pub(crate) sampler: Vec<Bits>,
    pub(crate) stage: Vec<Bits>,
    pub(crate) transforms: Bits,
    pub(crate) viewport: bool,
    pub(crate) scissor: bool,
    pub(crate) clip_planes: Bits,
    pub(crate) lights: BTreeSet<u32>,
    pub(crate) light_enables: BTreeSet<u32>,
    pub(crate) material: bool,
    pub(crate) stream_sources: Bits,
    pub(crate) stream_freqs: Bits,
    pub(crate) vertex_input: bool,
    pub(crate) indices: bool,
    pub(crate) textures: Bits,
    pub(crate) vertex_shader: bool,
    pub(crate) pixel_shader: bool,
    pub(crate) vs_f: Bits,
    pub(crate) vs_i: Bits,
    pub(crate) vs_b: Bits,
    pub(crate) ps_f: Bits,
    pub(crate) ps_i: Bits,
    pub(crate) ps_b: Bits,
}

/// `D3DSTATEBLOCKTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateBlockType {
    /// D3DSBT_ALL: all device state.
    All,
    /// D3DSBT_PIXELSTATE: pixel render/stage/sampler states, pixel shader and its constants.
    PixelState,
    /// D3DSBT_VERTEXSTATE: vertex render/stage/sampler states, lights, vertex shader, constants, declaration.
    VertexState,
}

impl StateMask {
    /// An empty mask (what `BeginStateBlock` starts recording into).
    pub(crate) fn empty() -> StateMask {
        StateMask {
            render: Bits::with_len(RENDER_STATE_COUNT),
            sampler: vec![Bits::with_len(SAMPLER_STATE_COUNT); SAMPLER_SLOTS],
            stage: vec![Bits::with_len(STAGE_STATE_COUNT); MAX_TEXTURE_STAGES],
            transforms: Bits::with_len(TRANSFORM_SLOTS),
            viewport: false,
            scissor: false,
            clip_planes: Bits::with_len(MAX_CLIP_PLANES),
            lights: BTreeSet::new(),
            light_enables: BTreeSet::new(),
            material: false,
            stream_sources: Bits::with_len(MAX_STREAMS),
            stream_freqs: Bits::with_len(MAX_STREAMS),
            vertex_input: false,
            indices: false,
            textures: Bits::with_len(SAMPLER_SLOTS),
            vertex_shader: false,
            pixel_shader: false,
            vs_f: Bits::with_len(MAX_VS_CONST_F),
            vs_i: Bits::with_len(MAX_CONST_I),
            vs_b: Bits::with_len(MAX_CONST_B),
            ps_f: Bits::with_len(MAX_PS_CONST_F),
            ps_i: Bits::with_len(MAX_CONST_I),
            ps_b: Bits::with_len(MAX_CONST_B),
        }
    }

    /// The predefined mask of `CreateStateBlock(kind)`; lights are those that exist in `state`.
    pub(crate) fn predefined(kind: StateBlockType, state: &DeviceState) -> StateMask {
        let mut m = StateMask::empty();
        let pixel = matches!(kind, StateBlockType::All | StateBlockType::PixelState);
        let vertex = matches!(kind, StateBlockType::All | StateBlockType::VertexState);
        for key in RenderStateType::ALL {
            let take = match key.class() {
                StateClass::Pixel => pixel,
                StateClass::Vertex => vertex,
                StateClass::Both => pixel || vertex,
                StateClass::Other => kind == StateBlockType::All,
            };
            if take {
                m.render.set(key.raw() as usize);
            }
        }
        for stage in m.stage.iter_mut() {
            for key in TextureStageStateType::ALL {
                if pixel || key.is_vertex_state() {
                    stage.set(key.raw() as usize);
                }
            }
        }
        for sampler in m.sampler.iter_mut() {
            for key in SamplerStateType::ALL {
                if (pixel && !key.is_vertex_state()) || (vertex && key.is_vertex_state()) {
                    sampler.set(key.raw() as usize);
                }
            }
        }
        if pixel {
            m.pixel_shader = true;
            m.ps_f.fill(MAX_PS_CONST_F);
            m.ps_i.fill(MAX_CONST_I);
            m.ps_b.fill(MAX_CONST_B);
        }
        if vertex {
            m.vertex_shader = true;
            m.vertex_input = true;
            m.vs_f.fill(MAX_VS_CONST_F);
            m.vs_i.fill(MAX_CONST_I);
            m.vs_b.fill(MAX_CONST_B);
            m.stream_freqs.fill(MAX_STREAMS);
            m.lights = state.lights.keys().copied().collect();
            m.light_enables = m.lights.clone();
        }
        if kind == StateBlockType::All {
            m.transforms.fill(TRANSFORM_SLOTS);
            m.viewport = true;
            m.scissor = true;
            m.clip_planes.fill(MAX_CLIP_PLANES);
            m.material = true;
            m.stream_sources.fill(MAX_STREAMS);
            m.indices = true;
            m.textures.fill(SAMPLER_SLOTS);
        }
        m
    }

    /// Copies every masked part of `from` into `to`.
    pub(crate) fn copy(&self, from: &DeviceState, to: &mut DeviceState) {
        for i in self.render.ones() {
            to.render[i] = from.render[i];
        }
        for (s, bits) in self.sampler.iter().enumerate() {
            for i in bits.ones() {
                to.sampler[s][i] = from.sampler[s][i];
            }
        }
        for (s, bits) in self.stage.iter().enumerate() {
            for i in bits.ones() {
                to.stage[s][i] = from.stage[s][i];
            }
        }
        for i in self.transforms.ones() {
            to.transforms[i] = from.transforms[i];
        }
        if self.viewport {
            to.viewport = from.viewport;
        }
        if self.scissor {
            to.scissor = from.scissor;
        }
        for i in self.clip_planes.ones() {
            to.clip_planes[i] = from.clip_planes[i];
        }
        for &i in &self.lights {
            let light = from.lights.get(&i).map(|s| s.light).unwrap_or_default();
            to.lights.entry(i).or_default().light = light;
        }
        for &i in &self.light_enables {
            let enabled = from.lights.get(&i).is_some_and(|s| s.enabled);
            to.lights.entry(i).or_default().enabled = enabled;
        }
        if self.material {
            to.material = from.material;
        }
        for i in self.stream_sources.ones() {
            to.streams[i].buffer = from.streams[i].buffer.clone();
            to.streams[i].offset = from.streams[i].offset;
            to.streams[i].stride = from.streams[i].stride;
        }
        for i in self.stream_freqs.ones() {
            to.streams[i].freq = from.streams[i].freq;
        }
        if self.vertex_input {
            to.vertex_input = from.vertex_input.clone();
        }
        if self.indices {
            to.indices = from.indices.clone();
        }
        for i in self.textures.ones() {
            to.textures[i] = from.textures[i].clone();
        }
        if self.vertex_shader {
            to.vertex_shader = from.vertex_shader.clone();
        }
        if self.pixel_shader {
            to.pixel_shader = from.pixel_shader.clone();
        }
        copy_marked(&self.vs_f, &mut to.vs_f, &from.vs_f);
        for i in self.vs_i.ones() {
            to.vs_i[i] = from.vs_i[i];
        }
        for i in self.vs_b.ones() {
            to.vs_b[i] = from.vs_b[i];
        }
        copy_marked(&self.ps_f, &mut to.ps_f, &from.ps_f);
        for i in self.ps_i.ones() {
            to.ps_i[i] = from.ps_i[i];
        }
        for i in self.ps_b.ones() {
            to.ps_b[i] = from.ps_b[i];
        }
    }
}

/// Copies the registers `marked` names from `from` into `to`, unsharing
/// `to` only when there is one to copy.
fn copy_marked(marked: &Bits, to: &mut Arc<Vec<[f32; 4]>>, from: &[[f32; 4]]) {
    let mut ones = marked.ones().peekable();
    if ones.peek().is_none() {
        return;
    }
    let to = Arc::make_mut(to);
    for i in ones {
        to[i] = from[i];
    }
}
