//! The viewport rules of rasterization.md 3 and 4.4, as Windows drivers
//! behave (Wine `test_viewport`, `z_range_test`, `depth_clamp_test`):
//!
//! - a viewport larger than render target 0, or reaching past its edge, is
//!   accepted; its transform is used as given and drawing and Clear are
//!   limited to viewport ∩ render target;
//! - the depth range is never empty or reversed: MaxZ' = max(MaxZ, MinZ +
//!   0.001), while `GetViewport` returns MaxZ as set;
//! - depth outside [0, 1] is clipped or clamped to [MinZ, MaxZ'] by
//!   vertex-processing mode, D3DRS_CLIPPING and D3DPMISCCAPS_CLIPTLVERTS.
//!
//! Every expectation is computed by hand from those rules, and every case
//! runs on Reference and on Warp with one and two threads and the portable
//! backend.

use warp9::state::{CmpFunc, Cull, Viewport};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, PrimitiveType,
    RenderState, SimdChoice, VertexProcessing,
};

const W: u32 = 640;
const H: u32 = 480;
const CLEAR: u32 = 0xFF00_0000;
const GREEN: u32 = 0xFF00_FF00;

/// Every driver configuration a case runs on.
const RUNS: [(DriverType, usize, SimdChoice); 4] = [
    (DriverType::Reference, 1, SimdChoice::Auto),
    (DriverType::Warp, 1, SimdChoice::Auto),
    (DriverType::Warp, 2, SimdChoice::Auto),
    (DriverType::Warp, 1, SimdChoice::Portable),
];

/// A 640x480 A8R8G8B8 device with D24S8, lighting and culling off, depth
/// writes on with ALWAYS, colour cleared to black and depth to 1.
fn device(
    (driver, threads, simd): (DriverType, usize, SimdChoice),
    level: FeatureLevel,
    vp: VertexProcessing,
) -> Device {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[level],
        vertex_processing: vp,
        back_buffer: (W, H, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        simd,
        ..DeviceDesc::default()
    })
    .expect("device");
    d.set_render_state(RenderState::Lighting(false));
    d.set_render_state(RenderState::CullMode(Cull::None));
    d.set_render_state(RenderState::ZFunc(CmpFunc::Always));
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, CLEAR, 1.0, 0)
        .unwrap();
    d
}

/// Draws the rectangle `(x0, y0)..(x1, y1)` at depth `z` as a two-triangle
/// strip of untransformed (`XYZ`, w = 1) or pre-transformed (`XYZRHW`,
/// rhw = 1) vertices, diffuse `color`.
fn quad(d: &mut Device, pretransformed: bool, [x0, y0, x1, y1]: [f32; 4], z: f32, color: u32) {
    let mut bytes = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
        let mut floats = vec![x, y, z];
        if pretransformed {
            floats.push(1.0);
        }
        for f in floats {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
        bytes.extend_from_slice(&color.to_le_bytes());
    }
    let fvf = if pretransformed {
        Fvf::XYZRHW | Fvf::DIFFUSE
    } else {
        Fvf::XYZ | Fvf::DIFFUSE
    };
    d.set_fvf(fvf).unwrap();
    let stride = bytes.len() as u32 / 4;
    d.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &bytes, stride)
        .unwrap();
}

fn pixels(d: &Device) -> Vec<u32> {
    d.read_surface_argb(&d.back_buffer()).unwrap()
}

/// The 24-bit depth fields of the D24S8 buffer, row by row.
fn depths(d: &Device) -> Vec<u32> {
    d.get_depth_stencil_surface()
        .unwrap()
        .read_bytes()
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) >> 8)
        .collect()
}

/// Asserts that the pixels inside `[left, top, right, bottom)` are `inside`
/// and all others `outside`, naming the first wrong pixel.
#[track_caller]
fn assert_rect(what: &str, got: &[u32], [l, t, r, b]: [u32; 4], inside: u32, outside: u32) {
    for y in 0..H {
        for x in 0..W {
            let want = if (l..r).contains(&x) && (t..b).contains(&y) {
                inside
            } else {
                outside
            };
            let g = got[(y * W + x) as usize];
            assert_eq!(
                g, want,
                "{what}: pixel ({x}, {y}) is {g:#010x}, not {want:#010x}"
            );
        }
    }
}

fn viewport(x: u32, y: u32, width: u32, height: u32, min_z: f32, max_z: f32) -> Viewport {
    Viewport {
        x,
        y,
        width,
        height,
        min_z,
        max_z,
    }
}

/// A 1280x960 viewport on the 640x480 target: x_s = (1 + x) * 640 and
/// y_s = (1 - y) * 480, so the quad (-0.5, 0.25)..(0.5, 0.75) covers screen
/// x in [320, 960) and y in [120, 360) (pixel centres on integers, top-left
/// rule). The target shows [320, 640) x [120, 360) of it.
#[test]
fn a_viewport_larger_than_the_target_draws_its_part_of_the_image() {
    for run in RUNS {
        let mut d = device(run, FeatureLevel::L9_1, VertexProcessing::Hardware);
        let vp = viewport(0, 0, 1280, 960, 0.0, 1.0);
        d.set_viewport(&vp).expect("a 1280x960 viewport on 640x480");
        assert_eq!(d.get_viewport().unwrap(), vp);
        quad(&mut d, false, [-0.5, 0.25, 0.5, 0.75], 0.5, GREEN);
        assert_rect(
            &format!("{run:?}"),
            &pixels(&d),
            [320, 120, 640, 360],
            GREEN,
            CLEAR,
        );
    }
}

/// Viewports reaching past the target's edge (Wine's (100,100)+640x480 and
/// 8192x8192): the full-viewport quad covers viewport ∩ target, and a
/// Clear without rectangles clears the same part.
#[test]
fn a_viewport_reaching_past_the_edge_limits_drawing_and_clear() {
    let cases = [
        (viewport(100, 100, W, H, 0.0, 1.0), [100, 100, W, H]),
        (viewport(0, 0, 8192, 8192, 0.0, 1.0), [0, 0, W, H]),
        (viewport(600, 0, 1000, 40, 0.0, 1.0), [600, 0, W, 40]),
    ];
    for run in RUNS {
        for (vp, expect) in cases {
            let what = format!("{run:?} {vp:?}");
            let mut d = device(run, FeatureLevel::L9_1, VertexProcessing::Hardware);
            d.set_viewport(&vp).expect(&what);
            quad(&mut d, false, [-1.0, -1.0, 1.0, 1.0], 0.5, GREEN);
            assert_rect(&what, &pixels(&d), expect, GREEN, CLEAR);
            d.clear(&[], ClearFlags::TARGET, 0xFF11_2233, 1.0, 0)
                .unwrap();
            assert_rect(
                &format!("{what} clear"),
                &pixels(&d),
                expect,
                0xFF11_2233,
                CLEAR,
            );
        }
    }
}

/// A viewport wholly off the target is accepted and draws nothing; an
/// empty one and depths outside [0, 1] are still refused.
#[test]
fn off_target_viewports_draw_nothing_and_bad_ones_are_refused() {
    for run in RUNS {
        let mut d = device(run, FeatureLevel::L9_1, VertexProcessing::Hardware);
        d.set_viewport(&viewport(700, 500, 100, 100, 0.0, 1.0))
            .unwrap();
        quad(&mut d, false, [-1.0, -1.0, 1.0, 1.0], 0.5, GREEN);
        assert!(pixels(&d).iter().all(|&p| p == CLEAR), "{run:?}");
        let set = viewport(700, 500, 100, 100, 0.0, 1.0);
        for bad in [
            viewport(0, 0, 0, 10, 0.0, 1.0),
            viewport(0, 0, 10, 0, 0.0, 1.0),
            viewport(0, 0, 10, 10, -0.5, 1.0),
            viewport(0, 0, 10, 10, 0.0, 1.5),
            viewport(0, 0, 10, 10, f32::NAN, 1.0),
        ] {
            assert!(d.set_viewport(&bad).is_err(), "{bad:?} accepted");
            assert_eq!(
                d.get_viewport().unwrap(),
                set,
                "a refused viewport changed it"
            );
        }
    }
}

/// The effective MaxZ is max(MaxZ, MinZ + 0.001) in float32, and D24
/// stores round(d * (2^24 - 1)). z = 0.5 and z = 1 (w = 1):
/// - {MinZ 0, MaxZ 0}: MaxZ' = 0.001 (float32 0.0010000000475); depths
///   0.0005 -> 8388.61 -> 8389 and 0.001 -> 16777.2 -> 16777;
/// - {MinZ 0.5, MaxZ 0}: 0.5 + 0.001 rounds to float32 0.50099998713, so
///   MaxZ' - MinZ = 0.00099998713; z = 0.5 gives 0.5 + 0.00049999356,
///   which rounds to 0.50049996376 -> 8396994.9 -> 8396995; z = 1 gives
///   0.50099998713 -> 8405383.9 -> 8405384;
/// - {MinZ 0.25, MaxZ 0.75} (a normal range, unchanged): 0.5 -> 8388607.5
///   -> 8388608 and 0.75 -> 12582911.25 -> 12582911.
#[test]
fn an_empty_or_reversed_depth_range_is_widened_to_a_thousandth() {
    let cases = [
        ((0.0, 0.0), [8389, 16777]),
        ((0.5, 0.0), [8396995, 8405384]),
        ((0.25, 0.75), [8388608, 12582911]),
    ];
    for run in RUNS {
        for ((min_z, max_z), [half, full]) in cases {
            let what = format!("{run:?} MinZ {min_z} MaxZ {max_z}");
            let mut d = device(run, FeatureLevel::L9_1, VertexProcessing::Hardware);
            let vp = viewport(0, 0, W, H, min_z, max_z);
            d.set_viewport(&vp).unwrap();
            assert_eq!(
                d.get_viewport().unwrap(),
                vp,
                "GetViewport returns it as set"
            );
            // Left half at z = 0.5, right half at z = 1.
            quad(&mut d, false, [-1.0, -1.0, 0.0, 1.0], 0.5, GREEN);
            quad(&mut d, false, [0.0, -1.0, 1.0, 1.0], 1.0, GREEN);
            let z = depths(&d);
            assert_eq!(z[(240 * W + 100) as usize], half, "{what}: z = 0.5");
            assert_eq!(z[(240 * W + 500) as usize], full, "{what}: z = 1");
            assert!(pixels(&d).iter().all(|&p| p == GREEN), "{what}: all drawn");
        }
    }
}

/// What a quad at `z` outside [0, 1] leaves: None when clipped (nothing
/// drawn), else the depth field written.
fn out_of_range(
    run: (DriverType, usize, SimdChoice),
    level: FeatureLevel,
    vp: VertexProcessing,
    clipping: bool,
    pretransformed: bool,
    z: f32,
) -> Option<u32> {
    let mut d = device(run, level, vp);
    d.set_viewport(&viewport(0, 0, W, H, 0.25, 0.75)).unwrap();
    d.set_render_state(RenderState::Clipping(clipping));
    let rect = if pretransformed {
        [0.0, 0.0, W as f32, H as f32]
    } else {
        [-1.0, -1.0, 1.0, 1.0]
    };
    quad(&mut d, pretransformed, rect, z, GREEN);
    let px = pixels(&d);
    let z = depths(&d);
    let drawn = px[(240 * W + 320) as usize] == GREEN;
    assert!(
        px.iter().all(|&p| p == px[0]),
        "{run:?}: the quad is drawn whole or not at all"
    );
    drawn.then(|| z[(240 * W + 320) as usize])
}

/// Rasterization.md 4.4 line by line, with the viewport's depth range
/// {0.25, 0.75}: clamping lands on 0.25 (4194304 = round(0.25 * (2^24 -
/// 1)) = 4194303.75 -> 4194304) or 0.75 (12582911.25 -> 12582911).
/// Untransformed z/w = 1.5 maps to 0.25 + 1.5 * 0.5 = 1.0 before the clamp.
#[test]
fn depth_outside_the_unit_range_is_clipped_or_clamped_by_mode() {
    use FeatureLevel::{L9_3, Sm3};
    use VertexProcessing::{Hardware, Software};
    const LOW: Option<u32> = Some(4194304);
    const HIGH: Option<u32> = Some(12582911);
    // (level, processing, D3DRS_CLIPPING, pre-transformed, z, result)
    let rows = [
        // Hardware: pre-transformed clamped without CLIPTLVERTS (9_3) ...
        (L9_3, Hardware, true, true, 1.5, HIGH),
        (L9_3, Hardware, true, true, -0.5, LOW),
        (L9_3, Hardware, false, true, 1.5, HIGH),
        // ... and clipped with it (sm3), whatever D3DRS_CLIPPING says.
        (Sm3, Hardware, true, true, 1.5, None),
        (Sm3, Hardware, false, true, -0.5, None),
        // Hardware: untransformed always clipped.
        (L9_3, Hardware, false, false, 1.5, None),
        (Sm3, Hardware, false, false, -0.5, None),
        // Software: D3DRS_CLIPPING decides, for both kinds of input and
        // whatever the caps say.
        (L9_3, Software, true, true, 1.5, None),
        (Sm3, Software, false, true, 1.5, HIGH),
        (Sm3, Software, false, true, -0.5, LOW),
        (L9_3, Software, true, false, 1.5, None),
        (L9_3, Software, false, false, 1.5, HIGH),
        (Sm3, Software, false, false, -0.5, LOW),
        (Sm3, Software, true, false, -0.5, None),
    ];
    for run in RUNS {
        for (level, vp, clipping, pre, z, want) in rows {
            let got = out_of_range(run, level, vp, clipping, pre, z);
            assert_eq!(
                got, want,
                "{run:?} {level} {vp:?} clipping {clipping} pre-transformed {pre} z {z}"
            );
        }
    }
}

/// A mixed device follows the mode it is switched to.
#[test]
fn a_mixed_device_clamps_only_while_processing_in_software() {
    for run in RUNS {
        let mut d = device(run, FeatureLevel::L9_3, VertexProcessing::Mixed);
        d.set_render_state(RenderState::Clipping(false));
        quad(&mut d, false, [-1.0, -1.0, 1.0, 1.0], 1.5, GREEN);
        assert!(
            pixels(&d).iter().all(|&p| p == CLEAR),
            "{run:?}: hardware clips"
        );
        d.set_software_vertex_processing(true).unwrap();
        quad(&mut d, false, [-1.0, -1.0, 1.0, 1.0], 1.5, GREEN);
        assert!(
            pixels(&d).iter().all(|&p| p == GREEN),
            "{run:?}: software clamps"
        );
        assert_eq!(depths(&d)[0], 16777215, "{run:?}: clamped to MaxZ 1");
    }
}
