//! One test per requirement form of the README: each is parsed from its
//! string and checked against the caps of the four levels, so a form is
//! both read and meant the way D3D9 means it.

use warp9::{DriverType, FeatureLevel, ResourceKind, Usage};

use super::replay::fresh_device;
use super::requires::{Cmp, Req, met, parse};

/// Whether `req` holds at each of 9_1, 9_2, 9_3 and SM3.
fn by_level(req: &str) -> [bool; 4] {
    let r = parse(req).unwrap_or_else(|e| panic!("{req}: {e}"));
    FeatureLevel::SUPPORTED.map(|l| met(&r, &fresh_device(DriverType::Warp, l).expect("device")))
}

#[test]
fn shader_versions() {
    assert_eq!(
        parse("VertexShaderVersion >= 3.0 (test-wide)"),
        Ok(Req::ShaderVersion {
            pixel: false,
            major: 3,
            minor: 0
        })
    );
    assert_eq!(
        parse("PixelShaderVersion >= D3DPS_VERSION(2, 0)"),
        parse("PixelShaderVersion >= 2.0")
    );
    assert_eq!(
        by_level("VertexShaderVersion >= 3.0"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("PixelShaderVersion >= 3.0"),
        [false, false, false, true]
    );
    assert_eq!(by_level("PixelShaderVersion >= 1.4"), [true; 4]);
}

#[test]
fn numeric_member_comparisons() {
    assert_eq!(
        parse("MaxPointSize >= 63"),
        Ok(Req::Compare {
            member: "MaxPointSize",
            cmp: Cmp::Ge,
            value: 63.0
        })
    );
    // Every level has MaxPointSize 256 and four blend matrices.
    assert_eq!(by_level("MaxPointSize >= 63"), [true; 4]);
    assert_eq!(by_level("MaxPointSize > 256.0f"), [false; 4]);
    assert_eq!(by_level("MaxVertexBlendMatrices >= 4"), [true; 4]);
    assert_eq!(by_level("MaxVertexBlendMatrices == 4"), [true; 4]);
    assert_eq!(by_level("MaxVertexBlendMatrices != 4"), [false; 4]);
    assert_eq!(by_level("MaxVertexBlendMatrices < 4"), [false; 4]);
    assert_eq!(
        by_level("MaxTextureWidth <= 2048"),
        [true, true, false, false]
    );
    assert_eq!(
        by_level("NumSimultaneousRTs >= 4"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("PS20Caps.NumTemps >= 32"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("VS20Caps.StaticFlowControlDepth >= 4"),
        [false, false, true, true]
    );
    assert!(parse("MaxPointSize >= big").is_err());
    let e = parse("MaxPointSizes >= 63").unwrap_err();
    assert!(e.contains("MaxPointSizes"), "{e}");
}

#[test]
fn member_bit_tests() {
    assert_eq!(
        parse("TextureOpCaps & D3DTEXOPCAPS_LERP"),
        Ok(Req::CapBit {
            member: "TextureOpCaps",
            bit: 0x200_0000,
            name: "D3DTEXOPCAPS_LERP".into()
        })
    );
    // 9_x levels have only the first four texture ops; SM3 has all.
    assert_eq!(
        by_level("TextureOpCaps & D3DTEXOPCAPS_LERP"),
        [false, false, false, true]
    );
    assert_eq!(by_level("TextureOpCaps & D3DTEXOPCAPS_DISABLE"), [true; 4]);
    assert_eq!(
        by_level("TextureOpCaps & D3DTEXOPCAPS_SELECTARG1 | D3DTEXOPCAPS_MODULATE"),
        [true; 4]
    );
    assert_eq!(
        by_level("VertexTextureFilterCaps & D3DPTFILTERCAPS_MINFPOINT"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("TextureAddressCaps & 0x8"),
        [false, false, true, true]
    );
    // A flag of another family under a member is an error naming it.
    let e = parse("TextureOpCaps & D3DPTEXTURECAPS_CUBEMAP").unwrap_err();
    assert!(e.contains("D3DPTEXTURECAPS_CUBEMAP"), "{e}");
}

#[test]
fn member_with_short_flag_names() {
    assert_eq!(
        parse("VertexTextureFilterCaps MINFPOINT|MAGFPOINT"),
        Ok(Req::CapBit {
            member: "VertexTextureFilterCaps",
            bit: 0x100_0100,
            name: "MINFPOINT|MAGFPOINT".into()
        })
    );
    assert_eq!(
        by_level("VertexTextureFilterCaps MINFPOINT|MAGFPOINT"),
        [false, false, true, true]
    );
    assert!(parse("VertexTextureFilterCaps MINFBOGUS").is_err());
}

#[test]
fn bare_flag_names_of_every_family() {
    // No level claims D3DTA_TEMP (tssargtemp_test skips for it).
    assert_eq!(by_level("D3DPMISCCAPS_TSSARGTEMP"), [false; 4]);
    assert_eq!(
        by_level("D3DPMISCCAPS_CLIPTLVERTS"),
        [false, false, false, true]
    );
    assert_eq!(
        by_level("D3DPMISCCAPS_SEPARATEALPHABLEND"),
        [false, true, true, true]
    );
    assert_eq!(by_level("D3DPTEXTURECAPS_CUBEMAP"), [true; 4]);
    assert_eq!(
        by_level("D3DPTEXTURECAPS_VOLUMEMAP (volume textures)"),
        [true; 4]
    );
    assert_eq!(by_level("D3DTEXOPCAPS_SELECTARG1"), [true; 4]);
    assert_eq!(
        by_level("D3DTEXOPCAPS_BUMPENVMAP"),
        [false, false, false, true]
    );
    assert_eq!(by_level("D3DPRASTERCAPS_FOGTABLE"), [true; 4]);
    assert_eq!(by_level("D3DPRASTERCAPS_WFOG"), [false, true, true, true]);
    assert_eq!(by_level("D3DSTENCILCAPS_TWOSIDED"), [true; 4]);
    assert_eq!(
        by_level("D3DPTADDRESSCAPS_BORDER"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("D3DCAPS2_CANAUTOGENMIPMAP"),
        [false, false, false, true]
    );
    assert_eq!(by_level("D3DDTCAPS_FLOAT16_2"), [false, false, true, true]);
    assert_eq!(
        by_level("D3DVS20CAPS_PREDICATION"),
        [false, false, true, true]
    );
    assert_eq!(
        by_level("D3DPTFILTERCAPS_MINFPOINT | D3DPTFILTERCAPS_MAGFPOINT"),
        [true; 4]
    );
    // Several members' flags in one bare expression have no single meaning.
    assert!(parse("D3DPTEXTURECAPS_CUBEMAP | D3DPRASTERCAPS_FOGTABLE").is_err());
}

#[test]
fn format_forms() {
    assert_eq!(
        parse("D3DFMT_V8U8 supported as a texture format"),
        Ok(Req::Format {
            kind: ResourceKind::Texture,
            format: 60,
            usage: Usage::empty()
        })
    );
    assert_eq!(
        parse("D3DFMT_D24S8 supported as a depth-stencil format"),
        Ok(Req::Format {
            kind: ResourceKind::Surface,
            format: 75,
            usage: Usage::DEPTHSTENCIL
        })
    );
    assert_eq!(
        parse("D24S8 depth/stencil buffer"),
        parse("D3DFMT_D24S8 supported as a depth-stencil format")
    );
    assert_eq!(
        parse("D3DUSAGE_QUERY_VERTEXTEXTURE for D3DFMT_A8R8G8B8"),
        Ok(Req::Format {
            kind: ResourceKind::Texture,
            format: 21,
            usage: Usage::QUERY_VERTEXTEXTURE
        })
    );
    assert_eq!(
        parse("D3DFMT_A8R8G8B8 supported as a vertex texture format"),
        parse("D3DUSAGE_QUERY_VERTEXTEXTURE for D3DFMT_A8R8G8B8")
    );
    assert_eq!(
        parse("D3DFMT_A8R8G8B8 supported as a render target texture format"),
        Ok(Req::Format {
            kind: ResourceKind::Texture,
            format: 21,
            usage: Usage::RENDERTARGET
        })
    );
    assert_eq!(
        by_level("D3DFMT_A8R8G8B8 supported as a texture format"),
        [true; 4]
    );
    assert_eq!(
        by_level("D3DFMT_A8R8G8B8 supported as a cube texture format"),
        [true; 4]
    );
    assert_eq!(
        by_level("D3DFMT_A8R8G8B8 supported as a volume texture format"),
        [true; 4]
    );
    assert_eq!(
        by_level("D3DFMT_A8R8G8B8 supported as a render target format"),
        [true; 4]
    );
    assert_eq!(
        by_level("D3DFMT_D24S8 supported as a depth stencil format"),
        [true; 4]
    );
    // The format table offers vertex textures only from SM3, although 9_3 has the filter caps.
    assert_eq!(
        by_level("D3DUSAGE_QUERY_VERTEXTEXTURE for D3DFMT_A8R8G8B8"),
        [false, false, false, true]
    );
    // A depth format is no colour render target.
    assert_eq!(
        by_level("D3DFMT_D24S8 supported as a render target format"),
        [false; 4]
    );
    assert!(parse("D3DFMT_NOPE supported as a texture format").is_err());
}

#[test]
fn unknown_forms_are_named() {
    for s in [
        "D3DPMISCCAPS_NOPE",
        "Hardware T&L",
        "D3DFMT_A8R8G8B8 usable somehow",
        "",
    ] {
        let e = parse(s).expect_err(s);
        assert!(
            e.contains(&format!("{s:?}")) || e.contains("NOPE"),
            "{s}: {e}"
        );
    }
}
