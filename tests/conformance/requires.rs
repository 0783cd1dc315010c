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
use warp9::{Caps, Device, FeatureLevel, Format, ResourceKind, Usage};

use super::case::{Case, Content, Draw, Setup, Step, Suite, TextureKind};
use super::names;

/// A comparison operator of a numeric caps requirement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmp {
    Ge,
    Le,
    Gt,
    Lt,
    Eq,
    Ne,
}

impl Cmp {
    /// Longest spellings first so `>=` is not read as `>`.
    const ALL: [(&'static str, Cmp); 6] = [
        (">=", Cmp::Ge),
        ("<=", Cmp::Le),
        ("==", Cmp::Eq),
        ("!=", Cmp::Ne),
        (">", Cmp::Gt),
        ("<", Cmp::Lt),
    ];

    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Ge => a >= b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Lt => a < b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    fn text(self) -> &'static str {
        Cmp::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("?", |(t, _)| t)
    }
}

/// One checkable requirement.
#[derive(Clone, Debug, PartialEq)]
pub enum Req {
    /// `VertexShaderVersion >= major.minor` (or PixelShaderVersion when `pixel`).
    ShaderVersion { pixel: bool, major: u32, minor: u32 },
    /// Bits of a D3DCAPS9 member, all of which must be set.
    CapBit {
        member: &'static str,
        bit: u32,
        name: String,
    },
    /// A numeric D3DCAPS9 member (or a `VS20Caps.` / `PS20Caps.` field)
    /// compared with a number: `MaxPointSize >= 63`.
    Compare {
        member: &'static str,
        cmp: Cmp,
        value: f64,
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
            Req::Compare { member, cmp, value } => {
                write!(f, "{member} {} {value}", cmp.text())
            }
            Req::Format {
                kind,
                format,
                usage,
            } => write!(f, "{kind:?} format {format} with usage {usage:?}"),
        }
    }
}

/// The nested fields of `VS20Caps` / `PS20Caps` a requirement may name.
const SHADER_CAPS_FIELDS: [&str; 5] = [
    "Caps",
    "DynamicFlowControlDepth",
    "NumTemps",
    "StaticFlowControlDepth",
    "NumInstructionSlots",
];

/// The D3DCAPS9 member name as a `'static` string (the names warp9's
/// `Caps::members` lists, plus the shader caps' fields), or `None`.
fn member_name(name: &str) -> Option<&'static str> {
    let caps = Caps::for_level(FeatureLevel::SUPPORTED[0])?;
    if let Some((outer, field)) = name.split_once('.') {
        let outer = ["VS20Caps", "PS20Caps"].into_iter().find(|o| *o == outer)?;
        let field = SHADER_CAPS_FIELDS.into_iter().find(|f| *f == field)?;
        if outer == "VS20Caps" && field == "NumInstructionSlots" {
            return None;
        }
        // A handful of names, leaked once per parse: the harness is a test.
        return Some(Box::leak(format!("{outer}.{field}").into_boxed_str()));
    }
    caps.members().iter().map(|m| m.name).find(|n| *n == name)
}

/// A member's value as a number (flags as their DWORD), `None` for a
/// member that is not numeric.
fn member_value(caps: &Caps, name: &str) -> Option<f64> {
    let (outer, field) = match name.split_once('.') {
        Some((o, f)) => (o, Some(f)),
        None => (name, None),
    };
    let value = caps.members().iter().find(|m| m.name == outer)?.value;
    match (value, field) {
        (CapValue::U32(v) | CapValue::Flags(v), None) => Some(f64::from(v)),
        (CapValue::F32(v), None) => Some(f64::from(v)),
        (CapValue::Vs20(v), Some(f)) => Some(f64::from(match f {
            "Caps" => v.caps.bits() as i32,
            "DynamicFlowControlDepth" => v.dynamic_flow_control_depth,
            "NumTemps" => v.num_temps,
            "StaticFlowControlDepth" => v.static_flow_control_depth,
            _ => return None,
        })),
        (CapValue::Ps20(v), Some(f)) => Some(f64::from(match f {
            "Caps" => v.caps.bits() as i32,
            "DynamicFlowControlDepth" => v.dynamic_flow_control_depth,
            "NumTemps" => v.num_temps,
            "StaticFlowControlDepth" => v.static_flow_control_depth,
            "NumInstructionSlots" => v.num_instruction_slots,
            _ => return None,
        })),
        _ => None,
    }
}

/// `2.0`, `D3DVS_VERSION(2,0)` or `D3DPS_VERSION(2, 0)` as (major, minor).
fn version(v: &str, pixel: bool) -> Option<(u32, u32)> {
    let macro_ = if pixel {
        "D3DPS_VERSION("
    } else {
        "D3DVS_VERSION("
    };
    let (major, minor) = match v.strip_prefix(macro_) {
        Some(args) => args.strip_suffix(')')?.split_once(',')?,
        None => v.split_once('.')?,
    };
    Some((major.trim().parse().ok()?, minor.trim().parse().ok()?))
}

/// A flag expression `A | B | 0x10` for `member`: full names must belong
/// to the member's family, short names (`MINFPOINT`) are read in it.
fn member_bits(member: &'static str, expr: &str, whole: &str) -> Result<Req, String> {
    let family = names::caps::family_of(member);
    let mut bits = 0;
    let mut shown = Vec::new();
    for tok in expr.split('|').map(str::trim) {
        let bit = if let Some(hex) = tok.strip_prefix("0x") {
            u32::from_str_radix(hex, 16).map_err(|_| format!("bad mask {tok:?} in {whole:?}"))?
        } else {
            let fam = family.ok_or_else(|| format!("{member} holds no flags ({whole:?})"))?;
            let short = tok.strip_prefix(fam.prefix).unwrap_or(tok);
            if short.starts_with("D3D") {
                return Err(format!(
                    "{tok} is not a {} flag of {member} ({whole:?})",
                    fam.prefix
                ));
            }
            fam.flags
                .iter()
                .find(|(n, _)| *n == short)
                .map(|&(_, b)| b)
                .ok_or_else(|| format!("unknown {}{short} in {whole:?}", fam.prefix))?
        };
        bits |= bit;
        shown.push(tok);
    }
    Ok(Req::CapBit {
        member,
        bit: bits,
        name: shown.join("|"),
    })
}

/// `<format> supported as a ... format` phrasings: suffix, resource kind, usage.
const FORMAT_FORMS: [(&str, ResourceKind, Usage); 9] = [
    (
        " supported as a texture format",
        ResourceKind::Texture,
        Usage::empty(),
    ),
    (
        " supported as a cube texture format",
        ResourceKind::CubeTexture,
        Usage::empty(),
    ),
    (
        " supported as a volume texture format",
        ResourceKind::VolumeTexture,
        Usage::empty(),
    ),
    (
        " supported as a render target format",
        ResourceKind::Surface,
        Usage::RENDERTARGET,
    ),
    (
        " supported as a render-target format",
        ResourceKind::Surface,
        Usage::RENDERTARGET,
    ),
    (
        " supported as a render target texture format",
        ResourceKind::Texture,
        Usage::RENDERTARGET,
    ),
    (
        " supported as a depth-stencil format",
        ResourceKind::Surface,
        Usage::DEPTHSTENCIL,
    ),
    (
        " supported as a depth stencil format",
        ResourceKind::Surface,
        Usage::DEPTHSTENCIL,
    ),
    (
        " supported as a vertex texture format",
        ResourceKind::Texture,
        Usage::QUERY_VERTEXTEXTURE,
    ),
];

/// A format name with or without its `D3DFMT_` prefix.
fn format_name(name: &str) -> Result<u32, String> {
    let name = name.trim();
    if name.starts_with("D3DFMT_") {
        names::format_code(name)
    } else {
        names::format_code(&format!("D3DFMT_{name}"))
    }
}

/// Parses a requirement string of the data. Every form the README's
/// layout allows is read; anything else is an error naming the string.
pub fn parse(s: &str) -> Result<Req, String> {
    let body = names::strip_remark(s);
    for (form, kind, usage) in FORMAT_FORMS {
        if let Some(fmt) = body.strip_suffix(form) {
            return Ok(Req::Format {
                kind,
                format: format_name(fmt)?,
                usage,
            });
        }
    }
    if let Some(fmt) = body.strip_suffix(" depth/stencil buffer") {
        return Ok(Req::Format {
            kind: ResourceKind::Surface,
            format: format_name(fmt)?,
            usage: Usage::DEPTHSTENCIL,
        });
    }
    if let Some((usage, fmt)) = body.split_once(" for ")
        && usage.starts_with("D3DUSAGE_")
    {
        return Ok(Req::Format {
            kind: ResourceKind::Texture,
            format: format_name(fmt)?,
            usage: Usage::from_bits_retain(names::dword_expr(usage)?),
        });
    }
    if let Some((lhs, rhs)) = body.split_once(" & ") {
        let member = member_name(lhs.trim())
            .ok_or_else(|| format!("unknown D3DCAPS9 member {lhs:?} in {s:?}"))?;
        return member_bits(member, rhs.trim(), s);
    }
    for (text, cmp) in Cmp::ALL {
        let Some((lhs, rhs)) = body.split_once(text) else {
            continue;
        };
        let (lhs, rhs) = (lhs.trim(), rhs.trim());
        for (name, pixel) in [("VertexShaderVersion", false), ("PixelShaderVersion", true)] {
            if lhs == name && cmp == Cmp::Ge && !rhs.starts_with("0x") {
                let (major, minor) =
                    version(rhs, pixel).ok_or_else(|| format!("bad version in {s:?}"))?;
                return Ok(Req::ShaderVersion {
                    pixel,
                    major,
                    minor,
                });
            }
        }
        let member =
            member_name(lhs).ok_or_else(|| format!("unknown D3DCAPS9 member {lhs:?} in {s:?}"))?;
        let value = match rhs.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).map(f64::from).ok(),
            None => rhs.trim_end_matches('f').parse::<f64>().ok(),
        }
        .ok_or_else(|| format!("bad number {rhs:?} in {s:?}"))?;
        return Ok(Req::Compare { member, cmp, value });
    }
    // `VertexTextureFilterCaps MINFPOINT|MAGFPOINT`: a member and its flags.
    if let Some((lhs, rhs)) = body.split_once(' ')
        && let Some(member) = member_name(lhs)
    {
        return member_bits(member, rhs.trim(), s);
    }
    // Bare flag names, one or several of one member.
    let mut found: Option<(&'static str, u32)> = None;
    for tok in body.split('|').map(str::trim) {
        let (member, bit) =
            names::cap_flag(tok).ok_or_else(|| format!("unknown requirement {s:?}"))?;
        match found {
            Some((m, _)) if m != member => {
                return Err(format!("{s:?} mixes flags of {m} and {member}"));
            }
            _ => found = Some((member, found.map_or(0, |f| f.1) | bit)),
        }
    }
    let (member, bit) = found.ok_or_else(|| format!("unknown requirement {s:?}"))?;
    Ok(Req::CapBit {
        member,
        bit,
        name: body.to_string(),
    })
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
        Req::CapBit { member: m, bit, .. } => {
            member_value(&caps, m).is_some_and(|v| v as u32 & bit == *bit)
        }
        Req::Compare { member, cmp, value } => {
            member_value(&caps, member).is_some_and(|v| cmp.holds(v, *value))
        }
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
