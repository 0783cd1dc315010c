//! D3D9 names to numbers, written out from the SDK headers (`d3d9types.h`,
//! `d3d9caps.h`) independently of the crate, so the harness does not
//! inherit a numbering mistake from the code it tests.
//!
//! Names are unique across the D3D9 namespaces (every one carries its
//! prefix), so one lookup serves every enumeration; the state-key tables
//! are kept apart because a key is looked up by kind.

/// `D3DRS_*` render-state numbers.
const RENDER_STATES: &[(&str, u32)] = &[
    ("ZENABLE", 7),
    ("FILLMODE", 8),
    ("SHADEMODE", 9),
    ("ZWRITEENABLE", 14),
    ("ALPHATESTENABLE", 15),
    ("LASTPIXEL", 16),
    ("SRCBLEND", 19),
    ("DESTBLEND", 20),
    ("CULLMODE", 22),
    ("ZFUNC", 23),
    ("ALPHAREF", 24),
    ("ALPHAFUNC", 25),
    ("DITHERENABLE", 26),
    ("ALPHABLENDENABLE", 27),
    ("FOGENABLE", 28),
    ("SPECULARENABLE", 29),
    ("FOGCOLOR", 34),
    ("FOGTABLEMODE", 35),
    ("FOGSTART", 36),
    ("FOGEND", 37),
    ("FOGDENSITY", 38),
    ("RANGEFOGENABLE", 48),
    ("STENCILENABLE", 52),
    ("STENCILFAIL", 53),
    ("STENCILZFAIL", 54),
    ("STENCILPASS", 55),
    ("STENCILFUNC", 56),
    ("STENCILREF", 57),
    ("STENCILMASK", 58),
    ("STENCILWRITEMASK", 59),
    ("TEXTUREFACTOR", 60),
    ("WRAP0", 128),
    ("WRAP1", 129),
    ("WRAP2", 130),
    ("WRAP3", 131),
    ("WRAP4", 132),
    ("WRAP5", 133),
    ("WRAP6", 134),
    ("WRAP7", 135),
    ("CLIPPING", 136),
    ("LIGHTING", 137),
    ("AMBIENT", 139),
    ("FOGVERTEXMODE", 140),
    ("COLORVERTEX", 141),
    ("LOCALVIEWER", 142),
    ("NORMALIZENORMALS", 143),
    ("DIFFUSEMATERIALSOURCE", 145),
    ("SPECULARMATERIALSOURCE", 146),
    ("AMBIENTMATERIALSOURCE", 147),
    ("EMISSIVEMATERIALSOURCE", 148),
    ("VERTEXBLEND", 151),
    ("CLIPPLANEENABLE", 152),
    ("POINTSIZE", 154),
    ("POINTSIZE_MIN", 155),
    ("POINTSPRITEENABLE", 156),
    ("POINTSCALEENABLE", 157),
    ("POINTSCALE_A", 158),
    ("POINTSCALE_B", 159),
    ("POINTSCALE_C", 160),
    ("MULTISAMPLEANTIALIAS", 161),
    ("MULTISAMPLEMASK", 162),
    ("PATCHEDGESTYLE", 163),
    ("DEBUGMONITORTOKEN", 165),
    ("POINTSIZE_MAX", 166),
    ("INDEXEDVERTEXBLENDENABLE", 167),
    ("COLORWRITEENABLE", 168),
    ("TWEENFACTOR", 170),
    ("BLENDOP", 171),
    ("POSITIONDEGREE", 172),
    ("NORMALDEGREE", 173),
    ("SCISSORTESTENABLE", 174),
    ("SLOPESCALEDEPTHBIAS", 175),
    ("ANTIALIASEDLINEENABLE", 176),
    ("MINTESSELLATIONLEVEL", 178),
    ("MAXTESSELLATIONLEVEL", 179),
    ("ADAPTIVETESS_X", 180),
    ("ADAPTIVETESS_Y", 181),
    ("ADAPTIVETESS_Z", 182),
    ("ADAPTIVETESS_W", 183),
    ("ENABLEADAPTIVETESSELLATION", 184),
    ("TWOSIDEDSTENCILMODE", 185),
    ("CCW_STENCILFAIL", 186),
    ("CCW_STENCILZFAIL", 187),
    ("CCW_STENCILPASS", 188),
    ("CCW_STENCILFUNC", 189),
    ("COLORWRITEENABLE1", 190),
    ("COLORWRITEENABLE2", 191),
    ("COLORWRITEENABLE3", 192),
    ("BLENDFACTOR", 193),
    ("SRGBWRITEENABLE", 194),
    ("DEPTHBIAS", 195),
    ("WRAP8", 198),
    ("WRAP9", 199),
    ("WRAP10", 200),
    ("WRAP11", 201),
    ("WRAP12", 202),
    ("WRAP13", 203),
    ("WRAP14", 204),
    ("WRAP15", 205),
    ("SEPARATEALPHABLENDENABLE", 206),
    ("SRCBLENDALPHA", 207),
    ("DESTBLENDALPHA", 208),
    ("BLENDOPALPHA", 209),
];

/// Render states whose DWORD is a float's bit pattern.
const FLOAT_RENDER_STATES: &[u32] = &[
    36, 37, 38, 154, 155, 158, 159, 160, 166, 170, 175, 178, 179, 180, 181, 182, 183, 195,
];

/// `D3DTSS_*` texture-stage-state numbers.
const STAGE_STATES: &[(&str, u32)] = &[
    ("COLOROP", 1),
    ("COLORARG1", 2),
    ("COLORARG2", 3),
    ("ALPHAOP", 4),
    ("ALPHAARG1", 5),
    ("ALPHAARG2", 6),
    ("BUMPENVMAT00", 7),
    ("BUMPENVMAT01", 8),
    ("BUMPENVMAT10", 9),
    ("BUMPENVMAT11", 10),
    ("TEXCOORDINDEX", 11),
    ("BUMPENVLSCALE", 22),
    ("BUMPENVLOFFSET", 23),
    ("TEXTURETRANSFORMFLAGS", 24),
    ("COLORARG0", 26),
    ("ALPHAARG0", 27),
    ("RESULTARG", 28),
    ("CONSTANT", 32),
];

/// Stage states whose DWORD is a float's bit pattern.
const FLOAT_STAGE_STATES: &[u32] = &[7, 8, 9, 10, 22, 23];

/// `D3DSAMP_*` sampler-state numbers.
const SAMPLER_STATES: &[(&str, u32)] = &[
    ("ADDRESSU", 1),
    ("ADDRESSV", 2),
    ("ADDRESSW", 3),
    ("BORDERCOLOR", 4),
    ("MAGFILTER", 5),
    ("MINFILTER", 6),
    ("MIPFILTER", 7),
    ("MIPMAPLODBIAS", 8),
    ("MAXMIPLEVEL", 9),
    ("MAXANISOTROPY", 10),
    ("SRGBTEXTURE", 11),
    ("ELEMENTINDEX", 12),
    ("DMAPOFFSET", 13),
];

/// Sampler states whose DWORD is a float's bit pattern.
const FLOAT_SAMPLER_STATES: &[u32] = &[8];

/// `D3DTS_*` transform numbers.
const TRANSFORMS: &[(&str, u32)] = &[
    ("D3DTS_VIEW", 2),
    ("D3DTS_PROJECTION", 3),
    ("D3DTS_TEXTURE0", 16),
    ("D3DTS_TEXTURE1", 17),
    ("D3DTS_TEXTURE2", 18),
    ("D3DTS_TEXTURE3", 19),
    ("D3DTS_TEXTURE4", 20),
    ("D3DTS_TEXTURE5", 21),
    ("D3DTS_TEXTURE6", 22),
    ("D3DTS_TEXTURE7", 23),
    ("D3DTS_WORLD", 256),
    ("D3DTS_WORLD1", 257),
    ("D3DTS_WORLD2", 258),
    ("D3DTS_WORLD3", 259),
];

/// Every value name the data uses as a state value, a flag or an enumeration member.
const VALUES: &[(&str, u32)] = &[
    ("TRUE", 1),
    ("FALSE", 0),
    ("NULL", 0),
    // D3DZBUFFERTYPE
    ("D3DZB_FALSE", 0),
    ("D3DZB_TRUE", 1),
    ("D3DZB_USEW", 2),
    // D3DFILLMODE / D3DSHADEMODE
    ("D3DFILL_POINT", 1),
    ("D3DFILL_WIREFRAME", 2),
    ("D3DFILL_SOLID", 3),
    ("D3DSHADE_FLAT", 1),
    ("D3DSHADE_GOURAUD", 2),
    ("D3DSHADE_PHONG", 3),
    // D3DBLEND
    ("D3DBLEND_ZERO", 1),
    ("D3DBLEND_ONE", 2),
    ("D3DBLEND_SRCCOLOR", 3),
    ("D3DBLEND_INVSRCCOLOR", 4),
    ("D3DBLEND_SRCALPHA", 5),
    ("D3DBLEND_INVSRCALPHA", 6),
    ("D3DBLEND_DESTALPHA", 7),
    ("D3DBLEND_INVDESTALPHA", 8),
    ("D3DBLEND_DESTCOLOR", 9),
    ("D3DBLEND_INVDESTCOLOR", 10),
    ("D3DBLEND_SRCALPHASAT", 11),
    ("D3DBLEND_BOTHSRCALPHA", 12),
    ("D3DBLEND_BOTHINVSRCALPHA", 13),
    ("D3DBLEND_BLENDFACTOR", 14),
    ("D3DBLEND_INVBLENDFACTOR", 15),
    // D3DBLENDOP
    ("D3DBLENDOP_ADD", 1),
    ("D3DBLENDOP_SUBTRACT", 2),
    ("D3DBLENDOP_REVSUBTRACT", 3),
    ("D3DBLENDOP_MIN", 4),
    ("D3DBLENDOP_MAX", 5),
    // D3DCULL
    ("D3DCULL_NONE", 1),
    ("D3DCULL_CW", 2),
    ("D3DCULL_CCW", 3),
    // D3DCMPFUNC
    ("D3DCMP_NEVER", 1),
    ("D3DCMP_LESS", 2),
    ("D3DCMP_EQUAL", 3),
    ("D3DCMP_LESSEQUAL", 4),
    ("D3DCMP_GREATER", 5),
    ("D3DCMP_NOTEQUAL", 6),
    ("D3DCMP_GREATEREQUAL", 7),
    ("D3DCMP_ALWAYS", 8),
    // D3DFOGMODE
    ("D3DFOG_NONE", 0),
    ("D3DFOG_EXP", 1),
    ("D3DFOG_EXP2", 2),
    ("D3DFOG_LINEAR", 3),
    // D3DSTENCILOP
    ("D3DSTENCILOP_KEEP", 1),
    ("D3DSTENCILOP_ZERO", 2),
    ("D3DSTENCILOP_REPLACE", 3),
    ("D3DSTENCILOP_INCRSAT", 4),
    ("D3DSTENCILOP_DECRSAT", 5),
    ("D3DSTENCILOP_INVERT", 6),
    ("D3DSTENCILOP_INCR", 7),
    ("D3DSTENCILOP_DECR", 8),
    // D3DMATERIALCOLORSOURCE
    ("D3DMCS_MATERIAL", 0),
    ("D3DMCS_COLOR1", 1),
    ("D3DMCS_COLOR2", 2),
    // D3DTEXTUREOP
    ("D3DTOP_DISABLE", 1),
    ("D3DTOP_SELECTARG1", 2),
    ("D3DTOP_SELECTARG2", 3),
    ("D3DTOP_MODULATE", 4),
    ("D3DTOP_MODULATE2X", 5),
    ("D3DTOP_MODULATE4X", 6),
    ("D3DTOP_ADD", 7),
    ("D3DTOP_ADDSIGNED", 8),
    ("D3DTOP_ADDSIGNED2X", 9),
    ("D3DTOP_SUBTRACT", 10),
    ("D3DTOP_ADDSMOOTH", 11),
    ("D3DTOP_BLENDDIFFUSEALPHA", 12),
    ("D3DTOP_BLENDTEXTUREALPHA", 13),
    ("D3DTOP_BLENDFACTORALPHA", 14),
    ("D3DTOP_BLENDTEXTUREALPHAPM", 15),
    ("D3DTOP_BLENDCURRENTALPHA", 16),
    ("D3DTOP_PREMODULATE", 17),
    ("D3DTOP_MODULATEALPHA_ADDCOLOR", 18),
    ("D3DTOP_MODULATECOLOR_ADDALPHA", 19),
    ("D3DTOP_MODULATEINVALPHA_ADDCOLOR", 20),
    ("D3DTOP_MODULATEINVCOLOR_ADDALPHA", 21),
    ("D3DTOP_BUMPENVMAP", 22),
    ("D3DTOP_BUMPENVMAPLUMINANCE", 23),
    ("D3DTOP_DOTPRODUCT3", 24),
    ("D3DTOP_MULTIPLYADD", 25),
    ("D3DTOP_LERP", 26),
    // D3DTA_*
    ("D3DTA_DIFFUSE", 0),
    ("D3DTA_CURRENT", 1),
    ("D3DTA_TEXTURE", 2),
    ("D3DTA_TFACTOR", 3),
    ("D3DTA_SPECULAR", 4),
    ("D3DTA_TEMP", 5),
    ("D3DTA_CONSTANT", 6),
    ("D3DTA_COMPLEMENT", 0x10),
    ("D3DTA_ALPHAREPLICATE", 0x20),
    // D3DTEXTURETRANSFORMFLAGS
    ("D3DTTFF_DISABLE", 0),
    ("D3DTTFF_COUNT1", 1),
    ("D3DTTFF_COUNT2", 2),
    ("D3DTTFF_COUNT3", 3),
    ("D3DTTFF_COUNT4", 4),
    ("D3DTTFF_PROJECTED", 0x100),
    // D3DTSS_TCI_*
    ("D3DTSS_TCI_PASSTHRU", 0),
    ("D3DTSS_TCI_CAMERASPACENORMAL", 0x1_0000),
    ("D3DTSS_TCI_CAMERASPACEPOSITION", 0x2_0000),
    ("D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR", 0x3_0000),
    ("D3DTSS_TCI_SPHEREMAP", 0x4_0000),
    // D3DTEXTUREFILTERTYPE
    ("D3DTEXF_NONE", 0),
    ("D3DTEXF_POINT", 1),
    ("D3DTEXF_LINEAR", 2),
    ("D3DTEXF_ANISOTROPIC", 3),
    ("D3DTEXF_PYRAMIDALQUAD", 6),
    ("D3DTEXF_GAUSSIANQUAD", 7),
    // D3DTEXTUREADDRESS
    ("D3DTADDRESS_WRAP", 1),
    ("D3DTADDRESS_MIRROR", 2),
    ("D3DTADDRESS_CLAMP", 3),
    ("D3DTADDRESS_BORDER", 4),
    ("D3DTADDRESS_MIRRORONCE", 5),
    // D3DCLEAR_*
    ("D3DCLEAR_TARGET", 1),
    ("D3DCLEAR_ZBUFFER", 2),
    ("D3DCLEAR_STENCIL", 4),
    // D3DFVF_*
    ("D3DFVF_XYZ", 0x002),
    ("D3DFVF_XYZRHW", 0x004),
    ("D3DFVF_XYZB1", 0x006),
    ("D3DFVF_XYZB2", 0x008),
    ("D3DFVF_XYZB3", 0x00A),
    ("D3DFVF_XYZB4", 0x00C),
    ("D3DFVF_XYZB5", 0x00E),
    ("D3DFVF_XYZW", 0x4002),
    ("D3DFVF_NORMAL", 0x010),
    ("D3DFVF_PSIZE", 0x020),
    ("D3DFVF_DIFFUSE", 0x040),
    ("D3DFVF_SPECULAR", 0x080),
    ("D3DFVF_TEX0", 0x000),
    ("D3DFVF_TEX1", 0x100),
    ("D3DFVF_TEX2", 0x200),
    ("D3DFVF_TEX3", 0x300),
    ("D3DFVF_TEX4", 0x400),
    ("D3DFVF_TEX5", 0x500),
    ("D3DFVF_TEX6", 0x600),
    ("D3DFVF_TEX7", 0x700),
    ("D3DFVF_TEX8", 0x800),
    // D3DPRIMITIVETYPE
    ("D3DPT_POINTLIST", 1),
    ("D3DPT_LINELIST", 2),
    ("D3DPT_LINESTRIP", 3),
    ("D3DPT_TRIANGLELIST", 4),
    ("D3DPT_TRIANGLESTRIP", 5),
    ("D3DPT_TRIANGLEFAN", 6),
    // D3DFORMAT
    ("D3DFMT_UNKNOWN", 0),
    ("D3DFMT_R8G8B8", 20),
    ("D3DFMT_A8R8G8B8", 21),
    ("D3DFMT_X8R8G8B8", 22),
    ("D3DFMT_R5G6B5", 23),
    ("D3DFMT_X1R5G5B5", 24),
    ("D3DFMT_A1R5G5B5", 25),
    ("D3DFMT_A4R4G4B4", 26),
    ("D3DFMT_A8", 28),
    ("D3DFMT_A2B10G10R10", 31),
    ("D3DFMT_A8B8G8R8", 32),
    ("D3DFMT_G16R16", 34),
    ("D3DFMT_A16B16G16R16", 36),
    ("D3DFMT_L8", 50),
    ("D3DFMT_A8L8", 51),
    ("D3DFMT_V8U8", 60),
    ("D3DFMT_Q8W8V8U8", 63),
    ("D3DFMT_V16U16", 64),
    ("D3DFMT_D16_LOCKABLE", 70),
    ("D3DFMT_D32", 71),
    ("D3DFMT_D15S1", 73),
    ("D3DFMT_D24S8", 75),
    ("D3DFMT_D24X8", 77),
    ("D3DFMT_D24X4S4", 79),
    ("D3DFMT_D16", 80),
    ("D3DFMT_L16", 81),
    ("D3DFMT_D32F_LOCKABLE", 82),
    ("D3DFMT_D24FS8", 83),
    ("D3DFMT_INDEX16", 101),
    ("D3DFMT_INDEX32", 102),
    ("D3DFMT_R16F", 111),
    ("D3DFMT_G16R16F", 112),
    ("D3DFMT_A16B16G16R16F", 113),
    ("D3DFMT_R32F", 114),
    ("D3DFMT_G32R32F", 115),
    ("D3DFMT_A32B32G32R32F", 116),
    // D3DPOOL
    ("D3DPOOL_DEFAULT", 0),
    ("D3DPOOL_MANAGED", 1),
    ("D3DPOOL_SYSTEMMEM", 2),
    ("D3DPOOL_SCRATCH", 3),
    // D3DUSAGE
    ("D3DUSAGE_RENDERTARGET", 0x1),
    ("D3DUSAGE_DEPTHSTENCIL", 0x2),
    ("D3DUSAGE_WRITEONLY", 0x8),
    ("D3DUSAGE_DYNAMIC", 0x200),
    ("D3DUSAGE_AUTOGENMIPMAP", 0x400),
    // D3DMULTISAMPLE_TYPE
    ("D3DMULTISAMPLE_NONE", 0),
    // D3DCUBEMAP_FACES
    ("D3DCUBEMAP_FACE_POSITIVE_X", 0),
    ("D3DCUBEMAP_FACE_NEGATIVE_X", 1),
    ("D3DCUBEMAP_FACE_POSITIVE_Y", 2),
    ("D3DCUBEMAP_FACE_NEGATIVE_Y", 3),
    ("D3DCUBEMAP_FACE_POSITIVE_Z", 4),
    ("D3DCUBEMAP_FACE_NEGATIVE_Z", 5),
];

/// `D3DDECLTYPE` names (without prefix) with their numbers and byte sizes.
const DECL_TYPES: &[(&str, u8, u32)] = &[
    ("FLOAT1", 0, 4),
    ("FLOAT2", 1, 8),
    ("FLOAT3", 2, 12),
    ("FLOAT4", 3, 16),
    ("D3DCOLOR", 4, 4),
    ("UBYTE4", 5, 4),
    ("SHORT2", 6, 4),
    ("SHORT4", 7, 8),
    ("UBYTE4N", 8, 4),
    ("SHORT2N", 9, 4),
    ("SHORT4N", 10, 8),
    ("USHORT2N", 11, 4),
    ("USHORT4N", 12, 8),
    ("UDEC3", 13, 4),
    ("DEC3N", 14, 4),
    ("FLOAT16_2", 15, 4),
    ("FLOAT16_4", 16, 8),
];

/// `D3DDECLUSAGE` names (without prefix).
const DECL_USAGES: &[(&str, u8)] = &[
    ("POSITION", 0),
    ("BLENDWEIGHT", 1),
    ("BLENDINDICES", 2),
    ("NORMAL", 3),
    ("PSIZE", 4),
    ("TEXCOORD", 5),
    ("TANGENT", 6),
    ("BINORMAL", 7),
    ("TESSFACTOR", 8),
    ("POSITIONT", 9),
    ("COLOR", 10),
    ("FOG", 11),
    ("DEPTH", 12),
    ("SAMPLE", 13),
];

/// `D3DDECLMETHOD` names (without prefix).
const DECL_METHODS: &[(&str, u8)] = &[
    ("DEFAULT", 0),
    ("PARTIALU", 1),
    ("PARTIALV", 2),
    ("CROSSUV", 3),
    ("UV", 4),
    ("LOOKUP", 5),
    ("LOOKUPPRESAMPLED", 6),
];

/// Capability flags (`d3d9caps.h`): name, the D3DCAPS9 member holding it, and its bit.
const CAP_FLAGS: &[(&str, &str, u32)] = &[
    ("D3DPRASTERCAPS_DITHER", "RasterCaps", 0x1),
    ("D3DPRASTERCAPS_ZTEST", "RasterCaps", 0x10),
    ("D3DPRASTERCAPS_FOGVERTEX", "RasterCaps", 0x80),
    ("D3DPRASTERCAPS_FOGTABLE", "RasterCaps", 0x100),
    ("D3DPRASTERCAPS_MIPMAPLODBIAS", "RasterCaps", 0x2000),
    ("D3DPRASTERCAPS_ZBUFFERLESSHSR", "RasterCaps", 0x8000),
    ("D3DPRASTERCAPS_FOGRANGE", "RasterCaps", 0x1_0000),
    ("D3DPRASTERCAPS_ANISOTROPY", "RasterCaps", 0x2_0000),
    ("D3DPRASTERCAPS_WBUFFER", "RasterCaps", 0x4_0000),
    ("D3DPRASTERCAPS_WFOG", "RasterCaps", 0x10_0000),
    ("D3DPRASTERCAPS_ZFOG", "RasterCaps", 0x20_0000),
    ("D3DPRASTERCAPS_COLORPERSPECTIVE", "RasterCaps", 0x40_0000),
    ("D3DPRASTERCAPS_SCISSORTEST", "RasterCaps", 0x100_0000),
    (
        "D3DPRASTERCAPS_SLOPESCALEDEPTHBIAS",
        "RasterCaps",
        0x200_0000,
    ),
    ("D3DPRASTERCAPS_DEPTHBIAS", "RasterCaps", 0x400_0000),
    ("D3DPTEXTURECAPS_PERSPECTIVE", "TextureCaps", 0x1),
    ("D3DPTEXTURECAPS_POW2", "TextureCaps", 0x2),
    ("D3DPTEXTURECAPS_ALPHA", "TextureCaps", 0x4),
    ("D3DPTEXTURECAPS_NONPOW2CONDITIONAL", "TextureCaps", 0x100),
    ("D3DPTEXTURECAPS_PROJECTED", "TextureCaps", 0x400),
    ("D3DPTEXTURECAPS_CUBEMAP", "TextureCaps", 0x800),
    ("D3DPTEXTURECAPS_VOLUMEMAP", "TextureCaps", 0x2000),
    ("D3DPTEXTURECAPS_MIPMAP", "TextureCaps", 0x4000),
    ("D3DPTEXTURECAPS_MIPVOLUMEMAP", "TextureCaps", 0x8000),
    ("D3DPTEXTURECAPS_MIPCUBEMAP", "TextureCaps", 0x1_0000),
    ("D3DSTENCILCAPS_TWOSIDED", "StencilCaps", 0x100),
    ("D3DPMISCCAPS_MASKZ", "PrimitiveMiscCaps", 0x2),
    ("D3DPMISCCAPS_CULLNONE", "PrimitiveMiscCaps", 0x10),
    ("D3DPMISCCAPS_CULLCW", "PrimitiveMiscCaps", 0x20),
    ("D3DPMISCCAPS_CULLCCW", "PrimitiveMiscCaps", 0x40),
    ("D3DPMISCCAPS_COLORWRITEENABLE", "PrimitiveMiscCaps", 0x80),
    (
        "D3DPMISCCAPS_CLIPPLANESCALEDPOINTS",
        "PrimitiveMiscCaps",
        0x100,
    ),
    ("D3DPMISCCAPS_CLIPTLVERTS", "PrimitiveMiscCaps", 0x200),
    ("D3DPMISCCAPS_TSSARGTEMP", "PrimitiveMiscCaps", 0x400),
    ("D3DPMISCCAPS_BLENDOP", "PrimitiveMiscCaps", 0x800),
    ("D3DPMISCCAPS_PERSTAGECONSTANT", "PrimitiveMiscCaps", 0x8000),
    (
        "D3DPMISCCAPS_FOGANDSPECULARALPHA",
        "PrimitiveMiscCaps",
        0x1_0000,
    ),
    (
        "D3DPMISCCAPS_SEPARATEALPHABLEND",
        "PrimitiveMiscCaps",
        0x2_0000,
    ),
    (
        "D3DPMISCCAPS_FOGVERTEXCLAMPED",
        "PrimitiveMiscCaps",
        0x10_0000,
    ),
    ("D3DTEXOPCAPS_DOTPRODUCT3", "TextureOpCaps", 0x80_0000),
    ("D3DTEXOPCAPS_LERP", "TextureOpCaps", 0x200_0000),
    (
        "D3DPTFILTERCAPS_MINFPOINT",
        "VertexTextureFilterCaps",
        0x100,
    ),
    (
        "D3DPTFILTERCAPS_MAGFPOINT",
        "VertexTextureFilterCaps",
        0x100_0000,
    ),
];

fn find<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// The number of a `D3DRS_*` name and whether its DWORD holds a float.
pub fn render_state(name: &str) -> Option<(u32, bool)> {
    let n = find(RENDER_STATES, name.strip_prefix("D3DRS_")?)?;
    Some((n, FLOAT_RENDER_STATES.contains(&n)))
}

/// The number of a `D3DTSS_*` name and whether its DWORD holds a float.
pub fn stage_state(name: &str) -> Option<(u32, bool)> {
    let n = find(STAGE_STATES, name.strip_prefix("D3DTSS_")?)?;
    Some((n, FLOAT_STAGE_STATES.contains(&n)))
}

/// The number of a `D3DSAMP_*` name and whether its DWORD holds a float.
pub fn sampler_state(name: &str) -> Option<(u32, bool)> {
    let n = find(SAMPLER_STATES, name.strip_prefix("D3DSAMP_")?)?;
    Some((n, FLOAT_SAMPLER_STATES.contains(&n)))
}

/// The number of a `D3DTS_*` name.
pub fn transform(name: &str) -> Option<u32> {
    find(TRANSFORMS, name)
}

/// A `D3DDECLTYPE` name (with or without prefix): number and byte size.
pub fn decl_type(name: &str) -> Option<(u8, u32)> {
    let n = name.strip_prefix("D3DDECLTYPE_").unwrap_or(name);
    DECL_TYPES
        .iter()
        .find(|(t, _, _)| *t == n)
        .map(|&(_, v, s)| (v, s))
}

/// A `D3DDECLUSAGE` name (with or without prefix).
pub fn decl_usage(name: &str) -> Option<u8> {
    find(
        DECL_USAGES,
        name.strip_prefix("D3DDECLUSAGE_").unwrap_or(name),
    )
}

/// A `D3DDECLMETHOD` name (with or without prefix).
pub fn decl_method(name: &str) -> Option<u8> {
    find(
        DECL_METHODS,
        name.strip_prefix("D3DDECLMETHOD_").unwrap_or(name),
    )
}

/// A capability flag: the D3DCAPS9 member that holds it and its bit.
pub fn cap_flag(name: &str) -> Option<(&'static str, u32)> {
    CAP_FLAGS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, m, b)| (m, b))
}

/// One value token: a name, a decimal or `0x` number, or
/// `D3DFVF_TEXCOORDSIZEk(n)`.
fn token(tok: &str) -> Result<u32, String> {
    let tok = tok.trim();
    if let Some(hex) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).map_err(|e| format!("bad hex {tok:?}: {e}"));
    }
    if let Ok(v) = tok.parse::<u32>() {
        return Ok(v);
    }
    if let Ok(v) = tok.parse::<i32>() {
        return Ok(v as u32);
    }
    if let Some(rest) = tok.strip_prefix("D3DFVF_TEXCOORDSIZE") {
        // D3DFVF_TEXCOORDSIZEk(n): 1 -> 3 << (n*2+16), 2 -> 0, 3 -> 1 << .., 4 -> 2 << ..
        let (k, n) = rest
            .trim_end_matches(')')
            .split_once('(')
            .ok_or_else(|| format!("bad {tok:?}"))?;
        let (k, n): (u32, u32) = (
            k.parse().map_err(|_| format!("bad {tok:?}"))?,
            n.trim().parse().map_err(|_| format!("bad {tok:?}"))?,
        );
        let code = match k {
            1 => 3,
            2 => 0,
            3 => 1,
            4 => 2,
            _ => return Err(format!("bad {tok:?}")),
        };
        return Ok(code << (n * 2 + 16));
    }
    find(VALUES, tok).ok_or_else(|| format!("unknown name {tok:?}"))
}

/// Strips a trailing remark: `"TRUE (default, not set by the test)"` -> `"TRUE"`.
/// Parentheses that belong to a macro call (`D3DFVF_TEXCOORDSIZE4(0)`) are kept.
pub fn strip_remark(s: &str) -> &str {
    match s.find(" (") {
        Some(i) => s[..i].trim(),
        None => s.trim(),
    }
}

/// A DWORD expression: value names, numbers and `|`, with an optional remark.
pub fn dword_expr(s: &str) -> Result<u32, String> {
    let body = strip_remark(s);
    if body.is_empty() {
        return Err(format!("empty value {s:?}"));
    }
    body.split('|')
        .map(token)
        .try_fold(0u32, |acc, t| Ok(acc | t?))
}

/// A name as a `D3DFORMAT` number (with a remark allowed).
pub fn format_code(s: &str) -> Result<u32, String> {
    let body = strip_remark(s);
    if !body.starts_with("D3DFMT_") {
        return Err(format!("{s:?} is not a D3DFMT_ name"));
    }
    token(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        assert_eq!(dword_expr("D3DTA_CURRENT | D3DTA_ALPHAREPLICATE"), Ok(0x21));
        assert_eq!(dword_expr("TRUE (default, not changed by the test)"), Ok(1));
        assert_eq!(
            dword_expr("D3DFVF_XYZ | D3DFVF_TEXCOORDSIZE4(0) | D3DFVF_TEX1"),
            Ok(0x2_0102)
        );
        assert!(dword_expr("D3DTOP_NOPE").is_err());
        assert_eq!(render_state("D3DRS_FOGSTART"), Some((36, true)));
    }
}
