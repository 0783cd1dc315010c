//! warp9: a Direct3D 9-class renderer on the CPU.
//!
//! An application creates a [`Device`] for a feature level (9_1, 9_2, 9_3 or
//! the Shader Model 3 profile `sm3`) and a driver type ([`DriverType::Warp`],
//! the fast SIMD path, or [`DriverType::Reference`], the scalar oracle;
//! `Hardware` is never available). The device advertises exactly its
//! level's `D3DCAPS9` ([`Caps`]) and refuses any use beyond it with an
//! [`Error`] naming the cap.
//!
//! Data flows as in a D3D9 driver: the API validates every call once
//! ([`api`]); resources live in copy-on-write storage ([`resource`]); a draw
//! is checked against the caps and handed to the driver's pipeline as a
//! validated call; present converts the back buffer through the gamma ramp.
//! The shader bytecode toolchain is in [`shader`].
//!
//! ```
//! use warp9::{ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format};
//!
//! let mut dev = Device::create(&DeviceDesc {
//!     drivers: &[DriverType::Hardware, DriverType::Warp],
//!     levels: &[FeatureLevel::L9_3],
//!     back_buffer: (16, 16, Format::X8R8G8B8),
//!     ..DeviceDesc::default()
//! })?;
//! assert_eq!((dev.driver_type(), dev.feature_level()), (DriverType::Warp, FeatureLevel::L9_3));
//! assert_eq!(dev.get_device_caps().num_simultaneous_rts, 4);
//! dev.clear(&[], ClearFlags::TARGET, 0xff00_8000, 0.0, 0)?;
//! let mut frame = vec![0u32; 16 * 16];
//! dev.present_into(&mut frame)?;
//! assert!(frame.iter().all(|&p| p == 0xff00_8000));
//! # Ok::<(), warp9::Error>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod api;
pub mod caps;
pub mod error;
pub mod ffp;
pub mod format;
mod geom;
mod om;
mod pipeline;
pub mod pixel;
mod raster;
mod reference;
pub mod resource;
pub mod sampler;
pub mod shader;
pub mod simd;
pub mod state;
pub mod texture_fetch;
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

/// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
