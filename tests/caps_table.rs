//! Holds every level's 69 D3DCAPS9 values against a table written from
//! caps.md section 6 (transcribed from the spec's caps-values.json), the
//! minimum bits seed 001 requires per level, and the bits a level must not
//! have. The profile code composes named flags; these are raw numbers, so
//! the two are written independently.

use warp9::caps::{CapValue, Caps, FeatureLevel};

#[derive(Clone, Copy, Debug)]
enum V {
    U(u32),
    F(f32),
    Vs([i32; 4]),
    Ps([i32; 5]),
}
use V::{F, Ps, U, Vs};

const L9_1: [(&str, V); 69] = [
    ("DeviceType", U(1)),
    ("AdapterOrdinal", U(0)),
    ("Caps", U(0)),
    ("Caps2", U(0x20020000)),
    ("Caps3", U(800)),
    ("PresentationIntervals", U(0x80000001)),
    ("CursorCaps", U(0)),
    ("DevCaps", U(0x0019AEF0)),
    ("PrimitiveMiscCaps", U(2290)),
    ("RasterCaps", U(0x07632190)),
    ("ZCmpCaps", U(255)),
    ("SrcBlendCaps", U(9215)),
    ("DestBlendCaps", U(9215)),
    ("AlphaCmpCaps", U(255)),
    ("ShadeCaps", U(0x00084208)),
    ("TextureCaps", U(0x0007ED47)),
    ("TextureFilterCaps", U(0x07030700)),
    ("CubeTextureFilterCaps", U(0x03030300)),
    ("VolumeTextureFilterCaps", U(0x03030300)),
    ("TextureAddressCaps", U(23)),
    ("VolumeTextureAddressCaps", U(23)),
    ("LineCaps", U(31)),
    ("MaxTextureWidth", U(2048)),
    ("MaxTextureHeight", U(2048)),
    ("MaxVolumeExtent", U(256)),
    ("MaxTextureRepeat", U(128)),
    ("MaxTextureAspectRatio", U(2048)),
    ("MaxAnisotropy", U(2)),
    ("MaxVertexW", F(0.0)),
    ("GuardBandLeft", F(-8192.0)),
    ("GuardBandTop", F(-8192.0)),
    ("GuardBandRight", F(8192.0)),
    ("GuardBandBottom", F(8192.0)),
    ("ExtentsAdjust", F(0.0)),
    ("StencilCaps", U(511)),
    ("FVFCaps", U(0x00180008)),
    ("TextureOpCaps", U(15)),
    ("MaxTextureBlendStages", U(8)),
    ("MaxSimultaneousTextures", U(8)),
    ("VertexProcessingCaps", U(123)),
    ("MaxActiveLights", U(8)),
    ("MaxUserClipPlanes", U(6)),
    ("MaxVertexBlendMatrices", U(4)),
    ("MaxVertexBlendMatrixIndex", U(0)),
    ("MaxPointSize", F(256.0)),
    ("MaxPrimitiveCount", U(65535)),
    ("MaxVertexIndex", U(65534)),
    ("MaxStreams", U(16)),
    ("MaxStreamStride", U(2048)),
    ("VertexShaderVersion", U(0xFFFE0200)),
    ("MaxVertexShaderConst", U(256)),
    ("PixelShaderVersion", U(0xFFFF0200)),
    ("PixelShader1xMaxValue", F(f32::MAX)),
    ("DevCaps2", U(17)),
    ("MaxNpatchTessellationLevel", F(0.0)),
    ("Reserved5", U(0)),
    ("MasterAdapterOrdinal", U(0)),
    ("AdapterOrdinalInGroup", U(0)),
    ("NumberOfAdaptersInGroup", U(1)),
    ("DeclTypes", U(15)),
    ("NumSimultaneousRTs", U(1)),
    ("StretchRectFilterCaps", U(0x03000300)),
    ("VS20Caps", Vs([0, 0, 12, 1])),
    ("PS20Caps", Ps([0, 0, 12, 0, 96])),
    ("VertexTextureFilterCaps", U(0)),
    ("MaxVShaderInstructionsExecuted", U(65535)),
    ("MaxPShaderInstructionsExecuted", U(96)),
    ("MaxVertexShader30InstructionSlots", U(0)),
    ("MaxPixelShader30InstructionSlots", U(0)),
];

const L9_2: [(&str, V); 69] = [
    ("DeviceType", U(1)),
    ("AdapterOrdinal", U(0)),
    ("Caps", U(0)),
    ("Caps2", U(0x20020000)),
    ("Caps3", U(800)),
    ("PresentationIntervals", U(0x80000001)),
    ("CursorCaps", U(0)),
    ("DevCaps", U(0x0019AEF0)),
    ("PrimitiveMiscCaps", U(0x000208F2)),
    ("RasterCaps", U(0x07732190)),
    ("ZCmpCaps", U(255)),
    ("SrcBlendCaps", U(9215)),
    ("DestBlendCaps", U(9215)),
    ("AlphaCmpCaps", U(255)),
    ("ShadeCaps", U(0x00084208)),
    ("TextureCaps", U(0x0007ED47)),
    ("TextureFilterCaps", U(0x07030700)),
    ("CubeTextureFilterCaps", U(0x03030300)),
    ("VolumeTextureFilterCaps", U(0x03030300)),
    ("TextureAddressCaps", U(55)),
    ("VolumeTextureAddressCaps", U(55)),
    ("LineCaps", U(31)),
    ("MaxTextureWidth", U(2048)),
    ("MaxTextureHeight", U(2048)),
    ("MaxVolumeExtent", U(256)),
    ("MaxTextureRepeat", U(2048)),
    ("MaxTextureAspectRatio", U(2048)),
    ("MaxAnisotropy", U(16)),
    ("MaxVertexW", F(100000000000.0)),
    ("GuardBandLeft", F(-8192.0)),
    ("GuardBandTop", F(-8192.0)),
    ("GuardBandRight", F(8192.0)),
    ("GuardBandBottom", F(8192.0)),
    ("ExtentsAdjust", F(0.0)),
    ("StencilCaps", U(511)),
    ("FVFCaps", U(0x00180008)),
    ("TextureOpCaps", U(15)),
    ("MaxTextureBlendStages", U(8)),
    ("MaxSimultaneousTextures", U(8)),
    ("VertexProcessingCaps", U(123)),
    ("MaxActiveLights", U(8)),
    ("MaxUserClipPlanes", U(6)),
    ("MaxVertexBlendMatrices", U(4)),
    ("MaxVertexBlendMatrixIndex", U(0)),
    ("MaxPointSize", F(256.0)),
    ("MaxPrimitiveCount", U(0x000FFFFF)),
    ("MaxVertexIndex", U(0x000FFFFF)),
    ("MaxStreams", U(16)),
    ("MaxStreamStride", U(2048)),
    ("VertexShaderVersion", U(0xFFFE0200)),
    ("MaxVertexShaderConst", U(256)),
    ("PixelShaderVersion", U(0xFFFF0200)),
    ("PixelShader1xMaxValue", F(f32::MAX)),
    ("DevCaps2", U(81)),
    ("MaxNpatchTessellationLevel", F(0.0)),
    ("Reserved5", U(0)),
    ("MasterAdapterOrdinal", U(0)),
    ("AdapterOrdinalInGroup", U(0)),
    ("NumberOfAdaptersInGroup", U(1)),
    ("DeclTypes", U(15)),
    ("NumSimultaneousRTs", U(1)),
    ("StretchRectFilterCaps", U(0x03000300)),
    ("VS20Caps", Vs([0, 0, 12, 1])),
    ("PS20Caps", Ps([0, 0, 12, 0, 96])),
    ("VertexTextureFilterCaps", U(0)),
    ("MaxVShaderInstructionsExecuted", U(65535)),
    ("MaxPShaderInstructionsExecuted", U(96)),
    ("MaxVertexShader30InstructionSlots", U(0)),
    ("MaxPixelShader30InstructionSlots", U(0)),
];

const L9_3: [(&str, V); 69] = [
    ("DeviceType", U(1)),
    ("AdapterOrdinal", U(0)),
    ("Caps", U(0)),
    ("Caps2", U(0x20020000)),
    ("Caps3", U(800)),
    ("PresentationIntervals", U(0x80000001)),
    ("CursorCaps", U(0)),
    ("DevCaps", U(0x0019AEF0)),
    ("PrimitiveMiscCaps", U(0x000A48F2)),
    ("RasterCaps", U(0x07732190)),
    ("ZCmpCaps", U(255)),
    ("SrcBlendCaps", U(9215)),
    ("DestBlendCaps", U(9215)),
    ("AlphaCmpCaps", U(255)),
    ("ShadeCaps", U(0x00084208)),
    ("TextureCaps", U(0x0007ED47)),
    ("TextureFilterCaps", U(0x07030700)),
    ("CubeTextureFilterCaps", U(0x03030300)),
    ("VolumeTextureFilterCaps", U(0x03030300)),
    ("TextureAddressCaps", U(63)),
    ("VolumeTextureAddressCaps", U(63)),
    ("LineCaps", U(31)),
    ("MaxTextureWidth", U(4096)),
    ("MaxTextureHeight", U(4096)),
    ("MaxVolumeExtent", U(256)),
    ("MaxTextureRepeat", U(8192)),
    ("MaxTextureAspectRatio", U(4096)),
    ("MaxAnisotropy", U(16)),
    ("MaxVertexW", F(100000000000.0)),
    ("GuardBandLeft", F(-8192.0)),
    ("GuardBandTop", F(-8192.0)),
    ("GuardBandRight", F(8192.0)),
    ("GuardBandBottom", F(8192.0)),
    ("ExtentsAdjust", F(0.0)),
    ("StencilCaps", U(511)),
    ("FVFCaps", U(0x00180008)),
    ("TextureOpCaps", U(15)),
    ("MaxTextureBlendStages", U(8)),
    ("MaxSimultaneousTextures", U(8)),
    ("VertexProcessingCaps", U(123)),
    ("MaxActiveLights", U(8)),
    ("MaxUserClipPlanes", U(6)),
    ("MaxVertexBlendMatrices", U(4)),
    ("MaxVertexBlendMatrixIndex", U(0)),
    ("MaxPointSize", F(256.0)),
    ("MaxPrimitiveCount", U(0x000FFFFF)),
    ("MaxVertexIndex", U(0x000FFFFF)),
    ("MaxStreams", U(16)),
    ("MaxStreamStride", U(2048)),
    ("VertexShaderVersion", U(0xFFFE0300)),
    ("MaxVertexShaderConst", U(256)),
    ("PixelShaderVersion", U(0xFFFF0200)),
    ("PixelShader1xMaxValue", F(f32::MAX)),
    ("DevCaps2", U(81)),
    ("MaxNpatchTessellationLevel", F(0.0)),
    ("Reserved5", U(0)),
    ("MasterAdapterOrdinal", U(0)),
    ("AdapterOrdinalInGroup", U(0)),
    ("NumberOfAdaptersInGroup", U(1)),
    ("DeclTypes", U(783)),
    ("NumSimultaneousRTs", U(4)),
    ("StretchRectFilterCaps", U(0x03000300)),
    ("VS20Caps", Vs([1, 24, 32, 4])),
    ("PS20Caps", Ps([31, 24, 32, 4, 512])),
    ("VertexTextureFilterCaps", U(0x01000100)),
    ("MaxVShaderInstructionsExecuted", U(65535)),
    ("MaxPShaderInstructionsExecuted", U(0x00010000)),
    ("MaxVertexShader30InstructionSlots", U(512)),
    ("MaxPixelShader30InstructionSlots", U(0)),
];

const SM3: [(&str, V); 69] = [
    ("DeviceType", U(1)),
    ("AdapterOrdinal", U(0)),
    ("Caps", U(0)),
    ("Caps2", U(0x60020000)),
    ("Caps3", U(800)),
    ("PresentationIntervals", U(0x80000001)),
    ("CursorCaps", U(0)),
    ("DevCaps", U(0x0019AEF0)),
    ("PrimitiveMiscCaps", U(0x000A4BF2)),
    ("RasterCaps", U(0x07732190)),
    ("ZCmpCaps", U(255)),
    ("SrcBlendCaps", U(9215)),
    ("DestBlendCaps", U(9215)),
    ("AlphaCmpCaps", U(255)),
    ("ShadeCaps", U(0x00084208)),
    ("TextureCaps", U(0x0007ED47)),
    ("TextureFilterCaps", U(0x07030700)),
    ("CubeTextureFilterCaps", U(0x03030300)),
    ("VolumeTextureFilterCaps", U(0x03030300)),
    ("TextureAddressCaps", U(63)),
    ("VolumeTextureAddressCaps", U(63)),
    ("LineCaps", U(31)),
    ("MaxTextureWidth", U(4096)),
    ("MaxTextureHeight", U(4096)),
    ("MaxVolumeExtent", U(256)),
    ("MaxTextureRepeat", U(8192)),
    ("MaxTextureAspectRatio", U(4096)),
    ("MaxAnisotropy", U(16)),
    ("MaxVertexW", F(100000000000.0)),
    ("GuardBandLeft", F(-8192.0)),
    ("GuardBandTop", F(-8192.0)),
    ("GuardBandRight", F(8192.0)),
    ("GuardBandBottom", F(8192.0)),
    ("ExtentsAdjust", F(0.0)),
    ("StencilCaps", U(511)),
    ("FVFCaps", U(0x00180008)),
    ("TextureOpCaps", U(0x03FFFFFF)),
    ("MaxTextureBlendStages", U(8)),
    ("MaxSimultaneousTextures", U(8)),
    ("VertexProcessingCaps", U(123)),
    ("MaxActiveLights", U(8)),
    ("MaxUserClipPlanes", U(6)),
    ("MaxVertexBlendMatrices", U(4)),
    ("MaxVertexBlendMatrixIndex", U(0)),
    ("MaxPointSize", F(256.0)),
    ("MaxPrimitiveCount", U(0x000FFFFF)),
    ("MaxVertexIndex", U(0x000FFFFF)),
    ("MaxStreams", U(16)),
    ("MaxStreamStride", U(2048)),
    ("VertexShaderVersion", U(0xFFFE0300)),
    ("MaxVertexShaderConst", U(256)),
    ("PixelShaderVersion", U(0xFFFF0300)),
    ("PixelShader1xMaxValue", F(f32::MAX)),
    ("DevCaps2", U(81)),
    ("MaxNpatchTessellationLevel", F(0.0)),
    ("Reserved5", U(0)),
    ("MasterAdapterOrdinal", U(0)),
    ("AdapterOrdinalInGroup", U(0)),
    ("NumberOfAdaptersInGroup", U(1)),
    ("DeclTypes", U(783)),
    ("NumSimultaneousRTs", U(4)),
    ("StretchRectFilterCaps", U(0x03000300)),
    ("VS20Caps", Vs([1, 24, 32, 4])),
    ("PS20Caps", Ps([31, 24, 32, 4, 512])),
    ("VertexTextureFilterCaps", U(0x01000100)),
    ("MaxVShaderInstructionsExecuted", U(65535)),
    ("MaxPShaderInstructionsExecuted", U(0x00010000)),
    ("MaxVertexShader30InstructionSlots", U(32768)),
    ("MaxPixelShader30InstructionSlots", U(32768)),
];
fn caps(level: FeatureLevel) -> Caps {
    Caps::for_level(level).expect("supported level")
}

fn check_level(level: FeatureLevel, table: &[(&str, V); 69]) {
    let members = caps(level).members();
    assert_eq!(members.len(), 69);
    for (member, (name, expected)) in members.iter().zip(table) {
        assert_eq!(member.name, *name, "member order at level {level}");
        let ok = match (member.value, *expected) {
            (CapValue::U32(got) | CapValue::Flags(got), U(want)) => got == want,
            (CapValue::F32(got), F(want)) => got.to_bits() == want.to_bits(),
            (CapValue::Vs20(got), Vs(want)) => {
                [
                    got.caps.bits() as i32,
                    got.dynamic_flow_control_depth,
                    got.num_temps,
                    got.static_flow_control_depth,
                ] == want
            }
            (CapValue::Ps20(got), Ps(want)) => {
                [
                    got.caps.bits() as i32,
                    got.dynamic_flow_control_depth,
                    got.num_temps,
                    got.static_flow_control_depth,
                    got.num_instruction_slots,
                ] == want
            }
            _ => false,
        };
        assert!(
            ok,
            "{name} at level {level}: got {}, caps.md says {expected:?}",
            member.value
        );
    }
}

#[test]
fn level_9_1_matches_caps_md() {
    check_level(FeatureLevel::L9_1, &L9_1);
}

#[test]
fn level_9_2_matches_caps_md() {
    check_level(FeatureLevel::L9_2, &L9_2);
}

#[test]
fn level_9_3_matches_caps_md() {
    check_level(FeatureLevel::L9_3, &L9_3);
}

#[test]
fn level_sm3_matches_caps_md() {
    check_level(FeatureLevel::Sm3, &SM3);
}

#[test]
fn d3d11_levels_have_no_caps() {
    for level in [
        FeatureLevel::L10_0,
        FeatureLevel::L10_1,
        FeatureLevel::L11_0,
    ] {
        assert!(Caps::for_level(level).is_none());
    }
}

fn member(c: &Caps, name: &str) -> u32 {
    match c.members().iter().find(|m| m.name == name).map(|m| m.value) {
        Some(CapValue::U32(v) | CapValue::Flags(v)) => v,
        other => panic!("{name} is not a DWORD member: {other:?}"),
    }
}

/// caps.md 5.4: the bits seed 001 itself demands, cumulative per level.
const SEED_MASKS: [(&str, [u32; 3]); 16] = [
    ("Caps2", [0x20020000, 0x20020000, 0x20020000]),
    (
        "PresentationIntervals",
        [0x80000001, 0x80000001, 0x80000001],
    ),
    ("PrimitiveMiscCaps", [0x00000080, 0x00020080, 0x000A4080]),
    ("RasterCaps", [0x06000000, 0x06000000, 0x06000000]),
    ("ZCmpCaps", [0x00000088, 0x00000088, 0x00000088]),
    ("SrcBlendCaps", [0x000002B3, 0x000002B3, 0x000002B3]),
    ("DestBlendCaps", [0x0000003B, 0x0000003B, 0x0000003B]),
    ("ShadeCaps", [0x00084208, 0x00084208, 0x00084208]),
    ("TextureCaps", [0x00004907, 0x00004907, 0x00004907]),
    ("TextureFilterCaps", [0x03000300, 0x03000300, 0x03000300]),
    ("TextureAddressCaps", [0x00000017, 0x00000037, 0x0000003F]),
    (
        "VolumeTextureAddressCaps",
        [0x00000000, 0x00000020, 0x00000020],
    ),
    ("StencilCaps", [0x00000100, 0x00000100, 0x00000100]),
    ("TextureOpCaps", [0x0000000F, 0x0000000F, 0x0000000F]),
    ("DevCaps2", [0x00000000, 0x00000040, 0x00000040]),
    (
        "StretchRectFilterCaps",
        [0x03000300, 0x03000300, 0x03000300],
    ),
];

#[test]
fn every_level_contains_the_seed_minimum() {
    let levels = [FeatureLevel::L9_1, FeatureLevel::L9_2, FeatureLevel::L9_3];
    for (i, level) in levels.into_iter().enumerate() {
        // The SM3 profile contains everything 9_3 demands.
        for c in [caps(level), caps(FeatureLevel::Sm3)] {
            for (name, masks) in SEED_MASKS {
                let v = member(&c, name);
                assert_eq!(v & masks[i], masks[i], "{name} at {level} lacks seed bits");
            }
            let tc = c.texture_caps.bits();
            assert_eq!(
                tc & 0x102 == 0x102,
                tc & 0x102 != 0,
                "POW2/NONPOW2CONDITIONAL both or neither"
            );
            assert!(c.max_texture_width >= [2048, 2048, 4096][i]);
            assert!(c.max_texture_height >= [2048, 2048, 4096][i]);
            assert!(c.num_simultaneous_rts >= [1, 1, 4][i]);
            assert!(c.max_simultaneous_textures >= 8 && c.max_texture_blend_stages >= 8);
            assert!(c.pixel_shader_version >= 0xFFFF_0200);
            assert!(c.max_primitive_count >= [65535, 1_048_575, 1_048_575][i]);
            assert!(c.max_vertex_index >= [65534, 1_048_575, 1_048_575][i]);
            assert!(c.max_volume_extent >= 256);
            let repeat = [128, 2048, 8192][i];
            assert!(c.max_texture_repeat == 0 || c.max_texture_repeat >= repeat);
            assert!(c.max_anisotropy >= [2, 16, 16][i]);
            if i >= 1 {
                assert!(c.vertex_shader_version >= 0xFFFE_0200);
                assert!(c.max_vertex_w >= 1.0e10);
            }
            if i == 2 {
                assert_ne!(c.ps20_caps.caps.bits() & 0x2, 0, "GRADIENTINSTRUCTIONS");
                assert!(c.ps20_caps.num_instruction_slots >= 512);
                assert!(c.ps20_caps.num_temps >= 32 && c.vs20_caps.num_temps >= 32);
                assert!(c.max_vertex_shader_const >= 256);
                assert!(c.vertex_shader_version >= 0xFFFE_0300);
            }
        }
    }
}

#[test]
fn levels_lack_what_they_must_not_have() {
    let c91 = caps(FeatureLevel::L9_1);
    assert_eq!(
        c91.primitive_misc_caps.bits() & 0x0002_0000,
        0,
        "SEPARATEALPHABLEND at 9_1"
    );
    assert_eq!(
        c91.primitive_misc_caps.bits() & 0x0000_4000,
        0,
        "INDEPENDENTWRITEMASKS at 9_1"
    );
    assert_eq!(
        c91.texture_address_caps.bits() & 0x20,
        0,
        "MIRRORONCE at 9_1"
    );
    assert_eq!(c91.texture_address_caps.bits() & 0x08, 0, "BORDER at 9_1");
    assert_eq!(
        c91.dev_caps2.bits() & 0x40,
        0,
        "shared stream offsets at 9_1"
    );
    assert_eq!(c91.vertex_texture_filter_caps.bits(), 0);
    let c92 = caps(FeatureLevel::L9_2);
    assert_eq!(c92.texture_address_caps.bits() & 0x08, 0, "BORDER at 9_2");
    assert_eq!(
        c92.primitive_misc_caps.bits() & 0x0000_4000,
        0,
        "INDEPENDENTWRITEMASKS at 9_2"
    );
    assert_eq!(c92.num_simultaneous_rts, 1);
    for level in [FeatureLevel::L9_1, FeatureLevel::L9_2, FeatureLevel::L9_3] {
        let c = caps(level);
        assert_eq!(c.pixel_shader_version, 0xFFFF_0200, "no ps_3_0 at {level}");
        assert_eq!(c.max_pixel_shader30_instruction_slots, 0);
        assert_eq!(
            c.texture_op_caps.bits(),
            0xF,
            "seed-minimum texture ops at {level}"
        );
        assert_eq!(c.raster_caps.bits() & 0x0004_0000, 0, "no w-buffer");
        assert_eq!(c.src_blend_caps.bits() & 0x400, 0, "no SRCALPHASAT");
    }
}

#[test]
fn software_vertex_processing_overlay_is_seed_004() {
    for level in FeatureLevel::SUPPORTED {
        let sw = caps(level).with_software_vertex_processing();
        assert_eq!(sw.max_active_lights, u32::MAX);
        assert_eq!(sw.max_user_clip_planes, 6);
        assert_eq!(sw.max_vertex_blend_matrices, 4);
        assert_eq!(sw.max_vertex_blend_matrix_index, 255);
        assert_eq!(sw.max_streams, 16);
        assert_eq!(sw.max_vertex_index, 0xFFFF_FFFF);
        assert_eq!(sw.vertex_shader_version, 0xFFFE_0300);
        assert_eq!(sw.vertex_processing_caps.bits(), 0x7B);
        // The pixel side stays at the level.
        assert_eq!(sw.pixel_shader_version, caps(level).pixel_shader_version);
    }
}

#[test]
fn json_has_every_member_under_its_d3d9_name() {
    let json = caps(FeatureLevel::L9_3).to_json();
    let obj = json.as_object().expect("object");
    assert_eq!(obj.len(), 69);
    assert_eq!(obj["MaxTextureWidth"], 4096);
    assert_eq!(obj["TextureAddressCaps"], 0x3F);
    assert_eq!(obj["PS20Caps"]["NumInstructionSlots"], 512);
    assert_eq!(obj["MaxVertexW"].as_f64(), Some(1.0e11));
    assert_eq!(obj.keys().next().map(String::as_str), Some("DeviceType"));
}
