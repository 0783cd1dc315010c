//! Valid shader programs built from the fuzz input, run on the scalar and
//! the 8-lane interpreters (every SIMD backend): no panic, same bits.
//! The logic lives in `common/exec.rs`, shared with `tests/exec/fuzz_inputs.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/exec.rs"]
mod exec;

fuzz_target!(|data: &[u8]| {
    exec::run(data);
});
