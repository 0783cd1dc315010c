//! The fixed-function state a draw hands to this module, and the vertex
//! input layout seen by fixed-function processing.
//!
//! Job: a self-contained, public copy of exactly the device state the
//! fixed-function pipeline reads (raw render and stage DWORDs as the device
//! stores them, transforms, enabled lights, material, clip planes, viewport),
//! so the pipeline can be driven by the device at draw time and by tests
//! directly; and the mapping of a vertex declaration onto the fixed input
//! registers ([`FfpInputLayout`]).
//!
//! Invariant: values are stored raw, as D3D9 setters accept them; every
//! decoding with a fallback happens in the key builder, so an invalid value
//! (which draw validation refuses anyway) can never make processing panic.

use glam::Mat4;

use crate::state::{
    Light, Material, RENDER_STATE_COUNT, RenderState, RenderStateType, STAGE_STATE_COUNT,
    TRANSFORM_SLOTS, TextureStageState, TextureStageStateType, TransformType, Viewport,
};
use crate::vertex::{DeclType, DeclUsage, FetchPlan, VertexElement};

/// Input register: POSITION0 (or POSITIONT0).
pub const IN_POSITION0: usize = 0;
/// Input register: POSITION1 (tweening).
pub const IN_POSITION1: usize = 1;
/// Input register: BLENDWEIGHT0.
pub const IN_BLENDWEIGHT: usize = 2;
/// Input register: BLENDINDICES0 (as unnormalised byte values or a FLOAT1).
pub const IN_BLENDINDICES: usize = 3;
/// Input register: NORMAL0.
pub const IN_NORMAL0: usize = 4;
/// Input register: NORMAL1 (tweening).
pub const IN_NORMAL1: usize = 5;
/// Input register: PSIZE0.
pub const IN_PSIZE: usize = 6;
/// Input register: COLOR0 (diffuse).
pub const IN_COLOR0: usize = 7;
/// Input register: COLOR1 (specular).
pub const IN_COLOR1: usize = 8;
/// Input register of TEXCOORDn: `IN_TEXCOORD0 + n`.
pub const IN_TEXCOORD0: usize = 9;
/// Number of fixed-function input registers.
pub const IN_COUNT: usize = 17;

/// The device state fixed-function processing reads (vertex and pixel parts).
#[derive(Clone, Debug)]
pub struct FfpState {
    /// Raw render states, indexed by D3DRS number.
    pub render: Vec<u32>,
    /// Raw texture-stage states of the 8 stages, indexed by D3DTSS number.
    pub stage: [[u32; STAGE_STATE_COUNT]; 8],
    /// Transforms, indexed by [`TransformType::slot`] (glam storage of D3D's row-major matrices).
    pub transforms: Vec<Mat4>,
    /// The enabled lights, in light-index order.
    pub lights: Vec<Light>,
    /// The material.
    pub material: Material,
    /// User clip planes (world space for fixed function).
    pub clip_planes: [[f32; 4]; 6],
    /// The viewport (its height scales point sizes).
    pub viewport: Viewport,
    /// `MaxPointSize` of the device.
    pub max_point_size: f32,
}

impl Default for FfpState {
    /// D3D9's initial state with a 640x480 viewport and MaxPointSize 256.
    fn default() -> Self {
        let mut render = vec![0u32; RENDER_STATE_COUNT];
        for key in RenderStateType::ALL {
            render[key.raw() as usize] = key.default_raw(false);
        }
        let stage = std::array::from_fn(|i| {
            let mut s = [0u32; STAGE_STATE_COUNT];
            for key in TextureStageStateType::ALL {
                s[key.raw() as usize] = key.default_raw(i as u32);
            }
            s
        });
        FfpState {
            render,
            stage,
            transforms: vec![Mat4::IDENTITY; TRANSFORM_SLOTS],
            lights: Vec::new(),
            material: Material::default(),
            clip_planes: [[0.0; 4]; 6],
            viewport: Viewport::full(640, 480),
            max_point_size: 256.0,
        }
    }
}

impl FfpState {
    /// Sets a render state (typed).
    pub fn set_render(&mut self, rs: RenderState) {
        let (k, v) = rs.to_raw();
        if let Some(slot) = self.render.get_mut(k.raw() as usize) {
            *slot = v;
        }
    }

    /// Sets a texture-stage state (typed) of `stage` (0..7).
    pub fn set_stage(&mut self, stage: usize, tss: TextureStageState) {
        let (k, v) = tss.to_raw();
        self.stage[stage & 7][k.raw() as usize] = v;
    }

    /// Sets a transform.
    pub fn set_transform(&mut self, t: TransformType, m: Mat4) {
        if let Some(slot) = t.slot().and_then(|i| self.transforms.get_mut(i)) {
            *slot = m;
        }
    }

    /// A transform.
    pub fn transform(&self, t: TransformType) -> Mat4 {
        t.slot()
            .and_then(|s| self.transforms.get(s).copied())
            .unwrap_or(Mat4::IDENTITY)
    }

    /// A raw render state.
    pub fn rs(&self, k: RenderStateType) -> u32 {
        self.render.get(k.raw() as usize).copied().unwrap_or(0)
    }

    /// A render state as a bool.
    pub fn rs_bool(&self, k: RenderStateType) -> bool {
        self.rs(k) != 0
    }

    /// A float render state.
    pub fn rs_f32(&self, k: RenderStateType) -> f32 {
        f32::from_bits(self.rs(k))
    }

    /// A raw texture-stage state.
    pub fn tss(&self, stage: usize, k: TextureStageStateType) -> u32 {
        self.stage[stage & 7][k.raw() as usize]
    }
}

/// Which fixed-function inputs a declaration supplies, and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FfpInputLayout {
    /// Bit i set: input register i is supplied.
    pub present: u32,
    /// The declaration uses POSITIONT0 (pre-transformed vertices).
    pub pretransformed: bool,
    /// Number of components of each TEXCOORDn element (0 if absent).
    pub tex_width: [u8; 8],
    /// The BLENDINDICES0 element is a FLOAT1 (XYZB5 without LASTBETA): round it.
    pub blend_index_float: bool,
}

impl FfpInputLayout {
    /// Whether input register `i` is supplied.
    pub fn has(&self, i: usize) -> bool {
        self.present & (1 << i) != 0
    }

    /// The layout of `elements` and the fetch plan filling the `IN_*` registers.
    pub fn new(elements: &[VertexElement]) -> (FfpInputLayout, FetchPlan) {
        let mut layout = FfpInputLayout {
            present: 0,
            pretransformed: false,
            tex_width: [0; 8],
            blend_index_float: false,
        };
        let width = |t: DeclType| match t {
            DeclType::Float1 => 1,
            DeclType::Float2 | DeclType::Short2 | DeclType::Short2N | DeclType::UShort2N => 2,
            DeclType::Float16_2 => 2,
            DeclType::Float3 | DeclType::UDec3 | DeclType::Dec3N => 3,
            DeclType::Unused => 0,
            _ => 4,
        };
        let plan = FetchPlan::new(elements, |e| {
            let i = e.usage_index as usize;
            let dst = match (e.usage, i) {
                (DeclUsage::Position, 0) => IN_POSITION0,
                (DeclUsage::PositionT, 0) => {
                    layout.pretransformed = true;
                    IN_POSITION0
                }
                (DeclUsage::Position, 1) => IN_POSITION1,
                (DeclUsage::BlendWeight, 0) => IN_BLENDWEIGHT,
                (DeclUsage::BlendIndices, 0) => IN_BLENDINDICES,
                (DeclUsage::Normal, 0) => IN_NORMAL0,
                (DeclUsage::Normal, 1) => IN_NORMAL1,
                (DeclUsage::PSize, 0) => IN_PSIZE,
                (DeclUsage::Color, 0) => IN_COLOR0,
                (DeclUsage::Color, 1) => IN_COLOR1,
                (DeclUsage::TexCoord, 0..=7) => {
                    layout.tex_width[i] = width(e.decl_type);
                    IN_TEXCOORD0 + i
                }
                _ => return None,
            };
            layout.present |= 1 << dst;
            let t = match (dst, e.decl_type) {
                // Blend indices in a D3DCOLOR are the raw bytes in memory order
                // (fixed-function.md §3.3 decision), i.e. read as UBYTE4.
                (IN_BLENDINDICES, DeclType::D3dColor) => DeclType::UByte4,
                (IN_BLENDINDICES, DeclType::Float1) => {
                    layout.blend_index_float = true;
                    DeclType::Float1
                }
                (_, t) => t,
            };
            Some((dst as u16, t))
        });
        // A POSITIONT0 declaration has no vertex processing: drop inputs it cannot use.
        if layout.pretransformed {
            layout.present &= !((1 << IN_POSITION1)
                | (1 << IN_BLENDWEIGHT)
                | (1 << IN_BLENDINDICES)
                | (1 << IN_NORMAL0)
                | (1 << IN_NORMAL1));
        }
        (layout, plan)
    }
}
