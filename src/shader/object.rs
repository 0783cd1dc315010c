//! Shader objects (`IDirect3DVertexShader9`, `IDirect3DPixelShader9`): the
//! handles a device hands out for bytecode it decoded and validated once, at
//! creation (`Device::create_vertex_shader`). They live beside the toolchain,
//! below the device, so the draw path reads a bound shader without naming
//! the API layer.

use std::sync::Arc;

use super::{ConstantTable, Program, ShaderInfo};

/// What the device keeps of a created shader.
#[derive(Debug)]
pub(crate) struct ShaderInner {
    pub(crate) tokens: Vec<u32>,
    pub(crate) program: Program,
    pub(crate) info: ShaderInfo,
    pub(crate) constants: Option<ConstantTable>,
}

/// A created vertex shader: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct VertexShader(pub(crate) Arc<ShaderInner>);

/// A created pixel shader: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct PixelShader(pub(crate) Arc<ShaderInner>);

macro_rules! shader_api {
    ($t:ident) => {
        impl $t {
            /// The bytecode the shader was created from (`GetFunction`).
            pub fn function(&self) -> &[u32] {
                &self.0.tokens
            }

            /// The version token (`D3DVS_VERSION` / `D3DPS_VERSION`).
            pub fn version(&self) -> u32 {
                self.0.tokens.first().copied().unwrap_or(0)
            }

            /// The decoded program.
            pub fn program(&self) -> &Program {
                &self.0.program
            }

            /// What validation learnt about the program (registers, samplers, semantics...).
            pub fn info(&self) -> &ShaderInfo {
                &self.0.info
            }

            /// The constant table fxc embedded (CTAB), so constants can be set by name.
            pub fn constant_table(&self) -> Option<&ConstantTable> {
                self.0.constants.as_ref()
            }

            /// Whether two handles name the same shader.
            pub fn same(&self, other: &$t) -> bool {
                Arc::ptr_eq(&self.0, &other.0)
            }
        }
    };
}

shader_api!(VertexShader);
shader_api!(PixelShader);
