//! Flexible vertex formats (`D3DFVF_*`): validation and conversion to the
//! equivalent vertex declaration (fixed-function.md section 1.1).

use bitflags::bitflags;

use super::decl::{DeclType, DeclUsage, VertexElement};
use crate::error::{Error, Result};

bitflags! {
    /// A flexible vertex format.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Fvf: u32 {
        /// D3DFVF_XYZ: untransformed position.
        const XYZ = 0x002;
        /// D3DFVF_XYZRHW: pre-transformed (screen-space) position.
        const XYZRHW = 0x004;
        /// D3DFVF_XYZB1.
        const XYZB1 = 0x006;
        /// D3DFVF_XYZB2.
        const XYZB2 = 0x008;
        /// D3DFVF_XYZB3.
        const XYZB3 = 0x00A;
        /// D3DFVF_XYZB4.
        const XYZB4 = 0x00C;
        /// D3DFVF_XYZB5.
        const XYZB5 = 0x00E;
        /// D3DFVF_XYZW.
        const XYZW = 0x4002;
        /// D3DFVF_NORMAL.
        const NORMAL = 0x010;
        /// D3DFVF_PSIZE.
        const PSIZE = 0x020;
        /// D3DFVF_DIFFUSE.
        const DIFFUSE = 0x040;
        /// D3DFVF_SPECULAR.
        const SPECULAR = 0x080;
        /// D3DFVF_TEX1.
        const TEX1 = 0x100;
        /// D3DFVF_TEX2.
        const TEX2 = 0x200;
        /// D3DFVF_TEX3.
        const TEX3 = 0x300;
        /// D3DFVF_TEX4.
        const TEX4 = 0x400;
        /// D3DFVF_TEX5.
        const TEX5 = 0x500;
        /// D3DFVF_TEX6.
        const TEX6 = 0x600;
        /// D3DFVF_TEX7.
        const TEX7 = 0x700;
        /// D3DFVF_TEX8.
        const TEX8 = 0x800;
        /// D3DFVF_LASTBETA_UBYTE4.
        const LASTBETA_UBYTE4 = 0x1000;
        /// D3DFVF_LASTBETA_D3DCOLOR.
        const LASTBETA_D3DCOLOR = 0x8000;
        // Texture-coordinate sizes live in bits 16..31.
        const _ = !0;
    }
}

impl Fvf {
    /// D3DFVF_POSITION_MASK.
    pub const POSITION_MASK: u32 = 0x400E;
    /// D3DFVF_TEXCOUNT_MASK.
    pub const TEXCOUNT_MASK: u32 = 0xF00;

    /// `D3DFVF_TEXCOORDSIZEk(set)`: `set` has `floats` (1..4) coordinates.
    pub const fn texcoord_size(set: u32, floats: u32) -> Fvf {
        let code = match floats {
            1 => 3,
            3 => 1,
            4 => 2,
            _ => 0,
        };
        Fvf::from_bits_retain(code << (16 + 2 * set))
    }

    /// The number of texture-coordinate sets.
    pub const fn tex_count(self) -> u32 {
        (self.bits() & Self::TEXCOUNT_MASK) >> 8
    }

    /// Floats in texture-coordinate set `set`.
    pub const fn tex_floats(self, set: u32) -> u32 {
        match (self.bits() >> (16 + 2 * set)) & 3 {
            0 => 2,
            1 => 3,
            2 => 4,
            _ => 1,
        }
    }

    /// Checks the reserved bits, the position field, TEXCOUNT and the LASTBETA flags.
    pub fn validate(self) -> Result<()> {
        let bits = self.bits();
        let bad = |why: &str| Err(Error::invalid_call(format!("FVF 0x{bits:08X}: {why}")));
        if bits & 0x1 != 0 || bits & 0x2000 != 0 {
            return bad("reserved bits are set");
        }
        if bits & 0x4000 != 0 && bits & 0xE != 0x2 {
            return bad("D3DFVF_XYZW bit with a position other than XYZ");
        }
        if self.tex_count() > 8 {
            return bad("more than 8 texture-coordinate sets");
        }
        if self.contains(Fvf::LASTBETA_UBYTE4) && self.contains(Fvf::LASTBETA_D3DCOLOR) {
            return bad("both LASTBETA flags");
        }
        Ok(())
    }

    /// The size in bytes of one vertex of this format.
    pub fn vertex_size(self) -> u32 {
        self.to_elements().iter().map(|e| e.decl_type.size()).sum()
    }

    /// The equivalent declaration elements, all in stream 0, tightly packed.
    pub fn to_elements(self) -> Vec<VertexElement> {
        let bits = self.bits();
        let mut elements = Vec::new();
        let mut offset = 0u16;
        let mut push = |t: DeclType, usage: DeclUsage, index: u8| {
            elements.push(VertexElement::new(0, offset, t, usage, index));
            offset += t.size() as u16;
        };
        let floats = |n: u32| match n {
            1 => DeclType::Float1,
            2 => DeclType::Float2,
            3 => DeclType::Float3,
            _ => DeclType::Float4,
        };
        match bits & Self::POSITION_MASK {
            0x4002 => push(DeclType::Float4, DeclUsage::Position, 0),
            0x004 => push(DeclType::Float4, DeclUsage::PositionT, 0),
            0x002 => push(DeclType::Float3, DeclUsage::Position, 0),
            p @ (0x006 | 0x008 | 0x00A | 0x00C | 0x00E) => {
                push(DeclType::Float3, DeclUsage::Position, 0);
                let betas = (p - 0x004) / 2;
                let index_type = if self.contains(Fvf::LASTBETA_UBYTE4) {
                    Some(DeclType::UByte4)
                } else if self.contains(Fvf::LASTBETA_D3DCOLOR) {
                    Some(DeclType::D3dColor)
                } else if betas == 5 {
                    Some(DeclType::Float1)
                } else {
                    None
                };
                let weights = match index_type {
                    Some(_) if betas == 5 => 4,
                    Some(_) => betas - 1,
                    None => betas,
                };
                if weights > 0 {
                    push(floats(weights), DeclUsage::BlendWeight, 0);
                }
                if let Some(t) = index_type {
                    push(t, DeclUsage::BlendIndices, 0);
                }
            }
            _ => {}
        }
        // With XYZRHW the normal still occupies its bytes; the pre-transformed
        // path ignores it (fixed-function.md decision).
        if self.contains(Fvf::NORMAL) {
            push(DeclType::Float3, DeclUsage::Normal, 0);
        }
        if self.contains(Fvf::PSIZE) {
            push(DeclType::Float1, DeclUsage::PSize, 0);
        }
        if self.contains(Fvf::DIFFUSE) {
            push(DeclType::D3dColor, DeclUsage::Color, 0);
        }
        if self.contains(Fvf::SPECULAR) {
            push(DeclType::D3dColor, DeclUsage::Color, 1);
        }
        for set in 0..self.tex_count().min(8) {
            push(floats(self.tex_floats(set)), DeclUsage::TexCoord, set as u8);
        }
        elements
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_fvfs() {
        let f = Fvf::XYZ | Fvf::DIFFUSE;
        assert_eq!(f.vertex_size(), 16);
        let f = Fvf::XYZRHW | Fvf::DIFFUSE | Fvf::TEX1;
        assert_eq!(f.vertex_size(), 28);
        let e = f.to_elements();
        assert_eq!(e[0].usage, DeclUsage::PositionT);
        assert_eq!(
            (e[2].usage, e[2].offset, e[2].decl_type),
            (DeclUsage::TexCoord, 20, DeclType::Float2)
        );
        let f = Fvf::XYZ | Fvf::TEX2 | Fvf::texcoord_size(1, 3);
        assert_eq!(f.vertex_size(), 12 + 8 + 12);
    }

    #[test]
    fn blend_betas() {
        let f = Fvf::XYZB3 | Fvf::LASTBETA_UBYTE4 | Fvf::NORMAL;
        let e = f.to_elements();
        assert_eq!(e[1].decl_type, DeclType::Float2);
        assert_eq!(e[2].decl_type, DeclType::UByte4);
        assert_eq!(e[3].offset, 12 + 8 + 4);
        let e = Fvf::XYZB5.to_elements();
        assert_eq!(
            (e[1].decl_type, e[2].decl_type),
            (DeclType::Float4, DeclType::Float1)
        );
    }

    #[test]
    fn validation() {
        assert!(Fvf::from_bits_retain(0x1).validate().is_err());
        assert!(Fvf::from_bits_retain(0x900).validate().is_err());
        assert!(
            (Fvf::XYZB2 | Fvf::LASTBETA_UBYTE4 | Fvf::LASTBETA_D3DCOLOR)
                .validate()
                .is_err()
        );
        // Sizes of sets the FVF does not have are ignored, as D3D9 does.
        assert!(
            (Fvf::XYZ | Fvf::TEX1 | Fvf::texcoord_size(3, 1))
                .validate()
                .is_ok()
        );
        assert!(Fvf::from_bits_retain(0x6002).validate().is_err());
        assert!((Fvf::XYZW | Fvf::TEX8).validate().is_ok());
    }
}
