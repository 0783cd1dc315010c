//! Copies between resources: UpdateSurface, UpdateTexture, StretchRect,
//! GenerateMipSubLevels. Each validates pools, formats and rectangles as
//! D3D9 does, then copies bytes (or converts texels for StretchRect).

use super::device::Device;
use crate::error::{Error, Result};
use crate::format::{Layout, Pool, Usage, decode_texel, encode_color};
use crate::resource::{BaseTexture, Surface, mip_extent};
use crate::state::{Rect, TextureFilter};

impl Device {
    /// `UpdateSurface`: copies `src_rect` (None: all) of a D3DPOOL_SYSTEMMEM
    /// surface to `dest_point` of a D3DPOOL_DEFAULT surface of the same format.
    pub fn update_surface(
        &mut self,
        src: &Surface,
        src_rect: Option<Rect>,
        dest: &Surface,
        dest_point: Option<(i32, i32)>,
    ) -> Result<()> {
        let (s, d) = (src.desc(), dest.desc());
        if s.pool != Pool::SystemMem || d.pool != Pool::Default {
            return Err(Error::invalid_call(format!(
                "UpdateSurface: the source must be in D3DPOOL_SYSTEMMEM and the destination in D3DPOOL_DEFAULT (got {:?} -> {:?})",
                s.pool, d.pool
            )));
        }
        if s.format != d.format || s.format.is_depth() {
            return Err(Error::invalid_call(format!(
                "UpdateSurface: formats {:?} and {:?} must match and not be depth formats",
                s.format, d.format
            )));
        }
        let r = src_rect.unwrap_or(Rect::of_size(s.width, s.height));
        r.check_within(s.width, s.height, "UpdateSurface source rectangle")?;
        let (x, y) = dest_point.unwrap_or((0, 0));
        let dr = Rect::new(
            x,
            y,
            x.saturating_add(r.right - r.left),
            y.saturating_add(r.bottom - r.top),
        );
        dr.check_within(d.width, d.height, "UpdateSurface destination rectangle")?;
        copy_rect(src, r, dest, dr)
    }

    /// `UpdateTexture`: copies the dirty region of every level of a
    /// D3DPOOL_SYSTEMMEM texture to the matching levels of a D3DPOOL_DEFAULT
    /// texture of the same type and format, then marks the source clean.
    pub fn update_texture(&mut self, src: &BaseTexture, dest: &BaseTexture) -> Result<()> {
        let (s, d) = (src.desc(), dest.desc());
        if s.pool != Pool::SystemMem || d.pool != Pool::Default {
            return Err(Error::invalid_call(format!(
                "UpdateTexture: the source must be in D3DPOOL_SYSTEMMEM and the destination in D3DPOOL_DEFAULT (got {:?} -> {:?})",
                s.pool, d.pool
            )));
        }
        if s.format != d.format {
            return Err(Error::invalid_call(format!(
                "UpdateTexture: formats {:?} and {:?} differ",
                s.format, d.format
            )));
        }
        // The destination's level 0 matches the source level of the same size.
        let skip = (0..s.levels).find(|&l| {
            mip_extent(s.width, l) == d.width
                && mip_extent(s.height, l) == d.height
                && mip_extent(s.depth, l) == d.depth
        });
        let Some(skip) = skip else {
            return Err(Error::invalid_call(format!(
                "UpdateTexture: no level of the {}x{}x{} source matches the {}x{}x{} destination",
                s.width, s.height, s.depth, d.width, d.height, d.depth
            )));
        };
        let dest_levels = if d.usage.contains(Usage::AUTOGENMIPMAP) {
            1
        } else {
            d.levels
        };
        if s.levels - skip < dest_levels {
            return Err(Error::invalid_call(format!(
                "UpdateTexture: the source has {} matching levels, the destination {dest_levels}",
                s.levels - skip
            )));
        }
        let copy_level = |src_s: &Surface,
                          dst_s: &Surface,
                          level: u32,
                          dirty: crate::resource::Box3|
         -> Result<()> {
            let sd = src_s.desc();
            let shift = |v: u32| (v >> level).min(u32::MAX >> 1) as i32;
            let mut r = Rect::new(
                shift(dirty.left),
                shift(dirty.top),
                ((dirty.right + (1 << level.min(31)) - 1) >> level) as i32,
                ((dirty.bottom + (1 << level.min(31)) - 1) >> level) as i32,
            )
            .intersect(&Rect::of_size(sd.width, sd.height));
            if sd.format.is_compressed() {
                let align_down = |v: i32| v & !3;
                let align_up = |v: i32, max: u32| ((v + 3) & !3).min(max as i32);
                r = Rect::new(
                    align_down(r.left),
                    align_down(r.top),
                    align_up(r.right, sd.width),
                    align_up(r.bottom, sd.height),
                );
            }
            if r.is_empty() {
                return Ok(());
            }
            copy_rect(src_s, r, dst_s, r)
        };
        match (src, dest) {
            (BaseTexture::Texture(a), BaseTexture::Texture(b)) => {
                if let Some(dirty) = a.take_dirty() {
                    for l in 0..dest_levels {
                        copy_level(
                            &a.levels()[(skip + l) as usize],
                            &b.levels()[l as usize],
                            skip + l,
                            dirty,
                        )?;
                    }
                }
            }
            (BaseTexture::Cube(a), BaseTexture::Cube(b)) => {
                if let Some(dirty) = a.take_dirty() {
                    for face in 0..6u32 {
                        for l in 0..dest_levels {
                            let sa = &a.faces()[(face * s.levels + skip + l) as usize];
                            let sb = &b.faces()[(face * d.levels + l) as usize];
                            copy_level(sa, sb, skip + l, dirty)?;
                        }
                    }
                }
            }
            (BaseTexture::Volume(a), BaseTexture::Volume(b)) => {
                if a.take_dirty().is_some() {
                    for l in 0..dest_levels {
                        let va = &a.levels()[(skip + l) as usize];
                        let vb = &b.levels()[l as usize];
                        vb.storage().replace(va.storage().snapshot());
                    }
                }
            }
            _ => {
                return Err(Error::invalid_call(
                    "UpdateTexture: source and destination are different texture types",
                ));
            }
        }
        if d.usage.contains(Usage::AUTOGENMIPMAP) {
            self.generate_mip_sub_levels(dest);
        }
        Ok(())
    }

    /// `GenerateMipSubLevels`: rebuilds levels 1.. of an AUTOGENMIPMAP
    /// texture from level 0 with a 2x2 box filter (point: top-left texel).
    pub fn generate_mip_sub_levels(&mut self, texture: &BaseTexture) {
        let d = texture.desc();
        if !d.usage.contains(Usage::AUTOGENMIPMAP) || d.format.is_compressed() {
            return;
        }
        let chains: Vec<Vec<Surface>> = match texture {
            BaseTexture::Texture(t) => vec![t.levels().to_vec()],
            BaseTexture::Cube(t) => t
                .faces()
                .chunks(d.levels as usize)
                .map(<[Surface]>::to_vec)
                .collect(),
            BaseTexture::Volume(_) => return,
        };
        let filter = match texture {
            BaseTexture::Texture(t) => t.autogen_filter_type(),
            BaseTexture::Cube(t) => t.autogen_filter_type(),
            BaseTexture::Volume(t) => t.autogen_filter_type(),
        };
        for chain in chains {
            for pair in chain.windows(2) {
                downsample(&pair[0], &pair[1], filter == TextureFilter::Point);
            }
        }
    }

    /// `StretchRect`: copies `src_rect` of one D3DPOOL_DEFAULT surface to
    /// `dest_rect` of a render target, converting formats and scaling with
    /// `filter` (NONE/POINT or LINEAR; StretchRectFilterCaps).
    pub fn stretch_rect(
        &mut self,
        src: &Surface,
        src_rect: Option<Rect>,
        dest: &Surface,
        dest_rect: Option<Rect>,
        filter: TextureFilter,
    ) -> Result<()> {
        let (s, d) = (src.desc(), dest.desc());
        if s.pool != Pool::Default || d.pool != Pool::Default {
            return Err(Error::invalid_call(
                "StretchRect: both surfaces must be in D3DPOOL_DEFAULT",
            ));
        }
        if !d.usage.contains(Usage::RENDERTARGET) {
            return Err(Error::invalid_call(
                "StretchRect: the destination must be a render target",
            ));
        }
        if s.format.is_depth() || d.format.is_depth() || s.format.is_compressed() {
            return Err(Error::invalid_call(format!(
                "StretchRect: cannot stretch {:?} to {:?}",
                s.format, d.format
            )));
        }
        if !matches!(
            filter,
            TextureFilter::None | TextureFilter::Point | TextureFilter::Linear
        ) {
            return Err(Error::invalid_call(format!(
                "StretchRect: filter {filter:?} is not in StretchRectFilterCaps at level {}",
                self.level
            )));
        }
        let sr = src_rect.unwrap_or(Rect::of_size(s.width, s.height));
        let dr = dest_rect.unwrap_or(Rect::of_size(d.width, d.height));
        sr.check_within(s.width, s.height, "StretchRect source rectangle")?;
        dr.check_within(d.width, d.height, "StretchRect destination rectangle")?;
        if sr.is_empty() || dr.is_empty() {
            return Err(Error::invalid_call("StretchRect: an empty rectangle"));
        }
        if src.same(dest) && !sr.intersect(&dr).is_empty() {
            return Err(Error::invalid_call(
                "StretchRect: overlapping rectangles on one surface",
            ));
        }
        let src_bytes = src.storage().snapshot();
        let (Layout::Texel { bytes: sb }, Layout::Texel { bytes: db }) =
            (s.format.layout(), d.format.layout())
        else {
            return Err(Error::invalid_call("StretchRect: surfaces without texels"));
        };
        let (sb, db) = (sb as usize, db as usize);
        let (sp, dp) = (src.pitch(), dest.pitch());
        let texel = |x: i32, y: i32| -> [f32; 4] {
            let x = x.clamp(sr.left, sr.right - 1) as usize;
            let y = y.clamp(sr.top, sr.bottom - 1) as usize;
            let at = y * sp + x * sb;
            decode_texel(s.format, &src_bytes[at..at + sb])
        };
        let (sw, sh) = ((sr.right - sr.left) as f32, (sr.bottom - sr.top) as f32);
        let (dw, dh) = ((dr.right - dr.left) as f32, (dr.bottom - dr.top) as f32);
        let linear = filter == TextureFilter::Linear;
        dest.storage().modify(|out| {
            for y in dr.top..dr.bottom {
                for x in dr.left..dr.right {
                    // Sample at the destination pixel's centre mapped into the source rectangle.
                    let u = sr.left as f32 + ((x - dr.left) as f32 + 0.5) * sw / dw;
                    let v = sr.top as f32 + ((y - dr.top) as f32 + 0.5) * sh / dh;
                    let c = if linear {
                        let (fx, fy) = (u - 0.5, v - 0.5);
                        let (x0, y0) = (fx.floor(), fy.floor());
                        let (ax, ay) = (fx - x0, fy - y0);
                        let (x0, y0) = (x0 as i32, y0 as i32);
                        let t = [
                            texel(x0, y0),
                            texel(x0 + 1, y0),
                            texel(x0, y0 + 1),
                            texel(x0 + 1, y0 + 1),
                        ];
                        std::array::from_fn(|i| {
                            let top = t[0][i] + (t[1][i] - t[0][i]) * ax;
                            let bottom = t[2][i] + (t[3][i] - t[2][i]) * ax;
                            top + (bottom - top) * ay
                        })
                    } else {
                        texel(u.floor() as i32, v.floor() as i32)
                    };
                    let at = y as usize * dp + x as usize * db;
                    encode_color(d.format, c, &mut out[at..at + db]);
                }
            }
        });
        Ok(())
    }
}

/// Copies rectangle `sr` of `src` to rectangle `dr` (same size) of `dest`, byte for byte.
fn copy_rect(src: &Surface, sr: Rect, dest: &Surface, dr: Rect) -> Result<()> {
    let rb = src.rect_bytes(sr)?;
    let bytes = src.storage().snapshot();
    let mut packed = Vec::with_capacity(rb.rows * rb.row_bytes);
    for row in 0..rb.rows {
        let at = rb.start + row * rb.pitch;
        packed.extend_from_slice(&bytes[at..at + rb.row_bytes]);
    }
    dest.write_rect_unchecked(dr, &packed, rb.row_bytes)
}

/// Writes `dst` (half the size of `src`) as the 2x2 box filter (or point sample) of `src`.
fn downsample(src: &Surface, dst: &Surface, point: bool) {
    let (s, d) = (src.desc(), dst.desc());
    let Layout::Texel { bytes } = s.format.layout() else {
        return;
    };
    let b = bytes as usize;
    let (sp, dp) = (src.pitch(), dst.pitch());
    let src_bytes = src.storage().snapshot();
    let read = |x: u32, y: u32| {
        let (x, y) = (x.min(s.width - 1) as usize, y.min(s.height - 1) as usize);
        decode_texel(s.format, &src_bytes[y * sp + x * b..y * sp + x * b + b])
    };
    dst.storage().modify(|out| {
        for y in 0..d.height {
            for x in 0..d.width {
                let c = if point {
                    read(2 * x, 2 * y)
                } else {
                    let t = [
                        read(2 * x, 2 * y),
                        read(2 * x + 1, 2 * y),
                        read(2 * x, 2 * y + 1),
                        read(2 * x + 1, 2 * y + 1),
                    ];
                    std::array::from_fn(|i| (t[0][i] + t[1][i] + t[2][i] + t[3][i]) * 0.25)
                };
                let at = y as usize * dp + x as usize * b;
                encode_color(d.format, c, &mut out[at..at + b]);
            }
        }
    });
}
