//! The fixed-function pixel stage: the texture-stage cascade of
//! fixed-function.md §11 (8 stages, all 26 D3DTOP operations, COMPLEMENT /
//! ALPHAREPLICATE, TEMP and RESULTARG, per-stage CONSTANT, TFACTOR,
//! BUMPENVMAP / BUMPENVMAPLUMINANCE, PREMODULATE) followed by the specular
//! add (§11.6). Fog and the alpha test follow in the output merger (see
//! [`super::fog`] for that interface).
//!
//! Two forms: [`FfpPixelProgram::shade8`] runs two 2x2 quads (8 lanes, the
//! layout of [`crate::texture_fetch`]) through a cascade compiled from the
//! [`FfpPixelKey`]; [`reference_shade8`] evaluates §11.4's pseudocode from
//! the raw stage states, one pixel at a time per stage. Both use the
//! per-channel operation and argument functions below, so they agree bit
//! for bit given texture fetches that agree.
//!
//! Inputs arrive interpolated (Gouraud or flat is the rasterizer's choice);
//! texture coordinates arrive unprojected (the division of §7.2 happens
//! here, after bump perturbation).

use super::math::{Real, V, k4, sat};
use super::state::FfpState;
use crate::simd::Simd;
use crate::state::{
    Color, RenderStateType as R, StateValue, TextureArg, TextureOp, TextureStageStateType as T,
};
use crate::texture_fetch::{Lod, TextureFetch, TextureFetchScalar, ddx, ddy, quad_derivatives};

/// The kind of texture bound to a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StageTexture {
    /// No texture.
    #[default]
    None,
    /// A 2-D or volume texture (projectable).
    Flat,
    /// A cube texture (never projected).
    Cube,
}

/// Interpolated inputs of the pixel stage, per pixel (`f32`) or per 8 lanes (`S::F`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelInput<T> {
    /// Diffuse colour.
    pub diffuse: [T; 4],
    /// Specular colour.
    pub specular: [T; 4],
    /// Texture coordinates per stage (unprojected).
    pub texcoord: [[T; 4]; 8],
}

/// One stage of the compiled cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StageKey {
    /// Colour operation.
    pub color_op: TextureOp,
    /// Colour arguments 0, 1, 2 (raw D3DTA values).
    pub color_args: [u32; 3],
    /// Alpha operation after the §11.3 rules (colour-only → SELECTARG1; DISABLE kept).
    pub alpha_op: TextureOp,
    /// Alpha arguments 0, 1, 2.
    pub alpha_args: [u32; 3],
    /// The stage writes TEMP instead of CURRENT.
    pub to_temp: bool,
    /// The bound texture.
    pub texture: StageTexture,
    /// Component to divide the coordinate by (already None for cube maps).
    pub divisor: Option<u8>,
}

/// Everything that selects pixel-stage code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FfpPixelKey {
    /// The stages that run (the cascade ends after the last).
    pub stages: Vec<StageKey>,
    /// D3DRS_SPECULARENABLE: add the specular colour after the cascade.
    pub specular_add: bool,
}

/// Numeric constants of the pixel stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FfpPixelConsts {
    /// D3DRS_TEXTUREFACTOR as RGBA.
    pub tfactor: [f32; 4],
    /// D3DTSS_CONSTANT of each stage as RGBA.
    pub constant: [[f32; 4]; 8],
    /// BUMPENVMAT00, 01, 10, 11 of each stage.
    pub bump_mat: [[f32; 4]; 8],
    /// BUMPENVLSCALE, BUMPENVLOFFSET of each stage.
    pub bump_l: [[f32; 2]; 8],
}

impl FfpPixelConsts {
    /// The constants of `state`.
    pub fn new(state: &FfpState) -> FfpPixelConsts {
        let f = |s: usize, k: T| f32::from_bits(state.tss(s, k));
        FfpPixelConsts {
            tfactor: Color(state.rs(R::TextureFactor)).to_rgba(),
            constant: std::array::from_fn(|s| Color(state.tss(s, T::Constant)).to_rgba()),
            bump_mat: std::array::from_fn(|s| {
                [
                    f(s, T::BumpEnvMat00),
                    f(s, T::BumpEnvMat01),
                    f(s, T::BumpEnvMat10),
                    f(s, T::BumpEnvMat11),
                ]
            }),
            bump_l: std::array::from_fn(|s| [f(s, T::BumpEnvLScale), f(s, T::BumpEnvLOffset)]),
        }
    }
}

fn decode_op(raw: u32) -> TextureOp {
    TextureOp::from_raw(raw).unwrap_or(TextureOp::Disable)
}

fn is_bump(op: TextureOp) -> bool {
    matches!(op, TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance)
}

/// Which of ARG0, ARG1, ARG2 an operation reads.
pub fn reads(op: TextureOp) -> [bool; 3] {
    use TextureOp::*;
    match op {
        Disable | BumpEnvMap | BumpEnvMapLuminance => [false; 3],
        SelectArg1 | Premodulate => [false, true, false],
        SelectArg2 => [false, false, true],
        MultiplyAdd | Lerp => [true; 3],
        _ => [false, true, true],
    }
}

/// The alpha operation actually evaluated (§11.3: colour-only operations select ARG1).
pub fn effective_alpha_op(color_op: TextureOp, alpha_raw: u32) -> TextureOp {
    use TextureOp::*;
    if color_op == DotProduct3 {
        return DotProduct3;
    }
    match decode_op(alpha_raw) {
        ModulateAlphaAddColor
        | ModulateColorAddAlpha
        | ModulateInvAlphaAddColor
        | ModulateInvColorAddAlpha
        | BumpEnvMap
        | BumpEnvMapLuminance => SelectArg1,
        op => op,
    }
}

/// The number of stages that run: up to the first COLOROP DISABLE, cut
/// before the first stage whose colour operation reads an unbound TEXTURE
/// (§11.4, Nine's rule), and `last` (for the RESULTARG rule) from before the cut.
pub fn cascade_extent(state: &FfpState, textures: &[StageTexture; 8]) -> (usize, usize) {
    let enabled = (0..8)
        .position(|s| decode_op(state.tss(s, T::ColorOp)) == TextureOp::Disable)
        .unwrap_or(8);
    let mut run = enabled;
    for (s, tex) in textures.iter().enumerate().take(enabled) {
        let op = decode_op(state.tss(s, T::ColorOp));
        let args = [T::ColorArg0, T::ColorArg1, T::ColorArg2].map(|k| state.tss(s, k));
        let uses_tex = reads(op)
            .iter()
            .zip(args)
            .any(|(&r, a)| r && a & TextureArg::SELECT_MASK == TextureArg::TEXTURE.0);
        if uses_tex && *tex == StageTexture::None {
            run = s;
            break;
        }
    }
    (run, enabled.saturating_sub(1))
}

impl FfpPixelKey {
    /// The key of `state` with `textures` bound and the stages' projection
    /// divisors `divisors` (from [`super::texgen::projection_divisor`]).
    pub fn new(
        state: &FfpState,
        textures: [StageTexture; 8],
        divisors: [Option<u8>; 8],
    ) -> FfpPixelKey {
        let (run, last) = cascade_extent(state, &textures);
        let stages = (0..run)
            .map(|s| {
                let color_op = decode_op(state.tss(s, T::ColorOp));
                StageKey {
                    color_op,
                    color_args: [T::ColorArg0, T::ColorArg1, T::ColorArg2].map(|k| state.tss(s, k)),
                    alpha_op: effective_alpha_op(color_op, state.tss(s, T::AlphaOp)),
                    alpha_args: if color_op == TextureOp::DotProduct3 {
                        [T::ColorArg0, T::ColorArg1, T::ColorArg2].map(|k| state.tss(s, k))
                    } else {
                        [T::AlphaArg0, T::AlphaArg1, T::AlphaArg2].map(|k| state.tss(s, k))
                    },
                    to_temp: state.tss(s, T::ResultArg) & TextureArg::SELECT_MASK
                        == TextureArg::TEMP.0
                        && s != last,
                    texture: textures[s],
                    divisor: if textures[s] == StageTexture::Cube {
                        None
                    } else {
                        divisors[s]
                    },
                }
            })
            .collect();
        FfpPixelKey {
            stages,
            specular_add: state.rs_bool(R::SpecularEnable),
        }
    }
}

/// Values the argument selectors read, for one channel set.
#[derive(Clone, Copy)]
pub struct ArgSources<X> {
    /// DIFFUSE.
    pub diffuse: [X; 4],
    /// CURRENT.
    pub current: [X; 4],
    /// TEXTURE.
    pub texture: [X; 4],
    /// TFACTOR.
    pub tfactor: [X; 4],
    /// SPECULAR.
    pub specular: [X; 4],
    /// TEMP.
    pub temp: [X; 4],
    /// CONSTANT of the stage.
    pub constant: [X; 4],
}

/// An argument's RGBA after COMPLEMENT, then ALPHAREPLICATE (§11.2).
#[inline(always)]
pub fn arg_value<X: Real>(raw: u32, src: &ArgSources<X>) -> [X; 4] {
    let v = match raw & TextureArg::SELECT_MASK {
        0 => src.diffuse,
        1 => src.current,
        2 => src.texture,
        3 => src.tfactor,
        4 => src.specular,
        5 => src.temp,
        6 => src.constant,
        // Unknown selectors (refused by validation) read CURRENT.
        _ => src.current,
    };
    let mut v = v;
    if raw & TextureArg::COMPLEMENT != 0 {
        for c in v.iter_mut() {
            *c = c.k(1.0) - *c;
        }
    }
    if raw & TextureArg::ALPHAREPLICATE != 0 {
        [v[3]; 4]
    } else {
        v
    }
}

/// One channel of a D3DTOP result, unclamped (§11.3); `a1a` is ARG1's alpha,
/// `alpha` the blend factor of the BLEND*ALPHA operations.
#[inline(always)]
pub fn op_channel<X: Real>(op: TextureOp, a0: X, a1: X, a2: X, a1a: X, alpha: X) -> X {
    use TextureOp::*;
    let one = a1.k(1.0);
    match op {
        SelectArg2 => a2,
        Modulate => a1 * a2,
        Modulate2x => a1 * a2 * a1.k(2.0),
        Modulate4x => a1 * a2 * a1.k(4.0),
        Add => a1 + a2,
        AddSigned => a1 + a2 - a1.k(0.5),
        AddSigned2x => (a1 + a2 - a1.k(0.5)) * a1.k(2.0),
        Subtract => a1 - a2,
        AddSmooth => a1 + a2 - a1 * a2,
        BlendDiffuseAlpha | BlendTextureAlpha | BlendFactorAlpha | BlendCurrentAlpha => {
            a1 * alpha + a2 * (one - alpha)
        }
        BlendTextureAlphaPm => a1 + a2 * (one - alpha),
        ModulateAlphaAddColor => a1 + a1a * a2,
        ModulateColorAddAlpha => a1 * a2 + a1a,
        ModulateInvAlphaAddColor => a1 + (one - a1a) * a2,
        ModulateInvColorAddAlpha => (one - a1) * a2 + a1a,
        MultiplyAdd => a0 + a1 * a2,
        Lerp => a0 * a1 + (one - a0) * a2,
        // As an alpha operation (with another colour operation) the scalar
        // form; the colour form is `dot3_op` (decision: D3D9 documents only the colour form).
        DotProduct3 => (a1 - a1.k(0.5)) * (a2 - a1.k(0.5)) * a1.k(4.0),
        // SELECTARG1, PREMODULATE; bump operations are handled by the caller.
        _ => a1,
    }
}

/// DOTPRODUCT3's scalar `4·Σ(a1 − 0.5)(a2 − 0.5)` over RGB.
#[inline(always)]
pub fn dot3_op<X: Real>(a1: [X; 4], a2: [X; 4]) -> X {
    let h = a1[0].k(0.5);
    let t = |i: usize| (a1[i] - h) * (a2[i] - h);
    (t(0) + t(1) + t(2)) * a1[0].k(4.0)
}

/// The blend factor of a BLEND*ALPHA operation.
#[inline(always)]
fn blend_alpha<X: Real>(op: TextureOp, src: &ArgSources<X>) -> X {
    match op {
        TextureOp::BlendDiffuseAlpha => src.diffuse[3],
        TextureOp::BlendTextureAlpha | TextureOp::BlendTextureAlphaPm => src.texture[3],
        TextureOp::BlendFactorAlpha => src.tfactor[3],
        _ => src.current[3],
    }
}

/// One stage's colour and alpha results (clamped), given its argument sources.
/// Alpha DISABLE keeps CURRENT's alpha.
#[inline(always)]
pub fn stage_result<X: Real>(
    color_op: TextureOp,
    color_args: [u32; 3],
    alpha_op: TextureOp,
    alpha_args: [u32; 3],
    src: &ArgSources<X>,
) -> [X; 4] {
    let c = [
        arg_value(color_args[0], src),
        arg_value(color_args[1], src),
        arg_value(color_args[2], src),
    ];
    let mut out = [c[1][0]; 4];
    if color_op == TextureOp::DotProduct3 {
        let d = sat(dot3_op(c[1], c[2]));
        return [d; 4];
    }
    let alpha = blend_alpha(color_op, src);
    for i in 0..3 {
        out[i] = sat(op_channel(
            color_op, c[0][i], c[1][i], c[2][i], c[1][3], alpha,
        ));
    }
    out[3] = if alpha_op == TextureOp::Disable {
        sat(src.current[3])
    } else {
        let no_rep = !TextureArg::ALPHAREPLICATE;
        let a = [
            arg_value(alpha_args[0] & no_rep, src)[3],
            arg_value(alpha_args[1] & no_rep, src)[3],
            arg_value(alpha_args[2] & no_rep, src)[3],
        ];
        let alpha = blend_alpha(alpha_op, src);
        sat(op_channel(alpha_op, a[0], a[1], a[2], a[1], alpha))
    };
    out
}

/// Bump displacement `(du·M00 + dv·M10, du·M01 + dv·M11)` of a bump sample (§11.5).
#[inline(always)]
pub fn bump_offset<X: Real>(sample: [X; 4], m: [f32; 4]) -> [X; 2] {
    let (du, dv) = (sample[0], sample[1]);
    [
        du * du.k(m[0]) + dv * du.k(m[2]),
        du * du.k(m[1]) + dv * du.k(m[3]),
    ]
}

/// Luminance factor `clamp(L·scale + offset, 0, 1)` of BUMPENVMAPLUMINANCE.
#[inline(always)]
pub fn bump_luminance<X: Real>(sample: [X; 4], l: [f32; 2]) -> X {
    let x = sample[2];
    sat(x * x.k(l[0]) + x.k(l[1]))
}

/// The lookup coordinate: bump offset added (scaled by the divisor when
/// projected, so only the original coordinate is divided), then divided.
#[inline(always)]
pub fn lookup_coord<X: Real>(c: [X; 4], bump: Option<[X; 2]>, divisor: Option<u8>) -> [X; 4] {
    let mut c = c;
    let q = divisor.map(|d| c[d as usize & 3]);
    if let Some([du, dv]) = bump {
        match q {
            Some(q) => {
                c[0] = c[0] + du * q;
                c[1] = c[1] + dv * q;
            }
            None => {
                c[0] = c[0] + du;
                c[1] = c[1] + dv;
            }
        }
    }
    if let (Some(d), Some(q)) = (divisor, q) {
        for v in c.iter_mut().take(d as usize) {
            *v = *v / q;
        }
    }
    c
}

/// RGB `+` specular RGB, clamped; alpha untouched (§11.6).
#[inline(always)]
pub fn specular_add<X: Real>(c: [X; 4], s: [X; 4]) -> [X; 4] {
    [sat(c[0] + s[0]), sat(c[1] + s[1]), sat(c[2] + s[2]), c[3]]
}

/// A bump stage's effect on the next stage (8 lanes): displacement and luminance factor.
type WarpBump<S> = ([V<S>; 2], Option<V<S>>);

/// The same for the Reference's 8 pixels.
type RefBump = ([[f32; 2]; 8], Option<[f32; 8]>);

/// A compiled cascade.
#[derive(Clone, Debug)]
pub struct FfpPixelProgram {
    key: FfpPixelKey,
    /// Per stage: sample its texture.
    sample: Vec<bool>,
}

fn needs_sample(k: &StageKey, prev: Option<&StageKey>) -> bool {
    let sel = |args: [u32; 3], op: TextureOp| {
        reads(op)
            .iter()
            .zip(args)
            .any(|(&r, a)| r && a & TextureArg::SELECT_MASK == TextureArg::TEXTURE.0)
    };
    let alpha_tex = matches!(
        k.color_op,
        TextureOp::BlendTextureAlpha | TextureOp::BlendTextureAlphaPm
    ) || matches!(
        k.alpha_op,
        TextureOp::BlendTextureAlpha | TextureOp::BlendTextureAlphaPm
    );
    is_bump(k.color_op)
        || sel(k.color_args, k.color_op)
        || (k.alpha_op != TextureOp::Disable && sel(k.alpha_args, k.alpha_op))
        || alpha_tex
        || prev.is_some_and(|p| {
            p.color_op == TextureOp::Premodulate || p.alpha_op == TextureOp::Premodulate
        })
}

impl FfpPixelProgram {
    /// Some stage samples its texture (and so needs the quad's
    /// derivatives for its level of detail).
    pub fn samples_textures(&self) -> bool {
        self.sample.iter().any(|&s| s)
    }

    /// Compiles the cascade of `key`.
    pub fn new(key: FfpPixelKey) -> FfpPixelProgram {
        let sample = (0..key.stages.len())
            .map(|s| needs_sample(&key.stages[s], s.checked_sub(1).map(|p| &key.stages[p])))
            .collect();
        FfpPixelProgram { key, sample }
    }

    /// The key.
    pub fn key(&self) -> &FfpPixelKey {
        &self.key
    }

    /// Stages whose texture coordinates the cascade reads (bit s: stage s):
    /// the vertex stage's `DrawOptions::tex_stages` for a fixed-function draw.
    pub fn coordinate_stages(&self) -> u8 {
        self.sample
            .iter()
            .enumerate()
            .filter(|(_, on)| **on)
            .fold(0, |m, (s, _)| m | (1 << s))
    }

    /// Shades 8 pixels (two 2x2 quads); `active` lanes are the covered ones
    /// (the others are helpers for derivatives). Returns RGBA after the specular add.
    #[inline(always)]
    pub fn shade8<S: Simd, F: TextureFetch<S>>(
        &self,
        s: S,
        c: &FfpPixelConsts,
        inp: &PixelInput<S::F>,
        fetch: &F,
        active: S::M,
    ) -> [S::F; 4] {
        // Loops and helper functions only, no closures over vector code:
        // see `ffp::math` on closures and the AVX2 target feature.
        let diffuse = wrap4(s, &inp.diffuse);
        let specular = wrap4(s, &inp.specular);
        let zero = V(s.splat(0.0), s);
        let mut current = diffuse;
        let mut temp = [zero; 4];
        let mut bump: Option<WarpBump<S>> = None;
        let mut premod = (false, false);
        for (st, k) in self.key.stages.iter().enumerate() {
            let mut tex = [zero; 4];
            if self.sample[st] {
                // (A closure that only moves values is harmless.)
                let offset = bump.map(|(o, _)| o);
                let coord = lookup_coord(wrap4(s, &inp.texcoord[st]), offset, k.divisor);
                let lod = Lod::Implicit {
                    ddx: [ddx(s, coord[0].0), ddx(s, coord[1].0), ddx(s, coord[2].0)],
                    ddy: [ddy(s, coord[0].0), ddy(s, coord[1].0), ddy(s, coord[2].0)],
                };
                let raw = [coord[0].0, coord[1].0, coord[2].0, coord[3].0];
                tex = wrap4(s, &fetch.sample(s, st, raw, lod, active));
                if let Some((_, Some(l))) = bump {
                    for ch in tex.iter_mut().take(3) {
                        *ch = *ch * l;
                    }
                }
            }
            bump = None;
            let mut cur_in = current;
            if premod.0 && k.texture != StageTexture::None {
                for i in 0..3 {
                    cur_in[i] = cur_in[i] * tex[i];
                }
            }
            if premod.1 && k.texture != StageTexture::None {
                cur_in[3] = cur_in[3] * tex[3];
            }
            premod = (
                k.color_op == TextureOp::Premodulate,
                k.alpha_op == TextureOp::Premodulate,
            );
            if is_bump(k.color_op) {
                let off = bump_offset(tex, c.bump_mat[st]);
                let l = if k.color_op == TextureOp::BumpEnvMapLuminance {
                    Some(bump_luminance(tex, c.bump_l[st]))
                } else {
                    None
                };
                bump = Some((off, l));
                continue;
            }
            let src = ArgSources {
                diffuse,
                current: cur_in,
                texture: tex,
                tfactor: k4(zero, c.tfactor),
                specular,
                temp,
                constant: k4(zero, c.constant[st]),
            };
            let r = stage_result(k.color_op, k.color_args, k.alpha_op, k.alpha_args, &src);
            if k.to_temp {
                temp = r;
            } else {
                current = r;
            }
        }
        let out = if self.key.specular_add {
            specular_add(current, specular)
        } else {
            current
        };
        [out[0].0, out[1].0, out[2].0, out[3].0]
    }
}

#[inline(always)]
fn wrap4<S: Simd>(s: S, v: &[S::F; 4]) -> [V<S>; 4] {
    [V(v[0], s), V(v[1], s), V(v[2], s), V(v[3], s)]
}

/// The Reference cascade for 8 pixels (two 2x2 quads, [`crate::texture_fetch`]
/// layout), from the raw stage states of `state` (§11.4 pseudocode).
/// `active` bit i: pixel i is covered (others return zero texture samples,
/// as the 8-lane fetch does). Returns RGBA per pixel after the specular add.
pub fn reference_shade8<F: TextureFetchScalar>(
    state: &FfpState,
    textures: [StageTexture; 8],
    divisors: [Option<u8>; 8],
    inp: &[PixelInput<f32>; 8],
    fetch: &F,
    active: u8,
) -> [[f32; 4]; 8] {
    let c = FfpPixelConsts::new(state);
    let (run, last) = cascade_extent(state, &textures);
    let mut current: [[f32; 4]; 8] = std::array::from_fn(|p| inp[p].diffuse);
    let mut temp = [[0.0f32; 4]; 8];
    let mut bump: Option<RefBump> = None;
    let mut prev_premod = (false, false);
    for s in 0..run {
        let color_op = decode_op(state.tss(s, T::ColorOp));
        let alpha_op = effective_alpha_op(color_op, state.tss(s, T::AlphaOp));
        let color_args = [T::ColorArg0, T::ColorArg1, T::ColorArg2].map(|k| state.tss(s, k));
        let alpha_args = if color_op == TextureOp::DotProduct3 {
            color_args
        } else {
            [T::AlphaArg0, T::AlphaArg1, T::AlphaArg2].map(|k| state.tss(s, k))
        };
        let divisor = if textures[s] == StageTexture::Cube {
            None
        } else {
            divisors[s]
        };
        // Coordinates of all 8 pixels first: derivatives need the quad.
        let coords: [[f32; 4]; 8] = std::array::from_fn(|p| {
            lookup_coord(inp[p].texcoord[s], bump.map(|b| b.0[p]), divisor)
        });
        let comp = |i: usize| quad_derivatives(&std::array::from_fn(|p| coords[p][i]));
        let (d0, d1, d2) = (comp(0), comp(1), comp(2));
        let tex: [[f32; 4]; 8] = std::array::from_fn(|p| {
            if active & (1 << p) == 0 {
                return [0.0; 4];
            }
            let lod = Lod::Implicit {
                ddx: [d0.0[p], d1.0[p], d2.0[p]],
                ddy: [d0.1[p], d1.1[p], d2.1[p]],
            };
            let mut t = fetch.sample(s, coords[p], lod);
            if let Some((_, Some(l))) = bump {
                for ch in t.iter_mut().take(3) {
                    *ch *= l[p];
                }
            }
            t
        });
        bump = None;
        let premod = prev_premod;
        prev_premod = (
            color_op == TextureOp::Premodulate,
            alpha_op == TextureOp::Premodulate,
        );
        if is_bump(color_op) {
            let offs = std::array::from_fn(|p| bump_offset(tex[p], c.bump_mat[s]));
            let lum = (color_op == TextureOp::BumpEnvMapLuminance)
                .then(|| std::array::from_fn(|p| bump_luminance(tex[p], c.bump_l[s])));
            bump = Some((offs, lum));
            continue;
        }
        let to_temp =
            state.tss(s, T::ResultArg) & TextureArg::SELECT_MASK == TextureArg::TEMP.0 && s != last;
        for p in 0..8 {
            let mut cur = current[p];
            if textures[s] != StageTexture::None {
                if premod.0 {
                    for i in 0..3 {
                        cur[i] *= tex[p][i];
                    }
                }
                if premod.1 {
                    cur[3] *= tex[p][3];
                }
            }
            let src = ArgSources {
                diffuse: inp[p].diffuse,
                current: cur,
                texture: tex[p],
                tfactor: c.tfactor,
                specular: inp[p].specular,
                temp: temp[p],
                constant: c.constant[s],
            };
            let r = stage_result(color_op, color_args, alpha_op, alpha_args, &src);
            if to_temp {
                temp[p] = r;
            } else {
                current[p] = r;
            }
        }
    }
    let add = state.rs_bool(R::SpecularEnable);
    std::array::from_fn(|p| {
        if add {
            specular_add(current[p], inp[p].specular)
        } else {
            current[p]
        }
    })
}

/// Compiled cascades by key (at most
/// [`FFP_CACHE_ENTRIES`](super::vertex::FFP_CACHE_ENTRIES) of them).
pub type FfpPixelCache = crate::state_cache::StateCache<
    FfpPixelKey,
    std::sync::Arc<FfpPixelProgram>,
    { super::vertex::FFP_CACHE_ENTRIES },
>;

impl FfpPixelCache {
    /// The program for `key`, compiled on first use.
    pub fn get(&mut self, key: &FfpPixelKey) -> std::sync::Arc<FfpPixelProgram> {
        self.get_or_build(key, |k| {
            std::sync::Arc::new(FfpPixelProgram::new(k.clone()))
        })
    }
}
