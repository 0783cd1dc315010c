//! Depth-stencil encoding: how each depth format stores depth and stencil
//! (textures.md 1.3: D24S8/D24X8 as a u32 with depth in bits 31:8 and
//! stencil in 7:0, D16 as u16).

use super::Format;

/// Depth quantised as `format` stores it, and the stencil bits, packed into
/// the texel's little-endian bytes. Depth is clamped to [0, 1].
pub fn encode_depth_stencil(format: Format, depth: f32, stencil: u32, out: &mut [u8]) {
    let d = if depth.is_nan() {
        0.0
    } else {
        depth.clamp(0.0, 1.0)
    };
    let unorm = |bits: u32| (f64::from(d) * ((1u64 << bits) - 1) as f64).round() as u32;
    match format {
        Format::D16 | Format::D16_LOCKABLE => {
            if let Some(dst) = out.get_mut(..2) {
                dst.copy_from_slice(&(unorm(16) as u16).to_le_bytes());
            }
        }
        Format::D24S8 | Format::D24X8 | Format::D24X4S4 => {
            let s = stencil & ((1u32 << format.stencil_bits().max(1)) - 1);
            let s = if format.stencil_bits() == 0 { 0 } else { s };
            if let Some(dst) = out.get_mut(..4) {
                dst.copy_from_slice(&((unorm(24) << 8) | s).to_le_bytes());
            }
        }
        Format::D32 => {
            if let Some(dst) = out.get_mut(..4) {
                dst.copy_from_slice(&unorm(32).to_le_bytes());
            }
        }
        Format::D32F_LOCKABLE => {
            if let Some(dst) = out.get_mut(..4) {
                dst.copy_from_slice(&d.to_le_bytes());
            }
        }
        _ => {}
    }
}

/// Reads (depth in [0, 1], stencil) from a texel of `format`.
pub fn decode_depth_stencil(format: Format, bytes: &[u8]) -> (f32, u32) {
    let mut w = [0u8; 4];
    let n = bytes.len().min(4);
    w[..n].copy_from_slice(&bytes[..n]);
    let v = u32::from_le_bytes(w);
    match format {
        Format::D16 | Format::D16_LOCKABLE => ((v & 0xFFFF) as f32 / 65535.0, 0),
        Format::D24S8 | Format::D24X4S4 => (
            ((v >> 8) as f64 / f64::from(0xFF_FFFF)) as f32,
            v & ((1 << format.stencil_bits()) - 1),
        ),
        Format::D24X8 => (((v >> 8) as f64 / f64::from(0xFF_FFFF)) as f32, 0),
        Format::D32 => ((f64::from(v) / f64::from(u32::MAX)) as f32, 0),
        Format::D32F_LOCKABLE => (f32::from_bits(v), 0),
        _ => (0.0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d24s8_layout() {
        let mut px = [0u8; 4];
        encode_depth_stencil(Format::D24S8, 1.0, 0x1AB, &mut px);
        assert_eq!(u32::from_le_bytes(px), 0xFFFF_FFAB);
        encode_depth_stencil(Format::D24S8, 0.5, 3, &mut px);
        assert_eq!(u32::from_le_bytes(px), (0x80_0000 << 8) | 3);
        assert_eq!(decode_depth_stencil(Format::D24S8, &px).1, 3);
        encode_depth_stencil(Format::D24X8, 0.0, 0xFF, &mut px);
        assert_eq!(u32::from_le_bytes(px), 0);
    }

    #[test]
    fn d16_rounds() {
        let mut px = [0u8; 2];
        encode_depth_stencil(Format::D16, 0.5, 0, &mut px);
        assert_eq!(u16::from_le_bytes(px), 32768);
    }
}
