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
//! A complete program: create a device, draw a textured triangle, read the
//! pixels back.
//!
//! ```
//! use warp9::{
//!     ClearFlags, Device, DeviceDesc, DriverType, FeatureLevel, Format, Fvf, Pool,
//!     PrimitiveType, Usage,
//! };
//!
//! let mut dev = Device::create(&DeviceDesc {
//!     drivers: &[DriverType::Hardware, DriverType::Warp],
//!     levels: &[FeatureLevel::L9_3],
//!     back_buffer: (16, 16, Format::X8R8G8B8),
//!     ..DeviceDesc::default()
//! })?;
//! // No GPU: the fallback lands on Warp, with exactly 9_3's caps.
//! assert_eq!((dev.driver_type(), dev.feature_level()), (DriverType::Warp, FeatureLevel::L9_3));
//! assert_eq!(dev.get_device_caps().num_simultaneous_rts, 4);
//!
//! // A 2x2 texture: red, green / blue, white.
//! let tex = dev.create_texture(2, 2, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)?;
//! let texels: Vec<u8> = [0xffff_0000u32, 0xff00_ff00, 0xff00_00ff, 0xffff_ffff]
//!     .iter()
//!     .flat_map(|t| t.to_le_bytes())
//!     .collect();
//! tex.write_level(0, None, &texels, 8)?;
//! dev.set_texture(0, Some((&tex).into()))?;
//!
//! // One pre-transformed triangle (x, y, z, rhw, u, v) covering the 16x16
//! // target; D3D9 pixel centres are at integer coordinates, so the corner
//! // at (-0.5, -0.5) puts texel centres on pixel centres.
//! let triangle: [[f32; 6]; 3] = [
//!     [-0.5, -0.5, 0.5, 1.0, 0.0, 0.0],
//!     [31.5, -0.5, 0.5, 1.0, 2.0, 0.0],
//!     [-0.5, 31.5, 0.5, 1.0, 0.0, 2.0],
//! ];
//! let bytes: Vec<u8> = triangle.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
//! dev.clear(&[], ClearFlags::TARGET, 0xff20_2020, 1.0, 0)?;
//! dev.begin_scene()?;
//! dev.set_fvf(Fvf::XYZRHW | Fvf::TEX1)?;
//! dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &bytes, 24)?;
//! dev.end_scene()?;
//!
//! let mut frame = vec![0u32; 16 * 16];
//! dev.present_into(&mut frame)?; // 0xAARRGGBB per pixel, row by row
//! // Point sampling (the default): each 8x8 quarter shows one texel.
//! assert_eq!(frame[0], 0xffff_0000);
//! assert_eq!(frame[15], 0xff00_ff00);
//! assert_eq!(frame[15 * 16], 0xff00_00ff);
//! assert_eq!(frame[15 * 16 + 15], 0xffff_ffff);
//! # Ok::<(), warp9::Error>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod api;
pub mod caps;
mod device_state;
mod driver;
pub mod error;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
mod ffp;
pub mod format;
mod geom;
#[doc(hidden)]
pub mod internals;
mod om;
mod pipeline;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
mod pixel;
mod raster;
mod reference;
pub mod resource;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
mod sampler;
pub mod shader;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
mod simd;
pub mod state;
mod state_cache;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
mod texture_fetch;
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
