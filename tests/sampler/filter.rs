//! Filtering, addressing, LOD, cube and volume sampling against
//! hand-computed expectations (textures.md 4–7), each checked on the
//! Reference path and the Warp path (both SIMD backends) at once.

use crate::sampler_support;

use sampler_support::*;
use warp9::Format;
use warp9::internals::sampler::SamplerDesc;
use warp9::internals::texture_fetch::Lod;
use warp9::state::{TextureAddress as A, TextureFilter as F};

fn l8(v: u32) -> f32 {
    v as f32 / 255.0
}

fn linear(address: A) -> SamplerDesc {
    SamplerDesc {
        address: [address; 3],
        mag_filter: F::Linear,
        min_filter: F::Linear,
        ..SamplerDesc::default()
    }
}

#[test]
fn bilinear_weights_are_products_with_eight_bit_fractions() {
    let mut d = device();
    let t = texture(&mut d, Format::L8, 2, 2, &[vec![0, 100, 200, 50]]);
    let b = bind(t, &linear(A::Clamp));
    // s = 0.25 along u, 0.75 along v.
    let v = sample(&b, 0, [0.375, 0.625, 0.0, 1.0], L0);
    let want = (100.0 * 0.25 * 0.25 + 200.0 * 0.75 * 0.75 + 50.0 * 0.25 * 0.75) / 255.0;
    assert_eq!(v[0], want);
    assert_eq!(v[3], 1.0);
    // s = 0.3 truncates to 76/256 (8 fractional bits).
    let v = sample(&b, 0, [0.4, 0.25, 0.0, 1.0], L0);
    let w = 76.0 / 256.0;
    assert!((v[0] - 100.0 * w / 255.0).abs() < 1e-6, "{v:?}");
}

#[test]
fn address_modes_by_hand() {
    let mut d = device();
    let t = texture(&mut d, Format::L8, 4, 1, &[vec![10, 20, 30, 40]]);
    let at = |mode: A, u: f32| {
        let desc = SamplerDesc {
            address: [mode; 3],
            border_color: 0xFF33_6699,
            ..SamplerDesc::default()
        };
        sample(&bind(&t, &desc), 0, [u, 0.5, 0.0, 1.0], L0)
    };
    assert_eq!(at(A::Wrap, -0.1)[0], l8(40));
    assert_eq!(at(A::Wrap, 1.3)[0], l8(20));
    assert_eq!(at(A::Mirror, -0.1)[0], l8(10));
    assert_eq!(at(A::Mirror, 1.1)[0], l8(40));
    assert_eq!(at(A::Mirror, 1.3)[0], l8(30));
    assert_eq!(at(A::Clamp, -5.0)[0], l8(10));
    assert_eq!(at(A::Clamp, 7.0)[0], l8(40));
    // MIRRORONCE at negative coordinates mirrors once, then clamps.
    assert_eq!(at(A::MirrorOnce, -0.1)[0], l8(10));
    assert_eq!(at(A::MirrorOnce, -0.6)[0], l8(30));
    assert_eq!(at(A::MirrorOnce, -2.0)[0], l8(40));
    assert_eq!(at(A::MirrorOnce, 1.5)[0], l8(40));
    // BORDER: the border colour's channels; L8 has no alpha, so alpha keeps its default 1.
    assert_eq!(at(A::Border, -0.1), [l8(0x33), l8(0x66), l8(0x99), 1.0]);
    assert_eq!(at(A::Border, 0.9)[0], l8(40));
}

#[test]
fn border_is_filtered_and_axes_are_independent() {
    let mut d = device();
    let t = texture(&mut d, Format::L8, 2, 1, &[vec![0, 255]]);
    let desc = SamplerDesc {
        border_color: 0xFFFF_FFFF,
        ..linear(A::Border)
    };
    let b = bind(&t, &desc);
    // u = 0: half border (255), half texel 0 (0); v = 0.5 is the row's centre.
    assert_eq!(sample(&b, 0, [0.0, 0.5, 0.0, 1.0], L0)[0], 127.5 / 255.0);
    // U wraps, V clamps: u = 0 blends texel 1 and texel 0, v far outside stays on the row.
    let desc = SamplerDesc {
        address: [A::Wrap, A::Clamp, A::Clamp],
        ..linear(A::Wrap)
    };
    let b = bind(&t, &desc);
    assert_eq!(sample(&b, 0, [0.0, -30.0, 0.0, 1.0], L0)[0], 127.5 / 255.0);
}

const RED: u32 = 0xFFFF_0000;
const GREEN: u32 = 0xFF00_FF00;
const BLUE: u32 = 0xFF00_00FF;
const WHITE: u32 = 0xFFFF_FFFF;

fn mips(d: &mut warp9::Device) -> warp9::Texture {
    levels_filled(d, 8, &[RED, GREEN, BLUE, WHITE])
}

fn rgb(c: u32) -> [f32; 4] {
    let ch = |s: u32| ((c >> s) & 0xFF) as f32 / 255.0;
    [ch(16), ch(8), ch(0), ch(24)]
}

/// Derivatives of `texels` level-0 texels per pixel on an 8x8 texture.
fn texels(t: f32) -> Lod<f32> {
    deriv(t / 8.0)
}

#[test]
fn lod_selection_with_bias_max_level_and_set_lod() {
    let mut d = device();
    let t = mips(&mut d);
    let point = SamplerDesc {
        mip_filter: F::Point,
        ..SamplerDesc::default()
    };
    let at =
        |desc: &SamplerDesc, lod: Lod<f32>| sample(&bind(&t, desc), 0, [0.5, 0.5, 0.0, 1.0], lod);
    assert_eq!(at(&point, texels(2.0)), rgb(GREEN));
    assert_eq!(
        at(&point, texels(2.9)),
        rgb(BLUE),
        "LOD 1.54 rounds to level 2"
    );
    let biased = SamplerDesc {
        mip_lod_bias: -1.0,
        ..point
    };
    assert_eq!(at(&biased, texels(2.9)), rgb(GREEN), "MIPMAPLODBIAS -1");
    let texldb = Lod::Bias {
        ddx: [2.0 / 8.0, 0.0, 0.0],
        ddy: [0.0, 2.0 / 8.0, 0.0],
        bias: 1.0,
    };
    assert_eq!(at(&point, texldb), rgb(BLUE), "texldb +1");
    let maxmip = SamplerDesc {
        max_mip_level: 2,
        ..point
    };
    assert_eq!(
        at(&maxmip, texels(1.0)),
        rgb(BLUE),
        "magnified: level MAXMIPLEVEL"
    );
    assert_eq!(
        at(&maxmip, texels(2.0)),
        rgb(BLUE),
        "max(LOD 1, MAXMIPLEVEL 2)"
    );
    assert_eq!(at(&maxmip, texels(16.0)), rgb(WHITE));
    let beyond = SamplerDesc {
        max_mip_level: 7,
        ..point
    };
    assert_eq!(
        at(&beyond, texels(1.0)),
        rgb(WHITE),
        "beyond the chain: last level"
    );
    assert_eq!(at(&point, Lod::Level(2.0)), rgb(BLUE), "texldl");
    assert_eq!(at(&point, Lod::Level(-1.0)), rgb(RED));
    assert_eq!(at(&point, Lod::Level(100.0)), rgb(WHITE));
    let none = SamplerDesc {
        mip_filter: F::None,
        max_mip_level: 2,
        ..point
    };
    assert_eq!(
        at(&none, texels(4.0)),
        rgb(RED),
        "MIPFILTER NONE ignores MAXMIPLEVEL"
    );
    // Linear mip filter: LOD 1.25 → 3/4 level 1 + 1/4 level 2.
    let lin = SamplerDesc {
        mip_filter: F::Linear,
        ..point
    };
    close(
        at(&lin, texels(2f32.powf(1.25))),
        [0.0, 0.75, 0.25, 1.0],
        1e-5,
    );
    // SetLOD (managed textures) raises the most detailed level; with NONE it alone decides.
    t.set_lod(1);
    assert_eq!(at(&none, texels(4.0)), rgb(GREEN));
    assert_eq!(at(&point, texels(1.1)), rgb(GREEN));
    let maxmip2 = SamplerDesc {
        max_mip_level: 2,
        ..point
    };
    assert_eq!(
        at(&maxmip2, texels(1.1)),
        rgb(BLUE),
        "max(SetLOD 1, MAXMIPLEVEL 2)"
    );
}

#[test]
fn anisotropic_footprint_probes_along_the_major_axis() {
    let mut d = device();
    // 16x16 L8 chain; level 1 column c = 10 c, level 2 column c = 100 + c, level 3 = 7 everywhere.
    let lvl =
        |n: usize, f: &dyn Fn(usize) -> u8| -> Vec<u8> { (0..n * n).map(|i| f(i % n)).collect() };
    let levels = vec![
        lvl(16, &|_| 0),
        lvl(8, &|c| 10 * c as u8),
        lvl(4, &|c| 100 + c as u8),
        lvl(2, &|_| 7),
        lvl(1, &|_| 9),
    ];
    let t = texture(&mut d, Format::L8, 16, 16, &levels);
    let desc = |max| SamplerDesc {
        mag_filter: F::Linear,
        min_filter: F::Anisotropic,
        mip_filter: F::Point,
        max_anisotropy: max,
        address: [A::Clamp; 3],
        ..SamplerDesc::default()
    };
    // 8 texels per pixel along x, 2 along y: ratio 4, LOD 1, probes at columns 2..5 of level 1.
    let lod = Lod::Implicit {
        ddx: [0.5, 0.0, 0.0],
        ddy: [0.0, 0.125, 0.0],
    };
    let c = [0.5, 0.5, 0.0, 1.0];
    assert_eq!(sample(&bind(&t, &desc(16)), 0, c, lod)[0], 35.0 / 255.0);
    // MaxAnisotropy 2: ratio 2, LOD log2(8 / 2) = 2, probes at columns 1 and 2 of level 2.
    assert_eq!(sample(&bind(&t, &desc(2)), 0, c, lod)[0], 101.5 / 255.0);
    // MaxAnisotropy 1 is LINEAR: LOD 3.
    assert_eq!(sample(&bind(&t, &desc(1)), 0, c, lod)[0], 7.0 / 255.0);
    // The major axis may be y.
    let lod = Lod::Implicit {
        ddx: [0.125, 0.0, 0.0],
        ddy: [0.0, 0.5, 0.0],
    };
    let rows = texture(
        &mut d,
        Format::L8,
        16,
        16,
        &[
            lvl(16, &|_| 0),
            (0..64).map(|i| 10 * (i / 8) as u8).collect(),
            lvl(4, &|_| 1),
            lvl(2, &|_| 2),
            lvl(1, &|_| 3),
        ],
    );
    assert_eq!(sample(&bind(&rows, &desc(16)), 0, c, lod)[0], 35.0 / 255.0);
}

const FACE: [u32; 6] = [
    0xFF10_0000,
    0xFF20_0000,
    0xFF30_0000,
    0xFF40_0000,
    0xFF50_0000,
    0xFF60_0000,
];

#[test]
fn cube_faces_edges_and_corners() {
    let mut d = device();
    let t = cube(&mut d, 4, |f, _, _| FACE[f as usize]);
    let point = SamplerDesc::default();
    let dirs: [[f32; 3]; 6] = [
        [1.0, 0.1, 0.2],
        [-1.0, 0.1, 0.2],
        [0.1, 1.0, 0.2],
        [0.1, -1.0, 0.2],
        [0.1, 0.2, 1.0],
        [0.1, 0.2, -1.0],
    ];
    for (f, dir) in dirs.iter().enumerate() {
        let v = sample(&bind(&t, &point), 0, [dir[0], dir[1], dir[2], 1.0], L0);
        assert_eq!(v, rgb(FACE[f]), "face {f}");
    }
    let r = |f: usize| rgb(FACE[f])[0];
    // Every address mode gives the same answer on cube maps.
    for mode in [A::Wrap, A::Mirror, A::Clamp, A::Border, A::MirrorOnce] {
        let desc = SamplerDesc {
            border_color: 0xFF00_FF00,
            ..linear(mode)
        };
        let b = bind(&t, &desc);
        // +Z face (ties go to Z), u = 0: half +Z, half -X.
        let v = sample(&b, 0, [-1.0, 0.0, 1.0, 1.0], L0);
        assert_eq!(v[0], (80.0 * 0.5 + 32.0 * 0.5) / 255.0, "{mode:?}");
        assert_eq!(v[1], 0.0);
        // Corner (-1, 1, 1): the fourth texel's weight is shared by +Z, -X and +Y.
        let v = sample(&b, 0, [-1.0, 1.0, 1.0, 1.0], L0);
        let w = 0.25 + 0.25 / 3.0;
        assert!(
            (v[0] - (r(4) + r(1) + r(2)) * w).abs() < 1e-6,
            "{mode:?} {v:?}"
        );
    }
}

#[test]
fn volume_point_and_trilinear() {
    let mut d = device();
    let t = volume(&mut d, 2, 2, 2, |x, y, z| {
        0xFF00_0000 | (10 * (1 + x + 2 * y + 4 * z)) << 16
    });
    let at = |desc: &SamplerDesc, c: [f32; 3]| {
        sample(&bind(&t, desc), 0, [c[0], c[1], c[2], 1.0], L0)[0] * 255.0
    };
    let point = SamplerDesc::default();
    assert_eq!(at(&point, [0.25, 0.75, 0.75]), 70.0);
    assert_eq!(at(&point, [0.75, 0.25, 0.25]), 20.0);
    // Centre: the mean of all eight; on the z = 0.25 slice centre: the mean of slice 0.
    let lin = linear(A::Clamp);
    assert_eq!(at(&lin, [0.5, 0.5, 0.5]), 45.0);
    assert_eq!(at(&lin, [0.5, 0.5, 0.25]), 25.0);
    // W wraps: z = 0 blends slice 1 and slice 0.
    assert_eq!(at(&linear(A::Wrap), [0.25, 0.25, 0.0]), 30.0);
}

#[test]
fn any_coordinate_gives_a_texel() {
    let mut d = device();
    let tex = texture(
        &mut d,
        Format::L8,
        4,
        4,
        &[(0..16).map(|i| 10 + i as u8).collect()],
    );
    let cube = cube(&mut d, 4, |f, x, y| 0xFF00_0000 | (f * 16 + y * 4 + x + 1));
    let vol = volume(&mut d, 2, 2, 2, |x, y, z| {
        0xFF00_0000 | (x + 2 * y + 4 * z + 1) << 8
    });
    let bad = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
        -1e30,
        3.4e38,
        -0.0,
        1e-40,
    ];
    let lods = [
        L0,
        deriv(f32::NAN),
        deriv(f32::INFINITY),
        deriv(0.0),
        Lod::Level(f32::NAN),
        Lod::Bias {
            ddx: [1.0; 3],
            ddy: [0.0; 3],
            bias: f32::INFINITY,
        },
    ];
    for mode in [A::Wrap, A::Mirror, A::Clamp, A::Border, A::MirrorOnce] {
        for (mag, mip) in [
            (F::Point, F::None),
            (F::Linear, F::Linear),
            (F::Anisotropic, F::Point),
        ] {
            let desc = SamplerDesc {
                address: [mode; 3],
                mag_filter: mag,
                min_filter: mag,
                mip_filter: mip,
                max_anisotropy: 8,
                ..SamplerDesc::default()
            };
            for b in [bind(&tex, &desc), bind(&cube, &desc), bind(&vol, &desc)] {
                for &x in &bad {
                    for lod in lods {
                        let v = sample(&b, 0, [x, 0.3, x, 1.0], lod);
                        assert!(
                            v.iter().all(|c| (0.0..=1.0).contains(c)),
                            "{v:?} at {x} {mode:?}"
                        );
                    }
                }
            }
        }
    }
}
