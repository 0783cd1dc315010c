//! The Warp sampler's shortcut for its most common request: implicit LOD
//! on a 2D texture in a 4-byte packed format (no sRGB, no depth
//! comparison) with LINEAR min and mag filters, every lane reading the
//! same mip level (or the same two).
//!
//! Job: [`Slot::sample_quick`], small enough to inline into a pixel
//! stage's per-stamp code. It computes the footprint, the isotropic LOD,
//! the mip levels and the bilinear taps with the very operations of
//! [`Slot::sample_warp`] (through the same helpers: `iso_len2_v`,
//! `log2_v`, `Slot::mip_levels`, `Slot::uniform_level`,
//! `Slot::bilinear_fast`), and leaves out what such a request never needs
//! there: cube faces, point and anisotropic lanes, the per-lane level
//! fallback, and, when there is no LOD bias and every lane magnifies, the
//! logarithm itself. Slots of 8-bit channels under WRAP or CLAMP go on to
//! the leaner kernel of `bytes` once the levels are known.
//!
//! Invariants: returns None (the caller then runs `sample_warp`) whenever
//! the request is not of that shape, and otherwise exactly what
//! `sample_warp` returns.

// Index loops keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use super::lod::{Footprint, clamp_lod_v, iso_len2_v, log2_v};
use super::{Dim, Filt, Mip, Slot};
use crate::simd::{FloatV, MaskV, Simd};

/// What [`Slot::quick_lod`] found.
enum QuickLod<S: Simd> {
    /// Every active lane magnifies: the lanes that do (the rest are inactive).
    Magnified(S::M),
    /// The clamped LOD of every lane.
    Value(S::F),
}

impl Slot {
    /// Whether [`Slot::sample_quick`] can serve this slot (decided once, when the slot is made).
    pub(super) fn quick_shape(&self) -> bool {
        self.dim == Dim::Tex2D
            && matches!(
                self.decoder,
                super::decode::Decoder::Packed { bytes: 4, .. }
            )
            && !self.srgb
            && self.compare.is_none()
            && self.min == Filt::Linear
            && self.mag == Filt::Linear
    }

    /// `sample_warp` with `Lod::Implicit { ddx, ddy }` at `c` for the
    /// `active` lanes, when the slot and the lanes' levels allow the
    /// shortcut (see the module docs); None otherwise.
    #[inline(always)]
    pub(crate) fn sample_quick<S: Simd>(
        &self,
        s: S,
        c: [S::F; 3],
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> Option<[S::F; 4]> {
        if !self.quick {
            return None;
        }
        let (l0, l1, f) = self.quick_levels(s, ddx, ddy, active);
        if let Some(plan) = &self.bytes {
            return plan.sample(s, self, [c[0], c[1]], (l0, l1, f), active);
        }
        let lv0 = self.uniform_level(s, l0, active)?;
        let c0 = self.bilinear_fast(s, &lv0, c[0], c[1]);
        let second = f.ne(s.splat(0.0)) & active;
        let c1 = if second.any() {
            let lv1 = self.uniform_level(s, l1, second)?;
            Some(self.bilinear_fast(s, &lv1, c[0], c[1]))
        } else {
            None
        };
        Some(self.blend_and_divide(s, c0, c1, (f, second), active))
    }

    /// [`Slot::sample_quick`] quantised for an 8-bit target, as
    /// `BytePlan::sample_packed` describes; None when the slot has no
    /// byte plan or the request is not the shortcut's.
    #[inline(always)]
    pub(crate) fn sample_quick_packed<S: Simd>(
        &self,
        s: S,
        c: [S::F; 3],
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> Option<S::I> {
        if !self.quick {
            return None;
        }
        let plan = self.bytes.as_ref()?;
        let uv = [c[0], c[1]];
        match self.quick_lod(s, ddx, ddy, active) {
            // `mip_levels` of magnified lanes: one level, no blend, so no
            // per-lane level to compare.
            QuickLod::Magnified(_) => {
                let level = if self.mip == Mip::None {
                    self.base_none
                } else {
                    self.base
                };
                plan.sample_packed_level(s, self, uv, level as usize, active)
            }
            QuickLod::Value(value) => {
                let levels = self.mip_levels(s, value, value.le(s.splat(0.0)));
                plan.sample_packed(s, self, uv, levels, active)
            }
        }
    }

    /// The quick paths' last steps, as `sample_warp`'s: level 0's colour
    /// `c0`, blended towards level 1's `c1` by `f` on the `second` lanes
    /// (`c0 + (c1 - c0) f`), divided by the format's divisors, 0 outside
    /// `active`.
    #[inline(always)]
    pub(super) fn blend_and_divide<S: Simd>(
        &self,
        s: S,
        mut out: [S::F; 4],
        c1: Option<[S::F; 4]>,
        (f, second): (S::F, S::M),
        active: S::M,
    ) -> [S::F; 4] {
        if let Some(c1) = c1 {
            for i in 0..4 {
                out[i] = second.select_f(out[i] + (c1[i] - out[i]) * f, out[i]);
            }
        }
        let zero = s.splat(0.0);
        for i in 0..4 {
            out[i] = active.select_f(out[i] / s.splat(self.divisor[i]), zero);
        }
        out
    }

    /// The mip levels and blend weight of a quick-shaped slot's implicit
    /// LOD (`mip_levels` of `sample_warp`'s isotropic LOD).
    #[inline(always)]
    fn quick_levels<S: Simd>(
        &self,
        s: S,
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> (S::F, S::F, S::F) {
        match self.quick_lod(s, ddx, ddy, active) {
            QuickLod::Magnified(mag) => self.mip_levels(s, s.splat(0.0), mag),
            QuickLod::Value(value) => self.mip_levels(s, value, value.le(s.splat(0.0))),
        }
    }

    /// The isotropic LOD of a quick-shaped slot's implicit-LOD request, as
    /// `sample_warp` computes it, or only the fact that every active lane
    /// magnifies (then the value does not matter).
    #[inline(always)]
    fn quick_lod<S: Simd>(
        &self,
        s: S,
        ddx: [S::F; 3],
        ddy: [S::F; 3],
        active: S::M,
    ) -> QuickLod<S> {
        // A 2D texture's third axis has size 0 in the footprint.
        let scale = [
            s.splat(self.size0[0]),
            s.splat(self.size0[1]),
            s.splat(self.size0[2] * 0.0),
        ];
        let fp = Footprint {
            dx: [ddx[0] * scale[0], ddx[1] * scale[1], ddx[2] * scale[2]],
            dy: [ddy[0] * scale[0], ddy[1] * scale[1], ddy[2] * scale[2]],
        };
        let len2 = iso_len2_v(s, &fp);
        let magnified = len2.le(s.splat(1.0));
        // Both filters are LINEAR: magnification only moves the levels.
        if self.lod_bias == 0.0 && (magnified | !active).all() {
            // Every active lane's LOD is at most 0 (`iso_len2_v`), and
            // `mip_levels` ignores the value of magnified lanes.
            QuickLod::Magnified(magnified)
        } else {
            let iso = s.splat(0.5) * log2_v(s, len2);
            QuickLod::Value(clamp_lod_v(s, iso + s.splat(self.lod_bias)))
        }
    }
}
