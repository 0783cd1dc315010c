//! Warp set-up: culling and edges per triangle from its vertices' snapped
//! positions (integer, scalar; `raster::draw` snaps each vertex once),
//! then its attribute planes (z, q, then the inputs) as the lanes of one
//! vector, 8 planes at a time (the float part), each lane with the same
//! operations in the same order as `pixel::setup::tri_plane`. The whole
//! loop is one SIMD kernel, so nothing in it leaves the backend's context.

use crate::driver::DrawState;
use crate::driver::{Inputs, point_size};
use crate::geom::{HEADER, Prim, VertexBuf};
use crate::pixel::Plane;
use crate::pixel::setup::{
    Cover, Edge, PrimSetup, depth_offset, setup_line, setup_point, tri_plane,
};
use crate::simd::{FloatV, Kernel, Simd};
use crate::state::{Cull, FillMode, Rect};

/// A triangle that survived culling, waiting for its planes.
struct Pending {
    v: [u32; 3],
    provoking: u32,
    x: [i32; 3],
    y: [i32; 3],
    front: bool,
    /// Twice the area in 16.8 units squared (positive: clockwise order).
    area: i64,
    bbox: Rect,
    /// Original (unswapped) vertex order, for wireframe edges.
    orig: [u32; 3],
}

/// Sets up every primitive of a draw, in order, into `out` (planes into `planes`).
/// `snapped` holds every vertex's snapped position when `prims` are
/// triangles.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    st: &DrawState,
    buf: &VertexBuf,
    snapped: &[[i32; 2]],
    prims: &[Prim],
    inputs: &Inputs<'_>,
    backend: crate::simd::Backend,
    out: &mut Vec<PrimSetup>,
    planes: &mut Vec<Plane>,
) {
    crate::simd::dispatch(
        backend,
        Build {
            st,
            buf,
            snapped,
            prims,
            inputs,
            out,
            planes,
        },
    );
}

/// [`build`] as one SIMD kernel: the whole loop runs under one backend.
struct Build<'a, 'i> {
    st: &'a DrawState,
    buf: &'a VertexBuf,
    snapped: &'a [[i32; 2]],
    prims: &'a [Prim],
    inputs: &'a Inputs<'i>,
    out: &'a mut Vec<PrimSetup>,
    planes: &'a mut Vec<Plane>,
}

impl Kernel for Build<'_, '_> {
    type Output = ();
    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let Build {
            st,
            buf,
            snapped,
            prims,
            inputs,
            out,
            planes,
        } = self;
        let flat = if st.flat { inputs.flat } else { 0 };
        let window = input_window(inputs.list, buf.stride);
        for prim in prims {
            match *prim {
                Prim::Point(v) => {
                    let size = point_size(st, buf, v);
                    if let Some(p) = setup_point(
                        buf,
                        v,
                        size,
                        st.point_sprite,
                        inputs.list,
                        st.clip,
                        planes,
                        None,
                    ) {
                        out.push(p);
                    }
                }
                Prim::Line { v, provoking, last } => {
                    let last = last && st.last_pixel;
                    if let Some(p) =
                        setup_line(buf, v, provoking, last, inputs.list, flat, st.clip, planes)
                    {
                        out.push(p);
                    }
                }
                Prim::Tri { v, provoking } => {
                    if let Some(p) = cull_and_edges(st, snapped, v, provoking) {
                        tri(s, st, buf, inputs, flat, window, &p, out, planes);
                    }
                }
            }
        }
    }
}

/// The culling verdict of triangle `v` and, when it survives, its
/// clockwise vertices, snapped positions and clipped bounding box.
/// Inlined into the set-up kernel: as a call per triangle (returning its
/// 72-byte record through memory) it was 3 % of the small-triangle scene
/// S2's instructions.
#[inline(always)]
fn cull_and_edges(
    st: &DrawState,
    snapped: &[[i32; 2]],
    v: [u32; 3],
    provoking: u32,
) -> Option<Pending> {
    let orig = v;
    let mut v = v;
    // Written out: `array::map` is a closure call that does not inline here.
    let (p0, p1, p2) = (
        snapped[v[0] as usize],
        snapped[v[1] as usize],
        snapped[v[2] as usize],
    );
    let mut x = [p0[0], p1[0], p2[0]];
    let mut y = [p0[1], p1[1], p2[1]];
    let area = (i64::from(x[1]) - i64::from(x[0])) * (i64::from(y[2]) - i64::from(y[0]))
        - (i64::from(x[2]) - i64::from(x[0])) * (i64::from(y[1]) - i64::from(y[0]));
    let front = area > 0;
    match st.cull {
        Cull::Cw if front => return None,
        Cull::Ccw if !front => return None,
        _ => {}
    }
    if area == 0 {
        return None;
    }
    if area < 0 {
        v.swap(1, 2);
        x.swap(1, 2);
        y.swap(1, 2);
    }
    let (xmin, xmax) = (x[0].min(x[1]).min(x[2]), x[0].max(x[1]).max(x[2]));
    let (ymin, ymax) = (y[0].min(y[1]).min(y[2]), y[0].max(y[1]).max(y[2]));
    let bbox = Rect::new(
        (xmin + 255).div_euclid(256),
        (ymin + 255).div_euclid(256),
        xmax.div_euclid(256) + 1,
        ymax.div_euclid(256) + 1,
    )
    .intersect(&st.clip);
    if bbox.is_empty() && st.fill == FillMode::Solid {
        return None;
    }
    Some(Pending {
        v,
        provoking,
        x,
        y,
        front,
        area: area.abs(),
        bbox,
        orig,
    })
}

/// The planes of triangle `p` (z, q, then the inputs) and its set-up.
/// The planes are lanes of one vector (8 at a time): each lane runs
/// `pixel::setup::tri_plane`'s operations in its order, so the bits are
/// the Reference driver's.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn tri<S: Simd>(
    s: S,
    st: &DrawState,
    buf: &VertexBuf,
    inputs: &Inputs<'_>,
    flat: u64,
    window: Option<InputWindow>,
    p: &Pending,
    out: &mut Vec<PrimSetup>,
    planes: &mut Vec<Plane>,
) {
    let (x, y) = (p.x, p.y);
    let d = [
        (x[1] - x[0]) as f32 * (1.0 / 256.0),
        (y[1] - y[0]) as f32 * (1.0 / 256.0),
        (x[2] - x[0]) as f32 * (1.0 / 256.0),
        (y[2] - y[0]) as f32 * (1.0 / 256.0),
    ];
    let [dx1, dy1, dx2, dy2] = [s.splat(d[0]), s.splat(d[1]), s.splat(d[2]), s.splat(d[3])];
    // The area of the clockwise order, computed once by the culling.
    let a = p.area;
    let inv_s = 1.0 / (a as f32 * (1.0 / 65536.0));
    let inv = s.splat(inv_s);
    let vs = [buf.get(p.v[0]), buf.get(p.v[1]), buf.get(p.v[2])];
    let persp_on = !(vs[0][3] == vs[1][3] && vs[1][3] == vs[2][3]);
    let list = inputs.list;
    let n_in = list.len();
    let attr_off = planes.len() as u32;
    planes.reserve(n_in);
    let (mut z, mut q) = (Plane::default(), Plane::default());
    // The inputs a window of 16 floats of the row holds: loaded as
    // vectors straight from the rows (no lane-by-lane copy through memory,
    // whose reload as a vector cannot be forwarded from the scalar
    // stores), every lane of the window set up, the listed ones kept; z
    // and q scalar.
    if let Some(win) = window {
        z = tri_plane(d, inv_s, [vs[0][2], vs[1][2], vs[2][2]]);
        q = tri_plane(d, inv_s, [vs[0][3], vs[1][3], vs[2][3]]);
        let mut a0 = [0f32; 16];
        let mut ddx = [0f32; 16];
        let mut ddy = [0f32; 16];
        let dense = win.dense && flat == 0;
        for half in 0..win.halves {
            let at = win.start + 8 * half;
            let v0 = window_row(s, vs[0], at, persp_on);
            let v1 = window_row(s, vs[1], at, persp_on);
            let v2 = window_row(s, vs[2], at, persp_on);
            let (da1, da2) = (v1 - v0, v2 - v0);
            let (vx, vy) = ((da1 * dy2 - da2 * dy1) * inv, (da2 * dx1 - da1 * dx2) * inv);
            if dense {
                // Lane k is input k: the eight records (a0, ddx, ddy)
                // interleaved in registers and appended whole, the ones
                // past the list cut off again (a fixed-size copy; picking
                // the lanes back out of memory one by one waited on the
                // vector stores).
                let [r0, r1, r2] = s.interleave3(v0, vx, vy);
                let mut recs = [Plane::default(); 8];
                let floats: &mut [f32] = bytemuck::cast_slice_mut(&mut recs);
                r0.store(&mut floats[..8]);
                r1.store(&mut floats[8..16]);
                r2.store(&mut floats[16..24]);
                planes.extend_from_slice(&recs);
                planes.truncate(attr_off as usize + n_in);
                break;
            }
            let lanes = 8 * half..8 * half + 8;
            a0[lanes.clone()].copy_from_slice(&v0.to_array());
            ddx[lanes.clone()].copy_from_slice(&vx.to_array());
            ddy[lanes].copy_from_slice(&vy.to_array());
        }
        // Lane `HEADER + i - start` of the window holds input `i` (below
        // 16 by the window's construction; masked to keep the indexing
        // check-free).
        let window_plane = |i: usize| {
            let l = (HEADER + i - win.start) & 15;
            Plane {
                a0: a0[l],
                ddx: ddx[l],
                ddy: ddy[l],
            }
        };
        if dense {
            // Appended above.
        } else if flat == 0 {
            // One reservation for all (a sized extend), not a capacity
            // test per push: this is once per triangle.
            planes.extend(list.iter().map(|&i| window_plane(i)));
        } else {
            let provoking = buf.get(p.provoking);
            for (k, &i) in list.iter().enumerate() {
                planes.push(if flat & (1 << k) != 0 {
                    Plane::constant(provoking[HEADER + i])
                } else {
                    window_plane(i)
                });
            }
        }
    } else {
        planes_by_chunks(
            s,
            buf,
            list,
            flat,
            [dx1, dy1, dx2, dy2],
            inv,
            persp_on,
            p,
            &vs,
            &mut z,
            &mut q,
            planes,
        );
    }
    // Inputs that are not flat: perspective-corrected when `q` varies.
    let smooth = !flat & u64::MAX.checked_shr(64 - n_in as u32).unwrap_or(0);
    let persp = if persp_on { smooth } else { 0 };
    let tri = PrimSetup {
        bbox: p.bbox,
        ox: p.x[0],
        oy: p.y[0],
        z,
        q,
        persp,
        attr_off,
        bias: depth_offset(&z, st.slope_bias, st.depth_bias),
        front: p.front,
        cover: Cover::Tri([
            Edge::new(p.x[0], p.y[0], p.x[1], p.y[1]),
            Edge::new(p.x[1], p.y[1], p.x[2], p.y[2]),
            Edge::new(p.x[2], p.y[2], p.x[0], p.y[0]),
        ]),
    };
    match st.fill {
        FillMode::Solid => out.push(tri),
        FillMode::Wireframe | FillMode::Point => {
            // Edges or vertices with the triangle's bias and face (rasterization.md 7).
            planes.truncate(attr_off as usize);
            for k in 0..3 {
                let v = p.orig;
                let e = if st.fill == FillMode::Wireframe {
                    setup_line(
                        buf,
                        [v[k], v[(k + 1) % 3]],
                        p.provoking,
                        false,
                        inputs.list,
                        flat,
                        st.clip,
                        planes,
                    )
                } else {
                    let size = point_size(st, buf, v[k]);
                    let zc = Plane::constant(buf.get(v[k])[2]);
                    setup_point(
                        buf,
                        v[k],
                        size,
                        st.point_sprite,
                        inputs.list,
                        st.clip,
                        planes,
                        Some((zc, tri.bias)),
                    )
                };
                if let Some(mut e) = e {
                    e.bias = tri.bias;
                    e.front = tri.front;
                    out.push(e);
                }
            }
        }
    }
}

/// The planes of a triangle 8 at a time, lane by lane: z, q and 6 inputs,
/// then 8 inputs at a time (any input list).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn planes_by_chunks<S: Simd>(
    s: S,
    buf: &VertexBuf,
    list: &[usize],
    flat: u64,
    [dx1, dy1, dx2, dy2]: [S::F; 4],
    inv: S::F,
    persp_on: bool,
    p: &Pending,
    vs: &[&[f32]; 3],
    z: &mut Plane,
    q: &mut Plane,
    planes: &mut Vec<Plane>,
) {
    let n_in = list.len();
    // Chunks of 8 planes: z, q and 6 inputs, then 8 inputs at a time.
    let mut first_input = 0;
    let mut lane0 = 2;
    loop {
        let ins = &list[first_input..(first_input + 8 - lane0).min(n_in)];
        let lanes = lane0..lane0 + ins.len();
        let mut vals = [[0f32; 8]; 3];
        for (row, vals) in vs.iter().zip(vals.iter_mut()) {
            let w = row[3];
            if lane0 == 2 {
                vals[0] = row[2];
                vals[1] = w;
            }
            let dst = &mut vals[lanes.clone()];
            if persp_on {
                for (d, &i) in dst.iter_mut().zip(ins) {
                    *d = row[HEADER + i] * w;
                }
            } else {
                for (d, &i) in dst.iter_mut().zip(ins) {
                    *d = row[HEADER + i];
                }
            }
        }
        let (v0, v1, v2) = (s.f32s(vals[0]), s.f32s(vals[1]), s.f32s(vals[2]));
        let (da1, da2) = (v1 - v0, v2 - v0);
        let ddx = ((da1 * dy2 - da2 * dy1) * inv).to_array();
        let ddy = ((da2 * dx1 - da1 * dx2) * inv).to_array();
        let plane = |l: usize| Plane {
            a0: vals[0][l],
            ddx: ddx[l],
            ddy: ddy[l],
        };
        if lane0 == 2 {
            (*z, *q) = (plane(0), plane(1));
        }
        if flat == 0 {
            planes.extend(lanes.map(plane));
        } else {
            let provoking = buf.get(p.provoking);
            for (l, &i) in lanes.zip(ins) {
                let k = first_input + l - lane0;
                planes.push(if flat & (1 << k) != 0 {
                    Plane::constant(provoking[HEADER + i])
                } else {
                    plane(l)
                });
            }
        }
        first_input += ins.len();
        lane0 = 0;
        if first_input >= n_in {
            break;
        }
    }
}

/// Where a draw's inputs sit in its vertex rows when they all fall in 16
/// consecutive floats (one or two vectors) from the first of them: the
/// set-up computes every lane of that window and keeps the listed ones
/// (the fixed-function texture stage lists colours and coordinates
/// interleaved, not as one run).
#[derive(Clone, Copy, Debug)]
struct InputWindow {
    /// The window's first float in a row.
    start: usize,
    /// Vectors of 8 floats the window spans (1 or 2).
    halves: usize,
    /// The list is the window's first lanes in order (input `k` of the
    /// list in lane `k`, at most 8): the planes' records come out of the
    /// vectors in list order.
    dense: bool,
}

/// The [`InputWindow`] of `list` in rows of `stride` floats, if any.
fn input_window(list: &[usize], stride: usize) -> Option<InputWindow> {
    let first = *list.iter().min()?;
    let last = *list.iter().max()?;
    let start = HEADER + first;
    let dense = list.len() <= 8 && list.iter().enumerate().all(|(k, &i)| i == first + k);
    (last - first < 16 && HEADER + last < stride).then_some(InputWindow {
        start,
        halves: if last - first < 8 { 1 } else { 2 },
        dense,
    })
}

/// The 8 floats of vertex row `row` from `at`, times the row's w (its last
/// float) when `persp`: one window half of [`tri`]'s inputs. A function,
/// not a closure, so that it is compiled inside the AVX2 trampoline (see
/// `crate::simd::each`).
#[inline(always)]
fn window_row<S: Simd>(s: S, row: &[f32], at: usize, persp: bool) -> S::F {
    // A row shorter than the window (its last inputs near the row's end)
    // leaves the lanes past it at zero: unlisted.
    let v = s.load_f32_prefix(row.get(at..).unwrap_or(&[]));
    if persp { v * s.splat(row[3]) } else { v }
}
