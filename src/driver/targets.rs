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

    /// The same rows with only the surfaces a draw writes: the depth
    /// buffer when `depth`, colour target `i` when `colors[i]` (a batch of
    /// draws holds the union of its draws' surfaces).
    pub(crate) fn view(&mut self, depth: bool, colors: [bool; 4]) -> FrameTargets<'_> {
        let mut it = self.colors.iter_mut().zip(colors);
        let mut next = || {
            it.next().and_then(|(c, keep)| {
                let c = c.as_mut().filter(|_| keep)?;
                Some(TargetBytes {
                    bytes: &mut *c.bytes,
                    pitch: c.pitch,
                    bpp: c.bpp,
                })
            })
        };
        let colors = [next(), next(), next(), next()];
        FrameTargets {
            y0: self.y0,
            rows: self.rows,
            depth: self.depth.as_mut().filter(|_| depth).map(|t| TargetBytes {
                bytes: &mut *t.bytes,
                pitch: t.pitch,
                bpp: t.bpp,
            }),
            colors,
        }
    }

    /// Splits into bands of `band` rows (the last may be shorter). Each
    /// target's bytes are cut band by band as the bands are made, so the
    /// split allocates the list of bands only (it runs once per draw drawn
    /// at once).
    pub(crate) fn into_bands(self, band: usize) -> Vec<FrameTargets<'a>> {
        self.bands(band).collect()
    }

    /// [`FrameTargets::into_bands`] one band at a time (a small draw
    /// shaded where it is needs no list of every band of the target).
    pub(crate) fn bands(self, band: usize) -> impl Iterator<Item = FrameTargets<'a>> {
        let band = band.max(1);
        let n = (self.rows as usize).div_ceil(band);
        let mut depth = self.depth;
        let mut colors = self.colors;
        (0..n).map(move |i| FrameTargets {
            y0: self.y0 + (i * band) as i32,
            rows: ((self.rows as usize - i * band).min(band)) as i32,
            depth: cut_rows(&mut depth, band),
            colors: colors.each_mut().map(|c| cut_rows(c, band)),
        })
    }
}

/// The first `rows` rows of `target` (fewer where it ends sooner; None once
/// it is used up), leaving the rest in `target`.
fn cut_rows<'a>(target: &mut Option<TargetBytes<'a>>, rows: usize) -> Option<TargetBytes<'a>> {
    let t = target.take()?;
    let (pitch, bpp) = (t.pitch, t.bpp);
    if t.bytes.is_empty() {
        return None;
    }
    let at = (pitch * rows).min(t.bytes.len());
    let (head, tail) = t.bytes.split_at_mut(at);
    *target = Some(TargetBytes {
        bytes: tail,
        pitch,
        bpp,
    });
    Some(TargetBytes {
        bytes: head,
        pitch,
        bpp,
    })
}

fn bpp(s: &Surface) -> usize {
    match s.desc().format.layout() {
        Layout::Texel { bytes } => bytes as usize,
        _ => 0,
    }
}

/// Who locks a draw's targets: the draw itself, whose access completes any
/// work queued into them first, or that queued work (`Storage::modify_as_writer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writer {
    Draw,
    Queued,
}

fn with_one<R>(
    s: Option<&Surface>,
    writer: Writer,
    f: impl FnOnce(Option<TargetBytes<'_>>) -> R,
) -> R {
    match s {
        None => f(None),
        Some(s) => {
            let (pitch, bpp) = (s.pitch(), bpp(s));
            let f = |bytes: &mut [u8]| f(Some(TargetBytes { bytes, pitch, bpp }));
            match writer {
                Writer::Draw => s.storage().modify(f),
                Writer::Queued => s.storage().modify_as_writer(f),
            }
        }
    }
}

/// The surfaces a draw writes: colour targets 0..4, then the depth buffer.
pub(crate) type DrawSurfaces = [Option<Surface>; 5];

/// The surfaces `st` writes ([`DrawSurfaces`]).
pub(crate) fn draw_surfaces(st: &DrawState) -> DrawSurfaces {
    let rt = |i: usize| {
        st.targets
            .get(i)
            .and_then(|t| t.as_ref())
            .map(|t| t.surface.clone())
    };
    [
        rt(0),
        rt(1),
        rt(2),
        rt(3),
        st.depth.as_ref().map(|d| d.surface.clone()),
    ]
}

/// Runs `f` with write access to every surface the draw writes.
pub(crate) fn with_targets<R>(st: &DrawState, f: impl FnOnce(FrameTargets<'_>) -> R) -> R {
    let rt = |i: usize| {
        st.targets
            .get(i)
            .and_then(|t| t.as_ref())
            .map(|t| &t.surface)
    };
    let ds = st.depth.as_ref().map(|d| &d.surface);
    with_surfaces([rt(0), rt(1), rt(2), rt(3), ds], Writer::Draw, f)
}

/// Runs `f` with write access to `surfaces` (colour targets 0..4, then the
/// depth buffer), rows as many as colour target 0 has.
pub(crate) fn with_surfaces<R>(
    surfaces: [Option<&Surface>; 5],
    writer: Writer,
    f: impl FnOnce(FrameTargets<'_>) -> R,
) -> R {
    let [rt0, rt1, rt2, rt3, ds] = surfaces;
    let rows = rt0.map_or(0, |s| s.desc().height as i32);
    with_one(rt0, writer, |c0| {
        with_one(rt1, writer, |c1| {
            with_one(rt2, writer, |c2| {
                with_one(rt3, writer, |c3| {
                    with_one(ds, writer, |depth| {
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
