//! The 69 D3DCAPS9 members by their D3D9 names, for viewers, diffs, JSON and
//! tests that hold a profile against the spec's table.

use serde_json::{Map, Value, json};

use super::{Caps, PixelShaderCaps20, VertexShaderCaps20};

/// The value of one D3DCAPS9 member.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CapValue {
    /// A DWORD / UINT count or limit.
    U32(u32),
    /// A flag member (or version token): a bit set, shown in hex.
    Flags(u32),
    /// A float member.
    F32(f32),
    /// `VS20Caps`.
    Vs20(VertexShaderCaps20),
    /// `PS20Caps`.
    Ps20(PixelShaderCaps20),
}

impl CapValue {
    /// The value as JSON: numbers as numbers, flags as integers, the shader
    /// caps as objects with their D3D9 member names.
    pub fn to_json(self) -> Value {
        match self {
            CapValue::U32(v) | CapValue::Flags(v) => json!(v),
            // Print the f32 as its shortest decimal, not the widened f64's digits.
            CapValue::F32(v) => {
                let parsed: f64 = format!("{v:?}").parse().unwrap_or(f64::from(v));
                json!(parsed)
            }
            CapValue::Vs20(v) => json!({
                "Caps": v.caps.bits(),
                "DynamicFlowControlDepth": v.dynamic_flow_control_depth,
                "NumTemps": v.num_temps,
                "StaticFlowControlDepth": v.static_flow_control_depth,
            }),
            CapValue::Ps20(v) => json!({
                "Caps": v.caps.bits(),
                "DynamicFlowControlDepth": v.dynamic_flow_control_depth,
                "NumTemps": v.num_temps,
                "StaticFlowControlDepth": v.static_flow_control_depth,
                "NumInstructionSlots": v.num_instruction_slots,
            }),
        }
    }
}

impl std::fmt::Display for CapValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CapValue::Flags(v) => write!(f, "0x{v:08X}"),
            CapValue::U32(v) => write!(f, "{v}"),
            CapValue::F32(v) => write!(f, "{v:?}"),
            CapValue::Vs20(v) => write!(
                f,
                "{{Caps 0x{:X}, DynamicFlowControlDepth {}, NumTemps {}, StaticFlowControlDepth {}}}",
                v.caps.bits(),
                v.dynamic_flow_control_depth,
                v.num_temps,
                v.static_flow_control_depth
            ),
            CapValue::Ps20(v) => write!(
                f,
                "{{Caps 0x{:X}, DynamicFlowControlDepth {}, NumTemps {}, StaticFlowControlDepth {}, NumInstructionSlots {}}}",
                v.caps.bits(),
                v.dynamic_flow_control_depth,
                v.num_temps,
                v.static_flow_control_depth,
                v.num_instruction_slots
            ),
        }
    }
}

/// One D3DCAPS9 member: its D3D9 name and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapsMember {
    /// The D3D9 member name (`MaxTextureWidth`, `TextureAddressCaps`, ...).
    pub name: &'static str,
    /// The member's value.
    pub value: CapValue,
}

impl Caps {
    /// All 69 members in D3DCAPS9 order under their D3D9 names.
    pub fn members(&self) -> [CapsMember; 69] {
        use CapValue::{F32, Flags, U32};
        let m = |name, value| CapsMember { name, value };
        [
            m("DeviceType", U32(self.device_type)),
            m("AdapterOrdinal", U32(self.adapter_ordinal)),
            m("Caps", Flags(self.caps.bits())),
            m("Caps2", Flags(self.caps2.bits())),
            m("Caps3", Flags(self.caps3.bits())),
            m(
                "PresentationIntervals",
                Flags(self.presentation_intervals.bits()),
            ),
            m("CursorCaps", Flags(self.cursor_caps.bits())),
            m("DevCaps", Flags(self.dev_caps.bits())),
            m("PrimitiveMiscCaps", Flags(self.primitive_misc_caps.bits())),
            m("RasterCaps", Flags(self.raster_caps.bits())),
            m("ZCmpCaps", Flags(self.z_cmp_caps.bits())),
            m("SrcBlendCaps", Flags(self.src_blend_caps.bits())),
            m("DestBlendCaps", Flags(self.dest_blend_caps.bits())),
            m("AlphaCmpCaps", Flags(self.alpha_cmp_caps.bits())),
            m("ShadeCaps", Flags(self.shade_caps.bits())),
            m("TextureCaps", Flags(self.texture_caps.bits())),
            m("TextureFilterCaps", Flags(self.texture_filter_caps.bits())),
            m(
                "CubeTextureFilterCaps",
                Flags(self.cube_texture_filter_caps.bits()),
            ),
            m(
                "VolumeTextureFilterCaps",
                Flags(self.volume_texture_filter_caps.bits()),
            ),
            m(
                "TextureAddressCaps",
                Flags(self.texture_address_caps.bits()),
            ),
            m(
                "VolumeTextureAddressCaps",
                Flags(self.volume_texture_address_caps.bits()),
            ),
            m("LineCaps", Flags(self.line_caps.bits())),
            m("MaxTextureWidth", U32(self.max_texture_width)),
            m("MaxTextureHeight", U32(self.max_texture_height)),
            m("MaxVolumeExtent", U32(self.max_volume_extent)),
            m("MaxTextureRepeat", U32(self.max_texture_repeat)),
            m("MaxTextureAspectRatio", U32(self.max_texture_aspect_ratio)),
            m("MaxAnisotropy", U32(self.max_anisotropy)),
            m("MaxVertexW", F32(self.max_vertex_w)),
            m("GuardBandLeft", F32(self.guard_band_left)),
            m("GuardBandTop", F32(self.guard_band_top)),
            m("GuardBandRight", F32(self.guard_band_right)),
            m("GuardBandBottom", F32(self.guard_band_bottom)),
            m("ExtentsAdjust", F32(self.extents_adjust)),
            m("StencilCaps", Flags(self.stencil_caps.bits())),
            m("FVFCaps", Flags(self.fvf_caps.bits())),
            m("TextureOpCaps", Flags(self.texture_op_caps.bits())),
            m("MaxTextureBlendStages", U32(self.max_texture_blend_stages)),
            m(
                "MaxSimultaneousTextures",
                U32(self.max_simultaneous_textures),
            ),
            m(
                "VertexProcessingCaps",
                Flags(self.vertex_processing_caps.bits()),
            ),
            m("MaxActiveLights", U32(self.max_active_lights)),
            m("MaxUserClipPlanes", U32(self.max_user_clip_planes)),
            m(
                "MaxVertexBlendMatrices",
                U32(self.max_vertex_blend_matrices),
            ),
            m(
                "MaxVertexBlendMatrixIndex",
                U32(self.max_vertex_blend_matrix_index),
            ),
            m("MaxPointSize", F32(self.max_point_size)),
            m("MaxPrimitiveCount", U32(self.max_primitive_count)),
            m("MaxVertexIndex", U32(self.max_vertex_index)),
            m("MaxStreams", U32(self.max_streams)),
            m("MaxStreamStride", U32(self.max_stream_stride)),
            m("VertexShaderVersion", Flags(self.vertex_shader_version)),
            m("MaxVertexShaderConst", U32(self.max_vertex_shader_const)),
            m("PixelShaderVersion", Flags(self.pixel_shader_version)),
            m("PixelShader1xMaxValue", F32(self.pixel_shader_1x_max_value)),
            m("DevCaps2", Flags(self.dev_caps2.bits())),
            m(
                "MaxNpatchTessellationLevel",
                F32(self.max_npatch_tessellation_level),
            ),
            m("Reserved5", U32(self.reserved5)),
            m("MasterAdapterOrdinal", U32(self.master_adapter_ordinal)),
            m("AdapterOrdinalInGroup", U32(self.adapter_ordinal_in_group)),
            m(
                "NumberOfAdaptersInGroup",
                U32(self.number_of_adapters_in_group),
            ),
            m("DeclTypes", Flags(self.decl_types.bits())),
            m("NumSimultaneousRTs", U32(self.num_simultaneous_rts)),
            m(
                "StretchRectFilterCaps",
                Flags(self.stretch_rect_filter_caps.bits()),
            ),
            m("VS20Caps", CapValue::Vs20(self.vs20_caps)),
            m("PS20Caps", CapValue::Ps20(self.ps20_caps)),
            m(
                "VertexTextureFilterCaps",
                Flags(self.vertex_texture_filter_caps.bits()),
            ),
            m(
                "MaxVShaderInstructionsExecuted",
                U32(self.max_vshader_instructions_executed),
            ),
            m(
                "MaxPShaderInstructionsExecuted",
                U32(self.max_pshader_instructions_executed),
            ),
            m(
                "MaxVertexShader30InstructionSlots",
                U32(self.max_vertex_shader30_instruction_slots),
            ),
            m(
                "MaxPixelShader30InstructionSlots",
                U32(self.max_pixel_shader30_instruction_slots),
            ),
        ]
    }

    /// The caps as one JSON object, every member under its D3D9 name, in D3DCAPS9 order.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        for member in self.members() {
            map.insert(member.name.to_string(), member.value.to_json());
        }
        Value::Object(map)
    }

    /// The members whose values differ between `self` and `other`, as (name, self, other).
    pub fn diff(&self, other: &Caps) -> Vec<(&'static str, CapValue, CapValue)> {
        self.members()
            .into_iter()
            .zip(other.members())
            .filter(|(a, b)| a.value != b.value)
            .map(|(a, b)| (a.name, a.value, b.value))
            .collect()
    }
}
