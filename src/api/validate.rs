//! Draw-time state validation (caps.md section 8): every state value a draw
//! would use is held against the level's caps. A draw that fails renders
//! nothing and returns `InvalidCall`; `validate_device` returns the specific
//! D3D9 code.
//!
//! Error-kind choices where D3D9 has no specific code: address modes,
//! comparison functions, stencil ops, W-buffering, separate alpha and write
//! masks report `D3DERR_CONFLICTINGRENDERSTATE`; too many lights
//! `D3DERR_TOOMANYOPERATIONS`.

use super::device::Device;
use crate::caps::{AddressCaps, FilterCaps, check_format};
use crate::error::{Error, ErrorKind, Result};
use crate::format::{ResourceKind, Usage};
use crate::resource::BaseTexture;
use crate::state::*;

use RenderStateType as Rs;

fn fail(kind: ErrorKind, message: String) -> Result<()> {
    Err(Error::new(kind, message))
}

impl Device {
    /// `ValidateDevice`: whether the current state can be rendered in one
    /// pass, as the specific D3D9 code; on success, the number of passes (1).
    pub fn validate_device(&self) -> Result<u32> {
        self.validate_state()?;
        Ok(1)
    }

    /// Checks every state a draw would use against the caps.
    pub(crate) fn validate_state(&self) -> Result<()> {
        self.validate_output_states()?;
        self.validate_samplers()?;
        if self.state.pixel_shader.is_none() {
            self.validate_texture_stages()?;
        }
        if self.state.vertex_shader.is_none() {
            self.validate_lights()?;
        }
        Ok(())
    }

    fn enum_state<T: StateValue>(&self, key: Rs) -> Result<T> {
        let raw = self.state.rs(key);
        T::from_raw(raw).ok_or_else(|| {
            Error::new(
                ErrorKind::ConflictingRenderState,
                format!(
                    "{} is {raw}, which is not one of its values",
                    key.d3d_name()
                ),
            )
        })
    }

    fn check_cmp(&self, key: Rs, caps: u32, cap_name: &str) -> Result<()> {
        let f: CmpFunc = self.enum_state(key)?;
        if caps & f.cap_bit() == 0 {
            return Err(Error::cap_missing(
                ErrorKind::ConflictingRenderState,
                &format!("{} = {f:?}", key.d3d_name()),
                cap_name,
                self.level,
            ));
        }
        Ok(())
    }

    fn check_stencil_op(&self, key: Rs) -> Result<()> {
        let op: StencilOp = self.enum_state(key)?;
        if self.caps.stencil_caps.bits() & op.cap_bit() == 0 {
            return Err(Error::cap_missing(
                ErrorKind::ConflictingRenderState,
                &format!("{} = {op:?}", key.d3d_name()),
                "StencilCaps",
                self.level,
            ));
        }
        Ok(())
    }

    fn check_blend(&self, key: Rs, src: bool) -> Result<()> {
        let b: Blend = self
            .enum_state(key)
            .map_err(|e| Error::new(ErrorKind::UnsupportedFactorValue, e.message().to_string()))?;
        let (caps, name) = if src {
            (self.caps.src_blend_caps.bits(), "SrcBlendCaps")
        } else {
            (self.caps.dest_blend_caps.bits(), "DestBlendCaps")
        };
        if caps & b.cap_bit() == 0 || matches!(b, Blend::SrcColor2 | Blend::InvSrcColor2) {
            return Err(Error::cap_missing(
                ErrorKind::UnsupportedFactorValue,
                &format!("{} = {b:?}", key.d3d_name()),
                &format!("{name} bit 0x{:X}", b.cap_bit()),
                self.level,
            ));
        }
        Ok(())
    }

    fn check_blend_op(&self, key: Rs) -> Result<()> {
        let op: BlendOp = self.enum_state(key)?;
        if op != BlendOp::Add
            && !self
                .caps
                .primitive_misc_caps
                .contains(crate::caps::PrimitiveMiscCaps::BLENDOP)
        {
            return Err(Error::cap_missing(
                ErrorKind::ConflictingRenderState,
                &format!("{} = {op:?}", key.d3d_name()),
                "D3DPMISCCAPS_BLENDOP",
                self.level,
            ));
        }
        Ok(())
    }

    fn validate_output_states(&self) -> Result<()> {
        let s = &self.state;
        let _: FillMode = self.enum_state(Rs::FillMode)?;
        let _: Cull = self.enum_state(Rs::CullMode)?;
        // D3DSHADE_PHONG is accepted and renders as Gouraud, as Windows drivers do (Wine's test_shademode).
        let _: ShadeMode = self.enum_state(Rs::ShadeMode)?;
        let z: ZBufferType = self.enum_state(Rs::ZEnable)?;
        if z == ZBufferType::UseW
            && !self
                .caps
                .raster_caps
                .contains(crate::caps::RasterCaps::WBUFFER)
        {
            return Err(Error::cap_missing(
                ErrorKind::ConflictingRenderState,
                "D3DRS_ZENABLE = D3DZB_USEW",
                "D3DPRASTERCAPS_WBUFFER",
                self.level,
            ));
        }
        if z != ZBufferType::False {
            self.check_cmp(Rs::ZFunc, self.caps.z_cmp_caps.bits(), "ZCmpCaps")?;
        }
        if s.rs_bool(Rs::AlphaTestEnable) {
            self.check_cmp(
                Rs::AlphaFunc,
                self.caps.alpha_cmp_caps.bits(),
                "AlphaCmpCaps",
            )?;
        }
        if s.rs_bool(Rs::StencilEnable) {
            self.check_cmp(Rs::StencilFunc, 0xFF, "D3DCMPFUNC")?;
            for key in [Rs::StencilFail, Rs::StencilZFail, Rs::StencilPass] {
                self.check_stencil_op(key)?;
            }
            if s.rs_bool(Rs::TwoSidedStencilMode) {
                if !self
                    .caps
                    .stencil_caps
                    .contains(crate::caps::StencilCaps::TWOSIDED)
                {
                    return Err(Error::cap_missing(
                        ErrorKind::ConflictingRenderState,
                        "D3DRS_TWOSIDEDSTENCILMODE",
                        "D3DSTENCILCAPS_TWOSIDED",
                        self.level,
                    ));
                }
                self.check_cmp(Rs::CcwStencilFunc, 0xFF, "D3DCMPFUNC")?;
                for key in [Rs::CcwStencilFail, Rs::CcwStencilZFail, Rs::CcwStencilPass] {
                    self.check_stencil_op(key)?;
                }
            }
        }
        let separate = s.rs_bool(Rs::SeparateAlphaBlendEnable);
        if separate
            && !self
                .caps
                .primitive_misc_caps
                .contains(crate::caps::PrimitiveMiscCaps::SEPARATEALPHABLEND)
        {
            return Err(Error::cap_missing(
                ErrorKind::ConflictingRenderState,
                "D3DRS_SEPARATEALPHABLENDENABLE = TRUE",
                "D3DPMISCCAPS_SEPARATEALPHABLEND",
                self.level,
            ));
        }
        if s.rs_bool(Rs::AlphaBlendEnable) {
            self.check_blend(Rs::SrcBlend, true)?;
            self.check_blend(Rs::DestBlend, false)?;
            self.check_blend_op(Rs::BlendOp)?;
            if separate {
                self.check_blend(Rs::SrcBlendAlpha, true)?;
                self.check_blend(Rs::DestBlendAlpha, false)?;
                self.check_blend_op(Rs::BlendOpAlpha)?;
            }
            for (i, rt) in self.render_targets.iter().enumerate() {
                let Some(rt) = rt else { continue };
                let format = rt.desc().format;
                if check_format(
                    self.level,
                    ResourceKind::Surface,
                    format,
                    Usage::QUERY_POSTPIXELSHADER_BLENDING,
                    false,
                )
                .is_err()
                {
                    return fail(
                        ErrorKind::ConflictingRenderState,
                        format!(
                            "alpha blending into render target {i} of format {format:?}, which lacks D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING at level {}",
                            self.level
                        ),
                    );
                }
            }
        }
        // Independent masks: COLORWRITEENABLE1..3 changed to differ from RT0's mask.
        if !self
            .caps
            .primitive_misc_caps
            .contains(crate::caps::PrimitiveMiscCaps::INDEPENDENTWRITEMASKS)
        {
            let rt0 = s.rs(Rs::ColorWriteEnable) & 0xF;
            for key in [
                Rs::ColorWriteEnable1,
                Rs::ColorWriteEnable2,
                Rs::ColorWriteEnable3,
            ] {
                let v = s.rs(key) & 0xF;
                if v != 0xF && v != rt0 {
                    return Err(Error::cap_missing(
                        ErrorKind::ConflictingRenderState,
                        &format!(
                            "{} = 0x{v:X} while D3DRS_COLORWRITEENABLE = 0x{rt0:X}",
                            key.d3d_name()
                        ),
                        "D3DPMISCCAPS_INDEPENDENTWRITEMASKS",
                        self.level,
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_samplers(&self) -> Result<()> {
        for (slot, texture) in self.state.textures.iter().enumerate() {
            let Some(texture) = texture else { continue };
            self.validate_sampler(Sampler::from_slot(slot), slot, texture)?;
        }
        Ok(())
    }

    fn validate_sampler(&self, sampler: Sampler, slot: usize, texture: &BaseTexture) -> Result<()> {
        let raw = &self.state.sampler[slot];
        let get = |k: SamplerStateType| raw[k.raw() as usize];
        let desc = texture.desc();
        let name = |k: SamplerStateType| format!("sampler {} D3DSAMP_{:?}", sampler.raw(), k);
        let (address_caps, filter_caps, kind, cap_name) = match texture {
            BaseTexture::Texture(_) => (
                self.caps.texture_address_caps,
                self.caps.texture_filter_caps,
                ResourceKind::Texture,
                "TextureFilterCaps",
            ),
            BaseTexture::Cube(_) => (
                self.caps.texture_address_caps,
                self.caps.cube_texture_filter_caps,
                ResourceKind::CubeTexture,
                "CubeTextureFilterCaps",
            ),
            BaseTexture::Volume(_) => (
                self.caps.volume_texture_address_caps,
                self.caps.volume_texture_filter_caps,
                ResourceKind::VolumeTexture,
                "VolumeTextureFilterCaps",
            ),
        };
        let is_vertex = matches!(sampler, Sampler::Vertex(_));
        if is_vertex
            && check_format(
                self.level,
                kind,
                desc.format,
                Usage::QUERY_VERTEXTEXTURE,
                self.software_vp,
            )
            .is_err()
        {
            return fail(
                ErrorKind::WrongTextureFormat,
                format!(
                    "vertex sampler {}: {:?} lacks D3DUSAGE_QUERY_VERTEXTEXTURE at level {}",
                    sampler.raw(),
                    desc.format,
                    self.level
                ),
            );
        }
        let npot = !desc.width.is_power_of_two() || !desc.height.is_power_of_two();
        let axes: &[SamplerStateType] = match texture {
            BaseTexture::Volume(_) => &[
                SamplerStateType::AddressU,
                SamplerStateType::AddressV,
                SamplerStateType::AddressW,
            ],
            _ => &[SamplerStateType::AddressU, SamplerStateType::AddressV],
        };
        for &axis in axes {
            let v = get(axis);
            let Some(mode) = TextureAddress::from_raw(v) else {
                return fail(
                    ErrorKind::ConflictingRenderState,
                    format!("{} = {v} is not a D3DTEXTUREADDRESS", name(axis)),
                );
            };
            if !address_caps.contains(AddressCaps::from_bits_retain(mode.cap_bit())) {
                return Err(Error::cap_missing(
                    ErrorKind::ConflictingRenderState,
                    &format!("{} = {mode:?}", name(axis)),
                    &format!("address caps bit D3DPTADDRESSCAPS 0x{:X}", mode.cap_bit()),
                    self.level,
                ));
            }
            if npot && mode == TextureAddress::Wrap && matches!(texture, BaseTexture::Texture(_)) {
                return fail(
                    ErrorKind::ConflictingRenderState,
                    format!(
                        "{} = WRAP on a non-power-of-two {}x{} texture (D3DPTEXTURECAPS_NONPOW2CONDITIONAL allows no WRAP)",
                        name(axis),
                        desc.width,
                        desc.height
                    ),
                );
            }
        }
        let filter_kind = ErrorKind::UnsupportedTextureFilter;
        let cube_or_volume = !matches!(texture, BaseTexture::Texture(_));
        let mut uses_filtering = false;
        for (key, min) in [
            (SamplerStateType::MinFilter, true),
            (SamplerStateType::MagFilter, false),
        ] {
            let v = get(key);
            let Some(mut f) = TextureFilter::from_raw(v) else {
                return fail(
                    filter_kind,
                    format!("{} = {v} is not a D3DTEXTUREFILTERTYPE", name(key)),
                );
            };
            // D3DTEXF_ANISOTROPIC on cube and volume textures degrades to LINEAR.
            if f == TextureFilter::Anisotropic && cube_or_volume {
                f = TextureFilter::Linear;
            }
            let bit = match (f, min) {
                (TextureFilter::Point, true) => FilterCaps::MINFPOINT,
                (TextureFilter::Linear, true) => FilterCaps::MINFLINEAR,
                (TextureFilter::Anisotropic, true) => FilterCaps::MINFANISOTROPIC,
                (TextureFilter::Point, false) => FilterCaps::MAGFPOINT,
                (TextureFilter::Linear, false) => FilterCaps::MAGFLINEAR,
                (TextureFilter::Anisotropic, false) => FilterCaps::MAGFANISOTROPIC,
                _ => FilterCaps::empty(),
            };
            if bit.is_empty() || !filter_caps.contains(bit) {
                return Err(Error::cap_missing(
                    filter_kind,
                    &format!("{} = {f:?}", name(key)),
                    cap_name,
                    self.level,
                ));
            }
            uses_filtering |= f != TextureFilter::Point;
        }
        let v = get(SamplerStateType::MipFilter);
        let mip = TextureFilter::from_raw(v);
        let mip_bit = match mip {
            Some(TextureFilter::None) => Some(FilterCaps::empty()),
            Some(TextureFilter::Point) => Some(FilterCaps::MIPFPOINT),
            Some(TextureFilter::Linear) => Some(FilterCaps::MIPFLINEAR),
            _ => None,
        };
        match mip_bit {
            Some(bit) if filter_caps.contains(bit) => {}
            _ => {
                return Err(Error::cap_missing(
                    filter_kind,
                    &format!("{} = {v}", name(SamplerStateType::MipFilter)),
                    cap_name,
                    self.level,
                ));
            }
        }
        uses_filtering |= mip == Some(TextureFilter::Linear);
        if uses_filtering
            && check_format(
                self.level,
                kind,
                desc.format,
                Usage::QUERY_FILTER,
                self.software_vp,
            )
            .is_err()
        {
            return fail(
                filter_kind,
                format!(
                    "sampler {}: {:?} cannot be filtered at level {} (no D3DUSAGE_QUERY_FILTER); use D3DTEXF_POINT",
                    sampler.raw(),
                    desc.format,
                    self.level
                ),
            );
        }
        let aniso = get(SamplerStateType::MaxAnisotropy);
        if aniso > self.caps.max_anisotropy {
            return Err(Error::cap_exceeded(
                filter_kind,
                "MaxAnisotropy",
                self.level,
                self.caps.max_anisotropy,
                format!("{} = {aniso}", name(SamplerStateType::MaxAnisotropy)),
            ));
        }
        Ok(())
    }

    fn validate_texture_stages(&self) -> Result<()> {
        let op_caps = self.caps.texture_op_caps.bits();
        let misc = self.caps.primitive_misc_caps;
        let arg_ok = |arg: TextureArg| match arg.select() {
            5 => misc.contains(crate::caps::PrimitiveMiscCaps::TSSARGTEMP),
            6 => misc.contains(crate::caps::PrimitiveMiscCaps::PERSTAGECONSTANT),
            s => s <= 4,
        };
        let stages = self.caps.max_texture_blend_stages as usize;
        for (i, stage) in self.state.stage.iter().enumerate() {
            let get = |k: TextureStageStateType| stage[k.raw() as usize];
            let color_op = get(TextureStageStateType::ColorOp);
            let Some(cop) = TextureOp::from_raw(color_op) else {
                return fail(
                    ErrorKind::UnsupportedColorOperation,
                    format!("stage {i} D3DTSS_COLOROP = {color_op} is not a D3DTEXTUREOP"),
                );
            };
            if cop == TextureOp::Disable {
                break;
            }
            if i >= stages {
                return Err(Error::cap_exceeded(
                    ErrorKind::TooManyOperations,
                    "MaxTextureBlendStages",
                    self.level,
                    stages,
                    format!("stage {i} enabled"),
                ));
            }
            let aop_raw = get(TextureStageStateType::AlphaOp);
            let aop = TextureOp::from_raw(aop_raw);
            for (op, kind, name) in [
                (Some(cop), ErrorKind::UnsupportedColorOperation, "COLOROP"),
                (aop, ErrorKind::UnsupportedAlphaOperation, "ALPHAOP"),
            ] {
                let Some(op) = op else {
                    return fail(
                        kind,
                        format!("stage {i} D3DTSS_{name} = {aop_raw} is not a D3DTEXTUREOP"),
                    );
                };
                if op_caps & op.cap_bit() == 0 {
                    return Err(Error::cap_missing(
                        kind,
                        &format!("stage {i} D3DTSS_{name} = {op:?}"),
                        &format!("TextureOpCaps bit 0x{:X}", op.cap_bit()),
                        self.level,
                    ));
                }
            }
            for (key, kind) in [
                (
                    TextureStageStateType::ColorArg0,
                    ErrorKind::UnsupportedColorArg,
                ),
                (
                    TextureStageStateType::ColorArg1,
                    ErrorKind::UnsupportedColorArg,
                ),
                (
                    TextureStageStateType::ColorArg2,
                    ErrorKind::UnsupportedColorArg,
                ),
                (
                    TextureStageStateType::ResultArg,
                    ErrorKind::UnsupportedColorArg,
                ),
                (
                    TextureStageStateType::AlphaArg0,
                    ErrorKind::UnsupportedAlphaArg,
                ),
                (
                    TextureStageStateType::AlphaArg1,
                    ErrorKind::UnsupportedAlphaArg,
                ),
                (
                    TextureStageStateType::AlphaArg2,
                    ErrorKind::UnsupportedAlphaArg,
                ),
            ] {
                let arg = TextureArg(get(key));
                if !arg.is_valid() || !arg_ok(arg) {
                    return fail(
                        kind,
                        format!(
                            "stage {i} D3DTSS_{:?} = 0x{:X}: {} at level {}",
                            key,
                            arg.0,
                            match arg.select() {
                                5 => "D3DTA_TEMP needs D3DPMISCCAPS_TSSARGTEMP".to_string(),
                                6 =>
                                    "D3DTA_CONSTANT needs D3DPMISCCAPS_PERSTAGECONSTANT".to_string(),
                                _ => "not a D3DTA value".to_string(),
                            },
                            self.level
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    fn validate_lights(&self) -> Result<()> {
        if !self.state.rs_bool(Rs::Lighting) {
            return Ok(());
        }
        let max = self.vertex_caps().max_active_lights;
        let enabled = self.state.lights.values().filter(|l| l.enabled).count();
        if enabled as u64 > u64::from(max) {
            return Err(Error::cap_exceeded(
                ErrorKind::TooManyOperations,
                "MaxActiveLights",
                self.level,
                max,
                format!("{enabled} enabled lights"),
            ));
        }
        Ok(())
    }
}
