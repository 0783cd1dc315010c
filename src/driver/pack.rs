//! Colours packed as A8R8G8B8 words, 8 lanes at a time: the one
//! quantisation the Warp output merger's fast path, the sampler's byte
//! path and the one-texture stage all produce, so a colour that skips the
//! merger's float path stores the same bytes.

use crate::simd::{FloatV, IntV, Simd};

/// A colour as the fast merger stores it on A8R8G8B8: each channel as
/// [`unorm8_if`] quantises it, B, G, R, A from the low byte up; the alpha
/// byte 0 unless `alpha` (X8R8G8B8 sets it afterwards).
#[inline(always)]
pub(crate) fn pack_unorm8<S: Simd, const SATURATED: bool>(
    s: S,
    c: &[S::F; 4],
    alpha: bool,
) -> S::I {
    let a = if alpha {
        unorm8_if::<S, SATURATED>(s, c[3])
    } else {
        s.splat_i(0)
    };
    unorm8_if::<S, SATURATED>(s, c[2])
        | unorm8_if::<S, SATURATED>(s, c[1]).shl(8)
        | unorm8_if::<S, SATURATED>(s, c[0]).shl(16)
        | a.shl(24)
}

/// A saturated colour (every channel in [0, 1], not NaN) packed as the
/// fast merger packs it ([`pack_unorm8`]), alpha included.
#[inline(always)]
pub(crate) fn pack_saturated<S: Simd>(s: S, c: &[S::F; 4]) -> S::I {
    pack_unorm8::<S, true>(s, c, true)
}

/// [`unorm8`], without its clamp when `SATURATED` (`v` already in [0, 1]).
#[inline(always)]
fn unorm8_if<S: Simd, const SATURATED: bool>(s: S, v: S::F) -> S::I {
    if SATURATED {
        (v * s.splat(255.0) + s.splat(0.5)).to_i32()
    } else {
        unorm8(s, v)
    }
}

/// A colour channel clamped to [0, 1] as an 8-bit UNORM (as the output merger's A8R8G8B8 path clamps).
#[inline(always)]
fn unorm8<S: Simd>(s: S, v: S::F) -> S::I {
    (v.max(s.splat(0.0)).min(s.splat(1.0)) * s.splat(255.0) + s.splat(0.5)).to_i32()
}
