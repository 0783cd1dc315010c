//! Texture-coordinate generation (fixed-function.md §6), the texture
//! transform (§7.1) and the projection rule (§7.2), generic over [`Real`].
//!
//! Job: per stage, the 4-component coordinate the rasterizer interpolates,
//! and (per draw) which component the pixel stage divides by.
//!
//! Decisions implemented: generated coordinates count as 4 input
//! components; a transformed input of width k is padded to
//! (c0..c(k−1), 1, 0, ..); the components beyond COUNTn are filled like a
//! FLOATn element ((t0, .., 0, 1)), except that COUNT1 keeps t1 as COUNT2
//! does (ATI's behaviour; fixed-function.md §7.1 said (t0, 0, 0, 1), which
//! no Windows driver does); a missing PASSTHRU set is (0, 0, 0, 1)
//! of width 4; COUNT1|PROJECTED and a count beyond the input width do not
//! project.

use super::key::{TexKey, TexSource};
use super::math::{Real, dot3, normalize3, xform4};

/// The reflection vector `E − 2·dot(E, N)·N` with `E = normalize(P)` (§6.1).
#[inline(always)]
pub fn reflection<R: Real>(p: [R; 3], n: [R; 3]) -> [R; 3] {
    let e = normalize3(p);
    let d2 = e[0].k(2.0) * dot3(e, n);
    [e[0] - d2 * n[0], e[1] - d2 * n[1], e[2] - d2 * n[2]]
}

/// Sphere-map coordinates (§6.2, the OpenGL formula Nine uses): (u, v, 0, 1).
#[inline(always)]
pub fn sphere_map<R: Real>(p: [R; 3], n: [R; 3]) -> [R; 4] {
    let r = reflection(p, n);
    let z1 = r[2] + r[0].k(1.0);
    let m = r[0].k(2.0) * (r[0] * r[0] + r[1] * r[1] + z1 * z1).sqrt();
    let half = r[0].k(0.5);
    [r[0] / m + half, r[1] / m + half, r[0].k(0.0), r[0].k(1.0)]
}

/// The generated or passed-through coordinate of `source` before the
/// transform, and its number of input components.
#[inline(always)]
pub fn source_coord<R: Real>(
    source: TexSource,
    tex_in: &[[R; 4]; 8],
    p: [R; 3],
    n: [R; 3],
) -> ([R; 4], u8) {
    let one = p[0].k(1.0);
    let zero = p[0].k(0.0);
    match source {
        TexSource::PassThru { set, width } => (tex_in[set as usize & 7], width),
        TexSource::Missing => ([zero, zero, zero, one], 4),
        TexSource::Normal => ([n[0], n[1], n[2], one], 4),
        TexSource::Position => ([p[0], p[1], p[2], one], 4),
        TexSource::Reflection => {
            let r = reflection(p, n);
            ([r[0], r[1], r[2], one], 4)
        }
        TexSource::SphereMap => (sphere_map(p, n), 4),
    }
}

/// Applies the texture matrix `m` with COUNT `count` (0: none) to `c` of `width` components.
#[inline(always)]
pub fn transform<R: Real>(c: [R; 4], width: u8, count: u8, m: &[[f32; 4]; 4]) -> [R; 4] {
    if count == 0 {
        return c;
    }
    let one = c[0].k(1.0);
    let zero = c[0].k(0.0);
    let w = width.clamp(1, 4) as usize;
    let mut padded = c;
    for (i, p) in padded.iter_mut().enumerate().skip(w) {
        *p = if i == w { one } else { zero };
    }
    let mut t = xform4(padded, m);
    // COUNT1 keeps the matrix's second output too: Windows drivers differ
    // (Nvidia treats COUNT1 as DISABLE, ATI as COUNT2, and Wine's
    // texture_transform_flags_test accepts both); ATI's keeps COUNT1 a
    // transform, and a D3D9 texture lookup reads at least two components.
    let n = count.clamp(2, 4) as usize;
    for (i, v) in t.iter_mut().enumerate().skip(n) {
        *v = if i == 3 { one } else { zero };
    }
    t
}

/// The full coordinate of one stage.
#[inline(always)]
pub fn stage_coord<R: Real>(
    key: TexKey,
    tex_in: &[[R; 4]; 8],
    p: [R; 3],
    n: [R; 3],
    m: &[[f32; 4]; 4],
) -> [R; 4] {
    let (c, width) = source_coord(key.source, tex_in, p, n);
    transform(c, width, key.count, m)
}

/// Which component the pixel stage divides the stage's coordinate by
/// (§7.2), or `None`. `projected`: D3DTTFF_PROJECTED; `count`: the COUNT
/// bits; `key`: the stage's vertex key part (None for vertex shaders,
/// which project by w). Cube maps are never projected (the pixel stage
/// knows the texture type and skips the division).
pub fn projection_divisor(projected: bool, count: u8, key: Option<TexKey>) -> Option<u8> {
    if !projected {
        return None;
    }
    let Some(key) = key else {
        return Some(3);
    };
    let width = match key.source {
        TexSource::PassThru { width, .. } => width,
        _ => 4,
    };
    // Pre-transformed vertices carry count 0 in the key; the state's count then has no effect.
    let n = if count == 0 || key.count == 0 {
        width
    } else {
        count
    };
    let passthru = matches!(key.source, TexSource::PassThru { .. });
    if n <= 1 || n > 4 || (passthru && key.count != 0 && n > width) {
        return None;
    }
    Some(n - 1)
}

/// The projection divisors of all 8 stages for the pixel key: from the
/// stages' TEXTURETRANSFORMFLAGS and the vertex key (`None`: a vertex shader
/// produced the coordinates, which project by w).
pub fn stage_divisors(
    state: &super::state::FfpState,
    vertex: Option<&super::key::FfpVertexKey>,
) -> [Option<u8>; 8] {
    use crate::state::{TextureStageStateType as T, TextureTransformFlags};
    let mut out = [None; 8];
    for (s, d) in out.iter_mut().enumerate() {
        let ttff = TextureTransformFlags::lenient(state.tss(s, T::TextureTransformFlags));
        let key = match vertex {
            Some(v) => match v.tex[s] {
                Some(k) => Some(k),
                // Not computed by the vertex stage: nothing to project.
                None => continue,
            },
            None => None,
        };
        *d = projection_divisor(ttff.projected, ttff.count as u8, key);
    }
    out
}
