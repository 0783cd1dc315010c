//! One `const fn` per level giving exactly caps.md section 6. Each level is
//! written as the one below it plus what the level adds, so a reader can hold
//! it against the spec's per-bit breakdown (section 7).

use super::*;

const fn or_filter(a: FilterCaps, b: FilterCaps) -> FilterCaps {
    FilterCaps::from_bits_retain(a.bits() | b.bits())
}

/// Level 9_1: the seed minimum plus the bits 10Level9 shows every 9_x part has.
pub(super) const fn level_9_1() -> Caps {
    let point_linear = FilterCaps::from_bits_retain(
        FilterCaps::MINFPOINT.bits()
            | FilterCaps::MINFLINEAR.bits()
            | FilterCaps::MAGFPOINT.bits()
            | FilterCaps::MAGFLINEAR.bits(),
    );
    let point_linear_mip = or_filter(
        point_linear,
        FilterCaps::from_bits_retain(FilterCaps::MIPFPOINT.bits() | FilterCaps::MIPFLINEAR.bits()),
    );
    let anisotropic = FilterCaps::from_bits_retain(
        FilterCaps::MINFANISOTROPIC.bits() | FilterCaps::MAGFANISOTROPIC.bits(),
    );
    let address = AddressCaps::from_bits_retain(
        AddressCaps::WRAP.bits()
            | AddressCaps::MIRROR.bits()
            | AddressCaps::CLAMP.bits()
            | AddressCaps::INDEPENDENTUV.bits(),
    );
    let blend = BlendCaps::from_bits_retain(
        BlendCaps::ZERO.bits()
            | BlendCaps::ONE.bits()
            | BlendCaps::SRCCOLOR.bits()
            | BlendCaps::INVSRCCOLOR.bits()
            | BlendCaps::SRCALPHA.bits()
            | BlendCaps::INVSRCALPHA.bits()
            | BlendCaps::DESTALPHA.bits()
            | BlendCaps::INVDESTALPHA.bits()
            | BlendCaps::DESTCOLOR.bits()
            | BlendCaps::INVDESTCOLOR.bits()
            | BlendCaps::BLENDFACTOR.bits(),
    );
    Caps {
        device_type: 1,
        adapter_ordinal: 0,
        caps: DriverCaps::empty(),
        caps2: Caps2::from_bits_retain(
            Caps2::DYNAMICTEXTURES.bits() | Caps2::FULLSCREENGAMMA.bits(),
        ),
        caps3: Caps3::from_bits_retain(
            Caps3::ALPHA_FULLSCREEN_FLIP_OR_DISCARD.bits()
                | Caps3::COPY_TO_VIDMEM.bits()
                | Caps3::COPY_TO_SYSTEMMEM.bits(),
        ),
        presentation_intervals: PresentIntervals::from_bits_retain(
            PresentIntervals::IMMEDIATE.bits() | PresentIntervals::ONE.bits(),
        ),
        cursor_caps: CursorCaps::empty(),
        dev_caps: DevCaps::from_bits_retain(
            DevCaps::EXECUTESYSTEMMEMORY.bits()
                | DevCaps::EXECUTEVIDEOMEMORY.bits()
                | DevCaps::TLVERTEXSYSTEMMEMORY.bits()
                | DevCaps::TLVERTEXVIDEOMEMORY.bits()
                | DevCaps::TEXTUREVIDEOMEMORY.bits()
                | DevCaps::DRAWPRIMTLVERTEX.bits()
                | DevCaps::CANRENDERAFTERFLIP.bits()
                | DevCaps::DRAWPRIMITIVES2.bits()
                | DevCaps::DRAWPRIMITIVES2EX.bits()
                | DevCaps::HWTRANSFORMANDLIGHT.bits()
                | DevCaps::HWRASTERIZATION.bits()
                | DevCaps::PUREDEVICE.bits(),
        ),
        primitive_misc_caps: PrimitiveMiscCaps::from_bits_retain(
            PrimitiveMiscCaps::MASKZ.bits()
                | PrimitiveMiscCaps::CULLNONE.bits()
                | PrimitiveMiscCaps::CULLCW.bits()
                | PrimitiveMiscCaps::CULLCCW.bits()
                | PrimitiveMiscCaps::COLORWRITEENABLE.bits()
                | PrimitiveMiscCaps::BLENDOP.bits(),
        ),
        raster_caps: RasterCaps::from_bits_retain(
            RasterCaps::ZTEST.bits()
                | RasterCaps::FOGVERTEX.bits()
                | RasterCaps::FOGTABLE.bits()
                | RasterCaps::ZFOG.bits()
                | RasterCaps::FOGRANGE.bits()
                | RasterCaps::MIPMAPLODBIAS.bits()
                | RasterCaps::ANISOTROPY.bits()
                | RasterCaps::COLORPERSPECTIVE.bits()
                | RasterCaps::SCISSORTEST.bits()
                | RasterCaps::SLOPESCALEDEPTHBIAS.bits()
                | RasterCaps::DEPTHBIAS.bits(),
        ),
        z_cmp_caps: CmpCaps::all(),
        src_blend_caps: blend,
        dest_blend_caps: blend,
        alpha_cmp_caps: CmpCaps::all(),
        shade_caps: ShadeCaps::all(),
        texture_caps: TextureCaps::from_bits_retain(
            TextureCaps::PERSPECTIVE.bits()
                | TextureCaps::POW2.bits()
                | TextureCaps::ALPHA.bits()
                | TextureCaps::TEXREPEATNOTSCALEDBYSIZE.bits()
                | TextureCaps::NONPOW2CONDITIONAL.bits()
                | TextureCaps::PROJECTED.bits()
                | TextureCaps::CUBEMAP.bits()
                | TextureCaps::VOLUMEMAP.bits()
                | TextureCaps::MIPMAP.bits()
                | TextureCaps::MIPVOLUMEMAP.bits()
                | TextureCaps::MIPCUBEMAP.bits()
                | TextureCaps::CUBEMAP_POW2.bits()
                | TextureCaps::VOLUMEMAP_POW2.bits(),
        ),
        texture_filter_caps: or_filter(point_linear_mip, anisotropic),
        cube_texture_filter_caps: point_linear_mip,
        volume_texture_filter_caps: point_linear_mip,
        texture_address_caps: address,
        volume_texture_address_caps: address,
        line_caps: LineCaps::from_bits_retain(
            LineCaps::TEXTURE.bits()
                | LineCaps::ZTEST.bits()
                | LineCaps::BLEND.bits()
                | LineCaps::ALPHACMP.bits()
                | LineCaps::FOG.bits(),
        ),
        max_texture_width: 2048,
        max_texture_height: 2048,
        max_volume_extent: 256,
        max_texture_repeat: 128,
        max_texture_aspect_ratio: 2048,
        max_anisotropy: 2,
        max_vertex_w: 0.0,
        guard_band_left: -8192.0,
        guard_band_top: -8192.0,
        guard_band_right: 8192.0,
        guard_band_bottom: 8192.0,
        extents_adjust: 0.0,
        stencil_caps: StencilCaps::all(),
        fvf_caps: FvfCaps::from_bits_retain(
            8 | FvfCaps::DONOTSTRIPELEMENTS.bits() | FvfCaps::PSIZE.bits(),
        ),
        texture_op_caps: TextureOpCaps::from_bits_retain(
            TextureOpCaps::DISABLE.bits()
                | TextureOpCaps::SELECTARG1.bits()
                | TextureOpCaps::SELECTARG2.bits()
                | TextureOpCaps::MODULATE.bits(),
        ),
        max_texture_blend_stages: 8,
        max_simultaneous_textures: 8,
        vertex_processing_caps: VertexProcessingCaps::from_bits_retain(
            VertexProcessingCaps::TEXGEN.bits()
                | VertexProcessingCaps::MATERIALSOURCE7.bits()
                | VertexProcessingCaps::DIRECTIONALLIGHTS.bits()
                | VertexProcessingCaps::POSITIONALLIGHTS.bits()
                | VertexProcessingCaps::LOCALVIEWER.bits()
                | VertexProcessingCaps::TWEENING.bits(),
        ),
        max_active_lights: 8,
        max_user_clip_planes: 6,
        max_vertex_blend_matrices: 4,
        max_vertex_blend_matrix_index: 0,
        max_point_size: 256.0,
        max_primitive_count: 65535,
        max_vertex_index: 65534,
        max_streams: 16,
        max_stream_stride: 2048,
        vertex_shader_version: vs_version(2, 0),
        max_vertex_shader_const: 256,
        pixel_shader_version: ps_version(2, 0),
        pixel_shader_1x_max_value: f32::MAX,
        dev_caps2: DevCaps2::from_bits_retain(
            DevCaps2::STREAMOFFSET.bits() | DevCaps2::CAN_STRETCHRECT_FROM_TEXTURES.bits(),
        ),
        max_npatch_tessellation_level: 0.0,
        reserved5: 0,
        master_adapter_ordinal: 0,
        adapter_ordinal_in_group: 0,
        number_of_adapters_in_group: 1,
        decl_types: DeclTypeCaps::from_bits_retain(
            DeclTypeCaps::UBYTE4.bits()
                | DeclTypeCaps::UBYTE4N.bits()
                | DeclTypeCaps::SHORT2N.bits()
                | DeclTypeCaps::SHORT4N.bits(),
        ),
        num_simultaneous_rts: 1,
        stretch_rect_filter_caps: point_linear,
        vs20_caps: VertexShaderCaps20 {
            caps: Vs20CapsFlags::empty(),
            dynamic_flow_control_depth: 0,
            num_temps: 12,
            static_flow_control_depth: 1,
        },
        ps20_caps: PixelShaderCaps20 {
            caps: Ps20CapsFlags::empty(),
            dynamic_flow_control_depth: 0,
            num_temps: 12,
            static_flow_control_depth: 0,
            num_instruction_slots: 96,
        },
        vertex_texture_filter_caps: FilterCaps::empty(),
        max_vshader_instructions_executed: 65535,
        max_pshader_instructions_executed: 96,
        max_vertex_shader30_instruction_slots: 0,
        max_pixel_shader30_instruction_slots: 0,
    }
}

/// Level 9_2: 9_1 plus separate alpha blend, mirror-once, shared stream
/// offsets, W fog, anisotropy 16 and the larger primitive/index limits.
pub(super) const fn level_9_2() -> Caps {
    let mut c = level_9_1();
    c.primitive_misc_caps = PrimitiveMiscCaps::from_bits_retain(
        c.primitive_misc_caps.bits() | PrimitiveMiscCaps::SEPARATEALPHABLEND.bits(),
    );
    c.raster_caps = RasterCaps::from_bits_retain(c.raster_caps.bits() | RasterCaps::WFOG.bits());
    c.texture_address_caps = AddressCaps::from_bits_retain(
        c.texture_address_caps.bits() | AddressCaps::MIRRORONCE.bits(),
    );
    c.volume_texture_address_caps = AddressCaps::from_bits_retain(
        c.volume_texture_address_caps.bits() | AddressCaps::MIRRORONCE.bits(),
    );
    c.max_texture_repeat = 2048;
    c.max_anisotropy = 16;
    c.max_vertex_w = 1.0e11;
    c.max_primitive_count = 1_048_575;
    c.max_vertex_index = 1_048_575;
    c.dev_caps2 = DevCaps2::from_bits_retain(
        c.dev_caps2.bits() | DevCaps2::VERTEXELEMENTSCANSHARESTREAMOFFSET.bits(),
    );
    c
}

/// Level 9_3: 9_2 plus four render targets with independent write masks,
/// border addressing, 4096 textures, ps_2_b-class PS20Caps, vs_2_a-class
/// VS20Caps, VertexShaderVersion 3.0 and half-float vertex data.
pub(super) const fn level_9_3() -> Caps {
    let mut c = level_9_2();
    c.primitive_misc_caps = PrimitiveMiscCaps::from_bits_retain(
        c.primitive_misc_caps.bits()
            | PrimitiveMiscCaps::INDEPENDENTWRITEMASKS.bits()
            | PrimitiveMiscCaps::MRTPOSTPIXELSHADERBLENDING.bits(),
    );
    c.texture_address_caps =
        AddressCaps::from_bits_retain(c.texture_address_caps.bits() | AddressCaps::BORDER.bits());
    c.volume_texture_address_caps = AddressCaps::from_bits_retain(
        c.volume_texture_address_caps.bits() | AddressCaps::BORDER.bits(),
    );
    c.max_texture_width = 4096;
    c.max_texture_height = 4096;
    c.max_texture_repeat = 8192;
    c.max_texture_aspect_ratio = 4096;
    c.vertex_shader_version = vs_version(3, 0);
    c.decl_types = DeclTypeCaps::from_bits_retain(
        c.decl_types.bits() | DeclTypeCaps::FLOAT16_2.bits() | DeclTypeCaps::FLOAT16_4.bits(),
    );
    c.num_simultaneous_rts = 4;
    c.vs20_caps = VertexShaderCaps20 {
        caps: Vs20CapsFlags::PREDICATION,
        dynamic_flow_control_depth: 24,
        num_temps: 32,
        static_flow_control_depth: 4,
    };
    c.ps20_caps = PixelShaderCaps20 {
        caps: Ps20CapsFlags::all(),
        dynamic_flow_control_depth: 24,
        num_temps: 32,
        static_flow_control_depth: 4,
        num_instruction_slots: 512,
    };
    c.vertex_texture_filter_caps =
        FilterCaps::from_bits_retain(FilterCaps::MINFPOINT.bits() | FilterCaps::MAGFPOINT.bits());
    c.max_pshader_instructions_executed = 65536;
    c.max_vertex_shader30_instruction_slots = 512;
    c
}

/// SM3: 9_3 plus ps_3_0, hardware mip generation, clip-plane-scaled points,
/// clipped pre-transformed vertices and every fixed-function texture op.
pub(super) const fn sm3() -> Caps {
    let mut c = level_9_3();
    c.caps2 = Caps2::from_bits_retain(c.caps2.bits() | Caps2::CANAUTOGENMIPMAP.bits());
    c.primitive_misc_caps = PrimitiveMiscCaps::from_bits_retain(
        c.primitive_misc_caps.bits()
            | PrimitiveMiscCaps::CLIPPLANESCALEDPOINTS.bits()
            | PrimitiveMiscCaps::CLIPTLVERTS.bits(),
    );
    c.texture_op_caps = TextureOpCaps::all();
    c.pixel_shader_version = ps_version(3, 0);
    // D3DMAX30SHADERINSTRUCTIONS for both (caps.md "Changed (sm3)"): real
    // ps_3_0 content reaches 1,300+ slots, and Wine reports the same.
    c.max_vertex_shader30_instruction_slots = 32768;
    c.max_pixel_shader30_instruction_slots = 32768;
    c
}

/// The fixed software vertex-processing overlay of caps.md section 3.3.
pub(super) const fn software_vertex_processing(mut c: Caps) -> Caps {
    c.vertex_processing_caps = VertexProcessingCaps::from_bits_retain(0x7B);
    c.max_active_lights = u32::MAX;
    c.max_user_clip_planes = 6;
    c.max_vertex_blend_matrices = 4;
    c.max_vertex_blend_matrix_index = 255;
    c.max_streams = 16;
    c.max_vertex_index = u32::MAX;
    c.vertex_shader_version = vs_version(3, 0);
    c.vs20_caps = VertexShaderCaps20 {
        caps: Vs20CapsFlags::PREDICATION,
        dynamic_flow_control_depth: 24,
        num_temps: 32,
        static_flow_control_depth: 4,
    };
    c.max_vertex_shader30_instruction_slots = 32768;
    c.max_vertex_shader_const = 8192;
    c.vertex_texture_filter_caps = FilterCaps::from_bits_retain(0x0300_0300);
    c
}
