//! Device state: render, sampler and texture-stage states (typed and raw),
//! transforms, viewport, lights, material, and the values they take.
//!
//! Invariant: the device stores raw D3D9 DWORDs, exactly what the
//! application set (D3D9 setters accept any value of a known state); typed
//! views decode them, and draw-time validation rejects values a level cannot
//! render.

mod render;
mod sampler;
mod stage;
mod types;
mod values;

pub use render::{RENDER_STATE_COUNT, RenderState, RenderStateType, StateClass};
pub use sampler::{SAMPLER_SLOTS, SAMPLER_STATE_COUNT, Sampler, SamplerState, SamplerStateType};
pub use stage::{STAGE_STATE_COUNT, TextureStageState, TextureStageStateType};
pub use types::{
    IDENTITY, Light, LightType, Material, Rect, TRANSFORM_SLOTS, TransformType, Viewport,
};
pub use values::{
    Blend, BlendOp, CmpFunc, Color, Cull, DegreeType, FillMode, FogMode, MaterialColorSource,
    PatchEdgeStyle, ShadeMode, StateValue, StencilOp, TexCoordIndex, TexGen, TextureAddress,
    TextureArg, TextureFilter, TextureOp, TextureTransformFlags, VertexBlendFlags, ZBufferType,
};
