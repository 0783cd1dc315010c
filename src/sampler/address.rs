//! From a normalised coordinate to texel indices and weights, and the
//! address modes (textures.md 4.1, 4.2).
//!
//! Job: `u` in texture space → integer texel index `t0` (as an exact
//! integer-valued f32), the 8-bit fractional weight of `t0 + 1`, and the
//! remapping of any integer index by WRAP, MIRROR, CLAMP, BORDER or
//! MIRRORONCE. Each function has a scalar form (Reference) and an 8-lane
//! form (Warp) computing the same operations in the same order, so the two
//! agree bit for bit.
//!
//! Invariants: every input (NaN, ±Inf, huge) gives an index inside
//! `[0, n-1]`; the scaled coordinate is first clamped to ±2^30 (NaN → the
//! low bound), where all the float steps below are exact: `s * 256` and
//! `/ 256` scale by powers of two, `floor` is exact, and the differences of
//! nearby integer-valued floats are exact. Wrapping and mirroring divide by
//! `n`, exact for the power-of-two sizes that allow those modes.

use crate::simd::{FloatV, MaskV, Simd, fmax, fmin};
use crate::state::TextureAddress;

/// The scaled coordinate is clamped to this magnitude before fixed point.
const LIMIT: f32 = 1_073_741_824.0;

/// Splits a texel-space coordinate `s` into `(floor, weight)` with 8
/// fractional bits (SPEC 7.18.7): `t0 = floor(q / 256)`, `w1 = (q - 256 t0) / 256`
/// with `q = floor(s * 256)`.
#[inline]
pub(crate) fn split(s: f32) -> (f32, f32) {
    let s = fmax(s, -LIMIT);
    let s = fmin(s, LIMIT);
    let q = (s * 256.0).floor();
    let t0 = (q * (1.0 / 256.0)).floor();
    let w1 = (q - t0 * 256.0) * (1.0 / 256.0);
    (t0, w1)
}

/// The 8-lane form of [`split`].
#[inline(always)]
pub(crate) fn split_v<S: Simd>(s: S, x: S::F) -> (S::F, S::F) {
    let x = x.max(s.splat(-LIMIT)).min(s.splat(LIMIT));
    let q = (x * s.splat(256.0)).floor();
    let t0 = (q * s.splat(1.0 / 256.0)).floor();
    let w1 = (q - t0 * s.splat(256.0)) * s.splat(1.0 / 256.0);
    (t0, w1)
}

/// Remaps integer index `t` (integer-valued, |t| <= 2^30 + 1) on an axis of
/// `n` texels. Returns the index in `[0, n-1]` and whether BORDER replaces
/// the texel.
#[inline]
pub(crate) fn address(mode: TextureAddress, t: f32, n: f32) -> (i32, bool) {
    let mut border = false;
    let r = match mode {
        TextureAddress::Wrap => t - (t / n).floor() * n,
        TextureAddress::Mirror => {
            let m = if t < 0.0 { -t - 1.0 } else { t };
            let k = (m / n).floor();
            let r = m - k * n;
            let odd = k - (k * 0.5).floor() * 2.0;
            if odd == 1.0 { n - 1.0 - r } else { r }
        }
        TextureAddress::Clamp => t,
        TextureAddress::Border => {
            border = !(t >= 0.0 && t <= n - 1.0);
            t
        }
        TextureAddress::MirrorOnce => {
            if t < 0.0 {
                -t - 1.0
            } else {
                t
            }
        }
    };
    (fmin(fmax(r, 0.0), n - 1.0) as i32, border)
}

/// The 8-lane form of [`address`]: indices and the BORDER mask.
#[inline(always)]
pub(crate) fn address_v<S: Simd>(s: S, mode: TextureAddress, t: S::F, n: S::F) -> (S::I, S::M) {
    let zero = s.splat(0.0);
    let one = s.splat(1.0);
    let mut border = zero.ne(zero);
    let r = match mode {
        TextureAddress::Wrap => t - (t / n).floor() * n,
        TextureAddress::Mirror => {
            let m = t.lt(zero).select_f(zero - t - one, t);
            let k = (m / n).floor();
            let r = m - k * n;
            let odd = k - (k * s.splat(0.5)).floor() * s.splat(2.0);
            odd.eq(one).select_f(n - one - r, r)
        }
        TextureAddress::Clamp => t,
        TextureAddress::Border => {
            border = !(t.ge(zero) & t.le(n - one));
            t
        }
        TextureAddress::MirrorOnce => t.lt(zero).select_f(zero - t - one, t),
    };
    (r.max(zero).min(n - one).to_i32(), border)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::{IntV, Portable};

    #[test]
    fn modes_by_hand() {
        use TextureAddress::*;
        let n = 4.0;
        let go = |m, t| address(m, t, n);
        assert_eq!(go(Wrap, -1.0), (3, false));
        assert_eq!(go(Wrap, 9.0), (1, false));
        assert_eq!(go(Mirror, -1.0), (0, false));
        assert_eq!(go(Mirror, 4.0), (3, false));
        assert_eq!(go(Mirror, 8.0), (0, false));
        assert_eq!(go(Mirror, -5.0), (3, false));
        assert_eq!(go(Clamp, -7.0), (0, false));
        assert_eq!(go(Clamp, 70.0), (3, false));
        assert_eq!(go(Border, -1.0), (0, true));
        assert_eq!(go(Border, 4.0), (3, true));
        assert_eq!(go(Border, 3.0), (3, false));
        assert_eq!(go(MirrorOnce, -3.0), (2, false));
        assert_eq!(go(MirrorOnce, -9.0), (3, false));
        assert_eq!(go(MirrorOnce, 5.0), (3, false));
    }

    #[test]
    fn split_is_eight_bit_fixed_point() {
        assert_eq!(split(1.5), (1.0, 0.5));
        assert_eq!(split(-0.25), (-1.0, 0.75));
        // 1/3 truncates to 85/256.
        assert_eq!(split(1.0 / 3.0), (0.0, 85.0 / 256.0));
        assert_eq!(split(f32::NAN), (-LIMIT, 0.0));
        assert_eq!(split(f32::INFINITY), (LIMIT, 0.0));
    }

    #[test]
    fn simd_matches_scalar() {
        let s = Portable;
        let ts = [-9.0, -1.0, 0.0, 3.0, 4.0, 77.0, -1e9, 1e9];
        for &mode in TextureAddress::ALL {
            let (i, b) = address_v(s, mode, s.f32s(ts), s.splat(4.0));
            for (lane, &t) in ts.iter().enumerate() {
                let (si, sb) = address(mode, t, 4.0);
                assert_eq!(i.to_array()[lane], si);
                assert_eq!((b.bits() >> lane) & 1 == 1, sb);
            }
        }
    }
}
