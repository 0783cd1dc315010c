//! Shared helpers for the sampler tests: textures from raw bytes, and
//! sampling one request through the Reference path and the Warp path on
//! every SIMD backend the CPU has, asserting that they agree bit for bit.
#![allow(dead_code)]

use warp9::caps::{DriverType, FeatureLevel};
use warp9::internals::sampler::{BoundTextures, SamplerDesc};
use warp9::internals::simd::{FloatV, Portable, Simd};
use warp9::internals::texture_fetch::{Lod, TextureFetch, TextureFetchScalar};
use warp9::resource::{BaseTexture, CubeFace, CubeTexture, Texture, VolumeTexture};
use warp9::{Device, DeviceDesc, Format, Pool, Usage};

/// An SM3 Warp device (every texture format of the table exists there).
pub fn device() -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (8, 8, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap()
}

/// A 2D scratch texture (any format with a layout) whose levels hold `levels` bytes (tightly packed rows).
pub fn texture(d: &mut Device, format: Format, w: u32, h: u32, levels: &[Vec<u8>]) -> Texture {
    let t = d
        .create_texture(
            w,
            h,
            levels.len() as u32,
            Usage::empty(),
            format,
            Pool::Scratch,
        )
        .unwrap();
    for (l, bytes) in levels.iter().enumerate() {
        let s = t.surface_level(l as u32).unwrap();
        let pitch = s.pitch();
        t.write_level(l as u32, None, bytes, pitch).unwrap();
    }
    t
}

/// A managed A8R8G8B8 texture whose level i is filled with `colors[i]`.
pub fn levels_filled(d: &mut Device, size: u32, colors: &[u32]) -> Texture {
    let t = d
        .create_texture(
            size,
            size,
            colors.len() as u32,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        )
        .unwrap();
    for (l, &c) in colors.iter().enumerate() {
        let n = (size >> l).max(1) as usize;
        let bytes: Vec<u8> = std::iter::repeat_n(c.to_le_bytes(), n * n)
            .flatten()
            .collect();
        t.write_level(l as u32, None, &bytes, n * 4).unwrap();
    }
    t
}

/// An A8R8G8B8 cube map of edge `n`, one level, face f texel (x, y) = `texel(f, x, y)`.
pub fn cube(d: &mut Device, n: u32, texel: impl Fn(u32, u32, u32) -> u32) -> CubeTexture {
    let t = d
        .create_cube_texture(n, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    for (fi, face) in CubeFace::ALL.into_iter().enumerate() {
        let s = t.cube_map_surface(face, 0).unwrap();
        let mut bytes = Vec::new();
        for y in 0..n {
            for x in 0..n {
                bytes.extend_from_slice(&texel(fi as u32, x, y).to_le_bytes());
            }
        }
        s.write_rect(None, &bytes, (n * 4) as usize).unwrap();
    }
    t
}

/// An A8R8G8B8 volume texture, one level, texel (x, y, z) = `texel(x, y, z)`.
pub fn volume(
    d: &mut Device,
    w: u32,
    h: u32,
    dd: u32,
    texel: impl Fn(u32, u32, u32) -> u32,
) -> VolumeTexture {
    let t = d
        .create_volume_texture(w, h, dd, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    let v = t.volume_level(0).unwrap();
    let mut l = v.lock_box(None, warp9::LockFlags::empty()).unwrap();
    let (rp, sp) = (l.row_pitch, l.slice_pitch);
    for z in 0..dd {
        for y in 0..h {
            for x in 0..w {
                let at = z as usize * sp + y as usize * rp + x as usize * 4;
                l.bytes[at..at + 4].copy_from_slice(&texel(x, y, z).to_le_bytes());
            }
        }
    }
    drop(l);
    t
}

/// Slot 0 bound to `t` with `desc`.
pub fn bind(t: impl Into<BaseTexture>, desc: &SamplerDesc) -> BoundTextures {
    let mut b = BoundTextures::new();
    b.bind(0, Some(&t.into()), desc);
    b
}

fn splat_lod<S: Simd>(s: S, lod: Lod<f32>) -> Lod<S::F> {
    let v = |a: [f32; 3]| a.map(|x| s.splat(x));
    match lod {
        Lod::Implicit { ddx, ddy } => Lod::Implicit {
            ddx: v(ddx),
            ddy: v(ddy),
        },
        Lod::Grad { ddx, ddy } => Lod::Grad {
            ddx: v(ddx),
            ddy: v(ddy),
        },
        Lod::Bias { ddx, ddy, bias } => Lod::Bias {
            ddx: v(ddx),
            ddy: v(ddy),
            bias: s.splat(bias),
        },
        Lod::Level(l) => Lod::Level(s.splat(l)),
    }
}

fn warp<S: Simd>(s: S, b: &BoundTextures, slot: usize, c: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
    let coords = c.map(|x| s.splat(x));
    let out = TextureFetch::<S>::sample(
        b,
        s,
        slot,
        coords,
        splat_lod(s, lod),
        s.mask_from_bits(0xFF),
    );
    out.map(|v| {
        let a = v.to_array();
        assert!(
            a.iter().all(|x| x.to_bits() == a[0].to_bits()),
            "lanes differ: {a:?}"
        );
        a[0]
    })
}

/// Samples `slot` at `c` through the Reference path and the Warp path
/// (portable, and AVX2 when available); asserts identical bits; returns the value.
pub fn sample(b: &BoundTextures, slot: usize, c: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
    let r = TextureFetchScalar::sample(b, slot, c, lod);
    let p = warp(Portable, b, slot, c, lod);
    assert_eq!(
        r.map(f32::to_bits),
        p.map(f32::to_bits),
        "Reference {r:?} vs Warp portable {p:?} at {c:?} {lod:?}"
    );
    #[cfg(target_arch = "x86_64")]
    if let Some(a) = warp9::internals::simd::Avx2::detect() {
        let x = warp(a, b, slot, c, lod);
        assert_eq!(
            r.map(f32::to_bits),
            x.map(f32::to_bits),
            "Reference {r:?} vs Warp avx2 {x:?}"
        );
    }
    r
}

/// Level 0, no derivatives.
pub const L0: Lod<f32> = Lod::Level(0.0);

/// Implicit LOD from isotropic derivatives of `d` (u and v).
pub fn deriv(d: f32) -> Lod<f32> {
    Lod::Implicit {
        ddx: [d, 0.0, 0.0],
        ddy: [0.0, d, 0.0],
    }
}

/// Asserts each channel within `eps`.
#[track_caller]
pub fn close(got: [f32; 4], want: [f32; 4], eps: f32) {
    for i in 0..4 {
        assert!(
            (got[i] - want[i]).abs() <= eps,
            "channel {i}: got {got:?}, want {want:?}"
        );
    }
}

/// xorshift64*: deterministic, no dependency (the random tests' source).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A value in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A value in `[lo, hi)`.
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}
