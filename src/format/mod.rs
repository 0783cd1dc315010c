//! Surface formats: the `D3DFORMAT` values warp9 knows, their memory layout,
//! and conversion of texels to and from linear RGBA floats.
//!
//! Invariant: a `Format` value is always one of D3D9's; the numeric value is
//! the D3DFMT code, so raw call streams round-trip. Which formats a level
//! supports for which usage lives in `caps` (one table), not here.

mod convert;
mod depth;
mod usage;

pub use convert::{decode_texel, encode_color};
pub use depth::{decode_depth_stencil, encode_depth_stencil};
pub use usage::{Pool, ResourceKind, Usage};

/// A D3D9 surface format (`D3DFORMAT`), with its D3D numeric value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
#[allow(non_camel_case_types)]
pub enum Format {
    /// D3DFMT_UNKNOWN.
    Unknown = 0,
    /// 24-bit RGB (bytes B, G, R).
    R8G8B8 = 20,
    /// 32-bit ARGB, 8 bits per channel (bytes B, G, R, A).
    A8R8G8B8 = 21,
    /// 32-bit RGB with an unused byte.
    X8R8G8B8 = 22,
    /// 16-bit RGB 5:6:5.
    R5G6B5 = 23,
    /// 16-bit RGB 5:5:5 with an unused bit.
    X1R5G5B5 = 24,
    /// 16-bit ARGB 1:5:5:5.
    A1R5G5B5 = 25,
    /// 16-bit ARGB 4:4:4:4.
    A4R4G4B4 = 26,
    /// 8-bit RGB 3:3:2.
    R3G3B2 = 27,
    /// 8-bit alpha only.
    A8 = 28,
    /// 16-bit ARGB 8:3:3:2.
    A8R3G3B2 = 29,
    /// 16-bit RGB 4:4:4 with unused bits.
    X4R4G4B4 = 30,
    /// 32-bit ABGR 2:10:10:10.
    A2B10G10R10 = 31,
    /// 32-bit ABGR 8:8:8:8 (bytes R, G, B, A).
    A8B8G8R8 = 32,
    /// 32-bit BGR with an unused byte.
    X8B8G8R8 = 33,
    /// 32-bit two 16-bit unsigned normalized channels.
    G16R16 = 34,
    /// 32-bit ARGB 2:10:10:10.
    A2R10G10B10 = 35,
    /// 64-bit ABGR, 16 bits per channel.
    A16B16G16R16 = 36,
    /// 8-bit palettized with alpha.
    A8P8 = 40,
    /// 8-bit palettized.
    P8 = 41,
    /// 8-bit luminance.
    L8 = 50,
    /// 16-bit alpha + luminance.
    A8L8 = 51,
    /// 8-bit alpha + luminance 4:4.
    A4L4 = 52,
    /// 16-bit signed bump-map (U, V).
    V8U8 = 60,
    /// 16-bit signed bump + luminance 5:5:6.
    L6V5U5 = 61,
    /// 32-bit signed bump + luminance 8:8:8.
    X8L8V8U8 = 62,
    /// 32-bit signed 4-channel 8:8:8:8.
    Q8W8V8U8 = 63,
    /// 32-bit signed 2-channel 16:16.
    V16U16 = 64,
    /// 32-bit signed 2:10:10:10.
    A2W10V10U10 = 67,
    /// 16-bit lockable depth.
    D16_LOCKABLE = 70,
    /// 32-bit depth.
    D32 = 71,
    /// 15-bit depth, 1-bit stencil.
    D15S1 = 73,
    /// 24-bit depth, 8-bit stencil.
    D24S8 = 75,
    /// 24-bit depth, 8 unused bits.
    D24X8 = 77,
    /// 24-bit depth, 4-bit stencil.
    D24X4S4 = 79,
    /// 16-bit depth.
    D16 = 80,
    /// 16-bit luminance.
    L16 = 81,
    /// 32-bit float lockable depth.
    D32F_LOCKABLE = 82,
    /// 24-bit float depth (20e4), 8-bit stencil.
    D24FS8 = 83,
    /// Vertex buffer data.
    VertexData = 100,
    /// 16-bit indices.
    Index16 = 101,
    /// 32-bit indices.
    Index32 = 102,
    /// 64-bit signed 4-channel 16:16:16:16.
    Q16W16V16U16 = 110,
    /// 16-bit float red.
    R16F = 111,
    /// 32-bit float 16:16 (red, green).
    G16R16F = 112,
    /// 64-bit float 16:16:16:16.
    A16B16G16R16F = 113,
    /// 32-bit float red.
    R32F = 114,
    /// 64-bit float 32:32 (red, green).
    G32R32F = 115,
    /// 128-bit float 32:32:32:32.
    A32B32G32R32F = 116,
    /// 16-bit signed bump with a derived third channel.
    CxV8U8 = 117,
    /// Block-compressed BC1 (8 bytes per 4x4 block, one-bit alpha mode).
    DXT1 = 0x3154_5844,
    /// Block-compressed BC2, premultiplied alpha.
    DXT2 = 0x3254_5844,
    /// Block-compressed BC2, explicit 4-bit alpha.
    DXT3 = 0x3354_5844,
    /// Block-compressed BC3, premultiplied alpha.
    DXT4 = 0x3454_5844,
    /// Block-compressed BC3, interpolated alpha.
    DXT5 = 0x3554_5844,
}

/// How a format's texels are laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Every texel occupies `bytes` bytes.
    Texel {
        /// Bytes per texel.
        bytes: u32,
    },
    /// 4x4 blocks of `bytes` bytes (DXTn).
    Block {
        /// Bytes per 4x4 block.
        bytes: u32,
    },
    /// No memory layout (UNKNOWN, VERTEXDATA).
    None,
}

impl Format {
    /// Every format warp9 knows, in D3DFMT order.
    pub const ALL: [Format; 55] = [
        Format::Unknown,
        Format::R8G8B8,
        Format::A8R8G8B8,
        Format::X8R8G8B8,
        Format::R5G6B5,
        Format::X1R5G5B5,
        Format::A1R5G5B5,
        Format::A4R4G4B4,
        Format::R3G3B2,
        Format::A8,
        Format::A8R3G3B2,
        Format::X4R4G4B4,
        Format::A2B10G10R10,
        Format::A8B8G8R8,
        Format::X8B8G8R8,
        Format::G16R16,
        Format::A2R10G10B10,
        Format::A16B16G16R16,
        Format::A8P8,
        Format::P8,
        Format::L8,
        Format::A8L8,
        Format::A4L4,
        Format::V8U8,
        Format::L6V5U5,
        Format::X8L8V8U8,
        Format::Q8W8V8U8,
        Format::V16U16,
        Format::A2W10V10U10,
        Format::D16_LOCKABLE,
        Format::D32,
        Format::D15S1,
        Format::D24S8,
        Format::D24X8,
        Format::D24X4S4,
        Format::D16,
        Format::L16,
        Format::D32F_LOCKABLE,
        Format::D24FS8,
        Format::VertexData,
        Format::Index16,
        Format::Index32,
        Format::Q16W16V16U16,
        Format::R16F,
        Format::G16R16F,
        Format::A16B16G16R16F,
        Format::R32F,
        Format::G32R32F,
        Format::A32B32G32R32F,
        Format::CxV8U8,
        Format::DXT1,
        Format::DXT2,
        Format::DXT3,
        Format::DXT4,
        Format::DXT5,
    ];

    /// The format with D3DFMT value `raw`, if warp9 knows it.
    pub fn from_raw(raw: u32) -> Option<Format> {
        Self::ALL.iter().copied().find(|f| f.raw() == raw)
    }

    /// The D3DFMT numeric value.
    pub const fn raw(self) -> u32 {
        self as u32
    }

    /// The memory layout of one texel or block.
    pub const fn layout(self) -> Layout {
        use Format::*;
        match self {
            Unknown | VertexData => Layout::None,
            DXT1 => Layout::Block { bytes: 8 },
            DXT2 | DXT3 | DXT4 | DXT5 => Layout::Block { bytes: 16 },
            R3G3B2 | A8 | P8 | L8 | A4L4 => Layout::Texel { bytes: 1 },
            R5G6B5 | X1R5G5B5 | A1R5G5B5 | A4R4G4B4 | A8R3G3B2 | X4R4G4B4 | A8P8 | A8L8 | V8U8
            | L6V5U5 | D16_LOCKABLE | D15S1 | D16 | L16 | Index16 | R16F | CxV8U8 => {
                Layout::Texel { bytes: 2 }
            }
            R8G8B8 => Layout::Texel { bytes: 3 },
            A8R8G8B8 | X8R8G8B8 | A2B10G10R10 | A8B8G8R8 | X8B8G8R8 | G16R16 | A2R10G10B10
            | X8L8V8U8 | Q8W8V8U8 | V16U16 | A2W10V10U10 | D32 | D24S8 | D24X8 | D24X4S4
            | D32F_LOCKABLE | D24FS8 | Index32 | G16R16F | R32F => Layout::Texel { bytes: 4 },
            A16B16G16R16 | Q16W16V16U16 | A16B16G16R16F | G32R32F => Layout::Texel { bytes: 8 },
            A32B32G32R32F => Layout::Texel { bytes: 16 },
        }
    }

    /// Whether the format is block-compressed (DXT1..DXT5).
    pub const fn is_compressed(self) -> bool {
        matches!(self.layout(), Layout::Block { .. })
    }

    /// Whether the format is a depth(-stencil) format.
    pub const fn is_depth(self) -> bool {
        use Format::*;
        matches!(
            self,
            D16_LOCKABLE | D32 | D15S1 | D24S8 | D24X8 | D24X4S4 | D16 | D32F_LOCKABLE | D24FS8
        )
    }

    /// Whether the depth format has stencil bits, and how many.
    pub const fn stencil_bits(self) -> u32 {
        use Format::*;
        match self {
            D15S1 => 1,
            D24X4S4 => 4,
            D24S8 | D24FS8 => 8,
            _ => 0,
        }
    }

    /// Bits per texel (for blocks: the average), as D3D9 counts it; used by
    /// the 9_3 rule that all simultaneous render targets share one bit depth.
    pub const fn bits_per_pixel(self) -> u32 {
        match self.layout() {
            Layout::Texel { bytes } => bytes * 8,
            Layout::Block { bytes } => bytes / 2,
            Layout::None => 0,
        }
    }

    /// Bytes needed for a `width` x `height` x `depth` image of this format,
    /// with row pitch and slice pitch; `None` on overflow or for layout-less formats.
    pub fn image_size(self, width: u32, height: u32, depth: u32) -> Option<ImageSize> {
        let (row_pitch, rows) = match self.layout() {
            Layout::Texel { bytes } => (u64::from(width) * u64::from(bytes), u64::from(height)),
            Layout::Block { bytes } => (
                u64::from(width.div_ceil(4)) * u64::from(bytes),
                u64::from(height.div_ceil(4)),
            ),
            Layout::None => return None,
        };
        let slice_pitch = row_pitch.checked_mul(rows)?;
        let total = slice_pitch.checked_mul(u64::from(depth))?;
        Some(ImageSize {
            row_pitch: usize::try_from(row_pitch).ok()?,
            slice_pitch: usize::try_from(slice_pitch).ok()?,
            total: usize::try_from(total).ok()?,
        })
    }
}

/// The byte size of an image: pitches and total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageSize {
    /// Bytes from one row (of texels, or of 4x4 blocks) to the next.
    pub row_pitch: usize,
    /// Bytes from one depth slice to the next.
    pub slice_pitch: usize,
    /// Bytes of the whole image.
    pub total: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_round_trip() {
        for f in Format::ALL {
            assert_eq!(Format::from_raw(f.raw()), Some(f));
        }
        assert_eq!(Format::from_raw(21), Some(Format::A8R8G8B8));
        assert_eq!(Format::from_raw(0x3154_5844), Some(Format::DXT1));
        assert_eq!(Format::from_raw(999), None);
    }

    #[test]
    fn sizes() {
        let s = Format::DXT1.image_size(6, 5, 1).unwrap();
        assert_eq!((s.row_pitch, s.total), (16, 32));
        let s = Format::A8R8G8B8.image_size(3, 2, 2).unwrap();
        assert_eq!((s.row_pitch, s.slice_pitch, s.total), (12, 24, 48));
        assert_eq!(
            Format::A32B32G32R32F.image_size(u32::MAX, u32::MAX, u32::MAX),
            None
        );
    }
}
