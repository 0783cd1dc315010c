//! warp9: a Direct3D 9-class renderer on the CPU.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod api;
pub mod caps;
pub mod error;
pub mod format;
mod geom;
mod om;
mod pipeline;
/// The pixel stage interface: attribute planes, 8-lane stamps, the stage trait.
pub mod pixel;
mod raster;
mod reference;
pub mod resource;
/// Shader bytecode toolchain: decode, validate, disassemble, assemble.
pub mod shader;
/// 8-lane SIMD vectors with run-time backend dispatch (portable `wide`, AVX2).
pub mod simd;
pub mod state;
pub mod vertex;

pub use api::{
    ClearFlags, Device, DeviceDesc, PrimitiveType, SimdChoice, StateBlockType, VertexProcessing,
};
pub use caps::{Caps, DriverType, FeatureLevel};
pub use error::{Error, ErrorKind, Result};
pub use format::{Format, Pool, ResourceKind, Usage};
pub use resource::{LockFlags, Surface, Texture};
pub use state::{RenderState, SamplerState, TextureStageState};
pub use vertex::Fvf;
