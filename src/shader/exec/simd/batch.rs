//! Pixel programs over a batch of stamps: the dispatch cost of an op is
//! paid once per batch, not once per stamp.
//!
//! Each stamp of a batch has its own register bank (register file, `a0`,
//! `p0`, kill mask). The program runs op by op over the batch
//! (`super::flow`, which also runs its flow control with a mask per stamp):
//! a pure op (`Kind::pure_arity`) whose operands are all plain registers
//! (`BatchForm::Tight`) is computed for every stamp in one tight loop
//! (writes blended under a stamp's mask where flow control narrowed it);
//! any other op runs through the per-stamp [`Machine::exec`] with the
//! stamp's bank swapped in.
//!
//! Equality with the per-stamp run: the values of every lane of an active
//! quad are computed by the same operations in the same order. The tight
//! loop also writes the lanes outside the execution mask (whole quads that
//! no covered pixel needs); nothing reads those lanes back: derivatives
//! stay inside a quad, texture fetches and `texkill` take the mask, and the
//! caller writes only covered lanes.

use crate::simd::{MaskV, Outlined, Simd};

use super::super::op::{BatchForm, DstKind, Kind, Modifier, Op};
use super::super::regs::{FILE_SLOTS, INPUT, NUM_INPUTS, OUT, VFACE, VPOS, WIDE_SLOTS};
use super::arith::{modify, pure, sat};
use super::flow::{Masks, lanes};
use super::{Executor, Machine, canonical};
use crate::simd::map4;

/// Stamps in one batch.
pub const BATCH: usize = 8;

/// One stamp's per-run state while it is not the machine's current one.
pub(super) struct Bank<S: Simd> {
    pub(super) r: super::File<S>,
    a0: [S::I; 4],
    p0: [S::M; 4],
    kill: S::M,
}

impl<S: Simd> Machine<'_, S> {
    /// Makes bank `k` the current state (and the current state bank `k`);
    /// calling it again swaps back.
    #[inline(always)]
    pub(super) fn swap_bank(&mut self, k: usize) {
        let b = &mut self.bank[k];
        std::mem::swap(&mut self.r, &mut b.r);
        // Vector arrays are exchanged through copies: `mem::swap` of a
        // 128-byte array runs a loop of 8-byte chunk swaps (S7 spent 9 % of
        // its time there), a copy is four vector moves each way.
        // A program that never writes a0 or p0 leaves them at their reset
        // values in every bank: nothing to exchange.
        if self.p.writes_a0_p0 {
            let (a0, p0) = (self.a0, self.p0);
            (self.a0, self.p0) = (b.a0, b.p0);
            (b.a0, b.p0) = (a0, p0);
        }
        std::mem::swap(&mut self.kill, &mut b.kill);
    }
}

/// Which stamps a batch op ([`tight_op`]) writes, and how.
pub(super) struct Gate {
    /// Per stamp: the lanes to write where `blend` has the stamp's bit
    /// (bits as in [`Masks`]).
    pub(super) masks: Masks,
    /// Stamps with no lane to run (bit per stamp): skipped.
    pub(super) skip: u32,
    /// Stamps whose write is blended under `masks`; the others are written
    /// whole: every lane they started with runs, and the lanes outside
    /// those (quads no covered pixel needs) are never read.
    pub(super) blend: u32,
}

/// The run of tight ops (`BatchForm::Tight`) starting at `ops[pc]`, over
/// a batch's banks under a gate, run out of line ([`Simd::outline`]); its
/// output is the index of the first op after the run. Each op runs in the
/// [`tight`] form its kind and flags (`simple`, `identity`) call for.
pub(super) struct TightRun<'a, S: Simd> {
    pub(super) banks: &'a mut [Bank<S>],
    pub(super) ops: &'a [Op],
    pub(super) pc: usize,
    pub(super) gate: &'a Gate,
}

impl<S: Simd> Outlined<S> for TightRun<'_, S> {
    type Output = usize;
    #[inline(always)]
    fn run(self, s: S) -> usize {
        let TightRun {
            banks,
            ops,
            mut pc,
            gate,
        } = self;
        // The program ends with a non-tight op (`End`), so the run ends.
        while let Some(op) = ops.get(pc) {
            let BatchForm::Tight { simple, identity } = op.batch else {
                break;
            };
            tight_op(s, banks, op, simple, identity, gate);
            pc += 1;
        }
        pc
    }
}

/// Runs pure op `op` over `banks` under `gate` (see [`TightRun`]).
#[inline(always)]
fn tight_op<S: Simd>(
    s: S,
    banks: &mut [Bank<S>],
    op: &Op,
    simple: bool,
    identity: bool,
    gate: &Gate,
) {
    // Constant kinds, so that `pure` folds to one formula per loop.
    macro_rules! each {
        ($($kind:ident: $n:literal),*) => {
            // The kind first: one jump table, then two flags.
            match op.kind {
                $(
                    Kind::$kind => match (simple, identity) {
                        (_, true) => tight::<S, $n, true, true>(s, banks, op, Kind::$kind, gate),
                        (true, false) => tight::<S, $n, true, false>(s, banks, op, Kind::$kind, gate),
                        (false, _) => tight::<S, $n, false, false>(s, banks, op, Kind::$kind, gate),
                    },
                )*
                k => tight::<S, 3, false, false>(s, banks, op, k, gate),
            }
        };
    }
    each!(
        Mov: 1, Abs: 1, Frc: 1, Rcp: 1, Rsq: 1, Nrm: 1,
        Add: 2, Sub: 2, Mul: 2, Dp3: 2, Dp4: 2, Min: 2, Max: 2,
        Mad: 3, Dp2Add: 3, Lrp: 3, Cmp: 3
    );
}

/// Runs pure op `op` (of `kind`, reading `N` sources) over `banks`;
/// `SIMPLE`: no source modifier, a full unsaturated write; `IDENTITY`:
/// also every source unswizzled. Only the stamps and lanes `gate` lets
/// through are written (a run-time test per stamp rather than another
/// compile-time form: each form is compiled for every kind and backend).
#[inline(always)]
fn tight<S: Simd, const N: usize, const SIMPLE: bool, const IDENTITY: bool>(
    s: S,
    banks: &mut [Bank<S>],
    op: &Op,
    kind: Kind,
    gate: &Gate,
) {
    let DstKind::Reg(d) = op.dst.kind else {
        return;
    };
    let d = d as usize & (WIDE_SLOTS - 1);
    let (mask, saturate) = (op.dst.mask, op.dst.sat);
    // Flat component indices, loaded once (not once per bank).
    let flat = |k: usize| op.src[k].flat.map(|c| c as usize);
    let (fa, fb, fc) = (flat(0), flat(1), flat(2));
    let mods = [op.src[0].modifier, op.src[1].modifier, op.src[2].modifier];
    let srcs = TightSrcs {
        flat: [fa, fb, fc],
        mods,
    };
    if gate.skip | gate.blend == 0 {
        // Every stamp written whole (programs without flow control, and
        // stretches of one where no lane has left): no per-stamp test, so
        // the loop unrolls over the banks (a constant trip count, as the
        // unrolled loop is what made the tight loops pay).
        for k in 0..BATCH {
            let Some(bank) = banks.get_mut(k) else {
                break;
            };
            let r = &mut *bank.r;
            let v = srcs.value::<S, N, SIMPLE, IDENTITY>(s, kind, r);
            tight_write::<S, SIMPLE>(s, r, d, mask, saturate, v);
        }
        return;
    }
    // A blended write stores to a slot number the optimiser cannot see is
    // the one it loaded: `store(select(m, x, load p), p)` would otherwise
    // become a masked store (`vmaskmovps`), microcoded on AMD CPUs (S8
    // spent a third of its time on it). Same slot, found once per op.
    let blend_d = std::hint::black_box(d) & (WIDE_SLOTS - 1);
    for (k, bank) in banks.iter_mut().enumerate() {
        if gate.skip & (1 << k) != 0 {
            continue;
        }
        let r = &mut *bank.r;
        let v = srcs.value::<S, N, SIMPLE, IDENTITY>(s, kind, r);
        if gate.blend & (1 << k) != 0 {
            let v = if saturate { map4!(v, |x| sat(s, x)) } else { v };
            let m = s.mask_from_bits(lanes(gate.masks, k));
            for (ch, x) in v.into_iter().enumerate() {
                if mask & (1 << ch) != 0 {
                    r[blend_d][ch] = m.select_f(x, r[d][ch]);
                }
            }
        } else {
            tight_write::<S, SIMPLE>(s, r, d, mask, saturate, v);
        }
    }
}

/// The sources of a [`tight`] op: flat component indices (loaded once,
/// not once per bank) and modifiers.
struct TightSrcs {
    flat: [[usize; 4]; 3],
    mods: [Modifier; 3],
}

impl TightSrcs {
    /// The value of pure op `kind` (`N` sources) in register file `r`
    /// (a function, not a closure: see [`crate::simd::each`]).
    #[inline(always)]
    fn value<S: Simd, const N: usize, const SIMPLE: bool, const IDENTITY: bool>(
        &self,
        s: S,
        kind: Kind,
        r: &[[S::F; 4]; FILE_SLOTS],
    ) -> [S::F; 4] {
        let zero = [s.splat(0.0); 4];
        let (f, m) = (&self.flat, &self.mods);
        let a = tight_src::<S, SIMPLE, IDENTITY>(s, r, &f[0], m[0]);
        let b = if N > 1 {
            tight_src::<S, SIMPLE, IDENTITY>(s, r, &f[1], m[1])
        } else {
            zero
        };
        let c = if N > 2 {
            tight_src::<S, SIMPLE, IDENTITY>(s, r, &f[2], m[2])
        } else {
            zero
        };
        pure(s, kind, a, b, c)
    }
}

/// Writes `v` to slot `d` of `r` (`SIMPLE`: all of it; else saturated if
/// asked, the channels of `mask`).
#[inline(always)]
fn tight_write<S: Simd, const SIMPLE: bool>(
    s: S,
    r: &mut [[S::F; 4]; FILE_SLOTS],
    d: usize,
    mask: u8,
    saturate: bool,
    v: [S::F; 4],
) {
    if SIMPLE {
        r[d] = v;
    } else {
        let v = if saturate { map4!(v, |x| sat(s, x)) } else { v };
        for (ch, x) in v.into_iter().enumerate() {
            if mask & (1 << ch) != 0 {
                r[d][ch] = x;
            }
        }
    }
}

/// A source of [`tight`]: flat components `f` of `r` with modifier `m`
/// (a function, not a closure: see [`crate::simd::each`]).
#[inline(always)]
fn tight_src<S: Simd, const SIMPLE: bool, const IDENTITY: bool>(
    s: S,
    r: &[[S::F; 4]; FILE_SLOTS],
    f: &[usize; 4],
    m: Modifier,
) -> [S::F; 4] {
    if IDENTITY {
        return r[(f[0] >> 2) & (WIDE_SLOTS - 1)];
    }
    let v = read_flat::<S>(r, f);
    if SIMPLE { v } else { modified(s, m, v) }
}

/// Flat components `f` of register file `r` (a swizzled register read).
#[inline(always)]
fn read_flat<S: Simd>(r: &[[S::F; 4]; FILE_SLOTS], f: &[usize; 4]) -> [S::F; 4] {
    // A masked index into the flattened file: always in range, no check.
    let flat = r.as_flattened();
    let c = |k: usize| flat[k & (4 * WIDE_SLOTS - 1)];
    [c(f[0]), c(f[1]), c(f[2]), c(f[3])]
}

/// `v` with source modifier `m`.
#[inline(always)]
fn modified<S: Simd>(s: S, m: Modifier, v: [S::F; 4]) -> [S::F; 4] {
    match m {
        Modifier::None => v,
        m => map4!(v, |x| modify::<S>(s, m, x)),
    }
}

impl<S: Simd> Executor<'_, S> {
    /// The input register slots (`v0`–`v15`) of stamp `k` of the next
    /// batch ([`Executor::run_pixel_batch`]); like
    /// [`Executor::inputs_mut`], they keep what the caller wrote.
    #[inline(always)]
    pub fn batch_inputs_mut(&mut self, k: usize) -> &mut [[S::F; 4]] {
        let k = k.min(BATCH - 1);
        self.ensure_banks(k + 1);
        &mut self.m.bank[k].r[INPUT as usize..(INPUT + NUM_INPUTS) as usize]
    }

    /// Runs `n` stamps (at most [`BATCH`]) whose inputs were written through
    /// [`Executor::batch_inputs_mut`]; stamp `k` has `pos[k]`, `face[k]`,
    /// `active[k]` as in [`Executor::run_pixel_in_place`], and its results
    /// go to `sink(k, colours oC0–oC3, oDepth, kill)`: the same results as
    /// `n` calls of that function.
    #[inline(always)]
    pub fn run_pixel_batch(
        &mut self,
        n: usize,
        pos: &[[S::F; 2]; BATCH],
        face: &[S::F; BATCH],
        active: &[S::M; BATCH],
        mut sink: impl FnMut(usize, &[[S::F; 4]; 4], Option<S::F>, S::M),
    ) {
        let n = n.min(BATCH);
        self.ensure_banks(n);
        let z = self.m.s.splat(0.0);
        for k in 0..n {
            self.m.swap_bank(k);
            self.reset();
            self.m.r[VPOS as usize] = [pos[k][0], pos[k][1], z, z];
            self.m.r[VFACE as usize] = [face[k]; 4];
            self.m.swap_bank(k);
        }
        self.m.run_batch(n, active);
        let o = OUT as usize;
        let s = self.m.s;
        let depth = self.m.p.writes_depth;
        for (k, bank) in self.m.bank.iter().enumerate().take(n) {
            let r = &bank.r;
            let color = [
                canonical(s, r[o]),
                canonical(s, r[o + 1]),
                canonical(s, r[o + 2]),
                canonical(s, r[o + 3]),
            ];
            let d = depth.then(|| canonical(s, r[o + 4])[0]);
            sink(k, &color, d, bank.kill);
        }
    }

    /// Creates banks up to `count` on first use: copies of the current
    /// register file (constant slots filled, inputs as written so far).
    /// A small draw's band shades a stamp or two, so it copies one or two
    /// 16.5 KiB files, not all [`BATCH`].
    #[inline(always)]
    fn ensure_banks(&mut self, count: usize) {
        if self.m.bank.len() < count {
            let m = &mut self.m;
            while m.bank.len() < count {
                m.bank.push(Bank {
                    r: super::File::copy_of(m.zero, &m.r, &m.dirty),
                    a0: m.a0,
                    p0: m.p0,
                    kill: m.kill,
                });
            }
        }
    }
}
