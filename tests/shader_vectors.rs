//! The worked examples of bytecode.md §11 (the contract's test vectors):
//! assembling each listing gives exactly the listed DWORDs, decoding the
//! DWORDs and disassembling gives text that assembles back to them.

use warp9::shader::{
    self, Opcode, RegisterFile,
    ctab::{ParameterClass, RegisterSet},
};

/// §11.6 single-instruction vectors: (source, tokens).
const SINGLE: &[(&str, &[u32])] = &[
    (
        "vs_2_0\ndp4 oPos, v0, c0",
        &[
            0xfffe0200, 0x03000009, 0xc00f0000, 0x90e40000, 0xa0e40000, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nmov r0, c0[a0.y]",
        &[
            0xfffe0200, 0x03000001, 0x800f0000, 0xa0e42000, 0xb0550000, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nmov r0, -c0[a0.w+5].x",
        &[
            0xfffe0200, 0x03000001, 0x800f0000, 0xa1002005, 0xb0ff0000, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nmov r0, c0[a0]",
        &[
            0xfffe0200, 0x03000001, 0x800f0000, 0xa0e42000, 0xb0e40000, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nif b0\nelse\nendif",
        &[
            0xfffe0200, 0x01000028, 0xe0e40800, 0x0000002a, 0x0000002b, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nif !b0\nelse\nendif",
        &[
            0xfffe0200, 0x01000028, 0xede40800, 0x0000002a, 0x0000002b, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nloop aL, i0\nmov r0, c0[aL]\nendloop",
        &[
            0xfffe0200, 0x0200001b, 0xf0e40800, 0xf0e40000, 0x03000001, 0x800f0000, 0xa0e42000,
            0xf0e40800, 0x0000001d, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nnrm r0, c0",
        &[0xfffe0200, 0x02000024, 0x800f0000, 0xa0e40000, 0x0000ffff],
    ),
    (
        "vs_2_0\ncrs r0, r1, r2",
        &[
            0xfffe0200, 0x03000021, 0x800f0000, 0x80e40001, 0x80e40002, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nsgn r0, r1, r2, r3",
        &[
            0xfffe0200, 0x04000022, 0x800f0000, 0x80e40001, 0x80e40002, 0x80e40003, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nsincos r0, r1, r2, r3",
        &[
            0xfffe0200, 0x04000025, 0x800f0000, 0x80e40001, 0x80e40002, 0x80e40003, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\npow r0, r1, r2",
        &[
            0xfffe0200, 0x03000020, 0x800f0000, 0x80e40001, 0x80e40002, 0x0000ffff,
        ],
    ),
    (
        "vs_2_0\nmova a0.y, c0.z",
        &[0xfffe0200, 0x0200002e, 0xb0020000, 0xa0aa0000, 0x0000ffff],
    ),
    (
        "vs_2_0\ndefb b0, true\ndefb b1, false",
        &[
            0xfffe0200, 0x0200002f, 0xe00f0800, 0x00000001, 0x0200002f, 0xe00f0801, 0x00000000,
            0x0000ffff,
        ],
    ),
    (
        "vs_2_0\ndefi i0, -1, 1, 10, 0",
        &[
            0xfffe0200, 0x05000030, 0xf00f0000, 0xffffffff, 0x00000001, 0x0000000a, 0x00000000,
            0x0000ffff,
        ],
    ),
    (
        "vs_2_0\ncall l0\nret\nlabel l0\nret",
        &[
            0xfffe0200, 0x01000019, 0xa0e41000, 0x0000001c, 0x0100001e, 0xa0e41000, 0x0000001c,
            0x0000ffff,
        ],
    ),
    (
        "vs_2_0\ncallnz l0, !b0\nret\nlabel l0\nret",
        &[
            0xfffe0200, 0x0200001a, 0xa0e41000, 0xede40800, 0x0000001c, 0x0100001e, 0xa0e41000,
            0x0000001c, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nrep i0\nbreak\nendrep",
        &[
            0xfffe0201, 0x01000026, 0xf0e40000, 0x0000002c, 0x00000027, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nif_ge r0, r1\nendif",
        &[
            0xfffe0201, 0x02030029, 0x80e40000, 0x80e40001, 0x0000002b, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nrep i0\nbreak_ne r0, r1\nendrep",
        &[
            0xfffe0201, 0x01000026, 0xf0e40000, 0x0205002d, 0x80e40000, 0x80e40001, 0x00000027,
            0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nsetp_gt p0, r0, r1\n(!p0) add r2, r2, r3",
        &[
            0xfffe0201, 0x0301005e, 0xb00f1000, 0x80e40000, 0x80e40001, 0x14000002, 0x800f0002,
            0xbde41000, 0x80e40002, 0x80e40003, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nif p0.x\nelse\nendif",
        &[
            0xfffe0201, 0x01000028, 0xb0001000, 0x0000002a, 0x0000002b, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\ncallnz l0, !p0.z\nret\nlabel l0\nret",
        &[
            0xfffe0201, 0x0200001a, 0xa0e41000, 0xbdaa1000, 0x0000001c, 0x0100001e, 0xa0e41000,
            0x0000001c, 0x0000ffff,
        ],
    ),
    (
        "vs_2_x\nrep i0\nbreakp p0.w\nendrep",
        &[
            0xfffe0201, 0x01000026, 0xf0e40000, 0x01000060, 0xb0ff1000, 0x00000027, 0x0000ffff,
        ],
    ),
    (
        "vs_3_0\ndcl_texcoord12 o11",
        &[0xfffe0300, 0x0200001f, 0x800c0005, 0xe00f000b, 0x0000ffff],
    ),
    (
        "vs_3_0\ntexldl r0, v0, s0",
        &[
            0xfffe0300, 0x0300005f, 0x800f0000, 0x90e40000, 0xa0e40800, 0x0000ffff,
        ],
    ),
    (
        "vs_3_0\nadd_sat r0, r0, r1",
        &[
            0xfffe0300, 0x03000002, 0x801f0000, 0x80e40000, 0x80e40001, 0x0000ffff,
        ],
    ),
    (
        "vs_3_0\nmov r2, r1_abs",
        &[0xfffe0300, 0x02000001, 0x800f0002, 0x8be40001, 0x0000ffff],
    ),
    (
        "vs_3_0\nmov r2, r1.xygb",
        &[0xfffe0300, 0x02000001, 0x800f0002, 0x80940001, 0x0000ffff],
    ),
    (
        "vs_3_0\nmova_sat a0.x, r1",
        &[0xfffe0300, 0x0200002e, 0xb0110000, 0x80e40001, 0x0000ffff],
    ),
    (
        "vs_3_0\nsincos r0, r1",
        &[0xfffe0300, 0x02000025, 0x800f0000, 0x80e40001, 0x0000ffff],
    ),
    (
        "vs_3_0\nadd r0, v20[aL], r2",
        &[
            0xfffe0300, 0x04000002, 0x800f0000, 0x90e42014, 0xf0e40800, 0x80e40002, 0x0000ffff,
        ],
    ),
    (
        "ps_2_0\nmov oDepth, c0.x",
        &[0xffff0200, 0x02000001, 0x900f0800, 0xa0000000, 0x0000ffff],
    ),
    (
        "ps_2_0\ndcl_2d s2\ntexldp r0, t1, s2",
        &[
            0xffff0200, 0x0200001f, 0x90000000, 0xa00f0802, 0x03010042, 0x800f0000, 0xb0e40001,
            0xa0e40802, 0x0000ffff,
        ],
    ),
    (
        "ps_2_0\ndcl_2d s2\ntexldb r0, t1, s2",
        &[
            0xffff0200, 0x0200001f, 0x90000000, 0xa00f0802, 0x03020042, 0x800f0000, 0xb0e40001,
            0xa0e40802, 0x0000ffff,
        ],
    ),
    (
        "ps_2_x\ndsx r0, r0",
        &[0xffff0201, 0x0200005b, 0x800f0000, 0x80e40000, 0x0000ffff],
    ),
    (
        "ps_2_x\ndcl_2d s2\ntexldd r0, v1, s2, r3, r4",
        &[
            0xffff0201, 0x0200001f, 0x90000000, 0xa00f0802, 0x0500005d, 0x800f0000, 0x90e40001,
            0xa0e40802, 0x80e40003, 0x80e40004, 0x0000ffff,
        ],
    ),
    (
        "ps_3_0\ndcl_normal5 v0",
        &[0xffff0300, 0x0200001f, 0x80050003, 0x900f0000, 0x0000ffff],
    ),
    (
        "ps_3_0\nmov r0, vPos",
        &[0xffff0300, 0x02000001, 0x800f0000, 0x90e41000, 0x0000ffff],
    ),
    (
        "ps_3_0\nmov r0, v[aL + 12]",
        &[
            0xffff0300, 0x03000001, 0x800f0000, 0x90e4200c, 0xf0e40800, 0x0000ffff,
        ],
    ),
    (
        "ps_3_0\nadd_pp r0, r0, r1",
        &[
            0xffff0300, 0x03000002, 0x802f0000, 0x80e40000, 0x80e40001, 0x0000ffff,
        ],
    ),
    (
        "ps_3_0\ntexldd_pp r0, r1, r2, r3, r4",
        &[
            0xffff0300, 0x0500005d, 0x802f0000, 0x80e40001, 0x80e40002, 0x80e40003, 0x80e40004,
            0x0000ffff,
        ],
    ),
    (
        "ps_3_0\ntexkill v0",
        &[0xffff0300, 0x01000041, 0x900f0000, 0x0000ffff],
    ),
    (
        "ps_3_0\nadd oC3, r0, r1",
        &[
            0xffff0300, 0x03000002, 0x800f0803, 0x80e40000, 0x80e40001, 0x0000ffff,
        ],
    ),
    (
        "ps_3_0\ndcl_texcoord0_centroid v0",
        &[0xffff0300, 0x0200001f, 0x80000005, 0x904f0000, 0x0000ffff],
    ),
    (
        "ps_3_0\ndcl_2d_centroid s0",
        &[0xffff0300, 0x0200001f, 0x90000000, 0xa04f0800, 0x0000ffff],
    ),
    (
        "ps_1_3\nmov_x2_sat r0, 1 - r1",
        &[0xffff0103, 0x00000001, 0x811f0000, 0x86e40001, 0x0000ffff],
    ),
    (
        "ps_1_3\nmov_d8 r0, -r1",
        &[0xffff0103, 0x00000001, 0x8d0f0000, 0x81e40001, 0x0000ffff],
    ),
    (
        "ps_1_3\nmov_x4_sat r0.a, -r1_bx2.a",
        &[0xffff0103, 0x00000001, 0x82180000, 0x85ff0001, 0x0000ffff],
    ),
    (
        "ps_1_4\nadd r0.rgb, r1, r2\n+add r0.a, r1, r2",
        &[
            0xffff0104, 0x00000002, 0x80070000, 0x80e40001, 0x80e40002, 0x40000002, 0x80080000,
            0x80e40001, 0x80e40002, 0x0000ffff,
        ],
    ),
    (
        "ps_1_4\ntexld r5, r2_dz",
        &[0xffff0104, 0x00000042, 0x800f0005, 0x89e40002, 0x0000ffff],
    ),
    ("ps_1_4\nphase", &[0xffff0104, 0x0000fffd, 0x0000ffff]),
];

fn check_round_trip(text: &str, tokens: &[u32]) {
    let assembled = shader::assemble(text).unwrap_or_else(|e| panic!("assemble {text:?}: {e}"));
    let program = shader::decode(tokens).unwrap_or_else(|e| panic!("decode {text:?}: {e}"));
    let without_comments = program.encode_without_comments().unwrap();
    assert_eq!(assembled, without_comments, "assemble({text:?})");
    assert_eq!(
        program.encode().unwrap(),
        tokens,
        "encode(decode) of {text:?}"
    );
    let dis = program.disassemble();
    let again = shader::assemble(&dis).unwrap_or_else(|e| panic!("reassemble {dis:?}: {e}"));
    assert_eq!(
        again, without_comments,
        "assemble(disassemble) of {text:?}:\n{dis}"
    );
}

#[test]
fn single_instruction_vectors() {
    assert_eq!(SINGLE.len(), 52);
    for (text, tokens) in SINGLE {
        check_round_trip(text, tokens);
    }
}

const LISTING_11_1: &str = "vs_2_0\ndef c8, 0.0, 1.0, 0.5, 0.0\ndcl_position v0\ndcl_normal v1\ndcl_texcoord0 v2\ndp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\ndp3 r0.x, v1, c4\nmax r0.x, r0.x, c8.x\nmul r1, r0.x, c5\nadd oD0, r1, c6\nmova a0.x, v2.z\nmov oT0.xy, v2\nmov oT1, -c10[a0.x]\nrep i0\nadd r1, r1, c7\nendrep\nmov oT2, r1\n";
const LISTING_11_1_TOKENS: &[u32] = &[
    0xfffe0200, 0x05000051, 0xa00f0008, 0x00000000, 0x3f800000, 0x3f000000, 0x00000000, 0x0200001f,
    0x80000000, 0x900f0000, 0x0200001f, 0x80000003, 0x900f0001, 0x0200001f, 0x80000005, 0x900f0002,
    0x03000009, 0xc0010000, 0x90e40000, 0xa0e40000, 0x03000009, 0xc0020000, 0x90e40000, 0xa0e40001,
    0x03000009, 0xc0040000, 0x90e40000, 0xa0e40002, 0x03000009, 0xc0080000, 0x90e40000, 0xa0e40003,
    0x03000008, 0x80010000, 0x90e40001, 0xa0e40004, 0x0300000b, 0x80010000, 0x80000000, 0xa0000008,
    0x03000005, 0x800f0001, 0x80000000, 0xa0e40005, 0x03000002, 0xd00f0000, 0x80e40001, 0xa0e40006,
    0x0200002e, 0xb0010000, 0x90aa0002, 0x02000001, 0xe0030000, 0x90e40002, 0x03000001, 0xe00f0001,
    0xa1e4200a, 0xb0000000, 0x01000026, 0xf0e40000, 0x03000002, 0x800f0001, 0x80e40001, 0xa0e40007,
    0x00000027, 0x02000001, 0xe00f0002, 0x80e40001, 0x0000ffff,
];

const LISTING_11_2: &str = "ps_2_0\ndef c0, 0.5, 0.0, 1.0, 2.0\ndcl t0.xy\ndcl t1.xyz\ndcl v0\ndcl_2d s0\ndcl_cube s1\ntexld r0, t0, s0\ntexld r1, t1, s1\nmul r0, r0, v0\nlrp_sat r0, c0.x, r0, r1\ncmp r0, -r0.w, c0.y, r0\nmov oC0, r0\n";
const LISTING_11_2_TOKENS: &[u32] = &[
    0xffff0200, 0x05000051, 0xa00f0000, 0x3f000000, 0x00000000, 0x3f800000, 0x40000000, 0x0200001f,
    0x80000000, 0xb0030000, 0x0200001f, 0x80000000, 0xb0070001, 0x0200001f, 0x80000000, 0x900f0000,
    0x0200001f, 0x90000000, 0xa00f0800, 0x0200001f, 0x98000000, 0xa00f0801, 0x03000042, 0x800f0000,
    0xb0e40000, 0xa0e40800, 0x03000042, 0x800f0001, 0xb0e40001, 0xa0e40801, 0x03000005, 0x800f0000,
    0x80e40000, 0x90e40000, 0x04000012, 0x801f0000, 0xa0000000, 0x80e40000, 0x80e40001, 0x04000058,
    0x800f0000, 0x81ff0000, 0xa0550000, 0x80e40000, 0x02000001, 0x800f0800, 0x80e40000, 0x0000ffff,
];

const LISTING_11_3: &str = "vs_3_0\ndef c8, 0.0, 0.0, 0.0, 0.0\ndefi i0, 4, 0, 1, 0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_position o0\ndcl_texcoord0 o1.xy\ndcl_color0 o2\nm4x4 o0, v0, c0\nmov o1.xy, v1\nmov r0, c8\nloop aL, i0\nadd r0, r0, c4[aL]\nendloop\nmov_sat o2, r0\n";
const LISTING_11_3_TOKENS: &[u32] = &[
    0xfffe0300, 0x0026fffe, 0x42415443, 0x0000001c, 0x00000084, 0xfffe0300, 0x00000002, 0x0000001c,
    0x00000000, 0x0000007c, 0x00000044, 0x00040002, 0x00000004, 0x0000004c, 0x00000000, 0x0000005c,
    0x00000002, 0x00000004, 0x0000006c, 0x00000000, 0x7366664f, 0x00737465, 0x00030001, 0x00040001,
    0x00000004, 0x00000000, 0x6c726f57, 0x65695664, 0x6f725077, 0xabab006a, 0x00030003, 0x00040004,
    0x00000001, 0x00000000, 0x335f7376, 0xab00305f, 0x63657073, 0x61786520, 0x656c706d, 0xababab00,
    0x05000051, 0xa00f0008, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x05000030, 0xf00f0000,
    0x00000004, 0x00000000, 0x00000001, 0x00000000, 0x0200001f, 0x80000000, 0x900f0000, 0x0200001f,
    0x80000005, 0x900f0001, 0x0200001f, 0x80000000, 0xe00f0000, 0x0200001f, 0x80000005, 0xe0030001,
    0x0200001f, 0x8000000a, 0xe00f0002, 0x03000014, 0xe00f0000, 0x90e40000, 0xa0e40000, 0x02000001,
    0xe0030001, 0x90e40001, 0x02000001, 0x800f0000, 0xa0e40008, 0x0200001b, 0xf0e40800, 0xf0e40000,
    0x04000002, 0x800f0000, 0x80e40000, 0xa0e42004, 0xf0e40800, 0x0000001d, 0x02000001, 0xe01f0002,
    0x80e40000, 0x0000ffff,
];

const LISTING_11_4: &str = "ps_3_0\ndef c0, 0.0, 0.5, 1.0, 0.0\ndcl_texcoord0 v0.xy\ndcl_color0 v1\ndcl vFace\ndcl_2d s0\ntexld r0, v0, s0\nsetp_lt p0.x, vFace, c0.x\n(p0.x) mul r0.xyz, r0, c0.y\nif_gt v1.w, c0.y\nmul r0.w, r0.w, c0.y\nendif\nmul oC0, r0, v1\n";
const LISTING_11_4_TOKENS: &[u32] = &[
    0xffff0300, 0x05000051, 0xa00f0000, 0x00000000, 0x3f000000, 0x3f800000, 0x00000000, 0x0200001f,
    0x80000005, 0x90030000, 0x0200001f, 0x8000000a, 0x900f0001, 0x0200001f, 0x80000000, 0x900f1001,
    0x0200001f, 0x90000000, 0xa00f0800, 0x03000042, 0x800f0000, 0x90e40000, 0xa0e40800, 0x0304005e,
    0xb0011000, 0x90e41001, 0xa0000000, 0x14000005, 0x80070000, 0xb0001000, 0x80e40000, 0xa0550000,
    0x02010029, 0x90ff0001, 0xa0550000, 0x03000005, 0x80080000, 0x80ff0000, 0xa0550000, 0x0000002b,
    0x03000005, 0x800f0800, 0x80e40000, 0x90e40001, 0x0000ffff,
];

const LISTING_11_5: &str = "vs_1_1\ndcl_position v0\ndcl_color0 v1\nm4x4 oPos, v0, c0\nmov a0.x, v1.w\nmov oD0, c[a0.x + 4]\n";
const LISTING_11_5_TOKENS: &[u32] = &[
    0xfffe0101, 0x0000001f, 0x80000000, 0x900f0000, 0x0000001f, 0x8000000a, 0x900f0001, 0x00000014,
    0xc00f0000, 0x90e40000, 0xa0e40000, 0x00000001, 0xb0010000, 0x90ff0001, 0x00000001, 0xd00f0000,
    0xa0e42004, 0x0000ffff,
];

#[test]
fn worked_listings_assemble_to_the_listed_dwords() {
    for (text, tokens, count) in [
        (LISTING_11_1, LISTING_11_1_TOKENS, 69),
        (LISTING_11_2, LISTING_11_2_TOKENS, 48),
        (LISTING_11_3, LISTING_11_3_TOKENS, 90),
        (LISTING_11_4, LISTING_11_4_TOKENS, 45),
        (LISTING_11_5, LISTING_11_5_TOKENS, 18),
    ] {
        assert_eq!(tokens.len(), count);
        check_round_trip(text, tokens);
    }
}

#[test]
fn listing_11_3_constant_table() {
    let p = shader::decode(LISTING_11_3_TOKENS).unwrap();
    assert_eq!(p.comments.len(), 1);
    assert_eq!(p.comments[0].before_instruction, 0);
    let t = p.constant_table().unwrap().expect("CTAB present");
    assert_eq!(t.creator, "spec example");
    assert_eq!(t.target, "vs_3_0");
    assert_eq!(t.version, 0xFFFE0300);
    assert_eq!(t.constants.len(), 2);
    let off = t.by_name("Offsets").unwrap();
    assert_eq!(
        (off.register_set, off.register_index, off.register_count),
        (RegisterSet::Float4, 4, 4)
    );
    assert_eq!(off.type_info.class, ParameterClass::Vector);
    assert_eq!(
        (
            off.type_info.ty,
            off.type_info.rows,
            off.type_info.columns,
            off.type_info.elements
        ),
        (3, 1, 4, 4)
    );
    let wvp = t.by_name("WorldViewProj").unwrap();
    assert_eq!((wvp.register_index, wvp.register_count), (0, 4));
    assert_eq!(wvp.type_info.class, ParameterClass::MatrixColumns);
    assert_eq!((wvp.type_info.rows, wvp.type_info.columns), (4, 4));
    assert!(t.by_name("Missing").is_none());
}

#[test]
fn disassembly_prints_fxc_syntax() {
    let p = shader::decode(LISTING_11_4_TOKENS).unwrap();
    assert_eq!(
        p.disassemble(),
        "ps_3_0\ndef c0, 0, 0.5, 1, 0\ndcl_texcoord v0.xy\ndcl_color v1\ndcl vFace\ndcl_2d s0\n\
         texld r0, v0, s0\nsetp_lt p0.x, vFace, c0.x\n(p0.x) mul r0.xyz, r0, c0.y\nif_gt v1.w, c0.y\n\
         \x20 mul r0.w, r0.w, c0.y\nendif\nmul oC0, r0, v1\n"
    );
    let p = shader::decode(LISTING_11_5_TOKENS).unwrap();
    assert_eq!(
        p.disassemble(),
        "vs_1_1\ndcl_position v0\ndcl_color v1\nm4x4 oPos, v0, c0\nmov a0.x, v1.w\nmov oD0, c4[a0.x]\n"
    );
    let p = shader::decode(LISTING_11_1_TOKENS).unwrap();
    let text = p.disassemble();
    assert!(text.contains("\nmov oT1, -c10[a0.x]\n"), "{text}");
    assert!(
        text.contains("\nrep i0\n  add r1, r1, c7\nendrep\n"),
        "{text}"
    );
    let p = shader::decode(LISTING_11_2_TOKENS).unwrap();
    let text = p.disassemble();
    assert!(
        text.contains("\ndcl t0.xy\n") && text.contains("\ndcl_cube s1\n"),
        "{text}"
    );
    assert!(
        text.contains("\nlrp_sat r0, c0.x, r0, r1\ncmp r0, -r0.w, c0.y, r0\n"),
        "{text}"
    );
}

#[test]
fn decoded_ir_has_the_listed_fields() {
    let p = shader::decode(LISTING_11_4_TOKENS).unwrap();
    let pred = &p.instructions[7];
    assert_eq!(pred.opcode, Opcode::Mul);
    let ps = pred.predicate.expect("predicated");
    assert_eq!(ps.reg.file, RegisterFile::Predicate);
    assert_eq!(ps.swizzle.0, 0x00);
    assert_eq!(pred.dst.unwrap().mask.0, 0x7);
    let ifc = &p.instructions[8];
    assert_eq!(ifc.opcode, Opcode::IfC);
    assert_eq!(ifc.comparison(), Some(shader::token::Comparison::Gt));
    let p = shader::decode(LISTING_11_3_TOKENS).unwrap();
    let add = p
        .instructions
        .iter()
        .find(|i| i.opcode == Opcode::Add)
        .unwrap();
    let rel = add.srcs()[1].relative.expect("relative");
    assert_eq!(rel.reg.file, RegisterFile::Loop);
    assert_eq!(add.srcs()[1].reg.index, 4);
}
