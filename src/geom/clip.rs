//! Clipping: homogeneous Sutherland–Hodgman against planes `p · (x, y, z, w) >= 0`
//! (near `z >= 0`, far `z <= w`, guard band, user planes), with attributes
//! interpolated linearly in clip space (perspective-correct), and the
//! pre-transformed front end that discards invalid primitives and clips
//! only what crosses the guard band (rasterization.md 4).

use super::{HEADER, Prim, VertexBuf};

/// The guard band of caps.md: x and y in [-GUARD, GUARD] pixels.
pub(crate) const GUARD: f32 = 8192.0;

/// One clipping plane: kept where the distance is `>= 0`. A NaN distance
/// counts as outside, in every function here and in the outcodes of
/// `pipeline::vertex_pass`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ClipPlane {
    /// `p · (x, y, z, w)` of the homogeneous position.
    Homogeneous([f32; 4]),
    /// A precomputed distance stored at this float of the vertex (the
    /// fixed-function user clip distances, linear in clip space).
    Stored(usize),
}

impl ClipPlane {
    /// The signed distance of `v` (`pipeline::vertex_pass` repeats the
    /// homogeneous expression, in this order, so outcodes agree with it).
    #[inline]
    pub(crate) fn dist(&self, v: &[f32]) -> f32 {
        match *self {
            ClipPlane::Homogeneous(p) => p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3],
            ClipPlane::Stored(i) => v[i],
        }
    }
}

/// Sutherland–Hodgman clip of a convex polygon (`stride` floats per
/// vertex: x, y, z, w, then the rest interpolated) against `planes`.
/// A vertex whose distance is NaN is outside and yields no intersection
/// (there is no point to interpolate towards): it is simply dropped.
pub(crate) fn clip_polygon<'p>(
    poly: Vec<f32>,
    stride: usize,
    planes: impl IntoIterator<Item = &'p ClipPlane>,
) -> Vec<f32> {
    let mut cur = poly;
    let mut next = Vec::with_capacity(cur.len() * 2);
    for p in planes {
        let n = cur.len() / stride;
        if n == 0 {
            break;
        }
        next.clear();
        for i in 0..n {
            let a = &cur[i * stride..(i + 1) * stride];
            let b = &cur[((i + 1) % n) * stride..((i + 1) % n + 1) * stride];
            let (da, db) = (p.dist(a), p.dist(b));
            if da >= 0.0 {
                next.extend_from_slice(a);
            }
            if (da >= 0.0 && db < 0.0) || (da < 0.0 && db >= 0.0) {
                let t = da / (da - db);
                next.extend(a.iter().zip(b).map(|(&x, &y)| x + t * (y - x)));
            }
        }
        std::mem::swap(&mut cur, &mut next);
    }
    cur
}

/// Clips the segment `a`–`b` (homogeneous vertices) against `planes`;
/// None if nothing is left. An end with a NaN distance is outside with
/// no intersection to cut at, so the segment is dropped (as a polygon
/// drops such a vertex).
pub(crate) fn clip_segment(
    a: &[f32],
    b: &[f32],
    planes: &[ClipPlane],
) -> Option<(Vec<f32>, Vec<f32>)> {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for p in planes {
        let (da, db) = (p.dist(a), p.dist(b));
        if da.is_nan() || db.is_nan() || (da < 0.0 && db < 0.0) {
            return None;
        }
        if da < 0.0 {
            t0 = t0.max(da / (da - db));
        } else if db < 0.0 {
            t1 = t1.min(da / (da - db));
        }
    }
    if t0 > t1 {
        return None;
    }
    let lerp = |t: f32| -> Vec<f32> { a.iter().zip(b).map(|(&x, &y)| x + t * (y - x)).collect() };
    Some((lerp(t0), lerp(t1)))
}

/// The guard-band planes in the homogeneous form of pre-transformed vertices.
const GUARD_PLANES: [ClipPlane; 4] = [
    ClipPlane::Homogeneous([1.0, 0.0, 0.0, GUARD]),
    ClipPlane::Homogeneous([-1.0, 0.0, 0.0, GUARD]),
    ClipPlane::Homogeneous([0.0, 1.0, 0.0, GUARD]),
    ClipPlane::Homogeneous([0.0, -1.0, 0.0, GUARD]),
];

fn valid(v: &[f32]) -> bool {
    v[..4].iter().all(|c| c.is_finite()) && v[3] > 0.0
}

fn inside_guard(v: &[f32]) -> bool {
    v[0].abs() <= GUARD && v[1].abs() <= GUARD
}

/// Screen vertex → homogeneous (x·w, y·w, z·w, w) with w = 1/rhw; attributes kept.
fn to_homogeneous(v: &[f32]) -> Vec<f32> {
    let w = 1.0 / v[3];
    let mut h = v.to_vec();
    h[0] = v[0] * w;
    h[1] = v[1] * w;
    h[2] = v[2] * w;
    h[3] = w;
    h
}

/// Vertices per task of [`clip_pretransformed`]'s parallel test.
const CLIP_CHUNK: usize = 4096;

/// Homogeneous → screen vertex, clamped into the guard band against rounding.
fn to_screen(h: &[f32]) -> Vec<f32> {
    let mut v = h.to_vec();
    let w = h[3];
    v[0] = (h[0] / w).clamp(-GUARD, GUARD);
    v[1] = (h[1] / w).clamp(-GUARD, GUARD);
    v[2] = h[2] / w;
    v[3] = 1.0 / w;
    v
}

/// The pre-transformed front end: drops primitives with a non-finite
/// position or `rhw <= 0` (rasterization.md 4.4), drops points outside the
/// guard band, and clips lines and triangles that cross it (new vertices
/// are appended to `buf`; clipped polygons become fans that keep the
/// winding and the provoking vertex).
/// With a `pool` (Warp), the common case's test of a large buffer runs on
/// it: a verdict per vertex, so the split cannot change the result.
pub(crate) fn clip_pretransformed(
    buf: &mut VertexBuf,
    prims: Vec<Prim>,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<Prim> {
    use rayon::prelude::*;
    let stride = buf.stride;
    // Every vertex usable and inside the guard band (the common case):
    // every primitive stays as it is. Tested first without the per-vertex
    // verdicts below (serial, it was about 2.5 % of the small-triangle
    // scene S2's two-thread frame).
    let row = stride.max(1);
    let all_inside = |rows: &[f32]| rows.chunks_exact(row).all(|v| valid(v) && inside_guard(v));
    let common = match pool {
        Some(pool) if buf.data.len() >= 2 * CLIP_CHUNK * row => {
            pool.install(|| buf.data.par_chunks(CLIP_CHUNK * row).all(all_inside))
        }
        _ => all_inside(&buf.data),
    };
    if common {
        return prims;
    }
    // Each vertex judged once (a vertex of an indexed mesh serves several
    // primitives): bit 0 usable, bit 1 also inside the guard band. Clipping
    // appends vertices, but no input primitive names those.
    let kinds: Vec<u8> = buf
        .data
        .chunks_exact(stride.max(1))
        .map(|v| {
            let ok = valid(v);
            u8::from(ok) | (u8::from(ok && inside_guard(v)) << 1)
        })
        .collect();
    let kind = |i: u32| kinds[i as usize];
    let mut out = Vec::with_capacity(prims.len());
    for p in prims {
        match p {
            Prim::Point(v) => {
                if kind(v) & 2 != 0 {
                    out.push(p);
                }
            }
            Prim::Line { v, provoking, last } => {
                let k = kind(v[0]) & kind(v[1]);
                if k & 1 == 0 {
                    continue;
                }
                if k & 2 != 0 {
                    out.push(p);
                    continue;
                }
                let (a, b) = (buf.get(v[0]), buf.get(v[1]));
                let (ha, hb) = (to_homogeneous(a), to_homogeneous(b));
                if let Some((ca, cb)) = clip_segment(&ha, &hb, &GUARD_PLANES) {
                    let na = buf.push(&to_screen(&ca));
                    let nb = buf.push(&to_screen(&cb));
                    out.push(Prim::Line {
                        v: [na, nb],
                        provoking,
                        last,
                    });
                }
            }
            Prim::Tri { v, provoking } => {
                let k = kind(v[0]) & kind(v[1]) & kind(v[2]);
                if k & 1 == 0 {
                    continue;
                }
                if k & 2 != 0 {
                    out.push(p);
                    continue;
                }
                let vs = v.map(|i| buf.get(i));
                let poly: Vec<f32> = vs.iter().flat_map(|x| to_homogeneous(x)).collect();
                let poly = clip_polygon(poly, stride, &GUARD_PLANES);
                let n = poly.len() / stride;
                if n < 3 {
                    continue;
                }
                let ids: Vec<u32> = (0..n)
                    .map(|i| buf.push(&to_screen(&poly[i * stride..(i + 1) * stride])))
                    .collect();
                for i in 1..n - 1 {
                    out.push(Prim::Tri {
                        v: [ids[0], ids[i], ids[i + 1]],
                        provoking,
                    });
                }
            }
        }
    }
    let _ = HEADER;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEAR: ClipPlane = ClipPlane::Homogeneous([0.0, 0.0, 1.0, 0.0]);
    const FAR: ClipPlane = ClipPlane::Homogeneous([0.0, 0.0, -1.0, 1.0]);

    #[test]
    fn a_nan_distance_is_outside_for_polygons_and_segments() {
        // A quad whose vertex 1 has a NaN stored distance (float 4): that
        // vertex is dropped, and its two edges cut nothing.
        let d = ClipPlane::Stored(4);
        let poly = vec![
            0.0,
            0.0,
            0.5,
            1.0,
            1.0, //
            1.0,
            0.0,
            0.5,
            1.0,
            f32::NAN, //
            1.0,
            1.0,
            0.5,
            1.0,
            2.0, //
            0.0,
            1.0,
            0.5,
            1.0,
            3.0,
        ];
        let out = clip_polygon(poly, 5, &[d]);
        assert_eq!(
            out,
            vec![
                0.0, 0.0, 0.5, 1.0, 1.0, //
                1.0, 1.0, 0.5, 1.0, 2.0, //
                0.0, 1.0, 0.5, 1.0, 3.0,
            ]
        );
        // The same through a homogeneous plane: a NaN position.
        let poly = vec![
            0.0,
            0.0,
            f32::NAN,
            1.0,
            0.0, //
            1.0,
            0.0,
            0.5,
            1.0,
            0.0, //
            0.0,
            1.0,
            0.5,
            1.0,
            0.0,
        ];
        let out = clip_polygon(poly, 5, &[NEAR]);
        assert_eq!(out, vec![1.0, 0.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.5, 1.0, 0.0]);
        // A segment with one NaN end is dropped, whichever end it is.
        let (a, b) = ([0.0, 0.0, 0.5, 1.0, 1.0], [1.0, 0.0, 0.5, 1.0, f32::NAN]);
        assert_eq!(clip_segment(&a, &b, &[d]), None);
        assert_eq!(clip_segment(&b, &a, &[d]), None);
        assert_eq!(clip_segment(&a, &a, &[d]), Some((a.to_vec(), a.to_vec())));
    }

    #[test]
    fn near_plane_cuts_triangle_into_quad() {
        // One vertex behind the near plane (z < 0): two intersections → 4 vertices.
        let poly = vec![
            0.0, 0.0, -1.0, 1.0, 10.0, //
            1.0, 0.0, 1.0, 1.0, 20.0, //
            0.0, 1.0, 1.0, 1.0, 30.0,
        ];
        let out = clip_polygon(poly, 5, &[NEAR, FAR]);
        assert_eq!(out.len() / 5, 4);
        // The cut on edge 0-1 is at t = 0.5: z = 0 and the attribute halfway.
        assert_eq!(&out[0..5], &[0.5, 0.0, 0.0, 1.0, 15.0]);
    }

    #[test]
    fn far_plane_and_w_behind_eye() {
        // Entirely beyond the far plane (z > w): nothing left.
        let poly = vec![
            0.0, 0.0, 2.0, 1.0, 0.0, 1.0, 0.0, 2.0, 1.0, 0.0, 0.0, 1.0, 3.0, 1.0, 0.0,
        ];
        assert!(clip_polygon(poly, 5, &[NEAR, FAR]).is_empty());
        // w <= 0 everywhere with z <= 0 ... behind the eye: near removes it.
        let poly = vec![
            0.0, 0.0, -1.0, -1.0, 0.0, 1.0, 0.0, -2.0, -1.0, 0.0, 0.0, 1.0, -0.5, -2.0, 0.0,
        ];
        assert!(clip_polygon(poly, 5, &[NEAR, FAR]).is_empty());
    }

    #[test]
    fn user_plane_keeps_non_negative_side() {
        // Plane x >= 0.25w.
        let plane = ClipPlane::Homogeneous([1.0, 0.0, 0.0, -0.25]);
        let (a, b) = clip_segment(&[0.0, 0.0, 0.5, 1.0], &[1.0, 0.0, 0.5, 1.0], &[plane]).unwrap();
        assert_eq!(a[0], 0.25);
        assert_eq!(b[0], 1.0);
        assert!(clip_segment(&[0.0, 0.0, 0.5, 1.0], &[0.2, 0.0, 0.5, 1.0], &[plane]).is_none());
    }

    #[test]
    fn pretransformed_guard_band_and_invalid() {
        let mut buf = VertexBuf {
            stride: 6,
            data: vec![
                0.0,
                0.0,
                0.5,
                1.0,
                0.0,
                1.0, //
                20000.0,
                0.0,
                0.5,
                1.0,
                0.0,
                2.0, //
                0.0,
                100.0,
                0.5,
                1.0,
                0.0,
                3.0, //
                f32::NAN,
                0.0,
                0.5,
                1.0,
                0.0,
                0.0, //
                5.0,
                5.0,
                0.5,
                -1.0,
                0.0,
                0.0,
            ],
        };
        let prims = vec![
            Prim::Tri {
                v: [0, 1, 2],
                provoking: 0,
            },
            Prim::Tri {
                v: [0, 3, 2],
                provoking: 0,
            },
            Prim::Tri {
                v: [0, 4, 2],
                provoking: 0,
            },
        ];
        let out = clip_pretransformed(&mut buf, prims, None);
        // The first is clipped at x = 8192 into a quad (2 triangles); the others are dropped.
        assert_eq!(out.len(), 2);
        let xs: Vec<f32> = (5..buf.len() as u32).map(|i| buf.get(i)[0]).collect();
        assert!(xs.iter().all(|&x| x <= GUARD));
        assert!(xs.contains(&8192.0));
    }

    /// A large buffer's common-case test on a pool gives the serial
    /// verdict: every primitive kept when all vertices are usable and
    /// inside, and the one naming a bad vertex (NaN, rhw 0, or outside the
    /// guard band) dropped or clipped, wherever in the buffer it lies.
    #[test]
    fn the_parallel_common_case_test_is_the_serial_one() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let n = 3 * 5000;
        let stride = 6;
        let grid = |bad: Option<(usize, usize, f32)>| {
            let mut data = Vec::with_capacity(n * stride);
            for v in 0..n {
                data.extend([(v % 100) as f32, (v / 100) as f32, 0.5, 1.0, 0.0, 0.25]);
            }
            if let Some((v, c, x)) = bad {
                data[v * stride + c] = x;
            }
            VertexBuf { stride, data }
        };
        let prims: Vec<Prim> = (0..n as u32 / 3)
            .map(|t| Prim::Tri {
                v: [3 * t, 3 * t + 1, 3 * t + 2],
                provoking: 3 * t,
            })
            .collect();
        for bad in [
            None,
            Some((11_999, 0, f32::NAN)),
            Some((4, 3, 0.0)),
            Some((8_193, 1, -9000.0)),
        ] {
            let (mut serial, mut parallel) = (grid(bad), grid(bad));
            let a = clip_pretransformed(&mut serial, prims.clone(), None);
            let b = clip_pretransformed(&mut parallel, prims.clone(), Some(&pool));
            assert_eq!(a, b, "{bad:?}");
            let bits = |b: &VertexBuf| b.data.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(
                bits(&serial) == bits(&parallel),
                "{bad:?}: the appended vertices differ"
            );
            match bad {
                None => assert_eq!(a, prims),
                Some((_, 1, _)) => assert!(a.len() > prims.len() - 1),
                Some(_) => assert_eq!(a.len(), prims.len() - 1),
            }
        }
    }
}
