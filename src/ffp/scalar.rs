//! The scalar Reference of fixed-function vertex processing: one vertex at a
//! time, every decision read from the raw state as fixed-function.md states
//! it, with no key and no compiled program.
//!
//! Job: the oracle the 8-lane routine ([`super::vertex`]) is tested against.
//! It shares with the Warp path only the per-formula functions (lighting,
//! texgen, fog, point size, transform helpers, special functions) and the
//! per-draw matrix and light setup, so both compute identical bits; the
//! control (which mode applies, which inputs exist, which lights, colour
//! sources, texgen modes, blending rules) is written out here independently
//! of [`super::key`].

use super::fog::vertex_fog_factor;
use super::key::{DrawOptions, LightKind, TexKey, TexSource};
use super::light::{LightSums, Surface, assemble, half_power, half_power_int, lights};
use super::math::{Real, dot3, normalize3, rows, sat, upper3, xform3, xform4};
use super::output::VertexOutput;
use super::point::point_size;
use super::setup::{FfpVertexConsts, LightConsts, color_rgba, light_consts, normal_matrix};
use super::state::*;
use super::texgen::stage_coord;
use super::transform::*;
use crate::state::{
    FogMode, LightType, RenderStateType as R, StateValue, TextureStageStateType as T, TransformType,
};

/// The Reference vertex processor of one draw.
#[derive(Clone, Debug)]
pub struct ReferenceVertex {
    state: FfpState,
    layout: FfpInputLayout,
    opts: DrawOptions,
    /// World(i)·View for all 256 world matrices.
    wv: Vec<[[f32; 4]; 4]>,
    lights: Vec<LightConsts>,
    consts: FfpVertexConsts,
}

impl ReferenceVertex {
    /// Prepares the draw's matrices and eye-space lights.
    pub fn new(state: &FfpState, layout: &FfpInputLayout, opts: DrawOptions) -> ReferenceVertex {
        let view_g = state.transform(TransformType::View);
        let view = rows(&view_g);
        let wv = (0..=255u8)
            .map(|i| rows(&(view_g * state.transform(TransformType::World(i)))))
            .collect();
        let n = (opts.max_lights as usize).min(state.lights.len());
        let lights = state.lights[..n]
            .iter()
            .map(|l| light_consts(l, &view))
            .collect();
        // The numeric constants (fog, point, planes, texture matrices) come
        // from the shared setup; they do not depend on any decision.
        let key = super::key::FfpVertexKey {
            pretransformed: false,
            blend: super::key::BlendKey::Off,
            normal: false,
            normalize: false,
            lighting: None,
            colors: 0,
            tex: [None; 8],
            fog: super::fog::VertexFog::None,
            point: None,
            clip_planes: 0x3F,
        };
        let consts = FfpVertexConsts::new(state, &key);
        ReferenceVertex {
            state: state.clone(),
            layout: layout.clone(),
            opts,
            wv,
            lights,
            consts,
        }
    }

    fn has(&self, i: usize) -> bool {
        self.layout.has(i)
    }

    /// The coordinate recipe of stage `s` as §6.1/§7.1 read it.
    fn stage_recipe(&self, s: usize) -> TexKey {
        let tci = self.state.tss(s, T::TexCoordIndex);
        let (set, mut mode) = (tci & 0xFFFF, tci >> 16);
        let set = if set < 8 && mode <= 4 { set } else { tci & 7 };
        if mode > 4 || tci & 0xFFFF >= 8 {
            mode = 0;
        }
        let ttff = self.state.tss(s, T::TextureTransformFlags);
        let count = if ttff & !0x1FF == 0 && ttff & 0xFF <= 4 {
            ttff & 0xFF
        } else {
            0
        };
        let pass = match self.layout.tex_width[set as usize] {
            0 => TexSource::Missing,
            w => TexSource::PassThru {
                set: set as u8,
                width: w,
            },
        };
        if self.layout.pretransformed {
            return TexKey {
                source: pass,
                count: 0,
            };
        }
        let source = match mode {
            1 => TexSource::Normal,
            2 => TexSource::Position,
            3 => TexSource::Reflection,
            4 => TexSource::SphereMap,
            _ => pass,
        };
        TexKey {
            source,
            count: count as u8,
        }
    }

    /// Processes one vertex with input registers `inp` (`IN_*`; absent ones are ignored).
    pub fn process(&self, inp: &[[f32; 4]; IN_COUNT]) -> VertexOutput<f32> {
        let st = &self.state;
        let c = &self.consts;
        let mut out = VertexOutput::splat(0.0f32);
        for t in out.texcoord.iter_mut() {
            t[3] = 1.0;
        }
        let tex_in: [[f32; 4]; 8] = std::array::from_fn(|i| inp[IN_TEXCOORD0 + i]);
        let fog_on = st.rs_bool(R::FogEnable);
        let table = FogMode::from_raw(st.rs(R::FogTableMode)).unwrap_or(FogMode::None);
        let vmode = FogMode::from_raw(st.rs(R::FogVertexMode)).unwrap_or(FogMode::None);
        let color1_alpha = if self.has(IN_COLOR1) {
            sat(inp[IN_COLOR1][3])
        } else {
            0.0
        };
        let vertex_psize = self.opts.points && self.has(IN_PSIZE);
        let si = if vertex_psize {
            inp[IN_PSIZE][0]
        } else {
            st.rs_f32(R::PointSize)
        };

        if self.layout.pretransformed {
            out.position = pretransformed_position(inp[IN_POSITION0]);
            out.diffuse = if self.has(IN_COLOR0) {
                inp[IN_COLOR0].map(sat)
            } else {
                [1.0; 4]
            };
            out.specular = if self.has(IN_COLOR1) {
                inp[IN_COLOR1].map(sat)
            } else {
                [0.0; 4]
            };
            for s in 0..8 {
                if self.opts.tex_stages & (1 << s) != 0 {
                    out.texcoord[s] = stage_coord(
                        self.stage_recipe(s),
                        &tex_in,
                        [0.0; 3],
                        [0.0; 3],
                        &c.texture[s],
                    );
                }
            }
            out.fog = if fog_on && table == FogMode::None {
                out.specular[3]
            } else {
                1.0
            };
            out.point_size = point_size(si, None, c.point, c.point_scale);
            return out;
        }

        // Blending mode of §3/§4 with its missing-input rules.
        let vb = st.rs(R::VertexBlend);
        let p0 = inp[IN_POSITION0];
        let n0 = [inp[IN_NORMAL0][0], inp[IN_NORMAL0][1], inp[IN_NORMAL0][2]];
        let weights_mode = match vb {
            1..=3 if self.has(IN_BLENDWEIGHT) => Some(vb as u8 + 1),
            256 => Some(1),
            _ => None,
        };
        let tween_mode = vb == 255 && (self.has(IN_POSITION1) || self.has(IN_NORMAL1));
        let (pe, mut n) = if let Some(k) = weights_mode {
            let indexed = st.rs_bool(R::IndexedVertexBlendEnable) && self.has(IN_BLENDINDICES);
            let w = weights(inp[IN_BLENDWEIGHT], k);
            let bi = inp[IN_BLENDINDICES];
            let mut pe = [0.0f32; 4];
            let mut ne = [0.0f32; 3];
            for i in 0..k as usize {
                let m = if !indexed {
                    i
                } else if self.layout.blend_index_float {
                    if i == 0 { matrix_index(bi[0], true) } else { 0 }
                } else {
                    matrix_index(bi[i], false)
                };
                let tp = xform4(p0, &self.wv[m]);
                let tn = xform3(n0, &upper3(&self.wv[m]));
                for j in 0..4 {
                    pe[j] = if i == 0 {
                        w[i] * tp[j]
                    } else {
                        pe[j] + w[i] * tp[j]
                    };
                }
                for j in 0..3 {
                    ne[j] = if i == 0 {
                        w[i] * tn[j]
                    } else {
                        ne[j] + w[i] * tn[j]
                    };
                }
            }
            (pe, ne)
        } else {
            let t = st.rs_f32(R::TweenFactor);
            let p = if tween_mode && self.has(IN_POSITION1) {
                tween(p0, inp[IN_POSITION1], t)
            } else {
                p0
            };
            let n1 = [inp[IN_NORMAL1][0], inp[IN_NORMAL1][1], inp[IN_NORMAL1][2]];
            let nn = if tween_mode && self.has(IN_NORMAL1) && self.has(IN_NORMAL0) {
                tween(n0, n1, t)
            } else {
                n0
            };
            (
                xform4(p, &self.wv[0]),
                xform3(nn, &normal_matrix(&self.wv[0])),
            )
        };
        let has_normal = self.has(IN_NORMAL0);
        if st.rs_bool(R::NormalizeNormals) {
            n = normalize3(n);
        }
        if !has_normal {
            n = [0.0; 3];
        }
        let p = eye3(pe);
        out.position = xform4(pe, &rows(&st.transform(TransformType::Projection)));
        if st.rs_bool(R::Clipping) {
            for i in 0..6 {
                if st.rs(R::ClipPlaneEnable) & (1 << i) != 0 {
                    out.clip_distance[i] = clip_distance(pe, c.clip[i]);
                }
            }
        }

        // Lighting (§5) or pass-through (§5.5).
        if st.rs_bool(R::Lighting) {
            let cv = st.rs_bool(R::ColorVertex);
            let mat = &st.material;
            let pick = |raw: u32, m: [f32; 4]| match raw {
                1 if cv && self.has(IN_COLOR0) => inp[IN_COLOR0],
                2 if cv && self.has(IN_COLOR1) => inp[IN_COLOR1],
                _ => m,
            };
            let mc = [
                pick(st.rs(R::DiffuseMaterialSource), mat.diffuse),
                pick(st.rs(R::AmbientMaterialSource), mat.ambient),
                pick(st.rs(R::SpecularMaterialSource), mat.specular),
                pick(st.rs(R::EmissiveMaterialSource), mat.emissive),
            ];
            let specular = st.rs_bool(R::SpecularEnable);
            let surf = Surface {
                p,
                n: has_normal.then_some(n),
                specular: specular.then(|| st.rs_bool(R::LocalViewer).then(|| normalize3(p))),
                half_power: half_power(mat.power),
                half_power_int: half_power_int(mat.power),
            };
            let mut sums = LightSums::zero(0.0f32);
            let kinds: Vec<LightKind> = self
                .lights
                .iter()
                .map(|l| match l.kind {
                    LightType::Directional => LightKind::Directional,
                    LightType::Point => LightKind::Point,
                    LightType::Spot => LightKind::Spot,
                })
                .collect();
            lights(&kinds, &self.lights, &surf, &mut sums);
            let g = color_rgba(st.rs(R::Ambient));
            (out.diffuse, out.specular) = assemble(&mc, g, &sums, has_normal, specular);
        } else {
            out.diffuse = if self.has(IN_COLOR0) {
                inp[IN_COLOR0].map(sat)
            } else {
                [1.0; 4]
            };
            out.specular = if self.has(IN_COLOR1) {
                inp[IN_COLOR1].map(sat)
            } else {
                [0.0; 4]
            };
        }

        for s in 0..8 {
            if self.opts.tex_stages & (1 << s) != 0 {
                out.texcoord[s] = stage_coord(self.stage_recipe(s), &tex_in, p, n, &c.texture[s]);
            }
        }

        out.fog = 1.0;
        if fog_on && table == FogMode::None {
            if vmode == FogMode::None {
                out.fog = color1_alpha;
            } else {
                let d = if st.rs_bool(R::RangeFogEnable) {
                    dot3(p, p).sqrt()
                } else {
                    Real::max(p[2], 0.0 - p[2])
                };
                let f = vertex_fog_factor(vmode, d, c.fog);
                out.specular[3] = f;
                out.fog = f;
            }
        }

        let scale = self.opts.points && st.rs_bool(R::PointScaleEnable);
        out.point_size = point_size(si, scale.then(|| dot3(p, p)), c.point, c.point_scale);
        out
    }
}
