//! The device-creation pattern of seed 000 (a D3D11-style application on a
//! machine without a GPU): for each driver type in order — hardware, warp,
//! reference — try the whole feature-level list 11_0 .. 9_1, keep the first
//! device that can be created, print what was obtained, render one frame.
//!
//! `cargo run --example fallback` shows the frame in a window (with the
//! `window` feature and a display) or writes `out/fallback.png`.

mod common;

use warp9::caps::{DriverType, FeatureLevel};
use warp9::{ClearFlags, Device, DeviceDesc, Format, Fvf, PrimitiveType};

fn main() {
    let opts = common::Options::from_args(1);
    let levels = FeatureLevel::D3D11_DEFAULT_ORDER;
    let mut device = None;
    // The seed's loop: one creation attempt per driver type with the whole level list.
    for driver in [
        DriverType::Hardware,
        DriverType::Warp,
        DriverType::Reference,
    ] {
        let attempt = Device::create(&DeviceDesc {
            drivers: &[driver],
            levels: &levels,
            back_buffer: (320, 240, Format::X8R8G8B8),
            ..DeviceDesc::default()
        });
        match attempt {
            Ok(d) => {
                println!("{driver}: created at feature level {}", d.feature_level());
                device = Some(d);
                break;
            }
            Err(e) => println!("{driver}: {e}"),
        }
    }
    let Some(mut dev) = device else {
        eprintln!("no device could be created");
        std::process::exit(1);
    };
    let caps = dev.get_device_caps();
    println!(
        "obtained: driver {}, level {}, vs 0x{:08X}, ps 0x{:08X}, {} render targets, {}x{} textures",
        dev.driver_type(),
        dev.feature_level(),
        caps.vertex_shader_version,
        caps.pixel_shader_version,
        caps.num_simultaneous_rts,
        caps.max_texture_width,
        caps.max_texture_height
    );
    if let Err(e) = render(&mut dev, &opts) {
        eprintln!("render failed: {e}");
        std::process::exit(1);
    }
}

fn render(dev: &mut Device, opts: &common::Options) -> warp9::Result<()> {
    // One pre-transformed triangle: x, y, z, rhw, diffuse.
    let verts: [(f32, f32, f32, f32, u32); 3] = [
        (160.0, 20.0, 0.5, 1.0, 0xFFFF_4040),
        (290.0, 220.0, 0.5, 1.0, 0xFF40_FF40),
        (30.0, 220.0, 0.5, 1.0, 0xFF40_40FF),
    ];
    let bytes: Vec<u8> = verts
        .iter()
        .flat_map(|&(x, y, z, w, c)| [x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits(), c])
        .flat_map(u32::to_le_bytes)
        .collect();
    dev.clear(&[], ClearFlags::TARGET, 0xFF20_2030, 1.0, 0)?;
    dev.begin_scene()?;
    dev.set_fvf(Fvf::XYZRHW | Fvf::DIFFUSE)?;
    dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &bytes, 20)?;
    dev.end_scene()?;
    let mut frame = vec![0u32; 320 * 240];
    dev.present_into(&mut frame)?;
    match common::open("warp9 fallback", 320, 240, opts) {
        common::Output::Headless { dir, .. } => {
            let path = dir.join("fallback.png");
            warp9::api::save_argb_png(&frame, 320, 240, &path)?;
            println!("wrote {}", path.display());
        }
        // The one frame stays on screen until the window closes.
        #[cfg(feature = "window")]
        common::Output::Window(mut window) => {
            let mut clock = common::FrameClock::new();
            while window.is_open()
                && !window.is_key_down(minifb::Key::Escape)
                && !opts.window_done(&clock)
            {
                window
                    .update_with_buffer(&frame, 320, 240)
                    .map_err(|e| warp9::Error::invalid_call(format!("window: {e}")))?;
                clock.tick();
                common::announce_first_frame(&clock, "fallback");
                std::thread::sleep(std::time::Duration::from_millis(16));
            }
        }
    }
    Ok(())
}
