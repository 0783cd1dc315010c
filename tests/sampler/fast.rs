//! The Warp sampler's fast path (every lane of a call on the same level of
//! a 2D texture in a 4-byte packed format: A8R8G8B8, X8R8G8B8, G16R16,
//! A2R10G10B10, and DXT, which samples as decoded RGBA8) against the
//! Reference, on random requests built so that the fast path is selected:
//! the eight lanes share one LOD (`Lod::Level` with one value, or the same
//! derivatives), so they read the same level or pair of levels. Sizes are
//! power-of-two (WRAP as a bit mask) and not (the general WRAP), address
//! modes and filters random, coordinates include off-range and special
//! values, some calls have inactive lanes. Portable and AVX2 backends.

use crate::sampler_support::Rng;
use warp9::internals::sampler::{BoundTextures, SamplerDesc};
use warp9::internals::simd::{FloatV, IntV, Portable, Simd};
use warp9::internals::texture_fetch::{Lod, TextureFetch, TextureFetchScalar};
use warp9::resource::BaseTexture;
use warp9::state::{TextureAddress as A, TextureFilter as F};
use warp9::{Device, DeviceDesc, Format, Pool, Usage};

/// Texture coordinates for the random requests, special values included.
trait Coord {
    fn coord(&mut self) -> f32;
}

impl Coord for Rng {
    fn coord(&mut self) -> f32 {
        match self.below(60) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1e20,
            3 => 0.0,
            4 => 1.0,
            5 => 3e5,
            6 => -7e6,
            // Near the 2^22-texel limit of the integer split on 32-texel axes.
            7 => 131_071.99,
            8 => -131_071.99,
            9 => -131_072.0,
            _ => self.f(-2.5, 3.5),
        }
    }
}

const FORMATS: [Format; 7] = [
    Format::A8R8G8B8,
    Format::X8R8G8B8,
    Format::G16R16,
    Format::A2R10G10B10,
    Format::A8B8G8R8,
    Format::DXT1,
    Format::DXT5,
];

fn random_texture(d: &mut Device, r: &mut Rng) -> BaseTexture {
    let format = FORMATS[r.below(FORMATS.len() as u64) as usize];
    let dims: [u32; 10] = [1, 2, 4, 8, 16, 32, 3, 5, 12, 20];
    let pick = |r: &mut Rng| {
        let n = dims[r.below(dims.len() as u64) as usize];
        if format.is_compressed() {
            n.next_multiple_of(4)
        } else {
            n
        }
    };
    let (w, h) = (pick(r), pick(r));
    let full = 32 - w.max(h).leading_zeros();
    let levels = (1 + r.below(4) as u32).min(full);
    let t = d
        .create_texture(w, h, levels, Usage::empty(), format, Pool::Scratch)
        .unwrap();
    for l in 0..t.level_count() {
        let mut lock = t.lock_rect(l, None, warp9::LockFlags::empty()).unwrap();
        for b in lock.bytes.iter_mut() {
            *b = r.next() as u8;
        }
    }
    t.into()
}

fn random_desc(r: &mut Rng) -> SamplerDesc {
    let addr = [A::Wrap, A::Mirror, A::Clamp, A::Border, A::MirrorOnce];
    // Mostly linear (the fast path's main case); point and anisotropic too.
    let filt = [F::Linear, F::Linear, F::Point, F::Anisotropic];
    let mip = [F::None, F::Point, F::Linear];
    let pick = |r: &mut Rng, n: usize| r.below(n as u64) as usize;
    let wrap = r.below(2) == 0;
    SamplerDesc {
        address: std::array::from_fn(|_| if wrap { A::Wrap } else { addr[pick(r, 5)] }),
        border_color: r.next() as u32,
        mag_filter: filt[pick(r, 4)],
        min_filter: filt[pick(r, 4)],
        mip_filter: mip[pick(r, 3)],
        mip_lod_bias: if r.below(2) == 0 { 0.0 } else { r.f(-2.0, 2.0) },
        max_mip_level: r.below(3) as u32,
        max_anisotropy: 1 + r.below(16) as u32,
        srgb: false,
    }
}

/// Eight lanes' coordinates and one shared LOD form.
struct Req {
    c: [[f32; 4]; 8],
    ddx: [f32; 3],
    ddy: [f32; 3],
    form: u64,
    extra: f32,
}

fn lod_of<T: Copy>(form: u64, ddx: [T; 3], ddy: [T; 3], extra: T) -> Lod<T> {
    match form {
        0 => Lod::Implicit { ddx, ddy },
        1 => Lod::Bias {
            ddx,
            ddy,
            bias: extra,
        },
        _ => Lod::Level(extra),
    }
}

/// Checks one request on `s` (and, for an implicit LOD, the pixel stages'
/// shortcut `sample_quick` too); returns whether the shortcut served it.
fn check<S: Simd>(s: S, b: &BoundTextures, req: &Req, mask: u32) -> bool {
    let coords: [S::F; 4] = std::array::from_fn(|k| s.f32s(std::array::from_fn(|i| req.c[i][k])));
    let ddx = req.ddx.map(|x| s.splat(x));
    let ddy = req.ddy.map(|x| s.splat(x));
    let lod = lod_of(req.form, ddx, ddy, s.splat(req.extra));
    let out = TextureFetch::<S>::sample(b, s, 0, coords, lod, s.mask_from_bits(mask))
        .map(|x| x.to_array());
    let quick = (req.form == 0)
        .then(|| {
            let c = [coords[0], coords[1], coords[2]];
            b.sample_quick(s, 0, c, ddx, ddy, s.mask_from_bits(mask))
        })
        .flatten()
        .map(|q| q.map(|x| x.to_array()));
    compare(b, req, mask, &out, S::NAME);
    if let Some(q) = &quick {
        compare(b, req, mask, q, "quick");
    }
    if req.form == 0 {
        let c = [coords[0], coords[1], coords[2]];
        if let Some(words) = b.sample_quick_packed(s, 0, c, ddx, ddy, s.mask_from_bits(mask)) {
            compare_packed(b, req, mask, words.to_array());
        }
    }
    quick.is_some()
}

/// `sample_quick_packed`'s words against the Reference's colour quantised
/// as the fast merger quantises a saturated colour.
fn compare_packed(b: &BoundTextures, req: &Req, mask: u32, words: [i32; 8]) {
    for (i, c) in req.c.iter().enumerate() {
        let want = if (mask >> i) & 1 == 1 {
            let lod = lod_of(req.form, req.ddx, req.ddy, req.extra);
            let v = TextureFetchScalar::sample(b, 0, *c, lod);
            let q = |x: f32| ((x.clamp(0.0, 1.0) * 255.0 + 0.5) as u32) & 0xFF;
            q(v[2]) | q(v[1]) << 8 | q(v[0]) << 16 | q(v[3]) << 24
        } else {
            0
        };
        assert_eq!(
            words[i] as u32, want,
            "packed lane {i}: {:#010x} vs Reference {want:#010x}, coords {c:?}",
            words[i] as u32
        );
    }
}

/// `out` (four channels of eight lanes) against the Reference, lane by lane.
fn compare(b: &BoundTextures, req: &Req, mask: u32, out: &[[f32; 8]; 4], path: &str) {
    for (i, c) in req.c.iter().enumerate() {
        let want = if (mask >> i) & 1 == 1 {
            let lod = lod_of(req.form, req.ddx, req.ddy, req.extra);
            TextureFetchScalar::sample(b, 0, *c, lod)
        } else {
            [0.0; 4]
        };
        let got = [out[0][i], out[1][i], out[2][i], out[3][i]];
        let canon = |v: [f32; 4]| v.map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() });
        assert_eq!(
            canon(got),
            canon(want),
            "{path} lane {i}: {got:?} vs Reference {want:?}, coords {:?}, form {}",
            c,
            req.form
        );
    }
}

#[test]
fn fast_path_matches_reference_on_shared_lod_requests() {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[warp9::caps::DriverType::Warp],
        levels: &[warp9::caps::FeatureLevel::Sm3],
        back_buffer: (8, 8, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap();
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let (mut calls, mut quick) = (0, 0);
    for _ in 0..120 {
        let tex = random_texture(&mut d, &mut r);
        for _ in 0..4 {
            let mut b = BoundTextures::new();
            b.bind(0, Some(&tex), &random_desc(&mut r));
            for _ in 0..16 {
                let scale = 2f32.powi(r.below(12) as i32 - 8);
                let req = Req {
                    c: std::array::from_fn(|_| [r.coord(), r.coord(), r.coord(), 1.0]),
                    ddx: std::array::from_fn(|_| r.f(-1.0, 1.0) * scale),
                    ddy: std::array::from_fn(|_| r.f(-1.0, 1.0) * scale),
                    form: r.below(3),
                    extra: r.f(-2.0, 4.0),
                };
                let mask = if r.below(4) == 0 {
                    r.next() as u32 & 0xFF
                } else {
                    0xFF
                };
                quick += usize::from(check(Portable, &b, &req, mask));
                #[cfg(target_arch = "x86_64")]
                if let Some(a) = warp9::internals::simd::Avx2::detect() {
                    check(a, &b, &req, mask);
                }
                calls += 1;
            }
        }
    }
    assert_eq!(calls, 120 * 4 * 16);
    // The shortcut served a real share of the implicit-LOD requests.
    assert!(quick > 100, "sample_quick served {quick} requests");
}
