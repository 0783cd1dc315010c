//! The fixed-function pixel stage's one-texture form ([`TexStage`]): a
//! cascade of a single stage that samples a 2D or volume texture, with no
//! bump mapping, projection or TEMP. That is most fixed-function drawing
//! (a texture alone, or modulated by the lit colour, plus specular).
//!
//! Job: the Warp path of such a draw without the general cascade's
//! per-stamp work. The stage reads exactly the interpolated planes its
//! operations use (its own, shorter input list) straight from the stamp,
//! and it is small enough for the rasterizer to inline into its loop over
//! fully covered blocks ([`PixelStage::INLINE_BLOCKS`]); the sampler itself
//! runs out of line.
//!
//! Invariants: every value is the one the general cascade
//! (`FfpPixelProgram::shade8`) computes, by the same functions
//! (`stage_result`, `specular_add`) on the same inputs; the Reference
//! driver runs the literal cascade of the wrapped [`FfpPixelStage`].

// Index loops keep closures out of the SIMD path (see the simd module docs).
#![allow(clippy::needless_range_loop)]

use super::pixel_stages::{FfpPixelStage, single};
use crate::driver::pack::pack_saturated;
use crate::ffp::PixelInput;
use crate::ffp::StageTexture;
use crate::ffp::math::k4;
use crate::ffp::real::V;
use crate::ffp::stages::{ArgSources, StageKey, reads, specular_add, stage_result};
use crate::pixel::{AttrPlanes, PixelOut, PixelOutScalar, PixelStage, ScalarStamp, Stamp};
use crate::sampler::BoundTextures;
use crate::simd::{FloatV, Outlined, Simd};
use crate::state::{TextureArg, TextureOp};
use crate::texture_fetch::{Lod, TextureFetch};

/// Where one input component comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Src {
    /// Plane `k` of the stage's inputs, saturated when `sat` (colours).
    Plane { k: usize, sat: bool },
    /// A constant (a component no vertex output feeds, or one the stage never reads).
    Const(f32),
}

/// A channel group's result in closed form: what `stage_result` computes
/// for the commonest operations with plain TEXTURE, DIFFUSE or CURRENT
/// arguments (CURRENT is DIFFUSE in the first stage).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    /// `sat(texture)`.
    Texture,
    /// `sat(diffuse)`.
    Diffuse,
    /// `sat(texture * diffuse)` (MODULATE; the product is commutative).
    Modulate,
}

impl Form {
    /// The closed form of `op` on `args`, if it has one. `alpha`: the alpha
    /// operation (whose DISABLE keeps CURRENT's alpha, and whose arguments
    /// ignore ALPHAREPLICATE).
    fn of(op: TextureOp, args: [u32; 3], alpha: bool) -> Option<Form> {
        let strip = if alpha {
            !TextureArg::ALPHAREPLICATE
        } else {
            !0
        };
        let plain = |a: u32| match a & strip {
            a if a == TextureArg::TEXTURE.0 => Some(Form::Texture),
            a if a == TextureArg::DIFFUSE.0 || a == TextureArg::CURRENT.0 => Some(Form::Diffuse),
            _ => None,
        };
        match op {
            TextureOp::Disable if alpha => Some(Form::Diffuse),
            TextureOp::SelectArg1 => plain(args[1]),
            TextureOp::SelectArg2 => plain(args[2]),
            TextureOp::Modulate => match (plain(args[1])?, plain(args[2])?) {
                (Form::Texture, Form::Diffuse) | (Form::Diffuse, Form::Texture) => {
                    Some(Form::Modulate)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The value for texture channel `t` and diffuse channel `d`.
    #[inline(always)]
    fn eval<S: Simd>(self, s: S, t: S::F, d: S::F) -> S::F {
        let v = match self {
            Form::Texture => t,
            Form::Diffuse => d,
            Form::Modulate => t * d,
        };
        v.max(s.splat(0.0)).min(s.splat(1.0))
    }
}

/// The one-texture fixed-function stage (see the module docs).
pub(crate) struct TexStage {
    /// The general stage: its textures, constants and the Reference path.
    ffp: FfpPixelStage,
    /// The single stage.
    key: StageKey,
    /// Its colour and alpha results in closed form, when both have one.
    forms: Option<(Form, Form)>,
    specular_add: bool,
    /// The colour is the texture alone (SELECTARG of TEXTURE in both
    /// groups, no specular add), so the stage may deliver it packed
    /// ([`PixelStage::shade_packed`]).
    packs: bool,
    /// Vertex attribute of each input plane, in plane order.
    inputs: Vec<usize>,
    flat: u64,
    diffuse: [Src; 4],
    specular: [Src; 4],
    coord: [Src; 3],
}

/// Input register slots of the fixed-function stage's map.
const DIFFUSE: u16 = 0;
const SPECULAR: u16 = 1;
const COORD0: u16 = 2;

impl TexStage {
    /// The one-texture form of `ffp`, when its cascade has that shape.
    pub(crate) fn new(ffp: FfpPixelStage) -> Result<TexStage, Box<FfpPixelStage>> {
        let key = ffp.program.key();
        let [k] = key.stages.as_slice() else {
            return Err(Box::new(ffp));
        };
        let simple = k.texture == StageTexture::Flat
            && k.divisor.is_none()
            && !k.to_temp
            && !matches!(
                k.color_op,
                TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance
            )
            && ffp.program.coordinate_stages() == 1;
        if !simple {
            return Err(Box::new(ffp));
        }
        let (k, specular_add) = (*k, key.specular_add);
        let selects = |args: [u32; 3], op: TextureOp, sel: TextureArg| {
            reads(op)
                .iter()
                .zip(args)
                .any(|(&r, a)| r && a & TextureArg::SELECT_MASK == sel.0)
        };
        let uses = |sel: TextureArg| {
            selects(k.color_args, k.color_op, sel)
                || (k.alpha_op != TextureOp::Disable && selects(k.alpha_args, k.alpha_op, sel))
        };
        let blends = |op: TextureOp| k.color_op == op || k.alpha_op == op;
        let want_diffuse = uses(TextureArg::DIFFUSE)
            || uses(TextureArg::CURRENT)
            || blends(TextureOp::BlendDiffuseAlpha)
            || blends(TextureOp::BlendCurrentAlpha)
            || k.alpha_op == TextureOp::Disable;
        let want_specular = if uses(TextureArg::SPECULAR) {
            4
        } else if specular_add {
            3
        } else {
            0
        };
        let forms = if k.color_op == TextureOp::DotProduct3 {
            None
        } else {
            Form::of(k.color_op, k.color_args, false).zip(Form::of(k.alpha_op, k.alpha_args, true))
        };
        let packs = forms == Some((Form::Texture, Form::Texture)) && !specular_add;
        let mut stage = TexStage {
            ffp,
            key: k,
            forms,
            specular_add,
            packs,
            inputs: Vec::new(),
            flat: 0,
            diffuse: [Src::Const(0.0); 4],
            specular: [Src::Const(0.0); 4],
            coord: [Src::Const(0.0); 3],
        };
        for c in 0..4u8 {
            if want_diffuse {
                stage.diffuse[c as usize] = stage.source(DIFFUSE, c);
            }
            if c < want_specular {
                stage.specular[c as usize] = stage.source(SPECULAR, c);
            }
            if c < 3 {
                stage.coord[c as usize] = stage.source(COORD0, c);
            }
        }
        Ok(stage)
    }

    /// Where register `slot`'s component `c` comes from, adding its plane
    /// to the input list (the values `InputMap::write_regs` writes there).
    fn source(&mut self, slot: u16, c: u8) -> Src {
        let map = &self.ffp.map;
        if let Some(j) = map.dst.iter().position(|&d| d == (slot, c)) {
            let k = self.inputs.len();
            self.inputs.push(map.list[j]);
            if map.flat & (1 << j) != 0 {
                self.flat |= 1 << k;
            }
            return Src::Plane {
                k,
                sat: map.sat & (1 << j) != 0,
            };
        }
        // The last constant written to the component wins, as in `write_regs`.
        let v = map
            .consts
            .iter()
            .rev()
            .find(|&&(sl, cc, _)| (sl, cc) == (slot, c))
            .map_or(0.0, |&(_, _, v)| v);
        Src::Const(v)
    }
}

impl TexStage {
    /// The texture coordinate of a stamp with `inputs`.
    #[inline(always)]
    fn coords<S: Simd>(&self, s: S, inputs: &[S::F]) -> [S::F; 3] {
        // Plain loops and no closures over vectors (see the simd module docs).
        let mut c = [s.splat(0.0); 3];
        for i in 0..3 {
            c[i] = read(s, inputs, self.coord[i]).0;
        }
        c
    }
}

/// A stamp's coordinate `c` with its derivatives along x and y.
#[allow(clippy::type_complexity)]
#[inline(always)]
fn derivatives<F: FloatV>(c: [F; 3]) -> ([F; 3], [F; 3], [F; 3]) {
    let ddx = [c[0].ddx(), c[1].ddx(), c[2].ddx()];
    let ddy = [c[0].ddy(), c[1].ddy(), c[2].ddy()];
    (c, ddx, ddy)
}

/// Component `src` of a stamp.
#[inline(always)]
fn read<S: Simd>(s: S, inputs: &[S::F], src: Src) -> V<S> {
    V(
        match src {
            Src::Plane { k, sat } => {
                let v = inputs[k];
                if sat {
                    v.max(s.splat(0.0)).min(s.splat(1.0))
                } else {
                    v
                }
            }
            Src::Const(v) => s.splat(v),
        },
        s,
    )
}

/// The stage's texture fetch (implicit LOD from the quads' derivatives),
/// run out of line so that the stage itself stays small enough to inline
/// into the rasterizer's block loop (see [`Simd::outline`]): the sampler's
/// shortcut where it applies, else the general path.
struct Fetch<'a, S: Simd> {
    textures: &'a BoundTextures,
    coord: [S::F; 3],
    ddx: [S::F; 3],
    ddy: [S::F; 3],
    active: S::M,
}

impl<S: Simd> Outlined<S> for Fetch<'_, S> {
    type Output = [S::F; 4];
    #[inline(always)]
    fn run(self, s: S) -> [S::F; 4] {
        let (c, ddx, ddy) = (self.coord, self.ddx, self.ddy);
        match self.textures.sample_quick(s, 0, c, ddx, ddy, self.active) {
            Some(t) => t,
            // Out of line again: inlined, the general sampler's register
            // pressure and stack frame (kilobytes) would weigh on the
            // shortcut's code too.
            None => s.outline(GeneralFetch(self)),
        }
    }
}

/// [`Fetch`] quantised for an 8-bit target ([`PixelStage::shade_packed`]
/// of a stage whose colour is the texture alone): the sampler's integer
/// shortcut where it applies, else [`Fetch`]'s colour saturated (as
/// `Form::Texture`) and packed as the fast merger packs it.
/// The derivatives are taken inside: three vectors cross the call
/// instead of nine.
struct PackedFetch<'a, S: Simd> {
    textures: &'a BoundTextures,
    coord: [S::F; 3],
    active: S::M,
}

impl<S: Simd> Outlined<S> for PackedFetch<'_, S> {
    type Output = S::I;
    #[inline(always)]
    fn run(self, s: S) -> S::I {
        let (coord, ddx, ddy) = derivatives(self.coord);
        let active = self.active;
        if let Some(w) = self
            .textures
            .sample_quick_packed(s, 0, coord, ddx, ddy, active)
        {
            return w;
        }
        let t = s.outline(Fetch {
            textures: self.textures,
            coord,
            ddx,
            ddy,
            active,
        });
        let mut c = [s.splat(0.0); 4];
        for i in 0..4 {
            c[i] = Form::Texture.eval(s, t[i], t[i]);
        }
        pack_saturated(s, &c)
    }
}

/// [`Fetch`] through the general sampler, for requests the shortcut refuses.
struct GeneralFetch<'a, S: Simd>(Fetch<'a, S>);

impl<S: Simd> Outlined<S> for GeneralFetch<'_, S> {
    type Output = [S::F; 4];
    #[inline(always)]
    fn run(self, s: S) -> [S::F; 4] {
        let Fetch {
            textures,
            coord: c,
            ddx,
            ddy,
            active,
        } = self.0;
        textures.sample(
            s,
            0,
            [c[0], c[1], c[2], s.splat(0.0)],
            Lod::Implicit { ddx, ddy },
            active,
        )
    }
}

/// [`TexStage::shade`] for operations outside its closed forms: the single
/// stage's general cascade, run by [`Simd::outline`].
struct GeneralStage<'a, 'b, S: Simd> {
    stage: &'a TexStage,
    inputs: &'a [S::F],
    texture: [S::F; 4],
    out: &'b mut PixelOut<S>,
}

impl<S: Simd> Outlined<S> for GeneralStage<'_, '_, S> {
    type Output = ();
    #[inline(always)]
    fn run(self, s: S) {
        let GeneralStage {
            stage,
            inputs: inp,
            texture,
            out,
        } = self;
        let zero = V(s.splat(0.0), s);
        let mut diffuse = [zero; 4];
        let mut specular = [zero; 4];
        for c in 0..4 {
            diffuse[c] = read(s, inp, stage.diffuse[c]);
            specular[c] = read(s, inp, stage.specular[c]);
        }
        let c = &stage.ffp.consts;
        let src = ArgSources {
            diffuse,
            current: diffuse,
            texture: [
                V(texture[0], s),
                V(texture[1], s),
                V(texture[2], s),
                V(texture[3], s),
            ],
            tfactor: k4(zero, c.tfactor),
            specular,
            temp: [zero; 4],
            constant: k4(zero, c.constant[0]),
        };
        let k = &stage.key;
        let mut r = stage_result(k.color_op, k.color_args, k.alpha_op, k.alpha_args, &src);
        if stage.specular_add {
            r = specular_add(r, specular);
        }
        out.color[0] = [r[0].0, r[1].0, r[2].0, r[3].0];
        out.written = 1;
        out.kill = s.mask_from_bits(0);
        out.depth = None;
    }
}

impl PixelStage for TexStage {
    fn inputs(&self) -> &[usize] {
        &self.inputs
    }

    fn flat_inputs(&self) -> u64 {
        self.flat
    }

    type Scratch<'a, S: Simd> = ();

    fn scratch<S: Simd>(&self, _s: S) {}

    const INLINE_BLOCKS: bool = true;

    /// `stage_result` saturates every channel (NaN to 0), and so does the specular add.
    const SATURATES: bool = true;

    const PACKS: bool = true;

    #[inline(always)]
    fn shade_packed<S: Simd>(
        &self,
        s: S,
        stamp: &Stamp<'_, S>,
        attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        scratch: &mut (),
    ) -> Option<S::I> {
        if !self.packs {
            self.shade(s, stamp, attrs, out, scratch);
            return None;
        }
        Some(s.outline(PackedFetch {
            textures: self.ffp.textures.as_ref(),
            coord: self.coords(s, stamp.inputs),
            active: stamp.coverage,
        }))
    }

    #[inline(always)]
    fn shade<S: Simd>(
        &self,
        s: S,
        stamp: &Stamp<'_, S>,
        _attrs: &AttrPlanes<'_>,
        out: &mut PixelOut<S>,
        _scratch: &mut (),
    ) {
        let inp = stamp.inputs;
        let zero = V(s.splat(0.0), s);
        let (coord, ddx, ddy) = derivatives(self.coords(s, inp));
        let texture = s.outline(Fetch {
            textures: self.ffp.textures.as_ref(),
            coord,
            ddx,
            ddy,
            active: stamp.coverage,
        });
        if let Some((rgb, alpha)) = self.forms {
            // Inputs are read only where the forms use them.
            let c = &mut out.color[0];
            for i in 0..4 {
                let form = if i < 3 { rgb } else { alpha };
                let d = match form {
                    Form::Texture => zero.0,
                    _ => read(s, inp, self.diffuse[i]).0,
                };
                c[i] = form.eval(s, texture[i], d);
            }
            if self.specular_add {
                // `specular_add`: RGB plus specular, saturated; alpha kept.
                for i in 0..3 {
                    let sp = read(s, inp, self.specular[i]).0;
                    c[i] = (c[i] + sp).max(zero.0).min(s.splat(1.0));
                }
            }
            out.written = 1;
            out.kill = s.mask_from_bits(0);
            out.depth = None;
            return;
        }
        // Any other operation: the stage's general form, one copy per
        // backend (it interprets every D3DTOP and argument, and inlined at
        // each of the rasterizer's stamp sites it multiplied the crate's
        // code generation for a case the closed forms above leave rare).
        s.outline(GeneralStage {
            stage: self,
            inputs: inp,
            texture,
            out,
        });
    }

    fn shade_scalar(&self, attr: &dyn Fn(usize) -> f32) -> PixelOutScalar {
        single(self, attr)
    }

    /// The literal cascade on this stage's inputs. (Draws on the Reference
    /// driver use the general [`FfpPixelStage`] instead; see `hand_off::pixel_stage`.)
    fn shade_stamp_scalar(&self, stamp: &ScalarStamp<'_>) -> [PixelOutScalar; 8] {
        let get = |l: usize, src: Src| match src {
            Src::Plane { k, sat } => {
                let v = stamp.inputs[l * stamp.stride + k];
                if sat {
                    crate::simd::fmin(crate::simd::fmax(v, 0.0), 1.0)
                } else {
                    v
                }
            }
            Src::Const(v) => v,
        };
        let inp: [PixelInput<f32>; 8] = std::array::from_fn(|l| {
            let mut texcoord = [[0.0; 4]; 8];
            for c in 0..3 {
                texcoord[0][c] = get(l, self.coord[c]);
            }
            PixelInput {
                diffuse: self.diffuse.map(|src| get(l, src)),
                specular: self.specular.map(|src| get(l, src)),
                texcoord,
            }
        });
        self.ffp.reference_outputs(&inp, stamp.coverage)
    }
}
