//! What the demos share: a window (minifb, behind the `window` feature) or,
//! without a display, a headless loop that writes PNGs; mesh and texture
//! generators; an orbit camera.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Instant;

use glam::{Mat4, Vec3};
use warp9::{Device, Format, Fvf, Pool, Usage};

/// Where frames go.
pub enum Output {
    /// A minifb window.
    #[cfg(feature = "window")]
    Window(Box<minifb::Window>),
    /// No display: render `frames` frames and write the last (and every
    /// `png_every`-th) as PNG into `dir`.
    Headless {
        /// Frames to render.
        frames: u32,
        /// Where PNGs go.
        dir: PathBuf,
    },
}

/// Options every demo takes.
pub struct Options {
    /// Force headless even with a display.
    pub headless: bool,
    /// Frames to render headless.
    pub frames: u32,
    /// PNG directory for headless runs.
    pub out: PathBuf,
    /// Presentation interval ONE (vsync-like cap) instead of IMMEDIATE.
    pub vsync: bool,
    /// Window: show animation step N still (the frame headless frame N
    /// shows) instead of animating; for screenshot checks.
    pub still: Option<u32>,
    /// Window: close after this many seconds.
    pub exit_after: Option<f64>,
}

impl Options {
    /// Parses `--headless`, `--frames N`, `--out DIR`, `--vsync`,
    /// `--still N` and `--exit-after SECONDS` from the command line.
    pub fn from_args(default_frames: u32) -> Options {
        let mut o = Options {
            headless: false,
            frames: default_frames,
            out: PathBuf::from("out"),
            vsync: false,
            still: None,
            exit_after: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            match a.as_str() {
                "--headless" => o.headless = true,
                "--vsync" => o.vsync = true,
                "--frames" => {
                    o.frames = args
                        .next()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(default_frames)
                }
                "--out" => o.out = args.next().map(PathBuf::from).unwrap_or(o.out),
                "--still" => o.still = args.next().and_then(|v| v.parse().ok()),
                "--exit-after" => o.exit_after = args.next().and_then(|v| v.parse().ok()),
                other => eprintln!("ignoring unknown argument {other:?}"),
            }
        }
        o
    }
}

impl Options {
    /// The animation time of a window frame: animation step `--still N`
    /// (N / 30 s, as headless frame N) or the time since `clock` started.
    pub fn window_time(&self, clock: &FrameClock) -> f32 {
        match self.still {
            Some(n) => n as f32 / 30.0,
            None => clock.seconds() as f32,
        }
    }

    /// Whether a window loop should stop (`--exit-after` elapsed).
    pub fn window_done(&self, clock: &FrameClock) -> bool {
        self.exit_after.is_some_and(|s| clock.seconds() >= s)
    }
}

/// Says, once, that the window shows its first frame (a screenshot script
/// waits for this line).
pub fn announce_first_frame(clock: &FrameClock, name: &str) {
    if clock.frames() == 1 {
        println!("{name}: window shows its first frame");
    }
}

/// Opens a window when there is a display (and the `window` feature), else says why in one line.
pub fn open(title: &str, width: u32, height: u32, opts: &Options) -> Output {
    let headless = || {
        let _ = std::fs::create_dir_all(&opts.out);
        Output::Headless {
            frames: opts.frames,
            dir: opts.out.clone(),
        }
    };
    if opts.headless {
        println!(
            "headless: --headless given; rendering {} frames to {}",
            opts.frames,
            opts.out.display()
        );
        return headless();
    }
    let has_display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if !has_display {
        println!(
            "headless: no display (DISPLAY / WAYLAND_DISPLAY unset); rendering {} frames to {}",
            opts.frames,
            opts.out.display()
        );
        return headless();
    }
    #[cfg(feature = "window")]
    {
        match minifb::Window::new(
            title,
            width as usize,
            height as usize,
            minifb::WindowOptions::default(),
        ) {
            Ok(mut w) => {
                // Presentation interval ONE caps the rate to the display's; IMMEDIATE does not.
                w.set_target_fps(if opts.vsync { 60 } else { 0 });
                Output::Window(Box::new(w))
            }
            Err(e) => {
                println!(
                    "headless: the window could not open ({e}); rendering {} frames to {}",
                    opts.frames,
                    opts.out.display()
                );
                headless()
            }
        }
    }
    #[cfg(not(feature = "window"))]
    {
        let _ = (title, width, height);
        println!(
            "headless: built without the `window` feature (it is on by default); rendering {} frames to {}",
            opts.frames,
            opts.out.display()
        );
        headless()
    }
}

/// Frame-rate bookkeeping for titles and the closing fps line.
pub struct FrameClock {
    start: Instant,
    last: Instant,
    frames: u64,
    window_frames: u64,
    /// Frames per second over the last second.
    pub fps: f64,
}

impl FrameClock {
    /// A clock starting now.
    pub fn new() -> FrameClock {
        let now = Instant::now();
        FrameClock {
            start: now,
            last: now,
            frames: 0,
            window_frames: 0,
            fps: 0.0,
        }
    }

    /// Counts a frame; true when the fps figure was refreshed.
    pub fn tick(&mut self) -> bool {
        self.frames += 1;
        self.window_frames += 1;
        let dt = self.last.elapsed().as_secs_f64();
        if dt >= 1.0 {
            self.fps = self.window_frames as f64 / dt;
            self.window_frames = 0;
            self.last = Instant::now();
            return true;
        }
        false
    }

    /// Seconds since the start.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Average frames per second since the start.
    pub fn average_fps(&self) -> f64 {
        self.frames as f64 / self.seconds().max(1e-9)
    }

    /// Frames so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }
}

/// One vertex of the demo meshes: D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    /// Position.
    pub pos: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
    /// Texture coordinate.
    pub uv: [f32; 2],
}

/// The FVF of [`Vertex`].
pub const VERTEX_FVF: Fvf = Fvf::XYZ.union(Fvf::NORMAL).union(Fvf::TEX1);

/// A mesh on a device: vertex and index buffers.
pub struct Mesh {
    /// Vertices.
    pub vb: warp9::resource::VertexBuffer,
    /// 16-bit indices (every level draws them).
    pub ib: warp9::resource::IndexBuffer,
    /// Vertex count.
    pub vertices: u32,
    /// Triangle count.
    pub triangles: u32,
}

impl Mesh {
    /// Uploads vertices and 16-bit indices.
    pub fn upload(dev: &mut Device, verts: &[Vertex], indices: &[u16]) -> warp9::Result<Mesh> {
        let vbytes: &[u8] = bytemuck::cast_slice(verts);
        let vb = dev.create_vertex_buffer(
            vbytes.len() as u32,
            Usage::WRITE_ONLY,
            VERTEX_FVF,
            Pool::Managed,
        )?;
        vb.write(0, vbytes)?;
        let ibytes: &[u8] = bytemuck::cast_slice(indices);
        let ib = dev.create_index_buffer(
            ibytes.len() as u32,
            Usage::WRITE_ONLY,
            Format::Index16,
            Pool::Managed,
        )?;
        ib.write(0, ibytes)?;
        Ok(Mesh {
            vb,
            ib,
            vertices: verts.len() as u32,
            triangles: (indices.len() / 3) as u32,
        })
    }

    /// Binds the mesh and draws it.
    pub fn draw(&self, dev: &mut Device) -> warp9::Result<()> {
        dev.set_fvf(VERTEX_FVF)?;
        dev.set_stream_source(0, Some(&self.vb), 0, std::mem::size_of::<Vertex>() as u32)?;
        dev.set_indices(Some(&self.ib))?;
        dev.draw_indexed_primitive(
            warp9::PrimitiveType::TriangleList,
            0,
            0,
            self.vertices,
            0,
            self.triangles,
        )
    }
}

/// A UV sphere of radius `r` (clockwise front faces, as D3D9's default culling expects).
pub fn sphere(r: f32, rings: u32, segments: u32) -> (Vec<Vertex>, Vec<u16>) {
    let mut v = Vec::new();
    for i in 0..=rings {
        let theta = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..=segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            let n = Vec3::new(
                theta.sin() * phi.cos(),
                theta.cos(),
                theta.sin() * phi.sin(),
            );
            v.push(Vertex {
                pos: (n * r).into(),
                normal: n.into(),
                uv: [
                    j as f32 / segments as f32 * 4.0,
                    i as f32 / rings as f32 * 2.0,
                ],
            });
        }
    }
    let mut idx = Vec::new();
    let stride = segments + 1;
    for i in 0..rings {
        for j in 0..segments {
            let a = (i * stride + j) as u16;
            let b = (i * stride + j + 1) as u16;
            let c = ((i + 1) * stride + j) as u16;
            let d = ((i + 1) * stride + j + 1) as u16;
            idx.extend_from_slice(&[a, b, c, b, d, c]);
        }
    }
    (v, idx)
}

/// A torus with major radius `r0` and tube radius `r1`.
pub fn torus(r0: f32, r1: f32, rings: u32, sides: u32) -> (Vec<Vertex>, Vec<u16>) {
    let mut v = Vec::new();
    for i in 0..=rings {
        let u = std::f32::consts::TAU * i as f32 / rings as f32;
        for j in 0..=sides {
            let w = std::f32::consts::TAU * j as f32 / sides as f32;
            let centre = Vec3::new(u.cos() * r0, 0.0, u.sin() * r0);
            let n = Vec3::new(u.cos() * w.cos(), w.sin(), u.sin() * w.cos());
            v.push(Vertex {
                pos: (centre + n * r1).into(),
                normal: n.into(),
                uv: [i as f32 / rings as f32 * 8.0, j as f32 / sides as f32 * 2.0],
            });
        }
    }
    let mut idx = Vec::new();
    let stride = sides + 1;
    for i in 0..rings {
        for j in 0..sides {
            let a = (i * stride + j) as u16;
            let b = (i * stride + j + 1) as u16;
            let c = ((i + 1) * stride + j) as u16;
            let d = ((i + 1) * stride + j + 1) as u16;
            idx.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    (v, idx)
}

/// A square floor of half-size `s` at height `y`, facing up.
pub fn floor(s: f32, y: f32, tiles: f32) -> (Vec<Vertex>, Vec<u16>) {
    let n = [0.0, 1.0, 0.0];
    let v = vec![
        Vertex {
            pos: [-s, y, -s],
            normal: n,
            uv: [0.0, tiles],
        },
        Vertex {
            pos: [-s, y, s],
            normal: n,
            uv: [0.0, 0.0],
        },
        Vertex {
            pos: [s, y, s],
            normal: n,
            uv: [tiles, 0.0],
        },
        Vertex {
            pos: [s, y, -s],
            normal: n,
            uv: [tiles, tiles],
        },
    ];
    (v, vec![0, 1, 2, 0, 2, 3])
}

/// A managed A8R8G8B8 checker texture with a full mip chain (each level drawn, not filtered).
pub fn checker(dev: &mut Device, size: u32, a: u32, b: u32) -> warp9::Result<warp9::Texture> {
    let t = dev.create_texture(
        size,
        size,
        0,
        Usage::empty(),
        Format::A8R8G8B8,
        Pool::Managed,
    )?;
    for level in 0..t.level_count() {
        let s = (size >> level).max(1);
        let cell = (s / 8).max(1);
        let px: Vec<u32> = (0..s * s)
            .map(|i| {
                if ((i % s) / cell + (i / s) / cell).is_multiple_of(2) {
                    a
                } else {
                    b
                }
            })
            .collect();
        t.write_level(level, None, bytemuck::cast_slice(&px), (s * 4) as usize)?;
    }
    Ok(t)
}

/// An orbit camera around the origin.
pub struct Orbit {
    /// Angle around the vertical axis (radians).
    pub yaw: f32,
    /// Elevation (radians).
    pub pitch: f32,
    /// Distance from the target.
    pub distance: f32,
}

impl Orbit {
    /// The view matrix (left-handed, D3D convention).
    pub fn view(&self) -> Mat4 {
        let eye = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            -self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        glam::camera::lh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y)
    }
}
