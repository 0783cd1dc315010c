//! What a draw call and a state change cost on their own (ns a call), the
//! per-draw overheads S7 multiplies by 4,096: an empty draw (one
//! zero-area triangle: every stage runs, no pixel is drawn), a one-triangle
//! draw of 8 pixels, and the state changes a D3D9 frame makes between
//! draws. Warp driver, the machine's thread count, S7's shaders.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Mat4;
use warp9::state::{Blend, TransformType};
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    RenderState, SamplerState, Texture, Usage,
};

const VS: &str = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\n\
    dp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\n\
    mov oT0.xy, v1\n";
const PS: &str = "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul oC0, r0, c0\n";

/// A 256x256 Warp device with S7's shaders, a texture and two triangles
/// in a vertex buffer: 0 has zero area, 1 covers 8 pixels near the origin.
fn setup() -> (Device, [Texture; 2]) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (256, 256, Format::X8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        ..DeviceDesc::default()
    })
    .expect("device");
    let asm = |s: &str| warp9::shader::assemble(s).expect("assemble");
    let vs = d.create_vertex_shader(&asm(VS)).expect("vs");
    let ps = d.create_pixel_shader(&asm(PS)).expect("ps");
    d.set_vertex_shader(Some(&vs));
    d.set_pixel_shader(Some(&ps));
    d.set_render_state(RenderState::CullMode(warp9::state::Cull::None));
    d.set_fvf(Fvf::XYZ | Fvf::TEX1).unwrap();
    let identity = Mat4::IDENTITY.transpose().to_cols_array_2d();
    d.set_vertex_shader_constant_f(0, &identity).unwrap();
    // Pixel (128, 128) is clip (0, 0); 4 pixels are 4/128 in clip space.
    let p = 4.0 / 128.0;
    let tris: [[f32; 5]; 6] = [
        [0.0, 0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0, 0.0],
        [p, 0.0, 0.5, 1.0, 0.0],
        [0.0, -p, 0.5, 0.0, 1.0],
    ];
    let bytes: Vec<u8> = tris
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let vb = d
        .create_vertex_buffer(
            bytes.len() as u32,
            Usage::WRITE_ONLY,
            Fvf::empty(),
            Pool::Default,
        )
        .unwrap();
    vb.write(0, &bytes).unwrap();
    d.set_stream_source(0, Some(&vb), 0, 20).unwrap();
    let mut texture = || {
        let t = d
            .create_texture(64, 64, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .unwrap();
        t.write_level(0, None, &[0x80u8; 64 * 64 * 4], 64 * 4)
            .unwrap();
        t
    };
    let textures = [texture(), texture()];
    d.set_texture(0, Some(textures[0].clone().into())).unwrap();
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
        .unwrap();
    (d, textures)
}

fn draws(c: &mut Criterion) {
    let (mut d, textures) = setup();
    let mut g = c.benchmark_group("draw_calls");
    g.bench_function("empty draw", |b| {
        b.iter(|| d.draw_primitive(PrimitiveType::TriangleList, 0, 1).unwrap())
    });
    g.bench_function("one-triangle draw", |b| {
        b.iter(|| d.draw_primitive(PrimitiveType::TriangleList, 3, 1).unwrap())
    });
    let matrices = [Mat4::IDENTITY, Mat4::from_scale(glam::Vec3::splat(0.5))]
        .map(|m| m.transpose().to_cols_array_2d());
    let mut k = 0usize;
    let mut next = || {
        k += 1;
        k % 2
    };
    g.bench_function("SetVertexShaderConstantF x4", |b| {
        b.iter(|| {
            d.set_vertex_shader_constant_f(0, &matrices[next()])
                .unwrap()
        })
    });
    g.bench_function("SetPixelShaderConstantF x1", |b| {
        b.iter(|| {
            let v = next() as f32;
            d.set_pixel_shader_constant_f(0, &[[v, 0.5, 0.5, 1.0]])
                .unwrap()
        })
    });
    g.bench_function("SetTexture", |b| {
        b.iter(|| {
            d.set_texture(0, Some(textures[next()].clone().into()))
                .unwrap()
        })
    });
    g.bench_function("SetRenderState ALPHABLENDENABLE", |b| {
        b.iter(|| d.set_render_state(RenderState::AlphaBlendEnable(next() == 1)))
    });
    g.bench_function("SetRenderState SRCBLEND", |b| {
        let blends = [Blend::SrcAlpha, Blend::One];
        b.iter(|| d.set_render_state(RenderState::SrcBlend(blends[next()])))
    });
    g.bench_function("SetSamplerState MINFILTER", |b| {
        use warp9::state::TextureFilter;
        let filters = [TextureFilter::Linear, TextureFilter::Point];
        b.iter(|| {
            d.set_sampler_state(0, SamplerState::MinFilter(filters[next()]))
                .unwrap()
        })
    });
    g.bench_function("SetTransform WORLD", |b| {
        let m = [Mat4::IDENTITY, Mat4::from_scale(glam::Vec3::splat(0.5))];
        b.iter(|| {
            d.set_transform(TransformType::World(0), &m[next()])
                .unwrap()
        })
    });
    g.bench_function("state changes + one-triangle draw", |b| {
        b.iter(|| {
            let i = next();
            d.set_vertex_shader_constant_f(0, &matrices[i]).unwrap();
            d.set_pixel_shader_constant_f(0, &[[0.5; 4]]).unwrap();
            d.set_texture(0, Some(textures[i].clone().into())).unwrap();
            d.set_render_state(RenderState::AlphaBlendEnable(i == 1));
            d.draw_primitive(PrimitiveType::TriangleList, 3, 1).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, draws);
criterion_main!(benches);
