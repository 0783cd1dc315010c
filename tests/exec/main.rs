//! The shader interpreters' tests, one module per subject (flow control,
//! per-instruction results, the bytecode.md vectors, linkage, pixel
//! programs, random differential programs, the exec fuzz target's inputs).
//!
//! One test binary rather than one per file: every module runs the 8-lane
//! interpreter through `warp9::internals::simd::dispatch`, which instantiates it for
//! both SIMD backends in the calling crate, so each separate binary paid
//! for that code generation again (about three minutes each on two cores).

mod exec_support;

mod differential;
mod flow;
mod flow_pixel;
mod fuzz_inputs;
mod instructions;
mod link;
mod pixel;
mod ps1;
mod vectors;
