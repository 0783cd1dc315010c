//! The 8-lane fixed-function vertex routine (Warp): a program compiled from
//! the [`FfpVertexKey`], cached per key, run on 8 vertices in SoA.
//!
//! Job: fixed-function.md §12 in order — eye space (blend / tween / plain),
//! clip position, user clip distances, lighting or pass-through colours,
//! texture coordinates of the needed stages, vertex fog, point size.
//!
//! Invariants: every state decision was taken when the program was built
//! (light kinds, colour sources, texgen per stage, fog mode, blending);
//! the per-batch code only walks the compiled lists. All arithmetic goes
//! through the shared formula modules over [`V`], so results equal the
//! scalar Reference ([`super::scalar`]) bit for bit on every backend.

use std::collections::HashMap;
use std::sync::Arc;

use super::fog::{VertexFog, vertex_fog_factor};
use super::key::{BlendKey, ColorSource, FfpVertexKey, LightKind, TexKey};
use super::light::{LightSums, Surface, assemble, directional, positional};
use super::math::{Real, V, normalize3, sat, xform3, xform4};
use super::output::VertexOutput;
use super::point::point_size;
use super::setup::FfpVertexConsts;
use super::state::*;
use super::texgen::stage_coord;
use super::transform::*;
use crate::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use crate::vertex::{FetchPlan, FetchStreams};

/// A compiled fixed-function vertex routine.
#[derive(Debug)]
pub struct FfpVertexProgram {
    key: FfpVertexKey,
    /// Stages whose coordinates are computed, with their recipe.
    tex: Vec<(usize, TexKey)>,
    /// Light kinds in order (empty without lighting).
    lights: Vec<LightKind>,
}

impl FfpVertexProgram {
    /// Compiles the routine for `key`.
    pub fn new(key: FfpVertexKey) -> FfpVertexProgram {
        let tex = key
            .tex
            .iter()
            .enumerate()
            .filter_map(|(s, t)| t.map(|t| (s, t)))
            .collect();
        let lights = key
            .lighting
            .as_ref()
            .map(|l| l.lights.clone())
            .unwrap_or_default();
        FfpVertexProgram { key, tex, lights }
    }

    /// The key the routine was compiled for.
    pub fn key(&self) -> &FfpVertexKey {
        &self.key
    }

    /// Whether the output positions are pre-transformed screen positions.
    pub fn pretransformed(&self) -> bool {
        self.key.pretransformed
    }

    /// Runs the routine on 8 vertices whose inputs are `inp` (SoA registers `IN_*`).
    #[inline(always)]
    pub fn run8<S: Simd>(
        &self,
        s: S,
        c: &FfpVertexConsts,
        inp: &[[S::F; 4]; IN_COUNT],
    ) -> VertexOutput<S::F> {
        let x = V(s.splat(0.0), s);
        let r: [[V<S>; 4]; IN_COUNT] = inp.map(|reg| reg.map(|v| V(v, s)));
        let round = matches!(
            self.key.blend,
            BlendKey::Weights {
                index_float: true,
                ..
            }
        );
        let out = self.run_generic(x, c, &r, |m| gather_matrices(s, c, m, round));
        out.map(|v| v.0)
    }

    /// The body, over [`V`]; `gather` builds the per-lane matrices of indexed blending.
    #[inline(always)]
    fn run_generic<S: Simd>(
        &self,
        x: V<S>,
        c: &FfpVertexConsts,
        r: &[[V<S>; 4]; IN_COUNT],
        gather: impl Fn(&[V<S>; 4]) -> IndexedMatrices<V<S>>,
    ) -> VertexOutput<V<S>> {
        let key = &self.key;
        let zero = x.k(0.0);
        let one = x.k(1.0);
        let mut out = VertexOutput::splat(zero);
        let tex_in: [[V<S>; 4]; 8] = std::array::from_fn(|i| r[IN_TEXCOORD0 + i]);
        let color0 = key.colors & 1 != 0;
        let color1 = key.colors & 2 != 0;
        for t in out.texcoord.iter_mut() {
            t[3] = one;
        }
        if key.pretransformed {
            out.position = pretransformed_position(r[IN_POSITION0]);
            out.diffuse = if color0 {
                r[IN_COLOR0].map(sat)
            } else {
                [one; 4]
            };
            out.specular = if color1 {
                r[IN_COLOR1].map(sat)
            } else {
                [zero; 4]
            };
            let z3 = [zero; 3];
            for &(st, tk) in &self.tex {
                out.texcoord[st] = stage_coord(tk, &tex_in, z3, z3, &c.texture[st]);
            }
            out.fog = match key.fog {
                VertexFog::Color1Alpha => out.specular[3],
                _ => one,
            };
            let si = if key.point.is_some_and(|p| p.per_vertex) {
                r[IN_PSIZE][0]
            } else {
                x.k(c.point[0])
            };
            out.point_size = point_size(si, None, c.point, c.point_scale);
            return out;
        }

        // Eye space (§2–§4).
        let p0 = r[IN_POSITION0];
        let n0 = [r[IN_NORMAL0][0], r[IN_NORMAL0][1], r[IN_NORMAL0][2]];
        let (pe, mut n) = match key.blend {
            BlendKey::Off => (xform4(p0, &c.world_view[0]), xform3(n0, &c.normal_matrix)),
            BlendKey::Tween { position, normal } => {
                let t = x.k(c.tween);
                let p = if position {
                    tween(p0, r[IN_POSITION1], t)
                } else {
                    p0
                };
                let n1 = [r[IN_NORMAL1][0], r[IN_NORMAL1][1], r[IN_NORMAL1][2]];
                let nn = if normal { tween(n0, n1, t) } else { n0 };
                (xform4(p, &c.world_view[0]), xform3(nn, &c.normal_matrix))
            }
            BlendKey::Weights {
                matrices, indexed, ..
            } => {
                let w = weights(r[IN_BLENDWEIGHT], matrices);
                let k = matrices as usize;
                let mut pe = [zero; 4];
                let mut ne = [zero; 3];
                if indexed {
                    let g = gather(&r[IN_BLENDINDICES]);
                    for (i, &wi) in w.iter().enumerate().take(k) {
                        let tp = xform4v(p0, &g.m4[i]);
                        let tn = xform3v(n0, &g.m3[i]);
                        accumulate(&mut pe, &mut ne, i, wi, tp, tn);
                    }
                } else {
                    for (i, &wi) in w.iter().enumerate().take(k) {
                        let tp = xform4(p0, &c.world_view[i]);
                        let tn = xform3(n0, &c.world_view3[i]);
                        accumulate(&mut pe, &mut ne, i, wi, tp, tn);
                    }
                }
                (pe, ne)
            }
        };
        if key.normalize {
            n = normalize3(n);
        }
        if !key.normal {
            n = [zero; 3];
        }
        let p = eye3(pe);
        out.position = xform4(pe, &c.projection);
        for i in 0..6 {
            if key.clip_planes & (1 << i) != 0 {
                out.clip_distance[i] = clip_distance(pe, c.clip[i]);
            }
        }

        // Colours (§5).
        match &key.lighting {
            Some(lk) => {
                let pick = |src: ColorSource, mat: [f32; 4]| match src {
                    ColorSource::Material => mat.map(|v| x.k(v)),
                    ColorSource::Color0 => r[IN_COLOR0],
                    ColorSource::Color1 => r[IN_COLOR1],
                };
                let m = std::array::from_fn(|i| pick(lk.sources[i], c.material[i]));
                let surf = Surface {
                    p,
                    n: key.normal.then_some(n),
                    specular: lk.specular.then(|| lk.local_viewer.then(|| normalize3(p))),
                    power: x.k(c.power),
                };
                let mut sums = LightSums::zero(x);
                for (kind, l) in self.lights.iter().zip(&c.lights) {
                    match kind {
                        LightKind::Directional => directional(l, &surf, &mut sums),
                        LightKind::Point => positional(l, false, &surf, &mut sums),
                        LightKind::Spot => positional(l, true, &surf, &mut sums),
                    }
                }
                (out.diffuse, out.specular) =
                    assemble(&m, c.ambient, &sums, key.normal, lk.specular);
            }
            None => {
                out.diffuse = if color0 {
                    r[IN_COLOR0].map(sat)
                } else {
                    [one; 4]
                };
                out.specular = if color1 {
                    r[IN_COLOR1].map(sat)
                } else {
                    [zero; 4]
                };
            }
        }

        // Texture coordinates (§6–§7).
        for &(st, tk) in &self.tex {
            out.texcoord[st] = stage_coord(tk, &tex_in, p, n, &c.texture[st]);
        }

        // Fog (§9.3).
        out.fog = match key.fog {
            VertexFog::None => one,
            VertexFog::Color1Alpha => {
                if color1 {
                    sat(r[IN_COLOR1][3])
                } else {
                    zero
                }
            }
            VertexFog::Compute { mode, range } => {
                let d = if range {
                    super::math::dot3(p, p).sqrt()
                } else {
                    p[2].max(zero - p[2])
                };
                let f = vertex_fog_factor(mode, d, c.fog);
                out.specular[3] = f;
                f
            }
        };

        // Point size (§8).
        if let Some(pk) = key.point {
            let si = if pk.per_vertex {
                r[IN_PSIZE][0]
            } else {
                x.k(c.point[0])
            };
            let d2 = pk.scale.then(|| super::math::dot3(p, p));
            out.point_size = point_size(si, d2, c.point, c.point_scale);
        } else {
            out.point_size = point_size(x.k(c.point[0]), None, c.point, c.point_scale);
        }
        out
    }
}

/// Adds `w · (tp, tn)` to the blend sums (the first term initialises them).
#[inline(always)]
fn accumulate<R: Real>(pe: &mut [R; 4], ne: &mut [R; 3], i: usize, w: R, tp: [R; 4], tn: [R; 3]) {
    for j in 0..4 {
        pe[j] = if i == 0 { w * tp[j] } else { pe[j] + w * tp[j] };
    }
    for j in 0..3 {
        ne[j] = if i == 0 { w * tn[j] } else { ne[j] + w * tn[j] };
    }
}

/// Per-lane matrices of indexed blending (up to 4 per lane).
pub struct IndexedMatrices<R> {
    m4: [[[R; 4]; 4]; 4],
    m3: [[[R; 3]; 3]; 4],
}

#[inline(always)]
fn gather_matrices<S: Simd>(
    s: S,
    c: &FfpVertexConsts,
    idx: &[V<S>; 4],
    round: bool,
) -> IndexedMatrices<V<S>> {
    // Which matrices: rounded FLOAT1 index 0 only, or the four byte indices.
    let lanes: [[f32; 8]; 4] = idx.map(|v| v.0.to_array());
    let index = |i: usize, lane: usize| -> usize {
        if round {
            if i == 0 {
                matrix_index(lanes[0][lane], true)
            } else {
                0
            }
        } else {
            matrix_index(lanes[i][lane], false)
        }
    };
    let m4 = std::array::from_fn(|i| {
        std::array::from_fn(|row| {
            std::array::from_fn(|col| {
                let m = |l: usize| c.world_view.get(index(i, l)).map_or(0.0, |m| m[row][col]);
                V(s.f32s(std::array::from_fn(m)), s)
            })
        })
    });
    let m3 = std::array::from_fn(|i| {
        std::array::from_fn(|row| {
            std::array::from_fn(|col| {
                let m = |l: usize| c.world_view3.get(index(i, l)).map_or(0.0, |m| m[row][col]);
                V(s.f32s(std::array::from_fn(m)), s)
            })
        })
    });
    IndexedMatrices { m4, m3 }
}

/// Programs by key, so a state seen before reuses its routine.
#[derive(Debug, Default)]
pub struct FfpVertexCache {
    map: HashMap<FfpVertexKey, Arc<FfpVertexProgram>>,
}

impl FfpVertexCache {
    /// The program for `key`, compiled on first use.
    pub fn get(&mut self, key: &FfpVertexKey) -> Arc<FfpVertexProgram> {
        if let Some(p) = self.map.get(key) {
            return p.clone();
        }
        let p = Arc::new(FfpVertexProgram::new(key.clone()));
        self.map.insert(key.clone(), p.clone());
        p
    }

    /// Number of cached programs.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Everything one run over a vertex range needs.
#[derive(Clone, Copy)]
pub struct VertexJob<'a> {
    /// The compiled routine.
    pub program: &'a FfpVertexProgram,
    /// The draw's constants.
    pub consts: &'a FfpVertexConsts,
    /// The draw's streams.
    pub streams: &'a FetchStreams,
    /// The fetch plan of [`FfpInputLayout::new`].
    pub plan: &'a FetchPlan,
    /// Instance number.
    pub instance: u32,
}

/// Fetches and processes `vertices` (vertex indices, after index lookup and
/// base vertex) 8 at a time; `out[i]` receives lanes `8i..8i+8` as arrays.
/// A partial last batch repeats its last vertex in the unused lanes.
pub fn process_vertices(
    backend: Backend,
    job: VertexJob<'_>,
    vertices: &[u32],
    out: &mut Vec<VertexOutput<[f32; 8]>>,
) {
    struct K<'a, 'b> {
        job: VertexJob<'a>,
        vertices: &'b [u32],
        out: &'b mut Vec<VertexOutput<[f32; 8]>>,
    }
    impl Kernel for K<'_, '_> {
        type Output = ();
        #[inline(always)]
        fn run<S: Simd>(self, s: S) {
            let j = self.job;
            let mut regs = [[s.splat(0.0); 4]; IN_COUNT];
            for chunk in self.vertices.chunks(8) {
                let last = chunk[chunk.len() - 1];
                let idx: [u32; 8] = std::array::from_fn(|i| chunk.get(i).copied().unwrap_or(last));
                j.streams.fetch8(s, j.plan, &idx, j.instance, &mut regs);
                let o = j.program.run8(s, j.consts, &regs);
                self.out.push(o.map(|v| v.to_array()));
            }
        }
    }
    out.clear();
    out.reserve(vertices.len().div_ceil(8));
    dispatch(backend, K { job, vertices, out });
}
