//! One accepted and one rejected program per validator rule; rejections
//! must name the rule (and the cap where one is involved).

use warp9::shader::{self, ShaderErrorKind, ShaderInfo, ShaderLimits};

const L91: ShaderLimits = ShaderLimits::level_9_1();
const L93: ShaderLimits = ShaderLimits::level_9_3();
const SM3: ShaderLimits = ShaderLimits::sm3();

fn run(text: &str, l: &ShaderLimits) -> Result<ShaderInfo, shader::ShaderError> {
    let tokens = shader::assemble(text).unwrap_or_else(|e| panic!("assemble {text:?}: {e}"));
    shader::validate(&shader::decode(&tokens).unwrap(), l)
}

fn ok(text: &str, l: &ShaderLimits) -> ShaderInfo {
    run(text, l)
        .unwrap_or_else(|e| panic!("expected {text:?} to validate at {}: {e}", l.level_name))
}

fn bad(text: &str, l: &ShaderLimits, rule: &str, cap: Option<&str>) {
    let e = run(text, l).expect_err(text);
    assert_eq!(e.kind, ShaderErrorKind::Invalid, "{e}");
    assert_eq!(e.rule, rule, "{text:?}: {e}");
    assert_eq!(e.cap, cap, "{text:?}: {e}");
    let msg = e.to_string();
    assert!(msg.contains(&format!("rule {rule}")), "{msg}");
    if let Some(c) = cap {
        assert!(msg.contains(c), "{msg}");
    }
}

fn bad_tokens(tokens: &[u32], l: &ShaderLimits, rule: &str) {
    let e = shader::validate(&shader::decode(tokens).unwrap(), l).expect_err("invalid");
    assert_eq!(e.rule, rule, "{e}");
}

const VS: &str = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";

#[test]
fn version() {
    ok(VS, &L91);
    ok(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
        &L93,
    );
    bad(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
        &L91,
        "version",
        Some("VertexShaderVersion"),
    );
    bad(
        "ps_3_0\nmov oC0, c0\n",
        &L93,
        "version",
        Some("PixelShaderVersion"),
    );
    ok("ps_3_0\nmov oC0, c0\n", &SM3);
    // A small ps_2_x program is valid even at 9_1 (caps.md §8 note).
    ok("ps_2_x\nmov oC0, c0\n", &L91);
    bad(
        "vs_3_sw\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
        &L93,
        "version",
        Some("SoftwareVertexProcessing"),
    );
    ok(
        "vs_3_sw\ndcl_position v0\ndcl_position o0\nmov o0, c3000\n",
        &L91.software_vertex_processing(),
    );
    // ps_1_x is held against PixelShaderVersion (2.0 or more at every
    // level) and validated by its own rules (tests/shader_validate_ps1.rs).
    for l in ShaderLimits::ALL_LEVELS {
        ok("ps_1_4\nmov r0, v0\n", &l);
        ok("ps_1_1\ntex t0\nmov r0, t0\n", &l);
    }
    bad("ps_1_0\nmov r0, v0\n", &L91, "version", None);
}

#[test]
fn opcode_and_caps() {
    bad(
        "ps_2_0\ndefi i0, 1, 0, 0, 0\nmov oC0, c0\n",
        &L91,
        "opcode-profile",
        None,
    );
    ok("ps_2_x\ndsx r0, c0\nmov oC0, r0\n", &L93);
    let e = run("ps_2_x\ndsx r0, c0\nmov oC0, r0\n", &L91).unwrap_err();
    assert_eq!(
        e.to_string(),
        "instruction 0 (dsx): gradient instructions need PS20Caps.GRADIENTINSTRUCTIONS, clear at level 9_1 [rule gradient-instructions, cap PS20Caps.GRADIENTINSTRUCTIONS]"
    );
    let pred = "vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\n(p0) mov oPos, v0\nmov oPos, v0\n";
    ok(pred, &L93);
    bad(pred, &L91, "predication", Some("VS20Caps.PREDICATION"));
    let dynif = "vs_2_x\ndcl_position v0\nif_gt v0.x, c0.x\nendif\nmov oPos, v0\n";
    ok(dynif, &L93);
    bad(
        dynif,
        &L91,
        "dynamic-flow-control",
        Some("VS20Caps.DynamicFlowControlDepth"),
    );
    let rep = "ps_2_x\nmov r0, c0\nrep i0\nadd r0, r0, c1\nendrep\nmov oC0, r0\n";
    ok(rep, &L93);
    bad(
        rep,
        &L91,
        "static-flow-control",
        Some("PS20Caps.StaticFlowControlDepth"),
    );
    bad_tokens(
        &[
            0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x02070001, 0xc00f0000, 0x90e40000,
            0x0000ffff,
        ],
        &L91,
        "control",
    );
    bad(
        "ps_2_0\nmov r0, c0\n+ mov r0.w, c1\nmov oC0, r0\n",
        &L91,
        "coissue",
        None,
    );
}

#[test]
fn registers_and_operands() {
    ok(
        "vs_2_0\ndcl_position v0\nmov r11, v0\nmov oPos, r11\n",
        &L91,
    );
    bad(
        "vs_2_0\ndcl_position v0\nmov r12, v0\nmov oPos, r12\n",
        &L91,
        "register-index",
        None,
    );
    let t = "ps_2_x\nmov r20, c0\nmov oC0, r20\n";
    ok(t, &L93);
    bad(t, &L91, "register-index", Some("PS20Caps.NumTemps"));
    bad(
        "vs_2_0\ndcl_position v0\nmov oPos, c256\n",
        &L91,
        "register-index",
        Some("MaxVertexShaderConst"),
    );
    ok("vs_2_0\ndcl_position v0\nmov oPos, c255\n", &L91);
    bad(
        "ps_2_0\nmov oPos, c0\nmov oC0, c0\n",
        &L91,
        "register-file",
        None,
    );
    // mov r0 with an empty write mask.
    bad_tokens(
        &[
            0xffff0200, 0x02000001, 0x80000000, 0xa0e40000, 0x02000001, 0x800f0800, 0xa0e40000,
            0x0000ffff,
        ],
        &L91,
        "write-mask",
    );
    bad(
        "vs_2_0\ndcl_position v0\nadd_sat oPos, v0, c0\n",
        &L91,
        "dst-modifier",
        None,
    );
    ok(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nadd_sat o0, v0, c0\n",
        &L93,
    );
    bad(
        "vs_2_0\ndcl_position v0\nmov oPos, v0_abs\n",
        &L91,
        "src-modifier",
        None,
    );
    ok(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0_abs\n",
        &L93,
    );
    bad(
        "vs_2_0\ndcl_position v0\nrcp r0, c0\nmov oPos, r0\n",
        &L91,
        "scalar-swizzle",
        None,
    );
    ok(
        "vs_2_0\ndcl_position v0\nrcp r0, c0.y\nmov oPos, r0\n",
        &L91,
    );
    bad(
        "ps_2_0\nmov oC0, c0.xyxy\n",
        &L91,
        "arbitrary-swizzle",
        Some("PS20Caps.ARBITRARYSWIZZLE"),
    );
    ok("ps_2_0\nmov oC0, c0.wzyx\n", &L91);
    ok("ps_2_x\nmov oC0, c0.xyxy\n", &L93);
    let tex = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    ok(tex, &L91);
    bad(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0.yzxw, s0\nmov oC0, r0\n",
        &L91,
        "texture-operand",
        None,
    );
    bad(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0.xy, t0, s0\nmov oC0, r0\n",
        &L91,
        "texture-operand",
        None,
    );
    bad(
        "vs_2_0\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, v0\n",
        &L91,
        "mova",
        None,
    );
    ok(
        "vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c1[a0.x]\n",
        &L91,
    );
    bad("ps_3_0\nmov oC0, c0[aL]\n", &SM3, "relative-address", None);
    bad(
        "vs_2_0\ndcl_position v0\nsincos r0.xyz, c0.x, c1, c2\nmov oPos, v0\n",
        &L91,
        "sincos",
        None,
    );
    ok(
        "vs_2_0\ndcl_position v0\nsincos r0.xy, c0.x, c1, c2\nmov oPos, v0\nmov oT0.xy, r0\n",
        &L91,
    );
    bad(
        "vs_2_0\ndcl_position v0\nmov r0, v0\ncrs r0.xyz, r0, c1\nmov oPos, v0\n",
        &L91,
        "crs",
        None,
    );
    bad(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nm4x4 r1, r0, c0\nmov o0, r1\n",
        &L93,
        "uninitialized-read",
        None,
    );
    bad(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nm4x4 r0, r0, c0\nmov o0, r0\n",
        &L93,
        "matrix",
        None,
    );
    ok(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nm4x4 r1, r0, c0\nmov o0, r1\n",
        &L93,
    );
    // (!p0.x) with a neg modifier instead of not.
    bad_tokens(
        &[
            0xfffe0201, 0x0200001f, 0x80000000, 0x900f0000, 0x0301005e, 0xb00f1000, 0x90e40000,
            0xa0e40000, 0x13000001, 0xc00f0000, 0xb1e41000, 0x90e40000, 0x0000ffff,
        ],
        &L93,
        "predicate-register",
    );
}

#[test]
fn declarations_and_data_flow() {
    bad("vs_2_0\nmov oPos, v0\n", &L91, "declaration", None);
    bad(
        "ps_2_0\ndcl t0\ntexld r0, t0, s0\nmov oC0, r0\n",
        &L91,
        "declaration",
        None,
    );
    bad(
        "ps_2_0\nmov r0, c0\ndef c1, 1, 1, 1, 1\nmov oC0, r0\n",
        &L91,
        "declaration-order",
        None,
    );
    bad(
        "ps_2_0\ndcl t0\ndcl t0.x\nmov oC0, t0\n",
        &L91,
        "declaration",
        None,
    );
    bad("ps_2_0\nmov oC0, r0\n", &L91, "uninitialized-read", None);
    ok(
        "ps_2_0\nmov r0.xy, c0\nmov oC0.xy, r0\nmov oC0.zw, c0\n",
        &L91,
    );
    bad(
        "ps_2_0\nmov r0.xy, c0\nmov oC0, r0\n",
        &L91,
        "uninitialized-read",
        None,
    );
    let chain = |n: usize| {
        let mut s = String::from("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\n");
        for _ in 0..n {
            s.push_str("texld r0, r0, s0\n");
        }
        s + "mov oC0, r0\n"
    };
    ok(&chain(3), &L91);
    bad(
        &chain(4),
        &L91,
        "dependent-read",
        Some("PS20Caps.NODEPENDENTREADLIMIT"),
    );
    let chain_x = chain(4).replace("ps_2_0", "ps_2_x");
    bad(
        &chain_x,
        &L91,
        "dependent-read",
        Some("PS20Caps.NODEPENDENTREADLIMIT"),
    );
    ok(&chain_x, &L93);
    bad(
        "vs_2_0\ndcl_position v0\nmov r0, v0\n",
        &L91,
        "output-required",
        None,
    );
    bad("ps_2_0\nmov r0, c0\n", &L91, "output-required", None);
}

#[test]
fn resource_limits() {
    // `head`, then `n` adds into r0, then `tail`: n + 2 slots.
    let adds = |head: &str, n: usize, tail: &str| {
        format!("{head}mov r0, c0\n{}{tail}", "add r0, r0, c1\n".repeat(n))
    };
    let many = |profile: &str, n: usize| adds(&format!("{profile}\n"), n, "mov oC0, r0\n");
    ok(&many("ps_2_0", 62), &L91);
    bad(&many("ps_2_0", 63), &L91, "instruction-slots", None);
    ok(&many("ps_2_x", 200), &L93);
    bad(
        &many("ps_2_x", 200),
        &L91,
        "instruction-slots",
        Some("PS20Caps.NumInstructionSlots"),
    );
    // SM3 advertises D3DMAX30SHADERINSTRUCTIONS = 32768 slots for ps_3_0
    // and vs_3_0 (caps.md "Changed (sm3)"); 9_3 keeps 512 for vs_3_0.
    ok(&many("ps_3_0", 1500), &SM3);
    ok(&many("ps_3_0", 32766), &SM3);
    bad(
        &many("ps_3_0", 32767),
        &SM3,
        "instruction-slots",
        Some("MaxPixelShader30InstructionSlots"),
    );
    let vs = |n: usize| adds("vs_3_0\ndcl_position o0\n", n, "mov o0, r0\n");
    ok(&vs(510), &L93);
    bad(
        &vs(511),
        &L93,
        "instruction-slots",
        Some("MaxVertexShader30InstructionSlots"),
    );
    ok(&vs(1500), &SM3);
    let texs = |n: usize| {
        let mut s = String::from("ps_2_x\ndcl t0\ndcl_2d s0\n");
        for _ in 0..n {
            s.push_str("texld r0, t0, s0\n");
        }
        s + "mov oC0, r0\n"
    };
    ok(&texs(32), &L91);
    bad(
        &texs(33),
        &L91,
        "texture-instructions",
        Some("PS20Caps.NOTEXINSTRUCTIONLIMIT"),
    );
    ok(&texs(33), &L93);
}

#[test]
fn flow_control() {
    bad("ps_2_x\nelse\nmov oC0, c0\n", &L93, "flow-control", None);
    bad("ps_2_x\nbreak\nmov oC0, c0\n", &L93, "flow-control", None);
    bad("ps_2_x\nif b0\nmov oC0, c0\n", &L93, "flow-control", None);
    let nested = |p: &str| {
        format!(
            "{p}\ndcl_position v0\nmov r0, v0\nrep i0\nrep i1\nadd r0, r0, c0\nendrep\nendrep\nmov oPos, r0\n"
        )
    };
    bad(
        &nested("vs_2_0"),
        &L91,
        "flow-nesting",
        Some("VS20Caps.StaticFlowControlDepth"),
    );
    ok(&nested("vs_2_x"), &L93);
    bad(
        "vs_2_0\ndcl_position v0\ncall l1\nmov oPos, v0\nret\nlabel l0\nret\n",
        &L91,
        "labels",
        None,
    );
    ok(
        "vs_2_0\ndcl_position v0\ncall l0\nmov oPos, v0\nret\nlabel l0\nret\n",
        &L91,
    );
    bad(
        "vs_2_0\ndcl_position v0\nmov oPos, c0[aL]\n",
        &L91,
        "loop-register",
        None,
    );
    ok(
        "vs_2_0\ndcl_position v0\nmov r0, v0\nloop aL, i0\nadd r0, r0, c0[aL]\nendloop\nmov oPos, r0\n",
        &L91,
    );
    let grad = |op: &str| {
        format!(
            "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\nmov r1, v0\nif_gt v0.x, c0.x\n{op} r0, r1, s0\nmov oC0, r0\nendif\nmov oC0, c0\n"
        )
    };
    bad(&grad("texld"), &SM3, "gradient-in-flow-control", None);
    ok(&grad("texldl"), &SM3);
    bad(
        "ps_3_0\ndcl_texcoord v0\nif_gt v0.x, c0.x\nmov oDepth, c0.x\nendif\nmov oC0, c0\n",
        &SM3,
        "depth-output",
        None,
    );
    let both = ok(
        "ps_3_0\ndcl_texcoord v0\nif_gt v0.x, c0.x\nmov oDepth, c0.x\nelse\nmov oDepth, c0.y\nendif\nmov oC0, c0\n",
        &SM3,
    );
    assert!(both.writes_depth && both.dynamic_branching);
}

#[test]
fn shader_info_reports_the_program() {
    let info = ok(
        "ps_3_0\ndef c5, 1, 2, 3, 4\ndcl_texcoord1_centroid v2.xy\ndcl vFace\ndcl_cube s3\n\
         texld r0, v2, s3\ncmp r1, vFace, c0, c7\ntexkill r1\ndsx r2, r0\nadd oC0, r0, r2\n",
        &SM3,
    );
    assert_eq!(info.temps, 3);
    assert_eq!(info.float_constants, vec![(0, 1), (7, 1)]);
    assert_eq!(
        info.local_float_constants,
        vec![(
            5,
            [
                1f32.to_bits(),
                2f32.to_bits(),
                3f32.to_bits(),
                4f32.to_bits()
            ]
        )]
    );
    assert_eq!(info.samplers, vec![(3, shader::token::TextureType::Cube)]);
    assert!(
        info.uses_texkill
            && info.uses_derivatives
            && info.uses_vface
            && !info.uses_vpos
            && !info.writes_depth
    );
    let tc = info
        .inputs
        .iter()
        .find(|s| s.reg.file == shader::RegisterFile::Input)
        .unwrap();
    assert_eq!(
        (tc.reg.index, tc.usage, tc.index, tc.mask.0, tc.centroid),
        (2, warp9::vertex::DeclUsage::TexCoord, 1, 0x3, true)
    );
    // texld cube costs 4 in ps_3_0, cmp 1, texkill 1, dsx 2, add 1.
    assert_eq!(info.instruction_slots, 9);
    let vs = ok(
        "vs_2_0\ndcl_position v0\ndcl_texcoord3 v1\nmova a0.x, v1.x\nmov oPos, v0\nmov oT3.xy, c10[a0.x]\n",
        &L91,
    );
    assert!(vs.relative_addressing);
    assert!(
        vs.outputs
            .iter()
            .any(|o| o.usage == warp9::vertex::DeclUsage::TexCoord
                && o.index == 3
                && o.mask.0 == 0x3)
    );
}

/// vs_1_1 (bytecode.md §4.2, §4.4, §5, §6.2, §7): validated at every
/// level (VertexShaderVersion is 2.0 or more everywhere) with its own
/// opcode set, `mov a0.x`, 128 slots and SM1 slot costs.
#[test]
fn vs_1_1_profile() {
    const VS11: &str = "vs_1_1\ndcl_position v0\ndcl_color0 v1\nm4x4 oPos, v0, c0\nmov a0.x, v1.w\nmov oD0, c[a0.x + 4]\n";
    for l in ShaderLimits::ALL_LEVELS {
        let info = ok(VS11, &l);
        assert_eq!(info.instruction_slots, 6);
        assert!(info.relative_addressing);
    }
    let prog = |body: &str| format!("vs_1_1\ndcl_position v0\nmov oPos, v0\n{body}");
    // SM2 instructions and flow control do not exist in vs_1_1.
    for body in [
        "mova a0.x, v0.x\n",
        "pow r0, v0.x, v0.y\n",
        "abs r0, v0\n",
        "nrm r0, v0\n",
        "lrp r0, v0, v0, v0\n",
        "crs r0.xyz, v0, c0\n",
        "rep i0\nendrep\n",
        "if b0\nendif\n",
    ] {
        bad(&prog(body), &L91, "opcode-profile", None);
    }
    bad(
        "vs_1_1\ndefi i0, 1, 0, 0, 0\ndcl_position v0\nmov oPos, v0\n",
        &L91,
        "opcode-profile",
        None,
    );
    // a0 is written by `mov a0.x` only.
    ok(&prog("mov a0.x, v0.y\nmov oD0, c[a0.x]\n"), &L91);
    bad(&prog("mov a0, v0\n"), &L91, "mova", None);
    bad(&prog("add a0.x, v0, c0\n"), &L91, "mova", None);
    // Scalar sources need no replicate swizzle (the w channel is used).
    ok(
        &prog("rcp r0, v0\nexpp r1, v0.wzyx\nmov oT0, r0\nmov oT1, r1\n"),
        &L91,
    );
    // frc exists for .y and .xy only.
    ok(
        &prog("frc r0.y, v0\nfrc r1.xy, v0\nmov oT0.y, r0\nmov oT1.xy, r1\n"),
        &L91,
    );
    bad(&prog("frc r0, v0\nmov oT0, r0\n"), &L91, "frc", None);
    // Registers: 12 temps, inputs declared, no _sat, no abs.
    bad(&prog("mov r12, v0\n"), &L91, "register-index", None);
    bad(&prog("mov oT0, v1\n"), &L91, "declaration", None);
    bad(&prog("mov oT0, r1\n"), &L91, "uninitialized-read", None);
    bad(&prog("mov_sat oD0, v0\n"), &L91, "dst-modifier", None);
    bad("vs_1_1\nmov oD0, c0\n", &L91, "output-required", None);
    // Slots: exp and log cost 10, frc 3, lit 1; 128 in all.
    let info = ok(
        &prog("exp r0, v0.x\nlog r1, v0.y\nfrc r2.y, v0\nlit r3, v0\n"),
        &L91,
    );
    assert_eq!(info.instruction_slots, 1 + 10 + 10 + 3 + 1);
    ok(&prog(&"exp r0, v0.x\n".repeat(12)), &L91);
    bad(
        &prog(&"exp r0, v0.x\n".repeat(13)),
        &L91,
        "instruction-slots",
        None,
    );
}
