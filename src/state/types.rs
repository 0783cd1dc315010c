//! Plain state structures: transforms, viewport, rectangles, lights, material.

use glam::{Mat4, Vec3};

use crate::error::{Error, Result};

/// A transform slot (`D3DTRANSFORMSTATETYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformType {
    /// D3DTS_VIEW (2).
    View,
    /// D3DTS_PROJECTION (3).
    Projection,
    /// D3DTS_TEXTURE0..7 (16..23).
    Texture(u8),
    /// D3DTS_WORLDMATRIX(n) (256 + n; D3DTS_WORLD = 256).
    World(u8),
}

/// The number of transform slots: view, projection, 8 texture, 256 world.
pub const TRANSFORM_SLOTS: usize = 2 + 8 + 256;

impl TransformType {
    /// D3DTS_WORLD.
    pub const WORLD: TransformType = TransformType::World(0);

    /// The slot with D3DTS number `raw`.
    pub fn from_raw(raw: u32) -> Option<TransformType> {
        match raw {
            2 => Some(TransformType::View),
            3 => Some(TransformType::Projection),
            16..=23 => Some(TransformType::Texture((raw - 16) as u8)),
            256..=511 => Some(TransformType::World((raw - 256) as u8)),
            _ => None,
        }
    }

    /// The D3DTS number.
    pub const fn raw(self) -> u32 {
        match self {
            TransformType::View => 2,
            TransformType::Projection => 3,
            TransformType::Texture(i) => 16 + i as u32,
            TransformType::World(i) => 256 + i as u32,
        }
    }

    /// Index into the device's transform array; `None` for an out-of-range texture index.
    pub const fn slot(self) -> Option<usize> {
        match self {
            TransformType::View => Some(0),
            TransformType::Projection => Some(1),
            TransformType::Texture(i) if i < 8 => Some(2 + i as usize),
            TransformType::Texture(_) => None,
            TransformType::World(i) => Some(10 + i as usize),
        }
    }
}

/// `D3DVIEWPORT9`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge in pixels.
    pub x: u32,
    /// Top edge in pixels.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Depth the near plane maps to.
    pub min_z: f32,
    /// Depth the far plane maps to.
    pub max_z: f32,
}

impl Viewport {
    /// The full-target viewport of a `width` x `height` render target, depth 0..1.
    pub const fn full(width: u32, height: u32) -> Viewport {
        Viewport {
            x: 0,
            y: 0,
            width,
            height,
            min_z: 0.0,
            max_z: 1.0,
        }
    }

    /// The depth range the viewport transform maps z/w in [0, 1] onto:
    /// `(MinZ, max(MaxZ, MinZ + 0.001))` in float32. D3D9 never makes the
    /// range empty or reversed (rasterization.md 3, measured on Windows
    /// drivers: {MinZ 0, MaxZ 0} draws at 0.001·z); `GetViewport` still
    /// returns MaxZ as set, so the correction is applied where depth is
    /// computed, through this one function.
    pub fn depth_range(&self) -> (f32, f32) {
        (self.min_z, self.max_z.max(self.min_z + 0.001))
    }

    /// The viewport's pixels, [X, X + Width) x [Y, Y + Height), in `Rect`'s
    /// i32 edges (saturated: a viewport may reach past any render target,
    /// and drawing is limited to viewport ∩ render target).
    pub fn rect(&self) -> Rect {
        let edge = |v: u64| v.min(i32::MAX as u64) as i32;
        let (x, y) = (u64::from(self.x), u64::from(self.y));
        Rect::new(
            edge(x),
            edge(y),
            edge(x + u64::from(self.width)),
            edge(y + u64::from(self.height)),
        )
    }
}

/// A `RECT`: left/top inclusive, right/bottom exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    /// Left edge (inclusive).
    pub left: i32,
    /// Top edge (inclusive).
    pub top: i32,
    /// Right edge (exclusive).
    pub right: i32,
    /// Bottom edge (exclusive).
    pub bottom: i32,
}

impl Rect {
    /// A rectangle from its edges.
    pub const fn new(left: i32, top: i32, right: i32, bottom: i32) -> Rect {
        Rect {
            left,
            top,
            right,
            bottom,
        }
    }

    /// The rectangle covering a `width` x `height` surface.
    pub const fn of_size(width: u32, height: u32) -> Rect {
        Rect::new(0, 0, width as i32, height as i32)
    }

    /// Whether the rectangle has no area.
    pub const fn is_empty(&self) -> bool {
        self.right <= self.left || self.bottom <= self.top
    }

    /// The overlap of two rectangles (possibly empty).
    pub fn intersect(&self, other: &Rect) -> Rect {
        Rect::new(
            self.left.max(other.left),
            self.top.max(other.top),
            self.right.min(other.right),
            self.bottom.min(other.bottom),
        )
    }

    /// Checks that the rectangle is well-formed and lies within a `width` x `height` surface.
    pub fn check_within(&self, width: u32, height: u32, what: &str) -> Result<()> {
        let inside = self.left >= 0
            && self.top >= 0
            && self.left <= self.right
            && self.top <= self.bottom
            && i64::from(self.right) <= i64::from(width)
            && i64::from(self.bottom) <= i64::from(height);
        if inside {
            Ok(())
        } else {
            Err(Error::invalid_call(format!(
                "{what} {self:?} is not inside the {width}x{height} surface"
            )))
        }
    }
}

/// `D3DLIGHTTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LightType {
    /// D3DLIGHT_POINT (1).
    Point,
    /// D3DLIGHT_SPOT (2).
    Spot,
    /// D3DLIGHT_DIRECTIONAL (3).
    #[default]
    Directional,
}

/// `D3DLIGHT9`. Colours are `D3DCOLORVALUE` (r, g, b, a) floats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Type of light.
    pub light_type: LightType,
    /// Diffuse colour.
    pub diffuse: [f32; 4],
    /// Specular colour.
    pub specular: [f32; 4],
    /// Ambient colour.
    pub ambient: [f32; 4],
    /// Position in world space (point and spot).
    pub position: Vec3,
    /// Direction in world space (spot and directional).
    pub direction: Vec3,
    /// Distance beyond which the light has no effect (point and spot).
    pub range: f32,
    /// Spot falloff between the inner and outer cone.
    pub falloff: f32,
    /// Constant attenuation.
    pub attenuation0: f32,
    /// Linear attenuation.
    pub attenuation1: f32,
    /// Quadratic attenuation.
    pub attenuation2: f32,
    /// Inner cone angle in radians.
    pub theta: f32,
    /// Outer cone angle in radians.
    pub phi: f32,
}

impl Default for Light {
    /// The light `LightEnable` creates for an index that was never set: a
    /// white directional light pointing down +z (D3D9's default light).
    fn default() -> Self {
        Light {
            light_type: LightType::Directional,
            diffuse: [1.0, 1.0, 1.0, 0.0],
            specular: [0.0; 4],
            ambient: [0.0; 4],
            position: Vec3::ZERO,
            direction: Vec3::Z,
            range: 0.0,
            falloff: 0.0,
            attenuation0: 0.0,
            attenuation1: 0.0,
            attenuation2: 0.0,
            theta: 0.0,
            phi: 0.0,
        }
    }
}

impl Light {
    /// D3D9's `SetLight` checks: finite values, a usable range and cone,
    /// non-negative attenuation, a non-zero direction where one is used.
    pub fn validate(&self) -> Result<()> {
        let bad = |why: &str| Err(Error::invalid_call(format!("SetLight: {why}")));
        let floats = [
            self.range,
            self.falloff,
            self.attenuation0,
            self.attenuation1,
            self.attenuation2,
            self.theta,
            self.phi,
        ];
        if floats.iter().any(|f| !f.is_finite())
            || !self.position.is_finite()
            || !self.direction.is_finite()
            || self
                .diffuse
                .iter()
                .chain(&self.specular)
                .chain(&self.ambient)
                .any(|f| !f.is_finite())
        {
            return bad("a member is NaN or infinite");
        }
        match self.light_type {
            LightType::Directional | LightType::Spot if self.direction.length_squared() == 0.0 => {
                bad("the direction is the zero vector")
            }
            LightType::Point | LightType::Spot
                if self.range < 0.0 || self.range > f32::MAX.sqrt() =>
            {
                bad(&format!("range {} is outside 0..sqrt(FLT_MAX)", self.range))
            }
            LightType::Point | LightType::Spot
                if self.attenuation0 < 0.0
                    || self.attenuation1 < 0.0
                    || self.attenuation2 < 0.0 =>
            {
                bad("attenuation is negative")
            }
            LightType::Spot
                if self.theta < 0.0
                    || self.phi < 0.0
                    || self.phi > std::f32::consts::PI
                    || self.theta > self.phi =>
            {
                bad("spot angles need 0 <= theta <= phi <= pi")
            }
            _ => Ok(()),
        }
    }
}

/// `D3DMATERIAL9`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Material {
    /// Diffuse reflectance.
    pub diffuse: [f32; 4],
    /// Ambient reflectance.
    pub ambient: [f32; 4],
    /// Specular reflectance.
    pub specular: [f32; 4],
    /// Emissive colour.
    pub emissive: [f32; 4],
    /// Specular exponent.
    pub power: f32,
}

/// The identity matrix every transform starts as.
pub const IDENTITY: Mat4 = Mat4::IDENTITY;
