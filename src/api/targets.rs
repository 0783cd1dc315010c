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
        let vp = self.state.viewport;
        let mut r = Rect::new(
            vp.x as i32,
            vp.y as i32,
            (vp.x + vp.width) as i32,
            (vp.y + vp.height) as i32,
        );
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
        if flags.contains(ClearFlags::TARGET) {
            let rgba = Color(color).to_rgba();
            for rt in self.render_targets.iter().flatten() {
                fill_surface(rt, &areas, |px| encode_color(rt.desc().format, rgba, px));
            }
        }
        if flags.intersects(ClearFlags::ZBUFFER | ClearFlags::STENCIL)
            && let Some(ds) = &self.depth_stencil
        {
            let format = ds.desc().format;
            let both = flags.contains(ClearFlags::ZBUFFER | ClearFlags::STENCIL);
            fill_surface(ds, &areas, |px| {
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
        fill_surface(surface, &[r], |px| encode_color(d.format, rgba, px));
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
fn fill_surface(surface: &Surface, areas: &[Rect], mut write: impl FnMut(&mut [u8])) {
    let d = surface.desc();
    let Layout::Texel { bytes } = d.format.layout() else {
        return;
    };
    let bytes = bytes as usize;
    let pitch = surface.pitch();
    let whole = Rect::of_size(d.width, d.height);
    surface.storage().modify(|data| {
        // Encode one texel once, then copy it: the value is the same everywhere.
        let mut texel = vec![0u8; bytes];
        let mut first = true;
        for area in areas {
            let r = area.intersect(&whole);
            if r.is_empty() {
                continue;
            }
            for y in r.top as usize..r.bottom as usize {
                let row = &mut data[y * pitch..];
                for x in r.left as usize..r.right as usize {
                    let px = &mut row[x * bytes..x * bytes + bytes];
                    if first || d.format.is_depth() {
                        write(px);
                        texel.copy_from_slice(px);
                        first = false;
                    } else {
                        px.copy_from_slice(&texel);
                    }
                }
            }
        }
    });
}
