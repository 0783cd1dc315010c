//! The pixel stage interface: attribute planes, the 8-lane stamp (two 2x2
//! quads) a pixel stage shades, and the stage trait that the fixed-function
//! pixel pipeline and the pixel-shader interpreter implement.
//!
//! Lane layout of a stamp at (x, y) (x multiple of 4, y even): lane i is the
//! pixel (x + (i & 3), y + (i >> 2)). The two quads are lanes {0, 1, 4, 5}
//! and {2, 3, 6, 7}; within a quad, `ddx` of lane i is `v[i | 1] - v[i & !1]`
//! (its own row) and `ddy` is `v[i | 4] - v[i & !4]` (its own column)
//! (rasterization.md 18, "fine" derivatives). Lanes outside the primitive
//! are helpers: they are evaluated (attributes extrapolated) but never
//! written.
//!
//! Attribute evaluation (identical, operation for operation, in both
//! drivers so that images match bit for bit): with `fx`, `fy` the pixel
//! centre minus the primitive's plane origin (exact in f32),
//! `v = a0 + ddx * fx + ddy * fy`; perspective-correct attributes are
//! planes of `a * rhw` and are multiplied by `w = 1 / q(fx, fy)`.

// Index loops keep the scalar and 8-lane formulas visibly parallel and
// keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

pub(crate) mod setup;

/// Most stamps a stage shades in one batch ([`PixelStage::BATCH`]).
pub const BATCH: usize = crate::shader::exec::simd::BATCH;

use crate::simd::{FloatV, Simd, fmax, fmin};

/// `a0 + ddx * fx + ddy * fy` over a primitive. (`repr(C)` and `Pod`: the
/// Warp set-up writes eight planes' records as three vectors.)
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Plane {
    /// Value at the plane origin.
    pub a0: f32,
    /// Change per pixel in x.
    pub ddx: f32,
    /// Change per pixel in y.
    pub ddy: f32,
}

impl Plane {
    /// A constant.
    pub const fn constant(v: f32) -> Plane {
        Plane {
            a0: v,
            ddx: 0.0,
            ddy: 0.0,
        }
    }

    /// Scalar evaluation (the Reference driver's form).
    #[inline(always)]
    pub fn at(&self, fx: f32, fy: f32) -> f32 {
        self.a0 + self.ddx * fx + self.ddy * fy
    }

    /// 8-lane evaluation; same operations in the same order as [`Plane::at`].
    #[inline(always)]
    pub fn eval<S: Simd>(&self, s: S, fx: S::F, fy: S::F) -> S::F {
        s.splat(self.a0) + s.splat(self.ddx) * fx + s.splat(self.ddy) * fy
    }
}

/// The attributes of one primitive as the pixel stage sees them.
#[derive(Clone, Copy, Debug)]
pub struct AttrPlanes<'a> {
    /// One plane per input the stage asked for, in [`PixelStage::inputs`] order.
    pub planes: &'a [Plane],
    /// Bit k set: plane k is perspective-corrected (multiplied by `w`).
    pub persp: u64,
}

/// One 4x2 stamp (two 2x2 quads) handed to a pixel stage.
#[derive(Clone, Copy, Debug)]
pub struct Stamp<'a, S: Simd> {
    /// Pixel x of lane 0 (a multiple of 4).
    pub x: i32,
    /// Pixel y of lane 0 (even).
    pub y: i32,
    /// Lanes inside the primitive; the others are helper lanes.
    pub coverage: S::M,
    /// Clockwise (front) primitive; lines and points are front.
    pub front: bool,
    /// `1 / q` at the pixel (1 for affine primitives).
    pub w: S::F,
    /// The stage's inputs at the 8 lanes, in [`PixelStage::inputs`] order,
    /// already perspective-corrected (evaluated by the rasterizer with the
    /// module's formula).
    pub inputs: &'a [S::F],
}

impl<S: Simd> Stamp<'_, S> {
    /// Input `k` at the stamp's 8 lanes.
    #[inline(always)]
    pub fn attr(&self, k: usize) -> S::F {
        self.inputs[k]
    }
}

/// What a pixel stage produces for a stamp.
#[derive(Clone, Copy, Debug)]
pub struct PixelOut<S: Simd> {
    /// Colour per render target (r, g, b, a).
    pub color: [[S::F; 4]; 4],
    /// Bit i: the stage wrote oCi (unwritten targets keep their contents).
    pub written: u32,
    /// Lanes the stage discarded (`texkill`, clip); they write nothing.
    pub kill: S::M,
    /// `oDepth`, if the stage writes it: replaces the interpolated depth
    /// (clamped to [0, 1], no depth bias; bytecode.md 10).
    pub depth: Option<S::F>,
}

impl<S: Simd> PixelOut<S> {
    /// Zero colours, nothing written, nothing killed.
    #[inline(always)]
    pub fn new(s: S) -> PixelOut<S> {
        let z = s.splat(0.0);
        PixelOut {
            color: [[z; 4]; 4],
            written: 0,
            kill: s.mask_from_bits(0),
            depth: None,
        }
    }
}

/// Scalar output of a pixel stage for one pixel (Reference driver).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PixelOutScalar {
    /// Colour per render target.
    pub color: [[f32; 4]; 4],
    /// Bit i: oCi written.
    pub written: u32,
    /// The pixel was discarded.
    pub kill: bool,
    /// `oDepth`, if written (as [`PixelOut::depth`]).
    pub depth: Option<f32>,
}

/// One 4x2 stamp as the Reference driver hands it to a pixel stage: the
/// same lanes as [`Stamp`], scalar values.
#[derive(Clone, Copy, Debug)]
pub struct ScalarStamp<'a> {
    /// Pixel x of lane 0 (a multiple of 4).
    pub x: i32,
    /// Pixel y of lane 0 (even).
    pub y: i32,
    /// Bit i: lane i is inside the primitive (the others are helpers).
    pub coverage: u32,
    /// Clockwise (front) primitive; lines and points are front.
    pub front: bool,
    /// Input k of lane i at `inputs[i * stride + k]`, perspective-corrected,
    /// helper lanes included.
    pub inputs: &'a [f32],
    /// Floats per lane in `inputs` (at least [`PixelStage::inputs`]' length).
    pub stride: usize,
}

/// A pixel stage: fixed-function texture stages or a pixel shader.
///
/// Implementations compute the same values in [`PixelStage::shade`] (Warp,
/// 8 lanes) and [`PixelStage::shade_scalar`] (Reference, one pixel), so the
/// drivers' images agree.
pub trait PixelStage: Sync {
    /// Vertex attribute indices (slots of `geom`: diffuse 0..4, specular
    /// 4..8, texture set n at 8 + 4n) the stage reads, in plane order.
    fn inputs(&self) -> &[usize];
    /// Attribute indices that flat shading replaces by the provoking
    /// vertex's value (colour inputs).
    fn flat_inputs(&self) -> u64;
    /// Working state one worker keeps from stamp to stamp of a draw (the
    /// shader interpreter's register file, say), so that a stamp does not
    /// set it up again.
    type Scratch<'a, S: Simd>
    where
        Self: 'a;
    /// A fresh scratch, made once per band of a draw.
    fn scratch<'a, S: Simd>(&'a self, s: S) -> Self::Scratch<'a, S>;
    /// Shades the 8 lanes of `stamp` into `out` (reused from stamp to stamp:
    /// set `written`, `kill` and the colours of the targets written).
    /// Results may not depend on what earlier stamps left in `scratch`.
    fn shade<'a, S: Simd>(
        &'a self,
        s: S,
        stamp: &Stamp<'_, S>,
        attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        scratch: &mut Self::Scratch<'a, S>,
    );
    /// The stage's [`PixelStage::shade`] is small enough to be inlined into
    /// the Warp rasterizer's loop over a fully covered 8x8 block; the
    /// rasterizer then shades and merges such blocks in one loop (when the
    /// stage reads at most 12 inputs).
    const INLINE_BLOCKS: bool = false;
    /// Every colour [`PixelStage::shade`] writes is in [0, 1] and not NaN
    /// (a saturating stage), so the merger need not clamp it again.
    const SATURATES: bool = false;
    /// The stage may deliver RT0 already quantised to 8 bits
    /// ([`PixelStage::shade_packed`]); the rasterizer asks only when true.
    const PACKS: bool = false;
    /// [`PixelStage::shade`] for a merger that stores RT0 as A8R8G8B8 or
    /// X8R8G8B8 words without blending, alpha test, fog or write mask:
    /// Some(words) holding RT0's colour quantised as that merger quantises
    /// `shade`'s (each channel clamped to [0, 1], times 255, plus 0.5,
    /// truncated; B in the low byte, then G, R, A), with no kill and no
    /// `oDepth`; or None with `out` as `shade` leaves it. Quantising in
    /// the stage lets it skip the float colour where it has the bytes in
    /// integers. The default shades and returns None.
    #[inline(always)]
    fn shade_packed<'a, S: Simd>(
        &'a self,
        s: S,
        stamp: &Stamp<'_, S>,
        attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        scratch: &mut Self::Scratch<'a, S>,
    ) -> Option<S::I> {
        self.shade(s, stamp, attrs, out, scratch);
        None
    }
    /// Stamps the Warp rasterizer hands to [`PixelStage::shade_batch`] at
    /// once (all of one primitive); 1: it calls [`PixelStage::shade`] per
    /// stamp. At most [`BATCH`].
    const BATCH: usize = 1;
    /// Shades `stamps` into `outs` (one each), as many calls of
    /// [`PixelStage::shade`] would.
    #[inline(always)]
    fn shade_batch<'a, S: Simd>(
        &'a self,
        s: S,
        stamps: &[Stamp<'_, S>],
        attrs: &AttrPlanes<'_>,
        outs: &mut [PixelOut<S>],
        scratch: &mut Self::Scratch<'a, S>,
    ) {
        for (st, out) in stamps.iter().zip(outs.iter_mut()) {
            self.shade(s, st, attrs, out, scratch);
        }
    }
    /// Each lane's outputs depend only on that lane's inputs, its pixel
    /// and facing: [`PixelStage::shade`] reads no derivatives (no implicit
    /// texture LOD) and not the [`AttrPlanes`]. The Warp rasterizer may then
    /// shade lanes of different primitives in one stamp (single-pixel
    /// points, `raster::points`).
    fn lanes_independent(&self) -> bool {
        false
    }
    /// Shades one pixel; `attr(k)` is input k at the pixel.
    fn shade_scalar(&self, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar;
    /// Shades the 8 lanes of a stamp one value at a time (Reference
    /// driver). Stages that need the quad (derivatives, texture LOD)
    /// override this; the default shades each covered lane alone.
    fn shade_stamp_scalar(&self, stamp: &ScalarStamp<'_>) -> [PixelOutScalar; 8] {
        let n = stamp.stride;
        std::array::from_fn(|l| {
            if stamp.coverage & (1 << l) == 0 {
                return PixelOutScalar::default();
            }
            let v = &stamp.inputs[l * n..(l + 1) * n];
            self.shade_scalar(&|k| v[k])
        })
    }
}

/// The pixel stage of pre-lit, untextured drawing: the interpolated diffuse
/// colour, plus the specular colour when `D3DRS_SPECULARENABLE` is set
/// (RGB only, clamped to 1; fixed-function.md 11.6). Writes RT0.
#[derive(Clone, Debug)]
pub struct ColorStage {
    inputs: Vec<usize>,
    specular: bool,
}

impl ColorStage {
    /// The stage; `specular` adds the specular colour.
    pub fn new(specular: bool) -> ColorStage {
        let mut inputs = vec![0, 1, 2, 3];
        if specular {
            inputs.extend([4, 5, 6]);
        }
        ColorStage { inputs, specular }
    }
}

impl PixelStage for ColorStage {
    fn inputs(&self) -> &[usize] {
        &self.inputs
    }

    fn flat_inputs(&self) -> u64 {
        0x7F
    }

    type Scratch<'a, S: Simd> = ();

    fn scratch<S: Simd>(&self, _s: S) {}

    const INLINE_BLOCKS: bool = true;

    /// Each lane's colour is its own inputs, clamped.
    fn lanes_independent(&self) -> bool {
        true
    }

    /// Each channel is clamped (NaN to 0) above.
    const SATURATES: bool = true;

    #[inline(always)]
    fn shade<S: Simd>(
        &self,
        s: S,
        stamp: &Stamp<'_, S>,
        _attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        _scratch: &mut (),
    ) {
        // No closures or array maps here: they would be compiled outside the
        // AVX2 trampoline (see the simd module docs).
        let zero = s.splat(0.0);
        let one = s.splat(1.0);
        let c = &mut out.color[0];
        // One bounds check for the inputs (the loops then unroll without any).
        let inp = &stamp.inputs[..if self.specular { 7 } else { 4 }];
        for k in 0..4 {
            c[k] = inp[k].max(zero).min(one);
        }
        if self.specular {
            for k in 0..3 {
                c[k] = (c[k] + inp[4 + k].max(zero).min(one)).min(one);
            }
        }
        out.written = 1;
        out.kill = s.mask_from_bits(0);
    }

    fn shade_scalar(&self, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar {
        let sat = |v: f32| fmin(fmax(v, 0.0), 1.0);
        let mut c = [0, 1, 2, 3].map(|k| sat(attr(k)));
        if self.specular {
            for (k, ch) in c.iter_mut().take(3).enumerate() {
                *ch = fmin(*ch + sat(attr(4 + k)), 1.0);
            }
        }
        PixelOutScalar {
            color: [c, [0.0; 4], [0.0; 4], [0.0; 4]],
            written: 1,
            kill: false,
            depth: None,
        }
    }
}
