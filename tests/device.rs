//! Device creation (caps.md sections 2 and 3): the driver/level walk, the
//! vertex-processing rules, the software overlay, and the caps a device reports.

use warp9::caps::{DriverType, FeatureLevel};
use warp9::{Device, DeviceDesc, ErrorKind, Format, VertexProcessing};

fn create(
    drivers: &[DriverType],
    levels: &[FeatureLevel],
    vp: VertexProcessing,
    pure: bool,
) -> warp9::Result<Device> {
    Device::create(&DeviceDesc {
        drivers,
        levels,
        vertex_processing: vp,
        pure,
        back_buffer: (64, 64, Format::X8R8G8B8),
        ..DeviceDesc::default()
    })
}

use DriverType::{Hardware, Reference, Warp};
use FeatureLevel::*;

#[test]
fn the_walk_takes_the_first_driver_then_its_first_level() {
    let d = create(
        &[Hardware, Warp, Reference],
        &[L11_0, L10_1, L10_0, L9_3, L9_2, L9_1],
        VertexProcessing::Hardware,
        false,
    )
    .unwrap();
    assert_eq!((d.driver_type(), d.feature_level()), (Warp, L9_3));
    let d = create(
        &[Reference, Warp],
        &[L9_1, L9_3],
        VertexProcessing::Hardware,
        false,
    )
    .unwrap();
    assert_eq!((d.driver_type(), d.feature_level()), (Reference, L9_1));
    // Empty lists mean the D3D11 defaults: hardware, warp, reference over 11_0..9_1.
    let d = create(&[], &[], VertexProcessing::Hardware, false).unwrap();
    assert_eq!((d.driver_type(), d.feature_level()), (Warp, L9_3));
    let d = create(&[Warp], &[Sm3, L9_3], VertexProcessing::Hardware, false).unwrap();
    assert_eq!(d.feature_level(), Sm3);
}

#[test]
fn nothing_creatable_names_every_pair() {
    let e = create(
        &[Hardware],
        &[L9_3, L9_1],
        VertexProcessing::Hardware,
        false,
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.hresult(), 0x887A_0004);
    assert!(
        e.message().contains("hardware at 9_3") && e.message().contains("hardware at 9_1"),
        "{e}"
    );
    let e = create(
        &[Warp, Reference],
        &[L10_0, L11_0],
        VertexProcessing::Hardware,
        false,
    )
    .unwrap_err();
    for pair in [
        "warp at 10_0",
        "warp at 11_0",
        "reference at 10_0",
        "reference at 11_0",
    ] {
        assert!(e.message().contains(pair), "{pair} missing in {e}");
    }
}

#[test]
fn unknown_level_values_are_invalid_arg() {
    let e = FeatureLevel::from_d3d_value(0xB100).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArg);
    assert_eq!(e.hresult(), 0x8007_0057);
    assert_eq!(FeatureLevel::from_d3d_value(0x9300).unwrap(), L9_3);
    assert!("9_4".parse::<FeatureLevel>().is_err());
}

#[test]
fn pure_needs_hardware_vertex_processing() {
    for vp in [VertexProcessing::Software, VertexProcessing::Mixed] {
        let e = create(&[Warp], &[L9_3], vp, true).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidCall, "{vp:?}");
        assert!(e.message().contains("PUREDEVICE"));
    }
    let d = create(&[Warp], &[L9_3], VertexProcessing::Hardware, true).unwrap();
    assert!(d.is_pure());
    // A pure device refuses state getters.
    assert_eq!(
        d.get_render_state(warp9::state::RenderStateType::ZEnable)
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidCall
    );
}

#[test]
fn only_a_mixed_device_switches_vertex_processing() {
    let mut hw = create(&[Warp], &[L9_1], VertexProcessing::Hardware, false).unwrap();
    assert!(!hw.software_vertex_processing());
    assert_eq!(
        hw.set_software_vertex_processing(true).unwrap_err().kind(),
        ErrorKind::InvalidCall
    );
    let mut sw = create(&[Warp], &[L9_1], VertexProcessing::Software, false).unwrap();
    assert!(sw.software_vertex_processing());
    assert!(sw.set_software_vertex_processing(true).is_ok());
    assert_eq!(
        sw.set_software_vertex_processing(false).unwrap_err().kind(),
        ErrorKind::InvalidCall
    );
    let mut mixed = create(&[Warp], &[L9_1], VertexProcessing::Mixed, false).unwrap();
    assert!(!mixed.software_vertex_processing());
    mixed.set_software_vertex_processing(true).unwrap();
    assert!(mixed.software_vertex_processing());
    mixed.set_software_vertex_processing(false).unwrap();
    assert!(!mixed.software_vertex_processing());
}

#[test]
fn software_vertex_processing_applies_the_fixed_caps_but_reports_hardware_caps() {
    let sw = create(&[Warp], &[L9_1], VertexProcessing::Software, false).unwrap();
    // Reported caps: the level's hardware profile (seed 004).
    let reported = sw.get_device_caps();
    assert_eq!(reported, warp9::Caps::for_level(L9_1).unwrap());
    assert_eq!(reported.max_active_lights, 8);
    assert_eq!(reported.vertex_shader_version, 0xFFFE_0200);
    // Caps that apply to vertex work: the software overlay.
    let v = sw.vertex_caps();
    assert_eq!(v.max_active_lights, u32::MAX);
    assert_eq!(v.max_vertex_index, 0xFFFF_FFFF);
    assert_eq!(v.vertex_shader_version, 0xFFFE_0300);
    assert_eq!(v.max_vertex_blend_matrix_index, 255);
    // A 9_1 device under software VP accepts vs_3_0 while pixel shaders stay at ps_2_0.
    let mut sw = sw;
    let vs3 =
        warp9::shader::assemble("vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n").unwrap();
    assert!(sw.create_vertex_shader(&vs3).is_ok());
    let mut hw = create(&[Warp], &[L9_1], VertexProcessing::Hardware, false).unwrap();
    let e = hw.create_vertex_shader(&vs3).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidCall);
    assert!(
        e.message().contains("VertexShaderVersion") || e.message().contains("version"),
        "{e}"
    );
}

#[test]
fn reference_devices_report_d3ddevtype_ref() {
    let r = create(&[Reference], &[L9_2], VertexProcessing::Hardware, false).unwrap();
    assert_eq!(r.get_device_caps().device_type, 2);
    let w = create(&[Warp], &[L9_2], VertexProcessing::Hardware, false).unwrap();
    assert_eq!(w.get_device_caps().device_type, 1);
}

#[test]
fn back_buffer_and_depth_formats_are_checked() {
    let e = Device::create(&DeviceDesc {
        drivers: &[Warp],
        levels: &[L9_1],
        back_buffer: (64, 64, Format::A16B16G16R16F),
        ..DeviceDesc::default()
    })
    .unwrap_err();
    assert!(e.message().contains("back-buffer format"), "{e}");
    let e = Device::create(&DeviceDesc {
        drivers: &[Warp],
        levels: &[L9_1],
        back_buffer: (4096, 64, Format::X8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap_err();
    assert!(e.message().contains("MaxTextureWidth"), "{e}");
    // The same size is fine where MaxTextureWidth is 4096: the walk moves on to the next level.
    let d = Device::create(&DeviceDesc {
        drivers: &[Warp],
        levels: &[L9_1, L9_3],
        back_buffer: (4096, 64, Format::X8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap();
    assert_eq!(d.feature_level(), L9_3);
    let d = Device::create(&DeviceDesc {
        drivers: &[Warp],
        levels: &[L9_1],
        depth_stencil: Some(Format::D24S8),
        ..DeviceDesc::default()
    })
    .unwrap();
    assert_eq!(
        d.get_depth_stencil_surface().unwrap().desc().format,
        Format::D24S8
    );
    assert_eq!(
        d.get_render_state(warp9::state::RenderStateType::ZEnable)
            .unwrap(),
        1
    );
}

#[test]
fn threads_and_simd_are_settable() {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[Warp],
        levels: &[L9_3],
        threads: Some(3),
        ..DeviceDesc::default()
    })
    .unwrap();
    assert_eq!(d.thread_count(), 3);
    assert!(d.set_thread_count(0).is_err());
    d.set_thread_count(1).unwrap();
    assert_eq!(d.thread_count(), 1);
    d.set_simd_backend(warp9::SimdChoice::Portable);
    assert_eq!(d.simd_backend(), warp9::SimdChoice::Portable);
    assert!(
        Device::create(&DeviceDesc {
            threads: Some(0),
            ..DeviceDesc::default()
        })
        .is_err()
    );
}
