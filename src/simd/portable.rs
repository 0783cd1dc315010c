//! The portable backend: `wide` vectors (SSE2 pairs on a default x86-64
//! build). Operations whose edge cases `wide` defines differently from the
//! module's contract (min/max with NaN, out-of-range conversion) are written
//! out so that the result equals the AVX2 backend's bit for bit.

use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Not, Sub};

use wide::{f32x8, f64x4, i32x8, u32x8};

use super::{FloatV, IntV, MaskV, Outlined, Simd};

/// The portable backend token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

/// Eight f32 lanes (portable).
#[derive(Clone, Copy, Debug)]
pub struct PF(f32x8);
/// Eight i32 lanes (portable).
#[derive(Clone, Copy, Debug)]
pub struct PI(i32x8);
/// Eight lane masks (portable): all-ones / all-zeros i32 lanes.
#[derive(Clone, Copy, Debug)]
pub struct PM(i32x8);

impl Simd for Portable {
    type F = PF;
    type I = PI;
    type M = PM;
    const NAME: &'static str = "portable";
    // The fallback where AVX2 exists (x86-64); elsewhere the one backend.
    const SPECIALISE: bool = !cfg!(target_arch = "x86_64");

    #[inline(never)]
    fn outline<J: Outlined<Self>>(self, job: J) -> J::Output {
        job.run(self)
    }

    #[inline(always)]
    fn splat(self, v: f32) -> PF {
        PF(f32x8::splat(v))
    }
    #[inline(always)]
    fn f32s(self, a: [f32; 8]) -> PF {
        PF(f32x8::from(a))
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> PI {
        PI(i32x8::splat(v))
    }
    #[inline(always)]
    fn i32s(self, a: [i32; 8]) -> PI {
        PI(i32x8::from(a))
    }
    #[inline(always)]
    fn load_f32_prefix(self, s: &[f32]) -> PF {
        let mut a = [0.0f32; 8];
        let n = s.len().min(8);
        a[..n].copy_from_slice(&s[..n]);
        PF(f32x8::from(a))
    }
    #[inline(always)]
    fn load_u32(self, s: &[u32]) -> PI {
        let a: [u32; 8] = s[..8].try_into().unwrap_or([0; 8]);
        PI(i32x8::from(a.map(|v| v as i32)))
    }
    #[inline(always)]
    fn load_u32_rows(self, r0: &[u32], r1: &[u32]) -> PI {
        let (a, b) = (&r0[..4], &r1[..4]);
        PI(i32x8::from([
            a[0] as i32,
            a[1] as i32,
            a[2] as i32,
            a[3] as i32,
            b[0] as i32,
            b[1] as i32,
            b[2] as i32,
            b[3] as i32,
        ]))
    }
    #[inline(always)]
    fn mask_from_bits(self, bits: u32) -> PM {
        // Vector ops, not a per-lane closure (which does not inline).
        let lanes = i32x8::from([1, 2, 4, 8, 16, 32, 64, 128]);
        PM((i32x8::splat(bits as i32) & lanes).simd_eq(lanes))
    }
    #[inline(always)]
    fn unorm_f64(self, z: PF, bits: u32) -> PI {
        let scale = f64x4::splat(((1u64 << bits) - 1) as f64);
        let a = z.0.to_array();
        let lo = f64x4::from([a[0] as f64, a[1] as f64, a[2] as f64, a[3] as f64]);
        let hi = f64x4::from([a[4] as f64, a[5] as f64, a[6] as f64, a[7] as f64]);
        let half = f64x4::splat(0.5);
        let lo = (lo * scale + half).floor().to_array();
        let hi = (hi * scale + half).floor().to_array();
        PI(i32x8::from([
            lo[0] as i32,
            lo[1] as i32,
            lo[2] as i32,
            lo[3] as i32,
            hi[0] as i32,
            hi[1] as i32,
            hi[2] as i32,
            hi[3] as i32,
        ]))
    }
}

macro_rules! binop {
    ($t:ident, $tr:ident, $f:ident) => {
        impl $tr for $t {
            type Output = $t;
            #[inline(always)]
            fn $f(self, o: $t) -> $t {
                $t(self.0.$f(o.0))
            }
        }
    };
}

binop!(PF, Add, add);
binop!(PF, Sub, sub);
binop!(PF, Mul, mul);
binop!(PF, Div, div);
binop!(PI, Add, add);
binop!(PI, Sub, sub);
binop!(PI, BitAnd, bitand);
binop!(PI, BitOr, bitor);
binop!(PI, BitXor, bitxor);
binop!(PM, BitAnd, bitand);
binop!(PM, BitOr, bitor);
binop!(PM, BitXor, bitxor);

impl Not for PM {
    type Output = PM;
    #[inline(always)]
    fn not(self) -> PM {
        PM(self.0 ^ i32x8::splat(-1))
    }
}

#[inline(always)]
fn fmask(m: f32x8) -> PM {
    PM(bytemuck::cast(m))
}

impl FloatV for PF {
    type I = PI;
    type M = PM;
    #[inline(always)]
    fn to_array(self) -> [f32; 8] {
        self.0.to_array()
    }
    #[inline(always)]
    fn store(self, out: &mut [f32]) {
        out[..8].copy_from_slice(&self.0.to_array());
    }
    #[inline(always)]
    fn min(self, b: PF) -> PF {
        self.lt(b).select_f(self, b)
    }
    #[inline(always)]
    fn max(self, b: PF) -> PF {
        self.gt(b).select_f(self, b)
    }
    #[inline(always)]
    fn floor(self) -> PF {
        // roundps returns the quieted input NaN; `wide`'s SSE2 fallback does
        // not, and x + x is the quieted NaN on every x86 path.
        let nan = self.0.simd_ne(self.0);
        PF(nan.select(self.0 + self.0, self.0.floor()))
    }
    #[inline(always)]
    fn sqrt(self) -> PF {
        PF(self.0.sqrt())
    }
    #[inline(always)]
    fn ddx(self) -> PF {
        let a = self.0.to_array();
        let (hi, lo) = ([1, 1, 3, 3, 5, 5, 7, 7], [0, 0, 2, 2, 4, 4, 6, 6]);
        PF(f32x8::from(hi.map(|i| a[i])) - f32x8::from(lo.map(|i| a[i])))
    }
    #[inline(always)]
    fn ddy(self) -> PF {
        let a = self.0.to_array();
        let (hi, lo) = ([4, 5, 6, 7, 4, 5, 6, 7], [0, 1, 2, 3, 0, 1, 2, 3]);
        PF(f32x8::from(hi.map(|i| a[i])) - f32x8::from(lo.map(|i| a[i])))
    }
    #[inline(always)]
    fn lt(self, b: PF) -> PM {
        fmask(self.0.simd_lt(b.0))
    }
    #[inline(always)]
    fn le(self, b: PF) -> PM {
        fmask(self.0.simd_le(b.0))
    }
    #[inline(always)]
    fn gt(self, b: PF) -> PM {
        fmask(self.0.simd_gt(b.0))
    }
    #[inline(always)]
    fn ge(self, b: PF) -> PM {
        fmask(self.0.simd_ge(b.0))
    }
    #[inline(always)]
    fn eq(self, b: PF) -> PM {
        fmask(self.0.simd_eq(b.0))
    }
    #[inline(always)]
    fn ne(self, b: PF) -> PM {
        fmask(self.0.simd_ne(b.0))
    }
    #[inline(always)]
    fn to_i32(self) -> PI {
        // x86 cvttps2dq: out of range and NaN give i32::MIN. In range every
        // truncating conversion agrees; the rest is selected explicitly.
        let v = self.0;
        let in_range =
            v.simd_gt(f32x8::splat(-2_147_483_904.0)) & v.simd_lt(f32x8::splat(2_147_483_648.0));
        let m: i32x8 = bytemuck::cast(in_range);
        PI(m.select(v.fast_trunc_int(), i32x8::splat(i32::MIN)))
    }
    #[inline(always)]
    fn to_bits(self) -> PI {
        PI(bytemuck::cast(self.0))
    }
}

impl IntV for PI {
    type F = PF;
    type M = PM;
    #[inline(always)]
    fn to_array(self) -> [i32; 8] {
        self.0.to_array()
    }
    #[inline(always)]
    fn store_u32(self, out: &mut [u32]) {
        out[..8].copy_from_slice(&self.0.to_array().map(|v| v as u32));
    }
    #[inline(always)]
    fn store_u32_rows(self, r0: &mut [u32], r1: &mut [u32]) {
        let a = self.0.to_array();
        for i in 0..4 {
            r0[i] = a[i] as u32;
            r1[i] = a[4 + i] as u32;
        }
    }
    #[inline(always)]
    fn mul_lo(self, b: PI) -> PI {
        PI(self.0 * b.0)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> PI {
        PI(self.0 << n)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> PI {
        let u: u32x8 = bytemuck::cast(self.0);
        PI(bytemuck::cast(u >> n))
    }
    #[inline(always)]
    fn sra(self, n: u32) -> PI {
        PI(self.0 >> n)
    }
    #[inline(always)]
    fn min(self, b: PI) -> PI {
        PI(self.0.min(b.0))
    }
    #[inline(always)]
    fn max(self, b: PI) -> PI {
        PI(self.0.max(b.0))
    }
    #[inline(always)]
    fn eq(self, b: PI) -> PM {
        PM(self.0.simd_eq(b.0))
    }
    #[inline(always)]
    fn gt(self, b: PI) -> PM {
        PM(self.0.simd_gt(b.0))
    }
    #[inline(always)]
    fn lt(self, b: PI) -> PM {
        PM(self.0.simd_lt(b.0))
    }
    #[inline(always)]
    fn to_f32(self) -> PF {
        PF(self.0.round_float())
    }
    #[inline(always)]
    fn cast_f32(self) -> PF {
        PF(bytemuck::cast(self.0))
    }
}

impl MaskV for PM {
    type I = PI;
    type F = PF;
    #[inline(always)]
    fn bits(self) -> u32 {
        // Sign bits (masks are all-ones or all-zeros per lane).
        bytemuck::cast::<i32x8, f32x8>(self.0).to_bitmask()
    }
    #[inline(always)]
    fn select_f(self, a: PF, b: PF) -> PF {
        let m: f32x8 = bytemuck::cast(self.0);
        PF(m.select(a.0, b.0))
    }
    #[inline(always)]
    fn select_i(self, a: PI, b: PI) -> PI {
        PI(self.0.select(a.0, b.0))
    }
    #[inline(always)]
    fn to_i(self) -> PI {
        PI(self.0)
    }
}
