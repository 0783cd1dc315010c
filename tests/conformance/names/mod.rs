//! D3D9 names to numbers, written out from the SDK headers (`d3d9types.h`,
//! `d3d9caps.h`) independently of the crate, so the harness does not
//! inherit a numbering mistake from the code it tests.
//!
//! Value names are unique across the D3D9 namespaces (every one carries its
//! prefix), so one lookup serves every enumeration; the state-key tables
//! are kept apart because a key is looked up by kind.

pub mod caps;
mod states;
mod values;

use states::{
    DECL_METHODS, DECL_TYPES, DECL_USAGES, FLOAT_RENDER_STATES, FLOAT_SAMPLER_STATES,
    FLOAT_STAGE_STATES, RENDER_STATES, SAMPLER_STATES, STAGE_STATES, TRANSFORMS,
};
use values::VALUES;

fn find<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// The number of a `D3DRS_*` name and whether its DWORD holds a float.
pub fn render_state(name: &str) -> Option<(u32, bool)> {
    let n = find(RENDER_STATES, name.strip_prefix("D3DRS_")?)?;
    Some((n, FLOAT_RENDER_STATES.contains(&n)))
}

/// The number of a `D3DTSS_*` name and whether its DWORD holds a float.
pub fn stage_state(name: &str) -> Option<(u32, bool)> {
    let n = find(STAGE_STATES, name.strip_prefix("D3DTSS_")?)?;
    Some((n, FLOAT_STAGE_STATES.contains(&n)))
}

/// The number of a `D3DSAMP_*` name and whether its DWORD holds a float.
pub fn sampler_state(name: &str) -> Option<(u32, bool)> {
    let n = find(SAMPLER_STATES, name.strip_prefix("D3DSAMP_")?)?;
    Some((n, FLOAT_SAMPLER_STATES.contains(&n)))
}

/// The number of a `D3DTS_*` name or of `D3DTS_WORLDMATRIX(n)` (256 + n).
pub fn transform(name: &str) -> Option<u32> {
    if let Some(n) = macro_arg(name, "D3DTS_WORLDMATRIX") {
        return n.parse::<u32>().ok().filter(|&n| n < 256).map(|n| 256 + n);
    }
    find(TRANSFORMS, name)
}

/// A `D3DDECLTYPE` name (with or without prefix): number and byte size.
pub fn decl_type(name: &str) -> Option<(u8, u32)> {
    let n = name.strip_prefix("D3DDECLTYPE_").unwrap_or(name);
    DECL_TYPES
        .iter()
        .find(|(t, _, _)| *t == n)
        .map(|&(_, v, s)| (v, s))
}

/// A `D3DDECLUSAGE` name (with or without prefix).
pub fn decl_usage(name: &str) -> Option<u8> {
    find(
        DECL_USAGES,
        name.strip_prefix("D3DDECLUSAGE_").unwrap_or(name),
    )
}

/// A `D3DDECLMETHOD` name (with or without prefix).
pub fn decl_method(name: &str) -> Option<u8> {
    find(
        DECL_METHODS,
        name.strip_prefix("D3DDECLMETHOD_").unwrap_or(name),
    )
}

/// A bare capability flag: the D3DCAPS9 member that holds it (its
/// family's first member) and its bit.
pub fn cap_flag(name: &str) -> Option<(&'static str, u32)> {
    caps::flag(name).map(|(f, bit)| (f.members[0], bit))
}

/// `NAME(arg)` -> `arg` (trimmed).
fn macro_arg<'a>(tok: &'a str, name: &str) -> Option<&'a str> {
    Some(
        tok.strip_prefix(name)?
            .strip_prefix('(')?
            .strip_suffix(')')?
            .trim(),
    )
}

/// The byte arguments of a colour macro, in the order written.
fn color_args(tok: &str, name: &str, n: usize) -> Option<Result<Vec<u32>, String>> {
    let args = macro_arg(tok, name)?;
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    if parts.len() != n {
        return Some(Err(format!("{name} takes {n} arguments: {tok:?}")));
    }
    Some(
        parts
            .iter()
            .map(|p| {
                number(p)
                    .map(|v| v & 0xFF)
                    .ok_or_else(|| format!("bad argument {p:?} in {tok:?}"))
            })
            .collect(),
    )
}

/// A decimal (possibly negative) or `0x` number.
fn number(tok: &str) -> Option<u32> {
    if let Some(hex) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    tok.parse::<u32>()
        .ok()
        .or_else(|| tok.parse::<i32>().ok().map(|v| v as u32))
}

/// One value token: a name, a decimal or `0x` number,
/// `D3DFVF_TEXCOORDSIZEk(n)`, or a `D3DCOLOR_ARGB/RGBA/XRGB(...)` macro.
fn token(tok: &str) -> Result<u32, String> {
    let tok = tok.trim();
    if let Some(v) = number(tok) {
        return Ok(v);
    }
    for k in 1..=4u32 {
        if let Some(n) = macro_arg(tok, &format!("D3DFVF_TEXCOORDSIZE{k}")) {
            let n: u32 = n
                .parse()
                .ok()
                .filter(|&n| n < 8)
                .ok_or_else(|| format!("bad {tok:?}"))?;
            // The size codes are 2 -> 0, 3 -> 1, 4 -> 2, 1 -> 3 per coordinate set.
            let code = [3, 0, 1, 2][k as usize - 1];
            return Ok(code << (n * 2 + 16));
        }
    }
    for (name, n, order) in [
        ("D3DCOLOR_ARGB", 4, [0, 1, 2, 3]),
        ("D3DCOLOR_RGBA", 4, [3, 0, 1, 2]),
        ("D3DCOLOR_XRGB", 3, [3, 0, 1, 2]),
    ] {
        if let Some(args) = color_args(tok, name, n) {
            let mut args = args?;
            if n == 3 {
                args.push(0xFF);
            }
            // `order` picks (a, r, g, b) out of the written arguments.
            let [a, r, g, b] = order.map(|i| args[i]);
            return Ok(a << 24 | r << 16 | g << 8 | b);
        }
    }
    find(VALUES, tok).ok_or_else(|| format!("unknown name {tok:?}"))
}

/// Splits a value string into its expression (`A | B | 0x10`) and the
/// remark after it: the README's "the first token is the value", where an
/// OR-expression counts as one value. Macro calls keep their parentheses.
pub fn split_value(s: &str) -> (&str, &str) {
    let b = s.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let mut end = 0;
    loop {
        skip_ws(&mut i);
        let start = i;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i == start {
            break;
        }
        if i < b.len() && b[i] == b'(' {
            match s[i..].find(')') {
                Some(close) => i += close + 1,
                None => break,
            }
        }
        end = i;
        skip_ws(&mut i);
        if i < b.len() && b[i] == b'|' {
            i += 1;
        } else {
            break;
        }
    }
    (s[..end].trim(), s[end..].trim())
}

/// Strips a trailing parenthesised remark of a requirement string:
/// `"PixelShaderVersion >= 1.4 (test-wide)"` -> `"PixelShaderVersion >= 1.4"`.
pub fn strip_remark(s: &str) -> &str {
    match s.find(" (") {
        Some(i) => s[..i].trim(),
        None => s.trim(),
    }
}

/// A DWORD expression: value names, numbers and `|`, with an optional remark.
pub fn dword_expr(s: &str) -> Result<u32, String> {
    let (body, _) = split_value(s);
    if body.is_empty() {
        return Err(format!("no value in {s:?}"));
    }
    body.split('|')
        .map(token)
        .try_fold(0u32, |acc, t| Ok(acc | t?))
}

/// A name as a `D3DFORMAT` number (with a remark allowed).
pub fn format_code(s: &str) -> Result<u32, String> {
    let (body, _) = split_value(s);
    if !body.starts_with("D3DFMT_") {
        return Err(format!("{s:?} is not a D3DFMT_ name"));
    }
    token(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        assert_eq!(dword_expr("D3DTA_CURRENT | D3DTA_ALPHAREPLICATE"), Ok(0x21));
        assert_eq!(dword_expr("TRUE (default, not changed by the test)"), Ok(1));
        assert_eq!(
            dword_expr("D3DFVF_XYZ | D3DFVF_TEXCOORDSIZE4(0) | D3DFVF_TEX1"),
            Ok(0x2_0102)
        );
        assert!(dword_expr("D3DTOP_NOPE").is_err());
        assert_eq!(render_state("D3DRS_FOGSTART"), Some((36, true)));
    }

    #[test]
    fn or_expressions_mix_names_and_numbers() {
        assert_eq!(
            dword_expr("D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_ALPHA"),
            Ok(0x9)
        );
        assert_eq!(dword_expr("D3DCOLORWRITEENABLE_RED|0x10|4"), Ok(0x15));
        assert_eq!(
            dword_expr("D3DTA_TEXTURE | D3DTA_COMPLEMENT | D3DTA_ALPHAREPLICATE"),
            Ok(0x32)
        );
        assert_eq!(
            dword_expr("D3DTSS_TCI_CAMERASPACEPOSITION | 1"),
            Ok(0x2_0001)
        );
        assert_eq!(dword_expr("-1"), Ok(u32::MAX));
        assert_eq!(dword_expr("0X0000FF00"), Ok(0xFF00));
    }

    #[test]
    fn remarks_follow_the_value() {
        assert_eq!(
            split_value("D3DCMP_GREATER (set earlier in the test)"),
            ("D3DCMP_GREATER", "(set earlier in the test)")
        );
        assert_eq!(
            split_value("D3DTA_TEXTURE | D3DTA_COMPLEMENT inverted"),
            ("D3DTA_TEXTURE | D3DTA_COMPLEMENT", "inverted")
        );
        assert_eq!(dword_expr("D3DZB_TRUE default"), Ok(1));
        assert!(dword_expr("(no value)").is_err());
        assert!(dword_expr("").is_err());
        // An unknown name is named in the error, never read as 0.
        let e = dword_expr("D3DRED | D3DCOLORWRITEENABLE_RED").unwrap_err();
        assert!(e.contains("D3DRED"), "{e}");
    }

    #[test]
    fn macros() {
        assert_eq!(dword_expr("D3DFVF_TEXCOORDSIZE1(1)"), Ok(3 << 18));
        assert_eq!(dword_expr("D3DFVF_TEXCOORDSIZE3(2)"), Ok(1 << 20));
        assert_eq!(dword_expr("D3DFVF_TEXCOORDSIZE2(7)"), Ok(0));
        assert!(dword_expr("D3DFVF_TEXCOORDSIZE5(0)").is_err());
        assert_eq!(
            dword_expr("D3DCOLOR_ARGB(0x80, 255, 0, 16)"),
            Ok(0x80FF_0010)
        );
        assert_eq!(dword_expr("D3DCOLOR_XRGB(1, 2, 3)"), Ok(0xFF01_0203));
        assert_eq!(dword_expr("D3DCOLOR_RGBA(1, 2, 3, 4)"), Ok(0x0401_0203));
        assert_eq!(transform("D3DTS_WORLDMATRIX(2)"), Some(258));
        assert_eq!(transform("D3DTS_WORLD3"), Some(259));
        assert_eq!(transform("D3DTS_TEXTURE7"), Some(23));
        assert_eq!(transform("D3DTS_WORLDMATRIX(256)"), None);
    }

    /// One name per enumeration family the states can carry, with its header value.
    #[test]
    fn every_value_family() {
        for (name, want) in [
            ("D3DZB_USEW", 2),
            ("D3DFILL_WIREFRAME", 2),
            ("D3DSHADE_PHONG", 3),
            ("D3DBLEND_INVBLENDFACTOR", 15),
            ("D3DBLEND_INVSRCCOLOR2", 17),
            ("D3DBLENDOP_REVSUBTRACT", 3),
            ("D3DCULL_CW", 2),
            ("D3DCMP_GREATEREQUAL", 7),
            ("D3DFOG_EXP2", 2),
            ("D3DSTENCILOP_DECR", 8),
            ("D3DMCS_COLOR2", 2),
            ("D3DVBF_3WEIGHTS", 3),
            ("D3DVBF_TWEENING", 255),
            ("D3DVBF_0WEIGHTS", 256),
            ("D3DPATCHEDGE_CONTINUOUS", 1),
            ("D3DDEGREE_QUINTIC", 5),
            ("D3DDMT_DISABLE", 1),
            ("D3DCOLORWRITEENABLE_BLUE", 4),
            ("D3DWRAP_W", 4),
            ("D3DWRAPCOORD_3", 8),
            ("D3DCLIPPLANE5", 0x20),
            ("D3DTOP_DISABLE", 1),
            ("D3DTOP_SELECTARG1", 2),
            ("D3DTOP_MODULATEINVCOLOR_ADDALPHA", 21),
            ("D3DTOP_LERP", 26),
            ("D3DTA_CONSTANT", 6),
            ("D3DTA_SELECTMASK", 0xF),
            ("D3DTTFF_PROJECTED", 0x100),
            ("D3DTSS_TCI_SPHEREMAP", 0x4_0000),
            ("D3DTEXF_GAUSSIANQUAD", 7),
            ("D3DTEXF_CONVOLUTIONMONO", 8),
            ("D3DTADDRESS_MIRRORONCE", 5),
            ("D3DLIGHT_SPOT", 2),
            ("D3DCLEAR_STENCIL", 4),
            ("D3DFVF_XYZB5", 0xE),
            ("D3DFVF_LASTBETA_D3DCOLOR", 0x8000),
            ("D3DPT_TRIANGLEFAN", 6),
            ("D3DFMT_A2R10G10B10", 35),
            ("D3DFMT_CxV8U8", 117),
            ("D3DFMT_DXT1", 0x3154_5844),
            ("D3DFMT_YUY2", 0x3259_5559),
            ("D3DPOOL_SCRATCH", 3),
            ("D3DUSAGE_QUERY_WRAPANDMIP", 0x20_0000),
            ("D3DMULTISAMPLE_16_SAMPLES", 16),
            ("D3DCUBEMAP_FACE_NEGATIVE_Z", 5),
        ] {
            assert_eq!(dword_expr(name), Ok(want), "{name}");
        }
    }

    #[test]
    fn state_keys() {
        assert_eq!(render_state("D3DRS_VERTEXBLEND"), Some((151, false)));
        assert_eq!(render_state("D3DRS_BLENDOPALPHA"), Some((209, false)));
        assert_eq!(render_state("D3DRS_DEPTHBIAS"), Some((195, true)));
        assert_eq!(render_state("D3DRS_ADAPTIVETESS_W"), Some((183, true)));
        assert_eq!(render_state("D3DRS_NOPE"), None);
        assert_eq!(stage_state("D3DTSS_BUMPENVLOFFSET"), Some((23, true)));
        assert_eq!(stage_state("D3DTSS_CONSTANT"), Some((32, false)));
        assert_eq!(sampler_state("D3DSAMP_MIPMAPLODBIAS"), Some((8, true)));
        assert_eq!(sampler_state("D3DSAMP_DMAPOFFSET"), Some((13, false)));
        assert_eq!(decl_type("D3DDECLTYPE_FLOAT16_4"), Some((16, 8)));
        assert_eq!(decl_usage("D3DDECLUSAGE_SAMPLE"), Some(13));
        assert_eq!(decl_method("LOOKUPPRESAMPLED"), Some(6));
    }

    #[test]
    fn cap_flags_of_every_family() {
        for (name, member, bit) in [
            ("D3DTEXOPCAPS_DISABLE", "TextureOpCaps", 0x1),
            ("D3DTEXOPCAPS_SELECTARG1", "TextureOpCaps", 0x2),
            ("D3DTEXOPCAPS_LERP", "TextureOpCaps", 0x200_0000),
            ("D3DPMISCCAPS_CLIPTLVERTS", "PrimitiveMiscCaps", 0x200),
            (
                "D3DPTEXTURECAPS_NOPROJECTEDBUMPENV",
                "TextureCaps",
                0x20_0000,
            ),
            (
                "D3DPRASTERCAPS_MULTISAMPLE_TOGGLE",
                "RasterCaps",
                0x800_0000,
            ),
            ("D3DPCMPCAPS_GREATER", "ZCmpCaps", 0x10),
            ("D3DPBLENDCAPS_BLENDFACTOR", "SrcBlendCaps", 0x2000),
            (
                "D3DPTFILTERCAPS_MAGFLINEAR",
                "TextureFilterCaps",
                0x200_0000,
            ),
            ("D3DPTADDRESSCAPS_BORDER", "TextureAddressCaps", 0x8),
            ("D3DSTENCILCAPS_TWOSIDED", "StencilCaps", 0x100),
            ("D3DVTXPCAPS_TWEENING", "VertexProcessingCaps", 0x40),
            ("D3DDEVCAPS2_STREAMOFFSET", "DevCaps2", 0x1),
            ("D3DDEVCAPS_HWTRANSFORMANDLIGHT", "DevCaps", 0x1_0000),
            ("D3DDTCAPS_FLOAT16_2", "DeclTypes", 0x100),
            ("D3DLINECAPS_ANTIALIAS", "LineCaps", 0x20),
            ("D3DPSHADECAPS_FOGGOURAUD", "ShadeCaps", 0x8_0000),
            ("D3DFVFCAPS_PSIZE", "FVFCaps", 0x10_0000),
            ("D3DCAPS2_CANAUTOGENMIPMAP", "Caps2", 0x4000_0000),
            ("D3DCAPS3_COPY_TO_VIDMEM", "Caps3", 0x100),
            ("D3DCAPS_READ_SCANLINE", "Caps", 0x2_0000),
            ("D3DCURSORCAPS_LOWRES", "CursorCaps", 0x2),
            (
                "D3DPRESENT_INTERVAL_IMMEDIATE",
                "PresentationIntervals",
                0x8000_0000,
            ),
            ("D3DPS20CAPS_GRADIENTINSTRUCTIONS", "PS20Caps.Caps", 0x2),
            ("D3DVS20CAPS_PREDICATION", "VS20Caps.Caps", 0x1),
        ] {
            assert_eq!(cap_flag(name), Some((member, bit)), "{name}");
        }
        assert_eq!(cap_flag("D3DTEXOPCAPS_NOPE"), None);
        // Every D3DTOP n has its TEXOPCAPS bit 1 << (n - 1) under the same suffix.
        for &(name, op) in VALUES.iter().filter(|(n, _)| n.starts_with("D3DTOP_")) {
            let cap = name.replace("D3DTOP_", "D3DTEXOPCAPS_");
            assert_eq!(
                cap_flag(&cap),
                Some(("TextureOpCaps", 1 << (op - 1))),
                "{cap}"
            );
        }
    }
}
