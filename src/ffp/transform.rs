//! Transform formulas shared by both vertex paths, generic over [`Real`]:
//! blend weights (§3.2), tweening (§4), per-lane matrix products for
//! indexed blending (§3.3), the 3-D eye position (§2.2), pre-transformed
//! position fix-up (§2.3) and user clip distances (§10).
//!
//! Invariant: the operation order of each helper is the one both paths use;
//! the matrix products with per-lane matrices sum in the same order as
//! [`super::math::xform4`], so gathered and uniform matrices give the same bits.

use super::math::{Real, trunc_i32};

/// Blend weights of `k` matrices (1..4): components 0..k−2 of BLENDWEIGHT0,
/// the last `1 − Σ` (summed left to right); unused entries 0.
#[inline(always)]
pub fn weights<R: Real>(bw: [R; 4], k: u8) -> [R; 4] {
    let one = bw[0].k(1.0);
    let zero = bw[0].k(0.0);
    let k = k.clamp(1, 4) as usize;
    let mut w = [zero; 4];
    let mut sum = zero;
    for i in 0..k - 1 {
        w[i] = bw[i];
        sum = if i == 0 { bw[0] } else { sum + bw[i] };
    }
    w[k - 1] = if k == 1 { one } else { one - sum };
    w
}

/// `a·(1 − t) + b·t` per component.
#[inline(always)]
pub fn tween<R: Real, const N: usize>(a: [R; N], b: [R; N], t: R) -> [R; N] {
    let u = t.k(1.0) - t;
    let mut o = a;
    for i in 0..N {
        o[i] = a[i] * u + b[i] * t;
    }
    o
}

/// Row vector times a per-lane matrix `m[row][col]`, in [`super::math::xform4`]'s order.
#[inline(always)]
pub fn xform4v<R: Real>(v: [R; 4], m: &[[R; 4]; 4]) -> [R; 4] {
    let mut o = v;
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j] + v[3] * m[3][j];
    }
    o
}

/// Row vector times a per-lane 3x3 matrix, in [`super::math::xform3`]'s order.
#[inline(always)]
pub fn xform3v<R: Real>(v: [R; 3], m: &[[R; 3]; 3]) -> [R; 3] {
    let mut o = v;
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j];
    }
    o
}

/// The world matrix index of one blend index value: UBYTE4 components are
/// exact integers; a FLOAT1 index is rounded (`floor(v + 0.5)`). Clamped to 0..255.
#[inline(always)]
pub fn matrix_index(v: f32, round: bool) -> usize {
    let r = if round { (v + 0.5).floor() } else { v };
    trunc_i32(r).clamp(0, 255) as usize
}

/// The 3-D eye position `P_eye.xyz / P_eye.w`.
#[inline(always)]
pub fn eye3<R: Real>(pe: [R; 4]) -> [R; 3] {
    [pe[0] / pe[3], pe[1] / pe[3], pe[2] / pe[3]]
}

/// A pre-transformed position with rhw 0 read as 1 (§2.3 decision).
#[inline(always)]
pub fn pretransformed_position<R: Real>(p: [R; 4]) -> [R; 4] {
    let w = R::sel(p[3].eq(p[3].k(0.0)), p[3].k(1.0), p[3]);
    [p[0], p[1], p[2], w]
}

/// `a·x + b·y + c·z + d·w` of an eye-space position and an eye-space plane.
#[inline(always)]
pub fn clip_distance<R: Real>(pe: [R; 4], plane: [f32; 4]) -> R {
    let x = pe[0];
    pe[0] * x.k(plane[0]) + pe[1] * x.k(plane[1]) + pe[2] * x.k(plane[2]) + pe[3] * x.k(plane[3])
}
