//! Per-draw constants of the fixed-function vertex stage: the numbers the
//! key does not decide (matrices, eye-space lights, material, fog, point and
//! clip parameters), computed once per draw.
//!
//! Job: move every per-draw computation out of the per-vertex code: World·View
//! products, the normal matrix (§2.4 with the singular-matrix decision),
//! lights transformed to eye space with View (§5.1), spot cone cosines,
//! the constant half vector of directional lights with a non-local viewer,
//! clip planes moved from world to eye space (§10).
//!
//! Invariant: the Warp and Reference vertex paths both read these
//! constants, so both see identical bits; the per-vertex formulas that use
//! them live in the formula modules.

use glam::{Mat3, Vec4};

use super::key::{BlendKey, FfpVertexKey};
use super::math::{normalize3, rows, upper3, xform3};
use super::state::FfpState;
use crate::state::{LightType, RenderStateType as R, TransformType};

/// One enabled light in eye space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightConsts {
    /// The light's type.
    pub kind: LightType,
    /// Diffuse colour (rgb).
    pub diffuse: [f32; 3],
    /// Specular colour (rgb).
    pub specular: [f32; 3],
    /// Ambient colour (rgb).
    pub ambient: [f32; 3],
    /// Position in eye space (point, spot).
    pub position: [f32; 3],
    /// Directional: the unit vector towards the light, `normalize(−Direction_eye)`.
    pub to_light: [f32; 3],
    /// Spot: `normalize(Direction_eye)`.
    pub spot_dir: [f32; 3],
    /// Directional with a non-local viewer: `normalize(to_light + (0, 0, −1))`.
    pub half_inf: [f32; 3],
    /// Range (point, spot).
    pub range: f32,
    /// Attenuation0..2.
    pub att: [f32; 3],
    /// Spot: cos(Theta / 2), cos(Phi / 2), Falloff.
    pub spot: [f32; 3],
}

/// Per-draw constants of the vertex stage.
#[derive(Clone, Debug)]
pub struct FfpVertexConsts {
    /// World_i·View (D3D row order) per blend matrix; 1 entry without blending, 256 when indexed.
    pub world_view: Vec<[[f32; 4]; 4]>,
    /// Upper 3x3 of each `world_view` (blended normals use it plainly, §3.4).
    pub world_view3: Vec<[[f32; 3]; 3]>,
    /// Normal matrix without blending: inverse transpose of World·View's 3x3 (§2.4).
    pub normal_matrix: [[f32; 3]; 3],
    /// Projection.
    pub projection: [[f32; 4]; 4],
    /// Texture matrices of the 8 stages.
    pub texture: [[[f32; 4]; 4]; 8],
    /// Enabled lights, in the key's order.
    pub lights: Vec<LightConsts>,
    /// Material diffuse, ambient, specular, emissive.
    pub material: [[f32; 4]; 4],
    /// Material power.
    pub power: f32,
    /// Global ambient (D3DRS_AMBIENT as floats).
    pub ambient: [f32; 4],
    /// FOGSTART, FOGEND, FOGDENSITY.
    pub fog: [f32; 3],
    /// POINTSIZE, POINTSIZE_MIN, effective max (min of POINTSIZE_MAX and MaxPointSize), viewport height.
    pub point: [f32; 4],
    /// POINTSCALE_A, _B, _C.
    pub point_scale: [f32; 3],
    /// Clip planes in eye space: `dot(P_eye, plane_eye) = dot(P_world, plane)`.
    pub clip: [[f32; 4]; 6],
    /// TWEENFACTOR.
    pub tween: f32,
}

/// D3DCOLOR as float RGBA.
pub fn color_rgba(c: u32) -> [f32; 4] {
    crate::state::Color(c).to_rgba()
}

fn rgb(c: [f32; 4]) -> [f32; 3] {
    [c[0], c[1], c[2]]
}

/// The normal matrix of §2.4: inverse(transpose(3x3)), or the 3x3 itself when singular.
///
/// A non-affine World·View (last column not (0, 0, 0, 1)) takes the upper
/// 3x3 of the full 4x4 inverse transpose instead, as Microsoft's reference
/// rasterizer does: Windows lights Wine's lighting_test "non-affine" quad
/// black, which the 3x3 inverse would light. For affine matrices the two
/// agree, so those keep the cheaper, exactly-rounded 3x3 path.
pub fn normal_matrix(wv: &[[f32; 4]; 4]) -> [[f32; 3]; 3] {
    let m3 = upper3(wv);
    let affine = wv[0][3] == 0.0 && wv[1][3] == 0.0 && wv[2][3] == 0.0 && wv[3][3] == 1.0;
    if !affine {
        let g = glam::Mat4::from_cols_array_2d(wv);
        let det = g.determinant();
        if det != 0.0 && det.is_finite() {
            // As below: transpose(inverse(g)) in glam storage holds the D3D
            // inverse transpose's rows as columns.
            let h = g.inverse().transpose().to_cols_array_2d();
            let n = [
                [h[0][0], h[0][1], h[0][2]],
                [h[1][0], h[1][1], h[1][2]],
                [h[2][0], h[2][1], h[2][2]],
            ];
            if n.iter().flatten().all(|v| v.is_finite()) {
                return n;
            }
        }
    }
    // glam Mat3 from D3D rows as columns: glam `m * v` = D3D `v · M`.
    let g = Mat3::from_cols_array_2d(&m3);
    if g.determinant() == 0.0 || !g.determinant().is_finite() {
        return m3;
    }
    // D3D row-vector N · inverse(transpose(M)); in glam storage (transposed)
    // that matrix is transpose(inverse(g)) read back as rows.
    g.inverse().transpose().to_cols_array_2d()
}

/// Eye-space constants of one light (§5.1).
pub fn light_consts(l: &crate::state::Light, view: &[[f32; 4]; 4]) -> LightConsts {
    let v3 = upper3(view);
    let p = l.position.to_array();
    let pos = {
        let t = xform3(p, &v3);
        [t[0] + view[3][0], t[1] + view[3][1], t[2] + view[3][2]]
    };
    let dir = xform3(l.direction.to_array(), &v3);
    let to_light = normalize3([-dir[0], -dir[1], -dir[2]]);
    let half_inf = normalize3([to_light[0], to_light[1], to_light[2] - 1.0]);
    LightConsts {
        kind: l.light_type,
        diffuse: rgb(l.diffuse),
        specular: rgb(l.specular),
        ambient: rgb(l.ambient),
        position: pos,
        to_light,
        spot_dir: normalize3(dir),
        half_inf,
        range: l.range,
        att: [l.attenuation0, l.attenuation1, l.attenuation2],
        spot: [(l.theta / 2.0).cos(), (l.phi / 2.0).cos(), l.falloff],
    }
}

impl FfpVertexConsts {
    /// The constants of `state` for a draw with `key` (the key decides which matrices are needed).
    pub fn new(state: &FfpState, key: &FfpVertexKey) -> FfpVertexConsts {
        let view_g = state.transform(TransformType::View);
        let view = rows(&view_g);
        let wv_of = |i: u8| rows(&(view_g * state.transform(TransformType::World(i))));
        let world_view: Vec<[[f32; 4]; 4]> = match key.blend {
            BlendKey::Weights { indexed: true, .. } => (0..=255).map(wv_of).collect(),
            BlendKey::Weights { matrices, .. } => (0..matrices).map(wv_of).collect(),
            _ => vec![wv_of(0)],
        };
        let world_view3 = world_view.iter().map(upper3).collect();
        let normal_matrix = normal_matrix(&world_view[0]);
        let lights = match &key.lighting {
            Some(lk) => state.lights[..lk.lights.len()]
                .iter()
                .map(|l| light_consts(l, &view))
                .collect(),
            None => Vec::new(),
        };
        let m = &state.material;
        // Planes: dot(P_world, pl) with P_world = P_eye · View⁻¹, so the eye
        // plane is View⁻¹ · pl (as a column), i.e. glam's view⁻¹ᵀ · pl.
        let inv_view_t = view_g.inverse().transpose();
        let clip =
            std::array::from_fn(|i| (inv_view_t * Vec4::from(state.clip_planes[i])).to_array());
        let clip = if key.clip_planes == 0 {
            [[0.0; 4]; 6]
        } else {
            clip
        };
        let _ = inv_view_t;
        FfpVertexConsts {
            world_view,
            world_view3,
            normal_matrix,
            projection: rows(&state.transform(TransformType::Projection)),
            texture: std::array::from_fn(|s| {
                rows(&state.transform(TransformType::Texture(s as u8)))
            }),
            lights,
            material: [m.diffuse, m.ambient, m.specular, m.emissive],
            power: m.power,
            ambient: color_rgba(state.rs(R::Ambient)),
            fog: super::fog::fog_params(state),
            point: [
                state.rs_f32(R::PointSize),
                state.rs_f32(R::PointSizeMin),
                state.rs_f32(R::PointSizeMax).min(state.max_point_size),
                state.viewport.height as f32,
            ],
            point_scale: [
                state.rs_f32(R::PointScaleA),
                state.rs_f32(R::PointScaleB),
                state.rs_f32(R::PointScaleC),
            ],
            clip,
            tween: state.rs_f32(R::TweenFactor),
        }
    }
}
