//! Cube maps: face selection, face coordinates and their derivatives, and
//! the texel across a face edge (textures.md section 6).
//!
//! Job: a direction (x, y, z) → face (D3DCUBEMAP_FACES order), (u, v) in
//! [0, 1] on that face and the derivatives of (u, v); and, for bilinear taps
//! that fall one texel off a face, the texel of the adjacent face.
//!
//! The largest magnitude picks the axis, ties resolved Z, then Y, then X
//! (SPEC 7.18.7); faces use the table of textures.md 6:
//!
//! | face | sc | tc | ma |
//! |---|---|---|---|
//! | +x 0 | -z | -y | x |  | -x 1 | +z | -y | x |
//! | +y 2 | +x | +z | y |  | -y 3 | +x | -z | y |
//! | +z 4 | +x | -y | z |  | -z 5 | -x | -y | z |
//!
//! Invariants: both forms compute `sign = ±1` and multiply by it (never
//! negate by other means), so scalar and 8-lane results are bit-identical;
//! [`across_edge`] is exact integer arithmetic.

use crate::simd::{FloatV, IntV, MaskV, Simd, each};

/// A face choice and the signed components (sc, tc, ma) of a vector on it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaceSel<B> {
    z: B,
    y: B,
    neg: B,
}

/// Chooses the face of direction `d`.
#[inline]
pub(crate) fn select(d: [f32; 3]) -> FaceSel<bool> {
    let (ax, ay, az) = (d[0].abs(), d[1].abs(), d[2].abs());
    let z = az >= ay && az >= ax;
    let y = !z && ay >= ax;
    let major = if z {
        d[2]
    } else if y {
        d[1]
    } else {
        d[0]
    };
    FaceSel {
        z,
        y,
        neg: major < 0.0,
    }
}

impl FaceSel<bool> {
    /// D3DCUBEMAP_FACES number of the face.
    pub(crate) fn face(&self) -> u32 {
        let base = if self.z {
            4
        } else if self.y {
            2
        } else {
            0
        };
        base + u32::from(self.neg)
    }

    /// (sc, tc, ma) of vector `v` on this face.
    // Multiplying by -1 (not negating) is what the 8-lane form does.
    #[allow(clippy::neg_multiply)]
    #[inline]
    pub(crate) fn components(&self, v: [f32; 3]) -> [f32; 3] {
        let sign = if self.neg { -1.0 } else { 1.0 };
        if self.z {
            [v[0] * sign, v[1] * -1.0, v[2] * sign]
        } else if self.y {
            [v[0], v[2] * sign, v[1] * sign]
        } else {
            [v[2] * (0.0 - sign), v[1] * -1.0, v[0] * sign]
        }
    }
}

/// The 8-lane form of [`select`].
#[inline(always)]
pub(crate) fn select_v<S: Simd>(s: S, d: [S::F; 3]) -> FaceSel<S::M> {
    let abs = |v: S::F| (v.to_bits() & s.splat_i(0x7FFF_FFFF)).cast_f32();
    let (ax, ay, az) = (abs(d[0]), abs(d[1]), abs(d[2]));
    let z = az.ge(ay) & az.ge(ax);
    let y = !z & ay.ge(ax);
    let major = z.select_f(d[2], y.select_f(d[1], d[0]));
    FaceSel {
        z,
        y,
        neg: major.lt(s.splat(0.0)),
    }
}

impl<M: MaskV> FaceSel<M> {
    /// Face numbers per lane.
    #[inline(always)]
    pub(crate) fn face_v(&self, s: impl Simd<M = M, I = M::I>) -> M::I {
        let base = self
            .z
            .select_i(s.splat_i(4), self.y.select_i(s.splat_i(2), s.splat_i(0)));
        base + self.neg.select_i(s.splat_i(1), s.splat_i(0))
    }

    /// The 8-lane form of [`FaceSel::components`].
    #[inline(always)]
    pub(crate) fn components_v<S: Simd<M = M, F = M::F>>(&self, s: S, v: [S::F; 3]) -> [S::F; 3] {
        let sign = self.neg.select_f(s.splat(-1.0), s.splat(1.0));
        let m1 = s.splat(-1.0);
        let zc = [v[0] * sign, v[1] * m1, v[2] * sign];
        let yc = [v[0], v[2] * sign, v[1] * sign];
        let xc = [v[2] * (s.splat(0.0) - sign), v[1] * m1, v[0] * sign];
        each!(|i| self.z.select_f(zc[i], self.y.select_f(yc[i], xc[i])); 0 1 2)
    }
}

/// Face coordinate from (sc, ma): `(sc / ma + 1) * 0.5`.
#[inline(always)]
pub(crate) fn face_coord(sc: f32, ma: f32) -> f32 {
    (sc / ma + 1.0) * 0.5
}

/// Derivative of [`face_coord`]: `(dsc ma - sc dma) / (ma ma) * 0.5`.
#[inline(always)]
pub(crate) fn face_deriv(sc: f32, ma: f32, dsc: f32, dma: f32) -> f32 {
    (dsc * ma - sc * dma) / (ma * ma) * 0.5
}

/// The 8-lane form of [`face_coord`].
#[inline(always)]
pub(crate) fn face_coord_v<S: Simd>(s: S, sc: S::F, ma: S::F) -> S::F {
    (sc / ma + s.splat(1.0)) * s.splat(0.5)
}

/// The 8-lane form of [`face_deriv`].
#[inline(always)]
pub(crate) fn face_deriv_v<S: Simd>(s: S, sc: S::F, ma: S::F, dsc: S::F, dma: S::F) -> S::F {
    (dsc * ma - sc * dma) / (ma * ma) * s.splat(0.5)
}

/// (ma axis, ma sign, sc axis, sc sign, tc axis, tc sign) per face.
const FACES: [(usize, i64, usize, i64, usize, i64); 6] = [
    (0, 1, 2, -1, 1, -1),
    (0, -1, 2, 1, 1, -1),
    (1, 1, 0, 1, 2, 1),
    (1, -1, 0, 1, 2, -1),
    (2, 1, 0, 1, 1, -1),
    (2, -1, 0, -1, 1, -1),
];

/// The texel of the face adjacent to `face` that texel (x, y) — off the
/// `n` x `n` face by one texel in exactly one of x, y — lands on: the texel
/// whose centre the reprojected direction of (x, y)'s centre hits.
pub(crate) fn across_edge(face: u32, x: i32, y: i32, n: i32) -> (u32, i32, i32) {
    let (ma, ms, sa, ss, ta, ts) = FACES[face as usize % 6];
    let n64 = i64::from(n);
    let mut d = [0i64; 3];
    d[ma] = ms * n64;
    d[sa] = ss * (2 * i64::from(x) + 1 - n64);
    d[ta] = ts * (2 * i64::from(y) + 1 - n64);
    let (ax, ay, az) = (d[0].abs(), d[1].abs(), d[2].abs());
    let axis = if az >= ay && az >= ax {
        2
    } else if ay >= ax {
        1
    } else {
        0
    };
    let nf = (2 * axis + usize::from(d[axis] < 0)) as u32;
    let (_, _, sa, ss, ta, ts) = FACES[nf as usize];
    let m = d[axis].abs();
    let coord = |c: i64| ((n64 * (c + m)) / (2 * m)).clamp(0, n64 - 1) as i32;
    (nf, coord(ss * d[sa]), coord(ts * d[ta]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    #[test]
    fn faces_and_coordinates() {
        let cases = [
            ([1.0, 0.2, -0.4], 0, [0.4, -0.2, 1.0]),
            ([-1.0, 0.2, -0.4], 1, [-0.4, -0.2, 1.0]),
            ([0.3, 2.0, 0.5], 2, [0.3, 0.5, 2.0]),
            ([0.3, -2.0, 0.5], 3, [0.3, -0.5, 2.0]),
            ([0.3, 0.1, 1.0], 4, [0.3, -0.1, 1.0]),
            ([0.3, 0.1, -1.0], 5, [-0.3, -0.1, 1.0]),
            // Ties: Z wins over Y and X, Y over X.
            ([1.0, 1.0, 1.0], 4, [1.0, -1.0, 1.0]),
            ([1.0, -1.0, 0.0], 3, [1.0, -0.0, 1.0]),
        ];
        for (d, face, comps) in cases {
            let f = select(d);
            assert_eq!(f.face(), face, "{d:?}");
            assert_eq!(f.components(d), comps, "{d:?}");
        }
        let s = Portable;
        let dv = [
            s.f32s(std::array::from_fn(|i| cases[i].0[0])),
            s.f32s(std::array::from_fn(|i| cases[i].0[1])),
            s.f32s(std::array::from_fn(|i| cases[i].0[2])),
        ];
        let fv = select_v(s, dv);
        let comps = fv.components_v(s, dv);
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(fv.face_v(s).to_array()[i] as u32, c.1);
            for (k, comp) in comps.iter().enumerate() {
                assert_eq!(comp.to_array()[i].to_bits(), c.2[k].to_bits());
            }
        }
    }

    #[test]
    fn edges_land_on_the_neighbour() {
        // +Z, one texel left of column 0 → -X's last column, same row.
        assert_eq!(across_edge(4, -1, 1, 4), (1, 3, 1));
        // +Z, right of the last column → +X's first column.
        assert_eq!(across_edge(4, 4, 2, 4), (0, 0, 2));
        // +Z, above row 0 → +Y's last row, same column.
        assert_eq!(across_edge(4, 1, -1, 4), (2, 1, 3));
        // +Z, below the last row → -Y's first row.
        assert_eq!(across_edge(4, 2, 4, 4), (3, 2, 0));
        // +X above row 0 → +Y, rightmost column, row mirrored along z.
        assert_eq!(across_edge(0, 0, -1, 4), (2, 3, 3));
        // Round trip: stepping back across the edge returns to the start face.
        for face in 0..6 {
            for (x, y) in [(-1, 1), (4, 2), (0, -1), (3, 4)] {
                let (f2, x2, y2) = across_edge(face, x, y, 4);
                assert_ne!(f2, face);
                assert!((0..4).contains(&x2) && (0..4).contains(&y2));
            }
        }
    }
}
