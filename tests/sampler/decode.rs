//! Texel decoding per format through the sampler (both paths), against
//! hand-computed values (textures.md 1.2, 8, 9): point sampling at texel
//! centres returns exactly the D3D9 decode, missing components read as
//! D3D9 defines, DXT blocks decode per their mode, depth textures compare.

use crate::sampler_support;

use sampler_support::*;
use warp9::Format;
use warp9::internals::sampler::SamplerDesc;
use warp9::state::TextureFilter;

/// Point-samples texel `x` of a 1-row texture holding `bytes`.
fn texel(format: Format, w: u32, bytes: Vec<u8>, x: u32) -> [f32; 4] {
    let mut d = device();
    let t = texture(&mut d, format, w, 1, &[bytes]);
    let b = bind(t, &SamplerDesc::default());
    sample(&b, 0, [(x as f32 + 0.5) / w as f32, 0.5, 0.0, 1.0], L0)
}

fn one(format: Format, bytes: Vec<u8>) -> [f32; 4] {
    texel(format, 1, bytes, 0)
}

const fn u(v: u32, bits: u32) -> f32 {
    v as f32 / ((1u64 << bits) - 1) as f32
}

#[test]
fn eight_bit_rgba_family() {
    let w = 0x80FF_4000u32.to_le_bytes().to_vec();
    assert_eq!(
        one(Format::A8R8G8B8, w.clone()),
        [1.0, u(0x40, 8), 0.0, u(0x80, 8)]
    );
    assert_eq!(
        one(Format::X8R8G8B8, w.clone()),
        [1.0, u(0x40, 8), 0.0, 1.0]
    );
    assert_eq!(
        one(Format::A8B8G8R8, w.clone()),
        [0.0, u(0x40, 8), 1.0, u(0x80, 8)]
    );
    assert_eq!(one(Format::X8B8G8R8, w), [0.0, u(0x40, 8), 1.0, 1.0]);
}

#[test]
fn sixteen_bit_packed() {
    let h = |v: u16| v.to_le_bytes().to_vec();
    assert_eq!(
        one(Format::R5G6B5, h(0x8410)),
        [u(16, 5), u(32, 6), u(16, 5), 1.0]
    );
    assert_eq!(one(Format::X1R5G5B5, h(0xFC00)), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(one(Format::A1R5G5B5, h(0x8001)), [0.0, 0.0, u(1, 5), 1.0]);
    assert_eq!(one(Format::A1R5G5B5, h(0x0001))[3], 0.0);
    assert_eq!(
        one(Format::A4R4G4B4, h(0x5A3C)),
        [u(10, 4), u(3, 4), u(12, 4), u(5, 4)]
    );
    assert_eq!(
        one(Format::A8L8, h(0x8040)),
        [u(0x40, 8), u(0x40, 8), u(0x40, 8), u(0x80, 8)]
    );
    assert_eq!(
        one(Format::L16, h(0x8000)),
        [u(0x8000, 16), u(0x8000, 16), u(0x8000, 16), 1.0]
    );
}

#[test]
fn ten_and_sixteen_bit_channels() {
    let word = (2u32 << 30) | (0x3FF << 20) | (0x200 << 10) | 1;
    let b = word.to_le_bytes().to_vec();
    assert_eq!(
        one(Format::A2R10G10B10, b.clone()),
        [1.0, u(512, 10), u(1, 10), u(2, 2)]
    );
    assert_eq!(
        one(Format::A2B10G10R10, b),
        [u(1, 10), u(512, 10), 1.0, u(2, 2)]
    );
    let g = (0xFFFF_0000u32 | 0x8000).to_le_bytes().to_vec();
    assert_eq!(one(Format::G16R16, g), [u(0x8000, 16), 1.0, 1.0, 1.0]);
    let wide: Vec<u8> = [0xFFFFu16, 0, 0x8000, 0x4000]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(
        one(Format::A16B16G16R16, wide),
        [1.0, 0.0, u(0x8000, 16), u(0x4000, 16)]
    );
}

#[test]
fn alpha_and_luminance_defaults() {
    assert_eq!(one(Format::A8, vec![0x80]), [0.0, 0.0, 0.0, u(0x80, 8)]);
    assert_eq!(
        one(Format::L8, vec![0x40]),
        [u(0x40, 8), u(0x40, 8), u(0x40, 8), 1.0]
    );
}

#[test]
fn signed_formats_use_snorm() {
    assert_eq!(
        one(Format::V8U8, vec![0x81, 0x40]),
        [-1.0, 64.0 / 127.0, 1.0, 1.0]
    );
    assert_eq!(one(Format::V8U8, vec![0x80, 0x7F]), [-1.0, 1.0, 1.0, 1.0]);
    assert_eq!(
        one(Format::Q8W8V8U8, vec![0x80, 0x7F, 0x00, 0xC0]),
        [-1.0, 1.0, 0.0, -64.0 / 127.0]
    );
    let v: Vec<u8> = [0x8000u16, 0x4000]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(one(Format::V16U16, v), [-1.0, 16384.0 / 32767.0, 1.0, 1.0]);
}

#[test]
fn float_formats_keep_specials() {
    let h = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert_eq!(one(Format::R16F, h(&[0x3E00])), [1.5, 1.0, 1.0, 1.0]);
    assert_eq!(
        one(Format::G16R16F, h(&[0xC000, 0x3800])),
        [-2.0, 0.5, 1.0, 1.0]
    );
    let v = one(Format::A16B16G16R16F, h(&[0x3C00, 0x7BFF, 0x0001, 0x8000]));
    assert_eq!(v[..3], [1.0, 65504.0, 2f32.powi(-24)]);
    assert_eq!(v[3].to_bits(), (-0.0f32).to_bits());
    let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert_eq!(one(Format::R32F, f(&[3.25])), [3.25, 1.0, 1.0, 1.0]);
    assert_eq!(
        one(Format::G32R32F, f(&[1e10, -7.0])),
        [1e10, -7.0, 1.0, 1.0]
    );
    assert_eq!(
        one(Format::A32B32G32R32F, f(&[0.1, 0.2, 0.3, 0.4])),
        [0.1, 0.2, 0.3, 0.4]
    );
}

/// The first row of a 4x4 DXT texture made of one block.
fn dxt_row(format: Format, block: Vec<u8>) -> [[f32; 4]; 4] {
    let mut d = device();
    let t = texture(&mut d, format, 4, 4, &[block]);
    let b = bind(t, &SamplerDesc::default());
    std::array::from_fn(|x| sample(&b, 0, [(x as f32 + 0.5) / 4.0, 0.125, 0.0, 1.0], L0))
}

fn rgba8(r: u32, g: u32, b: u32, a: u32) -> [f32; 4] {
    [u(r, 8), u(g, 8), u(b, 8), u(a, 8)]
}

#[test]
fn dxt1_four_and_three_colour_blocks() {
    // c0 = red > c1 = blue: four colours, indices 0, 1, 2, 3 along row 0.
    let mut block = vec![0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0];
    let row = dxt_row(Format::DXT1, block.clone());
    assert_eq!(row[0], rgba8(255, 0, 0, 255));
    assert_eq!(row[1], rgba8(0, 0, 255, 255));
    assert_eq!(row[2], rgba8(170, 0, 85, 255));
    assert_eq!(row[3], rgba8(85, 0, 170, 255));
    // c0 = blue <= c1 = red: three colours and transparent black.
    block[..4].copy_from_slice(&[0x1F, 0x00, 0x00, 0xF8]);
    let row = dxt_row(Format::DXT1, block);
    assert_eq!(row[2], rgba8(127, 0, 127, 255));
    assert_eq!(row[3], [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn dxt3_explicit_alpha_and_four_colours() {
    for format in [Format::DXT2, Format::DXT3] {
        // Alpha row 0: 3, 15, 0, 8. Colour c0 <= c1 still interpolates four colours.
        let mut block = vec![0x03 | 0xF0, 0x80, 0, 0, 0, 0, 0, 0];
        block.extend_from_slice(&[0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0]);
        let row = dxt_row(format, block);
        assert_eq!(row[0], rgba8(0, 0, 255, 51));
        assert_eq!(row[1], rgba8(255, 0, 0, 255));
        assert_eq!(row[2], rgba8(85, 0, 170, 0));
        assert_eq!(row[3], rgba8(170, 0, 85, 136));
    }
}

#[test]
fn dxt5_interpolated_alpha_both_modes() {
    for format in [Format::DXT4, Format::DXT5] {
        // a0 = 200 > a1 = 100; codes 0, 1, 2, 7.
        let codes: u64 = 1 << 3 | 2 << 6 | 7 << 9;
        let mut block = vec![200, 100];
        block.extend_from_slice(&codes.to_le_bytes()[..6]);
        block.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]);
        let row = dxt_row(format, block.clone());
        let alphas: Vec<f32> = row.iter().map(|t| t[3]).collect();
        assert_eq!(alphas, [u(200, 8), u(100, 8), u(186, 8), u(114, 8)]);
        // a0 = 50 <= a1 = 150: code 6 is 0, code 7 is 255, code 2 is (4 a0 + a1 + 2) / 5.
        let codes: u64 = 6 | 7 << 3 | 2 << 6 | 5 << 9;
        block[0] = 50;
        block[1] = 150;
        block[2..8].copy_from_slice(&codes.to_le_bytes()[..6]);
        let row = dxt_row(format, block);
        let alphas: Vec<f32> = row.iter().map(|t| t[3]).collect();
        assert_eq!(alphas, [0.0, 1.0, u(70, 8), u((50 + 4 * 150 + 2) / 5, 8)]);
        // White colour block.
        assert_eq!(row[0][..3], [1.0, 1.0, 1.0]);
    }
}

#[test]
fn depth_textures_compare_with_the_third_coordinate() {
    let mut d = device();
    let t = texture(
        &mut d,
        Format::D16,
        1,
        1,
        &[0x8000u16.to_le_bytes().to_vec()],
    );
    let b = bind(t, &SamplerDesc::default());
    assert_eq!(sample(&b, 0, [0.5, 0.5, 0.5, 1.0], L0), [1.0; 4]);
    assert_eq!(sample(&b, 0, [0.5, 0.5, 0.6, 1.0], L0), [0.0; 4]);
    for format in [Format::D24S8, Format::D24X8] {
        let word = (0x80_0000u32 << 8) | 0xAB;
        let t = texture(&mut d, format, 1, 1, &[word.to_le_bytes().to_vec()]);
        let b = bind(t, &SamplerDesc::default());
        assert_eq!(sample(&b, 0, [0.5, 0.5, 0.5, 1.0], L0), [1.0; 4]);
        assert_eq!(sample(&b, 0, [0.5, 0.5, 0.50001, 1.0], L0), [0.0; 4]);
    }
    // Percentage-closer filtering: depths 0 and 1, halfway between them, reference 0.5.
    let bytes: Vec<u8> = [0u16, 0xFFFF]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let t = texture(&mut d, Format::D16, 2, 1, &[bytes]);
    let desc = SamplerDesc {
        mag_filter: TextureFilter::Linear,
        min_filter: TextureFilter::Linear,
        address: [warp9::state::TextureAddress::Clamp; 3],
        ..SamplerDesc::default()
    };
    let b = bind(t, &desc);
    assert_eq!(sample(&b, 0, [0.5, 0.5, 0.5, 1.0], L0), [0.5; 4]);
}

#[test]
fn srgb_reads_linearise_only_allowed_formats() {
    let desc = SamplerDesc {
        srgb: true,
        ..SamplerDesc::default()
    };
    let mut d = device();
    let t = texture(
        &mut d,
        Format::A8R8G8B8,
        1,
        1,
        &[0x8080_8080u32.to_le_bytes().to_vec()],
    );
    let v = sample(&bind(t, &desc), 0, [0.5, 0.5, 0.0, 1.0], L0);
    let lin = ((128.0f64 / 255.0 + 0.055) / 1.055).powf(2.4) as f32;
    close(v, [lin, lin, lin, u(128, 8)], 1e-6);
    // Alpha stays linear; L8 is not an sRGB-read format: the state is ignored.
    let t = texture(&mut d, Format::L8, 1, 1, &[vec![0x80]]);
    let v = sample(&bind(t, &desc), 0, [0.5, 0.5, 0.0, 1.0], L0);
    assert_eq!(v, [u(128, 8), u(128, 8), u(128, 8), 1.0]);
}

#[test]
fn no_texture_reads_opaque_black() {
    let b = warp9::internals::sampler::BoundTextures::new();
    assert_eq!(
        sample(&b, 3, [0.5, 0.5, 0.0, 1.0], deriv(0.1)),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        sample(&b, 17, [0.5, 0.5, 0.0, 1.0], L0),
        [0.0, 0.0, 0.0, 1.0]
    );
}
