//! The device: creation by walking driver types and feature levels, caps,
//! vertex-processing mode, scenes, and the swap chain's surfaces.

use std::fmt::Write as _;
use std::sync::Arc;

use super::desc::{DeviceDesc, SimdChoice, VertexProcessing};
use super::stateblock::StateBlock;
use crate::caps::internal::MAX_RENDER_TARGETS;
use crate::caps::{
    BACK_BUFFER_FORMATS, Caps, DriverType, FeatureLevel, FormatSupport, LevelLimits, check_format,
};
use crate::device_state::DeviceState;
use crate::error::{Error, ErrorKind, Result};
use crate::format::{Format, Pool, ResourceKind, Usage};
use crate::resource::{MemoryTracker, Surface, SurfaceDesc, SurfaceKind};

/// A Direct3D 9-class device (`IDirect3DDevice9`) at one feature level.
///
/// # Threads
///
/// - A `Device` is `Send`: it can be moved to another thread and used
///   there, and renders exactly the same images there. One thread drives
///   it at a time (every call that changes it takes `&mut self`); to use
///   one device from several threads, put it behind a `Mutex`.
/// - Devices are independent: any number can render at the same time on
///   different threads. A Warp device's own worker pool
///   ([`thread_count`](Self::thread_count)) is private to it, so devices
///   never wait for one another's tiles, and images do not depend on how
///   many devices run at once.
/// - Resource handles ([`Texture`](crate::Texture), [`Surface`], buffers,
///   cube and volume textures) are `Send + Sync` clones of one shared
///   resource. Writing or locking a resource from another thread is safe;
///   it is seen by the next draw that reads it. A draw reads a resource as
///   it was when the draw began, even if another thread writes it meanwhile.
///
/// These rules are tested in `tests/threads.rs`.
#[derive(Debug)]
pub struct Device {
    pub(crate) driver: DriverType,
    pub(crate) level: FeatureLevel,
    /// The caps `get_device_caps` reports: the level's hardware-VP profile.
    pub(crate) caps: Caps,
    pub(crate) limits: LevelLimits,
    pub(crate) vp_mode: VertexProcessing,
    pub(crate) pure: bool,
    pub(crate) software_vp: bool,
    pub(crate) tracker: Arc<MemoryTracker>,
    pub(crate) threads: usize,
    pub(crate) simd: SimdChoice,
    pub(crate) state: DeviceState,
    pub(crate) recording: Option<StateBlock>,
    pub(crate) back_buffer: Surface,
    pub(crate) render_targets: [Option<Surface>; MAX_RENDER_TARGETS],
    pub(crate) depth_stencil: Option<Surface>,
    pub(crate) in_scene: bool,
    pub(crate) gamma: GammaRamp,
    pub(crate) frame: u64,
    /// Samples that passed depth and stencil since creation (occlusion queries).
    pub(crate) samples_passed: u64,
    /// The rasterizer's long-lived resources (the Warp worker pool).
    pub(crate) pipeline: crate::pipeline::Pipeline,
}

/// `D3DGAMMARAMP`: 256 16-bit entries per channel, applied at present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GammaRamp {
    /// Red channel.
    pub red: [u16; 256],
    /// Green channel.
    pub green: [u16; 256],
    /// Blue channel.
    pub blue: [u16; 256],
}

impl Default for GammaRamp {
    /// The identity ramp (`i * 257`).
    fn default() -> Self {
        let ramp = std::array::from_fn(|i| (i as u16) * 257);
        GammaRamp {
            red: ramp,
            green: ramp,
            blue: ramp,
        }
    }
}

fn resolve_simd(choice: SimdChoice) -> SimdChoice {
    let avx2 = {
        #[cfg(target_arch = "x86_64")]
        {
            crate::simd::Avx2::detect().is_some()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    };
    // WARP9_SIMD=portable|avx2 overrides the description (benchmarks, bug hunts).
    let choice = match std::env::var("WARP9_SIMD").as_deref() {
        Ok("portable") => SimdChoice::Portable,
        Ok("avx2") => SimdChoice::Avx2,
        _ => choice,
    };
    match choice {
        SimdChoice::Auto | SimdChoice::Avx2 if avx2 => SimdChoice::Avx2,
        _ => SimdChoice::Portable,
    }
}

impl Device {
    /// Creates a device as `D3D11CreateDevice` does on a machine without a
    /// GPU: for each driver type in order, the first feature level of the
    /// list it supports wins (caps.md section 2.3). Hardware is never
    /// available; levels 10_0 and above are never supported.
    ///
    /// When nothing can be created the error (`Unsupported`) names every
    /// (driver, level) pair tried and why it failed.
    pub fn create(desc: &DeviceDesc<'_>) -> Result<Device> {
        if desc.pure && desc.vertex_processing != VertexProcessing::Hardware {
            return Err(Error::invalid_call(format!(
                "D3DCREATE_PUREDEVICE needs hardware vertex processing, not {:?}",
                desc.vertex_processing
            )));
        }
        if desc.threads == Some(0) {
            return Err(Error::invalid_call("threads must be at least 1"));
        }
        let drivers: &[DriverType] = if desc.drivers.is_empty() {
            &DriverType::DEFAULT_ORDER
        } else {
            desc.drivers
        };
        let levels: &[FeatureLevel] = if desc.levels.is_empty() {
            &FeatureLevel::D3D11_DEFAULT_ORDER
        } else {
            desc.levels
        };
        let mut tried = String::new();
        for &driver in drivers {
            if driver == DriverType::Hardware {
                for &level in levels {
                    let _ = write!(
                        tried,
                        "; hardware at {level}: D3DERR_NOTAVAILABLE (warp9 has no GPU backend)"
                    );
                }
                continue;
            }
            for &level in levels {
                if !level.is_supported() {
                    let _ = write!(
                        tried,
                        "; {driver} at {level}: no driver supports feature level {level}"
                    );
                    continue;
                }
                match Device::create_at(desc, driver, level) {
                    Ok(device) => return Ok(device),
                    // Resource exhaustion is not a reason to try another level.
                    Err(e) if e.kind() == ErrorKind::OutOfMemory => return Err(e),
                    Err(e) => {
                        let _ = write!(tried, "; {driver} at {level}: {e}");
                    }
                }
            }
        }
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "no (driver, feature level) pair could be created{}",
                if tried.is_empty() {
                    String::from(" (nothing was requested)")
                } else {
                    tried
                }
            ),
        ))
    }

    fn create_at(desc: &DeviceDesc<'_>, driver: DriverType, level: FeatureLevel) -> Result<Device> {
        let (Some(mut caps), Some(limits)) =
            (Caps::for_level(level), LevelLimits::for_level(level))
        else {
            return Err(Error::not_available(format!(
                "level {level} is not supported"
            )));
        };
        if driver == DriverType::Reference {
            caps.device_type = 2;
        }
        let (width, height, format) = desc.back_buffer;
        if !BACK_BUFFER_FORMATS.contains(&format) {
            return Err(Error::invalid_call(format!(
                "{format:?} is not a back-buffer format (A8R8G8B8, X8R8G8B8, R5G6B5, X1R5G5B5, A1R5G5B5)"
            )));
        }
        check_render_target_size(&caps, level, width, height)?;
        let tracker = MemoryTracker::new(desc.memory_budget);
        let back_buffer = Surface::create(
            &tracker,
            SurfaceDesc {
                format,
                kind: SurfaceKind::RenderTarget,
                usage: Usage::RENDERTARGET,
                pool: Pool::Default,
                width,
                height,
            },
            true,
        )?;
        let auto_depth = match desc.depth_stencil {
            None => None,
            Some(df) => {
                check_format(level, ResourceKind::Surface, df, Usage::DEPTHSTENCIL, false)?;
                Some(Surface::create(
                    &tracker,
                    SurfaceDesc {
                        format: df,
                        kind: SurfaceKind::DepthStencil,
                        usage: Usage::DEPTHSTENCIL,
                        pool: Pool::Default,
                        width,
                        height,
                    },
                    matches!(df, Format::D16_LOCKABLE | Format::D32F_LOCKABLE),
                )?)
            }
        };
        let threads = desc
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let mut device = Device {
            driver,
            level,
            caps,
            limits,
            vp_mode: desc.vertex_processing,
            pure: desc.pure,
            software_vp: desc.vertex_processing == VertexProcessing::Software,
            tracker,
            threads,
            simd: resolve_simd(desc.simd),
            state: DeviceState::initial(width, height, auto_depth.is_some()),
            recording: None,
            back_buffer: back_buffer.clone(),
            depth_stencil: auto_depth,
            render_targets: std::array::from_fn(|_| None),
            in_scene: false,
            gamma: GammaRamp::default(),
            frame: 0,
            samples_passed: 0,
            pipeline: crate::pipeline::Pipeline::default(),
        };
        device.render_targets[0] = Some(back_buffer);
        Ok(device)
    }

    /// The driver type obtained.
    pub fn driver_type(&self) -> DriverType {
        self.driver
    }

    /// The feature level obtained.
    pub fn feature_level(&self) -> FeatureLevel {
        self.level
    }

    /// The device's caps (`GetDeviceCaps`): the level's profile as a
    /// hardware-vertex-processing device reports it; the fixed software
    /// vertex-processing caps are never reported (seed 004).
    pub fn get_device_caps(&self) -> Caps {
        self.caps
    }

    /// The limits of the level that D3DCAPS9 cannot express.
    pub fn level_limits(&self) -> LevelLimits {
        self.limits
    }

    /// The caps that apply to vertex work right now: the level profile, or
    /// the software overlay while software vertex processing is active.
    pub fn vertex_caps(&self) -> Caps {
        if self.software_vp {
            self.caps.with_software_vertex_processing()
        } else {
            self.caps
        }
    }

    /// The vertex-processing mode the device was created with.
    pub fn vertex_processing(&self) -> VertexProcessing {
        self.vp_mode
    }

    /// Whether the device was created with `D3DCREATE_PUREDEVICE`.
    pub fn is_pure(&self) -> bool {
        self.pure
    }

    /// Worker threads the Warp driver uses.
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// Changes the number of worker threads; images do not change.
    pub fn set_thread_count(&mut self, threads: usize) -> Result<()> {
        if threads == 0 {
            return Err(Error::invalid_call("threads must be at least 1"));
        }
        self.threads = threads;
        Ok(())
    }

    /// The SIMD backend the Warp driver runs (never `Auto`).
    pub fn simd_backend(&self) -> SimdChoice {
        self.simd
    }

    /// Chooses the SIMD backend (Avx2 degrades to Portable without AVX2); images do not change.
    pub fn set_simd_backend(&mut self, choice: SimdChoice) {
        self.simd = resolve_simd(choice);
    }

    /// `SetSoftwareVertexProcessing`: only a mixed device may switch (seed 004).
    pub fn set_software_vertex_processing(&mut self, software: bool) -> Result<()> {
        match self.vp_mode {
            VertexProcessing::Mixed => {
                self.software_vp = software;
                Ok(())
            }
            VertexProcessing::Software if software => Ok(()),
            mode => Err(Error::invalid_call(format!(
                "SetSoftwareVertexProcessing({software}) on a device created with {mode:?} vertex processing; only a mixed device can switch"
            ))),
        }
    }

    /// `GetSoftwareVertexProcessing`.
    pub fn software_vertex_processing(&self) -> bool {
        self.software_vp
    }

    /// `CheckDeviceFormat`: whether `format` supports `usage` for a resource
    /// of `kind` at this device's level (textures.md section 2).
    pub fn check_device_format(
        &self,
        kind: ResourceKind,
        format: Format,
        usage: Usage,
    ) -> Result<FormatSupport> {
        check_format(self.level, kind, format, usage, self.software_vp)
    }

    /// `CheckDepthStencilMatch`: whether `depth` can be used with render-target format `target`.
    pub fn check_depth_stencil_match(&self, target: Format, depth: Format) -> Result<()> {
        check_format(
            self.level,
            ResourceKind::Surface,
            target,
            Usage::RENDERTARGET,
            false,
        )?;
        check_format(
            self.level,
            ResourceKind::Surface,
            depth,
            Usage::DEPTHSTENCIL,
            false,
        )?;
        Ok(())
    }

    /// `CheckDeviceMultiSampleType`: only `D3DMULTISAMPLE_NONE` (0) is available at every level.
    pub fn check_device_multisample_type(&self, format: Format, samples: u32) -> Result<()> {
        if samples == 0 {
            Ok(())
        } else {
            Err(Error::not_available(format!(
                "multisample type {samples} for {format:?}: no multisampling at level {}",
                self.level
            )))
        }
    }

    /// `BeginScene`.
    pub fn begin_scene(&mut self) -> Result<()> {
        if self.in_scene {
            return Err(Error::invalid_call("BeginScene inside a scene"));
        }
        self.in_scene = true;
        Ok(())
    }

    /// `EndScene`.
    pub fn end_scene(&mut self) -> Result<()> {
        if !self.in_scene {
            return Err(Error::invalid_call("EndScene without BeginScene"));
        }
        self.in_scene = false;
        Ok(())
    }

    /// `TestCooperativeLevel`: a software device is never lost.
    pub fn test_cooperative_level(&self) -> Result<()> {
        Ok(())
    }

    /// The back buffer (`GetBackBuffer(0, 0)`).
    pub fn back_buffer(&self) -> Surface {
        self.back_buffer.clone()
    }

    /// Bytes currently held by this device's resources.
    pub fn memory_used(&self) -> u64 {
        self.tracker.used()
    }

    /// `GetAvailableTextureMem`: what the memory budget still allows, in
    /// bytes, saturated to a DWORD (u32::MAX without a budget).
    pub fn available_texture_mem(&self) -> u32 {
        match self.tracker.budget() {
            Some(b) => u32::try_from(b.saturating_sub(self.tracker.used())).unwrap_or(u32::MAX),
            None => u32::MAX,
        }
    }

    /// `SetGammaRamp`.
    pub fn set_gamma_ramp(&mut self, ramp: &GammaRamp) {
        self.gamma = ramp.clone();
    }

    /// `GetGammaRamp`.
    pub fn gamma_ramp(&self) -> GammaRamp {
        self.gamma.clone()
    }

    pub(crate) fn check_not_pure(&self, call: &str) -> Result<()> {
        if self.pure {
            Err(Error::invalid_call(format!(
                "{call}: state cannot be read back from a pure device"
            )))
        } else {
            Ok(())
        }
    }
}

/// Render targets and depth buffers share the texture size limits.
pub(crate) fn check_render_target_size(
    caps: &Caps,
    level: FeatureLevel,
    width: u32,
    height: u32,
) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(Error::invalid_call(format!(
            "a {width}x{height} surface has no pixels"
        )));
    }
    if width > caps.max_texture_width {
        return Err(Error::cap_exceeded(
            ErrorKind::InvalidCall,
            "MaxTextureWidth",
            level,
            caps.max_texture_width,
            width,
        ));
    }
    if height > caps.max_texture_height {
        return Err(Error::cap_exceeded(
            ErrorKind::InvalidCall,
            "MaxTextureHeight",
            level,
            caps.max_texture_height,
            height,
        ));
    }
    Ok(())
}

// A device moves between threads (one drives it at a time): keep it `Send`.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Device>();
};
