//! The main demo: a lit, textured, animated scene through the fixed-function
//! pipeline — a floor, a sphere, a torus and a ring of small spheres, a
//! directional and an orbiting point light, linear fog.
//!
//! `cargo run --release --example demo` opens a window
//! (drag with the left button to orbit; keys 1-4 switch the level to
//! 9_1/9_2/9_3/sm3, D switches Warp/Reference, T cycles the thread count,
//! V toggles presentation interval ONE/IMMEDIATE, Esc quits). Without a
//! display it renders `--frames N` frames headless, writes PNGs to `--out`
//! and prints the frame rate. `--still N` shows animation step N still in
//! the window (the frame headless frame N shows) and `--exit-after S`
//! closes it: `.ci/run` compares a screenshot with the headless PNG.

mod common;

use common::{FrameClock, Mesh, Options, Orbit, Output};
use glam::{Mat4, Vec3};
use warp9::caps::{DriverType, FeatureLevel};
use warp9::state::{Color, FogMode, Light, LightType, Material, TransformType};
use warp9::{ClearFlags, Device, DeviceDesc, Format, RenderState, SamplerState};

const WIDTH: u32 = 800;
const HEIGHT: u32 = 600;
const FOG: u32 = 0xFF30_3848;

struct Scene {
    floor: Mesh,
    sphere: Mesh,
    torus: Mesh,
    small: Mesh,
    checker: warp9::Texture,
    stripes: warp9::Texture,
}

fn create_device(
    driver: DriverType,
    level: FeatureLevel,
    threads: Option<usize>,
) -> warp9::Result<Device> {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Hardware, driver],
        levels: &[level],
        back_buffer: (WIDTH, HEIGHT, Format::X8R8G8B8),
        depth_stencil: Some(Format::D24S8),
        threads,
        ..DeviceDesc::default()
    })
}

fn build_scene(dev: &mut Device) -> warp9::Result<Scene> {
    let (v, i) = common::floor(12.0, -1.5, 12.0);
    let floor = Mesh::upload(dev, &v, &i)?;
    let (v, i) = common::sphere(1.2, 24, 32);
    let sphere = Mesh::upload(dev, &v, &i)?;
    let (v, i) = common::torus(2.4, 0.35, 48, 16);
    let torus = Mesh::upload(dev, &v, &i)?;
    let (v, i) = common::sphere(0.35, 10, 14);
    let small = Mesh::upload(dev, &v, &i)?;
    let checker = common::checker(dev, 256, 0xFFE0_E0E0, 0xFF50_6070)?;
    let stripes = common::checker(dev, 64, 0xFFFF_C040, 0xFFC0_3020)?;
    Ok(Scene {
        floor,
        sphere,
        torus,
        small,
        checker,
        stripes,
    })
}

fn material(r: f32, g: f32, b: f32, power: f32) -> Material {
    Material {
        diffuse: [r, g, b, 1.0],
        ambient: [r, g, b, 1.0],
        specular: [0.8, 0.8, 0.8, 1.0],
        emissive: [0.0; 4],
        power,
    }
}

fn render(dev: &mut Device, scene: &Scene, camera: &Orbit, t: f32) -> warp9::Result<()> {
    dev.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, FOG, 1.0, 0)?;
    dev.begin_scene()?;
    let aspect = WIDTH as f32 / HEIGHT as f32;
    dev.set_transform(
        TransformType::Projection,
        &glam::camera::lh::proj::directx::perspective(0.9, aspect, 0.5, 60.0),
    )?;
    dev.set_transform(TransformType::View, &camera.view())?;
    dev.set_render_state(RenderState::Lighting(true));
    dev.set_render_state(RenderState::SpecularEnable(true));
    dev.set_render_state(RenderState::Ambient(Color(0xFF20_2028)));
    dev.set_render_state(RenderState::FogEnable(true));
    dev.set_render_state(RenderState::FogColor(Color(FOG)));
    dev.set_render_state(RenderState::FogVertexMode(FogMode::Linear));
    dev.set_render_state(RenderState::FogStart(8.0));
    dev.set_render_state(RenderState::FogEnd(30.0));
    dev.set_render_state(RenderState::RangeFogEnable(true));
    dev.set_render_state(RenderState::NormalizeNormals(true));
    dev.set_sampler_state(
        0,
        SamplerState::MinFilter(warp9::state::TextureFilter::Linear),
    )?;
    dev.set_sampler_state(
        0,
        SamplerState::MagFilter(warp9::state::TextureFilter::Linear),
    )?;
    dev.set_sampler_state(
        0,
        SamplerState::MipFilter(warp9::state::TextureFilter::Linear),
    )?;
    dev.set_light(
        0,
        &Light {
            light_type: LightType::Directional,
            diffuse: [0.8, 0.78, 0.7, 1.0],
            specular: [0.6, 0.6, 0.6, 1.0],
            direction: Vec3::new(-0.4, -1.0, 0.5).normalize(),
            ..Light::default()
        },
    )?;
    dev.light_enable(0, true);
    let lp = Vec3::new(4.0 * (t * 0.9).cos(), 1.5, 4.0 * (t * 0.9).sin());
    dev.set_light(
        1,
        &Light {
            light_type: LightType::Point,
            diffuse: [0.3, 0.6, 1.0, 1.0],
            specular: [0.3, 0.6, 1.0, 1.0],
            position: lp,
            range: 12.0,
            attenuation0: 0.2,
            attenuation1: 0.15,
            ..Light::default()
        },
    )?;
    dev.light_enable(1, true);

    dev.set_texture(0, Some((&scene.checker).into()))?;
    dev.set_material(&material(1.0, 1.0, 1.0, 20.0));
    dev.set_transform(TransformType::WORLD, &Mat4::IDENTITY)?;
    scene.floor.draw(dev)?;

    dev.set_texture(0, Some((&scene.stripes).into()))?;
    dev.set_material(&material(0.9, 0.9, 1.0, 40.0));
    dev.set_transform(TransformType::WORLD, &Mat4::from_rotation_y(t * 0.5))?;
    scene.sphere.draw(dev)?;

    dev.set_material(&material(1.0, 0.6, 0.3, 10.0));
    let spin = Mat4::from_rotation_x(t * 0.7) * Mat4::from_rotation_z(t * 0.4);
    dev.set_transform(TransformType::WORLD, &spin)?;
    scene.torus.draw(dev)?;

    dev.set_texture(0, None)?;
    for k in 0..6 {
        let a = t * 0.6 + k as f32 * std::f32::consts::TAU / 6.0;
        let pos = Vec3::new(
            5.0 * a.cos(),
            -0.9 + 0.4 * (t * 2.0 + k as f32).sin(),
            5.0 * a.sin(),
        );
        let hue = k as f32 / 6.0;
        dev.set_material(&material(0.5 + 0.5 * hue, 0.9 - 0.5 * hue, 0.6, 30.0));
        dev.set_transform(TransformType::WORLD, &Mat4::from_translation(pos))?;
        scene.small.draw(dev)?;
    }
    // The point light's position as a small emissive sphere.
    dev.set_material(&Material {
        emissive: [0.3, 0.6, 1.0, 1.0],
        ..material(0.0, 0.0, 0.0, 1.0)
    });
    dev.set_transform(
        TransformType::WORLD,
        &(Mat4::from_translation(lp) * Mat4::from_scale(Vec3::splat(0.5))),
    )?;
    scene.small.draw(dev)?;
    dev.end_scene()
}

fn describe(dev: &Device) -> String {
    format!(
        "level {} | {} | SIMD {:?} | {} threads",
        dev.feature_level(),
        dev.driver_type(),
        dev.simd_backend(),
        dev.thread_count()
    )
}

fn main() {
    if let Err(e) = run() {
        eprintln!("demo: {e}");
        std::process::exit(1);
    }
}

fn run() -> warp9::Result<()> {
    let opts = Options::from_args(60);
    // Reassigned only by the window loop's key handling.
    #[cfg_attr(not(feature = "window"), allow(unused_mut))]
    let mut level = FeatureLevel::Sm3;
    // Reassigned only by the window loop's key handling.
    #[cfg_attr(not(feature = "window"), allow(unused_mut))]
    let mut driver = DriverType::Warp;
    // Reassigned only by the window loop's key handling.
    #[cfg_attr(not(feature = "window"), allow(unused_mut))]
    let mut dev = create_device(driver, level, None)?;
    // Reassigned only by the window loop's key handling.
    #[cfg_attr(not(feature = "window"), allow(unused_mut))]
    let mut scene = build_scene(&mut dev)?;
    // Reassigned only by the window loop's key handling.
    #[cfg_attr(not(feature = "window"), allow(unused_mut))]
    let mut camera = Orbit {
        yaw: 0.6,
        pitch: 0.35,
        distance: 11.0,
    };
    let mut frame = vec![0u32; (WIDTH * HEIGHT) as usize];
    let mut clock = FrameClock::new();
    println!("demo: {}", describe(&dev));
    match common::open("warp9 demo", WIDTH, HEIGHT, &opts) {
        Output::Headless { frames, dir } => {
            for n in 0..frames {
                // Fixed animation steps keep headless frames reproducible.
                let t = n as f32 / 30.0;
                render(&mut dev, &scene, &camera, t)?;
                dev.present_into(&mut frame)?;
                clock.tick();
                if n + 1 == frames || n == 0 {
                    let path = dir.join(format!("demo_{n:04}.png"));
                    warp9::api::save_argb_png(&frame, WIDTH, HEIGHT, &path)?;
                    println!("wrote {}", path.display());
                }
            }
            println!(
                "demo: {} frames in {:.2} s: {:.1} fps ({})",
                clock.frames(),
                clock.seconds(),
                clock.average_fps(),
                describe(&dev)
            );
        }
        #[cfg(feature = "window")]
        Output::Window(mut window) => {
            use minifb::{Key, KeyRepeat, MouseButton, MouseMode};
            let mut last_mouse: Option<(f32, f32)> = None;
            let mut threads = dev.thread_count();
            let max_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let mut vsync = opts.vsync;
            while window.is_open() && !window.is_key_down(Key::Escape) && !opts.window_done(&clock)
            {
                let t = opts.window_time(&clock);
                if window.get_mouse_down(MouseButton::Left) {
                    if let Some((x, y)) = window.get_mouse_pos(MouseMode::Pass) {
                        if let Some((lx, ly)) = last_mouse {
                            camera.yaw += (x - lx) * 0.01;
                            camera.pitch = (camera.pitch + (y - ly) * 0.01).clamp(-0.2, 1.4);
                        }
                        last_mouse = Some((x, y));
                    }
                } else {
                    last_mouse = None;
                }
                let mut switch: Option<(DriverType, FeatureLevel)> = None;
                for (key, l) in [
                    (Key::Key1, FeatureLevel::L9_1),
                    (Key::Key2, FeatureLevel::L9_2),
                    (Key::Key3, FeatureLevel::L9_3),
                    (Key::Key4, FeatureLevel::Sm3),
                ] {
                    if window.is_key_pressed(key, KeyRepeat::No) {
                        switch = Some((driver, l));
                    }
                }
                if window.is_key_pressed(Key::D, KeyRepeat::No) {
                    let other = if driver == DriverType::Warp {
                        DriverType::Reference
                    } else {
                        DriverType::Warp
                    };
                    switch = Some((other, level));
                }
                if window.is_key_pressed(Key::T, KeyRepeat::No) {
                    threads = threads % max_threads + 1;
                    dev.set_thread_count(threads)?;
                    println!("threads: {threads}");
                }
                if window.is_key_pressed(Key::V, KeyRepeat::No) {
                    vsync = !vsync;
                    window.set_target_fps(if vsync { 60 } else { 0 });
                    println!(
                        "presentation interval: {}",
                        if vsync { "ONE" } else { "IMMEDIATE" }
                    );
                }
                if let Some((d, l)) = switch {
                    match create_device(d, l, Some(threads)) {
                        Ok(mut new_dev) => {
                            let old = dev.get_device_caps();
                            scene = build_scene(&mut new_dev)?;
                            let changed = old.diff(&new_dev.get_device_caps());
                            println!(
                                "switched to {}: {} caps changed",
                                describe(&new_dev),
                                changed.len()
                            );
                            for (name, a, b) in changed {
                                println!("  {name:<36} {a} -> {b}");
                            }
                            dev = new_dev;
                            driver = d;
                            level = l;
                        }
                        Err(e) => println!("cannot switch: {e}"),
                    }
                }
                render(&mut dev, &scene, &camera, t)?;
                dev.present_into(&mut frame)?;
                if clock.tick() {
                    window.set_title(&format!(
                        "warp9 demo | {:.1} fps | {}",
                        clock.fps,
                        describe(&dev)
                    ));
                }
                window
                    .update_with_buffer(&frame, WIDTH as usize, HEIGHT as usize)
                    .map_err(|e| warp9::Error::invalid_call(format!("window: {e}")))?;
                common::announce_first_frame(&clock, "demo");
            }
        }
    }
    Ok(())
}
