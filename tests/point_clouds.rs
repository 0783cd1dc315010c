//! Vertex-processed point lists (fixed-function T&L, then the clip-space
//! front end, then points): Warp with 1 and 2 threads and with both SIMD
//! backends must equal the Reference bit for bit.
//!
//! Warp projects a point list's vertices and decides each point's pixel in
//! the vertex stage, chunk by chunk (`clip_space::VertexPass`,
//! `raster::point_word`); the Reference runs the same pass on its whole
//! buffer. These clouds are large enough for several vertex chunks and
//! several set-up parts, and they hold every kind of point: one-pixel and
//! larger, behind the eye and outside the guard band, cut by user clip
//! planes and the scissor, overlapping on one pixel (submission order),
//! NaN positions, and repeated indices. Point rows in raster order (as
//! S6's) make the runs of consecutive pixels that tiles gather in one step
//! (`raster::SPAN`), whole, cut by the scissor or a tile's half band, and
//! on pixels already taken.

// `% n == 0` is a coin flip, not maths to name.
#![allow(clippy::manual_is_multiple_of)]

use glam::{Mat4, Vec3};
use warp9::api::{STREAMSOURCE_INDEXEDDATA, STREAMSOURCE_INSTANCEDATA};
use warp9::state::{Blend, Cull, Light, LightType, Material, TransformType, ZBufferType};
use warp9::vertex::{DeclType, DeclUsage, VertexElement};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    RenderState, SimdChoice, Usage,
};

/// Target size: 2 x 2 tiles of 64, the right and bottom ones partial.
const W: u32 = 100;
const H: u32 = 72;

/// Points per draw: more than two vertex chunks (4096) and one set-up part (8192).
const POINTS: usize = 9000;

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() % 100_000) as f32 / 100_000.0
    }
}

fn device(driver: DriverType, threads: usize, simd: SimdChoice) -> Device {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (W, H, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        simd,
        ..DeviceDesc::default()
    })
    .expect("device");
    d.set_render_state(RenderState::CullMode(Cull::None));
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
        .unwrap();
    d
}

/// D3D's perspective (fov 90 degrees, z in 0.5..20), in the device's storage.
fn perspective() -> Mat4 {
    let (zn, zf) = (0.5, 20.0);
    let q = zf / (zf - zn);
    Mat4::from_cols_array_2d(&[
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, q, 1.0],
        [0.0, 0.0, -zn * q, 0.0],
    ])
}

/// One random cloud scene on `driver`; returns the colour pixels, then
/// the depth-stencil words.
fn scene(driver: DriverType, threads: usize, simd: SimdChoice, seed: u32) -> Vec<u32> {
    let mut r = Rng(seed);
    let mut d = device(driver, threads, simd);
    d.set_render_state(RenderState::Lighting(true));
    d.set_render_state(RenderState::SpecularEnable(true));
    d.set_render_state(RenderState::NormalizeNormals(true));
    d.set_render_state(RenderState::LocalViewer(r.next() % 2 == 0));
    d.set_render_state(RenderState::ZEnable(if r.next() % 2 == 0 {
        ZBufferType::True
    } else {
        ZBufferType::False
    }));
    let lights = [
        (LightType::Directional, Vec3::new(1.0, -1.0, 1.0)),
        (LightType::Point, Vec3::new(0.0, 2.0, -2.0)),
        (LightType::Directional, Vec3::new(-1.0, 0.5, -0.5)),
    ];
    for (i, (kind, v)) in lights.into_iter().enumerate() {
        let light = Light {
            light_type: kind,
            diffuse: [r.f(0.2, 1.0), r.f(0.2, 1.0), r.f(0.2, 1.0), 1.0],
            specular: [r.f(0.0, 1.0), r.f(0.0, 1.0), r.f(0.0, 1.0), 1.0],
            position: v,
            direction: v,
            range: 10.0,
            attenuation0: 1.0,
            attenuation1: 0.1,
            ..Light::default()
        };
        d.set_light(i as u32, &light).unwrap();
        d.light_enable(i as u32, true);
    }
    d.set_material(&Material {
        diffuse: [1.0, 1.0, 1.0, 1.0],
        ambient: [0.3, 0.3, 0.3, 1.0],
        specular: [1.0, 1.0, 1.0, 1.0],
        emissive: [0.0; 4],
        power: r.f(2.0, 20.0),
    });
    for draw in 0..4 {
        // Clip-space clouds (identity transforms, as scene S6) and
        // perspective ones (points behind the eye and past the far plane).
        let perspective_draw = r.next() % 2 == 0;
        let (world, view, proj) = if perspective_draw {
            (
                Mat4::from_rotation_y(r.f(0.0, 6.0)),
                Mat4::from_translation(Vec3::new(0.0, 0.0, 3.0)),
                perspective(),
            )
        } else {
            (Mat4::IDENTITY, Mat4::IDENTITY, Mat4::IDENTITY)
        };
        d.set_transform(TransformType::World(0), &world).unwrap();
        d.set_transform(TransformType::View, &view).unwrap();
        d.set_transform(TransformType::Projection, &proj).unwrap();
        // Mostly one-pixel points; sometimes sizes that cover 0 or several
        // pixels, from the render state or per vertex.
        let per_vertex_size = r.next() % 4 == 0;
        let size = [1.0, 1.0, 0.6, 2.5][r.next() as usize % 4];
        d.set_render_state(RenderState::PointSize(size));
        let scissor = r.next() % 3 == 0;
        d.set_render_state(RenderState::ScissorTestEnable(scissor));
        if scissor {
            d.set_scissor_rect(&warp9::state::Rect::new(7, 5, 81, 60))
                .unwrap();
        }
        let plane = r.next() % 3 == 0;
        d.set_render_state(RenderState::ClipPlaneEnable(u32::from(plane)));
        d.set_clip_plane(0, [0.3, 1.0, 0.0, 0.2]).unwrap();
        // Point sprites: every point gets the general set-up, not the
        // compact one-pixel form.
        d.set_render_state(RenderState::PointSpriteEnable(r.next() % 4 == 0));
        let mut fvf = Fvf::XYZ | Fvf::NORMAL | Fvf::DIFFUSE;
        if per_vertex_size {
            fvf |= Fvf::PSIZE;
        }
        d.set_fvf(fvf).unwrap();
        let mut bytes = Vec::new();
        for i in 0..POINTS {
            // Pixel centres of the clip-space grid (as S6), or anywhere.
            let (x, y, z) = if !perspective_draw && i % 3 != 0 {
                let px = (r.next() % (W + 8)) as f32 - 4.0;
                let py = (r.next() % (H + 8)) as f32 - 4.0;
                (
                    (px + 0.5) / W as f32 * 2.0 - 1.0,
                    1.0 - (py + 0.5) / H as f32 * 2.0,
                    r.f(-0.1, 1.1),
                )
            } else {
                (r.f(-1.3, 1.3), r.f(-1.3, 1.3), r.f(-1.0, 1.2))
            };
            let x = if r.next() % 997 == 0 { f32::NAN } else { x };
            for f in [x, y, z] {
                bytes.extend_from_slice(&f.to_le_bytes());
            }
            for _ in 0..3 {
                bytes.extend_from_slice(&r.f(-1.0, 1.0).to_le_bytes());
            }
            if per_vertex_size {
                let s = [1.0f32, 1.0, 0.5, 3.0][r.next() as usize % 4];
                bytes.extend_from_slice(&s.to_le_bytes());
            }
            bytes.extend_from_slice(&(r.next() | 0xFF00_0000).to_le_bytes());
        }
        let stride = if per_vertex_size { 32 } else { 28 };
        if draw == 3 {
            instanced_draw(&mut d, &mut r, &bytes, stride);
        } else if draw == 1 {
            // Indexed, with repeats: a point drawn twice, and unused vertices.
            let indices: Vec<u8> = (0..POINTS)
                .map(|_| (r.next() % POINTS as u32) as u16)
                .flat_map(u16::to_le_bytes)
                .collect();
            d.draw_indexed_primitive_up(
                PrimitiveType::PointList,
                0,
                POINTS as u32,
                POINTS as u32,
                &indices,
                Format::Index16,
                &bytes,
                stride,
            )
            .unwrap();
        } else {
            d.draw_primitive_up(PrimitiveType::PointList, POINTS as u32, &bytes, stride)
                .unwrap();
        }
    }
    let mut out = d.read_surface_argb(&d.back_buffer()).unwrap();
    let ds = d.get_depth_stencil_surface().expect("depth").read_bytes();
    out.extend(
        ds.chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    );
    out
}

/// `bytes` (`stride` per vertex: position, normal, [size,] colour) drawn
/// as 3 instances of an indexed point list: stream 0 the positions and
/// normals, indexed; stream 1 one colour per instance. The instances'
/// points overlap, so their submission order shows.
fn instanced_draw(d: &mut Device, r: &mut Rng, bytes: &[u8], stride: u32) {
    let elements = [
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, DeclUsage::Normal, 0),
        VertexElement::new(1, 0, DeclType::D3dColor, DeclUsage::Color, 0),
    ];
    let decl = d.create_vertex_declaration(&elements).unwrap();
    d.set_vertex_declaration(Some(&decl));
    let vb = d
        .create_vertex_buffer(
            bytes.len() as u32,
            Usage::WRITE_ONLY,
            Fvf::empty(),
            Pool::Managed,
        )
        .unwrap();
    vb.write(0, bytes).unwrap();
    let colours: Vec<u8> = (0..3)
        .flat_map(|_| (r.next() | 0xFF00_0000).to_le_bytes())
        .collect();
    let cb = d
        .create_vertex_buffer(12, Usage::WRITE_ONLY, Fvf::empty(), Pool::Managed)
        .unwrap();
    cb.write(0, &colours).unwrap();
    // Repeats and unused vertices, in a narrow range (the dense map).
    let indices: Vec<u8> = (0..POINTS)
        .map(|_| (r.next() % (POINTS as u32 / 2)) as u16)
        .flat_map(u16::to_le_bytes)
        .collect();
    let ib = d
        .create_index_buffer(
            indices.len() as u32,
            Usage::WRITE_ONLY,
            Format::Index16,
            Pool::Managed,
        )
        .unwrap();
    ib.write(0, &indices).unwrap();
    d.set_stream_source(0, Some(&vb), 0, stride).unwrap();
    d.set_stream_source(1, Some(&cb), 0, 4).unwrap();
    d.set_stream_source_freq(0, STREAMSOURCE_INDEXEDDATA | 3)
        .unwrap();
    d.set_stream_source_freq(1, STREAMSOURCE_INSTANCEDATA | 1)
        .unwrap();
    d.set_indices(Some(&ib)).unwrap();
    d.draw_indexed_primitive(
        PrimitiveType::PointList,
        0,
        0,
        POINTS as u32,
        0,
        POINTS as u32,
    )
    .unwrap();
    d.set_stream_source_freq(0, 1).unwrap();
    d.set_stream_source_freq(1, 1).unwrap();
}

/// A Warp scene function's output under each of `runs` (threads, SIMD
/// backend) for `seed`; asserts each equals `want`, the Reference's.
fn assert_warp_equals(
    want: &[u32],
    runs: &[(usize, SimdChoice)],
    seed: u32,
    scene: fn(DriverType, usize, SimdChoice, u32) -> Vec<u32>,
) {
    for &(threads, simd) in runs {
        let got = scene(DriverType::Warp, threads, simd, seed);
        let first = got.iter().zip(want).position(|(a, b)| a != b);
        assert!(
            first.is_none(),
            "seed {seed}, {threads} threads, {simd:?}: first difference at {first:?}"
        );
    }
}

#[test]
fn point_clouds_equal_reference() {
    let runs = [
        (1, SimdChoice::Auto),
        (2, SimdChoice::Auto),
        (2, SimdChoice::Portable),
    ];
    for seed in [0x9E37_79B9u32, 77, 4242, 31337, 0xDEAD_BEEF, 12] {
        let want = scene(DriverType::Reference, 1, SimdChoice::Auto, seed);
        let drawn = want[..(W * H) as usize]
            .iter()
            .filter(|&&p| p & 0xFF_FFFF != 0)
            .count();
        assert!(
            drawn > (W * H) as usize / 4,
            "seed {seed}: only {drawn} pixels drawn"
        );
        assert_warp_equals(&want, &runs, seed, scene);
    }
}

/// Rows of one-pixel points in raster order (as scene S6 lays them out),
/// each row starting at a random column (some off the target's left
/// edge), some rows drawn twice in a row (every pixel then taken once in
/// the tile's batch) and a few stray points between them, alpha-blended
/// so that each pixel's submission order shows; one draw scissored so
/// that runs are cut. Returns the colour pixels.
fn point_rows(driver: DriverType, threads: usize, simd: SimdChoice, seed: u32) -> Vec<u32> {
    let mut r = Rng(seed);
    let mut d = device(driver, threads, simd);
    d.set_render_state(RenderState::Lighting(false));
    d.set_render_state(RenderState::ZEnable(ZBufferType::False));
    d.set_render_state(RenderState::AlphaBlendEnable(true));
    d.set_render_state(RenderState::SrcBlend(Blend::SrcAlpha));
    d.set_render_state(RenderState::DestBlend(Blend::InvSrcAlpha));
    d.set_fvf(Fvf::XYZ | Fvf::DIFFUSE).unwrap();
    for draw in 0..3 {
        let scissor = draw == 1;
        d.set_render_state(RenderState::ScissorTestEnable(scissor));
        if scissor {
            d.set_scissor_rect(&warp9::state::Rect::new(13, 3, 70, 61))
                .unwrap();
        }
        let mut bytes = Vec::new();
        let point = |bytes: &mut Vec<u8>, r: &mut Rng, px: i32, py: i32| {
            let x = (px as f32 + 0.5) / W as f32 * 2.0 - 1.0;
            let y = 1.0 - (py as f32 + 0.5) / H as f32 * 2.0;
            for f in [x, y, 0.5] {
                bytes.extend_from_slice(&f.to_le_bytes());
            }
            bytes.extend_from_slice(&r.next().to_le_bytes());
        };
        for py in 0..H as i32 {
            let start = (r.next() % 12) as i32 - 3;
            let copies = if r.next() % 4 == 0 { 2 } else { 1 };
            for _ in 0..copies {
                for px in start..W as i32 {
                    point(&mut bytes, &mut r, px, py);
                }
            }
            if r.next() % 3 == 0 {
                let (px, py) = ((r.next() % W) as i32, (r.next() % H) as i32);
                point(&mut bytes, &mut r, px, py);
            }
        }
        let count = (bytes.len() / 16) as u32;
        d.draw_primitive_up(PrimitiveType::PointList, count, &bytes, 16)
            .unwrap();
    }
    d.read_surface_argb(&d.back_buffer()).unwrap()
}

#[test]
fn point_rows_equal_reference() {
    // 3 workers: the 2 tile rows split into half bands.
    let runs = [
        (1, SimdChoice::Auto),
        (2, SimdChoice::Auto),
        (3, SimdChoice::Portable),
    ];
    for seed in [5u32, 0xC0FF_EE11] {
        let want = point_rows(DriverType::Reference, 1, SimdChoice::Auto, seed);
        let drawn = want.iter().filter(|&&p| p & 0xFF_FFFF != 0).count();
        assert!(drawn > (W * H) as usize * 9 / 10, "seed {seed}: {drawn}");
        assert_warp_equals(&want, &runs, seed, point_rows);
    }
}
