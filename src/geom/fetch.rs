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

use super::{HEADER, VertexBuf};
use crate::vertex::{DeclType, DeclUsage, VertexDeclaration, convert_element};

/// One stream's bytes as a draw sees them.
#[derive(Clone, Debug)]
pub(crate) struct StreamView {
    pub(crate) bytes: Arc<Vec<u8>>,
    pub(crate) offset: usize,
    pub(crate) stride: usize,
}

/// The element of type `t` at `at`, decoded by the one `D3DDECLTYPE`
/// decoder ([`convert_element`]); bytes past the end of `b` read as 0
/// (fixed-function.md 1.3), as in the vertex-shader fetch.
pub(crate) fn read_element(b: &[u8], at: usize, t: DeclType) -> [f32; 4] {
    let mut w = [0u8; 16];
    let src = b.get(at..).unwrap_or(&[]);
    let n = src.len().min(t.size() as usize);
    w[..n].copy_from_slice(&src[..n]);
    convert_element(t, &w)
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

/// Where a decoded element goes in a row.
#[derive(Clone, Copy, Debug)]
enum Dest {
    /// The position header (x, y, z, rhw; rhw 0 reads as 1).
    Position,
    /// The header's point size.
    PointSize,
    /// The attribute at this float of the row.
    Attr(usize),
}

/// One declaration element a draw's rows read: its stream's bytes, where
/// vertex 0's element starts, the stream stride, its type and destination.
#[derive(Clone, Copy, Debug)]
struct Read<'a> {
    bytes: &'a [u8],
    base: usize,
    stride: usize,
    decl_type: DeclType,
    dest: Dest,
}

/// A draw's fetch, resolved once: the row every vertex starts from
/// (defaults, and no per-vertex point size) and the elements to decode
/// into it (those with a stream and a destination), so the per-vertex
/// loop neither searches the layout nor looks streams up.
#[derive(Debug)]
struct Plan<'a> {
    template: Vec<f32>,
    reads: Vec<Read<'a>>,
}

impl<'a> Plan<'a> {
    fn new(
        decl: &VertexDeclaration,
        streams: &'a [Option<StreamView>],
        layout: &FetchLayout,
    ) -> Plan<'a> {
        let mut template = vec![0.0; layout.stride()];
        for (k, a) in layout.attrs.iter().enumerate() {
            template[HEADER + 4 * k..HEADER + 4 * k + 4].copy_from_slice(&a.2);
        }
        template[4] = f32::NAN; // no per-vertex point size
        let mut reads = Vec::new();
        for (e, target) in decl.elements().iter().zip(layout.targets(decl)) {
            let Some(Some(sv)) = streams.get(e.stream as usize) else {
                continue;
            };
            let dest = match (e.usage, e.usage_index, target) {
                (DeclUsage::PositionT, 0, _) => Dest::Position,
                (DeclUsage::PSize, 0, _) => Dest::PointSize,
                (_, _, Some(t)) => Dest::Attr(t),
                _ => continue,
            };
            reads.push(Read {
                bytes: &sv.bytes[..],
                base: sv.offset + e.offset as usize,
                stride: sv.stride,
                decl_type: e.decl_type,
                dest,
            });
        }
        Plan { template, reads }
    }

    /// Decodes vertex `index` into `out` (a row of the template's length).
    #[inline]
    fn fetch(&self, index: u32, out: &mut [f32]) {
        out.copy_from_slice(&self.template);
        for r in &self.reads {
            let at = r.base + index as usize * r.stride;
            let v = read_fast(r.bytes, at, r.decl_type)
                .unwrap_or_else(|| read_element(r.bytes, at, r.decl_type));
            match r.dest {
                Dest::Position => {
                    out[..4].copy_from_slice(&v);
                    if out[3] == 0.0 {
                        out[3] = 1.0;
                    }
                }
                Dest::PointSize => out[4] = v[0],
                Dest::Attr(t) => out[t..t + 4].copy_from_slice(&v),
            }
        }
    }
}

/// [`read_element`] of the common types when the element lies wholly
/// inside `b` (one bounds check instead of one per byte); None otherwise.
#[inline(always)]
fn read_fast(b: &[u8], at: usize, t: DeclType) -> Option<[f32; 4]> {
    let f = |w: &[u8], i: usize| {
        f32::from_le_bytes([w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]])
    };
    match t {
        DeclType::Float4 => {
            let w = b.get(at..at + 16)?;
            Some([f(w, 0), f(w, 1), f(w, 2), f(w, 3)])
        }
        DeclType::Float3 => {
            let w = b.get(at..at + 12)?;
            Some([f(w, 0), f(w, 1), f(w, 2), 1.0])
        }
        DeclType::Float2 => {
            let w = b.get(at..at + 8)?;
            Some([f(w, 0), f(w, 1), 0.0, 1.0])
        }
        DeclType::D3dColor => {
            let w = b.get(at..at + 4)?;
            Some([w[2], w[1], w[0], w[3]].map(|c| c as f32 / 255.0))
        }
        _ => None,
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
    let plan = Plan::new(decl, streams, layout);
    // Not cleared: `Plan::fetch` writes every float of every row, so
    // only growth needs filling (zeroing the whole buffer first was a
    // serial pass over it in every draw).
    data.resize(count * stride, 0.0);
    if stride == 0 {
        return VertexBuf { stride, data };
    }
    let decode = |(chunk, rows): (usize, &mut [f32])| {
        for (k, row) in rows.chunks_exact_mut(stride).enumerate() {
            let i = index(chunk * FETCH_CHUNK + k);
            plan.fetch(i, row);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vertex::VertexElement;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|f| f.to_le_bytes()).collect()
    }

    #[test]
    fn the_fast_reads_equal_the_general_decoder_and_decline_a_short_stream() {
        let mut b = f32s(&[1.5, -2.0, 0.25, 8.0]);
        b.extend([0x10, 0x80, 0xFF, 0x40]);
        for (t, at) in [
            (DeclType::Float4, 0),
            (DeclType::Float3, 0),
            (DeclType::Float2, 4),
            (DeclType::D3dColor, 16),
        ] {
            assert_eq!(read_fast(&b, at, t), Some(read_element(&b, at, t)), "{t:?}");
        }
        // D3DCOLOR is stored b, g, r, a.
        assert_eq!(
            read_fast(&b, 16, DeclType::D3dColor),
            Some([1.0, 128.0 / 255.0, 16.0 / 255.0, 64.0 / 255.0])
        );
        assert_eq!(read_fast(&b, 8, DeclType::Float4), None);
        assert_eq!(read_fast(&b, 17, DeclType::D3dColor), None);
        assert_eq!(read_fast(&b, 0, DeclType::Short2), None);
    }

    #[test]
    fn an_element_cut_by_the_stream_end_reads_its_missing_bytes_as_zero() {
        // SHORT4N at 2: -32768 clamps to -1 (fixed-function.md 1.2); the
        // third short has one byte (0x40, low) and the fourth none.
        let b = [0, 0, 0x00, 0x80, 0xFF, 0x7F, 0x40];
        assert_eq!(
            read_element(&b, 2, DeclType::Short4N),
            [-1.0, 1.0, 64.0 / 32767.0, 0.0]
        );
        // A float with two of its bytes: the high bytes are 0.
        let half = f32::from_bits(0x0000_3F80);
        assert_eq!(
            read_element(&[0x80, 0x3F], 0, DeclType::Float1),
            [half, 0.0, 0.0, 1.0]
        );
        assert_eq!(read_element(&b, 99, DeclType::UDec3), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn rows_hold_the_decoded_elements_over_the_layouts_defaults() {
        // Vertex: POSITIONT (rhw 0), D3DCOLOR diffuse, FLOAT2 tex0; 24 bytes.
        let decl = VertexDeclaration::new(
            vec![
                VertexElement::new(0, 0, DeclType::Float4, DeclUsage::PositionT, 0),
                VertexElement::new(0, 16, DeclType::D3dColor, DeclUsage::Color, 0),
                VertexElement::new(0, 20, DeclType::Float2, DeclUsage::TexCoord, 0),
            ],
            0,
        );
        let mut bytes = f32s(&[10.0, 20.0, 0.5, 0.0]);
        bytes.extend([0, 0, 255, 255]);
        bytes.extend(f32s(&[0.75]));
        // Vertex 1 is cut after its colour: its texture coordinate's
        // second float lies past the stream and reads 0.
        bytes.extend(f32s(&[1.0, 2.0, 0.0, 4.0]));
        bytes.extend([255, 0, 0, 0]);
        bytes.extend(f32s(&[9.0, 5.0]));
        bytes.truncate(24 + 24);
        let streams = [Some(StreamView {
            bytes: Arc::new(bytes),
            offset: 0,
            stride: 24,
        })];
        let layout = FetchLayout::legacy(&decl);
        let buf = fetch_all(&decl, &streams, &layout, 3, |k| k as u32, Vec::new(), None);
        assert_eq!(buf.stride, HEADER + 12);
        let row = |i: u32| buf.get(i).to_vec();
        let r0 = row(0);
        assert_eq!(&r0[..4], &[10.0, 20.0, 0.5, 1.0], "rhw 0 reads 1");
        assert!(r0[4].is_nan(), "no point size");
        assert_eq!(&r0[5..9], &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(&r0[9..13], &[0.0; 4], "specular default");
        // The element overlaps the next vertex (the declaration says so):
        // its second float is vertex 1's x.
        assert_eq!(&r0[13..17], &[0.75, 1.0, 0.0, 1.0]);
        let r1 = row(1);
        assert_eq!(&r1[..4], &[1.0, 2.0, 0.0, 4.0]);
        assert_eq!(&r1[5..9], &[0.0, 0.0, 1.0, 0.0]);
        assert_eq!(&r1[13..17], &[9.0, 0.0, 0.0, 1.0]);
        // Vertex 2 lies wholly past the stream: every element reads 0
        // (rhw then 1), the defaults stay where no element is read.
        let r2 = row(2);
        assert_eq!(&r2[..4], &[0.0, 0.0, 0.0, 1.0]);
        assert_eq!(&r2[5..9], &[0.0; 4]);
    }
}
