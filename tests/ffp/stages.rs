//! The texture-stage cascade (fixed-function.md §11): all 26 operations
//! with hand-computed values, argument modifiers, TEMP/RESULTARG, CONSTANT,
//! TFACTOR, DISABLE, the unbound-texture rule, PREMODULATE, bump mapping
//! (with luminance and projection), the specular add. Every case also
//! checks the 8-lane cascade (all backends) == the Reference bit for bit.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use crate::ffp_common;

use ffp_common::*;
use warp9::internals::ffp::stages::StageTexture;
use warp9::internals::ffp::*;
use warp9::state::{
    Color, RenderState, TextureArg as A, TextureOp as Op, TextureStageState as Tss,
};

const T: [f32; 4] = [0.5, 0.25, 0.75, 0.75];
const D: [f32; 4] = [0.25, 0.5, 0.5, 0.25];
/// TFACTOR ≈ (0.5, 0.5, 0.25, 0.75); expectations use its exact float conversion [`tf`].
const TF: u32 = 0xBF80_8040;

fn tf() -> [f32; 4] {
    Color(TF).to_rgba()
}

fn flat_tex(_: [f32; 4], _: [f32; 6]) -> [f32; 4] {
    T
}

fn one_stage(op: Op, a0: A, a1: A, a2: A) -> FfpState {
    let mut s = FfpState::default();
    s.set_render(RenderState::TextureFactor(Color(TF)));
    s.set_stage(0, Tss::ColorOp(op));
    s.set_stage(0, Tss::ColorArg0(a0));
    s.set_stage(0, Tss::ColorArg1(a1));
    s.set_stage(0, Tss::ColorArg2(a2));
    s.set_stage(0, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(0, Tss::AlphaArg1(A::TEXTURE));
    s
}

fn tex0() -> [StageTexture; 8] {
    let mut t = [StageTexture::None; 8];
    t[0] = StageTexture::Flat;
    t
}

fn run1(s: &FfpState, textures: [StageTexture; 8], fetch: &TestTextures) -> [f32; 4] {
    let inp = [pixel(D, [0.125, 0.25, 0.0, 0.5], [0.1, 0.7, 2.0, 1.0]); 8];
    shade(s, textures, [None; 8], &inp, fetch, 0xFF)[0]
}

#[test]
fn all_operations_hand_values() {
    let f = tf();
    let fetch = TestTextures([Some(flat_tex), None, None, None, None, None, None, None]);
    // a1 = TEXTURE, a2 = DIFFUSE, a0 = TFACTOR.
    let cases: Vec<(Op, [f32; 3])> = vec![
        (Op::SelectArg1, [0.5, 0.25, 0.75]),
        (Op::SelectArg2, [0.25, 0.5, 0.5]),
        (Op::Modulate, [0.125, 0.125, 0.375]),
        (Op::Modulate2x, [0.25, 0.25, 0.75]),
        (Op::Modulate4x, [0.5, 0.5, 1.0]),
        (Op::Add, [0.75, 0.75, 1.0]),
        (Op::AddSigned, [0.25, 0.25, 0.75]),
        (Op::AddSigned2x, [0.5, 0.5, 1.0]),
        (Op::Subtract, [0.25, 0.0, 0.25]),
        (Op::AddSmooth, [0.625, 0.625, 0.875]),
        (Op::BlendDiffuseAlpha, [0.3125, 0.4375, 0.5625]),
        (Op::BlendTextureAlpha, [0.4375, 0.3125, 0.6875]),
        (
            Op::BlendFactorAlpha,
            std::array::from_fn(|i| T[i] * f[3] + D[i] * (1.0 - f[3])),
        ),
        (Op::BlendTextureAlphaPm, [0.5625, 0.375, 0.875]),
        (Op::BlendCurrentAlpha, [0.3125, 0.4375, 0.5625]),
        (Op::Premodulate, [0.5, 0.25, 0.75]),
        (Op::ModulateAlphaAddColor, [0.6875, 0.625, 1.0]),
        (Op::ModulateColorAddAlpha, [0.875, 0.875, 1.0]),
        (Op::ModulateInvAlphaAddColor, [0.5625, 0.375, 0.875]),
        (Op::ModulateInvColorAddAlpha, [0.875, 1.0, 0.875]),
        (Op::MultiplyAdd, std::array::from_fn(|i| f[i] + T[i] * D[i])),
        (
            Op::Lerp,
            std::array::from_fn(|i| f[i] * T[i] + (1.0 - f[i]) * D[i]),
        ),
    ];
    assert_eq!(cases.len(), 22);
    for (op, want) in cases {
        let s = one_stage(op, A::TFACTOR, A::TEXTURE, A::DIFFUSE);
        let got = run1(&s, tex0(), &fetch);
        close(&got[..3], &want, 1e-6);
        assert_eq!(got[3], 0.75, "{op:?}: alpha SELECTARG1(TEXTURE)");
    }
    // DOTPRODUCT3: 4·Σ(a − 0.5)(b − 0.5), replicated to alpha too.
    let s = one_stage(Op::DotProduct3, A::TFACTOR, A::TEXTURE, A::TEXTURE);
    let got = run1(&s, tex0(), &fetch);
    let d = 4.0 * (0.0 + 0.0625 + 0.0625);
    close(&got, &[d; 4], 1e-6);
    // Bump operations as the only stage: no colour of their own, CURRENT = diffuse passes.
    for op in [Op::BumpEnvMap, Op::BumpEnvMapLuminance] {
        let got = run1(
            &one_stage(op, A::TFACTOR, A::TEXTURE, A::DIFFUSE),
            tex0(),
            &fetch,
        );
        assert_eq!(got, D, "{op:?}");
    }
}

#[test]
fn alpha_operations_and_modifiers() {
    let fetch = TestTextures([Some(flat_tex), None, None, None, None, None, None, None]);
    let mut s = one_stage(
        Op::SelectArg1,
        A::TFACTOR,
        A::TEXTURE.complement(),
        A::DIFFUSE,
    );
    s.set_stage(0, Tss::AlphaOp(Op::Modulate));
    s.set_stage(0, Tss::AlphaArg1(A::TEXTURE));
    s.set_stage(0, Tss::AlphaArg2(A::DIFFUSE.complement()));
    let got = run1(&s, tex0(), &fetch);
    close(&got, &[0.5, 0.75, 0.25, 0.75 * 0.75], 1e-6);
    // ALPHAREPLICATE, and COMPLEMENT then ALPHAREPLICATE.
    s.set_stage(0, Tss::ColorArg1(A::TEXTURE.alpha_replicate()));
    close(&run1(&s, tex0(), &fetch)[..3], &[0.75; 3], 0.0);
    s.set_stage(0, Tss::ColorArg1(A::TEXTURE.complement().alpha_replicate()));
    close(&run1(&s, tex0(), &fetch)[..3], &[0.25; 3], 0.0);
    // ALPHAREPLICATE has no effect on an alpha argument.
    s.set_stage(0, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(0, Tss::AlphaArg1(A::DIFFUSE.alpha_replicate()));
    assert_eq!(run1(&s, tex0(), &fetch)[3], 0.25);
    // Colour-only operations on the alpha channel act as SELECTARG1.
    s.set_stage(0, Tss::AlphaOp(Op::ModulateAlphaAddColor));
    s.set_stage(0, Tss::AlphaArg1(A::TEXTURE));
    assert_eq!(run1(&s, tex0(), &fetch)[3], 0.75);
    // ALPHAOP DISABLE with an enabled colour op keeps CURRENT's alpha (the diffuse alpha in stage 0).
    s.set_stage(0, Tss::AlphaOp(Op::Disable));
    assert_eq!(run1(&s, tex0(), &fetch)[3], 0.25);
    // SPECULAR and the specular add (RGB only, clamped).
    let mut sp = one_stage(Op::Add, A::TFACTOR, A::SPECULAR, A::TEXTURE);
    sp.set_render(RenderState::SpecularEnable(true));
    let got = run1(&sp, tex0(), &fetch);
    close(&got, &[0.625 + 0.125, 0.5 + 0.25, 0.75, 0.75], 1e-6);
}

#[test]
fn temp_resultarg_constant_and_disable() {
    let fetch = TestTextures([Some(flat_tex); 8]);
    let mut s = FfpState::default();
    s.set_render(RenderState::TextureFactor(Color(TF)));
    // Stage 0: TFACTOR → TEMP (alpha disabled: TEMP.a = diffuse alpha).
    s.set_stage(0, Tss::ColorOp(Op::SelectArg1));
    s.set_stage(0, Tss::ColorArg1(A::TFACTOR));
    s.set_stage(0, Tss::AlphaOp(Op::Disable));
    s.set_stage(0, Tss::ResultArg(A::TEMP));
    // Stage 1: CONSTANT of stage 1 modulated by CURRENT (still the diffuse).
    s.set_stage(1, Tss::ColorOp(Op::Modulate));
    s.set_stage(1, Tss::ColorArg1(A::CONSTANT));
    s.set_stage(1, Tss::ColorArg2(A::CURRENT));
    s.set_stage(1, Tss::Constant(Color(0x8000_FF00)));
    s.set_stage(1, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(1, Tss::AlphaArg1(A::CONSTANT));
    // Stage 2: CURRENT + TEMP, alpha TEMP; RESULTARG TEMP on the last stage writes CURRENT anyway.
    s.set_stage(2, Tss::ColorOp(Op::Add));
    s.set_stage(2, Tss::ColorArg1(A::CURRENT));
    s.set_stage(2, Tss::ColorArg2(A::TEMP));
    s.set_stage(2, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(2, Tss::AlphaArg1(A::TEMP));
    s.set_stage(2, Tss::ResultArg(A::TEMP));
    let all = [StageTexture::Flat; 8];
    let got = run1(&s, all, &fetch);
    let f = tf();
    close(&got, &[f[0], (0.5 + f[1]).min(1.0), f[2], 0.25], 1e-6);
    // A DISABLE in stage 2 ends the cascade there, even with stage 3 enabled.
    s.set_stage(2, Tss::ColorOp(Op::Disable));
    s.set_stage(3, Tss::ColorOp(Op::SelectArg1));
    s.set_stage(3, Tss::ColorArg1(A::TFACTOR));
    let got = run1(&s, all, &fetch);
    close(&got, &[0.0, 0.5, 0.0, 128.0 / 255.0], 1e-6);
    // Stage 0 DISABLE: the diffuse colour.
    s.set_stage(0, Tss::ColorOp(Op::Disable));
    assert_eq!(run1(&s, all, &fetch), D);
}

#[test]
fn unbound_texture_rule() {
    let fetch = TestTextures([Some(flat_tex), None, None, None, None, None, None, None]);
    // Default stage 0 without a texture: the diffuse colour, its alpha included.
    let s = FfpState::default();
    assert_eq!(run1(&s, [StageTexture::None; 8], &fetch), D);
    // Stage 1's colour op reads its missing texture: stages 1.. are off, stage 0's result stands.
    let mut s = FfpState::default();
    s.set_stage(1, Tss::ColorOp(Op::Add));
    s.set_stage(1, Tss::ColorArg1(A::TEXTURE));
    s.set_stage(1, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(1, Tss::AlphaArg1(A::DIFFUSE));
    let stage0 = [0.125, 0.125, 0.375, 0.75];
    close(&run1(&s, tex0(), &fetch), &stage0, 1e-6);
    // Only the alpha op reads the missing texture: it reads alpha 1, the cascade continues.
    s.set_stage(1, Tss::ColorOp(Op::SelectArg1));
    s.set_stage(1, Tss::ColorArg1(A::DIFFUSE));
    s.set_stage(1, Tss::AlphaArg1(A::TEXTURE));
    close(&run1(&s, tex0(), &fetch), &[0.25, 0.5, 0.5, 1.0], 1e-6);
}

fn coord_tex(c: [f32; 4], _: [f32; 6]) -> [f32; 4] {
    [c[0], c[1], c[2] * 0.25, 1.0]
}

fn bump_tex(_: [f32; 4], _: [f32; 6]) -> [f32; 4] {
    [0.5, -0.25, 0.5, 1.0]
}

#[test]
fn bump_mapping_luminance_projection_and_premodulate() {
    let fetch = TestTextures([
        Some(bump_tex),
        Some(coord_tex),
        None,
        None,
        None,
        None,
        None,
        None,
    ]);
    let mut s = FfpState::default();
    s.set_stage(0, Tss::ColorOp(Op::BumpEnvMap));
    s.set_stage(0, Tss::BumpEnvMat00(1.0));
    s.set_stage(0, Tss::BumpEnvMat11(2.0));
    s.set_stage(1, Tss::ColorOp(Op::SelectArg1));
    s.set_stage(1, Tss::ColorArg1(A::TEXTURE));
    s.set_stage(1, Tss::AlphaOp(Op::SelectArg1));
    s.set_stage(1, Tss::AlphaArg1(A::CURRENT));
    let two = [
        StageTexture::Flat,
        StageTexture::Flat,
        StageTexture::None,
        StageTexture::None,
        StageTexture::None,
        StageTexture::None,
        StageTexture::None,
        StageTexture::None,
    ];
    // Stage 1 coordinates (0.1, 0.7) + (0.5, −0.5).
    let got = run1(&s, two, &fetch);
    close(&got, &[0.6, 0.2, 0.5, 0.25], 1e-6);
    // Luminance: L' = clamp(0.5 · 0.5 + 0.25) = 0.5 scales the colour sampled in stage 1.
    s.set_stage(0, Tss::ColorOp(Op::BumpEnvMapLuminance));
    s.set_stage(0, Tss::BumpEnvLScale(0.5));
    s.set_stage(0, Tss::BumpEnvLOffset(0.25));
    let got = run1(&s, two, &fetch);
    close(&got, &[0.3, 0.1, 0.25, 0.25], 1e-6);
    // Projected stage 1 (COUNT3: divide by z = 2): the displacement is scaled by z first.
    s.set_stage(0, Tss::ColorOp(Op::BumpEnvMap));
    let mut div = [None; 8];
    div[1] = Some(2);
    let inp = [pixel(D, [0.0; 4], [0.4, 1.4, 2.0, 1.0]); 8];
    let got = shade(&s, two, div, &inp, &fetch, 0xFF)[0];
    close(&got[..2], &[0.7, 0.2], 1e-6);
    // PREMODULATE in stage 0: stage 1 sees CURRENT · TEXTURE(1).
    let mut p = FfpState::default();
    p.set_stage(0, Tss::ColorOp(Op::Premodulate));
    p.set_stage(0, Tss::ColorArg1(A::DIFFUSE));
    p.set_stage(1, Tss::ColorOp(Op::SelectArg1));
    p.set_stage(1, Tss::ColorArg1(A::CURRENT));
    let got = run1(&p, two, &fetch);
    close(&got[..3], &[0.25 * 0.1, 0.5 * 0.7, 0.5 * 0.5], 1e-6);
}

#[test]
fn derivatives_reach_the_sampler() {
    // The texture encodes d(u)/dx and d(v)/dy: coordinates u = 0.25 x, v = 0.5 y over the quads.
    fn grad_tex(_: [f32; 4], d: [f32; 6]) -> [f32; 4] {
        [d[0], d[4], 0.0, 1.0]
    }
    let fetch = TestTextures([Some(grad_tex), None, None, None, None, None, None, None]);
    let mut s = FfpState::default();
    s.set_stage(0, Tss::ColorOp(Op::SelectArg1));
    let inp: [_; 8] = std::array::from_fn(|l| {
        // The stamp layout of `warp9::internals::texture_fetch`: lane l is pixel (l & 3, l >> 2).
        let (x, y) = ((l & 3) as f32, (l >> 2) as f32);
        pixel(D, [0.0; 4], [0.25 * x, 0.5 * y, 0.0, 1.0])
    });
    let out = shade(&s, tex0(), [None; 8], &inp, &fetch, 0b0111_1011);
    assert_eq!(&out[0][..2], &[0.25, 0.5]);
    assert_eq!(&out[5][..2], &[0.25, 0.5]);
    // Inactive lanes (helpers) read zero samples.
    assert_eq!(&out[2][..3], &[0.0, 0.0, 0.0]);
}

#[test]
fn coordinate_stages_for_the_vertex_key() {
    let mut s = FfpState::default();
    s.set_stage(1, Tss::ColorOp(Op::Modulate));
    s.set_stage(1, Tss::ColorArg1(A::CURRENT));
    s.set_stage(1, Tss::ColorArg2(A::DIFFUSE));
    s.set_stage(1, Tss::AlphaOp(Op::Disable));
    s.set_stage(2, Tss::ColorOp(Op::SelectArg1));
    s.set_stage(2, Tss::ColorArg1(A::TEXTURE));
    let key = FfpPixelKey::new(&s, [StageTexture::Flat; 8], [None; 8]);
    // Stage 0 reads its texture (default MODULATE), stage 1 does not, stage 2 does.
    assert_eq!(FfpPixelProgram::new(key).coordinate_stages(), 0b101);
}

/// The fixed-function pixel cache returns one program per key while it
/// holds it, and never holds more than `FFP_CACHE_ENTRIES` programs
/// however many stage states an application walks through.
#[test]
fn pixel_cache_reuses_programs_and_stays_bounded() {
    // Stage 0's two colour arguments, each a selector (diffuse, current,
    // texture, tfactor, specular, temp, constant) with its four modifier
    // combinations: 28 x 28 distinct keys.
    let args: Vec<u32> = (0..7u32)
        .flat_map(|sel| [0, 0x10, 0x20, 0x30].map(|m| sel | m))
        .collect();
    let key = |a1: u32, a2: u32| {
        let mut s = FfpState::default();
        s.set_stage(0, Tss::ColorArg1(A(a1)));
        s.set_stage(0, Tss::ColorArg2(A(a2)));
        FfpPixelKey::new(&s, [StageTexture::Flat; 8], [None; 8])
    };
    let mut cache = FfpPixelCache::default();
    let first = cache.get(&key(0, 0));
    assert!(std::sync::Arc::ptr_eq(&first, &cache.get(&key(0, 0))));
    assert_eq!(cache.len(), 1);
    let mut distinct = std::collections::HashSet::new();
    for &a1 in &args {
        for &a2 in &args {
            let k = key(a1, a2);
            distinct.insert(k.clone());
            cache.get(&k);
            assert!(cache.len() <= FFP_CACHE_ENTRIES, "{} programs", cache.len());
        }
    }
    assert!(
        distinct.len() > FFP_CACHE_ENTRIES,
        "the keys must overflow the cache ({} distinct)",
        distinct.len()
    );
    // The last key is still there: a repeated state costs a lookup.
    let last = cache.get(&key(0x36, 0x36));
    assert!(std::sync::Arc::ptr_eq(&last, &cache.get(&key(0x36, 0x36))));
}
