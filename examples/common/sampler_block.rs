//! The sampler workload shared by `benches/sampler.rs` and
//! `examples/sampler_count.rs`: 8-lane trilinear samples of a 1024x1024
//! A8R8G8B8 texture with a full mip chain (the S4 scene's texture), WRAP
//! addressing, minified about 1.5x and slightly rotated (LOD ~0.6, so
//! every sample blends two levels), one 64x64-pixel block per call.

use warp9::caps::{DriverType, FeatureLevel};
use warp9::internals::sampler::{BoundTextures, SamplerDesc};
use warp9::internals::simd::{FloatV, Kernel, Simd};
use warp9::internals::texture_fetch::{Lod, TextureFetch, ddx, ddy};
use warp9::state::TextureFilter;
use warp9::{Device, DeviceDesc, Format, Pool, Usage};

/// Texture coordinates per pixel.
pub const SCALE: f32 = 1.5 / 1024.0;

/// The texture (every level filled from a hash of the texel index) bound
/// at sampler 0 with trilinear filtering.
pub fn setup() -> BoundTextures {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_3],
        back_buffer: (8, 8, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .unwrap();
    let t = d
        .create_texture(
            1024,
            1024,
            0,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        )
        .unwrap();
    for l in 0..t.level_count() {
        let n = (1024usize >> l).max(1);
        let bytes: Vec<u8> = (0..n * n)
            .flat_map(|i| ((i as u32).wrapping_mul(2_654_435_761) | 0xFF00_0000).to_le_bytes())
            .collect();
        t.write_level(l, None, &bytes, n * 4).unwrap();
    }
    let desc = SamplerDesc {
        mag_filter: TextureFilter::Linear,
        min_filter: TextureFilter::Linear,
        mip_filter: TextureFilter::Linear,
        ..SamplerDesc::default()
    };
    let mut b = BoundTextures::new();
    b.bind(0, Some(&t.into()), &desc);
    b
}

/// 64x64 pixels as 512 stamps of two 2x2 quads; the sum of every channel
/// of every sample.
pub struct Block<'a> {
    /// What [`setup`] bound.
    pub tex: &'a BoundTextures,
    /// Pixel position of the block's first stamp.
    pub origin: (f32, f32),
}

impl Kernel for Block<'_> {
    type Output = f32;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> f32 {
        let mut acc = s.splat(0.0);
        let lx = s.f32s([0.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 3.0]);
        let ly = s.f32s([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0]);
        let all = s.mask_from_bits(0xFF);
        for y in (0..64).step_by(2) {
            for x in (0..64).step_by(4) {
                let px = lx + s.splat(self.origin.0 + x as f32);
                let py = ly + s.splat(self.origin.1 + y as f32);
                let u = (px + py * s.splat(0.125)) * s.splat(SCALE);
                let v = (py - px * s.splat(0.125)) * s.splat(SCALE);
                let z = s.splat(0.0);
                let lod = Lod::Implicit {
                    ddx: [ddx(s, u), ddx(s, v), z],
                    ddy: [ddy(s, u), ddy(s, v), z],
                };
                let c =
                    TextureFetch::<S>::sample(self.tex, s, 0, [u, v, z, s.splat(1.0)], lod, all);
                acc = acc + c[0] + c[1] + c[2] + c[3];
            }
        }
        acc.to_array().iter().sum()
    }
}
