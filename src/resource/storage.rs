//! Byte storage shared by every resource: copy-on-write snapshots for
//! deferred work, renaming for DISCARD, lock guards, and memory accounting.
//!
//! Invariant: a snapshot taken by queued work never changes. A write to
//! storage that a snapshot still shares copies first (or, for DISCARD,
//! starts from fresh zeroed bytes), so D3D9's ordering (a draw sees the data
//! as it was when the draw was issued) holds without waiting.

use std::ops::{Deref, DerefMut, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError, Weak};

use crate::error::{Error, Result};

/// Bytes allocated by one device's resources, against an optional budget.
#[derive(Debug, Default)]
pub struct MemoryTracker {
    used: AtomicU64,
    budget: Option<u64>,
}

impl MemoryTracker {
    /// A tracker that refuses allocations beyond `budget` bytes (None = only real allocation failure).
    pub fn new(budget: Option<u64>) -> Arc<MemoryTracker> {
        Arc::new(MemoryTracker {
            used: AtomicU64::new(0),
            budget,
        })
    }

    /// The budget, if one was set.
    pub fn budget(&self) -> Option<u64> {
        self.budget
    }

    /// Bytes currently held by live resources.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    fn charge(self: &Arc<Self>, bytes: u64, what: &str) -> Result<Charge> {
        let mut current = self.used.load(Ordering::Relaxed);
        loop {
            let next = current
                .checked_add(bytes)
                .ok_or_else(|| Error::out_of_memory(what, bytes))?;
            if self.budget.is_some_and(|b| next > b) {
                return Err(Error::out_of_memory(
                    &format!(
                        "{what} (device memory budget {} bytes, {current} in use)",
                        self.budget.unwrap_or(0)
                    ),
                    bytes,
                ));
            }
            match self.used.compare_exchange_weak(
                current,
                next,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    return Ok(Charge {
                        tracker: Arc::clone(self),
                        bytes,
                    });
                }
                Err(actual) => current = actual,
            }
        }
    }
}

/// Bytes charged to a tracker, returned when dropped.
#[derive(Debug)]
struct Charge {
    tracker: Arc<MemoryTracker>,
    bytes: u64,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.tracker.used.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// Allocates `len` zeroed bytes, reporting failure as `OutOfMemory`.
pub(crate) fn try_zeroed(len: usize, what: &str) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| Error::out_of_memory(what, len as u64))?;
    v.resize(len, 0);
    Ok(v)
}

/// Queued work that will write a storage: a device's deferred draws into
/// its render targets. Whoever next reads or writes the storage completes
/// that work first, so every access sees every earlier draw.
pub(crate) trait PendingWriter: Send + Sync + std::fmt::Debug {
    /// Runs the queued work to its end (its own writes go through
    /// [`Storage::modify_as_writer`], which does not wait for it).
    fn complete(&self);
}

/// The bytes of one resource (a buffer, a surface, a volume).
#[derive(Debug)]
pub(crate) struct Storage {
    bytes: Mutex<Arc<Vec<u8>>>,
    len: usize,
    /// Whether `writer` is set: checked on every access without a lock.
    pending: AtomicBool,
    /// The queued work that writes these bytes, if any.
    writer: Mutex<Option<Weak<dyn PendingWriter>>>,
    _charge: Charge,
}

impl Storage {
    /// Zeroed storage of `len` bytes, charged to `tracker`.
    pub(crate) fn new(tracker: &Arc<MemoryTracker>, len: usize, what: &str) -> Result<Storage> {
        let charge = tracker.charge(len as u64, what)?;
        let bytes = try_zeroed(len, what)?;
        Ok(Storage {
            bytes: Mutex::new(Arc::new(bytes)),
            len,
            pending: AtomicBool::new(false),
            writer: Mutex::new(None),
            _charge: charge,
        })
    }

    /// Marks the bytes as written by `writer`'s queued work: the next
    /// access completes it first.
    pub(crate) fn set_pending_writer(&self, writer: Weak<dyn PendingWriter>) {
        let mut slot = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        *slot = Some(writer);
        self.pending.store(true, Ordering::Release);
    }

    /// Completes the queued work that writes these bytes, if any.
    fn settle(&self) {
        if !self.pending.load(Ordering::Acquire) {
            return;
        }
        // Taken under the lock and run after it: the writer's completion
        // locks its queue, then (through its targets) this storage again.
        let writer = {
            let mut slot = self.writer.lock().unwrap_or_else(|e| e.into_inner());
            self.pending.store(false, Ordering::Release);
            slot.take()
        };
        if let Some(w) = writer.and_then(|w| w.upgrade()) {
            w.complete();
        }
    }

    fn guard(&self) -> MutexGuard<'_, Arc<Vec<u8>>> {
        self.settle();
        // A panic elsewhere while holding the lock leaves the bytes valid; keep using them.
        self.bytes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current bytes, shared: later writes do not change what this returns.
    pub(crate) fn snapshot(&self) -> Arc<Vec<u8>> {
        Arc::clone(&self.guard())
    }

    /// Runs `f` on writable bytes (copying first if a snapshot shares them).
    pub(crate) fn modify<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut guard = self.guard();
        f(Arc::make_mut(&mut guard).as_mut_slice())
    }

    /// [`Storage::modify`] for the pending writer itself: its own writes
    /// do not wait for its queued work (they are that work).
    pub(crate) fn modify_as_writer<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut guard = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        f(Arc::make_mut(&mut guard).as_mut_slice())
    }

    /// Replaces the bytes wholesale (e.g. a renderer's finished target).
    pub(crate) fn replace(&self, bytes: Arc<Vec<u8>>) {
        debug_assert_eq!(bytes.len(), self.len);
        if bytes.len() == self.len {
            *self.guard() = bytes;
        }
    }

    /// Locks `range` for the caller. `discard` renames the storage (fresh
    /// zeroed bytes when shared, as D3DLOCK_DISCARD promises nothing about
    /// the old contents). A second lock while one is held is `InvalidCall`.
    pub(crate) fn lock(
        &self,
        range: Range<usize>,
        discard: bool,
        what: &str,
    ) -> Result<Locked<'_>> {
        if range.start > range.end || range.end > self.len {
            return Err(Error::invalid_call(format!(
                "{what}: lock range {range:?} is outside the {} bytes",
                self.len
            )));
        }
        self.settle();
        let mut guard = match self.bytes.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(Error::invalid_call(format!("{what} is already locked")));
            }
        };
        if discard && Arc::strong_count(&guard) > 1 {
            *guard = Arc::new(try_zeroed(self.len, what)?);
        }
        Ok(Locked { guard, range })
    }
}

/// A locked byte range of a resource; unlocks when dropped.
#[derive(Debug)]
pub struct Locked<'a> {
    guard: MutexGuard<'a, Arc<Vec<u8>>>,
    range: Range<usize>,
}

impl Deref for Locked<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.guard[self.range.clone()]
    }
}

impl DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        let range = self.range.clone();
        &mut Arc::make_mut(&mut self.guard)[range]
    }
}

/// A process-wide unique id for a resource, so state can compare bindings cheaply.
pub(crate) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
