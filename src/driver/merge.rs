//! The colour-merge and fog formulas both drivers apply (rasterization.md
//! 10–16): blend factors and operations, sRGB, the fog factor, and the
//! store of one colour into one texel. Warp's output merger calls these for
//! formats without a vector fast path and the Reference merger for every
//! pixel, so both follow one written-out formula.

use crate::format::{Format, decode_texel, encode_color};
use crate::simd::{fmax, fmin};
use crate::state::{Blend, BlendOp, FogMode};

use super::state::{BlendState, DrawState, FogSource, TargetState};

/// Whether render targets of `format` hold floats (blended unclamped).
pub(crate) fn is_float(format: Format) -> bool {
    matches!(
        format,
        Format::R16F
            | Format::G16R16F
            | Format::A16B16G16R16F
            | Format::R32F
            | Format::G32R32F
            | Format::A32B32G32R32F
    )
}

/// Factor component `ch` of blend factor `b`.
pub(crate) fn factor(b: Blend, s: [f32; 4], d: [f32; 4], k: [f32; 4], ch: usize) -> f32 {
    match b {
        Blend::Zero => 0.0,
        Blend::One => 1.0,
        Blend::SrcColor => s[ch],
        Blend::InvSrcColor => 1.0 - s[ch],
        Blend::SrcAlpha | Blend::BothSrcAlpha => s[3],
        Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => 1.0 - s[3],
        Blend::DestAlpha => d[3],
        Blend::InvDestAlpha => 1.0 - d[3],
        Blend::DestColor => d[ch],
        Blend::InvDestColor => 1.0 - d[ch],
        Blend::SrcAlphaSat => {
            if ch == 3 {
                1.0
            } else {
                fmin(s[3], 1.0 - d[3])
            }
        }
        Blend::BlendFactor => k[ch],
        Blend::InvBlendFactor => 1.0 - k[ch],
        Blend::SrcColor2 | Blend::InvSrcColor2 => 0.0,
    }
}

/// The (source, destination) factors after the obsolete BOTH* source values.
pub(crate) fn resolve(src: Blend, dst: Blend) -> (Blend, Blend) {
    match src {
        Blend::BothSrcAlpha => (Blend::SrcAlpha, Blend::InvSrcAlpha),
        Blend::BothInvSrcAlpha => (Blend::InvSrcAlpha, Blend::SrcAlpha),
        _ => (src, dst),
    }
}

/// `op` of source `s * fs` and destination `d * fd`.
pub(crate) fn blend_op(op: BlendOp, s: f32, fs: f32, d: f32, fd: f32) -> f32 {
    match op {
        BlendOp::Add => s * fs + d * fd,
        BlendOp::Subtract => s * fs - d * fd,
        BlendOp::RevSubtract => d * fd - s * fs,
        BlendOp::Min => fmin(s, d),
        BlendOp::Max => fmax(s, d),
    }
}

/// Blends source `s` over destination `d` (rasterization.md 12).
pub(crate) fn blend(b: &BlendState, s: [f32; 4], d: [f32; 4]) -> [f32; 4] {
    let (cs, cd) = resolve(b.src, b.dst);
    let (as_, ad) = resolve(b.src_alpha, b.dst_alpha);
    std::array::from_fn(|ch| {
        let (fs, fd, op) = if ch < 3 {
            (
                factor(cs, s, d, b.factor, ch),
                factor(cd, s, d, b.factor, ch),
                b.op,
            )
        } else {
            (
                factor(as_, s, d, b.factor, ch),
                factor(ad, s, d, b.factor, ch),
                b.op_alpha,
            )
        };
        blend_op(op, s[ch], fs, d[ch], fd)
    })
}

/// sRGB encoding of one linear channel (SPEC 3.2.3.8), before UNORM rounding.
pub(crate) fn srgb_encode(c: f32) -> f32 {
    let c = fmin(fmax(c, 0.0), 1.0);
    if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// sRGB decoding of one stored channel to linear (SPEC 3.2.3.7).
pub(crate) fn srgb_decode(c: f32) -> f32 {
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The fog factor (1 = no fog) of a pixel.
pub(crate) fn fog_factor(src: &FogSource, spec_alpha: f32, z: f32, w: f32) -> f32 {
    let f = match *src {
        FogSource::SpecularAlpha => spec_alpha,
        FogSource::Table {
            mode,
            w_based,
            start,
            end,
            density,
        } => {
            let d = if w_based { w } else { z };
            match mode {
                FogMode::Linear if start == end => {
                    if d < start {
                        1.0
                    } else {
                        0.0
                    }
                }
                FogMode::Linear => (end - d) / (end - start),
                FogMode::Exp => 1.0 / (d * density).exp(),
                FogMode::Exp2 => {
                    let t = d * density;
                    1.0 / (t * t).exp()
                }
                FogMode::None => 1.0,
            }
        }
    };
    fmin(fmax(f, 0.0), 1.0)
}

/// Blends `color` into one texel of target `t`, applies the write mask and
/// sRGB, and stores it (the Warp driver's path for formats without a
/// vector fast path, too).
pub(crate) fn merge_color(st: &DrawState, t: &TargetState, color: [f32; 4], dst: &mut [u8]) {
    let float = is_float(t.format);
    let old = decode_texel(t.format, dst);
    let mut c = color;
    if !float {
        c = c.map(|v| fmin(fmax(v, 0.0), 1.0));
    }
    if let Some(b) = &st.blend {
        let mut d = old;
        if t.srgb {
            for v in d.iter_mut().take(3) {
                *v = srgb_decode(*v);
            }
        }
        c = blend(b, c, d);
    }
    if t.srgb {
        for v in c.iter_mut().take(3) {
            *v = srgb_encode(*v);
        }
    }
    let fin: [f32; 4] = std::array::from_fn(|ch| {
        if t.write_mask & (1 << ch) != 0 {
            c[ch]
        } else {
            old[ch]
        }
    });
    encode_color(t.format, fin, dst);
}
