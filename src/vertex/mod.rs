//! Vertex input descriptions: flexible vertex formats and vertex declarations.

mod decl;
mod fvf;

pub use decl::{
    DeclMethod, DeclType, DeclUsage, RawVertexElement, VertexDeclaration, VertexElement,
};
pub use fvf::Fvf;
