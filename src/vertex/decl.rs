//! Vertex declarations (`D3DVERTEXELEMENT9`, `IDirect3DVertexDeclaration9`).

use std::sync::Arc;

use super::fvf::Fvf;
use crate::state::StateValue;

/// `D3DDECLTYPE`: how one vertex element is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DeclType {
    /// D3DDECLTYPE_FLOAT1.
    Float1 = 0,
    /// D3DDECLTYPE_FLOAT2.
    Float2 = 1,
    /// D3DDECLTYPE_FLOAT3.
    Float3 = 2,
    /// D3DDECLTYPE_FLOAT4.
    Float4 = 3,
    /// D3DDECLTYPE_D3DCOLOR: 4 bytes ARGB, read as (r, g, b, a).
    D3dColor = 4,
    /// D3DDECLTYPE_UBYTE4.
    UByte4 = 5,
    /// D3DDECLTYPE_SHORT2.
    Short2 = 6,
    /// D3DDECLTYPE_SHORT4.
    Short4 = 7,
    /// D3DDECLTYPE_UBYTE4N.
    UByte4N = 8,
    /// D3DDECLTYPE_SHORT2N.
    Short2N = 9,
    /// D3DDECLTYPE_SHORT4N.
    Short4N = 10,
    /// D3DDECLTYPE_USHORT2N.
    UShort2N = 11,
    /// D3DDECLTYPE_USHORT4N.
    UShort4N = 12,
    /// D3DDECLTYPE_UDEC3.
    UDec3 = 13,
    /// D3DDECLTYPE_DEC3N.
    Dec3N = 14,
    /// D3DDECLTYPE_FLOAT16_2.
    Float16_2 = 15,
    /// D3DDECLTYPE_FLOAT16_4.
    Float16_4 = 16,
    /// D3DDECLTYPE_UNUSED (only in the end marker).
    Unused = 17,
}

impl DeclType {
    /// The type with D3DDECLTYPE value `raw`.
    pub fn from_raw(raw: u8) -> Option<DeclType> {
        use DeclType::*;
        const ALL: [DeclType; 18] = [
            Float1, Float2, Float3, Float4, D3dColor, UByte4, Short2, Short4, UByte4N, Short2N,
            Short4N, UShort2N, UShort4N, UDec3, Dec3N, Float16_2, Float16_4, Unused,
        ];
        ALL.get(raw as usize).copied()
    }

    /// Bytes the element occupies in a vertex.
    pub const fn size(self) -> u32 {
        use DeclType::*;
        match self {
            Float1 | D3dColor | UByte4 | Short2 | UByte4N | Short2N | UShort2N | UDec3 | Dec3N
            | Float16_2 => 4,
            Float2 | Short4 | Short4N | UShort4N | Float16_4 => 8,
            Float3 => 12,
            Float4 => 16,
            Unused => 0,
        }
    }

    /// The `D3DDTCAPS_*` bit that must be set for this type, if it is optional.
    pub const fn cap_bit(self) -> Option<u32> {
        use DeclType::*;
        match self {
            UByte4 => Some(0x1),
            UByte4N => Some(0x2),
            Short2N => Some(0x4),
            Short4N => Some(0x8),
            UShort2N => Some(0x10),
            UShort4N => Some(0x20),
            UDec3 => Some(0x40),
            Dec3N => Some(0x80),
            Float16_2 => Some(0x100),
            Float16_4 => Some(0x200),
            _ => None,
        }
    }
}

/// `D3DDECLMETHOD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum DeclMethod {
    /// D3DDECLMETHOD_DEFAULT.
    #[default]
    Default = 0,
    /// D3DDECLMETHOD_PARTIALU.
    PartialU = 1,
    /// D3DDECLMETHOD_PARTIALV.
    PartialV = 2,
    /// D3DDECLMETHOD_CROSSUV.
    CrossUv = 3,
    /// D3DDECLMETHOD_UV.
    Uv = 4,
    /// D3DDECLMETHOD_LOOKUP.
    Lookup = 5,
    /// D3DDECLMETHOD_LOOKUPPRESAMPLED.
    LookupPresampled = 6,
}

/// `D3DDECLUSAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DeclUsage {
    /// D3DDECLUSAGE_POSITION.
    Position = 0,
    /// D3DDECLUSAGE_BLENDWEIGHT.
    BlendWeight = 1,
    /// D3DDECLUSAGE_BLENDINDICES.
    BlendIndices = 2,
    /// D3DDECLUSAGE_NORMAL.
    Normal = 3,
    /// D3DDECLUSAGE_PSIZE.
    PSize = 4,
    /// D3DDECLUSAGE_TEXCOORD.
    TexCoord = 5,
    /// D3DDECLUSAGE_TANGENT.
    Tangent = 6,
    /// D3DDECLUSAGE_BINORMAL.
    Binormal = 7,
    /// D3DDECLUSAGE_TESSFACTOR.
    TessFactor = 8,
    /// D3DDECLUSAGE_POSITIONT: pre-transformed position (no vertex stage).
    PositionT = 9,
    /// D3DDECLUSAGE_COLOR.
    Color = 10,
    /// D3DDECLUSAGE_FOG.
    Fog = 11,
    /// D3DDECLUSAGE_DEPTH.
    Depth = 12,
    /// D3DDECLUSAGE_SAMPLE.
    Sample = 13,
}

impl DeclUsage {
    /// Every usage, in D3DDECLUSAGE order (the index is the raw value).
    pub const ALL: [DeclUsage; 14] = [
        DeclUsage::Position,
        DeclUsage::BlendWeight,
        DeclUsage::BlendIndices,
        DeclUsage::Normal,
        DeclUsage::PSize,
        DeclUsage::TexCoord,
        DeclUsage::Tangent,
        DeclUsage::Binormal,
        DeclUsage::TessFactor,
        DeclUsage::PositionT,
        DeclUsage::Color,
        DeclUsage::Fog,
        DeclUsage::Depth,
        DeclUsage::Sample,
    ];

    /// The usage with D3DDECLUSAGE value `raw`.
    pub fn from_raw(raw: u8) -> Option<DeclUsage> {
        Self::ALL.get(raw as usize).copied()
    }

    /// The lower-case name shader assembly uses in `dcl_*` (`texcoord`,
    /// `position`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Position => "position",
            Self::BlendWeight => "blendweight",
            Self::BlendIndices => "blendindices",
            Self::Normal => "normal",
            Self::PSize => "psize",
            Self::TexCoord => "texcoord",
            Self::Tangent => "tangent",
            Self::Binormal => "binormal",
            Self::TessFactor => "tessfactor",
            Self::PositionT => "positiont",
            Self::Color => "color",
            Self::Fog => "fog",
            Self::Depth => "depth",
            Self::Sample => "sample",
        }
    }
}

impl DeclMethod {
    /// The method with D3DDECLMETHOD value `raw`.
    pub fn from_raw(raw: u8) -> Option<DeclMethod> {
        use DeclMethod::*;
        const ALL: [DeclMethod; 7] = [
            Default,
            PartialU,
            PartialV,
            CrossUv,
            Uv,
            Lookup,
            LookupPresampled,
        ];
        ALL.get(raw as usize).copied()
    }
}

/// `D3DVERTEXELEMENT9`: one element of a vertex declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// Stream index.
    pub stream: u16,
    /// Byte offset inside the stream's vertex.
    pub offset: u16,
    /// Storage type.
    pub decl_type: DeclType,
    /// Tessellation method (only DEFAULT is drawn).
    pub method: DeclMethod,
    /// Semantic.
    pub usage: DeclUsage,
    /// Semantic index.
    pub usage_index: u8,
}

impl VertexElement {
    /// An element with the default method.
    pub const fn new(
        stream: u16,
        offset: u16,
        decl_type: DeclType,
        usage: DeclUsage,
        usage_index: u8,
    ) -> VertexElement {
        VertexElement {
            stream,
            offset,
            decl_type,
            method: DeclMethod::Default,
            usage,
            usage_index,
        }
    }
}

#[derive(Debug)]
pub(crate) struct DeclInner {
    pub(crate) elements: Vec<VertexElement>,
    /// The FVF this declaration is equivalent to (0 if none).
    pub(crate) fvf: u32,
}

/// A validated vertex declaration: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct VertexDeclaration(pub(crate) Arc<DeclInner>);

impl VertexDeclaration {
    pub(crate) fn new(elements: Vec<VertexElement>, fvf: u32) -> VertexDeclaration {
        VertexDeclaration(Arc::new(DeclInner { elements, fvf }))
    }

    /// The elements (without the D3DDECL_END marker).
    pub fn elements(&self) -> &[VertexElement] {
        &self.0.elements
    }

    /// The equivalent FVF, if the declaration was made from one.
    pub fn fvf(&self) -> Option<Fvf> {
        (self.0.fvf != 0).then(|| Fvf::from_bits_retain(self.0.fvf))
    }

    /// Whether the declaration carries pre-transformed positions (POSITIONT).
    pub fn is_pretransformed(&self) -> bool {
        self.0
            .elements
            .iter()
            .any(|e| e.usage == DeclUsage::PositionT)
    }
}

/// A raw `D3DVERTEXELEMENT9` as applications write it (for replay).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RawVertexElement {
    /// Stream (0xFF in D3DDECL_END).
    pub stream: u16,
    /// Offset.
    pub offset: u16,
    /// D3DDECLTYPE.
    pub decl_type: u8,
    /// D3DDECLMETHOD.
    pub method: u8,
    /// D3DDECLUSAGE.
    pub usage: u8,
    /// Usage index.
    pub usage_index: u8,
}

impl RawVertexElement {
    /// D3DDECL_END().
    pub const END: RawVertexElement = RawVertexElement {
        stream: 0xFF,
        offset: 0,
        decl_type: 17,
        method: 0,
        usage: 0,
        usage_index: 0,
    };
}

/// `StateValue` for DeclType lets generic code treat it like other D3D numbers.
impl StateValue for DeclType {
    fn to_raw(self) -> u32 {
        self as u32
    }
    fn from_raw(raw: u32) -> Option<Self> {
        u8::try_from(raw).ok().and_then(DeclType::from_raw)
    }
}

#[cfg(test)]
mod tests {
    use super::DeclUsage;

    /// Vertex declarations and shader `dcl` tokens share this one decoder:
    /// raw values 0..=13 map to themselves, everything above is refused.
    #[test]
    fn usage_raw_values_round_trip_and_stop_at_sample() {
        for raw in 0..=u8::MAX {
            let usage = DeclUsage::from_raw(raw);
            assert_eq!(
                usage.map(|u| u as u8),
                (raw < 14).then_some(raw),
                "raw {raw}"
            );
        }
        assert_eq!(DeclUsage::from_raw(9), Some(DeclUsage::PositionT));
        assert_eq!(DeclUsage::from_raw(13), Some(DeclUsage::Sample));
        let names: Vec<&str> = DeclUsage::ALL.iter().map(|u| u.name()).collect();
        assert_eq!(names[5], "texcoord");
        assert_eq!(names[10], "color");
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 14, "assembly names are distinct");
    }
}
