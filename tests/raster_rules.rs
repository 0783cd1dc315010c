//! Rule tests with hand-computed expectations: fill convention, culling,
//! clipping, depth, stencil, alpha test, blending, formats.

mod raster_support;

use raster_support::*;
use warp9::{DriverType, PrimitiveType};

const WHITE: u32 = 0xFFFF_FFFF;

fn both(f: impl Fn(DriverType)) {
    f(DriverType::Warp);
    f(DriverType::Reference);
}

#[test]
fn quad_0_0_4_4_covers_pixels_0_to_3() {
    both(|driver| {
        let mut d = device(&Opts {
            driver,
            size: (8, 8),
            ..Opts::default()
        });
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)], WHITE);
        tri(&mut d, [(0.0, 0.0), (4.0, 4.0), (0.0, 4.0)], WHITE);
        let want = [
            "####....", "####....", "####....", "####....", "........", "........", "........",
            "........",
        ];
        assert_eq!(coverage(&d, 0), want, "{driver:?}");
    });
}

use warp9::state::{Blend, BlendOp, CmpFunc, Cull, StencilOp};
use warp9::{ClearFlags, FeatureLevel, Format, RenderState};

/// A right triangle whose edges pass exactly through pixel centres, then
/// nudged by 1/512 pixel either side (below the 1/256 snap: same coverage)
/// and by 1/128 (crosses the centres: coverage changes).
#[test]
fn fill_convention_on_centres_and_nudges() {
    both(|driver| {
        let run = |dx: f32| {
            let mut d = device(&Opts {
                driver,
                size: (6, 6),
                ..Opts::default()
            });
            tri(
                &mut d,
                [(1.0 + dx, 1.0), (4.0 + dx, 1.0), (1.0 + dx, 4.0)],
                WHITE,
            );
            coverage(&d, 0)
        };
        // Top edge y=1 (top: included), left edge x=1 (left: included),
        // hypotenuse x+y=5 (right side: excluded).
        let exact = ["......", ".###..", ".##...", ".#....", "......", "......"];
        assert_eq!(run(0.0), exact, "{driver:?}");
        assert_eq!(run(1.0 / 1024.0), exact, "{driver:?} +1/1024");
        // Exactly half a snap step rounds away from zero: one 1/256 step right.
        assert_eq!(
            run(1.0 / 512.0),
            ["......", "..###.", "..##..", "..#...", "......", "......"]
        );
        assert_eq!(run(-1.0 / 1024.0), exact, "{driver:?} -1/1024");
        // Shifted right by 1/128: column 1 leaves the (left, inclusive) edge and
        // the centres on the hypotenuse x + y = 5 come inside.
        let right = ["......", "..###.", "..##..", "..#...", "......", "......"];
        assert_eq!(run(1.0 / 128.0), right, "{driver:?} +1/128");
        // Shifted left by 1/128: column 1 stays (now strictly inside), the
        // hypotenuse centres stay outside: the same as exact.
        assert_eq!(run(-1.0 / 128.0), exact, "{driver:?} -1/128");
        // Shifted up by 1/128: row 1's centres are strictly inside instead of on the top edge.
        let mut d = device(&Opts {
            driver,
            size: (6, 6),
            ..Opts::default()
        });
        let e = 1.0 / 128.0;
        tri(
            &mut d,
            [(1.0, 1.0 - e), (4.0, 1.0 - e), (1.0, 4.0 - e)],
            WHITE,
        );
        assert_eq!(
            coverage(&d, 0),
            ["......", ".###..", ".##...", ".#....", "......", "......"]
        );
    });
}

#[test]
fn shared_edge_is_drawn_once() {
    both(|driver| {
        let mut d = device(&Opts {
            driver,
            size: (8, 8),
            ..Opts::default()
        });
        d.set_render_state(RenderState::AlphaBlendEnable(true));
        d.set_render_state(RenderState::SrcBlend(Blend::One));
        d.set_render_state(RenderState::DestBlend(Blend::One));
        // Two triangles sharing the diagonal (0,0)-(7,7), each adds 0x40 red.
        tri(&mut d, [(0.0, 0.0), (7.0, 0.0), (7.0, 7.0)], 0x0040_0000);
        tri(&mut d, [(0.0, 0.0), (7.0, 7.0), (0.0, 7.0)], 0x0040_0000);
        let px = pixels(&d);
        // Every covered pixel holds exactly one contribution.
        assert!(px.iter().all(|&p| p == 0 || p == 0x0040_0000), "{driver:?}");
        // Diagonal centres belong to the triangle for which the edge is left: the lower one.
        assert_eq!(px[3 * 8 + 3], 0x0040_0000);
    });
}

#[test]
fn cull_modes() {
    both(|driver| {
        for (cull, cw_drawn, ccw_drawn) in [
            (Cull::None, true, true),
            (Cull::Cw, false, true),
            (Cull::Ccw, true, false),
        ] {
            let mut d = device(&Opts {
                driver,
                size: (8, 8),
                ..Opts::default()
            });
            d.set_render_state(RenderState::CullMode(cull));
            // Clockwise on screen (y down): (0,0) -> (6,0) -> (0,6).
            tri(&mut d, [(0.0, 0.0), (6.0, 0.0), (0.0, 6.0)], 0xFF11_1111);
            tri(&mut d, [(7.0, 7.0), (7.0, 1.0), (1.0, 7.0)], 0xFF22_2222);
            let px = pixels(&d);
            assert_eq!(px[8 + 1] == 0xFF11_1111, cw_drawn, "{driver:?} {cull:?} cw");
            assert_eq!(
                px[6 * 8 + 6] == 0xFF22_2222,
                ccw_drawn,
                "{driver:?} {cull:?} ccw"
            );
        }
    });
}

#[test]
/// Pre-transformed z outside [0, 1] is clipped per pixel only on a device
/// with D3DPMISCCAPS_CLIPTLVERTS (the SM3 profile); at 9_x it is drawn with
/// its depth clamped, as Windows drivers do in Wine's z_range_test (the
/// rasterization.md 4.4 choice discarded it at every level). Negative rhw
/// and non-finite coordinates are discarded everywhere.
fn z_outside_0_1_and_negative_rhw_discarded() {
    for (level, z_clipped) in [(FeatureLevel::Sm3, true), (FeatureLevel::L9_3, false)] {
        both(|driver| {
            let mut d = device(&Opts {
                driver,
                level,
                size: (4, 4),
                ..Opts::default()
            });
            let q = |z: f32, rhw: f32| {
                vec![
                    V {
                        x: -0.5,
                        y: -0.5,
                        z,
                        rhw,
                        diffuse: WHITE,
                        specular: 0,
                    },
                    V {
                        x: 4.0,
                        y: -0.5,
                        z,
                        rhw,
                        diffuse: WHITE,
                        specular: 0,
                    },
                    V {
                        x: -0.5,
                        y: 4.0,
                        z,
                        rhw,
                        diffuse: WHITE,
                        specular: 0,
                    },
                ]
            };
            draw(&mut d, PrimitiveType::TriangleList, &q(0.5, -1.0));
            draw(
                &mut d,
                PrimitiveType::TriangleList,
                &[
                    v(f32::NAN, 0.0, 0.5, WHITE),
                    v(3.0, 0.0, 0.5, WHITE),
                    v(0.0, 3.0, 0.5, WHITE),
                ],
            );
            assert!(pixels(&d).iter().all(|&p| p == 0), "{driver:?}");
            for z in [1.5, -0.25] {
                draw(&mut d, PrimitiveType::TriangleList, &q(z, 1.0));
                let drawn = pixels(&d)[0] == WHITE;
                assert_eq!(drawn, !z_clipped, "{driver:?} {level:?} z = {z}");
            }
            draw(&mut d, PrimitiveType::TriangleList, &q(1.0, 1.0));
            assert_eq!(pixels(&d)[0], WHITE);
        });
    }
}

fn depth_dev(driver: DriverType, format: Format) -> warp9::Device {
    let mut d = device(&Opts {
        driver,
        size: (4, 4),
        depth: Some(format),
        ..Opts::default()
    });
    d.clear(&[], ClearFlags::ZBUFFER, 0, 0.5, 0).unwrap();
    d
}

fn full(d: &mut warp9::Device, z: f32, c: u32) {
    tri(d, [(-0.5, -0.5), (8.0, -0.5), (-0.5, 8.0)], c);
    let _ = z;
}

#[test]
fn depth_functions_and_bias() {
    both(|driver| {
        // Stored 0.5; incoming 0.5 (+bias).
        for (func, bias, pass) in [
            (CmpFunc::Less, 0.0, false),
            (CmpFunc::LessEqual, 0.0, true),
            (CmpFunc::Equal, 0.0, true),
            (CmpFunc::Greater, 0.0, false),
            (CmpFunc::GreaterEqual, 0.0, true),
            (CmpFunc::NotEqual, 0.0, false),
            (CmpFunc::Never, 0.0, false),
            (CmpFunc::Always, 0.0, true),
            (CmpFunc::Less, -0.01, true),
            (CmpFunc::Greater, 0.01, true),
            // Below one D24 step (2^-24 ~ 6e-8): quantises to the same value.
            (CmpFunc::Less, -1e-8, false),
        ] {
            let mut d = depth_dev(driver, Format::D24S8);
            d.set_render_state(RenderState::ZEnable(warp9::state::ZBufferType::True));
            d.set_render_state(RenderState::ZFunc(func));
            d.set_render_state(RenderState::DepthBias(bias));
            full(&mut d, 0.5, WHITE);
            assert_eq!(
                pixels(&d)[5] == WHITE,
                pass,
                "{driver:?} {func:?} bias {bias}"
            );
        }
        // Slope-scaled bias: z = 0.5 + 0.01 x; m = 0.01; bias = m * 100 = 1 pushes everything to MaxZ (clamped 1.0).
        let mut d = depth_dev(driver, Format::D24S8);
        d.set_render_state(RenderState::ZEnable(warp9::state::ZBufferType::True));
        d.set_render_state(RenderState::ZFunc(CmpFunc::Always));
        d.set_render_state(RenderState::SlopeScaleDepthBias(100.0));
        let vs = [
            v(-0.5, -0.5, 0.495, WHITE),
            v(8.0, -0.5, 0.58, WHITE),
            v(-0.5, 8.0, 0.495, WHITE),
        ];
        draw(&mut d, PrimitiveType::TriangleList, &vs);
        let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
        assert_eq!(
            u32::from_le_bytes([ds[0], ds[1], ds[2], ds[3]]) >> 8,
            0xFF_FFFF,
            "{driver:?}"
        );
    });
}

#[test]
fn stencil_ops() {
    both(|driver| {
        for (op, stored, want) in [
            (StencilOp::Keep, 5, 5),
            (StencilOp::Zero, 5, 0),
            (StencilOp::Replace, 5, 7),
            (StencilOp::IncrSat, 255, 255),
            (StencilOp::DecrSat, 0, 0),
            (StencilOp::Invert, 5, 250),
            (StencilOp::Incr, 255, 0),
            (StencilOp::Decr, 0, 255),
        ] {
            let mut d = device(&Opts {
                driver,
                size: (4, 4),
                depth: Some(Format::D24S8),
                ..Opts::default()
            });
            d.clear(
                &[],
                ClearFlags::ZBUFFER | ClearFlags::STENCIL,
                0,
                1.0,
                stored,
            )
            .unwrap();
            d.set_render_state(RenderState::StencilEnable(true));
            d.set_render_state(RenderState::StencilFunc(CmpFunc::Always));
            d.set_render_state(RenderState::StencilPass(op));
            d.set_render_state(RenderState::StencilRef(7));
            full(&mut d, 0.5, WHITE);
            let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
            assert_eq!(u32::from(ds[4 * 5]), want, "{driver:?} {op:?}");
        }
        // Stencil test (ref & mask) vs (stored & mask), failing op, write mask.
        let mut d = device(&Opts {
            driver,
            size: (4, 4),
            depth: Some(Format::D24S8),
            ..Opts::default()
        });
        d.clear(&[], ClearFlags::ZBUFFER | ClearFlags::STENCIL, 0, 1.0, 0x0F)
            .unwrap();
        d.set_render_state(RenderState::StencilEnable(true));
        d.set_render_state(RenderState::StencilFunc(CmpFunc::Equal));
        d.set_render_state(RenderState::StencilRef(0x1F));
        d.set_render_state(RenderState::StencilMask(0x0F));
        d.set_render_state(RenderState::StencilPass(StencilOp::Invert));
        d.set_render_state(RenderState::StencilWriteMask(0x03));
        full(&mut d, 0.5, WHITE);
        let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
        assert_eq!(ds[0], 0x0C, "{driver:?}: invert under write mask 0x03");
        assert_eq!(pixels(&d)[0], WHITE);
    });
}

#[test]
fn alpha_test_functions() {
    both(|driver| {
        // Alpha 0x80 against ref 0x80 and 0x7F.
        for (func, reference, pass) in [
            (CmpFunc::Equal, 0x80, true),
            (CmpFunc::Less, 0x80, false),
            (CmpFunc::LessEqual, 0x80, true),
            (CmpFunc::Greater, 0x7F, true),
            (CmpFunc::GreaterEqual, 0x81, false),
            (CmpFunc::NotEqual, 0x80, false),
            (CmpFunc::Never, 0, false),
            (CmpFunc::Always, 0, true),
        ] {
            let mut d = device(&Opts {
                driver,
                size: (4, 4),
                ..Opts::default()
            });
            d.set_render_state(RenderState::AlphaTestEnable(true));
            d.set_render_state(RenderState::AlphaFunc(func));
            d.set_render_state(RenderState::AlphaRef(reference));
            full(&mut d, 0.5, 0x80FF_FFFF);
            assert_eq!(
                pixels(&d)[0] != 0,
                pass,
                "{driver:?} {func:?} {reference:#x}"
            );
        }
    });
}

#[test]
fn blend_factors_and_ops() {
    // Destination (r, g, b, a) = (0x40, 0x80, 0xC0, 0x20); source = (0xFF, 0x00, 0x80, 0x80).
    let dst = 0x2040_80C0u32;
    let src = 0x80FF_0080u32;
    let u = |v: u32| v as f32 / 255.0;
    let (s, dd) = (
        [u(0xFF), u(0), u(0x80), u(0x80)],
        [u(0x40), u(0x80), u(0xC0), u(0x20)],
    );
    let k = [u(0x11), u(0x22), u(0x33), u(0x44)];
    let factor = |b: Blend, ch: usize| -> f32 {
        match b {
            Blend::Zero => 0.0,
            Blend::One => 1.0,
            Blend::SrcColor => s[ch],
            Blend::InvSrcColor => 1.0 - s[ch],
            Blend::SrcAlpha => s[3],
            Blend::InvSrcAlpha => 1.0 - s[3],
            Blend::DestAlpha => dd[3],
            Blend::InvDestAlpha => 1.0 - dd[3],
            Blend::DestColor => dd[ch],
            Blend::InvDestColor => 1.0 - dd[ch],
            Blend::BlendFactor => k[ch],
            Blend::InvBlendFactor => 1.0 - k[ch],
            _ => unreachable!(),
        }
    };
    let blends = [
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
    let ops = [
        BlendOp::Add,
        BlendOp::Subtract,
        BlendOp::RevSubtract,
        BlendOp::Min,
        BlendOp::Max,
    ];
    both(|driver| {
        for (i, &sb) in blends.iter().enumerate() {
            let db = blends[(i * 5 + 3) % blends.len()];
            for op in ops {
                let mut d = device(&Opts {
                    driver,
                    size: (4, 4),
                    ..Opts::default()
                });
                d.clear(&[], ClearFlags::TARGET, dst, 1.0, 0).unwrap();
                d.set_render_state(RenderState::AlphaBlendEnable(true));
                d.set_render_state(RenderState::SrcBlend(sb));
                d.set_render_state(RenderState::DestBlend(db));
                d.set_render_state(RenderState::BlendOp(op));
                d.set_render_state(RenderState::BlendFactor(warp9::state::Color(0x4411_2233)));
                full(&mut d, 0.5, src);
                let want: Vec<u32> = (0..4)
                    .map(|ch| {
                        let (fs, fd) = (factor(sb, ch), factor(db, ch));
                        let r = match op {
                            BlendOp::Add => s[ch] * fs + dd[ch] * fd,
                            BlendOp::Subtract => s[ch] * fs - dd[ch] * fd,
                            BlendOp::RevSubtract => dd[ch] * fd - s[ch] * fs,
                            BlendOp::Min => s[ch].min(dd[ch]),
                            BlendOp::Max => s[ch].max(dd[ch]),
                        };
                        (r.clamp(0.0, 1.0) * 255.0 + 0.5) as u32
                    })
                    .collect();
                let want = (want[3] << 24) | (want[0] << 16) | (want[1] << 8) | want[2];
                assert_eq!(pixels(&d)[0], want, "{driver:?} {sb:?} {db:?} {op:?}");
            }
        }
    });
}

#[test]
fn render_target_formats_encode() {
    // Colour (r, g, b, a) = (1, 0.5, 0.25, 0.75) from D3DCOLOR 0xBFFF8040.
    let c = 0xBFFF_8040u32;
    for (format, want) in [
        (Format::A8R8G8B8, vec![0x40, 0x80, 0xFF, 0xBF]),
        (Format::X8R8G8B8, vec![0x40, 0x80, 0xFF, 0xFF]),
        (Format::R5G6B5, {
            // r 31, g round(128/255*63)=32, b round(64/255*31)=8
            let v: u16 = (31 << 11) | (32 << 5) | 8;
            v.to_le_bytes().to_vec()
        }),
        (Format::X1R5G5B5, {
            let v: u16 = 0x8000 | (31 << 10) | (16 << 5) | 8;
            v.to_le_bytes().to_vec()
        }),
        (Format::A1R5G5B5, {
            let v: u16 = 0x8000 | (31 << 10) | (16 << 5) | 8;
            v.to_le_bytes().to_vec()
        }),
    ] {
        both(|driver| {
            let mut d = device(&Opts {
                driver,
                size: (4, 4),
                format,
                ..Opts::default()
            });
            full(&mut d, 0.5, c);
            let bytes = raw(&d);
            assert_eq!(&bytes[..want.len()], &want[..], "{driver:?} {format:?}");
        });
    }
}

#[test]
fn color_write_mask_and_occlusion_count() {
    both(|driver| {
        let mut d = device(&Opts {
            driver,
            size: (8, 8),
            ..Opts::default()
        });
        d.clear(&[], ClearFlags::TARGET, 0x1122_3344, 1.0, 0)
            .unwrap();
        d.set_render_state(RenderState::ColorWriteEnable(0x1 | 0x4));
        let q = d.create_query(warp9::api::QueryType::Occlusion).unwrap();
        d.issue_query(&q, warp9::api::IssueFlags::BEGIN).unwrap();
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], 0xFFAA_BBCC);
        d.issue_query(&q, warp9::api::IssueFlags::END).unwrap();
        assert_eq!(pixels(&d)[0], 0x11AA_33CC, "{driver:?}");
        // Centres inside (0,0)-(4,0)-(0,4) with the top-left rule: 4 + 3 + 2 + 1.
        assert_eq!(
            q.get_data().unwrap(),
            Some(warp9::api::QueryData::Occlusion(10))
        );
    });
}
