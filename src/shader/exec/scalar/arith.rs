//! Instructions of the scalar interpreter, lane by lane, and the
//! destination write. Derivative and implicit-LOD instructions read all
//! lanes of the quad first, then write the executing ones.

// Index loops keep the scalar and 8-lane formulas visibly parallel.
#![allow(clippy::needless_range_loop)]

use crate::texture_fetch::{Lod, quad_derivatives};

use super::super::math;
use super::super::op::{Dst, DstKind, Kind, Op, TexMode};
use super::super::regs::{NUM_OUTPUTS, OUT};
use super::Machine;

/// Fine quad derivatives of one value per lane (lane `i` at quad
/// position `(i % 2, i / 2)`), via the shared stamp-layout function: quad
/// lane `i` is stamp lane `(i & 1) | ((i & 2) << 1)` of the first quad
/// (rasterization.md 18).
fn quad_d<const N: usize>(vals: [f32; N]) -> ([f32; N], [f32; N]) {
    let v8: [f32; 8] = std::array::from_fn(|i| vals[((i & 1) | ((i >> 1) & 2)) % N]);
    let (dx, dy) = quad_derivatives(&v8);
    let lane = |l: usize| (l & 1) | ((l & 2) << 1);
    (
        std::array::from_fn(|l| dx[lane(l)]),
        std::array::from_fn(|l| dy[lane(l)]),
    )
}

fn dp3(a: &[f32; 4], b: &[f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn dp4(a: &[f32; 4], b: &[f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

impl<const N: usize> Machine<'_, N> {
    /// Executes an arithmetic, texture or `texkill` op in the lanes of `m`.
    pub(super) fn exec(&mut self, op: &Op, m: &[bool; N]) {
        match op.kind {
            Kind::Dsx | Kind::Dsy => {
                let vals: [[f32; 4]; N] = std::array::from_fn(|l| self.read(l, &op.src[0]));
                let mut d = [[0.0f32; 4]; N];
                for c in 0..4 {
                    let (dx, dy) = quad_d(vals.map(|v| v[c]));
                    for l in 0..N {
                        d[l][c] = if op.kind == Kind::Dsx { dx[l] } else { dy[l] };
                    }
                }
                for l in 0..N {
                    if m[l] {
                        self.write(l, &op.dst, d[l]);
                    }
                }
            }
            Kind::Tex {
                slot,
                mode,
                swizzle,
            } => {
                let c: [[f32; 4]; N] = std::array::from_fn(|l| {
                    let c = self.read(l, &op.src[0]);
                    if mode == TexMode::Project {
                        [
                            math::project(c[0], c[3]),
                            math::project(c[1], c[3]),
                            math::project(c[2], c[3]),
                            c[3],
                        ]
                    } else {
                        c
                    }
                });
                let d: [([f32; N], [f32; N]); 3] = std::array::from_fn(|k| quad_d(c.map(|v| v[k])));
                for l in 0..N {
                    if !m[l] {
                        continue;
                    }
                    let dx = [d[0].0[l], d[1].0[l], d[2].0[l]];
                    let dy = [d[0].1[l], d[1].1[l], d[2].1[l]];
                    let lod = match mode {
                        TexMode::Implicit | TexMode::Project => Lod::Implicit { ddx: dx, ddy: dy },
                        TexMode::Bias => Lod::Bias {
                            ddx: dx,
                            ddy: dy,
                            bias: c[l][3],
                        },
                        TexMode::Level => Lod::Level(c[l][3]),
                        TexMode::Level0 => Lod::Level(0.0),
                        TexMode::Grad => {
                            let gx = self.read(l, &op.src[2]);
                            let gy = self.read(l, &op.src[3]);
                            Lod::Grad {
                                ddx: [gx[0], gx[1], gx[2]],
                                ddy: [gy[0], gy[1], gy[2]],
                            }
                        }
                    };
                    let t = self.fetch.sample(slot as usize, c[l], lod);
                    let v = swizzle.map(|k| t[k as usize & 3]);
                    self.write(l, &op.dst, v);
                }
            }
            _ => {
                for l in 0..N {
                    if m[l] {
                        self.lane(l, op);
                    }
                }
            }
        }
    }

    /// One op in one lane.
    fn lane(&mut self, l: usize, op: &Op) {
        let src = &op.src;
        let rd = |k: usize| self.read(l, &src[k]);
        let v: [f32; 4] = match op.kind {
            Kind::Mov => rd(0),
            Kind::Add => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| a[c] + b[c])
            }
            Kind::Sub => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| a[c] - b[c])
            }
            Kind::Mul => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| a[c] * b[c])
            }
            Kind::Mad => {
                let (a, b, d) = (rd(0), rd(1), rd(2));
                std::array::from_fn(|c| a[c] * b[c] + d[c])
            }
            Kind::Dp3 => [dp3(&rd(0), &rd(1)); 4],
            Kind::Dp4 => [dp4(&rd(0), &rd(1)); 4],
            Kind::Dp2Add => {
                let (a, b, d) = (rd(0), rd(1), rd(2));
                [a[0] * b[0] + a[1] * b[1] + d[3]; 4]
            }
            Kind::Mat { rows, dp4: four } => {
                let a = rd(0);
                let mut d = [0.0; 4];
                for (r, out) in d.iter_mut().enumerate().take(rows as usize) {
                    let row = rd(1 + r);
                    *out = if four { dp4(&a, &row) } else { dp3(&a, &row) };
                }
                d
            }
            Kind::Min => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| math::min(a[c], b[c]))
            }
            Kind::Max => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| math::max(a[c], b[c]))
            }
            Kind::Slt => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| if a[c] < b[c] { 1.0 } else { 0.0 })
            }
            Kind::Sge => {
                let (a, b) = (rd(0), rd(1));
                std::array::from_fn(|c| if a[c] >= b[c] { 1.0 } else { 0.0 })
            }
            Kind::Abs => rd(0).map(math::abs),
            Kind::Frc => rd(0).map(math::frc),
            Kind::Sgn => rd(0).map(math::sgn),
            Kind::Rcp => [math::rcp(rd(0)[3]); 4],
            Kind::Rsq => [math::rsq(rd(0)[3]); 4],
            Kind::Exp => [math::exp2(rd(0)[3]); 4],
            Kind::Log => [math::log2(rd(0)[3]); 4],
            Kind::Pow => [math::pow(rd(0)[3], rd(1)[3]); 4],
            Kind::ExpP1 => math::expp1(rd(0)[3]),
            Kind::Lit => {
                let a = rd(0);
                math::lit(a[0], a[1], a[3])
            }
            Kind::Dst => {
                let (a, b) = (rd(0), rd(1));
                [1.0, a[1] * b[1], a[2], b[3]]
            }
            Kind::Lrp => {
                let (a, b, d) = (rd(0), rd(1), rd(2));
                std::array::from_fn(|c| d[c] + a[c] * (b[c] - d[c]))
            }
            Kind::Crs => {
                let (a, b) = (rd(0), rd(1));
                [
                    a[1] * b[2] - a[2] * b[1],
                    a[2] * b[0] - a[0] * b[2],
                    a[0] * b[1] - a[1] * b[0],
                    0.0,
                ]
            }
            Kind::Nrm => {
                let a = rd(0);
                let k = math::nrm_scale(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
                a.map(|x| x * k)
            }
            Kind::SinCos => {
                let (c, s) = math::sincos(rd(0)[3]);
                [c, s, 0.0, 0.0]
            }
            Kind::Cmp => {
                let (a, b, d) = (rd(0), rd(1), rd(2));
                std::array::from_fn(|c| if a[c] >= 0.0 { b[c] } else { d[c] })
            }
            Kind::Cnd => {
                let (a, b, d) = (rd(0), rd(1), rd(2));
                std::array::from_fn(|c| if a[c] > 0.5 { b[c] } else { d[c] })
            }
            Kind::MovA | Kind::MovAFloor => {
                let a = rd(0);
                for c in 0..4 {
                    if op.dst.mask & (1 << c) != 0 && self.pred_ok(l, &op.dst, c) {
                        let x = if op.dst.sat { math::sat(a[c]) } else { a[c] };
                        self.a0[l][c] = if op.kind == Kind::MovA {
                            math::mova(x)
                        } else {
                            math::mova_floor(x)
                        };
                    }
                }
                return;
            }
            Kind::SetP(cmp) => {
                let (a, b) = (rd(0), rd(1));
                for c in 0..4 {
                    if op.dst.mask & (1 << c) != 0 && self.pred_ok(l, &op.dst, c) {
                        self.p0[l][c] = math::compare(cmp, a[c], b[c]);
                    }
                }
                return;
            }
            Kind::TexKill => {
                let a = rd(0);
                for (c, x) in a.iter().enumerate() {
                    if op.dst.mask & (1 << c) != 0 && self.pred_ok(l, &op.dst, c) && *x < 0.0 {
                        self.kill[l] = true;
                    }
                }
                return;
            }
            _ => return,
        };
        self.write(l, &op.dst, v);
    }

    /// Whether the predicate lets channel `c` of lane `l` be written.
    fn pred_ok(&self, l: usize, d: &Dst, c: usize) -> bool {
        d.pred
            .is_none_or(|p| self.p0[l][p.swizzle[c] as usize & 3] != p.not)
    }

    /// Writes a result in lane `l`: saturate, write mask, predicate.
    fn write(&mut self, l: usize, d: &Dst, v: [f32; 4]) {
        let slot = match d.kind {
            DstKind::Reg(i) => i as usize,
            DstKind::OutRel { base } => {
                let i = base as i64 + self.al as i64;
                if !(0..NUM_OUTPUTS as i64).contains(&i) {
                    return;
                }
                (OUT as i64 + i) as usize
            }
            _ => return,
        };
        for (c, x) in v.into_iter().enumerate() {
            if d.mask & (1 << c) != 0 && self.pred_ok(l, d, c) {
                self.r[l][slot][c] = if d.sat { math::sat(x) } else { x };
            }
        }
    }
}
