//! Program → [`Prepared`]: the executable form both interpreters run.
//!
//! Preparation happens once per (program, [`ExecKey`]) and does all the
//! work that would otherwise be repeated per lane: static branches on
//! boolean constants (`if b#`, `callnz b#`) are resolved against the key
//! and `defb`, dead code is dropped; `def` constants become immediates;
//! register operands become flat slots (`super::regs`); swizzles become
//! component indices; matrix macros get one prepared source per row;
//! structured flow control gets jump targets. The result satisfies the
//! invariants listed in `super::op` for **any** decodable program, valid
//! or not, so execution never needs an error path.

// Index loops keep the scalar and 8-lane formulas visibly parallel.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeMap, HashMap};

use crate::shader::ir::{self, Instruction, Payload, Program};
use crate::shader::opcode::Opcode;
use crate::shader::token::{RegisterFile, SrcModifier, Version};

use super::layout::{InputLayout, OutputLayout};
use super::op::{
    BatchForm, Cond, ConstSlot, Dst, DstKind, Index, IntSrc, Kind, Modifier, Op, Pred, Shape, Src,
    SrcKind, TexMode,
};
use super::regs::{self, INPUT, NREG, NUM_TEMPS, OUT, SlotSet, TEMP, VFACE, VPOS, WIDE_SLOTS};

/// Number of boolean constants an [`ExecKey`] can carry (`b0`–`b127`);
/// branches on higher `b#` (software profiles only) stay uniform run-time
/// branches.
pub const KEY_BOOLS: usize = 128;

/// `MaxVShaderInstructionsExecuted` of every level (caps.md): the default
/// per-lane budget of a vertex program.
pub const VS_INSTRUCTION_BUDGET: u32 = 65535;
/// `MaxPShaderInstructionsExecuted` of the SM3 level: the default per-lane
/// budget of a pixel program.
pub const PS_INSTRUCTION_BUDGET: u32 = 65536;

/// The state that changes which code a program runs: the values of the
/// boolean constants its static branches read (bit `i` = `b#i`, only the
/// bits the program branches on are set). Small, `Copy`, hashable: the
/// cache key of [`Prepared`] programs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExecKey {
    /// Boolean constants `b0`–`b127` the program branches on.
    pub bools: u128,
    /// ps_1_1–1_3 only: the stages' `D3DTTFF_PROJECTED` divisors, packed by
    /// [`super::ps1::pack_projection`] (0 for every other program).
    pub proj: u32,
}

impl ExecKey {
    /// The key of `program` when the application's boolean constants are
    /// `bools` (missing entries are FALSE).
    pub fn new(program: &Program, bools: &[bool]) -> ExecKey {
        Self::from_mask(branch_bools(program), bools)
    }

    /// The key for a program whose branch mask ([`branch_bools`]) is `used`.
    pub fn from_mask(used: u128, bools: &[bool]) -> ExecKey {
        let mut k = 0u128;
        for (i, &b) in bools.iter().take(KEY_BOOLS).enumerate() {
            if b && used & (1 << i) != 0 {
                k |= 1 << i;
            }
        }
        ExecKey { bools: k, proj: 0 }
    }
}

/// The boolean constants (`b0`–`b127`, as a bit mask) that `program`
/// branches on and does not define itself.
pub fn branch_bools(program: &Program) -> u128 {
    let mut defined = 0u128;
    let mut used = 0u128;
    for ins in &program.instructions {
        match ins.opcode {
            Opcode::DefB => {
                if let Some(d) = ins.dst
                    && (d.reg.index as usize) < KEY_BOOLS
                {
                    defined |= 1 << d.reg.index;
                }
            }
            Opcode::If | Opcode::CallNz => {
                for s in ins.srcs() {
                    if s.reg.file == RegisterFile::ConstBool && (s.reg.index as usize) < KEY_BOOLS {
                        used |= 1 << s.reg.index;
                    }
                }
            }
            _ => {}
        }
    }
    used & !defined
}

/// The 8-lane register-file slots a run of `ops` may leave non-zero:
/// every destination register (a relative output write: every output
/// from its base), the reset value of a vs_1_1-2_x `oD0`, the inputs the
/// vertex stage loads (a pixel stage's are added by its map, see
/// `Executor::limit_inputs`), `vPos`, `vFace` and the constant slots
/// (`widen`).
fn dirty_slots(ops: &[Op], v: Version, inputs_read: u16, const_slots: usize) -> SlotSet {
    let mut set = SlotSet::default();
    for o in ops {
        match o.dst.kind {
            DstKind::Reg(r) => set.insert(r as usize),
            DstKind::OutRel { base } => {
                for k in base..regs::NUM_OUTPUTS {
                    set.insert((OUT + k) as usize);
                }
            }
            _ => {}
        }
    }
    if v.is_vertex() && v.major < 3 {
        set.insert((OUT + regs::OUT_D0) as usize);
    }
    set.insert_mask(INPUT as usize, inputs_read);
    set.insert(VPOS as usize);
    set.insert(VFACE as usize);
    for k in 0..const_slots {
        set.insert(NREG + k);
    }
    set
}

/// A program prepared for one [`ExecKey`]: what the interpreters run.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub(crate) version: Version,
    pub(crate) ops: Vec<Op>,
    /// `ops` as the 8-lane interpreter runs them: the same ops at the same
    /// indices, with non-relative constant reads turned into reads of
    /// constant slots (`NREG..WIDE_SLOTS`, see [`regs::WIDE_SLOTS`]).
    pub(crate) wide_ops: Vec<Op>,
    /// What constant slot `NREG + k` holds.
    pub(crate) const_slots: Vec<ConstSlot>,
    pub(crate) imms: Vec<[f32; 4]>,
    /// `def` values by register, for relative reads (sorted).
    pub(crate) float_defs: Vec<(u32, [f32; 4])>,
    /// Per-lane executed-instruction budget.
    pub(crate) budget: u32,
    /// Index of the main program's `End` op.
    pub(crate) main_end: u32,
    /// Output slots the program may write (bit per slot).
    pub(crate) written_outputs: u16,
    /// The 8-lane register-file slots a run may leave non-zero: what a
    /// recycled file must have zeroed again (`simd::files`).
    pub(crate) dirty: SlotSet,
    /// Temporaries to clear before a run (highest used + 1).
    pub(crate) temps: u16,
    /// Input slots the program may read (bit per slot).
    pub(crate) inputs_read: u16,
    /// Writes `oDepth`.
    pub(crate) writes_depth: bool,
    /// Contains `texkill`.
    pub(crate) uses_texkill: bool,
    /// Writes `a0` or `p0` (else both keep their reset values in every run,
    /// and the batch loop need not carry them per stamp).
    pub(crate) writes_a0_p0: bool,
    key: ExecKey,
    outputs: OutputLayout,
    inputs: InputLayout,
}

impl Prepared {
    /// Prepares `program` (any decodable program; validated ones behave as
    /// bytecode.md specifies) for the boolean constants in `key`, with the
    /// default instruction budget of its shader type.
    pub fn new(program: &Program, key: ExecKey) -> Prepared {
        if program.version.is_pixel() && program.version.is_sm1() {
            let lowered = super::ps1::lower(program, key.proj);
            let mut p = Self::build(&lowered, key);
            p.version = program.version;
            return p;
        }
        Self::build(program, key)
    }

    /// [`Prepared::new`] for a program the interpreters run as it is.
    fn build(program: &Program, key: ExecKey) -> Prepared {
        let v = program.version;
        let mut b = Builder::new(program, key);
        let instrs = &program.instructions;
        let mut i = 0;
        b.routine(instrs, &mut i);
        b.push(Kind::End);
        while i < instrs.len() {
            if instrs[i].opcode == Opcode::Label {
                let label = instrs[i].srcs().first().map_or(0, |s| s.reg.index);
                let start = b.ops.len() as u32;
                i += 1;
                b.routine(instrs, &mut i);
                b.push(Kind::EndSub);
                b.labels
                    .entry(label)
                    .or_insert((start, b.ops.len() as u32 - start));
            } else {
                i += 1;
            }
        }
        b.patch_calls();
        let writes_depth = b
            .ops
            .iter()
            .any(|o| o.dst.kind == DstKind::Reg(OUT + regs::OUT_DEPTH) && v.is_pixel());
        let uses_texkill = b.ops.iter().any(|o| o.kind == Kind::TexKill);
        let writes_a0_p0 = b
            .ops
            .iter()
            .any(|o| matches!(o.dst.kind, DstKind::A0 | DstKind::P0));
        let inputs_read = b
            .ops
            .iter()
            .flat_map(|o| o.src.iter())
            .fold(0u16, |acc, s| match s.kind {
                SrcKind::Reg(r) if (INPUT..INPUT + 16).contains(&r) => acc | 1 << (r - INPUT),
                SrcKind::InputRel { .. } => 0xFFFF,
                _ => acc,
            });
        let written_outputs = b.ops.iter().fold(0u16, |acc, o| match o.dst.kind {
            DstKind::Reg(r) if r >= OUT => acc | 1 << (r - OUT),
            DstKind::OutRel { base } => acc | (0xFFFFu16.checked_shl(base as u32).unwrap_or(0)),
            _ => acc,
        });
        let (wide_ops, const_slots) = widen(&b.ops);
        let dirty = dirty_slots(&b.ops, v, inputs_read, const_slots.len());
        let main_end = b.ops.iter().position(|o| o.kind == Kind::End).unwrap_or(0);
        Prepared {
            version: v,
            wide_ops,
            const_slots,
            main_end: main_end as u32,
            imms: b.imms,
            float_defs: b.float_defs.into_iter().collect(),
            ops: b.ops,
            budget: if v.is_pixel() {
                PS_INSTRUCTION_BUDGET
            } else {
                VS_INSTRUCTION_BUDGET
            },
            writes_depth,
            uses_texkill,
            writes_a0_p0,
            written_outputs,
            dirty,
            temps: b.temps,
            inputs_read,
            key,
            outputs: if v.is_vertex() {
                OutputLayout::of_program(program)
            } else {
                OutputLayout::default()
            },
            inputs: if v.is_pixel() {
                InputLayout::of_program(program)
            } else {
                InputLayout::default()
            },
        }
    }

    /// The same program with a different per-lane executed-instruction
    /// budget (`MaxVShaderInstructionsExecuted` /
    /// `MaxPShaderInstructionsExecuted` of the device).
    pub fn with_budget(mut self, budget: u32) -> Prepared {
        self.budget = budget;
        self
    }

    /// The profile.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The key this program was prepared for.
    pub fn key(&self) -> ExecKey {
        self.key
    }

    /// Number of prepared ops (flow-control markers included).
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// True if nothing but the end marker was prepared.
    pub fn is_empty(&self) -> bool {
        self.ops.len() <= 1
    }

    /// Vertex programs: the output layout.
    pub fn outputs(&self) -> &OutputLayout {
        &self.outputs
    }

    /// Pixel programs: the input layout.
    pub fn inputs(&self) -> &InputLayout {
        &self.inputs
    }

    /// Pixel programs: whether `oDepth` is written.
    pub fn writes_depth(&self) -> bool {
        self.writes_depth
    }

    /// Pixel programs: whether `texkill` is present.
    pub fn uses_texkill(&self) -> bool {
        self.uses_texkill
    }
}

/// Flat register-file components read by `swizzle` of `slot`.
fn flat_of(slot: u16, swizzle: [u8; 4]) -> [u16; 4] {
    swizzle.map(|c| slot * 4 + (c & 3) as u16)
}

/// The 8-lane interpreter's form of `ops` (see [`Prepared::wide_ops`]):
/// every distinct `def` or application constant read without relative
/// addressing gets a constant slot, while slots last; the rest keep their
/// general form.
fn widen(ops: &[Op]) -> (Vec<Op>, Vec<ConstSlot>) {
    let mut wide = ops.to_vec();
    let mut slots: Vec<ConstSlot> = Vec::new();
    let mut slot_of: HashMap<ConstSlot, u16> = HashMap::new();
    for op in &mut wide {
        for src in &mut op.src {
            let c = match src.kind {
                SrcKind::Imm(k) => ConstSlot::Imm(k),
                SrcKind::Const(i) => ConstSlot::App(i),
                _ => continue,
            };
            let slot = match slot_of.get(&c) {
                Some(&slot) => slot,
                None if NREG + slots.len() < WIDE_SLOTS => {
                    let slot = (NREG + slots.len()) as u16;
                    slots.push(c);
                    slot_of.insert(c, slot);
                    slot
                }
                None => continue,
            };
            src.kind = SrcKind::Reg(slot);
            src.flat = flat_of(slot, src.swizzle);
        }
        op.batch = batch_form(op);
    }
    (wide, slots)
}

/// How the batched interpreter runs `op` (see [`BatchForm`]).
fn batch_form(op: &Op) -> BatchForm {
    let arity = op.kind.pure_arity();
    let srcs = &op.src[..arity];
    let tight = arity > 0
        && matches!(op.dst.kind, DstKind::Reg(_))
        && op.dst.pred.is_none()
        && srcs.iter().all(|s| matches!(s.kind, SrcKind::Reg(_)));
    if !tight {
        return BatchForm::General;
    }
    let simple =
        srcs.iter().all(|s| s.modifier == Modifier::None) && op.dst.mask == 0xF && !op.dst.sat;
    let identity = simple && srcs.iter().all(|s| s.swizzle == [0, 1, 2, 3]);
    BatchForm::Tight { simple, identity }
}

/// An open structured block during emission.
enum Open {
    /// `if b#` resolved at prepare time.
    Static { live_before: bool, cond: bool },
    /// A run-time `if`: its op and the `else` op once seen.
    Dyn {
        if_pc: usize,
        else_pc: Option<usize>,
    },
    /// `loop`/`rep` and its op.
    Loop { pc: usize },
    /// A block inside dead code.
    Dead,
}

struct Builder {
    v: Version,
    key: ExecKey,
    ops: Vec<Op>,
    imms: Vec<[f32; 4]>,
    imm_of: HashMap<u32, u32>,
    float_defs: BTreeMap<u32, [f32; 4]>,
    int_defs: BTreeMap<u32, [i32; 4]>,
    bool_defs: BTreeMap<u32, bool>,
    labels: HashMap<u16, (u32, u32)>,
    temps: u16,
}

const NO_DST: Dst = Dst {
    kind: DstKind::None,
    mask: 0,
    sat: false,
    pred: None,
    plain: false,
};

impl Builder {
    fn new(program: &Program, key: ExecKey) -> Builder {
        let mut b = Builder {
            v: program.version,
            key,
            ops: Vec::new(),
            imms: Vec::new(),
            imm_of: HashMap::new(),
            float_defs: BTreeMap::new(),
            int_defs: BTreeMap::new(),
            bool_defs: BTreeMap::new(),
            labels: HashMap::new(),
            temps: 0,
        };
        for ins in &program.instructions {
            let (Some(d), Payload::Def(vals)) = (ins.dst, ins.payload) else {
                continue;
            };
            let idx = d.reg.logical_index();
            match ins.opcode {
                Opcode::Def => {
                    b.float_defs.insert(idx, vals.map(f32::from_bits));
                }
                Opcode::DefI => {
                    b.int_defs.insert(idx, vals.map(|x| x as i32));
                }
                Opcode::DefB => {
                    b.bool_defs.insert(idx, vals[0] != 0);
                }
                _ => {}
            }
        }
        b
    }

    fn push(&mut self, kind: Kind) -> usize {
        self.ops.push(Op {
            kind,
            dst: NO_DST,
            src: [Src::ZERO; 5],
            batch: BatchForm::General,
        });
        self.ops.len() - 1
    }

    /// Emits one routine (main or a subroutine body) starting at `*i`,
    /// up to and including its top-level `ret` (or up to the next
    /// top-level `label` / the end). Unclosed blocks are closed.
    fn routine(&mut self, instrs: &[Instruction], i: &mut usize) {
        let mut stack: Vec<Open> = Vec::new();
        let mut live = true;
        while *i < instrs.len() {
            let ins = &instrs[*i];
            if ins.opcode == Opcode::Label && stack.is_empty() {
                break;
            }
            *i += 1;
            match ins.opcode {
                Opcode::If => {
                    if !live {
                        stack.push(Open::Dead);
                        continue;
                    }
                    let Some(s) = ins.srcs().first().copied() else {
                        stack.push(Open::Dead);
                        live = false;
                        continue;
                    };
                    let not = s.modifier == SrcModifier::Not;
                    let cond = if s.reg.file == RegisterFile::Predicate {
                        Cond::Pred {
                            comp: s.swizzle.get(0),
                            not,
                        }
                    } else {
                        match self.static_bool(s.reg.index) {
                            Some(b) => {
                                let cond = b != not;
                                stack.push(Open::Static {
                                    live_before: live,
                                    cond,
                                });
                                live = cond;
                                continue;
                            }
                            None => Cond::Bool {
                                index: s.reg.index,
                                not,
                            },
                        }
                    };
                    let pc = self.push(Kind::If { cond, skip: 0 });
                    stack.push(Open::Dyn {
                        if_pc: pc,
                        else_pc: None,
                    });
                }
                Opcode::IfC => {
                    if !live {
                        stack.push(Open::Dead);
                        continue;
                    }
                    let Some(cmp) = ins.comparison() else {
                        stack.push(Open::Dead);
                        live = false;
                        continue;
                    };
                    let pc = self.push(Kind::If {
                        cond: Cond::Cmp(cmp),
                        skip: 0,
                    });
                    self.cond_srcs(pc, ins);
                    stack.push(Open::Dyn {
                        if_pc: pc,
                        else_pc: None,
                    });
                }
                Opcode::Else => match stack.last_mut() {
                    Some(Open::Static { live_before, cond }) => {
                        *cond = !*cond;
                        live = *live_before && *cond;
                    }
                    Some(Open::Dyn { if_pc, else_pc }) if else_pc.is_none() => {
                        let pc = self.ops.len();
                        self.ops.push(Op {
                            kind: Kind::Else { end: 0 },
                            dst: NO_DST,
                            src: [Src::ZERO; 5],
                            batch: BatchForm::General,
                        });
                        if let Kind::If { skip, .. } = &mut self.ops[*if_pc].kind {
                            *skip = pc as u32;
                        }
                        *else_pc = Some(pc);
                    }
                    _ => {}
                },
                Opcode::EndIf => match stack.last() {
                    Some(Open::Static { live_before, .. }) => {
                        live = *live_before;
                        stack.pop();
                    }
                    Some(Open::Dyn { .. }) => {
                        let Some(Open::Dyn { if_pc, else_pc }) = stack.pop() else {
                            unreachable!()
                        };
                        self.close_if(if_pc, else_pc);
                    }
                    Some(Open::Dead) => {
                        stack.pop();
                    }
                    _ => {}
                },
                Opcode::Loop | Opcode::Rep => {
                    if !live {
                        stack.push(Open::Dead);
                        continue;
                    }
                    let rep = ins.opcode == Opcode::Rep;
                    let isrc = ins.srcs().get(if rep { 0 } else { 1 }).copied();
                    let count = match isrc {
                        Some(s) => match self.int_defs.get(&(s.reg.index as u32)) {
                            Some(v) => IntSrc::Imm(*v),
                            None => IntSrc::Const(s.reg.index),
                        },
                        None => IntSrc::Imm([0; 4]),
                    };
                    let pc = self.push(Kind::Loop {
                        count,
                        rep,
                        sw: self.v.is_software(),
                        end: 0,
                    });
                    stack.push(Open::Loop { pc });
                }
                Opcode::EndLoop | Opcode::EndRep => match stack.last() {
                    Some(Open::Loop { pc }) => {
                        let pc = *pc;
                        stack.pop();
                        self.close_loop(pc);
                    }
                    Some(Open::Dead) => {
                        stack.pop();
                    }
                    _ => {}
                },
                Opcode::Break | Opcode::BreakC | Opcode::BreakP => {
                    if !live || !stack.iter().any(|o| matches!(o, Open::Loop { .. })) {
                        continue;
                    }
                    match ins.opcode {
                        Opcode::Break => {
                            self.push(Kind::Break);
                        }
                        Opcode::BreakC => {
                            if let Some(cmp) = ins.comparison() {
                                let pc = self.push(Kind::BreakIf(Cond::Cmp(cmp)));
                                self.cond_srcs(pc, ins);
                            }
                        }
                        _ => {
                            if let Some(s) = ins.srcs().first() {
                                self.push(Kind::BreakIf(Cond::Pred {
                                    comp: s.swizzle.get(0),
                                    not: s.modifier == SrcModifier::Not,
                                }));
                            }
                        }
                    }
                }
                Opcode::Call | Opcode::CallNz => {
                    if !live {
                        continue;
                    }
                    let label = ins.srcs().first().map_or(0, |s| s.reg.index);
                    let mut cond = None;
                    if let (Opcode::CallNz, Some(s)) = (ins.opcode, ins.srcs().get(1)) {
                        let not = s.modifier == SrcModifier::Not;
                        if s.reg.file == RegisterFile::Predicate {
                            cond = Some(Cond::Pred {
                                comp: s.swizzle.get(0),
                                not,
                            });
                        } else {
                            match self.static_bool(s.reg.index) {
                                Some(b) if b == not => continue,
                                Some(_) => {}
                                None => {
                                    cond = Some(Cond::Bool {
                                        index: s.reg.index,
                                        not,
                                    })
                                }
                            }
                        }
                    }
                    // The target is patched once every label is known; the
                    // label number waits in `len` meanwhile.
                    self.push(Kind::Call {
                        target: u32::MAX,
                        len: label as u32,
                        cond,
                    });
                }
                Opcode::Ret => {
                    if stack.is_empty() {
                        return;
                    }
                    if live {
                        self.push(Kind::Ret);
                    }
                }
                Opcode::Label
                | Opcode::Dcl
                | Opcode::Def
                | Opcode::DefI
                | Opcode::DefB
                | Opcode::Nop
                | Opcode::Phase => {}
                _ => {
                    if live {
                        self.arith(ins);
                    }
                }
            }
        }
        while let Some(o) = stack.pop() {
            match o {
                Open::Dyn { if_pc, else_pc } => self.close_if(if_pc, else_pc),
                Open::Loop { pc } => self.close_loop(pc),
                _ => {}
            }
        }
    }

    fn close_if(&mut self, if_pc: usize, else_pc: Option<usize>) {
        let end = self.push(Kind::EndIf) as u32;
        match else_pc {
            Some(e) => {
                if let Kind::Else { end: t } = &mut self.ops[e].kind {
                    *t = end;
                }
            }
            None => {
                if let Kind::If { skip, .. } = &mut self.ops[if_pc].kind {
                    *skip = end;
                }
            }
        }
    }

    fn close_loop(&mut self, pc: usize) {
        let endpc = self.ops.len();
        self.push(Kind::EndLoop {
            body: pc as u32 + 1,
            len: (endpc - pc) as u32,
        });
        if let Kind::Loop { end, .. } = &mut self.ops[pc].kind {
            *end = endpc as u32;
        }
    }

    fn patch_calls(&mut self) {
        for i in 0..self.ops.len() {
            if let Kind::Call { target, len, cond } = self.ops[i].kind {
                debug_assert_eq!(target, u32::MAX);
                self.ops[i].kind = match self.labels.get(&(len as u16)) {
                    Some(&(t, l)) => Kind::Call {
                        target: t,
                        len: l,
                        cond,
                    },
                    None => Kind::Nop,
                };
            }
        }
    }

    fn static_bool(&self, index: u16) -> Option<bool> {
        if let Some(&b) = self.bool_defs.get(&(index as u32)) {
            return Some(b);
        }
        ((index as usize) < KEY_BOOLS).then(|| self.key.bools & (1 << index) != 0)
    }

    fn cond_srcs(&mut self, pc: usize, ins: &Instruction) {
        for (k, s) in ins.srcs().iter().take(2).enumerate() {
            self.ops[pc].src[k] = self.src(s, 0);
        }
    }

    fn imm(&mut self, index: u32) -> Option<u32> {
        let v = *self.float_defs.get(&index)?;
        let imms = &mut self.imms;
        Some(*self.imm_of.entry(index).or_insert_with(|| {
            imms.push(v);
            imms.len() as u32 - 1
        }))
    }

    /// Converts a source; `offset` is added to the register number (matrix rows).
    fn src(&mut self, s: &ir::Src, offset: u32) -> Src {
        let index = s.relative.map(|r| match r.reg.file {
            RegisterFile::Loop => Index::Al,
            _ => Index::A0(r.component()),
        });
        let n = s.reg.index as u32 + offset;
        let v = self.v;
        let kind = match s.reg.file {
            RegisterFile::Temp if n < NUM_TEMPS as u32 => {
                self.temps = self.temps.max(n as u16 + 1);
                SrcKind::Reg(TEMP + n as u16)
            }
            f if f.is_float_const() => {
                let logical = s.reg.logical_index() + offset;
                match index {
                    Some(index) => SrcKind::ConstRel {
                        base: logical,
                        index,
                    },
                    None => match self.imm(logical) {
                        Some(k) => SrcKind::Imm(k),
                        None => SrcKind::Const(logical),
                    },
                }
            }
            RegisterFile::Input | RegisterFile::AddrOrTexture => {
                match regs::input_slot(v, s.reg.file, n.min(u16::MAX as u32) as u16) {
                    Some(slot) => match index {
                        Some(index) => SrcKind::InputRel { base: slot, index },
                        None => SrcKind::Reg(INPUT + slot),
                    },
                    None => SrcKind::Zero,
                }
            }
            RegisterFile::MiscType if n == 0 => SrcKind::Reg(VPOS),
            RegisterFile::MiscType if n == 1 => SrcKind::Reg(VFACE),
            _ => SrcKind::Zero,
        };
        let modifier = match s.modifier {
            SrcModifier::Neg => Modifier::Neg,
            SrcModifier::Abs => Modifier::Abs,
            SrcModifier::AbsNeg => Modifier::AbsNeg,
            SrcModifier::Bias => Modifier::Bias,
            SrcModifier::BiasNeg => Modifier::BiasNeg,
            SrcModifier::Sign => Modifier::Sign,
            SrcModifier::SignNeg => Modifier::SignNeg,
            SrcModifier::Comp => Modifier::Comp,
            SrcModifier::X2 => Modifier::X2,
            SrcModifier::X2Neg => Modifier::X2Neg,
            _ => Modifier::None,
        };
        let swizzle = [0, 1, 2, 3].map(|c| s.swizzle.get(c));
        Src {
            kind,
            swizzle,
            shape: Shape::of(swizzle),
            modifier,
            flat: match kind {
                SrcKind::Reg(slot) => flat_of(slot, swizzle),
                _ => [0, 1, 2, 3],
            },
        }
    }

    fn dst(&mut self, d: &ir::Dst, pred: Option<&ir::Src>) -> Dst {
        let v = self.v;
        let n = d.reg.index;
        let kind = match d.reg.file {
            RegisterFile::Temp if n < NUM_TEMPS => {
                self.temps = self.temps.max(n + 1);
                DstKind::Reg(TEMP + n)
            }
            RegisterFile::AddrOrTexture if v.is_vertex() => DstKind::A0,
            RegisterFile::Predicate => DstKind::P0,
            RegisterFile::Output if v.is_vertex() && v.major >= 3 && d.relative.is_some() => {
                DstKind::OutRel { base: n }
            }
            f => match regs::output_slot(v, f, n) {
                Some(slot) => DstKind::Reg(OUT + slot),
                None => DstKind::None,
            },
        };
        let mask = d.mask.0 & 0xF;
        Dst {
            kind,
            mask,
            sat: d.saturate(),
            pred: pred.map(|p| Pred {
                swizzle: [0, 1, 2, 3].map(|c| p.swizzle.get(c)),
                not: p.modifier == SrcModifier::Not,
            }),
            plain: matches!(kind, DstKind::Reg(_))
                && mask == 0xF
                && !d.saturate()
                && pred.is_none(),
        }
    }

    /// Emits an arithmetic or texture instruction.
    fn arith(&mut self, ins: &Instruction) {
        use Opcode as O;
        let v = self.v;
        let kind = match ins.opcode {
            O::Mov => match ins.dst {
                Some(d) if d.reg.file == RegisterFile::AddrOrTexture && v.is_vertex() => {
                    if v.is_sm1() {
                        Kind::MovAFloor
                    } else {
                        Kind::MovA
                    }
                }
                _ => Kind::Mov,
            },
            O::MovA => Kind::MovA,
            O::Add => Kind::Add,
            O::Sub => Kind::Sub,
            O::Mad => Kind::Mad,
            O::Mul => Kind::Mul,
            O::Rcp => Kind::Rcp,
            O::Rsq => Kind::Rsq,
            O::Dp3 => Kind::Dp3,
            O::Dp4 => Kind::Dp4,
            O::Min => Kind::Min,
            O::Max => Kind::Max,
            O::Slt => Kind::Slt,
            O::Sge => Kind::Sge,
            O::Exp => Kind::Exp,
            O::ExpP if v.is_sm1() && v.is_vertex() => Kind::ExpP1,
            O::ExpP => Kind::Exp,
            O::Log | O::LogP => Kind::Log,
            O::Lit => Kind::Lit,
            O::Dst => Kind::Dst,
            O::Lrp => Kind::Lrp,
            O::Frc => Kind::Frc,
            O::M4x4 => Kind::Mat { rows: 4, dp4: true },
            O::M4x3 => Kind::Mat { rows: 3, dp4: true },
            O::M3x4 => Kind::Mat {
                rows: 4,
                dp4: false,
            },
            O::M3x3 => Kind::Mat {
                rows: 3,
                dp4: false,
            },
            O::M3x2 => Kind::Mat {
                rows: 2,
                dp4: false,
            },
            O::Pow => Kind::Pow,
            O::Crs => Kind::Crs,
            O::Sgn => Kind::Sgn,
            O::Abs => Kind::Abs,
            O::Nrm => Kind::Nrm,
            O::SinCos => Kind::SinCos,
            O::Cmp => Kind::Cmp,
            O::Cnd => Kind::Cnd,
            O::Dp2Add => Kind::Dp2Add,
            O::Dsx => Kind::Dsx,
            O::Dsy => Kind::Dsy,
            O::SetP => match ins.comparison() {
                Some(c) => Kind::SetP(c),
                None => return,
            },
            O::Tex | O::TexLdl | O::TexLdd if !v.is_sm1() => {
                let Some(sampler) = ins.srcs().get(1) else {
                    return;
                };
                let mode = match (ins.opcode, ins.control) {
                    (O::TexLdl, _) => TexMode::Level,
                    (O::TexLdd, _) => TexMode::Grad,
                    _ if v.is_vertex() => TexMode::Level0,
                    (_, 1) => TexMode::Project,
                    (_, 2) => TexMode::Bias,
                    _ => TexMode::Implicit,
                };
                let base = if v.is_vertex() { 17 } else { 0 };
                Kind::Tex {
                    slot: base + sampler.reg.index,
                    mode,
                    swizzle: [0, 1, 2, 3].map(|c| sampler.swizzle.get(c)),
                }
            }
            O::TexKill => Kind::TexKill,
            _ => return, // ps_1_x texture forms are not run by this interpreter
        };
        let mut op = Op {
            kind,
            dst: NO_DST,
            src: [Src::ZERO; 5],
            batch: BatchForm::General,
        };
        if let Some(d) = &ins.dst {
            op.dst = self.dst(d, ins.predicate.as_ref());
        }
        match kind {
            // crs never writes w; sincos writes only x (cos) and y (sin),
            // the SM3 rule applied to every version (§7.5, §7.6).
            Kind::Crs => {
                op.dst.mask &= 0x7;
                op.dst.plain = false;
            }
            Kind::SinCos => {
                op.dst.mask &= 0x3;
                op.dst.plain = false;
            }
            _ => {}
        }
        let srcs = ins.srcs();
        match kind {
            Kind::TexKill => {
                if let Some(d) = &ins.dst {
                    let mut s = ir::Src::new(d.reg);
                    s.relative = d.relative;
                    op.src[0] = self.src(&s, 0);
                    op.dst.kind = DstKind::None;
                }
            }
            Kind::Tex { .. } => {
                op.src[0] = srcs.first().map_or(Src::ZERO, |s| self.src(s, 0));
                for k in 2..srcs.len().min(4) {
                    op.src[k] = self.src(&srcs[k], 0);
                }
            }
            Kind::Mat { rows, .. } => {
                op.src[0] = srcs.first().map_or(Src::ZERO, |s| self.src(s, 0));
                if let Some(m) = srcs.get(1) {
                    for r in 0..rows as u32 {
                        op.src[1 + r as usize] = self.src(m, r);
                    }
                }
            }
            Kind::Sgn | Kind::SinCos => {
                op.src[0] = srcs.first().map_or(Src::ZERO, |s| self.src(s, 0));
            }
            _ => {
                for (k, s) in srcs.iter().take(3).enumerate() {
                    op.src[k] = self.src(s, 0);
                }
            }
        }
        self.ops.push(op);
    }
}
