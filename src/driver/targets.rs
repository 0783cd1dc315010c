//! Write access to a draw's render targets and depth-stencil buffer: the
//! surfaces' bytes borrowed for the draw, split into horizontal bands that
//! threads own exclusively.

use super::state::DrawState;
use crate::format::Layout;
use crate::resource::Surface;

/// One surface's bytes (rows `pitch` apart, `bpp` bytes per texel),
/// starting at row `y0` of the surface.
#[derive(Debug)]
pub(crate) struct TargetBytes<'a> {
    pub(crate) bytes: &'a mut [u8],
    pub(crate) pitch: usize,
    pub(crate) bpp: usize,
}

impl TargetBytes<'_> {
    /// Texel (x, y) relative to the first row.
    #[inline(always)]
    pub(crate) fn texel(&mut self, x: i32, y: i32) -> &mut [u8] {
        let at = y as usize * self.pitch + x as usize * self.bpp;
        &mut self.bytes[at..at + self.bpp]
    }
}

/// The targets of a draw, or of a band of rows of it.
#[derive(Debug)]
pub(crate) struct FrameTargets<'a> {
    /// First surface row these bytes hold.
    pub(crate) y0: i32,
    /// Rows held.
    pub(crate) rows: i32,
    pub(crate) depth: Option<TargetBytes<'a>>,
    pub(crate) colors: [Option<TargetBytes<'a>>; 4],
}

impl<'a> FrameTargets<'a> {
    /// The depth texel and each target's texel at surface pixel (x, y).
    pub(crate) fn pixel(&mut self, x: i32, y: i32) -> (Option<&mut [u8]>, [Option<&mut [u8]>; 4]) {
        let y = y - self.y0;
        let d = self.depth.as_mut().map(|t| t.texel(x, y));
        let mut it = self.colors.iter_mut();
        let mut next = || it.next().and_then(|c| c.as_mut().map(|t| t.texel(x, y)));
        let c = [next(), next(), next(), next()];
        (d, c)
    }

    /// Splits into bands of `band` rows (the last may be shorter).
    pub(crate) fn into_bands(self, band: usize) -> Vec<FrameTargets<'a>> {
        let n = (self.rows as usize).div_ceil(band);
        let split = |t: Option<TargetBytes<'a>>| -> Vec<Option<TargetBytes<'a>>> {
            match t {
                None => (0..n).map(|_| None).collect(),
                Some(t) => {
                    let (pitch, bpp) = (t.pitch, t.bpp);
                    let mut v: Vec<Option<TargetBytes<'a>>> = t
                        .bytes
                        .chunks_mut(pitch * band)
                        .map(|bytes| Some(TargetBytes { bytes, pitch, bpp }))
                        .collect();
                    v.resize_with(n, || None);
                    v
                }
            }
        };
        let mut depth = split(self.depth).into_iter();
        let [c0, c1, c2, c3] = self.colors;
        let mut cs = [split(c0), split(c1), split(c2), split(c3)].map(|v| v.into_iter());
        (0..n)
            .map(|i| FrameTargets {
                y0: self.y0 + (i * band) as i32,
                rows: ((self.rows as usize - i * band).min(band)) as i32,
                depth: depth.next().flatten(),
                colors: [
                    cs[0].next().flatten(),
                    cs[1].next().flatten(),
                    cs[2].next().flatten(),
                    cs[3].next().flatten(),
                ],
            })
            .collect()
    }
}

fn bpp(s: &Surface) -> usize {
    match s.desc().format.layout() {
        Layout::Texel { bytes } => bytes as usize,
        _ => 0,
    }
}

fn with_one<R>(s: Option<&Surface>, f: impl FnOnce(Option<TargetBytes<'_>>) -> R) -> R {
    match s {
        None => f(None),
        Some(s) => {
            let (pitch, bpp) = (s.pitch(), bpp(s));
            s.storage()
                .modify(|bytes| f(Some(TargetBytes { bytes, pitch, bpp })))
        }
    }
}

/// Runs `f` with write access to every surface the draw writes.
pub(crate) fn with_targets<R>(st: &DrawState, f: impl FnOnce(FrameTargets<'_>) -> R) -> R {
    let rt = |i: usize| {
        st.targets
            .get(i)
            .and_then(|t| t.as_ref())
            .map(|t| &t.surface)
    };
    let rows = st
        .targets
        .first()
        .and_then(|t| t.as_ref())
        .map_or(0, |t| t.surface.desc().height as i32);
    let ds = st.depth.as_ref().map(|d| &d.surface);
    with_one(rt(0), |c0| {
        with_one(rt(1), |c1| {
            with_one(rt(2), |c2| {
                with_one(rt(3), |c3| {
                    with_one(ds, |depth| {
                        f(FrameTargets {
                            y0: 0,
                            rows,
                            depth,
                            colors: [c0, c1, c2, c3],
                        })
                    })
                })
            })
        })
    })
}
