//! Every creation- and resource-time rejection of caps.md section 8: each
//! test asserts the error kind and that the message names the cap or rule.

use warp9::api::{IssueFlags, QueryType};
use warp9::caps::{DriverType, FeatureLevel};
use warp9::format::ResourceKind;
use warp9::vertex::{DeclType, DeclUsage, VertexElement};
use warp9::{Device, DeviceDesc, ErrorKind, Format, Pool, Usage};

fn device(level: FeatureLevel) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[level],
        back_buffer: (64, 64, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        ..DeviceDesc::default()
    })
    .expect("device")
}

#[track_caller]
fn assert_rejected<T: std::fmt::Debug>(r: warp9::Result<T>, kind: ErrorKind, names: &[&str]) {
    let e = r.expect_err("must be rejected");
    assert_eq!(e.kind(), kind, "{e}");
    for n in names {
        assert!(
            e.message().contains(n),
            "message {:?} should name {n:?}",
            e.message()
        );
    }
}

use FeatureLevel::*;

#[test]
fn check_device_format_answers_from_the_level_table() {
    let d = device(L9_1);
    assert!(
        d.check_device_format(ResourceKind::Texture, Format::A8R8G8B8, Usage::RENDERTARGET)
            .is_ok()
    );
    assert_rejected(
        d.check_device_format(ResourceKind::Texture, Format::L16, Usage::empty()),
        ErrorKind::NotAvailable,
        &["L16", "9_1"],
    );
    assert_rejected(
        d.check_device_format(ResourceKind::Texture, Format::A4R4G4B4, Usage::RENDERTARGET),
        ErrorKind::NotAvailable,
        &["D3DUSAGE_RENDERTARGET"],
    );
    assert_rejected(
        d.check_device_format(ResourceKind::IndexBuffer, Format::Index32, Usage::empty()),
        ErrorKind::NotAvailable,
        &["index buffer"],
    );
    assert_rejected(
        d.check_device_format(
            ResourceKind::Texture,
            Format::A8R8G8B8,
            Usage::QUERY_VERTEXTEXTURE,
        ),
        ErrorKind::NotAvailable,
        &["D3DUSAGE_QUERY_VERTEXTEXTURE"],
    );
    let d3 = device(L9_3);
    assert!(
        d3.check_device_format(ResourceKind::Texture, Format::G32R32F, Usage::RENDERTARGET)
            .is_ok()
    );
    assert_rejected(
        device(L9_2).check_device_format(ResourceKind::Texture, Format::G32R32F, Usage::empty()),
        ErrorKind::NotAvailable,
        &["G32R32F"],
    );
    assert_rejected(
        d3.check_device_format(ResourceKind::Texture, Format::R32F, Usage::QUERY_FILTER),
        ErrorKind::NotAvailable,
        &["QUERY_FILTER"],
    );
    let sm3 = device(Sm3);
    assert!(
        sm3.check_device_format(
            ResourceKind::Texture,
            Format::R32F,
            Usage::QUERY_VERTEXTEXTURE
        )
        .is_ok()
    );
    assert_eq!(
        sm3.check_device_format(
            ResourceKind::Texture,
            Format::A8R8G8B8,
            Usage::AUTOGENMIPMAP
        )
        .unwrap(),
        warp9::caps::FormatSupport::Supported
    );
    assert_eq!(
        d3.check_device_format(
            ResourceKind::Texture,
            Format::A8R8G8B8,
            Usage::AUTOGENMIPMAP
        )
        .unwrap(),
        warp9::caps::FormatSupport::SupportedNoAutogen
    );
    assert_rejected(
        d.check_device_multisample_type(Format::A8R8G8B8, 2),
        ErrorKind::NotAvailable,
        &["multisampl"],
    );
}

#[test]
fn texture_sizes_and_npot_rules() {
    let mut d = device(L9_1);
    assert_rejected(
        d.create_texture(4096, 16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["MaxTextureWidth", "9_1", "2048", "4096"],
    );
    assert_rejected(
        d.create_texture(16, 2049, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["MaxTextureHeight"],
    );
    assert!(
        device(L9_3)
            .create_texture(4096, 16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .is_ok()
    );
    assert_rejected(
        d.create_texture(100, 64, 0, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["NONPOW2CONDITIONAL", "Levels 1"],
    );
    assert!(
        d.create_texture(100, 64, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .is_ok()
    );
    assert_rejected(
        d.create_texture(64, 64, 8, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["levels"],
    );
    assert_rejected(
        d.create_texture(64, 2, 1, Usage::empty(), Format::DXT1, Pool::Managed),
        ErrorKind::InvalidCall,
        &["multiples of 4"],
    );
    assert_rejected(
        d.create_texture(0, 16, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["size of 0"],
    );
    // Scratch resources are not bound by the caps.
    assert!(
        d.create_texture(
            4096,
            4096,
            1,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Scratch
        )
        .is_ok()
    );
    let t = d
        .create_texture(64, 64, 0, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    assert_eq!(t.level_count(), 7);
}

#[test]
fn texture_format_and_usage_per_level() {
    let mut d = device(L9_1);
    assert_rejected(
        d.create_texture(
            64,
            64,
            1,
            Usage::empty(),
            Format::A16B16G16R16F,
            Pool::Managed,
        ),
        ErrorKind::InvalidCall,
        &["A16B16G16R16F", "9_1"],
    );
    assert_rejected(
        d.create_texture(
            64,
            64,
            1,
            Usage::RENDERTARGET,
            Format::A4R4G4B4,
            Pool::Default,
        ),
        ErrorKind::InvalidCall,
        &["D3DUSAGE_RENDERTARGET"],
    );
    assert_rejected(
        d.create_texture(
            64,
            64,
            1,
            Usage::RENDERTARGET,
            Format::A8R8G8B8,
            Pool::Managed,
        ),
        ErrorKind::InvalidCall,
        &["D3DPOOL_DEFAULT"],
    );
    assert_rejected(
        d.create_texture(64, 64, 1, Usage::DYNAMIC, Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["DYNAMIC", "MANAGED"],
    );
    assert_rejected(
        d.create_texture(
            64,
            64,
            1,
            Usage::QUERY_FILTER,
            Format::A8R8G8B8,
            Pool::Managed,
        ),
        ErrorKind::InvalidCall,
        &["creation usage"],
    );
    assert!(
        device(L9_2)
            .create_texture(
                64,
                64,
                1,
                Usage::empty(),
                Format::A16B16G16R16F,
                Pool::Managed
            )
            .is_ok()
    );
    assert!(
        d.create_texture(64, 64, 1, Usage::DEPTHSTENCIL, Format::D24S8, Pool::Default)
            .is_ok()
    );
    assert_rejected(
        d.create_texture(64, 64, 2, Usage::DEPTHSTENCIL, Format::D24S8, Pool::Default),
        ErrorKind::InvalidCall,
        &["one level"],
    );
}

#[test]
fn cube_and_volume_limits() {
    let mut d = device(L9_1);
    assert_rejected(
        d.create_cube_texture(1024, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["cube", "512", "9_1"],
    );
    assert!(
        device(L9_3)
            .create_cube_texture(1024, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .is_ok()
    );
    assert_rejected(
        d.create_cube_texture(96, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed),
        ErrorKind::InvalidCall,
        &["power of two", "CUBEMAP_POW2"],
    );
    assert_rejected(
        d.create_volume_texture(
            512,
            4,
            4,
            1,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        ),
        ErrorKind::InvalidCall,
        &["MaxVolumeExtent", "256"],
    );
    assert_rejected(
        d.create_volume_texture(
            16,
            12,
            4,
            1,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        ),
        ErrorKind::InvalidCall,
        &["VOLUMEMAP_POW2"],
    );
    assert_rejected(
        d.create_volume_texture(16, 16, 4, 1, Usage::empty(), Format::DXT1, Pool::Managed),
        ErrorKind::InvalidCall,
        &["volume"],
    );
    let v = d
        .create_volume_texture(16, 8, 4, 0, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    assert_eq!(v.level_count(), 5);
}

#[test]
fn vertex_declarations_against_decl_types_and_streams() {
    let mut d = device(L9_2);
    let e = |t, u, i, off| VertexElement::new(0, off, t, u, i);
    assert_rejected(
        d.create_vertex_declaration(&[e(DeclType::Float16_2, DeclUsage::TexCoord, 0, 0)]),
        ErrorKind::InvalidCall,
        &["DeclTypes", "Float16_2", "9_2"],
    );
    assert!(
        device(L9_3)
            .create_vertex_declaration(&[e(DeclType::Float16_4, DeclUsage::TexCoord, 0, 0)])
            .is_ok()
    );
    for t in [
        DeclType::UDec3,
        DeclType::Dec3N,
        DeclType::UShort2N,
        DeclType::UShort4N,
    ] {
        assert_rejected(
            device(Sm3).create_vertex_declaration(&[e(t, DeclUsage::Normal, 0, 0)]),
            ErrorKind::InvalidCall,
            &["DeclTypes"],
        );
    }
    let shared = [
        e(DeclType::Float3, DeclUsage::Position, 0, 0),
        e(DeclType::Float3, DeclUsage::Normal, 0, 0),
    ];
    assert_rejected(
        device(L9_1).create_vertex_declaration(&shared),
        ErrorKind::InvalidCall,
        &["VERTEXELEMENTSCANSHARESTREAMOFFSET", "9_1"],
    );
    assert!(d.create_vertex_declaration(&shared).is_ok());
    assert_rejected(
        d.create_vertex_declaration(&[VertexElement::new(
            16,
            0,
            DeclType::Float3,
            DeclUsage::Position,
            0,
        )]),
        ErrorKind::InvalidCall,
        &["MaxStreams", "16"],
    );
    assert_rejected(
        d.create_vertex_declaration(&[
            e(DeclType::Float3, DeclUsage::Position, 0, 0),
            e(DeclType::Float2, DeclUsage::Position, 0, 12),
        ]),
        ErrorKind::InvalidCall,
        &["usage"],
    );
    assert_rejected(
        d.create_vertex_declaration(&[
            e(DeclType::Float4, DeclUsage::PositionT, 0, 0),
            e(DeclType::Float3, DeclUsage::Position, 0, 16),
        ]),
        ErrorKind::InvalidCall,
        &["POSITIONT0 and POSITION0"],
    );
    assert_rejected(
        d.create_vertex_declaration(&[e(DeclType::Float3, DeclUsage::Position, 0, 2)]),
        ErrorKind::InvalidCall,
        &["DWORD-aligned"],
    );
    let raw = [warp9::vertex::RawVertexElement {
        stream: 0,
        offset: 0,
        decl_type: 2,
        method: 0,
        usage: 0,
        usage_index: 0,
    }];
    assert_rejected(
        d.create_vertex_declaration_raw(&raw),
        ErrorKind::InvalidCall,
        &["D3DDECL_END"],
    );
}

#[test]
fn streams_and_instancing() {
    let mut d = device(L9_2);
    let vb = d
        .create_vertex_buffer(256, Usage::WRITE_ONLY, warp9::Fvf::empty(), Pool::Managed)
        .unwrap();
    assert_rejected(
        d.set_stream_source(16, Some(&vb), 0, 16),
        ErrorKind::InvalidCall,
        &["MaxStreams"],
    );
    assert_rejected(
        d.set_stream_source(0, Some(&vb), 0, 2052),
        ErrorKind::InvalidCall,
        &["MaxStreamStride", "2048"],
    );
    assert!(d.set_stream_source(15, Some(&vb), 0, 2048).is_ok());
    assert_rejected(
        d.set_stream_source_freq(0, warp9::api::STREAMSOURCE_INDEXEDDATA | 4),
        ErrorKind::InvalidCall,
        &["instancing", "9_2"],
    );
    let mut d3 = device(L9_3);
    assert!(
        d3.set_stream_source_freq(0, warp9::api::STREAMSOURCE_INDEXEDDATA | 4)
            .is_ok()
    );
    assert!(
        d3.set_stream_source_freq(1, warp9::api::STREAMSOURCE_INSTANCEDATA | 1)
            .is_ok()
    );
    assert_rejected(
        d3.set_stream_source_freq(0, warp9::api::STREAMSOURCE_INSTANCEDATA | 1),
        ErrorKind::InvalidCall,
        &["stream 0"],
    );
    assert_rejected(
        d3.set_stream_source_freq(2, 0),
        ErrorKind::InvalidCall,
        &["0"],
    );
    // Software processing usage is refused under hardware vertex processing.
    assert_rejected(
        d.create_vertex_buffer(
            64,
            Usage::SOFTWAREPROCESSING,
            warp9::Fvf::empty(),
            Pool::Default,
        ),
        ErrorKind::InvalidCall,
        &["SOFTWAREPROCESSING"],
    );
}

fn asm(text: &str) -> Vec<u32> {
    warp9::shader::assemble(text).expect("assembles")
}

#[test]
fn shader_versions_and_ps20caps() {
    let vs3 = asm("vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n");
    assert_rejected(
        device(L9_2).create_vertex_shader(&vs3),
        ErrorKind::InvalidCall,
        &["VertexShaderVersion"],
    );
    assert!(device(L9_3).create_vertex_shader(&vs3).is_ok());
    let ps3 = asm("ps_3_0\ndcl_texcoord0 v0\nmov oC0, v0\n");
    assert_rejected(
        device(L9_3).create_pixel_shader(&ps3),
        ErrorKind::InvalidCall,
        &["PixelShaderVersion"],
    );
    assert!(device(Sm3).create_pixel_shader(&ps3).is_ok());
    // A ps_2_x feature whose PS20Caps bit is clear at 9_1: gradient instructions.
    let ps2x = asm("ps_2_x\ndcl t0\ndsx r0, t0\nmov oC0, r0\n");
    assert_rejected(
        device(L9_1).create_pixel_shader(&ps2x),
        ErrorKind::InvalidCall,
        &["GRADIENTINSTRUCTIONS"],
    );
    assert!(device(L9_3).create_pixel_shader(&ps2x).is_ok());
    // vs_1_1 runs at every level (VertexShaderVersion >= 2.0 everywhere);
    // it is validated like any other vertex shader.
    let vs11 = asm("vs_1_1\ndcl_position v0\nmov a0.x, v0.x\nmov oPos, c[a0.x + 1]\n");
    for level in [L9_1, L9_2, L9_3, Sm3] {
        let s = device(level)
            .create_vertex_shader(&vs11)
            .unwrap_or_else(|e| panic!("vs_1_1 at {level}: {e}"));
        assert_eq!(s.version(), 0xFFFE_0101);
    }
    assert_rejected(
        device(L9_1).create_vertex_shader(&asm(
            "vs_1_1\ndcl_position v0\nmova a0.x, v0.x\nmov oPos, v0\n",
        )),
        ErrorKind::InvalidCall,
        &["mova", "vs_1_1"],
    );
    // Shader model 1 pixel shaders are validated by their own rules.
    let ps11 = asm("ps_1_1\ntex t0\nmov r0, t0\n");
    for level in [L9_1, L9_2, L9_3, Sm3] {
        let s = device(level)
            .create_pixel_shader(&ps11)
            .unwrap_or_else(|e| panic!("ps_1_1 at {level}: {e}"));
        assert_eq!(s.version(), 0xFFFF_0101);
    }
    assert_rejected(
        device(L9_1).create_pixel_shader(&asm("ps_1_1\nmov r0, t0\n")),
        ErrorKind::InvalidCall,
        &["uninitialized-read"],
    );
    // A vertex shader handed to CreatePixelShader.
    assert_rejected(
        device(Sm3).create_pixel_shader(&vs3),
        ErrorKind::InvalidCall,
        &["vertex shader"],
    );
    // Malformed bytecode.
    assert_rejected(
        device(Sm3).create_pixel_shader(&[0xFFFF_0200, 0x1234_5678]),
        ErrorKind::InvalidCall,
        &[],
    );
    assert_rejected(
        device(Sm3).create_pixel_shader(&[]),
        ErrorKind::InvalidCall,
        &[],
    );
}

#[test]
fn render_targets_clip_planes_and_queries() {
    let mut d = device(L9_2);
    let rt = d
        .create_render_target(64, 64, Format::A8R8G8B8, false)
        .unwrap();
    assert_rejected(
        d.set_render_target(1, Some(&rt)),
        ErrorKind::InvalidCall,
        &["NumSimultaneousRTs", "9_2"],
    );
    assert_rejected(
        d.set_render_target(0, None),
        ErrorKind::InvalidCall,
        &["slot 0"],
    );
    let mut d3 = device(L9_3);
    let rt16 = d3
        .create_render_target(64, 64, Format::R5G6B5, false)
        .unwrap();
    let rt32 = d3
        .create_render_target(64, 64, Format::A8R8G8B8, false)
        .unwrap();
    assert!(d3.set_render_target(1, Some(&rt32)).is_ok());
    assert_rejected(
        d3.set_render_target(2, Some(&rt16)),
        ErrorKind::InvalidCall,
        &["bit depth", "MRTINDEPENDENTBITDEPTHS"],
    );
    assert_rejected(
        d3.set_render_target(4, Some(&rt32)),
        ErrorKind::InvalidCall,
        &["NumSimultaneousRTs"],
    );
    assert_rejected(
        d.set_clip_plane(6, [0.0; 4]),
        ErrorKind::InvalidCall,
        &["MaxUserClipPlanes", "6"],
    );
    assert!(d.set_clip_plane(5, [1.0, 0.0, 0.0, 0.0]).is_ok());
    assert_rejected(
        device(L9_1).create_query(QueryType::Occlusion),
        ErrorKind::NotAvailable,
        &["OCCLUSION", "9_1"],
    );
    assert!(d.create_query(QueryType::Occlusion).is_ok());
    assert_rejected(
        d.create_query(QueryType::Timestamp),
        ErrorKind::NotAvailable,
        &["Timestamp"],
    );
    let q = d.create_query(QueryType::Event).unwrap();
    assert_eq!(q.get_data().unwrap(), None);
    d.issue_query(&q, IssueFlags::END).unwrap();
    assert_eq!(
        q.get_data().unwrap(),
        Some(warp9::api::QueryData::Event(true))
    );
    assert_rejected(
        d.create_render_target(64, 64, Format::A4R4G4B4, false),
        ErrorKind::InvalidCall,
        &["RENDERTARGET"],
    );
    assert_rejected(
        d.create_depth_stencil_surface(64, 64, Format::D32),
        ErrorKind::InvalidCall,
        &["D32"],
    );
    assert!(d.create_depth_stencil_surface(64, 64, Format::D16).is_ok());
}

#[test]
fn memory_budget_gives_out_of_memory() {
    let mut d = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[L9_3],
        back_buffer: (16, 16, Format::X8R8G8B8),
        memory_budget: Some(1 << 20),
        ..DeviceDesc::default()
    })
    .unwrap();
    let e = d
        .create_texture(
            1024,
            1024,
            1,
            Usage::empty(),
            Format::A8R8G8B8,
            Pool::Managed,
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfMemory);
    assert!(e.message().contains("budget"), "{e}");
    let before = d.memory_used();
    assert_eq!(u64::from(d.available_texture_mem()), (1 << 20) - before);
    {
        let _t = d
            .create_texture(256, 256, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .unwrap();
        assert_eq!(d.memory_used(), before + 256 * 256 * 4);
    }
    assert_eq!(
        d.memory_used(),
        before,
        "dropping a resource returns its bytes"
    );
    // The device is still usable after the failure.
    assert!(
        d.create_texture(64, 64, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
            .is_ok()
    );
}
