//! The Reference driver (`DriverType::Reference`): a scalar pipeline that
//! rasterizes one primitive and one pixel at a time with exact 64-bit edge
//! tests and the spec's formulas written out, no SIMD and no threads. It is
//! the oracle the Warp driver is tested against.
//!
//! It shares with Warp only the front end (`geom`: fetch, assembly,
//! clipping), the line/point set-up (`pixel::setup`) and the pixel stage.

pub(crate) mod om;

use crate::driver::{DrawState, FrameTargets, Inputs, point_size};
use crate::geom::{HEADER, Prim, VertexBuf};
use crate::pixel::setup::{
    Cover, PrimSetup, depth_offset, rel, setup_line, setup_point, snap, tri_plane,
};
use crate::pixel::{PixelStage, Plane, ScalarStamp};
use crate::state::{Cull, FillMode, Rect};

/// The exact edge test in 16.8: `E > 0`, or `E == 0` on a top or left edge.
fn inside_exact(x: [i32; 3], y: [i32; 3], px: i32, py: i32) -> bool {
    (0..3).all(|k| {
        let (a, b) = (k, (k + 1) % 3);
        let dx = i64::from(x[b]) - i64::from(x[a]);
        let dy = i64::from(y[b]) - i64::from(y[a]);
        let e = dx * (i64::from(py) * 256 - i64::from(y[a]))
            - dy * (i64::from(px) * 256 - i64::from(x[a]));
        let top_left = dy < 0 || (dy == 0 && dx > 0);
        e > 0 || (e == 0 && top_left)
    })
}

/// Sets up a solid triangle (Reference form); `planes` gets its attributes.
/// Returns the set-up and the clockwise-ordered snapped vertices.
fn setup_tri(
    st: &DrawState,
    buf: &VertexBuf,
    v: [u32; 3],
    provoking: u32,
    inputs: &Inputs<'_>,
    planes: &mut Vec<Plane>,
) -> Option<(PrimSetup, [i32; 3], [i32; 3])> {
    let mut v = v;
    let mut x = v.map(|i| snap(buf.get(i)[0]));
    let mut y = v.map(|i| snap(buf.get(i)[1]));
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
    let area = area.abs();
    let d = [
        (x[1] - x[0]) as f32 * (1.0 / 256.0),
        (y[1] - y[0]) as f32 * (1.0 / 256.0),
        (x[2] - x[0]) as f32 * (1.0 / 256.0),
        (y[2] - y[0]) as f32 * (1.0 / 256.0),
    ];
    let inv = 1.0 / (area as f32 * (1.0 / 65536.0));
    let vs = v.map(|i| buf.get(i));
    let z = tri_plane(d, inv, [vs[0][2], vs[1][2], vs[2][2]]);
    let persp_on = !(vs[0][3] == vs[1][3] && vs[1][3] == vs[2][3]);
    let q = tri_plane(d, inv, [vs[0][3], vs[1][3], vs[2][3]]);
    let attr_off = planes.len() as u32;
    let mut persp = 0u64;
    for (k, &inp) in inputs.list.iter().enumerate() {
        if inputs.flat & (1 << k) != 0 {
            planes.push(Plane::constant(buf.get(provoking)[HEADER + inp]));
            continue;
        }
        let val = |j: usize| {
            let a = vs[j][HEADER + inp];
            if persp_on { a * vs[j][3] } else { a }
        };
        planes.push(tri_plane(d, inv, [val(0), val(1), val(2)]));
        if persp_on {
            persp |= 1 << k;
        }
    }
    let xmin = *x.iter().min().unwrap_or(&0);
    let xmax = *x.iter().max().unwrap_or(&0);
    let ymin = *y.iter().min().unwrap_or(&0);
    let ymax = *y.iter().max().unwrap_or(&0);
    let bbox = Rect::new(
        (xmin + 255).div_euclid(256),
        (ymin + 255).div_euclid(256),
        xmax.div_euclid(256) + 1,
        ymax.div_euclid(256) + 1,
    )
    .intersect(&st.clip);
    let setup = PrimSetup {
        bbox,
        ox: x[0],
        oy: y[0],
        z,
        q,
        persp,
        attr_off,
        bias: depth_offset(&z, st.slope_bias, st.depth_bias),
        front,
        cover: Cover::Rect,
    };
    Some((setup, x, y))
}

/// Shades and merges every covered pixel of `p`, one 4x2 stamp at a time
/// (the Warp driver's stamps: x a multiple of 4, y even), so that pixel
/// stages see whole 2x2 quads (helper lanes evaluated, never written) for
/// derivatives and texture LOD (rasterization.md 18).
#[allow(clippy::too_many_arguments)]
fn fill<P: PixelStage>(
    st: &DrawState,
    p: &PrimSetup,
    exact: Option<([i32; 3], [i32; 3])>,
    planes: &[Plane],
    inputs: &Inputs<'_>,
    stage: &P,
    fb: &mut FrameTargets<'_>,
    samples: &mut u64,
) {
    let n = inputs.list.len();
    let attrs = &planes[p.attr_off as usize..p.attr_off as usize + n];
    let b = p.bbox;
    if b.is_empty() {
        return;
    }
    let mut vals = vec![0.0f32; 8 * n];
    let mut sy = b.top & !1;
    while sy < b.bottom {
        let mut sx = b.left & !3;
        while sx < b.right {
            let mut coverage = 0u32;
            for l in 0..8 {
                let (px, py) = (sx + (l & 3), sy + (l >> 2));
                if px < b.left || px >= b.right || py < b.top || py >= b.bottom {
                    continue;
                }
                let covered = match (&p.cover, exact) {
                    (Cover::Line(l), _) => l.covers(px, py),
                    (_, Some((x, y))) => inside_exact(x, y, px, py),
                    (Cover::Rect, None) => true,
                    (Cover::Tri(e), None) => e.iter().all(|e| e.at(px.into(), py.into()) > 0),
                };
                if covered {
                    coverage |= 1 << l;
                }
            }
            if coverage != 0 {
                for l in 0..8 {
                    let fx = rel(sx + (l & 3), p.ox);
                    let fy = rel(sy + (l >> 2), p.oy);
                    let w = if p.persp != 0 {
                        1.0 / p.q.at(fx, fy)
                    } else {
                        1.0
                    };
                    for k in 0..n {
                        let v = attrs[k].at(fx, fy);
                        vals[l as usize * n + k] = if p.persp & (1 << k) != 0 { v * w } else { v };
                    }
                }
                let outs = stage.shade_stamp_scalar(&ScalarStamp {
                    x: sx,
                    y: sy,
                    coverage,
                    front: p.front,
                    inputs: &vals,
                    stride: n,
                });
                for l in 0..8 {
                    if coverage & (1 << l) == 0 {
                        continue;
                    }
                    let (px, py) = (sx + (l & 3), sy + (l >> 2));
                    let fx = rel(px, p.ox);
                    let fy = rel(py, p.oy);
                    let out = &outs[l as usize];
                    let fog_alpha = inputs.fog.map_or(1.0, |k| vals[l as usize * n + k]);
                    let w_fog = 1.0 / p.q.at(fx, fy);
                    // oDepth replaces the interpolated depth, clamped, unbiased.
                    let (z, bias) = match out.depth {
                        Some(d) => (crate::simd::fmin(crate::simd::fmax(d, 0.0), 1.0), 0.0),
                        None => (p.z.at(fx, fy), p.bias),
                    };
                    let (ds, mut rts) = fb.pixel(px, py);
                    if om::merge(st, out, fog_alpha, z, w_fog, bias, p.front, ds, &mut rts) {
                        *samples += 1;
                    }
                }
            }
            sx += 4;
        }
        sy += 2;
    }
}

/// Renders `prims` of one draw into `fb`; returns the samples that passed
/// depth and stencil.
pub(crate) fn draw<P: PixelStage>(
    st: &DrawState,
    buf: &VertexBuf,
    prims: &[Prim],
    inputs: &Inputs<'_>,
    stage: &P,
    fb: &mut FrameTargets<'_>,
) -> u64 {
    let mut samples = 0u64;
    let mut planes = Vec::new();
    for prim in prims {
        planes.clear();
        match *prim {
            Prim::Point(v) => {
                let size = point_size(st, buf, v);
                let sprite = st.point_sprite;
                if let Some(p) = setup_point(
                    buf,
                    v,
                    size,
                    sprite,
                    inputs.list,
                    st.clip,
                    &mut planes,
                    None,
                ) {
                    fill(st, &p, None, &planes, inputs, stage, fb, &mut samples);
                }
            }
            Prim::Line { v, provoking, last } => {
                let flat = if st.flat { inputs.flat } else { 0 };
                let last = last && st.last_pixel;
                if let Some(p) = setup_line(
                    buf,
                    v,
                    provoking,
                    last,
                    inputs.list,
                    flat,
                    st.clip,
                    &mut planes,
                ) {
                    fill(st, &p, None, &planes, inputs, stage, fb, &mut samples);
                }
            }
            Prim::Tri { v, provoking } => {
                let flat = Inputs {
                    list: inputs.list,
                    flat: if st.flat { inputs.flat } else { 0 },
                    fog: inputs.fog,
                };
                let Some((p, x, y)) = setup_tri(st, buf, v, provoking, &flat, &mut planes) else {
                    continue;
                };
                match st.fill {
                    FillMode::Solid => fill(
                        st,
                        &p,
                        Some((x, y)),
                        &planes,
                        inputs,
                        stage,
                        fb,
                        &mut samples,
                    ),
                    FillMode::Wireframe | FillMode::Point => edges_or_points(
                        st,
                        buf,
                        v,
                        provoking,
                        &p,
                        inputs,
                        flat.flat,
                        stage,
                        fb,
                        &mut samples,
                    ),
                }
            }
        }
    }
    samples
}

/// Wireframe and point fill of a set-up triangle: its edges as lines (or
/// vertices as points) with the triangle's depth bias and face.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edges_or_points<P: PixelStage>(
    st: &DrawState,
    buf: &VertexBuf,
    v: [u32; 3],
    provoking: u32,
    tri: &PrimSetup,
    inputs: &Inputs<'_>,
    flat: u64,
    stage: &P,
    fb: &mut FrameTargets<'_>,
    samples: &mut u64,
) {
    let mut planes = Vec::new();
    for k in 0..3 {
        planes.clear();
        let p = if st.fill == FillMode::Wireframe {
            setup_line(
                buf,
                [v[k], v[(k + 1) % 3]],
                provoking,
                false,
                inputs.list,
                flat,
                st.clip,
                &mut planes,
            )
        } else {
            let size = point_size(st, buf, v[k]);
            let z = Plane::constant(buf.get(v[k])[2]);
            setup_point(
                buf,
                v[k],
                size,
                st.point_sprite,
                inputs.list,
                st.clip,
                &mut planes,
                Some((z, tri.bias)),
            )
        };
        if let Some(mut p) = p {
            p.bias = tri.bias;
            p.front = tri.front;
            fill(st, &p, None, &planes, inputs, stage, fb, samples);
        }
    }
}
