//! Vertex fetch (fixed-function.md §1.2–§1.4): every D3DDECLTYPE's float4
//! conversion with hand values, FVF layouts, several streams with offsets
//! and strides, stride 0, the frequency divider, instancing, reads past the
//! end; the 8-lane fetch equals the scalar one on every backend.
// States are built step by step, as an application sets them through the device.
#![allow(clippy::field_reassign_with_default)]

use std::sync::Arc;

use warp9::Fvf;
use warp9::internals::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use warp9::vertex::*;

fn conv(t: DeclType, bytes: &[u8]) -> [f32; 4] {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    convert_element(t, &b)
}

#[test]
fn every_decltype_converts_per_the_table() {
    let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert_eq!(conv(DeclType::Float1, &f(&[2.5])), [2.5, 0.0, 0.0, 1.0]);
    assert_eq!(
        conv(DeclType::Float2, &f(&[2.5, -1.0])),
        [2.5, -1.0, 0.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::Float3, &f(&[1.0, 2.0, 3.0])),
        [1.0, 2.0, 3.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::Float4, &f(&[1.0, 2.0, 3.0, 4.0])),
        [1.0, 2.0, 3.0, 4.0]
    );
    // D3DCOLOR 0xAARRGGBB = 0x80FF4000: memory B G R A = 00 40 FF 80.
    assert_eq!(
        conv(DeclType::D3dColor, &0x80FF_4000u32.to_le_bytes()),
        [1.0, 64.0 / 255.0, 0.0, 128.0 / 255.0]
    );
    assert_eq!(
        conv(DeclType::UByte4, &[1, 2, 255, 0]),
        [1.0, 2.0, 255.0, 0.0]
    );
    assert_eq!(
        conv(DeclType::UByte4N, &[0, 51, 255, 102]),
        [0.0, 0.2, 1.0, 0.4]
    );
    let s = |v: &[i16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert_eq!(conv(DeclType::Short2, &s(&[-3, 7])), [-3.0, 7.0, 0.0, 1.0]);
    assert_eq!(
        conv(DeclType::Short4, &s(&[-3, 7, 32767, -32768])),
        [-3.0, 7.0, 32767.0, -32768.0]
    );
    assert_eq!(
        conv(DeclType::Short2N, &s(&[32767, -32768])),
        [1.0, -1.0, 0.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::Short4N, &s(&[0, -32767, 16384, 32767])),
        [0.0, -1.0, 16384.0 / 32767.0, 1.0]
    );
    let u = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert_eq!(
        conv(DeclType::UShort2N, &u(&[65535, 0])),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::UShort4N, &u(&[65535, 0, 13107, 65535])),
        [1.0, 0.0, 0.2, 1.0]
    );
    // UDEC3: fields 1, 512, 1023 and the top bits ignored.
    let d = 1u32 | (512 << 10) | (1023 << 20) | (3 << 30);
    assert_eq!(
        conv(DeclType::UDec3, &d.to_le_bytes()),
        [1.0, 512.0, 1023.0, 1.0]
    );
    // DEC3N: 511 → 1, -512 (0x200) → clamped -1, -1 (0x3FF) → -1/511.
    let d = 511u32 | (0x200 << 10) | (0x3FF << 20);
    assert_eq!(
        conv(DeclType::Dec3N, &d.to_le_bytes()),
        [1.0, -1.0, -1.0 / 511.0, 1.0]
    );
    // FLOAT16: 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800, 65504 = 0x7BFF.
    assert_eq!(
        conv(DeclType::Float16_2, &u(&[0x3C00, 0xC000])),
        [1.0, -2.0, 0.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::Float16_4, &u(&[0x3800, 0x7BFF, 0, 0x3C00])),
        [0.5, 65504.0, 0.0, 1.0]
    );
    assert_eq!(
        conv(DeclType::Float16_4, &u(&[0x7C00, 0xFC00, 0x0001, 0x8000])),
        [f32::INFINITY, f32::NEG_INFINITY, 2f32.powi(-24), -0.0]
    );
    // The other extremes: UBYTE4N 255 → 1, SHORT4N -32768 → clamped -1,
    // USHORT4N 65535 → 1, UDEC3 all ones → 1023, DEC3N -512 → -1.
    assert_eq!(conv(DeclType::UByte4N, &[255; 4]), [1.0; 4]);
    assert_eq!(
        conv(DeclType::Short4N, &s(&[-32768, -32768, 32767, -1])),
        [-1.0, -1.0, 1.0, -1.0 / 32767.0]
    );
    assert_eq!(conv(DeclType::UShort4N, &u(&[65535; 4])), [1.0; 4]);
    assert_eq!(
        conv(DeclType::UDec3, &u32::MAX.to_le_bytes()),
        [1023.0, 1023.0, 1023.0, 1.0]
    );
    let d = 0x200u32 | (0x200 << 10) | (0x1FF << 20);
    assert_eq!(
        conv(DeclType::Dec3N, &d.to_le_bytes()),
        [-1.0, -1.0, 1.0, 1.0]
    );
}

fn stream(data: Vec<u8>, offset: u32, stride: u32, freq: u32) -> Option<StreamInput> {
    Some(StreamInput {
        data: Arc::new(data),
        offset,
        stride,
        freq,
    })
}

struct Fetch8<'a> {
    streams: &'a FetchStreams,
    plan: &'a FetchPlan,
    vertices: [u32; 8],
    instance: u32,
    regs: usize,
}

impl Kernel for Fetch8<'_> {
    type Output = Vec<[[f32; 8]; 4]>;
    fn run<S: Simd>(self, s: S) -> Self::Output {
        let mut regs = vec![[s.splat(-7.0); 4]; self.regs];
        self.streams
            .fetch8(s, self.plan, &self.vertices, self.instance, &mut regs);
        regs.iter().map(|r| r.map(|v| v.to_array())).collect()
    }
}

/// Scalar fetch of `vertices`, checked against the 8-lane fetch on every backend.
fn fetch_all(
    streams: &FetchStreams,
    plan: &FetchPlan,
    vertices: [u32; 8],
    instance: u32,
    regs: usize,
) -> Vec<Vec<[f32; 4]>> {
    let scalar: Vec<Vec<[f32; 4]>> = vertices
        .iter()
        .map(|&v| {
            let mut r = vec![[-7.0f32; 4]; regs];
            streams.fetch1(plan, v, instance, &mut r);
            r
        })
        .collect();
    for b in [Backend::Portable, Backend::new(true)] {
        let soa = dispatch(
            b,
            Fetch8 {
                streams,
                plan,
                vertices,
                instance,
                regs,
            },
        );
        for (lane, want) in scalar.iter().enumerate() {
            for (reg, w) in want.iter().enumerate() {
                let got: [f32; 4] = std::array::from_fn(|c| soa[reg][c][lane]);
                assert_eq!(
                    got.map(f32::to_bits),
                    w.map(f32::to_bits),
                    "{} lane {lane} reg {reg}",
                    b.name()
                );
            }
        }
    }
    scalar
}

#[test]
fn streams_offsets_strides_and_stride_zero() {
    // Stream 0: positions (stride 16, offset 8); stream 3: colours with stride 0.
    let mut s0 = vec![0xEEu8; 8];
    for v in 0..10 {
        for c in [v as f32, 10.0 * v as f32, -1.0] {
            s0.extend(c.to_le_bytes());
        }
        s0.extend([0xAB; 4]);
    }
    let s3 = 0xFF00_FF00u32.to_le_bytes().to_vec();
    let mut streams: [Option<StreamInput>; 16] = Default::default();
    streams[0] = stream(s0, 8, 16, 1);
    streams[3] = stream(s3, 0, 0, 1);
    let fs = FetchStreams::new(streams, false);
    let els = [
        VertexElement::new(0, 0, DeclType::Float3, DeclUsage::Position, 0),
        VertexElement::new(3, 0, DeclType::D3dColor, DeclUsage::Color, 0),
        // An element in an unbound stream reads zeros.
        VertexElement::new(5, 4, DeclType::Float2, DeclUsage::TexCoord, 0),
    ];
    let plan = FetchPlan::new(&els, |e| Some((e.usage as u16 % 3, e.decl_type)));
    let r = fetch_all(&fs, &plan, [0, 1, 2, 3, 9, 9, 4, 5], 0, 3);
    assert_eq!(r[1][0], [1.0, 10.0, -1.0, 1.0]);
    assert_eq!(r[4][0], [9.0, 90.0, -1.0, 1.0]);
    assert_eq!(r[6][1], [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(r[2][2], [0.0, 0.0, 0.0, 1.0]);
    // Past the end: vertex 10 does not exist; a partially present element keeps its present bytes.
    let r = fetch_all(&fs, &plan, [10, 11, 1000, u32::MAX, 0, 0, 0, 0], 0, 3);
    assert_eq!(r[0][0], [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(r[3][0], [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn frequency_divider_and_instancing() {
    let idx = |n: u32| {
        (0..n)
            .flat_map(|i| (i as f32).to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let els = [
        VertexElement::new(0, 0, DeclType::Float1, DeclUsage::Position, 0),
        VertexElement::new(1, 0, DeclType::Float1, DeclUsage::TexCoord, 0),
    ];
    let plan = FetchPlan::new(&els, |e| {
        Some((u16::from(e.usage == DeclUsage::TexCoord), e.decl_type))
    });
    // Non-indexed draw, stream 1 with a plain divider of 3.
    let mut st: [Option<StreamInput>; 16] = Default::default();
    st[0] = stream(idx(64), 0, 4, 1);
    st[1] = stream(idx(64), 0, 4, 3);
    let fs = FetchStreams::new(st.clone(), false);
    assert_eq!(fs.steps[1], StreamStep::Divide(3));
    let r = fetch_all(&fs, &plan, [0, 1, 2, 3, 4, 5, 6, 7], 0, 2);
    let got: Vec<f32> = r.iter().map(|v| v[1][0]).collect();
    assert_eq!(got, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0]);
    // Indexed instancing: stream 0 INDEXEDDATA|4, stream 1 INSTANCEDATA|2.
    st[0] = stream(idx(64), 0, 4, STREAMSOURCE_INDEXEDDATA | 4);
    st[1] = stream(idx(64), 0, 4, STREAMSOURCE_INSTANCEDATA | 2);
    let freqs: Vec<u32> = st
        .iter()
        .map(|s| s.as_ref().map_or(1, |s| s.freq))
        .collect();
    assert_eq!(instancing(&freqs, true), (true, 4));
    assert_eq!(instancing(&freqs, false), (false, 1));
    // Draw validation checks each stream up to its last fetched index,
    // by the same step: vertices 0..=10 of 4 instances.
    assert_eq!(StreamStep::PerVertex.last_index(10, 4), 10);
    assert_eq!(StreamStep::Divide(3).last_index(10, 4), 3);
    assert_eq!(StreamStep::PerInstance(2).last_index(10, 4), 1);
    assert_eq!(StreamStep::PerInstance(2).last_index(10, 0), 0);
    let fs = FetchStreams::new(st.clone(), true);
    for instance in 0..4 {
        let r = fetch_all(&fs, &plan, [5, 6, 7, 8, 9, 10, 11, 12], instance, 2);
        assert_eq!(r[3][0][0], 8.0, "per-vertex stream");
        assert_eq!(
            r[3][1][0],
            (instance / 2) as f32,
            "instance data every 2 instances"
        );
    }
    // The same streams in a non-indexed draw: no instancing, flags make the streams per-vertex.
    let fs = FetchStreams::new(st, false);
    let r = fetch_all(&fs, &plan, [5, 6, 7, 8, 9, 10, 11, 12], 3, 2);
    assert_eq!(r[0][1][0], 5.0);
}

#[test]
fn fvf_layouts_fetch_their_fields() {
    // XYZB3 | LASTBETA_UBYTE4 | NORMAL | DIFFUSE | TEX2 with set 1 of 3 floats.
    let fvf = Fvf::XYZB3
        | Fvf::LASTBETA_UBYTE4
        | Fvf::NORMAL
        | Fvf::DIFFUSE
        | Fvf::TEX2
        | Fvf::texcoord_size(1, 3);
    let els = fvf.to_elements();
    let mut v = vec![];
    for f in [1.0f32, 2.0, 3.0, 0.25, 0.5] {
        v.extend(f.to_le_bytes());
    }
    v.extend([7u8, 9, 200, 255]);
    for f in [0.0f32, 1.0, 0.0] {
        v.extend(f.to_le_bytes());
    }
    v.extend(0xFF10_2030u32.to_le_bytes());
    for f in [0.5f32, 0.75, 1.0, 2.0, 3.0] {
        v.extend(f.to_le_bytes());
    }
    assert_eq!(v.len() as u32, fvf.vertex_size());
    let (layout, plan) = warp9::internals::ffp::FfpInputLayout::new(&els);
    assert_eq!(layout.tex_width, [2, 3, 0, 0, 0, 0, 0, 0]);
    let mut st: [Option<StreamInput>; 16] = Default::default();
    st[0] = stream(v.clone(), 0, v.len() as u32, 1);
    let fs = FetchStreams::new(st, false);
    let r = fetch_all(
        &fs,
        &plan,
        [0; 8],
        0,
        warp9::internals::ffp::state::IN_COUNT,
    );
    use warp9::internals::ffp::state::*;
    assert_eq!(r[0][IN_POSITION0], [1.0, 2.0, 3.0, 1.0]);
    assert_eq!(r[0][IN_BLENDWEIGHT], [0.25, 0.5, 0.0, 1.0]);
    assert_eq!(r[0][IN_BLENDINDICES], [7.0, 9.0, 200.0, 255.0]);
    assert_eq!(r[0][IN_NORMAL0], [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(
        r[0][IN_COLOR0],
        [16.0 / 255.0, 32.0 / 255.0, 48.0 / 255.0, 1.0]
    );
    assert_eq!(r[0][IN_TEXCOORD0], [0.5, 0.75, 0.0, 1.0]);
    assert_eq!(r[0][IN_TEXCOORD0 + 1], [1.0, 2.0, 3.0, 1.0]);
    // LASTBETA_D3DCOLOR indices are read in memory order (decision §3.3).
    let els = (Fvf::XYZB2 | Fvf::LASTBETA_D3DCOLOR).to_elements();
    let (layout, plan) = warp9::internals::ffp::FfpInputLayout::new(&els);
    assert!(layout.has(IN_BLENDINDICES));
    let mut v = vec![];
    for f in [1.0f32, 2.0, 3.0, 0.25] {
        v.extend(f.to_le_bytes());
    }
    v.extend([3u8, 4, 5, 6]);
    let mut st: [Option<StreamInput>; 16] = Default::default();
    st[0] = stream(v, 0, 20, 1);
    let r = fetch_all(&FetchStreams::new(st, false), &plan, [0; 8], 0, IN_COUNT);
    assert_eq!(r[0][IN_BLENDINDICES], [3.0, 4.0, 5.0, 6.0]);
}
