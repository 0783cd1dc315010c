//! The vertex stage of untransformed draws: fixed-function T&L (`ffp`) or a
//! vertex shader (`shader::exec`), fed by `vertex::fetch`, writing the
//! clip-space vertices the clip-space front end ([`super::clip_space`])
//! clips and projects.
//!
//! Every distinct vertex a draw references is fetched and transformed once
//! per instance (indexed draws reuse it through the assembly map): 8 at a
//! time on the Warp driver, one at a time on the Reference driver.
//!
//! Output layout ([`Varyings`]): each vertex is `HEADER` floats (clip-space
//! x, y, z, w, then the point size or NaN for "use D3DRS_POINTSIZE") and
//! then the attributes: the vertex-output slots the pixel stage reads
//! (4 floats each; colours first, so the fixed-function diffuse and
//! specular sit at `geom`'s slots 0 and 4, and texture coordinates from
//! attribute 8 on, where point sprites replace them), the fog factor, and
//! the fixed-function user clip distances.
//!
//! Invariant: the Warp and Reference forms produce bit-identical buffers
//! (the fetch, the ffp routine and the interpreters agree bit for bit).

use std::sync::Arc;

use crate::ffp::{
    DrawOptions, FfpInputLayout, FfpState, FfpVertexConsts, FfpVertexProgram, ReferenceVertex,
    RowSource, RowSpread, VertexJob, VertexOutput, process_vertices_into, process_vertices_with,
};
use crate::geom::{ATTR_TEX0, HEADER};
use crate::sampler::BoundTextures;
use crate::shader::exec::Executor;
use crate::shader::exec::regs::{OUT_D0, OUT_FOG, OUT_POS, OUT_PTS, OUT_T0};
use crate::shader::exec::{OutputLayout, Prepared, scalar};
use crate::simd::{Backend, FloatV, Kernel, Simd, dispatch};
use crate::vertex::DeclUsage;
use crate::vertex::{FetchPlan, FetchStreams, VertexDeclaration};

use super::pixel_stages::OwnedConstants;
use super::vertex_pass::{FusedPass, VertexPass};

/// Where each vertex output lives in the draw's vertex buffer (attribute
/// index = float offset after the header).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Varyings {
    /// Attribute index of component 0 of each output slot, if stored.
    pub(crate) slot_attr: [Option<usize>; 16],
    /// Stored slots in attribute order.
    pub(crate) slots: Vec<u16>,
    /// Attribute index of the fog factor.
    pub(crate) fog: Option<usize>,
    /// Attribute index of user clip distance 0 (fixed function; 6 floats).
    pub(crate) clip: Option<usize>,
    /// Attribute floats per vertex.
    pub(crate) attrs: usize,
}

impl Varyings {
    /// Where output `slot`, component `comp` is stored.
    pub(crate) fn attr(&self, slot: u16, comp: u8) -> Option<usize> {
        self.slot_attr
            .get(slot as usize)
            .copied()
            .flatten()
            .map(|a| a + comp as usize)
    }

    /// The layout of a vertex-processed draw storing the slots of `needed`
    /// (bit per slot); `tex` marks texture-coordinate slots (placed from
    /// attribute 8 on), `colors` the slots placed first (in order).
    pub(crate) fn new(needed: u16, tex: u16, colors: &[u16], fog: bool, clip: bool) -> Varyings {
        let mut v = Varyings::default();
        let mut order: Vec<u16> = colors.to_vec();
        order.extend((0..16).filter(|s| needed & (1 << s) != 0 && tex & (1 << s) == 0));
        let mut seen = 0u16;
        let mut place = |v: &mut Varyings, s: u16| {
            if seen & (1 << s) == 0 {
                seen |= 1 << s;
                v.slot_attr[s as usize] = Some(v.attrs);
                v.slots.push(s);
                v.attrs += 4;
            }
        };
        for &s in &order {
            place(&mut v, s);
        }
        if needed & tex != 0 {
            v.attrs = v.attrs.max(ATTR_TEX0);
            for s in 0..16 {
                if needed & tex & (1 << s) != 0 {
                    place(&mut v, s);
                }
            }
        }
        if fog {
            // Component 2 of its own group: point sprites replace only
            // components 0 and 1 of attributes from 8 on.
            v.fog = Some(v.attrs + 2);
            v.attrs += 4;
        }
        if clip {
            v.clip = Some(v.attrs);
            v.attrs += 8;
        }
        v
    }

    /// Floats per vertex.
    pub(crate) fn stride(&self) -> usize {
        HEADER + self.attrs
    }
}

/// What transforms the vertices of a draw (one per draw: size does not matter).
#[allow(clippy::large_enum_variant)]
pub(crate) enum VertexProc {
    /// Fixed-function T&L.
    Ffp {
        state: Arc<FfpState>,
        layout: FfpInputLayout,
        plan: FetchPlan,
        opts: DrawOptions,
        program: Arc<FfpVertexProgram>,
        consts: FfpVertexConsts,
    },
    /// A vertex shader.
    Shader {
        program: Arc<Prepared>,
        plan: FetchPlan,
        consts: OwnedConstants,
    },
}

/// The fetch plan of a vertex shader: each declaration element feeds the
/// input register declared with its usage and index.
pub(crate) fn shader_plan(
    program: &crate::shader::ir::Program,
    decl: &VertexDeclaration,
) -> FetchPlan {
    use crate::shader::ir::Declaration;
    use crate::shader::opcode::Opcode;
    use crate::shader::token::RegisterFile;
    let mut inputs: Vec<(DeclUsage, u8, u16)> = Vec::new();
    for ins in &program.instructions {
        if let (Opcode::Dcl, Some(d), Some(Declaration::Semantic { usage, index })) =
            (ins.opcode, ins.dst, ins.declaration())
            && d.reg.file == RegisterFile::Input
            && d.reg.index < 16
        {
            inputs.push((usage, index, d.reg.index));
        }
    }
    FetchPlan::new(decl.elements(), |e| {
        inputs
            .iter()
            .find(|&&(u, i, _)| u == e.usage && i == e.usage_index)
            .map(|&(_, _, r)| (r, e.decl_type))
    })
}

/// Writes one fixed-function vertex into `row`; generic so the Warp path
/// can write a per-draw template of [`RowSource`]s with the same code.
fn put_ffp<T: Copy>(
    o: &VertexOutput<T>,
    var: &Varyings,
    points: bool,
    [nan, zero]: [T; 2],
    row: &mut [T],
) {
    row[..4].copy_from_slice(&o.position);
    row[4] = if points { o.point_size } else { nan };
    let a = &mut row[HEADER..];
    for &slot in &var.slots {
        let v = match slot {
            OUT_POS => o.position,
            OUT_FOG => [o.fog, zero, zero, zero],
            OUT_PTS => [o.point_size, zero, zero, zero],
            s if s == OUT_D0 => o.diffuse,
            s if s == OUT_D0 + 1 => o.specular,
            s if (OUT_T0..OUT_T0 + 8).contains(&s) => o.texcoord[(s - OUT_T0) as usize],
            _ => [zero; 4],
        };
        let at = var.slot_attr[slot as usize].unwrap_or(0);
        a[at..at + 4].copy_from_slice(&v);
    }
    if let Some(f) = var.fog {
        a[f] = o.fog;
    }
    if let Some(c) = var.clip {
        a[c..c + 6].copy_from_slice(&o.clip_distance);
    }
}

/// Writes one shader-processed vertex into `row`: `out` holds its output
/// slots (values, or for the Warp row template the batch rows they come
/// from), `fog` its fog factor ([`shader_fog`], or the template's source
/// of it), `[nan, zero]` the fillers for an unwritten point size and
/// position. Floats it does not name keep what `row` held.
fn put_shader<T: Copy>(
    out: &[[T; 4]; 16],
    fog: T,
    [nan, zero]: [T; 2],
    layout: &OutputLayout,
    var: &Varyings,
    row: &mut [T],
) {
    row[..4].copy_from_slice(&layout.position.map_or([zero; 4], |p| out[p as usize & 15]));
    row[4] = layout
        .point_size
        .map_or(nan, |(s, c)| out[s as usize & 15][c as usize & 3]);
    let a = &mut row[HEADER..];
    for &slot in &var.slots {
        let at = var.slot_attr[slot as usize].unwrap_or(0);
        a[at..at + 4].copy_from_slice(&out[slot as usize & 15]);
    }
    if let Some(f) = var.fog {
        a[f] = fog;
    }
}

/// A shader-processed vertex's fog factor: vs < 3: oFog.x, already
/// saturated; vs_3_0: the FOG output, saturated; an unwritten fog reads 0
/// (fixed-function.md 9.2).
fn shader_fog(out: &[[f32; 4]; 16], layout: &OutputLayout, legacy: bool) -> f32 {
    if legacy {
        out[OUT_FOG as usize][0]
    } else {
        layout.fog.map_or(0.0, |(s, c)| {
            crate::ffp::math::sat(out[s as usize & 15][c as usize & 3])
        })
    }
}

/// The batch row of the Warp shader path that holds a vs_3_0's saturated
/// fog output (rows 0..64 are the output slots' components, slot-major).
const SAT_FOG_ROW: usize = 64;

/// Batch rows of the Warp shader path: the 64 output components, then
/// [`SAT_FOG_ROW`].
const SHADER_BATCH_ROWS: usize = SAT_FOG_ROW + 1;

/// The row template of the Warp shader path: [`put_shader`] over the
/// batch rows, so the vector path writes exactly what the scalar one
/// does, and every float it does not name is the constant 0 (the scalar
/// path's zeroed row).
fn shader_spread(layout: &OutputLayout, legacy: bool, var: &Varyings, stride: usize) -> RowSpread {
    let out: [[RowSource; 4]; 16] =
        std::array::from_fn(|slot| std::array::from_fn(|c| RowSource::Row(4 * slot + c)));
    let fog = match (legacy, layout.fog) {
        (true, _) => RowSource::Row(4 * OUT_FOG as usize),
        (false, Some(_)) => RowSource::Row(SAT_FOG_ROW),
        (false, None) => RowSource::Const(0.0),
    };
    let mut template = vec![RowSource::Const(0.0); stride];
    put_shader(
        &out,
        fog,
        [RowSource::Const(f32::NAN), RowSource::Const(0.0)],
        layout,
        var,
        &mut template,
    );
    RowSpread::new(&template, SHADER_BATCH_ROWS)
}

/// 8-lane vertex-shader kernel over one instance's vertices, each batch of
/// 8 written straight into its rows through the draw's template.
struct ShaderBatch<'a> {
    program: &'a Prepared,
    plan: &'a FetchPlan,
    streams: &'a FetchStreams,
    numbers: &'a [u32],
    instance: u32,
    consts: &'a OwnedConstants,
    textures: &'a BoundTextures,
    spread: &'a RowSpread,
    rows: &'a mut [f32],
}

impl Kernel for ShaderBatch<'_> {
    type Output = ();
    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let (zero, one) = (s.splat(0.0), s.splat(1.0));
        let stride = self.spread.stride();
        let fog = (self.program.version().major >= 3)
            .then(|| self.program.outputs().fog)
            .flatten();
        let mut exec = Executor::new(self.program, s, &self.consts.view(), self.textures);
        let mut batch = [[0.0f32; 8]; SHADER_BATCH_ROWS];
        for (b, chunk) in self.numbers.chunks(8).enumerate() {
            let last = chunk[chunk.len() - 1];
            let mut idx = [last; 8];
            idx[..chunk.len()].copy_from_slice(chunk);
            // Undeclared inputs read (0, 0, 0, 1) (bytecode.md 4.3).
            let mut regs = [[zero, zero, zero, one]; 16];
            self.streams
                .fetch8(s, self.plan, &idx, self.instance, &mut regs);
            let active = s.mask_from_bits((1u32 << chunk.len()) - 1);
            let o = exec.run_vertex(&regs, active);
            for slot in 0..16 {
                for c in 0..4 {
                    o[slot][c].store(&mut batch[4 * slot + c]);
                }
            }
            if let Some((fs, fc)) = fog {
                let v = batch[4 * (fs as usize & 15) + (fc as usize & 3)];
                batch[SAT_FOG_ROW] = v.map(crate::ffp::math::sat);
            }
            let out = &mut self.rows[8 * b * stride..];
            self.spread.batch(s, &batch, chunk.len(), out);
        }
    }
}

/// What the vertex stage reads for every vertex of one instance of a draw.
#[derive(Clone, Copy)]
pub(crate) struct VertexInputs<'a> {
    /// Warp's 8-lane path on this backend; None: the Reference driver's
    /// scalar, vertex-at-a-time path.
    pub(crate) lanes: Option<Backend>,
    pub(crate) streams: &'a FetchStreams,
    pub(crate) instance: u32,
    pub(crate) textures: &'a BoundTextures,
    pub(crate) var: &'a Varyings,
}

/// Vertices per parallel chunk of the Warp vertex stage (a multiple of 8).
pub(crate) const VERTEX_CHUNK: usize = 4096;

impl VertexProc {
    /// Transforms `numbers` (vertex numbers after index lookup) of
    /// `inp.instance` into `rows` (one vertex of `stride` floats per
    /// number, every float written), then runs `pass` on them, writing
    /// `codes` (one per number). The work goes in chunks of
    /// [`VERTEX_CHUNK`] vertices, so the pass reads each chunk while it is
    /// in cache; Warp runs the chunks on `pool`. Each vertex is computed
    /// by the same code whatever the chunking (the 8-lane batches stay
    /// 8-aligned within a chunk and lanes do not interact), so the result
    /// does not depend on the thread count.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &self,
        inp: &VertexInputs<'_>,
        numbers: &[u32],
        stride: usize,
        rows: &mut [f32],
        pass: &VertexPass<'_>,
        codes: &mut [u32],
        pool: Option<&rayon::ThreadPool>,
    ) {
        if stride == 0 {
            return;
        }
        // The row template is the draw's: built once here, not per chunk
        // and worker.
        let spread = self.spread(inp, stride);
        // Warp's fixed-function stage runs the pass on each batch before
        // spreading it, when the spread allows (`VertexPass::fused`).
        let fused = match self {
            VertexProc::Ffp { .. } => spread.as_ref().and_then(|sp| pass.fused(sp)),
            VertexProc::Shader { .. } => None,
        };
        let run = |nums: &[u32], rows: &mut [f32], codes: &mut [u32]| {
            let with = fused.as_ref().map(|f| (f, &mut *codes));
            if !self.run_rows(inp, nums, stride, spread.as_ref(), rows, with) {
                pass.run(rows, stride, codes);
            }
        };
        let chunks = numbers
            .chunks(VERTEX_CHUNK)
            .zip(rows.chunks_mut(VERTEX_CHUNK * stride))
            .zip(codes.chunks_mut(VERTEX_CHUNK));
        match pool {
            Some(pool) if inp.lanes.is_some() && numbers.len() > VERTEX_CHUNK => {
                use rayon::prelude::*;
                pool.install(|| {
                    numbers
                        .par_chunks(VERTEX_CHUNK)
                        .zip(rows.par_chunks_mut(VERTEX_CHUNK * stride))
                        .zip(codes.par_chunks_mut(VERTEX_CHUNK))
                        .for_each(|((nums, rows), codes)| run(nums, rows, codes));
                });
            }
            _ => chunks.for_each(|((nums, rows), codes)| run(nums, rows, codes)),
        }
    }

    /// How the Warp vertex stage's batches go into rows of `stride` floats
    /// (None for the Reference driver). Floats `put_ffp` / `put_shader` do
    /// not name keep the template's constant 0: what the Reference path's
    /// zeroed rows hold. The template names every float, so the rows need
    /// not be zeroed first.
    fn spread(&self, inp: &VertexInputs<'_>, stride: usize) -> Option<RowSpread> {
        inp.lanes?;
        let (opts, program) = match self {
            VertexProc::Ffp { opts, program, .. } => (opts, program),
            VertexProc::Shader { program, .. } => {
                let legacy = program.version().major < 3;
                return Some(shader_spread(program.outputs(), legacy, inp.var, stride));
            }
        };
        let layout = program.layout();
        let mut template = vec![RowSource::Const(0.0); stride];
        put_ffp(
            &layout.field_sources(),
            inp.var,
            opts.points,
            [RowSource::Const(f32::NAN), RowSource::Const(0.0)],
            &mut template,
        );
        Some(RowSpread::new(&template, layout.rows()))
    }

    /// [`VertexProc::run`] for `numbers`, into `rows` (`stride` floats per
    /// vertex); `spread` is [`VertexProc::spread`]'s. Returns whether
    /// it also ran `fused` (the pass, with its codes), which only the
    /// spread path does.
    fn run_rows(
        &self,
        inp: &VertexInputs<'_>,
        numbers: &[u32],
        stride: usize,
        spread: Option<&RowSpread>,
        rows: &mut [f32],
        fused: Option<(&FusedPass<'_>, &mut [u32])>,
    ) -> bool {
        let VertexInputs {
            lanes,
            streams,
            instance,
            textures,
            var,
        } = *inp;
        match self {
            VertexProc::Ffp {
                state,
                layout,
                plan,
                opts,
                program,
                consts,
            } => {
                let points = opts.points;
                if let (Some(spread), Some(backend)) = (spread, lanes) {
                    let job = VertexJob {
                        program,
                        consts,
                        streams,
                        plan,
                        instance,
                    };
                    match fused {
                        Some((pass, codes)) => {
                            process_vertices_with(backend, job, numbers, spread, rows, pass, codes);
                            return true;
                        }
                        None => process_vertices_into(backend, job, numbers, spread, rows),
                    }
                } else {
                    // `put_ffp` writes the named floats of a zeroed row.
                    rows.fill(0.0);
                    let rv = ReferenceVertex::new(state, layout, *opts);
                    let mask = program.layout();
                    for (i, &n) in numbers.iter().enumerate() {
                        let mut regs = [[0.0f32; 4]; crate::ffp::state::IN_COUNT];
                        streams.fetch1(plan, n, instance, &mut regs);
                        let o = mask.mask(&rv.process(&regs));
                        put_ffp(
                            &o,
                            var,
                            points,
                            [f32::NAN, 0.0],
                            &mut rows[i * stride..(i + 1) * stride],
                        );
                    }
                }
            }
            VertexProc::Shader {
                program,
                plan,
                consts,
            } => {
                if let (Some(spread), Some(backend)) = (spread, lanes) {
                    dispatch(
                        backend,
                        ShaderBatch {
                            program,
                            plan,
                            streams,
                            numbers,
                            instance,
                            consts,
                            textures,
                            spread,
                            rows,
                        },
                    );
                } else {
                    let layout = program.outputs();
                    let legacy = program.version().major < 3;
                    // `put_shader` writes the stored slots of a zeroed row.
                    rows.fill(0.0);
                    let c = consts.view();
                    for (i, &n) in numbers.iter().enumerate() {
                        let mut regs = [[0.0, 0.0, 0.0, 1.0f32]; 16];
                        streams.fetch1(plan, n, instance, &mut regs);
                        let out = scalar::run_vertex(program, &regs, &c, textures);
                        put_shader(
                            &out,
                            shader_fog(&out, layout, legacy),
                            [f32::NAN, 0.0],
                            layout,
                            var,
                            &mut rows[i * stride..(i + 1) * stride],
                        );
                    }
                }
            }
        }
        false
    }
}

/// Which output slots of `layout` hold only TEXCOORD varyings.
pub(crate) fn texcoord_slots(layout: &OutputLayout) -> u16 {
    let mut tex = 0u16;
    let mut other = 0u16;
    for v in &layout.varyings {
        if v.slot < 16 {
            if v.usage == DeclUsage::TexCoord {
                tex |= 1 << v.slot;
            } else {
                other |= 1 << v.slot;
            }
        }
    }
    tex & !other
}
