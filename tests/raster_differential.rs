//! Differential tests: random draws (degenerate, huge, sliver, off-screen,
//! NaN/Inf triangles; random states) rendered by Warp and by Reference give
//! identical bytes, and Warp gives identical bytes for 1, 2 and 3 threads
//! and both SIMD backends.

mod raster_support;

use raster_support::*;
use warp9::state::{Blend, BlendOp, CmpFunc, Cull, FillMode, ShadeMode, StencilOp};
use warp9::{ClearFlags, Device, DriverType, Format, PrimitiveType, RenderState, SimdChoice};

fn coord(r: &mut Rng, size: f32) -> f32 {
    match r.below(40) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => r.f(-30000.0, 30000.0),
        3 => r.f(-9000.0, 9000.0),
        // On pixel centres and half-pixels, where the fill rule decides.
        4..=12 => (r.below(2 * size as u32 + 8) as f32) * 0.5 - 2.0,
        _ => r.f(-8.0, size + 8.0),
    }
}

fn random_vertex(r: &mut Rng, size: f32) -> V {
    V {
        x: coord(r, size),
        y: coord(r, size),
        z: if r.below(10) == 0 {
            r.f(-0.5, 1.5)
        } else {
            r.f(0.0, 1.0)
        },
        rhw: match r.below(12) {
            0 => 0.0,
            1 => -1.0,
            2..=5 => 1.0,
            _ => r.f(0.05, 4.0),
        },
        diffuse: r.next(),
        specular: r.next(),
    }
}

const BLENDS: [Blend; 12] = [
    Blend::Zero,
    Blend::One,
    Blend::SrcColor,
    Blend::InvSrcColor,
    Blend::SrcAlpha,
    Blend::InvSrcAlpha,
    Blend::DestAlpha,
    Blend::InvDestAlpha,
    Blend::DestColor,
    Blend::InvDestColor,
    Blend::BlendFactor,
    Blend::InvBlendFactor,
];
const OPS: [BlendOp; 5] = [
    BlendOp::Add,
    BlendOp::Subtract,
    BlendOp::RevSubtract,
    BlendOp::Min,
    BlendOp::Max,
];
const SOPS: [StencilOp; 8] = [
    StencilOp::Keep,
    StencilOp::Zero,
    StencilOp::Replace,
    StencilOp::IncrSat,
    StencilOp::DecrSat,
    StencilOp::Invert,
    StencilOp::Incr,
    StencilOp::Decr,
];

/// Random render states (all valid at 9_3).
fn random_states(r: &mut Rng) -> Vec<RenderState> {
    use RenderState as R;
    let mut s = vec![
        R::CullMode(r.pick(&[Cull::None, Cull::Cw, Cull::Ccw])),
        R::ZFunc(r.pick(&ALL_CMP)),
        R::ZWriteEnable(r.below(2) == 0),
        R::ShadeMode(r.pick(&[ShadeMode::Flat, ShadeMode::Gouraud])),
        R::FillMode(if r.below(6) == 0 {
            r.pick(&[FillMode::Point, FillMode::Wireframe])
        } else {
            FillMode::Solid
        }),
        R::SpecularEnable(r.below(3) == 0),
        R::ColorWriteEnable(if r.below(4) == 0 { r.below(16) } else { 0xF }),
        R::LastPixel(r.below(2) == 0),
    ];
    if r.below(3) == 0 {
        s.push(R::AlphaBlendEnable(true));
        s.push(R::SrcBlend(r.pick(&BLENDS)));
        s.push(R::DestBlend(r.pick(&BLENDS)));
        s.push(R::BlendOp(r.pick(&OPS)));
        s.push(R::BlendFactor(warp9::state::Color(r.next())));
        if r.below(2) == 0 {
            s.push(R::SeparateAlphaBlendEnable(true));
            s.push(R::SrcBlendAlpha(r.pick(&BLENDS)));
            s.push(R::DestBlendAlpha(r.pick(&BLENDS)));
            s.push(R::BlendOpAlpha(r.pick(&OPS)));
        }
    }
    if r.below(4) == 0 {
        s.push(R::AlphaTestEnable(true));
        s.push(R::AlphaFunc(r.pick(&ALL_CMP)));
        s.push(R::AlphaRef(r.below(256)));
    }
    if r.below(3) == 0 {
        s.push(R::StencilEnable(true));
        s.push(R::StencilFunc(r.pick(&ALL_CMP)));
        s.push(R::StencilFail(r.pick(&SOPS)));
        s.push(R::StencilZFail(r.pick(&SOPS)));
        s.push(R::StencilPass(r.pick(&SOPS)));
        s.push(R::StencilRef(r.below(256)));
        s.push(R::StencilMask(r.next()));
        s.push(R::StencilWriteMask(r.next()));
        if r.below(2) == 0 {
            s.push(R::TwoSidedStencilMode(true));
            s.push(R::CcwStencilFunc(r.pick(&ALL_CMP)));
            s.push(R::CcwStencilPass(r.pick(&SOPS)));
            s.push(R::CcwStencilZFail(r.pick(&SOPS)));
            s.push(R::CcwStencilFail(r.pick(&SOPS)));
        }
    }
    if r.below(4) == 0 {
        s.push(R::DepthBias(r.f(-0.1, 0.1)));
        s.push(R::SlopeScaleDepthBias(r.f(-2.0, 2.0)));
    }
    if r.below(5) == 0 {
        s.push(R::FogEnable(true));
        s.push(R::FogColor(warp9::state::Color(r.next())));
        if r.below(2) == 0 {
            s.push(R::FogTableMode(warp9::state::FogMode::Linear));
            s.push(R::FogStart(r.f(0.0, 0.5)));
            s.push(R::FogEnd(r.f(0.5, 1.0)));
        }
    }
    if r.below(5) == 0 {
        s.push(R::ScissorTestEnable(true));
    }
    s.push(R::PointSize(r.pick(&[1.0, 1.0, 2.0, 3.5, 7.0])));
    s
}

/// Renders one random scene and returns the colour and depth-stencil bytes.
fn render(seed: u32, o: &Opts, draws: usize) -> (Vec<u8>, Vec<u8>) {
    let mut d = device(o);
    let mut r = Rng(seed);
    let size = o.size.0 as f32;
    let stencil = o.depth.is_some_and(|f| f == Format::D24S8);
    let flags = if stencil {
        ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL
    } else {
        ClearFlags::TARGET | ClearFlags::ZBUFFER
    };
    d.clear(&[], flags, r.next(), 0.5, r.below(256)).unwrap();
    d.set_scissor_rect(&warp9::state::Rect::new(3, 5, 40, 37))
        .unwrap();
    for _ in 0..draws {
        for s in random_states(&mut r) {
            d.set_render_state(s);
        }
        let kind = r.pick(&[
            PrimitiveType::TriangleList,
            PrimitiveType::TriangleList,
            PrimitiveType::TriangleStrip,
            PrimitiveType::TriangleFan,
            PrimitiveType::LineList,
            PrimitiveType::LineStrip,
            PrimitiveType::PointList,
        ]);
        let n = 1 + r.below(9) as usize;
        let vs: Vec<V> = (0..n + 2).map(|_| random_vertex(&mut r, size)).collect();
        let vs = if kind == PrimitiveType::TriangleList {
            &vs[..3 * (vs.len() / 3)]
        } else {
            &vs[..]
        };
        draw(&mut d, kind, vs);
        // Reset the states that would make the next draw's validation depend on this one.
        d.set_render_state(RenderState::SeparateAlphaBlendEnable(false));
    }
    let ds = d
        .get_depth_stencil_surface()
        .map(|s| s.read_bytes())
        .unwrap_or_default();
    (raw(&d), ds)
}

fn opts(driver: DriverType, format: Format, depth: Format) -> Opts {
    Opts {
        driver,
        size: (45, 41),
        format,
        depth: Some(depth),
        ..Opts::default()
    }
}

#[test]
fn warp_equals_reference_on_random_draws() {
    let mut cases = 0;
    let mut drawn = 0;
    for seed in 1..=220u32 {
        let (format, depth) = match seed % 4 {
            0 => (Format::X8R8G8B8, Format::D24S8),
            1 => (Format::A8R8G8B8, Format::D24S8),
            2 => (Format::R5G6B5, Format::D16),
            _ => (Format::A8R8G8B8, Format::D24X8),
        };
        let w = render(seed, &opts(DriverType::Warp, format, depth), 12);
        let r = render(seed, &opts(DriverType::Reference, format, depth), 12);
        assert!(w.0 == r.0, "colour differs, seed {seed}");
        if w.0 != render(seed, &opts(DriverType::Warp, format, depth), 0).0 {
            drawn += 1;
        }
        assert!(w.1 == r.1, "depth-stencil differs, seed {seed}");
        cases += 12;
    }
    assert!(cases >= 2000);
    // The scenes really draw: almost every seed changes the image.
    assert!(drawn > 180, "only {drawn} of 220 scenes drew anything");
}

#[test]
fn warp_is_identical_for_threads_and_backends() {
    for seed in 500..520u32 {
        let base = render(
            seed,
            &opts(DriverType::Warp, Format::A8R8G8B8, Format::D24S8),
            10,
        );
        for (threads, simd) in [
            (2, SimdChoice::Auto),
            (3, SimdChoice::Auto),
            (1, SimdChoice::Portable),
            (2, SimdChoice::Avx2),
        ] {
            let o = Opts {
                threads,
                simd,
                size: (150, 140),
                ..opts(DriverType::Warp, Format::A8R8G8B8, Format::D24S8)
            };
            let o1 = Opts {
                threads: 1,
                simd: SimdChoice::Auto,
                ..o
            };
            let a = render(seed, &o, 10);
            let b = render(seed, &o1, 10);
            assert!(a == b, "seed {seed}: threads {threads} {simd:?} differ");
        }
        let _ = base;
    }
}

#[test]
fn large_scene_equal_for_thread_counts() {
    // Big enough for several bands and tiles.
    let go = |threads: usize, simd: SimdChoice| {
        let mut d = device(&Opts {
            size: (300, 200),
            depth: Some(Format::D24S8),
            threads,
            simd,
            ..Opts::default()
        });
        let mut r = Rng(99);
        for _ in 0..200 {
            let vs: Vec<V> = (0..3).map(|_| random_vertex(&mut r, 300.0)).collect();
            draw(&mut d, PrimitiveType::TriangleList, &vs);
        }
        raw(&d)
    };
    let one = go(1, SimdChoice::Portable);
    assert_eq!(one, go(2, SimdChoice::Auto));
    assert_eq!(one, go(3, SimdChoice::Avx2));
}

/// Random states that select the Warp merger's fast path (D24 depth without
/// stencil, one A8R8G8B8/X8R8G8B8 target with every channel written, no fog,
/// alpha test or blending): every depth function, z-write on/off, ZENABLE
/// off, depth bias, viewport depth range, culling, shading, scissor.
fn fast_states(r: &mut Rng) -> Vec<RenderState> {
    use RenderState as R;
    let mut s = vec![
        R::CullMode(r.pick(&[Cull::None, Cull::Cw, Cull::Ccw])),
        R::ZFunc(r.pick(&ALL_CMP)),
        R::ZWriteEnable(r.below(4) != 0),
        R::ZEnable(if r.below(8) == 0 {
            warp9::state::ZBufferType::False
        } else {
            warp9::state::ZBufferType::True
        }),
        R::ShadeMode(r.pick(&[ShadeMode::Flat, ShadeMode::Gouraud])),
        R::SpecularEnable(r.below(3) == 0),
        R::ColorWriteEnable(0xF),
        R::AlphaBlendEnable(false),
        R::AlphaTestEnable(false),
        R::StencilEnable(false),
        R::FogEnable(false),
        R::ScissorTestEnable(r.below(4) == 0),
        R::DepthBias(if r.below(3) == 0 { r.f(-0.1, 0.1) } else { 0.0 }),
        R::SlopeScaleDepthBias(if r.below(3) == 0 { r.f(-2.0, 2.0) } else { 0.0 }),
    ];
    s.push(R::FillMode(FillMode::Solid));
    s
}

/// The merger's fast path gives the general path's bytes: Warp (whose
/// general path equals Reference) against Reference, on odd-sized targets
/// (stamps past the band's bytes take the general path on the same views),
/// with 1 and 2 threads and both backends, D24S8 (stencil bits kept) and
/// D24X8, A8R8G8B8 and X8R8G8B8.
#[test]
fn fast_path_states_equal_reference() {
    let mut drawn = 0;
    for seed in 1..=40u32 {
        let format = if seed % 2 == 0 {
            Format::X8R8G8B8
        } else {
            Format::A8R8G8B8
        };
        let depth = if seed % 3 == 0 {
            Format::D24X8
        } else {
            Format::D24S8
        };
        let size = [(45, 41), (130, 67), (67, 129)][seed as usize % 3];
        let go = |driver: DriverType, threads: usize, simd: SimdChoice, draws: usize| {
            let o = Opts {
                driver,
                size,
                format,
                depth: Some(depth),
                threads,
                simd,
                ..Opts::default()
            };
            let mut d = device(&o);
            let mut r = Rng(seed * 7919);
            // Random stencil bits under the depth (the fast path keeps them).
            let flags = ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL;
            let flags = if depth == Format::D24S8 {
                flags
            } else {
                flags - ClearFlags::STENCIL
            };
            d.clear(&[], flags, r.next(), r.f(0.3, 1.0), r.below(256))
                .unwrap();
            d.set_scissor_rect(&warp9::state::Rect::new(3, 5, 40, 37))
                .unwrap();
            for _ in 0..draws {
                for st in fast_states(&mut r) {
                    d.set_render_state(st);
                }
                let kind = r.pick(&[
                    PrimitiveType::TriangleList,
                    PrimitiveType::TriangleStrip,
                    PrimitiveType::TriangleFan,
                ]);
                let n = 1 + r.below(9) as usize;
                let vs: Vec<V> = (0..n + 2)
                    .map(|_| random_vertex(&mut r, size.0 as f32))
                    .collect();
                let vs = if kind == PrimitiveType::TriangleList {
                    &vs[..3 * (vs.len() / 3)]
                } else {
                    &vs[..]
                };
                draw(&mut d, kind, vs);
            }
            let ds = d
                .get_depth_stencil_surface()
                .map(|s| s.read_bytes())
                .unwrap_or_default();
            (raw(&d), ds)
        };
        let want = go(DriverType::Reference, 1, SimdChoice::Auto, 10);
        if want.0 != go(DriverType::Reference, 1, SimdChoice::Auto, 0).0 {
            drawn += 1;
        }
        for (threads, simd) in WARP_RUNS {
            let got = go(DriverType::Warp, threads, simd, 10);
            assert_same_bytes(&format!("seed {seed} ({threads}, {simd:?})"), &got, &want);
        }
    }
    // Most seeds must change pixels, or the comparison proves little.
    assert!(
        drawn >= 20,
        "only {drawn} of 40 fast-path scenes drew anything"
    );
}

#[allow(dead_code)]
fn unused(_: &Device) {}

/// Full 8x8 blocks whose depth leaves [0, 1] (the merger's fast path with
/// per-pixel depth clipping of pretransformed vertices): two triangles over
/// the whole target with depth running from -0.6 to 1.4 diagonally, so
/// blocks lie wholly inside, wholly outside or across the clip bounds (at
/// `sm3`, the level that claims D3DPMISCCAPS_CLIPTLVERTS).
/// Warp (1 and 2 threads, both backends) equals Reference, and the image
/// holds both clipped and drawn pixels.
#[test]
fn depth_clipped_full_blocks_equal_reference() {
    let (w, h) = (136u32, 72u32);
    let go = |driver: DriverType, threads: usize, simd: SimdChoice| {
        let o = Opts {
            driver,
            level: warp9::FeatureLevel::Sm3,
            size: (w, h),
            format: Format::X8R8G8B8,
            depth: Some(Format::D24S8),
            threads,
            simd,
        };
        let mut d = device(&o);
        d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
            .unwrap();
        d.set_render_state(RenderState::CullMode(Cull::None));
        let (x1, y1) = (w as f32 - 0.5, h as f32 - 0.5);
        let corner = |x: f32, y: f32, c: u32| V {
            z: -0.6 + 2.0 * (x / x1 * 0.8 + y / y1 * 0.2),
            ..v(x, y, 0.0, c)
        };
        let quad = [
            corner(-0.5, -0.5, 0xFFFF_0000),
            corner(x1, -0.5, 0xFF00_FF00),
            corner(x1, y1, 0xFF00_00FF),
            corner(-0.5, -0.5, 0xFFFF_0000),
            corner(x1, y1, 0xFF00_00FF),
            corner(-0.5, y1, 0xFFFF_FFFF),
        ];
        draw(&mut d, PrimitiveType::TriangleList, &quad);
        pixels(&d)
    };
    let want = go(DriverType::Reference, 1, SimdChoice::Auto);
    let drawn = want.iter().filter(|&&p| p & 0xFF_FFFF != 0).count();
    assert!(
        drawn > 1000 && drawn + 1000 < want.len(),
        "{drawn} of {} pixels drawn: the depth range must clip some and keep some",
        want.len()
    );
    for (threads, simd) in WARP_RUNS {
        assert!(
            go(DriverType::Warp, threads, simd) == want,
            "Warp ({threads} threads, {simd:?}) differs from Reference"
        );
    }
}

/// A dense point cloud in a small area, so that many points share a pixel:
/// per-vertex sizes (mostly 1, which the Warp driver gathers eight to a
/// stamp; some larger or empty, which it draws the usual way in between),
/// random states including blending, so the order of the points on a
/// pixel shows.
fn render_point_cloud(seed: u32, o: &Opts) -> (Vec<u8>, Vec<u8>) {
    let mut d = device(o);
    let mut r = Rng(seed);
    d.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL,
        r.next(),
        0.5,
        r.below(256),
    )
    .unwrap();
    for s in random_states(&mut r) {
        d.set_render_state(s);
    }
    if seed.is_multiple_of(2) {
        // A texture-stage cascade without a texture (TFACTOR times the
        // diffuse colour, TFACTOR's alpha): the fixed-function pixel stage, whose lanes are
        // independent too, instead of the pre-lit colour stage.
        use warp9::state::{TextureArg, TextureOp, TextureStageState as T};
        d.set_render_state(RenderState::TextureFactor(warp9::state::Color(r.next())));
        for s in [
            T::ColorOp(TextureOp::Modulate),
            T::ColorArg1(TextureArg::TFACTOR),
            T::ColorArg2(TextureArg::DIFFUSE),
            T::AlphaOp(TextureOp::SelectArg1),
            T::AlphaArg1(TextureArg::TFACTOR),
        ] {
            d.set_texture_stage_state(0, s).unwrap();
        }
    }
    d.set_fvf(
        warp9::Fvf::XYZRHW
            .union(warp9::Fvf::PSIZE)
            .union(warp9::Fvf::DIFFUSE)
            .union(warp9::Fvf::SPECULAR),
    )
    .unwrap();
    let n = 600;
    let mut bytes = Vec::with_capacity(n * 28);
    for _ in 0..n {
        // Pixel centres of a 12x9 patch (several points per pixel), some
        // a hair off them, a few anywhere (also outside the target).
        let (x, y) = match r.below(10) {
            0 => (r.f(-4.0, 60.0), r.f(-4.0, 50.0)),
            1 => (
                (8 + r.below(12)) as f32 + r.pick(&[-0.5, 0.5, 0.001, -0.001]),
                (6 + r.below(9)) as f32 + r.pick(&[-0.5, 0.5, 0.001, -0.001]),
            ),
            _ => ((8 + r.below(12)) as f32, (6 + r.below(9)) as f32),
        };
        let size = match r.below(12) {
            0 => 2.0,
            1 => 3.5,
            2 => 0.25,
            _ => 1.0,
        };
        for f in [x, y, r.f(0.0, 1.0), r.f(0.25, 2.0), size] {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
        bytes.extend_from_slice(&r.next().to_le_bytes());
        bytes.extend_from_slice(&r.next().to_le_bytes());
    }
    d.draw_primitive_up(PrimitiveType::PointList, n as u32, &bytes, 28)
        .unwrap();
    let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
    (raw(&d), ds)
}

#[test]
fn point_clouds_equal_reference_for_threads_and_backends() {
    let mut differs_from_clear = 0;
    for seed in 1..=60u32 {
        let o = |driver, threads, simd| Opts {
            threads,
            simd,
            ..opts(driver, Format::A8R8G8B8, Format::D24S8)
        };
        let reference = render_point_cloud(seed, &o(DriverType::Reference, 1, SimdChoice::Auto));
        for (threads, simd) in [
            (1, SimdChoice::Auto),
            (2, SimdChoice::Portable),
            (3, SimdChoice::Avx2),
        ] {
            let warp = render_point_cloud(seed, &o(DriverType::Warp, threads, simd));
            assert!(
                warp.0 == reference.0,
                "seed {seed}, {threads} threads {simd:?}: colour differs"
            );
            assert!(
                warp.1 == reference.1,
                "seed {seed}, {threads} threads {simd:?}: depth-stencil differs"
            );
        }
        let first = reference.0[..4].to_vec();
        if reference.0.chunks(4).any(|px| px != first) {
            differs_from_clear += 1;
        }
    }
    assert!(
        differs_from_clear > 25,
        "only {differs_from_clear} clouds drew"
    );
}

/// Layers of constant depth (the fill scene S1's full-screen quads, and
/// sprites): the Warp merger quantises such a primitive's depth once per
/// 8x8 block, and the colour stage leaves out its clamps where a block's
/// colours are proven inside [0, 1]. Random full-target and large quads,
/// each at one depth (on and beside 24-bit quantisation steps, +-0, outside
/// [0, 1]), random depth functions, bias, viewport depth range, Gouraud
/// and flat colours with and without specular: Warp (1 and 2 threads,
/// both backends) equals Reference in colour and depth. One layer is also
/// checked by hand.
#[test]
fn constant_depth_layers_equal_reference() {
    use warp9::state::Viewport;
    let (w, h) = (150u32, 70u32);
    let step = 1.0 / 16_777_215.0f32;
    let go = |seed: u32, driver: DriverType, threads: usize, simd: SimdChoice| {
        let o = Opts {
            driver,
            level: warp9::FeatureLevel::Sm3,
            size: (w, h),
            format: if seed.is_multiple_of(2) {
                Format::X8R8G8B8
            } else {
                Format::A8R8G8B8
            },
            depth: Some(if seed.is_multiple_of(3) {
                Format::D24X8
            } else {
                Format::D24S8
            }),
            threads,
            simd,
        };
        let mut d = device(&o);
        let mut r = Rng(seed * 104_729);
        let flags = ClearFlags::TARGET | ClearFlags::ZBUFFER;
        d.clear(&[], flags, r.next(), r.f(0.0, 1.0), 0).unwrap();
        for _ in 0..12 {
            for st in fast_states(&mut r) {
                d.set_render_state(st);
            }
            let (min_z, max_z) = if r.below(4) == 0 {
                (r.f(0.0, 0.5), r.f(0.5, 1.0))
            } else {
                (0.0, 1.0)
            };
            d.set_viewport(&Viewport {
                x: 0,
                y: 0,
                width: w,
                height: h,
                min_z,
                max_z,
            })
            .unwrap();
            let z = match r.below(8) {
                0 => r.below(1 << 24) as f32 * step,
                1 => (r.below(1 << 24) as f32 + 0.5) * step,
                2 => -0.0,
                3 => r.f(-0.3, 1.3),
                _ => r.f(0.0, 1.0),
            };
            let (x0, y0, x1, y1) = if r.below(2) == 0 {
                (-0.5, -0.5, w as f32 - 0.5, h as f32 - 0.5)
            } else {
                (
                    r.f(-20.0, 60.0),
                    r.f(-20.0, 30.0),
                    r.f(70.0, 170.0),
                    r.f(35.0, 90.0),
                )
            };
            let c = |r: &mut Rng| V {
                specular: r.next(),
                ..v(0.0, 0.0, z, r.next())
            };
            let (c0, c1, c2, c3) = (c(&mut r), c(&mut r), c(&mut r), c(&mut r));
            let at = |c: V, x: f32, y: f32| V { x, y, ..c };
            let quad = [
                at(c0, x0, y0),
                at(c1, x1, y0),
                at(c2, x1, y1),
                at(c0, x0, y0),
                at(c2, x1, y1),
                at(c3, x0, y1),
            ];
            draw(&mut d, PrimitiveType::TriangleList, &quad);
        }
        let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
        (raw(&d), ds)
    };
    let mut drawn = 0;
    for seed in 1..=12u32 {
        let want = go(seed, DriverType::Reference, 1, SimdChoice::Auto);
        let cleared = {
            let mut d = device(&Opts {
                size: (w, h),
                depth: Some(Format::D24S8),
                ..Opts::default()
            });
            d.clear(&[], ClearFlags::TARGET, 0, 1.0, 0).unwrap();
            raw(&d)
        };
        if want.0 != cleared {
            drawn += 1;
        }
        for (threads, simd) in WARP_RUNS {
            let got = go(seed, DriverType::Warp, threads, simd);
            assert_same_bytes(&format!("seed {seed} ({threads}, {simd:?})"), &got, &want);
        }
    }
    assert!(drawn >= 8, "only {drawn} of 12 layer scenes drew anything");

    // By hand: a layer at z = 0.25 over one at 0.5, LESSEQUAL, D24S8 with
    // stencil 0x5A kept: depth field round(0.25 * (2^24 - 1)) = 4194304
    // (0.25 * 16777215 = 4194303.75), the colour the layer's.
    for driver in [DriverType::Warp, DriverType::Reference] {
        let mut d = device(&Opts {
            driver,
            size: (w, h),
            depth: Some(Format::D24S8),
            ..Opts::default()
        });
        let all = ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL;
        d.clear(&[], all, 0, 1.0, 0x5A).unwrap();
        d.set_render_state(RenderState::ZFunc(CmpFunc::LessEqual));
        let layer = |d: &mut Device, z: f32, color: u32| {
            let (x1, y1) = (w as f32 - 0.5, h as f32 - 0.5);
            let quad = [
                v(-0.5, -0.5, z, color),
                v(x1, -0.5, z, color),
                v(x1, y1, z, color),
                v(-0.5, -0.5, z, color),
                v(x1, y1, z, color),
                v(-0.5, y1, z, color),
            ];
            draw(d, PrimitiveType::TriangleList, &quad);
        };
        layer(&mut d, 0.5, 0xFF11_2233);
        layer(&mut d, 0.25, 0xFF44_5566);
        layer(&mut d, 0.25 + 2.0 * step, 0xFF77_8899);
        let px = pixels(&d);
        assert!(px.iter().all(|&p| p == 0xFF44_5566), "{driver:?}");
        let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
        let want = (4_194_304u32 << 8) | 0x5A;
        assert!(
            ds.chunks_exact(4)
                .all(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == want),
            "{driver:?}"
        );
    }
}
