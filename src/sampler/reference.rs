//! The Reference sampler: one lane, written as textures.md reads.
//!
//! Job: [`Slot::sample_ref`], the scalar oracle of the sampler (see the
//! module docs of `sampler` for the steps). The Warp form (`warp`) must
//! produce the same bits; any arithmetic changed here must change there in
//! the same order.

use super::address::{address, split};
use super::cube::{across_edge, face_coord, face_deriv, select};
use super::decode::LevelData;
use super::lod::{Footprint, aniso, clamp_lod, iso_lod};
use super::{Dim, Filt, Mip, Slot};
use crate::simd::{fmax, fmin};
use crate::texture_fetch::Lod;

/// Where a lane samples: 2D / volume coordinates, or a cube face and its (u, v).
#[derive(Clone, Copy, Debug)]
struct Site {
    uvw: [f32; 3],
    face: usize,
    reference: f32,
}

impl Slot {
    /// Samples one lane (the Reference path of `TextureFetchScalar`).
    pub(crate) fn sample_ref(&self, c: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        let derivs = match lod {
            Lod::Implicit { ddx, ddy } | Lod::Grad { ddx, ddy } | Lod::Bias { ddx, ddy, .. } => {
                Some((ddx, ddy))
            }
            Lod::Level(_) => None,
        };
        // 1. Coordinates and texel-space footprint.
        let (site, footprint) = match self.dim {
            Dim::Tex2D | Dim::Volume => {
                let k = if self.dim == Dim::Volume { 1.0 } else { 0.0 };
                let scale = [self.size0[0], self.size0[1], self.size0[2] * k];
                let fp = derivs.map(|(dx, dy)| Footprint {
                    dx: [dx[0] * scale[0], dx[1] * scale[1], dx[2] * scale[2]],
                    dy: [dy[0] * scale[0], dy[1] * scale[1], dy[2] * scale[2]],
                });
                let site = Site {
                    uvw: [c[0], c[1], c[2]],
                    face: 0,
                    reference: c[2],
                };
                (site, fp)
            }
            Dim::Cube => {
                let sel = select([c[0], c[1], c[2]]);
                let [sc, tc, ma] = sel.components([c[0], c[1], c[2]]);
                let clamp01 = |x: f32| fmin(fmax(x, 0.0), 1.0);
                let (u, v) = (clamp01(face_coord(sc, ma)), clamp01(face_coord(tc, ma)));
                let n = self.size0[0];
                let fp = derivs.map(|(dx, dy)| {
                    let project = |d: [f32; 3]| {
                        let [dsc, dtc, dma] = sel.components(d);
                        [
                            face_deriv(sc, ma, dsc, dma) * n,
                            face_deriv(tc, ma, dtc, dma) * n,
                            0.0,
                        ]
                    };
                    Footprint {
                        dx: project(dx),
                        dy: project(dy),
                    }
                });
                let site = Site {
                    uvw: [u, v, 0.0],
                    face: sel.face() as usize,
                    reference: c[2],
                };
                (site, fp)
            }
        };
        // 2. LOD (and the anisotropic probes).
        let mut probes = None;
        let mut value = match (footprint, lod) {
            (_, Lod::Level(l)) => l,
            (Some(fp), _) => {
                if self.min == Filt::Aniso {
                    let a = aniso(&fp, self.max_aniso);
                    let (dx, dy) = derivs.unwrap_or_default();
                    let axis = if a.x_major { dx } else { dy };
                    probes = Some((a.probes, [axis[0], axis[1]]));
                    a.lod
                } else {
                    iso_lod(&fp)
                }
            }
            (None, _) => 0.0,
        };
        value += self.lod_bias;
        if let Lod::Bias { bias, .. } = lod {
            value += bias;
        }
        let value = clamp_lod(value);
        // 3. Filter and levels.
        let mag = value <= 0.0;
        let filt = if mag { self.mag } else { self.min };
        let (l0, l1, f) = match self.mip {
            Mip::None => (self.base_none, self.base_none, 0.0),
            _ if mag => (self.base, self.base, 0.0),
            Mip::Point => {
                let le = fmin(fmax(value, self.base), self.last);
                let l = fmin((le + 0.5).floor(), self.last);
                (l, l, 0.0)
            }
            Mip::Linear => {
                let le = fmin(fmax(value, self.base), self.last);
                let l0 = le.floor();
                (l0, fmin(l0 + 1.0, self.last), le - l0)
            }
        };
        // Without derivatives (texldl) there is no footprint: ANISOTROPIC is LINEAR.
        let filt = match (filt, probes) {
            (Filt::Aniso, None) => Filt::Linear,
            (f, _) => f,
        };
        let probes = if filt == Filt::Aniso { probes } else { None };
        // 4. Sample the level(s) and blend.
        let c0 = self.sample_level_ref(l0 as usize, &site, filt, probes);
        let out = if f != 0.0 {
            let c1 = self.sample_level_ref(l1 as usize, &site, filt, probes);
            std::array::from_fn(|i| c0[i] + (c1[i] - c0[i]) * f)
        } else {
            c0
        };
        // 5. From the filter domain to values.
        std::array::from_fn(|i| out[i] / self.divisor[i])
    }

    fn sample_level_ref(
        &self,
        l: usize,
        site: &Site,
        filt: Filt,
        probes: Option<(f32, [f32; 2])>,
    ) -> [f32; 4] {
        let level = self.level(l, site.face);
        let [u, v, w] = site.uvw;
        match (self.dim, filt) {
            (Dim::Cube, Filt::Point) => {
                let n = level.width as f32;
                let x = fmin(split(u * n).0, n - 1.0) as i32;
                let y = fmin(split(v * n).0, n - 1.0) as i32;
                self.tap(level, x, y, 0, false, site.reference)
            }
            (Dim::Cube, _) => self.cube_bilinear_ref(l, site),
            (_, Filt::Point) => {
                let (x, bx) = self.axis_point(0, u, level.width);
                let (y, by) = self.axis_point(1, v, level.height);
                let (z, bz) = if self.dim == Dim::Volume {
                    self.axis_point(2, w, level.depth)
                } else {
                    (0, false)
                };
                self.tap(level, x, y, z, bx | by | bz, site.reference)
            }
            (Dim::Volume, _) => self.trilinear_ref(level, site),
            (Dim::Tex2D, Filt::Aniso) => {
                let (n, axis) = probes.unwrap_or((1.0, [0.0, 0.0]));
                let mut sum = [0.0f32; 4];
                let mut i = 0.0f32;
                while i < n {
                    let off = (i + 0.5) / n - 0.5;
                    let p = self.bilinear_ref(level, u + axis[0] * off, v + axis[1] * off, site);
                    sum = std::array::from_fn(|k| sum[k] + p[k]);
                    i += 1.0;
                }
                sum.map(|x| x / n)
            }
            (Dim::Tex2D, _) => self.bilinear_ref(level, u, v, site),
        }
    }

    /// Point sampling on axis `a`: `floor(u * n)` through the address mode.
    fn axis_point(&self, a: usize, u: f32, n: u32) -> (i32, bool) {
        let n = n as f32;
        address(self.address[a], split(u * n).0, n)
    }

    /// Linear sampling on axis `a`: both indices, their border flags and the weight of the second.
    fn axis_linear(&self, a: usize, u: f32, n: u32) -> ([i32; 2], [bool; 2], f32) {
        let n = n as f32;
        let (t0, w1) = split(u * n - 0.5);
        let (i0, b0) = address(self.address[a], t0, n);
        let (i1, b1) = address(self.address[a], t0 + 1.0, n);
        ([i0, i1], [b0, b1], w1)
    }

    fn bilinear_ref(&self, level: &LevelData, u: f32, v: f32, site: &Site) -> [f32; 4] {
        let (xi, xb, wx) = self.axis_linear(0, u, level.width);
        let (yi, yb, wy) = self.axis_linear(1, v, level.height);
        let wxs = [1.0 - wx, wx];
        let wys = [1.0 - wy, wy];
        let mut out = [0.0f32; 4];
        for (k, (i, j)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
            let t = self.tap(level, xi[i], yi[j], 0, xb[i] | yb[j], site.reference);
            let wgt = wxs[i] * wys[j];
            for ch in 0..4 {
                out[ch] = if k == 0 {
                    t[ch] * wgt
                } else {
                    out[ch] + t[ch] * wgt
                };
            }
        }
        out
    }

    fn trilinear_ref(&self, level: &LevelData, site: &Site) -> [f32; 4] {
        let [u, v, w] = site.uvw;
        let (xi, xb, wx) = self.axis_linear(0, u, level.width);
        let (yi, yb, wy) = self.axis_linear(1, v, level.height);
        let (zi, zb, wz) = self.axis_linear(2, w, level.depth);
        let (wxs, wys, wzs) = ([1.0 - wx, wx], [1.0 - wy, wy], [1.0 - wz, wz]);
        let mut out = [0.0f32; 4];
        let mut first = true;
        for k in 0..2 {
            for (i, j) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let b = xb[i] | yb[j] | zb[k];
                let t = self.tap(level, xi[i], yi[j], zi[k], b, site.reference);
                let wgt = (wxs[i] * wys[j]) * wzs[k];
                for ch in 0..4 {
                    out[ch] = if first {
                        t[ch] * wgt
                    } else {
                        out[ch] + t[ch] * wgt
                    };
                }
                first = false;
            }
        }
        out
    }

    /// Bilinear on a cube face: taps off the face come from the adjacent
    /// face; at a corner the missing texel's weight goes to the other three
    /// in equal parts (textures.md 6).
    fn cube_bilinear_ref(&self, l: usize, site: &Site) -> [f32; 4] {
        let level = self.level(l, site.face);
        let n = level.width as i32;
        if n == 1 {
            return self.tap(level, 0, 0, 0, false, site.reference);
        }
        let nf = n as f32;
        let (x0, wx) = split(site.uvw[0] * nf - 0.5);
        let (y0, wy) = split(site.uvw[1] * nf - 0.5);
        let xs = [x0 as i32, x0 as i32 + 1];
        let ys = [y0 as i32, y0 as i32 + 1];
        let out_x = xs.map(|x| x < 0 || x > n - 1);
        let out_y = ys.map(|y| y < 0 || y > n - 1);
        let wxs = [1.0 - wx, wx];
        let wys = [1.0 - wy, wy];
        let order = [(0, 0), (1, 0), (0, 1), (1, 1)];
        let mut wgt = order.map(|(i, j)| wxs[i] * wys[j]);
        let corner = order.map(|(i, j)| out_x[i] && out_y[j]);
        if let Some(c) = corner.iter().position(|&b| b) {
            let third = wgt[c] / 3.0;
            for (k, w) in wgt.iter_mut().enumerate() {
                *w = if k == c { 0.0 } else { *w + third };
            }
        }
        let mut out = [0.0f32; 4];
        for (k, &(i, j)) in order.iter().enumerate() {
            let t = if corner[k] {
                [0.0; 4]
            } else if out_x[i] || out_y[j] {
                let (f, x, y) = across_edge(site.face as u32, xs[i], ys[j], n);
                self.tap(self.level(l, f as usize), x, y, 0, false, site.reference)
            } else {
                self.tap(level, xs[i], ys[j], 0, false, site.reference)
            };
            for ch in 0..4 {
                out[ch] = if k == 0 {
                    t[ch] * wgt[k]
                } else {
                    out[ch] + t[ch] * wgt[k]
                };
            }
        }
        out
    }
}
