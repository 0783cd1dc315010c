//! Validation of ps_1_1–ps_1_4 pixel shaders (bytecode.md §5, §7.13) and
//! the [`ShaderInfo`] of an accepted one.
//!
//! Shader model 1 pixel shaders follow rules of their own: a block of
//! texture-addressing instructions before the arithmetic (one block per
//! phase in 1_4), texture registers that carry coordinates in and results
//! out, co-issued RGB/alpha pairs, per-instruction read ports and small
//! slot budgets. The SM2/3 passes beside this module do not apply; the
//! walk below checks every rule in program order and keeps, per register
//! component, what wrote it, which is all those rules need. The version
//! tables live in `rules`, the texture instructions in `texture`, the
//! arithmetic in `arithmetic`.

mod arithmetic;
mod rules;
mod texture;

use super::fail;
use crate::shader::error::{ShaderError, ShaderErrorKind};
use crate::shader::info::{Semantic, ShaderInfo};
use crate::shader::ir::{Instruction, Payload, Program};
use crate::shader::opcode::Opcode;
use crate::shader::token::{DST_SATURATE, Register, RegisterFile, TextureType, Version, WriteMask};
use crate::vertex::DeclUsage;
use rules::{ALPHA, Ps1, RGB, result_unreadable};

/// The most registers any ps_1_x file has (`r#`/`t#` of 1_4; `c#` has 8
/// but needs no per-register state).
const REGS: usize = 6;

/// Validate a ps_1_x `program` (the version must be a ps_1_x token).
pub(super) fn validate(program: &Program) -> Result<ShaderInfo, ShaderError> {
    let v = program.version;
    let Some(p) = Ps1::new(v) else {
        return Err(whole(
            "version",
            format!(
                "{} is not a Direct3D 9 pixel shader profile (ps_1_1 to ps_1_4 are)",
                v.profile_name()
            ),
        ));
    };
    // 1_4 starts in phase 1 only when a phase marker follows; without one
    // the whole program is phase 2 ("phase - ps").
    let has_phase = p.is14()
        && program
            .instructions
            .iter()
            .any(|i| i.opcode == Opcode::Phase);
    let mut s = Walk::new(p, v, has_phase);
    for (i, ins) in program.instructions.iter().enumerate() {
        s.instruction(i, ins)?;
    }
    s.finish()
}

/// An error about the program as a whole.
fn whole(rule: &'static str, msg: String) -> ShaderError {
    ShaderError::new(ShaderErrorKind::Invalid, rule, msg)
}

/// `1 << idx` for a register index already checked against its file.
fn bit(idx: usize) -> u8 {
    1u8.checked_shl(idx as u32).unwrap_or(0)
}

/// Component letters of a mask, for messages.
fn comps(mask: u8) -> String {
    "rgba"
        .chars()
        .enumerate()
        .filter(|(c, _)| mask & bit(*c) != 0)
        .map(|(_, l)| l)
        .collect()
}

/// Where a texm3x* sequence stands.
#[derive(Clone, Copy, Debug)]
enum Texm {
    /// After texm3x2pad: texm3x2tex/texm3x2depth must follow.
    Two,
    /// After the first texm3x3pad: the second must follow.
    ThreeSecond,
    /// After two texm3x3pad: texm3x3tex/spec/vspec/texm3x3 must follow.
    ThreeFinal,
}

/// Distinct registers read, one bit per register number, per file.
#[derive(Clone, Copy, Debug, Default)]
struct Ports {
    temp: u8,
    tex: u8,
    input: u8,
    cnst: u8,
}

impl Ports {
    fn slot(&mut self, file: RegisterFile) -> Option<&mut u8> {
        match file {
            RegisterFile::Temp => Some(&mut self.temp),
            RegisterFile::AddrOrTexture => Some(&mut self.tex),
            RegisterFile::Input => Some(&mut self.input),
            RegisterFile::Const => Some(&mut self.cnst),
            _ => None,
        }
    }

    fn union(self, o: Ports) -> Ports {
        Ports {
            temp: self.temp | o.temp,
            tex: self.tex | o.tex,
            input: self.input | o.input,
            cnst: self.cnst | o.cnst,
        }
    }

    fn files(self) -> [(RegisterFile, u8, &'static str); 4] {
        [
            (RegisterFile::Temp, self.temp, "temp (r#)"),
            (RegisterFile::AddrOrTexture, self.tex, "texture (t#)"),
            (RegisterFile::Input, self.input, "colour (v#)"),
            (RegisterFile::Const, self.cnst, "constant (c#)"),
        ]
    }
}

/// What the co-issue rules need of the previous instruction.
#[derive(Clone, Copy, Debug)]
struct Prev {
    op: Opcode,
    coissue: bool,
    mask: u8,
    dst: Option<Register>,
    ports: Ports,
    cost: u32,
}

/// The state of the walk over one program.
struct Walk {
    p: Ps1,
    v: Version,
    has_phase: bool,
    /// 1 before the phase marker of a 1_4 program that has one, else 2.
    phase: u8,
    phase_seen: bool,
    /// Components written so far, per `r#` and per `t#` (1_1–1_3).
    temp: [u8; REGS],
    tex: [u8; REGS],
    /// The same before the current cycle: a co-issued instruction reads
    /// the values from before its pair.
    temp_before: [u8; REGS],
    tex_before: [u8; REGS],
    /// 1_4: `r#` alpha lost at the phase marker, blue lost to a `.rg` texcrd.
    zapped_alpha: u8,
    zapped_blue: u8,
    /// 1_1–1_3: the texture instruction that last wrote each `t#`
    /// component (`None`: nothing, or an arithmetic instruction).
    tex_writer: [[Option<Opcode>; 4]; REGS],
    /// 1_1–1_3: components of each `t#` read by texbem/texbeml.
    bem_read: [u8; REGS],
    /// 1_1–1_3: 1 if a `t#` holds a texture read, 2 if that read used
    /// coordinates from another texture read.
    level: [u8; REGS],
    /// 1_1–1_3: `t#` written by texture instructions so far.
    tex_declared: u8,
    /// 1_4: the phase in which a texture instruction wrote each `r#`
    /// component (0: not written by one).
    tex_phase: [[u8; 4]; REGS],
    /// 1_4: `r#` already a texture destination in this phase.
    tex_dst_in_phase: u8,
    /// 1_4: the selector (`.xyz` or `.xyw`) each `t#` is read with.
    coord_selector: [Option<u8>; REGS],
    dz_count: u32,
    texdepth_seen: bool,
    bem_seen: bool,
    cmp_count: u32,
    dp4_count: u32,
    /// An arithmetic instruction in this block (1_4: this phase).
    arith_seen: bool,
    /// An instruction other than `def` so far.
    code_seen: bool,
    /// 1_1–1_3: an open texm3x* sequence, its first destination and its
    /// source register.
    texm: Option<(Texm, u16, u16)>,
    prev: Option<Prev>,
    /// Slots of the current block and of the whole program.
    block_tex: u32,
    block_arith: u32,
    total_tex: u32,
    total_arith: u32,
    // What the ShaderInfo reports.
    max_temp: Option<u16>,
    consts: u8,
    locals: Vec<(u32, [u32; 4])>,
    inputs: u8,
    coords: u8,
    samplers: u8,
    uses_texkill: bool,
    writes_depth: bool,
}

impl Walk {
    fn new(p: Ps1, v: Version, has_phase: bool) -> Walk {
        Walk {
            p,
            v,
            has_phase,
            phase: if has_phase { 1 } else { 2 },
            phase_seen: false,
            temp: [0; REGS],
            tex: [0; REGS],
            temp_before: [0; REGS],
            tex_before: [0; REGS],
            zapped_alpha: 0,
            zapped_blue: 0,
            tex_writer: [[None; 4]; REGS],
            bem_read: [0; REGS],
            level: [0; REGS],
            tex_declared: 0,
            tex_phase: [[0; 4]; REGS],
            tex_dst_in_phase: 0,
            coord_selector: [None; REGS],
            dz_count: 0,
            texdepth_seen: false,
            bem_seen: false,
            cmp_count: 0,
            dp4_count: 0,
            arith_seen: false,
            code_seen: false,
            texm: None,
            prev: None,
            block_tex: 0,
            block_arith: 0,
            total_tex: 0,
            total_arith: 0,
            max_temp: None,
            consts: 0,
            locals: Vec::new(),
            inputs: 0,
            coords: 0,
            samplers: 0,
            uses_texkill: false,
            writes_depth: false,
        }
    }

    fn err(&self, i: usize, ins: &Instruction, rule: &'static str, msg: String) -> ShaderError {
        fail(i, ins, self.v, rule, msg)
    }

    fn name(&self) -> String {
        self.v.profile_name()
    }

    fn instruction(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        use Opcode::*;
        let (p, op) = (self.p, ins.opcode);
        if !p.has_opcode(op) {
            let what = op.mnemonic(ins.control, self.v);
            let msg = format!("{what} is not an instruction of {}", self.name());
            return Err(self.err(i, ins, "opcode-profile", msg));
        }
        if ins.control != 0 {
            let msg = format!("opcode-specific control {} must be 0", ins.control);
            return Err(self.err(i, ins, "control", msg));
        }
        if ins.predicate.is_some() {
            let msg = "shader model 1 has no predication".to_string();
            return Err(self.err(i, ins, "predication", msg));
        }
        if !ins.coissue {
            self.temp_before = self.temp;
            self.tex_before = self.tex;
        }
        if op == Def {
            return self.def(i, ins);
        }
        self.code_seen = true;
        if !p.is14() {
            self.texm_sequence(i, ins)?;
        }
        self.operand_basics(i, ins)?;
        // Pairing first: a co-issued instruction's reads are judged against
        // its partner only once the pair itself is legal.
        let mask = match op {
            Nop | Phase => 0,
            _ if p.is_texture_op(op) => 0xF,
            _ => ins.dst.map_or(0, |d| d.mask.0),
        };
        self.pairing(i, ins, mask)?;
        let cost = match op {
            Nop | Phase => {
                if ins.dst.is_some() || !ins.srcs().is_empty() {
                    let msg = "this instruction takes no operands".to_string();
                    return Err(self.err(i, ins, "operand", msg));
                }
                if op == Phase {
                    self.phase(i, ins)?;
                }
                0
            }
            _ if p.is_texture_op(op) => {
                if p.is14() {
                    self.texture14(i, ins)?;
                } else {
                    self.texture11(i, ins)?;
                }
                0
            }
            _ => self.arithmetic(i, ins)?,
        };
        let ports = self.ports(i, ins)?;
        let prev_cost = match self.prev {
            Some(pr) if ins.coissue => pr.cost,
            _ => 0,
        };
        // A co-issued pair takes one slot: the dearer of its two.
        let extra = cost.saturating_sub(prev_cost);
        self.block_arith += extra;
        self.total_arith += extra;
        self.prev = Some(Prev {
            op,
            coissue: ins.coissue,
            mask,
            dst: ins.dst.map(|d| d.reg),
            ports,
            cost,
        });
        Ok(())
    }

    /// Rules every operand shares: no relative addressing (ps_1_x has no
    /// index register), no `_pp`/`_centroid` (ps_2_0+ modifiers).
    fn operand_basics(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        if let Some(d) = ins.dst {
            if d.relative.is_some() {
                let msg = format!("{} has no relative addressing", self.name());
                return Err(self.err(i, ins, "relative-address", msg));
            }
            if d.modifiers & !DST_SATURATE != 0 {
                let msg = "_pp and _centroid do not exist in ps_1_x".to_string();
                return Err(self.err(i, ins, "dst-modifier", msg));
            }
            if d.reg.file == RegisterFile::Temp {
                self.note_temp(d.reg.index);
            }
        }
        for s in ins.srcs() {
            if s.relative.is_some() {
                let msg = format!("{} has no relative addressing", self.name());
                return Err(self.err(i, ins, "relative-address", msg));
            }
            if s.reg.file == RegisterFile::Temp {
                self.note_temp(s.reg.index);
            }
        }
        Ok(())
    }

    fn note_temp(&mut self, idx: u16) {
        self.max_temp = Some(self.max_temp.map_or(idx, |m| m.max(idx)));
    }

    /// `def c#, x, y, z, w`: c0–c7, full mask, before every other instruction.
    fn def(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        if self.code_seen {
            let msg = "def must come before every other instruction".to_string();
            return Err(self.err(i, ins, "declaration-order", msg));
        }
        if ins.coissue {
            return Err(self.err(i, ins, "coissue", "def cannot be co-issued".into()));
        }
        let (Some(d), Payload::Def(vals)) = (ins.dst, ins.payload) else {
            let msg = "def needs a c# destination and four values".to_string();
            return Err(self.err(i, ins, "def-register", msg));
        };
        if d.reg.file != RegisterFile::Const
            || d.mask.0 != 0xF
            || d.modifiers != 0
            || d.shift != 0
            || d.relative.is_some()
        {
            let msg = "def writes a whole c# register without modifiers".to_string();
            return Err(self.err(i, ins, "def-register", msg));
        }
        self.in_range(i, ins, d.reg)?;
        self.locals.push((u32::from(d.reg.index), vals));
        self.prev = Some(Prev {
            op: Opcode::Def,
            coissue: false,
            mask: 0xF,
            dst: Some(d.reg),
            ports: Ports::default(),
            cost: 0,
        });
        Ok(())
    }

    /// The register number is inside its file's count for this version.
    fn in_range(&self, i: usize, ins: &Instruction, reg: Register) -> Result<(), ShaderError> {
        match self.p.file_count(reg.file) {
            Some(n) if reg.index < n => Ok(()),
            Some(n) => {
                let msg = format!(
                    "{:?} register {} out of range ({} has {n})",
                    reg.file,
                    reg.index,
                    self.name()
                );
                Err(self.err(i, ins, "register-index", msg))
            }
            None => {
                let msg = format!("{} has no {:?} registers", self.name(), reg.file);
                Err(self.err(i, ins, "register-file", msg))
            }
        }
    }

    /// 1_4 `phase`: once; ends phase 1, whose slots are counted now, and
    /// loses the alpha of every `r#` ("phase - ps").
    fn phase(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        if self.phase_seen {
            let msg = "a ps_1_4 shader has at most one phase marker".to_string();
            return Err(self.err(i, ins, "phase", msg));
        }
        self.block_limits(Some((i, ins)), "phase 1")?;
        for r in 0..REGS {
            if let (Some(t), Some(tp)) = (self.temp.get_mut(r), self.tex_phase.get_mut(r)) {
                if *t & ALPHA != 0 {
                    self.zapped_alpha |= bit(r);
                }
                *t &= !ALPHA;
                tp[3] = 0;
            }
        }
        self.phase_seen = true;
        self.phase = 2;
        self.arith_seen = false;
        self.tex_dst_in_phase = 0;
        self.block_tex = 0;
        self.block_arith = 0;
        Ok(())
    }

    /// The slot budget of the block that ends here (1_4: a phase).
    fn block_limits(
        &self,
        at: Option<(usize, &Instruction)>,
        block: &str,
    ) -> Result<(), ShaderError> {
        let mk = |rule: &'static str, msg: String| match at {
            Some((i, ins)) => self.err(i, ins, rule, msg),
            None => whole(rule, msg),
        };
        let tl = self.p.texture_limit();
        if self.block_tex > tl {
            let msg = format!(
                "{} texture instruction slots in {block} of a {} shader, at most {tl}",
                self.block_tex,
                self.name()
            );
            return Err(mk("texture-instructions", msg));
        }
        let al = Ps1::ARITHMETIC_LIMIT;
        if self.block_arith > al {
            let msg = format!(
                "{} arithmetic instruction slots in {block} of a {} shader (a co-issued pair counts once), at most {al}",
                self.block_arith,
                self.name()
            );
            return Err(mk("arithmetic-instructions", msg));
        }
        Ok(())
    }

    /// Reading components `mask` of `reg`: they must have been written in
    /// an earlier cycle (r#; t# below 1_4), and a t# result must still be
    /// readable.
    fn read(
        &mut self,
        i: usize,
        ins: &Instruction,
        reg: Register,
        mask: u8,
    ) -> Result<(), ShaderError> {
        use Opcode::*;
        let idx = usize::from(reg.index);
        let op = ins.opcode;
        let p = self.p;
        let before = match reg.file {
            RegisterFile::Temp => self.temp_before.get(idx).copied().unwrap_or(0),
            RegisterFile::AddrOrTexture if !p.is14() => {
                let writers = self.tex_writer.get(idx).copied().unwrap_or([None; 4]);
                for (c, w) in writers.iter().enumerate() {
                    if mask & bit(c) == 0 {
                        continue;
                    }
                    match w {
                        Some(w) if result_unreadable(*w) => {
                            let msg = format!(
                                "t{idx} holds the result of {}, which cannot be read",
                                w.base_name()
                            );
                            return Err(self.err(i, ins, "texture-result", msg));
                        }
                        Some(TexBem | TexBemL) if p.is_texture_op(op) => {
                            let msg = format!(
                                "t{idx} holds a texbem/texbeml result, which no texture instruction may read"
                            );
                            return Err(self.err(i, ins, "texture-result", msg));
                        }
                        _ => {}
                    }
                }
                let br = self.bem_read.get(idx).copied().unwrap_or(0);
                if br & mask != 0 && !matches!(op, TexBem | TexBemL) {
                    let msg = format!(
                        "t{idx} was read by texbem/texbeml; only another texbem/texbeml may read it"
                    );
                    return Err(self.err(i, ins, "texture-result", msg));
                }
                self.tex_before.get(idx).copied().unwrap_or(0)
            }
            // v#, c# and the 1_4 coordinate registers hold values from the start.
            _ => return Ok(()),
        };
        let missing = mask & !before;
        if missing != 0 {
            let mut msg = format!(
                "read of uninitialized component(s) {} of {}{idx}",
                comps(missing),
                if reg.file == RegisterFile::Temp {
                    'r'
                } else {
                    't'
                }
            );
            if reg.file == RegisterFile::Temp {
                if missing & ALPHA != 0 && self.zapped_alpha & bit(idx) != 0 {
                    msg.push_str(" (the phase marker discards the alpha of every r#)");
                }
                if missing & 0x4 != 0 && self.zapped_blue & bit(idx) != 0 {
                    msg.push_str(" (a texcrd with a .rg mask leaves blue undefined)");
                }
            }
            return Err(self.err(i, ins, "uninitialized-read", msg));
        }
        Ok(())
    }

    /// Record a write of `mask` to `reg`, by a texture instruction or not.
    fn write(&mut self, reg: Register, mask: u8, by_texture: bool) {
        let idx = usize::from(reg.index);
        let phase = if by_texture { self.phase } else { 0 };
        match reg.file {
            RegisterFile::Temp => {
                if let (Some(t), Some(tp)) = (self.temp.get_mut(idx), self.tex_phase.get_mut(idx)) {
                    *t |= mask;
                    for (c, ph) in tp.iter_mut().enumerate() {
                        if mask & bit(c) != 0 {
                            *ph = phase;
                        }
                    }
                }
            }
            RegisterFile::AddrOrTexture => {
                if let Some(t) = self.tex.get_mut(idx) {
                    *t |= mask;
                }
                if !by_texture {
                    if let Some(w) = self.tex_writer.get_mut(idx) {
                        for (c, slot) in w.iter_mut().enumerate() {
                            if mask & bit(c) != 0 {
                                *slot = None;
                            }
                        }
                    }
                    if let Some(br) = self.bem_read.get_mut(idx) {
                        *br &= !mask;
                    }
                }
            }
            _ => {}
        }
    }

    /// Read ports: distinct registers per file in one instruction, and at
    /// most three per file across a co-issued pair.
    fn ports(&self, i: usize, ins: &Instruction) -> Result<Ports, ShaderError> {
        let mut ports = Ports::default();
        for s in ins.srcs() {
            if let Some(slot) = ports.slot(s.reg.file) {
                *slot |= bit(usize::from(s.reg.index));
            }
        }
        for (file, set, what) in ports.files() {
            let limit = self.p.read_ports(file);
            if set.count_ones() as usize > limit {
                let msg = format!(
                    "{} different {what} registers read; {} allows {limit} per instruction",
                    set.count_ones(),
                    self.name()
                );
                return Err(self.err(i, ins, "read-port", msg));
            }
        }
        if ins.coissue
            && let Some(prev) = self.prev
        {
            for (_, set, what) in ports.union(prev.ports).files() {
                if set.count_ones() > 3 {
                    let msg = format!(
                        "{} different {what} registers read by a co-issued pair, at most 3",
                        set.count_ones()
                    );
                    return Err(self.err(i, ins, "read-port", msg));
                }
            }
        }
        Ok(ports)
    }

    /// Co-issue (`+`): the second of a pair of arithmetic instructions, one
    /// in the colour pipe and one in the alpha pipe ("Co-issue", the
    /// instruction pairing rules of the reference validator).
    fn pairing(&self, i: usize, ins: &Instruction, mask: u8) -> Result<(), ShaderError> {
        use Opcode::*;
        if !ins.coissue {
            return Ok(());
        }
        let (p, op) = (self.p, ins.opcode);
        let e = |msg: &str| Err(self.err(i, ins, "coissue", msg.into()));
        if p.is_texture_op(op) {
            return e("texture instructions cannot be co-issued");
        }
        if matches!(op, Nop | Phase | Dp4 | Bem) {
            return e("nop, phase, dp4 and bem cannot be co-issued");
        }
        let Some(prev) = self.prev else {
            return e("co-issue needs a previous arithmetic instruction to pair with");
        };
        if !p.is_arithmetic(prev.op) {
            return e("co-issue needs a previous arithmetic instruction to pair with");
        }
        if prev.coissue {
            return e("co-issue pairs two instructions: consecutive '+' are not allowed");
        }
        if matches!(prev.op, Dp4 | Bem) {
            return e("dp4 and bem cannot be co-issued");
        }
        let (a, b) = (prev.mask, mask);
        let (dp_prev, dp_cur) = (prev.op == Dp3, op == Dp3);
        if dp_prev && dp_cur {
            return e("two dp3 cannot be co-issued: each needs the colour pipe");
        }
        if dp_prev || dp_cur {
            let (dp, other) = if dp_cur { (b, a) } else { (a, b) };
            if other & RGB != 0 {
                return e("an instruction co-issued with dp3 may write only alpha");
            }
            if dp & ALPHA != 0 {
                return e("a dp3 that writes alpha uses both pipes and cannot be co-issued");
            }
            if !p.is14() {
                return Ok(());
            }
        }
        if p.is14() {
            if (a & ALPHA != 0 && a & RGB != 0) || (b & ALPHA != 0 && b & RGB != 0) {
                return e("each instruction of a pair writes either alpha or colour components");
            }
            if a & b != 0 {
                return e("co-issued instructions cannot write the same components");
            }
            if (a | b) & ALPHA == 0 {
                return e("one instruction of a co-issued pair must write alpha only");
            }
            return Ok(());
        }
        if a == 0xF || b == 0xF {
            return e("a co-issued instruction writes either .rgb or .a, not all four");
        }
        let same_reg = ins.dst.map(|d| d.reg) == prev.dst;
        if same_reg && a & b != 0 {
            return e("co-issued instructions cannot write the same components");
        }
        if a & RGB != 0 && b & RGB != 0 {
            return e("co-issued instructions cannot both write colour components");
        }
        if a & ALPHA != 0 && b & ALPHA != 0 {
            return e("co-issued instructions cannot both write alpha");
        }
        Ok(())
    }

    /// End-of-program rules and the [`ShaderInfo`].
    fn finish(self) -> Result<ShaderInfo, ShaderError> {
        if let Some((state, _, _)) = self.texm {
            let msg = format!("the program ends inside a texm sequence ({state:?} row missing)");
            return Err(whole("texm-sequence", msg));
        }
        let block = if self.phase_seen {
            "phase 2"
        } else {
            "the program"
        };
        self.block_limits(None, block)?;
        let r0 = self.temp.first().copied().unwrap_or(0);
        if r0 != 0xF {
            let mut msg = format!(
                "r0 is the pixel colour and must be written; components {} are not",
                comps(0xF & !r0)
            );
            if r0 & ALPHA == 0 && self.zapped_alpha & 1 != 0 {
                msg.push_str(" (the phase marker discards r0.a: write it again in phase 2)");
            }
            return Err(whole("output-required", msg));
        }
        let mut info = ShaderInfo {
            version: Some(self.v),
            temps: self.max_temp.map_or(0, |m| u32::from(m) + 1),
            local_float_constants: self.locals,
            uses_texkill: self.uses_texkill,
            writes_depth: self.writes_depth,
            uses_derivatives: self.samplers != 0,
            texture_instructions: self.total_tex,
            arithmetic_slots: self.total_arith,
            instruction_slots: self.total_tex + self.total_arith,
            ..ShaderInfo::default()
        };
        for c in 0..8u32 {
            if self.consts & bit(c as usize) == 0 {
                continue;
            }
            match info.float_constants.last_mut() {
                Some((s, n)) if *s + *n == c => *n += 1,
                _ => info.float_constants.push((c, 1)),
            }
        }
        let input = |file: RegisterFile, idx: usize, usage: DeclUsage| Semantic {
            reg: Register::new(file, idx as u16),
            usage,
            index: idx as u8,
            mask: WriteMask::ALL,
            centroid: false,
        };
        for idx in 0..REGS {
            if self.inputs & bit(idx) != 0 {
                let s = input(RegisterFile::Input, idx, DeclUsage::Color);
                info.inputs.push(s);
            }
        }
        for idx in 0..REGS {
            if self.coords & bit(idx) != 0 {
                let s = input(RegisterFile::AddrOrTexture, idx, DeclUsage::TexCoord);
                info.inputs.push(s);
            }
            if self.samplers & bit(idx) != 0 {
                info.samplers.push((idx as u32, TextureType::Unknown));
            }
        }
        info.outputs.push(Semantic {
            reg: Register::new(RegisterFile::Temp, 0),
            usage: DeclUsage::Color,
            index: 0,
            mask: WriteMask::ALL,
            centroid: false,
        });
        if self.writes_depth {
            // texm3x2depth / texdepth replace the pixel's depth as oDepth would.
            info.outputs.push(Semantic {
                reg: Register::new(RegisterFile::DepthOut, 0),
                usage: DeclUsage::Depth,
                index: 0,
                mask: WriteMask(0x1),
                centroid: false,
            });
        }
        Ok(info)
    }
}
