//! Texture instructions of the 8-lane interpreter: coordinates, level of
//! detail (implicit derivatives from the 2x2 quads, bias, explicit level,
//! gradients), the call into [`TextureFetch`], the sampler swizzle.

use crate::simd::{FloatV, MaskV, Simd, map4};
use crate::texture_fetch::{Lod, ddx, ddy};

use super::super::op::{Op, TexMode};
use super::Machine;

impl<S: Simd> Machine<'_, S> {
    /// Samples for `op` (a `Kind::Tex`) in the lanes of `m`; returns the
    /// swizzled texel (the caller writes it).
    #[inline(always)]
    pub(super) fn texture(
        &mut self,
        op: &Op,
        slot: u16,
        mode: TexMode,
        swizzle: [u8; 4],
        m: S::M,
    ) -> [S::F; 4] {
        let s = self.s;
        let c = self.read(&op.src[0]);
        let (coords, lod) = match mode {
            TexMode::Implicit => {
                let (dx, dy) = derivatives(s, &c);
                (c, Lod::Implicit { ddx: dx, ddy: dy })
            }
            TexMode::Project => {
                let w = c[3];
                let q = [
                    projected(s, c[0], w),
                    projected(s, c[1], w),
                    projected(s, c[2], w),
                    w,
                ];
                let (dx, dy) = derivatives(s, &q);
                (q, Lod::Implicit { ddx: dx, ddy: dy })
            }
            TexMode::Bias => {
                let (dx, dy) = derivatives(s, &c);
                (
                    c,
                    Lod::Bias {
                        ddx: dx,
                        ddy: dy,
                        bias: c[3],
                    },
                )
            }
            TexMode::Level => (c, Lod::Level(c[3])),
            TexMode::Level0 => (c, Lod::Level(s.splat(0.0))),
            TexMode::Grad => {
                let gx = self.read(&op.src[2]);
                let gy = self.read(&op.src[3]);
                (
                    c,
                    Lod::Grad {
                        ddx: [gx[0], gx[1], gx[2]],
                        ddy: [gy[0], gy[1], gy[2]],
                    },
                )
            }
        };
        let t = self.fetch.sample(s, slot as usize, coords, lod, m);
        map4!(swizzle, |k| t[k as usize & 3])
    }
}

/// The implicit x and y derivatives of texture coordinate `c`'s first three
/// components (a function, not a closure: see [`crate::simd::each`]).
#[inline(always)]
fn derivatives<S: Simd>(s: S, c: &[S::F; 4]) -> ([S::F; 3], [S::F; 3]) {
    (
        [ddx(s, c[0]), ddx(s, c[1]), ddx(s, c[2])],
        [ddy(s, c[0]), ddy(s, c[1]), ddy(s, c[2])],
    )
}

/// `x / w`, with 0 where that is NaN (a projected coordinate).
#[inline(always)]
fn projected<S: Simd>(s: S, x: S::F, w: S::F) -> S::F {
    let r = x / w;
    r.ne(r).select_f(s.splat(0.0), r)
}
