//! Primitive assembly: D3D9 topologies to points, lines and triangles in
//! winding order with their provoking (flat-shading) vertex.
//!
//! Rules (rasterization.md 6, 9.3): strip triangle i uses (i, i+1, i+2),
//! odd i wound as (i, i+2, i+1); fan triangle i is (0, i+1, i+2) with
//! provoking vertex i+1; list line i provokes with 2i, strip line with i.

use super::Prim;
use crate::api::PrimitiveType;

/// The primitives of `count` primitives of `kind` over vertex positions
/// `0..`, mapped through `map` (the draw's index or vertex numbering).
pub(crate) fn assemble(kind: PrimitiveType, count: u32, map: &[u32], out: &mut Vec<Prim>) {
    let v = |i: u32| map[i as usize];
    let n = count;
    match kind {
        PrimitiveType::PointList => {
            // Bounds are checked once for the whole run, not per point.
            out.extend(map[..n as usize].iter().map(|&v| Prim::Point(v)))
        }
        PrimitiveType::LineList => out.extend((0..n).map(|i| Prim::Line {
            v: [v(2 * i), v(2 * i + 1)],
            provoking: v(2 * i),
            last: true,
        })),
        PrimitiveType::LineStrip => out.extend((0..n).map(|i| Prim::Line {
            v: [v(i), v(i + 1)],
            provoking: v(i),
            last: i + 1 == n,
        })),
        PrimitiveType::TriangleList => out.extend((0..n).map(|i| Prim::Tri {
            v: [v(3 * i), v(3 * i + 1), v(3 * i + 2)],
            provoking: v(3 * i),
        })),
        PrimitiveType::TriangleStrip => out.extend((0..n).map(|i| {
            let t = if i % 2 == 0 {
                [v(i), v(i + 1), v(i + 2)]
            } else {
                [v(i), v(i + 2), v(i + 1)]
            };
            Prim::Tri {
                v: t,
                provoking: v(i),
            }
        })),
        PrimitiveType::TriangleFan => out.extend((0..n).map(|i| Prim::Tri {
            v: [v(0), v(i + 1), v(i + 2)],
            provoking: v(i + 1),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_and_fan_order() {
        let map: Vec<u32> = (10..20).collect();
        let mut out = Vec::new();
        assemble(PrimitiveType::TriangleStrip, 3, &map, &mut out);
        assert_eq!(
            out,
            vec![
                Prim::Tri {
                    v: [10, 11, 12],
                    provoking: 10
                },
                Prim::Tri {
                    v: [11, 13, 12],
                    provoking: 11
                },
                Prim::Tri {
                    v: [12, 13, 14],
                    provoking: 12
                },
            ]
        );
        out.clear();
        assemble(PrimitiveType::TriangleFan, 2, &map, &mut out);
        assert_eq!(
            out[1],
            Prim::Tri {
                v: [10, 12, 13],
                provoking: 12
            }
        );
        out.clear();
        assemble(PrimitiveType::LineStrip, 2, &map, &mut out);
        assert_eq!(
            out[1],
            Prim::Line {
                v: [11, 12],
                provoking: 11,
                last: true
            }
        );
    }
}
