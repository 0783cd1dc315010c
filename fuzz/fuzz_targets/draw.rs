//! Device state, resources and draws from the fuzz input, run on Warp and
//! Reference: no panic, same result for every call, same back buffer.
//! The logic lives in `common/draw.rs`, shared with `tests/draw_fuzz.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/draw.rs"]
mod draw;

fuzz_target!(|data: &[u8]| {
    draw::run(data);
});
