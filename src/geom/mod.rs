//! Geometry after the vertex stage: vertex fetch of pre-transformed
//! vertices, primitive assembly, clipping, and the post-clip vertex arena.
//!
//! Both drivers share this front end (it has no rasterization rules in it:
//! topology, element decoding and homogeneous clipping), and differ from
//! the snap onward.
//!
//! Invariants: every vertex in a [`VertexBuf`] is in D3D9 screen space
//! (`x`, `y` pixels with centres at integers, `z` depth, `rhw` = 1/w > 0)
//! once primitives leave [`clip`]; positions of emitted primitives are
//! finite and inside the guard band.

pub(crate) mod assemble;
pub(crate) mod clip;
pub(crate) mod fetch;

/// Floats before the attributes in a vertex: x, y, z, rhw, point size.
pub(crate) const HEADER: usize = 5;
/// Attribute slot of the diffuse colour (r, g, b, a).
pub(crate) const ATTR_DIFFUSE: usize = 0;
/// Attribute slot of the specular colour (r, g, b, fog factor).
pub(crate) const ATTR_SPECULAR: usize = 4;
/// First attribute of texture coordinate set 0 (4 floats per set).
pub(crate) const ATTR_TEX0: usize = 8;

/// Vertices of one draw: `stride` floats each (`HEADER` + attributes).
#[derive(Clone, Debug, Default)]
pub(crate) struct VertexBuf {
    pub(crate) stride: usize,
    pub(crate) data: Vec<f32>,
}

impl VertexBuf {
    /// Number of vertices.
    pub(crate) fn len(&self) -> usize {
        self.data.len().checked_div(self.stride).unwrap_or(0)
    }

    /// Vertex `i`'s floats.
    pub(crate) fn get(&self, i: u32) -> &[f32] {
        let s = i as usize * self.stride;
        &self.data[s..s + self.stride]
    }

    /// Appends a vertex, returning its index.
    pub(crate) fn push(&mut self, v: &[f32]) -> u32 {
        let i = self.len() as u32;
        self.data.extend_from_slice(&v[..self.stride]);
        i
    }
}

/// What a primitive is, with its vertices in winding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prim {
    /// A point.
    Point(u32),
    /// A line from `v[0]` to `v[1]`; `last` when it ends a list line or the
    /// strip (where D3DRS_LASTPIXEL applies).
    Line {
        v: [u32; 2],
        provoking: u32,
        last: bool,
    },
    /// A triangle whose winding test uses `v` in this order.
    Tri { v: [u32; 3], provoking: u32 },
}

impl Prim {
    /// The vertex numbers of the primitive (1, 2 or 3 of them).
    pub(crate) fn vertices(&self) -> &[u32] {
        match self {
            Prim::Point(v) => std::slice::from_ref(v),
            Prim::Line { v, .. } => v,
            Prim::Tri { v, .. } => v,
        }
    }
}
