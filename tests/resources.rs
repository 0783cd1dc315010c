//! Resources: locks over rectangles, boxes and byte ranges, DISCARD
//! renaming, dirty regions and UpdateTexture, copies, Clear with rects and
//! scissor, Present with the gamma ramp, readback and PNG output.

use warp9::api::{ClearFlags, GammaRamp};
use warp9::caps::{DriverType, FeatureLevel};
use warp9::resource::{BaseTexture, Box3};
use warp9::state::*;
use warp9::{Device, DeviceDesc, ErrorKind, Format, LockFlags, Pool, RenderState, Usage};

fn device(level: FeatureLevel, depth: Option<Format>) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[level],
        back_buffer: (8, 4, Format::A8R8G8B8),
        depth_stencil: depth,
        ..DeviceDesc::default()
    })
    .unwrap()
}

#[test]
fn buffer_locks_and_writes_stay_in_bounds() {
    let mut d = device(FeatureLevel::L9_1, None);
    let vb = d
        .create_vertex_buffer(16, Usage::DYNAMIC, warp9::Fvf::empty(), Pool::Default)
        .unwrap();
    {
        let mut l = vb.lock(4, 8, LockFlags::empty()).unwrap();
        assert_eq!(l.len(), 8);
        l.copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        // A second lock while one is held is refused, not a deadlock.
        assert_eq!(
            vb.lock(0, 0, LockFlags::empty()).unwrap_err().kind(),
            ErrorKind::InvalidCall
        );
    }
    assert_eq!(vb.read()[4..12], [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(
        vb.lock(0, 0, LockFlags::empty()).unwrap().len(),
        16,
        "0, 0 locks everything"
    );
    assert!(vb.lock(12, 8, LockFlags::empty()).is_err());
    assert!(vb.lock(u32::MAX, 2, LockFlags::empty()).is_err());
    assert!(vb.write(10, &[0; 7]).is_err());
    vb.write(10, &[9; 6]).unwrap();
    let static_vb = d
        .create_vertex_buffer(16, Usage::empty(), warp9::Fvf::empty(), Pool::Managed)
        .unwrap();
    assert!(
        static_vb.lock(0, 0, LockFlags::DISCARD).is_err(),
        "DISCARD needs DYNAMIC"
    );
    // DISCARD on a buffer nothing else holds keeps the bytes (no rename needed).
    assert!(vb.lock(0, 0, LockFlags::DISCARD).is_ok());
}

#[test]
fn surface_and_texture_locks() {
    let mut d = device(FeatureLevel::L9_1, None);
    let t = d
        .create_texture(8, 8, 0, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    {
        let mut l = t
            .lock_rect(1, Some(Rect::new(1, 1, 3, 2)), LockFlags::empty())
            .unwrap();
        assert_eq!(l.pitch, 16);
        assert_eq!(l.bytes.len(), 8);
        l.bytes.copy_from_slice(&[0xAA; 8]);
    }
    let s = t.surface_level(1).unwrap();
    let bytes = s.read_bytes();
    assert_eq!(&bytes[16 + 4..16 + 12], &[0xAA; 8]);
    assert_eq!(bytes[16], 0);
    assert!(
        t.lock_rect(1, Some(Rect::new(0, 0, 5, 1)), LockFlags::empty())
            .is_err(),
        "level 1 is 4x4"
    );
    assert!(t.lock_rect(4, None, LockFlags::empty()).is_err());
    assert!(
        t.lock_rect(0, Some(Rect::new(2, 0, 1, 1)), LockFlags::empty())
            .is_err()
    );
    // Default-pool textures without DYNAMIC cannot be locked (D3D9).
    let rt = d
        .create_texture(
            8,
            8,
            1,
            Usage::RENDERTARGET,
            Format::A8R8G8B8,
            Pool::Default,
        )
        .unwrap();
    assert!(rt.lock_rect(0, None, LockFlags::empty()).is_err());
    // DXT rectangles must be block-aligned.
    let dxt = d
        .create_texture(8, 8, 1, Usage::empty(), Format::DXT1, Pool::Managed)
        .unwrap();
    assert!(
        dxt.lock_rect(0, Some(Rect::new(1, 0, 4, 4)), LockFlags::empty())
            .is_err()
    );
    let l = dxt
        .lock_rect(0, Some(Rect::new(4, 4, 8, 8)), LockFlags::empty())
        .unwrap();
    assert_eq!((l.pitch, l.bytes.len()), (16, 8));
    drop(l);
    // Volumes.
    let v = d
        .create_volume_texture(4, 4, 4, 1, Usage::empty(), Format::L8, Pool::Managed)
        .unwrap();
    let vol = v.volume_level(0).unwrap();
    {
        let mut b = vol
            .lock_box(
                Some(Box3 {
                    left: 1,
                    top: 2,
                    front: 3,
                    right: 2,
                    bottom: 3,
                    back: 4,
                }),
                LockFlags::empty(),
            )
            .unwrap();
        assert_eq!((b.row_pitch, b.slice_pitch), (4, 16));
        b.bytes[0] = 77;
    }
    assert_eq!(vol.read_bytes()[3 * 16 + 2 * 4 + 1], 77);
    assert!(
        vol.lock_box(
            Some(Box3 {
                left: 0,
                top: 0,
                front: 0,
                right: 5,
                bottom: 1,
                back: 1
            }),
            LockFlags::empty()
        )
        .is_err()
    );
}

#[test]
fn update_texture_copies_the_dirty_region() {
    let mut d = device(FeatureLevel::L9_1, None);
    let sys = d
        .create_texture(4, 4, 1, Usage::empty(), Format::L8, Pool::SystemMem)
        .unwrap();
    let gpu = d
        .create_texture(4, 4, 1, Usage::empty(), Format::L8, Pool::Default)
        .unwrap();
    sys.write_level(0, None, &[1; 16], 4).unwrap();
    d.update_texture(&BaseTexture::from(&sys), &BaseTexture::from(&gpu))
        .unwrap();
    assert_eq!(gpu.surface_level(0).unwrap().read_bytes(), vec![1; 16]);
    // Clean now: writing without marking dirty copies nothing.
    {
        let mut l = sys.lock_rect(0, None, LockFlags::NO_DIRTY_UPDATE).unwrap();
        l.bytes.fill(2);
    }
    d.update_texture(&BaseTexture::from(&sys), &BaseTexture::from(&gpu))
        .unwrap();
    assert_eq!(gpu.surface_level(0).unwrap().read_bytes(), vec![1; 16]);
    // A dirty rectangle copies exactly that rectangle.
    sys.add_dirty_box(Some(Box3 {
        left: 1,
        top: 1,
        right: 3,
        bottom: 2,
        front: 0,
        back: 1,
    }));
    d.update_texture(&BaseTexture::from(&sys), &BaseTexture::from(&gpu))
        .unwrap();
    let g = gpu.surface_level(0).unwrap().read_bytes();
    assert_eq!(g, vec![1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // Pools and formats are checked.
    let other = d
        .create_texture(4, 4, 1, Usage::empty(), Format::A8, Pool::Default)
        .unwrap();
    assert!(
        d.update_texture(&BaseTexture::from(&sys), &BaseTexture::from(&other))
            .is_err()
    );
    assert!(
        d.update_texture(&BaseTexture::from(&gpu), &BaseTexture::from(&sys))
            .is_err()
    );
}

#[test]
fn clear_respects_rects_viewport_and_scissor() {
    let mut d = device(FeatureLevel::L9_1, Some(Format::D24S8));
    d.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER | ClearFlags::STENCIL,
        0xFF10_2030,
        1.0,
        0x5A,
    )
    .unwrap();
    let bb = d.back_buffer();
    assert!(
        d.read_surface_argb(&bb)
            .unwrap()
            .iter()
            .all(|&p| p == 0xFF10_2030)
    );
    d.clear(
        &[Rect::new(1, 1, 3, 2), Rect::new(6, 3, 20, 20)],
        ClearFlags::TARGET,
        0x8000_00FF,
        0.0,
        0,
    )
    .unwrap();
    let px = d.read_surface_argb(&bb).unwrap();
    assert_eq!(px[8 + 1], 0x8000_00FF);
    assert_eq!(px[8 + 2], 0x8000_00FF);
    assert_eq!(px[8 + 3], 0xFF10_2030);
    assert_eq!(
        px[3 * 8 + 7],
        0x8000_00FF,
        "rects are clipped to the target"
    );
    d.set_render_state(RenderState::ScissorTestEnable(true));
    d.set_scissor_rect(&Rect::new(0, 0, 1, 1)).unwrap();
    d.clear(&[], ClearFlags::TARGET, 0xFFFF_FFFF, 0.0, 0)
        .unwrap();
    let px = d.read_surface_argb(&bb).unwrap();
    assert_eq!(px[0], 0xFFFF_FFFF);
    assert_eq!(px[1], 0xFF10_2030);
    // Depth and stencil land in the D24S8 layout; clearing one keeps the other.
    let ds = d.get_depth_stencil_surface().unwrap();
    let raw = |d: &warp9::Surface| u32::from_le_bytes(d.read_bytes()[0..4].try_into().unwrap());
    assert_eq!(raw(&ds), 0xFFFF_FF5A);
    d.set_render_state(RenderState::ScissorTestEnable(false));
    d.clear(&[], ClearFlags::STENCIL, 0, 0.0, 0x07).unwrap();
    assert_eq!(raw(&ds), 0xFFFF_FF07);
    d.clear(&[], ClearFlags::ZBUFFER, 0, 0.5, 0).unwrap();
    let bytes = ds.read_bytes();
    assert!(
        bytes
            .chunks_exact(4)
            .all(|t| u32::from_le_bytes(t.try_into().unwrap()) == (0x80_0000 << 8) | 0x07),
        "every texel: depth 0.5, stencil kept"
    );
    assert!(d.clear(&[], ClearFlags::ZBUFFER, 0, 1.5, 0).is_err());
    let mut nodepth = device(FeatureLevel::L9_1, None);
    assert!(nodepth.clear(&[], ClearFlags::ZBUFFER, 0, 1.0, 0).is_err());
    let mut d16 = device(FeatureLevel::L9_1, Some(Format::D16));
    assert!(d16.clear(&[], ClearFlags::STENCIL, 0, 1.0, 0).is_err());
}

#[test]
fn present_converts_through_the_gamma_ramp() {
    let mut d = device(FeatureLevel::L9_1, None);
    d.clear(&[], ClearFlags::TARGET, 0x0040_80C0, 0.0, 0)
        .unwrap();
    let mut out = vec![0u32; 32];
    d.present_into(&mut out).unwrap();
    assert!(out.iter().all(|&p| p == 0xFF40_80C0), "{:08X}", out[0]);
    let ramp = GammaRamp {
        red: std::array::from_fn(|i| (255 - i as u16) * 257),
        ..GammaRamp::default()
    };
    d.set_gamma_ramp(&ramp);
    d.present_into(&mut out).unwrap();
    assert_eq!(out[0], 0xFFBF_80C0);
    assert!(d.present_into(&mut [0u32; 31]).is_err());
    d.begin_scene().unwrap();
    assert!(d.present_into(&mut out).is_err());
    d.end_scene().unwrap();
    assert_eq!(d.frame_count(), 2);
}

#[test]
fn render_target_readback_copies_and_png() {
    let mut d = device(FeatureLevel::L9_1, None);
    let rt = d.create_render_target(4, 2, Format::R5G6B5, false).unwrap();
    d.color_fill(&rt, None, 0xFFFF_0000).unwrap();
    d.color_fill(&rt, Some(Rect::new(2, 0, 4, 2)), 0xFF00_00FF)
        .unwrap();
    let sys = d
        .create_offscreen_plain_surface(4, 2, Format::R5G6B5, Pool::SystemMem)
        .unwrap();
    d.get_render_target_data(&rt, &sys).unwrap();
    let px = d.read_surface_argb(&sys).unwrap();
    assert_eq!(
        px,
        vec![
            0xFFFF_0000,
            0xFFFF_0000,
            0xFF00_00FF,
            0xFF00_00FF,
            0xFFFF_0000,
            0xFFFF_0000,
            0xFF00_00FF,
            0xFF00_00FF
        ]
    );
    let wrong = d
        .create_offscreen_plain_surface(4, 2, Format::A8R8G8B8, Pool::SystemMem)
        .unwrap();
    assert!(d.get_render_target_data(&rt, &wrong).is_err());
    // StretchRect converts formats and scales (point: nearest texel).
    let bb = d.back_buffer();
    d.stretch_rect(&rt, None, &bb, None, TextureFilter::Point)
        .unwrap();
    let px = d.read_surface_argb(&bb).unwrap();
    assert_eq!(px[0], 0xFFFF_0000);
    assert_eq!(px[7], 0xFF00_00FF);
    assert_eq!(px[3 * 8 + 3], 0xFFFF_0000);
    assert_eq!(px[3 * 8 + 4], 0xFF00_00FF);
    assert!(
        d.stretch_rect(&rt, None, &bb, None, TextureFilter::GaussianQuad)
            .is_err()
    );
    // PNG output decodes back to the same pixels.
    let path = std::env::temp_dir().join(format!("warp9-rt-{}.png", std::process::id()));
    d.save_surface_png(&bb, &path).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (8, 4));
    assert_eq!(&buf[0..4], &[255, 0, 0, 255]);
    assert_eq!(&buf[7 * 4..8 * 4], &[0, 0, 255, 255]);
    let _ = std::fs::remove_file(path);
}

#[test]
fn autogen_mipmaps_box_filter() {
    let mut d = device(FeatureLevel::Sm3, None);
    let sys = d
        .create_texture(2, 2, 1, Usage::empty(), Format::A8R8G8B8, Pool::SystemMem)
        .unwrap();
    let px: [u32; 4] = [0xFF00_0000, 0xFF00_0000, 0xFFFF_FFFF, 0xFFFF_FFFF];
    sys.write_level(0, None, bytemuck::cast_slice(&px), 8)
        .unwrap();
    let gpu = d
        .create_texture(
            2,
            2,
            0,
            Usage::AUTOGENMIPMAP,
            Format::A8R8G8B8,
            Pool::Default,
        )
        .unwrap();
    d.update_texture(&BaseTexture::from(&sys), &BaseTexture::from(&gpu))
        .unwrap();
    let level1 = gpu.surface_level(1).unwrap().read_bytes();
    // The average of two black and two white texels: 127.5 rounds to 128.
    assert_eq!(
        u32::from_le_bytes(level1[0..4].try_into().unwrap()),
        0xFF80_8080
    );
}
