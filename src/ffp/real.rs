//! The number types the shared fixed-function formulas run on: the
//! [`Real`] trait and its implementations for `f32` (Reference), [`V`] (8
//! lanes of a [`Simd`] backend, Warp) and [`Multi`] (several values in
//! lockstep, for instruction-level parallelism).
//!
//! Invariant: each implementation performs, per element, exactly the IEEE
//! single-precision operation it names (no FMA, no approximations), with
//! the SIMD module's `min`/`max` rule (`a < b ? a : b`, NaN gives `b`) and
//! out-of-range conversion (`i32::MIN`); so one formula written over
//! [`Real`] gives the same bits in every implementation.

use std::ops::{Add, Div, Mul, Sub};

use crate::simd::{FloatV, IntV, MaskV, Simd};

/// A number type the shared functions run on: `f32` or 8 SIMD lanes.
pub trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// Lane mask.
    type M: Copy;
    /// Integer lanes.
    type I: Copy;
    /// A constant of the same kind as `self` (the SIMD token travels in `self`).
    fn k(self, v: f32) -> Self;
    /// `self < b ? self : b`.
    fn min(self, b: Self) -> Self;
    /// `self > b ? self : b`.
    fn max(self, b: Self) -> Self;
    /// Round toward negative infinity.
    fn floor(self) -> Self;
    /// Correctly rounded square root.
    fn sqrt(self) -> Self;
    /// `<` (false with NaN).
    fn lt(self, b: Self) -> Self::M;
    /// `<=`.
    fn le(self, b: Self) -> Self::M;
    /// `>`.
    fn gt(self, b: Self) -> Self::M;
    /// `==` (false with NaN).
    fn eq(self, b: Self) -> Self::M;
    /// `!=` (true with NaN).
    fn ne(self, b: Self) -> Self::M;
    /// `m ? a : b`.
    fn sel(m: Self::M, a: Self, b: Self) -> Self;
    /// Mask and.
    fn and(a: Self::M, b: Self::M) -> Self::M;
    /// Mask or.
    fn or(a: Self::M, b: Self::M) -> Self::M;
    /// Bit pattern.
    fn to_bits(self) -> Self::I;
    /// Float from a bit pattern.
    fn bits_to_f(self, i: Self::I) -> Self;
    /// Truncating conversion (`i32::MIN` for NaN and out of range).
    fn to_int(self) -> Self::I;
    /// Integer to float (round to nearest even).
    fn int_to_f(self, i: Self::I) -> Self;
    /// An integer constant.
    fn ik(self, v: i32) -> Self::I;
    /// Wrapping integer add.
    fn iadd(a: Self::I, b: Self::I) -> Self::I;
    /// Wrapping integer subtract.
    fn isub(a: Self::I, b: Self::I) -> Self::I;
    /// Integer and.
    fn iand(a: Self::I, b: Self::I) -> Self::I;
    /// Integer or.
    fn ior(a: Self::I, b: Self::I) -> Self::I;
    /// Shift left.
    fn ishl(a: Self::I, n: u32) -> Self::I;
    /// Logical shift right.
    fn ishr(a: Self::I, n: u32) -> Self::I;
    /// Arithmetic shift right.
    fn isra(a: Self::I, n: u32) -> Self::I;
}

/// Truncating f32 → i32 with the SIMD module's out-of-range rule.
#[inline(always)]
pub fn trunc_i32(x: f32) -> i32 {
    if x.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&x) {
        i32::MIN
    } else {
        x as i32
    }
}

impl Real for f32 {
    type M = bool;
    type I = i32;
    #[inline(always)]
    fn k(self, v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn min(self, b: f32) -> f32 {
        if self < b { self } else { b }
    }
    #[inline(always)]
    fn max(self, b: f32) -> f32 {
        if self > b { self } else { b }
    }
    #[inline(always)]
    fn floor(self) -> f32 {
        f32::floor(self)
    }
    #[inline(always)]
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn lt(self, b: f32) -> bool {
        self < b
    }
    #[inline(always)]
    fn le(self, b: f32) -> bool {
        self <= b
    }
    #[inline(always)]
    fn gt(self, b: f32) -> bool {
        self > b
    }
    #[inline(always)]
    fn eq(self, b: f32) -> bool {
        self == b
    }
    #[inline(always)]
    fn ne(self, b: f32) -> bool {
        self != b
    }
    #[inline(always)]
    fn sel(m: bool, a: f32, b: f32) -> f32 {
        if m { a } else { b }
    }
    #[inline(always)]
    fn and(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn to_bits(self) -> i32 {
        f32::to_bits(self) as i32
    }
    #[inline(always)]
    fn bits_to_f(self, i: i32) -> f32 {
        f32::from_bits(i as u32)
    }
    #[inline(always)]
    fn to_int(self) -> i32 {
        trunc_i32(self)
    }
    #[inline(always)]
    fn int_to_f(self, i: i32) -> f32 {
        i as f32
    }
    #[inline(always)]
    fn ik(self, v: i32) -> i32 {
        v
    }
    #[inline(always)]
    fn iadd(a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn isub(a: i32, b: i32) -> i32 {
        a.wrapping_sub(b)
    }
    #[inline(always)]
    fn iand(a: i32, b: i32) -> i32 {
        a & b
    }
    #[inline(always)]
    fn ior(a: i32, b: i32) -> i32 {
        a | b
    }
    #[inline(always)]
    fn ishl(a: i32, n: u32) -> i32 {
        a << n
    }
    #[inline(always)]
    fn ishr(a: i32, n: u32) -> i32 {
        ((a as u32) >> n) as i32
    }
    #[inline(always)]
    fn isra(a: i32, n: u32) -> i32 {
        a >> n
    }
}

/// Eight lanes of backend `S`, carrying the backend token so constants can be made.
#[derive(Debug)]
pub struct V<S: Simd>(pub S::F, pub S);

impl<S: Simd> Clone for V<S> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd> Copy for V<S> {}

macro_rules! v_binop {
    ($tr:ident, $f:ident) => {
        impl<S: Simd> $tr for V<S> {
            type Output = V<S>;
            #[inline(always)]
            fn $f(self, o: V<S>) -> V<S> {
                V($tr::$f(self.0, o.0), self.1)
            }
        }
    };
}
v_binop!(Add, add);
v_binop!(Sub, sub);
v_binop!(Mul, mul);
v_binop!(Div, div);

impl<S: Simd> Real for V<S> {
    type M = S::M;
    type I = S::I;
    #[inline(always)]
    fn k(self, v: f32) -> Self {
        V(self.1.splat(v), self.1)
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        V(self.0.min(b.0), self.1)
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        V(self.0.max(b.0), self.1)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        V(self.0.floor(), self.1)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        V(self.0.sqrt(), self.1)
    }
    #[inline(always)]
    fn lt(self, b: Self) -> S::M {
        self.0.lt(b.0)
    }
    #[inline(always)]
    fn le(self, b: Self) -> S::M {
        self.0.le(b.0)
    }
    #[inline(always)]
    fn gt(self, b: Self) -> S::M {
        self.0.gt(b.0)
    }
    #[inline(always)]
    fn eq(self, b: Self) -> S::M {
        self.0.eq(b.0)
    }
    #[inline(always)]
    fn ne(self, b: Self) -> S::M {
        self.0.ne(b.0)
    }
    #[inline(always)]
    fn sel(m: S::M, a: Self, b: Self) -> Self {
        V(m.select_f(a.0, b.0), a.1)
    }
    #[inline(always)]
    fn and(a: S::M, b: S::M) -> S::M {
        a & b
    }
    #[inline(always)]
    fn or(a: S::M, b: S::M) -> S::M {
        a | b
    }
    #[inline(always)]
    fn to_bits(self) -> S::I {
        self.0.to_bits()
    }
    #[inline(always)]
    fn bits_to_f(self, i: S::I) -> Self {
        V(i.cast_f32(), self.1)
    }
    #[inline(always)]
    fn to_int(self) -> S::I {
        self.0.to_i32()
    }
    #[inline(always)]
    fn int_to_f(self, i: S::I) -> Self {
        V(i.to_f32(), self.1)
    }
    #[inline(always)]
    fn ik(self, v: i32) -> S::I {
        self.1.splat_i(v)
    }
    #[inline(always)]
    fn iadd(a: S::I, b: S::I) -> S::I {
        a + b
    }
    #[inline(always)]
    fn isub(a: S::I, b: S::I) -> S::I {
        a - b
    }
    #[inline(always)]
    fn iand(a: S::I, b: S::I) -> S::I {
        a & b
    }
    #[inline(always)]
    fn ior(a: S::I, b: S::I) -> S::I {
        a | b
    }
    #[inline(always)]
    fn ishl(a: S::I, n: u32) -> S::I {
        a.shl(n)
    }
    #[inline(always)]
    fn ishr(a: S::I, n: u32) -> S::I {
        a.shr(n)
    }
    #[inline(always)]
    fn isra(a: S::I, n: u32) -> S::I {
        a.sra(n)
    }
}

/// `N` independent values run in lockstep: every operation is applied to
/// all of them before the next one starts. Used for the special functions of
/// several lights at once, whose long dependency chains would otherwise
/// leave the out-of-order window idle; each element sees exactly the
/// operation sequence it would see alone, so results are unchanged bit for bit.
#[derive(Debug)]
pub struct Multi<R, const N: usize>(pub [R; N]);

impl<R: Real, const N: usize> Clone for Multi<R, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Real, const N: usize> Copy for Multi<R, N> {}

macro_rules! multi_binop {
    ($tr:ident, $f:ident) => {
        impl<R: Real, const N: usize> $tr for Multi<R, N> {
            type Output = Multi<R, N>;
            #[inline(always)]
            fn $f(self, o: Multi<R, N>) -> Multi<R, N> {
                let mut r = self.0;
                for i in 0..N {
                    r[i] = $tr::$f(self.0[i], o.0[i]);
                }
                Multi(r)
            }
        }
    };
}
multi_binop!(Add, add);
multi_binop!(Sub, sub);
multi_binop!(Mul, mul);
multi_binop!(Div, div);

/// Applies an expression element-wise with plain loops (no closures: see the module docs).
macro_rules! each {
    ($n:expr, $first:expr, |$i:ident| $e:expr) => {{
        let mut r = [$first; $n];
        for $i in 1..$n {
            r[$i] = $e;
        }
        r
    }};
}

impl<R: Real, const N: usize> Real for Multi<R, N> {
    type M = [R::M; N];
    type I = [R::I; N];
    #[inline(always)]
    fn k(self, v: f32) -> Self {
        Multi([self.0[0].k(v); N])
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        Multi(each!(N, self.0[0].min(b.0[0]), |i| self.0[i].min(b.0[i])))
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        Multi(each!(N, self.0[0].max(b.0[0]), |i| self.0[i].max(b.0[i])))
    }
    #[inline(always)]
    fn floor(self) -> Self {
        Multi(each!(N, self.0[0].floor(), |i| self.0[i].floor()))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Multi(each!(N, self.0[0].sqrt(), |i| self.0[i].sqrt()))
    }
    #[inline(always)]
    fn lt(self, b: Self) -> Self::M {
        each!(N, self.0[0].lt(b.0[0]), |i| self.0[i].lt(b.0[i]))
    }
    #[inline(always)]
    fn le(self, b: Self) -> Self::M {
        each!(N, self.0[0].le(b.0[0]), |i| self.0[i].le(b.0[i]))
    }
    #[inline(always)]
    fn gt(self, b: Self) -> Self::M {
        each!(N, self.0[0].gt(b.0[0]), |i| self.0[i].gt(b.0[i]))
    }
    #[inline(always)]
    fn eq(self, b: Self) -> Self::M {
        each!(N, self.0[0].eq(b.0[0]), |i| self.0[i].eq(b.0[i]))
    }
    #[inline(always)]
    fn ne(self, b: Self) -> Self::M {
        each!(N, self.0[0].ne(b.0[0]), |i| self.0[i].ne(b.0[i]))
    }
    #[inline(always)]
    fn sel(m: Self::M, a: Self, b: Self) -> Self {
        Multi(each!(N, R::sel(m[0], a.0[0], b.0[0]), |i| R::sel(
            m[i], a.0[i], b.0[i]
        )))
    }
    #[inline(always)]
    fn and(a: Self::M, b: Self::M) -> Self::M {
        each!(N, R::and(a[0], b[0]), |i| R::and(a[i], b[i]))
    }
    #[inline(always)]
    fn or(a: Self::M, b: Self::M) -> Self::M {
        each!(N, R::or(a[0], b[0]), |i| R::or(a[i], b[i]))
    }
    #[inline(always)]
    fn to_bits(self) -> Self::I {
        each!(N, self.0[0].to_bits(), |i| self.0[i].to_bits())
    }
    #[inline(always)]
    fn bits_to_f(self, v: Self::I) -> Self {
        let x = self.0[0];
        Multi(each!(N, x.bits_to_f(v[0]), |i| x.bits_to_f(v[i])))
    }
    #[inline(always)]
    fn to_int(self) -> Self::I {
        each!(N, self.0[0].to_int(), |i| self.0[i].to_int())
    }
    #[inline(always)]
    fn int_to_f(self, v: Self::I) -> Self {
        let x = self.0[0];
        Multi(each!(N, x.int_to_f(v[0]), |i| x.int_to_f(v[i])))
    }
    #[inline(always)]
    fn ik(self, v: i32) -> Self::I {
        [self.0[0].ik(v); N]
    }
    #[inline(always)]
    fn iadd(a: Self::I, b: Self::I) -> Self::I {
        each!(N, R::iadd(a[0], b[0]), |i| R::iadd(a[i], b[i]))
    }
    #[inline(always)]
    fn isub(a: Self::I, b: Self::I) -> Self::I {
        each!(N, R::isub(a[0], b[0]), |i| R::isub(a[i], b[i]))
    }
    #[inline(always)]
    fn iand(a: Self::I, b: Self::I) -> Self::I {
        each!(N, R::iand(a[0], b[0]), |i| R::iand(a[i], b[i]))
    }
    #[inline(always)]
    fn ior(a: Self::I, b: Self::I) -> Self::I {
        each!(N, R::ior(a[0], b[0]), |i| R::ior(a[i], b[i]))
    }
    #[inline(always)]
    fn ishl(a: Self::I, n: u32) -> Self::I {
        each!(N, R::ishl(a[0], n), |i| R::ishl(a[i], n))
    }
    #[inline(always)]
    fn ishr(a: Self::I, n: u32) -> Self::I {
        each!(N, R::ishr(a[0], n), |i| R::ishr(a[i], n))
    }
    #[inline(always)]
    fn isra(a: Self::I, n: u32) -> Self::I {
        each!(N, R::isra(a[0], n), |i| R::isra(a[i], n))
    }
}
