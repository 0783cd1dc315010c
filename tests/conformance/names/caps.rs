//! The capability flag families of `d3d9caps.h`: for each family, the
//! D3DCAPS9 members that hold it and its flags. A bare flag name means its
//! family's first member (the one a D3D9 application checks for that
//! family: `TextureFilterCaps` for `D3DPTFILTERCAPS_*`, `ZCmpCaps` for
//! `D3DPCMPCAPS_*`, `SrcBlendCaps` for `D3DPBLENDCAPS_*`); any other member
//! is named explicitly (`VertexTextureFilterCaps & D3DPTFILTERCAPS_MINFPOINT`).

/// One family: name prefix, the members holding it (first = bare name's), flags.
pub struct Family {
    pub prefix: &'static str,
    pub members: &'static [&'static str],
    pub flags: &'static [(&'static str, u32)],
}

const CMP: &[(&str, u32)] = &[
    ("NEVER", 0x1),
    ("LESS", 0x2),
    ("EQUAL", 0x4),
    ("LESSEQUAL", 0x8),
    ("GREATER", 0x10),
    ("NOTEQUAL", 0x20),
    ("GREATEREQUAL", 0x40),
    ("ALWAYS", 0x80),
];

const BLEND: &[(&str, u32)] = &[
    ("ZERO", 0x1),
    ("ONE", 0x2),
    ("SRCCOLOR", 0x4),
    ("INVSRCCOLOR", 0x8),
    ("SRCALPHA", 0x10),
    ("INVSRCALPHA", 0x20),
    ("DESTALPHA", 0x40),
    ("INVDESTALPHA", 0x80),
    ("DESTCOLOR", 0x100),
    ("INVDESTCOLOR", 0x200),
    ("SRCALPHASAT", 0x400),
    ("BOTHSRCALPHA", 0x800),
    ("BOTHINVSRCALPHA", 0x1000),
    ("BLENDFACTOR", 0x2000),
    ("SRCCOLOR2", 0x4000),
    ("INVSRCCOLOR2", 0x8000),
];

const FILTER: &[(&str, u32)] = &[
    ("MINFPOINT", 0x100),
    ("MINFLINEAR", 0x200),
    ("MINFANISOTROPIC", 0x400),
    ("MINFPYRAMIDALQUAD", 0x800),
    ("MINFGAUSSIANQUAD", 0x1000),
    ("MIPFPOINT", 0x1_0000),
    ("MIPFLINEAR", 0x2_0000),
    ("CONVOLUTIONMONO", 0x4_0000),
    ("MAGFPOINT", 0x100_0000),
    ("MAGFLINEAR", 0x200_0000),
    ("MAGFANISOTROPIC", 0x400_0000),
    ("MAGFPYRAMIDALQUAD", 0x800_0000),
    ("MAGFGAUSSIANQUAD", 0x1000_0000),
];

const ADDRESS: &[(&str, u32)] = &[
    ("WRAP", 0x1),
    ("MIRROR", 0x2),
    ("CLAMP", 0x4),
    ("BORDER", 0x8),
    ("INDEPENDENTUV", 0x10),
    ("MIRRORONCE", 0x20),
];

/// `D3DTEXOPCAPS_*`: bit n-1 for `D3DTOP` n, in D3DTOP order.
const TEXOP: &[(&str, u32)] = &[
    ("DISABLE", 1 << 0),
    ("SELECTARG1", 1 << 1),
    ("SELECTARG2", 1 << 2),
    ("MODULATE", 1 << 3),
    ("MODULATE2X", 1 << 4),
    ("MODULATE4X", 1 << 5),
    ("ADD", 1 << 6),
    ("ADDSIGNED", 1 << 7),
    ("ADDSIGNED2X", 1 << 8),
    ("SUBTRACT", 1 << 9),
    ("ADDSMOOTH", 1 << 10),
    ("BLENDDIFFUSEALPHA", 1 << 11),
    ("BLENDTEXTUREALPHA", 1 << 12),
    ("BLENDFACTORALPHA", 1 << 13),
    ("BLENDTEXTUREALPHAPM", 1 << 14),
    ("BLENDCURRENTALPHA", 1 << 15),
    ("PREMODULATE", 1 << 16),
    ("MODULATEALPHA_ADDCOLOR", 1 << 17),
    ("MODULATECOLOR_ADDALPHA", 1 << 18),
    ("MODULATEINVALPHA_ADDCOLOR", 1 << 19),
    ("MODULATEINVCOLOR_ADDALPHA", 1 << 20),
    ("BUMPENVMAP", 1 << 21),
    ("BUMPENVMAPLUMINANCE", 1 << 22),
    ("DOTPRODUCT3", 1 << 23),
    ("MULTIPLYADD", 1 << 24),
    ("LERP", 1 << 25),
];

/// Every family, in D3DCAPS9 member order.
pub const FAMILIES: &[Family] = &[
    Family {
        prefix: "D3DCAPS_",
        members: &["Caps"],
        flags: &[("OVERLAY", 0x800), ("READ_SCANLINE", 0x2_0000)],
    },
    Family {
        prefix: "D3DCAPS2_",
        members: &["Caps2"],
        flags: &[
            ("FULLSCREENGAMMA", 0x2_0000),
            ("CANCALIBRATEGAMMA", 0x10_0000),
            ("RESERVED", 0x200_0000),
            ("CANMANAGERESOURCE", 0x1000_0000),
            ("DYNAMICTEXTURES", 0x2000_0000),
            ("CANAUTOGENMIPMAP", 0x4000_0000),
            ("CANSHARERESOURCE", 0x8000_0000),
        ],
    },
    Family {
        prefix: "D3DCAPS3_",
        members: &["Caps3"],
        flags: &[
            ("ALPHA_FULLSCREEN_FLIP_OR_DISCARD", 0x20),
            ("LINEAR_TO_SRGB_PRESENTATION", 0x80),
            ("COPY_TO_VIDMEM", 0x100),
            ("COPY_TO_SYSTEMMEM", 0x200),
            ("DXVAHD", 0x400),
        ],
    },
    Family {
        prefix: "D3DPRESENT_INTERVAL_",
        members: &["PresentationIntervals"],
        flags: &[
            ("ONE", 0x1),
            ("TWO", 0x2),
            ("THREE", 0x4),
            ("FOUR", 0x8),
            ("IMMEDIATE", 0x8000_0000),
        ],
    },
    Family {
        prefix: "D3DCURSORCAPS_",
        members: &["CursorCaps"],
        flags: &[("COLOR", 0x1), ("LOWRES", 0x2)],
    },
    Family {
        prefix: "D3DDEVCAPS_",
        members: &["DevCaps"],
        flags: &[
            ("EXECUTESYSTEMMEMORY", 0x10),
            ("EXECUTEVIDEOMEMORY", 0x20),
            ("TLVERTEXSYSTEMMEMORY", 0x40),
            ("TLVERTEXVIDEOMEMORY", 0x80),
            ("TEXTURESYSTEMMEMORY", 0x100),
            ("TEXTUREVIDEOMEMORY", 0x200),
            ("DRAWPRIMTLVERTEX", 0x400),
            ("CANRENDERAFTERFLIP", 0x800),
            ("TEXTURENONLOCALVIDMEM", 0x1000),
            ("DRAWPRIMITIVES2", 0x2000),
            ("SEPARATETEXTUREMEMORIES", 0x4000),
            ("DRAWPRIMITIVES2EX", 0x8000),
            ("HWTRANSFORMANDLIGHT", 0x1_0000),
            ("CANBLTSYSTONONLOCAL", 0x2_0000),
            ("HWRASTERIZATION", 0x8_0000),
            ("PUREDEVICE", 0x10_0000),
            ("QUINTICRTPATCHES", 0x20_0000),
            ("RTPATCHES", 0x40_0000),
            ("RTPATCHHANDLEZERO", 0x80_0000),
            ("NPATCHES", 0x100_0000),
        ],
    },
    Family {
        prefix: "D3DPMISCCAPS_",
        members: &["PrimitiveMiscCaps"],
        flags: &[
            ("MASKZ", 0x2),
            ("LINEPATTERNREP", 0x4),
            ("CULLNONE", 0x10),
            ("CULLCW", 0x20),
            ("CULLCCW", 0x40),
            ("COLORWRITEENABLE", 0x80),
            ("CLIPPLANESCALEDPOINTS", 0x100),
            ("CLIPTLVERTS", 0x200),
            ("TSSARGTEMP", 0x400),
            ("BLENDOP", 0x800),
            ("NULLREFERENCE", 0x1000),
            ("INDEPENDENTWRITEMASKS", 0x4000),
            ("PERSTAGECONSTANT", 0x8000),
            ("FOGANDSPECULARALPHA", 0x1_0000),
            ("SEPARATEALPHABLEND", 0x2_0000),
            ("MRTINDEPENDENTBITDEPTHS", 0x4_0000),
            ("MRTPOSTPIXELSHADERBLENDING", 0x8_0000),
            ("FOGVERTEXCLAMPED", 0x10_0000),
            ("POSTBLENDSRGBCONVERT", 0x20_0000),
        ],
    },
    Family {
        prefix: "D3DPRASTERCAPS_",
        members: &["RasterCaps"],
        flags: &[
            ("DITHER", 0x1),
            ("ZTEST", 0x10),
            ("FOGVERTEX", 0x80),
            ("FOGTABLE", 0x100),
            ("MIPMAPLODBIAS", 0x2000),
            ("ZBUFFERLESSHSR", 0x8000),
            ("FOGRANGE", 0x1_0000),
            ("ANISOTROPY", 0x2_0000),
            ("WBUFFER", 0x4_0000),
            ("WFOG", 0x10_0000),
            ("ZFOG", 0x20_0000),
            ("COLORPERSPECTIVE", 0x40_0000),
            ("SCISSORTEST", 0x100_0000),
            ("SLOPESCALEDEPTHBIAS", 0x200_0000),
            ("DEPTHBIAS", 0x400_0000),
            ("MULTISAMPLE_TOGGLE", 0x800_0000),
        ],
    },
    Family {
        prefix: "D3DPCMPCAPS_",
        members: &["ZCmpCaps", "AlphaCmpCaps"],
        flags: CMP,
    },
    Family {
        prefix: "D3DPBLENDCAPS_",
        members: &["SrcBlendCaps", "DestBlendCaps"],
        flags: BLEND,
    },
    Family {
        prefix: "D3DPSHADECAPS_",
        members: &["ShadeCaps"],
        flags: &[
            ("COLORGOURAUDRGB", 0x8),
            ("SPECULARGOURAUDRGB", 0x200),
            ("ALPHAGOURAUDBLEND", 0x4000),
            ("FOGGOURAUD", 0x8_0000),
        ],
    },
    Family {
        prefix: "D3DPTEXTURECAPS_",
        members: &["TextureCaps"],
        flags: &[
            ("PERSPECTIVE", 0x1),
            ("POW2", 0x2),
            ("ALPHA", 0x4),
            ("SQUAREONLY", 0x20),
            ("TEXREPEATNOTSCALEDBYSIZE", 0x40),
            ("ALPHAPALETTE", 0x80),
            ("NONPOW2CONDITIONAL", 0x100),
            ("PROJECTED", 0x400),
            ("CUBEMAP", 0x800),
            ("VOLUMEMAP", 0x2000),
            ("MIPMAP", 0x4000),
            ("MIPVOLUMEMAP", 0x8000),
            ("MIPCUBEMAP", 0x1_0000),
            ("CUBEMAP_POW2", 0x2_0000),
            ("VOLUMEMAP_POW2", 0x4_0000),
            ("NOPROJECTEDBUMPENV", 0x20_0000),
        ],
    },
    Family {
        prefix: "D3DPTFILTERCAPS_",
        members: &[
            "TextureFilterCaps",
            "CubeTextureFilterCaps",
            "VolumeTextureFilterCaps",
            "StretchRectFilterCaps",
            "VertexTextureFilterCaps",
        ],
        flags: FILTER,
    },
    Family {
        prefix: "D3DPTADDRESSCAPS_",
        members: &["TextureAddressCaps", "VolumeTextureAddressCaps"],
        flags: ADDRESS,
    },
    Family {
        prefix: "D3DLINECAPS_",
        members: &["LineCaps"],
        flags: &[
            ("TEXTURE", 0x1),
            ("ZTEST", 0x2),
            ("BLEND", 0x4),
            ("ALPHACMP", 0x8),
            ("FOG", 0x10),
            ("ANTIALIAS", 0x20),
        ],
    },
    Family {
        prefix: "D3DSTENCILCAPS_",
        members: &["StencilCaps"],
        flags: &[
            ("KEEP", 0x1),
            ("ZERO", 0x2),
            ("REPLACE", 0x4),
            ("INCRSAT", 0x8),
            ("DECRSAT", 0x10),
            ("INVERT", 0x20),
            ("INCR", 0x40),
            ("DECR", 0x80),
            ("TWOSIDED", 0x100),
        ],
    },
    Family {
        prefix: "D3DFVFCAPS_",
        members: &["FVFCaps"],
        flags: &[
            ("TEXCOORDCOUNTMASK", 0xFFFF),
            ("DONOTSTRIPELEMENTS", 0x8_0000),
            ("PSIZE", 0x10_0000),
        ],
    },
    Family {
        prefix: "D3DTEXOPCAPS_",
        members: &["TextureOpCaps"],
        flags: TEXOP,
    },
    Family {
        prefix: "D3DVTXPCAPS_",
        members: &["VertexProcessingCaps"],
        flags: &[
            ("TEXGEN", 0x1),
            ("MATERIALSOURCE7", 0x2),
            ("DIRECTIONALLIGHTS", 0x8),
            ("POSITIONALLIGHTS", 0x10),
            ("LOCALVIEWER", 0x20),
            ("TWEENING", 0x40),
            ("TEXGEN_SPHEREMAP", 0x100),
            ("NO_TEXGEN_NONLOCALVIEWER", 0x200),
        ],
    },
    Family {
        prefix: "D3DDEVCAPS2_",
        members: &["DevCaps2"],
        flags: &[
            ("STREAMOFFSET", 0x1),
            ("DMAPNPATCH", 0x2),
            ("ADAPTIVETESSRTPATCH", 0x4),
            ("ADAPTIVETESSNPATCH", 0x8),
            ("CAN_STRETCHRECT_FROM_TEXTURES", 0x10),
            ("PRESAMPLEDDMAPNPATCH", 0x20),
            ("VERTEXELEMENTSCANSHARESTREAMOFFSET", 0x40),
        ],
    },
    Family {
        prefix: "D3DDTCAPS_",
        members: &["DeclTypes"],
        flags: &[
            ("UBYTE4", 0x1),
            ("UBYTE4N", 0x2),
            ("SHORT2N", 0x4),
            ("SHORT4N", 0x8),
            ("USHORT2N", 0x10),
            ("USHORT4N", 0x20),
            ("UDEC3", 0x40),
            ("DEC3N", 0x80),
            ("FLOAT16_2", 0x100),
            ("FLOAT16_4", 0x200),
        ],
    },
    Family {
        prefix: "D3DVS20CAPS_",
        members: &["VS20Caps.Caps"],
        flags: &[("PREDICATION", 0x1)],
    },
    Family {
        prefix: "D3DPS20CAPS_",
        members: &["PS20Caps.Caps"],
        flags: &[
            ("ARBITRARYSWIZZLE", 0x1),
            ("GRADIENTINSTRUCTIONS", 0x2),
            ("PREDICATION", 0x4),
            ("NODEPENDENTREADLIMIT", 0x8),
            ("NOTEXINSTRUCTIONLIMIT", 0x10),
        ],
    },
];

/// The family of a full flag name and the flag's bit.
pub fn flag(name: &str) -> Option<(&'static Family, u32)> {
    // Longest prefix first: D3DDEVCAPS2_ must not be read as D3DDEVCAPS_.
    FAMILIES
        .iter()
        .filter_map(|f| {
            let short = name.strip_prefix(f.prefix)?;
            let bit = f.flags.iter().find(|(n, _)| *n == short)?.1;
            Some((f, bit))
        })
        .max_by_key(|(f, _)| f.prefix.len())
}

/// The family a D3DCAPS9 member holds.
pub fn family_of(member: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.members.contains(&member))
}
