//! Primitive assembly: D3D9 topologies to points, lines and triangles in
//! winding order with their provoking (flat-shading) vertex.
//!
//! Rules (rasterization.md 6, 9.3): strip triangle i uses (i, i+1, i+2),
//! odd i wound as (i, i+2, i+1); fan triangle i is (0, i+1, i+2) with
//! provoking vertex i+1; list line i provokes with 2i, strip line with i.

use super::Prim;
use crate::vertex::PrimitiveType;

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

/// Triangles of a list per task of [`assemble_on`].
const ASSEMBLE_CHUNK: usize = 16384;

/// [`assemble`], with a large triangle list assembled in parallel on
/// `pool` (each triangle reads only its own three positions, so the list
/// is the same for any split).
pub(crate) fn assemble_on(
    kind: PrimitiveType,
    count: u32,
    map: &[u32],
    out: &mut Vec<Prim>,
    pool: Option<&rayon::ThreadPool>,
) {
    use rayon::prelude::*;
    let n = count as usize;
    match pool {
        Some(pool) if kind == PrimitiveType::TriangleList && n >= 2 * ASSEMBLE_CHUNK => {
            let map = &map[..3 * n];
            pool.install(|| {
                out.par_extend(
                    map.par_chunks_exact(3)
                        .with_min_len(ASSEMBLE_CHUNK)
                        .map(|t| Prim::Tri {
                            v: [t[0], t[1], t[2]],
                            provoking: t[0],
                        }),
                )
            })
        }
        _ => assemble(kind, count, map, out),
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

    #[test]
    fn a_large_list_assembled_on_a_pool_is_the_serial_list() {
        // Enough triangles for several tasks, with a tail past the last
        // whole chunk, after an existing primitive the list must follow.
        let n = 5 * ASSEMBLE_CHUNK as u32 + 7;
        let map: Vec<u32> = (0..3 * n)
            .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut serial = vec![Prim::Point(9)];
        assemble(PrimitiveType::TriangleList, n, &map, &mut serial);
        let mut parallel = vec![Prim::Point(9)];
        assemble_on(
            PrimitiveType::TriangleList,
            n,
            &map,
            &mut parallel,
            Some(&pool),
        );
        assert_eq!(parallel.len(), n as usize + 1);
        assert_eq!(parallel, serial);
        assert_eq!(
            parallel[n as usize],
            Prim::Tri {
                v: [
                    map[3 * n as usize - 3],
                    map[3 * n as usize - 2],
                    map[3 * n as usize - 1]
                ],
                provoking: map[3 * n as usize - 3]
            }
        );
    }
}
