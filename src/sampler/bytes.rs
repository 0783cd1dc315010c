//! The quick path's kernel for the commonest textures: four 8-bit channels
//! per 32-bit texel (A8R8G8B8, X8R8G8B8, A8B8G8R8, X8B8G8R8 and DXT, which
//! samples as decoded RGBA8), every axis WRAP on a power-of-two size or
//! CLAMP, bilinear on one level or two.
//!
//! Job: [`BytePlan`] is decided once, when the slot is made: per channel the
//! bit position of its byte (or the constant 1 of an X8 format), per level
//! the row pitch, the texel-space scale and the addressing of each axis as
//! two integers, so that a texel index is `(t & wrap).max(0).min(last)`:
//! under WRAP `wrap = n - 1` (the mask is the whole mode, the clamp a no-op),
//! under CLAMP `wrap = -1` (no mask) and the clamp is the mode.
//! [`BytePlan::sample`] then runs with no per-call decisions beyond "do all
//! lanes read the same level": no channel-layout match, no border, no
//! address-mode dispatch, so the compiler keeps the eight-lane values in
//! registers instead of spilling them around branches.
//!
//! It computes the values of `Slot::sample_warp`: the texel-space
//! coordinates and `split_fixed` (the integer form of `split_v`, used by
//! `fast` under the same condition) are the same operations. The filter
//! itself is exact in both: `bilinear_fast` sums `t * k` over the four taps
//! in floats, where each byte `t` < 2^8 and each weight `k` is a multiple
//! of 2^-16, so every product and partial sum is a multiple of 2^-16 below
//! 2^8 and none rounds. Here the same sum, times 2^16, is an integer `N`
//! below 2^24, computed in integers (see [`BytePlan::bilinear`]) and
//! converted exactly. One level: `N / (d 2^16)` is one correctly rounded
//! division of the same real number as `bilinear_fast`'s `(N 2^-16) / d`,
//! so the same float (the quotient is a normal number: `d` is checked).
//! Two levels: `N 2^-16` is `bilinear_fast`'s sum, blended and divided as
//! `sample_quick` does. A constant channel reads `1` (`N` = 2^16) where
//! `bilinear_fast` computes `1 w0 + 1 w1 + 1 w2 + 1 w3`: the weights are
//! multiples of 2^-16 summing to 1, so every partial sum is exact and that
//! sum is 1. CLAMP of an integer index `t` (|t| < 2^22) in integers equals
//! `address_v`'s `max(t, 0).min(n - 1)` in floats.
//!
//! Invariants: every index is inside its level (`wrap`/`last` bound it,
//! and `BytePlan::new` checks that the level's words cover
//! `pitch * (h - 1) + w`); None (the caller samples the general way)
//! whenever the lanes read different levels or a coordinate is too large
//! for the integer split.

// Index loops keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use super::Slot;
use super::decode::{Chan, Decoder, Texels};
use super::fast::{shared_lane, split_fixed};
use crate::simd::{FloatV, IntV, MaskV, Simd};
use crate::state::TextureAddress;

/// One level as the byte path reads it.
#[derive(Clone, Copy, Debug)]
struct ByteLevel {
    /// 32-bit words from one row to the next.
    pitch: i32,
    /// Width and height as f32 (the texel-space scale).
    size: [f32; 2],
    /// Per axis, ANDed into an index: `n - 1` under WRAP, all ones under CLAMP.
    wrap: [i32; 2],
    /// Per axis `n - 1`, the upper clamp.
    last: [i32; 2],
}

/// What the byte path knows of a slot (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct BytePlan {
    /// Per channel (r, g, b, a): which byte of the texel word holds it
    /// (0 the lowest), None for a constant 1.
    bytes: [Option<usize>; 4],
    /// Per channel, the slot's divisor times 2^16 (exact).
    divisor16: [f32; 4],
    /// Every 8-bit channel's divisor is 255 and every constant channel's 1,
    /// so [`BytePlan::sample_packed`] may quantise in integers, and the
    /// channels lie in one of the two layouts it packs without lookups.
    packs: bool,
    /// One entry per mip level of the slot.
    levels: Vec<ByteLevel>,
}

impl BytePlan {
    /// The plan of `slot`, when it is of the byte path's shape: the quick
    /// path's (2D, 4-byte packed, no sRGB or comparison, LINEAR min and mag),
    /// 8-bit or constant-1 channels, and per axis WRAP on power-of-two sizes
    /// (every level) or CLAMP.
    pub(super) fn new(slot: &Slot) -> Option<BytePlan> {
        if !slot.quick {
            return None;
        }
        let Decoder::Packed { bytes: 4, chans } = slot.decoder else {
            return None;
        };
        let mut bytes = [None; 4];
        for (b, c) in bytes.iter_mut().zip(chans) {
            *b = match c {
                Chan::Field { shift, bits: 8 } if shift % 8 == 0 && shift <= 24 => {
                    Some(shift as usize / 8)
                }
                Chan::Const(1.0) => None,
                _ => return None,
            };
        }
        // In [1, 2^20], `d 2^16` is exact and `N / (d 2^16)` normal for N >= 1.
        let mut divisor16 = [0.0; 4];
        for (d16, &d) in divisor16.iter_mut().zip(&slot.divisor) {
            if !(1.0..=1_048_576.0).contains(&d) {
                return None;
            }
            *d16 = d * 65536.0;
        }
        let levels = slot
            .levels
            .iter()
            .map(|l| {
                let Texels::Bytes(b) = &l.texels else {
                    return None;
                };
                let pitch = i32::try_from(l.row_pitch / 4).ok()?;
                let (w, h) = (i32::try_from(l.width).ok()?, i32::try_from(l.height).ok()?);
                if !l.row_pitch.is_multiple_of(4) || w == 0 || h == 0 || pitch < w {
                    return None;
                }
                // The last texel's word must lie inside the level (and inside i32).
                let end = i64::from(pitch) * i64::from(h - 1) + i64::from(w);
                if end > (b.len() / 4) as i64 || end > i64::from(i32::MAX) {
                    return None;
                }
                let mut wrap = [0; 2];
                for (a, n) in [w, h].into_iter().enumerate() {
                    wrap[a] = match slot.address[a] {
                        TextureAddress::Wrap if (n as u32).is_power_of_two() => n - 1,
                        TextureAddress::Clamp => -1,
                        _ => return None,
                    };
                }
                Some(ByteLevel {
                    pitch,
                    size: [l.width as f32, l.height as f32],
                    wrap,
                    last: [w - 1, h - 1],
                })
            })
            .collect::<Option<Vec<_>>>()?;
        // B, G, R in bytes 0, 1, 2 (A8R8G8B8) or R, G, B (A8B8G8R8), alpha
        // in byte 3 or constant.
        let layout = matches!(
            bytes,
            [Some(2), Some(1), Some(0), Some(3) | None]
                | [Some(0), Some(1), Some(2), Some(3) | None]
        );
        let packs = layout
            && bytes
                .iter()
                .zip(&slot.divisor)
                .all(|(b, &d)| d == if b.is_some() { 255.0 } else { 1.0 });
        Some(BytePlan {
            bytes,
            divisor16,
            packs,
            levels,
        })
    }

    /// `sample_quick`'s result for the `active` lanes at `(u, v)`, given
    /// the levels `l0`, `l1` and weight `f` of `Slot::mip_levels`; None when
    /// the lanes do not share their levels or the coordinates are beyond
    /// the integer split.
    #[inline(always)]
    pub(super) fn sample<S: Simd>(
        &self,
        s: S,
        slot: &Slot,
        [u, v]: [S::F; 2],
        (l0, l1, f): (S::F, S::F, S::F),
        active: S::M,
    ) -> Option<[S::F; 4]> {
        let zero = s.splat(0.0);
        let (lv, words) = self.shared_level(slot, s, l0, active)?;
        let mut n0 = self.bilinear(s, lv, words, u, v)?;
        let second = f.ne(zero) & active;
        if !second.any() {
            for i in 0..4 {
                n0[i] = active.select_f(n0[i] / s.splat(self.divisor16[i]), zero);
            }
            return Some(n0);
        }
        let (lv, words) = self.shared_level(slot, s, l1, second)?;
        let mut n1 = self.bilinear(s, lv, words, u, v)?;
        let unit = s.splat(1.0 / 65536.0);
        for i in 0..4 {
            n0[i] = n0[i] * unit;
            n1[i] = n1[i] * unit;
        }
        Some(slot.blend_and_divide(s, n0, Some(n1), (f, second), active))
    }

    /// [`BytePlan::sample`] quantised as the fast merger quantises a
    /// saturated colour (`(c * 255 + 0.5)` truncated), packed B, G, R, A
    /// from the low byte up; 0 outside `active`. On one level the bytes
    /// come straight from the filter's integer sums: with divisor 255,
    /// `c = N / (255 2^16)` rounded, and `(c * 255 + 0.5)` truncated is
    /// `(N + 2^15) >> 16` for every `N` up to `255 2^16` (checked
    /// exhaustively by a test); a constant channel reads 1, byte 255.
    #[inline(always)]
    pub(super) fn sample_packed<S: Simd>(
        &self,
        s: S,
        slot: &Slot,
        [u, v]: [S::F; 2],
        (l0, l1, f): (S::F, S::F, S::F),
        active: S::M,
    ) -> Option<S::I> {
        let second = f.ne(s.splat(0.0)) & active;
        if !self.packs || second.any() {
            return self.sample_packed_float(s, slot, [u, v], (l0, l1, f), active);
        }
        let first = shared_lane(s, l0, active)?;
        // `first` is a level index in [0, last] (mip_levels clamps it).
        self.sample_packed_level(s, slot, [u, v], first as usize, active)
    }

    /// [`BytePlan::sample_packed`] when every active lane reads level `i`
    /// alone (no blend): the integer route.
    #[inline(always)]
    pub(super) fn sample_packed_level<S: Simd>(
        &self,
        s: S,
        slot: &Slot,
        [u, v]: [S::F; 2],
        i: usize,
        active: S::M,
    ) -> Option<S::I> {
        if !self.packs {
            let level = s.splat(i as f32);
            let levels = (level, level, s.splat(0.0));
            return self.sample_packed_float(s, slot, [u, v], levels, active);
        }
        let (lv, words) = self.level_words(slot, i)?;
        let n = self.bilinear_sums(s, lv, words, u, v)?;
        let half = s.splat_i(1 << 15);
        // Texel bytes 0..4 quantised (constant channels overwrite theirs).
        let q = [
            (n[0] + half).shr(16),
            (n[1] + half).shr(16),
            (n[2] + half).shr(16),
            (n[3] + half).shr(16),
        ];
        // Fixed shifts for the two layouts `packs` admits: indexing `q` by
        // the plan's byte numbers would send it through memory.
        let (b, r) = if self.bytes[0] == Some(0) {
            (q[2], q[0])
        } else {
            (q[0], q[2])
        };
        let a = if self.bytes[3].is_some() {
            q[3]
        } else {
            s.splat_i(255)
        };
        let word = b | q[1].shl(8) | r.shl(16) | a.shl(24);
        Some(active.select_i(word, s.splat_i(0)))
    }

    /// [`BytePlan::sample`]'s colour packed as the fast merger packs it:
    /// the route where the integer sums do not give the bytes.
    #[inline(always)]
    fn sample_packed_float<S: Simd>(
        &self,
        s: S,
        slot: &Slot,
        uv: [S::F; 2],
        levels: (S::F, S::F, S::F),
        active: S::M,
    ) -> Option<S::I> {
        let c = self.sample(s, slot, uv, levels, active)?;
        Some(crate::driver::pack::pack_saturated(s, &c))
    }

    /// The level every lane of `lanes` reads and its words; None when they differ.
    #[inline(always)]
    fn shared_level<'a, S: Simd>(
        &'a self,
        slot: &'a Slot,
        s: S,
        l: S::F,
        lanes: S::M,
    ) -> Option<(&'a ByteLevel, &'a [u32])> {
        let first = shared_lane(s, l, lanes)?;
        // `first` is a level index in [0, last] (mip_levels clamps it).
        self.level_words(slot, first as usize)
    }

    /// Level `i` and its words; None past the last level.
    #[inline(always)]
    fn level_words<'a>(&'a self, slot: &'a Slot, i: usize) -> Option<(&'a ByteLevel, &'a [u32])> {
        let lv = self.levels.get(i)?;
        let Texels::Bytes(b) = &slot.levels.get(i)?.texels else {
            return None;
        };
        let words: &[u32] = bytemuck::try_cast_slice(&b[..b.len() / 4 * 4]).ok()?;
        Some((lv, words))
    }

    /// Bilinear filtering of every lane at (u, v) on one level: per channel
    /// the exact filter sum times 2^16 (see the module docs), before the
    /// divisor.
    #[inline(always)]
    fn bilinear<S: Simd>(
        &self,
        s: S,
        lv: &ByteLevel,
        words: &[u32],
        u: S::F,
        v: S::F,
    ) -> Option<[S::F; 4]> {
        // Below 2^24, so the conversions are exact.
        let n = self.bilinear_sums(s, lv, words, u, v)?;
        let mut out = [s.splat(65536.0); 4];
        for ch in 0..4 {
            if let Some(b) = self.bytes[ch] {
                out[ch] = n[b].to_f32();
            }
        }
        Some(out)
    }

    /// [`BytePlan::bilinear`]'s sums as integers, per byte of the texel
    /// word (not per channel): each at most `255 2^16`.
    #[inline(always)]
    fn bilinear_sums<S: Simd>(
        &self,
        s: S,
        lv: &ByteLevel,
        words: &[u32],
        u: S::F,
        v: S::F,
    ) -> Option<[S::I; 4]> {
        let half = s.splat(0.5);
        let (tx, ax) = split_fixed(s, u * s.splat(lv.size[0]) - half)?;
        let (ty, ay) = split_fixed(s, v * s.splat(lv.size[1]) - half)?;
        let one_i = s.splat_i(1);
        let x0 = index(s, tx, lv.wrap[0], lv.last[0]);
        let x1 = index(s, tx + one_i, lv.wrap[0], lv.last[0]);
        let pitch = s.splat_i(lv.pitch);
        let r0 = index(s, ty, lv.wrap[1], lv.last[1]).mul_lo(pitch);
        let r1 = index(s, ty + one_i, lv.wrap[1], lv.last[1]).mul_lo(pitch);
        // Tap order (0,0), (1,0), (0,1), (1,1), as `bilinear_fast`.
        let [w00, w10, w01, w11] = s.gather_u32_quad(words, [r0, r1], [x0, x1]);
        // Weights over 256: `a` for the second tap of an axis, 256 - a the first.
        let full = s.splat_i(256);
        let (ax0, ay0) = (full - ax, full - ay);
        // Horizontal: bytes 0 and 2 ("even") and 1 and 3 ("odd") of each
        // texel in 16-bit halves of a lane, so one 32-bit multiply weights
        // two channels. Each half's sum is at most 255 * 256 < 2^16: no
        // carry crosses into the other half.
        let m = s.splat_i(0x00FF_00FF);
        let e0 = (w00 & m).mul_lo(ax0) + (w10 & m).mul_lo(ax);
        let o0 = (w00.shr(8) & m).mul_lo(ax0) + (w10.shr(8) & m).mul_lo(ax);
        let e1 = (w01 & m).mul_lo(ax0) + (w11 & m).mul_lo(ax);
        let o1 = (w01.shr(8) & m).mul_lo(ax0) + (w11.shr(8) & m).mul_lo(ax);
        // Vertical, one channel a lane: at most 255 * 2^16.
        let low = s.splat_i(0xFFFF);
        Some([
            (e0 & low).mul_lo(ay0) + (e1 & low).mul_lo(ay),
            (o0 & low).mul_lo(ay0) + (o1 & low).mul_lo(ay),
            e0.shr(16).mul_lo(ay0) + e1.shr(16).mul_lo(ay),
            o0.shr(16).mul_lo(ay0) + o1.shr(16).mul_lo(ay),
        ])
    }
}

/// Texel index `t` under an axis's addressing (see [`ByteLevel`]).
#[inline(always)]
fn index<S: Simd>(s: S, t: S::I, wrap: i32, last: i32) -> S::I {
    (t & s.splat_i(wrap)).max(s.splat_i(0)).min(s.splat_i(last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{BaseTexture, MemoryTracker, Texture, TextureDesc, full_chain};
    use crate::sampler::SamplerDesc;
    use crate::state::TextureFilter as F;
    use crate::{Format, Pool, Usage};
    use TextureAddress as A;

    /// The plan of a `w` x `h` texture of `format` under `address` and `min`.
    fn plan(format: Format, (w, h): (u32, u32), address: [A; 2], min: F) -> Option<BytePlan> {
        // A full chain; one level where the size is not a power of two (the caps' NONPOW2CONDITIONAL).
        let levels = if w.is_power_of_two() && h.is_power_of_two() {
            full_chain(w.max(h))
        } else {
            1
        };
        let desc = TextureDesc {
            format,
            usage: Usage::empty(),
            pool: Pool::Managed,
            width: w,
            height: h,
            depth: 1,
            levels,
        };
        let t = Texture::create(&MemoryTracker::new(None), desc).unwrap();
        let sampler = SamplerDesc {
            address: [address[0], address[1], A::Wrap],
            mag_filter: F::Linear,
            min_filter: min,
            mip_filter: F::Linear,
            ..SamplerDesc::default()
        };
        BytePlan::new(&Slot::new(&BaseTexture::from(t), &sampler, 16))
    }

    #[test]
    fn byte_path_takes_eight_bit_textures_under_wrap_or_clamp() {
        let p = plan(Format::A8R8G8B8, (16, 4), [A::Wrap, A::Clamp], F::Linear).unwrap();
        assert_eq!(p.bytes, [Some(2), Some(1), Some(0), Some(3)]);
        // 16x4, 8x2, 4x1, 2x1, 1x1: WRAP masks on x, CLAMP (no mask) on y.
        let got: Vec<_> = p.levels.iter().map(|l| (l.pitch, l.wrap, l.last)).collect();
        assert_eq!(
            got,
            [
                (16, [15, -1], [15, 3]),
                (8, [7, -1], [7, 1]),
                (4, [3, -1], [3, 0]),
                (2, [1, -1], [1, 0]),
                (1, [0, -1], [0, 0]),
            ]
        );
        let x8 = plan(Format::X8B8G8R8, (4, 4), [A::Clamp; 2], F::Linear).unwrap();
        assert_eq!(x8.bytes, [Some(0), Some(1), Some(2), None]);
        // DXT samples as decoded RGBA8.
        assert!(plan(Format::DXT1, (8, 8), [A::Wrap; 2], F::Linear).is_some());
        // CLAMP needs no power of two.
        assert!(plan(Format::A8R8G8B8, (12, 5), [A::Clamp; 2], F::Linear).is_some());
    }

    /// `sample_packed`'s one-level bytes: for every filter sum `N` the
    /// kernel can produce (up to `255 2^16`), `(N + 2^15) >> 16` is the
    /// byte the float path gives the merger: `N / (255 2^16)` rounded,
    /// times 255, plus 0.5, truncated.
    #[test]
    fn packed_bytes_equal_the_float_quantisation_for_every_sum() {
        let d = 255.0f32 * 65536.0;
        let mut wrong = 0u32;
        for n in 0..=255u32 * 65536 {
            let c = n as f32 / d;
            let float_path = (c * 255.0 + 0.5) as u32;
            if float_path != (n + 32768) >> 16 {
                wrong += 1;
            }
        }
        assert_eq!(wrong, 0);
        // The plan of an 8-bit texture packs; its divisors are 255 and 1.
        let p = plan(Format::X8R8G8B8, (4, 4), [A::Wrap; 2], F::Linear).unwrap();
        assert!(p.packs);
    }

    #[test]
    fn byte_path_refuses_other_shapes() {
        let no = |f, size, a, min| plan(f, size, a, min).is_none();
        // WRAP on a size that is not a power of two.
        assert!(no(Format::A8R8G8B8, (12, 4), [A::Wrap; 2], F::Linear));
        // Other address modes.
        for a in [A::Mirror, A::Border, A::MirrorOnce] {
            assert!(no(Format::A8R8G8B8, (8, 8), [A::Wrap, a], F::Linear));
        }
        // Not 8-bit channels, or not 4 bytes a texel.
        assert!(no(Format::A8, (8, 8), [A::Wrap; 2], F::Linear));
        assert!(no(Format::G16R16, (8, 8), [A::Wrap; 2], F::Linear));
        assert!(no(Format::R5G6B5, (8, 8), [A::Wrap; 2], F::Linear));
        // Not LINEAR minification (the quick path's shape).
        assert!(no(Format::A8R8G8B8, (8, 8), [A::Wrap; 2], F::Point));
    }
}
