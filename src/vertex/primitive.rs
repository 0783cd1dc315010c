//! `D3DPRIMITIVETYPE`: how a draw's vertices form primitives, and how many
//! vertices a count of primitives uses.

/// `D3DPRIMITIVETYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveType {
    /// D3DPT_POINTLIST (1).
    PointList,
    /// D3DPT_LINELIST (2).
    LineList,
    /// D3DPT_LINESTRIP (3).
    LineStrip,
    /// D3DPT_TRIANGLELIST (4).
    TriangleList,
    /// D3DPT_TRIANGLESTRIP (5).
    TriangleStrip,
    /// D3DPT_TRIANGLEFAN (6).
    TriangleFan,
}

impl PrimitiveType {
    /// The type with D3DPRIMITIVETYPE value `raw`.
    pub fn from_raw(raw: u32) -> Option<PrimitiveType> {
        Some(match raw {
            1 => PrimitiveType::PointList,
            2 => PrimitiveType::LineList,
            3 => PrimitiveType::LineStrip,
            4 => PrimitiveType::TriangleList,
            5 => PrimitiveType::TriangleStrip,
            6 => PrimitiveType::TriangleFan,
            _ => return None,
        })
    }

    /// Vertices `count` primitives of this type use (saturating).
    pub fn vertex_count(self, count: u32) -> u64 {
        let c = u64::from(count);
        match self {
            PrimitiveType::PointList => c,
            PrimitiveType::LineList => 2 * c,
            PrimitiveType::LineStrip => c + 1,
            PrimitiveType::TriangleList => 3 * c,
            PrimitiveType::TriangleStrip | PrimitiveType::TriangleFan => c + 2,
        }
    }
}
