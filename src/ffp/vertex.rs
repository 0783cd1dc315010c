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

use std::sync::Arc;

use super::fog::{VertexFog, vertex_fog_factor};
use super::key::{BlendKey, ColorSource, FfpVertexKey, LightKind, TexKey, TexSource};
use super::light::{LightSums, Surface, assemble, half_power, half_power_int, lights};
use super::math::{Real, V, k4, normalize3, sat, sat4, xform3, xform4};
use super::output::{OutputLayout, RowSpread, VertexBatches, VertexOutput};
use super::point::point_size;
use super::setup::FfpVertexConsts;
use super::state::*;
use super::texgen::stage_coord;
use super::transform::*;
use crate::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use crate::state_cache::StateCache;
use crate::vertex::{FetchPlan, FetchStreams};

/// A compiled fixed-function vertex routine.
#[derive(Debug)]
pub struct FfpVertexProgram {
    key: FfpVertexKey,
    /// Stages whose coordinates are computed, with their recipe.
    tex: Vec<(usize, TexKey)>,
    /// Light kinds in order (empty without lighting).
    lights: Vec<LightKind>,
    /// Input texture-coordinate sets read by pass-through stages (bit n: set n).
    tex_sets: u8,
    /// The compact output layout.
    layout: OutputLayout,
}

/// Input registers of 8 vertices, read as [`V`] lanes.
struct Regs<'a, S: Simd>(&'a [[S::F; 4]; IN_COUNT], S);

impl<S: Simd> Regs<'_, S> {
    #[inline(always)]
    fn at(&self, i: usize) -> [V<S>; 4] {
        let r = &self.0[i];
        [
            V(r[0], self.1),
            V(r[1], self.1),
            V(r[2], self.1),
            V(r[3], self.1),
        ]
    }
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
        let tex_sets = key
            .tex
            .iter()
            .flatten()
            .filter_map(|t| match t.source {
                TexSource::PassThru { set, .. } => Some(1u8 << (set & 7)),
                _ => None,
            })
            .fold(0, |a, b| a | b);
        let layout = OutputLayout {
            texcoords: key
                .tex
                .iter()
                .enumerate()
                .filter(|(_, t)| t.is_some())
                .fold(0, |a, (s, _)| a | (1 << s)),
            fog: key.fog != VertexFog::None,
            point_size: key.point.is_some(),
            clip: key.clip_planes,
        };
        FfpVertexProgram {
            key,
            tex,
            lights,
            tex_sets,
            layout,
        }
    }

    /// The key the routine was compiled for.
    pub fn key(&self) -> &FfpVertexKey {
        &self.key
    }

    /// Which outputs [`process_vertices`] stores.
    pub fn layout(&self) -> OutputLayout {
        self.layout
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
        let mut scratch = Scratch::new(x);
        self.run_generic(x, c, inp, &mut scratch);
        let o = &scratch.out;
        let mut out = VertexOutput::splat(x.0);
        unwrap4(&mut out.position, &o.position);
        unwrap4(&mut out.diffuse, &o.diffuse);
        unwrap4(&mut out.specular, &o.specular);
        for (t, ot) in out.texcoord.iter_mut().zip(&o.texcoord) {
            unwrap4(t, ot);
        }
        out.fog = o.fog.0;
        out.point_size = o.point_size.0;
        for (d, od) in out.clip_distance.iter_mut().zip(&o.clip_distance) {
            *d = od.0;
        }
        out
    }

    /// The body, over [`V`]: writes `scratch.out` (see [`Scratch`]).
    #[inline(always)]
    fn run_generic<S: Simd>(
        &self,
        x: V<S>,
        c: &FfpVertexConsts,
        inp: &[[S::F; 4]; IN_COUNT],
        scratch: &mut Scratch<S>,
    ) {
        let key = &self.key;
        let s = x.1;
        // Input registers are wrapped where read (no copy of the whole set).
        let r = Regs::<S>(inp, s);
        let zero = x.k(0.0);
        let one = x.k(1.0);
        let Scratch { out, tex_in } = scratch;
        for (i, t) in tex_in.iter_mut().enumerate() {
            if self.tex_sets & (1 << i) != 0 {
                *t = r.at(IN_TEXCOORD0 + i);
            }
        }
        let color0 = key.colors & 1 != 0;
        let color1 = key.colors & 2 != 0;
        if key.pretransformed {
            out.position = pretransformed_position(r.at(IN_POSITION0));
            out.diffuse = if color0 {
                sat4(r.at(IN_COLOR0))
            } else {
                [one; 4]
            };
            out.specular = if color1 {
                sat4(r.at(IN_COLOR1))
            } else {
                [zero; 4]
            };
            let z3 = [zero; 3];
            for &(st, tk) in &self.tex {
                out.texcoord[st] = stage_coord(tk, tex_in, z3, z3, &c.texture[st]);
            }
            out.fog = match key.fog {
                VertexFog::Color1Alpha => out.specular[3],
                _ => one,
            };
            let si = if matches!(key.point, Some(p) if p.per_vertex) {
                r.at(IN_PSIZE)[0]
            } else {
                x.k(c.point[0])
            };
            out.point_size = point_size(si, None, c.point, c.point_scale);
            return;
        }

        // Eye space (§2–§4).
        let p0 = r.at(IN_POSITION0);
        let n0 = [
            r.at(IN_NORMAL0)[0],
            r.at(IN_NORMAL0)[1],
            r.at(IN_NORMAL0)[2],
        ];
        let (pe, mut n) = match key.blend {
            BlendKey::Off => (xform4(p0, &c.world_view[0]), xform3(n0, &c.normal_matrix)),
            BlendKey::Tween { position, normal } => {
                let t = x.k(c.tween);
                let p = if position {
                    tween(p0, r.at(IN_POSITION1), t)
                } else {
                    p0
                };
                let n1 = [
                    r.at(IN_NORMAL1)[0],
                    r.at(IN_NORMAL1)[1],
                    r.at(IN_NORMAL1)[2],
                ];
                let nn = if normal { tween(n0, n1, t) } else { n0 };
                (xform4(p, &c.world_view[0]), xform3(nn, &c.normal_matrix))
            }
            BlendKey::Weights {
                matrices,
                indexed,
                index_float,
            } => {
                let w = weights(r.at(IN_BLENDWEIGHT), matrices);
                let k = matrices as usize;
                let mut pe = [zero; 4];
                let mut ne = [zero; 3];
                if indexed {
                    let g = gather_matrices(s, c, &r.at(IN_BLENDINDICES), index_float);
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
                let mut m = [[zero; 4]; 4];
                for ((mi, src), mat) in m.iter_mut().zip(lk.sources).zip(c.material) {
                    *mi = match src {
                        ColorSource::Material => k4(x, mat),
                        ColorSource::Color0 => r.at(IN_COLOR0),
                        ColorSource::Color1 => r.at(IN_COLOR1),
                    };
                }
                let viewer = if lk.local_viewer {
                    Some(normalize3(p))
                } else {
                    None
                };
                let surf = Surface {
                    p,
                    n: if key.normal { Some(n) } else { None },
                    specular: if lk.specular { Some(viewer) } else { None },
                    half_power: x.k(half_power(c.power)),
                    half_power_int: half_power_int(c.power),
                };
                let mut sums = LightSums::zero(x);
                lights(&self.lights, &c.lights, &surf, &mut sums);
                (out.diffuse, out.specular) =
                    assemble(&m, c.ambient, &sums, key.normal, lk.specular);
            }
            None => {
                out.diffuse = if color0 {
                    sat4(r.at(IN_COLOR0))
                } else {
                    [one; 4]
                };
                out.specular = if color1 {
                    sat4(r.at(IN_COLOR1))
                } else {
                    [zero; 4]
                };
            }
        }

        // Texture coordinates (§6–§7).
        for &(st, tk) in &self.tex {
            out.texcoord[st] = stage_coord(tk, tex_in, p, n, &c.texture[st]);
        }

        // Fog (§9.3).
        out.fog = match key.fog {
            VertexFog::None => one,
            VertexFog::Color1Alpha => {
                if color1 {
                    sat(r.at(IN_COLOR1)[3])
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
                r.at(IN_PSIZE)[0]
            } else {
                x.k(c.point[0])
            };
            let d2 = if pk.scale {
                Some(super::math::dot3(p, p))
            } else {
                None
            };
            out.point_size = point_size(si, d2, c.point, c.point_scale);
        } else {
            out.point_size = point_size(x.k(c.point[0]), None, c.point, c.point_scale);
        }
    }
}

/// The working registers of [`FfpVertexProgram::run_generic`], kept across
/// the batches of one program so a batch stores only what it computes.
///
/// Invariant: one scratch serves one program. A program writes the same
/// fields on every batch, so the fields it never writes keep what
/// [`Scratch::new`] put there: texture coordinates (0, 0, 0, 1), clip
/// distances 0, and input texture sets it does not read 0.
struct Scratch<S: Simd> {
    out: VertexOutput<V<S>>,
    tex_in: [[V<S>; 4]; 8],
}

impl<S: Simd> Scratch<S> {
    /// The defaults described on the type (`x` is any value of the backend).
    #[inline(always)]
    fn new(x: V<S>) -> Scratch<S> {
        let zero = x.k(0.0);
        let mut out = VertexOutput::splat(zero);
        for t in out.texcoord.iter_mut() {
            t[3] = x.k(1.0);
        }
        Scratch {
            out,
            tex_in: [[zero; 4]; 8],
        }
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
struct IndexedMatrices<R> {
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
    let mut lanes = [[0f32; 8]; 4];
    for (l, v) in lanes.iter_mut().zip(idx) {
        v.0.store(l);
    }
    let mut which = [[0usize; 8]; 4];
    for (i, w) in which.iter_mut().enumerate() {
        for (l, wl) in w.iter_mut().enumerate() {
            *wl = match (round, i) {
                (true, 0) => matrix_index(lanes[0][l], true),
                (true, _) => 0,
                (false, _) => matrix_index(lanes[i][l], false),
            };
        }
    }
    let zero = V(s.splat(0.0), s);
    let mut m4 = [[[zero; 4]; 4]; 4];
    let mut m3 = [[[zero; 3]; 3]; 4];
    for (i, w) in which.iter().enumerate() {
        for row in 0..4 {
            for col in 0..4 {
                let mut a = [0f32; 8];
                for (al, &wl) in a.iter_mut().zip(w) {
                    *al = c.world_view.get(wl).map_or(0.0, |m| m[row][col]);
                }
                m4[i][row][col] = V(s.f32s(a), s);
                if row < 3 && col < 3 {
                    let mut a = [0f32; 8];
                    for (al, &wl) in a.iter_mut().zip(w) {
                        *al = c.world_view3.get(wl).map_or(0.0, |m| m[row][col]);
                    }
                    m3[i][row][col] = V(s.f32s(a), s);
                }
            }
        }
    }
    IndexedMatrices { m4, m3 }
}

/// Lane values of a V-array.
#[inline(always)]
fn unwrap4<S: Simd>(out: &mut [S::F; 4], v: &[V<S>; 4]) {
    for (o, x) in out.iter_mut().zip(v) {
        *o = x.0;
    }
}

/// Programs a fixed-function cache (vertex or pixel) keeps at most: an
/// application that walks through more states than this starts the cache
/// over (each state then costs one compile again) instead of growing it
/// without bound. A frame of real D3D9 state rarely has more than a few
/// dozen fixed-function variants.
pub const FFP_CACHE_ENTRIES: usize = 256;

/// Programs by key, so a state seen before reuses its routine (at most
/// [`FFP_CACHE_ENTRIES`] of them).
pub type FfpVertexCache = StateCache<FfpVertexKey, Arc<FfpVertexProgram>, FFP_CACHE_ENTRIES>;

impl FfpVertexCache {
    /// The program for `key`, compiled on first use.
    pub fn get(&mut self, key: &FfpVertexKey) -> Arc<FfpVertexProgram> {
        self.get_or_build(key, |k| Arc::new(FfpVertexProgram::new(k.clone())))
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
/// base vertex) 8 at a time into `out` (compact layout of the program; a
/// partial last batch repeats its last vertex in the unused lanes).
pub fn process_vertices(
    backend: Backend,
    job: VertexJob<'_>,
    vertices: &[u32],
    out: &mut VertexBatches,
) {
    out.layout = job.program.layout;
    out.data.clear();
    out.data
        .reserve(vertices.len().div_ceil(8) * out.layout.rows());
    dispatch(
        backend,
        ProcessKernel {
            job,
            vertices,
            dest: Dest::<()>::Batches(&mut out.data),
        },
    );
}

/// [`process_vertices`] written straight into vertex rows: vertex `i` of
/// `vertices` goes to `rows[i * stride..(i + 1) * stride]` through
/// `spread` (compiled for the program's layout), each batch while it is
/// still in registers and the first-level cache.
pub fn process_vertices_into(
    backend: Backend,
    job: VertexJob<'_>,
    vertices: &[u32],
    spread: &RowSpread,
    rows: &mut [f32],
) {
    process_vertices_with(backend, job, vertices, spread, rows, &(), &mut []);
}

/// Work on each batch of processed vertices right after the vertex stage
/// ([`process_vertices_with`]), which writes one code per vertex.
pub trait BatchPass {
    /// Runs on a full batch of 8 vertices in its SoA rows (as
    /// [`OutputLayout::rows`] orders them), before the batch is spread:
    /// may rewrite rows, writes the 8 vertices' `codes` and returns true;
    /// or returns false having written nothing, and [`BatchPass::rows`]
    /// then runs on the batch's spread rows.
    fn batch<S: Simd>(&self, s: S, batch: &mut [[f32; 8]], codes: &mut [u32]) -> bool;

    /// Runs on spread vertex rows (`stride` floats each, one code each):
    /// a partial batch, or a full one [`BatchPass::batch`] declined.
    fn rows(&self, rows: &mut [f32], stride: usize, codes: &mut [u32]);
}

/// No work and no codes.
impl BatchPass for () {
    #[inline(always)]
    fn batch<S: Simd>(&self, _: S, _: &mut [[f32; 8]], _: &mut [u32]) -> bool {
        true
    }

    fn rows(&self, _: &mut [f32], _: usize, _: &mut [u32]) {}
}

/// [`process_vertices_into`], running `pass` on each batch as it is
/// written, with `codes` (one per vertex; may be empty when `pass` writes
/// none).
pub fn process_vertices_with<P: BatchPass>(
    backend: Backend,
    job: VertexJob<'_>,
    vertices: &[u32],
    spread: &RowSpread,
    rows: &mut [f32],
    pass: &P,
    codes: &mut [u32],
) {
    dispatch(
        backend,
        ProcessKernel {
            job,
            vertices,
            dest: Dest::Rows {
                spread,
                rows,
                pass,
                codes,
            },
        },
    );
}

/// Where [`ProcessKernel`] puts each batch.
enum Dest<'b, P> {
    /// Appended as compact rows.
    Batches(&'b mut Vec<[f32; 8]>),
    /// Spread into vertex rows, with a pass and its codes.
    Rows {
        spread: &'b RowSpread,
        rows: &'b mut [f32],
        pass: &'b P,
        codes: &'b mut [u32],
    },
}

/// The loop of [`process_vertices`] and [`process_vertices_with`].
struct ProcessKernel<'a, 'b, P> {
    job: VertexJob<'a>,
    vertices: &'b [u32],
    dest: Dest<'b, P>,
}

impl<P: BatchPass> Kernel for ProcessKernel<'_, '_, P> {
    type Output = ();
    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let j = self.job;
        let x = V(s.splat(0.0), s);
        let mut regs = [[x.0; 4]; IN_COUNT];
        let layout = j.program.layout;
        let rows = layout.rows();
        // Rows are assembled in a small local buffer, then appended or
        // spread: no zero-fill of the whole output beforehand.
        let mut buf = [[0f32; 8]; MAX_ROWS];
        let mut dest = self.dest;
        let mut scratch = Scratch::new(x);
        for (b, chunk) in self.vertices.chunks(8).enumerate() {
            let last = chunk[chunk.len() - 1];
            let mut idx = [last; 8];
            idx[..chunk.len()].copy_from_slice(chunk);
            j.streams.fetch8(s, j.plan, &idx, j.instance, &mut regs);
            j.program.run_generic(x, j.consts, &regs, &mut scratch);
            store_rows(&scratch.out, layout, &mut buf[..rows]);
            match &mut dest {
                Dest::Batches(data) => data.extend_from_slice(&buf[..rows]),
                Dest::Rows {
                    spread,
                    rows: out,
                    pass,
                    codes,
                } => {
                    let stride = spread.stride();
                    let at = (8 * b * stride).min(out.len());
                    let lanes = chunk.len();
                    let codes_at = (8 * b).min(codes.len());
                    let codes = &mut codes[codes_at..];
                    let done = lanes == 8 && pass.batch(s, &mut buf[..rows], codes);
                    spread.batch(s, &buf[..rows], lanes, &mut out[at..]);
                    if !done {
                        let end = (at + lanes * stride).min(out.len());
                        let n = lanes.min(codes.len());
                        pass.rows(&mut out[at..end], stride, &mut codes[..n]);
                    }
                }
            }
        }
    }
}

/// The most rows a batch can have (every optional output present).
const MAX_ROWS: usize = 12 + 4 * 8 + 2 + 6;

/// Stores the fields of `layout` into consecutive rows (see [`OutputLayout::rows`]).
#[inline(always)]
fn store_rows<S: Simd>(o: &VertexOutput<V<S>>, layout: OutputLayout, dst: &mut [[f32; 8]]) {
    let mut r = 0;
    let mut put = |v: &V<S>| {
        v.0.store(&mut dst[r]);
        r += 1;
    };
    for v in o.position.iter().chain(&o.diffuse).chain(&o.specular) {
        put(v);
    }
    for (s, t) in o.texcoord.iter().enumerate() {
        if layout.texcoords & (1 << s) != 0 {
            for v in t {
                put(v);
            }
        }
    }
    if layout.fog {
        put(&o.fog);
    }
    if layout.point_size {
        put(&o.point_size);
    }
    for (i, d) in o.clip_distance.iter().enumerate() {
        if layout.clip & (1 << i) != 0 {
            put(d);
        }
    }
}
