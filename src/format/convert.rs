//! Texel conversion between memory and linear RGBA floats.
//!
//! Decoding follows textures.md section 1.2: UNORM channels are value /
//! (2^n - 1), signed bump formats use the SNORM rule (most negative code is
//! -1), missing channels read as D3D9 defines (1, except A8's colour which
//! is 0), luminance is replicated into r, g, b. Encoding rounds to nearest
//! after clamping to the channel's range, as D3D9 hardware writes render
//! targets.

use half::f16;

use super::Format;

fn unorm(v: u32, bits: u32) -> f32 {
    v as f32 / ((1u64 << bits) - 1) as f32
}

fn snorm(v: u32, bits: u32) -> f32 {
    let shift = 32 - bits;
    let signed = ((v << shift) as i32) >> shift;
    let max = ((1i64 << (bits - 1)) - 1) as f32;
    (signed as f32 / max).max(-1.0)
}

fn to_unorm(c: f32, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f32;
    // NaN encodes as 0, as D3D10+ hardware does.
    let c = if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) };
    (c * max + 0.5) as u32
}

fn to_snorm(c: f32, bits: u32) -> u32 {
    let max = ((1i64 << (bits - 1)) - 1) as f32;
    let c = if c.is_nan() { 0.0 } else { c.clamp(-1.0, 1.0) };
    let v = (c * max).round() as i32;
    (v as u32) & (((1u64 << bits) - 1) as u32)
}

fn le_u32(b: &[u8]) -> u32 {
    let mut w = [0u8; 4];
    let n = b.len().min(4);
    w[..n].copy_from_slice(&b[..n]);
    u32::from_le_bytes(w)
}

fn le_u16(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([
        b.get(2 * i).copied().unwrap_or(0),
        b.get(2 * i + 1).copied().unwrap_or(0),
    ])
}

fn le_f32(b: &[u8], i: usize) -> f32 {
    match b.get(4 * i..4 * i + 4) {
        Some(w) => f32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        None => 0.0,
    }
}

fn half_at(b: &[u8], i: usize) -> f32 {
    f16::from_bits(le_u16(b, i)).to_f32()
}

/// Decodes one texel of an uncompressed `format` from `bytes` (at least the
/// format's texel size; missing bytes read as zero) into linear (r, g, b, a).
///
/// Depth formats decode to (depth, depth, depth, 1) with depth in [0, 1];
/// block-compressed and layout-less formats decode to (0, 0, 0, 0): blocks
/// are decoded a whole 4x4 at a time by the sampler, not texel by texel.
pub fn decode_texel(format: Format, bytes: &[u8]) -> [f32; 4] {
    use Format::*;
    let w = le_u32(bytes);
    let ch = |shift: u32, bits: u32| unorm((w >> shift) & (((1u64 << bits) - 1) as u32), bits);
    match format {
        A8R8G8B8 => [ch(16, 8), ch(8, 8), ch(0, 8), ch(24, 8)],
        X8R8G8B8 => [ch(16, 8), ch(8, 8), ch(0, 8), 1.0],
        A8B8G8R8 => [ch(0, 8), ch(8, 8), ch(16, 8), ch(24, 8)],
        X8B8G8R8 => [ch(0, 8), ch(8, 8), ch(16, 8), 1.0],
        R8G8B8 => [ch(16, 8), ch(8, 8), ch(0, 8), 1.0],
        R5G6B5 => [ch(11, 5), ch(5, 6), ch(0, 5), 1.0],
        X1R5G5B5 => [ch(10, 5), ch(5, 5), ch(0, 5), 1.0],
        A1R5G5B5 => [ch(10, 5), ch(5, 5), ch(0, 5), ch(15, 1)],
        A4R4G4B4 => [ch(8, 4), ch(4, 4), ch(0, 4), ch(12, 4)],
        X4R4G4B4 => [ch(8, 4), ch(4, 4), ch(0, 4), 1.0],
        R3G3B2 => [ch(5, 3), ch(2, 3), ch(0, 2), 1.0],
        A8R3G3B2 => [ch(5, 3), ch(2, 3), ch(0, 2), ch(8, 8)],
        A2R10G10B10 => [ch(20, 10), ch(10, 10), ch(0, 10), ch(30, 2)],
        A2B10G10R10 => [ch(0, 10), ch(10, 10), ch(20, 10), ch(30, 2)],
        A8 => [0.0, 0.0, 0.0, ch(0, 8)],
        L8 => {
            let l = ch(0, 8);
            [l, l, l, 1.0]
        }
        L16 => {
            let l = ch(0, 16);
            [l, l, l, 1.0]
        }
        A8L8 => {
            let l = ch(0, 8);
            [l, l, l, ch(8, 8)]
        }
        A4L4 => {
            let l = ch(0, 4);
            [l, l, l, ch(4, 4)]
        }
        G16R16 => [ch(0, 16), ch(16, 16), 1.0, 1.0],
        A16B16G16R16 => {
            let c = |i| unorm(u32::from(le_u16(bytes, i)), 16);
            [c(0), c(1), c(2), c(3)]
        }
        V8U8 => [snorm(w & 0xFF, 8), snorm((w >> 8) & 0xFF, 8), 1.0, 1.0],
        Q8W8V8U8 => [
            snorm(w & 0xFF, 8),
            snorm((w >> 8) & 0xFF, 8),
            snorm((w >> 16) & 0xFF, 8),
            snorm(w >> 24, 8),
        ],
        V16U16 => [snorm(w & 0xFFFF, 16), snorm(w >> 16, 16), 1.0, 1.0],
        Q16W16V16U16 => {
            let c = |i| snorm(u32::from(le_u16(bytes, i)), 16);
            [c(0), c(1), c(2), c(3)]
        }
        R16F => [half_at(bytes, 0), 1.0, 1.0, 1.0],
        G16R16F => [half_at(bytes, 0), half_at(bytes, 1), 1.0, 1.0],
        A16B16G16R16F => [
            half_at(bytes, 0),
            half_at(bytes, 1),
            half_at(bytes, 2),
            half_at(bytes, 3),
        ],
        R32F => [le_f32(bytes, 0), 1.0, 1.0, 1.0],
        G32R32F => [le_f32(bytes, 0), le_f32(bytes, 1), 1.0, 1.0],
        A32B32G32R32F => [
            le_f32(bytes, 0),
            le_f32(bytes, 1),
            le_f32(bytes, 2),
            le_f32(bytes, 3),
        ],
        D16 | D16_LOCKABLE => {
            let d = ch(0, 16);
            [d, d, d, 1.0]
        }
        D24S8 | D24X8 | D24X4S4 => {
            let d = ch(8, 24);
            [d, d, d, 1.0]
        }
        D32 => {
            let d = (f64::from(w) / f64::from(u32::MAX)) as f32;
            [d, d, d, 1.0]
        }
        D32F_LOCKABLE => {
            let d = f32::from_bits(w);
            [d, d, d, 1.0]
        }
        _ => [0.0; 4],
    }
}

/// Encodes linear (r, g, b, a) into one texel of `format`, writing the
/// format's texel size into `out` (which must be at least that long; shorter
/// output is left untouched). Formats without a colour encoding write zero.
pub fn encode_color(format: Format, rgba: [f32; 4], out: &mut [u8]) {
    use Format::*;
    let [r, g, b, a] = rgba;
    let pack = |fields: &[(f32, u32, u32)]| -> u32 {
        fields.iter().fold(0u32, |acc, &(c, shift, bits)| {
            acc | (to_unorm(c, bits) << shift)
        })
    };
    let word: Option<u32> = match format {
        A8R8G8B8 => Some(pack(&[(b, 0, 8), (g, 8, 8), (r, 16, 8), (a, 24, 8)])),
        X8R8G8B8 => Some(pack(&[(b, 0, 8), (g, 8, 8), (r, 16, 8), (1.0, 24, 8)])),
        A8B8G8R8 => Some(pack(&[(r, 0, 8), (g, 8, 8), (b, 16, 8), (a, 24, 8)])),
        X8B8G8R8 => Some(pack(&[(r, 0, 8), (g, 8, 8), (b, 16, 8), (1.0, 24, 8)])),
        R8G8B8 => Some(pack(&[(b, 0, 8), (g, 8, 8), (r, 16, 8)])),
        R5G6B5 => Some(pack(&[(b, 0, 5), (g, 5, 6), (r, 11, 5)])),
        X1R5G5B5 => Some(pack(&[(b, 0, 5), (g, 5, 5), (r, 10, 5), (1.0, 15, 1)])),
        A1R5G5B5 => Some(pack(&[(b, 0, 5), (g, 5, 5), (r, 10, 5), (a, 15, 1)])),
        A4R4G4B4 => Some(pack(&[(b, 0, 4), (g, 4, 4), (r, 8, 4), (a, 12, 4)])),
        X4R4G4B4 => Some(pack(&[(b, 0, 4), (g, 4, 4), (r, 8, 4), (1.0, 12, 4)])),
        R3G3B2 => Some(pack(&[(b, 0, 2), (g, 2, 3), (r, 5, 3)])),
        A8R3G3B2 => Some(pack(&[(b, 0, 2), (g, 2, 3), (r, 5, 3), (a, 8, 8)])),
        A2R10G10B10 => Some(pack(&[(b, 0, 10), (g, 10, 10), (r, 20, 10), (a, 30, 2)])),
        A2B10G10R10 => Some(pack(&[(r, 0, 10), (g, 10, 10), (b, 20, 10), (a, 30, 2)])),
        A8 => Some(pack(&[(a, 0, 8)])),
        L8 => Some(pack(&[(r, 0, 8)])),
        L16 => Some(pack(&[(r, 0, 16)])),
        A8L8 => Some(pack(&[(r, 0, 8), (a, 8, 8)])),
        A4L4 => Some(pack(&[(r, 0, 4), (a, 4, 4)])),
        G16R16 => Some(pack(&[(r, 0, 16), (g, 16, 16)])),
        V8U8 => Some(to_snorm(r, 8) | (to_snorm(g, 8) << 8)),
        Q8W8V8U8 => Some(
            to_snorm(r, 8)
                | (to_snorm(g, 8) << 8)
                | (to_snorm(b, 8) << 16)
                | (to_snorm(a, 8) << 24),
        ),
        V16U16 => Some(to_snorm(r, 16) | (to_snorm(g, 16) << 16)),
        R32F => Some(r.to_bits()),
        R16F => Some(u32::from(f16::from_f32(r).to_bits())),
        G16R16F => Some(
            u32::from(f16::from_f32(r).to_bits()) | (u32::from(f16::from_f32(g).to_bits()) << 16),
        ),
        _ => None,
    };
    let texel = match format.layout() {
        super::Layout::Texel { bytes } => bytes as usize,
        _ => return,
    };
    let Some(dst) = out.get_mut(..texel) else {
        return;
    };
    if let Some(w) = word {
        let bytes = w.to_le_bytes();
        let n = texel.min(4);
        dst[..n].copy_from_slice(&bytes[..n]);
        return;
    }
    let halves = |vals: [f32; 4], dst: &mut [u8]| {
        for (i, v) in vals.into_iter().enumerate() {
            dst[2 * i..2 * i + 2].copy_from_slice(&f16::from_f32(v).to_bits().to_le_bytes());
        }
    };
    match format {
        A16B16G16R16 => {
            for (i, v) in rgba.into_iter().enumerate() {
                dst[2 * i..2 * i + 2].copy_from_slice(&(to_unorm(v, 16) as u16).to_le_bytes());
            }
        }
        Q16W16V16U16 => {
            for (i, v) in rgba.into_iter().enumerate() {
                dst[2 * i..2 * i + 2].copy_from_slice(&(to_snorm(v, 16) as u16).to_le_bytes());
            }
        }
        A16B16G16R16F => halves(rgba, dst),
        G32R32F => {
            dst[0..4].copy_from_slice(&r.to_le_bytes());
            dst[4..8].copy_from_slice(&g.to_le_bytes());
        }
        A32B32G32R32F => {
            for (i, v) in rgba.into_iter().enumerate() {
                dst[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        _ => dst.fill(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argb8_round_trip_and_layout() {
        let mut px = [0u8; 4];
        encode_color(Format::A8R8G8B8, [1.0, 0.5, 0.0, 0.25], &mut px);
        assert_eq!(u32::from_le_bytes(px), 0x40FF_8000);
        let back = decode_texel(Format::A8R8G8B8, &px);
        assert_eq!(back, [1.0, 128.0 / 255.0, 0.0, 64.0 / 255.0]);
    }

    #[test]
    fn missing_channels_follow_d3d9() {
        assert_eq!(decode_texel(Format::A8, &[0xFF]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(decode_texel(Format::L8, &[0]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            decode_texel(Format::G16R16, &[0xFF, 0xFF, 0, 0]),
            [1.0, 0.0, 1.0, 1.0]
        );
        assert_eq!(
            decode_texel(Format::R32F, &2.5f32.to_le_bytes()),
            [2.5, 1.0, 1.0, 1.0]
        );
    }

    #[test]
    fn snorm_most_negative_is_minus_one() {
        assert_eq!(
            decode_texel(Format::V8U8, &[0x80, 0x7F]),
            [-1.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(decode_texel(Format::V8U8, &[0x81, 0x00])[0], -1.0);
        let mut px = [0u8; 2];
        encode_color(Format::V8U8, [-1.0, 0.5, 0.0, 0.0], &mut px);
        assert_eq!(px, [0x81, 64]);
    }

    #[test]
    fn r5g6b5_exact() {
        let mut px = [0u8; 2];
        encode_color(Format::R5G6B5, [1.0, 0.0, 1.0, 0.0], &mut px);
        assert_eq!(u16::from_le_bytes(px), 0xF81F);
        assert_eq!(decode_texel(Format::R5G6B5, &px), [1.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn nan_and_out_of_range_clamp() {
        let mut px = [0u8; 4];
        encode_color(
            Format::A8R8G8B8,
            [f32::NAN, 2.0, -1.0, f32::INFINITY],
            &mut px,
        );
        assert_eq!(u32::from_le_bytes(px), 0xFF00_FF00);
    }
}
