//! The vertex state key: everything that changes *which* fixed-function
//! vertex code runs, resolved once per draw from the state and the input
//! layout.
//!
//! Job: decode raw states (with fallbacks for values validation refuses),
//! apply the "missing input" and "which mode applies" rules of
//! fixed-function.md (§1.3 defaults, §3 blending, §4 tweening, §5.2 colour
//! sources, §6–7 texgen and transforms, §9.2 fog decision, §8 points, §10
//! clip planes) so that the per-vertex code never re-decides state.
//!
//! Invariant: two states with equal keys run identical code; values that
//! only change numbers (matrices, colours, fog distances) are not in the key
//! but in [`super::setup::FfpVertexConsts`].

use super::fog::{VertexFog, vertex_fog};
use super::state::*;
use crate::state::{
    LightType, MaterialColorSource, RenderStateType as R, StateValue, TexCoordIndex, TexGen,
    TextureStageStateType as T, TextureTransformFlags, VertexBlendFlags,
};

/// Where one material colour comes from (after COLORVERTEX and presence, §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorSource {
    /// The material's colour.
    Material,
    /// The vertex COLOR0.
    Color0,
    /// The vertex COLOR1.
    Color1,
}

/// How positions and normals reach eye space (§2–§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendKey {
    /// World·View with the inverse-transpose normal matrix.
    Off,
    /// Tweening by TWEENFACTOR; which of POSITION1 / NORMAL1 take part.
    Tween {
        /// POSITION1 is present.
        position: bool,
        /// NORMAL1 (and NORMAL0) are present.
        normal: bool,
    },
    /// Weighted blending of `matrices` (1..4) World_i·View in eye space.
    Weights {
        /// Number of matrices (weights read: `matrices - 1`).
        matrices: u8,
        /// Matrix indices come from BLENDINDICES0.
        indexed: bool,
        /// The indices are a FLOAT1 to round (index 0 only).
        index_float: bool,
    },
}

/// The kind of one enabled light.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LightKind {
    /// D3DLIGHT_DIRECTIONAL.
    Directional,
    /// D3DLIGHT_POINT.
    Point,
    /// D3DLIGHT_SPOT.
    Spot,
}

/// Lighting part of the key (present when D3DRS_LIGHTING is TRUE).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LightingKey {
    /// The enabled lights' kinds, in light-index order.
    pub lights: Vec<LightKind>,
    /// D3DRS_SPECULARENABLE.
    pub specular: bool,
    /// D3DRS_LOCALVIEWER.
    pub local_viewer: bool,
    /// Diffuse, ambient, specular, emissive sources.
    pub sources: [ColorSource; 4],
}

/// Where a stage's texture coordinate comes from (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexSource {
    /// TEXCOORDn of the vertex with its component count.
    PassThru {
        /// Input register set n.
        set: u8,
        /// Components the declaration supplies (1..4).
        width: u8,
    },
    /// The set is not in the declaration: (0, 0, 0, 1), width 4.
    Missing,
    /// CAMERASPACENORMAL.
    Normal,
    /// CAMERASPACEPOSITION.
    Position,
    /// CAMERASPACEREFLECTIONVECTOR.
    Reflection,
    /// SPHEREMAP.
    SphereMap,
}

/// One stage's coordinate computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexKey {
    /// Source.
    pub source: TexSource,
    /// D3DTTFF_COUNTn (0: no matrix).
    pub count: u8,
}

/// Point-size part of the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointKey {
    /// PSIZE comes from the vertex.
    pub per_vertex: bool,
    /// POINTSCALEENABLE (never for pre-transformed vertices).
    pub scale: bool,
}

/// Everything that selects fixed-function vertex code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FfpVertexKey {
    /// POSITIONT input: no transform, lighting, texgen or fog computation.
    pub pretransformed: bool,
    /// Blending / tweening.
    pub blend: BlendKey,
    /// A normal is present (NORMAL0).
    pub normal: bool,
    /// NORMALIZENORMALS.
    pub normalize: bool,
    /// Lighting (None: vertex colours pass through).
    pub lighting: Option<LightingKey>,
    /// COLOR0 / COLOR1 present (bit 0 / bit 1).
    pub colors: u8,
    /// Per output stage: its coordinate computation (None: not needed, written as (0,0,0,1)).
    pub tex: [Option<TexKey>; 8],
    /// Vertex fog.
    pub fog: VertexFog,
    /// Point size (None: not drawing points).
    pub point: Option<PointKey>,
    /// Enabled user clip planes (bit i: plane i) when CLIPPING is TRUE.
    pub clip_planes: u8,
}

/// What the caller knows about the draw beyond the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOptions {
    /// The primitive is a point list (point size is computed).
    pub points: bool,
    /// Output stages whose coordinates are needed (bit s: stage s).
    pub tex_stages: u8,
    /// Software vertex processing: no MaxActiveLights limit.
    pub max_lights: u32,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            points: false,
            tex_stages: 0xFF,
            max_lights: u32::MAX,
        }
    }
}

fn source(raw: u32, color_vertex: bool, layout: &FfpInputLayout) -> ColorSource {
    match MaterialColorSource::from_raw(raw) {
        Some(MaterialColorSource::Color1) if color_vertex && layout.has(IN_COLOR0) => {
            ColorSource::Color0
        }
        Some(MaterialColorSource::Color2) if color_vertex && layout.has(IN_COLOR1) => {
            ColorSource::Color1
        }
        _ => ColorSource::Material,
    }
}

/// The blend mode of §3–§4 after the "missing input" rules.
pub fn blend_key(state: &FfpState, layout: &FfpInputLayout) -> BlendKey {
    let vb =
        VertexBlendFlags::from_raw(state.rs(R::VertexBlend)).unwrap_or(VertexBlendFlags::Disable);
    let indexed = state.rs_bool(R::IndexedVertexBlendEnable) && layout.has(IN_BLENDINDICES);
    let weights = |matrices: u8| BlendKey::Weights {
        matrices,
        indexed,
        index_float: indexed && layout.blend_index_float,
    };
    match vb {
        VertexBlendFlags::Disable => BlendKey::Off,
        VertexBlendFlags::Weights0 => weights(1),
        VertexBlendFlags::Weights1 | VertexBlendFlags::Weights2 | VertexBlendFlags::Weights3 => {
            if layout.has(IN_BLENDWEIGHT) {
                weights(vb as u8 + 1)
            } else {
                BlendKey::Off
            }
        }
        VertexBlendFlags::Tweening => {
            let position = layout.has(IN_POSITION1);
            let normal = layout.has(IN_NORMAL1) && layout.has(IN_NORMAL0);
            if position || layout.has(IN_NORMAL1) {
                BlendKey::Tween { position, normal }
            } else {
                BlendKey::Off
            }
        }
    }
}

/// The coordinate computation of `stage` (§6.1, §7.1).
pub fn tex_key(state: &FfpState, layout: &FfpInputLayout, stage: usize) -> TexKey {
    let tci =
        TexCoordIndex::from_raw(state.tss(stage, T::TexCoordIndex)).unwrap_or(TexCoordIndex {
            index: state.tss(stage, T::TexCoordIndex) & 7,
            generate: TexGen::PassThru,
        });
    let ttff = TextureTransformFlags::lenient(state.tss(stage, T::TextureTransformFlags));
    let pass = || {
        let set = tci.index as usize;
        match layout.tex_width[set] {
            0 => TexSource::Missing,
            w => TexSource::PassThru {
                set: set as u8,
                width: w,
            },
        }
    };
    if layout.pretransformed {
        // No generation and no matrix for pre-transformed vertices (§2.3).
        return TexKey {
            source: pass(),
            count: 0,
        };
    }
    let source = match tci.generate {
        TexGen::PassThru => pass(),
        TexGen::CameraSpaceNormal => TexSource::Normal,
        TexGen::CameraSpacePosition => TexSource::Position,
        TexGen::CameraSpaceReflectionVector => TexSource::Reflection,
        TexGen::SphereMap => TexSource::SphereMap,
    };
    TexKey {
        source,
        count: ttff.count as u8,
    }
}

impl FfpVertexKey {
    /// The key of a draw with `state`, input `layout` and `opts`.
    pub fn new(state: &FfpState, layout: &FfpInputLayout, opts: DrawOptions) -> FfpVertexKey {
        let colors = u8::from(layout.has(IN_COLOR0)) | (u8::from(layout.has(IN_COLOR1)) << 1);
        let tex = std::array::from_fn(|s| {
            (opts.tex_stages & (1 << s) != 0).then(|| tex_key(state, layout, s))
        });
        let point = opts.points.then(|| PointKey {
            per_vertex: layout.has(IN_PSIZE),
            scale: !layout.pretransformed && state.rs_bool(R::PointScaleEnable),
        });
        let fog = vertex_fog(state, layout.pretransformed);
        if layout.pretransformed {
            return FfpVertexKey {
                pretransformed: true,
                blend: BlendKey::Off,
                normal: false,
                normalize: false,
                lighting: None,
                colors,
                tex,
                fog,
                point,
                clip_planes: 0,
            };
        }
        let lighting = state.rs_bool(R::Lighting).then(|| {
            let cv = state.rs_bool(R::ColorVertex);
            let n = opts.max_lights.min(state.lights.len() as u32) as usize;
            LightingKey {
                lights: state.lights[..n]
                    .iter()
                    .map(|l| match l.light_type {
                        LightType::Directional => LightKind::Directional,
                        LightType::Point => LightKind::Point,
                        LightType::Spot => LightKind::Spot,
                    })
                    .collect(),
                specular: state.rs_bool(R::SpecularEnable),
                local_viewer: state.rs_bool(R::LocalViewer),
                sources: [
                    source(state.rs(R::DiffuseMaterialSource), cv, layout),
                    source(state.rs(R::AmbientMaterialSource), cv, layout),
                    source(state.rs(R::SpecularMaterialSource), cv, layout),
                    source(state.rs(R::EmissiveMaterialSource), cv, layout),
                ],
            }
        });
        let clip_planes = if state.rs_bool(R::Clipping) {
            (state.rs(R::ClipPlaneEnable) & 0x3F) as u8
        } else {
            0
        };
        FfpVertexKey {
            pretransformed: false,
            blend: blend_key(state, layout),
            normal: layout.has(IN_NORMAL0),
            normalize: state.rs_bool(R::NormalizeNormals),
            lighting,
            colors,
            tex,
            fog,
            point,
            clip_planes,
        }
    }
}
