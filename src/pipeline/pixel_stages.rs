//! The pixel stages of real draws, behind the rasterizers' [`PixelStage`]
//! interface: the fixed-function texture-stage cascade ([`FfpPixelStage`],
//! `ffp::stages`) and pixel shaders ([`ShaderPixelStage`], `shader::exec`),
//! both sampling through one [`BoundTextures`] built per draw.
//!
//! Inputs: the rasterizer interpolates the vertex-buffer attributes of
//! [`InputMap::list`] (plane k) and hands them over per stamp; plane k
//! feeds input register `dst[k]` (ps_2_x numbering: slot 0 `v0` / diffuse,
//! slot 1 `v1` / specular, slot 2 + n `t#n` / stage n's coordinate; ps_3_0
//! `v#`). Components no vertex output feeds hold the constants of
//! bytecode.md 8 / 10 (`InputMap::consts`).
//!
//! Invariants: `shade` (Warp, 8 lanes) and `shade_stamp_scalar`
//! (Reference) compute the same values — the same 4x2 stamps, helper lanes
//! evaluated and run (derivatives, LOD), the ffp cascade and the shader
//! interpreters in their 8-lane and scalar forms, which agree bit for bit.

// Index loops keep the 8-lane and scalar forms visibly parallel and keep
// closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use crate::ffp::{
    FfpPixelConsts, FfpPixelProgram, FfpState, PixelInput, StageTexture, reference_shade8,
};
use crate::pixel::{AttrPlanes, BATCH, PixelOut, PixelOutScalar, PixelStage, ScalarStamp, Stamp};
use crate::sampler::BoundTextures;
use crate::shader::exec::{
    Constants, Executor, Link, LinkSource, Prepared, ScalarPixelInputs, scalar,
};
use crate::simd::{FloatV, MaskV, Outlined, Simd};

/// How the interpolated planes of a draw feed a pixel stage's input registers.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputMap {
    /// Vertex-buffer attribute index of each plane.
    pub(crate) list: Vec<usize>,
    /// Input register (slot, component) of each plane.
    pub(crate) dst: Vec<(u16, u8)>,
    /// Bit k: plane k is a colour (flat shading takes the provoking vertex's value).
    pub(crate) flat: u64,
    /// Bit k: plane k is saturated per pixel (fixed-function and ps_2_x colours, rasterization.md 9.2).
    pub(crate) sat: u64,
    /// Components no vertex output feeds: (slot, component, value).
    pub(crate) consts: Vec<(u16, u8, f32)>,
}

impl InputMap {
    /// The input slots [`InputMap::write_regs`] writes (bit per slot).
    pub(crate) fn written_slots(&self) -> u16 {
        let consts = self.consts.iter().map(|&(slot, _, _)| slot);
        let planes = self.dst.iter().map(|&(slot, _)| slot);
        consts
            .chain(planes)
            .filter(|&slot| slot < 16)
            .fold(0, |acc, slot| acc | 1 << slot)
    }

    /// The map of `links`; `attr(slot, comp)` is where the vertex stage
    /// stored that output component (None: not stored, reads 0).
    pub(crate) fn new(
        links: &[Link],
        attr: impl Fn(u16, u8) -> Option<usize>,
        sat_colors: bool,
    ) -> InputMap {
        let mut m = InputMap::default();
        for l in links {
            if l.input >= 16 {
                continue;
            }
            match l.source {
                LinkSource::Output { slot, comp } => match attr(slot, comp) {
                    Some(a) if m.list.len() < 64 => {
                        let k = m.list.len();
                        m.list.push(a);
                        m.dst.push((l.input, l.comp));
                        if l.color {
                            m.flat |= 1 << k;
                            if sat_colors {
                                m.sat |= 1 << k;
                            }
                        }
                    }
                    _ => m.consts.push((l.input, l.comp, 0.0)),
                },
                LinkSource::Constant(v) => m.consts.push((l.input, l.comp, v)),
            }
        }
        m
    }

    /// Writes the 8-lane input registers of a stamp into `r`: the constant
    /// components, then each plane's component (saturated where asked);
    /// the other components are left as they are, so a register file that
    /// starts at zero and gets every stamp of a draw reads as if zeroed
    /// per stamp.
    #[inline(always)]
    fn write_regs<S: Simd, R: InputRegs<S::F> + ?Sized>(
        &self,
        s: S,
        stamp: &Stamp<'_, S>,
        r: &mut R,
    ) {
        let zero = s.splat(0.0);
        let one = s.splat(1.0);
        for &(slot, c, v) in &self.consts {
            if let Some(reg) = r.reg(slot as usize) {
                reg[c as usize & 3] = s.splat(v);
            }
        }
        for k in 0..self.dst.len() {
            let (slot, c) = self.dst[k];
            if let Some(reg) = r.reg(slot as usize) {
                let v = stamp.attr(k);
                reg[c as usize & 3] = if self.sat & (1 << k) != 0 {
                    v.max(zero).min(one)
                } else {
                    v
                };
            }
        }
    }

    /// The input registers of lane `l` of a scalar stamp (same values as [`InputMap::write_regs`] on zeroed registers).
    fn regs_scalar<const N: usize>(&self, stamp: &ScalarStamp<'_>, l: usize) -> [[f32; 4]; N] {
        let (n, stride) = (self.list.len(), stamp.stride);
        let mut r = [[0.0f32; 4]; N];
        for &(slot, c, v) in &self.consts {
            if (slot as usize) < N {
                r[slot as usize][c as usize & 3] = v;
            }
        }
        for k in 0..n {
            let (slot, c) = self.dst[k];
            if (slot as usize) < N {
                let v = stamp.inputs[l * stride + k];
                r[slot as usize][c as usize & 3] = if self.sat & (1 << k) != 0 {
                    crate::simd::fmin(crate::simd::fmax(v, 0.0), 1.0)
                } else {
                    v
                };
            }
        }
        r
    }
}

/// Input registers a stage keeps from stamp to stamp, by slot.
trait InputRegs<F> {
    /// Register `slot`, if the stage has it.
    fn reg(&mut self, slot: usize) -> Option<&mut [F; 4]>;
}

impl<F> InputRegs<F> for [[F; 4]] {
    #[inline(always)]
    fn reg(&mut self, slot: usize) -> Option<&mut [F; 4]> {
        self.get_mut(slot)
    }
}

/// The fixed-function stage's inputs: diffuse, specular, then texture
/// coordinates 0–7 (the slots of [`FfpPixelStage`]'s map).
impl<F> InputRegs<F> for PixelInput<F> {
    #[inline(always)]
    fn reg(&mut self, slot: usize) -> Option<&mut [F; 4]> {
        match slot {
            0 => Some(&mut self.diffuse),
            1 => Some(&mut self.specular),
            t => self.texcoord.get_mut(t.wrapping_sub(2)),
        }
    }
}

/// A one-lane stamp for the single-pixel entry point of [`PixelStage`].
pub(super) fn single<P: PixelStage>(stage: &P, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar {
    let n = stage.inputs().len();
    let mut inputs = vec![0.0; 8 * n];
    for (k, v) in inputs.iter_mut().take(n).enumerate() {
        *v = attr(k);
    }
    stage.shade_stamp_scalar(&ScalarStamp {
        x: 0,
        y: 0,
        coverage: 1,
        front: true,
        inputs: &inputs,
        stride: n,
    })[0]
}

/// The fixed-function pixel stage: texture-stage cascade and specular add
/// (fixed-function.md 11); writes RT0.
pub(crate) struct FfpPixelStage {
    pub(crate) map: InputMap,
    pub(crate) program: Arc<FfpPixelProgram>,
    pub(crate) consts: FfpPixelConsts,
    pub(crate) textures: Arc<BoundTextures>,
    /// The Reference cascade reads the raw states.
    pub(crate) state: Arc<FfpState>,
    pub(crate) stage_textures: [StageTexture; 8],
    pub(crate) divisors: [Option<u8>; 8],
}

impl PixelStage for FfpPixelStage {
    fn inputs(&self) -> &[usize] {
        &self.map.list
    }

    fn flat_inputs(&self) -> u64 {
        self.map.flat
    }

    /// The interpolated inputs, kept from stamp to stamp (no zero-fill
    /// and copy of ten registers per stamp).
    type Scratch<'a, S: Simd> = Box<PixelInput<S::F>>;

    #[inline(always)]
    fn scratch<S: Simd>(&self, s: S) -> Box<PixelInput<S::F>> {
        let z = [s.splat(0.0); 4];
        Box::new(PixelInput {
            diffuse: z,
            specular: z,
            texcoord: [z; 8],
        })
    }

    #[inline(always)]
    fn shade<S: Simd>(
        &self,
        s: S,
        stamp: &Stamp<'_, S>,
        _attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        inputs: &mut Box<PixelInput<S::F>>,
    ) {
        s.outline(FfpShade {
            stage: self,
            stamp,
            out,
            inputs,
        });
    }

    /// Without texture reads the cascade is per-lane arithmetic on the
    /// lane's own inputs and the stage constants.
    fn lanes_independent(&self) -> bool {
        !self.program.samples_textures()
    }

    fn shade_scalar(&self, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar {
        single(self, attr)
    }

    fn shade_stamp_scalar(&self, stamp: &ScalarStamp<'_>) -> [PixelOutScalar; 8] {
        let inp: [PixelInput<f32>; 8] = std::array::from_fn(|l| {
            let r: [[f32; 4]; 10] = self.map.regs_scalar(stamp, l);
            PixelInput {
                diffuse: r[0],
                specular: r[1],
                texcoord: std::array::from_fn(|t| r[2 + t]),
            }
        });
        self.reference_outputs(&inp, stamp.coverage)
    }
}

impl FfpPixelStage {
    /// The literal cascade (Reference) on the eight pixels' inputs `inp`
    /// (`coverage` bit i: pixel i is covered), as the stage's outputs.
    pub(crate) fn reference_outputs(
        &self,
        inp: &[PixelInput<f32>; 8],
        coverage: u32,
    ) -> [PixelOutScalar; 8] {
        let c = reference_shade8(
            &self.state,
            self.stage_textures,
            self.divisors,
            inp,
            self.textures.as_ref(),
            coverage as u8,
        );
        std::array::from_fn(|l| PixelOutScalar {
            color: [c[l], [0.0; 4], [0.0; 4], [0.0; 4]],
            written: 1,
            kill: false,
            depth: None,
        })
    }
}

/// Owned shader constants of a draw.
#[derive(Clone, Debug, Default)]
pub(crate) struct OwnedConstants {
    /// The device's registers, shared (see `DeviceState::vs_f`).
    pub(crate) float: Arc<Vec<[f32; 4]>>,
    pub(crate) int: Vec<[i32; 4]>,
    pub(crate) bool: Vec<bool>,
}

impl OwnedConstants {
    /// The interpreter's view.
    pub(crate) fn view(&self) -> Constants<'_> {
        Constants {
            float: &self.float,
            int: &self.int,
            bool: &self.bool,
        }
    }
}

/// A pixel shader (ps_2_0 / 2_x / 3_0): colours `oC0`–`oC3`, `oDepth`,
/// `texkill`, `vPos` and `vFace`.
pub(crate) struct ShaderPixelStage {
    pub(crate) map: InputMap,
    pub(crate) program: Arc<Prepared>,
    pub(crate) consts: OwnedConstants,
    pub(crate) textures: Arc<BoundTextures>,
    /// Bit i: the program writes oCi.
    pub(crate) written: u32,
}

/// Stamp lanes of quad q (0 or 1), in the interpreter's quad order.
const QUAD_LANES: [[usize; 4]; 2] = [[0, 1, 4, 5], [2, 3, 6, 7]];

impl PixelStage for ShaderPixelStage {
    fn inputs(&self) -> &[usize] {
        &self.map.list
    }

    fn flat_inputs(&self) -> u64 {
        self.map.flat
    }

    type Scratch<'a, S: Simd> = Executor<'a, S>;

    #[inline(always)]
    fn scratch<'a, S: Simd>(&'a self, s: S) -> Executor<'a, S> {
        Executor::with_written_inputs(
            &self.program,
            s,
            &self.consts.view(),
            self.textures.as_ref(),
            self.map.written_slots(),
        )
    }

    const BATCH: usize = crate::pixel::BATCH;

    #[inline(always)]
    fn shade_batch<'a, S: Simd>(
        &'a self,
        s: S,
        stamps: &[Stamp<'_, S>],
        _attrs: &AttrPlanes<'_>,
        outs: &mut [PixelOut<S>],
        exec: &mut Executor<'a, S>,
    ) {
        s.outline(ShaderBatchShade {
            stage: self,
            stamps,
            outs,
            exec,
        });
    }

    #[inline(always)]
    fn shade<'a, S: Simd>(
        &'a self,
        s: S,
        stamp: &Stamp<'_, S>,
        _attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        exec: &mut Executor<'a, S>,
    ) {
        s.outline(ShaderShade {
            stage: self,
            stamp,
            out,
            exec,
        });
    }

    fn shade_scalar(&self, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar {
        single(self, attr)
    }

    fn shade_stamp_scalar(&self, stamp: &ScalarStamp<'_>) -> [PixelOutScalar; 8] {
        let mut outs = [PixelOutScalar::default(); 8];
        let consts = self.consts.view();
        for lanes in QUAD_LANES {
            if lanes.iter().all(|&l| stamp.coverage & (1 << l) == 0) {
                continue;
            }
            let inputs: [ScalarPixelInputs; 4] = std::array::from_fn(|i| {
                let l = lanes[i];
                ScalarPixelInputs {
                    v: self.map.regs_scalar(stamp, l),
                    pos: [
                        (stamp.x + (l as i32 & 3)) as f32,
                        (stamp.y + (l as i32 >> 2)) as f32,
                    ],
                    face: if stamp.front { 1.0 } else { -1.0 },
                }
            });
            let o = scalar::run_quad(
                &self.program,
                &inputs,
                &consts,
                self.textures.as_ref(),
                [true; 4],
            );
            for (i, &l) in lanes.iter().enumerate() {
                outs[l] = PixelOutScalar {
                    color: o[i].color,
                    written: self.written,
                    kill: o[i].killed,
                    depth: o[i].depth,
                };
            }
        }
        outs
    }
}

/// [`FfpPixelStage::shade`]'s body, run out of line (see [`Simd::outline`]).
struct FfpShade<'a, 'b, S: Simd> {
    stage: &'a FfpPixelStage,
    stamp: &'a Stamp<'b, S>,
    out: &'a mut PixelOut<S>,
    inputs: &'a mut PixelInput<S::F>,
}

impl<S: Simd> Outlined<S> for FfpShade<'_, '_, S> {
    type Output = ();
    #[inline(always)]
    fn run(self, s: S) {
        self.stage.map.write_regs(s, self.stamp, self.inputs);
        self.out.color[0] = self.stage.program.shade8(
            s,
            &self.stage.consts,
            self.inputs,
            self.stage.textures.as_ref(),
            self.stamp.coverage,
        );
        self.out.written = 1;
        self.out.kill = s.mask_from_bits(0);
        self.out.depth = None;
    }
}

/// [`ShaderPixelStage::shade`]'s body, run out of line (see [`Simd::outline`]).
struct ShaderShade<'a, 'b, 'e, S: Simd> {
    stage: &'a ShaderPixelStage,
    stamp: &'a Stamp<'b, S>,
    out: &'a mut PixelOut<S>,
    exec: &'a mut Executor<'e, S>,
}

impl<S: Simd> Outlined<S> for ShaderShade<'_, '_, '_, S> {
    type Output = ();
    #[inline(always)]
    fn run(self, s: S) {
        self.stage
            .map
            .write_regs(s, self.stamp, self.exec.inputs_mut());
        let (pos, face, active) = stamp_lanes(s, self.stamp);
        let o = self.exec.run_pixel_in_place(pos, face, active);
        self.out.color = o.color;
        self.out.written = self.stage.written;
        self.out.kill = o.kill;
        self.out.depth = o.depth;
    }
}

/// [`ShaderPixelStage::shade_batch`]'s body, run out of line (see [`Simd::outline`]).
struct ShaderBatchShade<'a, 'b, 'e, S: Simd> {
    stage: &'a ShaderPixelStage,
    stamps: &'a [Stamp<'b, S>],
    outs: &'a mut [PixelOut<S>],
    exec: &'a mut Executor<'e, S>,
}

impl<S: Simd> Outlined<S> for ShaderBatchShade<'_, '_, '_, S> {
    type Output = ();
    #[inline(always)]
    fn run(self, s: S) {
        let n = self.stamps.len().min(BATCH);
        let z = s.splat(0.0);
        let mut pos = [[z; 2]; BATCH];
        let mut face = [z; BATCH];
        let mut active = [s.mask_from_bits(0); BATCH];
        for (k, st) in self.stamps.iter().take(n).enumerate() {
            self.stage
                .map
                .write_regs(s, st, self.exec.batch_inputs_mut(k));
            let (p, f, a) = stamp_lanes(s, st);
            pos[k] = p;
            face[k] = f;
            active[k] = a;
        }
        let written = self.stage.written;
        let outs = self.outs;
        self.exec
            .run_pixel_batch(n, &pos, &face, &active, |k, color, depth, kill| {
                if let Some(out) = outs.get_mut(k) {
                    out.color = *color;
                    out.written = written;
                    out.kill = kill;
                    out.depth = depth;
                }
            });
    }
}

/// `vPos`, `vFace` and the lanes to run (every lane of a quad with a
/// covered pixel: helpers make derivatives defined) of a stamp.
#[inline(always)]
fn stamp_lanes<S: Simd>(s: S, st: &Stamp<'_, S>) -> ([S::F; 2], S::F, S::M) {
    let pos = [
        s.splat(st.x as f32) + s.f32s([0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0]),
        s.splat(st.y as f32) + s.f32s([0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
    ];
    let face = s.splat(if st.front { 1.0 } else { -1.0 });
    let bits = st.coverage.bits();
    let active = if bits & 0x33 != 0 { 0x33 } else { 0 } | if bits & 0xCC != 0 { 0xCC } else { 0 };
    (pos, face, s.mask_from_bits(active))
}
