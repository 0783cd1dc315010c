//! The crate's one error type.
//!
//! Every fallible public call returns [`Error`]: a D3D-like [`ErrorKind`], a
//! message that names what was wrong (the cap, the level, the limit and the
//! value where one applies), and the HRESULT a D3D9 application would have
//! received ([`Error::hresult`]). Errors are values, never panics: the device
//! is unchanged by a call that fails.

use std::fmt;

/// What kind of failure an [`Error`] reports; each maps to one HRESULT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `D3DERR_INVALIDCALL`: an argument or the device state is invalid for the call.
    InvalidCall,
    /// `D3DERR_NOTAVAILABLE`: the device does not offer the requested feature.
    NotAvailable,
    /// `E_OUTOFMEMORY` / `D3DERR_OUTOFVIDEOMEMORY`: an allocation could not be satisfied.
    OutOfMemory,
    /// `D3DERR_DEVICELOST`: the device was lost and must be reset.
    DeviceLost,
    /// `DXGI_ERROR_UNSUPPORTED`: no requested (driver type, feature level) pair can be created.
    Unsupported,
    /// `E_INVALIDARG`: an argument is not a value the API knows (e.g. an unknown feature level).
    InvalidArg,
    /// `D3DERR_WASSTILLDRAWING`: the operation would have to wait for rendering.
    WasStillDrawing,
    /// `D3DERR_UNSUPPORTEDTEXTUREFILTER` (from `validate_device`).
    UnsupportedTextureFilter,
    /// `D3DERR_CONFLICTINGTEXTUREFILTER` (from `validate_device`).
    ConflictingTextureFilter,
    /// `D3DERR_UNSUPPORTEDCOLOROPERATION` (from `validate_device`).
    UnsupportedColorOperation,
    /// `D3DERR_UNSUPPORTEDCOLORARG` (from `validate_device`).
    UnsupportedColorArg,
    /// `D3DERR_UNSUPPORTEDALPHAOPERATION` (from `validate_device`).
    UnsupportedAlphaOperation,
    /// `D3DERR_UNSUPPORTEDALPHAARG` (from `validate_device`).
    UnsupportedAlphaArg,
    /// `D3DERR_TOOMANYOPERATIONS` (from `validate_device`).
    TooManyOperations,
    /// `D3DERR_UNSUPPORTEDFACTORVALUE` (from `validate_device`).
    UnsupportedFactorValue,
    /// `D3DERR_CONFLICTINGRENDERSTATE` (from `validate_device`).
    ConflictingRenderState,
    /// `D3DERR_WRONGTEXTUREFORMAT` (from `validate_device`).
    WrongTextureFormat,
    /// `D3DERR_DRIVERINTERNALERROR`: a failure inside the crate that is not the caller's fault.
    DriverInternalError,
}

impl ErrorKind {
    /// The HRESULT a D3D9/D3D11 application receives for this kind.
    pub const fn hresult(self) -> u32 {
        const fn d3d(code: u32) -> u32 {
            0x8876_0000 | code
        }
        match self {
            ErrorKind::InvalidCall => d3d(2156),
            ErrorKind::NotAvailable => d3d(2154),
            ErrorKind::OutOfMemory => 0x8007_000E,
            ErrorKind::DeviceLost => d3d(2152),
            ErrorKind::Unsupported => 0x887A_0004,
            ErrorKind::InvalidArg => 0x8007_0057,
            ErrorKind::WasStillDrawing => d3d(540),
            ErrorKind::UnsupportedTextureFilter => d3d(2082),
            ErrorKind::ConflictingTextureFilter => d3d(2078),
            ErrorKind::UnsupportedColorOperation => d3d(2073),
            ErrorKind::UnsupportedColorArg => d3d(2074),
            ErrorKind::UnsupportedAlphaOperation => d3d(2075),
            ErrorKind::UnsupportedAlphaArg => d3d(2076),
            ErrorKind::TooManyOperations => d3d(2077),
            ErrorKind::UnsupportedFactorValue => d3d(2079),
            ErrorKind::ConflictingRenderState => d3d(2081),
            ErrorKind::WrongTextureFormat => d3d(2072),
            ErrorKind::DriverInternalError => d3d(2087),
        }
    }

    /// The D3D name of the HRESULT (`"D3DERR_INVALIDCALL"`, ...).
    pub const fn hresult_name(self) -> &'static str {
        match self {
            ErrorKind::InvalidCall => "D3DERR_INVALIDCALL",
            ErrorKind::NotAvailable => "D3DERR_NOTAVAILABLE",
            ErrorKind::OutOfMemory => "E_OUTOFMEMORY",
            ErrorKind::DeviceLost => "D3DERR_DEVICELOST",
            ErrorKind::Unsupported => "DXGI_ERROR_UNSUPPORTED",
            ErrorKind::InvalidArg => "E_INVALIDARG",
            ErrorKind::WasStillDrawing => "D3DERR_WASSTILLDRAWING",
            ErrorKind::UnsupportedTextureFilter => "D3DERR_UNSUPPORTEDTEXTUREFILTER",
            ErrorKind::ConflictingTextureFilter => "D3DERR_CONFLICTINGTEXTUREFILTER",
            ErrorKind::UnsupportedColorOperation => "D3DERR_UNSUPPORTEDCOLOROPERATION",
            ErrorKind::UnsupportedColorArg => "D3DERR_UNSUPPORTEDCOLORARG",
            ErrorKind::UnsupportedAlphaOperation => "D3DERR_UNSUPPORTEDALPHAOPERATION",
            ErrorKind::UnsupportedAlphaArg => "D3DERR_UNSUPPORTEDALPHAARG",
            ErrorKind::TooManyOperations => "D3DERR_TOOMANYOPERATIONS",
            ErrorKind::UnsupportedFactorValue => "D3DERR_UNSUPPORTEDFACTORVALUE",
            ErrorKind::ConflictingRenderState => "D3DERR_CONFLICTINGRENDERSTATE",
            ErrorKind::WrongTextureFormat => "D3DERR_WRONGTEXTUREFORMAT",
            ErrorKind::DriverInternalError => "D3DERR_DRIVERINTERNALERROR",
        }
    }
}

/// The error of every fallible warp9 call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// An error of `kind` with a message naming what was wrong.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// `D3DERR_INVALIDCALL` with `message`.
    pub fn invalid_call(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidCall, message)
    }

    /// `D3DERR_NOTAVAILABLE` with `message`.
    pub fn not_available(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotAvailable, message)
    }

    /// `E_OUTOFMEMORY` for an allocation of `bytes` bytes that could not be satisfied.
    pub fn out_of_memory(what: &str, bytes: u64) -> Self {
        Self::new(
            ErrorKind::OutOfMemory,
            format!("{what}: cannot allocate {bytes} bytes"),
        )
    }

    /// A use beyond the level's caps: the message names cap, level (a
    /// `FeatureLevel`, or anything that prints as one), limit and value.
    pub fn cap_exceeded(
        kind: ErrorKind,
        cap: &str,
        level: impl fmt::Display,
        limit: impl fmt::Display,
        got: impl fmt::Display,
    ) -> Self {
        Self::new(
            kind,
            format!("{cap} is {limit} at level {level}, got {got}"),
        )
    }

    /// A use that needs a cap bit the level does not have.
    pub fn cap_missing(kind: ErrorKind, what: &str, cap: &str, level: impl fmt::Display) -> Self {
        Self::new(
            kind,
            format!("{what} needs {cap}, which level {level} does not have"),
        )
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The human-readable message (names the cap, level, limit and value where one applies).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The HRESULT a D3D9 application would have received.
    pub fn hresult(&self) -> u32 {
        self.kind.hresult()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.hresult_name(), self.message)
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
