//! The exec fuzz target's property on stable: a few thousand deterministic
//! inputs through `fuzz/fuzz_targets/common/exec.rs` — valid programs of
//! every SM2/SM3 profile and of ps_1_1–ps_1_4, run on the scalar and the 8-lane interpreters
//! with every SIMD backend, must agree bit for bit and never panic.
//! (The cargo-fuzz target `exec` explores further.)

#[path = "../../fuzz/fuzz_targets/common/exec.rs"]
pub(crate) mod exec;

/// Inputs per run: every profile many times, in a few seconds.
const INPUTS: u64 = 3000;

#[test]
fn exec_inputs_agree_between_scalar_and_simd() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let (mut executed, mut ps1) = (0, 0);
    for _ in 0..INPUTS {
        let len = (next() % 600) as usize;
        let input: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let ran = exec::run(&input);
        executed += ran as usize;
        // Byte 0 % 7 == 6 picks a ps_1_x program (`exec.rs`'s `run`).
        ps1 += (ran && input.first().is_some_and(|b| b % 7 == 6)) as usize;
    }
    println!("{executed} of {INPUTS} inputs executed a valid program ({ps1} ps_1_x)");
    assert!(ps1 > 100, "only {ps1} ps_1_x programs were valid");
    // The generator must produce valid programs, not only validation errors.
    assert!(
        executed > INPUTS as usize / 2,
        "only {executed} of {INPUTS} programs were valid"
    );
    // Edge inputs: empty, all zeros, all ones.
    for input in [vec![], vec![0u8; 600], vec![0xFF; 600]] {
        exec::run(&input);
    }
}
