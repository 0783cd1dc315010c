//! What an application asks for when it creates a device.

use crate::caps::{DriverType, FeatureLevel};
use crate::format::Format;

/// How vertices are processed (`D3DCREATE_*_VERTEXPROCESSING`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum VertexProcessing {
    /// Software vertex processing: the fixed software caps apply to vertex work (seed 004).
    Software,
    /// Hardware vertex processing under the level's caps.
    #[default]
    Hardware,
    /// Both; starts in hardware mode and switches with `set_software_vertex_processing`.
    Mixed,
}

/// Device creation parameters (driver/level lists, vertex processing, swap chain, threads).
#[derive(Clone, Debug)]
pub struct DeviceDesc<'a> {
    /// Driver types to try, in order (empty: hardware, warp, reference).
    pub drivers: &'a [DriverType],
    /// Feature levels to try for each driver, in order (empty: 11_0 down to 9_1).
    pub levels: &'a [FeatureLevel],
    /// Vertex processing mode.
    pub vertex_processing: VertexProcessing,
    /// `D3DCREATE_PUREDEVICE`: only with hardware vertex processing; state getters are refused.
    pub pure: bool,
    /// Back buffer width, height and format.
    pub back_buffer: (u32, u32, Format),
    /// The automatic depth-stencil format (None: no automatic depth buffer).
    pub depth_stencil: Option<Format>,
    /// Worker threads for the Warp driver (None: all cores). Images are identical for any count.
    pub threads: Option<usize>,
    /// Which SIMD backend the Warp driver uses (Auto: the best the CPU has).
    pub simd: SimdChoice,
    /// A cap on the bytes all of the device's resources may hold; beyond it
    /// creation fails with `OutOfMemory` (None: limited only by real memory).
    pub memory_budget: Option<u64>,
}

impl Default for DeviceDesc<'_> {
    fn default() -> Self {
        DeviceDesc {
            drivers: &[],
            levels: &[],
            vertex_processing: VertexProcessing::Hardware,
            pure: false,
            back_buffer: (640, 480, Format::X8R8G8B8),
            depth_stencil: None,
            threads: None,
            simd: SimdChoice::Auto,
            memory_budget: None,
        }
    }
}

/// The SIMD backend of the Warp driver. Every backend gives bit-identical images.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SimdChoice {
    /// The best backend the CPU supports, detected at run time.
    #[default]
    Auto,
    /// Portable `wide` code (SSE2 on x86-64).
    Portable,
    /// AVX2 (falls back to Portable where the CPU lacks it).
    Avx2,
}
