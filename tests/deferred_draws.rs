//! Deferred draws (issue 41): on more than one thread, a small Warp draw is
//! set up when issued and shaded later with a batch of draws. Whatever
//! reads or writes a target in between must see every earlier draw, in
//! order: readback, `lock_rect`, `write_rect`, `Clear`, `ColorFill`,
//! `StretchRect`, a render-target switch, occlusion queries, and the
//! device's drop. Each test runs the same calls on one thread (draws shaded
//! at once) and on two and three (draws deferred) and wants the same bytes,
//! and checks hand-computed pixels where it can.

mod raster_support;

use raster_support::*;
use warp9::api::{IssueFlags, QueryData, QueryType};
use warp9::state::{CmpFunc, Rect, TextureFilter};
use warp9::{ClearFlags, Device, DriverType, Format, LockFlags, RenderState, SimdChoice};

fn opts(threads: usize) -> Opts {
    Opts {
        driver: DriverType::Warp,
        size: (96, 80),
        format: Format::A8R8G8B8,
        depth: Some(Format::D24S8),
        threads,
        simd: SimdChoice::Auto,
        ..Opts::default()
    }
}

/// A readback of a pixel (ARGB) of `surface`, through its lock.
fn locked_pixel(s: &warp9::Surface, x: i32, y: i32) -> u32 {
    let l = s
        .lock_rect(Some(Rect::new(x, y, x + 1, y + 1)), LockFlags::READONLY)
        .expect("lock");
    u32::from_le_bytes([l.bytes[0], l.bytes[1], l.bytes[2], l.bytes[3]])
}

#[test]
fn a_lock_sees_the_draws_issued_before_it() {
    for threads in [1, 2, 3] {
        let mut d = device(&opts(threads));
        let rt = d
            .create_render_target(96, 80, Format::A8R8G8B8, true)
            .unwrap();
        d.set_render_target(0, Some(&rt)).unwrap();
        d.clear(
            &[],
            ClearFlags::TARGET | ClearFlags::ZBUFFER,
            0xFF00_0000,
            1.0,
            0,
        )
        .unwrap();
        // Three small triangles over pixel (10, 10), the last one wins.
        for color in [0xFF11_2233, 0xFF44_5566, 0xFF77_8899] {
            tri(&mut d, [(0.0, 0.0), (40.0, 0.0), (0.0, 40.0)], color);
        }
        assert_eq!(locked_pixel(&rt, 10, 10), 0xFF77_8899, "{threads} threads");
        assert_eq!(locked_pixel(&rt, 90, 70), 0xFF00_0000, "{threads} threads");
        // A write through the lock, then a draw over part of it: the draw
        // lands after the write.
        rt.write_rect(
            Some(Rect::new(50, 50, 52, 51)),
            &[0x01, 0x02, 0x03, 0xFF, 0x01, 0x02, 0x03, 0xFF],
            8,
        )
        .unwrap();
        tri(
            &mut d,
            [(51.0, 40.0), (70.0, 40.0), (51.0, 70.0)],
            0xFFAB_CDEF,
        );
        assert_eq!(locked_pixel(&rt, 50, 50), 0xFF03_0201, "{threads} threads");
        assert_eq!(locked_pixel(&rt, 51, 50), 0xFFAB_CDEF, "{threads} threads");
    }
}

#[test]
fn occlusion_queries_count_deferred_draws() {
    for threads in [1, 2, 3] {
        let mut d = device(&opts(threads));
        d.set_render_state(RenderState::ZEnable(warp9::state::ZBufferType::True));
        d.clear(&[], ClearFlags::ZBUFFER, 0, 1.0, 0).unwrap();
        let q = d.create_query(QueryType::Occlusion).unwrap();
        d.issue_query(&q, IssueFlags::BEGIN).unwrap();
        // Centres inside (0,0)-(4,0)-(0,4) with the top-left rule: 10, twice
        // (the second draw passes LESSEQUAL at the same depth).
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], 0xFF00_00FF);
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], 0xFF00_FF00);
        d.issue_query(&q, IssueFlags::END).unwrap();
        assert_eq!(
            q.get_data().unwrap(),
            Some(QueryData::Occlusion(20)),
            "{threads} threads"
        );
        d.issue_query(&q, IssueFlags::BEGIN).unwrap();
        d.set_render_state(RenderState::ZFunc(CmpFunc::Less));
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], 0xFFFF_0000);
        d.issue_query(&q, IssueFlags::END).unwrap();
        assert_eq!(
            q.get_data().unwrap(),
            Some(QueryData::Occlusion(0)),
            "{threads} threads"
        );
    }
}

#[test]
fn targets_held_past_the_device_get_its_draws() {
    for threads in [1, 2, 3] {
        let mut d = device(&opts(threads));
        let bb = d.back_buffer();
        d.clear(&[], ClearFlags::ZBUFFER, 0, 1.0, 0).unwrap();
        tri(&mut d, [(0.0, 0.0), (40.0, 0.0), (0.0, 40.0)], 0xFF12_3456);
        drop(d);
        let px = bb.read_bytes();
        let at = (5 * 96 + 5) * 4;
        assert_eq!(
            u32::from_le_bytes([px[at], px[at + 1], px[at + 2], px[at + 3]]),
            0xFF12_3456,
            "{threads} threads"
        );
    }
}

/// A random sequence of draws and of the calls that read or write the
/// targets between them; returns every readback taken on the way and the
/// final bytes of both colour targets and the depth buffer.
fn mixed_calls(threads: usize, seed: u32) -> Vec<Vec<u8>> {
    let mut d: Device = device(&opts(threads));
    let mut r = Rng(seed * 7919 + 1);
    let bb = d.back_buffer();
    let rt = d
        .create_render_target(96, 80, Format::A8R8G8B8, true)
        .unwrap();
    let ds = d.get_depth_stencil_surface().expect("depth");
    d.clear(&[], ClearFlags::ZBUFFER, 0, 1.0, 0).unwrap();
    let mut seen = Vec::new();
    let q = d.create_query(QueryType::Occlusion).unwrap();
    let mut in_query = false;
    for _ in 0..300 {
        match r.below(20) {
            0 => {
                let (x, y) = (r.below(90) as i32, r.below(70) as i32);
                let rect = Rect::new(x, y, x + 1 + r.below(30) as i32, y + 1 + r.below(30) as i32);
                d.clear(
                    &[rect],
                    ClearFlags::TARGET | ClearFlags::ZBUFFER,
                    r.next(),
                    r.f(0.0, 1.0),
                    0,
                )
                .unwrap();
            }
            1 => {
                let target = if r.below(2) == 0 { &bb } else { &rt };
                d.set_render_target(0, Some(target)).unwrap();
            }
            2 => {
                let (x, y) = (r.below(60) as i32, r.below(50) as i32);
                let src = Rect::new(x, y, x + 20, y + 20);
                let dst = Rect::new(x + 5, y + 3, x + 25, y + 23);
                let (from, to) = if r.below(2) == 0 {
                    (&rt, &bb)
                } else {
                    (&bb, &rt)
                };
                d.stretch_rect(from, Some(src), to, Some(dst), TextureFilter::Point)
                    .unwrap();
            }
            3 => {
                let (x, y) = (r.below(90) as i32, r.below(70) as i32);
                seen.push(locked_pixel(&rt, x, y).to_le_bytes().to_vec());
                let color = r.next().to_le_bytes();
                rt.write_rect(Some(Rect::new(x, y, x + 1, y + 1)), &color, 4)
                    .unwrap();
            }
            4 => {
                let (x, y) = (r.below(80) as i32, r.below(60) as i32);
                d.color_fill(&rt, Some(Rect::new(x, y, x + 9, y + 7)), r.next())
                    .unwrap();
            }
            5 => {
                let flags = if in_query {
                    IssueFlags::END
                } else {
                    IssueFlags::BEGIN
                };
                d.issue_query(&q, flags).unwrap();
                if in_query {
                    seen.push(format!("{:?}", q.get_data().unwrap()).into_bytes());
                }
                in_query = !in_query;
            }
            6 => {
                use warp9::state::ZBufferType;
                d.set_render_state(RenderState::ZFunc(r.pick(&[
                    CmpFunc::Less,
                    CmpFunc::LessEqual,
                    CmpFunc::Greater,
                    CmpFunc::Always,
                ])));
                d.set_render_state(RenderState::ZEnable(if r.below(4) == 0 {
                    ZBufferType::False
                } else {
                    ZBufferType::True
                }));
                d.set_render_state(RenderState::ZWriteEnable(r.below(3) != 0));
            }
            7 => {
                // A large draw (more than 4,096 vertices: drawn at once, on
                // the workers) after queued small ones.
                let (x0, y0) = (r.f(0.0, 60.0), r.f(0.0, 50.0));
                let c = r.next();
                let vs: Vec<V> = (0..1400)
                    .flat_map(|k| {
                        let (x, y) = (x0 + (k % 40) as f32 * 0.7, y0 + (k / 40) as f32 * 0.7);
                        [
                            v(x, y, 0.3, c),
                            v(x + 2.0, y, 0.3, c),
                            v(x, y + 2.0, 0.3, c),
                        ]
                    })
                    .collect();
                draw(&mut d, warp9::PrimitiveType::TriangleList, &vs);
            }
            _ => {
                let (x, y) = (r.f(-10.0, 100.0), r.f(-10.0, 85.0));
                let s = r.f(1.0, 25.0);
                let z = r.f(0.0, 1.0);
                let c = r.next();
                let vs = [
                    v(x, y, z, c),
                    v(x + s, y + r.f(-5.0, 5.0), r.f(0.0, 1.0), c ^ 0x00FF_0000),
                    v(x + r.f(-5.0, 5.0), y + s, z, c ^ 0x0000_FF00),
                ];
                draw(&mut d, warp9::PrimitiveType::TriangleList, &vs);
            }
        }
    }
    seen.push(bb.read_bytes());
    seen.push(rt.read_bytes());
    seen.push(ds.read_bytes());
    seen
}

#[test]
fn reads_and_writes_between_draws_see_them_in_order() {
    for seed in 0..6 {
        let want = mixed_calls(1, seed);
        for threads in [2, 3] {
            let got = mixed_calls(threads, seed);
            assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g == w,
                    "seed {seed}, {threads} threads: readback {i} of {} differs",
                    want.len()
                );
            }
        }
    }
}

/// Draws on one thread while another reads the target: every read sees a
/// prefix of the draws (each draw repaints the same pixel with its index),
/// and never goes backwards.
#[test]
fn another_thread_reading_the_target_sees_draws_in_order() {
    let mut d = device(&opts(2));
    let rt = d
        .create_render_target(96, 80, Format::A8R8G8B8, true)
        .unwrap();
    d.set_render_target(0, Some(&rt)).unwrap();
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
        .unwrap();
    let reader_rt = rt.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader_stop = std::sync::Arc::clone(&stop);
    let reader = std::thread::spawn(move || {
        let mut last = 0u32;
        let mut reads = 0;
        while !reader_stop.load(std::sync::atomic::Ordering::Relaxed) || reads == 0 {
            let now = locked_pixel(&reader_rt, 3, 3) & 0x00FF_FFFF;
            assert!(now >= last, "a read went back from {last} to {now}");
            last = now;
            reads += 1;
        }
        last
    });
    for k in 1..=2000u32 {
        tri(
            &mut d,
            [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)],
            0xFF00_0000 | k,
        );
    }
    d.flush().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    reader.join().expect("reader");
    assert_eq!(locked_pixel(&rt, 3, 3), 0xFF00_0000 | 2000);
}

/// More small draws than a batch holds (so batches go to the workers
/// while the caller goes on), then a large draw, which runs on a worker
/// and must wait there for the batches in flight: the same bytes as one
/// thread, and no hang.
fn many_then_large(threads: usize) -> Vec<u8> {
    let mut d = device(&opts(threads));
    d.clear(&[], ClearFlags::TARGET | ClearFlags::ZBUFFER, 0, 1.0, 0)
        .unwrap();
    let mut r = Rng(99);
    for round in 0..3 {
        for _ in 0..1500 {
            let (x, y) = (r.f(0.0, 90.0), r.f(0.0, 75.0));
            let c = r.next();
            tri(&mut d, [(x, y), (x + 6.0, y), (x, y + 5.0)], c);
        }
        let c = 0xFF00_0000 | round;
        let vs: Vec<V> = (0..1500)
            .flat_map(|k| {
                let (x, y) = ((k % 50) as f32 * 1.9, (k / 50) as f32 * 2.6);
                [
                    v(x, y, 0.4, c),
                    v(x + 1.5, y, 0.4, c),
                    v(x, y + 1.5, 0.4, c),
                ]
            })
            .collect();
        draw(&mut d, warp9::PrimitiveType::TriangleList, &vs);
    }
    raw(&d)
}

#[test]
fn a_large_draw_after_full_batches_waits_for_them() {
    let want = many_then_large(1);
    for threads in [2, 3] {
        assert!(many_then_large(threads) == want, "{threads} threads differ");
    }
}
