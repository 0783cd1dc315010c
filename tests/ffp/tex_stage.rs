//! Warp's one-texture fixed-function stage against the Reference driver's
//! literal cascade: random single-stage operations and arguments (with
//! COMPLEMENT and ALPHAREPLICATE), TFACTOR, specular add, vertex layouts
//! with and without colours, texture formats, filters and address modes,
//! the texture alone (the stage's packed 8-bit output), with and without a
//! depth buffer, on A8R8G8B8 and X8R8G8B8 targets, on triangles large
//! enough to cover whole 8x8 blocks. Warp runs with 1 and 2 threads on both
//! SIMD backends; every image must equal Reference's byte for byte.

use warp9::state::{
    Color, Cull, ShadeMode, TextureAddress, TextureArg, TextureFilter, TextureOp, ZBufferType,
};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    RenderState, SamplerState, SimdChoice, TextureStageState, Usage,
};

/// Deterministic xorshift.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() % 10_000) as f32 / 10_000.0
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u32) as usize]
    }
}

const W: u32 = 64;
const H: u32 = 48;

const OPS: [TextureOp; 26] = [
    TextureOp::Disable,
    TextureOp::SelectArg1,
    TextureOp::SelectArg2,
    TextureOp::Modulate,
    TextureOp::Modulate2x,
    TextureOp::Modulate4x,
    TextureOp::Add,
    TextureOp::AddSigned,
    TextureOp::AddSigned2x,
    TextureOp::Subtract,
    TextureOp::AddSmooth,
    TextureOp::BlendDiffuseAlpha,
    TextureOp::BlendTextureAlpha,
    TextureOp::BlendFactorAlpha,
    TextureOp::BlendTextureAlphaPm,
    TextureOp::BlendCurrentAlpha,
    TextureOp::Premodulate,
    TextureOp::ModulateAlphaAddColor,
    TextureOp::ModulateColorAddAlpha,
    TextureOp::ModulateInvAlphaAddColor,
    TextureOp::ModulateInvColorAddAlpha,
    TextureOp::BumpEnvMap,
    TextureOp::BumpEnvMapLuminance,
    TextureOp::DotProduct3,
    TextureOp::MultiplyAdd,
    TextureOp::Lerp,
];

/// A random argument: selector, COMPLEMENT, ALPHAREPLICATE. (No level
/// has the caps for D3DTA_TEMP or D3DTA_CONSTANT.)
fn arg(r: &mut Rng) -> TextureArg {
    let sel = r.pick(&[
        TextureArg::TEXTURE,
        TextureArg::TEXTURE,
        TextureArg::DIFFUSE,
        TextureArg::CURRENT,
        TextureArg::TFACTOR,
        TextureArg::SPECULAR,
    ]);
    let mut a = sel;
    if r.below(4) == 0 {
        a = a.complement();
    }
    if r.below(4) == 0 {
        a = a.alpha_replicate();
    }
    a
}

/// One random scene (its state and draws come from `seed`) on `driver`;
/// returns the back buffer's bytes.
fn scene(seed: u32, driver: DriverType, threads: usize, simd: SimdChoice) -> Vec<u8> {
    let mut r = Rng(seed);
    let depth = r.below(2) == 0;
    // X8R8G8B8 sometimes: the fast merger writes its alpha byte as 0xFF.
    let back = if r.below(4) == 0 {
        Format::X8R8G8B8
    } else {
        Format::A8R8G8B8
    };
    let d = Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (W, H, back),
        depth_stencil: depth.then_some(Format::D24S8),
        threads: Some(threads),
        simd,
        ..DeviceDesc::default()
    })
    .expect("device");
    let mut d: Device = d;
    d.clear(
        &[],
        ClearFlags::TARGET
            | if depth {
                ClearFlags::ZBUFFER
            } else {
                ClearFlags::empty()
            },
        0xFF20_4060,
        1.0,
        0,
    )
    .unwrap();
    d.set_render_state(RenderState::CullMode(Cull::None));
    d.set_render_state(RenderState::ZEnable(if depth {
        ZBufferType::True
    } else {
        ZBufferType::False
    }));

    // The texture: 16x16 with mips, A8R8G8B8 (the sampler's fast path) or R5G6B5.
    let wide = r.below(3) != 0;
    let format = if wide {
        Format::A8R8G8B8
    } else {
        Format::R5G6B5
    };
    let tex = d
        .create_texture(16, 16, 0, Usage::empty(), format, Pool::Managed)
        .unwrap();
    for level in 0..tex.level_count() {
        let s = (16 >> level) as usize;
        let bpp = if wide { 4 } else { 2 };
        let bytes: Vec<u8> = (0..s * s * bpp).map(|_| r.next() as u8).collect();
        tex.write_level(level, None, &bytes, s * bpp).unwrap();
    }
    d.set_texture(0, Some((&tex).into())).unwrap();
    let filters = [
        TextureFilter::Point,
        TextureFilter::Linear,
        TextureFilter::Linear,
        TextureFilter::Anisotropic,
    ];
    d.set_sampler_state(0, SamplerState::MinFilter(r.pick(&filters)))
        .unwrap();
    d.set_sampler_state(0, SamplerState::MagFilter(r.pick(&filters[..3])))
        .unwrap();
    d.set_sampler_state(
        0,
        SamplerState::MipFilter(r.pick(&[
            TextureFilter::None,
            TextureFilter::Point,
            TextureFilter::Linear,
        ])),
    )
    .unwrap();
    d.set_sampler_state(0, SamplerState::MaxAnisotropy(1 + r.below(8)))
        .unwrap();
    let modes = [
        TextureAddress::Wrap,
        TextureAddress::Wrap,
        TextureAddress::Mirror,
        TextureAddress::Clamp,
        TextureAddress::Border,
        TextureAddress::MirrorOnce,
    ];
    d.set_sampler_state(0, SamplerState::AddressU(r.pick(&modes)))
        .unwrap();
    d.set_sampler_state(0, SamplerState::AddressV(r.pick(&modes)))
        .unwrap();
    d.set_sampler_state(0, SamplerState::BorderColor(Color(r.next())))
        .unwrap();

    // The stage: mostly one, sometimes a second (the general cascade).
    let color_op = if r.below(3) == 0 {
        r.pick(&OPS[1..])
    } else {
        r.pick(&[
            TextureOp::SelectArg1,
            TextureOp::Modulate,
            TextureOp::Modulate2x,
            TextureOp::Add,
        ])
    };
    let alpha_op = r.pick(&OPS);
    use TextureStageState as T;
    for st in [
        T::ColorOp(color_op),
        T::ColorArg0(arg(&mut r)),
        T::ColorArg1(arg(&mut r)),
        T::ColorArg2(arg(&mut r)),
        T::AlphaOp(alpha_op),
        T::AlphaArg0(arg(&mut r)),
        T::AlphaArg1(arg(&mut r)),
        T::AlphaArg2(arg(&mut r)),
    ] {
        d.set_texture_stage_state(0, st).unwrap();
    }
    // A third of the scenes: the texture alone, which the stage delivers as
    // packed bytes when specular is off, mostly with the sampler state of
    // the 8-bit kernel (LINEAR, WRAP or CLAMP), whose integer sums give the
    // bytes on one level.
    let alone = r.below(3) == 0;
    if alone {
        for st in [
            T::ColorOp(TextureOp::SelectArg1),
            T::ColorArg1(TextureArg::TEXTURE),
            T::AlphaOp(TextureOp::SelectArg1),
            T::AlphaArg1(TextureArg::TEXTURE),
        ] {
            d.set_texture_stage_state(0, st).unwrap();
        }
        if r.below(4) != 0 {
            let linear = TextureFilter::Linear;
            let modes = [TextureAddress::Wrap, TextureAddress::Clamp];
            for state in [
                SamplerState::MinFilter(linear),
                SamplerState::MagFilter(linear),
                SamplerState::AddressU(r.pick(&modes)),
                SamplerState::AddressV(r.pick(&modes)),
            ] {
                d.set_sampler_state(0, state).unwrap();
            }
        }
    }
    if r.below(5) == 0 {
        d.set_texture_stage_state(1, T::ColorOp(TextureOp::Modulate))
            .unwrap();
        d.set_texture_stage_state(1, T::ColorArg1(TextureArg::CURRENT))
            .unwrap();
        d.set_texture_stage_state(1, T::ColorArg2(TextureArg::TFACTOR))
            .unwrap();
    }
    d.set_render_state(RenderState::TextureFactor(Color(r.next())));
    d.set_render_state(RenderState::SpecularEnable(
        r.below(2) == 0 && !(alone && r.below(4) != 0),
    ));
    d.set_render_state(RenderState::ShadeMode(if r.below(4) == 0 {
        ShadeMode::Flat
    } else {
        ShadeMode::Gouraud
    }));

    // Vertices: XYZRHW, optional diffuse and specular, one 2D coordinate set.
    let diffuse = r.below(4) != 0;
    let specular = r.below(2) == 0;
    let mut fvf = Fvf::XYZRHW | Fvf::TEX1;
    if diffuse {
        fvf |= Fvf::DIFFUSE;
    }
    if specular {
        fvf |= Fvf::SPECULAR;
    }
    d.set_fvf(fvf).unwrap();
    let stride = 16 + 4 * (diffuse as u32 + specular as u32) + 8;
    for _ in 0..3 {
        let n = 1 + r.below(3);
        let mut b = Vec::new();
        for _ in 0..3 * n {
            let big = r.below(3) != 0;
            let (x, y) = if big {
                (r.f(-40.0, 104.0), r.f(-30.0, 78.0))
            } else {
                (r.f(0.0, W as f32), r.f(0.0, H as f32))
            };
            let rhw = if r.below(2) == 0 { 1.0 } else { r.f(0.2, 2.0) };
            for f in [x, y, r.f(0.0, 1.0), rhw] {
                b.extend_from_slice(&f.to_le_bytes());
            }
            if diffuse {
                b.extend_from_slice(&r.next().to_le_bytes());
            }
            if specular {
                b.extend_from_slice(&r.next().to_le_bytes());
            }
            for f in [r.f(-1.5, 2.5), r.f(-1.5, 2.5)] {
                b.extend_from_slice(&f.to_le_bytes());
            }
        }
        d.draw_primitive_up(PrimitiveType::TriangleList, n, &b, stride)
            .unwrap();
    }
    d.back_buffer().read_bytes()
}

#[test]
fn one_texture_stage_equals_reference() {
    let mut drawn = 0;
    for seed in 1..=160u32 {
        let seed = seed.wrapping_mul(0x9E37_79B9) | 1;
        let want = scene(seed, DriverType::Reference, 1, SimdChoice::Auto);
        if want.chunks(4).any(|p| p != [0x60, 0x40, 0x20, 0xFF]) {
            drawn += 1;
        }
        for (threads, simd) in [
            (1, SimdChoice::Auto),
            (2, SimdChoice::Portable),
            (2, SimdChoice::Auto),
        ] {
            let got = scene(seed, DriverType::Warp, threads, simd);
            assert!(
                got == want,
                "seed {seed:#x}, {threads} threads, {simd:?}: Warp differs from Reference"
            );
        }
    }
    assert!(drawn > 140, "only {drawn} scenes drew anything");
}
