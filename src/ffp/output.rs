//! The vertex-stage output layout: what the rasterizer clips, projects and
//! interpolates for every fixed-function vertex.
//!
//! Layout (`T` = `S::F` for 8 vertices in SoA, `f32` for one vertex):
//! - `position`: clip-space (x, y, z, w) for untransformed vertices; for
//!   pre-transformed ones the input (sx, sy, sz, rhw) with rhw 0 read as 1
//!   ([`super::FfpVertexProgram::pretransformed`] tells which);
//! - `diffuse`, `specular`: RGBA in [0, 1]; specular alpha holds the vertex
//!   fog factor when vertex fog is computed (fixed-function.md §5.4, §9.3);
//! - `texcoord[s]`: the coordinate of texture stage s (not of input set s),
//!   4 components, unprojected (the pixel stage divides, §7.2); stages the
//!   draw does not need hold (0, 0, 0, 1);
//! - `fog`: the per-vertex fog factor the output merger interpolates when
//!   [`super::fog::FogPath::Interpolated`] applies (1 when no vertex factor);
//! - `point_size`: pixels, clamped; D3DRS_POINTSIZE clamped when not drawing points;
//! - `clip_distance[i]`: user plane i, kept where >= 0 (0 for planes not enabled).
//!
//! [`VertexOutput`] is what the register-level entry point
//! (`FfpVertexProgram::run8`) returns; [`VertexBatches`] is the compact form
//! `process_vertices` stores for a draw, holding only the rows of its
//! [`OutputLayout`] (a point list without textures stores 13 rows per 8
//! vertices instead of 52).

use crate::simd::{FloatV, Simd};

/// The outputs of one vertex (`T = f32`) or of 8 vertices in SoA (`T = S::F`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexOutput<T> {
    /// Clip-space position (or the pre-transformed screen position).
    pub position: [T; 4],
    /// Diffuse colour (COLOR0).
    pub diffuse: [T; 4],
    /// Specular colour (COLOR1), alpha = vertex fog factor when computed.
    pub specular: [T; 4],
    /// Texture coordinates per stage.
    pub texcoord: [[T; 4]; 8],
    /// Fog factor to interpolate.
    pub fog: T,
    /// Point size in pixels.
    pub point_size: T,
    /// User clip-plane distances.
    pub clip_distance: [T; 6],
}

impl<T: Copy> VertexOutput<T> {
    /// Every field set to `v` (a starting value before the stage writes it).
    #[inline(always)]
    pub fn splat(v: T) -> Self {
        VertexOutput {
            position: [v; 4],
            diffuse: [v; 4],
            specular: [v; 4],
            texcoord: [[v; 4]; 8],
            fog: v,
            point_size: v,
            clip_distance: [v; 6],
        }
    }

    /// The fields as one flat list, in declaration order (52 values).
    pub fn flat(&self) -> Vec<T> {
        let mut v = Vec::with_capacity(52);
        v.extend_from_slice(&self.position);
        v.extend_from_slice(&self.diffuse);
        v.extend_from_slice(&self.specular);
        for t in &self.texcoord {
            v.extend_from_slice(t);
        }
        v.push(self.fog);
        v.push(self.point_size);
        v.extend_from_slice(&self.clip_distance);
        v
    }

    /// Applies `f` to every field.
    pub fn map<U>(&self, mut f: impl FnMut(T) -> U) -> VertexOutput<U> {
        VertexOutput {
            position: self.position.map(&mut f),
            diffuse: self.diffuse.map(&mut f),
            specular: self.specular.map(&mut f),
            texcoord: self.texcoord.map(|t| t.map(&mut f)),
            fog: f(self.fog),
            point_size: f(self.point_size),
            clip_distance: self.clip_distance.map(&mut f),
        }
    }
}

impl VertexOutput<[f32; 8]> {
    /// Lane `i` of an 8-lane output whose fields were stored as arrays.
    pub fn lane(&self, i: usize) -> VertexOutput<f32> {
        self.map(|a| a[i])
    }
}

/// Which outputs a program writes in the compact batch layout: position,
/// diffuse and specular always, then only what the draw uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct OutputLayout {
    /// Bit s: the coordinate of stage s is stored (4 rows).
    pub texcoords: u8,
    /// The fog factor is stored (1 row).
    pub fog: bool,
    /// The point size is stored (1 row).
    pub point_size: bool,
    /// Bit i: the distance to clip plane i is stored (1 row).
    pub clip: u8,
}

impl OutputLayout {
    /// Rows (8-lane values) per batch of 8 vertices, in this order:
    /// position (4), diffuse (4), specular (4), each stored stage's texcoord
    /// (4, ascending stage), fog, point size, each stored clip distance.
    pub fn rows(&self) -> usize {
        12 + 4 * self.texcoords.count_ones() as usize
            + usize::from(self.fog)
            + usize::from(self.point_size)
            + self.clip.count_ones() as usize
    }

    /// Every field of a vertex as the batch row that holds it, or the
    /// constant [`VertexBatches::vertex`] reads for fields this layout
    /// does not store: a per-draw template, so spreading batches into rows
    /// copies floats without re-deciding the layout per vertex.
    pub fn field_sources(&self) -> VertexOutput<RowSource> {
        let mut r = 0;
        let mut next = || {
            r += 1;
            RowSource::Row(r - 1)
        };
        let mut next4 = || [next(), next(), next(), next()];
        let position = next4();
        let diffuse = next4();
        let specular = next4();
        let texcoord = std::array::from_fn(|s| {
            if self.texcoords & (1 << s) != 0 {
                next4()
            } else {
                [0.0, 0.0, 0.0, 1.0].map(RowSource::Const)
            }
        });
        let fog = if self.fog {
            next()
        } else {
            RowSource::Const(1.0)
        };
        let point_size = if self.point_size {
            next()
        } else {
            RowSource::Const(1.0)
        };
        let clip_distance = std::array::from_fn(|i| {
            if self.clip & (1 << i) != 0 {
                next()
            } else {
                RowSource::Const(0.0)
            }
        });
        VertexOutput {
            position,
            diffuse,
            specular,
            texcoord,
            fog,
            point_size,
            clip_distance,
        }
    }

    /// `v` with the fields this layout does not store replaced by what
    /// [`VertexBatches::vertex`] reads for them: texcoord (0, 0, 0, 1),
    /// fog 1, point size 1, clip distance 0.
    pub fn mask(&self, v: &VertexOutput<f32>) -> VertexOutput<f32> {
        let mut o = *v;
        for (s, t) in o.texcoord.iter_mut().enumerate() {
            if self.texcoords & (1 << s) == 0 {
                *t = [0.0, 0.0, 0.0, 1.0];
            }
        }
        if !self.fog {
            o.fog = 1.0;
        }
        if !self.point_size {
            o.point_size = 1.0;
        }
        for (i, d) in o.clip_distance.iter_mut().enumerate() {
            if self.clip & (1 << i) == 0 {
                *d = 0.0;
            }
        }
        o
    }
}

/// Processed vertices, 8 per batch, in the compact layout: row r of batch
/// b is `data[b * layout.rows() + r]`, lane i of a row is vertex `8b + i`.
#[derive(Clone, Debug, Default)]
pub struct VertexBatches {
    /// What the rows hold.
    pub layout: OutputLayout,
    /// The rows.
    pub data: Vec<[f32; 8]>,
}

impl VertexBatches {
    /// Number of stored batches.
    pub fn batches(&self) -> usize {
        self.data.len() / self.layout.rows().max(1)
    }

    /// Vertex `i` with every field (absent ones as in [`OutputLayout::mask`]).
    pub fn vertex(&self, i: usize) -> VertexOutput<f32> {
        let rows = self.layout.rows();
        let b = &self.data[(i / 8) * rows..(i / 8 + 1) * rows];
        let l = i % 8;
        let mut o = VertexOutput::splat(0.0f32);
        let mut r = 0;
        let next4 = |r: &mut usize| {
            let v = [b[*r][l], b[*r + 1][l], b[*r + 2][l], b[*r + 3][l]];
            *r += 4;
            v
        };
        o.position = next4(&mut r);
        o.diffuse = next4(&mut r);
        o.specular = next4(&mut r);
        for (s, t) in o.texcoord.iter_mut().enumerate() {
            *t = if self.layout.texcoords & (1 << s) != 0 {
                next4(&mut r)
            } else {
                [0.0, 0.0, 0.0, 1.0]
            };
        }
        o.fog = if self.layout.fog {
            r += 1;
            b[r - 1][l]
        } else {
            1.0
        };
        o.point_size = if self.layout.point_size {
            r += 1;
            b[r - 1][l]
        } else {
            1.0
        };
        for (i, d) in o.clip_distance.iter_mut().enumerate() {
            if self.layout.clip & (1 << i) != 0 {
                *d = b[r][l];
                r += 1;
            }
        }
        o
    }
}

/// Where one float of a vertex-buffer row comes from when batches are
/// spread into rows: row `r` of the batch (lane = the vertex), or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowSource {
    /// Row `r` of the vertex's batch.
    Row(usize),
    /// This value for every vertex.
    Const(f32),
}

/// A per-draw row template for whole batches: the vertex stage writes
/// each batch of 8 processed vertices straight into its 8 vertex rows
/// through it (`process_vertices_into`), with no intermediate
/// [`VertexBatches`]. A full batch goes 8 floats of the row at a time:
/// those floats' values for the 8 vertices (batch rows or constants) are
/// transposed in registers into each vertex's 8 floats.
///
/// Invariant: for every vertex and every float of its row, [`RowSpread::batch`]
/// writes exactly the template's source (a batch row's lane, or the
/// constant), whichever way (vector or per lane) it writes it.
#[derive(Clone, Debug)]
pub struct RowSpread {
    /// One source per float of a vertex row (`stride` of them), rows
    /// below `batch_rows` only.
    template: Vec<RowSource>,
    /// The batch rows a source may name (more are read as 0).
    batch_rows: usize,
}

impl RowSpread {
    /// Compiles `template` (one source per float of a row; its length is
    /// the row stride) for batches of `batch_rows` rows. Sources naming a
    /// row at or past `batch_rows` read 0.
    pub fn new(template: &[RowSource], batch_rows: usize) -> RowSpread {
        // Missing rows become the constant 0 once, here, for both paths.
        let template: Vec<RowSource> = template
            .iter()
            .map(|&src| match src {
                RowSource::Row(r) if r >= batch_rows => RowSource::Const(0.0),
                other => other,
            })
            .collect();
        RowSpread {
            template,
            batch_rows,
        }
    }

    /// The source of each float of a row (rows past the batch already
    /// turned into the constant 0).
    pub fn sources(&self) -> &[RowSource] {
        &self.template
    }

    /// Floats per vertex row.
    pub fn stride(&self) -> usize {
        self.template.len()
    }

    /// Writes the first `lanes` vertices of `batch` (its rows, lane = vertex)
    /// to `out[l * stride..(l + 1) * stride]`, for `l` below `lanes`. A full
    /// batch may also write up to 7 floats past its 8 rows, where `out`
    /// extends there: the caller writes the next batch there afterwards.
    #[inline(always)]
    pub fn batch<S: Simd>(&self, s: S, batch: &[[f32; 8]], lanes: usize, out: &mut [f32]) {
        let stride = self.stride();
        if lanes == 8 && out.len() >= 8 * stride && batch.len() >= self.batch_rows {
            // Blocks go last to first: a row's last block may be partial,
            // and its store then runs into the next vertex's first floats,
            // which block 0 writes afterwards. Past the batch's last vertex
            // it runs into the next batch's, written after this one; where
            // the slice ends there, the last vertex's floats are copied.
            let zero = s.splat(0.0);
            for at in (0..stride).step_by(8).rev() {
                let mut m = [zero; 8];
                for (mk, src) in m.iter_mut().zip(&self.template[at..]) {
                    *mk = match *src {
                        RowSource::Row(r) => s.f32s(batch[r]),
                        RowSource::Const(c) => s.splat(c),
                    };
                }
                let n = (stride - at).min(8);
                for (v, t) in s.transpose8(m).into_iter().enumerate() {
                    let start = v * stride + at;
                    match out.get_mut(start..start + 8) {
                        Some(dst) => t.store(dst),
                        None => out[start..start + n].copy_from_slice(&t.to_array()[..n]),
                    }
                }
            }
            return;
        }
        for (l, row) in out.chunks_exact_mut(stride).take(lanes).enumerate() {
            for (dst, src) in row.iter_mut().zip(&self.template) {
                *dst = match *src {
                    RowSource::Row(r) => batch.get(r).map_or(0.0, |b| b[l]),
                    RowSource::Const(c) => c,
                };
            }
        }
    }
}

/// `ProcessVertices`' screen mapping of a clip-space position (§2.2, Wine
/// `process_vertices_strided`): `(X + (1 + x/w)·W/2, Y + (1 − y/w)·H/2,
/// MinZ + (z/w)·(MaxZ − MinZ), 1/w)` for viewport (X, Y, W, H, MinZ, MaxZ),
/// MaxZ being the effective one of [`Viewport::depth_range`](crate::state::Viewport::depth_range).
pub fn screen_position(clip: [f32; 4], vp: &crate::state::Viewport) -> [f32; 4] {
    let (min_z, max_z) = vp.depth_range();
    let rhw = 1.0 / clip[3];
    let (x, y, z) = (clip[0] * rhw, clip[1] * rhw, clip[2] * rhw);
    [
        vp.x as f32 + (1.0 + x) * vp.width as f32 / 2.0,
        vp.y as f32 + (1.0 - y) * vp.height as f32 / 2.0,
        min_z + z * (max_z - min_z),
        rhw,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `RowSpread::batch` on each batch (`rows` rows) of `data`, the
    /// last one partial when `count` is not a multiple of 8.
    struct SpreadAll<'a> {
        spread: &'a RowSpread,
        data: &'a [[f32; 8]],
        rows: usize,
        count: usize,
        out: &'a mut [f32],
    }
    impl crate::simd::Kernel for SpreadAll<'_> {
        type Output = ();
        fn run<S: Simd>(self, s: S) {
            let stride = self.spread.stride();
            for (b, batch) in self.data.chunks_exact(self.rows).enumerate() {
                let lanes = (self.count - 8 * b).min(8);
                let out = &mut self.out[8 * b * stride..];
                self.spread.batch(s, batch, lanes, out);
            }
        }
    }

    /// `RowSpread` through the `field_sources` template writes, for every
    /// vertex and every field, what `vertex` reads, constants included,
    /// on both backends (full batches transposed in registers, the partial
    /// one per lane), and leaves the floats past `count` vertices alone.
    #[test]
    fn row_spread_matches_the_per_vertex_reader() {
        let layout = OutputLayout {
            texcoords: 0b101,
            fog: true,
            point_size: false,
            clip: 0b10,
        };
        let rows = layout.rows();
        // 13: a full batch whose last block runs into the next batch's
        // rows, then a partial one; 16: the slice ends at a full batch.
        for (count, spare) in [(13, 1), (16, 0)] {
            check_row_spread(layout, rows, count, spare);
        }
    }

    /// Spreads `count` vertices into a slice `spare` rows longer and
    /// compares each row with what `VertexBatches::vertex` reads.
    fn check_row_spread(layout: OutputLayout, rows: usize, count: usize, spare: usize) {
        let data = (0..count.div_ceil(8) * rows)
            .map(|r| std::array::from_fn(|l| (r * 8 + l) as f32 + 0.25))
            .collect();
        let batches = VertexBatches { layout, data };
        let template: Vec<RowSource> = batches.layout.field_sources().flat();
        let stride = template.len();
        assert_eq!(stride, 52);
        let spread = RowSpread::new(&template, rows);
        for backend in [
            crate::simd::Backend::Portable,
            crate::simd::Backend::new(true),
        ] {
            let mut out = vec![-7.0f32; (count + spare) * stride];
            let job = SpreadAll {
                spread: &spread,
                data: &batches.data,
                rows,
                count,
                out: &mut out,
            };
            crate::simd::dispatch(backend, job);
            for i in 0..count {
                assert_eq!(
                    &out[i * stride..(i + 1) * stride],
                    &batches.vertex(i).flat()[..],
                    "vertex {i} on {}",
                    backend.name()
                );
            }
            assert!(out[count * stride..].iter().all(|&v| v == -7.0));
        }
    }

    /// A source naming a row the batch does not have reads 0, both ways.
    #[test]
    fn row_spread_reads_missing_rows_as_zero() {
        let template = [RowSource::Row(0), RowSource::Row(5), RowSource::Const(2.5)];
        let spread = RowSpread::new(&template, 1);
        let batch = [[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]];
        let job = |lanes: usize| {
            let mut out = vec![-1.0f32; 8 * 3];
            crate::simd::dispatch(
                crate::simd::Backend::new(true),
                SpreadAll {
                    spread: &spread,
                    data: &batch,
                    rows: 1,
                    count: lanes,
                    out: &mut out,
                },
            );
            out
        };
        let full = job(8);
        let part = job(7);
        for l in 0..8 {
            let want = [batch[0][l], 0.0, 2.5];
            assert_eq!(&full[l * 3..l * 3 + 3], &want, "full batch, lane {l}");
            if l < 7 {
                assert_eq!(&part[l * 3..l * 3 + 3], &want, "partial batch, lane {l}");
            }
        }
        assert_eq!(&part[21..], &[-1.0; 3]);
    }
}
