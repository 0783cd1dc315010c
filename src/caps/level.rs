//! Feature levels and driver types: the names an application asks for.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// A feature level. The four 9-class levels are what warp9 creates; the
/// D3D11 levels are known names that no driver supports (so a D3D11-style
/// level list falls through to 9_3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureLevel {
    /// Direct3D feature level 9_1 (ps_2_0, vs_2_0, 2048 textures, 16-bit indices).
    L9_1,
    /// Direct3D feature level 9_2 (adds separate alpha blend, mirror-once, 32-bit indices, occlusion queries).
    L9_2,
    /// Direct3D feature level 9_3 (adds 4 render targets, ps_2_b-class pixel shaders, vs_3_0, instancing).
    L9_3,
    /// The crate's full DirectX 9.0c / Shader Model 3.0 profile (vs_3_0 and ps_3_0, every texture op).
    Sm3,
    /// D3D_FEATURE_LEVEL_10_0: known, never supported.
    L10_0,
    /// D3D_FEATURE_LEVEL_10_1: known, never supported.
    L10_1,
    /// D3D_FEATURE_LEVEL_11_0: known, never supported.
    L11_0,
}

impl FeatureLevel {
    /// The four levels warp9 can create, lowest first.
    pub const SUPPORTED: [FeatureLevel; 4] = [
        FeatureLevel::L9_1,
        FeatureLevel::L9_2,
        FeatureLevel::L9_3,
        FeatureLevel::Sm3,
    ];

    /// The D3D11 default list (`D3D11CreateDevice` with no levels): 11_0 down to 9_1.
    pub const D3D11_DEFAULT_ORDER: [FeatureLevel; 6] = [
        FeatureLevel::L11_0,
        FeatureLevel::L10_1,
        FeatureLevel::L10_0,
        FeatureLevel::L9_3,
        FeatureLevel::L9_2,
        FeatureLevel::L9_1,
    ];

    /// The short name used by the CLI and in messages: `9_1`, `9_2`, `9_3`, `sm3`, `10_0`, ...
    pub const fn name(self) -> &'static str {
        match self {
            FeatureLevel::L9_1 => "9_1",
            FeatureLevel::L9_2 => "9_2",
            FeatureLevel::L9_3 => "9_3",
            FeatureLevel::Sm3 => "sm3",
            FeatureLevel::L10_0 => "10_0",
            FeatureLevel::L10_1 => "10_1",
            FeatureLevel::L11_0 => "11_0",
        }
    }

    /// The `D3D_FEATURE_LEVEL` value; `None` for `Sm3`, which D3D11 has no value for.
    pub const fn d3d_value(self) -> Option<u32> {
        match self {
            FeatureLevel::L9_1 => Some(0x9100),
            FeatureLevel::L9_2 => Some(0x9200),
            FeatureLevel::L9_3 => Some(0x9300),
            FeatureLevel::Sm3 => None,
            FeatureLevel::L10_0 => Some(0xA000),
            FeatureLevel::L10_1 => Some(0xA100),
            FeatureLevel::L11_0 => Some(0xB000),
        }
    }

    /// The level with `D3D_FEATURE_LEVEL` value `value`, or `InvalidArg` for a value D3D does not define.
    pub fn from_d3d_value(value: u32) -> Result<Self, Error> {
        Ok(match value {
            0x9100 => FeatureLevel::L9_1,
            0x9200 => FeatureLevel::L9_2,
            0x9300 => FeatureLevel::L9_3,
            0xA000 => FeatureLevel::L10_0,
            0xA100 => FeatureLevel::L10_1,
            0xB000 => FeatureLevel::L11_0,
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidArg,
                    format!("0x{other:X} is not a D3D_FEATURE_LEVEL this API knows"),
                ));
            }
        })
    }

    /// Whether warp9 can create a device at this level (9_1, 9_2, 9_3, sm3).
    pub const fn is_supported(self) -> bool {
        matches!(
            self,
            FeatureLevel::L9_1 | FeatureLevel::L9_2 | FeatureLevel::L9_3 | FeatureLevel::Sm3
        )
    }

    /// Whether this level includes everything of `other` (levels are cumulative).
    pub fn includes(self, other: FeatureLevel) -> bool {
        self >= other
    }
}

impl fmt::Display for FeatureLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FeatureLevel {
    type Err = Error;

    /// Parses `9_1`, `9.1`, `L9_1`, `sm3`, `10_0`, ... (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Error> {
        let norm = s.trim().to_ascii_lowercase().replace('.', "_");
        let norm = norm.strip_prefix('l').unwrap_or(&norm);
        Ok(match norm {
            "9_1" => FeatureLevel::L9_1,
            "9_2" => FeatureLevel::L9_2,
            "9_3" => FeatureLevel::L9_3,
            "sm3" | "sm3_0" | "9_3_sm3" => FeatureLevel::Sm3,
            "10_0" => FeatureLevel::L10_0,
            "10_1" => FeatureLevel::L10_1,
            "11_0" => FeatureLevel::L11_0,
            _ => {
                return Err(Error::new(
                    ErrorKind::InvalidArg,
                    format!(
                        "unknown feature level {s:?} (known: 9_1, 9_2, 9_3, sm3, 10_0, 10_1, 11_0)"
                    ),
                ));
            }
        })
    }
}

/// Which implementation renders for a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DriverType {
    /// A GPU driver. warp9 has no GPU backend: creation always reports `NotAvailable`.
    Hardware,
    /// The fast path: 8-wide SIMD, tiled, threaded.
    Warp,
    /// The scalar, spec-literal pipeline; the oracle Warp is tested against.
    Reference,
}

impl DriverType {
    /// The default order of the D3D11 fallback pattern: hardware, then warp, then reference.
    pub const DEFAULT_ORDER: [DriverType; 3] = [
        DriverType::Hardware,
        DriverType::Warp,
        DriverType::Reference,
    ];

    /// The lower-case name used by the CLI: `hardware`, `warp`, `reference`.
    pub const fn name(self) -> &'static str {
        match self {
            DriverType::Hardware => "hardware",
            DriverType::Warp => "warp",
            DriverType::Reference => "reference",
        }
    }

    /// The `D3D_DRIVER_TYPE` value.
    pub const fn d3d_value(self) -> u32 {
        match self {
            DriverType::Hardware => 1,
            DriverType::Reference => 2,
            DriverType::Warp => 5,
        }
    }
}

impl fmt::Display for DriverType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DriverType {
    type Err = Error;

    /// Parses `hardware`/`hal`, `warp`, `reference`/`ref` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hardware" | "hal" => Ok(DriverType::Hardware),
            "warp" => Ok(DriverType::Warp),
            "reference" | "ref" => Ok(DriverType::Reference),
            _ => Err(Error::new(
                ErrorKind::InvalidArg,
                format!("unknown driver type {s:?} (known: hardware, warp, reference)"),
            )),
        }
    }
}
