//! Warp vs Reference on random requests: random formats, texture types,
//! sampler states, coordinates (including off-range and special values) and
//! LOD forms, 8 different lanes per call, on the portable backend and on
//! AVX2 where the CPU has it. Every lane must match the Reference bit for bit
//! (any NaN equals any NaN: payloads are not specified).

use crate::sampler_support::Rng;
use warp9::internals::sampler::{BoundTextures, SamplerDesc};
use warp9::internals::simd::{FloatV, Portable, Simd};
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
        match self.below(40) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1e20,
            3 => 0.0,
            4 => 1.0,
            _ => self.f(-2.5, 3.5),
        }
    }
}

const FORMATS: [Format; 16] = [
    Format::A8R8G8B8,
    Format::X8R8G8B8,
    Format::R5G6B5,
    Format::A4R4G4B4,
    Format::L8,
    Format::A8L8,
    Format::G16R16,
    Format::V8U8,
    Format::Q8W8V8U8,
    Format::A16B16G16R16F,
    Format::R32F,
    Format::A32B32G32R32F,
    Format::DXT1,
    Format::DXT3,
    Format::DXT5,
    Format::D16,
];

fn random_texture(d: &mut Device, r: &mut Rng) -> BaseTexture {
    let format = FORMATS[r.below(FORMATS.len() as u64) as usize];
    let kind = if format.is_compressed() || format.is_depth() {
        0
    } else {
        r.below(3)
    };
    let size = 4 << r.below(3);
    let levels = if format.is_depth() {
        1
    } else {
        1 + r.below(3) as u32
    };
    let fill = |bytes: &mut [u8], r: &mut Rng| {
        for b in bytes.iter_mut() {
            *b = r.next() as u8;
        }
        if matches!(format, Format::R32F | Format::A32B32G32R32F) {
            // Finite floats only (random bits would make NaN payload comparisons meaningless).
            for w in bytes.chunks_exact_mut(4) {
                w.copy_from_slice(&r.f(-4.0, 4.0).to_le_bytes());
            }
        }
    };
    match kind {
        0 => {
            let t = d
                .create_texture(size, size, levels, Usage::empty(), format, Pool::Scratch)
                .unwrap();
            for l in 0..levels {
                let mut lock = t.lock_rect(l, None, warp9::LockFlags::empty()).unwrap();
                fill(&mut lock.bytes, r);
            }
            t.into()
        }
        1 => {
            let t = d
                .create_cube_texture(size, levels, Usage::empty(), format, Pool::Scratch)
                .unwrap();
            for face in warp9::resource::CubeFace::ALL {
                for l in 0..levels {
                    let s = t.cube_map_surface(face, l).unwrap();
                    let mut lock = s.lock_rect(None, warp9::LockFlags::empty()).unwrap();
                    fill(&mut lock.bytes, r);
                }
            }
            t.into()
        }
        _ => {
            let t = d
                .create_volume_texture(
                    size,
                    size / 2,
                    4,
                    levels.min(2),
                    Usage::empty(),
                    format,
                    Pool::Scratch,
                )
                .unwrap();
            for l in 0..levels.min(2) {
                let v = t.volume_level(l).unwrap();
                let mut lock = v.lock_box(None, warp9::LockFlags::empty()).unwrap();
                fill(&mut lock.bytes, r);
            }
            t.into()
        }
    }
}

fn random_desc(r: &mut Rng) -> SamplerDesc {
    let addr = [A::Wrap, A::Mirror, A::Clamp, A::Border, A::MirrorOnce];
    let filt = [F::Point, F::Linear, F::Anisotropic];
    let mip = [F::None, F::Point, F::Linear];
    let pick = |r: &mut Rng, n: usize| r.below(n as u64) as usize;
    SamplerDesc {
        address: std::array::from_fn(|_| addr[pick(r, 5)]),
        border_color: r.next() as u32,
        mag_filter: filt[pick(r, 3)],
        min_filter: filt[pick(r, 3)],
        mip_filter: mip[pick(r, 3)],
        mip_lod_bias: if r.below(2) == 0 { 0.0 } else { r.f(-2.0, 2.0) },
        max_mip_level: r.below(4) as u32,
        max_anisotropy: 1 + r.below(16) as u32,
        srgb: r.below(3) == 0,
    }
}

/// One lane's request.
#[derive(Clone, Copy, Debug)]
struct Req {
    c: [f32; 4],
    ddx: [f32; 3],
    ddy: [f32; 3],
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
        2 => Lod::Level(extra),
        _ => Lod::Grad { ddx, ddy },
    }
}

fn check<S: Simd>(s: S, b: &BoundTextures, form: u64, reqs: &[Req; 8], mask: u32) -> usize {
    let v = |f: &dyn Fn(&Req) -> f32| s.f32s(std::array::from_fn(|i| f(&reqs[i])));
    let coords = [
        v(&|r| r.c[0]),
        v(&|r| r.c[1]),
        v(&|r| r.c[2]),
        v(&|r| r.c[3]),
    ];
    let ddx = [v(&|r| r.ddx[0]), v(&|r| r.ddx[1]), v(&|r| r.ddx[2])];
    let ddy = [v(&|r| r.ddy[0]), v(&|r| r.ddy[1]), v(&|r| r.ddy[2])];
    let lod = lod_of(form, ddx, ddy, v(&|r| r.extra));
    let out = TextureFetch::<S>::sample(b, s, 0, coords, lod, s.mask_from_bits(mask))
        .map(|x| x.to_array());
    for (i, req) in reqs.iter().enumerate() {
        let want = if (mask >> i) & 1 == 1 {
            TextureFetchScalar::sample(b, 0, req.c, lod_of(form, req.ddx, req.ddy, req.extra))
        } else {
            [0.0; 4]
        };
        let got = [out[0][i], out[1][i], out[2][i], out[3][i]];
        // Bits must match; NaN payloads are unspecified (the compiler may commute operands).
        let canon = |v: [f32; 4]| v.map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() });
        assert_eq!(
            canon(got),
            canon(want),
            "{} lane {i}: {got:?} vs Reference {want:?}, request {req:?}, form {form}",
            S::NAME
        );
    }
    8
}

#[test]
fn warp_matches_reference_on_random_requests() {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[warp9::caps::DriverType::Warp],
        levels: &[warp9::caps::FeatureLevel::Sm3],
        back_buffer: (8, 8, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap();
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut lanes = 0;
    for _ in 0..150 {
        let tex = random_texture(&mut d, &mut r);
        for _ in 0..4 {
            let mut b = BoundTextures::new();
            b.bind(0, Some(&tex), &random_desc(&mut r));
            for _ in 0..12 {
                let form = r.below(4);
                let scale = 2f32.powi(r.below(12) as i32 - 8);
                let reqs: [Req; 8] = std::array::from_fn(|_| Req {
                    c: [r.coord(), r.coord(), r.coord(), 1.0],
                    ddx: std::array::from_fn(|_| r.f(-1.0, 1.0) * scale),
                    ddy: std::array::from_fn(|_| r.f(-1.0, 1.0) * scale),
                    extra: r.f(-3.0, 6.0),
                });
                let mask = if r.below(4) == 0 {
                    r.next() as u32 & 0xFF
                } else {
                    0xFF
                };
                lanes += check(Portable, &b, form, &reqs, mask);
                #[cfg(target_arch = "x86_64")]
                if let Some(a) = warp9::internals::simd::Avx2::detect() {
                    lanes += check(a, &b, form, &reqs, mask);
                }
            }
        }
    }
    assert!(lanes >= 50_000, "{lanes} lanes compared");
}
