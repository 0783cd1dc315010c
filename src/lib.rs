//! warp9: a Direct3D 9-class renderer on the CPU.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod caps;
pub mod error;
pub mod format;

pub use caps::{Caps, DriverType, FeatureLevel};
pub use error::{Error, ErrorKind, Result};
pub use format::{Format, Pool, ResourceKind, Usage};
