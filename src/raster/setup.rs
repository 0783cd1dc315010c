//! Warp set-up: culling and edges per triangle from its vertices' snapped
//! positions (integer, scalar; `raster::draw` snaps each vertex once),
//! then the attribute planes of 8 triangles at once in SoA (the float part),
//! with the same operations in the same order as `pixel::setup::tri_plane`.

use crate::geom::{HEADER, Prim, VertexBuf};
use crate::pipeline::state::DrawState;
use crate::pixel::setup::{Cover, Edge, PrimSetup, depth_offset, setup_line, setup_point};
use crate::pixel::{Plane, fmax, fmin};
use crate::reference::{Inputs, point_size};
use crate::simd::{FloatV, Kernel, Simd};
use crate::state::{Cull, FillMode, Rect};

/// A triangle that survived culling, waiting for its planes.
struct Pending {
    v: [u32; 3],
    provoking: u32,
    x: [i32; 3],
    y: [i32; 3],
    front: bool,
    bbox: Rect,
    /// Original (unswapped) vertex order, for wireframe edges.
    orig: [u32; 3],
}

/// Planes of up to 8 triangles: per plane, the 3 vertex values per lane.
struct Batch<'a> {
    d: [[f32; 8]; 4],
    area: [f32; 8],
    /// `vals[p][j][lane]`: plane p, vertex j.
    vals: &'a [[[f32; 8]; 3]],
    /// Receives one `[Plane; 8]` per plane (cleared first).
    out: &'a mut Vec<[Plane; 8]>,
}

impl Kernel for Batch<'_> {
    type Output = ();
    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let dx1 = s.f32s(self.d[0]);
        let dy1 = s.f32s(self.d[1]);
        let dx2 = s.f32s(self.d[2]);
        let dy2 = s.f32s(self.d[3]);
        let inv = s.splat(1.0) / s.f32s(self.area);
        let out = self.out;
        out.clear();
        for v in self.vals {
            let (v0, v1, v2) = (s.f32s(v[0]), s.f32s(v[1]), s.f32s(v[2]));
            let (da1, da2) = (v1 - v0, v2 - v0);
            let ddx = ((da1 * dy2 - da2 * dy1) * inv).to_array();
            let ddy = ((da2 * dx1 - da1 * dx2) * inv).to_array();
            let mut p = [Plane::default(); 8];
            for l in 0..8 {
                p[l] = Plane {
                    a0: v[0][l],
                    ddx: ddx[l],
                    ddy: ddy[l],
                };
            }
            out.push(p);
        }
    }
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
    let flat = if st.flat { inputs.flat } else { 0 };
    let mut pending: Vec<Pending> = Vec::with_capacity(8);
    let mut bufs = FlushBufs::default();
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
                    pending.push(p);
                    if pending.len() == 8 {
                        flush(
                            st,
                            buf,
                            inputs,
                            flat,
                            backend,
                            &mut pending,
                            &mut bufs,
                            out,
                            planes,
                        );
                    }
                }
            }
        }
    }
    flush(
        st,
        buf,
        inputs,
        flat,
        backend,
        &mut pending,
        &mut bufs,
        out,
        planes,
    );
}

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
        bbox,
        orig,
    })
}

/// Buffers [`flush`] reuses from batch to batch.
#[derive(Default)]
struct FlushBufs {
    vals: Vec<[[f32; 8]; 3]>,
    res: Vec<[Plane; 8]>,
}

#[allow(clippy::too_many_arguments)]
fn flush(
    st: &DrawState,
    buf: &VertexBuf,
    inputs: &Inputs<'_>,
    flat: u64,
    backend: crate::simd::Backend,
    pending: &mut Vec<Pending>,
    bufs: &mut FlushBufs,
    out: &mut Vec<PrimSetup>,
    planes: &mut Vec<Plane>,
) {
    if pending.is_empty() {
        return;
    }
    let n_in = inputs.list.len();
    let mut d = [[0f32; 8]; 4];
    let mut area = [1f32; 8];
    // Planes: z, q, then the inputs.
    let vals = &mut bufs.vals;
    vals.clear();
    vals.resize(2 + n_in, [[0f32; 8]; 3]);
    let mut persp_on = [false; 8];
    for (l, p) in pending.iter().enumerate() {
        let (x, y) = (p.x, p.y);
        d[0][l] = (x[1] - x[0]) as f32 * (1.0 / 256.0);
        d[1][l] = (y[1] - y[0]) as f32 * (1.0 / 256.0);
        d[2][l] = (x[2] - x[0]) as f32 * (1.0 / 256.0);
        d[3][l] = (y[2] - y[0]) as f32 * (1.0 / 256.0);
        let a = (i64::from(x[1]) - i64::from(x[0])) * (i64::from(y[2]) - i64::from(y[0]))
            - (i64::from(x[2]) - i64::from(x[0])) * (i64::from(y[1]) - i64::from(y[0]));
        area[l] = a as f32 * (1.0 / 65536.0);
        let vs = [buf.get(p.v[0]), buf.get(p.v[1]), buf.get(p.v[2])];
        persp_on[l] = !(vs[0][3] == vs[1][3] && vs[1][3] == vs[2][3]);
        for j in 0..3 {
            vals[0][j][l] = vs[j][2];
            vals[1][j][l] = vs[j][3];
            for (k, &inp) in inputs.list.iter().enumerate() {
                let a = vs[j][HEADER + inp];
                vals[2 + k][j][l] = if persp_on[l] { a * vs[j][3] } else { a };
            }
        }
    }
    crate::simd::dispatch(
        backend,
        Batch {
            d,
            area,
            vals,
            out: &mut bufs.res,
        },
    );
    let res = &bufs.res;
    // Inputs that are not flat: perspective-corrected when `q` varies.
    let smooth = !flat & u64::MAX.checked_shr(64 - n_in as u32).unwrap_or(0);
    for (l, p) in pending.drain(..).enumerate() {
        let z = res[0][l];
        let attr_off = planes.len() as u32;
        if flat == 0 {
            // One reservation per primitive (no capacity check per plane).
            planes.extend(res[2..2 + n_in].iter().map(|r| r[l]));
        } else {
            let provoking = buf.get(p.provoking);
            planes.extend((0..n_in).map(|k| {
                if flat & (1 << k) != 0 {
                    Plane::constant(provoking[HEADER + inputs.list[k]])
                } else {
                    res[2 + k][l]
                }
            }));
        }
        let persp = if persp_on[l] { smooth } else { 0 };
        let tri = PrimSetup {
            bbox: p.bbox,
            ox: p.x[0],
            oy: p.y[0],
            z,
            q: res[1][l],
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
    let _ = (fmin(0.0, 0.0), fmax(0.0, 0.0));
}
