//! [`ShaderInfo`]: what validation learned about a program, for the stages
//! that bind and execute it (register footprint, semantics, samplers and
//! the features that select specialised execution paths).

use super::token::{Register, TextureType, Version, WriteMask};
use crate::vertex::DeclUsage;

/// An input or output register with its semantic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Semantic {
    /// The register (`v#`, `t#`, `o#`, `oT#`, `oPos`, `oC#`, ...).
    pub reg: Register,
    /// DeclUsage (declared, or implied by the register for vs < 3.0 / ps
    /// outputs and ps < 3.0 inputs).
    pub usage: DeclUsage,
    /// DeclUsage index.
    pub index: u8,
    /// Declared (inputs) or written (outputs) components.
    pub mask: WriteMask,
    /// Declared `_centroid`.
    pub centroid: bool,
}

/// Facts about a validated program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderInfo {
    /// Profile.
    pub version: Option<Version>,
    /// Number of temporaries used (highest `r#` + 1).
    pub temps: u32,
    /// Float constants read with a fixed index, as sorted `(first, count)` ranges.
    pub float_constants: Vec<(u32, u32)>,
    /// Integer constants read (`i#` indices, sorted).
    pub int_constants: Vec<u32>,
    /// Boolean constants read (`b#` indices, sorted).
    pub bool_constants: Vec<u32>,
    /// `def` values: register index and the four raw values.
    pub local_float_constants: Vec<(u32, [u32; 4])>,
    /// `defi` values.
    pub local_int_constants: Vec<(u32, [u32; 4])>,
    /// `defb` values.
    pub local_bool_constants: Vec<(u32, bool)>,
    /// Inputs with semantics and declared masks.
    pub inputs: Vec<Semantic>,
    /// Outputs with semantics and written masks.
    pub outputs: Vec<Semantic>,
    /// Declared samplers and their texture types.
    pub samplers: Vec<(u32, TextureType)>,
    /// Uses dynamic flow control (`if_comp`, `if p0`, `break_comp`, `breakp`, `callnz p0`).
    pub dynamic_branching: bool,
    /// Uses static flow control or loops.
    pub static_flow_control: bool,
    /// Contains `texkill`.
    pub uses_texkill: bool,
    /// Writes `oDepth`.
    pub writes_depth: bool,
    /// Uses derivatives (`dsx`, `dsy`, `texldd`, or implicit-LOD texture
    /// sampling in a pixel shader).
    pub uses_derivatives: bool,
    /// Reads `vFace`.
    pub uses_vface: bool,
    /// Reads `vPos`.
    pub uses_vpos: bool,
    /// Uses relative addressing anywhere.
    pub relative_addressing: bool,
    /// Uses predication.
    pub predication: bool,
    /// Instruction slots (bytecode.md §4.4 costs).
    pub instruction_slots: u32,
    /// Texture-instruction count (ps_2_x accounting).
    pub texture_instructions: u32,
    /// Arithmetic-instruction slots (ps_2_x accounting).
    pub arithmetic_slots: u32,
}
