//! Level of detail: log2, the isotropic and anisotropic footprint, and the
//! choice of mip levels (textures.md 5.1–5.3).
//!
//! Job: from texel-space derivatives to a LOD (and for ANISOTROPIC the
//! probe count and axis), then to one or two mip levels and a blend weight.
//! Scalar (Reference) and 8-lane (Warp) forms use the same operations in
//! the same order, so they agree bit for bit.
//!
//! Invariants: [`log2`] is a fixed polynomial (not the platform's libm),
//! identical on every machine and in both forms; its inputs are clamped to
//! [2^-100, 2^100], so NaN and infinite derivatives give a finite LOD.
//! Final LODs are clamped to ±64 (NaN → -64, i.e. magnification).

use crate::simd::{FloatV, IntV, MaskV, Simd};
use crate::simd::{fmax, fmin};

const SQRT2: f32 = std::f32::consts::SQRT_2;
/// 2 / ln 2 and its odd-series companions: log2(m) = C1 (t + t^3/3 + t^5/5 + t^7/7), t = (m-1)/(m+1).
const C1: f32 = 2.0 / std::f32::consts::LN_2;
const C3: f32 = C1 / 3.0;
const C5: f32 = C1 / 5.0;
const C7: f32 = C1 / 7.0;
/// Squared lengths are clamped into [TINY, HUGE] before the logarithm.
const TINY: f32 = 7.888_609e-31; // 2^-100
const HUGE: f32 = 1.267_650_6e30; // 2^100
/// Bound of the final LOD.
pub(crate) const LOD_LIMIT: f32 = 64.0;

/// log2 of a positive normal `x` (error below 1e-7 on [2^-100, 2^100]).
#[inline]
pub(crate) fn log2(x: f32) -> f32 {
    let b = x.to_bits() as i32;
    let mut e = ((b >> 23) & 255) - 127;
    let mut m = f32::from_bits(((b & 0x007F_FFFF) | 0x3F80_0000) as u32);
    if m > SQRT2 {
        m *= 0.5;
        e += 1;
    }
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    e as f32 + t * (C1 + t2 * (C3 + t2 * (C5 + t2 * C7)))
}

/// The 8-lane form of [`log2`].
#[inline(always)]
pub(crate) fn log2_v<S: Simd>(s: S, x: S::F) -> S::F {
    let b = x.to_bits();
    let e = (b.shr(23) & s.splat_i(255)) - s.splat_i(127);
    let m = ((b & s.splat_i(0x007F_FFFF)) | s.splat_i(0x3F80_0000)).cast_f32();
    let big = m.gt(s.splat(SQRT2));
    let m = big.select_f(m * s.splat(0.5), m);
    let e = big.select_i(e + s.splat_i(1), e);
    let one = s.splat(1.0);
    let t = (m - one) / (m + one);
    let t2 = t * t;
    let p = s.splat(C1) + t2 * (s.splat(C3) + t2 * (s.splat(C5) + t2 * s.splat(C7)));
    e.to_f32() + t * p
}

/// Clamps a squared length into the logarithm's domain (NaN → TINY).
#[inline(always)]
pub(crate) fn clamp_len2(x: f32) -> f32 {
    fmin(fmax(x, TINY), HUGE)
}

/// The 8-lane form of [`clamp_len2`].
#[inline(always)]
pub(crate) fn clamp_len2_v<S: Simd>(s: S, x: S::F) -> S::F {
    x.max(s.splat(TINY)).min(s.splat(HUGE))
}

/// Clamps a final LOD to ±[`LOD_LIMIT`] (NaN → -LIMIT).
#[inline(always)]
pub(crate) fn clamp_lod(x: f32) -> f32 {
    fmin(fmax(x, -LOD_LIMIT), LOD_LIMIT)
}

/// The 8-lane form of [`clamp_lod`].
#[inline(always)]
pub(crate) fn clamp_lod_v<S: Simd>(s: S, x: S::F) -> S::F {
    x.max(s.splat(-LOD_LIMIT)).min(s.splat(LOD_LIMIT))
}

/// A footprint: texel-space derivative vectors along x and y (z = 0 for 2D).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Footprint<T> {
    /// d(texel coords)/dx.
    pub(crate) dx: [T; 3],
    /// d(texel coords)/dy.
    pub(crate) dy: [T; 3],
}

/// Isotropic LOD: `0.5 * log2(max(|dX|^2, |dY|^2))` (SPEC 7.18.11).
#[inline]
pub(crate) fn iso_lod(f: &Footprint<f32>) -> f32 {
    let lx = f.dx[0] * f.dx[0] + f.dx[1] * f.dx[1] + f.dx[2] * f.dx[2];
    let ly = f.dy[0] * f.dy[0] + f.dy[1] * f.dy[1] + f.dy[2] * f.dy[2];
    0.5 * log2(clamp_len2(fmax(lx, ly)))
}

/// The 8-lane form of [`iso_lod`].
#[inline(always)]
pub(crate) fn iso_lod_v<S: Simd>(s: S, f: &Footprint<S::F>) -> S::F {
    s.splat(0.5) * log2_v(s, iso_len2_v(s, f))
}

/// The clamped squared length whose logarithm [`iso_lod_v`] halves. Its
/// LOD is at most 0 exactly when it is at most 1: [`log2`] is 0 at 1 and
/// has the sign of `x - 1` on the clamped domain (`log2_sign_is_exact`),
/// so callers can tell magnification without the logarithm.
#[inline(always)]
pub(crate) fn iso_len2_v<S: Simd>(s: S, f: &Footprint<S::F>) -> S::F {
    let lx = f.dx[0] * f.dx[0] + f.dx[1] * f.dx[1] + f.dx[2] * f.dx[2];
    let ly = f.dy[0] * f.dy[0] + f.dy[1] * f.dy[1] + f.dy[2] * f.dy[2];
    clamp_len2_v(s, lx.max(ly))
}

/// The anisotropic footprint of a 2D texture (SPEC 7.18.11, anisotropic branch).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aniso<T, B> {
    /// LOD from the minor axis: `0.5 * log2(major^2 / ratio^2)`.
    pub(crate) lod: T,
    /// Number of probes, `ceil(ratio)` in [1, max_aniso].
    pub(crate) probes: T,
    /// Whether the x derivative is the major axis (else y).
    pub(crate) x_major: B,
}

/// The anisotropic footprint: ratio = major^2 / area, clamped to [1, `max_aniso`].
#[inline]
pub(crate) fn aniso(f: &Footprint<f32>, max_aniso: f32) -> Aniso<f32, bool> {
    let lx = f.dx[0] * f.dx[0] + f.dx[1] * f.dx[1];
    let ly = f.dy[0] * f.dy[0] + f.dy[1] * f.dy[1];
    let x_major = lx >= ly;
    let major = if x_major { lx } else { ly };
    let area = (f.dx[0] * f.dy[1] - f.dx[1] * f.dy[0]).abs();
    let ratio = fmin(fmax(major / area, 1.0), max_aniso);
    let probes = -(-ratio).floor();
    let lod = 0.5 * log2(clamp_len2(major / (ratio * ratio)));
    Aniso {
        lod,
        probes,
        x_major,
    }
}

/// The 8-lane form of [`aniso`].
#[inline(always)]
pub(crate) fn aniso_v<S: Simd>(s: S, f: &Footprint<S::F>, max_aniso: f32) -> Aniso<S::F, S::M> {
    let lx = f.dx[0] * f.dx[0] + f.dx[1] * f.dx[1];
    let ly = f.dy[0] * f.dy[0] + f.dy[1] * f.dy[1];
    let x_major = lx.ge(ly);
    let major = x_major.select_f(lx, ly);
    let cross = f.dx[0] * f.dy[1] - f.dx[1] * f.dy[0];
    // |cross| by clearing the sign bit, exactly as f32::abs does.
    let area = (cross.to_bits() & s.splat_i(0x7FFF_FFFF)).cast_f32();
    let ratio = (major / area).max(s.splat(1.0)).min(s.splat(max_aniso));
    let zero = s.splat(0.0);
    let probes = zero - (zero - ratio).floor();
    let lod = s.splat(0.5) * log2_v(s, clamp_len2_v(s, major / (ratio * ratio)));
    Aniso {
        lod,
        probes,
        x_major,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    #[test]
    fn log2_is_close_and_exact_on_powers_of_two() {
        for e in -20..20 {
            // Built from its bits: `powi` need not be exact (Miri perturbs it).
            let x = f32::from_bits(((e + 127) as u32) << 23);
            assert_eq!(log2(x), e as f32);
        }
        let mut x = 1e-6f32;
        while x < 1e6 {
            // An f64 reference: f32 `log2` need not be correctly rounded.
            assert!(
                (f64::from(log2(x)) - f64::from(x).log2()).abs() < 2e-6,
                "{x}"
            );
            x *= 1.37;
        }
    }

    #[test]
    fn log2_sign_is_exact() {
        // Every float within 2^16 ulps of 1, and both ends of the domain.
        let one = 1.0f32.to_bits();
        let near = (one - 65536..=one + 65536).map(f32::from_bits);
        for x in near.chain([TINY, HUGE, 0.5, 2.0, SQRT2, 1.5]) {
            let l = log2(x);
            assert_eq!(l <= 0.0, x <= 1.0, "log2({x:e}) = {l:e}");
            assert_eq!(l == 0.0, x == 1.0, "log2({x:e}) = {l:e}");
        }
        // And a sweep over the whole clamped domain.
        let mut x = TINY;
        while x < HUGE {
            assert_eq!(log2(x) <= 0.0, x <= 1.0, "{x:e}");
            x *= 1.001;
        }
    }

    #[test]
    fn log2_simd_matches_scalar() {
        let s = Portable;
        let xs = [1e-30, 0.3, 1.0, 1.41, 1.42, 3.0, 1e10, 7.7e29];
        let v = log2_v(s, s.f32s(xs)).to_array();
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(v[i].to_bits(), log2(x).to_bits());
        }
    }

    #[test]
    fn aniso_ratio_and_lod() {
        // 8 texels along x, 2 along y: ratio 4, LOD log2(2) = 1.
        let f = Footprint {
            dx: [8.0, 0.0, 0.0],
            dy: [0.0, 2.0, 0.0],
        };
        let a = aniso(&f, 16.0);
        assert_eq!((a.lod, a.probes, a.x_major), (1.0, 4.0, true));
        // Clamped to 2: LOD log2(8 / 2) = 2.
        let a = aniso(&f, 2.0);
        assert_eq!((a.lod, a.probes), (2.0, 2.0));
        assert_eq!(iso_lod(&f), 3.0);
    }
}
