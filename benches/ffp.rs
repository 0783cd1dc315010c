//! S6 (and the vertex part of S5) of shared bench/SCENES.md through the
//! fixed-function vertex stage. S6:
//! 1,048,576 point vertices (position + normal), 8 lights (the S5 lights and
//! their negations: 6 directional, 2 point), specular on, local viewer,
//! NORMALIZENORMALS on, identity transforms — fetch + transform + lighting
//! + point size, 8 vertices at a time. Figure: vertices per second.
//!
//! S5: the 257 x 193 torus vertices (position, normal, uv) with the S5
//! camera, 4 lights, specular, texture coordinates for stage 0 — each
//! vertex once, as an indexed draw's post-transform cache would.
//!
//! `cargo bench --bench ffp` (criterion reports time per frame and the
//! throughput in elements/s; a CPU-time figure is printed first because
//! the machine is shared).

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Vec3, Vec4};
use rayon::prelude::*;
use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::*;
use warp9::internals::simd::Backend;
use warp9::state::{Color, Light, LightType, Material, RenderState, TransformType};
use warp9::vertex::{DeclType, DeclUsage, FetchStreams, StreamInput, VertexElement};

const SIDE: u32 = 1024;

/// SCENES.md generator: xorshift32 from 0x9E3779B9, value / 2^32 as f32 below 1.
struct Gen(u32);
impl Gen {
    fn next(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        ((x as f64) / 4_294_967_296.0).min(f64::from(1.0f32 - f32::EPSILON / 2.0)) as f32
    }
}

fn s6_vertices() -> Vec<u8> {
    let mut g = Gen(0x9E37_79B9);
    let mut v = Vec::with_capacity((SIDE * SIDE * 24) as usize);
    for py in 0..SIDE {
        for px in 0..SIDE {
            let x = (px as f32 + 0.5) / SIDE as f32 * 2.0 - 1.0;
            let y = 1.0 - (py as f32 + 0.5) / SIDE as f32 * 2.0;
            let n = Vec3::new(
                2.0 * g.next() - 1.0,
                2.0 * g.next() - 1.0,
                2.0 * g.next() - 1.0,
            )
            .normalize_or_zero();
            for f in [x, y, 0.5, n.x, n.y, n.z] {
                v.extend(f.to_le_bytes());
            }
        }
    }
    v
}

fn s6_state() -> FfpState {
    let mut s = FfpState::default();
    s.viewport.height = SIDE;
    s.set_render(RenderState::SpecularEnable(true));
    s.set_render(RenderState::NormalizeNormals(true));
    s.set_render(RenderState::Ambient(Color(0xFF1A_1A1A)));
    s.material = Material {
        diffuse: [1.0; 4],
        ambient: [1.0; 4],
        specular: [1.0, 1.0, 1.0, 1.0],
        emissive: [0.0; 4],
        power: 16.0,
    };
    let dir = |d: Vec3, c: [f32; 3]| Light {
        light_type: LightType::Directional,
        direction: d,
        diffuse: [c[0], c[1], c[2], 1.0],
        specular: [c[0], c[1], c[2], 1.0],
        ambient: [0.0; 4],
        ..Light::default()
    };
    let point = |p: Vec3| Light {
        light_type: LightType::Point,
        position: p,
        diffuse: [1.0, 0.9, 0.8, 1.0],
        specular: [1.0, 0.9, 0.8, 1.0],
        ambient: [0.0; 4],
        range: 10.0,
        attenuation0: 1.0,
        attenuation1: 0.1,
        ..Light::default()
    };
    let base = [
        (Vec3::new(1.0, -1.0, 1.0), [0.8, 0.8, 0.8]),
        (Vec3::new(-1.0, -0.5, 0.5), [0.3, 0.3, 0.5]),
        (Vec3::new(0.0, -1.0, 0.0), [0.2, 0.2, 0.2]),
    ];
    for (d, c) in base {
        s.lights.push(dir(d, c));
    }
    s.lights.push(point(Vec3::new(0.0, 2.0, -2.0)));
    for (d, c) in base {
        s.lights.push(dir(-d, c));
    }
    s.lights.push(point(Vec3::new(0.0, -2.0, 2.0)));
    s
}

/// This thread's CPU time in seconds (Linux `/proc/thread-self/stat`, clock ticks of 10 ms).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name: utime and stime are 14 and 15 (1-based).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn bench_s6(c: &mut Criterion) {
    let state = s6_state();
    let els = [
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, DeclUsage::Normal, 0),
    ];
    let (layout, plan) = FfpInputLayout::new(&els);
    let opts = DrawOptions {
        points: true,
        tex_stages: 0,
        max_lights: u32::MAX,
    };
    let key = FfpVertexKey::new(&state, &layout, opts);
    let mut cache = FfpVertexCache::default();
    let program = cache.get(&key);
    let consts = FfpVertexConsts::new(&state, &key);
    let mut streams: [Option<StreamInput>; 16] = Default::default();
    streams[0] = Some(StreamInput {
        data: Arc::new(s6_vertices()),
        offset: 0,
        stride: 24,
        freq: 1,
    });
    let streams = FetchStreams::new(streams, false);
    let vertices: Vec<u32> = (0..SIDE * SIDE).collect();
    let job = VertexJob {
        program: &program,
        consts: &consts,
        streams: &streams,
        plan: &plan,
        instance: 0,
    };

    // A load-independent figure as well: the machine is shared, so wall time
    // per frame varies with other work; CPU time of this thread does not.
    let mut out = VertexBatches::default();
    let backend = Backend::new(true);
    let t0 = thread_cpu_seconds();
    let frames = 12;
    for _ in 0..frames {
        process_vertices(backend, job, &vertices, &mut out);
    }
    if let (Some(a), Some(b)) = (t0, thread_cpu_seconds()) {
        let mv = f64::from(frames * SIDE * SIDE) / (b - a) / 1e6;
        eprintln!(
            "S6 vertex stage ({}): {mv:.1} Mvertices per CPU-second (1 thread)",
            backend.name()
        );
    }

    let mut g = c.benchmark_group("S6_tnl_vertex_stage");
    g.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    g.sample_size(20);
    g.measurement_time(std::time::Duration::from_secs(6));
    for (name, backend) in [
        ("avx2_1thread", Backend::new(true)),
        ("portable_1thread", Backend::Portable),
    ] {
        if name.starts_with("avx2") && backend == Backend::Portable {
            continue;
        }
        g.bench_function(name, |b| {
            b.iter(|| process_vertices(backend, job, &vertices, &mut out))
        });
    }
    // All cores: chunks of 64K vertices, each into its own output.
    let backend = Backend::new(true);
    let mut outs: Vec<VertexBatches> =
        vec![VertexBatches::default(); vertices.len().div_ceil(1 << 16)];
    g.bench_function(format!("{}_all_threads", backend.name()), |b| {
        b.iter(|| {
            outs.par_iter_mut()
                .zip(vertices.par_chunks(1 << 16))
                .for_each(|(o, v)| process_vertices(backend, job, v, o))
        })
    });
    g.finish();

    // The same vertices without lighting: the fixed cost of fetch, transform and store.
    let mut unlit = state.clone();
    unlit.set_render(RenderState::Lighting(false));
    let key = FfpVertexKey::new(&unlit, &layout, opts);
    let program = cache.get(&key);
    let consts = FfpVertexConsts::new(&unlit, &key);
    let job = VertexJob {
        program: &program,
        consts: &consts,
        streams: &streams,
        plan: &plan,
        instance: 0,
    };
    let mut g = c.benchmark_group("S6_unlit_vertex_stage");
    g.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    g.sample_size(20);
    let backend = Backend::new(true);
    g.bench_function(format!("{}_1thread", backend.name()), |b| {
        b.iter(|| process_vertices(backend, job, &vertices, &mut out))
    });
    g.finish();
}

/// D3DX-style left-handed look-at, in the crate's glam storage (columns = D3D rows).
fn look_at_lh(eye: Vec3, at: Vec3, up: Vec3) -> Mat4 {
    let z = (at - eye).normalize();
    let x = up.cross(z).normalize();
    let y = z.cross(x);
    Mat4::from_cols(
        Vec4::new(x.x, y.x, z.x, 0.0),
        Vec4::new(x.y, y.y, z.y, 0.0),
        Vec4::new(x.z, y.z, z.z, 0.0),
        Vec4::new(-x.dot(eye), -y.dot(eye), -z.dot(eye), 1.0),
    )
}

/// D3DX-style left-handed perspective (depth 0..1), in the crate's glam storage.
fn perspective_lh(fov_y: f32, aspect: f32, zn: f32, zf: f32) -> Mat4 {
    let ys = 1.0 / (fov_y / 2.0).tan();
    let xs = ys / aspect;
    Mat4::from_cols(
        Vec4::new(xs, 0.0, 0.0, 0.0),
        Vec4::new(0.0, ys, 0.0, 0.0),
        Vec4::new(0.0, 0.0, zf / (zf - zn), 1.0),
        Vec4::new(0.0, 0.0, -zn * zf / (zf - zn), 0.0),
    )
}

fn bench_s5(c: &mut Criterion) {
    let mut state = s6_state();
    state.lights.truncate(4);
    state.viewport.height = 1080;
    state.set_render(RenderState::NormalizeNormals(false));
    state.set_transform(
        TransformType::View,
        look_at_lh(Vec3::new(0.0, 1.5, -3.5), Vec3::ZERO, Vec3::Y),
    );
    state.set_transform(
        TransformType::Projection,
        perspective_lh(std::f32::consts::FRAC_PI_3, 1920.0 / 1080.0, 0.1, 100.0),
    );
    let (nu, nv) = (256u32, 192u32);
    let mut data = Vec::new();
    for j in 0..=nv {
        for i in 0..=nu {
            let (u, v) = (i as f32 / nu as f32, j as f32 / nv as f32);
            let (t, p) = (u * std::f32::consts::TAU, v * std::f32::consts::TAU);
            let n = Vec3::new(p.cos() * t.cos(), p.sin(), p.cos() * t.sin());
            let pos = Vec3::new(t.cos(), 0.0, t.sin()) + 0.4 * n;
            for f in [pos.x, pos.y, pos.z, n.x, n.y, n.z, u, v] {
                data.extend(f.to_le_bytes());
            }
        }
    }
    let els = [
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, DeclUsage::Normal, 0),
        VertexElement::new(0, 24, DeclType::Float2, DeclUsage::TexCoord, 0),
    ];
    let (layout, plan) = FfpInputLayout::new(&els);
    let opts = DrawOptions {
        points: false,
        tex_stages: 1,
        max_lights: u32::MAX,
    };
    let key = FfpVertexKey::new(&state, &layout, opts);
    let program = FfpVertexProgram::new(key.clone());
    let consts = FfpVertexConsts::new(&state, &key);
    let n = (nu + 1) * (nv + 1);
    let mut streams: [Option<StreamInput>; 16] = Default::default();
    streams[0] = Some(StreamInput {
        data: Arc::new(data),
        offset: 0,
        stride: 32,
        freq: 1,
    });
    let streams = FetchStreams::new(streams, true);
    let vertices: Vec<u32> = (0..n).collect();
    let job = VertexJob {
        program: &program,
        consts: &consts,
        streams: &streams,
        plan: &plan,
        instance: 0,
    };
    let mut out = VertexBatches::default();
    let backend = Backend::new(true);
    let t0 = thread_cpu_seconds();
    let frames = 200;
    for _ in 0..frames {
        process_vertices(backend, job, &vertices, &mut out);
    }
    if let (Some(a), Some(b)) = (t0, thread_cpu_seconds()) {
        let mv = f64::from(frames * n) / (b - a) / 1e6;
        eprintln!(
            "S5 vertex stage ({}): {mv:.1} Mvertices per CPU-second (1 thread)",
            backend.name()
        );
    }
    let mut g = c.benchmark_group("S5_torus_vertex_stage");
    g.throughput(Throughput::Elements(u64::from(n)));
    g.bench_function(format!("{}_1thread", backend.name()), |b| {
        b.iter(|| process_vertices(backend, job, &vertices, &mut out))
    });
    g.finish();
}

criterion_group!(benches, bench_s6, bench_s5);
criterion_main!(benches);
