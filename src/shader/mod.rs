//! Direct3D 9 shader bytecode toolchain: decoder, validator, disassembler
//! and assembler for vs_1_1–vs_3_0 and ps_1_1–ps_3_0 (spec:
//! `shared/spec/bytecode.md`, device limits: `caps.md` §6 and §8).
//!
//! Data flow: `&[u32]` → [`decode`] → [`Program`] (compact typed IR) →
//! [`validate`] against [`ShaderLimits`] → [`ShaderInfo`] for the execution
//! stages. [`Program::disassemble`] prints fxc's listing syntax and
//! [`assemble`] reads it back; `assemble(disassemble(p))` reproduces the
//! program's tokens without its comment blocks.
//!
//! Nothing in this module panics on untrusted input, allocates more than
//! a small multiple of its input, or depends on the rest of the crate (`exec`, the interpreter, aside).

pub mod asm;
pub mod ctab;
mod decode;
mod disasm;
mod encode;
pub mod error;
#[allow(rustdoc::private_intra_doc_links)] // internal docs may link internals
pub(crate) mod exec;
mod fmt_float;
pub mod info;
pub mod ir;
pub mod limits;
pub(crate) mod object;
pub mod opcode;
pub mod token;
mod validate;

pub use asm::assemble;
pub use ctab::ConstantTable;
pub use decode::{bytecode_len, decode};
pub use error::{ShaderError, ShaderErrorKind};
pub use info::ShaderInfo;
pub use ir::{Declaration, Dst, Instruction, Payload, Program, RelativeAddress, Src};
pub use limits::ShaderLimits;
pub use opcode::Opcode;
pub use token::{RegisterFile, ShaderType, Version};
pub use validate::validate;

/// Disassemble a program (same as [`Program::disassemble`]).
pub fn disassemble(program: &Program) -> String {
    program.disassemble()
}
