//! The 8-lane register files, recycled per thread.
//!
//! A file is 16.5 KiB ([`FILE_SLOTS`] slots). An executor needs one, and a
//! batch of stamps one more per stamp, for every draw and band: allocating
//! and zeroing (or copying) whole files was a fifth of the instructions of
//! S7's 4,096 small draws a frame (callgrind). A finished executor's files
//! go back to its thread's spare list with only the slots its program
//! could have written zeroed again ([`SlotSet`]), and the next executor
//! on the thread takes them from there (the executor cleans its files
//! when it is dropped: `Machine`'s `Drop`).
//!
//! Invariant: a spare file holds +0.0 in every slot, exactly what a fresh
//! file holds, so no program can tell a recycled file from a new one and
//! images do not depend on which thread ran what before. Debug builds check
//! that every file given back is all zero after its cleaning.

use std::any::Any;
use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use crate::simd::{FloatV, Simd};

use super::super::regs::{FILE_SLOTS, SlotSet};

/// Spare files a thread keeps: an executor and a full batch of banks
/// (1 + 8), a vertex executor, and some room.
const SPARE_LIMIT: usize = 16;

thread_local! {
    /// This thread's spare files, all zero (see the module docs); `Any`
    /// because each backend's files have their own vector type.
    static SPARE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// The array a file holds.
type Slots<S> = [[<S as Simd>::F; 4]; FILE_SLOTS];

/// A register file taken from the thread's spares (or allocated), given
/// back when dropped. Its user zeroes the slots it wrote first
/// ([`File::clean`]; the executor does so when it is dropped). Just the
/// pointer: an executor swaps files per stamp and op of a batch.
pub(crate) struct File<S: Simd> {
    slots: ManuallyDrop<Box<Slots<S>>>,
}

impl<S: Simd> File<S> {
    /// An all-zero file; `zero` is +0.0 in every lane (made by the
    /// caller, inside its SIMD kernel: a `splat` here would compile
    /// outside the AVX2 trampoline, `.ci/intrinsics-check`).
    pub(crate) fn take(zero: [S::F; 4]) -> File<S> {
        let spare = SPARE
            .try_with(|spare| spare.borrow_mut().pop())
            .ok()
            .flatten()
            .and_then(|file| file.downcast::<Slots<S>>().ok());
        let slots = spare.unwrap_or_else(|| fresh::<S>(zero));
        File {
            slots: ManuallyDrop::new(slots),
        }
    }

    /// A copy of `other`, whose slots outside `dirty` are zero: an
    /// all-zero file with `other`'s `dirty` slots copied.
    pub(crate) fn copy_of(zero: [S::F; 4], other: &File<S>, dirty: &SlotSet) -> File<S> {
        let mut file = File::take(zero);
        for slot in dirty.slots() {
            file.slots[slot] = other.slots[slot];
        }
        file
    }

    /// Zeroes the slots of `dirty`: the file is all zero again if they
    /// are all its user wrote.
    pub(crate) fn clean(&mut self, zero: [S::F; 4], dirty: &SlotSet) {
        for slot in dirty.slots() {
            if let Some(v) = self.slots.get_mut(slot) {
                *v = zero;
            }
        }
    }
}

/// A new all-zero file, written in place (a `Box::new` of an array would
/// build it on the stack and copy it).
fn fresh<S: Simd>(zero: [S::F; 4]) -> Box<Slots<S>> {
    let v: Vec<[S::F; 4]> = vec![zero; FILE_SLOTS];
    match v.into_boxed_slice().try_into() {
        Ok(file) => file,
        Err(_) => unreachable!("the vector holds FILE_SLOTS slots"),
    }
}

impl<S: Simd> Deref for File<S> {
    type Target = Slots<S>;
    #[inline(always)]
    fn deref(&self) -> &Slots<S> {
        &self.slots
    }
}

impl<S: Simd> DerefMut for File<S> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Slots<S> {
        &mut self.slots
    }
}

impl<S: Simd> Drop for File<S> {
    fn drop(&mut self) {
        // SAFETY: `slots` is taken once, here, and `self` is not used
        // after `drop`.
        let slots = unsafe { ManuallyDrop::take(&mut self.slots) };
        if cfg!(debug_assertions) && !all_zero::<S>(&slots) {
            // A write outside the cleaned slots: the file is dropped
            // rather than recycled, and tests fail here.
            debug_assert!(false, "register file slot written outside its dirty set");
            return;
        }
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARE_LIMIT {
                spare.push(slots);
            }
        });
    }
}

/// Whether every lane of every slot is +0.0 (debug check).
fn all_zero<S: Simd>(slots: &Slots<S>) -> bool {
    slots
        .iter()
        .flatten()
        .all(|v| v.to_array().iter().all(|x| x.to_bits() == 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    /// A copy takes the dirty slots; a file cleaned and given back is
    /// all zero and is the one the next taker gets.
    #[test]
    fn a_recycled_file_is_zero_and_reused() {
        let s = Portable;
        let mut dirty = SlotSet::default();
        dirty.insert(3);
        dirty.insert(70);
        let zero = [s.splat(0.0); 4];
        let mut file = File::<Portable>::take(zero);
        file[3][1] = s.splat(-0.0);
        file[70][2] = s.splat(f32::NAN);
        let mut copy = File::copy_of(zero, &file, &dirty);
        assert!(copy[70][2].to_array().iter().all(|x| x.is_nan()));
        assert_eq!(copy[3][1].to_array()[0].to_bits(), (-0.0f32).to_bits());
        let at = &**file.slots as *const Slots<Portable>;
        copy.clean(zero, &dirty);
        file.clean(zero, &dirty);
        drop(copy);
        drop(file);
        let again = File::<Portable>::take(zero);
        assert!(all_zero::<Portable>(&again));
        let at_again = &**again.slots as *const Slots<Portable>;
        assert_eq!(at, at_again, "the last file given back is taken first");
    }
}
