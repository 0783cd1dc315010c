//! The renderer's internal stages, reachable for warp9's own tests, benches,
//! examples and fuzz targets: the fixed-function stage (`ffp`), the pixel
//! stage interface (`pixel`), the Warp and Reference samplers (`sampler`,
//! `texture_fetch`), the SIMD backends (`simd`) and the shader interpreters
//! (`exec`).
//!
//! **Not a stable API.** Hidden from the documentation and outside semver:
//! anything here may change or go away in any release. Applications use the
//! D3D9-shaped API ([`crate::Device`] and the modules the crate root
//! documents); a test suite that wants to check one stage alone may use this
//! module at the version it pins.

/// The fixed-function vertex and texture stages (see the module's docs).
pub mod ffp {
    pub use crate::ffp::*;
}

/// The pixel-stage interface: stamps, attribute planes, fixed-point set-up.
pub mod pixel {
    pub use crate::pixel::*;
}

/// Texture sampling: bound textures, the Warp and Reference samplers.
pub mod sampler {
    pub use crate::sampler::*;
}

/// Built objects kept by state key, bounded in number.
pub mod state_cache {
    pub use crate::state_cache::*;
}

/// The SIMD backends and the kernel dispatch.
pub mod simd {
    pub use crate::simd::*;
}

/// The texture-fetch interface the shader interpreters and stages call.
pub mod texture_fetch {
    pub use crate::texture_fetch::*;
}

/// The shader interpreters (8-lane and scalar) and their prepared programs.
pub mod exec {
    pub use crate::shader::exec::*;
}
