//! [`Program`] → assembly text in the syntax of fxc's listings.
//!
//! Conventions copied from fxc: identity swizzles and full write masks are
//! omitted, replicate swizzles print one letter, any other swizzle prints
//! all four; `dcl_texcoord` for usage index 0; blocks indented by two
//! spaces; `def` values as `%.9g`. Every line reassembles to the same
//! tokens (see `asm`).

use std::fmt::Write;

use super::fmt_float::format_f32;
use super::ir::{Declaration, Dst, Instruction, Payload, Program, RelativeAddress, Src};
use super::opcode::Opcode;
use super::token::{Register, RegisterFile, SrcModifier, Swizzle, TextureType, Version, WriteMask};
use crate::vertex::DeclUsage;

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

impl Program {
    /// Disassemble into fxc listing syntax, one instruction per line.
    pub fn disassemble(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.version.profile_name());
        out.push('\n');
        let mut depth: usize = 0;
        for ins in &self.instructions {
            let (before, after) = match ins.opcode {
                Opcode::If | Opcode::IfC | Opcode::Loop | Opcode::Rep => (0, 1),
                Opcode::Else => (-1, 1),
                Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => (-1, 0),
                _ => (0, 0),
            };
            depth = depth.saturating_add_signed(before);
            for _ in 0..depth.min(64) {
                out.push_str("  ");
            }
            out.push_str(&instruction_text(ins, self.version));
            out.push('\n');
            depth = depth.saturating_add_signed(after);
        }
        out
    }
}

/// Text of one instruction (no indentation, no newline).
pub fn instruction_text(ins: &Instruction, v: Version) -> String {
    let mut s = String::new();
    if ins.coissue {
        s.push_str("+ ");
    }
    if let Some(p) = &ins.predicate {
        let _ = write!(s, "({}) ", src_text(p, v));
    }
    match (ins.opcode, ins.payload) {
        (Opcode::Dcl, Payload::Dcl(decl)) => {
            s.push_str("dcl");
            let Some(d) = ins.dst else { return s };
            match decl {
                Declaration::Sampler(t) => {
                    if t != TextureType::Unknown {
                        let _ = write!(s, "_{}", t.suffix());
                    }
                }
                Declaration::Semantic { usage, index } => {
                    let plain =
                        (v.is_pixel() && v.major < 3) || d.reg.file == RegisterFile::MiscType;
                    if !(plain && usage == DeclUsage::Position && index == 0) {
                        let _ = write!(s, "_{}", usage.name());
                        if index != 0 {
                            let _ = write!(s, "{index}");
                        }
                    }
                }
            }
            push_dst_modifiers(&mut s, &d);
            s.push(' ');
            s.push_str(&dst_text(&d, v));
        }
        (Opcode::Def | Opcode::DefI | Opcode::DefB, Payload::Def(vals)) => {
            s.push_str(ins.opcode.base_name());
            if let Some(d) = ins.dst {
                push_dst_modifiers(&mut s, &d);
                s.push(' ');
                s.push_str(&dst_text(&d, v));
            }
            match ins.opcode {
                Opcode::Def => {
                    for x in vals {
                        let _ = write!(s, ", {}", format_f32(x));
                    }
                }
                Opcode::DefI => {
                    for x in vals {
                        let _ = write!(s, ", {}", x as i32);
                    }
                }
                _ => match vals[0] {
                    0 => s.push_str(", false"),
                    1 => s.push_str(", true"),
                    x => {
                        let _ = write!(s, ", {x}");
                    }
                },
            }
        }
        _ => {
            s.push_str(&ins.opcode.mnemonic(ins.control, v));
            if let Some(d) = &ins.dst {
                push_dst_modifiers(&mut s, d);
            }
            let mut first = true;
            let mut sep = |s: &mut String| {
                s.push_str(if first { " " } else { ", " });
                first = false;
            };
            if let Some(d) = &ins.dst {
                sep(&mut s);
                s.push_str(&dst_text(d, v));
            }
            for src in ins.srcs() {
                sep(&mut s);
                s.push_str(&src_text(src, v));
            }
        }
    }
    s
}

fn push_dst_modifiers(s: &mut String, d: &Dst) {
    match d.shift {
        0 => {}
        n if n > 0 => {
            let _ = write!(s, "_x{}", 1u32 << n);
        }
        n => {
            let _ = write!(s, "_d{}", 1u32 << n.unsigned_abs().min(8));
        }
    }
    if d.saturate() {
        s.push_str("_sat");
    }
    if d.partial_precision() {
        s.push_str("_pp");
    }
    if d.centroid() {
        s.push_str("_centroid");
    }
}

/// Assembly name of a register (`r0`, `oPos`, `t3`, `vFace`, ...).
pub fn register_name(reg: Register, v: Version) -> String {
    use RegisterFile::*;
    let i = reg.index;
    match reg.file {
        Temp => format!("r{i}"),
        Input => format!("v{i}"),
        Const | Const2 | Const3 | Const4 => format!("c{}", reg.logical_index()),
        AddrOrTexture => {
            if v.is_vertex() {
                format!("a{i}")
            } else {
                format!("t{i}")
            }
        }
        RastOut => match i {
            0 => "oPos".into(),
            1 => "oFog".into(),
            2 => "oPts".into(),
            _ => format!("oRast{i}"),
        },
        AttrOut => format!("oD{i}"),
        Output => {
            if v.is_vertex() && v.major >= 3 {
                format!("o{i}")
            } else {
                format!("oT{i}")
            }
        }
        ConstInt => format!("i{i}"),
        ColorOut => format!("oC{i}"),
        DepthOut => {
            if i == 0 {
                "oDepth".into()
            } else {
                format!("oDepth{i}")
            }
        }
        Sampler => format!("s{i}"),
        ConstBool => format!("b{i}"),
        Loop => {
            if i == 0 {
                "aL".into()
            } else {
                format!("aL{i}")
            }
        }
        MiscType => match i {
            0 => "vPos".into(),
            1 => "vFace".into(),
            _ => format!("vMisc{i}"),
        },
        Label => format!("l{i}"),
        Predicate => format!("p{i}"),
    }
}

fn swizzle_text(sw: Swizzle) -> String {
    if sw == Swizzle::IDENTITY {
        String::new()
    } else if sw.is_replicate() {
        format!(".{}", XYZW[sw.get(0) as usize])
    } else {
        let mut s = String::from(".");
        for i in 0..4 {
            s.push(XYZW[sw.get(i) as usize]);
        }
        s
    }
}

fn mask_text(m: WriteMask) -> String {
    if m == WriteMask::ALL || m.0 == 0 {
        return String::new();
    }
    let mut s = String::from(".");
    for (i, c) in XYZW.iter().enumerate() {
        if m.has(i) {
            s.push(*c);
        }
    }
    s
}

fn relative_text(name: &str, rel: &RelativeAddress, v: Version) -> String {
    format!(
        "{name}[{}{}]",
        register_name(rel.reg, v),
        swizzle_text(rel.swizzle)
    )
}

fn dst_text(d: &Dst, v: Version) -> String {
    let name = register_name(d.reg, v);
    let base = match &d.relative {
        Some(rel) => relative_text(&name, rel, v),
        None => name,
    };
    format!("{base}{}", mask_text(d.mask))
}

fn src_text(s: &Src, v: Version) -> String {
    use SrcModifier as M;
    let name = register_name(s.reg, v);
    let base = match &s.relative {
        Some(rel) => relative_text(&name, rel, v),
        None => name,
    };
    let (prefix, suffix) = match s.modifier {
        M::None => ("", ""),
        M::Neg => ("-", ""),
        M::Bias => ("", "_bias"),
        M::BiasNeg => ("-", "_bias"),
        M::Sign => ("", "_bx2"),
        M::SignNeg => ("-", "_bx2"),
        M::Comp => ("1 - ", ""),
        M::X2 => ("", "_x2"),
        M::X2Neg => ("-", "_x2"),
        M::Dz => ("", "_dz"),
        M::Dw => ("", "_dw"),
        M::Abs => ("", "_abs"),
        M::AbsNeg => ("-", "_abs"),
        M::Not => ("!", ""),
    };
    format!("{prefix}{base}{suffix}{}", swizzle_text(s.swizzle))
}
