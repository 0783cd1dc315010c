//! Case requirements and the feature level a case runs at.
//!
//! A case runs at the **lowest** of the four levels (9_1, 9_2, 9_3, SM3)
//! whose caps (`Caps::for_level`) and format table meet every requirement:
//! the ones the data states (`requires` of the file and the case), plus the
//! ones a D3D9 application would have to check for what the case uses and
//! the data leaves implicit because every Windows driver of the time had
//! them: shader versions, texture ops (`TextureOpCaps`), address modes
//! (`TextureAddressCaps`), declaration types (`DeclTypes`), cube and volume
//! textures, texture formats, D3DTA_TEMP (`TSSARGTEMP`) and two-sided
//! stencil. When no level meets them, the case is skipped and the reason
//! names the unmet requirement: that is a skip a level justifies.

use warp9::caps::CapValue;
use warp9::{Caps, Device, Format, ResourceKind, Usage};

use super::case::{Case, Content, Draw, Setup, Step, Suite, TextureKind};
use super::names;

/// One checkable requirement.
#[derive(Clone, Debug, PartialEq)]
pub enum Req {
    /// `VertexShaderVersion >= major.minor` (or PixelShaderVersion when `pixel`).
    ShaderVersion { pixel: bool, major: u32, minor: u32 },
    /// A bit of a D3DCAPS9 member.
    CapBit {
        member: &'static str,
        bit: u32,
        name: String,
    },
    /// `CheckDeviceFormat(kind, format, usage)` succeeds.
    Format {
        kind: ResourceKind,
        format: u32,
        usage: Usage,
    },
}

impl std::fmt::Display for Req {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Req::ShaderVersion {
                pixel,
                major,
                minor,
            } => {
                let kind = if *pixel { "Pixel" } else { "Vertex" };
                write!(f, "{kind}ShaderVersion >= {major}.{minor}")
            }
            Req::CapBit { member, name, .. } => write!(f, "{member} & {name}"),
            Req::Format {
                kind,
                format,
                usage,
            } => write!(f, "{kind:?} format {format} with usage {usage:?}"),
        }
    }
}

/// Parses a requirement string of the data.
pub fn parse(s: &str) -> Result<Req, String> {
    let body = names::strip_remark(s);
    for (prefix, pixel) in [
        ("VertexShaderVersion >= ", false),
        ("PixelShaderVersion >= ", true),
    ] {
        if let Some(v) = body.strip_prefix(prefix) {
            let (major, minor) = v
                .split_once('.')
                .ok_or_else(|| format!("bad version in {s:?}"))?;
            return Ok(Req::ShaderVersion {
                pixel,
                major: major.parse().map_err(|_| format!("bad version {s:?}"))?,
                minor: minor.parse().map_err(|_| format!("bad version {s:?}"))?,
            });
        }
    }
    if let Some(op) = body.strip_prefix("TextureOpCaps & ") {
        return cap(op.trim());
    }
    if body == "VertexTextureFilterCaps MINFPOINT|MAGFPOINT" {
        return Ok(Req::CapBit {
            member: "VertexTextureFilterCaps",
            bit: 0x0100_0100,
            name: "D3DPTFILTERCAPS_MINFPOINT|D3DPTFILTERCAPS_MAGFPOINT".into(),
        });
    }
    if let Some(fmt) = body.strip_prefix("D3DUSAGE_QUERY_VERTEXTEXTURE for ") {
        return Ok(Req::Format {
            kind: ResourceKind::Texture,
            format: names::format_code(fmt)?,
            usage: Usage::QUERY_VERTEXTEXTURE,
        });
    }
    if let Some(fmt) = body.strip_suffix(" supported as a depth-stencil format") {
        return Ok(Req::Format {
            kind: ResourceKind::Surface,
            format: names::format_code(fmt)?,
            usage: Usage::DEPTHSTENCIL,
        });
    }
    if body == "D24S8 depth/stencil buffer" {
        return Ok(Req::Format {
            kind: ResourceKind::Surface,
            format: 75,
            usage: Usage::DEPTHSTENCIL,
        });
    }
    cap(body)
}

fn cap(name: &str) -> Result<Req, String> {
    let (member, bit) =
        names::cap_flag(name).ok_or_else(|| format!("unknown requirement {name:?}"))?;
    Ok(Req::CapBit {
        member,
        bit,
        name: name.to_string(),
    })
}

fn member(caps: &Caps, name: &str) -> u32 {
    caps.members()
        .iter()
        .find(|m| m.name == name)
        .and_then(|m| match m.value {
            CapValue::U32(v) | CapValue::Flags(v) => Some(v),
            _ => None,
        })
        .unwrap_or(0)
}

/// Whether `req` holds on `device` (caps of its level, its format table).
pub fn met(req: &Req, device: &Device) -> bool {
    let caps = device.get_device_caps();
    match req {
        Req::ShaderVersion {
            pixel,
            major,
            minor,
        } => {
            let v = if *pixel {
                caps.pixel_shader_version
            } else {
                caps.vertex_shader_version
            };
            (v >> 8 & 0xFF, v & 0xFF) >= (*major, *minor)
        }
        Req::CapBit { member: m, bit, .. } => member(&caps, m) & bit == *bit,
        Req::Format {
            kind,
            format,
            usage,
        } => Format::from_raw(*format)
            .is_some_and(|f| device.check_device_format(*kind, f, *usage).is_ok()),
    }
}

fn texop_req(op: u32) -> Option<Req> {
    (1..=26).contains(&op).then(|| Req::CapBit {
        member: "TextureOpCaps",
        bit: 1 << (op - 1),
        name: format!("D3DTEXOPCAPS bit of D3DTOP {op}"),
    })
}

fn setup_reqs(s: &Setup, out: &mut Vec<Req>) {
    for &(_, state, value) in &s.stage {
        match state {
            1 | 4 => out.extend(texop_req(value)),
            2 | 3 | 5 | 6 | 26 | 27 | 28 if value & 0xF == 5 => out.push(Req::CapBit {
                member: "PrimitiveMiscCaps",
                bit: 0x400,
                name: "D3DPMISCCAPS_TSSARGTEMP (D3DTA_TEMP)".into(),
            }),
            _ => {}
        }
    }
    for &(sampler, state, value) in &s.sampler {
        let vertex = sampler >= 257;
        if matches!(state, 1..=3) && (1..=5).contains(&value) && !vertex {
            let bit = [1, 2, 4, 8, 0x20][value as usize - 1];
            out.push(Req::CapBit {
                member: "TextureAddressCaps",
                bit,
                name: format!("D3DPTADDRESSCAPS bit 0x{bit:x}"),
            });
        }
    }
    for &(state, value) in &s.render {
        if state == 185 && value != 0 {
            out.push(Req::CapBit {
                member: "StencilCaps",
                bit: 0x100,
                name: "D3DSTENCILCAPS_TWOSIDED".into(),
            });
        }
    }
    if let Some(sh) = &s.shaders {
        for spec in sh.vertex.iter().chain(&sh.pixel) {
            if let Some((pixel, major, minor)) = spec.model()
                && major >= 2
            {
                out.push(Req::ShaderVersion {
                    pixel,
                    major,
                    minor,
                });
            }
        }
    }
}

fn draw_reqs(d: &Draw, out: &mut Vec<Req>) {
    setup_reqs(&d.setup, out);
    for &(_, _, ty, _, _, _) in &d.decl {
        let bit = match ty {
            5 => 0x1,
            8 => 0x2,
            9 => 0x4,
            10 => 0x8,
            11 => 0x10,
            12 => 0x20,
            13 => 0x40,
            14 => 0x80,
            15 => 0x100,
            16 => 0x200,
            _ => continue,
        };
        out.push(Req::CapBit {
            member: "DeclTypes",
            bit,
            name: format!("D3DDTCAPS bit 0x{bit:x}"),
        });
    }
}

/// Every requirement of a case: stated and derived.
pub fn case_reqs(suite: &Suite, case: &Case) -> Result<Vec<Req>, String> {
    let mut out = suite
        .requires
        .iter()
        .chain(&case.requires)
        .map(|s| parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    setup_reqs(&case.setup, &mut out);
    for d in &case.draws {
        draw_reqs(d, &mut out);
    }
    for (sampler, t) in &case.textures {
        let kind = match t.kind {
            TextureKind::Flat { .. } => ResourceKind::Texture,
            TextureKind::Cube { .. } => {
                out.push(cap("D3DPTEXTURECAPS_CUBEMAP")?);
                ResourceKind::CubeTexture
            }
            TextureKind::Volume { .. } => {
                out.push(cap("D3DPTEXTURECAPS_VOLUMEMAP")?);
                ResourceKind::VolumeTexture
            }
        };
        let usage = if *sampler >= 257 {
            Usage::QUERY_VERTEXTEXTURE
        } else {
            Usage::empty()
        };
        out.push(Req::Format {
            kind,
            format: t.format,
            usage,
        });
        if matches!(t.content, Content::LevelsFill(_)) || t.levels > 1 {
            out.push(cap("D3DPTEXTURECAPS_MIPMAP")?);
        }
    }
    for s in &case.steps {
        match s {
            Step::Draw { setup, draw, .. } => {
                setup_reqs(setup, &mut out);
                draw_reqs(draw, &mut out);
            }
            Step::CreateTexture { format, usage, .. } => out.push(Req::Format {
                kind: ResourceKind::Texture,
                format: *format,
                usage: Usage::from_bits_truncate(*usage),
            }),
            Step::CreateRenderTarget { format, .. } => out.push(Req::Format {
                kind: ResourceKind::Surface,
                format: *format,
                usage: Usage::RENDERTARGET,
            }),
            Step::CreateDepthStencil { format, .. } => out.push(Req::Format {
                kind: ResourceKind::Surface,
                format: *format,
                usage: Usage::DEPTHSTENCIL,
            }),
            _ => {}
        }
    }
    let mut unique: Vec<Req> = Vec::new();
    for r in out {
        let same = |u: &Req| match (u, &r) {
            (
                Req::CapBit {
                    member: a, bit: x, ..
                },
                Req::CapBit {
                    member: b, bit: y, ..
                },
            ) => a == b && x == y,
            _ => *u == r,
        };
        if !unique.iter().any(same) {
            unique.push(r);
        }
    }
    Ok(unique)
}
