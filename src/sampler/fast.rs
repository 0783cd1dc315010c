//! The Warp sampler's fast path: every lane of a level call reads the same
//! 2D level of a 4-byte packed format (the common case: one texture, one
//! mip level across a quad pair).
//!
//! Job: [`Slot::uniform_level`] decides whether a call qualifies and
//! [`Slot::sample_level_fast`] samples it. With one level the texel
//! addresses are computed 8 lanes at a time as word offsets
//! (`y * pitch + x`), WRAP on power-of-two sizes is a bit mask, and the
//! gather is 8 plain loads with no per-lane level lookup. Every value is
//! the one the general path (`warp`) computes, operation for operation:
//! - the texel-space coordinates, `split_v` and the weights are the same
//!   vector operations;
//! - WRAP of an integer-valued `t` (|t| <= 2^30 + 1, the range `split_v`
//!   produces) on a power-of-two `n` is `t - floor(t / n) n`, where every
//!   step is exact, so it equals `t mod n = (t as i32) & (n - 1)`; there,
//!   when every lane's texel-space coordinate is below 2^22, `split_v` is
//!   computed in integers (`split_int`: the same values, no `floor`, which
//!   the portable backend does lane by lane), else in floats;
//! - other address modes call `address_v` as the general path does;
//! - taps are decoded and weighted in the same order.
//!
//! Invariants: lanes outside the call's mask read valid (in-range) texels
//! of the shared level and are discarded by the caller's selects; a word
//! outside the snapshot reads 0 (never panics).

use super::address::{address_v, split_v};
use super::decode::{Chan, Decoder, LevelData, Texels};
use super::warp::{Choice, Site};
use super::{Dim, Slot};
use crate::simd::{FloatV, IntV, MaskV, Simd, each4};
use crate::state::TextureAddress;

/// The level every lane of a call reads, as 32-bit words.
pub(super) struct Uniform<'a> {
    /// The level's texels, row-major, `pitch` words per row.
    words: &'a [u32],
    /// Words from one row to the next.
    pitch: i32,
    /// Width and height in texels.
    size: [u32; 2],
    /// The packed channels (r, g, b, a).
    chans: [Chan; 4],
}

/// Border lanes of a tap, None when the address mode has no border.
type Border<S> = Option<<S as Simd>::M>;

/// Lanes of one axis of a bilinear footprint: both indices, their border
/// masks (None: no border lane), and the weight of the second.
type Axis<S> = (
    [<S as Simd>::I; 2],
    Option<[<S as Simd>::M; 2]>,
    <S as Simd>::F,
);

impl Slot {
    /// The fast-path view of level `l` when every lane of `lanes` reads the
    /// same level of a 2D texture in a 4-byte packed format without sRGB or
    /// depth comparison.
    #[inline(always)]
    pub(super) fn uniform_level<S: Simd>(&self, s: S, l: S::F, lanes: S::M) -> Option<Uniform<'_>> {
        let (Dim::Tex2D, Decoder::Packed { bytes: 4, chans }, false, None) =
            (self.dim, self.decoder, self.srgb, self.compare)
        else {
            return None;
        };
        let first = shared_lane(s, l, lanes)?;
        let level: &LevelData = self.level(first as usize, 0);
        let Texels::Bytes(b) = &level.texels else {
            return None;
        };
        let words: &[u32] = bytemuck::try_cast_slice(&b[..b.len() / 4 * 4]).ok()?;
        if !level.row_pitch.is_multiple_of(4) {
            return None;
        }
        Some(Uniform {
            words,
            pitch: i32::try_from(level.row_pitch / 4).ok()?,
            size: [level.width, level.height],
            chans,
        })
    }

    /// `sample_level_warp` for a [`Uniform`] level (2D, no cube or volume).
    #[inline(always)]
    pub(super) fn sample_level_fast<S: Simd>(
        &self,
        s: S,
        lv: &Uniform<'_>,
        site: &Site<S>,
        choice: &Choice<S>,
        lanes: S::M,
    ) -> [S::F; 4] {
        let [u, v, _] = site.uvw;
        let point = choice.point & lanes;
        let linear = !choice.point & !choice.aniso & lanes;
        let aniso = choice.aniso & lanes;
        let zero = s.splat(0.0);
        if linear.bits() == lanes.bits() {
            return self.bilinear_fast(s, lv, u, v);
        }
        let mut out = [zero; 4];
        if point.any() {
            let (x, bx) = self.axis_point_fast(s, 0, u, lv.size[0]);
            let (y, by) = self.axis_point_fast(s, 1, v, lv.size[1]);
            let b = match (bx, by) {
                (None, None) => None,
                (bx, by) => Some(bx.unwrap_or(zero.ne(zero)) | by.unwrap_or(zero.ne(zero))),
            };
            let p = self.taps_fast(s, lv, x, y, b);
            out = each4!(|i| point.select_f(p[i], out[i]));
        }
        if linear.any() {
            let p = self.bilinear_fast(s, lv, u, v);
            out = each4!(|i| linear.select_f(p[i], out[i]));
        }
        if aniso.any()
            && let Some((n, axis)) = choice.probes
        {
            // The mask's bits read outside the closure (see `simd::each`).
            let aniso_bits = aniso.bits();
            let max_n = n
                .to_array()
                .iter()
                .enumerate()
                .filter(|(i, _)| (aniso_bits >> i) & 1 == 1)
                .fold(1.0f32, |m, (_, &x)| if x > m { x } else { m });
            let mut sum = [zero; 4];
            let mut i = 0.0f32;
            while i < max_n {
                let iv = s.splat(i);
                let take = iv.lt(n) & aniso;
                let off = (iv + s.splat(0.5)) / n - s.splat(0.5);
                let pu = u + axis[0] * off;
                let pv = v + axis[1] * off;
                let p = self.bilinear_fast(s, lv, pu, pv);
                sum = each4!(|k| take.select_f(sum[k] + p[k], sum[k]));
                i += 1.0;
            }
            out = each4!(|k| aniso.select_f(sum[k] / n, out[k]));
        }
        out
    }

    /// Whether axis `a` wraps on a power-of-two size (the bit-mask form).
    #[inline(always)]
    fn mask_wrap(&self, a: usize, n: u32) -> bool {
        self.address[a] == TextureAddress::Wrap && n.is_power_of_two()
    }

    /// Point sampling on axis `a` of `n` texels: index and border mask.
    #[inline(always)]
    fn axis_point_fast<S: Simd>(&self, s: S, a: usize, u: S::F, n: u32) -> (S::I, Border<S>) {
        let nf = s.splat(n as f32);
        let x = u * nf;
        if self.mask_wrap(a, n)
            && let Some((t, _)) = split_int(s, x)
        {
            return (t & s.splat_i(n as i32 - 1), None);
        }
        let (i, b) = address_v(s, self.address[a], split_v(s, x).0, nf);
        (i, Some(b))
    }

    /// Linear sampling on axis `a` of `n` texels (`axis_linear_v` of `warp`).
    #[inline(always)]
    fn axis_linear_fast<S: Simd>(&self, s: S, a: usize, u: S::F, n: u32) -> Axis<S> {
        let nf = s.splat(n as f32);
        let x = u * nf - s.splat(0.5);
        if self.mask_wrap(a, n)
            && let Some((t0, w1)) = split_int(s, x)
        {
            // |t0| < 2^22: `t0 + 1` is exact in f32, as the general path computes it.
            let m = s.splat_i(n as i32 - 1);
            return ([t0 & m, (t0 + s.splat_i(1)) & m], None, w1);
        }
        let (t0, w1) = split_v(s, x);
        let t1 = t0 + s.splat(1.0);
        let (i0, b0) = address_v(s, self.address[a], t0, nf);
        let (i1, b1) = address_v(s, self.address[a], t1, nf);
        ([i0, i1], Some([b0, b1]), w1)
    }

    /// Bilinear filtering of every lane at (u, v) on level `lv`.
    #[inline(always)]
    pub(super) fn bilinear_fast<S: Simd>(
        &self,
        s: S,
        lv: &Uniform<'_>,
        u: S::F,
        v: S::F,
    ) -> [S::F; 4] {
        let one = s.splat(1.0);
        let (xi, xb, wx) = self.axis_linear_fast(s, 0, u, lv.size[0]);
        let (yi, yb, wy) = self.axis_linear_fast(s, 1, v, lv.size[1]);
        let (wx0, wy0) = (one - wx, one - wy);
        // Tap order (0,0), (1,0), (0,1), (1,1), as `bilinear_warp`.
        let wgt = [wx0 * wy0, wx * wy0, wx0 * wy, wx * wy];
        let pitch = s.splat_i(lv.pitch);
        let rows = [yi[0].mul_lo(pitch), yi[1].mul_lo(pitch)];
        let w = s.gather_u32_quad(lv.words, rows, xi);
        let none = one.ne(one);
        let border = match (xb, yb) {
            (None, None) => None,
            (x, y) => {
                let [x0, x1] = x.unwrap_or([none; 2]);
                let [y0, y1] = y.unwrap_or([none; 2]);
                Some([x0 | y0, x1 | y0, x0 | y1, x1 | y1])
            }
        };
        let mut out = [s.splat(0.0); 4];
        for (ch, o) in out.iter_mut().enumerate() {
            let t = match lv.chans[ch] {
                Chan::Field { shift, bits } => {
                    let m = s.splat_i(((1u64 << bits) - 1) as i32);
                    [
                        (w[0].shr(shift) & m).to_f32(),
                        (w[1].shr(shift) & m).to_f32(),
                        (w[2].shr(shift) & m).to_f32(),
                        (w[3].shr(shift) & m).to_f32(),
                    ]
                }
                Chan::Const(c) => [s.splat(c); 4],
            };
            let t = match border {
                None => t,
                Some(b) => {
                    let bc = s.splat(self.border[ch]);
                    [
                        b[0].select_f(bc, t[0]),
                        b[1].select_f(bc, t[1]),
                        b[2].select_f(bc, t[2]),
                        b[3].select_f(bc, t[3]),
                    ]
                }
            };
            *o = t[0] * wgt[0] + t[1] * wgt[1] + t[2] * wgt[2] + t[3] * wgt[3];
        }
        out
    }

    /// Texels (x, y) of every lane in the filter domain; `border` lanes read
    /// the border colour (`gather` of `warp` for a packed format).
    #[inline(always)]
    fn taps_fast<S: Simd>(
        &self,
        s: S,
        lv: &Uniform<'_>,
        x: S::I,
        y: S::I,
        border: Border<S>,
    ) -> [S::F; 4] {
        let at = y.mul_lo(s.splat_i(lv.pitch)) + x;
        let w = s.gather_u32(lv.words, at);
        let mut out = [s.splat(0.0); 4];
        for (ch, o) in out.iter_mut().enumerate() {
            let v = match lv.chans[ch] {
                Chan::Field { shift, bits } => {
                    (w.shr(shift) & s.splat_i(((1u64 << bits) - 1) as i32)).to_f32()
                }
                Chan::Const(c) => s.splat(c),
            };
            *o = match border {
                Some(b) => b.select_f(s.splat(self.border[ch]), v),
                None => v,
            };
        }
        out
    }
}

/// The value every lane of `lanes` holds in `l`; None when they differ or
/// no lane is set.
#[inline(always)]
pub(super) fn shared_lane<S: Simd>(s: S, l: S::F, lanes: S::M) -> Option<f32> {
    let bits = lanes.bits();
    if bits == 0 {
        return None;
    }
    let first = l.to_array()[bits.trailing_zeros() as usize];
    (l.eq(s.splat(first)) | !lanes).all().then_some(first)
}

/// `split_v` in integers when every lane's `x` is below 2^22 in magnitude
/// (so `x * 256` converts exactly): `floor(x * 256)` is the truncation
/// corrected by one where it rounded up, `t0` its arithmetic shift by 8 (a
/// floor division) and the weight its low 8 bits over 256, the values
/// `split_v` computes in floats. None (use `split_v`) otherwise, NaN included.
#[inline(always)]
pub(super) fn split_int<S: Simd>(s: S, x: S::F) -> Option<(S::I, S::F)> {
    let (t0, a) = split_fixed(s, x)?;
    Some((t0, a.to_f32() * s.splat(1.0 / 256.0)))
}

/// [`split_int`] with the weight as its numerator over 256 (an integer in
/// 0..256), the form integer filtering uses.
#[inline(always)]
pub(super) fn split_fixed<S: Simd>(s: S, x: S::F) -> Option<(S::I, S::I)> {
    let y = x * s.splat(256.0);
    let lim = s.splat(1_073_741_824.0);
    if !(y.lt(lim) & y.gt(s.splat(0.0) - lim)).all() {
        return None;
    }
    let t = y.to_i32();
    let q = t + y.lt(t.to_f32()).to_i();
    Some((q.sra(8), q & s.splat_i(255)))
}

#[cfg(test)]
mod tests {
    use crate::simd::{IntV, Kernel, Simd};

    /// `Simd::gather_u32` on in-range, negative and past-the-end indices.
    struct Gather;

    impl Kernel for Gather {
        type Output = [i32; 8];
        #[inline(always)]
        fn run<S: Simd>(self, s: S) -> [i32; 8] {
            let words: Vec<u32> = (0..100).map(|i| 0x8000_0000 | (i * 3)).collect();
            let idx = s.i32s([0, 99, 100, -1, i32::MIN, i32::MAX, 42, 7]);
            s.gather_u32(&words, idx).to_array()
        }
    }

    #[test]
    fn gather_u32_reads_in_range_lanes_and_zero_elsewhere() {
        let w = |i: u32| (0x8000_0000 | (i * 3)) as i32;
        let want = [w(0), w(99), 0, 0, 0, 0, w(42), w(7)];
        for want_avx2 in [false, true] {
            let b = crate::simd::Backend::new(want_avx2);
            assert_eq!(crate::simd::dispatch(b, Gather), want, "{}", b.name());
        }
    }
}
