//! Shared arithmetic of the fixed-function pipeline, written once for the
//! 8-lane Warp path and the scalar Reference path.
//!
//! Job: the special functions (`log2`, `exp2`, `exp`, `pow`) that specular
//! highlights, spot falloff and fog need, plus the small vector helpers
//! (dot products, normalisation, row-vector matrix products) whose exact
//! operation order both paths must share.
//!
//! Invariant: every function is a fixed sequence of IEEE-754 single
//! precision operations (add, sub, mul, div, sqrt, floor, compare, select,
//! integer bit manipulation), with no fused multiply-add and no approximate
//! reciprocal. [`Real`] is implemented for `f32` (Reference) and for
//! [`V`] (one lane set of a SIMD backend), so both paths run the same
//! sequence and agree bit for bit, on any input including NaN and
//! infinities. Hot-path helpers use loops rather than closures
//! (`array::map`, `from_fn`): a closure is compiled as its own function
//! without the AVX2 feature of the dispatch trampoline, which turns every
//! intrinsic inside it into a call. `min`/`max` follow the SIMD module's definition
//! (`a < b ? a : b`, NaN gives `b`).

pub use super::real::{Multi, Real, V, trunc_i32};

/// `clamp(x, 0, 1)`; NaN gives 0 (the `max` rule).
#[inline(always)]
pub fn sat<R: Real>(x: R) -> R {
    x.max(x.k(0.0)).min(x.k(1.0))
}

/// `2^x`, relative error below 2e-7 for finite results; `x` NaN gives NaN,
/// large `x` +INF, very negative `x` 0 (through the denormal range).
#[inline(always)]
pub fn exp2<R: Real>(x: R) -> R {
    // The clamp keeps the integer part representable; results saturate anyway.
    let xc = x.max(x.k(-152.0)).min(x.k(130.0));
    let n = (xc + x.k(0.5)).floor();
    let f = xc - n; // in [-0.5, 0.5]
    let t = f * x.k(std::f32::consts::LN_2);
    // e^t by its Taylor series to t^8/8! (|t| <= 0.347: error < 3e-10).
    let mut p = x.k(1.0 / 40320.0);
    p = p * t + x.k(1.0 / 5040.0);
    p = p * t + x.k(1.0 / 720.0);
    p = p * t + x.k(1.0 / 120.0);
    p = p * t + x.k(1.0 / 24.0);
    p = p * t + x.k(1.0 / 6.0);
    p = p * t + x.k(0.5);
    p = p * t + x.k(1.0);
    p = p * t + x.k(1.0);
    // 2^n as two power-of-two factors, each a normal float, so that the
    // first product is exact and only the second rounds (also into denormals).
    let ni = n.to_int();
    let n1 = R::isra(ni, 1);
    let n2 = R::isub(ni, n1);
    let bias = x.ik(127);
    let s1 = x.bits_to_f(R::ishl(R::iadd(n1, bias), 23));
    let s2 = x.bits_to_f(R::ishl(R::iadd(n2, bias), 23));
    let r = p * s1 * s2;
    R::sel(x.ne(x), x, r)
}

/// `log2(x)`: -INF at 0, NaN below 0 and for NaN, +INF at +INF; absolute
/// error below 3e-7 near 1, relative error below 1e-7 elsewhere.
#[inline(always)]
pub fn log2<R: Real>(x: R) -> R {
    // Denormals are scaled into the normal range first.
    let small = x.lt(x.k(f32::MIN_POSITIVE));
    let xs = R::sel(small, x * x.k(8_388_608.0), x);
    let e_bias = R::sel(small, x.k(23.0), x.k(0.0));
    let bits = xs.to_bits();
    let e = R::isub(R::iand(R::ishr(bits, 23), x.ik(0xFF)), x.ik(127));
    let mut e = x.int_to_f(e) - e_bias;
    let mut m = x.bits_to_f(R::ior(R::iand(bits, x.ik(0x7F_FFFF)), x.ik(0x3F80_0000)));
    let big = m.gt(x.k(std::f32::consts::SQRT_2));
    m = R::sel(big, m * x.k(0.5), m);
    e = R::sel(big, e + x.k(1.0), e);
    // ln(m) = 2 atanh(t), t = (m - 1) / (m + 1), |t| <= 0.1716.
    let t = (m - x.k(1.0)) / (m + x.k(1.0));
    let t2 = t * t;
    let mut p = x.k(1.0 / 13.0);
    p = p * t2 + x.k(1.0 / 11.0);
    p = p * t2 + x.k(1.0 / 9.0);
    p = p * t2 + x.k(1.0 / 7.0);
    p = p * t2 + x.k(1.0 / 5.0);
    p = p * t2 + x.k(1.0 / 3.0);
    p = p * t2 + x.k(1.0);
    let ln_m = x.k(2.0) * t * p;
    let r = e + ln_m * x.k(std::f32::consts::LOG2_E);
    let r = R::sel(x.eq(x.k(f32::INFINITY)), x, r);
    let r = R::sel(x.eq(x.k(0.0)), x.k(f32::NEG_INFINITY), r);
    R::sel(R::or(x.lt(x.k(0.0)), x.ne(x)), x.k(f32::NAN), r)
}

/// `e^x`.
#[inline(always)]
pub fn exp<R: Real>(x: R) -> R {
    exp2(x * x.k(std::f32::consts::LOG2_E))
}

/// `x^y` for the lighting terms: `x^0 = 1` for every `x` (also 0 and NaN,
/// as D3D's specular and spot formulas need), `0^y` = 0 for `y > 0` and
/// +INF for `y < 0`, NaN for negative `x`.
#[inline(always)]
pub fn pow<R: Real>(x: R, y: R) -> R {
    let r = exp2(y * log2(x));
    let zero = x.k(0.0);
    let r = R::sel(x.eq(zero), R::sel(y.gt(zero), zero, x.k(f32::INFINITY)), r);
    R::sel(y.eq(zero), x.k(1.0), r)
}

/// `x^y` for `x` positive and finite (the specular `N·H` where it is used):
/// `exp2(y · log2(x))` without the special-case handling of [`pow`] and
/// with denormal `x` read as if normal. Lanes with other `x` get an
/// unspecified but deterministic value (identical on every backend); the
/// caller masks them out. `y = 0` gives exactly 1 for every finite `x`.
#[inline(always)]
pub fn pow_pos<R: Real>(x: R, y: R) -> R {
    let bits = x.to_bits();
    let e = R::isub(R::iand(R::ishr(bits, 23), x.ik(0xFF)), x.ik(127));
    let mut e = x.int_to_f(e);
    let mut m = x.bits_to_f(R::ior(R::iand(bits, x.ik(0x7F_FFFF)), x.ik(0x3F80_0000)));
    let big = m.gt(x.k(std::f32::consts::SQRT_2));
    m = R::sel(big, m * x.k(0.5), m);
    e = R::sel(big, e + x.k(1.0), e);
    let t = (m - x.k(1.0)) / (m + x.k(1.0));
    let t2 = t * t;
    let mut p = x.k(1.0 / 13.0);
    p = p * t2 + x.k(1.0 / 11.0);
    p = p * t2 + x.k(1.0 / 9.0);
    p = p * t2 + x.k(1.0 / 7.0);
    p = p * t2 + x.k(1.0 / 5.0);
    p = p * t2 + x.k(1.0 / 3.0);
    p = p * t2 + x.k(1.0);
    let l = e + x.k(2.0) * t * p * x.k(std::f32::consts::LOG2_E);
    // exp2 of the product, clamped so the scale factors stay representable.
    let z = (y * l).max(x.k(-152.0)).min(x.k(130.0));
    let n = (z + x.k(0.5)).floor();
    let t = (z - n) * x.k(std::f32::consts::LN_2);
    let mut q = x.k(1.0 / 40320.0);
    q = q * t + x.k(1.0 / 5040.0);
    q = q * t + x.k(1.0 / 720.0);
    q = q * t + x.k(1.0 / 120.0);
    q = q * t + x.k(1.0 / 24.0);
    q = q * t + x.k(1.0 / 6.0);
    q = q * t + x.k(0.5);
    q = q * t + x.k(1.0);
    q = q * t + x.k(1.0);
    let ni = n.to_int();
    let n1 = R::isra(ni, 1);
    let n2 = R::isub(ni, n1);
    let bias = x.ik(127);
    let s1 = x.bits_to_f(R::ishl(R::iadd(n1, bias), 23));
    let s2 = x.bits_to_f(R::ishl(R::iadd(n2, bias), 23));
    q * s1 * s2
}

/// `x^n` for `n >= 1` by binary powering: the squarings of `x` from the
/// low bit of `n` up, multiplied in as their bits are set. A fixed
/// sequence of exact IEEE products for a given `n`, so every backend and
/// the scalar form agree; `n = 0` gives 1.
#[inline(always)]
pub fn powi<R: Real>(x: R, n: u32) -> R {
    let mut base = x;
    let mut acc: Option<R> = None;
    let mut n = n;
    while n != 0 {
        if n & 1 != 0 {
            acc = Some(match acc {
                None => base,
                Some(a) => a * base,
            });
        }
        n >>= 1;
        if n != 0 {
            base = base * base;
        }
    }
    acc.unwrap_or(x.k(1.0))
}

/// `a.x b.x + a.y b.y + a.z b.z`, left to right.
#[inline(always)]
pub fn dot3<R: Real>(a: [R; 3], b: [R; 3]) -> R {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `v / |v|` computed as `v · (1 / sqrt(dot(v, v)))`; the zero vector stays zero.
#[inline(always)]
pub fn normalize3<R: Real>(v: [R; 3]) -> [R; 3] {
    let l2 = dot3(v, v);
    let zero = v[0].k(0.0);
    let inv = v[0].k(1.0) / l2.sqrt();
    let inv = R::sel(l2.eq(zero), zero, inv);
    [v[0] * inv, v[1] * inv, v[2] * inv]
}

/// Row vector times a D3D matrix (`m[row][col]`): `out_j = Σ_i v_i m_ij`, summed in row order.
#[inline(always)]
pub fn xform4<R: Real>(v: [R; 4], m: &[[f32; 4]; 4]) -> [R; 4] {
    // Plain loops, no closures: a closure body is a separate function that
    // would not get the AVX2 target feature of the dispatch trampoline.
    let x = v[0];
    let mut o = [x; 4];
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = v[0] * x.k(m[0][j]) + v[1] * x.k(m[1][j]) + v[2] * x.k(m[2][j]) + v[3] * x.k(m[3][j]);
    }
    o
}

/// Row vector times the upper 3x3 of a D3D matrix (a direction: no translation).
#[inline(always)]
pub fn xform3<R: Real>(v: [R; 3], m: &[[f32; 3]; 3]) -> [R; 3] {
    let x = v[0];
    let mut o = [x; 3];
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = v[0] * x.k(m[0][j]) + v[1] * x.k(m[1][j]) + v[2] * x.k(m[2][j]);
    }
    o
}

/// Constants `c` in the kind of `x`.
#[inline(always)]
pub fn k3<R: Real>(x: R, c: [f32; 3]) -> [R; 3] {
    [x.k(c[0]), x.k(c[1]), x.k(c[2])]
}

/// Constants `c` in the kind of `x`.
#[inline(always)]
pub fn k4<R: Real>(x: R, c: [f32; 4]) -> [R; 4] {
    [x.k(c[0]), x.k(c[1]), x.k(c[2]), x.k(c[3])]
}

/// [`sat`] of each component.
#[inline(always)]
pub fn sat4<R: Real>(v: [R; 4]) -> [R; 4] {
    [sat(v[0]), sat(v[1]), sat(v[2]), sat(v[3])]
}

/// A 4x4 matrix in D3D row-major order from glam's storage (glam column i = D3D row i).
pub fn rows(m: &glam::Mat4) -> [[f32; 4]; 4] {
    m.to_cols_array_2d()
}

/// Upper-left 3x3 of a D3D-ordered matrix.
pub fn upper3(m: &[[f32; 4]; 4]) -> [[f32; 3]; 3] {
    std::array::from_fn(|i| [m[i][0], m[i][1], m[i][2]])
}

/// Scalar helpers for the Reference path and per-draw setup.
pub mod scalar {
    /// `clamp(x, 0, 1)` with the shared NaN rule.
    #[inline]
    pub fn sat(x: f32) -> f32 {
        super::sat(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_functions_are_accurate() {
        for i in 0..2000 {
            let x = -140.0 + i as f32 * 0.1337;
            let want = (x as f64).exp2();
            let got = exp2(x) as f64;
            if want > 1e-37 && want < 1e38 {
                assert!(((got - want) / want).abs() < 3e-7, "exp2({x}) {got} {want}");
            }
        }
        for i in 1..5000 {
            let x = i as f32 * 0.0173;
            let want = (x as f64).log2();
            let got = log2(x) as f64;
            assert!((got - want).abs() < 4e-7 * want.abs().max(1.0), "log2({x})");
        }
        assert_eq!(log2(0.0f32), f32::NEG_INFINITY);
        assert!(log2(-1.0f32).is_nan());
        assert_eq!(log2(f32::INFINITY), f32::INFINITY);
        assert!((log2(1e-40f32) as f64 - (1e-40f32 as f64).log2()).abs() < 1e-5);
        assert_eq!(exp2(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp2(f32::NEG_INFINITY), 0.0);
        assert!(exp2(f32::NAN).is_nan());
        assert_eq!(exp2(0.0f32), 1.0);
        // 0.953^30 from the specular worked example of fixed-function.md 5.6.
        assert!((pow(0.953f32, 30.0) - 0.953f32.powf(30.0)).abs() < 1e-6);
        assert_eq!(pow(0.0f32, 0.0), 1.0);
        assert_eq!(pow(f32::NAN, 0.0), 1.0);
        assert_eq!(pow(0.0f32, 2.0), 0.0);
        assert_eq!(pow(0.0f32, -2.0), f32::INFINITY);
        assert_eq!(pow(f32::INFINITY, 2.0), f32::INFINITY);
        assert_eq!(normalize3([0.0f32; 3]), [0.0; 3]);
    }

    #[test]
    fn lockstep_matches_one_at_a_time() {
        let xs = [0.5f32, 0.0, 2.0, f32::NAN, 1e-40, 0.953, f32::INFINITY, 3.0];
        let ys = [30.0f32, 2.0, -1.5, 0.0, 4.0, 30.0, 2.0, 0.0];
        let got = pow(Multi(xs), Multi(ys)).0;
        for i in 0..8 {
            let want = pow(xs[i], ys[i]);
            assert!(
                got[i].to_bits() == want.to_bits() || (got[i].is_nan() && want.is_nan()),
                "{i}"
            );
        }
        for (x, y) in [
            (0.953f32, 30.0f32),
            (0.5, 16.0),
            (0.99, 0.0),
            (1.0, 7.5),
            (3.0, 2.0),
        ] {
            let (a, b) = (pow_pos(x, y), pow(x, y));
            assert!((a - b).abs() <= 2e-7 * b.max(1e-30), "{x}^{y}: {a} vs {b}");
        }
        assert_eq!(pow_pos(0.3f32, 0.0), 1.0);
        let got = exp2(Multi(ys)).0;
        assert_eq!(got.map(f32::to_bits), ys.map(|y| exp2(y).to_bits()));
    }

    /// Binary powering: within n/2 ulps of the f64 power, 1 for n = 0,
    /// the same bits in lockstep lanes as one at a time, and the exact
    /// multiplication sequence it documents (x^5 = x · (x²)²).
    #[test]
    fn powi_is_close_and_lane_exact() {
        let xs = [0.953f32, 0.5, 0.999, 0.1, 1.0, 1.7, 3e-3, 0.8];
        for &x in &xs {
            for n in [1u32, 2, 3, 5, 8, 16, 30, 64, 128, 256] {
                let got = powi(x, n);
                let want = f64::from(x).powi(n as i32);
                if !(1e-30..=1e30).contains(&want) {
                    continue;
                }
                // Each product rounds by at most half an ulp (2^-24) and
                // squaring doubles the error so far: under n/2 ulp in all.
                let rel = ((f64::from(got) - want) / want).abs();
                let bound = f64::from(n) * 2f64.powi(-24) * 1.01;
                assert!(rel <= bound, "{x}^{n}: {got} vs {want} (rel {rel:e})");
            }
            assert_eq!(powi(x, 0), 1.0);
            let x2 = x * x;
            assert_eq!(powi(x, 5).to_bits(), (x * (x2 * x2)).to_bits());
        }
        for n in [1u32, 7, 16, 100] {
            let lanes = powi(Multi(xs), n).0;
            for (l, &x) in xs.iter().enumerate() {
                assert_eq!(lanes[l].to_bits(), powi(x, n).to_bits(), "{x}^{n}");
            }
        }
        use super::super::light::half_power_int;
        assert_eq!(half_power_int(16.0), Some(8));
        assert_eq!(half_power_int(2.0), Some(1));
        assert_eq!(half_power_int(256.0), Some(128));
        assert_eq!(half_power_int(15.0), None);
        assert_eq!(half_power_int(16.5), None);
        assert_eq!(half_power_int(1.0), None);
        assert_eq!(half_power_int(0.0), None);
        assert_eq!(half_power_int(258.0), None);
        assert_eq!(half_power_int(f32::NAN), None);
    }

    #[test]
    fn simd_matches_scalar_bit_for_bit() {
        use crate::simd::{Backend, FloatV, Simd};
        struct K(Vec<f32>, Vec<f32>);
        impl crate::simd::Kernel for K {
            type Output = Vec<[u32; 4]>;
            fn run<S: Simd>(self, s: S) -> Vec<[u32; 4]> {
                let mut out = vec![];
                for (xc, yc) in self.0.chunks(8).zip(self.1.chunks(8)) {
                    let x = V(s.f32s(xc.try_into().unwrap()), s);
                    let y = V(s.f32s(yc.try_into().unwrap()), s);
                    let r = [exp2(x), log2(x), pow(x, y), exp(y)].map(|v| v.0.to_array());
                    for l in 0..8 {
                        out.push(r.map(|a| a[l].to_bits()));
                    }
                }
                out
            }
        }
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let specials = [
            0.0,
            -0.0,
            1.0,
            f32::INFINITY,
            -f32::INFINITY,
            f32::NAN,
            1e-40,
            -3.0,
        ];
        let mut xs = vec![];
        let mut ys = vec![];
        for i in 0..4096 {
            let pick = |r: u32| match r % 4 {
                0 => specials[(r >> 3) as usize % specials.len()],
                1 => f32::from_bits(r >> 2 << 2),
                _ => (r as f32 / u32::MAX as f32) * 200.0 - 100.0,
            };
            xs.push(if i % 3 == 0 {
                pick(next()).abs()
            } else {
                pick(next())
            });
            ys.push(pick(next()));
        }
        let want: Vec<[u32; 4]> = xs
            .iter()
            .zip(&ys)
            .map(|(&x, &y)| [exp2(x), log2(x), pow(x, y), exp(y)].map(f32::to_bits))
            .collect();
        for b in [Backend::Portable, Backend::new(true)] {
            let got = crate::simd::dispatch(b, K(xs.clone(), ys.clone()));
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                // NaN payloads may differ only if both are NaN.
                for c in 0..4 {
                    let (gf, wf) = (f32::from_bits(g[c]), f32::from_bits(w[c]));
                    assert!(
                        g[c] == w[c] || (gf.is_nan() && wf.is_nan()),
                        "{} case {i} fn {c}: x {} y {}: {gf} vs {wf}",
                        b.name(),
                        xs[i],
                        ys[i]
                    );
                }
            }
        }
    }
}
