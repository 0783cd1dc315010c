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

    /// The fields as one flat list, in declaration order (44 values).
    pub fn flat(&self) -> Vec<T> {
        let mut v = Vec::with_capacity(44);
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
