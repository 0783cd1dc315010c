//! The fixed-function pipeline's tests, one module per subject: vertex
//! fetch, transforms and vertex blending, lighting, fog / points / clip
//! planes, texture stages (the cascade and the one-texture Warp stage),
//! and Warp against Reference on random states.
//!
//! One test binary rather than one per file: the modules share their
//! helpers and the generic 8-lane code they instantiate.

mod ffp_common;

mod fetch;
mod fog_point_clip;
mod lighting;
mod random;
mod stages;
mod tex_stage;
mod vertex;
