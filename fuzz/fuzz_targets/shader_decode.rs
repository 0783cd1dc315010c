//! Arbitrary bytes as shader tokens: decode, validate at every level,
//! disassemble, and for every program that validates, require that the
//! disassembly assembles back to the same tokens. Must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warp9::shader::{self, ShaderLimits};

fuzz_target!(|data: &[u8]| {
    let tokens: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let _ = shader::bytecode_len(&tokens);
    let Ok(program) = shader::decode(&tokens) else {
        return;
    };
    let _ = program.constant_table();
    assert_eq!(program.encode().expect("decoded programs encode"), tokens);
    let text = program.disassemble();
    let levels = [
        ShaderLimits::level_9_1(),
        ShaderLimits::level_9_2(),
        ShaderLimits::level_9_3(),
        ShaderLimits::sm3(),
        ShaderLimits::level_9_1().software_vertex_processing(),
    ];
    if levels.iter().any(|l| shader::validate(&program, l).is_ok()) {
        let again = shader::assemble(&text).expect("a valid program's disassembly assembles");
        assert_eq!(again, program.encode_without_comments().unwrap());
    }
});
