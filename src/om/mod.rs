//! The Warp output merger: fog, alpha test, stencil and depth, blending,
//! write masks and stores for one 4x2 stamp in 8 lanes.
//!
//! Vector fast paths cover the common formats (D24S8/D24X8 depth, A8R8G8B8
//! and X8R8G8B8 colour without sRGB); other formats go lane by lane through
//! the Reference driver's scalar colour merge, so every format is written
//! exactly as `format::encode_color` defines. Every vector formula repeats
//! the scalar one (`reference::om`) operation for operation.

// Index loops keep the scalar and 8-lane formulas visibly parallel and
// keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use crate::driver::TargetBytes;
use crate::driver::merge::{fog_factor, is_float, merge_color, resolve};
use crate::driver::pack::pack_unorm8;
use crate::driver::state::{DrawState, FogSource, StencilFace, StencilState, TargetState};
use crate::format::Format;
use crate::pixel::PixelOut;
use crate::simd::{FloatV, IntV, MaskV, Outlined, Simd};
use crate::state::{Blend, BlendOp, CmpFunc, FogMode, StencilOp};

/// Loads the texels of a stamp (rows `y`, `y + 1`, columns `x..x + 4`) as
/// 32-bit words (16-bit formats zero-extended); lanes outside the bytes read 0.
#[inline(always)]
pub(crate) fn load_words<S: Simd>(s: S, t: &TargetBytes<'_>, x: i32, y: i32) -> S::I {
    if t.bpp == 4
        && let Ok(words) = bytemuck::try_cast_slice::<u8, u32>(t.bytes)
    {
        let pw = t.pitch / 4;
        let i0 = y as usize * pw + x as usize;
        // Rows narrower than a stamp take the per-pixel path below.
        if pw >= 4 && i0 + pw + 4 <= words.len() {
            return s.load_u32_rows(&words[i0..i0 + 4], &words[i0 + pw..i0 + pw + 4]);
        }
    }
    let mut w = [0u32; 8];
    for (r, row) in [y, y + 1].into_iter().enumerate() {
        let at = row as usize * t.pitch + x as usize * t.bpp;
        if t.bpp == 4
            && at + 16 <= t.bytes.len()
            && let Ok(words) = bytemuck::try_cast_slice::<u8, u32>(&t.bytes[at..at + 16])
        {
            w[4 * r..4 * r + 4].copy_from_slice(words);
            continue;
        }
        for i in 0..4 {
            let a = at + i * t.bpp;
            if let Some(b) = t.bytes.get(a..a + t.bpp) {
                let mut q = [0u8; 4];
                q[..t.bpp.min(4)].copy_from_slice(&b[..t.bpp.min(4)]);
                w[4 * r + i] = u32::from_le_bytes(q);
            }
        }
    }
    s.load_u32(&w)
}

/// Stores the lanes of `v` set in `bits` (the inverse of [`load_words`]).
#[inline(always)]
pub(crate) fn store_words<S: Simd>(
    s: S,
    v: S::I,
    bits: u32,
    t: &mut TargetBytes<'_>,
    x: i32,
    y: i32,
) {
    if t.bpp == 4
        && let Ok(words) = bytemuck::try_cast_slice_mut::<u8, u32>(t.bytes)
    {
        let pw = t.pitch / 4;
        let i0 = y as usize * pw + x as usize;
        // Rows narrower than a stamp take the per-pixel path below.
        if pw >= 4 && i0 + pw + 4 <= words.len() {
            let (lo, hi) = words.split_at_mut(i0 + pw);
            let (r0, r1) = (&mut lo[i0..i0 + 4], &mut hi[..4]);
            let v = if bits == 0xFF {
                v
            } else {
                s.mask_from_bits(bits).select_i(v, s.load_u32_rows(r0, r1))
            };
            v.store_u32_rows(r0, r1);
            return;
        }
    }
    let mut w = [0u32; 8];
    v.store_u32(&mut w);
    for (r, row) in [y, y + 1].into_iter().enumerate() {
        let rb = (bits >> (4 * r)) & 0xF;
        if rb == 0 {
            continue;
        }
        let at = row as usize * t.pitch + x as usize * t.bpp;
        if t.bpp == 4
            && rb == 0xF
            && at + 16 <= t.bytes.len()
            && let Ok(words) = bytemuck::try_cast_slice_mut::<u8, u32>(&mut t.bytes[at..at + 16])
        {
            words.copy_from_slice(&w[4 * r..4 * r + 4]);
            continue;
        }
        for i in 0..4 {
            if rb & (1 << i) == 0 {
                continue;
            }
            let a = at + i * t.bpp;
            if let Some(b) = t.bytes.get_mut(a..a + t.bpp) {
                let n = t.bpp.min(4);
                b[..n].copy_from_slice(&w[4 * r + i].to_le_bytes()[..n]);
            }
        }
    }
}

#[inline(always)]
fn cmp_f<S: Simd>(s: S, f: CmpFunc, a: S::F, b: S::F) -> S::M {
    match f {
        CmpFunc::Never => s.mask_from_bits(0),
        CmpFunc::Less => a.lt(b),
        CmpFunc::Equal => a.eq(b),
        CmpFunc::LessEqual => a.le(b),
        CmpFunc::Greater => a.gt(b),
        CmpFunc::NotEqual => a.ne(b),
        CmpFunc::GreaterEqual => a.ge(b),
        CmpFunc::Always => s.mask_from_bits(0xFF),
    }
}

#[inline(always)]
fn cmp_i<S: Simd>(s: S, f: CmpFunc, a: S::I, b: S::I) -> S::M {
    match f {
        CmpFunc::Never => s.mask_from_bits(0),
        CmpFunc::Less => a.lt(b),
        CmpFunc::Equal => a.eq(b),
        CmpFunc::LessEqual => !a.gt(b),
        CmpFunc::Greater => a.gt(b),
        CmpFunc::NotEqual => !a.eq(b),
        CmpFunc::GreaterEqual => !a.lt(b),
        CmpFunc::Always => s.mask_from_bits(0xFF),
    }
}

#[inline(always)]
fn stencil_op_v<S: Simd>(s: S, op: StencilOp, stored: S::I, st: &StencilState) -> S::I {
    let max = s.splat_i(((1u32 << st.bits) - 1) as i32);
    let one = s.splat_i(1);
    match op {
        StencilOp::Keep => stored,
        StencilOp::Zero => s.splat_i(0),
        StencilOp::Replace => s.splat_i(st.reference as i32),
        StencilOp::IncrSat => (stored + one).min(max),
        StencilOp::DecrSat => (stored - one).max(s.splat_i(0)),
        StencilOp::Invert => (stored ^ s.splat_i(-1)) & max,
        StencilOp::Incr => (stored + one) & max,
        StencilOp::Decr => (stored - one) & max,
    }
}

/// Per-stamp inputs of the merger besides the pixel stage's output.
pub(crate) struct StampIn<S: Simd> {
    /// Lanes covered and not killed.
    pub(crate) live: u32,
    pub(crate) z: S::F,
    /// `1 / q` (for w-based fog).
    pub(crate) w: S::F,
    /// Interpolated specular alpha (vertex fog).
    pub(crate) fog_alpha: S::F,
    pub(crate) bias: f32,
    pub(crate) front: bool,
    pub(crate) x: i32,
    /// Row relative to the band.
    pub(crate) y: i32,
}

/// Merges one stamp; returns the number of samples that passed depth and stencil.
///
/// The general merger runs as one copy per backend ([`Simd::outline`]):
/// it interprets every depth, stencil, fog, alpha, blend and format state,
/// so a copy at each of the rasterizer's stamp sites multiplied the
/// crate's code generation, while a call costs little beside its work.
/// States common enough to matter take the inlined fast path
/// ([`merge_fast`]) instead.
#[inline(always)]
pub(crate) fn merge<S: Simd>(
    s: S,
    st: &DrawState,
    out: &PixelOut<S>,
    inp: &StampIn<S>,
    depth: Option<&mut TargetBytes<'_>>,
    colors: &mut [Option<TargetBytes<'_>>; 4],
) -> u32 {
    s.outline(GeneralMerge {
        st,
        out,
        inp,
        depth,
        colors,
    })
}

/// One stamp for the general merger, run by [`Simd::outline`].
struct GeneralMerge<'a, 'b, 'c, S: Simd> {
    st: &'a DrawState,
    out: &'a PixelOut<S>,
    inp: &'a StampIn<S>,
    depth: Option<&'a mut TargetBytes<'b>>,
    colors: &'a mut [Option<TargetBytes<'c>>; 4],
}

impl<S: Simd> Outlined<S> for GeneralMerge<'_, '_, '_, S> {
    type Output = u32;
    #[inline(always)]
    fn run(self, s: S) -> u32 {
        merge_stamp(s, self.st, self.out, self.inp, self.depth, self.colors)
    }
}

/// [`merge`]'s work, inlined into its one outlined copy per backend.
#[inline(always)]
fn merge_stamp<S: Simd>(
    s: S,
    st: &DrawState,
    out: &PixelOut<S>,
    inp: &StampIn<S>,
    depth: Option<&mut TargetBytes<'_>>,
    colors: &mut [Option<TargetBytes<'_>>; 4],
) -> u32 {
    let zero = s.splat(0.0);
    let one = s.splat(1.0);
    let mut live = inp.live & !out.kill.bits();
    if st.z_clip_per_pixel {
        live &= (inp.z.ge(zero) & inp.z.le(one)).bits();
    }
    if live == 0 {
        return 0;
    }
    let mut c0 = [
        out.color[0][0],
        out.color[0][1],
        out.color[0][2],
        out.color[0][3],
    ];
    if let Some(fog) = &st.fog {
        let f = match fog.source {
            FogSource::Table {
                mode: FogMode::Linear,
                w_based,
                start,
                end,
                ..
            } if start != end => {
                let d = if w_based { inp.w } else { inp.z };
                let f = (s.splat(end) - d) / (s.splat(end) - s.splat(start));
                f.max(zero).min(one)
            }
            FogSource::SpecularAlpha => inp.fog_alpha.max(zero).min(one),
            ref src => {
                let (za, wa, fa) = (inp.z.to_array(), inp.w.to_array(), inp.fog_alpha.to_array());
                s.f32s(std::array::from_fn(|l| {
                    fog_factor(src, fa[l], za[l], wa[l])
                }))
            }
        };
        for ch in 0..3 {
            c0[ch] = f * c0[ch] + (one - f) * s.splat(fog.color[ch]);
        }
    }
    if let Some((func, reference)) = st.alpha_test {
        let unorm0 = st.targets[0].as_ref().is_none_or(|t| !is_float(t.format));
        let a = if unorm0 {
            c0[3].max(zero).min(one)
        } else {
            c0[3]
        };
        live &= cmp_f(s, func, a, s.splat(reference)).bits();
        if live == 0 {
            return 0;
        }
    }
    let mut passed = live;
    if let (Some(d), Some(t)) = (&st.depth, depth) {
        let word = load_words(s, t, inp.x, inp.y);
        let (zbits, shift) = match d.format {
            Format::D16 | Format::D16_LOCKABLE => (16, 0),
            _ => (24, 8),
        };
        let sbits = d.format.stencil_bits();
        let smask = if sbits == 0 { 0 } else { (1i32 << sbits) - 1 };
        let stored_s = word & s.splat_i(smask);
        let stored_z = if shift == 8 {
            word.shr(8)
        } else {
            word & s.splat_i(0xFFFF)
        };
        let mut ok = s.mask_from_bits(0xFF);
        let mut new_s = stored_s;
        let face: Option<(StencilFace, &StencilState)> = d
            .stencil
            .as_ref()
            .map(|ss| (if inp.front { ss.front } else { ss.back }, ss));
        if let Some((f, ss)) = face {
            let r = s.splat_i((ss.reference & ss.mask) as i32);
            ok = cmp_i(s, f.func, r, stored_s & s.splat_i(ss.mask as i32));
        }
        let zb = (inp.z + s.splat(inp.bias))
            .max(s.splat(st.min_z))
            .min(s.splat(st.max_z));
        let zq = crate::simd::unorm(s, zb.max(zero).min(one), zbits);
        let zpass = if d.test {
            cmp_i(s, d.func, zq, stored_z)
        } else {
            s.mask_from_bits(0xFF)
        };
        if let Some((f, ss)) = face {
            let sfail = stencil_op_v(s, f.fail, stored_s, ss);
            let zfail = stencil_op_v(s, f.zfail, stored_s, ss);
            let pass = stencil_op_v(s, f.pass, stored_s, ss);
            new_s = ok.select_i(zpass.select_i(pass, zfail), sfail);
            let wm = s.splat_i(ss.write_mask as i32);
            new_s = (stored_s & (wm ^ s.splat_i(-1))) | (new_s & wm);
        }
        let pass_all = ok & zpass;
        let keep = (word & s.splat_i(!smask)) | new_s;
        let new_word = if d.write {
            let written = if shift == 8 { zq.shl(8) | new_s } else { zq };
            pass_all.select_i(written, keep)
        } else {
            keep
        };
        if d.write || d.stencil.is_some() {
            store_words(s, new_word, live, t, inp.x, inp.y);
        }
        passed = live & pass_all.bits();
    }
    if passed == 0 {
        return 0;
    }
    // The common case: only RT0, a BGRA8 target (no loop over the slots).
    if out.written == 1
        && let (Some(Some(ts)), Some(dst)) = (st.targets.first(), colors[0].as_mut())
        && !ts.srgb
        && matches!(ts.format, Format::A8R8G8B8 | Format::X8R8G8B8)
    {
        color_bgra8(s, st, ts, &c0, passed, dst, inp.x, inp.y);
        return passed.count_ones();
    }
    for i in 0..st.targets.len().min(4) {
        if out.written & (1 << i) == 0 {
            continue;
        }
        let (Some(ts), Some(dst)) = (&st.targets[i], &mut colors[i]) else {
            continue;
        };
        let color = if i == 0 { &c0 } else { &out.color[i] };
        let fast = !ts.srgb && matches!(ts.format, Format::A8R8G8B8 | Format::X8R8G8B8);
        if fast {
            color_bgra8(s, st, ts, color, passed, dst, inp.x, inp.y);
        } else {
            let lanes = [
                color[0].to_array(),
                color[1].to_array(),
                color[2].to_array(),
                color[3].to_array(),
            ];
            for l in 0..8 {
                if passed & (1 << l) == 0 {
                    continue;
                }
                let (px, py) = (inp.x + (l as i32 & 3), inp.y + (l as i32 >> 2));
                let col = [lanes[0][l], lanes[1][l], lanes[2][l], lanes[3][l]];
                merge_color(st, ts, col, dst.texel(px, py));
            }
        }
    }
    passed.count_ones()
}

#[inline(always)]
fn factor_v<S: Simd>(
    s: S,
    b: Blend,
    sc: &[S::F; 4],
    d: &[S::F; 4],
    k: [f32; 4],
    ch: usize,
) -> S::F {
    let one = s.splat(1.0);
    match b {
        Blend::Zero | Blend::SrcColor2 | Blend::InvSrcColor2 => s.splat(0.0),
        Blend::One => one,
        Blend::SrcColor => sc[ch],
        Blend::InvSrcColor => one - sc[ch],
        Blend::SrcAlpha | Blend::BothSrcAlpha => sc[3],
        Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => one - sc[3],
        Blend::DestAlpha => d[3],
        Blend::InvDestAlpha => one - d[3],
        Blend::DestColor => d[ch],
        Blend::InvDestColor => one - d[ch],
        Blend::SrcAlphaSat => {
            if ch == 3 {
                one
            } else {
                sc[3].min(one - d[3])
            }
        }
        Blend::BlendFactor => s.splat(k[ch]),
        Blend::InvBlendFactor => s.splat(1.0 - k[ch]),
    }
}

#[inline(always)]
fn op_v<S: Simd>(op: BlendOp, sv: S::F, fs: S::F, d: S::F, fd: S::F) -> S::F {
    match op {
        BlendOp::Add => sv * fs + d * fd,
        BlendOp::Subtract => sv * fs - d * fd,
        BlendOp::RevSubtract => d * fd - sv * fs,
        BlendOp::Min => sv.min(d),
        BlendOp::Max => sv.max(d),
    }
}

/// A8R8G8B8 / X8R8G8B8 (bytes B, G, R, A) colour merge in 8 lanes.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn color_bgra8<S: Simd>(
    s: S,
    st: &DrawState,
    ts: &TargetState,
    color: &[S::F; 4],
    passed: u32,
    dst: &mut TargetBytes<'_>,
    x: i32,
    y: i32,
) {
    let zero = s.splat(0.0);
    let one = s.splat(1.0);
    let x8 = ts.format == Format::X8R8G8B8;
    let mut c = [
        color[0].max(zero).min(one),
        color[1].max(zero).min(one),
        color[2].max(zero).min(one),
        color[3].max(zero).min(one),
    ];
    let need_old = st.blend.is_some() || ts.write_mask != 0xF;
    let old = if need_old {
        load_words(s, dst, x, y)
    } else {
        s.splat_i(0)
    };
    if let Some(b) = &st.blend {
        let m = s.splat_i(0xFF);
        let inv255 = s.splat(255.0);
        let d = [
            (old.shr(16) & m).to_f32() / inv255,
            (old.shr(8) & m).to_f32() / inv255,
            (old & m).to_f32() / inv255,
            if x8 {
                one
            } else {
                old.shr(24).to_f32() / inv255
            },
        ];
        let (cs, cd) = resolve(b.src, b.dst);
        let (as_, ad) = resolve(b.src_alpha, b.dst_alpha);
        let src = c;
        for k in 0..4 {
            let (fs, fd, op) = if k < 3 {
                (
                    factor_v(s, cs, &src, &d, b.factor, k),
                    factor_v(s, cd, &src, &d, b.factor, k),
                    b.op,
                )
            } else {
                (
                    factor_v(s, as_, &src, &d, b.factor, k),
                    factor_v(s, ad, &src, &d, b.factor, k),
                    b.op_alpha,
                )
            };
            c[k] = op_v::<S>(op, src[k], fs, d[k], fd).max(zero).min(one);
        }
    }
    let (k255, half) = (s.splat(255.0), s.splat(0.5));
    let a = if x8 {
        s.splat_i(0xFF)
    } else {
        (c[3] * k255 + half).to_i32()
    };
    let mut word = (c[2] * k255 + half).to_i32()
        | (c[1] * k255 + half).to_i32().shl(8)
        | (c[0] * k255 + half).to_i32().shl(16)
        | a.shl(24);
    if ts.write_mask != 0xF {
        let mut bytes = 0u32;
        for (bit, m) in [
            (1, 0x00FF_0000u32),
            (2, 0xFF00),
            (4, 0xFF),
            (8, 0xFF00_0000),
        ] {
            if ts.write_mask & bit != 0 || (bit == 8 && x8) {
                bytes |= m;
            }
        }
        let keep = s.splat_i(!bytes as i32);
        word = (word & s.splat_i(bytes as i32)) | (old & keep);
        if x8 {
            word = word | s.splat_i(0xFF00_0000u32 as i32);
        }
    }
    store_words(s, word, passed, dst, x, y);
}

/// The state of the merger's fast path: a D24S8/D24X8 depth buffer without
/// stencil, one A8R8G8B8/X8R8G8B8 target (no sRGB, all channels written),
/// no fog, alpha test or blending. [`merge_fast`] computes exactly what
/// [`merge`] computes for such a state, with every state choice made once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastOm {
    /// The draw has a depth buffer (without one every live lane passes).
    depth: bool,
    /// The depth function (`Always` when ZENABLE is off).
    func: CmpFunc,
    write: bool,
    /// The stencil bits a depth write keeps (0xFF with D24S8, 0 with D24X8).
    smask: i32,
    /// X8R8G8B8 (alpha byte written as 0xFF).
    x8: bool,
    z_clip: bool,
    min_z: f32,
    max_z: f32,
}

/// Prefetches columns `x0..x1` of every row of a word view with `pitch`
/// words per row, one hint per 64-byte line.
fn prefetch_view(words: &[u32], pitch: usize, x0: usize, x1: usize) {
    /// Words per 64-byte cache line.
    const LINE: usize = 16;
    let x1 = x1.min(pitch);
    if pitch == 0 || x0 >= x1 {
        return;
    }
    for row in words.chunks_exact(pitch) {
        let mut x = x0 & !(LINE - 1);
        while x < x1 {
            crate::simd::prefetch(row, x);
            x += LINE;
        }
    }
}

impl FastOm {
    /// The fast path's state when `st` selects it.
    pub(crate) fn new(st: &DrawState) -> Option<FastOm> {
        if st.fog.is_some() || st.alpha_test.is_some() || st.blend.is_some() {
            return None;
        }
        if let Some(d) = &st.depth
            && (d.stencil.is_some() || !matches!(d.format, Format::D24S8 | Format::D24X8))
        {
            return None;
        }
        let ts = st.targets.first()?.as_ref()?;
        if ts.srgb
            || ts.write_mask != 0xF
            || !matches!(ts.format, Format::A8R8G8B8 | Format::X8R8G8B8)
            || st.targets[1..].iter().any(Option::is_some)
        {
            return None;
        }
        let d = st.depth.as_ref();
        Some(FastOm {
            depth: d.is_some(),
            func: d.map_or(CmpFunc::Always, |d| {
                if d.test { d.func } else { CmpFunc::Always }
            }),
            write: d.is_some_and(|d| d.write),
            smask: if d.is_none_or(|d| d.format.stencil_bits() == 0) {
                0
            } else {
                0xFF
            },
            x8: ts.format == Format::X8R8G8B8,
            z_clip: st.z_clip_per_pixel,
            min_z: st.min_z,
            max_z: st.max_z,
        })
    }
}

/// A band's depth buffer (if the draw has one) and RT0 as 32-bit words,
/// for [`merge_fast`].
pub(crate) struct FastTargets<'a> {
    depth: Option<&'a mut [u32]>,
    color: &'a mut [u32],
    /// Words per row.
    dpw: usize,
    cpw: usize,
    /// The last stamp column and row inside both views (see
    /// [`FastTargets::holds_region`]); -1 when there is none.
    max_x: i32,
    max_y: i32,
}

impl<'a> FastTargets<'a> {
    /// Word views of `depth` (when `f` has a depth buffer) and `color`
    /// (None unless each is 4 bytes per texel, word-aligned, with
    /// whole-word pitches).
    pub(crate) fn new(
        f: &FastOm,
        depth: Option<&'a mut TargetBytes<'_>>,
        color: Option<&'a mut TargetBytes<'_>>,
    ) -> Option<FastTargets<'a>> {
        let words = |t: &'a mut TargetBytes<'_>| -> Option<(&'a mut [u32], usize)> {
            if t.bpp != 4 || !t.pitch.is_multiple_of(4) {
                return None;
            }
            Some((
                bytemuck::try_cast_slice_mut(&mut *t.bytes).ok()?,
                t.pitch / 4,
            ))
        };
        let (color, cpw) = words(color?)?;
        let (depth, dpw) = if f.depth {
            let (d, dpw) = words(depth?)?;
            (Some(d), dpw)
        } else {
            (None, 0)
        };
        // A stamp at (x, y) reads four words of rows y and y + 1 from
        // column x: the last column inside every view's pitch, the last row
        // whose next row is whole in every view (a partial last row is left
        // to `holds`, which can be exact about it).
        let mut pitch = cpw;
        let mut rows = color.len() / cpw.max(1);
        if let Some(d) = depth.as_deref() {
            pitch = pitch.min(dpw);
            rows = rows.min(d.len() / dpw.max(1));
        }
        let bound = |n: usize, less: usize| i32::try_from(n).map_or(i32::MAX, |n| n) - less as i32;
        Some(FastTargets {
            depth,
            color,
            dpw,
            cpw,
            max_x: bound(pitch, 4),
            max_y: bound(rows, 2),
        })
    }

    /// The depth and RT0 words of an 8x8 block's stamp row: eight from
    /// column `x` of rows `y` and `y + 1` (band-relative) of each view, as
    /// two stamps' [`StampRows`]. The caller has checked with
    /// [`FastTargets::holds`] that stamps (x, y) and (x + 4, y) lie inside.
    #[inline(always)]
    pub(crate) fn block_rows(&mut self, x: usize, y: usize) -> [StampRows<'_>; 2] {
        let ci = y * self.cpw + x;
        let (c0, c1) = self.color.split_at_mut(ci + self.cpw);
        let [c0l, c0r] = halves(&mut c0[ci..]);
        let [c1l, c1r] = halves(c1);
        let [dl, dr] = match self.depth.as_deref_mut() {
            Some(depth) => {
                let di = y * self.dpw + x;
                let (d0, d1) = depth.split_at_mut(di + self.dpw);
                let [d0l, d0r] = halves(&mut d0[di..]);
                let [d1l, d1r] = halves(d1);
                [Some([d0l, d1l]), Some([d0r, d1r])]
            }
            None => [None, None],
        };
        [
            StampRows {
                depth: dl,
                color: [c0l, c1l],
            },
            StampRows {
                depth: dr,
                color: [c0r, c1r],
            },
        ]
    }

    /// The depth and RT0 words of stamp (x, y) (band-relative y), which
    /// the caller has checked with [`FastTargets::holds`] (directly, or as
    /// part of a region whose corner stamps it holds).
    #[inline(always)]
    pub(crate) fn stamp_rows(&mut self, x: usize, y: usize) -> StampRows<'_> {
        let ci = y * self.cpw + x;
        let (c0, c1) = self.color.split_at_mut(ci + self.cpw);
        let depth = self.depth.as_deref_mut().map(|depth| {
            let di = y * self.dpw + x;
            let (d0, d1) = depth.split_at_mut(di + self.dpw);
            [quad(&mut d0[di..]), quad(d1)]
        });
        StampRows {
            depth,
            color: [quad(&mut c0[ci..]), quad(c1)],
        }
    }

    /// Prefetches the cache lines of columns `x0..x1` of every row of the
    /// views (the next tile's pixels, while the current tile is shaded):
    /// a tile's first touch of each row otherwise waits on memory.
    pub(crate) fn prefetch_columns(&self, x0: usize, x1: usize) {
        prefetch_view(self.color, self.cpw, x0, x1);
        if let Some(d) = self.depth.as_deref() {
            prefetch_view(d, self.dpw, x0, x1);
        }
    }

    /// Whether every stamp from (x0, y0) to (x1, y1) (band-relative rows,
    /// x0 <= x1, y0 <= y1) lies inside both views: [`FastTargets::holds`]
    /// for the box's first and last stamps, in four comparisons against
    /// bounds found when the views were made.
    #[inline(always)]
    pub(crate) fn holds_region(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> bool {
        x0 >= 0 && y0 >= 0 && x1 <= self.max_x && y1 <= self.max_y
    }

    /// Whether stamp (x, y) (band-relative y) lies inside both views.
    #[inline(always)]
    pub(crate) fn holds(&self, x: i32, y: i32) -> bool {
        // The row loads take four consecutive words of each of two rows, so
        // the stamp must fit inside one pitch as well as inside the slices:
        // a target narrower than a stamp would otherwise read the next row.
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
            return false;
        };
        let depth_holds = match &self.depth {
            Some(d) => x + 4 <= self.dpw && (y + 1) * self.dpw + x + 4 <= d.len(),
            None => true,
        };
        depth_holds && x + 4 <= self.cpw && (y + 1) * self.cpw + x + 4 <= self.color.len()
    }
}

impl FastOm {
    /// The depth function.
    pub(crate) fn func(&self) -> CmpFunc {
        self.func
    }

    /// Whether the draw tests against a depth buffer.
    pub(crate) fn has_depth(&self) -> bool {
        self.depth
    }

    /// Depth `z` plus `bias` as the D24 field stores it: clamped to the
    /// viewport's [MinZ, MaxZ] and quantised. The viewport's MinZ and MaxZ
    /// lie in [0, 1] (SetViewport checks), so this clamp already lands in
    /// [0, 1]: `merge`'s second clamp to [0, 1] could only turn -0 into +0,
    /// which quantises the same.
    #[inline(always)]
    pub(crate) fn quantize<S: Simd>(&self, s: S, z: S::F, bias: f32) -> S::I {
        let zb = (z + s.splat(bias))
            .max(s.splat(self.min_z))
            .min(s.splat(self.max_z));
        crate::simd::unorm(s, zb, 24)
    }

    /// Whether interpolated depth outside [0, 1] is discarded per pixel.
    pub(crate) fn z_clip(&self) -> bool {
        self.z_clip
    }
}

/// [`merge`] for a [`FastOm`] state, on a stamp inside `t`
/// ([`FastTargets::holds`]); the same bytes and the same count.
#[inline(always)]
pub(crate) fn merge_fast<S: Simd>(
    s: S,
    f: &FastOm,
    out: &PixelOut<S>,
    inp: &StampIn<S>,
    t: &mut FastTargets<'_>,
) -> u32 {
    let rows = t.stamp_rows(inp.x as usize, inp.y as usize);
    let live = s.mask_from_bits(inp.live);
    merge_fast_rows::<S, false, true>(s, f, f.func, out, live, inp.z, inp.bias, None, rows)
}

/// The first eight words of `w` (which holds at least eight) as two fours.
#[inline(always)]
fn halves(w: &mut [u32]) -> [&mut [u32; 4]; 2] {
    let (l, r) = w
        .first_chunk_mut::<8>()
        .expect("a block row inside the target")
        .split_at_mut(4);
    [quad(l), quad(r)]
}

/// The first four words of `w` (which holds at least four).
#[inline(always)]
fn quad(w: &mut [u32]) -> &mut [u32; 4] {
    w.first_chunk_mut::<4>()
        .expect("a stamp row inside the target")
}

/// The words of one stamp in the depth buffer (if any) and RT0: four per row.
pub(crate) struct StampRows<'a> {
    pub(crate) depth: Option<[&'a mut [u32; 4]; 2]>,
    pub(crate) color: [&'a mut [u32; 4]; 2],
}

/// [`merge_fast`] on the stamp's words, with depth function `func`
/// (`f.func`, or the same value as a constant): `live` lanes, interpolated
/// depth `z` plus `bias` (the caller has applied `oDepth`). `SATURATED`:
/// the caller knows every colour channel is in [0, 1] (not NaN), so the
/// clamp before quantisation, which could not change a value, is left out.
/// `ZCLIP` false: the caller knows `z` is in [0, 1] wherever `f` would clip
/// it, so the per-pixel test is left out. `flat`: `z` plus `bias`
/// quantised, when the caller knows it is the same in every lane.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn merge_fast_rows<S: Simd, const SATURATED: bool, const ZCLIP: bool>(
    s: S,
    f: &FastOm,
    func: CmpFunc,
    out: &PixelOut<S>,
    live: S::M,
    z: S::F,
    bias: f32,
    flat: Option<S::I>,
    rows: StampRows<'_>,
) -> u32 {
    let StampRows { depth, color } = rows;
    let (pass, passed) = fast_depth::<S, ZCLIP>(s, f, func, live & !out.kill, z, bias, flat, depth);
    if passed == 0 || out.written & 1 == 0 {
        return passed.count_ones();
    }
    // X8R8G8B8's alpha byte is set by `store_color`.
    let word = pack_unorm8::<S, SATURATED>(s, &out.color[0], !f.x8);
    store_color(s, f, word, pass, passed, color)
}

/// [`merge_fast_rows`] for a stage that delivered RT0 already quantised
/// ([`PixelStage::shade_packed`](crate::pixel::PixelStage::shade_packed)):
/// `word` holds B, G, R, A from the low byte up, and the stage wrote no
/// kill mask and no `oDepth`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn merge_fast_packed<S: Simd, const ZCLIP: bool>(
    s: S,
    f: &FastOm,
    func: CmpFunc,
    word: S::I,
    live: S::M,
    z: S::F,
    bias: f32,
    flat: Option<S::I>,
    rows: StampRows<'_>,
) -> u32 {
    let StampRows { depth, color } = rows;
    let (pass, passed) = fast_depth::<S, ZCLIP>(s, f, func, live, z, bias, flat, depth);
    if passed == 0 {
        return 0;
    }
    store_color(s, f, word, pass, passed, color)
}

/// The depth half of the fast merger: the `live` lanes (clipped to depth
/// [0, 1] where `f` says so) that pass the depth test, with the depth
/// buffer written; and their bits. `flat`: the stamp's quantised depth
/// when the caller knows it already (the same in every lane).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fast_depth<S: Simd, const ZCLIP: bool>(
    s: S,
    f: &FastOm,
    func: CmpFunc,
    mut live: S::M,
    z: S::F,
    bias: f32,
    flat: Option<S::I>,
    depth: Option<[&mut [u32; 4]; 2]>,
) -> (S::M, u32) {
    if ZCLIP && f.z_clip {
        live = live & z.ge(s.splat(0.0)) & z.le(s.splat(1.0));
    }
    let Some([d0, d1]) = depth else {
        return (live, live.bits());
    };
    let word = s.load_u32_rows(d0, d1);
    let zq = match flat {
        Some(zq) => zq,
        None => f.quantize(s, z, bias),
    };
    let pass = cmp_i(s, func, zq, word.shr(8)) & live;
    let passed = pass.bits();
    if passed != 0 && f.write {
        let written = zq.shl(8) | (word & s.splat_i(f.smask));
        pass.select_i(written, word).store_u32_rows(d0, d1);
    }
    (pass, passed)
}

/// Stores RT0's words `word` (B, G, R, A from the low byte up) in the
/// `pass` lanes (`passed` their bits, not 0): alpha 0xFF on X8R8G8B8.
#[inline(always)]
fn store_color<S: Simd>(
    s: S,
    f: &FastOm,
    mut word: S::I,
    pass: S::M,
    passed: u32,
    [c0, c1]: [&mut [u32; 4]; 2],
) -> u32 {
    if f.x8 {
        word = word | s.splat_i(0xFF00_0000u32 as i32);
    }
    if passed != 0xFF {
        word = pass.select_i(word, s.load_u32_rows(c0, c1));
    }
    word.store_u32_rows(c0, c1);
    passed.count_ones()
}

impl FastTargets<'_> {
    /// [`merge`] itself on these views (for stamps that [`FastTargets::holds`]
    /// rejects: rows or columns past the end of the bytes).
    #[inline(always)]
    pub(crate) fn merge_general<S: Simd>(
        &mut self,
        s: S,
        st: &DrawState,
        out: &PixelOut<S>,
        inp: &StampIn<S>,
    ) -> u32 {
        let dpw = self.dpw;
        let mut depth = self.depth.as_deref_mut().map(|d| TargetBytes {
            bytes: bytemuck::cast_slice_mut(d),
            pitch: dpw * 4,
            bpp: 4,
        });
        let mut colors = [
            Some(TargetBytes {
                bytes: bytemuck::cast_slice_mut(&mut *self.color),
                pitch: self.cpw * 4,
                bpp: 4,
            }),
            None,
            None,
            None,
        ];
        merge(s, st, out, inp, depth.as_mut(), &mut colors)
    }
}
