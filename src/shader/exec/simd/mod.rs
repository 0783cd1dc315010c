//! The 8-lane interpreter: one lane per vertex or pixel, registers in SoA
//! form (`[S::F; 4]` per register), generic over the [`Simd`] backend and
//! meant to be entered through [`crate::simd::dispatch`].
//!
//! Each prepared op is decoded once per batch of 8 lanes. Divergent flow
//! control runs under a per-lane execution mask: an op writes only the
//! lanes of the mask (and of its predicate); a block no lane enters is
//! jumped over. Every lane keeps its own executed-instruction count;
//! lanes over the budget stop (keeping what they wrote), so scalar and
//! 8-lane runs stop the same lanes at the same point.
//!
//! Invariant: nothing here fails or panics for a prepared program (see
//! `super::op`): out-of-range relative reads give 0, out-of-range writes
//! are dropped, loop counts are bounded and the budget bounds the rest.

mod arith;
mod batch;
mod files;
mod flow;
mod texture;

use files::File;

pub use batch::BATCH;

use crate::simd::{FloatV, IntV, MaskV, Simd, map4};
use crate::texture_fetch::TextureFetch;

use super::op::{Cond, ConstSlot, Index, Kind, Modifier, Op, Src, SrcKind};
use super::prepare::Prepared;
use super::regs::{INPUT, NREG, NUM_INPUTS, OUT, OUT_D0, OUT_FOG, VFACE, VPOS, WIDE_SLOTS};
use super::{Constants, MAX_CALL_DEPTH, PixelInputs, PixelOutputs};

/// Runs a vertex program on 8 vertices. `inputs` are the vertex-input
/// registers `v0`–`v15` (components the declaration does not supply
/// already set to their defaults). Lanes outside `active` are not run;
/// their outputs hold the defaults. Returns the output slots
/// (numbered as [`super::OutputLayout`] describes). For many batches,
/// reuse an [`Executor`] instead.
#[inline(always)]
pub fn run_vertex<S: Simd>(
    p: &Prepared,
    s: S,
    inputs: &[[S::F; 4]; 16],
    consts: &Constants,
    fetch: &dyn TextureFetch<S>,
    active: S::M,
) -> [[S::F; 4]; 16] {
    Executor::new(p, s, consts, fetch).run_vertex(inputs, active)
}

/// Runs a pixel program on two 2x2 quads (the lane layout of
/// [`crate::texture_fetch`]). `active` must contain every lane of each
/// quad that has a covered pixel (helper lanes included, so derivatives
/// are defined); the caller writes only covered, non-killed lanes. For
/// many batches, reuse an [`Executor`] instead.
#[inline(always)]
pub fn run_pixel<S: Simd>(
    p: &Prepared,
    s: S,
    inputs: &PixelInputs<S>,
    consts: &Constants,
    fetch: &dyn TextureFetch<S>,
    active: S::M,
) -> PixelOutputs<S> {
    Executor::new(p, s, consts, fetch).run_pixel(inputs, active)
}

/// A reusable 8-lane run context for one prepared program, one set of
/// constants and one texture fetch: the register file is allocated and
/// cleared once, and each batch resets only what the program uses
/// (its temporaries, outputs, `a0`, `p0`). Create one per draw and
/// thread; call [`Executor::run_vertex`] or [`Executor::run_pixel`] per
/// batch. Results equal those of fresh runs.
pub struct Executor<'a, S: Simd> {
    m: Machine<'a, S>,
}

impl<'a, S: Simd> Executor<'a, S> {
    /// A context for `p` with `consts` and `fetch`: allocates the register
    /// file and fills the program's constant slots.
    #[inline(always)]
    pub fn new(
        p: &'a Prepared,
        s: S,
        consts: &Constants<'a>,
        fetch: &'a dyn TextureFetch<S>,
    ) -> Self {
        let inputs = if p.version.is_pixel() { 0xFFFF } else { 0 };
        Executor::with_written_inputs(p, s, consts, fetch, inputs)
    }

    /// [`Executor::new`] for a caller that writes only the input slots
    /// whose bits are set in `written` through [`Executor::inputs_mut`] and
    /// [`Executor::batch_inputs_mut`] (a pixel stage writes the ones its
    /// links feed): the recycled register files then have only those to
    /// clear again.
    #[inline(always)]
    pub fn with_written_inputs(
        p: &'a Prepared,
        s: S,
        consts: &Constants<'a>,
        fetch: &'a dyn TextureFetch<S>,
        written: u16,
    ) -> Self {
        Executor {
            m: Machine::new(p, s, *consts, fetch, written),
        }
    }

    /// The vertex-input / pixel-input register slots (`v0`–`v15`) for
    /// [`Executor::run_pixel_in_place`]: what a run leaves in them is what
    /// the caller last wrote (every slot starts at 0).
    #[inline(always)]
    pub fn inputs_mut(&mut self) -> &mut [[S::F; 4]] {
        &mut self.m.r[INPUT as usize..(INPUT + NUM_INPUTS) as usize]
    }

    /// Clears the per-run state the program can observe.
    #[inline(always)]
    fn reset(&mut self) {
        let m = &mut self.m;
        let s = m.s;
        let z = [s.splat(0.0); 4];
        for t in 0..m.p.temps as usize {
            m.r[t] = z;
        }
        for slot in 0..16 {
            if m.p.written_outputs & (1 << slot) != 0 {
                m.r[OUT as usize + slot] = z;
            }
        }
        if m.p.version.is_vertex() && m.p.version.major < 3 {
            m.r[(OUT + OUT_D0) as usize] = [s.splat(1.0); 4];
        }
        m.a0 = [s.splat_i(0); 4];
        m.p0 = [s.mask_from_bits(0); 4];
        m.al = 0;
        m.kill = s.mask_from_bits(0);
    }

    #[inline(always)]
    fn load_inputs(&mut self, inputs: &[[S::F; 4]; 16]) {
        for (i, v) in inputs.iter().enumerate() {
            if self.m.p.inputs_read & (1 << i) != 0 {
                self.m.r[INPUT as usize + i] = *v;
            }
        }
    }

    /// Runs 8 vertices (see [`run_vertex`]).
    #[inline(always)]
    pub fn run_vertex(&mut self, inputs: &[[S::F; 4]; 16], active: S::M) -> [[S::F; 4]; 16] {
        self.reset();
        self.load_inputs(inputs);
        let m = &mut self.m;
        let s = m.s;
        m.run(active);
        let mut out = [[s.splat(0.0); 4]; 16];
        for (slot, o) in out.iter_mut().enumerate() {
            *o = canonical(s, m.r[OUT as usize + slot]);
        }
        if m.p.version.major < 3 {
            // vs < 3.0 colour and fog outputs are clamped to [0, 1] (§4.3, §8.4).
            for slot in [OUT_D0, OUT_D0 + 1, OUT_FOG] {
                out[slot as usize] = map4!(out[slot as usize], |x| arith::sat(s, x));
            }
        }
        out
    }

    /// Runs two quads (see [`run_pixel`]).
    #[inline(always)]
    pub fn run_pixel(&mut self, inputs: &PixelInputs<S>, active: S::M) -> PixelOutputs<S> {
        self.load_inputs(&inputs.v);
        self.run_pixel_in_place(inputs.pos, inputs.face, active)
    }

    /// Runs two quads whose inputs the caller wrote through
    /// [`Executor::inputs_mut`]; `pos` and `face` as in [`PixelInputs`].
    #[inline(always)]
    pub fn run_pixel_in_place(
        &mut self,
        pos: [S::F; 2],
        face: S::F,
        active: S::M,
    ) -> PixelOutputs<S> {
        self.reset();
        let m = &mut self.m;
        let z = m.s.splat(0.0);
        m.r[VPOS as usize] = [pos[0], pos[1], z, z];
        m.r[VFACE as usize] = [face; 4];
        m.run(active);
        self.pixel_outputs()
    }

    /// The pixel results of the current register file.
    #[inline(always)]
    fn pixel_outputs(&mut self) -> PixelOutputs<S> {
        let m = &self.m;
        let s = m.s;
        let o = OUT as usize;
        PixelOutputs {
            color: [
                canonical(s, m.r[o]),
                canonical(s, m.r[o + 1]),
                canonical(s, m.r[o + 2]),
                canonical(s, m.r[o + 3]),
            ],
            depth: m.p.writes_depth.then(|| canonical(s, m.r[o + 4])[0]),
            kill: m.kill,
        }
    }
}

/// A flow-control frame (`M`: the lanes it keeps; vector masks for one
/// stamp, lane bits for a batch, see `flow`).
pub(super) enum Frame<M> {
    /// Inside an `if`: the lanes of the other branch wait in `other`;
    /// `skip` is where to go when no lane is left (the `else` or `endif`).
    If { other: M, skip: u32 },
    /// Inside a loop: lanes that broke wait in `broken` until the end.
    Loop {
        broken: M,
        iters: u32,
        step: i32,
        saved_al: i32,
        end: u32,
    },
    /// Inside a call: lanes that returned early, lanes that did not call.
    Call {
        returned: M,
        other: M,
        ret: u32,
        end: u32,
    },
}

/// The state of one 8-lane run.
pub(super) struct Machine<'a, S: Simd> {
    pub(super) s: S,
    pub(super) p: &'a Prepared,
    /// Per-lane slots, then the constant slots (see [`WIDE_SLOTS`]).
    pub(super) r: File<S>,
    /// The slots a run may leave non-zero in `r` and the banks' files
    /// (`Prepared::dirty` and the inputs the caller writes), zeroed when
    /// the machine is dropped so the files go back clean.
    dirty: super::regs::SlotSet,
    /// +0.0 in every lane, made in `new` (inside the SIMD kernel) for the
    /// files' cleaning in `drop`, which runs outside it.
    zero: [S::F; 4],
    pub(super) a0: [S::I; 4],
    pub(super) p0: [S::M; 4],
    pub(super) al: i32,
    pub(super) c: Constants<'a>,
    pub(super) fetch: &'a dyn TextureFetch<S>,
    pub(super) kill: S::M,
    /// Per-stamp state of a batch (empty until the first batch).
    bank: Vec<batch::Bank<S>>,
    /// The flow-control stack of a batch run, kept between batches.
    flow: Vec<Frame<flow::Masks>>,
}

impl<S: Simd> Drop for Machine<'_, S> {
    /// Cleans the files for their next user on this thread (`files`).
    fn drop(&mut self) {
        let (zero, dirty) = (self.zero, self.dirty);
        self.r.clean(zero, &dirty);
        for bank in &mut self.bank {
            bank.r.clean(zero, &dirty);
        }
    }
}

impl<'a, S: Simd> Machine<'a, S> {
    #[inline(always)]
    fn new(
        p: &'a Prepared,
        s: S,
        c: Constants<'a>,
        fetch: &'a dyn TextureFetch<S>,
        written_inputs: u16,
    ) -> Self {
        let none = s.mask_from_bits(0);
        let mut dirty = p.dirty;
        dirty.insert_mask(INPUT as usize, written_inputs);
        let zero = [s.splat(0.0); 4];
        let mut r = File::take(zero);
        for (k, slot) in p.const_slots.iter().enumerate() {
            let v = match *slot {
                ConstSlot::Imm(i) => p.imms.get(i as usize).copied().unwrap_or([0.0; 4]),
                ConstSlot::App(i) => c.float.get(i as usize).copied().unwrap_or([0.0; 4]),
            };
            if let Some(dst) = r.get_mut(NREG + k) {
                *dst = splat4(s, v);
            }
        }
        Machine {
            s,
            p,
            r,
            a0: [s.splat_i(0); 4],
            p0: [none; 4],
            al: 0,
            c,
            fetch,
            kill: none,
            bank: Vec::new(),
            flow: Vec::new(),
            dirty,
            zero,
        }
    }

    /// Executes the program from the start for the lanes in `active`.
    #[inline(always)]
    fn run(&mut self, active: S::M) {
        let s = self.s;
        let p = self.p;
        let ops = &p.wide_ops[..];
        let none = s.mask_from_bits(0);
        let budget = s.splat_i(p.budget.min(i32::MAX as u32) as i32);
        let mut count = s.splat_i(0);
        let mut frames: Vec<Frame<S::M>> = Vec::new();
        let mut depth = 0usize;
        let mut m = active;
        let mut full = m.all();
        let mut pc = if m.any() { 0 } else { p.main_end as usize };
        loop {
            let op = &ops[pc];
            pc += 1;
            match op.kind {
                Kind::End => break,
                Kind::If { cond, skip } => {
                    let c = self.cond(op, cond);
                    frames.push(Frame::If {
                        other: m & !c,
                        skip,
                    });
                    m = m & c;
                    if !m.any() {
                        pc = skip as usize;
                    }
                }
                Kind::Else { end } => {
                    if let Some(Frame::If { other, skip }) = frames.last_mut() {
                        std::mem::swap(&mut m, other);
                        *skip = end;
                    }
                    if !m.any() {
                        pc = end as usize;
                    }
                }
                Kind::EndIf => {
                    if let Some(Frame::If { other, .. }) = frames.last() {
                        m = m | *other;
                        frames.pop();
                    }
                    if !m.any() {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Loop {
                    count: n,
                    rep,
                    sw,
                    end,
                } => {
                    let iv = n.value(self.c.int);
                    let iters = super::math::loop_count(iv[0], sw);
                    if iters == 0 {
                        pc = end as usize + 1;
                        continue;
                    }
                    frames.push(Frame::Loop {
                        broken: none,
                        iters,
                        step: if rep { 0 } else { iv[2] },
                        saved_al: self.al,
                        end,
                    });
                    if !rep {
                        self.al = iv[1];
                    }
                }
                Kind::EndLoop { body, len } => {
                    if let Some(Frame::Loop {
                        broken,
                        iters,
                        step,
                        saved_al,
                        ..
                    }) = frames.last_mut()
                    {
                        count = count + (m.to_i() & s.splat_i(len as i32));
                        m = m & !count.gt(budget);
                        *iters -= 1;
                        self.al = self.al.wrapping_add(*step);
                        if *iters > 0 && m.any() {
                            pc = body as usize;
                        } else {
                            m = m | *broken;
                            self.al = *saved_al;
                            frames.pop();
                            if !m.any() {
                                pc = skip_target(&frames, p.main_end);
                            }
                        }
                    }
                }
                Kind::Break | Kind::BreakIf(_) => {
                    let b = match op.kind {
                        Kind::BreakIf(cond) => m & self.cond(op, cond),
                        _ => m,
                    };
                    if let Some(Frame::Loop { broken, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Loop { .. }))
                    {
                        *broken = *broken | b;
                        m = m & !b;
                    }
                    if !m.any() {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Call { target, len, cond } => {
                    let c = match cond {
                        Some(cond) => m & self.cond(op, cond),
                        None => m,
                    };
                    count = count + (c.to_i() & s.splat_i(len as i32));
                    let over = count.gt(budget);
                    m = m & !over;
                    let c = c & !over;
                    if c.any() && depth < MAX_CALL_DEPTH {
                        depth += 1;
                        frames.push(Frame::Call {
                            returned: none,
                            other: m & !c,
                            ret: pc as u32,
                            end: target + len - 1,
                        });
                        m = c;
                        pc = target as usize;
                    } else if !m.any() {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Ret => {
                    if let Some(Frame::Call { returned, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Call { .. }))
                    {
                        *returned = *returned | m;
                    }
                    m = none;
                    pc = skip_target(&frames, p.main_end);
                }
                Kind::EndSub => {
                    let mut back = None;
                    while let Some(f) = frames.pop() {
                        if let Frame::Call {
                            returned,
                            other,
                            ret,
                            ..
                        } = f
                        {
                            m = m | returned | other;
                            back = Some(ret);
                            break;
                        }
                    }
                    depth = depth.saturating_sub(1);
                    match back {
                        Some(ret) => {
                            pc = ret as usize;
                            if !m.any() {
                                pc = skip_target(&frames, p.main_end);
                            }
                        }
                        None => break,
                    }
                }
                _ => {
                    self.exec(op, m, full);
                    continue;
                }
            }
            full = m.all();
        }
    }

    /// A branch condition per lane.
    #[inline(always)]
    fn cond(&self, op: &Op, cond: Cond) -> S::M {
        match cond {
            Cond::Cmp(c) => {
                let a = self.read(&op.src[0])[0];
                let b = self.read(&op.src[1])[0];
                arith::compare::<S>(c, a, b)
            }
            Cond::Pred { comp, not } => {
                let p = self.p0[comp as usize & 3];
                if not { !p } else { p }
            }
            Cond::Bool { index, not } => {
                let b = self.c.bool.get(index as usize).copied().unwrap_or(false) != not;
                self.s.mask_from_bits(if b { 0xFF } else { 0 })
            }
        }
    }

    /// A source operand: register (relative address resolved), swizzle, modifier.
    #[inline(always)]
    pub(super) fn read(&self, src: &Src) -> [S::F; 4] {
        let s = self.s;
        if let SrcKind::Reg(_) = src.kind {
            // The common case, without branches on the swizzle: component c
            // is flat component `src.flat[c]` (a masked index, always in range).
            let f = |c: usize| {
                let k = src.flat[c] as usize;
                self.r[(k >> 2) & (WIDE_SLOTS - 1)][k & 3]
            };
            let v = [f(0), f(1), f(2), f(3)];
            return match src.modifier {
                Modifier::None => v,
                m => map4!(v, |x| arith::modify::<S>(s, m, x)),
            };
        }
        let v = match src.kind {
            SrcKind::Reg(i) => self.r[i as usize],
            SrcKind::Const(i) => splat4(s, self.const_at(i as i64)),
            SrcKind::Imm(i) => splat4(s, self.p.imms[i as usize]),
            SrcKind::ConstRel { base, index } => match index {
                Index::Al => splat4(s, self.const_at(base as i64 + self.al as i64)),
                Index::A0(c) => {
                    let idx = self.a0[c as usize & 3].to_array();
                    let mut out = [[0f32; 8]; 4];
                    for (l, &i) in idx.iter().enumerate() {
                        let v = self.const_at(base as i64 + i as i64);
                        for k in 0..4 {
                            out[k][l] = v[k];
                        }
                    }
                    map4!(out, |a| s.f32s(a))
                }
            },
            SrcKind::InputRel { base, index } => match index {
                Index::Al => match input_index(base as i64 + self.al as i64) {
                    Some(i) => self.r[i],
                    None => [s.splat(0.0); 4],
                },
                Index::A0(c) => {
                    let idx = self.a0[c as usize & 3].to_array();
                    let mut out = [[0f32; 8]; 4];
                    for (l, &i) in idx.iter().enumerate() {
                        if let Some(r) = input_index(base as i64 + i as i64) {
                            for (k, o) in out.iter_mut().enumerate() {
                                o[l] = self.r[r][k].to_array()[l];
                            }
                        }
                    }
                    map4!(out, |a| s.f32s(a))
                }
            },
            SrcKind::Zero => [s.splat(0.0); 4],
        };
        let sw = src.swizzle;
        let v = [
            v[sw[0] as usize & 3],
            v[sw[1] as usize & 3],
            v[sw[2] as usize & 3],
            v[sw[3] as usize & 3],
        ];
        match src.modifier {
            Modifier::None => v,
            m => map4!(v, |x| arith::modify::<S>(s, m, x)),
        }
    }

    /// A float constant: `def` value, else the application's, else 0.
    #[inline(always)]
    fn const_at(&self, i: i64) -> [f32; 4] {
        let Ok(i) = u32::try_from(i) else {
            return [0.0; 4];
        };
        if !self.p.float_defs.is_empty()
            && let Ok(k) = self.p.float_defs.binary_search_by_key(&i, |d| d.0)
        {
            return self.p.float_defs[k].1;
        }
        self.c.float.get(i as usize).copied().unwrap_or([0.0; 4])
    }
}

/// `v` with every NaN replaced by the one canonical quiet NaN: D3D9 does
/// not define NaN signs or payloads, and Rust does not fix which operand's
/// NaN an arithmetic op propagates, so applying this to every output is
/// what makes outputs bit-identical across interpreters. It returns a new
/// value rather than rewriting a register in place: LLVM turns an in-place
/// select into a masked store, which is microcoded and slow on AMD CPUs
/// (it cost S3 about 5 %).
#[inline(always)]
pub(super) fn canonical<S: Simd>(s: S, v: [S::F; 4]) -> [S::F; 4] {
    let nan = s.splat(f32::NAN);
    map4!(v, |x| x.ne(x).select_f(nan, x))
}

#[inline(always)]
fn splat4<S: Simd>(s: S, v: [f32; 4]) -> [S::F; 4] {
    map4!(v, |x| s.splat(x))
}

/// Register slot of input `i`, if in range.
#[inline(always)]
fn input_index(i: i64) -> Option<usize> {
    (0..NUM_INPUTS as i64)
        .contains(&i)
        .then(|| (INPUT as i64 + i) as usize)
}

/// The op index to continue at when no lane is left in the innermost frame.
pub(super) fn skip_target<M>(frames: &[Frame<M>], main_end: u32) -> usize {
    match frames.last() {
        Some(Frame::If { skip, .. }) => *skip as usize,
        Some(Frame::Loop { end, .. }) => *end as usize,
        Some(Frame::Call { end, .. }) => *end as usize,
        None => main_end as usize,
    }
}
