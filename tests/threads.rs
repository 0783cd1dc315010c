//! Devices and threads (the sharing rules documented on [`warp9::Device`]):
//! a device moves to another thread and renders there exactly as it would
//! have at home, several devices render in parallel on several threads
//! without disturbing one another, and resource handles cross threads.

use warp9::state::Cull;
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool, PrimitiveType,
    RenderState, SamplerState, Usage,
};

const SIZE: u32 = 48;

fn device(driver: DriverType, threads: usize) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (SIZE, SIZE, Format::A8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads: Some(threads),
        ..DeviceDesc::default()
    })
    .expect("device")
}

/// A 4x4 texture whose texels depend on `seed`.
fn texture(d: &mut Device, seed: u32) -> warp9::Texture {
    let t = d
        .create_texture(4, 4, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .unwrap();
    let texels: Vec<u32> = (0..16u32)
        .map(|i| 0xFF00_0000 | (i.wrapping_mul(0x0013_5795) ^ seed.wrapping_mul(0x9E37_79B9)))
        .collect();
    t.write_level(0, None, bytemuck::cast_slice(&texels), 16)
        .unwrap();
    t
}

/// Renders a frame that depends on `seed`: overlapping textured, depth-tested
/// triangles with bilinear filtering, then reads the back buffer.
fn frame(d: &mut Device, tex: &warp9::Texture, seed: u32) -> Vec<u32> {
    d.set_render_state(RenderState::CullMode(Cull::None));
    d.clear(
        &[],
        ClearFlags::TARGET | ClearFlags::ZBUFFER,
        0xFF20_2020,
        1.0,
        0,
    )
    .unwrap();
    d.set_fvf(Fvf::XYZ | Fvf::DIFFUSE | Fvf::TEX1).unwrap();
    d.set_render_state(RenderState::Lighting(false));
    d.set_sampler_state(
        0,
        SamplerState::MagFilter(warp9::state::TextureFilter::Linear),
    )
    .unwrap();
    d.set_texture(0, Some(tex.into())).unwrap();
    let mut rng = seed.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        (rng % 2001) as f32 / 1000.0 - 1.0
    };
    let mut b = Vec::new();
    for _ in 0..24 * 3 {
        let (x, y, z) = (next() * 1.2, next() * 1.2, next() * 0.5 + 0.5);
        for f in [x, y, z] {
            b.extend_from_slice(&f.to_le_bytes());
        }
        let shade = (next() * 127.0) as i32 as u32 & 0x7F;
        b.extend_from_slice(&(0xFF80_8080u32 | (shade * 0x0001_0101)).to_le_bytes());
        for f in [next() + 1.0, next() + 1.0] {
            b.extend_from_slice(&f.to_le_bytes());
        }
    }
    d.draw_primitive_up(PrimitiveType::TriangleList, 24, &b, 24)
        .unwrap();
    d.read_surface_argb(&d.back_buffer()).unwrap()
}

#[test]
fn handles_are_send_and_sync() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<Device>();
    send_sync::<warp9::Texture>();
    send_sync::<warp9::Surface>();
    send_sync::<warp9::resource::CubeTexture>();
    send_sync::<warp9::resource::VolumeTexture>();
    send_sync::<warp9::resource::VertexBuffer>();
    send_sync::<warp9::resource::IndexBuffer>();
}

#[test]
fn a_device_renders_the_same_on_another_thread() {
    for driver in [DriverType::Warp, DriverType::Reference] {
        let mut home = device(driver, 2);
        let tex = texture(&mut home, 7);
        let want = frame(&mut home, &tex, 1);
        // Move the device (and its texture) away, render there, bring it back.
        let (mut home, got) = std::thread::spawn(move || {
            let img = frame(&mut home, &tex, 1);
            (home, img)
        })
        .join()
        .expect("render thread");
        assert_eq!(got, want, "{driver:?}: the frame changed on another thread");
        // The device still works where it started.
        let tex = texture(&mut home, 7);
        assert_eq!(frame(&mut home, &tex, 1), want, "{driver:?}: back home");
    }
}

#[test]
fn several_devices_render_in_parallel() {
    // Each job: driver, worker threads, seed. Serial images first.
    let jobs: Vec<(DriverType, usize, u32)> = (0..6u32)
        .map(|i| {
            let driver = if i % 3 == 2 {
                DriverType::Reference
            } else {
                DriverType::Warp
            };
            (driver, 1 + i as usize % 3, 100 + i)
        })
        .collect();
    let render = |&(driver, threads, seed): &(DriverType, usize, u32)| {
        let mut d = device(driver, threads);
        let tex = texture(&mut d, seed);
        // Several frames per device so the jobs overlap in time.
        (0..3)
            .map(|f| frame(&mut d, &tex, seed + f))
            .collect::<Vec<_>>()
    };
    let serial: Vec<_> = jobs.iter().map(render).collect();
    // The frames differ between jobs, or the comparison proves little.
    assert_ne!(serial[0][0], serial[1][0]);
    let parallel: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs.iter().map(|j| s.spawn(move || render(j))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("render thread"))
            .collect()
    });
    for (i, (p, s)) in parallel.iter().zip(&serial).enumerate() {
        assert!(
            p == s,
            "job {i} ({:?}) differs when run in parallel",
            jobs[i]
        );
    }
}

#[test]
fn a_resource_written_on_one_thread_is_read_on_another() {
    let mut d = device(DriverType::Warp, 2);
    let tex = texture(&mut d, 3);
    let want = frame(&mut d, &tex, 9);
    // Rewrite the texture's contents from another thread, then draw here.
    let other = tex.clone();
    std::thread::spawn(move || {
        let texels = [0xFF00_FF00u32; 16];
        other
            .write_level(0, None, bytemuck::cast_slice(&texels), 16)
            .unwrap();
    })
    .join()
    .unwrap();
    let got = frame(&mut d, &tex, 9);
    assert_ne!(got, want, "the write on the other thread was not seen");
    // A green texture times grey-ish vertex colours: no red or blue survives
    // anywhere a triangle covers (the clear colour is 0x20 in each channel).
    assert!(
        got.iter()
            .all(|&p| p == 0xFF20_2020 || (p & 0x00FF_00FF) == 0),
        "{:08x?}",
        &got[..8]
    );
}

/// A Warp draw runs whole on warp9's own workers, even for one thread, so a
/// caller with a small stack can draw. Unoptimised, the fixed-function
/// stamp loop needs about 2 MB of stack and the vertex stage over 512 KB;
/// this caller has 512 KB, so the test fails at opt-level 0 (CI's
/// unoptimised step) if any part of a draw runs on the calling thread.
#[test]
fn a_one_thread_device_draws_from_a_small_stack() {
    let expected = {
        let mut d = device(DriverType::Warp, 1);
        let tex = texture(&mut d, 7);
        frame(&mut d, &tex, 7)
    };
    let got = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(|| {
            let mut d = device(DriverType::Warp, 1);
            let tex = texture(&mut d, 7);
            frame(&mut d, &tex, 7)
        })
        .unwrap()
        .join()
        .expect("the small-stack thread drew");
    assert_eq!(got, expected);
}
