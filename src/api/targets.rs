//! Render targets, depth-stencil, Clear, Present, readback and PNG output.

use std::path::Path;

use bitflags::bitflags;

use super::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::format::{
    Format, Layout, Pool, Usage, decode_texel, encode_color, encode_depth_stencil,
};
use crate::resource::{Surface, SurfaceKind};
use crate::state::{Color, Rect, RenderStateType, Viewport};

bitflags! {
    /// `D3DCLEAR_*`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ClearFlags: u32 {
        /// D3DCLEAR_TARGET: the render targets.
        const TARGET = 0x1;
        /// D3DCLEAR_ZBUFFER: the depth buffer.
        const ZBUFFER = 0x2;
        /// D3DCLEAR_STENCIL: the stencil buffer.
        const STENCIL = 0x4;
    }
}

impl Device {
    /// `SetRenderTarget`: slot `index` < NumSimultaneousRTs. Setting slot 0
    /// resets the viewport and scissor rectangle to the whole target; slot 0
    /// cannot be None. At 9_3 every target must have RT0's bit depth.
    pub fn set_render_target(&mut self, index: u32, target: Option<&Surface>) -> Result<()> {
        let max = self.caps.num_simultaneous_rts;
        if index >= max {
            return Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                "NumSimultaneousRTs",
                self.level,
                max,
                format!("render target index {index}"),
            ));
        }
        let i = index as usize;
        match target {
            None if i == 0 => Err(Error::invalid_call(
                "SetRenderTarget: slot 0 cannot be NULL",
            )),
            None => {
                self.render_targets[i] = None;
                Ok(())
            }
            Some(surface) => {
                let d = surface.desc();
                if !d.usage.contains(Usage::RENDERTARGET) {
                    return Err(Error::invalid_call(format!(
                        "SetRenderTarget: the surface ({:?}) was not created with D3DUSAGE_RENDERTARGET",
                        d.kind
                    )));
                }
                let bpp = d.format.bits_per_pixel();
                for (j, other) in self.render_targets.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    if let Some(o) = other {
                        let od = o.desc();
                        if !self.limits.mrt_independent_bit_depths
                            && od.format.bits_per_pixel() != bpp
                        {
                            return Err(Error::invalid_call(format!(
                                "SetRenderTarget: {:?} ({bpp} bits) in slot {i} and {:?} ({} bits) in slot {j}: all render targets need the same bit depth (no D3DPMISCCAPS_MRTINDEPENDENTBITDEPTHS at level {})",
                                d.format,
                                od.format,
                                od.format.bits_per_pixel(),
                                self.level
                            )));
                        }
                    }
                }
                self.render_targets[i] = Some(surface.clone());
                if i == 0 {
                    self.state.viewport = Viewport::full(d.width, d.height);
                    self.state.scissor = Rect::of_size(d.width, d.height);
                }
                Ok(())
            }
        }
    }

    /// `GetRenderTarget`.
    pub fn get_render_target(&self, index: u32) -> Result<Option<Surface>> {
        self.render_targets
            .get(index as usize)
            .cloned()
            .ok_or_else(|| Error::invalid_call(format!("GetRenderTarget: index {index}")))
    }

    /// `SetDepthStencilSurface` (None: no depth buffer).
    pub fn set_depth_stencil_surface(&mut self, surface: Option<&Surface>) -> Result<()> {
        if let Some(s) = surface
            && !s.desc().usage.contains(Usage::DEPTHSTENCIL)
        {
            return Err(Error::invalid_call(
                "SetDepthStencilSurface: the surface was not created with D3DUSAGE_DEPTHSTENCIL",
            ));
        }
        self.depth_stencil = surface.cloned();
        Ok(())
    }

    /// `GetDepthStencilSurface`.
    pub fn get_depth_stencil_surface(&self) -> Option<Surface> {
        self.depth_stencil.clone()
    }

    /// The rectangle Clear and draws may touch: the viewport, and the scissor
    /// rectangle when D3DRS_SCISSORTESTENABLE is set.
    pub(crate) fn clip_rect(&self) -> Rect {
        let mut r = self.state.viewport.rect();
        if self.state.rs_bool(RenderStateType::ScissorTestEnable) {
            r = r.intersect(&self.state.scissor);
        }
        r
    }

    /// `Clear`: the bound render targets, depth and/or stencil inside
    /// `rects` (empty: everything), limited to the viewport and, with
    /// D3DRS_SCISSORTESTENABLE, the scissor rectangle.
    pub fn clear(
        &mut self,
        rects: &[Rect],
        flags: ClearFlags,
        color: u32,
        z: f32,
        stencil: u32,
    ) -> Result<()> {
        if flags.is_empty() {
            return Err(Error::invalid_call("Clear: no D3DCLEAR_* flag"));
        }
        if flags.intersects(ClearFlags::ZBUFFER | ClearFlags::STENCIL) {
            let Some(ds) = &self.depth_stencil else {
                return Err(Error::invalid_call(
                    "Clear: D3DCLEAR_ZBUFFER/STENCIL without a depth-stencil surface",
                ));
            };
            if flags.contains(ClearFlags::STENCIL) && ds.desc().format.stencil_bits() == 0 {
                return Err(Error::invalid_call(format!(
                    "Clear: D3DCLEAR_STENCIL on {:?}, which has no stencil",
                    ds.desc().format
                )));
            }
            if flags.contains(ClearFlags::ZBUFFER) && !(0.0..=1.0).contains(&z) {
                return Err(Error::invalid_call(format!(
                    "Clear: depth {z} is outside 0..1"
                )));
            }
        }
        let limit = self.clip_rect();
        let areas: Vec<Rect> = if rects.is_empty() {
            vec![limit]
        } else {
            rects.iter().map(|r| r.intersect(&limit)).collect()
        };
        // The Warp driver's workers share large fills (Reference: one thread).
        let pool = self.split_pool();
        if flags.contains(ClearFlags::TARGET) {
            let rgba = Color(color).to_rgba();
            for rt in self.render_targets.iter().flatten() {
                fill_surface(rt, &areas, pool.as_deref(), None, |px| {
                    encode_color(rt.desc().format, rgba, px)
                });
            }
        }
        if flags.intersects(ClearFlags::ZBUFFER | ClearFlags::STENCIL)
            && let Some(ds) = &self.depth_stencil
        {
            let format = ds.desc().format;
            let both = flags.contains(ClearFlags::ZBUFFER | ClearFlags::STENCIL);
            // Depth or stencil alone on a 32-bit format with stencil:
            // the other field's bits are kept, the rest set.
            let smask = (1u32 << format.stencil_bits()) - 1;
            let masked = match format {
                _ if both || format.stencil_bits() == 0 => None,
                Format::D24S8 | Format::D24X4S4 if flags.contains(ClearFlags::ZBUFFER) => {
                    let mut px = [0u8; 4];
                    encode_depth_stencil(format, z, 0, &mut px);
                    Some((smask, u32::from_le_bytes(px)))
                }
                Format::D24S8 | Format::D24X4S4 | Format::D24FS8
                    if flags.contains(ClearFlags::STENCIL) =>
                {
                    Some((!smask, stencil & smask))
                }
                _ => None,
            };
            fill_surface(ds, &areas, pool.as_deref(), masked, |px| {
                if both {
                    encode_depth_stencil(format, z, stencil, px);
                } else {
                    let (old_z, old_s) = crate::format::decode_depth_stencil(format, px);
                    if flags.contains(ClearFlags::ZBUFFER) {
                        // Keep the stored stencil.
                        encode_depth_stencil(format, z, old_s, px);
                    } else {
                        // Keep the stored depth bits exactly.
                        keep_depth_set_stencil(format, px, stencil, old_z);
                    }
                }
            });
        }
        Ok(())
    }

    /// `ColorFill`: fills `rect` (None: all) of a render target or offscreen
    /// plain surface in D3DPOOL_DEFAULT with a D3DCOLOR.
    pub fn color_fill(&mut self, surface: &Surface, rect: Option<Rect>, color: u32) -> Result<()> {
        let d = surface.desc();
        let fillable = d.pool == Pool::Default
            && matches!(
                d.kind,
                SurfaceKind::RenderTarget | SurfaceKind::OffscreenPlain
            )
            || d.usage.contains(Usage::RENDERTARGET);
        if !fillable || d.format.is_compressed() || d.format.is_depth() {
            return Err(Error::invalid_call(format!(
                "ColorFill: a {:?} {:?} surface in {:?} cannot be filled",
                d.format, d.kind, d.pool
            )));
        }
        let r = rect.unwrap_or(Rect::of_size(d.width, d.height));
        r.check_within(d.width, d.height, "ColorFill rectangle")?;
        let rgba = Color(color).to_rgba();
        fill_surface(surface, &[r], None, None, |px| {
            encode_color(d.format, rgba, px)
        });
        Ok(())
    }

    /// `Present`: converts the back buffer to X8R8G8B8 through the gamma
    /// ramp into `out` (row-major, width × height `u32`s).
    pub fn present_into(&mut self, out: &mut [u32]) -> Result<()> {
        if self.in_scene {
            return Err(Error::invalid_call("Present inside BeginScene/EndScene"));
        }
        let d = self.back_buffer.desc();
        let needed = d.width as usize * d.height as usize;
        if out.len() != needed {
            return Err(Error::invalid_call(format!(
                "Present: the output has {} pixels, the {}x{} back buffer {needed}",
                out.len(),
                d.width,
                d.height
            )));
        }
        let pixels = self.read_surface_argb(&self.back_buffer)?;
        let g = &self.gamma;
        for (dst, src) in out.iter_mut().zip(pixels) {
            let r = (g.red[((src >> 16) & 0xFF) as usize] >> 8) as u32;
            let gr = (g.green[((src >> 8) & 0xFF) as usize] >> 8) as u32;
            let b = (g.blue[(src & 0xFF) as usize] >> 8) as u32;
            *dst = 0xFF00_0000 | (r << 16) | (gr << 8) | b;
        }
        self.frame += 1;
        Ok(())
    }

    /// Frames presented so far.
    pub fn frame_count(&self) -> u64 {
        self.frame
    }

    /// Reads any uncompressed colour surface as A8R8G8B8 `u32`s (row-major).
    pub fn read_surface_argb(&self, surface: &Surface) -> Result<Vec<u32>> {
        let d = surface.desc();
        let Layout::Texel { bytes } = d.format.layout() else {
            return Err(Error::invalid_call(format!(
                "{:?} surfaces cannot be read as pixels",
                d.format
            )));
        };
        if d.format.is_depth() {
            return Err(Error::invalid_call(
                "depth surfaces cannot be read as colours",
            ));
        }
        let data = surface.read_bytes();
        let pitch = surface.pitch();
        let bytes = bytes as usize;
        let mut out = Vec::with_capacity(d.width as usize * d.height as usize);
        for y in 0..d.height as usize {
            let row = &data[y * pitch..];
            for x in 0..d.width as usize {
                let [r, g, b, a] = decode_texel(d.format, &row[x * bytes..x * bytes + bytes]);
                let q = |c: f32| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u32;
                out.push((q(a) << 24) | (q(r) << 16) | (q(g) << 8) | q(b));
            }
        }
        Ok(out)
    }

    /// `GetRenderTargetData`: copies a render target into a same-size,
    /// same-format D3DPOOL_SYSTEMMEM offscreen surface.
    pub fn get_render_target_data(&mut self, target: &Surface, dest: &Surface) -> Result<()> {
        let (s, d) = (target.desc(), dest.desc());
        if !s.usage.contains(Usage::RENDERTARGET) {
            return Err(Error::invalid_call(
                "GetRenderTargetData: the source is not a render target",
            ));
        }
        if d.pool != Pool::SystemMem
            || (s.width, s.height, s.format) != (d.width, d.height, d.format)
        {
            return Err(Error::invalid_call(format!(
                "GetRenderTargetData: the destination must be a {}x{} {:?} D3DPOOL_SYSTEMMEM surface",
                s.width, s.height, s.format
            )));
        }
        dest.storage().replace(target.storage().snapshot());
        Ok(())
    }

    /// Saves a colour surface as an 8-bit RGBA PNG.
    pub fn save_surface_png(&self, surface: &Surface, path: impl AsRef<Path>) -> Result<()> {
        let d = surface.desc();
        let argb = self.read_surface_argb(surface)?;
        save_argb_png(&argb, d.width, d.height, path.as_ref())
    }
}

/// Writes A8R8G8B8 pixels as an RGBA PNG file.
pub fn save_argb_png(argb: &[u32], width: u32, height: u32, path: &Path) -> Result<()> {
    let io = |e: std::io::Error| {
        Error::new(
            ErrorKind::InvalidCall,
            format!("cannot write {}: {e}", path.display()),
        )
    };
    if argb.len() != width as usize * height as usize {
        return Err(Error::invalid_call(
            "PNG: pixel count does not match the size",
        ));
    }
    let file = std::fs::File::create(path).map_err(io)?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| Error::invalid_call(format!("PNG: {e}")))?;
    let rgba: Vec<u8> = argb
        .iter()
        .flat_map(|&p| [(p >> 16) as u8, (p >> 8) as u8, p as u8, (p >> 24) as u8])
        .collect();
    writer
        .write_image_data(&rgba)
        .map_err(|e| Error::invalid_call(format!("PNG: {e}")))?;
    Ok(())
}

fn keep_depth_set_stencil(format: Format, px: &mut [u8], stencil: u32, _old_z: f32) {
    let bits = format.stencil_bits();
    if bits == 0 || px.len() < 4 {
        return;
    }
    let mask = (1u32 << bits) - 1;
    let mut w = [0u8; 4];
    w.copy_from_slice(&px[..4]);
    let v = (u32::from_le_bytes(w) & !mask) | (stencil & mask);
    px[..4].copy_from_slice(&v.to_le_bytes());
}

/// Runs `write` on every texel of `areas` (clipped to the surface).
///
/// When `write` does not depend on a texel's old bytes (it gives the same
/// result on a texel of zeros and on a texel of ones: a colour, or depth and
/// stencil together), the texel is encoded once and the areas are filled in
/// bulk: one row pattern, copied row by row, the rows split between the
/// device's workers when `pool` is given. Otherwise (depth or stencil alone,
/// which keep the other's bits) every texel is rewritten in place.
///
/// `masked` = `(keep, set)` declares that `write` turns a 4-byte texel `w`
/// (little-endian) into `(w & keep) | set` (depth or stencil alone on a
/// D24S8-style format); those are filled word by word, also in bulk.
fn fill_surface(
    surface: &Surface,
    areas: &[Rect],
    pool: Option<&rayon::ThreadPool>,
    masked: Option<(u32, u32)>,
    mut write: impl FnMut(&mut [u8]),
) {
    use rayon::prelude::*;
    let d = surface.desc();
    let Layout::Texel { bytes } = d.format.layout() else {
        return;
    };
    let bytes = bytes as usize;
    let pitch = surface.pitch();
    let whole = Rect::of_size(d.width, d.height);
    let (mut zeros, mut ones) = (vec![0u8; bytes], vec![0xFFu8; bytes]);
    write(&mut zeros);
    write(&mut ones);
    let uniform = zeros == ones;
    surface.storage().modify(|data| {
        for area in areas {
            let r = area.intersect(&whole);
            if r.is_empty() {
                continue;
            }
            let (x0, x1) = (r.left as usize * bytes, r.right as usize * bytes);
            let rows = data[r.top as usize * pitch..]
                .chunks_mut(pitch)
                .take((r.bottom - r.top) as usize);
            if !uniform && let (Some((keep, set)), 4) = (masked, bytes) {
                let fill = |row: &mut [u8]| {
                    let row = &mut row[x0..x1];
                    // Aligned rows go as words, a loop the compiler
                    // vectorises; the byte form is the fallback.
                    match bytemuck::try_cast_slice_mut::<u8, u32>(row) {
                        Ok(words) => {
                            for w in words {
                                *w = (u32::from_le(*w) & keep | set).to_le();
                            }
                        }
                        Err(_) => {
                            for px in row.chunks_exact_mut(4) {
                                let w = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
                                px.copy_from_slice(&((w & keep) | set).to_le_bytes());
                            }
                        }
                    }
                };
                match pool {
                    Some(pool) if (x1 - x0) * rows.len() >= 1 << 18 => {
                        let rows: Vec<&mut [u8]> = rows.collect();
                        pool.install(|| rows.into_par_iter().for_each(fill));
                    }
                    _ => rows.for_each(fill),
                }
                continue;
            }
            if !uniform {
                for row in rows {
                    for px in row[x0..x1].chunks_exact_mut(bytes) {
                        write(px);
                    }
                }
                continue;
            }
            let pattern: Vec<u8> = zeros.iter().copied().cycle().take(x1 - x0).collect();
            let fill = |row: &mut [u8]| row[x0..x1].copy_from_slice(&pattern);
            match pool {
                // Large areas only: a parallel call costs more than a small fill.
                Some(pool) if (x1 - x0) * rows.len() >= 1 << 18 => {
                    let rows: Vec<&mut [u8]> = rows.collect();
                    pool.install(|| rows.into_par_iter().for_each(fill));
                }
                _ => rows.for_each(fill),
            }
        }
    });
}

#[cfg(test)]
mod fill_tests {
    use super::*;
    use crate::api::DeviceDesc;
    use crate::caps::DriverType;
    use crate::format::decode_depth_stencil;

    /// Clear on random old contents equals the per-texel definition (depth
    /// and stencil decoded and re-encoded), for every flag combination, with
    /// and without rectangles, one and two threads (bulk, masked and
    /// parallel fills).
    #[test]
    #[cfg_attr(miri, ignore = "700x600 targets: too slow interpreted")]
    fn bulk_clear_equals_per_texel() {
        let mut seed = 0x1234_5678u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for threads in [1, 2] {
            let drivers = [DriverType::Warp];
            let mut d = Device::create(&DeviceDesc {
                drivers: &drivers,
                back_buffer: (700, 600, Format::X8R8G8B8),
                depth_stencil: Some(Format::D24S8),
                threads: Some(threads),
                ..DeviceDesc::default()
            })
            .unwrap();
            let ds = d.get_depth_stencil_surface().unwrap();
            let rt = d.back_buffer();
            let pitch = ds.pitch();
            for flags in 1..8u32 {
                let flags = ClearFlags::from_bits(flags).unwrap();
                for rects in [
                    vec![],
                    vec![Rect::new(3, 5, 650, 590), Rect::new(0, 0, 9, 7)],
                ] {
                    let old: Vec<u8> = (0..pitch * 600).map(|_| next() as u8).collect();
                    ds.storage().modify(|b| b.copy_from_slice(&old));
                    let old_rt: Vec<u8> = (0..rt.pitch() * 600).map(|_| next() as u8).collect();
                    rt.storage().modify(|b| b.copy_from_slice(&old_rt));
                    let (color, z, stencil) = (next(), (next() >> 8) as f32 / 16_777_216.0, next());
                    d.clear(&rects, flags, color, z, stencil).unwrap();
                    let areas = if rects.is_empty() {
                        vec![Rect::new(0, 0, 700, 600)]
                    } else {
                        rects.clone()
                    };
                    let inside = |x: i32, y: i32| {
                        areas
                            .iter()
                            .any(|r| x >= r.left && x < r.right && y >= r.top && y < r.bottom)
                    };
                    let got = ds.storage().snapshot();
                    let got_rt = rt.storage().snapshot();
                    let mut want = [0u8; 4];
                    encode_color(Format::X8R8G8B8, Color(color).to_rgba(), &mut want);
                    for y in 0..600 {
                        for x in 0..700 {
                            let at = y as usize * pitch + x as usize * 4;
                            let px = &old[at..at + 4];
                            let mut e = [px[0], px[1], px[2], px[3]];
                            if inside(x, y) {
                                let (_, old_s) = decode_depth_stencil(Format::D24S8, px);
                                let zf = flags.contains(ClearFlags::ZBUFFER);
                                let sf = flags.contains(ClearFlags::STENCIL);
                                if zf {
                                    let s = if sf { stencil } else { old_s };
                                    encode_depth_stencil(Format::D24S8, z, s, &mut e);
                                } else if sf {
                                    keep_depth_set_stencil(Format::D24S8, &mut e, stencil, 0.0);
                                }
                            }
                            assert_eq!(&got[at..at + 4], &e, "{flags:?} ({x}, {y})");
                            let at = y as usize * rt.pitch() + x as usize * 4;
                            let e = if inside(x, y) && flags.contains(ClearFlags::TARGET) {
                                want
                            } else {
                                [old_rt[at], old_rt[at + 1], old_rt[at + 2], old_rt[at + 3]]
                            };
                            assert_eq!(&got_rt[at..at + 4], &e, "{flags:?} RT ({x}, {y})");
                        }
                    }
                }
            }
        }
    }
}
