//! Shared helpers of the rasterizer tests: devices, pre-transformed vertices, readback.
#![allow(dead_code)]

use warp9::state::CmpFunc;
use warp9::{
    ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, PrimitiveType,
    RenderState, SimdChoice,
};

/// A pre-transformed vertex with a diffuse and a specular colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub rhw: f32,
    pub diffuse: u32,
    pub specular: u32,
}

pub fn v(x: f32, y: f32, z: f32, diffuse: u32) -> V {
    V {
        x,
        y,
        z,
        rhw: 1.0,
        diffuse,
        specular: 0,
    }
}

pub const FVF: Fvf = Fvf::XYZRHW.union(Fvf::DIFFUSE).union(Fvf::SPECULAR);

pub fn bytes(vs: &[V]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vs.len() * 24);
    for p in vs {
        for f in [p.x, p.y, p.z, p.rhw] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&p.diffuse.to_le_bytes());
        out.extend_from_slice(&p.specular.to_le_bytes());
    }
    out
}

pub struct Opts {
    pub driver: DriverType,
    pub level: FeatureLevel,
    pub size: (u32, u32),
    pub format: Format,
    pub depth: Option<Format>,
    pub threads: usize,
    pub simd: SimdChoice,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            driver: DriverType::Warp,
            level: FeatureLevel::L9_3,
            size: (16, 16),
            format: Format::A8R8G8B8,
            depth: None,
            threads: 1,
            simd: SimdChoice::Auto,
        }
    }
}

pub fn device(o: &Opts) -> Device {
    let drivers = [o.driver];
    let levels = [o.level];
    let d = Device::create(&DeviceDesc {
        drivers: &drivers,
        levels: &levels,
        back_buffer: (o.size.0, o.size.1, o.format),
        depth_stencil: o.depth,
        threads: Some(o.threads),
        simd: o.simd,
        ..DeviceDesc::default()
    })
    .expect("device");
    let mut d = d;
    d.set_fvf(FVF).unwrap();
    d.set_render_state(RenderState::CullMode(warp9::state::Cull::None));
    d.clear(&[], ClearFlags::TARGET, 0, 1.0, 0).unwrap();
    d
}

pub fn draw(d: &mut Device, kind: PrimitiveType, vs: &[V]) {
    let n = match kind {
        PrimitiveType::PointList => vs.len(),
        PrimitiveType::LineList => vs.len() / 2,
        PrimitiveType::LineStrip => vs.len().saturating_sub(1),
        PrimitiveType::TriangleList => vs.len() / 3,
        _ => vs.len().saturating_sub(2),
    } as u32;
    if n > 0 {
        d.draw_primitive_up(kind, n, &bytes(vs), 24).unwrap();
    }
}

/// The back buffer as ARGB words.
pub fn pixels(d: &Device) -> Vec<u32> {
    d.read_surface_argb(&d.back_buffer()).unwrap()
}

/// The back buffer's raw bytes.
pub fn raw(d: &Device) -> Vec<u8> {
    d.back_buffer().read_bytes()
}

/// A coverage map: '#' where the pixel differs from `bg`, '.' elsewhere.
pub fn coverage(d: &Device, bg: u32) -> Vec<String> {
    let (w, _) = {
        let desc = d.back_buffer().desc();
        (desc.width, desc.height)
    };
    pixels(d)
        .chunks(w as usize)
        .map(|row| {
            row.iter()
                .map(|&p| if p == bg { '.' } else { '#' })
                .collect()
        })
        .collect()
}

pub fn tri(d: &mut Device, p: [(f32, f32); 3], color: u32) {
    let vs: Vec<V> = p.iter().map(|&(x, y)| v(x, y, 0.5, color)).collect();
    draw(d, PrimitiveType::TriangleList, &vs);
}

/// The Warp configurations each differential test compares with
/// Reference: one thread and two on the CPU's backend, and the portable one.
pub const WARP_RUNS: [(usize, SimdChoice); 3] = [
    (1, SimdChoice::Auto),
    (2, SimdChoice::Auto),
    (1, SimdChoice::Portable),
];

/// A xorshift generator: the same draws on every run.
pub struct Rng(pub u32);

impl Rng {
    /// The next 32 random bits.
    pub fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    /// A value in 0..n.
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    /// A value in [lo, hi).
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (self.next() >> 8) as f32 / (1 << 24) as f32 * (hi - lo)
    }
    /// One element of `s`.
    pub fn pick<T: Copy>(&mut self, s: &[T]) -> T {
        s[self.below(s.len() as u32) as usize]
    }
}

/// Every depth and stencil comparison.
pub const ALL_CMP: [CmpFunc; 8] = [
    CmpFunc::Never,
    CmpFunc::Less,
    CmpFunc::Equal,
    CmpFunc::LessEqual,
    CmpFunc::Greater,
    CmpFunc::NotEqual,
    CmpFunc::GreaterEqual,
    CmpFunc::Always,
];

/// Asserts that a Warp run's colour and depth-stencil bytes (`got`) equal
/// Reference's (`want`); `what` names the run in the message.
pub fn assert_same_bytes(what: &str, got: &(Vec<u8>, Vec<u8>), want: &(Vec<u8>, Vec<u8>)) {
    assert!(got.0 == want.0, "{what}: colour differs");
    assert!(got.1 == want.1, "{what}: depth differs");
}
