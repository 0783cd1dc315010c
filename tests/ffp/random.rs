//! Warp vs Reference on random fixed-function states: thousands of random
//! states, declarations and vertices (NaN, INF, huge and denormal values
//! included) through the 8-lane vertex routine on every SIMD backend and
//! the scalar Reference, and random texture-stage setups through both
//! cascades; every output must be bit-identical and nothing may panic.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use crate::ffp_common;

use std::sync::Arc;

use ffp_common::*;
use glam::{Mat4, Vec3};
use warp9::internals::ffp::key::DrawOptions;
use warp9::internals::ffp::stages::StageTexture;
use warp9::internals::ffp::*;
use warp9::state::*;
use warp9::vertex::{DeclType, DeclUsage, FetchStreams, StreamInput, VertexElement};

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 8) as f32 / (1u32 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    /// Mostly moderate values, sometimes special ones.
    fn float(&mut self) -> f32 {
        match self.below(40) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -f32::INFINITY,
            3 => 1e30,
            4 => -1e-40,
            5 => 0.0,
            6 => f32::from_bits(self.next()),
            _ => self.range(-4.0, 4.0),
        }
    }
    fn color(&mut self) -> [f32; 4] {
        std::array::from_fn(|_| {
            if self.chance(5) {
                self.float()
            } else {
                self.unit()
            }
        })
    }
    fn mat(&mut self) -> Mat4 {
        match self.below(12) {
            0 => Mat4::IDENTITY,
            1 => Mat4::from_scale(Vec3::new(self.range(-2.0, 2.0), 0.0, 1.0)),
            2 => Mat4::from_cols_array(&std::array::from_fn(|_| self.float())),
            _ => {
                Mat4::from_translation(Vec3::new(
                    self.range(-3.0, 3.0),
                    self.range(-3.0, 3.0),
                    self.range(0.0, 6.0),
                )) * Mat4::from_rotation_y(self.range(-3.0, 3.0))
                    * Mat4::from_scale(Vec3::new(
                        self.range(0.5, 2.0),
                        self.range(0.5, 2.0),
                        self.range(0.5, 2.0),
                    ))
            }
        }
    }
    fn vec3(&mut self) -> Vec3 {
        Vec3::new(
            self.range(-3.0, 3.0),
            self.range(-3.0, 3.0),
            self.range(-3.0, 3.0),
        )
    }
}

fn random_light(r: &mut Rng) -> Light {
    let light_type =
        [LightType::Directional, LightType::Point, LightType::Spot][r.below(3) as usize];
    let theta = r.range(0.0, 3.0);
    Light {
        light_type,
        diffuse: r.color(),
        specular: r.color(),
        ambient: if r.chance(50) { [0.0; 4] } else { r.color() },
        position: r.vec3(),
        direction: r.vec3(),
        range: if r.chance(10) {
            0.0
        } else {
            r.range(0.0, 20.0)
        },
        falloff: if r.chance(20) { 0.0 } else { r.range(0.0, 4.0) },
        attenuation0: r.range(0.0, 2.0),
        attenuation1: if r.chance(30) { 0.0 } else { r.range(0.0, 1.0) },
        attenuation2: if r.chance(30) { 0.0 } else { r.range(0.0, 1.0) },
        theta,
        phi: theta + r.range(0.0, 1.0),
    }
}

fn random_state(r: &mut Rng) -> FfpState {
    let mut s = FfpState::default();
    use RenderStateType as R;
    let bools = [
        R::Lighting,
        R::SpecularEnable,
        R::LocalViewer,
        R::NormalizeNormals,
        R::ColorVertex,
        R::FogEnable,
        R::RangeFogEnable,
        R::PointScaleEnable,
        R::IndexedVertexBlendEnable,
        R::Clipping,
    ];
    for k in bools {
        s.render[k.raw() as usize] = u32::from(r.chance(50));
    }
    for k in [
        R::DiffuseMaterialSource,
        R::SpecularMaterialSource,
        R::AmbientMaterialSource,
        R::EmissiveMaterialSource,
    ] {
        s.render[k.raw() as usize] = r.below(4);
    }
    s.render[R::VertexBlend.raw() as usize] = [0, 1, 2, 3, 255, 256, 7][r.below(7) as usize];
    s.render[R::FogVertexMode.raw() as usize] = r.below(5);
    s.render[R::FogTableMode.raw() as usize] = if r.chance(70) { 0 } else { r.below(4) };
    s.render[R::Ambient.raw() as usize] = r.next();
    s.render[R::ClipPlaneEnable.raw() as usize] = r.next() & 0xFF;
    let floats = [
        (R::FogStart, r.range(-1.0, 3.0)),
        (R::FogEnd, r.range(-1.0, 8.0)),
        (R::FogDensity, r.range(0.0, 2.0)),
        (R::TweenFactor, r.float()),
        (R::PointSize, r.range(0.0, 10.0)),
        (R::PointSizeMin, r.range(0.0, 3.0)),
        (R::PointSizeMax, r.range(0.0, 300.0)),
        (R::PointScaleA, r.range(-0.5, 2.0)),
        (R::PointScaleB, r.range(0.0, 1.0)),
        (R::PointScaleC, r.range(0.0, 1.0)),
    ];
    for (k, v) in floats {
        s.render[k.raw() as usize] = v.to_bits();
    }
    if r.chance(10) {
        s.render[R::FogEnd.raw() as usize] = s.render[R::FogStart.raw() as usize];
    }
    for t in [TransformType::View, TransformType::Projection] {
        s.set_transform(t, r.mat());
    }
    for i in 0..8u8 {
        let m = r.mat();
        s.set_transform(TransformType::Texture(i), m);
    }
    for i in 0..=255u8 {
        if i < 5 || r.chance(5) {
            let m = r.mat();
            s.set_transform(TransformType::World(i), m);
        }
    }
    for _ in 0..r.below(9) {
        s.lights.push(random_light(r));
    }
    s.material = Material {
        diffuse: r.color(),
        ambient: r.color(),
        specular: r.color(),
        emissive: r.color(),
        power: if r.chance(20) {
            0.0
        } else {
            r.range(0.0, 40.0)
        },
    };
    for st in 0..8 {
        let tci = r.below(9) | ([0, 1, 2, 3, 4, 9][r.below(6) as usize] << 16);
        s.stage[st][TextureStageStateType::TexCoordIndex.raw() as usize] = tci;
        let ttff = r.below(6) | if r.chance(30) { 256 } else { 0 };
        s.stage[st][TextureStageStateType::TextureTransformFlags.raw() as usize] = ttff;
    }
    for p in s.clip_planes.iter_mut() {
        *p = std::array::from_fn(|_| r.range(-1.0, 1.0));
    }
    s.viewport.height = 1 + r.below(2000);
    s
}

const TYPES: [DeclType; 17] = [
    DeclType::Float1,
    DeclType::Float2,
    DeclType::Float3,
    DeclType::Float4,
    DeclType::D3dColor,
    DeclType::UByte4,
    DeclType::Short2,
    DeclType::Short4,
    DeclType::UByte4N,
    DeclType::Short2N,
    DeclType::Short4N,
    DeclType::UShort2N,
    DeclType::UShort4N,
    DeclType::UDec3,
    DeclType::Dec3N,
    DeclType::Float16_2,
    DeclType::Float16_4,
];

/// A random declaration over streams 0 and 1, and its strides.
fn random_decl(r: &mut Rng) -> (Vec<VertexElement>, [u16; 2]) {
    let mut els = vec![];
    let mut off = [0u16; 2];
    let mut push = |r: &mut Rng, t: DeclType, u: DeclUsage, i: u8| {
        let s = if r.chance(20) { 1 } else { 0 };
        els.push(VertexElement::new(s, off[s as usize], t, u, i));
        off[s as usize] += t.size() as u16;
    };
    let pick = |r: &mut Rng, common: DeclType| {
        if r.chance(70) {
            common
        } else {
            TYPES[r.below(17) as usize]
        }
    };
    if r.chance(10) {
        push(r, DeclType::Float4, DeclUsage::PositionT, 0);
    } else {
        let t = pick(r, DeclType::Float3);
        push(r, t, DeclUsage::Position, 0);
    }
    let optional = [
        (DeclUsage::Position, 1, DeclType::Float3),
        (DeclUsage::BlendWeight, 0, DeclType::Float3),
        (DeclUsage::BlendIndices, 0, DeclType::UByte4),
        (DeclUsage::Normal, 0, DeclType::Float3),
        (DeclUsage::Normal, 1, DeclType::Float3),
        (DeclUsage::PSize, 0, DeclType::Float1),
        (DeclUsage::Color, 0, DeclType::D3dColor),
        (DeclUsage::Color, 1, DeclType::D3dColor),
    ];
    for (u, i, t) in optional {
        if r.chance(45) {
            let t = if u == DeclUsage::BlendIndices {
                [DeclType::UByte4, DeclType::D3dColor, DeclType::Float1][r.below(3) as usize]
            } else {
                pick(r, t)
            };
            push(r, t, u, i);
        }
    }
    for i in 0..8 {
        if r.chance(30) {
            let t = pick(r, DeclType::Float2);
            push(r, t, DeclUsage::TexCoord, i);
        }
    }
    (els, [off[0].max(4), off[1].max(4)])
}

fn random_bytes(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let f = if r.chance(25) {
            f32::from_bits(r.next())
        } else {
            r.float()
        };
        // Blend indices and colours also see arbitrary bytes through the float bits.
        v.extend(f.to_le_bytes());
    }
    v.truncate(n);
    v
}

#[test]
fn vertex_warp_equals_reference_on_random_states() {
    let mut r = Rng(0x9E37_79B9);
    let mut vertices_checked = 0;
    for case in 0..700 {
        let state = random_state(&mut r);
        let (els, strides) = random_decl(&mut r);
        let n = 1 + r.below(20) as usize;
        let mut streams: [Option<StreamInput>; 16] = Default::default();
        for s in 0..2 {
            // Sometimes short buffers: reads past the end give zeros.
            let len = strides[s] as usize * n - if r.chance(10) { 3 } else { 0 };
            streams[s] = Some(StreamInput {
                data: Arc::new(random_bytes(&mut r, len)),
                offset: 0,
                stride: if r.chance(5) {
                    0
                } else {
                    u32::from(strides[s])
                },
                freq: 1,
            });
        }
        let streams = FetchStreams::new(streams, false);
        let opts = DrawOptions {
            points: r.chance(30),
            tex_stages: r.next() as u8,
            max_lights: if r.chance(20) { r.below(4) } else { u32::MAX },
        };
        let vertices: Vec<u32> = (0..n as u32)
            .map(|i| if r.chance(10) { r.below(n as u32) } else { i })
            .collect();
        let out = run_streams(&state, &els, &streams, &vertices, 0, opts);
        assert_eq!(out.len(), n, "case {case}");
        vertices_checked += n;
    }
    assert!(vertices_checked > 5000, "{vertices_checked}");
}

fn random_tex(r: &mut Rng) -> Option<TexFn> {
    const FNS: [TexFn; 4] = [
        |c, _| [c[0].fract().abs(), c[1].fract().abs(), 0.5, 0.75],
        |c, d| {
            [
                (c[0] * 0.5 + d[0]).fract().abs(),
                (c[1] + d[4]).fract().abs(),
                (c[2] * 3.0).fract().abs(),
                0.25,
            ]
        },
        |_, _| [0.9, -0.4, 0.6, 1.0],
        |c, d| {
            [
                d[1].abs().min(1.0),
                d[3].abs().min(1.0),
                c[3].abs().fract(),
                (c[0] + c[1]).fract().abs(),
            ]
        },
    ];
    r.chance(80).then(|| FNS[r.below(4) as usize])
}

#[test]
fn pixel_warp_equals_reference_on_random_stages() {
    let mut r = Rng(0x1234_5677);
    for case in 0..2500 {
        let mut s = FfpState::default();
        s.render[RenderStateType::SpecularEnable.raw() as usize] = u32::from(r.chance(50));
        s.render[RenderStateType::TextureFactor.raw() as usize] = r.next();
        let stages = 1 + r.below(8) as usize;
        for st in 0..8 {
            let op = |r: &mut Rng| {
                if st >= stages {
                    1
                } else if r.chance(3) {
                    r.below(30)
                } else {
                    1 + r.below(26)
                }
            };
            let arg = |r: &mut Rng| {
                if r.chance(3) {
                    r.below(64)
                } else {
                    r.below(7) | ([0, 0x10, 0x20, 0x30][r.below(4) as usize])
                }
            };
            let st_raw = &mut s.stage[st];
            use TextureStageStateType as T;
            st_raw[T::ColorOp.raw() as usize] = op(&mut r);
            st_raw[T::AlphaOp.raw() as usize] = if r.chance(15) { 1 } else { op(&mut r) };
            for k in [
                T::ColorArg0,
                T::ColorArg1,
                T::ColorArg2,
                T::AlphaArg0,
                T::AlphaArg1,
                T::AlphaArg2,
            ] {
                st_raw[k.raw() as usize] = arg(&mut r);
            }
            st_raw[T::ResultArg.raw() as usize] = if r.chance(30) { 5 } else { 1 };
            st_raw[T::Constant.raw() as usize] = r.next();
            for k in [
                T::BumpEnvMat00,
                T::BumpEnvMat01,
                T::BumpEnvMat10,
                T::BumpEnvMat11,
                T::BumpEnvLScale,
                T::BumpEnvLOffset,
            ] {
                st_raw[k.raw() as usize] = r.range(-2.0, 2.0).to_bits();
            }
        }
        let fns: [Option<TexFn>; 8] = std::array::from_fn(|_| random_tex(&mut r));
        let textures = std::array::from_fn(|i| match fns[i] {
            None => StageTexture::None,
            Some(_) if r.chance(20) => StageTexture::Cube,
            Some(_) => StageTexture::Flat,
        });
        let divisors = std::array::from_fn(|_| {
            if r.chance(30) {
                Some(r.below(4) as u8)
            } else {
                None
            }
        });
        let inp: [_; 8] = std::array::from_fn(|_| {
            // Interpolated colours are in [0, 1] (clamped per vertex); NaN may still arrive.
            let c = |r: &mut Rng| -> [f32; 4] {
                std::array::from_fn(|_| if r.chance(2) { f32::NAN } else { r.unit() })
            };
            let mut p = pixel(c(&mut r), c(&mut r), [0.0; 4]);
            for t in p.texcoord.iter_mut() {
                *t = std::array::from_fn(|_| {
                    if r.chance(2) {
                        r.float()
                    } else {
                        r.range(-2.0, 2.0)
                    }
                });
            }
            p
        });
        let active = if r.chance(70) { 0xFF } else { r.next() as u8 };
        let out = shade(&s, textures, divisors, &inp, &TestTextures(fns), active);
        assert!(
            out.iter()
                .flatten()
                .all(|v| v.is_nan() || (0.0..=1.0).contains(v)),
            "case {case}: {out:?}"
        );
    }
}
