//! Textures (`IDirect3DTexture9`, `IDirect3DCubeTexture9`,
//! `IDirect3DVolumeTexture9`): mip chains of surfaces or volumes, with the
//! dirty region `UpdateTexture` copies.

use std::sync::{Arc, Mutex};

use super::storage::MemoryTracker;
use super::surface::{Box3, Surface, SurfaceDesc, SurfaceKind, Volume, VolumeDesc};
use crate::error::{Error, Result};
use crate::format::{Format, Pool, Usage};
use crate::state::{Rect, TextureFilter};

/// `D3DCUBEMAP_FACES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeFace {
    /// D3DCUBEMAP_FACE_POSITIVE_X (0).
    PositiveX,
    /// D3DCUBEMAP_FACE_NEGATIVE_X (1).
    NegativeX,
    /// D3DCUBEMAP_FACE_POSITIVE_Y (2).
    PositiveY,
    /// D3DCUBEMAP_FACE_NEGATIVE_Y (3).
    NegativeY,
    /// D3DCUBEMAP_FACE_POSITIVE_Z (4).
    PositiveZ,
    /// D3DCUBEMAP_FACE_NEGATIVE_Z (5).
    NegativeZ,
}

impl CubeFace {
    /// The six faces in D3D9 order.
    pub const ALL: [CubeFace; 6] = [
        CubeFace::PositiveX,
        CubeFace::NegativeX,
        CubeFace::PositiveY,
        CubeFace::NegativeY,
        CubeFace::PositiveZ,
        CubeFace::NegativeZ,
    ];

    /// The D3DCUBEMAP_FACES value.
    pub const fn raw(self) -> u32 {
        self as u32
    }
}

/// What a texture was created as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureDesc {
    /// Texel format.
    pub format: Format,
    /// Creation usage.
    pub usage: Usage,
    /// Memory pool.
    pub pool: Pool,
    /// Width of level 0 (edge length for cubes).
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Depth of level 0 (volumes; 1 otherwise).
    pub depth: u32,
    /// Number of mip levels.
    pub levels: u32,
}

/// The size of mip level `level` of an extent (`max(1, size >> level)`).
pub const fn mip_extent(size: u32, level: u32) -> u32 {
    let s = if level >= 32 { 0 } else { size >> level };
    if s == 0 { 1 } else { s }
}

/// The length of a full mip chain for the largest extent `max_extent`.
pub const fn full_chain(max_extent: u32) -> u32 {
    32 - (if max_extent == 0 { 1 } else { max_extent }).leading_zeros()
}

#[derive(Debug)]
struct TextureCommon {
    desc: TextureDesc,
    /// The dirty region in level-0 coordinates (None = clean). New textures are entirely dirty.
    dirty: Mutex<Option<Box3>>,
    autogen_filter: Mutex<TextureFilter>,
    lod: Mutex<u32>,
}

impl TextureCommon {
    fn new(desc: TextureDesc) -> TextureCommon {
        TextureCommon {
            desc,
            dirty: Mutex::new(Some(full_box(&desc))),
            autogen_filter: Mutex::new(TextureFilter::Linear),
            lod: Mutex::new(0),
        }
    }

    fn add_dirty(&self, b: Box3) {
        let mut d = self.dirty.lock().unwrap_or_else(|e| e.into_inner());
        *d = Some(match *d {
            None => b,
            Some(o) => Box3 {
                left: o.left.min(b.left),
                top: o.top.min(b.top),
                front: o.front.min(b.front),
                right: o.right.max(b.right),
                bottom: o.bottom.max(b.bottom),
                back: o.back.max(b.back),
            },
        });
    }

    fn take_dirty(&self) -> Option<Box3> {
        self.dirty.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

fn full_box(desc: &TextureDesc) -> Box3 {
    Box3 {
        left: 0,
        top: 0,
        front: 0,
        right: desc.width,
        bottom: desc.height,
        back: desc.depth,
    }
}

fn lockable(pool: Pool, usage: Usage) -> bool {
    pool != Pool::Default || usage.contains(Usage::DYNAMIC)
}

macro_rules! texture_common_api {
    () => {
        /// The creation description.
        pub fn desc(&self) -> TextureDesc {
            self.0.common.desc
        }

        /// The number of mip levels (`GetLevelCount`).
        pub fn level_count(&self) -> u32 {
            self.0.common.desc.levels
        }

        /// Adds a region (level-0 coordinates; None = everything) to the dirty
        /// region `UpdateTexture` copies (`AddDirtyRect` / `AddDirtyBox`).
        pub fn add_dirty_box(&self, region: Option<Box3>) {
            let full = full_box(&self.0.common.desc);
            // Clipped to the texture, so later per-level arithmetic stays in range.
            let r = region.unwrap_or(full);
            let clipped = Box3 {
                left: r.left.min(full.right),
                top: r.top.min(full.bottom),
                front: r.front.min(full.back),
                right: r.right.min(full.right),
                bottom: r.bottom.min(full.bottom),
                back: r.back.min(full.back),
            };
            self.0.common.add_dirty(clipped);
        }

        /// Sets the most detailed level sampled for managed textures (`SetLOD`); returns the old value.
        pub fn set_lod(&self, lod: u32) -> u32 {
            let mut l = self.0.common.lod.lock().unwrap_or_else(|e| e.into_inner());
            let clamped = lod.min(self.0.common.desc.levels.saturating_sub(1));
            let old = *l;
            if self.0.common.desc.pool == Pool::Managed {
                *l = clamped;
            }
            old
        }

        /// The most detailed level sampled (`GetLOD`); 0 for non-managed textures.
        pub fn lod(&self) -> u32 {
            *self.0.common.lod.lock().unwrap_or_else(|e| e.into_inner())
        }

        /// The filter `GenerateMipSubLevels` uses (`SetAutoGenFilterType`).
        pub fn set_autogen_filter_type(&self, filter: TextureFilter) -> Result<()> {
            if !matches!(filter, TextureFilter::Point | TextureFilter::Linear) {
                return Err(Error::invalid_call(format!(
                    "SetAutoGenFilterType: {filter:?} is not POINT or LINEAR"
                )));
            }
            *self
                .0
                .common
                .autogen_filter
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = filter;
            Ok(())
        }

        /// The filter `GenerateMipSubLevels` uses.
        pub fn autogen_filter_type(&self) -> TextureFilter {
            *self
                .0
                .common
                .autogen_filter
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        }

        pub(crate) fn take_dirty(&self) -> Option<Box3> {
            self.0.common.take_dirty()
        }
    };
}

#[derive(Debug)]
pub(crate) struct TextureInner {
    common: TextureCommon,
    levels: Vec<Surface>,
}

/// A 2D texture with a mip chain: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct Texture(pub(crate) Arc<TextureInner>);

impl Texture {
    pub(crate) fn create(tracker: &Arc<MemoryTracker>, desc: TextureDesc) -> Result<Texture> {
        let lock = lockable(desc.pool, desc.usage);
        let levels = (0..desc.levels)
            .map(|level| {
                Surface::create(
                    tracker,
                    SurfaceDesc {
                        format: desc.format,
                        kind: SurfaceKind::TextureLevel { level },
                        usage: desc.usage,
                        pool: desc.pool,
                        width: mip_extent(desc.width, level),
                        height: mip_extent(desc.height, level),
                    },
                    lock,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Texture(Arc::new(TextureInner {
            common: TextureCommon::new(desc),
            levels,
        })))
    }

    texture_common_api!();

    /// The surface of mip level `level` (`GetSurfaceLevel`).
    pub fn surface_level(&self, level: u32) -> Result<Surface> {
        self.0.levels.get(level as usize).cloned().ok_or_else(|| {
            Error::invalid_call(format!(
                "GetSurfaceLevel: level {level} of a {}-level texture",
                self.0.levels.len()
            ))
        })
    }

    /// Locks `rect` of level `level` and adds it to the dirty region (unless
    /// READONLY or NO_DIRTY_UPDATE), as `IDirect3DTexture9::LockRect`.
    pub fn lock_rect(
        &self,
        level: u32,
        rect: Option<Rect>,
        flags: super::LockFlags,
    ) -> Result<super::LockedRect<'_>> {
        let surface = self.0.levels.get(level as usize).ok_or_else(|| {
            Error::invalid_call(format!(
                "LockRect: level {level} of a {}-level texture",
                self.0.levels.len()
            ))
        })?;
        let locked = surface.lock_rect(rect, flags)?;
        if !flags.intersects(super::LockFlags::READONLY | super::LockFlags::NO_DIRTY_UPDATE) {
            let d = surface.desc();
            let r = rect.unwrap_or(Rect::of_size(d.width, d.height));
            self.0.common.add_dirty(scale_to_level0(r, level));
        }
        Ok(locked)
    }

    /// Writes `data` (rows `pitch` apart) into `rect` of level `level`: LockRect + copy + UnlockRect.
    pub fn write_level(
        &self,
        level: u32,
        rect: Option<Rect>,
        data: &[u8],
        pitch: usize,
    ) -> Result<()> {
        let surface = self.surface_level(level)?;
        surface.write_rect(rect, data, pitch)?;
        let d = surface.desc();
        let r = rect.unwrap_or(Rect::of_size(d.width, d.height));
        self.0.common.add_dirty(scale_to_level0(r, level));
        Ok(())
    }

    pub(crate) fn levels(&self) -> &[Surface] {
        &self.0.levels
    }
}

fn scale_to_level0(r: Rect, level: u32) -> Box3 {
    let s = |v: i32| (v.max(0) as u32).checked_shl(level).unwrap_or(u32::MAX);
    Box3 {
        left: s(r.left),
        top: s(r.top),
        right: s(r.right),
        bottom: s(r.bottom),
        front: 0,
        back: 1,
    }
}

#[derive(Debug)]
pub(crate) struct CubeTextureInner {
    common: TextureCommon,
    /// Face-major: `faces[face * levels + level]`.
    faces: Vec<Surface>,
}

/// A cube texture: six square faces, each with a mip chain; a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct CubeTexture(pub(crate) Arc<CubeTextureInner>);

impl CubeTexture {
    pub(crate) fn create(tracker: &Arc<MemoryTracker>, desc: TextureDesc) -> Result<CubeTexture> {
        let lock = lockable(desc.pool, desc.usage);
        let mut faces = Vec::new();
        for face in 0..6 {
            for level in 0..desc.levels {
                faces.push(Surface::create(
                    tracker,
                    SurfaceDesc {
                        format: desc.format,
                        kind: SurfaceKind::CubeFace { face, level },
                        usage: desc.usage,
                        pool: desc.pool,
                        width: mip_extent(desc.width, level),
                        height: mip_extent(desc.width, level),
                    },
                    lock,
                )?);
            }
        }
        Ok(CubeTexture(Arc::new(CubeTextureInner {
            common: TextureCommon::new(desc),
            faces,
        })))
    }

    texture_common_api!();

    /// The surface of `face` at mip level `level` (`GetCubeMapSurface`).
    pub fn cube_map_surface(&self, face: CubeFace, level: u32) -> Result<Surface> {
        let levels = self.0.common.desc.levels;
        if level >= levels {
            return Err(Error::invalid_call(format!(
                "GetCubeMapSurface: level {level} of a {levels}-level cube texture"
            )));
        }
        Ok(self.0.faces[(face.raw() * levels + level) as usize].clone())
    }

    pub(crate) fn faces(&self) -> &[Surface] {
        &self.0.faces
    }
}

#[derive(Debug)]
pub(crate) struct VolumeTextureInner {
    common: TextureCommon,
    levels: Vec<Volume>,
}

/// A volume (3D) texture with a mip chain: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct VolumeTexture(pub(crate) Arc<VolumeTextureInner>);

impl VolumeTexture {
    pub(crate) fn create(tracker: &Arc<MemoryTracker>, desc: TextureDesc) -> Result<VolumeTexture> {
        let lock = lockable(desc.pool, desc.usage);
        let levels = (0..desc.levels)
            .map(|level| {
                Volume::create(
                    tracker,
                    VolumeDesc {
                        format: desc.format,
                        usage: desc.usage,
                        pool: desc.pool,
                        width: mip_extent(desc.width, level),
                        height: mip_extent(desc.height, level),
                        depth: mip_extent(desc.depth, level),
                    },
                    lock,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(VolumeTexture(Arc::new(VolumeTextureInner {
            common: TextureCommon::new(desc),
            levels,
        })))
    }

    texture_common_api!();

    /// The volume of mip level `level` (`GetVolumeLevel`).
    pub fn volume_level(&self, level: u32) -> Result<Volume> {
        self.0.levels.get(level as usize).cloned().ok_or_else(|| {
            Error::invalid_call(format!(
                "GetVolumeLevel: level {level} of a {}-level volume texture",
                self.0.levels.len()
            ))
        })
    }

    pub(crate) fn levels(&self) -> &[Volume] {
        &self.0.levels
    }
}

/// Any texture, as bound to a sampler (`IDirect3DBaseTexture9`).
#[derive(Clone, Debug)]
pub enum BaseTexture {
    /// A 2D texture.
    Texture(Texture),
    /// A cube texture.
    Cube(CubeTexture),
    /// A volume texture.
    Volume(VolumeTexture),
}

impl BaseTexture {
    /// The creation description.
    pub fn desc(&self) -> TextureDesc {
        match self {
            BaseTexture::Texture(t) => t.desc(),
            BaseTexture::Cube(t) => t.desc(),
            BaseTexture::Volume(t) => t.desc(),
        }
    }
}

impl From<Texture> for BaseTexture {
    fn from(t: Texture) -> Self {
        BaseTexture::Texture(t)
    }
}

impl From<CubeTexture> for BaseTexture {
    fn from(t: CubeTexture) -> Self {
        BaseTexture::Cube(t)
    }
}

impl From<VolumeTexture> for BaseTexture {
    fn from(t: VolumeTexture) -> Self {
        BaseTexture::Volume(t)
    }
}

impl From<&Texture> for BaseTexture {
    fn from(t: &Texture) -> Self {
        BaseTexture::Texture(t.clone())
    }
}

impl From<&CubeTexture> for BaseTexture {
    fn from(t: &CubeTexture) -> Self {
        BaseTexture::Cube(t.clone())
    }
}

impl From<&VolumeTexture> for BaseTexture {
    fn from(t: &VolumeTexture) -> Self {
        BaseTexture::Volume(t.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_math() {
        assert_eq!(full_chain(1), 1);
        assert_eq!(full_chain(256), 9);
        assert_eq!(full_chain(300), 9);
        assert_eq!(mip_extent(300, 3), 37);
        assert_eq!(mip_extent(5, 7), 1);
        assert_eq!(mip_extent(5, 40), 1);
    }
}
