//! Everything a state block can capture (`DeviceState`): the state the
//! application set through the device, which the device owns and a draw
//! reads. It sits below both `api` (which writes it, validated) and
//! `pipeline` (which decodes it for a draw), so the draw path never names
//! the device or the API layer.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Mat4;

use crate::caps::internal::{
    MAX_CLIP_PLANES, MAX_CONST_B, MAX_CONST_I, MAX_PS_CONST_F, MAX_STREAMS, MAX_TEXTURE_STAGES,
    MAX_VS_CONST_F,
};
use crate::resource::{BaseTexture, IndexBuffer, VertexBuffer};
use crate::shader::object::{PixelShader, VertexShader};
use crate::state::*;
use crate::vertex::VertexDeclaration;

/// One vertex stream binding (`SetStreamSource` + `SetStreamSourceFreq`).
#[derive(Clone, Debug, Default)]
pub(crate) struct StreamBinding {
    pub(crate) buffer: Option<VertexBuffer>,
    pub(crate) offset: u32,
    pub(crate) stride: u32,
    pub(crate) freq: u32,
}

/// A light index's light and whether it is enabled.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LightSlot {
    pub(crate) light: Light,
    pub(crate) enabled: bool,
}

/// The current vertex input description.
#[derive(Clone, Debug, Default)]
pub(crate) enum VertexInput {
    /// Nothing set yet.
    #[default]
    None,
    /// `SetFVF`: the FVF and its converted declaration.
    Fvf(u32, VertexDeclaration),
    /// `SetVertexDeclaration`.
    Declaration(VertexDeclaration),
}

impl VertexInput {
    pub(crate) fn declaration(&self) -> Option<&VertexDeclaration> {
        match self {
            VertexInput::None => None,
            VertexInput::Fvf(_, d) | VertexInput::Declaration(d) => Some(d),
        }
    }
}

/// The capturable device state (everything but render targets, depth-stencil and swap chain).
#[derive(Clone, Debug)]
pub(crate) struct DeviceState {
    pub(crate) render: [u32; RENDER_STATE_COUNT],
    pub(crate) sampler: [[u32; SAMPLER_STATE_COUNT]; SAMPLER_SLOTS],
    pub(crate) stage: [[u32; STAGE_STATE_COUNT]; MAX_TEXTURE_STAGES],
    pub(crate) transforms: Vec<Mat4>,
    pub(crate) viewport: Viewport,
    pub(crate) scissor: Rect,
    pub(crate) clip_planes: [[f32; 4]; MAX_CLIP_PLANES],
    pub(crate) lights: BTreeMap<u32, LightSlot>,
    pub(crate) material: Material,
    pub(crate) streams: [StreamBinding; MAX_STREAMS],
    pub(crate) vertex_input: VertexInput,
    pub(crate) indices: Option<IndexBuffer>,
    pub(crate) textures: [Option<BaseTexture>; SAMPLER_SLOTS],
    pub(crate) vertex_shader: Option<VertexShader>,
    pub(crate) pixel_shader: Option<PixelShader>,
    /// Shared with the draws that read it (a draw takes a reference, not
    /// a copy of the 8,192 registers); a write after a draw ended finds it
    /// unshared and writes in place (`Arc::make_mut`).
    pub(crate) vs_f: Arc<Vec<[f32; 4]>>,
    pub(crate) vs_i: [[i32; 4]; MAX_CONST_I],
    pub(crate) vs_b: [bool; MAX_CONST_B],
    /// Shared like `vs_f`.
    pub(crate) ps_f: Arc<Vec<[f32; 4]>>,
    pub(crate) ps_i: [[i32; 4]; MAX_CONST_I],
    pub(crate) ps_b: [bool; MAX_CONST_B],
}

impl DeviceState {
    /// D3D9's initial state for a device whose render target is `width` x `height`.
    pub(crate) fn initial(width: u32, height: u32, auto_depth: bool) -> DeviceState {
        let mut render = [0u32; RENDER_STATE_COUNT];
        for key in RenderStateType::ALL {
            render[key.raw() as usize] = key.default_raw(auto_depth);
        }
        let mut sampler = [[0u32; SAMPLER_STATE_COUNT]; SAMPLER_SLOTS];
        for slot in sampler.iter_mut() {
            for key in SamplerStateType::ALL {
                slot[key.raw() as usize] = key.default_raw();
            }
        }
        let mut stage = [[0u32; STAGE_STATE_COUNT]; MAX_TEXTURE_STAGES];
        for (i, s) in stage.iter_mut().enumerate() {
            for key in TextureStageStateType::ALL {
                s[key.raw() as usize] = key.default_raw(i as u32);
            }
        }
        DeviceState {
            render,
            sampler,
            stage,
            transforms: vec![Mat4::IDENTITY; TRANSFORM_SLOTS],
            viewport: Viewport::full(width, height),
            scissor: Rect::of_size(width, height),
            clip_planes: [[0.0; 4]; MAX_CLIP_PLANES],
            lights: BTreeMap::new(),
            material: Material::default(),
            streams: std::array::from_fn(|_| StreamBinding {
                freq: 1,
                ..StreamBinding::default()
            }),
            vertex_input: VertexInput::None,
            indices: None,
            textures: std::array::from_fn(|_| None),
            vertex_shader: None,
            pixel_shader: None,
            vs_f: Arc::new(vec![[0.0; 4]; MAX_VS_CONST_F]),
            vs_i: [[0; 4]; MAX_CONST_I],
            vs_b: [false; MAX_CONST_B],
            ps_f: Arc::new(vec![[0.0; 4]; MAX_PS_CONST_F]),
            ps_i: [[0; 4]; MAX_CONST_I],
            ps_b: [false; MAX_CONST_B],
        }
    }

    /// The raw value of a render state.
    pub(crate) fn rs(&self, key: RenderStateType) -> u32 {
        self.render[key.raw() as usize]
    }

    /// A render state read as a bool (any non-zero DWORD is TRUE).
    pub(crate) fn rs_bool(&self, key: RenderStateType) -> bool {
        self.rs(key) != 0
    }
}
