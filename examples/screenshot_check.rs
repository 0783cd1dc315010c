//! Checks that a screenshot of a demo's window shows exactly the frame the
//! demo writes headless: `screenshot_check SCREEN.xwd FRAME.png`.
//!
//! The screenshot is an `xwd -root` dump of an X server (Xvfb in
//! `.ci/run`); the window may sit anywhere on the screen, so the frame is
//! searched for, then every pixel is compared. Exit status 0 when the frame
//! is on screen pixel for pixel, 1 (with the reason) otherwise.

use std::process::ExitCode;

#[path = "scenes/compare.rs"]
#[allow(dead_code)]
mod compare;

/// An RGB image, row-major, `0x00RRGGBB` per pixel.
struct Image {
    width: usize,
    height: usize,
    pixels: Vec<u32>,
}

impl Image {
    fn at(&self, x: usize, y: usize) -> u32 {
        self.pixels[y * self.width + x]
    }
}

fn be32(b: &[u8], field: usize) -> Result<u32, String> {
    b.get(4 * field..4 * field + 4)
        .map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
        .ok_or_else(|| "xwd: truncated header".to_string())
}

/// Reads a 24/32-bit TrueColor XWD dump (the X11 `XWDFileHeader` layout:
/// 25 big-endian CARD32 fields, the window name, the colour map, the image).
fn read_xwd(bytes: &[u8]) -> Result<Image, String> {
    let header_size = be32(bytes, 0)? as usize;
    let version = be32(bytes, 1)?;
    if version != 7 {
        return Err(format!("xwd: file version {version}, expected 7"));
    }
    let width = be32(bytes, 4)? as usize;
    let height = be32(bytes, 5)? as usize;
    let byte_order = be32(bytes, 7)?; // 0 = LSBFirst
    let bits_per_pixel = be32(bytes, 11)?;
    let bytes_per_line = be32(bytes, 12)? as usize;
    let masks = [be32(bytes, 14)?, be32(bytes, 15)?, be32(bytes, 16)?];
    let ncolors = be32(bytes, 19)? as usize;
    if bits_per_pixel != 32 {
        return Err(format!(
            "xwd: {bits_per_pixel} bits per pixel; run Xvfb with a 24-bit screen"
        ));
    }
    let data = header_size + 12 * ncolors;
    let need = data + bytes_per_line * height;
    if bytes.len() < need || bytes_per_line < 4 * width {
        return Err(format!(
            "xwd: {} bytes, the header needs {need}",
            bytes.len()
        ));
    }
    // Each channel to 8 bits through its mask.
    let channel = |v: u32, mask: u32| -> u32 {
        if mask == 0 {
            return 0;
        }
        let c = (v & mask) >> mask.trailing_zeros();
        let bits = mask.count_ones();
        if bits >= 8 {
            c >> (bits - 8)
        } else {
            c << (8 - bits)
        }
    };
    let mut pixels = Vec::with_capacity(width * height);
    for y in 0..height {
        let row = &bytes[data + y * bytes_per_line..];
        for x in 0..width {
            let p = [row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]];
            let v = if byte_order == 0 {
                u32::from_le_bytes(p)
            } else {
                u32::from_be_bytes(p)
            };
            pixels.push(
                (channel(v, masks[0]) << 16) | (channel(v, masks[1]) << 8) | channel(v, masks[2]),
            );
        }
    }
    Ok(Image {
        width,
        height,
        pixels,
    })
}

/// Reads an 8-bit RGB or RGBA PNG (what the demos write), alpha ignored,
/// with the scenes example's loader.
fn read_png(path: &str) -> Result<Image, String> {
    let (width, height, pixels) = compare::load_rgb(path)?;
    Ok(Image {
        width: width as usize,
        height: height as usize,
        pixels,
    })
}

/// Where `frame` sits on `screen` exactly, if anywhere.
fn find(screen: &Image, frame: &Image) -> Option<(usize, usize)> {
    if frame.width > screen.width || frame.height > screen.height {
        return None;
    }
    for oy in 0..=screen.height - frame.height {
        for ox in 0..=screen.width - frame.width {
            // The first row decides cheaply; then the whole frame.
            let row_matches = (0..frame.width).all(|x| screen.at(ox + x, oy) == frame.at(x, 0));
            if row_matches
                && (0..frame.height)
                    .all(|y| (0..frame.width).all(|x| screen.at(ox + x, oy + y) == frame.at(x, y)))
            {
                return Some((ox, oy));
            }
        }
    }
    None
}

fn check(xwd: &str, png_path: &str) -> Result<String, String> {
    let bytes = std::fs::read(xwd).map_err(|e| format!("{xwd}: {e}"))?;
    let screen = read_xwd(&bytes)?;
    let frame = read_png(png_path)?;
    match find(&screen, &frame) {
        Some((x, y)) => Ok(format!(
            "{png_path}: the {}x{} frame is on screen at ({x}, {y}), every pixel equal",
            frame.width, frame.height
        )),
        None => {
            let distinct: std::collections::BTreeSet<u32> =
                screen.pixels.iter().copied().take(1 << 16).collect();
            Err(format!(
                "{png_path}: the {}x{} frame is not on the {}x{} screen ({} distinct colours in its first 65536 pixels)",
                frame.width,
                frame.height,
                screen.width,
                screen.height,
                distinct.len()
            ))
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [xwd, png_path] = args.as_slice() else {
        eprintln!("usage: screenshot_check SCREEN.xwd FRAME.png");
        return ExitCode::from(2);
    };
    match check(xwd, png_path) {
        Ok(msg) => {
            println!("{msg}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("screenshot_check: {msg}");
            ExitCode::FAILURE
        }
    }
}
