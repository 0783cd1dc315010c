//! Arbitrary text into the assembler; whatever assembles must decode and
//! re-encode to the same tokens. Must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warp9::shader;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(tokens) = shader::assemble(text) {
        let program = shader::decode(&tokens).expect("assembled output decodes");
        assert_eq!(program.encode().unwrap(), tokens);
    }
});
