//! The scalar formulas both interpreters share, with every special case of
//! bytecode.md §6.4 and §7 in one place.
//!
//! The 8-lane interpreter uses vector arithmetic only where IEEE-754 fixes
//! the result bit for bit (add, sub, mul, div, sqrt, compares, selects) and
//! calls these functions lane by lane for everything else (transcendentals,
//! rounding), so its results equal the scalar interpreter's exactly on
//! every backend. The transcendentals are evaluated in f64 and rounded
//! once to f32: the result is then the correctly rounded one except in
//! vanishingly rare double-rounding cases, independent of which libm
//! variant (FMA or not) the CPU selects.

/// Largest f32 below 1.0: the upper end of `frc`'s half-open range.
pub const ONE_MINUS_ULP: f32 = 0.999_999_94;

/// Sign flipped (also on NaN and zero): the `-` source modifier.
#[inline(always)]
pub fn neg(x: f32) -> f32 {
    f32::from_bits(x.to_bits() ^ 0x8000_0000)
}

/// Sign cleared: the `_abs` source modifier and `abs`.
#[inline(always)]
pub fn abs(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & 0x7FFF_FFFF)
}

/// `floor` with the quieted input NaN (`x + x`) for NaN, as the SIMD
/// backends produce it.
#[inline(always)]
pub fn floor(x: f32) -> f32 {
    if x.is_nan() { x + x } else { x.floor() }
}

/// `frc`: `x - floor(x)`, in [0, 1): a tiny negative input whose
/// difference rounds to 1.0 gives the largest float below 1 (§7.1).
#[inline(always)]
pub fn frc(x: f32) -> f32 {
    let r = x - floor(x);
    if r >= 1.0 { ONE_MINUS_ULP } else { r }
}

/// `_sat`: clamp to [0, 1], NaN → +0 (§6.1), written as the select chain
/// the vector code uses.
#[inline(always)]
pub fn sat(x: f32) -> f32 {
    let t = if x > 0.0 { x } else { 0.0 };
    if t < 1.0 { t } else { 1.0 }
}

/// `min`: `a < b ? a : b`; if exactly one is NaN, the other (§6.4).
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    if b.is_nan() || a < b { a } else { b }
}

/// `max`: `a >= b ? a : b`; if exactly one is NaN, the other (§6.4).
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    if b.is_nan() || a >= b { a } else { b }
}

/// `sgn`: −1, 0 (both zeros, and NaN), +1.
#[inline(always)]
pub fn sgn(x: f32) -> f32 {
    if x < 0.0 {
        -1.0
    } else if x > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// `rcp`: IEEE `1 / x` (`rcp(±0) = ±INF`, `rcp(1) = 1`).
#[inline(always)]
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// `rsq`: `1 / sqrt(|x|)` (`rsq(±0) = +INF`, negative inputs use |x|).
#[inline(always)]
pub fn rsq(x: f32) -> f32 {
    1.0 / abs(x).sqrt()
}

/// `exp`/`expp`: `2^x` (`exp(−INF) = 0`, overflow → +INF).
#[inline(always)]
pub fn exp2(x: f32) -> f32 {
    (x as f64).exp2() as f32
}

/// `log`/`logp`: `log2(|x|)` (`log(±0) = −INF`).
#[inline(always)]
pub fn log2(x: f32) -> f32 {
    (abs(x) as f64).log2() as f32
}

/// `pow`: `|x|^y` with C `pow` conventions (`pow(0, 0) = 1`,
/// `pow(0, y < 0) = +INF`).
#[inline(always)]
pub fn pow(x: f32, y: f32) -> f32 {
    (abs(x) as f64).powf(y as f64) as f32
}

/// `sincos`: (cos x, sin x) with full-range argument reduction.
#[inline(always)]
pub fn sincos(x: f32) -> (f32, f32) {
    let (s, c) = (x as f64).sin_cos();
    (c as f32, s as f32)
}

/// The scale `nrm` applies: `1/sqrt(f)`, or `FLT_MAX` when `f == 0` (§7.3).
#[inline(always)]
pub fn nrm_scale(f: f32) -> f32 {
    if f != 0.0 { 1.0 / f.sqrt() } else { f32::MAX }
}

/// `lit` from the source's x, y, w (§7.3).
#[inline(always)]
pub fn lit(x: f32, y: f32, w: f32) -> [f32; 4] {
    let p = w.clamp(-127.9961, 127.9961);
    let p = if p.is_nan() { 0.0 } else { p };
    let mut d = [1.0, 0.0, 0.0, 1.0];
    if x > 0.0 {
        d[1] = x;
        if y > 0.0 {
            d[2] = pow(y, p);
        }
    }
    d
}

/// vs_1_1 `expp` (four components): `(2^floor(x), x − floor(x), 2^x, 1)`.
#[inline(always)]
pub fn expp1(x: f32) -> [f32; 4] {
    let f = floor(x);
    [exp2(f), x - f, exp2(x), 1.0]
}

/// Largest `|a0|` value kept before the relative-address range check.
const A0_LIMIT: f32 = 1_048_576.0;

/// vs_2_0+ `mova`: round half away from zero, NaN → 0, clamped (§7.7).
#[inline(always)]
pub fn mova(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(-A0_LIMIT, A0_LIMIT) as i32
    }
}

/// vs_1_1 `mov a0.x`: floor, NaN → 0, clamped (§4.3).
#[inline(always)]
pub fn mova_floor(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        floor(x).clamp(-A0_LIMIT, A0_LIMIT) as i32
    }
}

/// texldp: divide a coordinate by w; NaN results become 0 (§7.10).
#[inline(always)]
pub fn project(c: f32, w: f32) -> f32 {
    let r = c / w;
    if r.is_nan() { 0.0 } else { r }
}

/// Loop or rep count from `i#.x`: [0, 255], or just non-negative in the
/// software profiles (§7.8).
#[inline(always)]
pub fn loop_count(x: i32, software: bool) -> u32 {
    if software {
        x.max(0) as u32
    } else {
        x.clamp(0, 255) as u32
    }
}

/// Applies a source modifier (SM2/3: negate, abs; ps_1_x forms too).
#[inline(always)]
pub fn modify(m: super::op::Modifier, x: f32) -> f32 {
    use super::op::Modifier as M;
    match m {
        M::None => x,
        M::Neg => neg(x),
        M::Abs => abs(x),
        M::AbsNeg => neg(abs(x)),
        M::Bias => x - 0.5,
        M::BiasNeg => neg(x - 0.5),
        M::Sign => (x - 0.5) * 2.0,
        M::SignNeg => neg((x - 0.5) * 2.0),
        M::Comp => 1.0 - x,
        M::X2 => x * 2.0,
        M::X2Neg => neg(x * 2.0),
    }
}

/// A comparison of `ifc`/`breakc`/`setp` (ordered; `ne` true with NaN).
#[inline(always)]
pub fn compare(c: crate::shader::token::Comparison, a: f32, b: f32) -> bool {
    use crate::shader::token::Comparison as C;
    match c {
        C::Gt => a > b,
        C::Eq => a == b,
        C::Ge => a >= b,
        C::Lt => a < b,
        C::Ne => a != b,
        C::Le => a <= b,
    }
}
