//! Which format a level supports for which use: the one table behind
//! `CheckDeviceFormat`, resource creation and draw-time format checks
//! (textures.md sections 2.1 and 2.2).

use super::FeatureLevel;
use crate::error::{Error, ErrorKind};
use crate::format::{Format, ResourceKind, Usage};

/// The success answers of a format query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatSupport {
    /// `D3D_OK`: supported for every requested usage.
    Supported,
    /// `D3DOK_NOAUTOGEN`: supported, but `AUTOGENMIPMAP` will not generate mips.
    SupportedNoAutogen,
}

use FeatureLevel::{L9_1, L9_2, L9_3, Sm3};

/// The lowest level at which a format has each use; `None` = never.
#[derive(Clone, Copy)]
struct Row {
    format: Format,
    texture: Option<FeatureLevel>,
    cube: Option<FeatureLevel>,
    volume: Option<FeatureLevel>,
    filter: Option<FeatureLevel>,
    render_target: Option<FeatureLevel>,
    blend: Option<FeatureLevel>,
    depth_stencil: Option<FeatureLevel>,
    srgb_read: bool,
    srgb_write: bool,
}

const fn row(
    format: Format,
    [texture, cube, volume, filter, render_target, blend]: [Option<FeatureLevel>; 6],
) -> Row {
    Row {
        format,
        texture,
        cube,
        volume,
        filter,
        render_target,
        blend,
        depth_stencil: None,
        srgb_read: false,
        srgb_write: false,
    }
}

const fn srgb(mut r: Row, read: bool, write: bool) -> Row {
    r.srgb_read = read;
    r.srgb_write = write;
    r
}

const fn depth(format: Format) -> Row {
    Row {
        format,
        texture: Some(L9_1),
        cube: None,
        volume: None,
        filter: None,
        render_target: None,
        blend: None,
        depth_stencil: Some(L9_1),
        srgb_read: false,
        srgb_write: false,
    }
}

const A: Option<FeatureLevel> = Some(L9_1);
const B: Option<FeatureLevel> = Some(L9_2);
const C: Option<FeatureLevel> = Some(L9_3);
const S: Option<FeatureLevel> = Some(Sm3);
const N: Option<FeatureLevel> = None;

/// textures.md 2.1 plus the crate's choices of 2.2. Columns: texture, cube,
/// volume, filter, render target, blend.
const TABLE: [Row; 28] = [
    srgb(row(Format::A8R8G8B8, [A, A, A, A, A, A]), true, true),
    srgb(row(Format::X8R8G8B8, [A, A, A, A, A, A]), true, true),
    srgb(row(Format::A8B8G8R8, [A, A, A, A, A, A]), true, true),
    srgb(row(Format::X8B8G8R8, [A, A, A, A, A, A]), true, true),
    row(Format::R5G6B5, [A, A, N, A, A, A]),
    row(Format::X1R5G5B5, [A, A, N, A, A, A]),
    row(Format::A1R5G5B5, [A, A, N, A, A, A]),
    row(Format::A4R4G4B4, [A, A, N, A, N, N]),
    row(Format::A8, [A, C, C, A, A, A]),
    row(Format::L8, [A, A, A, A, A, A]),
    row(Format::A8L8, [A, N, N, A, A, A]),
    row(Format::V8U8, [A, N, N, A, N, N]),
    row(Format::Q8W8V8U8, [A, A, N, A, N, N]),
    row(Format::V16U16, [A, B, B, B, N, N]),
    row(Format::L16, [B, B, B, B, N, N]),
    row(Format::G16R16, [B, B, B, B, B, N]),
    row(Format::A16B16G16R16, [B, B, B, B, B, N]),
    row(Format::R16F, [S, S, S, S, S, S]),
    row(Format::G16R16F, [B, B, B, S, B, S]),
    row(Format::A16B16G16R16F, [B, B, B, S, B, C]),
    row(Format::R32F, [B, B, B, N, B, N]),
    row(Format::G32R32F, [C, C, C, N, C, N]),
    row(Format::A32B32G32R32F, [B, C, C, N, B, N]),
    srgb(row(Format::DXT1, [A, A, N, A, N, N]), true, false),
    srgb(row(Format::DXT2, [A, A, N, A, N, N]), true, false),
    srgb(row(Format::DXT3, [A, A, N, A, N, N]), true, false),
    srgb(row(Format::DXT4, [A, A, N, A, N, N]), true, false),
    srgb(row(Format::DXT5, [A, A, N, A, N, N]), true, false),
];

const DEPTH_TABLE: [Row; 4] = [
    depth(Format::D16),
    depth(Format::D16_LOCKABLE),
    depth(Format::D24S8),
    depth(Format::D24X8),
];

fn find(format: Format) -> Option<&'static Row> {
    TABLE
        .iter()
        .chain(DEPTH_TABLE.iter())
        .find(|r| r.format == format)
}

fn at(level: FeatureLevel, min: Option<FeatureLevel>) -> bool {
    min.is_some_and(|m| level.includes(m))
}

/// The back-buffer formats a swap chain may use (FMT9's list, textures.md 2.2).
pub const BACK_BUFFER_FORMATS: [Format; 5] = [
    Format::A8R8G8B8,
    Format::X8R8G8B8,
    Format::R5G6B5,
    Format::X1R5G5B5,
    Format::A1R5G5B5,
];

/// Answers `CheckDeviceFormat(format, usage, kind)` for a device at `level`.
///
/// `software_vp` is true when the question is asked for software vertex
/// processing, under which every texture format is a vertex texture.
/// Returns `NotAvailable` naming the format, usage and level when any part
/// of `usage` is unsupported.
pub fn check_format(
    level: FeatureLevel,
    kind: ResourceKind,
    format: Format,
    usage: Usage,
    software_vp: bool,
) -> Result<FormatSupport, Error> {
    let refuse = |what: &str| {
        Err(Error::new(
            ErrorKind::NotAvailable,
            format!("format {format:?} does not support {what} at level {level}"),
        ))
    };
    if !level.is_supported() {
        return refuse("anything (no driver supports this level)");
    }
    match kind {
        ResourceKind::VertexBuffer => {
            return if format == Format::VertexData && usage.difference(buffer_usages()).is_empty() {
                Ok(FormatSupport::Supported)
            } else {
                refuse("use as a vertex buffer")
            };
        }
        ResourceKind::IndexBuffer => {
            let ok = match format {
                Format::Index16 => true,
                Format::Index32 => level.includes(L9_2),
                _ => false,
            };
            return if ok && usage.difference(buffer_usages()).is_empty() {
                Ok(FormatSupport::Supported)
            } else {
                refuse("use as an index buffer")
            };
        }
        _ => {}
    }
    let Some(row) = find(format) else {
        return refuse("any use");
    };
    let exists = match kind {
        ResourceKind::Texture => at(level, row.texture),
        ResourceKind::CubeTexture => at(level, row.cube),
        ResourceKind::VolumeTexture | ResourceKind::Volume => at(level, row.volume),
        ResourceKind::Surface => {
            at(level, row.texture) || at(level, row.render_target) || at(level, row.depth_stencil)
        }
        ResourceKind::VertexBuffer | ResourceKind::IndexBuffer => false,
    };
    if !exists {
        return refuse(match kind {
            ResourceKind::CubeTexture => "cube textures",
            ResourceKind::VolumeTexture | ResourceKind::Volume => "volume textures",
            _ => "textures",
        });
    }
    let is_texture_kind = !matches!(kind, ResourceKind::Surface);
    let mut result = FormatSupport::Supported;
    for flag in usage.iter() {
        let ok = match flag {
            Usage::RENDERTARGET => at(level, row.render_target),
            Usage::DEPTHSTENCIL => {
                // Depth textures are 2D only (shadow maps); cube/volume depth is never offered.
                at(level, row.depth_stencil)
                    && matches!(kind, ResourceKind::Texture | ResourceKind::Surface)
            }
            Usage::DYNAMIC | Usage::WRITE_ONLY | Usage::SOFTWAREPROCESSING => true,
            Usage::QUERY_WRAPANDMIP => is_texture_kind,
            Usage::QUERY_FILTER => at(level, row.filter),
            Usage::QUERY_POSTPIXELSHADER_BLENDING => at(level, row.blend),
            Usage::QUERY_SRGBREAD => row.srgb_read,
            Usage::QUERY_SRGBWRITE => row.srgb_write,
            Usage::QUERY_VERTEXTEXTURE => {
                row.depth_stencil.is_none() && (software_vp || level == Sm3)
            }
            Usage::AUTOGENMIPMAP => {
                if !is_texture_kind || row.depth_stencil.is_some() {
                    false
                } else {
                    if !(level == Sm3 && at(level, row.filter)) {
                        result = FormatSupport::SupportedNoAutogen;
                    }
                    true
                }
            }
            _ => false,
        };
        if !ok {
            return refuse(&format!("usage {}", usage_name(flag)));
        }
    }
    Ok(result)
}

const fn buffer_usages() -> Usage {
    Usage::from_bits_retain(
        Usage::WRITE_ONLY.bits()
            | Usage::DYNAMIC.bits()
            | Usage::SOFTWAREPROCESSING.bits()
            | Usage::DONOTCLIP.bits()
            | Usage::POINTS.bits(),
    )
}

/// The D3D9 name of one usage flag, for messages.
pub(crate) fn usage_name(flag: Usage) -> String {
    let name = Usage::all()
        .iter_names()
        .find(|(_, f)| *f == flag)
        .map_or("UNKNOWN", |(n, _)| n);
    // The Rust name splits WRITE_ONLY for readability; D3D9 spells it WRITEONLY.
    format!(
        "D3DUSAGE_{}",
        if name == "WRITE_ONLY" {
            "WRITEONLY"
        } else {
            name
        }
    )
}
