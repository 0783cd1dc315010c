//! The scalar interpreter: plain `f32` code, one lane at a time — the
//! oracle the 8-lane interpreter is checked against, and the Reference
//! path's shader stage.
//!
//! A vertex runs alone (`N = 1`). A pixel runs with the other three
//! pixels of its 2x2 quad (`N = 4`) in lock-step, because `dsx`/`dsy` and
//! implicit-LOD sampling read the neighbours' registers at the same point
//! of the program (§7.12). Each instruction is applied lane by lane with
//! scalar formulas (`super::math`); flow control keeps a boolean
//! execution flag per lane, following the same structured rules as the
//! 8-lane interpreter (written independently here over `bool`s).

mod arith;

use crate::texture_fetch::TextureFetchScalar;

use super::op::{Cond, Index, Kind, Op, Src, SrcKind};
use super::prepare::Prepared;
use super::regs::{INPUT, NREG, NUM_INPUTS, OUT, OUT_D0, OUT_FOG, VFACE, VPOS};
use super::{Constants, MAX_CALL_DEPTH, ScalarPixelInputs, ScalarPixelOutput, math};

/// Runs a vertex program on one vertex (`inputs` = `v0`–`v15`); returns
/// the output slots ([`super::OutputLayout`]).
pub fn run_vertex(
    p: &Prepared,
    inputs: &[[f32; 4]; 16],
    consts: &Constants,
    fetch: &dyn TextureFetchScalar,
) -> [[f32; 4]; 16] {
    let mut m = Machine::<1>::new(p, consts, fetch);
    m.r[0][INPUT as usize..(INPUT + NUM_INPUTS) as usize].copy_from_slice(inputs);
    let legacy = p.version.major < 3;
    if legacy {
        m.r[0][(OUT + OUT_D0) as usize] = [1.0; 4];
    }
    m.run([true]);
    m.canonical_nans();
    let mut out = [[0.0; 4]; 16];
    out.copy_from_slice(&m.r[0][OUT as usize..OUT as usize + 16]);
    if legacy {
        for slot in [OUT_D0, OUT_D0 + 1, OUT_FOG] {
            out[slot as usize] = out[slot as usize].map(math::sat);
        }
    }
    out
}

/// Runs a pixel program on one 2x2 quad (lane `i` at quad position
/// `(i % 2, i / 2)`); lanes outside `active` are not run.
pub fn run_quad(
    p: &Prepared,
    inputs: &[ScalarPixelInputs; 4],
    consts: &Constants,
    fetch: &dyn TextureFetchScalar,
    active: [bool; 4],
) -> [ScalarPixelOutput; 4] {
    let mut m = Machine::<4>::new(p, consts, fetch);
    for (l, inp) in inputs.iter().enumerate() {
        m.r[l][INPUT as usize..(INPUT + NUM_INPUTS) as usize].copy_from_slice(&inp.v);
        m.r[l][VPOS as usize] = [inp.pos[0], inp.pos[1], 0.0, 0.0];
        m.r[l][VFACE as usize] = [inp.face; 4];
    }
    m.run(active);
    m.canonical_nans();
    let o = OUT as usize;
    std::array::from_fn(|l| {
        let r = &m.r[l];
        ScalarPixelOutput {
            color: [r[o], r[o + 1], r[o + 2], r[o + 3]],
            depth: p.writes_depth.then(|| r[o + 4][0]),
            killed: m.kill[l],
        }
    })
}

/// A flow-control frame (see the 8-lane interpreter for the rules).
enum Frame<const N: usize> {
    If {
        other: [bool; N],
        skip: u32,
    },
    Loop {
        broken: [bool; N],
        iters: u32,
        step: i32,
        saved_al: i32,
        end: u32,
    },
    Call {
        returned: [bool; N],
        other: [bool; N],
        ret: u32,
        end: u32,
    },
}

/// The state of one run over `N` lanes.
pub(super) struct Machine<'a, const N: usize> {
    pub(super) p: &'a Prepared,
    pub(super) r: Vec<[[f32; 4]; NREG]>,
    pub(super) a0: [[i32; 4]; N],
    pub(super) p0: [[bool; 4]; N],
    pub(super) al: i32,
    pub(super) c: &'a Constants<'a>,
    pub(super) fetch: &'a dyn TextureFetchScalar,
    pub(super) kill: [bool; N],
}

fn any<const N: usize>(m: &[bool; N]) -> bool {
    m.iter().any(|&b| b)
}

impl<'a, const N: usize> Machine<'a, N> {
    fn new(p: &'a Prepared, c: &'a Constants<'a>, fetch: &'a dyn TextureFetchScalar) -> Self {
        Machine {
            p,
            r: vec![[[0.0; 4]; NREG]; N],
            a0: [[0; 4]; N],
            p0: [[false; 4]; N],
            al: 0,
            c,
            fetch,
            kill: [false; N],
        }
    }

    fn skip_target(&self, frames: &[Frame<N>]) -> usize {
        match frames.last() {
            Some(Frame::If { skip, .. }) => *skip as usize,
            Some(Frame::Loop { end, .. }) | Some(Frame::Call { end, .. }) => *end as usize,
            None => self.p.main_end as usize,
        }
    }

    fn run(&mut self, active: [bool; N]) {
        let p = self.p;
        let ops = &p.ops[..];
        let budget = p.budget;
        let mut count = [0u32; N];
        let mut frames: Vec<Frame<N>> = Vec::new();
        let mut depth = 0usize;
        let mut m = active;
        let mut pc = if any(&m) { 0 } else { p.main_end as usize };
        loop {
            let op = &ops[pc];
            pc += 1;
            match op.kind {
                Kind::End => break,
                Kind::If { cond, skip } => {
                    let mut other = [false; N];
                    for l in 0..N {
                        let c = self.cond(l, op, cond);
                        other[l] = m[l] && !c;
                        m[l] = m[l] && c;
                    }
                    frames.push(Frame::If { other, skip });
                    if !any(&m) {
                        pc = skip as usize;
                    }
                }
                Kind::Else { end } => {
                    if let Some(Frame::If { other, skip }) = frames.last_mut() {
                        std::mem::swap(&mut m, other);
                        *skip = end;
                    }
                    if !any(&m) {
                        pc = end as usize;
                    }
                }
                Kind::EndIf => {
                    if let Some(Frame::If { other, .. }) = frames.last() {
                        for l in 0..N {
                            m[l] |= other[l];
                        }
                        frames.pop();
                    }
                    if !any(&m) {
                        pc = self.skip_target(&frames);
                    }
                }
                Kind::Loop {
                    count: n,
                    rep,
                    sw,
                    end,
                } => {
                    let iv = n.value(self.c.int);
                    let iters = math::loop_count(iv[0], sw);
                    if iters == 0 {
                        pc = end as usize + 1;
                        continue;
                    }
                    frames.push(Frame::Loop {
                        broken: [false; N],
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
                    let mut exit = false;
                    if let Some(Frame::Loop {
                        broken,
                        iters,
                        step,
                        saved_al,
                        ..
                    }) = frames.last_mut()
                    {
                        for l in 0..N {
                            if m[l] {
                                count[l] = count[l].saturating_add(len);
                                if count[l] > budget {
                                    m[l] = false;
                                }
                            }
                        }
                        *iters -= 1;
                        self.al = self.al.wrapping_add(*step);
                        if *iters > 0 && any(&m) {
                            pc = body as usize;
                        } else {
                            for l in 0..N {
                                m[l] |= broken[l];
                            }
                            self.al = *saved_al;
                            exit = true;
                        }
                    }
                    if exit {
                        frames.pop();
                        if !any(&m) {
                            pc = self.skip_target(&frames);
                        }
                    }
                }
                Kind::Break | Kind::BreakIf(_) => {
                    let mut b = m;
                    if let Kind::BreakIf(cond) = op.kind {
                        for (l, bl) in b.iter_mut().enumerate() {
                            *bl = *bl && self.cond(l, op, cond);
                        }
                    }
                    if let Some(Frame::Loop { broken, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Loop { .. }))
                    {
                        for l in 0..N {
                            broken[l] |= b[l];
                            m[l] &= !b[l];
                        }
                    }
                    if !any(&m) {
                        pc = self.skip_target(&frames);
                    }
                }
                Kind::Call { target, len, cond } => {
                    let mut c = [false; N];
                    for l in 0..N {
                        c[l] = m[l] && cond.is_none_or(|k| self.cond(l, op, k));
                        if c[l] {
                            count[l] = count[l].saturating_add(len);
                            if count[l] > budget {
                                m[l] = false;
                                c[l] = false;
                            }
                        }
                    }
                    if any(&c) && depth < MAX_CALL_DEPTH {
                        depth += 1;
                        let other = std::array::from_fn(|l| m[l] && !c[l]);
                        frames.push(Frame::Call {
                            returned: [false; N],
                            other,
                            ret: pc as u32,
                            end: target + len - 1,
                        });
                        m = c;
                        pc = target as usize;
                    } else if !any(&m) {
                        pc = self.skip_target(&frames);
                    }
                }
                Kind::Ret => {
                    if let Some(Frame::Call { returned, .. }) = frames
                        .iter_mut()
                        .rev()
                        .find(|f| matches!(f, Frame::Call { .. }))
                    {
                        for l in 0..N {
                            returned[l] |= m[l];
                        }
                    }
                    m = [false; N];
                    pc = self.skip_target(&frames);
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
                            for l in 0..N {
                                m[l] |= returned[l] | other[l];
                            }
                            back = Some(ret);
                            break;
                        }
                    }
                    depth = depth.saturating_sub(1);
                    match back {
                        Some(ret) => {
                            pc = ret as usize;
                            if !any(&m) {
                                pc = self.skip_target(&frames);
                            }
                        }
                        None => break,
                    }
                }
                _ => self.exec(op, &m),
            }
        }
    }

    /// Every NaN in the written outputs becomes the canonical quiet NaN
    /// (see the 8-lane interpreter).
    fn canonical_nans(&mut self) {
        for r in self.r.iter_mut() {
            for slot in 0..16 {
                if self.p.written_outputs & (1 << slot) != 0 {
                    for x in r[OUT as usize + slot].iter_mut() {
                        if x.is_nan() {
                            *x = f32::NAN;
                        }
                    }
                }
            }
        }
    }

    /// A branch condition in lane `l`.
    fn cond(&self, l: usize, op: &Op, cond: Cond) -> bool {
        match cond {
            Cond::Cmp(c) => {
                let a = self.read(l, &op.src[0])[0];
                let b = self.read(l, &op.src[1])[0];
                math::compare(c, a, b)
            }
            Cond::Pred { comp, not } => self.p0[l][comp as usize & 3] != not,
            Cond::Bool { index, not } => {
                self.c.bool.get(index as usize).copied().unwrap_or(false) != not
            }
        }
    }

    /// A source operand in lane `l`.
    pub(super) fn read(&self, l: usize, src: &Src) -> [f32; 4] {
        let input = |i: i64| -> [f32; 4] {
            if (0..NUM_INPUTS as i64).contains(&i) {
                self.r[l][(INPUT as i64 + i) as usize]
            } else {
                [0.0; 4]
            }
        };
        let v = match src.kind {
            SrcKind::Reg(i) => self.r[l][i as usize],
            SrcKind::Const(i) => self.const_at(i as i64),
            SrcKind::Imm(i) => self.p.imms[i as usize],
            SrcKind::ConstRel { base, index } => {
                self.const_at(base as i64 + self.index(l, index) as i64)
            }
            SrcKind::InputRel { base, index } => input(base as i64 + self.index(l, index) as i64),
            SrcKind::Zero => [0.0; 4],
        };
        std::array::from_fn(|c| math::modify(src.modifier, v[src.swizzle[c] as usize & 3]))
    }

    fn index(&self, l: usize, index: Index) -> i32 {
        match index {
            Index::Al => self.al,
            Index::A0(c) => self.a0[l][c as usize & 3],
        }
    }

    /// A float constant: `def` value, else the application's, else 0.
    fn const_at(&self, i: i64) -> [f32; 4] {
        let Ok(i) = u32::try_from(i) else {
            return [0.0; 4];
        };
        if let Some(d) = self.p.float_defs.iter().find(|d| d.0 == i) {
            return d.1;
        }
        self.c.float.get(i as usize).copied().unwrap_or([0.0; 4])
    }
}
