//! Backend equivalence: every operation gives the same bits on every backend,
//! including NaN, infinities, denormals and out-of-range conversions.

use super::*;

/// Runs a fixed battery of operations and returns every result's bits.
struct Battery {
    a: [f32; 8],
    b: [f32; 8],
    i: [i32; 8],
    j: [i32; 8],
}

impl Kernel for Battery {
    type Output = Vec<u32>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<u32> {
        let (a, b) = (s.f32s(self.a), s.f32s(self.b));
        let (i, j) = (s.i32s(self.i), s.i32s(self.j));
        let mut out = Vec::new();
        let mut f = |v: S::F| out.extend(v.to_array().map(f32::to_bits));
        f(a + b);
        f(a - b);
        f(a * b);
        f(a / b);
        f(a.min(b));
        f(a.max(b));
        f(a.floor());
        f(a.sqrt());
        f(i.to_f32());
        f(a.lt(b).select_f(a, b));
        f(i.cast_f32());
        let mut g = |v: S::I| out.extend(v.to_array().map(|x| x as u32));
        g(a.to_i32());
        g(a.to_bits());
        g(i + j);
        g(i - j);
        g(i & j);
        g(i | j);
        g(i ^ j);
        g(i.mul_lo(j));
        g(i.shl(3));
        g(i.shr(5));
        g(i.sra(5));
        g(i.min(j));
        g(i.max(j));
        g(i.gt(j).select_i(i, j));
        g(s.unorm_f64(a.max(s.splat(0.0)).min(s.splat(1.0)), 24));
        g(s.unorm_f64(a.max(s.splat(0.0)).min(s.splat(1.0)), 16));
        g(s.load_u32(&[1, 2, 3, 0xFFFF_FFFF, 5, 6, 7, 8]));
        let masks = [
            a.lt(b),
            a.le(b),
            a.gt(b),
            a.ge(b),
            a.eq(b),
            a.ne(b),
            i.eq(j),
            i.gt(j),
            i.lt(j),
            s.mask_from_bits(0xA5),
            !a.lt(b),
            a.lt(b) & i.gt(j),
            a.lt(b) | i.gt(j),
            a.lt(b) ^ i.gt(j),
        ];
        for m in masks {
            out.push(m.bits());
            out.extend(m.to_i().to_array().map(|x| x as u32));
        }
        let mut st = [0u32; 8];
        (i + j).store_u32(&mut st);
        out.extend(st);
        out.extend(a.ddx().to_array().map(f32::to_bits));
        out.extend(a.ddy().to_array().map(f32::to_bits));
        out
    }
}

fn xorshift(state: &mut u32) -> u32 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    x
}

fn special(r: u32) -> f32 {
    const S: [f32; 12] = [
        0.0,
        -0.0,
        1.0,
        0.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-40,
        3e9,
        -3e9,
        16_777_215.5,
        0.999_999_94,
    ];
    S[(r % 12) as usize]
}

#[test]
// Miri deliberately gives NaN results a random sign and payload (Rust leaves
// them unspecified); on hardware both backends produce the x86 default NaN.
#[cfg_attr(miri, ignore = "Miri randomises NaN bit patterns")]
fn backends_agree_bit_for_bit() {
    let mut st = 0x1234_5678u32;
    for round in 0..2000 {
        let mut fl = || {
            let r = xorshift(&mut st);
            if round % 3 == 0 && r.is_multiple_of(4) {
                special(r >> 8)
            } else if r.is_multiple_of(2) {
                (r >> 8) as f32 / (1 << 24) as f32
            } else {
                f32::from_bits(xorshift(&mut st))
            }
        };
        let a: [f32; 8] = std::array::from_fn(|_| fl());
        let b: [f32; 8] = std::array::from_fn(|_| fl());
        let i: [i32; 8] = std::array::from_fn(|_| xorshift(&mut st) as i32);
        let j: [i32; 8] = std::array::from_fn(|k| {
            if k % 3 == 0 {
                i[k]
            } else {
                xorshift(&mut st) as i32
            }
        });
        let p = dispatch(Backend::Portable, Battery { a, b, i, j });
        let want_avx = Backend::new(true);
        let q = dispatch(want_avx, Battery { a, b, i, j });
        assert_eq!(p, q, "round {round}: a={a:?} b={b:?} i={i:?} j={j:?}");
    }
}

#[test]
fn documented_semantics() {
    for backend in [Backend::Portable, Backend::new(true)] {
        let r = dispatch(
            backend,
            Battery {
                a: [1.0, f32::NAN, 3e9, -1.5, 0.5, 1.0, 0.0, 2.0],
                b: [2.0, 1.0, 1.0, 1.0, 1.0, 0.0, f32::NAN, 2.0],
                i: [1; 8],
                j: [2; 8],
            },
        );
        // min: a < b ? a : b; NaN in a gives b.
        let min: Vec<f32> = r[32..40].iter().map(|&b| f32::from_bits(b)).collect();
        assert_eq!(min[0], 1.0);
        assert_eq!(min[1], 1.0);
        assert!(min[6].is_nan());
        // Truncating conversion, out of range → i32::MIN, -1.5 → -1.
        let conv: Vec<i32> = r[88..96].iter().map(|&b| b as i32).collect();
        assert_eq!(conv[0], 1);
        assert_eq!(conv[1], i32::MIN);
        assert_eq!(conv[2], i32::MIN);
        assert_eq!(conv[3], -1);
        // Fine derivatives: a[i | 1] - a[i & !1] and a[i | 4] - a[i & !4].
        let n = r.len();
        let d: Vec<f32> = r[n - 16..].iter().map(|&b| f32::from_bits(b)).collect();
        assert!(d[0].is_nan() && d[1].is_nan());
        assert_eq!(&d[2..8], &[-3e9 - 1.5, -3e9 - 1.5, 0.5, 0.5, 2.0, 2.0]);
        assert_eq!(d[8], 0.5 - 1.0);
        assert!(d[9].is_nan() && d[13].is_nan());
        assert_eq!(
            [d[10], d[11], d[12], d[14], d[15]],
            [-3e9, 3.5, -0.5, -3e9, 3.5]
        );
    }
}

#[test]
fn depth_quantisation_matches_format_encoding() {
    use crate::format::{Format, encode_depth_stencil};
    let mut st = 77u32;
    for _ in 0..4000 {
        let z: [f32; 8] =
            std::array::from_fn(|_| (xorshift(&mut st) >> 8) as f32 / (1 << 24) as f32);
        struct Q([f32; 8]);
        impl Kernel for Q {
            type Output = ([i32; 8], [i32; 8]);
            #[inline(always)]
            fn run<S: Simd>(self, s: S) -> Self::Output {
                let z = s.f32s(self.0);
                (s.unorm_f64(z, 24).to_array(), s.unorm_f64(z, 16).to_array())
            }
        }
        for backend in [Backend::Portable, Backend::new(true)] {
            let (d24, d16) = dispatch(backend, Q(z));
            for k in 0..8 {
                let mut px = [0u8; 4];
                encode_depth_stencil(Format::D24X8, z[k], 0, &mut px);
                assert_eq!(u32::from_le_bytes(px) >> 8, d24[k] as u32, "z={}", z[k]);
                encode_depth_stencil(Format::D16, z[k], 0, &mut px);
                assert_eq!(u32::from(u16::from_le_bytes([px[0], px[1]])), d16[k] as u32);
            }
        }
    }
    // The tie: 0.5 * (2^24 - 1) = 8388607.5 rounds up.
    struct Half;
    impl Kernel for Half {
        type Output = i32;
        fn run<S: Simd>(self, s: S) -> i32 {
            s.unorm_f64(s.splat(0.5), 24).to_array()[0]
        }
    }
    assert_eq!(dispatch(Backend::Portable, Half), 8_388_608);
}

/// The first `z` of `zs` (a multiple of 8 long) where [`unorm`] and
/// [`Simd::unorm_f64`] differ.
struct UnormCmp<'a> {
    zs: &'a [f32],
    bits: u32,
}

impl Kernel for UnormCmp<'_> {
    type Output = Option<f32>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Option<f32> {
        for c in self.zs.chunks_exact(8) {
            let z = s.f32s([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            let d = unorm(s, z, self.bits).eq(s.unorm_f64(z, self.bits)).bits();
            if d != 0xFF {
                return Some(c[d.trailing_ones() as usize]);
            }
        }
        None
    }
}

/// Checks `zs` on every backend.
fn unorm_agrees(zs: &mut Vec<f32>, bits: u32) {
    while !zs.len().is_multiple_of(8) {
        zs.push(0.0);
    }
    for backend in [Backend::Portable, Backend::new(true)] {
        let bad = dispatch(backend, UnormCmp { zs, bits });
        assert_eq!(bad, None, "bits={bits} backend={}", backend.name());
    }
}

#[test]
#[cfg_attr(miri, ignore = "millions of cases: too slow interpreted")]
fn unorm_f32_matches_f64_at_every_rounding_boundary() {
    // For every step n, the f32 values nearest (n + 0.5) / (2^bits - 1)
    // (where the result changes) and their neighbours, plus the ends.
    for bits in (1..=10).chain([15, 16, 17, 23, 24]) {
        let max = ((1u64 << bits) - 1) as f64;
        let mut zs = vec![0.0, -0.0, 1.0, f32::MIN_POSITIVE, 1e-45, 0.25, 0.5, 0.75];
        for n in 0..(1u64 << bits) {
            let t = ((n as f64 + 0.5) / max) as f32;
            for d in -3i32..=3 {
                let z = f32::from_bits((t.to_bits() as i32 + d) as u32);
                if (0.0..=1.0).contains(&z) {
                    zs.push(z);
                }
            }
        }
        // Tiny values (where z * 2^bits < 1): every power of two and its neighbours.
        for e in 0..150 {
            let p = (2f64.powi(-e)) as f32;
            for d in -2i32..=2 {
                let z = f32::from_bits((p.to_bits() as i32 + d).max(0) as u32);
                if (0.0..=1.0).contains(&z) {
                    zs.push(z);
                }
            }
        }
        unorm_agrees(&mut zs, bits);
    }
}

/// Every f32 in [0, 1] (about 1.07e9 values): `cargo test --release --lib
/// unorm_f32_exhaustive -- --ignored`.
#[test]
#[ignore = "exhaustive, slow without --release"]
fn unorm_f32_exhaustive() {
    let end = 1.0f32.to_bits();
    let mut zs = Vec::with_capacity(1 << 20);
    for bits in [16, 24] {
        let mut b = 0u32;
        while b <= end {
            zs.clear();
            let stop = (b + (1 << 20)).min(end + 1);
            zs.extend((b..stop).map(f32::from_bits));
            unorm_agrees(&mut zs, bits);
            b = stop;
        }
    }
}

#[test]
fn to_i32_and_masks_agree_on_boundaries() {
    struct T([f32; 8], u32);
    impl Kernel for T {
        type Output = ([i32; 8], u32, u32);
        #[inline(always)]
        fn run<S: Simd>(self, s: S) -> Self::Output {
            let v = s.f32s(self.0);
            let m = s.mask_from_bits(self.1);
            (v.to_i32().to_array(), m.bits(), v.lt(s.splat(0.0)).bits())
        }
    }
    let specials = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        2_147_483_648.0,
        2_147_483_520.0,
        -2_147_483_648.0,
        -2_147_483_904.0,
        -2_147_483_650.0,
        -0.0,
        -0.99,
        0.99,
        1e-45,
        -1.5,
        16_777_217.0,
        3e9,
        -3e9,
    ];
    for c in specials.chunks(8) {
        for bits in [0, 1, 0x80, 0xA5, 0x5A, 0xFF] {
            let a: [f32; 8] = c.try_into().unwrap();
            let want: [i32; 8] = std::array::from_fn(|i| {
                let v = a[i];
                if v > -2_147_483_904.0 && v < 2_147_483_648.0 {
                    v as i32
                } else {
                    i32::MIN
                }
            });
            for backend in [Backend::Portable, Backend::new(true)] {
                let (got, mb, lt) = dispatch(backend, T(a, bits));
                assert_eq!(got, want, "{a:?} {}", backend.name());
                assert_eq!(mb, bits);
                let want_lt = (0..8).fold(0, |acc, i| acc | (u32::from(a[i] < 0.0) << i));
                assert_eq!(lt, want_lt);
            }
        }
    }
}

/// Exercises the edges the `unsafe` loads, stores and the masked gather
/// rely on: unaligned sub-slices (offset 1 of a u32 buffer), the last 8 (or
/// 4) elements of a buffer, and gather indices that are negative, equal to
/// the length or huge (those lanes must read 0 and nothing outside the
/// slice). Run under Miri it also checks that no access leaves the slice.
struct Edges {
    words: Vec<u32>,
}

impl Kernel for Edges {
    type Output = Vec<u32>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<u32> {
        let w = &self.words;
        let n = w.len();
        let mut out = Vec::new();
        let mut g = |v: S::I| out.extend(v.to_array().map(|x| x as u32));
        g(s.load_u32(&w[1..9]));
        g(s.load_u32(&w[n - 8..]));
        g(s.load_u32_rows(&w[1..5], &w[n - 4..]));
        // A slice shorter than 8: the gather may touch only its 5 words.
        let short = &w[3..8];
        g(s.gather_u32(short, s.i32s([0, 4, 5, -1, i32::MIN, i32::MAX, 2, 1])));
        g(s.gather_u32(&w[..0], s.i32s([0; 8])));
        // Adjacent pairs: all inside (the 64-bit loads, unaligned, up to the
        // last word), one pair past the end, one lane not adjacent.
        let one = s.splat_i(1);
        for i0 in [
            s.i32s([0, 3, 1, 2, 1, 0, 3, 2]),
            s.i32s([0, 1, 2, 3, 4, 0, 1, 4]),
        ] {
            let (a, b) = s.gather_u32_adjacent(short, i0, i0 + one);
            g(a);
            g(b);
        }
        let (a, b) = s.gather_u32_adjacent(short, s.i32s([0; 8]), s.i32s([1, 1, 1, 1, 1, 1, 1, 3]));
        g(a);
        g(b);
        // Bilinear quads: one row gap for every lane (positive, then
        // negative), a gap that differs between lanes, a pair past the end.
        let x0 = s.i32s([0, 1, 0, 1, 1, 0, 1, 0]);
        let split = [
            s.i32s([2, 2, 2, 2, 0, 0, 0, 0]),
            s.i32s([0, 0, 0, 0, 2, 2, 2, 2]),
        ];
        for (rows, x0) in [
            ([s.splat_i(0), s.splat_i(2)], x0),
            ([s.splat_i(3), s.splat_i(0)], s.splat_i(0)),
            (split, s.splat_i(1)),
            ([s.splat_i(0), s.splat_i(3)], s.splat_i(1)),
        ] {
            for v in s.gather_u32_quad(short, rows, [x0, x0 + one]) {
                g(v);
            }
        }
        let mut buf = [0u32; 13];
        let v = s.load_u32(&w[2..10]);
        v.store_u32(&mut buf[1..9]);
        v.store_u32(&mut buf[5..]);
        let (head, tail) = buf.split_at_mut(9);
        v.store_u32_rows(&mut head[..4], tail);
        out.extend(&buf);
        let mut fl = [0f32; 9];
        s.f32s(std::array::from_fn(|i| i as f32 + 0.5))
            .store(&mut fl[1..]);
        out.extend(fl.iter().map(|f| f.to_bits()));
        out
    }
}

#[test]
fn unsafe_loads_stores_and_gathers_at_the_edges() {
    let words: Vec<u32> = (0..11).map(|i| 100 + i).collect();
    let want: Vec<u32> = [
        &[101, 102, 103, 104, 105, 106, 107, 108][..],
        &[103, 104, 105, 106, 107, 108, 109, 110],
        &[101, 102, 103, 104, 107, 108, 109, 110],
        &[103, 107, 0, 0, 0, 0, 105, 104],
        &[0; 8],
        &[103, 106, 104, 105, 104, 103, 106, 105],
        &[104, 107, 105, 106, 105, 104, 107, 106],
        &[103, 104, 105, 106, 107, 103, 104, 107],
        &[104, 105, 106, 107, 0, 104, 105, 0],
        &[103; 8],
        &[104, 104, 104, 104, 104, 104, 104, 106],
        &[103, 104, 103, 104, 104, 103, 104, 103],
        &[104, 105, 104, 105, 105, 104, 105, 104],
        &[105, 106, 105, 106, 106, 105, 106, 105],
        &[106, 107, 106, 107, 107, 106, 107, 106],
        &[106; 8],
        &[107; 8],
        &[103; 8],
        &[104; 8],
        &[106, 106, 106, 106, 104, 104, 104, 104],
        &[107, 107, 107, 107, 105, 105, 105, 105],
        &[104, 104, 104, 104, 106, 106, 106, 106],
        &[105, 105, 105, 105, 107, 107, 107, 107],
        &[104; 8],
        &[105; 8],
        &[107; 8],
        &[0; 8],
        // buf: rows at 0..4 and 9..13, then the two full stores in between.
        &[
            102, 103, 104, 105, 105, 102, 103, 104, 105, 106, 107, 108, 109,
        ],
    ]
    .concat();
    for backend in [Backend::Portable, Backend::new(true)] {
        let got = dispatch(
            backend,
            Edges {
                words: words.clone(),
            },
        );
        assert_eq!(&got[..want.len()], &want[..], "{backend:?}");
        let floats: Vec<f32> = got[want.len()..]
            .iter()
            .map(|&b| f32::from_bits(b))
            .collect();
        assert_eq!(floats, [0.0, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]);
    }
}

/// `Simd::gather_u32_quad` on 4x2 blocks of consecutive texels (AVX2's six
/// row loads) in a slice of exactly three rows of five words.
struct Blocks;

impl Kernel for Blocks {
    type Output = Vec<u32>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<u32> {
        let words: Vec<u32> = (0..15).map(|i| 100 + i).collect();
        let mut out = Vec::new();
        let lanes = s.i32s([0, 1, 2, 3, 0, 1, 2, 3]);
        let down = s.i32s([0, 0, 0, 0, 5, 5, 5, 5]);
        let up = s.i32s([10, 10, 10, 10, 5, 5, 5, 5]);
        let (one, five) = (s.splat_i(1), s.splat_i(5));
        // Rows 0, 5, 10 (the last load ends at the slice's last word); the
        // same rows upwards (a negative gap); one lane off the block.
        for (rows, x0) in [
            ([down, down + five], lanes),
            ([up, up - five], lanes),
            ([down, down + five], s.i32s([0, 1, 2, 3, 0, 1, 3, 3])),
        ] {
            for v in s.gather_u32_quad(&words, rows, [x0, x0 + one]) {
                out.extend(v.to_array().map(|x| x as u32));
            }
        }
        out
    }
}

#[test]
fn gather_quad_reads_blocks_of_consecutive_texels() {
    let run = |from: u32, gap: i32| -> Vec<u32> {
        (0..8)
            .map(|l| (from as i32 + (l % 4) + if l < 4 { 0 } else { gap }) as u32)
            .collect()
    };
    let want: Vec<u32> = [
        run(100, 5),
        run(101, 5),
        run(105, 5),
        run(106, 5),
        run(110, -5),
        run(111, -5),
        run(105, -5),
        run(106, -5),
        vec![100, 101, 102, 103, 105, 106, 108, 108],
        vec![101, 102, 103, 104, 106, 107, 109, 109],
        vec![105, 106, 107, 108, 110, 111, 113, 113],
        vec![106, 107, 108, 109, 111, 112, 114, 114],
    ]
    .concat();
    for backend in [Backend::Portable, Backend::new(true)] {
        assert_eq!(dispatch(backend, Blocks), want, "{backend:?}");
    }
}

/// `transpose8` of a matrix whose every value is distinct.
struct Transpose;

impl Kernel for Transpose {
    type Output = Vec<[f32; 8]>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<[f32; 8]> {
        let m: [S::F; 8] =
            std::array::from_fn(|j| s.f32s(std::array::from_fn(|i| (10 * j + i) as f32)));
        s.transpose8(m).iter().map(|v| v.to_array()).collect()
    }
}

#[test]
fn transpose8_swaps_rows_and_lanes() {
    let want: Vec<[f32; 8]> = (0..8)
        .map(|i| std::array::from_fn(|j| (10 * j + i) as f32))
        .collect();
    for backend in [Backend::Portable, Backend::new(true)] {
        assert_eq!(dispatch(backend, Transpose), want, "{backend:?}");
    }
}

/// `interleave3` of three vectors whose every value is distinct.
struct Interleave;

impl Kernel for Interleave {
    type Output = Vec<f32>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<f32> {
        let v = |base: f32| s.f32s(std::array::from_fn(|i| base + i as f32));
        let out = s.interleave3(v(100.0), v(200.0), v(300.0));
        out.iter().flat_map(|v| v.to_array()).collect()
    }
}

#[test]
fn interleave3_lays_triples_one_after_another() {
    // Element 3i + j is lane i of source j: 100+i, 200+i, 300+i in turn.
    let want: Vec<f32> = (0..8)
        .flat_map(|i| [100.0 + i as f32, 200.0 + i as f32, 300.0 + i as f32])
        .collect();
    assert_eq!(want[..6], [100.0, 200.0, 300.0, 101.0, 201.0, 301.0]);
    for backend in [Backend::Portable, Backend::new(true)] {
        assert_eq!(dispatch(backend, Interleave), want, "{backend:?}");
    }
}

/// The floats [`Prefixes`] loads from: special values among plain ones.
const PREFIX_SOURCE: [f32; 10] = [
    1.5,
    -0.0,
    f32::NAN,
    f32::INFINITY,
    f32::MIN_POSITIVE / 2.0,
    -3.0,
    7.25,
    f32::NEG_INFINITY,
    9.0,
    10.0,
];

/// `load_f32_prefix` of the last `n` floats of a vector, for every `n`
/// from 0 to 10 (lanes past a short slice 0.0; special values kept bit
/// for bit). Under Miri this also checks that no lane past the slice is read.
struct Prefixes;

impl Kernel for Prefixes {
    type Output = Vec<[u32; 8]>;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Vec<[u32; 8]> {
        let src = PREFIX_SOURCE;
        (0..=src.len())
            .map(|n| {
                let v = s.load_f32_prefix(&src[src.len() - n..]);
                v.to_array().map(f32::to_bits)
            })
            .collect()
    }
}

#[test]
fn prefix_loads_fill_the_lanes_past_a_short_slice_with_zero() {
    let src = PREFIX_SOURCE;
    let want: Vec<[u32; 8]> = (0..=src.len())
        .map(|n| {
            let tail = &src[src.len() - n..];
            std::array::from_fn(|i| tail.get(i).copied().unwrap_or(0.0).to_bits())
        })
        .collect();
    assert_eq!(dispatch(Backend::Portable, Prefixes), want);
    assert_eq!(dispatch(Backend::new(true), Prefixes), want);
}
