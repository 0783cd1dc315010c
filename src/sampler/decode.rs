//! Texel storage as the sampler reads it, and texel decoding.
//!
//! Job: turn one mip level (a surface or volume snapshot) into a
//! [`LevelData`] the filters can fetch from, and fetch one texel of it as a
//! value in the level's *filter domain* (see below).
//!
//! Two storage forms, chosen per format (textures.md 1.2):
//! - **Packed**: UNORM formats of 1, 2 or 4 bytes per texel are read in
//!   place from the snapshot (no copy): each channel is a bit field or a
//!   constant. DXT1–5 are decoded once per snapshot into packed RGBA8
//!   (their decoded values are 8-bit integers, so this is exact) and then
//!   read the same way.
//! - **Float**: every other format (64/128-bit, signed, float) is decoded
//!   once per snapshot with [`crate::format::decode_texel`] into `[f32; 4]`.
//!
//! The filter domain: a packed channel of `n` bits is fetched as its integer
//! code (exact in f32) and filtered in that domain; the sampler divides by
//! `2^n - 1` once after filtering ([`Decoder::divisor`]). A texel at its
//! exact centre therefore reads exactly `code / (2^n - 1)`, the D3D9
//! decode, while a bilinear sample costs one division per channel instead
//! of one per tap. Float levels have divisor 1.
//!
//! Invariants: fetches never panic; a coordinate outside the level (which
//! the address stage never produces) reads zeros. Conversions are cached by
//! the identity of the snapshot `Arc` (a write copies or moves the bytes to
//! a new allocation, so a stale entry can never be hit).

use std::sync::{Arc, Mutex, OnceLock, Weak};

use crate::format::{Format, Layout, decode_texel};

/// One channel of a packed texel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Chan {
    /// `(word >> shift) & (2^bits - 1)`.
    Field {
        /// Bit position of the field.
        shift: u32,
        /// Width of the field.
        bits: u32,
    },
    /// A constant (a missing component: 0 or 1).
    Const(f32),
}

impl Chan {
    /// The value the sampler divides the filtered channel by.
    pub(crate) fn divisor(self) -> f32 {
        match self {
            Chan::Field { bits, .. } => ((1u64 << bits) - 1) as f32,
            Chan::Const(_) => 1.0,
        }
    }
}

/// How a level's texels become filter-domain values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Decoder {
    /// Packed UNORM texels of `bytes` bytes (1, 2 or 4), channels r, g, b, a.
    Packed {
        /// Bytes per texel.
        bytes: u32,
        /// Channel layout in (r, g, b, a) order.
        chans: [Chan; 4],
    },
    /// `[f32; 4]` texels, already final values.
    Float,
}

impl Decoder {
    /// The per-channel divisor applied after filtering.
    pub(crate) fn divisor(self) -> [f32; 4] {
        match self {
            Decoder::Packed { chans, .. } => chans.map(Chan::divisor),
            Decoder::Float => [1.0; 4],
        }
    }

    /// The decoder for `format`'s sampled storage (DXT: the RGBA8 it is decoded to).
    pub(crate) fn for_format(format: Format) -> Decoder {
        use Format::*;
        let f = |shift, bits| Chan::Field { shift, bits };
        let one = Chan::Const(1.0);
        let zero = Chan::Const(0.0);
        let packed = |bytes, chans| Decoder::Packed { bytes, chans };
        match format {
            A8R8G8B8 => packed(4, [f(16, 8), f(8, 8), f(0, 8), f(24, 8)]),
            X8R8G8B8 => packed(4, [f(16, 8), f(8, 8), f(0, 8), one]),
            A8B8G8R8 | DXT1 | DXT2 | DXT3 | DXT4 | DXT5 => {
                packed(4, [f(0, 8), f(8, 8), f(16, 8), f(24, 8)])
            }
            X8B8G8R8 => packed(4, [f(0, 8), f(8, 8), f(16, 8), one]),
            R5G6B5 => packed(2, [f(11, 5), f(5, 6), f(0, 5), one]),
            X1R5G5B5 => packed(2, [f(10, 5), f(5, 5), f(0, 5), one]),
            A1R5G5B5 => packed(2, [f(10, 5), f(5, 5), f(0, 5), f(15, 1)]),
            A4R4G4B4 => packed(2, [f(8, 4), f(4, 4), f(0, 4), f(12, 4)]),
            X4R4G4B4 => packed(2, [f(8, 4), f(4, 4), f(0, 4), one]),
            R3G3B2 => packed(1, [f(5, 3), f(2, 3), f(0, 2), one]),
            A8R3G3B2 => packed(2, [f(5, 3), f(2, 3), f(0, 2), f(8, 8)]),
            A2R10G10B10 => packed(4, [f(20, 10), f(10, 10), f(0, 10), f(30, 2)]),
            A2B10G10R10 => packed(4, [f(0, 10), f(10, 10), f(20, 10), f(30, 2)]),
            G16R16 => packed(4, [f(0, 16), f(16, 16), one, one]),
            A8 => packed(1, [zero, zero, zero, f(0, 8)]),
            L8 => packed(1, [f(0, 8), f(0, 8), f(0, 8), one]),
            L16 => packed(2, [f(0, 16), f(0, 16), f(0, 16), one]),
            A8L8 => packed(2, [f(0, 8), f(0, 8), f(0, 8), f(8, 8)]),
            A4L4 => packed(1, [f(0, 4), f(0, 4), f(0, 4), f(4, 4)]),
            // Depth textures: the depth code in every channel (the sampler compares it).
            D16 | D16_LOCKABLE => packed(2, [f(0, 16), f(0, 16), f(0, 16), one]),
            D24S8 | D24X8 | D24X4S4 => packed(4, [f(8, 24), f(8, 24), f(8, 24), one]),
            _ => Decoder::Float,
        }
    }

    /// Whether the sampled storage has 8-bit colour channels that sRGB reads may linearise.
    pub(crate) fn srgb_capable(self) -> bool {
        match self {
            Decoder::Packed { chans, .. } => chans[..3]
                .iter()
                .all(|c| matches!(c, Chan::Field { bits: 8, .. })),
            Decoder::Float => false,
        }
    }
}

/// The texels of one mip level (one cube face, or one whole volume level).
#[derive(Clone, Debug)]
pub(crate) enum Texels {
    /// Packed texels (a snapshot of the resource, or decoded DXT).
    Bytes(Arc<Vec<u8>>),
    /// Decoded float texels.
    Floats(Arc<Vec<[f32; 4]>>),
}

/// One mip level ready for fetching.
#[derive(Clone, Debug)]
pub(crate) struct LevelData {
    /// Width in texels (virtual size for DXT).
    pub(crate) width: u32,
    /// Height in texels.
    pub(crate) height: u32,
    /// Depth in slices (1 for 2D and cube levels).
    pub(crate) depth: u32,
    /// Bytes (or texels, for floats) from one row to the next.
    pub(crate) row_pitch: usize,
    /// Bytes (or texels) from one slice to the next.
    pub(crate) slice_pitch: usize,
    /// The texels.
    pub(crate) texels: Texels,
}

impl LevelData {
    /// Builds the sampled form of a level whose resource bytes are `bytes`
    /// (rows `row_pitch` apart, slices `slice_pitch` apart) in `format`.
    pub(crate) fn new(
        format: Format,
        bytes: Arc<Vec<u8>>,
        [width, height, depth]: [u32; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> LevelData {
        let decoder = Decoder::for_format(format);
        let (texels, row_pitch, slice_pitch) = match (decoder, format.layout()) {
            (Decoder::Packed { .. }, Layout::Texel { .. }) => {
                (Texels::Bytes(bytes), row_pitch, slice_pitch)
            }
            (Decoder::Packed { .. }, _) => {
                let w = width as usize;
                let decoded = cached(&bytes, CacheKind::Dxt, || {
                    Cached::Bytes(Arc::new(decode_dxt_level(
                        format, &bytes, width, height, row_pitch,
                    )))
                });
                match decoded {
                    Cached::Bytes(b) => (Texels::Bytes(b), 4 * w, 4 * w * height as usize),
                    Cached::Floats(f) => (Texels::Floats(f), w, w * height as usize),
                }
            }
            (Decoder::Float, _) => {
                let w = width as usize;
                let decoded = cached(&bytes, CacheKind::Float, || {
                    Cached::Floats(Arc::new(decode_float_level(
                        format,
                        &bytes,
                        [width, height, depth],
                        row_pitch,
                        slice_pitch,
                    )))
                });
                match decoded {
                    Cached::Floats(f) => (Texels::Floats(f), w, w * height as usize),
                    Cached::Bytes(b) => (Texels::Bytes(b), 4 * w, 4 * w * height as usize),
                }
            }
        };
        LevelData {
            width,
            height,
            depth,
            row_pitch,
            slice_pitch,
            texels,
        }
    }

    /// The raw packed word of texel (x, y, z) (`bytes` 1, 2 or 4), zero when outside.
    #[inline(always)]
    pub(crate) fn word(&self, bytes: u32, x: i32, y: i32, z: i32) -> u32 {
        let Texels::Bytes(b) = &self.texels else {
            return 0;
        };
        let at = z as usize * self.slice_pitch + y as usize * self.row_pitch;
        let at = at + x as usize * bytes as usize;
        match bytes {
            4 => b
                .get(at..at + 4)
                .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
            2 => b
                .get(at..at + 2)
                .map_or(0, |w| u32::from(u16::from_le_bytes([w[0], w[1]]))),
            _ => b.get(at).map_or(0, |&v| u32::from(v)),
        }
    }

    /// Texel (x, y, z) in the filter domain (see the module docs); `srgb`
    /// linearises 8-bit colour channels through [`srgb_table`].
    #[inline(always)]
    pub(crate) fn fetch(&self, decoder: Decoder, srgb: bool, x: i32, y: i32, z: i32) -> [f32; 4] {
        match decoder {
            Decoder::Packed { bytes, chans } => {
                let w = self.word(bytes, x, y, z);
                let mut out = [0.0; 4];
                for (i, c) in chans.iter().enumerate() {
                    out[i] = match *c {
                        Chan::Field { shift, bits } => {
                            let code = (w >> shift) & (((1u64 << bits) - 1) as u32);
                            if srgb && i < 3 {
                                srgb_table()[(code & 0xFF) as usize]
                            } else {
                                code as f32
                            }
                        }
                        Chan::Const(v) => v,
                    };
                }
                out
            }
            Decoder::Float => match &self.texels {
                Texels::Floats(f) => {
                    let at =
                        z as usize * self.slice_pitch + y as usize * self.row_pitch + x as usize;
                    f.get(at).copied().unwrap_or([0.0; 4])
                }
                Texels::Bytes(_) => [0.0; 4],
            },
        }
    }
}

/// sRGB → linear for each 8-bit code, in the ×255 filter domain (textures.md 1.1).
pub(crate) fn srgb_table() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let c = i as f64 / 255.0;
            let l = if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            };
            (l * 255.0) as f32
        })
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CacheKind {
    Dxt,
    Float,
}

#[derive(Clone)]
enum Cached {
    Bytes(Arc<Vec<u8>>),
    Floats(Arc<Vec<[f32; 4]>>),
}

struct Entry {
    source: Weak<Vec<u8>>,
    kind: CacheKind,
    value: Cached,
}

/// The decoded form of `bytes`, built by `make` on a miss. Entries whose
/// source snapshot is gone are dropped on every miss.
fn cached(bytes: &Arc<Vec<u8>>, kind: CacheKind, make: impl FnOnce() -> Cached) -> Cached {
    static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
    let key = Arc::downgrade(bytes);
    {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = cache
            .iter()
            .find(|e| e.kind == kind && Weak::ptr_eq(&e.source, &key))
        {
            return e.value.clone();
        }
    }
    // Decode outside the lock: other draws may convert other textures meanwhile.
    let value = make();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|e| e.source.strong_count() > 0);
    cache.push(Entry {
        source: key,
        kind,
        value: value.clone(),
    });
    value
}

fn decode_float_level(
    format: Format,
    bytes: &[u8],
    [width, height, depth]: [u32; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> Vec<[f32; 4]> {
    let texel = match format.layout() {
        Layout::Texel { bytes } => bytes as usize,
        _ => 0,
    };
    let mut out = Vec::with_capacity(width as usize * height as usize * depth as usize);
    for z in 0..depth as usize {
        for y in 0..height as usize {
            for x in 0..width as usize {
                let at = z * slice_pitch + y * row_pitch + x * texel;
                let v = bytes
                    .get(at..at + texel)
                    .map_or([0.0; 4], |b| decode_texel(format, b));
                out.push(v);
            }
        }
    }
    out
}

/// Decodes a DXT level (blocks in rows `row_pitch` apart) into RGBA8 texels
/// (R in the low byte), `width` x `height` (the virtual size).
pub(crate) fn decode_dxt_level(
    format: Format,
    bytes: &[u8],
    width: u32,
    height: u32,
    row_pitch: usize,
) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let block_bytes = if format == Format::DXT1 { 8 } else { 16 };
    let mut out = vec![0u8; w * h * 4];
    for by in 0..h.div_ceil(4) {
        for bx in 0..w.div_ceil(4) {
            let at = by * row_pitch + bx * block_bytes;
            let mut block = [0u8; 16];
            if let Some(src) = bytes.get(at..at + block_bytes) {
                block[..block_bytes].copy_from_slice(src);
            }
            let texels = decode_dxt_block(format, &block);
            for (i, t) in texels.iter().enumerate() {
                let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
                if x < w && y < h {
                    let o = (y * w + x) * 4;
                    out[o..o + 4].copy_from_slice(t);
                }
            }
        }
    }
    out
}

/// Decodes one DXT1–5 block (8 or 16 bytes) into 16 RGBA8 texels, row by
/// row (textures.md section 9).
pub fn decode_dxt_block(format: Format, block: &[u8; 16]) -> [[u8; 4]; 16] {
    let (alpha, color): (&[u8], &[u8]) = if format == Format::DXT1 {
        (&[], &block[..8])
    } else {
        (&block[..8], &block[8..16])
    };
    let c0 = u16::from_le_bytes([color[0], color[1]]);
    let c1 = u16::from_le_bytes([color[2], color[3]]);
    let expand = |c: u16| -> [u32; 3] {
        let r = u32::from(c >> 11) & 31;
        let g = u32::from(c >> 5) & 63;
        let b = u32::from(c) & 31;
        [
            (r << 3) | (r >> 2),
            (g << 2) | (g >> 4),
            (b << 3) | (b >> 2),
        ]
    };
    let (e0, e1) = (expand(c0), expand(c1));
    // DXT2-5 always interpolate four colours; DXT1 only when c0 > c1 (9.2, 9.3).
    let four = format != Format::DXT1 || c0 > c1;
    let mut palette = [[0u8; 4]; 4];
    for ch in 0..3 {
        let (a, b) = (e0[ch], e1[ch]);
        palette[0][ch] = a as u8;
        palette[1][ch] = b as u8;
        if four {
            palette[2][ch] = ((2 * a + b + 1) / 3) as u8;
            palette[3][ch] = ((a + 2 * b + 1) / 3) as u8;
        } else {
            palette[2][ch] = ((a + b) / 2) as u8;
            palette[3][ch] = 0;
        }
    }
    for (i, p) in palette.iter_mut().enumerate() {
        p[3] = if !four && i == 3 { 0 } else { 255 };
    }
    let indices = u32::from_le_bytes([color[4], color[5], color[6], color[7]]);
    let mut out = [[0u8; 4]; 16];
    for (i, t) in out.iter_mut().enumerate() {
        *t = palette[((indices >> (2 * i)) & 3) as usize];
    }
    match format {
        Format::DXT2 | Format::DXT3 => {
            for (i, t) in out.iter_mut().enumerate() {
                let word = u16::from_le_bytes([alpha[2 * (i / 4)], alpha[2 * (i / 4) + 1]]);
                t[3] = (((word >> (4 * (i % 4))) & 15) * 17) as u8;
            }
        }
        Format::DXT4 | Format::DXT5 => {
            let (a0, a1) = (u32::from(alpha[0]), u32::from(alpha[1]));
            let mut bits = [0u8; 8];
            bits[..6].copy_from_slice(&alpha[2..8]);
            let bits = u64::from_le_bytes(bits);
            for (i, t) in out.iter_mut().enumerate() {
                let k = ((bits >> (3 * i)) & 7) as u32;
                t[3] = match k {
                    0 => a0,
                    1 => a1,
                    _ if a0 > a1 => ((8 - k) * a0 + (k - 1) * a1 + 3) / 7,
                    6 => 0,
                    7 => 255,
                    _ => ((6 - k) * a0 + (k - 1) * a1 + 2) / 5,
                } as u8;
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dxt5_alpha_six_interpolated() {
        // a0 = 255 > a1 = 0; indices: texel 0 code 2, texel 1 code 7.
        let mut block = [0u8; 16];
        block[0] = 255;
        block[1] = 0;
        block[2] = 2 | (7 << 3);
        let t = decode_dxt_block(Format::DXT5, &block);
        assert_eq!(t[0][3], ((6 * 255 + 3) / 7) as u8);
        // Code 7 with a0 > a1: (a0 + 6 a1 + 3) / 7 with a1 = 0.
        assert_eq!(t[1][3], ((255 + 3) / 7) as u8);
    }

    #[test]
    fn srgb_table_endpoints() {
        let t = srgb_table();
        assert_eq!(t[0], 0.0);
        assert_eq!(t[255], 255.0);
        assert!((t[128] / 255.0 - 0.2158605).abs() < 1e-5);
    }
}
