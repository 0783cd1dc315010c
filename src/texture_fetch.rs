//! The texture-fetch interface: what the pixel and vertex stages (shader
//! interpreters, fixed-function texture stages) ask of the sampler, and the
//! lane layout that derivatives are computed from.
//!
//! Two forms: [`TextureFetch`] samples 8 lanes at once for the Warp path;
//! [`TextureFetchScalar`] samples one lane for the Reference path. Both
//! receive coordinates after any projective divide (texldp divides before
//! calling) and a [`Lod`] saying how the mip level is chosen. Which texture,
//! filter and address modes apply is the implementor's business (it holds
//! the bound textures and sampler states of the draw).
//!
//! Lane layout of pixel work (the rasterizer's 4x2 stamp, `crate::pixel`):
//! lane `i` is the pixel `(i & 3, i >> 2)` of the stamp, so the two 2x2 quads
//! are lanes {0, 1, 4, 5} and {2, 3, 6, 7}. Derivatives are "fine"
//! (rasterization.md 18): `ddx` of lane `i` is `v[i | 1] - v[i & !1]` (its
//! own row) and `ddy` is `v[i | 4] - v[i & !4]` (its own column); texture
//! LOD uses the same differences.

use crate::simd::{FloatV, Simd};

/// How a texture fetch chooses its level of detail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lod<T> {
    /// From the screen-space derivatives of (u, v, w) (texld in pixel shaders, fixed-function stages).
    Implicit {
        /// d(u, v, w)/dx.
        ddx: [T; 3],
        /// d(u, v, w)/dy.
        ddy: [T; 3],
    },
    /// texldb: the implicit level plus a per-lane bias.
    Bias {
        /// d(u, v, w)/dx.
        ddx: [T; 3],
        /// d(u, v, w)/dy.
        ddy: [T; 3],
        /// Added to the computed level of detail.
        bias: T,
    },
    /// texldl and vertex texture fetch: an explicit level of detail per lane.
    Level(T),
    /// texldd: explicit gradients.
    Grad {
        /// d(u, v, w)/dx.
        ddx: [T; 3],
        /// d(u, v, w)/dy.
        ddy: [T; 3],
    },
}

/// Sampler slots, as the device numbers them: 0..15 pixel samplers (and the
/// fixed-function stages 0..7), 16 the displacement-map sampler, 17..20 the
/// vertex samplers D3DVERTEXTEXTURESAMPLER0..3.
pub type SamplerSlot = usize;

/// 8-lane texture fetch for the Warp path.
pub trait TextureFetch<S: Simd> {
    /// Samples `slot` at `coords` = (u, v, w, q) for the lanes in `active`
    /// (cube maps take (u, v, w) as a direction; depth textures compare
    /// against the third coordinate). Returns (r, g, b, a) per lane; lanes
    /// outside `active` return zeros. A slot with no texture returns
    /// (0, 0, 0, 1), as D3D9 does.
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4];
}

/// One-lane texture fetch for the Reference path; same meaning as [`TextureFetch::sample`].
pub trait TextureFetchScalar {
    /// Samples `slot` at `coords` with `lod`.
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4];
}

/// Fine x derivative of `v` (see the module docs for the lane layout).
#[inline(always)]
pub fn ddx<S: Simd>(_s: S, v: S::F) -> S::F {
    v.ddx()
}

/// Fine y derivative of `v` (see the module docs for the lane layout).
#[inline(always)]
pub fn ddy<S: Simd>(_s: S, v: S::F) -> S::F {
    v.ddy()
}

/// The scalar forms of [`ddx`] and [`ddy`] over the 8 values of a stamp, for the Reference path.
pub fn quad_derivatives(values: &[f32; 8]) -> ([f32; 8], [f32; 8]) {
    let dx = std::array::from_fn(|i| values[i | 1] - values[i & !1]);
    let dy = std::array::from_fn(|i| values[i | 4] - values[i & !4]);
    (dx, dy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    #[test]
    fn fine_derivatives_follow_the_stamp_layout() {
        let s = Portable;
        // Lanes 0..4 are row 0 (x = 0..3), lanes 4..8 row 1.
        let v = s.f32s([0.0, 1.0, 4.0, 9.0, 10.0, 12.0, 20.0, 30.0]);
        // ddx: within each pair of a row: (0,1), (2,3).
        assert_eq!(
            ddx(s, v).to_array(),
            [1.0, 1.0, 5.0, 5.0, 2.0, 2.0, 10.0, 10.0]
        );
        // ddy: lane i against lane i + 4 in its column.
        assert_eq!(
            ddy(s, v).to_array(),
            [10.0, 11.0, 16.0, 21.0, 10.0, 11.0, 16.0, 21.0]
        );
        let (dx, dy) = quad_derivatives(&v.to_array());
        assert_eq!(dx, ddx(s, v).to_array());
        assert_eq!(dy, ddy(s, v).to_array());
    }
}
