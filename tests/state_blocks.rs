//! State: typed and raw forms are one path, defaults are D3D9's, state
//! blocks record/capture/apply exactly their states.

use glam::Mat4;
use warp9::caps::{DriverType, FeatureLevel};
use warp9::state::*;
use warp9::{
    Device, DeviceDesc, Format, RenderState, SamplerState, StateBlockType, TextureStageState,
};

fn device() -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_3],
        back_buffer: (32, 32, Format::X8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap()
}

#[test]
fn defaults_are_d3d9s() {
    let d = device();
    let rs = |k| d.get_render_state(k).unwrap();
    assert_eq!(rs(RenderStateType::ZEnable), 0, "no automatic depth buffer");
    assert_eq!(rs(RenderStateType::CullMode), 3);
    assert_eq!(rs(RenderStateType::ZFunc), 4);
    assert_eq!(rs(RenderStateType::Lighting), 1);
    assert_eq!(rs(RenderStateType::FogEnd), 1.0f32.to_bits());
    assert_eq!(rs(RenderStateType::PointSizeMax), 64.0f32.to_bits());
    assert_eq!(rs(RenderStateType::ColorWriteEnable), 0xF);
    assert_eq!(rs(RenderStateType::StencilMask), 0xFFFF_FFFF);
    assert_eq!(rs(RenderStateType::DebugMonitorToken), 0xBAAD_CAFE);
    assert_eq!(
        d.get_texture_stage_state(0, TextureStageStateType::ColorOp)
            .unwrap(),
        4
    );
    assert_eq!(
        d.get_texture_stage_state(1, TextureStageStateType::ColorOp)
            .unwrap(),
        1
    );
    assert_eq!(
        d.get_texture_stage_state(0, TextureStageStateType::AlphaOp)
            .unwrap(),
        2
    );
    assert_eq!(
        d.get_texture_stage_state(5, TextureStageStateType::TexCoordIndex)
            .unwrap(),
        5
    );
    assert_eq!(
        d.get_sampler_state(0, SamplerStateType::AddressU).unwrap(),
        1
    );
    assert_eq!(
        d.get_sampler_state(257, SamplerStateType::MaxAnisotropy)
            .unwrap(),
        1
    );
    assert_eq!(
        d.get_transform(TransformType::WORLD).unwrap(),
        Mat4::IDENTITY
    );
    assert_eq!(d.get_viewport().unwrap(), Viewport::full(32, 32));
}

#[test]
fn typed_and_raw_forms_are_one_path() {
    let mut d = device();
    d.set_render_state(RenderState::FogStart(0.25));
    assert_eq!(
        d.get_render_state(RenderStateType::FogStart).unwrap(),
        0.25f32.to_bits()
    );
    d.set_render_state_raw(22, 1).unwrap();
    assert_eq!(
        d.get_render_state_typed(RenderStateType::CullMode).unwrap(),
        Some(RenderState::CullMode(Cull::None))
    );
    // Any value of a known state is accepted (D3D9); the typed view reports it as no value.
    d.set_render_state_raw(22, 42).unwrap();
    assert_eq!(
        d.get_render_state_typed(RenderStateType::CullMode).unwrap(),
        None
    );
    // Unknown state numbers, samplers and stages are refused.
    assert!(d.set_render_state_raw(1, 0).is_err());
    assert!(d.set_render_state_raw(210, 0).is_err());
    assert!(d.set_sampler_state_raw(16, 1, 1).is_err());
    assert!(d.set_sampler_state_raw(0, 14, 1).is_err());
    assert!(d.set_texture_stage_state_raw(8, 1, 1).is_err());
    assert!(d.set_texture_stage_state_raw(0, 12, 1).is_err());
    d.set_sampler_state_raw(258, 5, 2).unwrap();
    assert_eq!(
        d.get_sampler_state(258, SamplerStateType::MagFilter)
            .unwrap(),
        2
    );
    d.set_texture_stage_state(
        3,
        TextureStageState::TexCoordIndex(TexCoordIndex {
            index: 1,
            generate: TexGen::SphereMap,
        }),
    )
    .unwrap();
    assert_eq!(
        d.get_texture_stage_state(3, TextureStageStateType::TexCoordIndex)
            .unwrap(),
        0x4_0001
    );
    let m = Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0));
    d.set_transform_raw(256 + 7, &m).unwrap();
    assert_eq!(d.get_transform(TransformType::World(7)).unwrap(), m);
    assert!(d.set_transform_raw(4, &m).is_err());
}

#[test]
fn multiply_transform_applies_current_then_given() {
    let mut d = device();
    let t = Mat4::from_translation(glam::Vec3::new(1.0, 0.0, 0.0));
    let s = Mat4::from_scale(glam::Vec3::splat(2.0));
    d.set_transform(TransformType::View, &t).unwrap();
    d.multiply_transform(TransformType::View, &s).unwrap();
    // Row-vector D3D9: v * T * S; (0,0,0) -> (1,0,0) -> (2,0,0).
    let p = d
        .get_transform(TransformType::View)
        .unwrap()
        .transform_point3(glam::Vec3::ZERO);
    assert_eq!(p, glam::Vec3::new(2.0, 0.0, 0.0));
}

#[test]
fn recorded_blocks_hold_only_what_was_set_and_are_not_applied_while_recording() {
    let mut d = device();
    d.begin_state_block().unwrap();
    assert!(d.begin_state_block().is_err());
    d.set_render_state(RenderState::CullMode(Cull::Cw));
    d.set_sampler_state(2, SamplerState::AddressU(TextureAddress::Clamp))
        .unwrap();
    d.set_vertex_shader_constant_f(10, &[[1.0, 2.0, 3.0, 4.0]])
        .unwrap();
    d.light_enable(3, true);
    // Not applied while recording.
    assert_eq!(d.get_render_state(RenderStateType::CullMode).unwrap(), 3);
    let block = d.end_state_block().unwrap();
    assert!(d.end_state_block().is_err());
    d.set_render_state(RenderState::FillMode(FillMode::Wireframe));
    d.apply_state_block(&block).unwrap();
    assert_eq!(d.get_render_state(RenderStateType::CullMode).unwrap(), 2);
    assert_eq!(
        d.get_sampler_state(2, SamplerStateType::AddressU).unwrap(),
        3
    );
    assert_eq!(
        d.get_vertex_shader_constant_f(10, 1).unwrap(),
        vec![[1.0, 2.0, 3.0, 4.0]]
    );
    assert!(d.get_light_enable(3).unwrap());
    // States outside the block are untouched.
    assert_eq!(d.get_render_state(RenderStateType::FillMode).unwrap(), 2);
    // Capture re-reads only the block's states.
    d.set_render_state(RenderState::CullMode(Cull::None));
    let mut block = block;
    block.capture(&d).unwrap();
    d.set_render_state(RenderState::CullMode(Cull::Ccw));
    block.apply(&mut d).unwrap();
    assert_eq!(d.get_render_state(RenderStateType::CullMode).unwrap(), 1);
}

#[test]
fn created_blocks_follow_the_pixel_and_vertex_lists() {
    let mut d = device();
    d.set_render_state(RenderState::SrcBlend(Blend::SrcAlpha)); // pixel
    d.set_render_state(RenderState::CullMode(Cull::None)); // vertex
    d.set_render_state(RenderState::FogStart(0.5)); // both
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::SelectArg1))
        .unwrap(); // pixel
    d.set_texture_stage_state(
        0,
        TextureStageState::TexCoordIndex(TexCoordIndex {
            index: 2,
            generate: TexGen::PassThru,
        }),
    )
    .unwrap(); // both
    d.set_viewport(&Viewport {
        x: 1,
        y: 1,
        width: 8,
        height: 8,
        min_z: 0.0,
        max_z: 1.0,
    })
    .unwrap(); // all only
    let pixel = d.create_state_block(StateBlockType::PixelState).unwrap();
    let vertex = d.create_state_block(StateBlockType::VertexState).unwrap();
    let all = d.create_state_block(StateBlockType::All).unwrap();
    // Change everything, then apply the pixel block.
    d.set_render_state(RenderState::SrcBlend(Blend::One));
    d.set_render_state(RenderState::CullMode(Cull::Cw));
    d.set_render_state(RenderState::FogStart(0.0));
    d.set_texture_stage_state(0, TextureStageState::ColorOp(TextureOp::Modulate))
        .unwrap();
    d.set_texture_stage_state_raw(0, 11, 0).unwrap();
    d.set_viewport(&Viewport::full(32, 32)).unwrap();
    d.apply_state_block(&pixel).unwrap();
    assert_eq!(d.get_render_state(RenderStateType::SrcBlend).unwrap(), 5);
    assert_eq!(
        d.get_render_state(RenderStateType::CullMode).unwrap(),
        2,
        "cull mode is vertex state"
    );
    assert_eq!(
        d.get_render_state(RenderStateType::FogStart).unwrap(),
        0.5f32.to_bits()
    );
    assert_eq!(
        d.get_texture_stage_state(0, TextureStageStateType::ColorOp)
            .unwrap(),
        2
    );
    assert_eq!(
        d.get_texture_stage_state(0, TextureStageStateType::TexCoordIndex)
            .unwrap(),
        2
    );
    assert_eq!(
        d.get_viewport().unwrap(),
        Viewport::full(32, 32),
        "the viewport is only in ALL"
    );
    d.set_render_state(RenderState::SrcBlend(Blend::One));
    d.apply_state_block(&vertex).unwrap();
    assert_eq!(d.get_render_state(RenderStateType::CullMode).unwrap(), 1);
    assert_eq!(
        d.get_render_state(RenderStateType::SrcBlend).unwrap(),
        2,
        "src blend is pixel state"
    );
    d.apply_state_block(&all).unwrap();
    assert_eq!(d.get_viewport().unwrap().x, 1);
    assert_eq!(d.get_render_state(RenderStateType::SrcBlend).unwrap(), 5);
}

#[test]
fn blocks_belong_to_their_device() {
    let mut a = device();
    let mut b = device();
    let block = a.create_state_block(StateBlockType::All).unwrap();
    assert!(b.apply_state_block(&block).is_err());
    a.begin_state_block().unwrap();
    assert!(a.create_state_block(StateBlockType::All).is_err());
    assert!(a.apply_state_block(&block).is_err());
    a.end_state_block().unwrap();
    assert!(a.apply_state_block(&block).is_ok());
}

#[test]
fn lights_materials_and_viewports_are_validated() {
    let mut d = device();
    let mut l = Light::default();
    d.set_light(7, &l).unwrap();
    assert_eq!(d.get_light(7).unwrap(), l);
    assert!(d.get_light(8).is_err());
    l.direction = glam::Vec3::ZERO;
    assert!(d.set_light(7, &l).is_err());
    l = Light {
        light_type: LightType::Point,
        range: -1.0,
        ..Light::default()
    };
    assert!(d.set_light(1, &l).is_err());
    l = Light {
        light_type: LightType::Spot,
        theta: 1.0,
        phi: 0.5,
        ..Light::default()
    };
    assert!(d.set_light(1, &l).is_err());
    l.range = f32::NAN;
    assert!(d.set_light(1, &l).is_err());
    // Reaching past the target's edge is allowed, as on Windows
    // (rasterization.md 3); drawing is limited to viewport ∩ target.
    let past_the_edge = Viewport {
        x: 30,
        y: 0,
        width: 8,
        height: 8,
        min_z: 0.0,
        max_z: 1.0,
    };
    d.set_viewport(&past_the_edge).unwrap();
    assert_eq!(d.get_viewport().unwrap(), past_the_edge);
    assert!(
        d.set_viewport(&Viewport {
            x: 0,
            y: 0,
            width: 8,
            height: 8,
            min_z: 0.0,
            max_z: 2.0
        })
        .is_err()
    );
    assert!(
        d.set_viewport(&Viewport {
            x: 0,
            y: 0,
            width: 8,
            height: 8,
            min_z: f32::NAN,
            max_z: 1.0
        })
        .is_err()
    );
    let m = Material {
        power: 8.0,
        ..Material::default()
    };
    d.set_material(&m);
    assert_eq!(d.get_material().unwrap(), m);
    assert!(d.set_vertex_shader_constant_f(255, &[[0.0; 4]; 2]).is_err());
    assert!(d.set_vertex_shader_constant_f(255, &[[0.0; 4]]).is_ok());
    assert!(
        d.set_pixel_shader_constant_f(31, &[[0.0; 4]; 2]).is_err(),
        "ps_2_0 devices have 32 constants"
    );
    assert!(d.set_pixel_shader_constant_i(15, &[[0; 4]; 2]).is_err());
    assert!(d.set_pixel_shader_constant_b(u32::MAX, &[true]).is_err());
}
