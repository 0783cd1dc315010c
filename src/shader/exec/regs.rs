//! The register file layout shared by both interpreters.
//!
//! Every per-lane float register lives in one flat array of `NREG` slots
//! (`[S::F; 4]` per slot in the 8-lane interpreter, `[f32; 4]` per lane in
//! the scalar one), so a prepared source or destination is a single slot
//! number whatever its register file:
//!
//! | Slots | Registers |
//! |---|---|
//! | `TEMP..TEMP+32` | `r0`–`r31` |
//! | `INPUT..INPUT+16` | vertex inputs `v0`–`v15`; ps_3_0 `v0`–`v13`; ps_2_x `v0`, `v1` then `t0`–`t7` (see [`input_slot`]) |
//! | `VPOS`, `VFACE` | ps_3_0 `vPos` (x, y, 0, 0), `vFace` (replicated ±1) |
//! | `OUT..OUT+16` | outputs, numbered as [`super::layout::OutputLayout`] describes |
//! | `NREG..WIDE_SLOTS` | 8-lane interpreter only: splatted constants (see [`WIDE_SLOTS`]) |
//!
//! Uniform state (constants, `aL`) is not in this array; `a0` and `p0` are
//! separate per-lane integer and mask registers.

use crate::shader::token::{RegisterFile, Version};

/// First temporary slot.
pub const TEMP: u16 = 0;
/// Number of temporaries (vs_3_0 / ps_3_0 maximum).
pub const NUM_TEMPS: u16 = 32;
/// First input slot.
pub const INPUT: u16 = 32;
/// Number of input slots.
pub const NUM_INPUTS: u16 = 16;
/// `vPos` slot.
pub const VPOS: u16 = 48;
/// `vFace` slot.
pub const VFACE: u16 = 49;
/// First output slot.
pub const OUT: u16 = 50;
/// Number of output slots.
pub const NUM_OUTPUTS: u16 = 16;
/// Number of per-lane register slots.
pub const NREG: usize = 66;
/// Slots of the 8-lane interpreter's register file: the `NREG` per-lane
/// slots, then constant slots (`NREG..WIDE_SLOTS`) that hold the splatted
/// values of the program's non-relative constant reads, filled once per
/// executor. A power of two, so a masked slot number is always in range.
pub const WIDE_SLOTS: usize = 128;
/// Length of the 8-lane register file: [`WIDE_SLOTS`] and 4 spare slots.
/// The spare slots make a file 16.5 KiB instead of exactly 16 KiB, so the
/// files of a batch (allocated one after another) do not share their
/// 4 KiB page offsets: the same register in consecutive files would
/// otherwise fall into the same cache set and trip the CPU's 4K-aliasing
/// store-to-load check (measured: S3 frame time).
pub const FILE_SLOTS: usize = WIDE_SLOTS + 4;

/// A set of register-file slots (bit per slot), e.g. those a program's
/// run may leave non-zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SlotSet([u64; FILE_SLOTS.div_ceil(64)]);

impl SlotSet {
    /// Adds `slot` (ignored past the file).
    pub(crate) fn insert(&mut self, slot: usize) {
        if let Some(w) = self.0.get_mut(slot / 64) {
            *w |= 1 << (slot % 64);
        }
    }

    /// Adds the slots `first..first + 16` whose bits are set in `mask`.
    pub(crate) fn insert_mask(&mut self, first: usize, mask: u16) {
        for k in 0..16 {
            if mask & (1 << k) != 0 {
                self.insert(first + k);
            }
        }
    }

    /// The slots in the set, in order.
    pub(crate) fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(wi, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    wi * 64 + b
                })
            })
        })
    }
}

/// Output slot of `oPos` (vs < 3.0).
pub const OUT_POS: u16 = 0;
/// Output slot of `oFog` (vs < 3.0; x only).
pub const OUT_FOG: u16 = 1;
/// Output slot of `oPts` (vs < 3.0; x only).
pub const OUT_PTS: u16 = 2;
/// Output slot of `oD0` (`oD1` is the next).
pub const OUT_D0: u16 = 3;
/// Output slot of `oT0` (`oT1`–`oT7` follow).
pub const OUT_T0: u16 = 5;
/// Output slot of `oDepth` in pixel shaders (`oC0`–`oC3` are 0–3).
pub const OUT_DEPTH: u16 = 4;

/// Input slot (0..16) of an input register, or `None` if the register is
/// not an input of this profile: vertex and ps_3_0 `v#` → `#`; ps_2_x
/// `v0`/`v1` → 0/1 and `t#` → `2 + #`.
pub fn input_slot(version: Version, file: RegisterFile, index: u16) -> Option<u16> {
    let slot = match file {
        RegisterFile::Input => index,
        RegisterFile::AddrOrTexture if version.is_pixel() && version.major < 3 => 2 + index,
        _ => return None,
    };
    (slot < NUM_INPUTS).then_some(slot)
}

/// Output slot (0..16) of an output register, or `None` if it is not an
/// output of this profile (see the module docs and
/// [`super::layout::OutputLayout`]).
pub fn output_slot(version: Version, file: RegisterFile, index: u16) -> Option<u16> {
    let slot = match (version.is_pixel(), file) {
        (false, RegisterFile::RastOut) if index <= 2 => index,
        (false, RegisterFile::AttrOut) if index <= 1 => OUT_D0 + index,
        (false, RegisterFile::Output) if version.major >= 3 => index,
        (false, RegisterFile::Output) => OUT_T0 + index,
        (true, RegisterFile::ColorOut) if index <= 3 => index,
        (true, RegisterFile::DepthOut) if index == 0 => OUT_DEPTH,
        _ => return None,
    };
    (slot < NUM_OUTPUTS).then_some(slot)
}
