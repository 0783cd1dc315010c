//! ps_1_1–ps_1_4 validation: a representative program of each version and
//! every instruction is accepted, each rule refuses a minimal offending
//! program by name, the fxc corpus's ps_1_x programs validate at 9_1 and
//! are created on a 9_1 Warp device, Wine's (which real D3D9 drivers
//! accepted) validate too, and the assembler round trip of each validates
//! the same.

mod shader_support;

use warp9::shader::token::{Register, TextureType};
use warp9::shader::{self, Instruction, Program, RegisterFile, ShaderErrorKind, ShaderInfo};
use warp9::shader::{ShaderLimits, Src};
use warp9::vertex::DeclUsage;
use warp9::{Caps, Device, DeviceDesc, DriverType, FeatureLevel, Format};

const L91: ShaderLimits = ShaderLimits::level_9_1();

fn program(text: &str) -> Program {
    let tokens = shader::assemble(text).unwrap_or_else(|e| panic!("assemble {text:?}: {e}"));
    shader::decode(&tokens).unwrap_or_else(|e| panic!("decode {text:?}: {e}"))
}

fn run(text: &str) -> Result<ShaderInfo, shader::ShaderError> {
    shader::validate(&program(text), &L91)
}

fn ok(text: &str) -> ShaderInfo {
    run(text).unwrap_or_else(|e| panic!("expected {text:?} to validate: {e}"))
}

/// The program is refused by `rule`, and the message names it.
fn bad(text: &str, rule: &str) {
    let e = run(text).expect_err(text);
    assert_eq!(e.kind, ShaderErrorKind::Invalid, "{e}");
    assert_eq!(e.rule, rule, "{text:?}: {e}");
    assert!(e.to_string().contains(&format!("rule {rule}")), "{e}");
}

fn bad_program(p: &Program, rule: &str) {
    let e = shader::validate(p, &L91).expect_err("invalid");
    assert_eq!(e.rule, rule, "{e}");
}

fn reg(file: RegisterFile, index: u16) -> Register {
    Register::new(file, index)
}

// ---------------------------------------------------------------- accepted

/// ps_1_1: tex, texbem, texcoord, texkill; every arithmetic instruction of
/// the version, a co-issued pair, `.b` in the alpha pipe, 4 + 8 slots.
const PS11: &str = "ps_1_1
def c0, 1, 0, 0, 1
tex t0
texbem t1, t0
texcoord t2
texkill t3
mul r0.rgb, t1, v0
+ mov r0.a, t2
add r1, r0, c1
sub_sat r1, r1, v1
mad_x2 r0, r1_bx2, c0, -t2
lrp r0, 1 - v0, r0, t2_bias
nop
dp3_d2 r1, r0, c0
mov_x4 r0.a, r1.b
cnd r0, r0.a, c0, v1
";

const PS11_TEXM: &[&str] = &[
    "ps_1_1\ntex t0\ntexm3x2pad t1, t0_bx2\ntexm3x2tex t2, t0_bx2\nmov r0, t2\n",
    "ps_1_1\ntex t0\ntexm3x3pad t1, t0_bx2\ntexm3x3pad t2, t0_bx2\ntexm3x3spec t3, t0_bx2, c0\nmov r0, t3\n",
    "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n",
    "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
    "ps_1_1\ntex t0\ntexreg2ar t1, t0\ntexreg2gb t2, t0\ntexbeml t3, t0\nadd r0, t1, t2\nadd r0, r0, t3\n",
];

/// ps_1_2: texreg2rgb, texdp3tex, texdp3, texm3x3, cmp, dp4 (2 slots each).
const PS12: &[&str] = &[
    "ps_1_2\ntex t0\ntexreg2rgb t1, t0_bx2\ntexdp3tex t2, t0\ntexdp3 t3, t0\ncmp r0, t1, t2, t3\ndp4 r1, r0, c0\nmov r0.a, r1.b\n",
    "ps_1_2\ntex t0\ntexm3x3pad t1, t0_bx2\ntexm3x3pad t2, t0_bx2\ntexm3x3 t3, t0_bx2\nmov r0, t3\n",
];

/// ps_1_3: texm3x2depth, and three texture registers read at once.
const PS13: &str = "ps_1_3
tex t0
texm3x2pad t1, t0
texm3x2depth t2, t0
tex t3
mad r0, t0, t3, t0
";

/// ps_1_4 with a phase: texld (t#, _dw, r#, _dz), texcrd (.rgb, .rg with
/// _dw), bem, texdepth, texkill, cmp, cnd per component, dp4, lrp, a
/// co-issued pair, every result shift family and _x2 sources.
const PS14: &str = "ps_1_4
def c0, 0.5, 0.5, 0.5, 1
texld r0, t0
texcrd r1.rgb, t1
texcrd r2.rg, t2_dw.xyw
texld r3, t3_dw.xyw
bem r4.rg, c0, r0
mov r4.b, c0
add_d4 r5.rg, r0, r1
phase
texld r4, r4
texld r1, r1_dz
texdepth r5
texkill t4
cmp r0.rgb, r0, r4, r1
cnd r0.a, r3.b, r4, c0
dp4_x8 r2, r0, v0
lrp r0.rgb, v1, r2_x2, r0
+ mov_sat r0.a, r2.b
";

/// ps_1_4 without a phase (the whole program is phase 2: v# available).
const PS14_FLAT: &str = "ps_1_4
texld r0, t0
texcrd r1.xyz, t1
mul r2, r0, v0
mad r2.rgb, r1, c1, r2
sub r3, r2, -c2
nop
mov_d8 r0.rgb, r3.g
+ mov r0.a, r2.a
";

#[test]
fn representative_programs_of_every_version_validate() {
    let info = ok(PS11);
    assert_eq!(info.version.map(|v| v.minor), Some(1));
    assert_eq!(info.temps, 2);
    assert_eq!((info.texture_instructions, info.arithmetic_slots), (4, 8));
    assert_eq!(info.instruction_slots, 12);
    assert_eq!(info.local_float_constants.len(), 1);
    assert_eq!(info.float_constants, vec![(0, 2)]);
    // Stage 0 (tex) and 1 (texbem) sample; every t# set is a coordinate.
    assert_eq!(
        info.samplers,
        vec![(0, TextureType::Unknown), (1, TextureType::Unknown)]
    );
    let inputs: Vec<_> = info
        .inputs
        .iter()
        .map(|s| (s.reg, s.usage, s.index))
        .collect();
    assert_eq!(
        inputs,
        vec![
            (reg(RegisterFile::Input, 0), DeclUsage::Color, 0),
            (reg(RegisterFile::Input, 1), DeclUsage::Color, 1),
            (reg(RegisterFile::AddrOrTexture, 0), DeclUsage::TexCoord, 0),
            (reg(RegisterFile::AddrOrTexture, 1), DeclUsage::TexCoord, 1),
            (reg(RegisterFile::AddrOrTexture, 2), DeclUsage::TexCoord, 2),
            (reg(RegisterFile::AddrOrTexture, 3), DeclUsage::TexCoord, 3),
        ]
    );
    assert!(info.inputs.iter().all(|s| s.mask.0 == 0xF));
    assert_eq!(info.outputs.len(), 1);
    assert_eq!(info.outputs[0].reg, reg(RegisterFile::Temp, 0));
    assert_eq!(info.outputs[0].usage, DeclUsage::Color);
    assert!(info.uses_texkill && info.uses_derivatives && !info.writes_depth);

    for text in PS11_TEXM {
        ok(text);
    }
    // texreg2ar/gb read t0's colour, not a coordinate set: only sets 0 and 3.
    let info = ok(PS11_TEXM[4]);
    let sets: Vec<_> = info.inputs.iter().map(|s| s.index).collect();
    assert_eq!(sets, vec![0, 3]);
    assert_eq!(info.samplers.len(), 4);
    assert_eq!((info.texture_instructions, info.arithmetic_slots), (4, 3));

    for text in PS12 {
        ok(text);
    }
    assert_eq!(ok(PS12[0]).arithmetic_slots, 5, "cmp and dp4 cost 2 in 1_2");

    let info = ok(PS13);
    assert!(info.writes_depth);
    assert_eq!(info.outputs[1].usage, DeclUsage::Depth);
    assert_eq!(
        info.samplers.len(),
        2,
        "tex t0, tex t3; pads and depth sample nothing"
    );

    let info = ok(PS14);
    assert_eq!(info.temps, 6);
    assert!(info.writes_depth && info.uses_texkill);
    // Stages sampled are the texld destinations: r0, r3 (phase 1), r4, r1.
    let stages: Vec<_> = info.samplers.iter().map(|s| s.0).collect();
    assert_eq!(stages, vec![0, 1, 3, 4]);
    let sets: Vec<_> = info
        .inputs
        .iter()
        .filter(|s| s.usage == DeclUsage::TexCoord)
        .map(|s| s.index)
        .collect();
    assert_eq!(sets, vec![0, 1, 2, 3, 4]);
    // Phase 1: 4 texture + bem 2 + mov + add; phase 2: 4 texture + 4 arithmetic.
    assert_eq!((info.texture_instructions, info.arithmetic_slots), (8, 8));

    let info = ok(PS14_FLAT);
    assert!(!info.uses_texkill && !info.writes_depth);
    assert_eq!(info.float_constants, vec![(1, 2)]);
}

#[test]
fn every_level_accepts_ps1() {
    for limits in ShaderLimits::ALL_LEVELS {
        for text in [PS11, PS12[0], PS13, PS14] {
            shader::validate(&program(text), &limits)
                .unwrap_or_else(|e| panic!("{} at {}: {e}", &text[..6], limits.level_name));
        }
    }
}

#[test]
fn every_instruction_of_every_version() {
    let ops11 = [
        "mov r0, v0",
        "add r0, v0, v1",
        "sub r0, v0, v1",
        "mul r0, v0, v1",
        "mad r0, v0, v1, c0",
        "lrp r0, v0, v1, c0",
        "dp3 r0, v0, v1",
        "mov r0, v0\ncnd r0, r0.a, v0, v1",
        "nop\nmov r0, v0",
        "tex t0\nmov r0, t0",
        "texcoord t0\nmov r0, t0",
        "texkill t0\nmov r0, v0",
        "tex t0\ntexbem t1, t0\nmov r0, t1",
        "tex t0\ntexbeml t1, t0\nmov r0, t1",
        "tex t0\ntexreg2ar t1, t0\nmov r0, t1",
        "tex t0\ntexreg2gb t1, t0\nmov r0, t1",
    ];
    for minor in 1..=3 {
        for body in ops11 {
            ok(&format!("ps_1_{minor}\n{body}\n"));
        }
    }
    for minor in 2..=3 {
        for body in [
            "cmp r0, v0, v1, c0",
            "dp4 r0, v0, v1",
            "tex t0\ntexreg2rgb t1, t0\nmov r0, t1",
            "tex t0\ntexdp3tex t1, t0\nmov r0, t1",
            "tex t0\ntexdp3 t1, t0\nmov r0, t1",
        ] {
            ok(&format!("ps_1_{minor}\n{body}\n"));
        }
    }
    for body in [
        "mov r0, v0",
        "add r0, v0, v1",
        "sub r0, v0, v1",
        "mul r0, v0, v1",
        "mad r0, v0, v1, c0",
        "lrp r0, v0, v1, c0",
        "dp3 r0, v0, v1",
        "dp4 r0, v0, v1",
        "cnd r0, v0, v1, c0",
        "cmp r0, v0, v1, c0",
        "nop\nmov r0, v0",
        "texld r0, t0",
        "texcrd r0.rgb, t0\nmov r0.a, v0",
        "texkill t0\nmov r0, v0",
        "texld r0, t0\nphase\ntexkill r0\nmov r0, c0",
        "texld r0, t0\nphase\nmov r0, r0.b",
        "texld r1, t0\nbem r0.rg, c0, r1\nmov r0.b, c0\nphase\ntexld r0, r0\n",
        "texld r5, t0\nphase\ntexdepth r5\nmov r0, c0",
    ] {
        ok(&format!("ps_1_4\n{body}\n"));
    }
}

// ---------------------------------------------------------------- refused

#[test]
fn version_and_opcodes() {
    bad("ps_1_0\nmov r0, v0\n", "version");
    for (text, why) in [
        ("ps_1_1\ncmp r0, v0, v1, c0\n", "cmp is 1_2+"),
        ("ps_1_1\ndp4 r0, v0, v1\n", "dp4 is 1_2+"),
        (
            "ps_1_1\ntex t0\ntexreg2rgb t1, t0\nmov r0, t1\n",
            "texreg2rgb is 1_2+",
        ),
        (
            "ps_1_1\ntex t0\ntexdp3 t1, t0\nmov r0, t1\n",
            "texdp3 is 1_2+",
        ),
        (
            "ps_1_2\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
            "1_3 only",
        ),
        ("ps_1_3\nphase\nmov r0, v0\n", "phase is 1_4"),
        ("ps_1_4\ntexbem r1, t0\nmov r0, v0\n", "texbem ends at 1_3"),
        (
            "ps_1_4\ntexm3x3 r1, t0\nmov r0, v0\n",
            "texm3x3 ends at 1_3",
        ),
        ("ps_1_1\nrcp r0, v0.a\n", "rcp is SM2"),
        ("ps_1_4\nfrc r0, v0\n", "frc is SM2"),
        ("ps_1_3\ndcl t0\nmov r0, v0\n", "no dcl in ps_1_x"),
        (
            "ps_1_4\ndefi i0, 1, 1, 1, 1\nmov r0, v0\n",
            "no integer constants",
        ),
    ] {
        let e = run(text).expect_err(why);
        assert_eq!(e.rule, "opcode-profile", "{why}: {e}");
    }
}

#[test]
fn control_predication_and_operands() {
    // mov with a stray control field.
    let p = shader::decode(&[0xffff0101, 0x00010001, 0x800f0000, 0x90e40000, 0x0000ffff]);
    bad_program(&p.unwrap(), "control");
    // Relative addressing of c# (bit 13, implicit a0.x in SM1).
    let p = shader::decode(&[0xffff0101, 0x00000001, 0x800f0000, 0xa0e42000, 0x0000ffff]);
    bad_program(&p.unwrap(), "relative-address");
    // A predicate can only come from a hand-built program.
    let mut p = program("ps_1_4\nmov r0, v0\n");
    p.instructions[0].predicate = Some(Src::new(reg(RegisterFile::Predicate, 0)));
    bad_program(&p, "predication");
    let mut p = program("ps_1_4\nmov r0, v0\n");
    let mut nop = Instruction::new(shader::Opcode::Nop);
    nop.dst = p.instructions[0].dst;
    p.instructions.insert(0, nop);
    bad_program(&p, "operand");
}

#[test]
fn registers() {
    bad("ps_1_1\nmov r2, v0\nmov r0, v0\n", "register-index");
    bad("ps_1_1\nmov r0, c8\n", "register-index");
    bad("ps_1_1\ntex t4\nmov r0, v0\n", "register-index");
    bad("ps_1_4\ntexld r6, t0\nmov r0, v0\n", "register-index");
    bad("ps_1_4\ntexld r0, t6\n", "register-index");
    bad("ps_1_1\nmov r0, v2\n", "register-index");
    bad("ps_1_1\ndef c8, 1, 1, 1, 1\nmov r0, v0\n", "register-index");
    // t# in 1_4 is read-only coordinates, for texld/texcrd/texkill only.
    bad("ps_1_4\nadd t0, v0, v1\nmov r0, v0\n", "register-file");
    bad("ps_1_4\nadd r0, t0, v0\n", "register-file");
    bad("ps_1_1\ntex r0\n", "register-file");
    bad("ps_1_4\ntexld t0, t0\nmov r0, v0\n", "register-file");
    bad("ps_1_1\nmov oC0, v0\n", "register-file");
    // 1_1–1_3 arithmetic may write t# (fxc does: `add t0.xyz, -t0, c6`).
    ok("ps_1_1\ntex t0\nadd t0.rgb, -t0, c6\nmad r0, t0, v1, v0\n");
}

#[test]
fn modifiers_masks_and_selectors() {
    bad("ps_1_1\nmov_x8 r0, v0\n", "dst-modifier");
    bad("ps_1_3\nmov_d4 r0, v0\n", "dst-modifier");
    bad("ps_1_1\nmov_pp r0, v0\n", "dst-modifier");
    bad("ps_1_1\ntex_sat t0\nmov r0, t0\n", "dst-modifier");
    bad("ps_1_4\ntexld_x2 r0, t0\n", "dst-modifier");
    ok("ps_1_4\nmov_x8 r0, v0\n");
    bad("ps_1_1\nmov r0, v0_x2\n", "src-modifier");
    ok("ps_1_4\nmov r0, v0_x2\n");
    bad("ps_1_4\nmov r0, -v0_abs\n", "src-modifier");
    // _bx2 on a texture source: texm* only in 1_1, any in 1_2/1_3.
    bad(
        "ps_1_1\ntex t0\ntexreg2ar t1, t0_bx2\nmov r0, t1\n",
        "src-modifier",
    );
    ok("ps_1_2\ntex t0\ntexreg2ar t1, t0_bx2\nmov r0, t1\n");
    bad(
        "ps_1_1\ntex t0\ntexbem t1, -t0\nmov r0, t1\n",
        "src-modifier",
    );
    bad("ps_1_1\nmov r0.rg, v0\n", "write-mask");
    bad("ps_1_2\ndp3 r0.a, v0, v1\nmov r0.rgb, v0\n", "write-mask");
    ok("ps_1_4\ndp3 r0.a, v0, v1\nmov r0.rgb, v0\n");
    bad("ps_1_4\ntexld r0.rgb, t0\n", "write-mask");
    bad("ps_1_4\ntexcrd r0, t0\n", "write-mask");
    bad("ps_1_4\ntexcrd r0.rg, t0\nmov r0.ba, v0\n", "write-mask");
    bad("ps_1_1\nmov r0, v0.r\n", "source-swizzle");
    bad("ps_1_1\nmov r0, v0.b\n", "source-swizzle");
    bad("ps_1_1\nmov r0.rgb, v0.b\nmov r0.a, v0\n", "source-swizzle");
    ok("ps_1_1\nmov r0.rgb, v0\nmov r0.a, v0.b\n");
    bad("ps_1_4\nmov r0, v0.gbra\n", "source-swizzle");
    ok("ps_1_4\nmov r0, v0.g\n");
    bad(
        "ps_1_1\ntex t0\ntexbem t1, t0.a\nmov r0, t1\n",
        "source-swizzle",
    );
    bad("ps_1_4\ntexld r0, t0.xzy\n", "source-swizzle");
    bad(
        "ps_1_4\ntexld r0, t0\ntexcrd r1.rgb, t0.xyw\nmov r0.a, c0\n",
        "source-swizzle",
    );
    ok("ps_1_4\ntexld r0, t0.xyw\ntexcrd r1.rg, t0_dw.xyw\n");
    bad(
        "ps_1_4\ntexcrd r0.rgb, t0_dz\nmov r0.a, c0\n",
        "src-modifier",
    );
    bad("ps_1_4\ntexld r0, t0_dz\n", "src-modifier");
    bad("ps_1_4\ntexld r0, t0_dw\n", "source-swizzle");
}

#[test]
fn read_ports() {
    bad("ps_1_1\nmad r0, c0, c1, c2\n", "read-port");
    // Three distinct t# are fine from 1_2 on, not in 1_1.
    let three = "tex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n";
    bad(&format!("ps_1_1\n{three}"), "read-port");
    ok(&format!("ps_1_2\n{three}"));
    // 1_4: three r#, but one t# per instruction.
    ok("ps_1_4\ntexld r0, t0\ntexld r1, t1\ntexld r2, t2\nmad r0, r0, r1, r2\n");
    // At most three registers of a file across a co-issued pair.
    bad(
        "ps_1_4\nmad r0.rgb, c0, c1, v0\n+ mad r0.a, c2, c3, v1\n",
        "read-port",
    );
    ok("ps_1_4\nmad r0.rgb, c0, c1, v0\n+ mad r0.a, c2, c1, v1\n");
}

#[test]
fn initialization_and_outputs() {
    bad("ps_1_1\nmov r0, r1\n", "uninitialized-read");
    bad("ps_1_1\nmov r0, t0\n", "uninitialized-read");
    bad(
        "ps_1_1\nmov r0.a, v0\nmov r0.rgb, r0\n",
        "uninitialized-read",
    );
    ok("ps_1_1\nmov r0.rgb, v0\nmov r0.a, r0.b\n");
    // A co-issued instruction reads the values from before its pair.
    bad(
        "ps_1_4\nmov r1.rgb, v0\n+ mov r1.a, r1.b\nmov r0, r1\n",
        "uninitialized-read",
    );
    // Alpha does not survive the phase marker.
    bad(
        "ps_1_4\ntexld r0, t0\nphase\nmov r1, r0\nmov r0, r1\n",
        "uninitialized-read",
    );
    // texcrd .rg loses blue.
    bad(
        "ps_1_4\ntexld r1, t1\nphase\ntexcrd r1.rg, t0_dw.xyw\nmov r0, r1.b\n",
        "uninitialized-read",
    );
    // texdepth reads r5.rg.
    bad(
        "ps_1_4\nmov r0, c0\nphase\ntexdepth r5\nmov r0, c0\n",
        "uninitialized-read",
    );
    // r0 is the result and must be written whole (alpha again after phase).
    bad("ps_1_1\nmov r1, v0\n", "output-required");
    bad("ps_1_1\nmov r0.rgb, v0\n", "output-required");
    bad(
        "ps_1_4\ntexld r0, t0\nphase\nmov r0.rgb, r0\n",
        "output-required",
    );
    bad(
        "ps_1_1\nmov r0, v0\ndef c0, 1, 1, 1, 1\n",
        "declaration-order",
    );
}

#[test]
fn texture_instruction_rules_1_1_to_1_3() {
    bad("ps_1_1\nmov r0, v0\ntex t0\n", "texture-order");
    bad(
        "ps_1_1\ntex t1\ntex t0\nmov r0, t0\n",
        "texture-register-order",
    );
    bad(
        "ps_1_1\ntex t0\ntexcoord t0\nmov r0, t0\n",
        "texture-register-order",
    );
    bad(
        "ps_1_1\ntex t0\ntexbem t1, v0\nmov r0, t1\n",
        "texture-operand",
    );
    bad(
        "ps_1_1\ntex t0\ntexbem t1, t2\nmov r0, t1\n",
        "uninitialized-read",
    );
    bad(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, t1\nmov r0, t3\n",
        "texture-operand",
    );
    // Results that cannot be read: texkill, the pad rows, texm3x2depth.
    bad("ps_1_1\ntexkill t0\nmov r0, t0\n", "texture-result");
    bad(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t1\n",
        "texture-result",
    );
    bad(
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t2\n",
        "texture-result",
    );
    bad(
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov t2, v0\nmov r0, v0\n",
        "texture-result",
    );
    // Data read by texbem is for texbem only ("texbem - ps"); a texbem
    // result cannot address another texture instruction.
    bad(
        "ps_1_1\ntex t0\ntexbem t1, t0\nadd r0, t1, t0\n",
        "texture-result",
    );
    ok("ps_1_1\ntex t0\ntexbem t1, t0\ntexbem t2, t0\nadd r0, t1, t2\n");
    bad(
        "ps_1_1\ntexcoord t0\ntexbem t1, t0\ntexreg2ar t2, t1\nmov r0, t2\n",
        "texture-result",
    );
    // At most one level of dependent reads.
    bad(
        "ps_1_1\ntex t0\ntexreg2ar t1, t0\ntexreg2gb t2, t1\nmov r0, t2\n",
        "dependent-read",
    );
    ok("ps_1_1\ntexcoord t0\ntexreg2ar t1, t0\ntexreg2gb t2, t1\nmov r0, t2\n");
    // texm sequences: back to back, consecutive registers, one source.
    bad(
        "ps_1_1\ntex t0\ntexm3x2tex t1, t0\nmov r0, t1\n",
        "texm-sequence",
    );
    bad(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\nmov r0, t0\n",
        "texm-sequence",
    );
    bad(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\nmov r0, t0\n",
        "texm-sequence",
    );
    bad(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\n",
        "texm-sequence",
    );
    bad(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t3, t0\nmov r0, t3\n",
        "texm-register",
    );
    bad(
        "ps_1_1\ntex t0\ntex t1\ntexm3x2pad t2, t0\ntexm3x2tex t3, t1\nmov r0, t3\n",
        "texm-register",
    );
    // 4 texture slots; texbeml's luminance step takes an arithmetic one.
    let eight = "mov r0, v0\n".repeat(8);
    ok(&format!("ps_1_1\ntex t0\ntexbem t1, t0\n{eight}"));
    bad(
        &format!("ps_1_1\ntex t0\ntexbeml t1, t0\n{eight}"),
        "arithmetic-instructions",
    );
}

#[test]
fn arithmetic_rules() {
    bad(
        "ps_1_1\nmov r0, v0\ncnd r0, r0.b, v0, v1\n",
        "source-swizzle",
    );
    bad("ps_1_1\nmov r1, v0\ncnd r0, r1.a, v0, v1\n", "cnd-source");
    ok("ps_1_4\nmov r1, v0\ncnd r0, r1, v0, v1\n");
    bad("ps_1_1\nlrp r0, -v0, v1, c0\n", "lrp-source");
    ok("ps_1_1\nlrp r0, 1 - v0, v1, c0\n");
    ok("ps_1_4\nlrp r0, -v0, v1, c0\n");
    // Four cmp in 1_2 fit the 8 slots but not the 3-cmp limit.
    let cmp4 = "cmp r0, v0, v1, c0\n".repeat(4);
    bad(&format!("ps_1_2\n{cmp4}"), "instruction-count");
    ok(&format!("ps_1_4\n{cmp4}"));
    bad(
        &format!("ps_1_2\n{}", "dp4 r0, v0, v1\n".repeat(5)),
        "instruction-count",
    );
    bad(
        &format!(
            "ps_1_2\n{}{}",
            "cmp r0, v0, v1, c0\n".repeat(3),
            "add r0, v0, v1\n".repeat(3)
        ),
        "arithmetic-instructions",
    );
    bad(
        &format!("ps_1_1\n{}", "mov r0, v0\n".repeat(9)),
        "arithmetic-instructions",
    );
    ok(&format!(
        "ps_1_1\n{}",
        "mov r0.rgb, v0\n+ mov r0.a, v1\n".repeat(8)
    ));
}

#[test]
fn coissue_rules() {
    bad("ps_1_1\n+ mov r0, v0\n", "coissue");
    bad("ps_1_1\ntex t0\n+ mov r0, t0\n", "coissue");
    bad("ps_1_1\ntex t0\n+ tex t1\nmov r0, t0\n", "coissue");
    bad("ps_1_1\nmov r0.rgb, v0\n+ mov r0, c0\n", "coissue");
    bad(
        "ps_1_1\nmov r0.a, v0\n+ mov r1.a, c0\nmov r0, v0\n",
        "coissue",
    );
    bad(
        "ps_1_1\nmov r0.rgb, v0\n+ mov r1.rgb, c0\nmov r0.a, v0\n",
        "coissue",
    );
    bad(
        "ps_1_1\nmov r0.rgb, v0\n+ mov r0.a, c0\n+ mov r1.a, c1\n",
        "coissue",
    );
    bad("ps_1_1\nnop\n+ mov r0, v0\n", "coissue");
    bad("ps_1_2\nmov r0.rgb, v0\n+ dp4 r0.a, v0, v1\n", "coissue");
    // dp3 needs the colour pipe: its partner writes alpha only.
    ok("ps_1_1\ndp3 r0.rgb, v0, v1\n+ mov r0.a, v0\n");
    bad(
        "ps_1_1\ndp3 r0.rgb, v0, v1\n+ dp3 r1.rgb, v0, v1\nmov r0.a, v0\n",
        "coissue",
    );
    bad("ps_1_1\nmov r0.a, v0\n+ dp3 r0, v0, v1\n", "coissue");
    // 1_4: an alpha-only half and a colour half, any channels, no overlap.
    ok("ps_1_4\nmov r0.a, v0\n+ mov r0.rg, v1\nmov r0.b, c0\n");
    bad(
        "ps_1_4\nmov r0.r, v0\n+ mov r0.g, v1\nmov r0.ba, c0\n",
        "coissue",
    );
    bad(
        "ps_1_4\nmov r0.ra, v0\n+ mov r0.g, v1\nmov r0.b, c0\n",
        "coissue",
    );
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.rg, c0, r1\n+ mov r1.a, c0\nphase\nmov r0, c0\n",
        "coissue",
    );
    bad("ps_1_4\nmov r0.rgb, c0\nphase\n+ mov r0.a, c1\n", "coissue");
}

#[test]
fn ps_1_4_rules() {
    bad(
        "ps_1_4\ntexld r0, t0\nphase\ntexld r1, r0\nphase\nmov r0, r1\n",
        "phase",
    );
    bad("ps_1_4\nmov r0, v0\nphase\nmov r0, c0\n", "phase");
    bad("ps_1_4\ntexkill t0\nphase\nmov r0, v0\n", "phase");
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.rg, c0, r1\nmov r0, c0\n",
        "phase",
    );
    bad(
        "ps_1_4\nmov r5, c0\ntexdepth r5\nmov r0, c0\n",
        "texture-order",
    );
    ok("ps_1_4\nmov r5, c0\nphase\ntexdepth r5\nmov r0, c0\n");
    bad(
        "ps_1_4\nmov r5, c0\nphase\ntexdepth r5\nmov r0, r5\n",
        "texdepth",
    );
    bad(
        "ps_1_4\nmov r4, c0\nphase\ntexdepth r4\nmov r0, c0\n",
        "texdepth",
    );
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.r, c0, r1\nphase\nmov r0, c0\n",
        "bem",
    );
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.rg, v0, r1\nphase\nmov r0, c0\n",
        "phase",
    );
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.rg, r1, c0\nphase\nmov r0, c0\n",
        "bem",
    );
    bad(
        "ps_1_4\ntexld r1, t0\nbem r1.rg, c0, r1\nbem r2.rg, c0, r1\nphase\nmov r0, c0\n",
        "bem",
    );
    // Texture instructions lead each phase; one r# destination each per phase.
    bad("ps_1_4\nmov r0, c0\ntexld r1, t0\n", "texture-order");
    ok("ps_1_4\ntexld r0, t0\nmov r1, r0\nphase\ntexld r2, r1\nmov r0, r2\n");
    bad(
        "ps_1_4\ntexld r0, t0\ntexcrd r0.rgb, t1\n",
        "texture-register-order",
    );
    ok("ps_1_4\ntexld r0, t0\nphase\ntexld r0, r0\n");
    // texld reads r# only in phase 2; a texture result of this phase only
    // after a phase marker.
    bad(
        "ps_1_4\ntexld r0, r1\nphase\nmov r0, c0\n",
        "texture-operand",
    );
    bad(
        "ps_1_4\ntexld r0, t0\ntexld r1, r0\nmov r0, r1\n",
        "dependent-read",
    );
    bad("ps_1_4\ntexld r0, t0\ntexkill r0\n", "dependent-read");
    bad(
        "ps_1_4\ntexcrd r0.rgb, r1\nmov r0.a, c0\n",
        "texture-operand",
    );
    // _dz: texld on r#, phase 2, .xyz, at most twice.
    ok(
        "ps_1_4\ntexcrd r0.rgb, t0\ntexcrd r1.rgb, t1\nphase\ntexld r0, r0_dz\ntexld r1, r1_dz.xyz\n",
    );
    bad(
        "ps_1_4\ntexcrd r0.rgb, t0\ntexcrd r1.rgb, t1\ntexcrd r2.rgb, t2\nphase\ntexld r0, r0_dz\ntexld r1, r1_dz\ntexld r2, r2_dz\n",
        "projective-modifier",
    );
    bad(
        "ps_1_4\ntexcrd r0.rgb, t0\nphase\ntexld r0, r0_dw.xyw\n",
        "src-modifier",
    );
    // Six texture slots and eight arithmetic slots per phase.
    let six =
        "texld r0, t0\ntexld r1, t1\ntexld r2, t2\ntexld r3, t3\ntexld r4, t4\ntexld r5, t5\n";
    ok(&format!("ps_1_4\n{six}"));
    bad(
        &format!("ps_1_4\n{six}texkill t0\n"),
        "texture-instructions",
    );
    let nine = "mov r0, c0\n".repeat(9);
    bad(&format!("ps_1_4\n{nine}"), "arithmetic-instructions");
    bad(
        &format!("ps_1_4\n{nine}phase\nmov r0, c0\n"),
        "arithmetic-instructions",
    );
    ok(&format!(
        "ps_1_4\n{}phase\n{}",
        "mov r0, c0\n".repeat(8),
        "mov r0, c0\n".repeat(8)
    ));
}

// ---------------------------------------------------------------- corpora

/// The limits of a 9_1 device, as the device derives them from its caps.
fn level_9_1_limits() -> ShaderLimits {
    Caps::for_level(FeatureLevel::L9_1)
        .expect("9_1")
        .shader_limits(FeatureLevel::L9_1, false)
}

fn is_ps1(p: &Program) -> bool {
    p.version.is_pixel() && p.version.is_sm1()
}

/// fxc's own count: "approximately N instruction slots used (T texture, A arithmetic)".
fn fxc_slots(listing: &str) -> Option<(u32, Option<(u32, u32)>)> {
    let line = listing.lines().find(|l| l.contains("approximately"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let total = words.get(2)?.parse().ok()?;
    let split = line.split_once('(').and_then(|(_, rest)| {
        let nums: Vec<u32> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        Some((*nums.first()?, *nums.get(1)?))
    });
    Some((total, split))
}

#[test]
fn fxc_corpus_ps1_programs_validate_at_9_1() {
    let Some(corpus) = shader_support::load_corpus() else {
        return;
    };
    let limits = level_9_1_limits();
    // The device an application would create them on: Warp at 9_1.
    let mut device = Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::L9_1],
        back_buffer: (64, 64, Format::A8R8G8B8),
        ..DeviceDesc::default()
    })
    .expect("9_1 device");
    let mut total = 0;
    let mut failures = Vec::new();
    let mut slots = (0, 0);
    for s in &corpus {
        let p = shader::decode(&s.tokens).expect("decode");
        if !is_ps1(&p) {
            continue;
        }
        total += 1;
        if let Err(e) = device.create_pixel_shader(&s.tokens) {
            failures.push(format!("{}: CreatePixelShader at 9_1: {e}", s.name));
        }
        match shader::validate(&p, &limits) {
            Ok(info) => {
                if let Some((n, split)) = s.listing.as_deref().and_then(fxc_slots) {
                    slots.1 += 1;
                    let ours = (info.texture_instructions, info.arithmetic_slots);
                    if n == info.instruction_slots && split.is_none_or(|t| t == ours) {
                        slots.0 += 1;
                    } else {
                        failures.push(format!("{}: slots {ours:?}, fxc {n} {split:?}", s.name));
                    }
                }
            }
            Err(e) => failures.push(format!("{}: {e}", s.name)),
        }
    }
    println!(
        "ps_1_x programs valid at 9_1: {}/{total}; slot counts equal to fxc's: {}/{}",
        total - failures.len(),
        slots.0,
        slots.1
    );
    assert!(
        total >= 41,
        "the corpus has 41 ps_1_x programs, found {total}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fxc_corpus_ps1_round_trip_validates_the_same() {
    let Some(corpus) = shader_support::load_corpus() else {
        return;
    };
    let mut n = 0;
    for s in &corpus {
        let p = shader::decode(&s.tokens).expect("decode");
        if !is_ps1(&p) {
            continue;
        }
        let text = p.disassemble();
        let again = shader::assemble(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", s.name));
        let q = shader::decode(&again).expect("decode the reassembled program");
        assert_eq!(
            shader::validate(&q, &L91),
            shader::validate(&p, &L91),
            "{}\n{text}",
            s.name
        );
        n += 1;
    }
    println!("disassembled, reassembled and validated the same: {n} ps_1_x programs");
}

/// Wine's d3d9 visual tests create these ps_1_x shaders on real drivers.
#[test]
fn wine_ps1_shaders_validate() {
    let base = match std::env::var_os("WARP9_CONFORMANCE_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    };
    let dir = base.join("wine-d3d9");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "skipping: Wine conformance data not found at {}",
            dir.display()
        );
        return;
    };
    let mut names: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    names.sort();
    let mut seen = std::collections::BTreeSet::new();
    for path in names
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
    {
        let text = std::fs::read_to_string(path).expect("read");
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        for case in v["cases"].as_array().into_iter().flatten() {
            let sh = &case["shaders"]["pixel"];
            let Some(dwords) = sh["dwords"].as_array() else {
                continue;
            };
            let tokens: Option<Vec<u32>> = dwords
                .iter()
                .map(|d| match d {
                    serde_json::Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
                    serde_json::Value::String(s) => {
                        u32::from_str_radix(s.trim_start_matches("0x"), 16).ok()
                    }
                    _ => None,
                })
                .collect();
            let Some(tokens) = tokens else { continue };
            let Ok(p) = shader::decode(&tokens) else {
                continue;
            };
            if !is_ps1(&p) || !seen.insert(tokens) {
                continue;
            }
            if let Err(e) = shader::validate(&p, &L91) {
                panic!(
                    "{} {}: {e}\n{}",
                    path.display(),
                    sh["name"],
                    p.disassemble()
                );
            }
        }
    }
    println!("Wine ps_1_x shaders valid: {}", seen.len());
    assert!(
        seen.len() >= 15,
        "expected Wine's ps_1_x shaders, found {}",
        seen.len()
    );
}

/// Validation runs on fuzzed bytecode: mutations of valid ps_1_x programs
/// never panic, and whatever validates disassembles and reassembles.
#[test]
fn mutated_ps1_programs_never_panic() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut valid = 0;
    let texts: Vec<&str> = [PS11, PS13, PS14, PS14_FLAT]
        .into_iter()
        .chain(PS11_TEXM.iter().copied())
        .chain(PS12.iter().copied())
        .collect();
    for text in texts {
        let tokens = shader::assemble(text).expect("assemble");
        for _ in 0..400 {
            let mut t = tokens.clone();
            for _ in 0..1 + next() % 3 {
                let k = 1 + (next() as usize) % (t.len() - 1);
                t[k] ^= 1 << (next() % 32);
            }
            let Ok(p) = shader::decode(&t) else { continue };
            for l in ShaderLimits::ALL_LEVELS {
                if shader::validate(&p, &l).is_ok() {
                    valid += 1;
                    let again = shader::assemble(&p.disassemble()).expect("reassemble");
                    assert_eq!(again, p.encode_without_comments().unwrap());
                }
            }
        }
    }
    assert!(valid > 0);
}
