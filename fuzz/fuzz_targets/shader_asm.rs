//! Text into the assembler; whatever assembles must decode and re-encode to
//! the same tokens. Must never panic.
//!
//! Half the inputs are raw text. The other half are built from a vocabulary
//! of the listing syntax (versions, opcodes, registers, modifiers, masks,
//! numbers, punctuation), one word per input byte, so the parser gets past
//! the first token and the fuzzer reaches its deeper rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warp9::shader;

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "\n", "\n", "\n", " ", ",", ",", ".", "-", "+", "[", "]", "(", ")", ";", "//", "vs_1_1",
    "vs_2_0", "vs_2_x", "vs_3_0", "ps_2_0", "ps_2_x", "ps_3_0", "ps_1_4", "mov", "add", "sub",
    "mul", "mad", "dp2add", "dp3", "dp4", "rcp", "rsq", "exp", "expp", "log", "logp", "min",
    "max", "slt", "sge", "frc", "lit", "dst", "m4x4", "m3x3", "m3x2", "abs", "nrm", "sincos",
    "pow", "crs", "lrp", "cmp", "cnd", "texld", "texldp", "texldb", "texldl", "texldd",
    "texkill", "dsx", "dsy", "mova", "if", "if_gt", "ifc_lt", "else", "endif", "loop",
    "endloop", "rep", "endrep", "break", "break_ge", "breakc_ne", "breakp", "call", "callnz",
    "label", "ret", "setp_eq", "setp_gt", "def", "defi", "defb", "dcl", "dcl_2d", "dcl_cube",
    "dcl_volume", "dcl_position", "dcl_position0", "dcl_normal", "dcl_texcoord",
    "dcl_texcoord3", "dcl_color", "dcl_color1", "dcl_fog", "dcl_psize", "dcl_blendweight",
    "dcl_depth", "end", "r0", "r1", "r31", "v0", "v9", "c0", "c3", "c255", "c[a0.x]",
    "c[a0.w + 2]", "c[aL + 1]", "c[", "a0.x", "]", "i0", "i15", "b0", "b15", "s0", "s15", "t0",
    "t7", "oC0", "oC3", "oPos", "oD0", "oD1", "oT0", "oT7", "oFog", "oPts", "oDepth", "o0",
    "o11", "a0", "aL", "p0", "vPos", "vFace", ".x", ".y", ".z", ".w", ".xy", ".xyz", ".xyzw",
    ".wzyx", ".xxxx", ".rgba", ".a", "_sat", "_pp", "_centroid", "_x2", "_abs", "!", "1", "0",
    "-1", "0.5", "2", "255", "1e9", "-3.4e38", "0x10", "4", "16", "256",
];

fuzz_target!(|data: &[u8]| {
    let text = match data.split_first() {
        Some((mode, words)) if mode & 1 == 1 => {
            let mut t = String::new();
            for &b in words {
                let w = WORDS[b as usize % WORDS.len()];
                // Masks, modifiers and brackets attach to the word before.
                if !t.is_empty() && !w.starts_with(['.', '_', '[', ']', ',', '\n']) {
                    t.push(' ');
                }
                t.push_str(w);
            }
            t
        }
        _ => match std::str::from_utf8(data) {
            Ok(t) => t.to_string(),
            Err(_) => return,
        },
    };
    if let Ok(tokens) = shader::assemble(&text) {
        let program = shader::decode(&tokens).expect("assembled output decodes");
        assert_eq!(program.encode().unwrap(), tokens);
    }
});
