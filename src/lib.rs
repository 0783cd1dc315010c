//! warp9: a Direct3D 9-class renderer on the CPU.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

/// Shader bytecode toolchain: decode, validate, disassemble, assemble.
pub mod shader;
