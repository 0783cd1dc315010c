//! Lighting formulas (fixed-function.md §5.3–§5.4), generic over [`Real`]
//! so the 8-lane vertex routine and the scalar Reference run the same
//! operation sequence.
//!
//! Job: one light's ambient, diffuse and specular contribution, and the
//! final colour assembly with clamping. Decisions implemented: ambient of
//! point/spot lights attenuated and range-cut, directional not; spot cone
//! with Wine's strict `>` / `<=`; non-local viewer vector (0, 0, −1);
//! specular only when `N·L > 0` and `N·H > 0`; `N·H` unclamped; specular
//! alpha = material specular alpha.
//!
//! The specular power is taken of the squared cosine: with `h` the
//! unnormalised halfway vector, `(N·H)^P = ((N·h)² / (h·h))^(P/2)` wherever
//! `N·h > 0`, which needs no square root per light (the normalisation of
//! `H` was one exact `sqrt` and one division per light and vertex). The
//! half power is taken by binary powering when `P/2` is a whole number in
//! 1..=128 ([`half_power_int`]: the even material powers 2, 8, 16, 32, ...),
//! else as `exp2(P/2 · log2((N·H)²))`. The squared form loses the
//! highlight only where `(N·h)²` underflows (`|h|` below about 1e-19).

use super::key::LightKind;
use super::math::{Multi, Real, dot3, k3, normalize3, pow, pow_pos, powi, sat};
use super::setup::LightConsts;

/// Running sums of the light terms (rgb each).
#[derive(Clone, Copy, Debug)]
pub struct LightSums<R> {
    /// Σ ambient · atten.
    pub ambient: [R; 3],
    /// Σ diffuse · clamp(N·L) · atten.
    pub diffuse: [R; 3],
    /// Σ specular · (N·H)^P · atten.
    pub specular: [R; 3],
}

impl<R: Real> LightSums<R> {
    /// All sums zero.
    #[inline(always)]
    pub fn zero(x: R) -> Self {
        let z = x.k(0.0);
        LightSums {
            ambient: [z; 3],
            diffuse: [z; 3],
            specular: [z; 3],
        }
    }
}

/// What a light's contribution needs from the vertex.
#[derive(Clone, Copy, Debug)]
pub struct Surface<R> {
    /// Eye-space position (3-D).
    pub p: [R; 3],
    /// Eye-space normal, if the vertex has one.
    pub n: Option<[R; 3]>,
    /// Specular is computed: `Some(v)` with `v = normalize(P)` for a local
    /// viewer, `Some(None)` for the orthogonal viewer; `None`: SPECULARENABLE off.
    pub specular: Option<Option<[R; 3]>>,
    /// Half the material power, `P/2`: the exponent of the squared cosine.
    pub half_power: R,
    /// `P/2` when it is a whole number in 1..=128 (see [`half_power_int`]):
    /// the specular power is then taken by repeated multiplication.
    pub half_power_int: Option<u32>,
}

/// Half the material power `power`, the exponent [`lights`] raises the
/// squared cosine `(N·H)²` to (exact: halving a float only moves its exponent).
pub fn half_power(power: f32) -> f32 {
    power * 0.5
}

/// `power / 2` as a whole number in 1..=128, or None. Such powers (the
/// common even material powers: 8, 16, 32, ...) are taken by binary
/// powering ([`powi`]): a few IEEE products (3 for P = 16) instead of the
/// logarithm, polynomial and exponential of `exp2(y · log2(x))`; the
/// products add under `power / 4` ulps to the squared cosine's own error.
pub fn half_power_int(power: f32) -> Option<u32> {
    let half = half_power(power);
    (half.fract() == 0.0 && (1.0..=128.0).contains(&half)).then_some(half as u32)
}

/// `sum += c · f`. A zero light colour adds nothing even when `f` is
/// infinite (all-zero attenuation, a documented-invalid setup that must
/// saturate rather than turn into NaN through `0 · INF`).
#[inline(always)]
fn add_scaled<R: Real>(sum: &mut [R; 3], c: [f32; 3], f: R) {
    for i in 0..3 {
        if c[i] != 0.0 {
            sum[i] = sum[i] + f.k(c[i]) * f;
        }
    }
}

/// `sum += c`. Zero components are skipped: a sum of terms starting at +0
/// is never −0, so adding +0 would not change it.
#[inline(always)]
fn add_color<R: Real>(sum: &mut [R; 3], c: [f32; 3], x: R) {
    for i in 0..3 {
        if c[i] != 0.0 {
            sum[i] = sum[i] + x.k(c[i]);
        }
    }
}

/// A light's specular term before its power function: the work left for
/// [`lights`] to evaluate for several lights in lockstep.
#[derive(Clone, Copy, Debug)]
pub struct SpecularTerm<R: Real> {
    /// `(N·H)²`, as `(N·h)² / (h·h)` for the unnormalised halfway vector `h`
    /// (meaningful where `on`).
    pub cos2: R,
    /// `N·L > 0 && N·H > 0`.
    pub on: R::M,
    /// Attenuation (None for directional lights: 1).
    pub atten: Option<R>,
    /// The light's specular colour.
    pub color: [f32; 3],
}

/// Adds a directional light's ambient and diffuse terms (atten = 1,
/// ambient not attenuated); returns its pending specular term.
#[inline(always)]
pub fn directional<R: Real>(
    l: &LightConsts,
    v: &Surface<R>,
    acc: &mut LightSums<R>,
) -> Option<SpecularTerm<R>> {
    let x = v.half_power;
    add_color(&mut acc.ambient, l.ambient, x);
    let n = v.n?;
    let lv = k3(x, l.to_light);
    let ndl = dot3(n, lv);
    add_scaled(&mut acc.diffuse, l.diffuse, sat(ndl));
    let viewer = v.specular?;
    Some(match viewer {
        Some(e) => specular_term(l, n, [lv[0] - e[0], lv[1] - e[1], lv[2] - e[2]], ndl, None),
        None => {
            // The orthogonal viewer's H is a per-light constant, normalised once.
            let ndh = dot3(n, k3(x, l.half_inf));
            SpecularTerm {
                cos2: ndh * ndh,
                on: R::and(ndl.gt(x.k(0.0)), ndh.gt(x.k(0.0))),
                atten: None,
                color: l.specular,
            }
        }
    })
}

/// The specular term for the unnormalised halfway vector `h`.
#[inline(always)]
fn specular_term<R: Real>(
    l: &LightConsts,
    n: [R; 3],
    h: [R; 3],
    ndl: R,
    atten: Option<R>,
) -> SpecularTerm<R> {
    let zero = ndl.k(0.0);
    // N·h has the sign of N·H (h = 0 gives 0: no highlight).
    let nh = dot3(n, h);
    SpecularTerm {
        cos2: nh * nh / dot3(h, h),
        on: R::and(ndl.gt(zero), nh.gt(zero)),
        atten,
        color: l.specular,
    }
}

/// Adds a point light's (`spot` false) or a spot light's (`spot` true)
/// ambient and diffuse terms; returns its pending specular term.
#[inline(always)]
pub fn positional<R: Real>(
    l: &LightConsts,
    spot: bool,
    v: &Surface<R>,
    acc: &mut LightSums<R>,
) -> Option<SpecularTerm<R>> {
    let x = v.half_power;
    let zero = x.k(0.0);
    let d = [
        x.k(l.position[0]) - v.p[0],
        x.k(l.position[1]) - v.p[1],
        x.k(l.position[2]) - v.p[2],
    ];
    let d2 = dot3(d, d);
    let dist = d2.sqrt();
    let lv = normalize3(d);
    let den = x.k(l.att[0]) + x.k(l.att[1]) * dist + x.k(l.att[2]) * d2;
    let mut atten = x.k(1.0) / den;
    if spot {
        let sd = k3(x, l.spot_dir);
        let rho = zero - dot3(lv, sd);
        let [cos_t, cos_p, falloff] = l.spot;
        let t = (rho - x.k(cos_p)) / x.k(cos_t - cos_p);
        let mid = pow(t, x.k(falloff));
        let f = R::sel(
            rho.gt(x.k(cos_t)),
            x.k(1.0),
            R::sel(rho.le(x.k(cos_p)), zero, mid),
        );
        atten = atten * f;
    }
    // Outside the range the light contributes nothing, ambient included.
    atten = R::sel(dist.gt(x.k(l.range)), zero, atten);
    add_scaled(&mut acc.ambient, l.ambient, atten);
    let n = v.n?;
    let ndl = dot3(n, lv);
    add_scaled(&mut acc.diffuse, l.diffuse, sat(ndl) * atten);
    let viewer = v.specular?;
    let h = match viewer {
        Some(e) => [lv[0] - e[0], lv[1] - e[1], lv[2] - e[2]],
        None => [lv[0], lv[1], lv[2] - x.k(1.0)],
    };
    Some(specular_term(l, n, h, ndl, Some(atten)))
}

/// How many lights' specular powers run in lockstep.
pub const LOCKSTEP: usize = 8;

/// One light of `kind`: ambient and diffuse added, specular term returned.
#[inline(always)]
pub fn light<R: Real>(
    kind: LightKind,
    l: &LightConsts,
    v: &Surface<R>,
    acc: &mut LightSums<R>,
) -> Option<SpecularTerm<R>> {
    match kind {
        LightKind::Directional => directional(l, v, acc),
        LightKind::Point => positional(l, false, v, acc),
        LightKind::Spot => positional(l, true, v, acc),
    }
}

/// All lights (`kinds[i]` with `consts[i]`), in order: the ambient and
/// diffuse sums directly, the specular powers of up to [`LOCKSTEP`] lights
/// in lockstep ([`Multi`]), added to the specular sum in light order — the
/// same per-light operations and the same summation order as one light at a time.
#[inline(always)]
pub fn lights<R: Real>(
    kinds: &[LightKind],
    consts: &[LightConsts],
    v: &Surface<R>,
    acc: &mut LightSums<R>,
) {
    for (kg, cg) in kinds.chunks(LOCKSTEP).zip(consts.chunks(LOCKSTEP)) {
        let mut terms: [Option<SpecularTerm<R>>; LOCKSTEP] = [None; LOCKSTEP];
        for ((t, &k), l) in terms.iter_mut().zip(kg).zip(cg) {
            *t = light(k, l, v, acc);
        }
        if terms.iter().all(Option::is_none) {
            continue;
        }
        // The narrowest lockstep that holds the group (no work on padding).
        match kg.len() {
            0..=2 => specular_group::<R, 2>(&terms[..2], v.half_power, v.half_power_int, acc),
            3..=4 => specular_group::<R, 4>(&terms[..4], v.half_power, v.half_power_int, acc),
            _ => specular_group::<R, LOCKSTEP>(&terms, v.half_power, v.half_power_int, acc),
        }
    }
}

/// The specular powers of up to `N` pending terms in lockstep, added in order.
#[inline(always)]
fn specular_group<R: Real, const N: usize>(
    terms: &[Option<SpecularTerm<R>>],
    half_power: R,
    half_power_int: Option<u32>,
    acc: &mut LightSums<R>,
) {
    let zero = half_power.k(0.0);
    let mut xs = [half_power.k(1.0); N];
    for (xi, t) in xs.iter_mut().zip(terms).take(N) {
        if let Some(t) = t {
            *xi = t.cos2;
        }
    }
    // (N·H)² > 0 wherever the term is used (`on`); other lanes are masked.
    let p = match half_power_int {
        Some(n) => powi(Multi(xs), n).0,
        None => pow_pos(Multi(xs), Multi([half_power; N])).0,
    };
    for (t, &pi) in terms.iter().zip(&p) {
        if let Some(t) = t {
            let mut f = pi;
            if let Some(a) = t.atten {
                f = f * a;
            }
            add_scaled(&mut acc.specular, t.color, R::sel(t.on, f, zero));
        }
    }
}

/// Material colours used for one vertex: diffuse, ambient, specular, emissive (rgba).
pub type MaterialColors<R> = [[R; 4]; 4];

/// Final colours of §5.4: (diffuse, specular), clamped to [0, 1].
/// `has_normal` false leaves out the diffuse term; `specular` false gives rgb 0.
#[inline(always)]
pub fn assemble<R: Real>(
    m: &MaterialColors<R>,
    global: [f32; 4],
    sums: &LightSums<R>,
    has_normal: bool,
    specular: bool,
) -> ([R; 4], [R; 4]) {
    let [cd, ca, cs, ce] = *m;
    let x = cd[0];
    let mut diffuse = [x; 4];
    let mut spec = [x; 4];
    for i in 0..3 {
        let mut c = ca[i] * (x.k(global[i]) + sums.ambient[i]);
        if has_normal {
            c = c + cd[i] * sums.diffuse[i];
        }
        diffuse[i] = sat(c + ce[i]);
        spec[i] = if specular && has_normal {
            sat(cs[i] * sums.specular[i])
        } else {
            x.k(0.0)
        };
    }
    diffuse[3] = sat(cd[3]);
    spec[3] = sat(cs[3]);
    (diffuse, spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffp::setup::light_consts;
    use crate::state::{Light, LightType};

    const IDENTITY: [[f32; 4]; 4] = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];

    fn unit(v: [f64; 3]) -> [f64; 3] {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        [v[0] / l, v[1] / l, v[2] / l]
    }

    fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// The specular sum of the squared-cosine form equals §5.3's
    /// `(N·normalize(L − V))^P · atten` computed in f64 with normalised
    /// vectors, for directional and point lights, local and orthogonal
    /// viewers, and even, odd, fractional and zero powers (binary powering
    /// and the exp/log path).
    #[test]
    fn squared_cosine_specular_matches_the_normalised_formula() {
        let mut seed = 0x9E37_79B9u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0
        };
        let mut checked = 0;
        for case in 0..4000 {
            let point = case % 2 == 1;
            let local = case % 4 < 2;
            let power = [16.0f32, 30.0, 15.0, 7.5, 0.0, 1.0][case % 6];
            let n = unit([next(), next(), next()].map(f64::from)).map(|c| c as f32);
            let p = [next() * 4.0, next() * 4.0, 2.0 + next()];
            let light = Light {
                light_type: if point {
                    LightType::Point
                } else {
                    LightType::Directional
                },
                position: glam::Vec3::new(next() * 3.0, next() * 3.0, next() * 3.0),
                direction: glam::Vec3::new(next(), next(), next()),
                range: 100.0,
                attenuation0: 1.0,
                attenuation1: 0.25,
                specular: [1.0, 1.0, 1.0, 1.0],
                ..Light::default()
            };
            let consts = light_consts(&light, &IDENTITY);
            let kind = if point {
                LightKind::Point
            } else {
                LightKind::Directional
            };
            let viewer = local.then(|| crate::ffp::math::normalize3(p));
            let surface = Surface {
                p,
                n: Some(n),
                specular: Some(viewer),
                half_power: half_power(power),
                half_power_int: half_power_int(power),
            };
            let mut sums = LightSums::zero(0.0f32);
            lights(&[kind], &[consts], &surface, &mut sums);
            let got = f64::from(sums.specular[0]);

            let n = n.map(f64::from);
            let pf = p.map(f64::from);
            let (l, atten) = if point {
                let d = [
                    f64::from(light.position.x) - pf[0],
                    f64::from(light.position.y) - pf[1],
                    f64::from(light.position.z) - pf[2],
                ];
                let dist = dot(d, d).sqrt();
                (unit(d), 1.0 / (1.0 + 0.25 * dist))
            } else {
                let dir = light.direction;
                (unit([-dir.x, -dir.y, -dir.z].map(f64::from)), 1.0)
            };
            let e = if local { unit(pf) } else { [0.0, 0.0, 1.0] };
            let h = unit([l[0] - e[0], l[1] - e[1], l[2] - e[2]]);
            let (ndl, ndh) = (dot(n, l), dot(n, h));
            // Cases within rounding of the N·L > 0, N·H > 0 thresholds are
            // decided by f32 rounding: leave them out.
            if ndl.abs() < 1e-4 || ndh.abs() < 1e-4 {
                continue;
            }
            let want = if ndl > 0.0 && ndh > 0.0 {
                ndh.powf(f64::from(power)) * atten
            } else {
                0.0
            };
            // An absolute error of about 1e-6 in the f32 N·H, carried
            // through the power, plus a few ulps of the result.
            let pw = f64::from(power);
            let tol = if want == 0.0 {
                0.0
            } else {
                let slope = if pw == 0.0 {
                    0.0
                } else {
                    pw * ndh.powf(pw - 1.0)
                };
                (slope * 1e-6 + 2e-6 * ndh.powf(pw)) * atten + 1e-12
            };
            assert!(
                (got - want).abs() <= tol,
                "case {case}: power {power}, point {point}, local {local}: {got} vs {want}"
            );
            checked += 1;
        }
        assert!(checked > 3500, "{checked}");
    }
}
