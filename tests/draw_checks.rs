//! Draw-time state checks (caps.md section 8), one per cap family: a draw
//! with a state the level cannot render fails with InvalidCall naming the
//! cap and renders nothing; `validate_device` returns the specific D3D9
//! code. Also the draw call's own checks (counts, indices, buffer bounds).

use warp9::api::PrimitiveType;
use warp9::caps::{DriverType, FeatureLevel};
use warp9::state::*;
use warp9::{
    Device, DeviceDesc, ErrorKind, Format, Fvf, Pool, RenderState, SamplerState, TextureStageState,
    Usage,
};

/// A device at `level` with a pre-transformed triangle bound (3 vertices, XYZRHW | DIFFUSE).
fn setup(level: FeatureLevel) -> Device {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[level],
        back_buffer: (32, 32, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        ..DeviceDesc::default()
    })
    .unwrap();
    let fvf = Fvf::XYZRHW | Fvf::DIFFUSE;
    let verts: [[f32; 5]; 3] = [
        [0.0, 0.0, 0.5, 1.0, f32::from_bits(0xFFFF_0000)],
        [31.0, 0.0, 0.5, 1.0, f32::from_bits(0xFF00_FF00)],
        [0.0, 31.0, 0.5, 1.0, f32::from_bits(0xFF00_00FF)],
    ];
    let bytes: Vec<u8> = verts
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let vb = d
        .create_vertex_buffer(bytes.len() as u32, Usage::WRITE_ONLY, fvf, Pool::Managed)
        .unwrap();
    vb.write(0, &bytes).unwrap();
    d.set_fvf(fvf).unwrap();
    d.set_stream_source(0, Some(&vb), 0, 20).unwrap();
    d
}

fn draw(d: &mut Device) -> warp9::Result<()> {
    d.draw_primitive(PrimitiveType::TriangleList, 0, 1)
}

/// The draw fails naming `names`, validate_device reports `code`, and the device recovers.
#[track_caller]
fn assert_refused(d: &mut Device, code: ErrorKind, names: &[&str]) {
    let e = draw(d).expect_err("the draw must be refused");
    assert_eq!(e.kind(), ErrorKind::InvalidCall, "{e}");
    for n in names {
        assert!(
            e.message().contains(n),
            "draw error {:?} should name {n:?}",
            e.message()
        );
    }
    let v = d
        .validate_device()
        .expect_err("validate_device must fail too");
    assert_eq!(v.kind(), code, "{v}");
}

fn texture(d: &mut Device) -> warp9::Texture {
    d.create_texture(16, 16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap()
}

#[test]
fn a_valid_draw_is_accepted_and_validates_in_one_pass() {
    let mut d = setup(FeatureLevel::L9_1);
    draw(&mut d).unwrap();
    assert_eq!(d.validate_device().unwrap(), 1);
}

#[test]
fn address_modes_follow_texture_address_caps() {
    let mut d = setup(FeatureLevel::L9_1);
    let t = texture(&mut d);
    d.set_texture(0, Some(t.into())).unwrap();
    d.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Border))
        .unwrap();
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["ADDRESS", "9_1"],
    );
    d.set_sampler_state(0, SamplerState::AddressU(TextureAddress::MirrorOnce))
        .unwrap();
    assert_refused(&mut d, ErrorKind::ConflictingRenderState, &["MirrorOnce"]);
    d.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Clamp))
        .unwrap();
    draw(&mut d).unwrap();
    let mut d2 = setup(FeatureLevel::L9_2);
    let t = texture(&mut d2);
    d2.set_texture(0, Some(t.into())).unwrap();
    d2.set_sampler_state(0, SamplerState::AddressV(TextureAddress::MirrorOnce))
        .unwrap();
    draw(&mut d2).unwrap();
    d2.set_sampler_state(0, SamplerState::AddressV(TextureAddress::Border))
        .unwrap();
    assert_refused(&mut d2, ErrorKind::ConflictingRenderState, &["9_2"]);
    d2.set_sampler_state_raw(0, 2, 77).unwrap();
    assert_refused(&mut d2, ErrorKind::ConflictingRenderState, &["77"]);
}

#[test]
fn npot_textures_refuse_wrap() {
    let mut d = setup(FeatureLevel::L9_1);
    let t = d
        .create_texture(12, 16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    d.set_texture(0, Some(t.into())).unwrap();
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["NONPOW2CONDITIONAL"],
    );
    d.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Clamp))
        .unwrap();
    d.set_sampler_state(0, SamplerState::AddressV(TextureAddress::Clamp))
        .unwrap();
    draw(&mut d).unwrap();
}

#[test]
fn filters_follow_filter_caps_and_format_filterability() {
    let mut d = setup(FeatureLevel::L9_3);
    let t = texture(&mut d);
    d.set_texture(0, Some(t.into())).unwrap();
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::GaussianQuad))
        .unwrap();
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedTextureFilter,
        &["TextureFilterCaps"],
    );
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Anisotropic))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MaxAnisotropy(16))
        .unwrap();
    draw(&mut d).unwrap();
    d.set_sampler_state(0, SamplerState::MaxAnisotropy(17))
        .unwrap();
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedTextureFilter,
        &["MaxAnisotropy", "16"],
    );
    d.set_sampler_state(0, SamplerState::MaxAnisotropy(1))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::None))
        .unwrap();
    assert_refused(&mut d, ErrorKind::UnsupportedTextureFilter, &["MagFilter"]);
    d.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Point))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MipFilter(TextureFilter::Anisotropic))
        .unwrap();
    assert_refused(&mut d, ErrorKind::UnsupportedTextureFilter, &["MipFilter"]);
    d.set_sampler_state(0, SamplerState::MipFilter(TextureFilter::Linear))
        .unwrap();
    draw(&mut d).unwrap();
    // A float format that fails D3DUSAGE_QUERY_FILTER may only be point-sampled.
    let f = d
        .create_texture(16, 16, 1, Usage::empty(), Format::R32F, Pool::Managed)
        .unwrap();
    d.set_texture(0, Some(f.into())).unwrap();
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Linear))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MipFilter(TextureFilter::None))
        .unwrap();
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedTextureFilter,
        &["R32F", "QUERY_FILTER"],
    );
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Point))
        .unwrap();
    draw(&mut d).unwrap();
    // Anisotropic on a cube texture degrades to linear instead of failing.
    let c = d
        .create_cube_texture(16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    d.set_texture(0, Some(c.into())).unwrap();
    d.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Anisotropic))
        .unwrap();
    draw(&mut d).unwrap();
}

#[test]
fn blend_factors_and_ops_follow_blend_caps() {
    let mut d = setup(FeatureLevel::L9_1);
    d.set_render_state(RenderState::AlphaBlendEnable(true));
    d.set_render_state(RenderState::SrcBlend(Blend::SrcAlphaSat));
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedFactorValue,
        &["SrcBlendCaps", "SrcAlphaSat"],
    );
    d.set_render_state(RenderState::SrcBlend(Blend::BothSrcAlpha));
    assert_refused(&mut d, ErrorKind::UnsupportedFactorValue, &["BothSrcAlpha"]);
    d.set_render_state(RenderState::SrcBlend(Blend::InvBlendFactor));
    d.set_render_state(RenderState::DestBlend(Blend::DestColor));
    draw(&mut d).unwrap();
    d.set_render_state_raw(20, 99).unwrap();
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedFactorValue,
        &["D3DRS_DESTBLEND", "99"],
    );
    // With blending off, factors are not used and not checked.
    d.set_render_state(RenderState::AlphaBlendEnable(false));
    draw(&mut d).unwrap();
    d.set_render_state(RenderState::AlphaBlendEnable(true));
    d.set_render_state(RenderState::DestBlend(Blend::Zero));
    d.set_render_state(RenderState::BlendOp(BlendOp::RevSubtract));
    draw(&mut d).unwrap();
}

#[test]
fn separate_alpha_blend_needs_9_2() {
    let mut d = setup(FeatureLevel::L9_1);
    d.set_render_state(RenderState::SeparateAlphaBlendEnable(true));
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["SEPARATEALPHABLEND", "9_1"],
    );
    let mut d2 = setup(FeatureLevel::L9_2);
    d2.set_render_state(RenderState::SeparateAlphaBlendEnable(true));
    d2.set_render_state(RenderState::AlphaBlendEnable(true));
    d2.set_render_state(RenderState::SrcBlendAlpha(Blend::SrcAlphaSat));
    assert_refused(
        &mut d2,
        ErrorKind::UnsupportedFactorValue,
        &["SRCBLENDALPHA"],
    );
    d2.set_render_state(RenderState::SrcBlendAlpha(Blend::One));
    draw(&mut d2).unwrap();
}

#[test]
fn compare_functions_and_stencil_ops_must_be_values() {
    let mut d = setup(FeatureLevel::L9_1);
    d.set_render_state_raw(23, 0).unwrap();
    assert_refused(&mut d, ErrorKind::ConflictingRenderState, &["D3DRS_ZFUNC"]);
    d.set_render_state(RenderState::ZFunc(CmpFunc::Greater));
    draw(&mut d).unwrap();
    d.set_render_state(RenderState::AlphaTestEnable(true));
    d.set_render_state_raw(25, 9).unwrap();
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["D3DRS_ALPHAFUNC"],
    );
    d.set_render_state(RenderState::AlphaFunc(CmpFunc::NotEqual));
    d.set_render_state(RenderState::StencilEnable(true));
    d.set_render_state_raw(55, 12).unwrap();
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["D3DRS_STENCILPASS"],
    );
    d.set_render_state(RenderState::StencilPass(StencilOp::Incr));
    d.set_render_state(RenderState::TwoSidedStencilMode(true));
    d.set_render_state(RenderState::CcwStencilFunc(CmpFunc::Equal));
    draw(&mut d).unwrap();
    // W-buffering is not in RasterCaps at any level.
    d.set_render_state(RenderState::ZEnable(ZBufferType::UseW));
    assert_refused(&mut d, ErrorKind::ConflictingRenderState, &["WBUFFER"]);
}

#[test]
fn texture_ops_follow_texture_op_caps() {
    let mut d = setup(FeatureLevel::L9_3);
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Add))
        .unwrap();
    assert_refused(
        &mut d,
        ErrorKind::UnsupportedColorOperation,
        &["TextureOpCaps", "Add", "9_3"],
    );
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Modulate))
        .unwrap();
    d.set_texture_stage_state(0, TextureStageState::AlphaOp(TextureOp::Lerp))
        .unwrap();
    assert_refused(&mut d, ErrorKind::UnsupportedAlphaOperation, &["ALPHAOP"]);
    d.set_texture_stage_state(0, TextureStageState::AlphaOp(TextureOp::SelectArg2))
        .unwrap();
    d.set_texture_stage_state(0, TextureStageState::ColorArg1(TextureArg::TEMP))
        .unwrap();
    assert_refused(&mut d, ErrorKind::UnsupportedColorArg, &["TSSARGTEMP"]);
    d.set_texture_stage_state(
        0,
        TextureStageState::ColorArg1(TextureArg::TEXTURE.complement()),
    )
    .unwrap();
    draw(&mut d).unwrap();
    let mut s = setup(FeatureLevel::Sm3);
    s.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Lerp))
        .unwrap();
    s.set_texture_stage_state(1, TextureStageState::ColorOp(TextureOp::DotProduct3))
        .unwrap();
    draw(&mut s).unwrap();
    // With a pixel shader bound the stages are not used.
    let ps = s
        .create_pixel_shader(&warp9::shader::assemble("ps_2_0\ndcl v0\nmov oC0, v0\n").unwrap())
        .unwrap();
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Add))
        .unwrap();
    let ps9 = d.create_pixel_shader(ps.function()).unwrap();
    d.set_pixel_shader(Some(&ps9));
    draw(&mut d).unwrap();
}

#[test]
fn independent_write_masks_need_9_3() {
    let mut d = setup(FeatureLevel::L9_2);
    // RT0's mask alone may change at any level.
    d.set_render_state(RenderState::ColorWriteEnable(0x7));
    draw(&mut d).unwrap();
    d.set_render_state(RenderState::ColorWriteEnable1(0x3));
    assert_refused(
        &mut d,
        ErrorKind::ConflictingRenderState,
        &["INDEPENDENTWRITEMASKS", "9_2"],
    );
    d.set_render_state(RenderState::ColorWriteEnable1(0x7));
    draw(&mut d).unwrap();
    let mut d3 = setup(FeatureLevel::L9_3);
    d3.set_render_state(RenderState::ColorWriteEnable1(0x3));
    draw(&mut d3).unwrap();
}

#[test]
fn enabled_lights_are_limited_under_hardware_vertex_processing() {
    let mut d = setup(FeatureLevel::L9_1);
    for i in 0..8 {
        d.light_enable(i, true);
    }
    draw(&mut d).unwrap();
    d.light_enable(100, true);
    assert_refused(
        &mut d,
        ErrorKind::TooManyOperations,
        &["MaxActiveLights", "8", "9 enabled"],
    );
    d.set_render_state(RenderState::Lighting(false));
    draw(&mut d).unwrap();
    // Software vertex processing: unlimited.
    let mut sw = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_1],
        vertex_processing: warp9::VertexProcessing::Software,
        ..DeviceDesc::default()
    })
    .unwrap();
    for i in 0..20 {
        sw.light_enable(i, true);
    }
    assert_eq!(sw.validate_device().unwrap(), 1);
}

#[test]
fn draw_calls_check_counts_indices_and_buffers() {
    let mut d = setup(FeatureLevel::L9_1);
    let e = d
        .draw_primitive(PrimitiveType::TriangleList, 0, 65536)
        .unwrap_err();
    assert!(e.message().contains("MaxPrimitiveCount"), "{e}");
    // Reading past the vertex buffer is refused, never performed.
    let e = d
        .draw_primitive(PrimitiveType::TriangleList, 1, 1)
        .unwrap_err();
    assert!(e.message().contains("past the"), "{e}");
    let e = d
        .draw_primitive(PrimitiveType::TriangleStrip, 0, 2)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidCall);
    // Indexed: no index buffer, then indices past the buffer, then above MaxVertexIndex.
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1)
        .unwrap_err();
    assert!(e.message().contains("index buffer"), "{e}");
    let ib = d
        .create_index_buffer(12, Usage::WRITE_ONLY, Format::Index16, Pool::Managed)
        .unwrap();
    ib.write(0, bytemuck::cast_slice(&[0u16, 1, 2, 0, 2, 65535]))
        .unwrap();
    d.set_indices(Some(&ib)).unwrap();
    d.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1)
        .unwrap();
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 1, 2)
        .unwrap_err();
    assert!(e.message().contains("index buffer has"), "{e}");
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 3, 1)
        .unwrap_err();
    // The first offending index is named with its position.
    assert!(
        e.message().contains("MaxVertexIndex") && e.message().contains("index 65535 at position 5"),
        "{e}"
    );
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, 1, 0, 3, 0, 1)
        .unwrap_err();
    assert!(e.message().contains("past the"), "{e}");
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, -1, 0, 3, 0, 1)
        .unwrap_err();
    assert!(e.message().contains("negative"), "{e}");
    // 32-bit indices cannot be drawn at 9_1.
    let ib32 = d
        .create_index_buffer(12, Usage::WRITE_ONLY, Format::Index32, Pool::Managed)
        .unwrap();
    d.set_indices(Some(&ib32)).unwrap();
    let e = d
        .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1)
        .unwrap_err();
    assert!(
        e.message().contains("32-bit indices") && e.message().contains("9_1"),
        "{e}"
    );
    // UP draws: short data is refused, and stream 0 is unbound afterwards.
    let e = d
        .draw_primitive_up(PrimitiveType::TriangleList, 1, &[0u8; 40], 20)
        .unwrap_err();
    assert!(e.message().contains("past the"), "{e}");
    d.draw_primitive_up(PrimitiveType::TriangleList, 1, &[0u8; 60], 20)
        .unwrap();
    assert!(d.get_stream_source(0).unwrap().0.is_none());
    // Without a declaration nothing is drawn.
    d.set_vertex_declaration(None);
    let e = d
        .draw_primitive_up(PrimitiveType::PointList, 1, &[0u8; 20], 20)
        .unwrap_err();
    assert!(e.message().contains("declaration"), "{e}");
}

#[test]
fn mixed_devices_in_software_mode_need_software_buffers() {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_2],
        vertex_processing: warp9::VertexProcessing::Mixed,
        ..DeviceDesc::default()
    })
    .unwrap();
    let fvf = Fvf::XYZRHW;
    let hw_vb = d
        .create_vertex_buffer(48, Usage::empty(), fvf, Pool::Default)
        .unwrap();
    let sw_vb = d
        .create_vertex_buffer(48, Usage::SOFTWAREPROCESSING, fvf, Pool::Default)
        .unwrap();
    d.set_fvf(fvf).unwrap();
    d.set_stream_source(0, Some(&hw_vb), 0, 16).unwrap();
    d.draw_primitive(PrimitiveType::TriangleList, 0, 1).unwrap();
    d.set_software_vertex_processing(true).unwrap();
    let e = d
        .draw_primitive(PrimitiveType::TriangleList, 0, 1)
        .unwrap_err();
    assert!(e.message().contains("SOFTWAREPROCESSING"), "{e}");
    d.set_stream_source(0, Some(&sw_vb), 0, 16).unwrap();
    d.draw_primitive(PrimitiveType::TriangleList, 0, 1).unwrap();
}
