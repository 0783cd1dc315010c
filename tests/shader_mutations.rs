//! Deterministic pseudo-random mutations of real and spec bytecode through
//! decode → validate (every level) → disassemble → assemble, and of
//! listing text through the assembler: nothing may panic, and every
//! program that validates must round-trip through text exactly. This is
//! the stable-toolchain stand-in for the cargo-fuzz targets.

mod shader_support;

use warp9::shader::{self, ShaderLimits};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SEEDS: &[&[u32]] = &[
    &[
        0xfffe0200, 0x0200001b, 0xf0e40800, 0xf0e40000, 0x03000001, 0x800f0000, 0xa0e42000,
        0xf0e40800, 0x0000001d, 0x0000ffff,
    ],
    &[
        0xfffe0201, 0x0301005e, 0xb00f1000, 0x80e40000, 0x80e40001, 0x14000002, 0x800f0002,
        0xbde41000, 0x80e40002, 0x80e40003, 0x0000ffff,
    ],
    &[
        0xfffe0200, 0x0200001a, 0xa0e41000, 0xede40800, 0x0000001c, 0x0100001e, 0xa0e41000,
        0x0000001c, 0x0000ffff,
    ],
    &[
        0xffff0201, 0x0200001f, 0x90000000, 0xa00f0802, 0x0500005d, 0x800f0000, 0x90e40001,
        0xa0e40802, 0x80e40003, 0x80e40004, 0x0000ffff,
    ],
    &[
        0xffff0104, 0x00000002, 0x80070000, 0x80e40001, 0x80e40002, 0x40000002, 0x80080000,
        0x80e40001, 0x80e40002, 0x0000ffff,
    ],
    &[
        0xffff0300, 0x0200001f, 0x80000005, 0x90030000, 0x0200001f, 0x90000000, 0xa00f0800,
        0x03000042, 0x800f0000, 0x90e40000, 0xa0e40800, 0x02000001, 0x800f0800, 0x80e40000,
        0x0000ffff,
    ],
];

fn exercise(tokens: &[u32], levels: &[ShaderLimits]) -> usize {
    let _ = shader::bytecode_len(tokens);
    let Ok(p) = shader::decode(tokens) else {
        return 0;
    };
    let _ = p.constant_table();
    let text = p.disassemble();
    let mut valid = 0;
    for l in levels {
        if shader::validate(&p, l).is_ok() {
            valid += 1;
            let again = shader::assemble(&text)
                .unwrap_or_else(|e| panic!("valid program does not reassemble: {e}\n{text}"));
            assert_eq!(
                again,
                p.encode_without_comments().unwrap(),
                "round trip of\n{text}"
            );
        }
    }
    valid
}

#[test]
fn mutated_bytecode_never_panics() {
    let mut seeds: Vec<Vec<u32>> = SEEDS.iter().map(|s| s.to_vec()).collect();
    if let Some(corpus) = shader_support::load_corpus() {
        seeds.extend(corpus.into_iter().step_by(17).map(|s| s.tokens));
    }
    let levels = [
        ShaderLimits::level_9_1(),
        ShaderLimits::level_9_3(),
        ShaderLimits::sm3(),
        ShaderLimits::level_9_1().software_vertex_processing(),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut decoded_valid, mut runs) = (0, 0);
    for round in 0..4000 {
        let mut t = seeds[round % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            if t.is_empty() {
                t.push(rng.next() as u32);
            }
            let n = t.len();
            match rng.below(6) {
                0 => {
                    let i = rng.below(n);
                    t[i] ^= 1 << rng.below(32);
                }
                1 => {
                    let i = rng.below(n);
                    t[i] = rng.next() as u32;
                }
                2 => t.truncate(rng.below(n + 1)),
                3 => {
                    let i = rng.below(n + 1);
                    t.insert(i, rng.next() as u32);
                }
                4 if n > 1 => {
                    let i = rng.below(n);
                    t.remove(i);
                }
                _ => {
                    let i = rng.below(n);
                    t[i] = (t[i] & 0xF0FF_FFFF) | ((rng.below(16) as u32) << 24);
                }
            }
        }
        runs += 1;
        decoded_valid += exercise(&t, &levels);
    }
    println!(
        "{runs} mutated programs, {decoded_valid} (program, level) pairs validated and round-tripped"
    );
    assert_eq!(runs, 4000);
}

#[test]
fn mutated_text_never_panics() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let base: Vec<String> = SEEDS
        .iter()
        .map(|s| shader::decode(s).unwrap().disassemble())
        .collect();
    let alphabet: Vec<char> = "rvcotsbilpa0123456789.,[]+-!_xyzw() \n/#eE"
        .chars()
        .collect();
    for round in 0..3000 {
        let mut chars: Vec<char> = base[round % base.len()].chars().collect();
        for _ in 0..1 + rng.below(4) {
            if chars.is_empty() {
                chars.push('r');
            }
            let i = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[i] = alphabet[rng.below(alphabet.len())],
                1 => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                _ => {
                    chars.remove(i);
                }
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(tokens) = shader::assemble(&text) {
            // Whatever assembles must decode.
            shader::decode(&tokens)
                .unwrap_or_else(|e| panic!("assembled output does not decode: {e}\n{text}"));
        }
    }
}
