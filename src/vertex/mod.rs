//! Vertex input descriptions: flexible vertex formats, vertex declarations
//! and primitive types.

mod decl;
mod fetch;
mod fvf;
mod index;
mod primitive;

pub use decl::{
    DeclMethod, DeclType, DeclUsage, RawVertexElement, VertexDeclaration, VertexElement,
};
pub use fetch::{
    FetchElement, FetchPlan, FetchStreams, STREAMSOURCE_INDEXEDDATA, STREAMSOURCE_INSTANCEDATA,
    StreamInput, StreamStep, convert_element, instancing,
};
pub use fvf::Fvf;
pub(crate) use index::IndexList;
pub use primitive::PrimitiveType;
