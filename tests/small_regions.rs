//! Grids of small triangles (cells of 2 to 7 pixels, like the benchmark
//! scene S2), drawn in layers through the Warp merger's fast path: most
//! triangles' share of a tile is a region of at most 2x4 stamps, which the
//! rasterizer shades and merges stamp by stamp, with its bounds checked
//! once per region, its depth function a constant, a constant depth
//! quantised once and the per-pixel depth clip left out where the
//! region's depth is proven inside [0, 1]. Warp (1 and 2 threads, both
//! backends) must give Reference's colour and depth bytes.

mod raster_support;

use raster_support::*;
use warp9::state::{Cull, ShadeMode};
use warp9::{ClearFlags, DriverType, FeatureLevel, Format, PrimitiveType, RenderState, SimdChoice};

/// The depth of a layer: one value for the whole layer (inside and outside
/// [0, 1], on a 24-bit step) or a slope across the target that leaves
/// [0, 1] on one side or both.
fn layer_depth(r: &mut Rng) -> (f32, f32, f32) {
    match r.below(6) {
        0 => (r.f(-0.3, 1.3), 0.0, 0.0),
        1 => (r.below(1 << 24) as f32 / 16_777_215.0, 0.0, 0.0),
        2 => (r.f(0.05, 0.95), 0.0, 0.0),
        3 => (r.f(-0.4, 0.2), r.f(0.5, 1.2), r.f(-0.3, 0.6)),
        4 => (r.f(0.2, 0.8), r.f(-0.02, 0.02), r.f(-0.02, 0.02)),
        _ => (r.f(0.8, 1.4), r.f(-1.0, -0.2), r.f(-0.4, 0.1)),
    }
}

/// One scene: four layers of small-cell grids with random depth functions,
/// write enables, bias, shading and cell sizes, on an odd-sized target (so
/// that some regions reach past the last whole row or column and take the
/// general merger). Returns RT0 and depth-stencil bytes.
fn scene(seed: u32, driver: DriverType, threads: usize, simd: SimdChoice) -> (Vec<u8>, Vec<u8>) {
    let size = [(67u32, 45u32), (130, 41), (45, 67)][seed as usize % 3];
    let depth = if seed.is_multiple_of(3) {
        Format::D24X8
    } else {
        Format::D24S8
    };
    let o = Opts {
        driver,
        // Sm3 clips pretransformed depth per pixel (D3DPMISCCAPS_CLIPTLVERTS);
        // 9_3 does not: both settings of the fast path's clip.
        level: if seed.is_multiple_of(2) {
            FeatureLevel::Sm3
        } else {
            FeatureLevel::L9_3
        },
        size,
        format: if seed % 4 < 2 {
            Format::X8R8G8B8
        } else {
            Format::A8R8G8B8
        },
        depth: Some(depth),
        threads,
        simd,
    };
    let mut d = device(&o);
    let mut r = Rng(seed * 6007);
    let flags = ClearFlags::TARGET | ClearFlags::ZBUFFER;
    let flags = if depth == Format::D24S8 {
        flags | ClearFlags::STENCIL
    } else {
        flags
    };
    d.clear(&[], flags, r.next(), r.f(0.3, 1.0), r.below(256))
        .unwrap();
    d.set_render_state(RenderState::CullMode(Cull::None));
    for _ in 0..4 {
        use RenderState as R;
        d.set_render_state(R::ZFunc(r.pick(&ALL_CMP)));
        d.set_render_state(R::ZWriteEnable(r.below(4) != 0));
        d.set_render_state(R::ShadeMode(r.pick(&[ShadeMode::Flat, ShadeMode::Gouraud])));
        d.set_render_state(R::SpecularEnable(r.below(3) == 0));
        d.set_render_state(R::DepthBias(if r.below(3) == 0 {
            r.f(-0.05, 0.05)
        } else {
            0.0
        }));
        let cell = r.pick(&[2.0f32, 3.0, 4.0, 4.0, 5.0, 7.0]);
        let (ox, oy) = (r.f(-1.0, 1.0), r.f(-1.0, 1.0));
        let (z0, zx, zy) = layer_depth(&mut r);
        let (w, h) = (size.0 as f32, size.1 as f32);
        let cols = (w / cell) as usize + 2;
        let rows = (h / cell) as usize + 2;
        let colors: Vec<u32> = (0..(cols + 1) * (rows + 1)).map(|_| r.next()).collect();
        let at = |i: usize, j: usize| {
            let (x, y) = (ox - 0.5 + i as f32 * cell, oy - 0.5 + j as f32 * cell);
            V {
                specular: colors[(j * (cols + 1) + i) % colors.len()].rotate_left(8),
                ..v(
                    x,
                    y,
                    z0 + zx * x / w + zy * y / h,
                    colors[j * (cols + 1) + i],
                )
            }
        };
        let mut tris = Vec::with_capacity(cols * rows * 6);
        for j in 0..rows {
            for i in 0..cols {
                tris.extend([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                tris.extend([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        draw(&mut d, PrimitiveType::TriangleList, &tris);
    }
    let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
    (raw(&d), ds)
}

#[test]
fn small_triangle_grids_equal_reference() {
    let mut drawn = 0;
    for seed in 1..=24u32 {
        let want = scene(seed, DriverType::Reference, 1, SimdChoice::Auto);
        // A scene whose colours vary from pixel to pixel drew something.
        let first = &want.0[..4];
        if want.0.chunks(4).filter(|px| px != &first).count() > 100 {
            drawn += 1;
        }
        for (threads, simd) in WARP_RUNS {
            let got = scene(seed, DriverType::Warp, threads, simd);
            assert_same_bytes(&format!("seed {seed} ({threads}, {simd:?})"), &got, &want);
        }
    }
    assert!(drawn >= 18, "only {drawn} of 24 grid scenes drew anything");
}

/// By hand: one 4x4 cell at (8, 8) split into two triangles at z = 0.5,
/// LESSEQUAL over a cleared depth of 1: the cell's 16 pixels take the
/// flat colour and depth field round(0.5 * (2^24 - 1)) = 8388608, and the
/// pixels around it keep the clear. With per-pixel depth clipping (Sm3)
/// the same cell at z = 1.25 draws nothing.
#[test]
fn one_small_cell_by_hand() {
    for driver in [DriverType::Warp, DriverType::Reference] {
        for (z, drawn) in [(0.5f32, true), (1.25, false)] {
            let mut d = device(&Opts {
                driver,
                level: FeatureLevel::Sm3,
                size: (32, 24),
                depth: Some(Format::D24S8),
                ..Opts::default()
            });
            let all = ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL;
            d.clear(&[], all, 0xFF00_0000, 1.0, 0x5A).unwrap();
            d.set_render_state(RenderState::CullMode(Cull::None));
            let c = 0xFF40_8020;
            let (a, b) = (7.5, 11.5);
            let cell = [
                v(a, a, z, c),
                v(b, a, z, c),
                v(b, b, z, c),
                v(a, a, z, c),
                v(b, b, z, c),
                v(a, b, z, c),
            ];
            draw(&mut d, PrimitiveType::TriangleList, &cell);
            let px = pixels(&d);
            let ds = d.get_depth_stencil_surface().unwrap().read_bytes();
            for y in 6..14 {
                for x in 6..14 {
                    let inside = (8..12).contains(&x) && (8..12).contains(&y) && drawn;
                    let i = y * 32 + x;
                    let word = u32::from_le_bytes(ds[4 * i..4 * i + 4].try_into().unwrap());
                    let (want_c, want_d) = if inside {
                        (c, 8_388_608)
                    } else {
                        (0xFF00_0000, 0xFF_FFFF)
                    };
                    assert_eq!(px[i], want_c, "{driver:?} z {z}: colour at ({x}, {y})");
                    assert_eq!(word >> 8, want_d, "{driver:?} z {z}: depth at ({x}, {y})");
                    assert_eq!(word & 0xFF, 0x5A, "{driver:?} z {z}: stencil at ({x}, {y})");
                }
            }
        }
    }
}
