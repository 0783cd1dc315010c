//! Vertex and index buffers (`IDirect3DVertexBuffer9`, `IDirect3DIndexBuffer9`).

use std::sync::Arc;

use bitflags::bitflags;

use super::storage::{Locked, MemoryTracker, Storage};
use crate::error::{Error, Result};
use crate::format::{Format, Pool, Usage};

bitflags! {
    /// `D3DLOCK_*` flags.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct LockFlags: u32 {
        /// D3DLOCK_READONLY: the caller will not write.
        const READONLY = 0x10;
        /// D3DLOCK_NOSYSLOCK.
        const NOSYSLOCK = 0x800;
        /// D3DLOCK_NOOVERWRITE: the caller will not touch data queued work uses.
        const NOOVERWRITE = 0x1000;
        /// D3DLOCK_DISCARD: the whole contents may be replaced (dynamic resources only).
        const DISCARD = 0x2000;
        /// D3DLOCK_DONOTWAIT.
        const DONOTWAIT = 0x4000;
        /// D3DLOCK_NO_DIRTY_UPDATE: do not add the locked region to the dirty region.
        const NO_DIRTY_UPDATE = 0x8000;
    }
}

/// What a buffer was created as (`D3DVERTEXBUFFER_DESC` / `D3DINDEXBUFFER_DESC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferDesc {
    /// VERTEXDATA, INDEX16 or INDEX32.
    pub format: Format,
    /// Creation usage.
    pub usage: Usage,
    /// Memory pool.
    pub pool: Pool,
    /// Size in bytes.
    pub size: u32,
    /// The FVF given at creation (vertex buffers; informational).
    pub fvf: u32,
}

#[derive(Debug)]
pub(crate) struct BufferInner {
    pub(crate) desc: BufferDesc,
    pub(crate) storage: Storage,
}

impl BufferInner {
    fn new(tracker: &Arc<MemoryTracker>, desc: BufferDesc, what: &str) -> Result<Arc<Self>> {
        Ok(Arc::new(BufferInner {
            storage: Storage::new(tracker, desc.size as usize, what)?,
            desc,
        }))
    }

    fn lock(&self, offset: u32, size: u32, flags: LockFlags, what: &str) -> Result<Locked<'_>> {
        if flags.contains(LockFlags::DISCARD) && !self.desc.usage.contains(Usage::DYNAMIC) {
            return Err(Error::invalid_call(format!(
                "{what}: D3DLOCK_DISCARD needs a buffer created with D3DUSAGE_DYNAMIC"
            )));
        }
        // D3D9: offset 0 and size 0 lock the whole buffer.
        let (start, end) = if offset == 0 && size == 0 {
            (0, self.desc.size)
        } else {
            let end = offset.checked_add(size).ok_or_else(|| {
                Error::invalid_call(format!(
                    "{what}: lock offset {offset} + size {size} overflows"
                ))
            })?;
            (offset, if size == 0 { self.desc.size } else { end })
        };
        self.storage.lock(
            start as usize..end as usize,
            flags.contains(LockFlags::DISCARD),
            what,
        )
    }

    fn write(&self, offset: u32, data: &[u8], what: &str) -> Result<()> {
        let end = (offset as usize).checked_add(data.len());
        match end {
            Some(end) if end <= self.desc.size as usize => {
                self.storage
                    .modify(|bytes| bytes[offset as usize..end].copy_from_slice(data));
                Ok(())
            }
            _ => Err(Error::invalid_call(format!(
                "{what}: writing {} bytes at offset {offset} exceeds the {}-byte buffer",
                data.len(),
                self.desc.size
            ))),
        }
    }
}

macro_rules! buffer_handle {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name(pub(crate) Arc<BufferInner>);

        impl $name {
            /// The creation description.
            pub fn desc(&self) -> BufferDesc {
                self.0.desc
            }

            /// Locks `size` bytes at `offset` (both 0: the whole buffer) for reading and writing.
            pub fn lock(&self, offset: u32, size: u32, flags: LockFlags) -> Result<Locked<'_>> {
                self.0.lock(offset, size, flags, $what)
            }

            /// Copies `data` into the buffer at byte `offset`.
            pub fn write(&self, offset: u32, data: &[u8]) -> Result<()> {
                self.0.write(offset, data, $what)
            }

            /// A copy of the buffer's bytes.
            pub fn read(&self) -> Vec<u8> {
                self.0.storage.snapshot().as_ref().clone()
            }

            /// Whether two handles name the same buffer.
            pub fn same(&self, other: &$name) -> bool {
                Arc::ptr_eq(&self.0, &other.0)
            }
        }
    };
}

buffer_handle!(
    /// A vertex buffer: a cheap, clonable handle (the COM reference count is an `Arc`).
    VertexBuffer,
    "vertex buffer"
);
buffer_handle!(
    /// An index buffer of 16- or 32-bit indices: a cheap, clonable handle.
    IndexBuffer,
    "index buffer"
);

impl VertexBuffer {
    pub(crate) fn create(
        tracker: &Arc<MemoryTracker>,
        size: u32,
        usage: Usage,
        fvf: u32,
        pool: Pool,
    ) -> Result<VertexBuffer> {
        let desc = BufferDesc {
            format: Format::VertexData,
            usage,
            pool,
            size,
            fvf,
        };
        Ok(VertexBuffer(BufferInner::new(
            tracker,
            desc,
            "vertex buffer",
        )?))
    }
}

impl IndexBuffer {
    pub(crate) fn create(
        tracker: &Arc<MemoryTracker>,
        size: u32,
        usage: Usage,
        format: Format,
        pool: Pool,
    ) -> Result<IndexBuffer> {
        let desc = BufferDesc {
            format,
            usage,
            pool,
            size,
            fvf: 0,
        };
        Ok(IndexBuffer(BufferInner::new(
            tracker,
            desc,
            "index buffer",
        )?))
    }

    /// Bytes per index (2 or 4).
    pub fn index_size(&self) -> u32 {
        if self.0.desc.format == Format::Index32 {
            4
        } else {
            2
        }
    }
}
