//! Surfaces (`IDirect3DSurface9`) and volumes (`IDirect3DVolume9`): one 2D or
//! 3D image in one format, with lockable rectangles and boxes.

use std::sync::Arc;

use super::buffer::LockFlags;
use super::storage::{Locked, MemoryTracker, Storage, next_id};
use crate::error::{Error, Result};
use crate::format::{Format, ImageSize, Layout, Pool, Usage};
use crate::state::Rect;

/// What a surface is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SurfaceKind {
    /// A render target made by `CreateRenderTarget` (or the back buffer).
    RenderTarget,
    /// A depth-stencil surface made by `CreateDepthStencilSurface`.
    DepthStencil,
    /// An offscreen plain surface made by `CreateOffscreenPlainSurface`.
    OffscreenPlain,
    /// Mip level `level` of a 2D texture.
    TextureLevel {
        /// Mip level.
        level: u32,
    },
    /// Mip level `level` of cube face `face` (D3DCUBEMAP_FACE_POSITIVE_X = 0 .. NEGATIVE_Z = 5).
    CubeFace {
        /// Cube face.
        face: u32,
        /// Mip level.
        level: u32,
    },
}

/// `D3DSURFACE_DESC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceDesc {
    /// Pixel format.
    pub format: Format,
    /// What the surface is.
    pub kind: SurfaceKind,
    /// Creation usage (RENDERTARGET, DEPTHSTENCIL, DYNAMIC, ...).
    pub usage: Usage,
    /// Memory pool.
    pub pool: Pool,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

#[derive(Debug)]
pub(crate) struct SurfaceInner {
    pub(crate) id: u64,
    pub(crate) desc: SurfaceDesc,
    pub(crate) size: ImageSize,
    pub(crate) lockable: bool,
    pub(crate) storage: Storage,
}

/// A 2D image: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct Surface(pub(crate) Arc<SurfaceInner>);

/// A locked rectangle: rows are `pitch` bytes apart, starting at `bytes[0]`.
#[derive(Debug)]
pub struct LockedRect<'a> {
    /// The locked bytes, from the rectangle's first texel (or block) to its last.
    pub bytes: Locked<'a>,
    /// Bytes from one row (of texels, or of 4x4 blocks) to the next.
    pub pitch: usize,
}

impl Surface {
    pub(crate) fn create(
        tracker: &Arc<MemoryTracker>,
        desc: SurfaceDesc,
        lockable: bool,
    ) -> Result<Surface> {
        let size = desc
            .format
            .image_size(desc.width, desc.height, 1)
            .ok_or_else(|| {
                Error::out_of_memory(
                    &format!("{}x{} {:?} surface", desc.width, desc.height, desc.format),
                    u64::MAX,
                )
            })?;
        Ok(Surface(Arc::new(SurfaceInner {
            id: next_id(),
            storage: Storage::new(tracker, size.total, "surface")?,
            desc,
            size,
            lockable,
        })))
    }

    /// The surface's description.
    pub fn desc(&self) -> SurfaceDesc {
        self.0.desc
    }

    /// Bytes from one row to the next in the surface's storage.
    pub fn pitch(&self) -> usize {
        self.0.size.row_pitch
    }

    /// Whether two handles name the same surface.
    pub fn same(&self, other: &Surface) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    pub(crate) fn id(&self) -> u64 {
        self.0.id
    }

    /// Locks `rect` (None: the whole surface), as `IDirect3DSurface9::LockRect`.
    /// Block-compressed surfaces need a rectangle aligned to 4x4 blocks.
    pub fn lock_rect(&self, rect: Option<Rect>, flags: LockFlags) -> Result<LockedRect<'_>> {
        let d = self.0.desc;
        if !self.0.lockable {
            return Err(Error::invalid_call(format!(
                "LockRect: this {:?} surface ({:?} pool, usage {:?}) is not lockable",
                d.kind, d.pool, d.usage
            )));
        }
        if flags.contains(LockFlags::DISCARD) && !d.usage.contains(Usage::DYNAMIC) {
            return Err(Error::invalid_call(
                "LockRect: D3DLOCK_DISCARD needs D3DUSAGE_DYNAMIC",
            ));
        }
        let r = rect.unwrap_or(Rect::of_size(d.width, d.height));
        r.check_within(d.width, d.height, "LockRect rectangle")?;
        let range = self.byte_range(r)?;
        let bytes = self
            .0
            .storage
            .lock(range, flags.contains(LockFlags::DISCARD), "surface")?;
        Ok(LockedRect {
            bytes,
            pitch: self.0.size.row_pitch,
        })
    }

    /// Where a rectangle's bytes lie: its first byte, row count and bytes per row.
    /// The rectangle must be inside the surface (checked by the caller).
    pub(crate) fn rect_bytes(&self, r: Rect) -> Result<RectBytes> {
        let d = self.0.desc;
        if r.is_empty() {
            return Ok(RectBytes::default());
        }
        let (unit, unit_bytes) = match d.format.layout() {
            Layout::Texel { bytes } => (1, bytes as usize),
            Layout::Block { bytes } => {
                let aligned = |v: i32, size: u32| v % 4 == 0 || v as u32 == size;
                if !(aligned(r.left, d.width)
                    && aligned(r.right, d.width)
                    && aligned(r.top, d.height)
                    && aligned(r.bottom, d.height))
                {
                    return Err(Error::invalid_call(format!(
                        "rectangle {r:?} of a {:?} surface is not aligned to 4x4 blocks",
                        d.format
                    )));
                }
                (4, bytes as usize)
            }
            Layout::None => return Ok(RectBytes::default()),
        };
        let left = r.left as usize / unit;
        let top = r.top as usize / unit;
        let right = (r.right as usize).div_ceil(unit);
        let bottom = (r.bottom as usize).div_ceil(unit);
        Ok(RectBytes {
            start: top * self.0.size.row_pitch + left * unit_bytes,
            rows: bottom - top,
            row_bytes: (right - left) * unit_bytes,
            pitch: self.0.size.row_pitch,
        })
    }

    /// The byte range a rectangle covers (first texel to last).
    pub(crate) fn byte_range(&self, r: Rect) -> Result<std::ops::Range<usize>> {
        let rb = self.rect_bytes(r)?;
        Ok(rb.range())
    }

    /// A copy of the whole surface's bytes (rows `pitch()` apart).
    pub fn read_bytes(&self) -> Vec<u8> {
        self.0.storage.snapshot().as_ref().clone()
    }

    /// Copies `data` (rows `pitch` bytes apart) into `rect`, bypassing
    /// lockability as the device's own uploads (`UpdateSurface`) do.
    pub(crate) fn write_rect_unchecked(&self, rect: Rect, data: &[u8], pitch: usize) -> Result<()> {
        let rb = self.rect_bytes(rect)?;
        // Checked: the caller's pitch can be anything.
        let needed = if rb.rows == 0 {
            Some(0)
        } else {
            (rb.rows - 1)
                .checked_mul(pitch)
                .and_then(|n| n.checked_add(rb.row_bytes))
        };
        let Some(needed) = needed else {
            return Err(Error::invalid_call(format!(
                "a pitch of {pitch} bytes overflows over {} rows",
                rb.rows
            )));
        };
        if data.len() < needed || (rb.rows > 1 && pitch < rb.row_bytes) {
            return Err(Error::invalid_call(format!(
                "{} bytes with pitch {pitch} given for a rectangle that needs {needed} (rows of {})",
                data.len(),
                rb.row_bytes
            )));
        }
        self.0.storage.modify(|bytes| {
            for row in 0..rb.rows {
                let dst = rb.start + row * rb.pitch;
                bytes[dst..dst + rb.row_bytes]
                    .copy_from_slice(&data[row * pitch..row * pitch + rb.row_bytes]);
            }
        });
        Ok(())
    }

    /// Writes `data` (rows `pitch` bytes apart) into `rect` of a lockable surface:
    /// the safe equivalent of LockRect + copy + UnlockRect.
    pub fn write_rect(&self, rect: Option<Rect>, data: &[u8], pitch: usize) -> Result<()> {
        let d = self.0.desc;
        if !self.0.lockable {
            return Err(Error::invalid_call(format!(
                "write_rect: this {:?} surface ({:?} pool) is not lockable",
                d.kind, d.pool
            )));
        }
        let r = rect.unwrap_or(Rect::of_size(d.width, d.height));
        r.check_within(d.width, d.height, "write_rect rectangle")?;
        self.write_rect_unchecked(r, data, pitch)
    }

    pub(crate) fn storage(&self) -> &Storage {
        &self.0.storage
    }
}

/// `D3DBOX`: left/top/front inclusive, right/bottom/back exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Box3 {
    /// Left edge.
    pub left: u32,
    /// Top edge.
    pub top: u32,
    /// Right edge (exclusive).
    pub right: u32,
    /// Bottom edge (exclusive).
    pub bottom: u32,
    /// Front slice.
    pub front: u32,
    /// Back slice (exclusive).
    pub back: u32,
}

/// `D3DVOLUME_DESC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VolumeDesc {
    /// Texel format.
    pub format: Format,
    /// Creation usage.
    pub usage: Usage,
    /// Memory pool.
    pub pool: Pool,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Depth in slices.
    pub depth: u32,
}

#[derive(Debug)]
pub(crate) struct VolumeInner {
    pub(crate) desc: VolumeDesc,
    pub(crate) size: ImageSize,
    pub(crate) lockable: bool,
    pub(crate) storage: Storage,
}

/// One mip level of a volume texture: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct Volume(pub(crate) Arc<VolumeInner>);

/// A locked box: rows `row_pitch` apart, slices `slice_pitch` apart, from `bytes[0]`.
#[derive(Debug)]
pub struct LockedBox<'a> {
    /// The locked bytes, from the box's first texel to its last.
    pub bytes: Locked<'a>,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one slice to the next.
    pub slice_pitch: usize,
}

impl Volume {
    pub(crate) fn create(
        tracker: &Arc<MemoryTracker>,
        desc: VolumeDesc,
        lockable: bool,
    ) -> Result<Volume> {
        let size = desc
            .format
            .image_size(desc.width, desc.height, desc.depth)
            .ok_or_else(|| Error::out_of_memory("volume", u64::MAX))?;
        Ok(Volume(Arc::new(VolumeInner {
            storage: Storage::new(tracker, size.total, "volume")?,
            desc,
            size,
            lockable,
        })))
    }

    /// The volume's description.
    pub fn desc(&self) -> VolumeDesc {
        self.0.desc
    }

    /// Locks `bx` (None: the whole volume), as `IDirect3DVolume9::LockBox`.
    pub fn lock_box(&self, bx: Option<Box3>, flags: LockFlags) -> Result<LockedBox<'_>> {
        let d = self.0.desc;
        if !self.0.lockable {
            return Err(Error::invalid_call(format!(
                "LockBox: a {:?}-pool volume texture without D3DUSAGE_DYNAMIC is not lockable",
                d.pool
            )));
        }
        let b = bx.unwrap_or(Box3 {
            left: 0,
            top: 0,
            right: d.width,
            bottom: d.height,
            front: 0,
            back: d.depth,
        });
        if b.left > b.right
            || b.top > b.bottom
            || b.front > b.back
            || b.right > d.width
            || b.bottom > d.height
            || b.back > d.depth
        {
            return Err(Error::invalid_call(format!(
                "LockBox: box {b:?} is not inside the {}x{}x{} volume",
                d.width, d.height, d.depth
            )));
        }
        let texel = match d.format.layout() {
            Layout::Texel { bytes } => bytes as usize,
            _ => {
                return Err(Error::invalid_call(format!(
                    "LockBox: {:?} volumes cannot be locked by box",
                    d.format
                )));
            }
        };
        let (rp, sp) = (self.0.size.row_pitch, self.0.size.slice_pitch);
        let range = if b.left == b.right || b.top == b.bottom || b.front == b.back {
            0..0
        } else {
            let start = b.front as usize * sp + b.top as usize * rp + b.left as usize * texel;
            let end = (b.back as usize - 1) * sp
                + (b.bottom as usize - 1) * rp
                + b.right as usize * texel;
            start..end
        };
        Ok(LockedBox {
            bytes: self
                .0
                .storage
                .lock(range, flags.contains(LockFlags::DISCARD), "volume")?,
            row_pitch: rp,
            slice_pitch: sp,
        })
    }

    /// A copy of the whole volume's bytes.
    pub fn read_bytes(&self) -> Vec<u8> {
        self.0.storage.snapshot().as_ref().clone()
    }

    /// Bytes from one row to the next, and from one slice to the next.
    pub fn pitches(&self) -> (usize, usize) {
        (self.0.size.row_pitch, self.0.size.slice_pitch)
    }

    pub(crate) fn storage(&self) -> &Storage {
        &self.0.storage
    }
}

/// The bytes of a rectangle inside a surface's storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RectBytes {
    /// Offset of the first byte.
    pub(crate) start: usize,
    /// Number of rows (of texels, or of blocks).
    pub(crate) rows: usize,
    /// Bytes per row inside the rectangle.
    pub(crate) row_bytes: usize,
    /// Bytes between rows in the surface.
    pub(crate) pitch: usize,
}

impl RectBytes {
    /// From the first byte to the last byte of the rectangle.
    pub(crate) fn range(&self) -> std::ops::Range<usize> {
        if self.rows == 0 {
            0..0
        } else {
            self.start..self.start + (self.rows - 1) * self.pitch + self.row_bytes
        }
    }
}
