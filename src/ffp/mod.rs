//! The fixed-function pipeline (fixed-function.md): vertex processing
//! (transform, blending, tweening, lighting, texgen, texture transforms,
//! vertex fog, point size, user clip distances) and the pixel texture-stage
//! cascade, each in an 8-lane Warp form and a scalar Reference form that
//! agree bit for bit.
//!
//! Data flow of a draw (entry points):
//! 1. [`FfpState`] (copied from the device state) and the declaration's
//!    [`FfpInputLayout::new`] → layout + [`crate::vertex::FetchPlan`].
//! 2. [`FfpVertexKey::new`] (state, layout, [`DrawOptions`]) → key;
//!    [`FfpVertexCache::get`] → the compiled [`FfpVertexProgram`];
//!    [`FfpVertexConsts::new`] → the draw's numbers.
//! 3. Per 8 vertices: [`crate::vertex::FetchStreams::fetch8`] → `IN_*`
//!    registers → [`FfpVertexProgram::run8`] → [`VertexOutput`]; or
//!    [`process_vertices`] over an index list → [`VertexBatches`] in the
//!    program's compact [`OutputLayout`], or [`process_vertices_into`]
//!    straight into the rasterizer's vertex rows through a [`RowSpread`]
//!    (the draw path; [`process_vertices_with`] also runs a [`BatchPass`]
//!    on each batch while it is in SoA rows). Reference:
//!    [`ReferenceVertex::process`] per vertex.
//! 4. Pixels: [`FfpPixelKey::new`] (state, bound [`StageTexture`]s,
//!    [`texgen::stage_divisors`]) → [`FfpPixelCache::get`] → [`FfpPixelProgram`]
//!    with [`FfpPixelConsts`]; per 8 pixels (two quads)
//!    [`FfpPixelProgram::shade8`] with a [`crate::texture_fetch::TextureFetch`];
//!    Reference: [`reference_shade8`] with a
//!    [`crate::texture_fetch::TextureFetchScalar`]. Fog ([`fog`]) and the
//!    alpha test follow in the output merger.
//!
//! Invariants: state decisions are made once per draw (keys); per-vertex and
//! per-pixel code never returns errors and never panics on NaN/INF input;
//! all arithmetic is plain IEEE single precision without FMA or approximate
//! reciprocals, with shared special functions ([`math`]).

pub mod fog;
pub mod key;
pub mod light;
pub mod math;
pub mod output;
pub mod point;
pub mod real;
pub mod scalar;
pub mod setup;
pub mod stages;
pub mod state;
pub mod texgen;
pub mod transform;
pub mod vertex;

pub use fog::{FogPath, VertexFog, VertexPath, fog_blend, fog_decision, table_fog_factor};
pub use key::{DrawOptions, FfpVertexKey};
pub use output::{OutputLayout, RowSource, RowSpread, VertexBatches, VertexOutput};
pub use scalar::ReferenceVertex;
pub use setup::FfpVertexConsts;
pub use stages::{
    FfpPixelCache, FfpPixelConsts, FfpPixelKey, FfpPixelProgram, PixelInput, StageTexture,
    reference_shade8,
};
pub use state::{FfpInputLayout, FfpState};
pub use vertex::{
    BatchPass, FFP_CACHE_ENTRIES, FfpVertexCache, FfpVertexProgram, VertexJob, process_vertices,
    process_vertices_into, process_vertices_with,
};
