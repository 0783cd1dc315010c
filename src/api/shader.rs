//! Shader objects (`IDirect3DVertexShader9`, `IDirect3DPixelShader9`).

use std::sync::Arc;

/// What the device keeps of a created shader.
#[derive(Debug)]
pub(crate) struct ShaderInner {
    pub(crate) id: u64,
    pub(crate) tokens: Vec<u32>,
    /// The version token (`0xFFFE....` vertex, `0xFFFF....` pixel).
    pub(crate) version: u32,
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
                self.0.version
            }

            pub(crate) fn id(&self) -> u64 {
                self.0.id
            }
        }
    };
}

shader_api!(VertexShader);
shader_api!(PixelShader);
