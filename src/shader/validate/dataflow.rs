//! Declarations and data flow: `dcl`/`def` rules, declared-before-use,
//! read-before-write of temps, ps_2_x dependent-read depth and texture
//! counts, slot totals and required outputs (bytecode.md §3.7–§3.8,
//! §4.4–§4.5, §9 items 5, 6, 8, 9). Also fills most of [`ShaderInfo`].

use super::operands::{Role, role};
use super::{Profile, fail};
use crate::shader::error::{ShaderError, ShaderErrorKind};
use crate::shader::info::{Semantic, ShaderInfo};
use crate::shader::ir::{Declaration, Instruction, Payload, Program};
use crate::shader::opcode::Opcode;
use crate::shader::token::{DST_CENTROID, Register, RegisterFile, TextureType, WriteMask};
use crate::vertex::DeclUsage;

/// The program's declarations, checked.
pub(crate) struct Declarations {
    samplers: Vec<(u32, TextureType)>,
    regs: Vec<(Register, WriteMask, DeclUsage, u8, bool)>,
}

impl Declarations {
    /// Texture type of declared sampler `s#`.
    pub fn sampler(&self, idx: u32) -> Option<TextureType> {
        self.samplers
            .iter()
            .find(|(i, _)| *i == idx)
            .map(|(_, t)| *t)
    }

    fn declared(&self, reg: Register) -> Option<WriteMask> {
        let m = self
            .regs
            .iter()
            .filter(|d| d.0 == reg)
            .fold(0u8, |m, d| m | d.1.0);
        (m != 0).then_some(WriteMask(m))
    }

    pub fn collect(prog: &Program, p: &Profile) -> Result<Declarations, ShaderError> {
        use RegisterFile as F;
        let v = prog.version;
        let mut out = Declarations {
            samplers: Vec::new(),
            regs: Vec::new(),
        };
        let mut code_started = false;
        for (i, ins) in prog.instructions.iter().enumerate() {
            let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
            if !ins.opcode.is_declaration() {
                code_started = true;
                continue;
            }
            if !p.opcode_exists(ins.opcode) {
                let msg = format!(
                    "{} is not an instruction of {}",
                    ins.opcode.base_name(),
                    v.profile_name()
                );
                return Err(e("opcode-profile", msg));
            }
            if code_started {
                return Err(e(
                    "declaration-order",
                    "dcl and def must come before the first instruction".into(),
                ));
            }
            let Some(d) = ins.dst else { continue };
            if d.relative.is_some() || d.shift != 0 {
                return Err(e(
                    "declaration",
                    "declared registers take no relative address or shift".into(),
                ));
            }
            match (ins.opcode, ins.payload) {
                (Opcode::Dcl, Payload::Dcl(decl)) => {
                    let allowed = match d.reg.file {
                        F::Input => true,
                        F::Output => p.vs && p.sm3,
                        F::AddrOrTexture => !p.vs && !p.sm3,
                        F::Sampler => !p.vs || p.sm3,
                        F::MiscType => !p.vs && p.sm3,
                        _ => false,
                    };
                    if !allowed {
                        return Err(e(
                            "declaration",
                            format!(
                                "{:?} registers cannot be declared in {}",
                                d.reg.file,
                                v.profile_name()
                            ),
                        ));
                    }
                    let dst_input = matches!(
                        d.reg.file,
                        F::Input | F::AddrOrTexture | F::MiscType | F::Sampler
                    );
                    if d.modifiers & !(DST_CENTROID | 0x2) != 0
                        || (d.modifiers != 0 && (p.vs || !dst_input))
                    {
                        return Err(e(
                            "declaration",
                            "only pixel-shader inputs and samplers take _pp/_centroid".into(),
                        ));
                    }
                    let count = p
                        .file_count(d.reg.file, d.reg.file == F::Output)
                        .unwrap_or(0);
                    if d.reg.index as u32 >= count {
                        return Err(e(
                            "register-index",
                            format!(
                                "declared {:?} register {} out of range (limit {count})",
                                d.reg.file, d.reg.index
                            ),
                        ));
                    }
                    match decl {
                        Declaration::Sampler(t) => {
                            // fxc always writes .xyzw here; any other mask has no
                            // meaning and could not survive a disassembly round trip.
                            if d.mask.0 != 0xF {
                                return Err(e(
                                    "declaration",
                                    "a sampler declaration's write mask must be .xyzw".into(),
                                ));
                            }
                            if t == TextureType::Unknown {
                                return Err(e(
                                    "declaration",
                                    "sampler declared without a texture type".into(),
                                ));
                            }
                            if out.sampler(d.reg.index as u32).is_some() {
                                return Err(e(
                                    "declaration",
                                    format!("sampler s{} declared twice", d.reg.index),
                                ));
                            }
                            out.samplers.push((d.reg.index as u32, t));
                        }
                        Declaration::Semantic { usage, index } => {
                            if d.mask.0 == 0 {
                                return Err(e("declaration", "empty declaration mask".into()));
                            }
                            let plain = !p.vs && !p.sm3 || d.reg.file == F::MiscType;
                            if plain && (usage != DeclUsage::Position || index != 0) {
                                return Err(e(
                                    "declaration",
                                    "this register takes a plain dcl without usage".into(),
                                ));
                            }
                            if d.reg.file == F::MiscType && d.reg.index == 0 && d.mask.0 & !0x3 != 0
                            {
                                return Err(e(
                                    "declaration",
                                    "vPos is declared with .x, .y or .xy".into(),
                                ));
                            }
                            if !p.vs
                                && p.sm3
                                && d.reg.file == F::Input
                                && matches!(usage, DeclUsage::PositionT | DeclUsage::TessFactor)
                            {
                                return Err(e(
                                    "declaration",
                                    format!("usage {} is not a ps_3_0 input", usage.name()),
                                ));
                            }
                            if out
                                .regs
                                .iter()
                                .any(|o| o.0 == d.reg && o.1.overlaps(d.mask))
                            {
                                return Err(e(
                                    "declaration",
                                    "register declared twice with overlapping masks".into(),
                                ));
                            }
                            if d.reg.file == F::Output
                                && out
                                    .regs
                                    .iter()
                                    .any(|o| o.0.file == F::Output && o.2 == usage && o.3 == index)
                            {
                                return Err(e(
                                    "declaration",
                                    format!(
                                        "output semantic {}{} declared twice",
                                        usage.name(),
                                        index
                                    ),
                                ));
                            }
                            out.regs.push((d.reg, d.mask, usage, index, d.centroid()));
                        }
                    }
                }
                (op, Payload::Def(_)) => {
                    let file_ok = match op {
                        Opcode::Def => d.reg.file.is_float_const(),
                        Opcode::DefI => d.reg.file == F::ConstInt,
                        _ => d.reg.file == F::ConstBool,
                    };
                    if !file_ok || d.modifiers != 0 || d.mask.0 != 0xF {
                        return Err(e(
                            "declaration",
                            "def* writes a whole constant of its own file".into(),
                        ));
                    }
                    let count = p.file_count(d.reg.file, false).unwrap_or(0);
                    if d.reg.logical_index()
                        >= count.max(if d.reg.file.is_float_const() {
                            p.consts
                        } else {
                            0
                        })
                    {
                        let mut err = e(
                            "register-index",
                            format!(
                                "defined constant {} out of range (limit {})",
                                d.reg.logical_index(),
                                count
                            ),
                        );
                        if p.vs && op == Opcode::Def {
                            err = err.with_cap("MaxVertexShaderConst");
                        }
                        return Err(err);
                    }
                }
                _ => return Err(e("declaration", "declaration without data".into())),
            }
        }
        Ok(out)
    }
}

/// Components of `src k`'s register read by `ins` (before swizzle
/// application: the register components).
fn components_read(
    ins: &Instruction,
    k: usize,
    decls: &Declarations,
    v: crate::shader::token::Version,
) -> u8 {
    use Opcode::*;
    let s = ins.srcs()[k];
    let mask = ins.dst.map_or(WriteMask(0xF), |d| d.mask);
    let via = |m: u8| s.swizzle.components_read(WriteMask(m)).0;
    match (ins.opcode, role(ins, k, v)) {
        // The scalar is the replicated component; a vs_1_1 source without
        // a replicate swizzle gives the w channel's (§6.2).
        (_, Role::Scalar) => via(if v.is_sm1() { 0x8 } else { 0x1 }),
        (
            _,
            Role::TempScratch
            | Role::ConstScratch
            | Role::Sampler
            | Role::Label
            | Role::Condition
            | Role::Int
            | Role::Loop,
        ) => 0,
        (Tex | TexLdl | TexLdd, Role::Coord) => {
            let t = ins
                .srcs()
                .get(1)
                .and_then(|smp| decls.sampler(smp.reg.index as u32))
                .unwrap_or(TextureType::Unknown);
            let extra = if ins.opcode == TexLdl || ins.control != 0 {
                0x8
            } else {
                0
            };
            via(t.coord_mask().0 | extra)
        }
        (TexLdd, _) => {
            let t = ins
                .srcs()
                .get(1)
                .and_then(|smp| decls.sampler(smp.reg.index as u32))
                .unwrap_or(TextureType::Unknown);
            via(t.coord_mask().0)
        }
        (Dp3 | Nrm | Crs, _) => via(0x7),
        (Dp4, _) => via(0xF),
        (Dp2Add, _) => via(0x3),
        (M4x4 | M4x3, _) => via(0xF),
        (M3x4 | M3x3 | M3x2, _) => via(0x7),
        (Lit, _) => via(0xB),
        (Dst, _) => via(if k == 0 { 0x6 } else { 0xA }),
        _ => via(mask.0),
    }
}

pub(crate) fn check(
    prog: &Program,
    p: &Profile,
    decls: &Declarations,
    info: &mut ShaderInfo,
) -> Result<(), ShaderError> {
    use RegisterFile as F;
    let v = prog.version;
    let mut written = vec![0u8; p.temps as usize];
    let mut level = vec![[-1i8; 4]; p.temps as usize];
    let mut out_written: Vec<(Register, u8)> = Vec::new();
    let mut fconsts: Vec<u32> = Vec::new();
    let (mut slots, mut tex, mut arith) = (0u32, 0u32, 0u32);
    let sub_writes = subroutine_writes(prog, p.temps as usize);
    for (i, ins) in prog.instructions.iter().enumerate() {
        let op = ins.opcode;
        let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
        // Slots.
        let cube = ins
            .srcs()
            .get(1)
            .and_then(|s| decls.sampler(s.reg.index as u32))
            .is_some_and(|t| matches!(t, TextureType::Cube | TextureType::Volume));
        let mut cost = if p.sm1 {
            op.vs11_slots()
        } else {
            op.slots(ins.control, p.texture_slot_costs, cube)
        };
        if ins.predicate.is_some() {
            cost += 1;
        }
        slots += cost;
        let is_tex = !p.vs
            && matches!(
                op,
                Opcode::Tex | Opcode::TexKill | Opcode::TexLdd | Opcode::TexLdl
            );
        if is_tex {
            tex += 1;
        } else {
            arith += cost;
        }
        // Reads.
        let mut max_level: i8 = -1;
        let mut read = |reg: Register,
                        comps: u8,
                        written: &Vec<u8>,
                        e: &dyn Fn(&'static str, String) -> ShaderError|
         -> Result<(), ShaderError> {
            if reg.file == F::Temp {
                let idx = reg.index as usize;
                let have = written.get(idx).copied().unwrap_or(0);
                if comps & !have != 0 {
                    let missing: String = (0..4)
                        .filter(|c| comps & !have & (1 << c) != 0)
                        .map(|c| ['x', 'y', 'z', 'w'][c])
                        .collect();
                    return Err(e(
                        "uninitialized-read",
                        format!("reads r{idx}.{missing} before any write"),
                    ));
                }
                if let Some(l) = level.get(idx) {
                    for (c, &lc) in l.iter().enumerate() {
                        if comps & (1 << c) != 0 {
                            max_level = max_level.max(lc);
                        }
                    }
                }
            }
            Ok(())
        };
        if op == Opcode::TexKill
            && let Some(d) = ins.dst
        {
            read(d.reg, d.mask.0, &written, &e)?;
        }
        if !op.is_declaration() {
            for k in 0..ins.srcs().len() {
                let s = ins.srcs()[k];
                read(s.reg, components_read(ins, k, decls, v), &written, &e)?;
                note_source(info, decls, &mut fconsts, s.reg, s.relative.is_some());
                if (matches!(s.reg.file, F::Input | F::AddrOrTexture | F::MiscType) && !p.vs
                    || (p.vs && s.reg.file == F::Input))
                    && s.relative.is_none()
                    && decls.declared(s.reg).is_none()
                {
                    return Err(e(
                        "declaration",
                        format!(
                            "input {:?} {} is read but not declared",
                            s.reg.file, s.reg.index
                        ),
                    ));
                }
            }
        }
        // Dependent reads (§4.5).
        let mut result_level = max_level;
        if p.dependent_read_limit && op == Opcode::Tex {
            let coord_is_temp = ins.srcs().first().is_some_and(|s| s.reg.file == F::Temp);
            let order = if coord_is_temp {
                (max_level + 1).max(1)
            } else {
                0
            };
            if order > 3 {
                return Err(e("dependent-read", format!("texture read is dependent to order {order}; more than 3 needs PS20Caps.NODEPENDENTREADLIMIT, clear at level {}", p.level))
                    .with_cap("PS20Caps.NODEPENDENTREADLIMIT"));
            }
            result_level = order;
        }
        // Writes.
        if (op == Opcode::Call || op == Opcode::CallNz)
            && let Some(w) = ins
                .srcs()
                .first()
                .and_then(|l| sub_writes.iter().find(|(n, _)| *n == l.reg.index))
        {
            for (dst, src) in written.iter_mut().zip(&w.1) {
                *dst |= src;
            }
        }
        if let (Some(d), false) = (ins.dst, op.is_declaration() || op == Opcode::TexKill) {
            match d.reg.file {
                F::Temp => {
                    if let Some(w) = written.get_mut(d.reg.index as usize) {
                        *w |= d.mask.0;
                    }
                    if let Some(l) = level.get_mut(d.reg.index as usize) {
                        for (c, lc) in l.iter_mut().enumerate() {
                            if d.mask.has(c) {
                                *lc = result_level;
                            }
                        }
                    }
                }
                F::RastOut | F::AttrOut | F::Output | F::ColorOut | F::DepthOut => {
                    if d.relative.is_some() {
                        info.relative_addressing = true;
                    }
                    match out_written.iter_mut().find(|(r, _)| *r == d.reg) {
                        Some(o) => o.1 |= d.mask.0,
                        None => out_written.push((d.reg, d.mask.0)),
                    }
                }
                _ => {}
            }
        }
        match op {
            Opcode::TexKill => info.uses_texkill = true,
            Opcode::Dsx | Opcode::Dsy | Opcode::TexLdd => info.uses_derivatives = true,
            Opcode::Tex if !p.vs => info.uses_derivatives = true,
            _ => {}
        }
        if ins.predicate.is_some() {
            info.predication = true;
        }
        if let (Opcode::Def | Opcode::DefI | Opcode::DefB, Payload::Def(vals), Some(d)) =
            (op, ins.payload, ins.dst)
        {
            let idx = d.reg.logical_index();
            match op {
                Opcode::Def => info.local_float_constants.push((idx, vals)),
                Opcode::DefI => info.local_int_constants.push((idx, vals)),
                _ => info.local_bool_constants.push((idx, vals[0] != 0)),
            }
        }
    }
    // Resource limits (§4.4).
    let last = prog.instructions.len();
    let whole = |rule: &'static str, msg: String, cap: Option<&'static str>| {
        let mut err = ShaderError::new(ShaderErrorKind::Invalid, rule, msg);
        err.instruction = Some(crate::shader::error::sat(last.saturating_sub(1)));
        if let Some(c) = cap {
            err = err.with_cap(c);
        }
        err
    };
    if let Some((limit, cap)) = p.slots {
        if p.ps20 && (arith > 64 || tex > 32) {
            return Err(whole(
                "instruction-slots",
                format!(
                    "ps_2_0 allows 64 arithmetic and 32 texture slots, program uses {arith} and {tex}"
                ),
                None,
            ));
        }
        if slots > limit {
            let what = cap.unwrap_or("the profile limit");
            return Err(whole(
                "instruction-slots",
                format!(
                    "{slots} instruction slots exceed {what} = {limit} at level {}",
                    p.level
                ),
                cap,
            ));
        }
    }
    if p.tex_instruction_limit && p.x && tex > 32 {
        return Err(whole(
            "texture-instructions",
            format!(
                "{tex} texture instructions exceed 32; more needs PS20Caps.NOTEXINSTRUCTIONLIMIT, clear at level {}",
                p.level
            ),
            Some("PS20Caps.NOTEXINSTRUCTIONLIMIT"),
        ));
    }
    // Required outputs (§9 item 9).
    let full = |reg: Register| {
        out_written
            .iter()
            .find(|(r, _)| *r == reg)
            .map_or(0, |o| o.1)
    };
    if p.vs {
        let pos = if p.sm3 {
            decls
                .regs
                .iter()
                .find(|d| d.0.file == F::Output && d.2 == DeclUsage::Position && d.3 == 0)
                .map(|d| d.0)
        } else {
            Some(Register::new(F::RastOut, 0))
        };
        if pos.is_none_or(|r| full(r) == 0) && !p.sm3 {
            return Err(whole(
                "output-required",
                "a vertex shader must write oPos".into(),
                None,
            ));
        }
        if p.sm3 {
            for (r, _) in &out_written {
                if r.file == F::Output && decls.declared(*r).is_none() && !info.relative_addressing
                {
                    return Err(whole(
                        "declaration",
                        format!("output o{} is written but not declared", r.index),
                        None,
                    ));
                }
            }
        }
    } else if !p.sm3 && full(Register::new(F::ColorOut, 0)) == 0 {
        return Err(whole(
            "output-required",
            "a ps_2_x pixel shader must write oC0".into(),
            None,
        ));
    }
    // Fill the info.
    info.temps = written
        .iter()
        .rposition(|&w| w != 0)
        .map_or(0, |i| i as u32 + 1);
    info.instruction_slots = slots;
    info.texture_instructions = tex;
    info.arithmetic_slots = arith;
    info.writes_depth = out_written.iter().any(|(r, _)| r.file == F::DepthOut);
    fconsts.sort_unstable();
    fconsts.dedup();
    for c in fconsts {
        match info.float_constants.last_mut() {
            Some((s, n)) if *s + *n == c => *n += 1,
            _ => info.float_constants.push((c, 1)),
        }
    }
    info.int_constants.sort_unstable();
    info.int_constants.dedup();
    info.bool_constants.sort_unstable();
    info.bool_constants.dedup();
    info.samplers = decls.samplers.clone();
    info.samplers.sort_unstable_by_key(|s| s.0);
    for (reg, mask, usage, index, centroid) in &decls.regs {
        let s = Semantic {
            reg: *reg,
            usage: *usage,
            index: *index,
            mask: *mask,
            centroid: *centroid,
        };
        if reg.file == F::Output {
            info.outputs.push(s);
        } else {
            info.inputs.push(s);
        }
    }
    for (reg, mask) in &out_written {
        if reg.file == F::Output && p.sm3 {
            continue;
        }
        let (usage, index) = match reg.file {
            F::RastOut => (
                [DeclUsage::Position, DeclUsage::Fog, DeclUsage::PSize]
                    .get(reg.index as usize)
                    .copied()
                    .unwrap_or(DeclUsage::Position),
                0,
            ),
            F::AttrOut | F::ColorOut => (DeclUsage::Color, reg.index as u8),
            F::DepthOut => (DeclUsage::Depth, 0),
            _ => (DeclUsage::TexCoord, reg.index as u8),
        };
        info.outputs.push(Semantic {
            reg: *reg,
            usage,
            index,
            mask: WriteMask(*mask),
            centroid: false,
        });
    }
    Ok(())
}

fn note_source(
    info: &mut ShaderInfo,
    _decls: &Declarations,
    fconsts: &mut Vec<u32>,
    reg: Register,
    relative: bool,
) {
    use RegisterFile as F;
    if relative {
        info.relative_addressing = true;
    }
    match reg.file {
        F::Const | F::Const2 | F::Const3 | F::Const4 if !relative => {
            fconsts.push(reg.logical_index())
        }
        F::ConstInt => info.int_constants.push(reg.index as u32),
        F::ConstBool => info.bool_constants.push(reg.index as u32),
        F::MiscType if reg.index == 0 => info.uses_vpos = true,
        F::MiscType => info.uses_vface = true,
        _ => {}
    }
}

/// Temp components each subroutine (by label number) writes, callees included.
fn subroutine_writes(prog: &Program, temps: usize) -> Vec<(u16, Vec<u8>)> {
    let mut subs: Vec<(u16, Vec<u8>, Vec<u16>)> = Vec::new();
    for ins in &prog.instructions {
        if ins.opcode == Opcode::Label {
            if let Some(l) = ins.srcs().first() {
                subs.push((l.reg.index, vec![0u8; temps], Vec::new()));
            }
            continue;
        }
        let Some(cur) = subs.last_mut() else { continue };
        if let Some(d) = ins.dst
            && d.reg.file == RegisterFile::Temp
            && !ins.opcode.is_declaration()
            && let Some(w) = cur.1.get_mut(d.reg.index as usize)
        {
            *w |= d.mask.0;
        }
        if matches!(ins.opcode, Opcode::Call | Opcode::CallNz)
            && let Some(l) = ins.srcs().first()
        {
            cur.2.push(l.reg.index);
        }
    }
    // Calls are forward (checked by the flow pass), so walking the
    // subroutines backwards sees every callee complete before its callers.
    for a in (0..subs.len()).rev() {
        for callee in std::mem::take(&mut subs[a].2) {
            if let Some(b) = subs.iter().position(|s| s.0 == callee)
                && b != a
            {
                let w = subs[b].1.clone();
                for (x, y) in subs[a].1.iter_mut().zip(w) {
                    *x |= y;
                }
            }
        }
    }
    subs.into_iter().map(|(l, w, _)| (l, w)).collect()
}
