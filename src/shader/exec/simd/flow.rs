//! Pixel programs over a batch of stamps, flow control included: the
//! dispatch cost of every op, branch and loop is paid once per batch, not
//! once per stamp. (A program without flow control is the same loop with
//! masks that never change.)
//!
//! Each stamp keeps its own execution mask, 8 lane bits per stamp in one
//! `u64` ([`Masks`]: small frames and one-instruction mask logic, where
//! vector masks per stamp made every frame push a 0.5 KiB copy); a frame of
//! the flow-control stack (`super::Frame<Masks>`, the one-stamp run's frame
//! type with lane bits for its masks) holds such masks for what it saves (the
//! other side of an `if`, the lanes that broke out of a loop, the lanes
//! that returned or did not call). Loop counts, `aL` and the call depth are
//! uniform (constants drive them), so they are shared by the batch. A block
//! is jumped over when no lane of any stamp runs it; a stamp without a lane
//! in it just waits (its ops are skipped, its masks stay empty).
//!
//! Equality with the stamp-by-stamp run ([`super::Machine`]'s `run`): each
//! stamp sees the same ops in the same order with the same masks, because a
//! stamp with no running lane changes nothing (a skipped op, an `if` whose
//! sides are both empty, a loop iteration that counts nothing against the
//! budget), and its lanes resume at the same op when its frame closes.
//! Arithmetic on plain registers runs in the batch's tight loops
//! ([`super::batch`]), blended under the stamp's mask where it differs from
//! the stamp's starting (active) lanes; the lanes outside those belong to
//! quads no covered pixel needs and are never read (derivatives stay inside
//! a quad; fetches, `texkill` and the caller take the mask).

use crate::simd::{IntV, MaskV, Simd};

use super::super::MAX_CALL_DEPTH;
use super::super::op::{BatchForm, Cond, Kind, Op};
use super::batch::{BATCH, Gate, TightRun};
use super::{Frame, Machine, skip_target};

/// Execution masks of a batch: lane `l` of stamp `k` is bit `8k + l`.
pub(super) type Masks = u64;

/// Stamp `k`'s 8 lane bits of `m`.
#[inline(always)]
pub(super) fn lanes(m: Masks, k: usize) -> u32 {
    ((m >> (8 * k)) & 0xFF) as u32
}

impl<S: Simd> Machine<'_, S> {
    /// Runs the main program over the first `n` banks, stamp `k` starting
    /// with the lanes `active[k]` (see the module docs).
    #[inline(always)]
    pub(super) fn run_batch(&mut self, n: usize, active: &[S::M; BATCH]) {
        let s = self.s;
        let p = self.p;
        let ops = &p.wide_ops[..];
        let budget = s.splat_i(p.budget.min(i32::MAX as u32) as i32);
        let mut count = [s.splat_i(0); BATCH];
        let mut frames = std::mem::take(&mut self.flow);
        frames.clear();
        let mut depth = 0usize;
        let mut start: Masks = 0;
        for (k, a) in active.iter().enumerate().take(n) {
            start |= u64::from(a.bits() & 0xFF) << (8 * k);
        }
        let mut m = start;
        let mut pc = if m != 0 { 0 } else { p.main_end as usize };
        // What the tight loops write under the current masks; made again
        // only after a flow-control op (a program without flow control
        // makes it once).
        let mut gate = None;
        loop {
            let op = &ops[pc];
            pc += 1;
            match op.kind {
                Kind::End => break,
                Kind::If { cond, skip } => {
                    let c = self.batch_cond(n, op, cond);
                    frames.push(Frame::If {
                        other: m & !c,
                        skip,
                    });
                    m &= c;
                    if m == 0 {
                        pc = skip as usize;
                    }
                }
                Kind::Else { end } => {
                    if let Some(Frame::If { other, skip }) = frames.last_mut() {
                        std::mem::swap(&mut m, other);
                        *skip = end;
                    }
                    if m == 0 {
                        pc = end as usize;
                    }
                }
                Kind::EndIf => {
                    if let Some(&Frame::If { other, .. }) = frames.last() {
                        m |= other;
                        frames.pop();
                    }
                    if m == 0 {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Loop {
                    count: c,
                    rep,
                    sw,
                    end,
                } => {
                    let iv = c.value(self.c.int);
                    let iters = super::super::math::loop_count(iv[0], sw);
                    if iters == 0 {
                        pc = end as usize + 1;
                        continue;
                    }
                    frames.push(Frame::Loop {
                        broken: 0,
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
                        let mut running = m;
                        charge(s, n, &mut count, budget, (&mut running, &mut m), len);
                        *iters -= 1;
                        self.al = self.al.wrapping_add(*step);
                        if *iters > 0 && m != 0 {
                            pc = body as usize;
                        } else {
                            m |= *broken;
                            self.al = *saved_al;
                            frames.pop();
                            if m == 0 {
                                pc = skip_target(&frames, p.main_end);
                            }
                        }
                    }
                }
                Kind::Break | Kind::BreakIf(_) => {
                    let b = match op.kind {
                        Kind::BreakIf(cond) => m & self.batch_cond(n, op, cond),
                        _ => m,
                    };
                    if let Some(Frame::Loop { broken, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Loop { .. }))
                    {
                        *broken |= b;
                        m &= !b;
                    }
                    if m == 0 {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Call { target, len, cond } => {
                    let mut c = match cond {
                        Some(cond) => m & self.batch_cond(n, op, cond),
                        None => m,
                    };
                    charge(s, n, &mut count, budget, (&mut c, &mut m), len);
                    if c != 0 && depth < MAX_CALL_DEPTH {
                        depth += 1;
                        frames.push(Frame::Call {
                            returned: 0,
                            other: m & !c,
                            ret: pc as u32,
                            end: target + len - 1,
                        });
                        m = c;
                        pc = target as usize;
                    } else if m == 0 {
                        pc = skip_target(&frames, p.main_end);
                    }
                }
                Kind::Ret => {
                    if let Some(Frame::Call { returned, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Call { .. }))
                    {
                        *returned |= m;
                    }
                    m = 0;
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
                            m |= returned | other;
                            back = Some(ret);
                            break;
                        }
                    }
                    depth = depth.saturating_sub(1);
                    match back {
                        Some(ret) => {
                            pc = ret as usize;
                            if m == 0 {
                                pc = skip_target(&frames, p.main_end);
                            }
                        }
                        None => break,
                    }
                }
                _ => {
                    let gate = gate.get_or_insert_with(|| Gate::new(n, m, start));
                    pc = self.batch_exec(n, ops, pc - 1, gate);
                    continue;
                }
            }
            gate = None;
        }
        self.flow = frames;
    }

    /// A branch condition for each of the first `n` stamps.
    #[inline(always)]
    fn batch_cond(&mut self, n: usize, op: &Op, cond: Cond) -> Masks {
        if let Cond::Bool { .. } = cond {
            // Uniform: the same for every stamp, no bank to read.
            return if self.cond(op, cond).any() { !0 } else { 0 };
        }
        let mut c = 0;
        for k in 0..n {
            self.swap_bank(k);
            c |= u64::from(self.cond(op, cond).bits() & 0xFF) << (8 * k);
            self.swap_bank(k);
        }
        c
    }

    /// Executes the arithmetic, texture or `texkill` op at `ops[pc]` for
    /// the lanes `gate` lets through, and the tight ops that follow it;
    /// returns the index of the next op.
    #[inline(always)]
    fn batch_exec(&mut self, n: usize, ops: &[Op], pc: usize, gate: &Gate) -> usize {
        let op = &ops[pc];
        if let BatchForm::Tight { .. } = op.batch {
            // A run of tight ops out of line: one copy of the tight loops
            // per backend, not one inlined into every function that runs a
            // batch (the inlined form multiplied the crate's build time),
            // and one call per run of ops, not per op.
            return self.s.outline(TightRun {
                banks: &mut self.bank[..n],
                ops,
                pc,
                gate,
            });
        }
        for k in 0..n {
            if gate.skip & (1 << k) == 0 {
                let bits = lanes(gate.masks, k);
                let m = self.s.mask_from_bits(bits);
                self.swap_bank(k);
                self.exec(op, m, bits == 0xFF);
                self.swap_bank(k);
            }
        }
        pc + 1
    }
}

/// Charges `len` ops to the lanes of `c` (counts in `count`, first `n`
/// stamps) and takes the lanes over `budget` out of `c` and `m`. (A
/// function, not a closure: see [`crate::simd::each`].)
#[inline(always)]
fn charge<S: Simd>(
    s: S,
    n: usize,
    count: &mut [S::I; BATCH],
    budget: S::I,
    (c, m): (&mut Masks, &mut Masks),
    len: u32,
) {
    let len = s.splat_i(len as i32);
    for (k, count) in count.iter_mut().enumerate().take(n) {
        let bits = lanes(*c, k);
        if bits != 0 {
            *count = *count + (s.mask_from_bits(bits).to_i() & len);
            let over = u64::from(count.gt(budget).bits() & 0xFF) << (8 * k);
            *c &= !over;
            *m &= !over;
        }
    }
}

impl Gate {
    /// The gate of the masks `m` of the first `n` stamps, which started
    /// with the lanes `start`.
    #[inline(always)]
    fn new(n: usize, m: Masks, start: Masks) -> Gate {
        let mut skip = 0u32;
        let mut blend = 0u32;
        for k in 0..n {
            let bits = lanes(m, k);
            if bits == 0 {
                skip |= 1 << k;
            } else if bits != lanes(start, k) {
                blend |= 1 << k;
            }
        }
        Gate {
            masks: m,
            skip,
            blend,
        }
    }
}
