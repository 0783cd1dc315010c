//! The state API: typed and raw setters and getters for every state a state
//! block can hold. While a state block is recorded, setters write into it
//! instead of the device (D3D9 behaviour).
//!
//! Setters accept any value of a known state; values are checked against
//! the caps when a draw uses them (caps.md section 8).

use std::sync::Arc;

use glam::Mat4;

use super::device::Device;
use super::shader::{PixelShader, VertexShader};
use super::state_mask::StateMask;
use crate::caps::internal::{MAX_CONST_B, MAX_CONST_I, MAX_TEXTURE_STAGES};
use crate::device_state::{DeviceState, LightSlot, VertexInput};
use crate::error::{Error, ErrorKind, Result};
use crate::format::Pool;
use crate::resource::{BaseTexture, IndexBuffer, VertexBuffer};
use crate::state::*;
use crate::vertex::{Fvf, VertexDeclaration};

use crate::vertex::{STREAMSOURCE_INDEXEDDATA, STREAMSOURCE_INSTANCEDATA};

impl Device {
    /// Runs `f` on the state setters write to: the recording block, or the device.
    fn target<R>(&mut self, f: impl FnOnce(&mut DeviceState, Option<&mut StateMask>) -> R) -> R {
        match &mut self.recording {
            Some(block) => f(&mut block.values, Some(&mut block.mask)),
            None => f(&mut self.state, None),
        }
    }

    // ----- render, sampler and texture-stage states -----

    /// `SetRenderState` with a typed state.
    pub fn set_render_state(&mut self, state: RenderState) {
        let (key, raw) = state.to_raw();
        self.set_render_state_key(key, raw);
    }

    fn set_render_state_key(&mut self, key: RenderStateType, raw: u32) {
        let i = key.raw() as usize;
        self.target(|s, m| {
            s.render[i] = raw;
            if let Some(m) = m {
                m.render.set(i);
            }
        });
    }

    /// `SetRenderState` in raw form: a `D3DRS_*` number and a DWORD.
    /// Any value is accepted for a known state; an unknown state number is `InvalidCall`.
    pub fn set_render_state_raw(&mut self, state: u32, value: u32) -> Result<()> {
        let key = RenderStateType::from_raw(state).ok_or_else(|| {
            Error::invalid_call(format!(
                "SetRenderState: {state} is not a D3DRENDERSTATETYPE"
            ))
        })?;
        self.set_render_state_key(key, value);
        Ok(())
    }

    /// `GetRenderState` (raw DWORD).
    pub fn get_render_state(&self, key: RenderStateType) -> Result<u32> {
        self.check_not_pure("GetRenderState")?;
        Ok(self.state.rs(key))
    }

    /// `GetRenderState` decoded; `None` when the stored DWORD is not one of the state's values.
    pub fn get_render_state_typed(&self, key: RenderStateType) -> Result<Option<RenderState>> {
        Ok(RenderState::from_raw(key, self.get_render_state(key)?))
    }

    fn sampler_slot(sampler: u32, call: &str) -> Result<usize> {
        Sampler::from_raw(sampler)
            .and_then(Sampler::slot)
            .ok_or_else(|| {
                Error::invalid_call(format!(
                    "{call}: sampler {sampler} does not exist (0..15, D3DDMAPSAMPLER 256, D3DVERTEXTEXTURESAMPLER0..3 257..260)"
                ))
            })
    }

    /// `SetSamplerState` with a typed state. `sampler` is 0..15, 256 or 257..260.
    pub fn set_sampler_state(&mut self, sampler: u32, state: SamplerState) -> Result<()> {
        let (key, raw) = state.to_raw();
        self.set_sampler_state_raw(sampler, key.raw(), raw)
    }

    /// `SetSamplerState` in raw form (`D3DSAMP_*` number and DWORD).
    pub fn set_sampler_state_raw(&mut self, sampler: u32, state: u32, value: u32) -> Result<()> {
        let slot = Self::sampler_slot(sampler, "SetSamplerState")?;
        let key = SamplerStateType::from_raw(state).ok_or_else(|| {
            Error::invalid_call(format!(
                "SetSamplerState: {state} is not a D3DSAMPLERSTATETYPE"
            ))
        })?;
        let i = key.raw() as usize;
        self.target(|s, m| {
            s.sampler[slot][i] = value;
            if let Some(m) = m {
                m.sampler[slot].set(i);
            }
        });
        Ok(())
    }

    /// `GetSamplerState` (raw DWORD).
    pub fn get_sampler_state(&self, sampler: u32, key: SamplerStateType) -> Result<u32> {
        self.check_not_pure("GetSamplerState")?;
        let slot = Self::sampler_slot(sampler, "GetSamplerState")?;
        Ok(self.state.sampler[slot][key.raw() as usize])
    }

    fn stage_index(stage: u32, call: &str) -> Result<usize> {
        if (stage as usize) < MAX_TEXTURE_STAGES {
            Ok(stage as usize)
        } else {
            Err(Error::invalid_call(format!(
                "{call}: stage {stage} does not exist (0..7)"
            )))
        }
    }

    /// `SetTextureStageState` with a typed state (`stage` 0..7).
    pub fn set_texture_stage_state(&mut self, stage: u32, state: TextureStageState) -> Result<()> {
        let (key, raw) = state.to_raw();
        self.set_texture_stage_state_raw(stage, key.raw(), raw)
    }

    /// `SetTextureStageState` in raw form (`D3DTSS_*` number and DWORD).
    pub fn set_texture_stage_state_raw(
        &mut self,
        stage: u32,
        state: u32,
        value: u32,
    ) -> Result<()> {
        let st = Self::stage_index(stage, "SetTextureStageState")?;
        let key = TextureStageStateType::from_raw(state).ok_or_else(|| {
            Error::invalid_call(format!(
                "SetTextureStageState: {state} is not a D3DTEXTURESTAGESTATETYPE"
            ))
        })?;
        let i = key.raw() as usize;
        self.target(|s, m| {
            s.stage[st][i] = value;
            if let Some(m) = m {
                m.stage[st].set(i);
            }
        });
        Ok(())
    }

    /// `GetTextureStageState` (raw DWORD).
    pub fn get_texture_stage_state(&self, stage: u32, key: TextureStageStateType) -> Result<u32> {
        self.check_not_pure("GetTextureStageState")?;
        let st = Self::stage_index(stage, "GetTextureStageState")?;
        Ok(self.state.stage[st][key.raw() as usize])
    }

    // ----- transforms, viewport, scissor, clip planes -----

    /// `SetTransform`.
    pub fn set_transform(&mut self, which: TransformType, matrix: &Mat4) -> Result<()> {
        let slot = which.slot().ok_or_else(|| {
            Error::invalid_call(format!("SetTransform: {which:?} does not exist"))
        })?;
        self.target(|s, m| {
            s.transforms[slot] = *matrix;
            if let Some(m) = m {
                m.transforms.set(slot);
            }
        });
        Ok(())
    }

    /// `SetTransform` in raw form (a `D3DTS_*` number).
    pub fn set_transform_raw(&mut self, which: u32, matrix: &Mat4) -> Result<()> {
        let t = TransformType::from_raw(which).ok_or_else(|| {
            Error::invalid_call(format!(
                "SetTransform: {which} is not a D3DTRANSFORMSTATETYPE"
            ))
        })?;
        self.set_transform(t, matrix)
    }

    /// `MultiplyTransform`: in D3D9's row-vector terms the slot becomes
    /// `current × matrix` (a vertex is transformed by the current matrix
    /// first, then by `matrix`), as the D3D9 runtime computes it.
    pub fn multiply_transform(&mut self, which: TransformType, matrix: &Mat4) -> Result<()> {
        let slot = which.slot().ok_or_else(|| {
            Error::invalid_call(format!("MultiplyTransform: {which:?} does not exist"))
        })?;
        // A glam matrix holds D3D's 16 floats as columns, i.e. the transpose:
        // (current × matrix)ᵀ = matrixᵀ × currentᵀ.
        self.target(|s, m| {
            s.transforms[slot] = *matrix * s.transforms[slot];
            if let Some(m) = m {
                m.transforms.set(slot);
            }
        });
        Ok(())
    }

    /// `GetTransform`.
    pub fn get_transform(&self, which: TransformType) -> Result<Mat4> {
        self.check_not_pure("GetTransform")?;
        let slot = which.slot().ok_or_else(|| {
            Error::invalid_call(format!("GetTransform: {which:?} does not exist"))
        })?;
        Ok(self.state.transforms[slot])
    }

    /// `SetViewport`. The rectangle may be larger than render target 0 or
    /// reach past its edge, as Windows drivers allow (rasterization.md 3):
    /// the transform uses it as given and drawing and Clear are limited to
    /// viewport ∩ render target. It must not be empty, and MinZ and MaxZ
    /// must lie in [0, 1]; MaxZ below MinZ + 0.001 is kept as set and
    /// drawn with the range [`Viewport::depth_range`] gives.
    pub fn set_viewport(&mut self, vp: &Viewport) -> Result<()> {
        if self.render_targets[0].is_none() {
            return Err(Error::invalid_call("SetViewport: no render target 0"));
        }
        let depths_ok = (0.0..=1.0).contains(&vp.min_z) && (0.0..=1.0).contains(&vp.max_z);
        if !depths_ok || vp.width == 0 || vp.height == 0 {
            return Err(Error::invalid_call(format!(
                "SetViewport: {vp:?} must have a non-empty rectangle and depths in 0..1"
            )));
        }
        let vp = *vp;
        self.target(|s, m| {
            s.viewport = vp;
            if let Some(m) = m {
                m.viewport = true;
            }
        });
        Ok(())
    }

    /// `GetViewport`.
    pub fn get_viewport(&self) -> Result<Viewport> {
        self.check_not_pure("GetViewport")?;
        Ok(self.state.viewport)
    }

    /// `SetScissorRect`.
    pub fn set_scissor_rect(&mut self, rect: &Rect) -> Result<()> {
        if rect.left > rect.right || rect.top > rect.bottom {
            return Err(Error::invalid_call(format!(
                "SetScissorRect: {rect:?} is inverted"
            )));
        }
        let rect = *rect;
        self.target(|s, m| {
            s.scissor = rect;
            if let Some(m) = m {
                m.scissor = true;
            }
        });
        Ok(())
    }

    /// `GetScissorRect`.
    pub fn get_scissor_rect(&self) -> Result<Rect> {
        self.check_not_pure("GetScissorRect")?;
        Ok(self.state.scissor)
    }

    fn clip_plane_index(&self, index: u32, call: &str) -> Result<usize> {
        let max = self.vertex_caps().max_user_clip_planes;
        if index < max {
            Ok(index as usize)
        } else {
            Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                "MaxUserClipPlanes",
                self.level,
                max,
                format!("{call} index {index}"),
            ))
        }
    }

    /// `SetClipPlane`: plane `index` (< MaxUserClipPlanes) as (a, b, c, d).
    pub fn set_clip_plane(&mut self, index: u32, plane: [f32; 4]) -> Result<()> {
        let i = self.clip_plane_index(index, "SetClipPlane")?;
        self.target(|s, m| {
            s.clip_planes[i] = plane;
            if let Some(m) = m {
                m.clip_planes.set(i);
            }
        });
        Ok(())
    }

    /// `GetClipPlane`.
    pub fn get_clip_plane(&self, index: u32) -> Result<[f32; 4]> {
        self.check_not_pure("GetClipPlane")?;
        let i = self.clip_plane_index(index, "GetClipPlane")?;
        Ok(self.state.clip_planes[i])
    }

    // ----- lights and material -----

    /// `SetLight`: any index; the light is validated as D3D9 does.
    pub fn set_light(&mut self, index: u32, light: &Light) -> Result<()> {
        light.validate()?;
        let light = *light;
        self.target(|s, m| {
            s.lights.entry(index).or_default().light = light;
            if let Some(m) = m {
                m.lights.insert(index);
            }
        });
        Ok(())
    }

    /// `GetLight`: `InvalidCall` for an index never set.
    pub fn get_light(&self, index: u32) -> Result<Light> {
        self.check_not_pure("GetLight")?;
        self.state
            .lights
            .get(&index)
            .map(|s| s.light)
            .ok_or_else(|| Error::invalid_call(format!("GetLight: light {index} was never set")))
    }

    /// `LightEnable`: enabling an index never set creates D3D9's default light.
    /// How many lights may be on at once is checked at draw time (MaxActiveLights).
    pub fn light_enable(&mut self, index: u32, enable: bool) {
        self.target(|s, m| {
            s.lights
                .entry(index)
                .or_insert(LightSlot::default())
                .enabled = enable;
            if let Some(m) = m {
                m.light_enables.insert(index);
                m.lights.insert(index);
            }
        });
    }

    /// `GetLightEnable`.
    pub fn get_light_enable(&self, index: u32) -> Result<bool> {
        self.check_not_pure("GetLightEnable")?;
        self.state
            .lights
            .get(&index)
            .map(|s| s.enabled)
            .ok_or_else(|| {
                Error::invalid_call(format!("GetLightEnable: light {index} was never set"))
            })
    }

    /// `SetMaterial`.
    pub fn set_material(&mut self, material: &Material) {
        let material = *material;
        self.target(|s, m| {
            s.material = material;
            if let Some(m) = m {
                m.material = true;
            }
        });
    }

    /// `GetMaterial`.
    pub fn get_material(&self) -> Result<Material> {
        self.check_not_pure("GetMaterial")?;
        Ok(self.state.material)
    }

    // ----- vertex input -----

    fn stream_index(&self, stream: u32, call: &str) -> Result<usize> {
        let max = self.vertex_caps().max_streams;
        if stream < max {
            Ok(stream as usize)
        } else {
            Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                "MaxStreams",
                self.level,
                max,
                format!("{call} stream {stream}"),
            ))
        }
    }

    /// `SetStreamSource`: `stride` up to MaxStreamStride.
    pub fn set_stream_source(
        &mut self,
        stream: u32,
        buffer: Option<&VertexBuffer>,
        offset: u32,
        stride: u32,
    ) -> Result<()> {
        let i = self.stream_index(stream, "SetStreamSource")?;
        let max_stride = self.caps.max_stream_stride;
        if stride > max_stride {
            return Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                "MaxStreamStride",
                self.level,
                max_stride,
                stride,
            ));
        }
        if !offset.is_multiple_of(4) {
            return Err(Error::invalid_call(format!(
                "SetStreamSource: offset {offset} is not a multiple of 4"
            )));
        }
        if let Some(b) = buffer
            && b.desc().pool == Pool::Scratch
        {
            return Err(Error::invalid_call(
                "SetStreamSource: a D3DPOOL_SCRATCH buffer cannot be bound",
            ));
        }
        let buffer = buffer.cloned();
        self.target(|s, m| {
            let st = &mut s.streams[i];
            st.buffer = buffer;
            st.offset = offset;
            st.stride = stride;
            if let Some(m) = m {
                m.stream_sources.set(i);
            }
        });
        Ok(())
    }

    /// `GetStreamSource`: (buffer, offset, stride).
    pub fn get_stream_source(&self, stream: u32) -> Result<(Option<VertexBuffer>, u32, u32)> {
        let i = self.stream_index(stream, "GetStreamSource")?;
        let s = &self.state.streams[i];
        Ok((s.buffer.clone(), s.offset, s.stride))
    }

    /// `SetStreamSourceFreq` (fixed-function.md section 1.4): instancing flags need level 9_3.
    pub fn set_stream_source_freq(&mut self, stream: u32, setting: u32) -> Result<()> {
        let i = self.stream_index(stream, "SetStreamSourceFreq")?;
        let indexed = setting & STREAMSOURCE_INDEXEDDATA != 0;
        let instance = setting & STREAMSOURCE_INSTANCEDATA != 0;
        let bad = |why: String| Err(Error::invalid_call(format!("SetStreamSourceFreq: {why}")));
        if setting == 0 {
            return bad("a frequency of 0".into());
        }
        if indexed && instance {
            return bad("both INDEXEDDATA and INSTANCEDATA".into());
        }
        if instance && i == 0 {
            return bad("INSTANCEDATA on stream 0".into());
        }
        if (indexed || instance) && !self.limits.instancing {
            return Err(Error::invalid_call(format!(
                "SetStreamSourceFreq: instancing needs level 9_3 (VertexShaderVersion 3.0); the device is at {}",
                self.level
            )));
        }
        self.target(|s, m| {
            s.streams[i].freq = setting;
            if let Some(m) = m {
                m.stream_freqs.set(i);
            }
        });
        Ok(())
    }

    /// `GetStreamSourceFreq`.
    pub fn get_stream_source_freq(&self, stream: u32) -> Result<u32> {
        let i = self.stream_index(stream, "GetStreamSourceFreq")?;
        Ok(self.state.streams[i].freq)
    }

    /// `SetFVF`: replaces the vertex declaration with the FVF's equivalent.
    pub fn set_fvf(&mut self, fvf: Fvf) -> Result<()> {
        fvf.validate()?;
        let decl = if fvf.bits() == 0 {
            None
        } else {
            Some(VertexDeclaration::new(fvf.to_elements(), fvf.bits()))
        };
        self.target(|s, m| {
            s.vertex_input = match decl {
                Some(d) => VertexInput::Fvf(fvf.bits(), d),
                None => VertexInput::None,
            };
            if let Some(m) = m {
                m.vertex_input = true;
            }
        });
        Ok(())
    }

    /// `GetFVF`: the last `SetFVF` value, 0 after `SetVertexDeclaration`.
    pub fn get_fvf(&self) -> Result<Fvf> {
        self.check_not_pure("GetFVF")?;
        Ok(match &self.state.vertex_input {
            VertexInput::Fvf(f, _) => Fvf::from_bits_retain(*f),
            _ => Fvf::empty(),
        })
    }

    /// `SetVertexDeclaration`.
    pub fn set_vertex_declaration(&mut self, decl: Option<&VertexDeclaration>) {
        let decl = decl.cloned();
        self.target(|s, m| {
            s.vertex_input = match decl {
                Some(d) => VertexInput::Declaration(d),
                None => VertexInput::None,
            };
            if let Some(m) = m {
                m.vertex_input = true;
            }
        });
    }

    /// `GetVertexDeclaration`.
    pub fn get_vertex_declaration(&self) -> Result<Option<VertexDeclaration>> {
        self.check_not_pure("GetVertexDeclaration")?;
        Ok(self.state.vertex_input.declaration().cloned())
    }

    /// `SetIndices`.
    pub fn set_indices(&mut self, indices: Option<&IndexBuffer>) -> Result<()> {
        if indices.is_some_and(|b| b.desc().pool == Pool::Scratch) {
            return Err(Error::invalid_call(
                "SetIndices: a D3DPOOL_SCRATCH buffer cannot be bound",
            ));
        }
        let indices = indices.cloned();
        self.target(|s, m| {
            s.indices = indices;
            if let Some(m) = m {
                m.indices = true;
            }
        });
        Ok(())
    }

    /// `GetIndices`.
    pub fn get_indices(&self) -> Result<Option<IndexBuffer>> {
        Ok(self.state.indices.clone())
    }

    // ----- textures and shaders -----

    /// `SetTexture`: `sampler` is 0..15, 256 or 257..260. SCRATCH and
    /// SYSTEMMEM textures cannot be bound.
    pub fn set_texture(&mut self, sampler: u32, texture: Option<BaseTexture>) -> Result<()> {
        let slot = Self::sampler_slot(sampler, "SetTexture")?;
        if let Some(t) = &texture {
            let pool = t.desc().pool;
            if matches!(pool, Pool::Scratch | Pool::SystemMem) {
                return Err(Error::invalid_call(format!(
                    "SetTexture: a {pool:?}-pool texture cannot be bound to a sampler"
                )));
            }
        }
        self.target(|s, m| {
            s.textures[slot] = texture;
            if let Some(m) = m {
                m.textures.set(slot);
            }
        });
        Ok(())
    }

    /// `GetTexture`.
    pub fn get_texture(&self, sampler: u32) -> Result<Option<BaseTexture>> {
        let slot = Self::sampler_slot(sampler, "GetTexture")?;
        Ok(self.state.textures[slot].clone())
    }

    /// `SetVertexShader` (None: fixed-function vertex processing).
    pub fn set_vertex_shader(&mut self, shader: Option<&VertexShader>) {
        let shader = shader.cloned();
        self.target(|s, m| {
            s.vertex_shader = shader;
            if let Some(m) = m {
                m.vertex_shader = true;
            }
        });
    }

    /// `GetVertexShader`.
    pub fn get_vertex_shader(&self) -> Result<Option<VertexShader>> {
        self.check_not_pure("GetVertexShader")?;
        Ok(self.state.vertex_shader.clone())
    }

    /// `SetPixelShader` (None: the fixed-function texture stages).
    pub fn set_pixel_shader(&mut self, shader: Option<&PixelShader>) {
        let shader = shader.cloned();
        self.target(|s, m| {
            s.pixel_shader = shader;
            if let Some(m) = m {
                m.pixel_shader = true;
            }
        });
    }

    /// `GetPixelShader`.
    pub fn get_pixel_shader(&self) -> Result<Option<PixelShader>> {
        self.check_not_pure("GetPixelShader")?;
        Ok(self.state.pixel_shader.clone())
    }

    /// The number of float constant registers of vertex shaders right now.
    pub fn vertex_shader_const_f_count(&self) -> u32 {
        self.vertex_caps().max_vertex_shader_const
    }

    /// The number of float constant registers of pixel shaders (ps_2_0: 32, ps_3_0: 224).
    pub fn pixel_shader_const_f_count(&self) -> u32 {
        if self.caps.pixel_shader_version >= crate::caps::ps_version(3, 0) {
            224
        } else {
            32
        }
    }

    /// Writes `data` to registers `start..` of one constant file (after the
    /// range check), into the recording block or the device, marking the
    /// registers in the block's mask.
    fn set_constants<T: Copy>(
        &mut self,
        start: u32,
        data: &[T],
        limit: u32,
        cap: &str,
        file: fn(&mut DeviceState) -> &mut [T],
        mask: fn(&mut StateMask) -> &mut super::state_mask::Bits,
    ) -> Result<()> {
        let range = const_range(start, data.len(), limit, cap, self.level)?;
        self.target(|s, m| {
            file(s)[range.clone()].copy_from_slice(data);
            if let Some(m) = m {
                let bits = mask(m);
                range.for_each(|i| bits.set(i));
            }
        });
        Ok(())
    }

    /// `SetVertexShaderConstantF`: `data[i]` goes to register `start + i`.
    pub fn set_vertex_shader_constant_f(&mut self, start: u32, data: &[[f32; 4]]) -> Result<()> {
        let limit = self.vertex_shader_const_f_count();
        self.set_constants(
            start,
            data,
            limit,
            "MaxVertexShaderConst",
            |s| Arc::make_mut(&mut s.vs_f).as_mut_slice(),
            |m| &mut m.vs_f,
        )
    }

    /// `SetVertexShaderConstantI`.
    pub fn set_vertex_shader_constant_i(&mut self, start: u32, data: &[[i32; 4]]) -> Result<()> {
        self.set_constants(
            start,
            data,
            MAX_CONST_I as u32,
            "integer constants",
            |s| &mut s.vs_i,
            |m| &mut m.vs_i,
        )
    }

    /// `SetVertexShaderConstantB`.
    pub fn set_vertex_shader_constant_b(&mut self, start: u32, data: &[bool]) -> Result<()> {
        self.set_constants(
            start,
            data,
            MAX_CONST_B as u32,
            "boolean constants",
            |s| &mut s.vs_b,
            |m| &mut m.vs_b,
        )
    }

    /// `SetPixelShaderConstantF`.
    pub fn set_pixel_shader_constant_f(&mut self, start: u32, data: &[[f32; 4]]) -> Result<()> {
        let limit = self.pixel_shader_const_f_count();
        self.set_constants(
            start,
            data,
            limit,
            "pixel shader float constants",
            |s| Arc::make_mut(&mut s.ps_f).as_mut_slice(),
            |m| &mut m.ps_f,
        )
    }

    /// `SetPixelShaderConstantI`.
    pub fn set_pixel_shader_constant_i(&mut self, start: u32, data: &[[i32; 4]]) -> Result<()> {
        self.set_constants(
            start,
            data,
            MAX_CONST_I as u32,
            "integer constants",
            |s| &mut s.ps_i,
            |m| &mut m.ps_i,
        )
    }

    /// `SetPixelShaderConstantB`.
    pub fn set_pixel_shader_constant_b(&mut self, start: u32, data: &[bool]) -> Result<()> {
        self.set_constants(
            start,
            data,
            MAX_CONST_B as u32,
            "boolean constants",
            |s| &mut s.ps_b,
            |m| &mut m.ps_b,
        )
    }

    /// `GetVertexShaderConstantF`.
    pub fn get_vertex_shader_constant_f(&self, start: u32, count: u32) -> Result<Vec<[f32; 4]>> {
        self.check_not_pure("GetVertexShaderConstantF")?;
        let limit = self.vertex_shader_const_f_count();
        let range = const_range(
            start,
            count as usize,
            limit,
            "MaxVertexShaderConst",
            self.level,
        )?;
        Ok(self.state.vs_f[range].to_vec())
    }

    /// `GetPixelShaderConstantF`.
    pub fn get_pixel_shader_constant_f(&self, start: u32, count: u32) -> Result<Vec<[f32; 4]>> {
        self.check_not_pure("GetPixelShaderConstantF")?;
        let limit = self.pixel_shader_const_f_count();
        let range = const_range(
            start,
            count as usize,
            limit,
            "pixel shader float constants",
            self.level,
        )?;
        Ok(self.state.ps_f[range].to_vec())
    }
}

fn const_range(
    start: u32,
    count: usize,
    limit: u32,
    cap: &str,
    level: crate::caps::FeatureLevel,
) -> Result<std::ops::Range<usize>> {
    let end = (start as usize).checked_add(count);
    match end {
        Some(end) if end <= limit as usize => Ok(start as usize..end),
        _ => Err(Error::cap_exceeded(
            ErrorKind::InvalidCall,
            cap,
            level,
            format!("{limit} registers"),
            format!("registers {start}..{}", start as u64 + count as u64),
        )),
    }
}
