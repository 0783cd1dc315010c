//! `D3DUSAGE`, `D3DPOOL` and `D3DRESOURCETYPE`: how a resource is used, where it lives, what it is.

use bitflags::bitflags;

bitflags! {
    /// `D3DUSAGE_*` flags (creation usages and `CheckDeviceFormat` query usages).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Usage: u32 {
        /// D3DUSAGE_RENDERTARGET.
        const RENDERTARGET = 0x1;
        /// D3DUSAGE_DEPTHSTENCIL.
        const DEPTHSTENCIL = 0x2;
        /// D3DUSAGE_WRITEONLY.
        const WRITE_ONLY = 0x8;
        /// D3DUSAGE_SOFTWAREPROCESSING.
        const SOFTWAREPROCESSING = 0x10;
        /// D3DUSAGE_DONOTCLIP.
        const DONOTCLIP = 0x20;
        /// D3DUSAGE_POINTS.
        const POINTS = 0x40;
        /// D3DUSAGE_RTPATCHES.
        const RTPATCHES = 0x80;
        /// D3DUSAGE_NPATCHES.
        const NPATCHES = 0x100;
        /// D3DUSAGE_DYNAMIC.
        const DYNAMIC = 0x200;
        /// D3DUSAGE_AUTOGENMIPMAP.
        const AUTOGENMIPMAP = 0x400;
        /// D3DUSAGE_DMAP.
        const DMAP = 0x4000;
        /// D3DUSAGE_QUERY_LEGACYBUMPMAP.
        const QUERY_LEGACYBUMPMAP = 0x8000;
        /// D3DUSAGE_QUERY_SRGBREAD.
        const QUERY_SRGBREAD = 0x1_0000;
        /// D3DUSAGE_QUERY_FILTER.
        const QUERY_FILTER = 0x2_0000;
        /// D3DUSAGE_QUERY_SRGBWRITE.
        const QUERY_SRGBWRITE = 0x4_0000;
        /// D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING.
        const QUERY_POSTPIXELSHADER_BLENDING = 0x8_0000;
        /// D3DUSAGE_QUERY_VERTEXTEXTURE.
        const QUERY_VERTEXTEXTURE = 0x10_0000;
        /// D3DUSAGE_QUERY_WRAPANDMIP.
        const QUERY_WRAPANDMIP = 0x20_0000;
    }
}

impl Usage {
    /// The usages that only ask `CheckDeviceFormat` a question and are never resource usages.
    pub const QUERIES: Usage = Usage::from_bits_retain(0x3F_8000);
}

/// `D3DPOOL`: where a resource lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pool {
    /// D3DPOOL_DEFAULT (0): device memory; render targets and dynamic resources live here.
    #[default]
    Default,
    /// D3DPOOL_MANAGED (1): backed by a system copy; survives device loss.
    Managed,
    /// D3DPOOL_SYSTEMMEM (2): system memory; source of UpdateSurface/UpdateTexture.
    SystemMem,
    /// D3DPOOL_SCRATCH (3): system memory not bound by the device's caps; never bindable.
    Scratch,
}

impl Pool {
    /// The pool with D3DPOOL value `raw`.
    pub fn from_raw(raw: u32) -> Option<Pool> {
        Some(match raw {
            0 => Pool::Default,
            1 => Pool::Managed,
            2 => Pool::SystemMem,
            3 => Pool::Scratch,
            _ => return None,
        })
    }
}

/// `D3DRESOURCETYPE`: the kind of resource a format question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// D3DRTYPE_SURFACE: render targets, depth-stencil and offscreen plain surfaces.
    Surface,
    /// D3DRTYPE_VOLUME.
    Volume,
    /// D3DRTYPE_TEXTURE.
    Texture,
    /// D3DRTYPE_VOLUMETEXTURE.
    VolumeTexture,
    /// D3DRTYPE_CUBETEXTURE.
    CubeTexture,
    /// D3DRTYPE_VERTEXBUFFER.
    VertexBuffer,
    /// D3DRTYPE_INDEXBUFFER.
    IndexBuffer,
}
