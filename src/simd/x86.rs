//! The AVX2 backend: `core::arch::x86_64` intrinsics on 256-bit registers.
//!
//! Every vector value of this module is made from an [`Avx2`] token (or from
//! other values of this module), and the token is only created by
//! [`Avx2::detect`] after the CPU reported AVX2. That is the invariant every
//! `unsafe` block below relies on.

use core::arch::x86_64::*;
use std::fmt;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Not, Sub};

use super::{FloatV, IntV, Kernel, MaskV, Outlined, Simd};

/// Proof that the CPU supports AVX2, and the POPCNT, BMI1 and BMI2 integer
/// instructions every AVX2 CPU also has (zero-sized; only [`Avx2::detect`]
/// makes one). The integer extensions only change how bit counts and
/// shifts compile, never a float result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _private: (),
}

impl Avx2 {
    /// The token if the CPU has AVX2 (with POPCNT, BMI1 and BMI2).
    pub fn detect() -> Option<Avx2> {
        let cpu = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");
        cpu.then_some(Avx2 { _private: () })
    }
}

/// Runs `k` with the AVX2 backend, compiled with AVX2 enabled.
///
/// # Safety
/// The CPU must support AVX2 (holding an `Avx2` token proves it).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
pub(super) unsafe fn run_avx2<K: Kernel>(k: K, t: Avx2) -> K::Output {
    k.run(t)
}

/// [`Simd::outline`] for AVX2: a separate, never-inlined function compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2 (holding an `Avx2` token proves it).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline(never)]
unsafe fn outline_avx2<J: Outlined<Avx2>>(job: J, t: Avx2) -> J::Output {
    job.run(t)
}

/// Eight f32 lanes (AVX2).
#[derive(Clone, Copy)]
pub struct AF(__m256);
/// Eight i32 lanes (AVX2).
#[derive(Clone, Copy)]
pub struct AI(__m256i);
/// Eight lane masks (AVX2).
#[derive(Clone, Copy)]
pub struct AM(__m256i);

impl fmt::Debug for AF {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_array().fmt(f)
    }
}
impl fmt::Debug for AI {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_array().fmt(f)
    }
}
impl fmt::Debug for AM {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AM({:08b})", self.bits())
    }
}

/// Wraps one intrinsic call; every use relies on the module invariant.
macro_rules! avx {
    ($e:expr) => {
        // SAFETY: values of this module's vector types exist only after AVX2
        // was detected (see the module docs), so the CPU has the instruction.
        unsafe { $e }
    };
}

impl Simd for Avx2 {
    type F = AF;
    type I = AI;
    type M = AM;
    const NAME: &'static str = "avx2";
    const SPECIALISE: bool = true;

    #[inline(always)]
    fn outline<J: Outlined<Self>>(self, job: J) -> J::Output {
        // SAFETY: `self` is an `Avx2` token, which exists only on CPUs with AVX2.
        unsafe { outline_avx2(job, self) }
    }

    #[inline(always)]
    fn splat(self, v: f32) -> AF {
        AF(avx!(_mm256_set1_ps(v)))
    }
    #[inline(always)]
    fn f32s(self, a: [f32; 8]) -> AF {
        // SAFETY: AVX2 is present (token); `a` is 8 readable f32s, unaligned load.
        AF(unsafe { _mm256_loadu_ps(a.as_ptr()) })
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> AI {
        AI(avx!(_mm256_set1_epi32(v)))
    }
    #[inline(always)]
    fn i32s(self, a: [i32; 8]) -> AI {
        // SAFETY: AVX2 is present (token); `a` is 32 readable bytes, unaligned load.
        AI(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) })
    }
    #[inline(always)]
    fn load_f32_prefix(self, s: &[f32]) -> AF {
        if let Some(full) = s.get(..8) {
            // SAFETY: AVX2 is present (token); the slice holds 8 f32s.
            return AF(unsafe { _mm256_loadu_ps(full.as_ptr()) });
        }
        // Lanes below the length load; the mask keeps the others from
        // being read (a masked-off lane never faults) and makes them 0.0.
        let n = s.len() as i32;
        let mask = avx!(_mm256_cmpgt_epi32(
            _mm256_set1_epi32(n),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
        ));
        // SAFETY: AVX2 is present (token); only the `s.len()` lanes the
        // mask selects are read, all inside `s`.
        AF(unsafe { _mm256_maskload_ps(s.as_ptr(), mask) })
    }
    #[inline(always)]
    fn load_u32(self, s: &[u32]) -> AI {
        let s = &s[..8];
        // SAFETY: AVX2 is present (token); the slice was checked to hold 8 u32s.
        AI(unsafe { _mm256_loadu_si256(s.as_ptr().cast()) })
    }
    #[inline(always)]
    fn load_u32_rows(self, r0: &[u32], r1: &[u32]) -> AI {
        let (a, b) = (&r0[..4], &r1[..4]);
        // SAFETY: AVX2 is present (token); both slices were checked to hold 4 u32s.
        AI(unsafe {
            _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(a.as_ptr().cast())),
                _mm_loadu_si128(b.as_ptr().cast()),
            )
        })
    }
    #[inline(always)]
    fn mask_from_bits(self, bits: u32) -> AM {
        let lanes = avx!(_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128));
        let b = avx!(_mm256_set1_epi32(bits as i32));
        AM(avx!(_mm256_cmpeq_epi32(_mm256_and_si256(b, lanes), lanes)))
    }
    #[inline(always)]
    fn unorm_f64(self, z: AF, bits: u32) -> AI {
        let scale = avx!(_mm256_set1_pd(((1u64 << bits) - 1) as f64));
        let half = avx!(_mm256_set1_pd(0.5));
        // Written out (no closure): closures are compiled outside the
        // trampoline and would not inline the intrinsics.
        let lo = avx!(_mm256_cvtps_pd(_mm256_castps256_ps128(z.0)));
        let hi = avx!(_mm256_cvtps_pd(_mm256_extractf128_ps::<1>(z.0)));
        let lo = avx!(_mm256_add_pd(_mm256_mul_pd(lo, scale), half));
        let hi = avx!(_mm256_add_pd(_mm256_mul_pd(hi, scale), half));
        let lo = avx!(_mm256_round_pd::<
            { _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC },
        >(lo));
        let hi = avx!(_mm256_round_pd::<
            { _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC },
        >(hi));
        let lo = avx!(_mm256_cvttpd_epi32(lo));
        let hi = avx!(_mm256_cvttpd_epi32(hi));
        AI(avx!(_mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(lo),
            hi
        )))
    }
    #[inline(always)]
    fn gather_u32(self, words: &[u32], idx: AI) -> AI {
        let len = words.len().min(i32::MAX as usize) as i32;
        let ok = avx!(_mm256_and_si256(
            _mm256_cmpgt_epi32(idx.0, _mm256_set1_epi32(-1)),
            _mm256_cmpgt_epi32(_mm256_set1_epi32(len), idx.0)
        ));
        // SAFETY: AVX2 is present (token). The masked gather reads only the
        // lanes of `ok`, whose indices are in [0, len), i.e. the u32 at
        // `words.as_ptr() + idx` inside the slice; other lanes keep 0.
        AI(unsafe {
            _mm256_mask_i32gather_epi32::<4>(
                _mm256_setzero_si256(),
                words.as_ptr().cast(),
                idx.0,
                ok,
            )
        })
    }
    #[inline(always)]
    fn gather_u32_adjacent(self, words: &[u32], i0: AI, i1: AI) -> (AI, AI) {
        // Pairs are readable when every i0 is in [0, len - 1) and i1 = i0 + 1.
        let len = words.len().min(i32::MAX as usize) as i32;
        let ok = avx!(_mm256_and_si256(
            _mm256_and_si256(
                _mm256_cmpgt_epi32(i0.0, _mm256_set1_epi32(-1)),
                _mm256_cmpgt_epi32(_mm256_set1_epi32(len - 1), i0.0)
            ),
            _mm256_cmpeq_epi32(i1.0, _mm256_add_epi32(i0.0, _mm256_set1_epi32(1)))
        ));
        if avx!(_mm256_movemask_epi8(ok)) != -1 {
            return (self.gather_u32(words, i0), self.gather_u32(words, i1));
        }
        let mut at = [0i32; 8];
        // SAFETY: AVX2 is present (token); `at` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(at.as_mut_ptr().cast(), i0.0) };
        // SAFETY: AVX2 is present (token) and `ok` checked every lane's
        // 0 <= i0 < len - 1, so both words of each pair are inside `words`.
        unsafe { Avx2::load_pairs(words, 0, at) }
    }
    #[inline(always)]
    fn transpose8(self, m: [AF; 8]) -> [AF; 8] {
        // Pairs interleaved, then quads, then the 128-bit halves swapped
        // across: 24 shuffles instead of 64 scalar moves.
        let [r0, r1, r2, r3, r4, r5, r6, r7] = m.map(|v| v.0);
        let (t0, t1) = avx!((_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1)));
        let (t2, t3) = avx!((_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3)));
        let (t4, t5) = avx!((_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5)));
        let (t6, t7) = avx!((_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7)));
        let (q0, q1) = avx!((
            _mm256_shuffle_ps::<0x44>(t0, t2),
            _mm256_shuffle_ps::<0xEE>(t0, t2)
        ));
        let (q2, q3) = avx!((
            _mm256_shuffle_ps::<0x44>(t1, t3),
            _mm256_shuffle_ps::<0xEE>(t1, t3)
        ));
        let (q4, q5) = avx!((
            _mm256_shuffle_ps::<0x44>(t4, t6),
            _mm256_shuffle_ps::<0xEE>(t4, t6)
        ));
        let (q6, q7) = avx!((
            _mm256_shuffle_ps::<0x44>(t5, t7),
            _mm256_shuffle_ps::<0xEE>(t5, t7)
        ));
        avx!([
            AF(_mm256_permute2f128_ps::<0x20>(q0, q4)),
            AF(_mm256_permute2f128_ps::<0x20>(q1, q5)),
            AF(_mm256_permute2f128_ps::<0x20>(q2, q6)),
            AF(_mm256_permute2f128_ps::<0x20>(q3, q7)),
            AF(_mm256_permute2f128_ps::<0x31>(q0, q4)),
            AF(_mm256_permute2f128_ps::<0x31>(q1, q5)),
            AF(_mm256_permute2f128_ps::<0x31>(q2, q6)),
            AF(_mm256_permute2f128_ps::<0x31>(q3, q7)),
        ])
    }
    #[inline(always)]
    fn interleave3(self, a: AF, b: AF, c: AF) -> [AF; 3] {
        // Result k's lane j takes element (8k + j) / 3 of a, b or c: one
        // lane permutation per source, then two blends picking each lane's
        // source ((8k + j) % 3).
        // (No closure: one would be compiled outside the AVX2 context.)
        avx!({
            let i0 = _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2);
            let i1 = _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5);
            let i2 = _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7);
            let (a0, b0, c0) = (
                _mm256_permutevar8x32_ps(a.0, i0),
                _mm256_permutevar8x32_ps(b.0, i0),
                _mm256_permutevar8x32_ps(c.0, i0),
            );
            let (a1, b1, c1) = (
                _mm256_permutevar8x32_ps(a.0, i1),
                _mm256_permutevar8x32_ps(b.0, i1),
                _mm256_permutevar8x32_ps(c.0, i1),
            );
            let (a2, b2, c2) = (
                _mm256_permutevar8x32_ps(a.0, i2),
                _mm256_permutevar8x32_ps(b.0, i2),
                _mm256_permutevar8x32_ps(c.0, i2),
            );
            [
                AF(_mm256_blend_ps::<0x24>(_mm256_blend_ps::<0x92>(a0, b0), c0)),
                AF(_mm256_blend_ps::<0x49>(_mm256_blend_ps::<0x24>(a1, b1), c1)),
                AF(_mm256_blend_ps::<0x92>(_mm256_blend_ps::<0x49>(a2, b2), c2)),
            ]
        })
    }
    #[inline(always)]
    fn gather_u32_quad(self, words: &[u32], rows: [AI; 2], x: [AI; 2]) -> [AI; 4] {
        let len = words.len().min(i32::MAX as usize) as i32;
        let (i0, j0) = (rows[0] + x[0], rows[1] + x[0]);
        let gap = j0 - i0;
        let g = avx!(_mm256_cvtsi256_si32(gap.0));
        // Readable with one set of offsets when every lane's pair is
        // adjacent, both rows' pairs are in [0, len - 1) and the row gap
        // is lane 0's in every lane.
        let ok = avx!({
            let none = _mm256_set1_epi32(-1);
            let lim = _mm256_set1_epi32(len - 1);
            let adjacent =
                _mm256_cmpeq_epi32(x[1].0, _mm256_add_epi32(x[0].0, _mm256_set1_epi32(1)));
            let same_gap = _mm256_cmpeq_epi32(gap.0, _mm256_set1_epi32(g));
            let above = _mm256_and_si256(
                _mm256_cmpgt_epi32(i0.0, none),
                _mm256_cmpgt_epi32(j0.0, none),
            );
            let below =
                _mm256_and_si256(_mm256_cmpgt_epi32(lim, i0.0), _mm256_cmpgt_epi32(lim, j0.0));
            _mm256_and_si256(
                _mm256_and_si256(adjacent, same_gap),
                _mm256_and_si256(above, below),
            )
        });
        if avx!(_mm256_movemask_epi8(ok)) != -1 {
            let (a, b) = self.gather_u32_adjacent(words, i0, rows[0] + x[1]);
            let (c, d) = self.gather_u32_adjacent(words, j0, rows[1] + x[1]);
            return [a, b, c, d];
        }
        // A 4x2 block of consecutive texels (one texel per pixel, the
        // commonest magnified footprint): lanes 0..4 read texels a..a+5 of
        // one row, lanes 4..8 the same texels of the next (a + g), so the
        // footprint is three rows of five words.
        let a = avx!(_mm256_cvtsi256_si32(i0.0));
        let window = avx!(_mm256_cmpeq_epi32(
            i0.0,
            _mm256_add_epi32(
                _mm256_set1_epi32(a),
                _mm256_setr_epi32(
                    0,
                    1,
                    2,
                    3,
                    g,
                    g.wrapping_add(1),
                    g.wrapping_add(2),
                    g.wrapping_add(3)
                )
            )
        ));
        if avx!(_mm256_movemask_epi8(window)) == -1 {
            // SAFETY: AVX2 is present (token). `ok` checked every lane's
            // pairs at i0 and j0 = i0 + g inside `words`, and `window` that
            // lane k's i0 is a + k and lane 4 + k's a + g + k (k < 4): lane
            // 3's pairs hold words a + 3, a + 4 and a + g + 3, a + g + 4,
            // lane 7's j0 pair a + 2g + 3, a + 2g + 4, and each row's
            // lower words are other lanes' (or, at a + 2g, lane 4's j0).
            return unsafe { Avx2::load_window(words, a, g) };
        }
        let mut at = [0i32; 8];
        // SAFETY: AVX2 is present (token); `at` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(at.as_mut_ptr().cast(), i0.0) };
        // SAFETY: AVX2 is present (token); `ok` checked that every lane's
        // i0 = at and j0 = at + g lie in [0, len - 1), so both words of
        // every pair of either row are inside `words`.
        let ((a, b), (c, d)) = unsafe {
            (
                Avx2::load_pairs(words, 0, at),
                Avx2::load_pairs(words, g, at),
            )
        };
        [a, b, c, d]
    }
}

impl Avx2 {
    /// `gather_u32_quad`'s four texels when lane k < 4 reads the pairs at
    /// `a + k` and `a + g + k` and lane 4 + k those at `a + g + k` and
    /// `a + 2g + k`: rows `a`, `a + g` and `a + 2g`, five words each, as
    /// six unaligned 4-word loads.
    ///
    /// # Safety
    /// The CPU must have AVX2 and words `a..a + 5`, `a + g..a + g + 5` and
    /// `a + 2g..a + 2g + 5` must lie inside `words`.
    #[inline(always)]
    unsafe fn load_window(words: &[u32], a: i32, g: i32) -> [AI; 4] {
        let (a, g) = (a as isize, g as isize);
        let p = words.as_ptr();
        // SAFETY (whole body): the caller guarantees the three rows' words
        // lie inside `words` (wrapping offsets keep the slice's provenance;
        // every read is inside it); `loadu` needs no alignment. The
        // intrinsics need AVX2, which the caller guarantees.
        unsafe {
            macro_rules! ld {
                ($at:expr) => {
                    _mm_loadu_si128(p.wrapping_offset($at).cast())
                };
            }
            let (r0, r0n) = (ld!(a), ld!(a + 1));
            let (r1, r1n) = (ld!(a + g), ld!(a + g + 1));
            let (r2, r2n) = (ld!(a + 2 * g), ld!(a + 2 * g + 1));
            [
                AI(_mm256_set_m128i(r1, r0)),
                AI(_mm256_set_m128i(r1n, r0n)),
                AI(_mm256_set_m128i(r2, r1)),
                AI(_mm256_set_m128i(r2n, r1n)),
            ]
        }
    }

    /// Lane i = `(words[at[i] + gap], words[at[i] + gap + 1])` as two vectors.
    ///
    /// # Safety
    /// The CPU must have AVX2 and every `at[i]` must satisfy
    /// `0 <= at[i] + gap` and `at[i] + gap + 1 < words.len()`.
    #[inline(always)]
    unsafe fn load_pairs(words: &[u32], gap: i32, at: [i32; 8]) -> (AI, AI) {
        // Wrapping: `gap` alone may point outside the slice (only each
        // `gap + at[i]` is inside), and the reads keep the slice's provenance.
        let p = words.as_ptr().wrapping_offset(gap as isize);
        // SAFETY (whole body): the caller guarantees both words of every
        // pair lie inside `words`; `read_unaligned` allows their 4-byte
        // alignment. The intrinsics need AVX2, which the caller guarantees.
        unsafe {
            // A macro, not a closure: a call here would spill every vector.
            macro_rules! q {
                ($k:expr) => {
                    p.wrapping_offset(at[$k] as isize)
                        .cast::<i64>()
                        .read_unaligned()
                };
            }
            // 128-bit halves hold lanes (0, 1 | 4, 5) and (2, 3 | 6, 7), so
            // one in-lane shuffle of the two gives lanes 0..8 in order.
            let a = _mm256_castsi256_ps(_mm256_setr_epi64x(q!(0), q!(1), q!(4), q!(5)));
            let b = _mm256_castsi256_ps(_mm256_setr_epi64x(q!(2), q!(3), q!(6), q!(7)));
            let first = _mm256_shuffle_ps::<0b10_00_10_00>(a, b);
            let second = _mm256_shuffle_ps::<0b11_01_11_01>(a, b);
            (
                AI(_mm256_castps_si256(first)),
                AI(_mm256_castps_si256(second)),
            )
        }
    }
}

macro_rules! binop {
    ($t:ident, $tr:ident, $f:ident, $intr:ident) => {
        impl $tr for $t {
            type Output = $t;
            #[inline(always)]
            fn $f(self, o: $t) -> $t {
                $t(avx!($intr(self.0, o.0)))
            }
        }
    };
}

binop!(AF, Add, add, _mm256_add_ps);
binop!(AF, Sub, sub, _mm256_sub_ps);
binop!(AF, Mul, mul, _mm256_mul_ps);
binop!(AF, Div, div, _mm256_div_ps);
binop!(AI, Add, add, _mm256_add_epi32);
binop!(AI, Sub, sub, _mm256_sub_epi32);
binop!(AI, BitAnd, bitand, _mm256_and_si256);
binop!(AI, BitOr, bitor, _mm256_or_si256);
binop!(AI, BitXor, bitxor, _mm256_xor_si256);
binop!(AM, BitAnd, bitand, _mm256_and_si256);
binop!(AM, BitOr, bitor, _mm256_or_si256);
binop!(AM, BitXor, bitxor, _mm256_xor_si256);

impl Not for AM {
    type Output = AM;
    #[inline(always)]
    fn not(self) -> AM {
        AM(avx!(_mm256_xor_si256(self.0, _mm256_set1_epi32(-1))))
    }
}

#[inline(always)]
fn fcmp<const P: i32>(a: __m256, b: __m256) -> AM {
    AM(avx!(_mm256_castps_si256(_mm256_cmp_ps::<P>(a, b))))
}

impl FloatV for AF {
    type I = AI;
    type M = AM;
    #[inline(always)]
    fn to_array(self) -> [f32; 8] {
        let mut a = [0f32; 8];
        // SAFETY: AVX2 is present (module invariant); `a` has room for 8 f32s.
        unsafe { _mm256_storeu_ps(a.as_mut_ptr(), self.0) };
        a
    }
    #[inline(always)]
    fn store(self, out: &mut [f32]) {
        let out = &mut out[..8];
        // SAFETY: AVX2 is present (module invariant); the slice holds 8 f32s.
        unsafe { _mm256_storeu_ps(out.as_mut_ptr(), self.0) };
    }
    #[inline(always)]
    fn min(self, b: AF) -> AF {
        // minps: a < b ? a : b (NaN → b), the module's definition.
        AF(avx!(_mm256_min_ps(self.0, b.0)))
    }
    #[inline(always)]
    fn max(self, b: AF) -> AF {
        AF(avx!(_mm256_max_ps(self.0, b.0)))
    }
    #[inline(always)]
    fn floor(self) -> AF {
        AF(avx!(_mm256_round_ps::<
            { _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC },
        >(self.0)))
    }
    #[inline(always)]
    fn sqrt(self) -> AF {
        AF(avx!(_mm256_sqrt_ps(self.0)))
    }
    #[inline(always)]
    fn ddx(self) -> AF {
        // movshdup: lanes (1, 1, 3, 3, ...); movsldup: (0, 0, 2, 2, ...).
        AF(avx!(_mm256_sub_ps(
            _mm256_movehdup_ps(self.0),
            _mm256_moveldup_ps(self.0)
        )))
    }
    #[inline(always)]
    fn ddy(self) -> AF {
        // The bottom row in both halves, minus the top row in both halves.
        AF(avx!(_mm256_sub_ps(
            _mm256_permute2f128_ps::<0x11>(self.0, self.0),
            _mm256_permute2f128_ps::<0x00>(self.0, self.0)
        )))
    }
    #[inline(always)]
    fn lt(self, b: AF) -> AM {
        fcmp::<_CMP_LT_OQ>(self.0, b.0)
    }
    #[inline(always)]
    fn le(self, b: AF) -> AM {
        fcmp::<_CMP_LE_OQ>(self.0, b.0)
    }
    #[inline(always)]
    fn gt(self, b: AF) -> AM {
        fcmp::<_CMP_GT_OQ>(self.0, b.0)
    }
    #[inline(always)]
    fn ge(self, b: AF) -> AM {
        fcmp::<_CMP_GE_OQ>(self.0, b.0)
    }
    #[inline(always)]
    fn eq(self, b: AF) -> AM {
        fcmp::<_CMP_EQ_OQ>(self.0, b.0)
    }
    #[inline(always)]
    fn ne(self, b: AF) -> AM {
        fcmp::<_CMP_NEQ_UQ>(self.0, b.0)
    }
    #[inline(always)]
    fn to_i32(self) -> AI {
        AI(avx!(_mm256_cvttps_epi32(self.0)))
    }
    #[inline(always)]
    fn to_bits(self) -> AI {
        AI(avx!(_mm256_castps_si256(self.0)))
    }
}

impl IntV for AI {
    type F = AF;
    type M = AM;
    #[inline(always)]
    fn to_array(self) -> [i32; 8] {
        let mut a = [0i32; 8];
        // SAFETY: AVX2 is present (module invariant); `a` has room for 32 bytes.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self.0) };
        a
    }
    #[inline(always)]
    fn store_u32(self, out: &mut [u32]) {
        let out = &mut out[..8];
        // SAFETY: AVX2 is present (module invariant); the slice holds 8 u32s.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) };
    }
    #[inline(always)]
    fn store_u32_rows(self, r0: &mut [u32], r1: &mut [u32]) {
        let (a, b) = (&mut r0[..4], &mut r1[..4]);
        // SAFETY: AVX2 is present (module invariant); both slices hold 4 u32s.
        unsafe {
            _mm_storeu_si128(a.as_mut_ptr().cast(), _mm256_castsi256_si128(self.0));
            _mm_storeu_si128(b.as_mut_ptr().cast(), _mm256_extracti128_si256::<1>(self.0));
        }
    }
    #[inline(always)]
    fn mul_lo(self, b: AI) -> AI {
        AI(avx!(_mm256_mullo_epi32(self.0, b.0)))
    }
    #[inline(always)]
    fn shl(self, n: u32) -> AI {
        AI(avx!(_mm256_sll_epi32(self.0, _mm_cvtsi32_si128(n as i32))))
    }
    #[inline(always)]
    fn shr(self, n: u32) -> AI {
        AI(avx!(_mm256_srl_epi32(self.0, _mm_cvtsi32_si128(n as i32))))
    }
    #[inline(always)]
    fn sra(self, n: u32) -> AI {
        AI(avx!(_mm256_sra_epi32(self.0, _mm_cvtsi32_si128(n as i32))))
    }
    #[inline(always)]
    fn min(self, b: AI) -> AI {
        AI(avx!(_mm256_min_epi32(self.0, b.0)))
    }
    #[inline(always)]
    fn max(self, b: AI) -> AI {
        AI(avx!(_mm256_max_epi32(self.0, b.0)))
    }
    #[inline(always)]
    fn eq(self, b: AI) -> AM {
        AM(avx!(_mm256_cmpeq_epi32(self.0, b.0)))
    }
    #[inline(always)]
    fn gt(self, b: AI) -> AM {
        AM(avx!(_mm256_cmpgt_epi32(self.0, b.0)))
    }
    #[inline(always)]
    fn lt(self, b: AI) -> AM {
        AM(avx!(_mm256_cmpgt_epi32(b.0, self.0)))
    }
    #[inline(always)]
    fn to_f32(self) -> AF {
        AF(avx!(_mm256_cvtepi32_ps(self.0)))
    }
    #[inline(always)]
    fn cast_f32(self) -> AF {
        AF(avx!(_mm256_castsi256_ps(self.0)))
    }
}

impl MaskV for AM {
    type I = AI;
    type F = AF;
    #[inline(always)]
    fn bits(self) -> u32 {
        avx!(_mm256_movemask_ps(_mm256_castsi256_ps(self.0))) as u32
    }
    #[inline(always)]
    fn select_f(self, a: AF, b: AF) -> AF {
        AF(avx!(_mm256_blendv_ps(
            b.0,
            a.0,
            _mm256_castsi256_ps(self.0)
        )))
    }
    #[inline(always)]
    fn select_i(self, a: AI, b: AI) -> AI {
        AI(avx!(_mm256_blendv_epi8(b.0, a.0, self.0)))
    }
    #[inline(always)]
    fn to_i(self) -> AI {
        AI(self.0)
    }
}
