//! The D3DCAPS9 flag members as typed bitflags, with D3D9's numeric values
//! (d3d9caps.h; caps.md section 9.1). `bits()` gives the DWORD a D3D9
//! application would read.

use bitflags::bitflags;

bitflags! {
    /// `D3DCAPS9::Caps` (`D3DCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DriverCaps: u32 {
        /// D3DCAPS_OVERLAY (9Ex only).
        const OVERLAY = 0x0000_0800;
        /// D3DCAPS_READ_SCANLINE.
        const READ_SCANLINE = 0x0002_0000;
    }

    /// `D3DCAPS9::Caps2` (`D3DCAPS2_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Caps2: u32 {
        /// D3DCAPS2_NO2DDURING3DSCENE (legacy).
        const NO2DDURING3DSCENE = 0x0000_0002;
        /// D3DCAPS2_FULLSCREENGAMMA.
        const FULLSCREENGAMMA = 0x0002_0000;
        /// D3DCAPS2_CANRENDERWINDOWED (legacy).
        const CANRENDERWINDOWED = 0x0008_0000;
        /// D3DCAPS2_CANCALIBRATEGAMMA.
        const CANCALIBRATEGAMMA = 0x0010_0000;
        /// D3DCAPS2_RESERVED.
        const RESERVED = 0x0200_0000;
        /// D3DCAPS2_CANMANAGERESOURCE.
        const CANMANAGERESOURCE = 0x1000_0000;
        /// D3DCAPS2_DYNAMICTEXTURES.
        const DYNAMICTEXTURES = 0x2000_0000;
        /// D3DCAPS2_CANAUTOGENMIPMAP.
        const CANAUTOGENMIPMAP = 0x4000_0000;
        /// D3DCAPS2_CANSHARERESOURCE (9Ex only).
        const CANSHARERESOURCE = 0x8000_0000;
    }

    /// `D3DCAPS9::Caps3` (`D3DCAPS3_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Caps3: u32 {
        /// D3DCAPS3_RESERVED.
        const RESERVED = 0x8000_001F;
        /// D3DCAPS3_ALPHA_FULLSCREEN_FLIP_OR_DISCARD.
        const ALPHA_FULLSCREEN_FLIP_OR_DISCARD = 0x0000_0020;
        /// D3DCAPS3_LINEAR_TO_SRGB_PRESENTATION.
        const LINEAR_TO_SRGB_PRESENTATION = 0x0000_0080;
        /// D3DCAPS3_COPY_TO_VIDMEM.
        const COPY_TO_VIDMEM = 0x0000_0100;
        /// D3DCAPS3_COPY_TO_SYSTEMMEM.
        const COPY_TO_SYSTEMMEM = 0x0000_0200;
        /// D3DCAPS3_DXVAHD (9Ex only).
        const DXVAHD = 0x0000_0400;
        /// D3DCAPS3_DXVAHD_LIMITED (9Ex only).
        const DXVAHD_LIMITED = 0x0000_0800;
    }

    /// `D3DCAPS9::PresentationIntervals` (`D3DPRESENT_INTERVAL_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct PresentIntervals: u32 {
        /// D3DPRESENT_INTERVAL_ONE.
        const ONE = 0x0000_0001;
        /// D3DPRESENT_INTERVAL_TWO.
        const TWO = 0x0000_0002;
        /// D3DPRESENT_INTERVAL_THREE.
        const THREE = 0x0000_0004;
        /// D3DPRESENT_INTERVAL_FOUR.
        const FOUR = 0x0000_0008;
        /// D3DPRESENT_INTERVAL_IMMEDIATE.
        const IMMEDIATE = 0x8000_0000;
    }

    /// `D3DCAPS9::CursorCaps` (`D3DCURSORCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct CursorCaps: u32 {
        /// D3DCURSORCAPS_COLOR.
        const COLOR = 0x0000_0001;
        /// D3DCURSORCAPS_LOWRES.
        const LOWRES = 0x0000_0002;
    }

    /// `D3DCAPS9::DevCaps` (`D3DDEVCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DevCaps: u32 {
        /// D3DDEVCAPS_EXECUTESYSTEMMEMORY.
        const EXECUTESYSTEMMEMORY = 0x0000_0010;
        /// D3DDEVCAPS_EXECUTEVIDEOMEMORY.
        const EXECUTEVIDEOMEMORY = 0x0000_0020;
        /// D3DDEVCAPS_TLVERTEXSYSTEMMEMORY.
        const TLVERTEXSYSTEMMEMORY = 0x0000_0040;
        /// D3DDEVCAPS_TLVERTEXVIDEOMEMORY.
        const TLVERTEXVIDEOMEMORY = 0x0000_0080;
        /// D3DDEVCAPS_TEXTURESYSTEMMEMORY.
        const TEXTURESYSTEMMEMORY = 0x0000_0100;
        /// D3DDEVCAPS_TEXTUREVIDEOMEMORY.
        const TEXTUREVIDEOMEMORY = 0x0000_0200;
        /// D3DDEVCAPS_DRAWPRIMTLVERTEX.
        const DRAWPRIMTLVERTEX = 0x0000_0400;
        /// D3DDEVCAPS_CANRENDERAFTERFLIP.
        const CANRENDERAFTERFLIP = 0x0000_0800;
        /// D3DDEVCAPS_TEXTURENONLOCALVIDMEM.
        const TEXTURENONLOCALVIDMEM = 0x0000_1000;
        /// D3DDEVCAPS_DRAWPRIMITIVES2.
        const DRAWPRIMITIVES2 = 0x0000_2000;
        /// D3DDEVCAPS_SEPARATETEXTUREMEMORIES.
        const SEPARATETEXTUREMEMORIES = 0x0000_4000;
        /// D3DDEVCAPS_DRAWPRIMITIVES2EX.
        const DRAWPRIMITIVES2EX = 0x0000_8000;
        /// D3DDEVCAPS_HWTRANSFORMANDLIGHT.
        const HWTRANSFORMANDLIGHT = 0x0001_0000;
        /// D3DDEVCAPS_CANBLTSYSTONONLOCAL.
        const CANBLTSYSTONONLOCAL = 0x0002_0000;
        /// D3DDEVCAPS_HWRASTERIZATION.
        const HWRASTERIZATION = 0x0008_0000;
        /// D3DDEVCAPS_PUREDEVICE.
        const PUREDEVICE = 0x0010_0000;
        /// D3DDEVCAPS_QUINTICRTPATCHES.
        const QUINTICRTPATCHES = 0x0020_0000;
        /// D3DDEVCAPS_RTPATCHES.
        const RTPATCHES = 0x0040_0000;
        /// D3DDEVCAPS_RTPATCHHANDLEZERO.
        const RTPATCHHANDLEZERO = 0x0080_0000;
        /// D3DDEVCAPS_NPATCHES.
        const NPATCHES = 0x0100_0000;
    }

    /// `D3DCAPS9::PrimitiveMiscCaps` (`D3DPMISCCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct PrimitiveMiscCaps: u32 {
        /// D3DPMISCCAPS_MASKZ.
        const MASKZ = 0x0000_0002;
        /// D3DPMISCCAPS_LINEPATTERNREP.
        const LINEPATTERNREP = 0x0000_0004;
        /// D3DPMISCCAPS_CULLNONE.
        const CULLNONE = 0x0000_0010;
        /// D3DPMISCCAPS_CULLCW.
        const CULLCW = 0x0000_0020;
        /// D3DPMISCCAPS_CULLCCW.
        const CULLCCW = 0x0000_0040;
        /// D3DPMISCCAPS_COLORWRITEENABLE.
        const COLORWRITEENABLE = 0x0000_0080;
        /// D3DPMISCCAPS_CLIPPLANESCALEDPOINTS.
        const CLIPPLANESCALEDPOINTS = 0x0000_0100;
        /// D3DPMISCCAPS_CLIPTLVERTS.
        const CLIPTLVERTS = 0x0000_0200;
        /// D3DPMISCCAPS_TSSARGTEMP.
        const TSSARGTEMP = 0x0000_0400;
        /// D3DPMISCCAPS_BLENDOP.
        const BLENDOP = 0x0000_0800;
        /// D3DPMISCCAPS_NULLREFERENCE.
        const NULLREFERENCE = 0x0000_1000;
        /// D3DPMISCCAPS_INDEPENDENTWRITEMASKS.
        const INDEPENDENTWRITEMASKS = 0x0000_4000;
        /// D3DPMISCCAPS_PERSTAGECONSTANT.
        const PERSTAGECONSTANT = 0x0000_8000;
        /// D3DPMISCCAPS_FOGANDSPECULARALPHA.
        const FOGANDSPECULARALPHA = 0x0001_0000;
        /// D3DPMISCCAPS_SEPARATEALPHABLEND.
        const SEPARATEALPHABLEND = 0x0002_0000;
        /// D3DPMISCCAPS_MRTINDEPENDENTBITDEPTHS.
        const MRTINDEPENDENTBITDEPTHS = 0x0004_0000;
        /// D3DPMISCCAPS_MRTPOSTPIXELSHADERBLENDING.
        const MRTPOSTPIXELSHADERBLENDING = 0x0008_0000;
        /// D3DPMISCCAPS_FOGVERTEXCLAMPED.
        const FOGVERTEXCLAMPED = 0x0010_0000;
        /// D3DPMISCCAPS_POSTBLENDSRGBCONVERT (9Ex only).
        const POSTBLENDSRGBCONVERT = 0x0020_0000;
    }

    /// `D3DCAPS9::LineCaps` (`D3DLINECAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct LineCaps: u32 {
        /// D3DLINECAPS_TEXTURE.
        const TEXTURE = 0x0000_0001;
        /// D3DLINECAPS_ZTEST.
        const ZTEST = 0x0000_0002;
        /// D3DLINECAPS_BLEND.
        const BLEND = 0x0000_0004;
        /// D3DLINECAPS_ALPHACMP.
        const ALPHACMP = 0x0000_0008;
        /// D3DLINECAPS_FOG.
        const FOG = 0x0000_0010;
        /// D3DLINECAPS_ANTIALIAS.
        const ANTIALIAS = 0x0000_0020;
    }

    /// `D3DCAPS9::RasterCaps` (`D3DPRASTERCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct RasterCaps: u32 {
        /// D3DPRASTERCAPS_DITHER.
        const DITHER = 0x0000_0001;
        /// D3DPRASTERCAPS_ZTEST.
        const ZTEST = 0x0000_0010;
        /// D3DPRASTERCAPS_FOGVERTEX.
        const FOGVERTEX = 0x0000_0080;
        /// D3DPRASTERCAPS_FOGTABLE.
        const FOGTABLE = 0x0000_0100;
        /// D3DPRASTERCAPS_MIPMAPLODBIAS.
        const MIPMAPLODBIAS = 0x0000_2000;
        /// D3DPRASTERCAPS_ZBUFFERLESSHSR.
        const ZBUFFERLESSHSR = 0x0000_8000;
        /// D3DPRASTERCAPS_FOGRANGE.
        const FOGRANGE = 0x0001_0000;
        /// D3DPRASTERCAPS_ANISOTROPY.
        const ANISOTROPY = 0x0002_0000;
        /// D3DPRASTERCAPS_WBUFFER.
        const WBUFFER = 0x0004_0000;
        /// D3DPRASTERCAPS_WFOG.
        const WFOG = 0x0010_0000;
        /// D3DPRASTERCAPS_ZFOG.
        const ZFOG = 0x0020_0000;
        /// D3DPRASTERCAPS_COLORPERSPECTIVE.
        const COLORPERSPECTIVE = 0x0040_0000;
        /// D3DPRASTERCAPS_SCISSORTEST.
        const SCISSORTEST = 0x0100_0000;
        /// D3DPRASTERCAPS_SLOPESCALEDEPTHBIAS.
        const SLOPESCALEDEPTHBIAS = 0x0200_0000;
        /// D3DPRASTERCAPS_DEPTHBIAS.
        const DEPTHBIAS = 0x0400_0000;
        /// D3DPRASTERCAPS_MULTISAMPLE_TOGGLE.
        const MULTISAMPLE_TOGGLE = 0x0800_0000;
    }

    /// `D3DCAPS9::ZCmpCaps` and `AlphaCmpCaps` (`D3DPCMPCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct CmpCaps: u32 {
        /// D3DPCMPCAPS_NEVER.
        const NEVER = 0x0000_0001;
        /// D3DPCMPCAPS_LESS.
        const LESS = 0x0000_0002;
        /// D3DPCMPCAPS_EQUAL.
        const EQUAL = 0x0000_0004;
        /// D3DPCMPCAPS_LESSEQUAL.
        const LESSEQUAL = 0x0000_0008;
        /// D3DPCMPCAPS_GREATER.
        const GREATER = 0x0000_0010;
        /// D3DPCMPCAPS_NOTEQUAL.
        const NOTEQUAL = 0x0000_0020;
        /// D3DPCMPCAPS_GREATEREQUAL.
        const GREATEREQUAL = 0x0000_0040;
        /// D3DPCMPCAPS_ALWAYS.
        const ALWAYS = 0x0000_0080;
    }

    /// `D3DCAPS9::SrcBlendCaps` and `DestBlendCaps` (`D3DPBLENDCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct BlendCaps: u32 {
        /// D3DPBLENDCAPS_ZERO.
        const ZERO = 0x0000_0001;
        /// D3DPBLENDCAPS_ONE.
        const ONE = 0x0000_0002;
        /// D3DPBLENDCAPS_SRCCOLOR.
        const SRCCOLOR = 0x0000_0004;
        /// D3DPBLENDCAPS_INVSRCCOLOR.
        const INVSRCCOLOR = 0x0000_0008;
        /// D3DPBLENDCAPS_SRCALPHA.
        const SRCALPHA = 0x0000_0010;
        /// D3DPBLENDCAPS_INVSRCALPHA.
        const INVSRCALPHA = 0x0000_0020;
        /// D3DPBLENDCAPS_DESTALPHA.
        const DESTALPHA = 0x0000_0040;
        /// D3DPBLENDCAPS_INVDESTALPHA.
        const INVDESTALPHA = 0x0000_0080;
        /// D3DPBLENDCAPS_DESTCOLOR.
        const DESTCOLOR = 0x0000_0100;
        /// D3DPBLENDCAPS_INVDESTCOLOR.
        const INVDESTCOLOR = 0x0000_0200;
        /// D3DPBLENDCAPS_SRCALPHASAT.
        const SRCALPHASAT = 0x0000_0400;
        /// D3DPBLENDCAPS_BOTHSRCALPHA.
        const BOTHSRCALPHA = 0x0000_0800;
        /// D3DPBLENDCAPS_BOTHINVSRCALPHA.
        const BOTHINVSRCALPHA = 0x0000_1000;
        /// D3DPBLENDCAPS_BLENDFACTOR.
        const BLENDFACTOR = 0x0000_2000;
        /// D3DPBLENDCAPS_SRCCOLOR2 (9Ex only).
        const SRCCOLOR2 = 0x0000_4000;
        /// D3DPBLENDCAPS_INVSRCCOLOR2 (9Ex only).
        const INVSRCCOLOR2 = 0x0000_8000;
    }

    /// `D3DCAPS9::ShadeCaps` (`D3DPSHADECAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ShadeCaps: u32 {
        /// D3DPSHADECAPS_COLORGOURAUDRGB.
        const COLORGOURAUDRGB = 0x0000_0008;
        /// D3DPSHADECAPS_SPECULARGOURAUDRGB.
        const SPECULARGOURAUDRGB = 0x0000_0200;
        /// D3DPSHADECAPS_ALPHAGOURAUDBLEND.
        const ALPHAGOURAUDBLEND = 0x0000_4000;
        /// D3DPSHADECAPS_FOGGOURAUD.
        const FOGGOURAUD = 0x0008_0000;
    }

    /// `D3DCAPS9::TextureCaps` (`D3DPTEXTURECAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct TextureCaps: u32 {
        /// D3DPTEXTURECAPS_PERSPECTIVE.
        const PERSPECTIVE = 0x0000_0001;
        /// D3DPTEXTURECAPS_POW2.
        const POW2 = 0x0000_0002;
        /// D3DPTEXTURECAPS_ALPHA.
        const ALPHA = 0x0000_0004;
        /// D3DPTEXTURECAPS_SQUAREONLY.
        const SQUAREONLY = 0x0000_0020;
        /// D3DPTEXTURECAPS_TEXREPEATNOTSCALEDBYSIZE.
        const TEXREPEATNOTSCALEDBYSIZE = 0x0000_0040;
        /// D3DPTEXTURECAPS_ALPHAPALETTE.
        const ALPHAPALETTE = 0x0000_0080;
        /// D3DPTEXTURECAPS_NONPOW2CONDITIONAL.
        const NONPOW2CONDITIONAL = 0x0000_0100;
        /// D3DPTEXTURECAPS_PROJECTED.
        const PROJECTED = 0x0000_0400;
        /// D3DPTEXTURECAPS_CUBEMAP.
        const CUBEMAP = 0x0000_0800;
        /// D3DPTEXTURECAPS_VOLUMEMAP.
        const VOLUMEMAP = 0x0000_2000;
        /// D3DPTEXTURECAPS_MIPMAP.
        const MIPMAP = 0x0000_4000;
        /// D3DPTEXTURECAPS_MIPVOLUMEMAP.
        const MIPVOLUMEMAP = 0x0000_8000;
        /// D3DPTEXTURECAPS_MIPCUBEMAP.
        const MIPCUBEMAP = 0x0001_0000;
        /// D3DPTEXTURECAPS_CUBEMAP_POW2.
        const CUBEMAP_POW2 = 0x0002_0000;
        /// D3DPTEXTURECAPS_VOLUMEMAP_POW2.
        const VOLUMEMAP_POW2 = 0x0004_0000;
        /// D3DPTEXTURECAPS_NOPROJECTEDBUMPENV.
        const NOPROJECTEDBUMPENV = 0x0020_0000;
    }

    /// The `*FilterCaps` members (`D3DPTFILTERCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct FilterCaps: u32 {
        /// D3DPTFILTERCAPS_MINFPOINT.
        const MINFPOINT = 0x0000_0100;
        /// D3DPTFILTERCAPS_MINFLINEAR.
        const MINFLINEAR = 0x0000_0200;
        /// D3DPTFILTERCAPS_MINFANISOTROPIC.
        const MINFANISOTROPIC = 0x0000_0400;
        /// D3DPTFILTERCAPS_MINFPYRAMIDALQUAD.
        const MINFPYRAMIDALQUAD = 0x0000_0800;
        /// D3DPTFILTERCAPS_MINFGAUSSIANQUAD.
        const MINFGAUSSIANQUAD = 0x0000_1000;
        /// D3DPTFILTERCAPS_MIPFPOINT.
        const MIPFPOINT = 0x0001_0000;
        /// D3DPTFILTERCAPS_MIPFLINEAR.
        const MIPFLINEAR = 0x0002_0000;
        /// D3DPTFILTERCAPS_CONVOLUTIONMONO (9Ex only).
        const CONVOLUTIONMONO = 0x0004_0000;
        /// D3DPTFILTERCAPS_MAGFPOINT.
        const MAGFPOINT = 0x0100_0000;
        /// D3DPTFILTERCAPS_MAGFLINEAR.
        const MAGFLINEAR = 0x0200_0000;
        /// D3DPTFILTERCAPS_MAGFANISOTROPIC.
        const MAGFANISOTROPIC = 0x0400_0000;
        /// D3DPTFILTERCAPS_MAGFPYRAMIDALQUAD.
        const MAGFPYRAMIDALQUAD = 0x0800_0000;
        /// D3DPTFILTERCAPS_MAGFGAUSSIANQUAD.
        const MAGFGAUSSIANQUAD = 0x1000_0000;
    }

    /// `D3DCAPS9::TextureAddressCaps` and `VolumeTextureAddressCaps` (`D3DPTADDRESSCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct AddressCaps: u32 {
        /// D3DPTADDRESSCAPS_WRAP.
        const WRAP = 0x0000_0001;
        /// D3DPTADDRESSCAPS_MIRROR.
        const MIRROR = 0x0000_0002;
        /// D3DPTADDRESSCAPS_CLAMP.
        const CLAMP = 0x0000_0004;
        /// D3DPTADDRESSCAPS_BORDER.
        const BORDER = 0x0000_0008;
        /// D3DPTADDRESSCAPS_INDEPENDENTUV.
        const INDEPENDENTUV = 0x0000_0010;
        /// D3DPTADDRESSCAPS_MIRRORONCE.
        const MIRRORONCE = 0x0000_0020;
    }

    /// `D3DCAPS9::StencilCaps` (`D3DSTENCILCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct StencilCaps: u32 {
        /// D3DSTENCILCAPS_KEEP.
        const KEEP = 0x0000_0001;
        /// D3DSTENCILCAPS_ZERO.
        const ZERO = 0x0000_0002;
        /// D3DSTENCILCAPS_REPLACE.
        const REPLACE = 0x0000_0004;
        /// D3DSTENCILCAPS_INCRSAT.
        const INCRSAT = 0x0000_0008;
        /// D3DSTENCILCAPS_DECRSAT.
        const DECRSAT = 0x0000_0010;
        /// D3DSTENCILCAPS_INVERT.
        const INVERT = 0x0000_0020;
        /// D3DSTENCILCAPS_INCR.
        const INCR = 0x0000_0040;
        /// D3DSTENCILCAPS_DECR.
        const DECR = 0x0000_0080;
        /// D3DSTENCILCAPS_TWOSIDED.
        const TWOSIDED = 0x0000_0100;
    }

    /// `D3DCAPS9::FVFCaps` (`D3DFVFCAPS_*`; the low word is a count).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct FvfCaps: u32 {
        /// D3DFVFCAPS_TEXCOORDCOUNTMASK: the number of texture-coordinate sets.
        const TEXCOORDCOUNTMASK = 0x0000_FFFF;
        /// D3DFVFCAPS_DONOTSTRIPELEMENTS.
        const DONOTSTRIPELEMENTS = 0x0008_0000;
        /// D3DFVFCAPS_PSIZE.
        const PSIZE = 0x0010_0000;
        // The low word is a count, not a flag set: keep any value in it.
        const _ = !0;
    }

    /// `D3DCAPS9::TextureOpCaps` (`D3DTEXOPCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct TextureOpCaps: u32 {
        /// D3DTEXOPCAPS_DISABLE.
        const DISABLE = 0x0000_0001;
        /// D3DTEXOPCAPS_SELECTARG1.
        const SELECTARG1 = 0x0000_0002;
        /// D3DTEXOPCAPS_SELECTARG2.
        const SELECTARG2 = 0x0000_0004;
        /// D3DTEXOPCAPS_MODULATE.
        const MODULATE = 0x0000_0008;
        /// D3DTEXOPCAPS_MODULATE2X.
        const MODULATE2X = 0x0000_0010;
        /// D3DTEXOPCAPS_MODULATE4X.
        const MODULATE4X = 0x0000_0020;
        /// D3DTEXOPCAPS_ADD.
        const ADD = 0x0000_0040;
        /// D3DTEXOPCAPS_ADDSIGNED.
        const ADDSIGNED = 0x0000_0080;
        /// D3DTEXOPCAPS_ADDSIGNED2X.
        const ADDSIGNED2X = 0x0000_0100;
        /// D3DTEXOPCAPS_SUBTRACT.
        const SUBTRACT = 0x0000_0200;
        /// D3DTEXOPCAPS_ADDSMOOTH.
        const ADDSMOOTH = 0x0000_0400;
        /// D3DTEXOPCAPS_BLENDDIFFUSEALPHA.
        const BLENDDIFFUSEALPHA = 0x0000_0800;
        /// D3DTEXOPCAPS_BLENDTEXTUREALPHA.
        const BLENDTEXTUREALPHA = 0x0000_1000;
        /// D3DTEXOPCAPS_BLENDFACTORALPHA.
        const BLENDFACTORALPHA = 0x0000_2000;
        /// D3DTEXOPCAPS_BLENDTEXTUREALPHAPM.
        const BLENDTEXTUREALPHAPM = 0x0000_4000;
        /// D3DTEXOPCAPS_BLENDCURRENTALPHA.
        const BLENDCURRENTALPHA = 0x0000_8000;
        /// D3DTEXOPCAPS_PREMODULATE.
        const PREMODULATE = 0x0001_0000;
        /// D3DTEXOPCAPS_MODULATEALPHA_ADDCOLOR.
        const MODULATEALPHA_ADDCOLOR = 0x0002_0000;
        /// D3DTEXOPCAPS_MODULATECOLOR_ADDALPHA.
        const MODULATECOLOR_ADDALPHA = 0x0004_0000;
        /// D3DTEXOPCAPS_MODULATEINVALPHA_ADDCOLOR.
        const MODULATEINVALPHA_ADDCOLOR = 0x0008_0000;
        /// D3DTEXOPCAPS_MODULATEINVCOLOR_ADDALPHA.
        const MODULATEINVCOLOR_ADDALPHA = 0x0010_0000;
        /// D3DTEXOPCAPS_BUMPENVMAP.
        const BUMPENVMAP = 0x0020_0000;
        /// D3DTEXOPCAPS_BUMPENVMAPLUMINANCE.
        const BUMPENVMAPLUMINANCE = 0x0040_0000;
        /// D3DTEXOPCAPS_DOTPRODUCT3.
        const DOTPRODUCT3 = 0x0080_0000;
        /// D3DTEXOPCAPS_MULTIPLYADD.
        const MULTIPLYADD = 0x0100_0000;
        /// D3DTEXOPCAPS_LERP.
        const LERP = 0x0200_0000;
    }

    /// `D3DCAPS9::VertexProcessingCaps` (`D3DVTXPCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct VertexProcessingCaps: u32 {
        /// D3DVTXPCAPS_TEXGEN.
        const TEXGEN = 0x0000_0001;
        /// D3DVTXPCAPS_MATERIALSOURCE7.
        const MATERIALSOURCE7 = 0x0000_0002;
        /// D3DVTXPCAPS_DIRECTIONALLIGHTS.
        const DIRECTIONALLIGHTS = 0x0000_0008;
        /// D3DVTXPCAPS_POSITIONALLIGHTS.
        const POSITIONALLIGHTS = 0x0000_0010;
        /// D3DVTXPCAPS_LOCALVIEWER.
        const LOCALVIEWER = 0x0000_0020;
        /// D3DVTXPCAPS_TWEENING.
        const TWEENING = 0x0000_0040;
        /// D3DVTXPCAPS_TEXGEN_SPHEREMAP.
        const TEXGEN_SPHEREMAP = 0x0000_0100;
        /// D3DVTXPCAPS_NO_TEXGEN_NONLOCALVIEWER.
        const NO_TEXGEN_NONLOCALVIEWER = 0x0000_0200;
    }

    /// `D3DCAPS9::DevCaps2` (`D3DDEVCAPS2_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DevCaps2: u32 {
        /// D3DDEVCAPS2_STREAMOFFSET.
        const STREAMOFFSET = 0x0000_0001;
        /// D3DDEVCAPS2_DMAPNPATCH.
        const DMAPNPATCH = 0x0000_0002;
        /// D3DDEVCAPS2_ADAPTIVETESSRTPATCH.
        const ADAPTIVETESSRTPATCH = 0x0000_0004;
        /// D3DDEVCAPS2_ADAPTIVETESSNPATCH.
        const ADAPTIVETESSNPATCH = 0x0000_0008;
        /// D3DDEVCAPS2_CAN_STRETCHRECT_FROM_TEXTURES.
        const CAN_STRETCHRECT_FROM_TEXTURES = 0x0000_0010;
        /// D3DDEVCAPS2_PRESAMPLEDDMAPNPATCH.
        const PRESAMPLEDDMAPNPATCH = 0x0000_0020;
        /// D3DDEVCAPS2_VERTEXELEMENTSCANSHARESTREAMOFFSET.
        const VERTEXELEMENTSCANSHARESTREAMOFFSET = 0x0000_0040;
    }

    /// `D3DCAPS9::DeclTypes` (`D3DDTCAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DeclTypeCaps: u32 {
        /// D3DDTCAPS_UBYTE4.
        const UBYTE4 = 0x0000_0001;
        /// D3DDTCAPS_UBYTE4N.
        const UBYTE4N = 0x0000_0002;
        /// D3DDTCAPS_SHORT2N.
        const SHORT2N = 0x0000_0004;
        /// D3DDTCAPS_SHORT4N.
        const SHORT4N = 0x0000_0008;
        /// D3DDTCAPS_USHORT2N.
        const USHORT2N = 0x0000_0010;
        /// D3DDTCAPS_USHORT4N.
        const USHORT4N = 0x0000_0020;
        /// D3DDTCAPS_UDEC3.
        const UDEC3 = 0x0000_0040;
        /// D3DDTCAPS_DEC3N.
        const DEC3N = 0x0000_0080;
        /// D3DDTCAPS_FLOAT16_2.
        const FLOAT16_2 = 0x0000_0100;
        /// D3DDTCAPS_FLOAT16_4.
        const FLOAT16_4 = 0x0000_0200;
    }

    /// `D3DVSHADERCAPS2_0::Caps` (`D3DVS20CAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Vs20CapsFlags: u32 {
        /// D3DVS20CAPS_PREDICATION.
        const PREDICATION = 0x0000_0001;
    }

    /// `D3DPSHADERCAPS2_0::Caps` (`D3DPS20CAPS_*`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Ps20CapsFlags: u32 {
        /// D3DPS20CAPS_ARBITRARYSWIZZLE.
        const ARBITRARYSWIZZLE = 0x0000_0001;
        /// D3DPS20CAPS_GRADIENTINSTRUCTIONS.
        const GRADIENTINSTRUCTIONS = 0x0000_0002;
        /// D3DPS20CAPS_PREDICATION.
        const PREDICATION = 0x0000_0004;
        /// D3DPS20CAPS_NODEPENDENTREADLIMIT.
        const NODEPENDENTREADLIMIT = 0x0000_0008;
        /// D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT.
        const NOTEXINSTRUCTIONLIMIT = 0x0000_0010;
    }
}
