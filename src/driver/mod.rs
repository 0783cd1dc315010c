//! The drivers' contract: what the pipeline hands a driver for one draw
//! (the decoded [`DrawState`], the render targets as [`FrameTargets`], the
//! interpolated [`Inputs`]) and the formulas both drivers apply the same way
//! (colour merge and fog in [`merge`], the point size in [`inputs`]).
//!
//! Invariant: this layer sits below `pipeline` and `api` and names neither;
//! the Warp driver (`raster`, `om`) and the Reference driver (`reference`)
//! depend on it, on `pixel`, `sampler` and `simd`, not on each other.

pub(crate) mod inputs;
pub(crate) mod merge;
pub(crate) mod pack;
pub(crate) mod state;
pub(crate) mod targets;

pub(crate) use inputs::{Inputs, point_size, point_size_row};
pub(crate) use state::DrawState;
pub(crate) use targets::{FrameTargets, TargetBytes, with_targets};
