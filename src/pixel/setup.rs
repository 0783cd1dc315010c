//! Primitive set-up values shared by both drivers: fixed-point snapping,
//! edge functions with the top-left rule folded in, line and point coverage,
//! and the plane formulas.
//!
//! Snapping: x, y to 16.8 fixed point, round to nearest (rasterization.md 5).
//! Triangle edge k (from vertex a to b of a clockwise-ordered triangle) is
//! `F(px, py) = a * px + b * py + c`, evaluated at integer pixel centres; the
//! pixel is inside when `F > 0` for all three edges. This equals the exact
//! test `E > 0 || (E == 0 && top-left)` with `E` the 16.8 edge function
//! (the Reference driver evaluates `E` literally; tests check both agree).
//!
//! Lines (a documented form of the D3D10 diamond-exit rule for lines with
//! endpoints at pixel centres): an x-major line covers, in each pixel column
//! `cx` whose centre lies in `[x0, x1)` (travel direction; closed with
//! D3DRS_LASTPIXEL), the row whose diamond's vertical diagonal
//! `(cy - 1/2, cy + 1/2]` contains the line; y-major lines likewise with
//! rows and columns swapped.

use super::Plane;
use crate::geom::{HEADER, VertexBuf};
use crate::state::Rect;

/// 16.8 fixed point, round to nearest (`v` inside the guard band).
#[inline(always)]
pub(crate) fn snap(v: f32) -> i32 {
    // `(v * 256.0).round() as i32` (half away from zero) without the libm
    // call: below 2^23 the truncation and its remainder are exact; at or
    // above it (and for NaN) `t` is already integral or saturates alike.
    let t = v * 256.0;
    if t.is_nan() || t.abs() >= 8_388_608.0 {
        return t as i32;
    }
    let i = t as i32;
    let f = t - i as f32;
    // Branch-free: a mesh's fractions are as good as random, and a
    // mispredicted branch per coordinate cost more than the snap itself.
    i + i32::from(f >= 0.5) - i32::from(f <= -0.5)
}

/// `ceil(n / d)` for `d > 0`.
#[inline(always)]
pub(crate) fn ceil_div(n: i64, d: i64) -> i64 {
    -((-n).div_euclid(d))
}

/// One triangle edge: inside where `a * px + b * py + c > 0`. `a` and
/// `b` are 16.8 coordinate differences, below 2^23 in magnitude inside the
/// guard band (i32, so the record a tile reads back is 16 bytes an edge
/// smaller); `c` needs 64 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) a: i32,
    pub(crate) b: i32,
    pub(crate) c: i64,
}

impl Edge {
    /// The edge from (xa, ya) to (xb, yb) (16.8) of a clockwise triangle.
    pub(crate) fn new(xa: i32, ya: i32, xb: i32, yb: i32) -> Edge {
        let (dx, dy) = (i64::from(xb) - i64::from(xa), i64::from(yb) - i64::from(ya));
        let top_left = dy < 0 || (dy == 0 && dx > 0);
        let c = dy * i64::from(xa) - dx * i64::from(ya);
        Edge {
            a: -dy as i32,
            b: dx as i32,
            c: ceil_div(c + i64::from(top_left), 256),
        }
    }

    /// The edge function at pixel (px, py).
    #[inline(always)]
    pub(crate) fn at(&self, px: i64, py: i64) -> i64 {
        i64::from(self.a) * px + i64::from(self.b) * py + self.c
    }
}

/// The pixels of a line (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineCover {
    pub(crate) x_major: bool,
    /// Major-axis pixel range (inclusive).
    pub(crate) lo: i32,
    pub(crate) hi: i32,
    /// Start (major, minor) in 16.8, and the deltas.
    pub(crate) m0: i64,
    pub(crate) n0: i64,
    pub(crate) dm: i64,
    pub(crate) dn: i64,
}

impl LineCover {
    /// The minor-axis pixel of major pixel `m` (within `lo..=hi`).
    #[inline(always)]
    pub(crate) fn minor(&self, m: i32) -> i32 {
        let (mut num, mut den) = (
            self.n0 * self.dm + (i64::from(m) * 256 - self.m0) * self.dn,
            self.dm,
        );
        if den < 0 {
            num = -num;
            den = -den;
        }
        ceil_div(num - 128 * den, 256 * den) as i32
    }

    /// Whether pixel (x, y) is on the line.
    #[inline(always)]
    pub(crate) fn covers(&self, x: i32, y: i32) -> bool {
        let (m, n) = if self.x_major { (x, y) } else { (y, x) };
        m >= self.lo && m <= self.hi && self.minor(m) == n
    }
}

/// What a primitive covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// A triangle's three edges.
    Tri([Edge; 3]),
    /// The pixels of a rectangle (points).
    Rect,
    /// A line.
    Line(LineCover),
}

/// A primitive ready to rasterize.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PrimSetup {
    /// Candidate pixels [x0, x1) x [y0, y1), inside the draw's clip rectangle.
    pub(crate) bbox: Rect,
    /// Plane origin in 16.8.
    pub(crate) ox: i32,
    pub(crate) oy: i32,
    pub(crate) z: Plane,
    pub(crate) q: Plane,
    /// `q` varies: attributes in `persp` are multiplied by `1/q`.
    pub(crate) persp: u64,
    /// First attribute plane in the draw's plane arena.
    pub(crate) attr_off: u32,
    /// Depth offset (bias) added before the depth test.
    pub(crate) bias: f32,
    pub(crate) front: bool,
    pub(crate) cover: Cover,
}

/// `(x * 256 - o)` as f32 pixels: exact for anything inside the guard band.
#[inline(always)]
pub(crate) fn rel(p: i32, o: i32) -> f32 {
    (p * 256 - o) as f32 * (1.0 / 256.0)
}

/// The triangle plane through (0, 0, v0), (dx1, dy1, v1), (dx2, dy2, v2)
/// with `inv` = 1 / area: the formula both drivers use.
#[inline(always)]
pub(crate) fn tri_plane(d: [f32; 4], inv: f32, v: [f32; 3]) -> Plane {
    let [dx1, dy1, dx2, dy2] = d;
    let (da1, da2) = (v[1] - v[0], v[2] - v[0]);
    Plane {
        a0: v[0],
        ddx: (da1 * dy2 - da2 * dy1) * inv,
        ddy: (da2 * dx1 - da1 * dx2) * inv,
    }
}

/// Depth offset of a primitive with depth plane `z` (rasterization.md 8.3).
#[inline(always)]
pub(crate) fn depth_offset(z: &Plane, slope: f32, bias: f32) -> f32 {
    if slope == 0.0 {
        bias
    } else {
        let m = crate::simd::fmax(z.ddx.abs(), z.ddy.abs());
        m * slope + bias
    }
}

/// Values attribute `inputs` take at vertex `v` (`a * rhw` when `persp`).
fn attr_value(buf: &VertexBuf, v: u32, input: usize, scale_q: bool) -> f32 {
    let vv = buf.get(v);
    let a = vv[HEADER + input];
    if scale_q { a * vv[3] } else { a }
}

/// Sets up a line from `v0` to `v1` (scalar; both drivers use it). Returns
/// None when it covers nothing. `planes` receives the attribute planes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn setup_line(
    buf: &VertexBuf,
    v: [u32; 2],
    provoking: u32,
    last: bool,
    inputs: &[usize],
    flat: u64,
    clip: Rect,
    planes: &mut Vec<Plane>,
) -> Option<PrimSetup> {
    let (a, b) = (buf.get(v[0]), buf.get(v[1]));
    let (x0, y0, x1, y1) = (snap(a[0]), snap(a[1]), snap(b[0]), snap(b[1]));
    let (dxi, dyi) = (i64::from(x1) - i64::from(x0), i64::from(y1) - i64::from(y0));
    if dxi == 0 && dyi == 0 {
        return None;
    }
    let x_major = dxi.abs() >= dyi.abs();
    let (m0, n0, m1, n1) = if x_major {
        (x0, y0, x1, y1)
    } else {
        (y0, x0, y1, x1)
    };
    let (m0l, m1l) = (i64::from(m0), i64::from(m1));
    let (lo, hi) = if m1 > m0 {
        let hi = if last {
            m1l.div_euclid(256)
        } else {
            ceil_div(m1l, 256) - 1
        };
        (ceil_div(m0l, 256), hi)
    } else {
        let lo = if last {
            ceil_div(m1l, 256)
        } else {
            m1l.div_euclid(256) + 1
        };
        (lo, m0l.div_euclid(256))
    };
    let lc = LineCover {
        x_major,
        lo: lo as i32,
        hi: hi as i32,
        m0: m0l,
        n0: i64::from(n0),
        dm: m1l - m0l,
        dn: i64::from(n1) - i64::from(n0),
    };
    if lc.lo > lc.hi {
        return None;
    }
    // Bounding box of the covered pixels.
    let (na, nb) = (lc.minor(lc.lo), lc.minor(lc.hi));
    let (nlo, nhi) = (na.min(nb), na.max(nb));
    let bbox = if x_major {
        Rect::new(lc.lo, nlo, lc.hi + 1, nhi + 1)
    } else {
        Rect::new(nlo, lc.lo, nhi + 1, lc.hi + 1)
    }
    .intersect(&clip);
    if bbox.is_empty() {
        return None;
    }
    let dx = dxi as f32 * (1.0 / 256.0);
    let dy = dyi as f32 * (1.0 / 256.0);
    let len2 = dx * dx + dy * dy;
    let line_plane = |p: f32, q: f32| Plane {
        a0: p,
        ddx: (q - p) * dx / len2,
        ddy: (q - p) * dy / len2,
    };
    let persp_on = a[3] != b[3];
    let q = line_plane(a[3], b[3]);
    let attr_off = planes.len() as u32;
    let mut persp = 0u64;
    for (k, &inp) in inputs.iter().enumerate() {
        if flat & (1 << k) != 0 {
            planes.push(Plane::constant(buf.get(provoking)[HEADER + inp]));
        } else {
            planes.push(line_plane(
                attr_value(buf, v[0], inp, persp_on),
                attr_value(buf, v[1], inp, persp_on),
            ));
            if persp_on {
                persp |= 1 << k;
            }
        }
    }
    Some(PrimSetup {
        bbox,
        ox: x0,
        oy: y0,
        z: line_plane(a[2], b[2]),
        q,
        persp,
        attr_off,
        bias: 0.0,
        front: true,
        cover: Cover::Line(lc),
    })
}

/// The pixels a point of `size` at vertex `p` (screen x, y first) covers,
/// inside `clip`: the centres in [x - size/2, x + size/2) on each axis,
/// edges snapped to 16.8.
#[inline(always)]
pub(crate) fn point_bbox(p: &[f32], size: f32, clip: Rect) -> Rect {
    let h = size * 0.5;
    let (l, t, r, b) = (
        snap(p[0] - h),
        snap(p[1] - h),
        snap(p[0] + h),
        snap(p[1] + h),
    );
    Rect::new(
        ceil_div(i64::from(l), 256) as i32,
        ceil_div(i64::from(t), 256) as i32,
        ceil_div(i64::from(r), 256) as i32,
        ceil_div(i64::from(b), 256) as i32,
    )
    .intersect(&clip)
}

/// Sets up a point sprite of size `size` at vertex `v` (scalar; both
/// drivers use it): a square `(x ± size/2, y ± size/2)` whose pixels are
/// those with centres in `[left, right) x [top, bottom)` (the top-left rule
/// for the square's two triangles), constant attributes, and sprite
/// texture coordinates when `sprite`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn setup_point(
    buf: &VertexBuf,
    v: u32,
    size: f32,
    sprite: bool,
    inputs: &[usize],
    clip: Rect,
    planes: &mut Vec<Plane>,
    z_override: Option<(Plane, f32)>,
) -> Option<PrimSetup> {
    let p = buf.get(v);
    let bbox = point_bbox(p, size, clip);
    if bbox.is_empty() {
        return None;
    }
    let attr_off = planes.len() as u32;
    if !sprite {
        // Every attribute is the vertex's own value: one reservation.
        let vals = &p[HEADER..];
        planes.extend(inputs.iter().map(|&inp| Plane::constant(vals[inp])));
    } else {
        for &inp in inputs {
            let tex = inp >= crate::geom::ATTR_TEX0;
            let comp = (inp - crate::geom::ATTR_TEX0 * usize::from(tex)) % 4;
            planes.push(if tex && comp < 2 {
                // u grows with x, v with y: 0 at the left/top edge, 1 at the right/bottom.
                let d = 1.0 / size;
                if comp == 0 {
                    Plane {
                        a0: 0.5,
                        ddx: d,
                        ddy: 0.0,
                    }
                } else {
                    Plane {
                        a0: 0.5,
                        ddx: 0.0,
                        ddy: d,
                    }
                }
            } else {
                Plane::constant(p[HEADER + inp])
            });
        }
    }
    let (z, bias) = z_override.unwrap_or((Plane::constant(p[2]), 0.0));
    Some(PrimSetup {
        bbox,
        ox: snap(p[0]),
        oy: snap(p[1]),
        z,
        q: Plane::constant(p[3]),
        persp: 0,
        attr_off,
        bias,
        front: true,
        cover: Cover::Rect,
    })
}

#[cfg(test)]
mod snap_tests {
    use super::snap;

    fn libm(v: f32) -> i32 {
        (v * 256.0).round() as i32
    }

    /// The inline rounding equals `f32::round` around every half-way point
    /// of the guard band and beyond, and on special values.
    #[test]
    #[cfg_attr(miri, ignore = "hundreds of thousands of cases: too slow interpreted")]
    fn snap_equals_round() {
        let mut vs = vec![
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            1e-45,
            -1e-45,
            32768.0,
            -32768.0,
            8.4e6,
            -8.4e6,
            3e9,
            -3e9,
        ];
        // Half-way points n + 0.5 (in 1/256 pixels) and their neighbours.
        let mut n = -9000 * 256;
        while n <= 9000 * 256 {
            let h = (n as f32 + 0.5) / 256.0;
            for d in -2i32..=2 {
                vs.push(f32::from_bits((h.to_bits() as i32 + d) as u32));
            }
            n += 37;
        }
        // Every f32 bit pattern on a coarse stride.
        let mut b = 0u64;
        while b < 1 << 32 {
            vs.push(f32::from_bits(b as u32));
            b += 65_521;
        }
        for v in vs {
            assert_eq!(snap(v), libm(v), "v={v:e} ({:#x})", v.to_bits());
        }
    }

    /// Every f32: `cargo test --release --lib snap_exhaustive -- --ignored`.
    #[test]
    #[ignore = "exhaustive, slow without --release"]
    fn snap_exhaustive() {
        for b in 0..=u32::MAX {
            let v = f32::from_bits(b);
            assert_eq!(snap(v), libm(v), "v={v:e} ({b:#x})");
        }
    }
}
