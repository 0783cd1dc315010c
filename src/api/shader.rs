//! Shader objects (`IDirect3DVertexShader9`, `IDirect3DPixelShader9`):
//! bytecode decoded and validated once, at creation, against the device's
//! caps; later stages take the decoded program.

use std::sync::Arc;

use super::device::Device;
use crate::caps::{Caps, FeatureLevel};
use crate::error::{Error, ErrorKind, Result};
use crate::shader::limits::{Ps20Caps, Vs20Caps};
use crate::shader::object::ShaderInner;
pub use crate::shader::object::{PixelShader, VertexShader};
use crate::shader::{ShaderError, ShaderErrorKind, ShaderLimits, ShaderType};

impl Caps {
    /// The limits shader validation holds programs against at `level`.
    pub fn shader_limits(&self, level: FeatureLevel, software_vp: bool) -> ShaderLimits {
        let non_negative = |v: i32| u32::try_from(v).unwrap_or(0);
        ShaderLimits {
            vertex_shader_version: self.vertex_shader_version,
            pixel_shader_version: self.pixel_shader_version,
            max_vertex_shader_const: self.max_vertex_shader_const,
            vs20: Vs20Caps {
                caps: self.vs20_caps.caps.bits(),
                dynamic_flow_control_depth: non_negative(self.vs20_caps.dynamic_flow_control_depth),
                num_temps: non_negative(self.vs20_caps.num_temps),
                static_flow_control_depth: non_negative(self.vs20_caps.static_flow_control_depth),
            },
            ps20: Ps20Caps {
                caps: self.ps20_caps.caps.bits(),
                dynamic_flow_control_depth: non_negative(self.ps20_caps.dynamic_flow_control_depth),
                num_temps: non_negative(self.ps20_caps.num_temps),
                static_flow_control_depth: non_negative(self.ps20_caps.static_flow_control_depth),
                num_instruction_slots: non_negative(self.ps20_caps.num_instruction_slots),
            },
            max_vertex_shader30_instruction_slots: self.max_vertex_shader30_instruction_slots,
            max_pixel_shader30_instruction_slots: self.max_pixel_shader30_instruction_slots,
            software_vertex_processing: software_vp,
            level_name: level.name(),
        }
    }
}

/// Maps a toolchain error to the device's: cannot-run is NotAvailable, the rest InvalidCall.
pub(crate) fn shader_error(call: &str, e: ShaderError) -> Error {
    let kind = match e.kind {
        ShaderErrorKind::NotAvailable => ErrorKind::NotAvailable,
        _ => ErrorKind::InvalidCall,
    };
    Error::new(kind, format!("{call}: {e}"))
}

impl Device {
    fn create_shader(&self, tokens: &[u32], pixel: bool) -> Result<Arc<ShaderInner>> {
        let call = if pixel {
            "CreatePixelShader"
        } else {
            "CreateVertexShader"
        };
        let program = crate::shader::decode(tokens).map_err(|e| shader_error(call, e))?;
        let is_pixel = program.version.shader_type == ShaderType::Pixel;
        if is_pixel != pixel {
            return Err(Error::invalid_call(format!(
                "{call}: the bytecode is a {} shader",
                if is_pixel { "pixel" } else { "vertex" }
            )));
        }
        // Pixel shaders are held against the level; vertex shaders against
        // the caps of the current vertex processing (software: vs_3_0, 8192 constants).
        let caps = if pixel { self.caps } else { self.vertex_caps() };
        let limits = caps.shader_limits(self.level, !pixel && self.software_vp);
        let info = crate::shader::validate(&program, &limits).map_err(|e| shader_error(call, e))?;
        let constants = program.constant_table().ok().flatten();
        Ok(Arc::new(ShaderInner {
            tokens: tokens.to_vec(),
            program,
            info,
            constants,
        }))
    }

    /// `CreateVertexShader`: decodes and validates the bytecode against the
    /// vertex caps (VertexShaderVersion, VS20Caps, constants, slots).
    /// vs_1_1 is accepted at every level (VertexShaderVersion is 2.0 or
    /// more everywhere) and runs with its own `mov a0.x` (floor) and
    /// four-component `expp`.
    pub fn create_vertex_shader(&mut self, tokens: &[u32]) -> Result<VertexShader> {
        Ok(VertexShader(self.create_shader(tokens, false)?))
    }

    /// `CreatePixelShader`: decodes and validates the bytecode against the
    /// level (PixelShaderVersion, PS20Caps, slots). Shader model 1 is `NotAvailable`.
    pub fn create_pixel_shader(&mut self, tokens: &[u32]) -> Result<PixelShader> {
        Ok(PixelShader(self.create_shader(tokens, true)?))
    }
}
