//! The sampler's tests, one module per subject: per-format decode,
//! filtering and addressing against hand-computed values, the Warp fast
//! path and random requests against the Reference, and the sampling
//! expectations of Wine's D3D9 visual tests.
//!
//! One test binary rather than one per file: each module instantiates the
//! 8-lane sampler for both SIMD backends, which a separate binary would
//! compile again.

mod sampler_support;

mod decode;
mod fast;
mod filter;
mod random;
mod wine;
