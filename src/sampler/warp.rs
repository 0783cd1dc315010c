//! The Warp sampler: 8 lanes at a time, generic over the SIMD backend.
//!
//! Job: [`Slot::sample_warp`], the same algorithm as `reference` computed on
//! `S::F` vectors (coordinates, LOD, weights and blending are SIMD; texel
//! fetch is per lane because the SIMD API has no gather). Lanes may differ
//! in filter (magnification vs minification), mip level, cube face and probe
//! count; each variant is computed only when some lane needs it and chosen
//! by mask. Every arithmetic step mirrors `reference` operation for
//! operation so the results are bit-identical. Calls whose lanes all read
//! one level of a 2D texture in a 4-byte packed format take the fast path
//! of `fast` (same values, no per-lane level lookups).

use super::address::{address_v, split_v};
use super::cube::{across_edge, face_coord_v, face_deriv_v, select_v};
use super::decode::{Chan, Decoder};
use super::lod::{Footprint, aniso_v, clamp_lod_v, iso_lod_v};
use super::{Dim, Filt, Mip, Slot};
use crate::simd::{FloatV, IntV, MaskV, Simd, each, each4, map4};
use crate::texture_fetch::Lod;

/// Where the lanes sample.
#[derive(Clone, Copy)]
pub(super) struct Site<S: Simd> {
    pub(super) uvw: [S::F; 3],
    pub(super) face: [usize; 8],
    pub(super) reference: S::F,
}

/// Per-lane filter choice of one sample call.
#[derive(Clone, Copy)]
pub(super) struct Choice<S: Simd> {
    /// Lanes that point-sample.
    pub(super) point: S::M,
    /// Lanes that take anisotropic probes.
    pub(super) aniso: S::M,
    /// Probe count and major-axis (du, dv) per lane.
    pub(super) probes: Option<(S::F, [S::F; 2])>,
}

#[inline(always)]
fn mask_of<S: Simd>(s: S, b: bool) -> S::M {
    s.mask_from_bits(if b { 0xFF } else { 0 })
}

impl Slot {
    /// Samples 8 lanes (the Warp path of `TextureFetch`); inactive lanes return zeros.
    #[inline(always)]
    pub(crate) fn sample_warp<S: Simd>(
        &self,
        s: S,
        c: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        let zero = s.splat(0.0);
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
                let scale = [
                    s.splat(self.size0[0]),
                    s.splat(self.size0[1]),
                    s.splat(self.size0[2] * k),
                ];
                // `match`, not `Option::map`: no closure (see `simd::each`).
                let fp = match derivs {
                    Some((dx, dy)) => Some(Footprint {
                        dx: [dx[0] * scale[0], dx[1] * scale[1], dx[2] * scale[2]],
                        dy: [dy[0] * scale[0], dy[1] * scale[1], dy[2] * scale[2]],
                    }),
                    None => None,
                };
                let site = Site::<S> {
                    uvw: [c[0], c[1], c[2]],
                    face: [0; 8],
                    reference: c[2],
                };
                (site, fp)
            }
            Dim::Cube => {
                let d = [c[0], c[1], c[2]];
                let sel = select_v(s, d);
                let [sc, tc, ma] = sel.components_v(s, d);
                let one = s.splat(1.0);
                let u = face_coord_v(s, sc, ma).max(zero).min(one);
                let v = face_coord_v(s, tc, ma).max(zero).min(one);
                let n = s.splat(self.size0[0]);
                let fp = match derivs {
                    Some((dx, dy)) => Some(Footprint {
                        dx: face_footprint(s, &sel, [sc, tc, ma], n, dx),
                        dy: face_footprint(s, &sel, [sc, tc, ma], n, dy),
                    }),
                    None => None,
                };
                let faces = sel.face_v(s).to_array().map(|f| f as usize);
                let site = Site::<S> {
                    uvw: [u, v, zero],
                    face: faces,
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
                    let a = aniso_v(s, &fp, self.max_aniso);
                    let (dx, dy) = derivs.unwrap_or(([zero; 3], [zero; 3]));
                    let axis = [
                        a.x_major.select_f(dx[0], dy[0]),
                        a.x_major.select_f(dx[1], dy[1]),
                    ];
                    probes = Some((a.probes, axis));
                    a.lod
                } else {
                    iso_lod_v(s, &fp)
                }
            }
            (None, _) => zero,
        };
        value = value + s.splat(self.lod_bias);
        if let Lod::Bias { bias, .. } = lod {
            value = value + bias;
        }
        let value = clamp_lod_v(s, value);
        // 3. Filter and levels.
        let mag = value.le(zero);
        let point = mag.select_i(
            mask_of(s, self.mag == Filt::Point).to_i(),
            mask_of(s, self.min == Filt::Point).to_i(),
        );
        let point = point.eq(s.splat_i(-1));
        // Without derivatives (texldl) there is no footprint: ANISOTROPIC is LINEAR.
        let aniso = !mag & mask_of(s, self.min == Filt::Aniso && probes.is_some());
        let (l0, l1, f) = self.mip_levels(s, value, mag);
        let choice = Choice::<S> {
            point,
            aniso,
            probes,
        };
        // 4. Sample the level(s) and blend.
        let c0 = self.sample_level_warp(s, l0, &site, &choice, active);
        let second = f.ne(zero) & active;
        let out = if second.any() {
            let c1 = self.sample_level_warp(s, l1, &site, &choice, second);
            each4!(|i| second.select_f(c0[i] + (c1[i] - c0[i]) * f, c0[i]))
        } else {
            c0
        };
        // 5. From the filter domain to values.
        each4!(|i| active.select_f(out[i] / s.splat(self.divisor[i]), zero))
    }

    /// The two levels each lane reads and the weight of the second, from
    /// the clamped LOD `value` (`mag`: lanes that magnify).
    #[inline(always)]
    pub(super) fn mip_levels<S: Simd>(&self, s: S, value: S::F, mag: S::M) -> (S::F, S::F, S::F) {
        let zero = s.splat(0.0);
        let base = s.splat(self.base);
        let last = s.splat(self.last);
        match self.mip {
            Mip::None => {
                let b = s.splat(self.base_none);
                (b, b, zero)
            }
            Mip::Point => {
                let le = value.max(base).min(last);
                let l = (le + s.splat(0.5)).floor().min(last);
                (mag.select_f(base, l), mag.select_f(base, l), zero)
            }
            Mip::Linear => {
                let le = value.max(base).min(last);
                let l0 = le.floor();
                let l1 = (l0 + s.splat(1.0)).min(last);
                (
                    mag.select_f(base, l0),
                    mag.select_f(base, l1),
                    mag.select_f(zero, le - l0),
                )
            }
        }
    }

    #[inline(always)]
    fn sample_level_warp<S: Simd>(
        &self,
        s: S,
        l: S::F,
        site: &Site<S>,
        choice: &Choice<S>,
        lanes: S::M,
    ) -> [S::F; 4] {
        if let Some(lv) = self.uniform_level(s, l, lanes) {
            return self.sample_level_fast(s, &lv, site, choice, lanes);
        }
        let li = l.to_array().map(|x| x as usize);
        let size = |get: fn(&super::decode::LevelData) -> u32| {
            s.f32s(std::array::from_fn(|i| {
                get(self.level(li[i], site.face[i])) as f32
            }))
        };
        let (w, h) = (size(|d| d.width), size(|d| d.height));
        let [u, v, wc] = site.uvw;
        let point = choice.point & lanes;
        let linear = !choice.point & !choice.aniso & lanes;
        let aniso = choice.aniso & lanes;
        let zero = s.splat(0.0);
        let mut out = [zero; 4];
        if self.dim == Dim::Cube {
            if point.any() {
                let x = split_v(s, u * w).0.min(w - s.splat(1.0)).to_i32();
                let y = split_v(s, v * w).0.min(w - s.splat(1.0)).to_i32();
                let none = zero.ne(zero);
                let p = self.gather(s, &li, &site.face, [x, y, s.splat_i(0)], none, point, site);
                out = each4!(|i| point.select_f(p[i], out[i]));
            }
            let lin = !point & lanes;
            if lin.any() {
                let p = self.cube_bilinear_warp(s, &li, site, w, lin);
                out = each4!(|i| lin.select_f(p[i], out[i]));
            }
            return out;
        }
        if point.any() {
            let (x, bx) = address_v(s, self.address[0], split_v(s, u * w).0, w);
            let (y, by) = address_v(s, self.address[1], split_v(s, v * h).0, h);
            let (z, bz) = if self.dim == Dim::Volume {
                let d = size(|d| d.depth);
                address_v(s, self.address[2], split_v(s, wc * d).0, d)
            } else {
                (s.splat_i(0), zero.ne(zero))
            };
            let p = self.gather(s, &li, &site.face, [x, y, z], bx | by | bz, point, site);
            out = each4!(|i| point.select_f(p[i], out[i]));
        }
        if linear.any() {
            let p = if self.dim == Dim::Volume {
                self.trilinear_warp(s, &li, site, [w, h, size(|d| d.depth)], linear)
            } else {
                self.bilinear_warp(s, &li, u, v, [w, h], site, linear)
            };
            out = each4!(|i| linear.select_f(p[i], out[i]));
        }
        if aniso.any()
            && let Some((n, axis)) = choice.probes
        {
            // The mask's bits read outside the closure (see `simd::each`).
            let aniso_bits = aniso.bits();
            let max_n = n
                .to_array()
                .iter()
                .enumerate()
                .filter(|(i, _)| (aniso_bits >> i) & 1 == 1)
                .fold(1.0f32, |m, (_, &x)| if x > m { x } else { m });
            let mut sum = [zero; 4];
            let mut i = 0.0f32;
            while i < max_n {
                let iv = s.splat(i);
                let take = iv.lt(n) & aniso;
                let off = (iv + s.splat(0.5)) / n - s.splat(0.5);
                let pu = u + axis[0] * off;
                let pv = v + axis[1] * off;
                let p = self.bilinear_warp(s, &li, pu, pv, [w, h], site, take);
                sum = each4!(|k| take.select_f(sum[k] + p[k], sum[k]));
                i += 1.0;
            }
            out = each4!(|k| aniso.select_f(sum[k] / n, out[k]));
        }
        out
    }

    /// Index pair, border masks and weight of the second index on axis `a`.
    #[inline(always)]
    fn axis_linear_v<S: Simd>(
        &self,
        s: S,
        a: usize,
        u: S::F,
        n: S::F,
    ) -> ([S::I; 2], [S::M; 2], S::F) {
        let (t0, w1) = split_v(s, u * n - s.splat(0.5));
        let (i0, b0) = address_v(s, self.address[a], t0, n);
        let (i1, b1) = address_v(s, self.address[a], t0 + s.splat(1.0), n);
        ([i0, i1], [b0, b1], w1)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn bilinear_warp<S: Simd>(
        &self,
        s: S,
        li: &[usize; 8],
        u: S::F,
        v: S::F,
        [w, h]: [S::F; 2],
        site: &Site<S>,
        lanes: S::M,
    ) -> [S::F; 4] {
        let one = s.splat(1.0);
        let (xi, xb, wx) = self.axis_linear_v(s, 0, u, w);
        let (yi, yb, wy) = self.axis_linear_v(s, 1, v, h);
        let wxs = [one - wx, wx];
        let wys = [one - wy, wy];
        let z = s.splat_i(0);
        let mut out = [s.splat(0.0); 4];
        for (k, (i, j)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
            let t = self.gather(
                s,
                li,
                &site.face,
                [xi[i], yi[j], z],
                xb[i] | yb[j],
                lanes,
                site,
            );
            let wgt = wxs[i] * wys[j];
            out = each4!(|ch| {
                if k == 0 {
                    t[ch] * wgt
                } else {
                    out[ch] + t[ch] * wgt
                }
            });
        }
        out
    }

    #[inline(always)]
    fn trilinear_warp<S: Simd>(
        &self,
        s: S,
        li: &[usize; 8],
        site: &Site<S>,
        [w, h, d]: [S::F; 3],
        lanes: S::M,
    ) -> [S::F; 4] {
        let one = s.splat(1.0);
        let [u, v, wc] = site.uvw;
        let (xi, xb, wx) = self.axis_linear_v(s, 0, u, w);
        let (yi, yb, wy) = self.axis_linear_v(s, 1, v, h);
        let (zi, zb, wz) = self.axis_linear_v(s, 2, wc, d);
        let (wxs, wys, wzs) = ([one - wx, wx], [one - wy, wy], [one - wz, wz]);
        let mut out = [s.splat(0.0); 4];
        let mut first = true;
        for k in 0..2 {
            for (i, j) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let b = xb[i] | yb[j] | zb[k];
                let t = self.gather(s, li, &site.face, [xi[i], yi[j], zi[k]], b, lanes, site);
                let wgt = (wxs[i] * wys[j]) * wzs[k];
                out = each4!(|ch| {
                    if first {
                        t[ch] * wgt
                    } else {
                        out[ch] + t[ch] * wgt
                    }
                });
                first = false;
            }
        }
        out
    }

    /// Cube bilinear (see `reference::cube_bilinear_ref`): edge taps from the
    /// neighbour face, corner weight spread over the other three taps.
    #[inline(always)]
    fn cube_bilinear_warp<S: Simd>(
        &self,
        s: S,
        li: &[usize; 8],
        site: &Site<S>,
        n: S::F,
        lanes: S::M,
    ) -> [S::F; 4] {
        let one = s.splat(1.0);
        let zero = s.splat(0.0);
        let (x0, wx) = split_v(s, site.uvw[0] * n - s.splat(0.5));
        let (y0, wy) = split_v(s, site.uvw[1] * n - s.splat(0.5));
        let ni = n.to_i32();
        let x0 = x0.to_i32();
        let y0 = y0.to_i32();
        let xs = [x0, x0 + s.splat_i(1)];
        let ys = [y0, y0 + s.splat_i(1)];
        let last = ni - s.splat_i(1);
        let zero_i = s.splat_i(0);
        let out_x = each!(|k| xs[k].lt(zero_i) | xs[k].gt(last); 0 1);
        let out_y = each!(|k| ys[k].lt(zero_i) | ys[k].gt(last); 0 1);
        let wxs = [one - wx, wx];
        let wys = [one - wy, wy];
        let order = [(0, 0), (1, 0), (0, 1), (1, 1)];
        let wgt = each4!(|k| wxs[order[k].0] * wys[order[k].1]);
        let corner = each4!(|k| out_x[order[k].0] & out_y[order[k].1]);
        let wc = corner[0].select_f(
            wgt[0],
            corner[1].select_f(
                wgt[1],
                corner[2].select_f(wgt[2], corner[3].select_f(wgt[3], zero)),
            ),
        );
        let any = corner[0] | corner[1] | corner[2] | corner[3];
        let third = wc / s.splat(3.0);
        let wgt: [S::F; 4] =
            each4!(|k| any.select_f(corner[k].select_f(zero, wgt[k] + third), wgt[k]));
        let single = ni.eq(s.splat_i(1)) & lanes;
        let mut out = [zero; 4];
        for (k, &(i, j)) in order.iter().enumerate() {
            let t = self.cube_gather(s, li, site, xs[i], ys[j], corner[k], lanes);
            out = each4!(|ch| {
                if k == 0 {
                    t[ch] * wgt[k]
                } else {
                    out[ch] + t[ch] * wgt[k]
                }
            });
        }
        if single.any() {
            // 1x1 faces: the face's only texel (the Reference returns it directly).
            let none = zero.ne(zero);
            let z = s.splat_i(0);
            let t = self.gather(s, li, &site.face, [z, z, z], none, single, site);
            out = each4!(|ch| single.select_f(t[ch], out[ch]));
        }
        out
    }

    /// Per-lane cube taps: corner lanes read zero, off-face taps the neighbour face.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn cube_gather<S: Simd>(
        &self,
        s: S,
        li: &[usize; 8],
        site: &Site<S>,
        x: S::I,
        y: S::I,
        corner: S::M,
        lanes: S::M,
    ) -> [S::F; 4] {
        let (xa, ya) = (x.to_array(), y.to_array());
        let refs = site.reference.to_array();
        let (bits, cbits) = (lanes.bits(), corner.bits());
        let mut v = [[0.0f32; 8]; 4];
        for i in 0..8 {
            if (bits >> i) & 1 == 0 || (cbits >> i) & 1 == 1 {
                continue;
            }
            let face = site.face[i];
            let level = self.level(li[i], face);
            let n = level.width as i32;
            let t = if n == 1 {
                self.tap(level, 0, 0, 0, false, refs[i])
            } else if xa[i] < 0 || xa[i] > n - 1 || ya[i] < 0 || ya[i] > n - 1 {
                let (f, x2, y2) = across_edge(face as u32, xa[i], ya[i], n);
                self.tap(self.level(li[i], f as usize), x2, y2, 0, false, refs[i])
            } else {
                self.tap(level, xa[i], ya[i], 0, false, refs[i])
            };
            for ch in 0..4 {
                v[ch][i] = t[ch];
            }
        }
        map4!(v, |a| s.f32s(a))
    }

    /// Per-lane taps at integer (x, y, z) of each lane's level; `border` lanes
    /// read the border colour. Packed formats without sRGB or comparison
    /// gather raw words and decode them 8 lanes at a time (the same integer
    /// codes, converted exactly, as [`Slot::tap`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn gather<S: Simd>(
        &self,
        s: S,
        li: &[usize; 8],
        faces: &[usize; 8],
        [x, y, z]: [S::I; 3],
        border: S::M,
        lanes: S::M,
        site: &Site<S>,
    ) -> [S::F; 4] {
        let (xa, ya, za) = (x.to_array(), y.to_array(), z.to_array());
        let bits = lanes.bits();
        if let (Decoder::Packed { bytes, chans }, false, None) =
            (self.decoder, self.srgb, self.compare)
        {
            let mut words = [0i32; 8];
            for i in 0..8 {
                if (bits >> i) & 1 == 1 {
                    let level = self.level(li[i], faces[i]);
                    words[i] = level.word(bytes, xa[i], ya[i], za[i]) as i32;
                }
            }
            let w = s.i32s(words);
            return each4!(|ch| {
                let v = match chans[ch] {
                    Chan::Field { shift, bits } => {
                        (w.shr(shift) & s.splat_i(((1u64 << bits) - 1) as i32)).to_f32()
                    }
                    Chan::Const(c) => s.splat(c),
                };
                border.select_f(s.splat(self.border[ch]), v)
            });
        }
        let bb = border.bits();
        let refs = site.reference.to_array();
        let mut v = [[0.0f32; 8]; 4];
        for i in 0..8 {
            if (bits >> i) & 1 == 1 {
                let level = self.level(li[i], faces[i]);
                let t = self.tap(level, xa[i], ya[i], za[i], (bb >> i) & 1 == 1, refs[i]);
                for ch in 0..4 {
                    v[ch][i] = t[ch];
                }
            }
        }
        map4!(v, |a| s.f32s(a))
    }
}

/// A cube derivative `d` projected onto the selected face (`sc`, `tc`,
/// `ma` of the coordinate), in texels of an `n`-texel face: one axis of
/// [`Slot::sample_warp`]'s footprint (a function, not a closure: see
/// `crate::simd::each`).
#[inline(always)]
fn face_footprint<S: Simd>(
    s: S,
    sel: &super::cube::FaceSel<S::M>,
    [sc, tc, ma]: [S::F; 3],
    n: S::F,
    d: [S::F; 3],
) -> [S::F; 3] {
    let [dsc, dtc, dma] = sel.components_v(s, d);
    [
        face_deriv_v(s, sc, ma, dsc, dma) * n,
        face_deriv_v(s, tc, ma, dtc, dma) * n,
        s.splat(0.0),
    ]
}
