//! SIMD: 8-lane vectors behind one trait, with a portable backend (`wide`)
//! and an AVX2 backend (`core::arch`), chosen at run time.
//!
//! This is the only module that names `wide` or `core::arch`. Hot kernels
//! (rasterizer, output merger, shader interpreter, sampler) are written once,
//! generic over [`Simd`], and entered through [`dispatch`], which runs them
//! inside a `#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]` trampoline when the AVX2
//! backend is selected, so the generic code is compiled with AVX2 there.
//!
//! Invariants (every backend, every operation):
//! - **Bit-identical results.** Every operation is defined lane by lane with
//!   IEEE-754 single precision, round-to-nearest-even, and no fused
//!   multiply-add, no approximate reciprocal or square root. `min`/`max` are
//!   defined as `a < b ? a : b` / `a > b ? a : b` (x86 semantics, NaN → `b`),
//!   float → int conversion truncates and is only meaningful in range
//!   (out-of-range and NaN give `i32::MIN` in every backend).
//! - **Masks** are lane-wise all-ones / all-zeros; `bits()` packs lane 0 into
//!   bit 0.
//! - **Safety.** A value of an AVX2 vector type can only be made from an
//!   [`Avx2`] token, which only [`Avx2::detect`] creates, after the CPU
//!   reported AVX2. The intrinsics behind those types are therefore always
//!   executed on a CPU that has them.
//!
//! For AVX2 code generation, [`Kernel::run`] implementations and the generic
//! functions they call on the hot path must be `#[inline(always)]` and must
//! not use closures (including `array::map` / `from_fn`) on vectors: code
//! that is not inlined into the trampoline is compiled without AVX2 and
//! calls every intrinsic as a function (measured: 20x slower). It stays
//! correct, only slow, so no test sees it: `.ci/intrinsics-check`
//! disassembles the release scenes runner and fails CI on any such call.
//! [`each!`], [`each4!`] and [`map4!`] write per-component code out in
//! place for that reason.

use std::fmt::Debug;

/// `[body(i0), body(i1), ...]` for the listed indices, written out in place
/// (`each!(|c| a[c] + b[c]; 0 1 2 3)`). A closure (or `array::map` /
/// `from_fn`, which take one) is a function of its own, compiled without
/// AVX2 whenever LLVM declines to inline it into the trampoline, and then
/// every intrinsic in it is an out-of-line call (S7's texture derivatives
/// spent 9 % of the frame in two such calls). A macro leaves no function.
macro_rules! each {
    (|$c:ident| $body:expr; $($i:literal)*) => {
        [$({
            let $c: usize = $i;
            $body
        }),*]
    };
}
pub(crate) use each;

/// `[body(0), body(1), body(2), body(3)]` in place: [`each!`] over a
/// register's four components.
macro_rules! each4 {
    (|$c:ident| $body:expr) => {
        $crate::simd::each!(|$c| $body; 0 1 2 3)
    };
}
pub(crate) use each4;

/// `a.map(|x| body)` for a four-element array, written out in place (see
/// [`each!`] for why not a closure).
macro_rules! map4 {
    ($a:expr, |$x:pat_param| $body:expr) => {{
        let a = $a;
        $crate::simd::each4!(|k| {
            let $x = a[k];
            $body
        })
    }};
}
pub(crate) use map4;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Not, Sub};

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use portable::Portable;
#[cfg(target_arch = "x86_64")]
pub use x86::Avx2;

/// Number of lanes of every vector type.
pub const LANES: usize = 8;

/// A SIMD backend: a zero-sized token whose associated types are the vectors.
pub trait Simd: Copy + Send + Sync + Debug + 'static {
    /// Eight f32 lanes.
    type F: FloatV<I = Self::I, M = Self::M>;
    /// Eight i32 lanes.
    type I: IntV<F = Self::F, M = Self::M>;
    /// Eight lane masks.
    type M: MaskV<I = Self::I, F = Self::F>;
    /// The backend's name as the scenes runner prints it (`portable`, `avx2`).
    const NAME: &'static str;
    /// Whether the rasterizer compiles its per-state variants for this
    /// backend (depth function as a constant, depth clipping known off,
    /// affine blocks): each is a further copy of the stamp loop with the
    /// pixel stage inlined. True where the backend is what the machine's
    /// CPUs run; false for the portable backend on x86-64, which there
    /// serves only CPUs without AVX2, so that its half of the crate's code
    /// generation stays small. Every variant computes the same bits as the
    /// general form.
    const SPECIALISE: bool;

    /// Runs `job` in a function of its own, compiled for this backend
    /// (with AVX2 enabled for [`Avx2`]) and never inlined into the caller.
    /// Large per-stamp bodies (a shader interpreter, the texture-stage
    /// cascade) go through here so the rasterizer's inlined loops call one
    /// copy per backend instead of carrying one per call site, which keeps
    /// compile times bounded at no measurable cost (one call per 8 pixels).
    fn outline<J: Outlined<Self>>(self, job: J) -> J::Output;

    /// Every lane `v`.
    fn splat(self, v: f32) -> Self::F;
    /// Lanes from an array (lane i = `a[i]`).
    fn f32s(self, a: [f32; 8]) -> Self::F;
    /// Every lane `v`.
    fn splat_i(self, v: i32) -> Self::I;
    /// Lanes from an array (lane i = `a[i]`).
    fn i32s(self, a: [i32; 8]) -> Self::I;
    /// Lanes from the first 8 `f32`s of `s`, or from all of `s` when it is
    /// shorter, the lanes past its end 0.0. Reads only `s`: a vertex row
    /// whose window runs past its end loads in one step, not through a
    /// stack copy (a variable-length copy is a library call, and the load
    /// after it stalls on store forwarding).
    fn load_f32_prefix(self, s: &[f32]) -> Self::F;
    /// Lanes from the first 8 `u32`s of `s` (as bit patterns). Panics if `s` is shorter.
    fn load_u32(self, s: &[u32]) -> Self::I;
    /// Lanes 0..4 from `r0[..4]`, lanes 4..8 from `r1[..4]` (a 4x2 stamp's
    /// two rows). Panics if a slice is shorter than 4.
    fn load_u32_rows(self, r0: &[u32], r1: &[u32]) -> Self::I;
    /// A mask whose lane i is set when bit i of `bits` is.
    fn mask_from_bits(self, bits: u32) -> Self::M;
    /// `floor(z * (2^bits - 1) + 0.5)` computed in f64, for `z` in [0, 1]
    /// and `bits` <= 24: the round-to-nearest depth quantisation of D16/D24
    /// (exact: the f64 product and sum cannot round).
    fn unorm_f64(self, z: Self::F, bits: u32) -> Self::I;
    /// Lane i = `words[idx[i]]` (as bits), or 0 where `idx[i]` is negative
    /// or not below `words.len()`. The default is eight bounds-checked loads.
    #[inline(always)]
    fn gather_u32(self, words: &[u32], idx: Self::I) -> Self::I {
        let a = idx.to_array();
        let mut out = [0i32; 8];
        for (o, &i) in out.iter_mut().zip(a.iter()) {
            *o = match words.get(i as u32 as usize) {
                Some(&w) => w as i32,
                None => 0,
            };
        }
        self.i32s(out)
    }
    /// `(gather_u32(words, i0), gather_u32(words, i1))`: the two texels of
    /// a bilinear row. Where every lane's `i1` is `i0 + 1` and both are in
    /// the slice, a backend may read each lane's pair with one 64-bit load
    /// (AVX2 does: eight such loads cost a fraction of two hardware gathers).
    #[inline(always)]
    fn gather_u32_adjacent(self, words: &[u32], i0: Self::I, i1: Self::I) -> (Self::I, Self::I) {
        (self.gather_u32(words, i0), self.gather_u32(words, i1))
    }
    /// The 8x8 transpose: lane `j` of result `i` is lane `i` of `m[j]`
    /// (eight values of eight vertices become each vertex's eight values).
    #[inline(always)]
    fn transpose8(self, m: [Self::F; 8]) -> [Self::F; 8] {
        let a = m.map(FloatV::to_array);
        let mut t = [[0f32; 8]; 8];
        for (i, row) in t.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = a[j][i];
            }
        }
        t.map(|row| self.f32s(row))
    }
    /// The triples `(a[i], b[i], c[i])` of lanes 0..8 one after another:
    /// element `3i + j` of the 24 lies in result `(3i + j) / 8`, lane
    /// `(3i + j) % 8` (eight planes' (a0, ddx, ddy) as their records lie).
    #[inline(always)]
    fn interleave3(self, a: Self::F, b: Self::F, c: Self::F) -> [Self::F; 3] {
        let src = [a.to_array(), b.to_array(), c.to_array()];
        let mut o = [0f32; 24];
        for (k, x) in o.iter_mut().enumerate() {
            *x = src[k % 3][k / 3];
        }
        let mut v = [[0f32; 8]; 3];
        for (k, row) in v.iter_mut().enumerate() {
            row.copy_from_slice(&o[8 * k..8 * k + 8]);
        }
        [self.f32s(v[0]), self.f32s(v[1]), self.f32s(v[2])]
    }
    /// The four texels of a bilinear footprint: `[w(r0 + x0), w(r0 + x1),
    /// w(r1 + x0), w(r1 + x1)]` for `rows = [r0, r1]` and `x = [x0, x1]`,
    /// each as [`Simd::gather_u32`] reads it. Where every lane's `x1` is
    /// `x0 + 1`, the rows lie the same distance apart in every lane and all
    /// pairs are in the slice, a backend may read both rows' pairs from
    /// one set of lane offsets (AVX2 does).
    #[inline(always)]
    fn gather_u32_quad(self, words: &[u32], rows: [Self::I; 2], x: [Self::I; 2]) -> [Self::I; 4] {
        let (a, b) = self.gather_u32_adjacent(words, rows[0] + x[0], rows[0] + x[1]);
        let (c, d) = self.gather_u32_adjacent(words, rows[1] + x[0], rows[1] + x[1]);
        [a, b, c, d]
    }
}

/// Eight f32 lanes.
pub trait FloatV:
    Copy
    + Debug
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    /// The integer vector of the same backend.
    type I: IntV<F = Self, M = Self::M>;
    /// The mask type of the same backend.
    type M: MaskV<I = Self::I, F = Self>;
    /// The lanes as an array.
    fn to_array(self) -> [f32; 8];
    /// Stores the lanes into the first 8 elements of `out` (panics if shorter).
    fn store(self, out: &mut [f32]);
    /// `a < b ? a : b` per lane.
    fn min(self, b: Self) -> Self;
    /// `a > b ? a : b` per lane.
    fn max(self, b: Self) -> Self;
    /// Round toward negative infinity.
    fn floor(self) -> Self;
    /// IEEE square root (exact rounding).
    fn sqrt(self) -> Self;
    /// Fine x derivative over the stamp's two 2x2 quads (lanes 0–3 the top
    /// row, 4–7 the bottom): lane i is `a[i | 1] - a[i & !1]`.
    fn ddx(self) -> Self;
    /// Fine y derivative: lane i is `a[i | 4] - a[i & !4]`.
    fn ddy(self) -> Self;
    /// Lane-wise `<` (false when either is NaN).
    fn lt(self, b: Self) -> Self::M;
    /// Lane-wise `<=`.
    fn le(self, b: Self) -> Self::M;
    /// Lane-wise `>`.
    fn gt(self, b: Self) -> Self::M;
    /// Lane-wise `>=`.
    fn ge(self, b: Self) -> Self::M;
    /// Lane-wise `==` (false for NaN).
    fn eq(self, b: Self) -> Self::M;
    /// Lane-wise `!=` (true for NaN).
    fn ne(self, b: Self) -> Self::M;
    /// Truncating conversion (`i32::MIN` out of range or NaN).
    fn to_i32(self) -> Self::I;
    /// The bit patterns.
    fn to_bits(self) -> Self::I;
}

/// Eight i32 lanes (wrapping arithmetic).
pub trait IntV:
    Copy
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
{
    /// The float vector of the same backend.
    type F: FloatV<I = Self, M = Self::M>;
    /// The mask type of the same backend.
    type M: MaskV<I = Self, F = Self::F>;
    /// The lanes as an array.
    fn to_array(self) -> [i32; 8];
    /// Stores the lanes into the first 8 `u32`s of `out` (panics if shorter).
    fn store_u32(self, out: &mut [u32]);
    /// Stores lanes 0..4 into `r0[..4]` and lanes 4..8 into `r1[..4]` (the
    /// inverse of [`Simd::load_u32_rows`]). Panics if a slice is shorter than 4.
    fn store_u32_rows(self, r0: &mut [u32], r1: &mut [u32]);
    /// Low 32 bits of the lane-wise product.
    fn mul_lo(self, b: Self) -> Self;
    /// Shift left by `n` (< 32).
    fn shl(self, n: u32) -> Self;
    /// Logical shift right by `n` (< 32).
    fn shr(self, n: u32) -> Self;
    /// Arithmetic shift right by `n` (< 32).
    fn sra(self, n: u32) -> Self;
    /// Signed lane-wise minimum.
    fn min(self, b: Self) -> Self;
    /// Signed lane-wise maximum.
    fn max(self, b: Self) -> Self;
    /// Lane-wise `==`.
    fn eq(self, b: Self) -> Self::M;
    /// Signed lane-wise `>`.
    fn gt(self, b: Self) -> Self::M;
    /// Signed lane-wise `<`.
    fn lt(self, b: Self) -> Self::M;
    /// Conversion to f32 (round to nearest even).
    fn to_f32(self) -> Self::F;
    /// Reinterprets the bits as f32.
    fn cast_f32(self) -> Self::F;
}

/// Eight lane masks.
pub trait MaskV:
    Copy
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// The integer vector of the same backend.
    type I: IntV<M = Self, F = Self::F>;
    /// The float vector of the same backend.
    type F: FloatV<M = Self, I = Self::I>;
    /// Lane i → bit i.
    fn bits(self) -> u32;
    /// Whether any lane is set. (Always inlined: a call would be compiled
    /// without AVX2 and turn `bits` into calls too.)
    #[inline(always)]
    fn any(self) -> bool {
        self.bits() != 0
    }
    /// Whether every lane is set.
    #[inline(always)]
    fn all(self) -> bool {
        self.bits() == 0xFF
    }
    /// `self ? a : b` per lane, on floats.
    fn select_f(self, a: Self::F, b: Self::F) -> Self::F;
    /// `self ? a : b` per lane, on integers.
    fn select_i(self, a: Self::I, b: Self::I) -> Self::I;
    /// The mask as integers (-1 where set, 0 elsewhere).
    fn to_i(self) -> Self::I;
}

/// A computation generic over the backend, run by [`dispatch`].
pub trait Kernel: Sized {
    /// What the kernel returns.
    type Output;
    /// Runs the kernel with backend `s` (mark implementations `#[inline(always)]`).
    fn run<S: Simd>(self, s: S) -> Self::Output;

    /// [`Kernel::run`] with the portable backend, in a function of its own.
    ///
    /// Never inlined, so that [`dispatch`] stays small: a small generic
    /// function is copied into every codegen unit that calls it (thin
    /// local LTO imports it), and with the kernel inlined into it each
    /// large kernel was compiled twice. A provided method, so that its
    /// copy for a kernel is compiled with the kernel's module (rustc places
    /// a provided method's instances by their `Self` type) rather than all
    /// kernels in one codegen unit. Not to be overridden.
    #[inline(never)]
    fn run_portable(self) -> Self::Output {
        self.run(Portable)
    }
}

/// A job for [`Simd::outline`]: the body runs with the backend `S` the
/// caller already has (unlike a [`Kernel`], it may hold `S`'s vectors).
pub trait Outlined<S: Simd> {
    /// What the job returns.
    type Output;
    /// Runs the job (mark implementations `#[inline(always)]`).
    fn run(self, s: S) -> Self::Output;
}

/// A resolved backend: which vector code the kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `wide` (SSE2 on a default x86-64 build).
    Portable,
    /// AVX2 intrinsics; holds the proof that the CPU has them.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
}

impl Backend {
    /// The AVX2 backend if `want_avx2` and the CPU has it, else portable.
    pub fn new(want_avx2: bool) -> Backend {
        #[cfg(target_arch = "x86_64")]
        if want_avx2 && let Some(t) = Avx2::detect() {
            return Backend::Avx2(t);
        }
        let _ = want_avx2;
        Backend::Portable
    }

    /// The backend's name (`portable`, `avx2`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => Portable::NAME,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => Avx2::NAME,
        }
    }
}

/// `floor(z * (2^bits - 1) + 0.5)` for `z` in [0, 1] and `1 <= bits <= 24`:
/// the same integers as [`Simd::unorm_f64`], in f32 and integer operations
/// only (no f64 widening).
///
/// Why it is exact: `a = z * 2^bits` is exact (a power-of-two scale), and
/// with `i = floor(a)`, `f = a - i` (exact), the wanted value is
/// `i + floor(f - z + 0.5)`, where `f - z + 0.5` lies in (-0.5, 1.5). So it
/// is `i + 1` when `f - 0.5 >= z`, `i - 1` when `z - 0.5 > f`, else `i`.
/// `f - 0.5` is exact whenever `a >= 0.5` (then `f` is a multiple of
/// `ulp(a) >= 2^-24` and `|f - 0.5| <= 0.5`); for `a < 0.5` it is negative
/// however it rounds, and so is the exact value, so the test still answers
/// right. `z - 0.5` is exact for `z >= 0.25` (Sterbenz) and below that both
/// it and the exact value are `< 0 <= f`. Tests compare it with the f64 form
/// at every rounding boundary (and, ignored by default, at every f32 in [0, 1]).
#[inline(always)]
pub fn unorm<S: Simd>(s: S, z: S::F, bits: u32) -> S::I {
    let half = s.splat(0.5);
    let a = z * s.splat((1u32 << bits) as f32);
    let i = a.to_i32();
    let f = a - i.to_f32();
    let up = (f - half).ge(z).to_i();
    let down = (z - half).gt(f).to_i();
    // Masks are -1 where set.
    i - up + down
}

/// `a < b ? a : b`: the scalar form of the backends' min (NaN in `a`
/// gives `b`), so a scalar path (the Reference driver, the samplers'
/// scalar forms) rounds and propagates exactly as the 8-lane one. The one
/// copy, here because `pixel` and `sampler` both sit on `simd`.
#[inline(always)]
pub fn fmin(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `a > b ? a : b`: the scalar form of the backends' max (NaN in `a`
/// gives `b`); see [`fmin`].
#[inline(always)]
pub fn fmax(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// Runs `k` on `backend`; with AVX2 inside a `#[target_feature(enable = "avx2,...")]` function.
#[inline]
pub fn dispatch<K: Kernel>(backend: Backend, k: K) -> K::Output {
    match backend {
        Backend::Portable => k.run_portable(),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2(t) => {
            // SAFETY: an `Avx2` token exists only after `Avx2::detect` found AVX2,
            // POPCNT, BMI1 and BMI2, the features `run_avx2` enables.
            unsafe { x86::run_avx2(k, t) }
        }
    }
}

#[cfg(test)]
mod tests;

/// Hints the CPU to bring the cache line holding `items[i]` into the
/// first-level cache (nothing when `i` is out of range or the target has
/// no prefetch instruction). A hint only: no result depends on it.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(w) = items.get(i) {
        // SAFETY: PREFETCHT0 (SSE, part of the x86-64 baseline) reads no
        // memory architecturally and cannot fault; `w` is a valid reference.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (w as *const T).cast(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}
