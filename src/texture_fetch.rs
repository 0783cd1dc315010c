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
//! Lane layout of pixel work (shared with the rasterizer): 8 lanes are two
//! 2x2 quads; lane `i` is quad `i / 4`, pixel `(i % 2, (i / 2) % 2)` inside
//! it. Derivatives are per quad ("coarse", as D3D9 hardware computes them):
//! `ddx = v(1,0) - v(0,0)` and `ddy = v(0,1) - v(0,0)` for all four lanes.

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

/// Coarse per-quad x derivative of `v` (see the module docs for the lane layout).
#[inline(always)]
pub fn ddx<S: Simd>(s: S, v: S::F) -> S::F {
    let a = v.to_array();
    s.f32s(std::array::from_fn(|i| {
        let q = i & !3;
        a[q + 1] - a[q]
    }))
}

/// Coarse per-quad y derivative of `v` (see the module docs for the lane layout).
#[inline(always)]
pub fn ddy<S: Simd>(s: S, v: S::F) -> S::F {
    let a = v.to_array();
    s.f32s(std::array::from_fn(|i| {
        let q = i & !3;
        a[q + 2] - a[q]
    }))
}

/// The scalar forms of [`ddx`] and [`ddy`] over the 8 values of two quads, for the Reference path.
pub fn quad_derivatives(values: &[f32; 8]) -> ([f32; 8], [f32; 8]) {
    let dx = std::array::from_fn(|i| values[(i & !3) + 1] - values[i & !3]);
    let dy = std::array::from_fn(|i| values[(i & !3) + 2] - values[i & !3]);
    (dx, dy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    #[test]
    fn coarse_derivatives_follow_the_lane_layout() {
        let s = Portable;
        // Quad 0: v = x + 10 y; quad 1: v = 3x + 5y + 100.
        let v = s.f32s([0.0, 1.0, 10.0, 11.0, 100.0, 103.0, 105.0, 108.0]);
        assert_eq!(
            ddx(s, v).to_array(),
            [1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0]
        );
        assert_eq!(
            ddy(s, v).to_array(),
            [10.0, 10.0, 10.0, 10.0, 5.0, 5.0, 5.0, 5.0]
        );
        let (dx, dy) = quad_derivatives(&v.to_array());
        assert_eq!(dx, ddx(s, v).to_array());
        assert_eq!(dy, ddy(s, v).to_array());
    }
}
