//! Capabilities: feature levels, the D3DCAPS9 structure with every member,
//! one exact profile per level, the level limits D3DCAPS9 cannot express,
//! and the format-support table.
//!
//! Invariant: what a device advertises is what it enforces. Every check in
//! the API reads these values; nothing else decides what a level allows.
//! The values follow `shared/spec/caps.md` section 6 exactly.

mod flags;
mod formats;
mod level;
mod limits;
mod members;
mod profiles;

pub use flags::*;
pub use formats::{BACK_BUFFER_FORMATS, FormatSupport, check_format};
pub use level::{DriverType, FeatureLevel};
pub use limits::{LevelLimits, internal};
pub use members::{CapValue, CapsMember};

/// `D3DVSHADERCAPS2_0`: the vs_2_x extensions a device offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexShaderCaps20 {
    /// `Caps`: D3DVS20CAPS_* flags.
    pub caps: Vs20CapsFlags,
    /// `DynamicFlowControlDepth` (0 or 24).
    pub dynamic_flow_control_depth: i32,
    /// `NumTemps` (12..32).
    pub num_temps: i32,
    /// `StaticFlowControlDepth` (1..4).
    pub static_flow_control_depth: i32,
}

/// `D3DPSHADERCAPS2_0`: the ps_2_x extensions a device offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PixelShaderCaps20 {
    /// `Caps`: D3DPS20CAPS_* flags.
    pub caps: Ps20CapsFlags,
    /// `DynamicFlowControlDepth` (0 or 24).
    pub dynamic_flow_control_depth: i32,
    /// `NumTemps` (12..32).
    pub num_temps: i32,
    /// `StaticFlowControlDepth` (0..4).
    pub static_flow_control_depth: i32,
    /// `NumInstructionSlots` (96..512).
    pub num_instruction_slots: i32,
}

/// Every member of `D3DCAPS9`, in the structure's order, with D3D9's meaning.
///
/// Field names are the D3D9 member names in snake case; [`Caps::members`]
/// lists them under their D3D9 names with their values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Caps {
    /// `DeviceType`: D3DDEVTYPE (HAL = 1, REF = 2).
    pub device_type: u32,
    /// `AdapterOrdinal`.
    pub adapter_ordinal: u32,
    /// `Caps`.
    pub caps: DriverCaps,
    /// `Caps2`.
    pub caps2: Caps2,
    /// `Caps3`.
    pub caps3: Caps3,
    /// `PresentationIntervals`.
    pub presentation_intervals: PresentIntervals,
    /// `CursorCaps`.
    pub cursor_caps: CursorCaps,
    /// `DevCaps`.
    pub dev_caps: DevCaps,
    /// `PrimitiveMiscCaps`.
    pub primitive_misc_caps: PrimitiveMiscCaps,
    /// `RasterCaps`.
    pub raster_caps: RasterCaps,
    /// `ZCmpCaps`.
    pub z_cmp_caps: CmpCaps,
    /// `SrcBlendCaps`.
    pub src_blend_caps: BlendCaps,
    /// `DestBlendCaps`.
    pub dest_blend_caps: BlendCaps,
    /// `AlphaCmpCaps`.
    pub alpha_cmp_caps: CmpCaps,
    /// `ShadeCaps`.
    pub shade_caps: ShadeCaps,
    /// `TextureCaps`.
    pub texture_caps: TextureCaps,
    /// `TextureFilterCaps`.
    pub texture_filter_caps: FilterCaps,
    /// `CubeTextureFilterCaps`.
    pub cube_texture_filter_caps: FilterCaps,
    /// `VolumeTextureFilterCaps`.
    pub volume_texture_filter_caps: FilterCaps,
    /// `TextureAddressCaps`.
    pub texture_address_caps: AddressCaps,
    /// `VolumeTextureAddressCaps`.
    pub volume_texture_address_caps: AddressCaps,
    /// `LineCaps`.
    pub line_caps: LineCaps,
    /// `MaxTextureWidth`.
    pub max_texture_width: u32,
    /// `MaxTextureHeight`.
    pub max_texture_height: u32,
    /// `MaxVolumeExtent`.
    pub max_volume_extent: u32,
    /// `MaxTextureRepeat`.
    pub max_texture_repeat: u32,
    /// `MaxTextureAspectRatio`.
    pub max_texture_aspect_ratio: u32,
    /// `MaxAnisotropy`.
    pub max_anisotropy: u32,
    /// `MaxVertexW`.
    pub max_vertex_w: f32,
    /// `GuardBandLeft`.
    pub guard_band_left: f32,
    /// `GuardBandTop`.
    pub guard_band_top: f32,
    /// `GuardBandRight`.
    pub guard_band_right: f32,
    /// `GuardBandBottom`.
    pub guard_band_bottom: f32,
    /// `ExtentsAdjust`.
    pub extents_adjust: f32,
    /// `StencilCaps`.
    pub stencil_caps: StencilCaps,
    /// `FVFCaps`.
    pub fvf_caps: FvfCaps,
    /// `TextureOpCaps`.
    pub texture_op_caps: TextureOpCaps,
    /// `MaxTextureBlendStages`.
    pub max_texture_blend_stages: u32,
    /// `MaxSimultaneousTextures`.
    pub max_simultaneous_textures: u32,
    /// `VertexProcessingCaps`.
    pub vertex_processing_caps: VertexProcessingCaps,
    /// `MaxActiveLights` (`u32::MAX` = unlimited, software vertex processing).
    pub max_active_lights: u32,
    /// `MaxUserClipPlanes`.
    pub max_user_clip_planes: u32,
    /// `MaxVertexBlendMatrices`.
    pub max_vertex_blend_matrices: u32,
    /// `MaxVertexBlendMatrixIndex`.
    pub max_vertex_blend_matrix_index: u32,
    /// `MaxPointSize`.
    pub max_point_size: f32,
    /// `MaxPrimitiveCount`.
    pub max_primitive_count: u32,
    /// `MaxVertexIndex`.
    pub max_vertex_index: u32,
    /// `MaxStreams`.
    pub max_streams: u32,
    /// `MaxStreamStride`.
    pub max_stream_stride: u32,
    /// `VertexShaderVersion` (`0xFFFE0000 | major << 8 | minor`).
    pub vertex_shader_version: u32,
    /// `MaxVertexShaderConst`.
    pub max_vertex_shader_const: u32,
    /// `PixelShaderVersion` (`0xFFFF0000 | major << 8 | minor`).
    pub pixel_shader_version: u32,
    /// `PixelShader1xMaxValue`.
    pub pixel_shader_1x_max_value: f32,
    /// `DevCaps2`.
    pub dev_caps2: DevCaps2,
    /// `MaxNpatchTessellationLevel`.
    pub max_npatch_tessellation_level: f32,
    /// `Reserved5`.
    pub reserved5: u32,
    /// `MasterAdapterOrdinal`.
    pub master_adapter_ordinal: u32,
    /// `AdapterOrdinalInGroup`.
    pub adapter_ordinal_in_group: u32,
    /// `NumberOfAdaptersInGroup`.
    pub number_of_adapters_in_group: u32,
    /// `DeclTypes`.
    pub decl_types: DeclTypeCaps,
    /// `NumSimultaneousRTs`.
    pub num_simultaneous_rts: u32,
    /// `StretchRectFilterCaps`.
    pub stretch_rect_filter_caps: FilterCaps,
    /// `VS20Caps`.
    pub vs20_caps: VertexShaderCaps20,
    /// `PS20Caps`.
    pub ps20_caps: PixelShaderCaps20,
    /// `VertexTextureFilterCaps`.
    pub vertex_texture_filter_caps: FilterCaps,
    /// `MaxVShaderInstructionsExecuted`.
    pub max_vshader_instructions_executed: u32,
    /// `MaxPShaderInstructionsExecuted`.
    pub max_pshader_instructions_executed: u32,
    /// `MaxVertexShader30InstructionSlots`.
    pub max_vertex_shader30_instruction_slots: u32,
    /// `MaxPixelShader30InstructionSlots`.
    pub max_pixel_shader30_instruction_slots: u32,
}

/// `D3DVS_VERSION(major, minor)`.
pub const fn vs_version(major: u32, minor: u32) -> u32 {
    0xFFFE_0000 | (major << 8) | minor
}

/// `D3DPS_VERSION(major, minor)`.
pub const fn ps_version(major: u32, minor: u32) -> u32 {
    0xFFFF_0000 | (major << 8) | minor
}

impl Caps {
    /// The exact profile of `level` (caps.md section 6), as a HAL device reports it.
    /// `None` for the D3D11 levels, which no driver supports.
    pub const fn for_level(level: FeatureLevel) -> Option<Caps> {
        match level {
            FeatureLevel::L9_1 => Some(profiles::level_9_1()),
            FeatureLevel::L9_2 => Some(profiles::level_9_2()),
            FeatureLevel::L9_3 => Some(profiles::level_9_3()),
            FeatureLevel::Sm3 => Some(profiles::sm3()),
            FeatureLevel::L10_0 | FeatureLevel::L10_1 | FeatureLevel::L11_0 => None,
        }
    }

    /// The caps that apply to vertex work under software vertex processing
    /// (caps.md section 3.3): these limits replace the profile's vertex-side
    /// members; the pixel side stays at the level profile.
    pub const fn with_software_vertex_processing(self) -> Caps {
        profiles::software_vertex_processing(self)
    }
}
