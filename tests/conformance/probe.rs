//! Pixel probes: Wine's `color_match` per 8-bit channel, alpha ignored
//! unless the probe compares it, any of several accepted colours, probe
//! requirements and alternative expectations for a missing cap.

use std::collections::HashMap;

use super::case::Probe;
use super::replay::Replay;
use super::requires;

/// At most this many failure lines per case and driver.
pub const DETAIL_LINES: usize = 4;

/// A read-back surface: A8R8G8B8 pixels, width, height.
type Image = (Vec<u32>, u32, u32);

/// Whether `got` matches `want` within `tolerance` per channel.
pub fn color_match(got: u32, want: u32, tolerance: u8, compare_alpha: bool) -> bool {
    let mask = if compare_alpha {
        0xFFFF_FFFF
    } else {
        0x00FF_FFFF
    };
    let (got, want) = (got & mask, want & mask);
    (0..4).all(|i| {
        let (g, w) = ((got >> (8 * i)) & 0xFF, (want >> (8 * i)) & 0xFF);
        g.abs_diff(w) <= u32::from(tolerance)
    })
}

/// The probes' failures on one replayed device (empty: all passed).
/// Probes whose own requirement the level does not meet are left out.
pub fn check(replay: &Replay, probes: &[Probe]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut pixels: HashMap<Option<String>, Result<Image, String>> = HashMap::new();
    for p in probes {
        if let Some(r) = &p.requires {
            match requires::parse(r) {
                Ok(req) if !requires::met(&req, &replay.device) => continue,
                Ok(_) => {}
                Err(e) => {
                    failures.push(format!("probe requirement {r:?}: {e}"));
                    continue;
                }
            }
        }
        let mut wanted = p.colors.clone();
        if let Some((cap, alt)) = &p.if_cap_missing {
            match requires::parse(cap) {
                Ok(req) if !requires::met(&req, &replay.device) => wanted = vec![*alt],
                Ok(_) => {}
                Err(e) => {
                    failures.push(format!("probe cap {cap:?}: {e}"));
                    continue;
                }
            }
        }
        let image = pixels.entry(p.surface.clone()).or_insert_with(|| {
            let s = replay.surface(p.surface.as_deref())?;
            let d = s.desc();
            let argb = replay
                .device
                .read_surface_argb(&s)
                .map_err(|e| format!("read_surface_argb: {e}"))?;
            Ok((argb, d.width, d.height))
        });
        let (argb, w, h) = match image {
            Ok(i) => (&i.0, i.1, i.2),
            Err(e) => {
                failures.push(format!("surface {:?}: {e}", p.surface));
                continue;
            }
        };
        let [l, t, r, b] = p.rect;
        if r > w || b > h {
            failures.push(format!("probe {:?} outside the {w}x{h} surface", p.rect));
            continue;
        }
        'pixels: for y in t..b {
            for x in l..r {
                let got = argb[(y * w + x) as usize];
                if !wanted
                    .iter()
                    .any(|&c| color_match(got, c, p.tolerance, p.compare_alpha))
                {
                    let want: Vec<String> = wanted.iter().map(|c| format!("0x{c:08x}")).collect();
                    let surface = p.surface.as_deref().unwrap_or("backbuffer");
                    failures.push(format!(
                        "({x},{y}) on {surface}: expected {} (±{}), got 0x{got:08x}{}",
                        want.join(" or "),
                        p.tolerance,
                        if p.label.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", p.label)
                        }
                    ));
                    break 'pixels;
                }
            }
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::color_match;

    #[test]
    fn wine_color_match() {
        assert!(color_match(0xff00ff00, 0x0000ff00, 0, false));
        assert!(!color_match(0xff00ff00, 0x0000ff00, 0, true));
        assert!(color_match(0x00bf4001, 0x00bf4000, 1, false));
        assert!(!color_match(0x00bf4002, 0x00bf4000, 1, false));
        assert!(!color_match(0x00000000, 0x00ff0000, 254, false));
    }
}
