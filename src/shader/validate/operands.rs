//! Per-instruction rules: opcode availability and caps, control bits,
//! predication, and every operand's register file, number, modifier,
//! swizzle, mask and relative address (bytecode.md §3–§5, §6.2, §7).

use super::dataflow::Declarations;
use super::{Profile, fail};
use crate::shader::error::ShaderError;
use crate::shader::ir::{Dst, Instruction, Src};
use crate::shader::opcode::Opcode;
use crate::shader::token::{
    DST_CENTROID, DST_PARTIAL_PRECISION, DST_SATURATE, RegisterFile, SrcModifier, Swizzle, Version,
};

/// What a source position means to its instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Ordinary per-component value.
    Value,
    /// Scalar value: needs a replicate swizzle.
    Scalar,
    /// Texture coordinate.
    Coord,
    /// Sampler of a texture instruction.
    Sampler,
    /// Label of `call`/`callnz`/`label`.
    Label,
    /// `b#` or `p0` condition of `if`/`callnz`; `p0` of `breakp`.
    Condition,
    /// `i#` of `loop`/`rep`.
    Int,
    /// `aL` of `loop`.
    Loop,
    /// sincos (SM2) constant operands.
    ConstScratch,
    /// sgn (SM2) scratch temporaries.
    TempScratch,
}

/// Role of source `k` of `ins`.
pub(crate) fn role(ins: &Instruction, k: usize, v: Version) -> Role {
    use Opcode::*;
    match (ins.opcode, k) {
        (Call | Label, 0) | (CallNz, 0) => Role::Label,
        (CallNz, 1) | (If, 0) | (BreakP, 0) => Role::Condition,
        (Loop, 0) => Role::Loop,
        (Loop, 1) | (Rep, 0) => Role::Int,
        (IfC | BreakC, _) => Role::Scalar,
        (Tex | TexLdl | TexLdd, 0) => Role::Coord,
        (Tex | TexLdl | TexLdd, 1) => Role::Sampler,
        (Rcp | Rsq | Exp | Log | ExpP | LogP | SinCos, 0) | (Pow, _) | (Dp2Add, 2) => Role::Scalar,
        (SinCos, _) if v.major < 3 => Role::ConstScratch,
        (Sgn, 1 | 2) if v.major < 3 => Role::TempScratch,
        _ => Role::Value,
    }
}

fn pred_cap(p: &Profile) -> &'static str {
    if p.vs {
        "VS20Caps.PREDICATION"
    } else {
        "PS20Caps.PREDICATION"
    }
}

pub(crate) fn check(
    p: &Profile,
    decls: &Declarations,
    i: usize,
    ins: &Instruction,
    v: Version,
) -> Result<(), ShaderError> {
    use Opcode::*;
    let op = ins.opcode;
    let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
    let prof = v.profile_name();
    let level = p.level;
    if !p.opcode_exists(op) {
        return Err(e(
            "opcode-profile",
            format!(
                "{} is not an instruction of {prof}",
                ins.opcode.mnemonic(ins.control, v)
            ),
        ));
    }
    if matches!(op, Dsx | Dsy | TexLdd) && !p.gradients {
        return Err(e(
            "gradient-instructions",
            format!(
                "gradient instructions need PS20Caps.GRADIENTINSTRUCTIONS, clear at level {level}"
            ),
        )
        .with_cap("PS20Caps.GRADIENTINSTRUCTIONS"));
    }
    let uses_p0 = ins.predicate.is_some()
        || matches!(op, SetP | BreakP)
        || (matches!(op, If | CallNz)
            && ins
                .srcs()
                .iter()
                .any(|s| s.reg.file == RegisterFile::Predicate));
    if uses_p0 && !p.predication {
        return Err(e(
            "predication",
            format!("predication needs {}, clear at level {level}", pred_cap(p)),
        )
        .with_cap(pred_cap(p)));
    }
    if matches!(op, IfC | BreakC | Break) && p.dynamic_depth == 0 {
        let cap = if p.vs {
            "VS20Caps.DynamicFlowControlDepth"
        } else {
            "PS20Caps.DynamicFlowControlDepth"
        };
        return Err(e(
            "dynamic-flow-control",
            format!("dynamic flow control needs {cap} > 0, 0 at level {level}"),
        )
        .with_cap(cap));
    }
    if op.is_flow_control() && !p.static_flow {
        return Err(e(
            "static-flow-control",
            format!("flow control needs PS20Caps.StaticFlowControlDepth > 0, 0 at level {level}"),
        )
        .with_cap("PS20Caps.StaticFlowControlDepth"));
    }
    if ins.control != 0 && !op.has_comparison() && op != Tex {
        return Err(e(
            "control",
            format!("opcode-specific control {} must be 0", ins.control),
        ));
    }
    if ins.coissue {
        return Err(e("coissue", "co-issue exists only in ps_1_x".into()));
    }
    if let Some(pr) = &ins.predicate {
        if op.is_flow_control() || op.is_declaration() || matches!(op, SetP | Nop) {
            return Err(e(
                "predication",
                "this instruction cannot be predicated".into(),
            ));
        }
        if pr.reg.file != RegisterFile::Predicate
            || pr.reg.index != 0
            || pr.relative.is_some()
            || !matches!(pr.modifier, SrcModifier::None | SrcModifier::Not)
        {
            return Err(e(
                "predicate-register",
                "the predicate must be p0 or !p0".into(),
            ));
        }
        if op == SinCos && !p.sm3 && !pr.swizzle.is_replicate() {
            return Err(e(
                "predicate-register",
                "sincos in 2_x profiles needs a replicate predicate swizzle".into(),
            ));
        }
    }
    if op.is_declaration() {
        return Ok(()); // checked with the declarations
    }
    if let Some(d) = &ins.dst {
        check_dst(p, i, ins, d, v)?;
    }
    for (k, s) in ins.srcs().iter().enumerate() {
        check_src(p, decls, i, ins, k, s, v)?;
    }
    specific(p, i, ins, v)
}

fn check_dst(
    p: &Profile,
    i: usize,
    ins: &Instruction,
    d: &Dst,
    v: Version,
) -> Result<(), ShaderError> {
    use Opcode::*;
    use RegisterFile as F;
    let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
    let op = ins.opcode;
    if op == TexKill {
        // texkill's operand is encoded as a destination but is read.
        let ok = match d.reg.file {
            F::Temp => true,
            F::AddrOrTexture => !p.vs && !p.sm3,
            F::Input => p.sm3,
            _ => false,
        };
        if !ok || d.relative.is_some() || d.modifiers != 0 || d.shift != 0 {
            return Err(e(
                "texture-operand",
                "texkill takes a temp or input register".into(),
            ));
        }
        // The mask selects the components tested; an empty one tests nothing
        // and could not survive a disassembly round trip.
        if d.mask.0 == 0 {
            return Err(e(
                "write-mask",
                "texkill with an empty component mask".into(),
            ));
        }
        return index_in_range(p, i, ins, d.reg.file, d.reg.index as u32, false, v);
    }
    let Some(count) = p.file_count(d.reg.file, true) else {
        return Err(e(
            "register-file",
            format!(
                "{:?} registers cannot be written in {}",
                d.reg.file,
                v.profile_name()
            ),
        ));
    };
    if d.relative.is_none() {
        index_in_range_count(p, i, ins, d.reg.file, d.reg.logical_index(), count, v)?;
    }
    if d.mask.0 == 0 {
        return Err(e("write-mask", "empty write mask".into()));
    }
    if d.shift != 0 {
        return Err(e(
            "dst-modifier",
            "result shift exists only in ps_1_x".into(),
        ));
    }
    if d.modifiers & DST_PARTIAL_PRECISION != 0 && p.vs {
        return Err(e("dst-modifier", "_pp is a pixel-shader modifier".into()));
    }
    if d.modifiers & DST_CENTROID != 0 && (p.vs || !op.is_texture_sample()) {
        return Err(e(
            "dst-modifier",
            "_centroid is allowed only on pixel-shader dcl and texture loads".into(),
        ));
    }
    if d.modifiers & DST_SATURATE != 0 {
        if p.vs && !p.sm3 {
            return Err(e(
                "dst-modifier",
                "_sat on vertex shader results needs vs_3_0".into(),
            ));
        }
        if matches!(op, SinCos | Frc) && p.vs {
            return Err(e(
                "dst-modifier",
                "_sat is not allowed on this instruction".into(),
            ));
        }
        if matches!(d.reg.file, F::AddrOrTexture | F::Predicate) {
            return Err(e("dst-modifier", "_sat is not allowed on a0 or p0".into()));
        }
    }
    if let Some(rel) = &d.relative {
        if !(p.vs && p.sm3 && d.reg.file == F::Output && rel.reg.file == F::Loop) {
            return Err(e(
                "relative-address",
                "relative addressing of a destination exists only as o[aL + n] in vs_3_0".into(),
            ));
        }
        index_in_range_count(p, i, ins, d.reg.file, d.reg.index as u32, count, v)?;
    }
    match (d.reg.file, op) {
        // vs_1_1 has no mova: `mov a0.x, src` (a0 has only .x there, §4.2).
        (F::AddrOrTexture, Mov) if p.sm1 && d.mask.0 == 0x1 => {}
        (F::AddrOrTexture, Mov) if p.sm1 => {
            return Err(e("mova", "vs_1_1 writes a0 only as mov a0.x".into()));
        }
        (F::AddrOrTexture, _) if p.sm1 => {
            return Err(e("mova", "a0 can only be written by mov a0.x".into()));
        }
        (F::AddrOrTexture, MovA) | (F::Predicate, SetP) => {}
        (F::AddrOrTexture, _) => return Err(e("mova", "a0 can only be written by mova".into())),
        (_, MovA) => return Err(e("mova", "mova writes a0".into())),
        (F::Predicate, _) => {
            return Err(e("register-file", "p0 can only be written by setp".into()));
        }
        (_, SetP) => return Err(e("register-file", "setp writes p0".into())),
        _ => {}
    }
    Ok(())
}

fn index_in_range(
    p: &Profile,
    i: usize,
    ins: &Instruction,
    file: RegisterFile,
    idx: u32,
    dst: bool,
    v: Version,
) -> Result<(), ShaderError> {
    match p.file_count(file, dst) {
        Some(n) => index_in_range_count(p, i, ins, file, idx, n, v),
        None => Err(fail(
            i,
            ins,
            v,
            "register-file",
            format!(
                "{file:?} registers are not available here in {}",
                v.profile_name()
            ),
        )),
    }
}

fn index_in_range_count(
    p: &Profile,
    i: usize,
    ins: &Instruction,
    file: RegisterFile,
    idx: u32,
    n: u32,
    v: Version,
) -> Result<(), ShaderError> {
    if idx < n {
        return Ok(());
    }
    let mut err = fail(
        i,
        ins,
        v,
        "register-index",
        format!(
            "{file:?} register {idx} out of range (limit {n} in {} at level {})",
            v.profile_name(),
            p.level
        ),
    );
    if file == RegisterFile::Temp
        && let Some(cap) = p.temps_cap
    {
        err = err.with_cap(cap);
    }
    if file.is_float_const() && p.vs {
        err = err.with_cap("MaxVertexShaderConst");
    }
    Err(err)
}

fn check_src(
    p: &Profile,
    decls: &Declarations,
    i: usize,
    ins: &Instruction,
    k: usize,
    s: &Src,
    v: Version,
) -> Result<(), ShaderError> {
    use RegisterFile as F;
    let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
    let r = role(ins, k, v);
    let file = s.reg.file;
    let file_ok = match r {
        Role::Label => file == F::Label,
        Role::Condition => {
            file == F::Predicate || (file == F::ConstBool && ins.opcode != Opcode::BreakP)
        }
        Role::Int => file == F::ConstInt,
        Role::Loop => file == F::Loop,
        Role::Sampler => file == F::Sampler,
        Role::ConstScratch => file == F::Const,
        Role::TempScratch => file == F::Temp,
        Role::Coord if !p.sm3 && !p.vs => matches!(file, F::Temp | F::AddrOrTexture),
        Role::Value | Role::Scalar | Role::Coord => !matches!(
            file,
            F::Sampler | F::Label | F::ConstBool | F::ConstInt | F::Loop | F::Predicate
        ),
    };
    if !file_ok {
        return Err(e(
            "register-file",
            format!(
                "{file:?} register not allowed as operand {} of {}",
                k + 1,
                ins.opcode.mnemonic(ins.control, v)
            ),
        ));
    }
    if s.relative.is_none() {
        index_in_range(p, i, ins, file, s.reg.logical_index(), false, v)?;
    }
    // Modifiers.
    let m = s.modifier;
    let mod_ok = match r {
        Role::Condition => matches!(m, SrcModifier::None | SrcModifier::Not),
        Role::Value | Role::Scalar | Role::Coord if r != Role::Coord || p.sm3 => match m {
            SrcModifier::None | SrcModifier::Neg => true,
            SrcModifier::Abs | SrcModifier::AbsNeg => !p.vs || p.sm3,
            _ => false,
        },
        _ => m == SrcModifier::None,
    };
    if !mod_ok {
        return Err(e(
            "src-modifier",
            format!(
                "source modifier {m:?} not allowed on operand {} in {}",
                k + 1,
                v.profile_name()
            ),
        ));
    }
    // Swizzles. vs_1_1 scalar sources may carry any swizzle: the
    // interpreter uses the w channel's component (§6.2).
    let sw = s.swizzle;
    match r {
        Role::Scalar | Role::Condition if file != F::ConstBool && !sw.is_replicate() && !p.sm1 => {
            return Err(e(
                "scalar-swizzle",
                format!(
                    "operand {} is a scalar and needs a replicate swizzle (.x, .y, .z or .w)",
                    k + 1
                ),
            ));
        }
        Role::Coord | Role::Sampler
            if !p.sm3
                && !p.vs
                && (s.modifier != SrcModifier::None
                    || (sw != Swizzle::IDENTITY && !(r == Role::Coord && p.arbitrary_swizzle))) =>
        {
            return Err(e(
                "texture-operand",
                format!(
                    "{} texture operands take no modifier or swizzle",
                    v.profile_name()
                ),
            ));
        }
        _ => {}
    }
    if !p.arbitrary_swizzle && !allowed_ps2_swizzle(sw) {
        return Err(e(
            "arbitrary-swizzle",
            format!(
                "swizzle needs PS20Caps.ARBITRARYSWIZZLE, clear at level {}",
                p.level
            ),
        )
        .with_cap("PS20Caps.ARBITRARYSWIZZLE"));
    }
    if r == Role::Sampler && decls.sampler(s.reg.index as u32).is_none() {
        return Err(e(
            "declaration",
            format!("sampler s{} is used but not declared", s.reg.index),
        ));
    }
    // Relative addressing (§3.5).
    if let Some(rel) = &s.relative {
        let idx_ok = match rel.reg.file {
            F::AddrOrTexture => p.vs && rel.reg.index == 0,
            F::Loop => rel.reg.index == 0 && (p.vs || p.sm3),
            _ => false,
        };
        let file_ok = match file {
            F::Const => p.vs,
            F::Input => p.sm3 && (p.vs || rel.reg.file == F::Loop),
            _ => false,
        };
        if !idx_ok || !file_ok || !matches!(r, Role::Value | Role::Scalar | Role::Coord) {
            return Err(e(
                "relative-address",
                format!(
                    "relative addressing of {file:?} through {:?} is not allowed in {}",
                    rel.reg.file,
                    v.profile_name()
                ),
            ));
        }
        index_in_range(p, i, ins, file, s.reg.logical_index(), false, v)?;
    }
    Ok(())
}

/// ps_2_0 swizzles without ARBITRARYSWIZZLE: identity, replicates, .yzxw, .zxyw, .wzyx.
fn allowed_ps2_swizzle(sw: Swizzle) -> bool {
    sw == Swizzle::IDENTITY || sw.is_replicate() || matches!(sw.0, 0xC9 | 0xD2 | 0x1B)
}

fn specific(p: &Profile, i: usize, ins: &Instruction, v: Version) -> Result<(), ShaderError> {
    use Opcode::*;
    use RegisterFile as F;
    let e = |rule: &'static str, msg: &str| Err(fail(i, ins, v, rule, msg));
    let Some(d) = ins.dst else { return Ok(()) };
    let srcs = ins.srcs();
    let same_as_src = |n: usize| srcs.iter().take(n).any(|s| s.reg == d.reg);
    match ins.opcode {
        // frc is a macro in vs_1_1 that exists only for .y and .xy (§7).
        Frc if p.sm1 && !matches!(d.mask.0, 0x2 | 0x3) => {
            return e("frc", "vs_1_1 frc writes .y or .xy only");
        }
        SinCos if (d.reg.file != F::Temp || d.mask.0 & !0x3 != 0) => {
            return e("sincos", "sincos writes a temp with mask .x, .y or .xy");
        }
        Crs if (d.reg.file != F::Temp || d.mask.0 & !0x7 != 0 || same_as_src(2)) => {
            return e(
                "crs",
                "crs writes a temp (mask within .xyz) different from its sources",
            );
        }
        Sgn if !p.sm3 && (d.reg.file != F::Temp || same_as_src(3)) => {
            return e("sgn", "sgn writes a temp different from its sources");
        }
        M4x4 | M4x3 | M3x4 | M3x3 | M3x2
            if (same_as_src(1)
                || srcs.get(1).is_some_and(|s| {
                    s.swizzle != Swizzle::IDENTITY || s.modifier != SrcModifier::None
                })) =>
        {
            return e(
                "matrix",
                "matrix macros need a destination different from src0 and an unswizzled, unmodified matrix",
            );
        }
        Tex | TexLdd | TexLdl if !p.sm3 && !p.vs && (d.reg.file != F::Temp || d.mask.0 != 0xF) => {
            return e(
                "texture-operand",
                "ps_2_x texture results go to a temp with the full .xyzw mask",
            );
        }
        _ => {}
    }
    Ok(())
}
