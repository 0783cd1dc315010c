//! Valid shader programs built from the fuzz input, run on the scalar and
//! the 8-lane interpreters (every SIMD backend): no panic, same bits.
//! The logic lives in `common/exec.rs`, shared with `tests/exec/fuzz_inputs.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/exec.rs"]
mod exec;

/// Stack for one input. CI's smoke run builds the targets at opt-level 0,
/// where the interpreter's per-component code (written out in place for
/// AVX2 code generation, `simd::each!`) takes more than the main thread's
/// 8 MB; a draw gets the same room from warp9 itself (`stacker`), but this
/// target calls the interpreter directly.
const STACK: usize = 256 << 20;

fuzz_target!(|data: &[u8]| {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, || exec::run(data))
            .expect("spawning the fuzz worker thread");
        if let Err(panic) = worker.join() {
            // A panic is a finding: re-raised on libFuzzer's thread.
            std::panic::resume_unwind(panic);
        }
    });
});
