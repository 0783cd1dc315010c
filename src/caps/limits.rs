//! Level limits that D3DCAPS9 cannot express (caps.md section 6.1), and the
//! sizes of the crate's internal arrays, checked at compile time against
//! every advertised limit.

use super::{Caps, FeatureLevel};

/// The limits of a level that have no D3DCAPS9 member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelLimits {
    /// Largest cube-map edge in texels.
    pub max_cube_edge: u32,
    /// Whether 32-bit index buffers can be drawn from.
    pub index32: bool,
    /// Whether `D3DQUERYTYPE_OCCLUSION` is available.
    pub occlusion_query: bool,
    /// Whether stream-frequency instancing is available.
    pub instancing: bool,
    /// Vertex texture samplers usable under hardware vertex processing.
    pub vertex_texture_samplers: u32,
    /// Sampler registers of pixel shaders (s0..s15).
    pub pixel_samplers: u32,
    /// Whether RT1..3 may have a different bit depth than RT0.
    pub mrt_independent_bit_depths: bool,
}

impl LevelLimits {
    /// The limits of `level`; `None` for levels no driver supports.
    pub const fn for_level(level: FeatureLevel) -> Option<LevelLimits> {
        let (max_cube_edge, index32, occlusion_query, instancing, vertex_texture_samplers) =
            match level {
                FeatureLevel::L9_1 => (512, false, false, false, 0),
                FeatureLevel::L9_2 => (512, true, true, false, 0),
                FeatureLevel::L9_3 => (4096, true, true, true, 0),
                FeatureLevel::Sm3 => (4096, true, true, true, 4),
                _ => return None,
            };
        Some(LevelLimits {
            max_cube_edge,
            index32,
            occlusion_query,
            instancing,
            vertex_texture_samplers,
            pixel_samplers: 16,
            mrt_independent_bit_depths: false,
        })
    }
}

/// Sizes of the device's fixed arrays. Every advertised limit of every level
/// (and the software vertex-processing overlay) fits in them; the `const`
/// block below fails the build otherwise.
pub mod internal {
    /// Render-target slots (`NumSimultaneousRTs`).
    pub const MAX_RENDER_TARGETS: usize = 4;
    /// Vertex streams (`MaxStreams`).
    pub const MAX_STREAMS: usize = 16;
    /// Fixed-function texture stages (`MaxTextureBlendStages`).
    pub const MAX_TEXTURE_STAGES: usize = 8;
    /// Pixel samplers (s0..s15).
    pub const MAX_PIXEL_SAMPLERS: usize = 16;
    /// Vertex samplers (D3DVERTEXTEXTURESAMPLER0..3).
    pub const MAX_VERTEX_SAMPLERS: usize = 4;
    /// User clip planes (`MaxUserClipPlanes`).
    pub const MAX_CLIP_PLANES: usize = 6;
    /// World matrices addressable by indexed vertex blending (`MaxVertexBlendMatrixIndex` + 1).
    pub const MAX_WORLD_MATRICES: usize = 256;
    /// Vertex shader float constants (`MaxVertexShaderConst`, software: 8192).
    pub const MAX_VS_CONST_F: usize = 8192;
    /// Pixel shader float constants (ps_3_0: 224).
    pub const MAX_PS_CONST_F: usize = 224;
    /// Integer constants per stage (i0..i15).
    pub const MAX_CONST_I: usize = 16;
    /// Boolean constants per stage (b0..b15).
    pub const MAX_CONST_B: usize = 16;
    /// Lights that can be enabled at once in hardware VP (`MaxActiveLights`);
    /// software VP keeps an unbounded list.
    pub const MAX_HW_LIGHTS: usize = 8;
}

const fn check_fits(c: Caps) {
    use internal::*;
    assert!(c.num_simultaneous_rts as usize <= MAX_RENDER_TARGETS);
    assert!(c.max_streams as usize <= MAX_STREAMS);
    assert!(c.max_texture_blend_stages as usize <= MAX_TEXTURE_STAGES);
    assert!(c.max_simultaneous_textures as usize <= MAX_TEXTURE_STAGES);
    assert!(c.max_user_clip_planes as usize <= MAX_CLIP_PLANES);
    assert!((c.max_vertex_blend_matrix_index as usize) < MAX_WORLD_MATRICES);
    assert!(c.max_vertex_blend_matrices as usize <= 4);
    assert!(c.max_vertex_shader_const as usize <= MAX_VS_CONST_F);
    assert!(c.max_active_lights == u32::MAX || c.max_active_lights as usize <= MAX_HW_LIGHTS);
}

const _: () = {
    let levels = [
        FeatureLevel::L9_1,
        FeatureLevel::L9_2,
        FeatureLevel::L9_3,
        FeatureLevel::Sm3,
    ];
    let mut i = 0;
    while i < levels.len() {
        let Some(caps) = Caps::for_level(levels[i]) else {
            panic!("every supported level has caps")
        };
        check_fits(caps);
        check_fits(caps.with_software_vertex_processing());
        let Some(limits) = LevelLimits::for_level(levels[i]) else {
            panic!("every supported level has limits")
        };
        assert!(limits.vertex_texture_samplers as usize <= internal::MAX_VERTEX_SAMPLERS);
        assert!(limits.pixel_samplers as usize <= internal::MAX_PIXEL_SAMPLERS);
        i += 1;
    }
};
