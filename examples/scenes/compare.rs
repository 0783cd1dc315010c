//! `--compare DIR`: how far a scene's final frame is from a peer's PNG
//! (`DIR/llvmpipe_<scene>.png` by default), per channel.

use std::fs::File;
use std::io::{BufReader, BufWriter};

/// Per-channel difference statistics of two images of one size.
pub struct Diff {
    /// Mean absolute difference of R, G, B (0–255).
    pub mean: [f64; 3],
    /// Largest absolute difference over all channels.
    pub max: u8,
    /// Pixels whose largest channel difference exceeds 8 and 32.
    pub over: [usize; 2],
    /// Pixels by largest channel difference: 0, 1, 2, 3–4, 5–8, 9–32, > 32.
    pub hist: [usize; 7],
    /// The first pixel with the largest difference: (x, y, ours, peer) as
    /// 0xRRGGBB.
    pub worst: (u32, u32, u32, u32),
}

/// Reads an 8-bit RGB or RGBA PNG as 0xRRGGBB pixels, top row first.
pub fn load_rgb(path: &str) -> Result<(u32, u32, Vec<u32>), String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = png::Decoder::new(BufReader::new(file))
        .read_info()
        .map_err(|e| format!("{path}: {e}"))?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("PNG too large")?];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{path}: {e}"))?;
    let channels = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        other => return Err(format!("{path}: unsupported PNG format {other:?}")),
    };
    let px = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|c| u32::from_be_bytes([0, c[0], c[1], c[2]]))
        .collect();
    Ok((info.width, info.height, px))
}

/// Compares `ours` (0xAARRGGBB, alpha ignored) with `peer` (0xRRGGBB) of
/// width `w`.
pub fn diff(ours: &[u32], peer: &[u32], w: u32) -> Diff {
    let mut sum = [0u64; 3];
    let mut max = 0u8;
    let mut over = [0usize; 2];
    let mut hist = [0usize; 7];
    let mut worst = (0, 0, 0, 0);
    for (i, (&a, &b)) in ours.iter().zip(peer).enumerate() {
        let mut m = 0u8;
        for (c, s) in sum.iter_mut().enumerate() {
            let shift = 16 - 8 * c;
            let d = ((a >> shift) as u8).abs_diff((b >> shift) as u8);
            *s += u64::from(d);
            m = m.max(d);
        }
        over[0] += usize::from(m > 8);
        over[1] += usize::from(m > 32);
        hist[match m {
            0..=2 => usize::from(m),
            3..=4 => 3,
            5..=8 => 4,
            9..=32 => 5,
            _ => 6,
        }] += 1;
        if m > max {
            max = m;
            worst = (i as u32 % w, i as u32 / w, a & 0xFF_FFFF, b);
        }
    }
    let n = ours.len().max(1) as f64;
    Diff {
        mean: sum.map(|s| s as f64 / n),
        max,
        over,
        hist,
        worst,
    }
}

/// Writes |ours - peer| per channel, scaled by 8 (saturating), as an RGB
/// PNG, to see where two frames differ.
pub fn save_diff_png(
    ours: &[u32],
    peer: &[u32],
    (w, h): (u32, u32),
    path: &str,
) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| format!("{path}: {e}"))?;
    let data: Vec<u8> = ours
        .iter()
        .zip(peer)
        .flat_map(|(&a, &b)| {
            [16u32, 8, 0].map(|s| {
                let d = ((a >> s) as u8).abs_diff((b >> s) as u8);
                d.saturating_mul(8)
            })
        })
        .collect();
    writer
        .write_image_data(&data)
        .map_err(|e| format!("{path}: {e}"))
}
