//! Arithmetic ops of the 8-lane interpreter, and the destination write
//! (saturate, write mask, predicate, execution mask).
//!
//! Vector arithmetic is used where IEEE-754 defines the result exactly;
//! everything else goes lane by lane through `super::super::math`, the
//! formulas the scalar interpreter uses too.

// Index loops keep the scalar and 8-lane formulas visibly parallel.
#![allow(clippy::needless_range_loop)]

use crate::simd::{FloatV, IntV, MaskV, Simd};
use crate::texture_fetch::{ddx, ddy};

use super::super::math;
use super::super::op::{Dst, DstKind, Kind, Modifier, Op};
use super::super::regs::{NUM_OUTPUTS, OUT};
use super::Machine;
use crate::shader::token::Comparison;
use crate::simd::{each4, map4};

/// `x` with its sign bit flipped.
#[inline(always)]
fn neg<S: Simd>(s: S, x: S::F) -> S::F {
    (x.to_bits() ^ s.splat_i(i32::MIN)).cast_f32()
}

/// `x` with its sign bit cleared.
#[inline(always)]
fn abs<S: Simd>(s: S, x: S::F) -> S::F {
    (x.to_bits() & s.splat_i(i32::MAX)).cast_f32()
}

/// Source modifier (same formulas as [`math::modify`]).
#[inline(always)]
pub(super) fn modify<S: Simd>(s: S, m: Modifier, x: S::F) -> S::F {
    let h = s.splat(0.5);
    let two = s.splat(2.0);
    match m {
        Modifier::None => x,
        Modifier::Neg => neg(s, x),
        Modifier::Abs => abs(s, x),
        Modifier::AbsNeg => neg(s, abs(s, x)),
        Modifier::Bias => x - h,
        Modifier::BiasNeg => neg(s, x - h),
        Modifier::Sign => (x - h) * two,
        Modifier::SignNeg => neg(s, (x - h) * two),
        Modifier::Comp => s.splat(1.0) - x,
        Modifier::X2 => x * two,
        Modifier::X2Neg => neg(s, x * two),
    }
}

/// `_sat` ([`math::sat`]): `max(x, 0)` maps NaN to +0, then `min(·, 1)`.
#[inline(always)]
pub(super) fn sat<S: Simd>(s: S, x: S::F) -> S::F {
    x.max(s.splat(0.0)).min(s.splat(1.0))
}

/// Comparison per lane ([`math::compare`]).
#[inline(always)]
pub(super) fn compare<S: Simd>(c: Comparison, a: S::F, b: S::F) -> S::M {
    match c {
        Comparison::Gt => a.gt(b),
        Comparison::Eq => a.eq(b),
        Comparison::Ge => a.ge(b),
        Comparison::Lt => a.lt(b),
        Comparison::Ne => a.ne(b),
        Comparison::Le => a.le(b),
    }
}

/// Applies a scalar function lane by lane.
#[inline(always)]
fn lanes<S: Simd>(s: S, x: S::F, f: impl Fn(f32) -> f32) -> S::F {
    s.f32s(x.to_array().map(f))
}

#[inline(always)]
fn dp3<S: Simd>(a: &[S::F; 4], b: &[S::F; 4]) -> S::F {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline(always)]
fn dp4<S: Simd>(a: &[S::F; 4], b: &[S::F; 4]) -> S::F {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// Number of sources of a pure op, 0 for every other op (see [`Kind::pure_arity`]).
#[inline(always)]
pub(super) fn pure_arity(kind: Kind) -> usize {
    kind.pure_arity()
}

/// The result of a pure op (see [`pure_arity`]) on source values `a`, `b`, `d`.
#[inline(always)]
pub(super) fn pure<S: Simd>(
    s: S,
    kind: Kind,
    a: [S::F; 4],
    b: [S::F; 4],
    d: [S::F; 4],
) -> [S::F; 4] {
    let zero = s.splat(0.0);
    let one = s.splat(1.0);
    match kind {
        Kind::Mov => a,
        Kind::Add => each4!(|c| a[c] + b[c]),
        Kind::Sub => each4!(|c| a[c] - b[c]),
        Kind::Mul => each4!(|c| a[c] * b[c]),
        Kind::Mad => each4!(|c| a[c] * b[c] + d[c]),
        Kind::Dp3 => [dp3::<S>(&a, &b); 4],
        Kind::Dp4 => [dp4::<S>(&a, &b); 4],
        Kind::Dp2Add => [a[0] * b[0] + a[1] * b[1] + d[3]; 4],
        Kind::Min | Kind::Max => each4!(|c| {
            let pick = if kind == Kind::Min {
                a[c].lt(b[c])
            } else {
                a[c].ge(b[c])
            };
            let r = pick.select_f(a[c], b[c]);
            b[c].ne(b[c]).select_f(a[c], r)
        }),
        Kind::Slt | Kind::Sge => each4!(|c| {
            let t = if kind == Kind::Slt {
                a[c].lt(b[c])
            } else {
                a[c].ge(b[c])
            };
            t.select_f(one, zero)
        }),
        Kind::Abs => map4!(a, |x| abs(s, x)),
        Kind::Frc => map4!(a, |x| {
            let r = x - x.floor();
            r.ge(one).select_f(s.splat(math::ONE_MINUS_ULP), r)
        }),
        Kind::Sgn => map4!(a, |x| {
            let r = x.gt(zero).select_f(one, zero);
            x.lt(zero).select_f(s.splat(-1.0), r)
        }),
        Kind::Rcp => [one / a[3]; 4],
        Kind::Rsq => [one / abs(s, a[3]).sqrt(); 4],
        Kind::Exp => [lanes(s, a[3], math::exp2); 4],
        Kind::Log => [lanes(s, a[3], math::log2); 4],
        Kind::Pow => {
            let (x, y) = (a[3].to_array(), b[3].to_array());
            [s.f32s(std::array::from_fn(|l| math::pow(x[l], y[l]))); 4]
        }
        Kind::ExpP1 => {
            let x = a[3].to_array();
            let r = x.map(math::expp1);
            std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| r[l][c])))
        }
        Kind::Lit => {
            let (x, y, w) = (a[0].to_array(), a[1].to_array(), a[3].to_array());
            let r: [[f32; 4]; 8] = std::array::from_fn(|l| math::lit(x[l], y[l], w[l]));
            std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| r[l][c])))
        }
        Kind::Dst => [one, a[1] * b[1], a[2], b[3]],
        Kind::Lrp => each4!(|c| d[c] + a[c] * (b[c] - d[c])),
        Kind::Crs => [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
            zero,
        ],
        Kind::Nrm => {
            let f = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
            let k = f.ne(zero).select_f(one / f.sqrt(), s.splat(f32::MAX));
            map4!(a, |x| x * k)
        }
        Kind::SinCos => {
            let x = a[3].to_array();
            let r = x.map(math::sincos);
            [s.f32s(r.map(|t| t.0)), s.f32s(r.map(|t| t.1)), zero, zero]
        }
        Kind::Cmp | Kind::Cnd => each4!(|c| {
            let t = if kind == Kind::Cmp {
                a[c].ge(zero)
            } else {
                a[c].gt(s.splat(0.5))
            };
            t.select_f(b[c], d[c])
        }),
        _ => [zero; 4],
    }
}

impl<S: Simd> Machine<'_, S> {
    /// Executes one arithmetic, texture or `texkill` op for the lanes in `m`.
    #[inline(always)]
    pub(super) fn exec(&mut self, op: &Op, m: S::M, full: bool) {
        let s = self.s;
        let zero = s.splat(0.0);
        let src = &op.src;
        let v: [S::F; 4] = match op.kind {
            Kind::Nop => return,
            Kind::Mat { rows, dp4: four } => {
                let a = self.read(&src[0]);
                let mut d = [zero; 4];
                for (r, out) in d.iter_mut().enumerate().take(rows as usize) {
                    let row = self.read(&src[1 + r]);
                    *out = if four {
                        dp4::<S>(&a, &row)
                    } else {
                        dp3::<S>(&a, &row)
                    };
                }
                d
            }
            k if pure_arity(k) > 0 => {
                let n = pure_arity(k);
                let a = self.read(&src[0]);
                let b = if n > 1 { self.read(&src[1]) } else { [zero; 4] };
                let c = if n > 2 { self.read(&src[2]) } else { [zero; 4] };
                pure(s, k, a, b, c)
            }
            Kind::Dsx => map4!(self.read(&src[0]), |x| ddx(s, x)),
            Kind::Dsy => map4!(self.read(&src[0]), |x| ddy(s, x)),
            Kind::MovA | Kind::MovAFloor => {
                let a = self.read(&src[0]);
                for c in 0..4 {
                    if op.dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let x = if op.dst.sat { sat(s, a[c]) } else { a[c] };
                    let f = if op.kind == Kind::MovA {
                        math::mova
                    } else {
                        math::mova_floor
                    };
                    let n = s.i32s(x.to_array().map(f));
                    let lm = self.lane_mask(&op.dst, c, m);
                    self.a0[c] = lm.select_i(n, self.a0[c]);
                }
                return;
            }
            Kind::SetP(cmp) => {
                let (a, b) = (self.read(&src[0]), self.read(&src[1]));
                for c in 0..4 {
                    if op.dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let t = compare::<S>(cmp, a[c], b[c]);
                    let lm = self.lane_mask(&op.dst, c, m);
                    self.p0[c] = (t & lm) | (self.p0[c] & !lm);
                }
                return;
            }
            Kind::TexKill => {
                let a = self.read(&src[0]);
                for (c, x) in a.iter().enumerate() {
                    if op.dst.mask & (1 << c) != 0 {
                        let lm = self.lane_mask(&op.dst, c, m);
                        self.kill = self.kill | (x.lt(zero) & lm);
                    }
                }
                return;
            }
            Kind::Tex {
                slot,
                mode,
                swizzle,
            } => self.texture(op, slot, mode, swizzle, m),
            // Flow control is handled by the run loop.
            _ => return,
        };
        self.write(&op.dst, v, m, full);
    }

    /// Lanes whose channel `c` may be written: execution mask and predicate.
    #[inline(always)]
    fn lane_mask(&self, d: &Dst, c: usize, m: S::M) -> S::M {
        match d.pred {
            None => m,
            Some(p) => {
                let q = self.p0[p.swizzle[c] as usize & 3];
                m & if p.not { !q } else { q }
            }
        }
    }

    /// Writes a result: saturate, then the channels of the write mask in
    /// the lanes of the execution mask and predicate.
    #[inline(always)]
    pub(super) fn write(&mut self, d: &Dst, v: [S::F; 4], m: S::M, full: bool) {
        if let (true, true, DstKind::Reg(i)) = (d.plain, full, d.kind) {
            self.r[i as usize] = v;
            return;
        }
        let slot = match d.kind {
            DstKind::Reg(i) => i as usize,
            DstKind::OutRel { base } => {
                let i = base as i64 + self.al as i64;
                if !(0..NUM_OUTPUTS as i64).contains(&i) {
                    return;
                }
                (OUT as i64 + i) as usize
            }
            _ => return,
        };
        let s = self.s;
        let v = if d.sat { map4!(v, |x| sat(s, x)) } else { v };
        for (c, x) in v.into_iter().enumerate() {
            if d.mask & (1 << c) == 0 {
                continue;
            }
            if full && d.pred.is_none() {
                self.r[slot][c] = x;
            } else {
                let lm = self.lane_mask(d, c, m);
                let old = self.r[slot][c];
                self.r[slot][c] = lm.select_f(x, old);
            }
        }
    }
}
