//! The draw fuzz target's property on stable: a few thousand deterministic
//! inputs through `fuzz/fuzz_targets/common/draw.rs` — no panic, Warp and
//! Reference agree on every call's result and on the final back buffer.
//! (The cargo-fuzz target `draw` explores further on nightly.)

#[path = "../fuzz/fuzz_targets/common/draw.rs"]
mod draw;

/// Inputs per run: enough to reach every call family many times, in a few seconds.
const INPUTS: u64 = 3000;

#[test]
fn draw_inputs_never_panic_and_warp_equals_reference() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut drawn = 0;
    for _ in 0..INPUTS {
        let len = (next() % 400) as usize;
        let input: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        drawn += draw::run(&input);
    }
    // The decoder must reach the rasterizer, not only the validation's errors.
    assert!(drawn > INPUTS as usize / 4, "only {drawn} draws succeeded");
    // Edge inputs: empty, all zeros, all ones.
    for input in [vec![], vec![0u8; 300], vec![0xFF; 300]] {
        draw::run(&input);
    }
}

/// Inputs cargo-fuzz found, kept so they stay fixed.
#[test]
fn fuzz_found_inputs_stay_fixed() {
    // A 1x1 target reached the fast merger's row loads outside the target.
    let found: &[&[u8]] = &[&[
        0, 0, 10, 165, 10, 37, 13, 10, 1, 29, 29, 29, 29, 29, 29, 29, 255, 255, 255, 255, 255, 255,
        185, 60,
    ]];
    for input in found {
        draw::run(input);
    }
}

/// The ps_1_x shaders the fuzzer's draws may run are ones a device accepts
/// at its lowest level, so the draws run them rather than an error.
#[test]
fn fuzz_pixel_shaders_are_valid_at_9_1() {
    for text in draw::PS1_SHADERS {
        let tokens = warp9::shader::assemble(text).expect("assemble");
        let program = warp9::shader::decode(&tokens).expect("decode");
        if let Err(e) = warp9::shader::validate(&program, &warp9::shader::ShaderLimits::level_9_1())
        {
            panic!("not valid at 9_1: {e}\n{text}");
        }
    }
}
