//! The Reference output merger: one pixel, the spec's formulas literally,
//! through the format module's encode/decode (rasterization.md 10–16).

// Index loops keep the scalar and 8-lane formulas visibly parallel and
// keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use crate::driver::merge::{fog_factor, is_float, merge_color};
use crate::driver::state::{DrawState, StencilFace};
use crate::format::{Format, encode_depth_stencil};
use crate::pixel::PixelOutScalar;
use crate::simd::{fmax, fmin};
use crate::state::{CmpFunc, StencilOp};

/// `new OP stored`.
pub(crate) fn compare<T: PartialOrd>(f: CmpFunc, new: T, stored: T) -> bool {
    match f {
        CmpFunc::Never => false,
        CmpFunc::Less => new < stored,
        CmpFunc::Equal => new == stored,
        CmpFunc::LessEqual => new <= stored,
        CmpFunc::Greater => new > stored,
        CmpFunc::NotEqual => new != stored,
        CmpFunc::GreaterEqual => new >= stored,
        CmpFunc::Always => true,
    }
}

/// The new stencil value of `op` (before the write mask), `bits` wide.
pub(crate) fn stencil_op(op: StencilOp, stored: u32, reference: u32, bits: u32) -> u32 {
    let max = (1u32 << bits) - 1;
    match op {
        StencilOp::Keep => stored,
        StencilOp::Zero => 0,
        StencilOp::Replace => reference,
        StencilOp::IncrSat => (stored + 1).min(max),
        StencilOp::DecrSat => stored.saturating_sub(1),
        StencilOp::Invert => !stored & max,
        StencilOp::Incr => (stored + 1) & max,
        StencilOp::Decr => stored.wrapping_sub(1) & max,
    }
}

/// The depth field of `z` as `format` stores it (round to nearest).
pub(crate) fn quantize_depth(format: Format, z: f32) -> u32 {
    let mut px = [0u8; 4];
    encode_depth_stencil(format, z, 0, &mut px);
    depth_field(format, u32::from_le_bytes(px))
}

/// The depth field of a stored depth-stencil word.
pub(crate) fn depth_field(format: Format, word: u32) -> u32 {
    match format {
        Format::D16 | Format::D16_LOCKABLE => word & 0xFFFF,
        Format::D24S8 | Format::D24X8 | Format::D24X4S4 | Format::D24FS8 => word >> 8,
        _ => word,
    }
}

/// One pixel's trip through fog, alpha test, stencil/depth, blending and the
/// stores. `z` is the interpolated depth (unbiased), `w` = 1/q; `ds` is the
/// depth texel bytes, `rts[i]` the texel bytes of render target i. Returns
/// whether the sample passed depth and stencil.
#[allow(clippy::too_many_arguments)]
pub(crate) fn merge(
    st: &DrawState,
    out: &PixelOutScalar,
    fog_alpha: f32,
    z: f32,
    w: f32,
    bias: f32,
    front: bool,
    ds: Option<&mut [u8]>,
    rts: &mut [Option<&mut [u8]>],
) -> bool {
    if out.kill {
        return false;
    }
    if st.z_clip_per_pixel && !(0.0..=1.0).contains(&z) {
        return false;
    }
    let mut colors = out.color;
    if let Some(fog) = &st.fog {
        let f = fog_factor(&fog.source, fog_alpha, z, w);
        for ch in 0..3 {
            colors[0][ch] = f * colors[0][ch] + (1.0 - f) * fog.color[ch];
        }
    }
    if let Some((func, reference)) = st.alpha_test {
        let unorm0 = st.targets[0].as_ref().is_none_or(|t| !is_float(t.format));
        let a = colors[0][3];
        let a = if unorm0 { fmin(fmax(a, 0.0), 1.0) } else { a };
        if !compare(func, a, reference) {
            return false;
        }
    }
    if let (Some(d), Some(px)) = (&st.depth, ds) {
        let word = u32::from_le_bytes([
            px[0],
            px[1],
            px.get(2).copied().unwrap_or(0),
            px.get(3).copied().unwrap_or(0),
        ]);
        let bytes = if matches!(d.format, Format::D16 | Format::D16_LOCKABLE) {
            2
        } else {
            4
        };
        let word = if bytes == 2 { word & 0xFFFF } else { word };
        let sbits = d.format.stencil_bits();
        let smask = if sbits == 0 { 0 } else { (1u32 << sbits) - 1 };
        let stored_s = word & smask;
        let mut new_s = stored_s;
        let mut passed = true;
        let mut face: Option<StencilFace> = None;
        if let Some(s) = &d.stencil {
            let f = if front { s.front } else { s.back };
            face = Some(f);
            if !compare(f.func, s.reference & s.mask, stored_s & s.mask) {
                new_s = stencil_op(f.fail, stored_s, s.reference, s.bits);
                passed = false;
            }
        }
        let zb = fmin(fmax(z + bias, st.min_z), st.max_z);
        let zq = quantize_depth(d.format, zb);
        let mut write_z = false;
        if passed {
            let zpass = !d.test || compare(d.func, zq, depth_field(d.format, word));
            if let (Some(s), Some(f)) = (&d.stencil, face) {
                let op = if zpass { f.pass } else { f.zfail };
                new_s = stencil_op(op, stored_s, s.reference, s.bits);
            }
            passed = zpass;
            write_z = zpass && d.write;
        }
        if let Some(s) = &d.stencil {
            new_s = (stored_s & !s.write_mask) | (new_s & s.write_mask);
        }
        let mut out_word = (word & !smask) | new_s;
        if write_z {
            let mut t = [0u8; 4];
            encode_depth_stencil(d.format, zb, new_s, &mut t);
            out_word = u32::from_le_bytes(t);
        }
        px[..bytes].copy_from_slice(&out_word.to_le_bytes()[..bytes]);
        if !passed {
            return false;
        }
    }
    for (i, (t, dst)) in st.targets.iter().zip(rts.iter_mut()).enumerate() {
        let (Some(t), Some(dst)) = (t, dst) else {
            continue;
        };
        if out.written & (1 << i) != 0 {
            merge_color(st, t, colors[i], dst);
        }
    }
    true
}
