//! Vertex fetch of pre-transformed vertices (POSITIONT / D3DFVF_XYZRHW):
//! decodes the elements of every vertex a draw uses into a [`VertexBuf`].
//!
//! Colours are D3DCOLOR (or any declaration type) read as floats; a missing
//! diffuse is opaque white and a missing specular is (0, 0, 0, 0)
//! (fixed-function.md 1.3); missing texture coordinate components are
//! (0, 0, 0, 1). `rhw == 0` reads as 1 (fixed-function.md 2.3).
//!
//! A ps_3_0 drawing pre-transformed vertices instead gets every declared
//! element its inputs name, by semantic ([`FetchLayout::by_semantic`]).

use std::sync::Arc;

use half::f16;

use super::{HEADER, VertexBuf};
use crate::vertex::{DeclType, DeclUsage, VertexDeclaration};

/// One stream's bytes as a draw sees them.
#[derive(Clone, Debug)]
pub(crate) struct StreamView {
    pub(crate) bytes: Arc<Vec<u8>>,
    pub(crate) offset: usize,
    pub(crate) stride: usize,
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    b.get(at..at + 4)
        .map_or(0.0, |w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    b.get(at..at + 2)
        .map_or(0, |w| u16::from_le_bytes([w[0], w[1]]))
}

/// Decodes one element of type `t` at `at` into 4 floats (defaults 0, 0, 0, 1).
pub(crate) fn read_element(b: &[u8], at: usize, t: DeclType) -> [f32; 4] {
    let byte = |i: usize| b.get(at + i).copied().unwrap_or(0);
    let s16 = |i: usize| u16_at(b, at + 2 * i) as i16;
    let snorm16 = |i: usize| (s16(i) as f32 / 32767.0).max(-1.0);
    let mut o = [0.0, 0.0, 0.0, 1.0];
    match t {
        DeclType::Float1 | DeclType::Float2 | DeclType::Float3 | DeclType::Float4 => {
            let n = t.size() as usize / 4;
            for (i, v) in o.iter_mut().enumerate().take(n) {
                *v = f32_at(b, at + 4 * i);
            }
        }
        DeclType::D3dColor => {
            o = [byte(2), byte(1), byte(0), byte(3)].map(|c| c as f32 / 255.0);
        }
        DeclType::UByte4 => o = [0, 1, 2, 3].map(|i| byte(i) as f32),
        DeclType::UByte4N => o = [0, 1, 2, 3].map(|i| byte(i) as f32 / 255.0),
        DeclType::Short2 => {
            o[0] = s16(0) as f32;
            o[1] = s16(1) as f32;
        }
        DeclType::Short4 => o = [0, 1, 2, 3].map(|i| s16(i) as f32),
        DeclType::Short2N => {
            o[0] = snorm16(0);
            o[1] = snorm16(1);
        }
        DeclType::Short4N => o = [0, 1, 2, 3].map(snorm16),
        DeclType::UShort2N => {
            o[0] = u16_at(b, at) as f32 / 65535.0;
            o[1] = u16_at(b, at + 2) as f32 / 65535.0;
        }
        DeclType::UShort4N => o = [0, 1, 2, 3].map(|i| u16_at(b, at + 2 * i) as f32 / 65535.0),
        DeclType::UDec3 | DeclType::Dec3N => {
            let w = u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]);
            for (i, v) in o.iter_mut().enumerate().take(3) {
                let f = (w >> (10 * i)) & 0x3FF;
                *v = if t == DeclType::UDec3 {
                    f as f32
                } else {
                    ((((f << 22) as i32) >> 22) as f32 / 511.0).max(-1.0)
                };
            }
        }
        DeclType::Float16_2 => {
            o[0] = f16::from_bits(u16_at(b, at)).to_f32();
            o[1] = f16::from_bits(u16_at(b, at + 2)).to_f32();
        }
        DeclType::Float16_4 => {
            o = [0, 1, 2, 3].map(|i| f16::from_bits(u16_at(b, at + 2 * i)).to_f32())
        }
        DeclType::Unused => {}
    }
    o
}

/// Which attributes a draw's pre-transformed vertices carry: attribute
/// `4 * k` holds `attrs[k]`'s semantic, or its default when no element of
/// the declaration has that semantic.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FetchLayout {
    /// Semantic (usage, usage index) and default value of each attribute.
    pub(crate) attrs: Vec<(DeclUsage, u8, [f32; 4])>,
}

impl FetchLayout {
    /// The fixed-function layout: diffuse at
    /// [`ATTR_DIFFUSE`](super::ATTR_DIFFUSE), specular at
    /// [`ATTR_SPECULAR`](super::ATTR_SPECULAR), then every texture
    /// coordinate set up to the highest one declared from
    /// [`ATTR_TEX0`](super::ATTR_TEX0).
    pub(crate) fn legacy(decl: &VertexDeclaration) -> FetchLayout {
        let mut sets = 0;
        for e in decl.elements() {
            if e.usage == DeclUsage::TexCoord && e.usage_index < 8 {
                sets = sets.max(e.usage_index as usize + 1);
            }
        }
        let mut attrs = vec![
            (DeclUsage::Color, 0, [1.0; 4]),
            (DeclUsage::Color, 1, [0.0; 4]),
        ];
        attrs.extend((0..sets as u8).map(|t| (DeclUsage::TexCoord, t, [0.0, 0.0, 0.0, 1.0])));
        FetchLayout { attrs }
    }

    /// A layout holding, in order, the semantics of `wanted` that the
    /// declaration provides (a ps_3_0 reading pre-transformed vertices links
    /// its inputs by semantic; those the declaration lacks read 0 and take
    /// no attribute).
    pub(crate) fn by_semantic(
        decl: &VertexDeclaration,
        wanted: impl IntoIterator<Item = (DeclUsage, u8)>,
    ) -> FetchLayout {
        let mut attrs: Vec<(DeclUsage, u8, [f32; 4])> = Vec::new();
        for (usage, index) in wanted {
            let declared = decl
                .elements()
                .iter()
                .any(|e| e.usage == usage && e.usage_index == index);
            let seen = attrs.iter().any(|&(u, i, _)| u == usage && i == index);
            if declared && !seen && usage != DeclUsage::PositionT {
                attrs.push((usage, index, [0.0; 4]));
            }
        }
        FetchLayout { attrs }
    }

    /// Texture coordinate sets of a [`legacy`](Self::legacy) layout.
    pub(crate) fn tex_sets(&self) -> usize {
        self.attrs
            .iter()
            .filter(|a| a.0 == DeclUsage::TexCoord)
            .count()
    }

    /// Floats per vertex in the draw's [`VertexBuf`].
    pub(crate) fn stride(&self) -> usize {
        HEADER + 4 * self.attrs.len()
    }

    /// Attribute offset each declaration element is stored at, if any.
    fn targets(&self, decl: &VertexDeclaration) -> Vec<Option<usize>> {
        decl.elements()
            .iter()
            .map(|e| {
                self.attrs
                    .iter()
                    .position(|&(u, i, _)| u == e.usage && i == e.usage_index)
                    .map(|k| HEADER + 4 * k)
            })
            .collect()
    }
}

/// Decodes vertex `index` of the streams into `out` (`layout.stride()`
/// floats); `targets` is [`FetchLayout::targets`].
fn fetch_vertex(
    decl: &VertexDeclaration,
    streams: &[Option<StreamView>],
    layout: &FetchLayout,
    targets: &[Option<usize>],
    index: u32,
    out: &mut [f32],
) {
    out[..HEADER].fill(0.0);
    for (k, a) in layout.attrs.iter().enumerate() {
        out[HEADER + 4 * k..HEADER + 4 * k + 4].copy_from_slice(&a.2);
    }
    out[4] = f32::NAN; // no per-vertex point size
    for (e, target) in decl.elements().iter().zip(targets) {
        let Some(Some(sv)) = streams.get(e.stream as usize) else {
            continue;
        };
        let at = sv.offset + index as usize * sv.stride + e.offset as usize;
        let v = read_element(&sv.bytes, at, e.decl_type);
        match (e.usage, e.usage_index, target) {
            (DeclUsage::PositionT, 0, _) => {
                out[..4].copy_from_slice(&v);
                if out[3] == 0.0 {
                    out[3] = 1.0;
                }
            }
            (DeclUsage::PSize, 0, _) => out[4] = v[0],
            (_, _, Some(t)) => out[*t..*t + 4].copy_from_slice(&v),
            _ => {}
        }
    }
}

/// Vertices per task of a parallel [`fetch_all`].
const FETCH_CHUNK: usize = 4096;

/// Decodes `count` vertices into a buffer whose vertex `k` is source
/// vertex `index(k)`'s, held in `data` (every float rewritten; passing
/// the last draw's floats reuses their allocation). Chunks of vertices decode in
/// parallel on `pool`: each row depends on its own vertex only.
pub(crate) fn fetch_all(
    decl: &VertexDeclaration,
    streams: &[Option<StreamView>],
    layout: &FetchLayout,
    count: usize,
    index: impl Fn(usize) -> u32 + Sync,
    mut data: Vec<f32>,
    pool: Option<&rayon::ThreadPool>,
) -> VertexBuf {
    use rayon::prelude::*;
    let stride = layout.stride();
    let targets = layout.targets(decl);
    // Not cleared: `fetch_vertex` writes every float of every row, so
    // only growth needs filling (zeroing the whole buffer first was a
    // serial pass over it in every draw).
    data.resize(count * stride, 0.0);
    if stride == 0 {
        return VertexBuf { stride, data };
    }
    let decode = |(chunk, rows): (usize, &mut [f32])| {
        for (k, row) in rows.chunks_exact_mut(stride).enumerate() {
            let i = index(chunk * FETCH_CHUNK + k);
            fetch_vertex(decl, streams, layout, &targets, i, row);
        }
    };
    match pool {
        Some(pool) if count > FETCH_CHUNK => pool.install(|| {
            data.par_chunks_mut(FETCH_CHUNK * stride)
                .enumerate()
                .for_each(decode)
        }),
        _ => data
            .chunks_mut(FETCH_CHUNK * stride)
            .enumerate()
            .for_each(decode),
    }
    VertexBuf { stride, data }
}
