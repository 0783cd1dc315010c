//! Resources: buffers, surfaces, volumes and textures, with their storage.
//!
//! Handles are cheap clones of an `Arc` (the COM reference count). Storage
//! is copy-on-write (see `storage`), so work queued against a resource sees
//! it as it was when the work was issued. Creation is validated by the API
//! layer against the device's level; constructors here take validated
//! descriptions.

mod buffer;
mod storage;
mod surface;
mod texture;

pub use buffer::{BufferDesc, IndexBuffer, LockFlags, VertexBuffer};
pub(crate) use storage::PendingWriter;
pub use storage::{Locked, MemoryTracker};
pub use surface::{
    Box3, LockedBox, LockedRect, Surface, SurfaceDesc, SurfaceKind, Volume, VolumeDesc,
};
pub use texture::{
    BaseTexture, CubeFace, CubeTexture, Texture, TextureDesc, VolumeTexture, full_chain, mip_extent,
};
