//! A minimal texture fetch for tests, benches and bring-up: point sampling
//! of single-level 2D A8R8G8B8 textures with wrap addressing, implementing
//! both [`TextureFetch`] and [`TextureFetchScalar`] with the same per-lane
//! function so the two interpreters see identical texels. The level of
//! detail is ignored. (The real sampler lives elsewhere.)

use crate::simd::{FloatV, MaskV, Simd};
use crate::texture_fetch::{Lod, SamplerSlot, TextureFetch, TextureFetchScalar};

/// A 2D A8R8G8B8 texture, row-major, one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture2D {
    /// Width in texels (≥ 1).
    pub width: u32,
    /// Height in texels (≥ 1).
    pub height: u32,
    /// `0xAARRGGBB` texels.
    pub texels: Vec<u32>,
}

/// Point sampling with wrap of the textures bound to each slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PointFetch {
    /// Texture per sampler slot (`None`: nothing bound → (0, 0, 0, 1)).
    pub slots: Vec<Option<Texture2D>>,
}

fn wrap(c: f32, n: u32) -> usize {
    let x = (c * n as f32).floor();
    if !x.is_finite() {
        return 0;
    }
    (x as i64).rem_euclid(n as i64) as usize
}

impl PointFetch {
    /// Binds `tex` to `slot`.
    pub fn bind(&mut self, slot: SamplerSlot, tex: Texture2D) {
        if self.slots.len() <= slot {
            self.slots.resize(slot + 1, None);
        }
        self.slots[slot] = Some(tex);
    }

    /// The texel at (u, v) of `slot`, as (r, g, b, a) in [0, 1].
    pub fn texel(&self, slot: SamplerSlot, u: f32, v: f32) -> [f32; 4] {
        let Some(Some(t)) = self.slots.get(slot) else {
            return [0.0, 0.0, 0.0, 1.0];
        };
        let (w, h) = (t.width.max(1), t.height.max(1));
        let i = wrap(v, h) * w as usize + wrap(u, w);
        let p = t.texels.get(i).copied().unwrap_or(0);
        let ch = |shift: u32| ((p >> shift) & 0xFF) as f32 / 255.0;
        [ch(16), ch(8), ch(0), ch(24)]
    }
}

impl<S: Simd> TextureFetch<S> for PointFetch {
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        _lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        let (u, v) = (coords[0].to_array(), coords[1].to_array());
        let bits = active.bits();
        let t: [[f32; 4]; 8] = std::array::from_fn(|l| {
            if bits & (1 << l) != 0 {
                self.texel(slot, u[l], v[l])
            } else {
                [0.0; 4]
            }
        });
        std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| t[l][c])))
    }
}

impl TextureFetchScalar for PointFetch {
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], _lod: Lod<f32>) -> [f32; 4] {
        self.texel(slot, coords[0], coords[1])
    }
}
