//! Bad input everywhere: random sequences of public API calls with random
//! (mostly absurd) arguments, from a deterministic xorshift generator.
//!
//! What this proves, for every seed:
//! - no call panics — so, Rust slices being bounds-checked, no public call
//!   reads or writes out of bounds through an index, offset, stride, rect,
//!   box, count or pitch (locked memory is written end to end as well);
//! - every error has a documented kind (InvalidCall, NotAvailable,
//!   OutOfMemory; the D3DERR_* validation kinds from `validate_device`), a
//!   message, and the kind's HRESULT;
//! - a failed `set_viewport` leaves the viewport unchanged;
//! - afterwards the device is still usable: the default state block
//!   captured at creation restores the state, a clear reads back exactly,
//!   a simple draw and a present succeed, and once every resource is
//!   dropped the memory accounting returns to what the swap chain holds.
//!
//! Every device has a memory budget, so absurd sizes give OutOfMemory
//! instead of exhausting the machine (`out_of_memory_*` tests check the
//! budget itself). A failing seed is printed with the last calls made.

#[path = "bad_input/ops.rs"]
mod ops;
#[path = "bad_input/rng.rs"]
mod rng;

use std::panic::{AssertUnwindSafe, catch_unwind};

use warp9::resource::Box3;
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, ErrorKind, FeatureLevel, Format, Fvf, Pool,
    PrimitiveType, RenderState, Usage,
};

use ops::Ctx;
use rng::Rng;

/// Sequences and calls per sequence (100k calls; a few seconds at opt-level 1).
const SEQUENCES: u64 = 400;
const CALLS: usize = 250;

fn device_for(rng: &mut Rng) -> Device {
    let level = FeatureLevel::SUPPORTED[rng.below(4) as usize];
    let driver = [DriverType::Warp, DriverType::Reference][rng.below(2) as usize];
    let vp = [
        warp9::VertexProcessing::Hardware,
        warp9::VertexProcessing::Software,
        warp9::VertexProcessing::Mixed,
    ][rng.below(3) as usize];
    let format = [Format::A8R8G8B8, Format::X8R8G8B8][rng.below(2) as usize];
    let size = [(64, 48), (17, 9), (1, 1), (32, 32)][rng.below(4) as usize];
    Device::create(&DeviceDesc {
        drivers: &[driver],
        levels: &[level],
        vertex_processing: vp,
        pure: vp == warp9::VertexProcessing::Hardware && rng.below(8) == 0,
        back_buffer: (size.0, size.1, format),
        depth_stencil: Some(Format::D24S8),
        threads: Some(1),
        memory_budget: Some(32 << 20),
        ..DeviceDesc::default()
    })
    .expect("a small device at every level")
}

/// The known-good sequence every device must still run after any errors.
fn still_usable(ctx: &mut Ctx, seed: u64) {
    let d = &mut ctx.device;
    let _ = d.end_state_block();
    let _ = d.end_scene();
    // Extra targets first: slot 0 must agree with the bound ones in bit depth.
    for i in 1..d.get_device_caps().num_simultaneous_rts {
        d.set_render_target(i, None)
            .expect("unbind extra render targets");
    }
    d.set_render_target(0, Some(&ctx.back_buffer))
        .expect("rebind the back buffer");
    d.set_depth_stencil_surface(Some(&ctx.depth))
        .expect("rebind the depth buffer");
    ctx.defaults
        .apply(d)
        .expect("apply the default state block");
    for &i in &ctx.lights {
        d.light_enable(i, false);
    }
    d.set_render_state(RenderState::ScissorTestEnable(false));
    d.clear(&[], ClearFlags::all(), 0xFF12_3456, 1.0, 0)
        .expect("clear after bad input");
    let pixels = d.read_surface_argb(&ctx.back_buffer).expect("read back");
    assert!(
        pixels.iter().all(|&p| p == 0xFF12_3456),
        "seed {seed}: a clear after bad input reads back wrong"
    );
    d.set_fvf(Fvf::XYZRHW | Fvf::DIFFUSE).expect("set_fvf");
    let tri: [f32; 15] = [
        0.0, 0.0, 0.5, 1.0, 0.0, 10.0, 0.0, 0.5, 1.0, 0.0, 0.0, 10.0, 0.5, 1.0, 0.0,
    ];
    d.begin_scene().expect("begin_scene");
    d.draw_primitive_up(
        PrimitiveType::TriangleList,
        1,
        bytemuck::cast_slice(&tri),
        20,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: a valid draw after bad input failed: {e}"));
    d.end_scene().expect("end_scene");
    let bb = ctx.back_buffer.desc();
    let mut frame = vec![0u32; (bb.width * bb.height) as usize];
    d.present_into(&mut frame).expect("present");
}

/// Successes and failures per call name, over all seeds.
type Stats = std::collections::BTreeMap<String, (u32, u32)>;

fn run_seed(seed: u64, stats: &mut Stats) {
    let mut rng = Rng::new(seed);
    let device = device_for(&mut rng);
    let mut ctx = Ctx::new(device);
    let baseline = ctx.device.memory_used();
    let mut log: Vec<String> = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        for _ in 0..CALLS {
            let (name, result) = ops::random_call(&mut ctx, &mut rng);
            log.push(name.clone());
            let entry = stats.entry(name.clone()).or_default();
            match result {
                Ok(()) => entry.0 += 1,
                Err(e) => {
                    entry.1 += 1;
                    ops::check_error(&name, &e);
                }
            }
        }
        still_usable(&mut ctx, seed);
    }));
    if let Err(p) = result {
        let tail = log.len().saturating_sub(12);
        eprintln!(
            "seed {seed} panicked; last calls:\n  {}",
            log[tail..].join("\n  ")
        );
        std::panic::resume_unwind(p);
    }
    let device = ctx.into_device();
    assert_eq!(
        device.memory_used(),
        baseline,
        "seed {seed}: memory not returned after every resource was dropped"
    );
}

#[test]
fn random_call_sequences_never_panic_and_leave_the_device_usable() {
    let mut stats = Stats::new();
    for seed in 1..=SEQUENCES {
        run_seed(seed, &mut stats);
    }
    for (name, (ok, err)) in &stats {
        println!("{name}: {ok} ok, {err} errors");
    }
    // The generator must reach both sides of the calls that matter, or the
    // sequences prove little: every family succeeds sometimes and fails sometimes.
    for name in [
        "create_texture",
        "create_vertex_buffer",
        "create_index_buffer",
        "create_pixel_shader",
        "create_vertex_shader",
        "create_vertex_declaration",
        "draw_primitive",
        "draw_indexed_primitive",
        "draw_primitive_up",
        "draw_indexed_primitive_up",
        "vertex_buffer.lock",
        "surface.lock_rect",
        "volume.lock_box",
        "texture.write_level",
        "set_viewport",
        "clear",
        "update_surface",
    ] {
        let (ok, err) = stats.get(name).copied().unwrap_or_default();
        assert!(ok > 0 && err > 0, "{name}: {ok} successes, {err} failures");
    }
}

fn budget_device(budget: u64) -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (16, 16, Format::A8R8G8B8),
        memory_budget: Some(budget),
        ..DeviceDesc::default()
    })
    .expect("device")
}

#[test]
fn out_of_memory_beyond_the_budget_for_every_resource() {
    let mut d = budget_device(1 << 20);
    let used = d.memory_used();
    assert_eq!(used, 16 * 16 * 4, "the back buffer is all that is charged");
    let kind = |r: warp9::Result<()>| r.err().map(|e| e.kind());
    let oom = Some(ErrorKind::OutOfMemory);
    assert_eq!(
        kind(
            d.create_texture(
                1024,
                1024,
                1,
                Usage::empty(),
                Format::A8R8G8B8,
                Pool::Managed
            )
            .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_texture(
                65536,
                65536,
                1,
                Usage::empty(),
                Format::A32B32G32R32F,
                Pool::Scratch
            )
            .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_vertex_buffer(u32::MAX, Usage::empty(), Fvf::empty(), Pool::Managed)
                .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_index_buffer(2 << 20, Usage::empty(), Format::Index16, Pool::SystemMem)
                .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_render_target(1024, 1024, Format::A8R8G8B8, false)
                .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_cube_texture(512, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
                .map(drop)
        ),
        oom
    );
    assert_eq!(
        kind(
            d.create_volume_texture(
                256,
                256,
                256,
                1,
                Usage::empty(),
                Format::A8R8G8B8,
                Pool::Managed
            )
            .map(drop)
        ),
        oom
    );
    assert_eq!(d.memory_used(), used, "a failed creation charges nothing");
    // What fits is still allocated, and dropping it gives the memory back.
    let t = d
        .create_texture(256, 256, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .expect("256 KiB fits in 1 MiB");
    assert_eq!(d.memory_used(), used + 256 * 256 * 4);
    let second = d.create_texture(512, 512, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed);
    assert_eq!(
        second.err().map(|e| e.kind()),
        oom,
        "1 MiB more does not fit"
    );
    drop(t);
    assert_eq!(d.memory_used(), used);
}

#[test]
fn out_of_memory_at_device_creation_is_not_retried_at_lower_levels() {
    let e = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3, FeatureLevel::L9_1],
        back_buffer: (640, 480, Format::A8R8G8B8),
        memory_budget: Some(1000),
        ..DeviceDesc::default()
    })
    .expect_err("a 1000-byte budget cannot hold the back buffer");
    assert_eq!(e.kind(), ErrorKind::OutOfMemory);
    assert_eq!(e.hresult(), 0x8007_000E);
}

#[test]
fn dirty_boxes_and_locks_clip_to_the_texture() {
    // A lock may only cover the level; the dirty box given by the caller is
    // its business, but UpdateTexture must clip it rather than index past the level.
    let mut d = budget_device(8 << 20);
    let src = d
        .create_texture(8, 8, 1, Usage::empty(), Format::A8R8G8B8, Pool::SystemMem)
        .expect("src");
    let dst = d
        .create_texture(8, 8, 1, Usage::empty(), Format::A8R8G8B8, Pool::Default)
        .expect("dst");
    src.write_level(0, None, &[0xAB; 8 * 8 * 4], 32)
        .expect("fill");
    src.add_dirty_box(Some(Box3 {
        left: 6,
        top: 6,
        right: 100,
        bottom: 100,
        front: 0,
        back: 9,
    }));
    d.update_texture(&(&src).into(), &(&dst).into())
        .expect("update with an oversized dirty box");
    let level = dst.surface_level(0).expect("level");
    assert_eq!(d.read_surface_argb(&level).expect("read")[63], 0xABAB_ABAB);
}
