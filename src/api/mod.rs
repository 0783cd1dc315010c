//! The public device API: creation, resources, state, draws, queries,
//! present. This is the only layer that validates; everything below it
//! takes validated types.

mod copy;
mod create;
mod desc;
mod device;
mod draw;
mod query;
pub(crate) mod shader;
mod state_api;
mod state_mask;
mod stateblock;
mod targets;
mod validate;

pub use crate::vertex::PrimitiveType;
pub use desc::{DeviceDesc, SimdChoice, VertexProcessing};
pub use device::{Device, GammaRamp};
pub use query::{IssueFlags, Query, QueryData, QueryType};
pub use shader::{PixelShader, VertexShader};
pub use state_mask::StateBlockType;
// Defined by the vertex fetch that reads them; named here too because
// `SetStreamSourceFreq` takes them.
pub use crate::vertex::{STREAMSOURCE_INDEXEDDATA, STREAMSOURCE_INSTANCEDATA};
pub use stateblock::StateBlock;
pub use targets::{ClearFlags, save_argb_png};
