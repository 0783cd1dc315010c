//! Panics found in `src/` while writing the bad-input tests, one test each,
//! named after the call. Each panics until the bug is fixed. They carry
//! `#[ignore = "bug: ..."]` only because a failing test binary stops a plain
//! `cargo test` before the later binaries run; `cargo test --test
//! regressions -- --ignored` shows them. Remove the `ignore` with the fix.

use warp9::resource::Box3;
use warp9::{Device, DeviceDesc, DriverType, FeatureLevel, Format, Pool, Usage};

fn device() -> Device {
    Device::create(&DeviceDesc {
        drivers: &[DriverType::Warp],
        levels: &[FeatureLevel::Sm3],
        back_buffer: (16, 16, Format::A8R8G8B8),
        memory_budget: Some(1 << 20),
        ..DeviceDesc::default()
    })
    .expect("device")
}

/// `Surface::write_rect` computes `(rows - 1) * pitch` unchecked
/// (`Surface::write_rect_unchecked`, src/resource/surface.rs): a huge pitch
/// overflows `usize` and panics instead of returning InvalidCall.
#[test]

fn surface_write_rect_with_a_huge_pitch_is_invalid_call() {
    let mut d = device();
    let t = d
        .create_texture(4, 4, 1, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
        .expect("texture");
    let r = t.write_level(0, None, &[0; 64], usize::MAX / 2);
    assert_eq!(
        r.err().map(|e| e.kind()),
        Some(warp9::ErrorKind::InvalidCall)
    );
}

/// `UpdateTexture` rounds the dirty box up per level with
/// `dirty.right + (1 << level) - 1` in u32 (src/api/copy.rs): a dirty box
/// reaching u32::MAX, which `add_dirty_box` accepts, overflows and panics.
#[test]

fn update_texture_with_a_huge_dirty_box_does_not_panic() {
    let mut d = device();
    let src = d
        .create_texture(8, 8, 0, Usage::empty(), Format::A8R8G8B8, Pool::SystemMem)
        .expect("src");
    let dst = d
        .create_texture(8, 8, 0, Usage::empty(), Format::A8R8G8B8, Pool::Default)
        .expect("dst");
    src.add_dirty_box(Some(Box3 {
        left: 0,
        top: 0,
        right: u32::MAX,
        bottom: u32::MAX,
        front: 0,
        back: 1,
    }));
    d.update_texture(&(&src).into(), &(&dst).into())
        .expect("the dirty box is clipped to each level");
}

/// Found by `cargo fuzz run shader_decode`: a sampler declaration with an
/// empty write mask validated, but its disassembly (`dcl_2d s0`) assembles
/// back with `.xyzw`, breaking the round trip. Such declarations are invalid.
#[test]
fn sampler_declarations_need_a_full_write_mask() {
    use warp9::shader::{ShaderLimits, decode, validate};
    let program = |mask: u32| {
        vec![
            0xFFFF_0300,                // ps_3_0
            0x0200_001F,                // dcl
            0x9000_0000,                // _2d
            0xA000_0800 | (mask << 16), // s0 with `mask`
            0x0200_0001,                // mov
            0x800F_0800,                // oC0
            0xA0E4_0000,                // c0
            0x0000_FFFF,
        ]
    };
    let bad = decode(&program(0)).expect("decodes");
    let e = validate(&bad, &ShaderLimits::sm3()).expect_err("empty sampler mask");
    assert_eq!(e.rule, "declaration");
    let good = decode(&program(0xF)).expect("decodes");
    assert!(validate(&good, &ShaderLimits::sm3()).is_ok());
    let text = good.disassemble();
    assert_eq!(warp9::shader::assemble(&text).unwrap(), program(0xF));
}

/// Found by `cargo fuzz run shader_asm`: the assembler accepted relative
/// addressing on a dcl destination (`dcl_texcoord1 c5[a0.y]`), emitting
/// bytecode the decoder rejects. Whatever assembles must decode.
#[test]
fn the_assembler_refuses_relative_addressing_where_the_decoder_does() {
    let bad = "vs_3_0\ndcl_texcoord1 c5[a0.y]\nmov o0, v0\n";
    let e = warp9::shader::assemble(bad).expect_err("relative dcl destination");
    assert!(e.message.contains("relative addressing"), "{e}");
    assert!(warp9::shader::assemble("vs_1_1\nmov r0[a0.x], v0\n").is_err());
    // Relative destinations of SM2+ instructions stay legal and round-trip.
    let ok = warp9::shader::assemble(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmova a0.x, v0.x\nmov o0, v0\n",
    )
    .unwrap();
    assert_eq!(warp9::shader::decode(&ok).unwrap().encode().unwrap(), ok);
}

/// Found by `cargo fuzz run shader_asm` (vocabulary inputs): the assembler
/// took `(c[a0.w + 2])` as an instruction predicate, emitting a predicate
/// token with relative addressing, which the decoder rejects.
#[test]
fn the_assembler_refuses_a_relatively_addressed_predicate() {
    let bad = "vs_2_x\ndcl_2d s15\n(c[a0.w + 2]) else\nret\n";
    let e = warp9::shader::assemble(bad).expect_err("relative predicate");
    assert!(e.message.contains("relative addressing"), "{e}");
    // An ordinary predicate still assembles and round-trips.
    let ok = warp9::shader::assemble(
        "vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\n(!p0.x) mov r0, v0\nmov oPos, r0\n",
    )
    .unwrap();
    assert_eq!(warp9::shader::decode(&ok).unwrap().encode().unwrap(), ok);
}

/// Found by `cargo fuzz run shader_decode`: `texkill` with an empty
/// component mask validated, but disassembles as `texkill r0` (all
/// components), so it could not round-trip. It is invalid now.
#[test]
fn texkill_needs_a_component_mask() {
    use warp9::shader::{ShaderLimits, decode, validate};
    let program = |mask: u32| {
        // ps_2_0; dcl t0; texkill t0.<mask>; mov oC0, c0
        vec![
            0xFFFF_0200,
            0x0200_001F,
            0x8000_0000,
            0xB00F_0000,
            0x0100_0041,
            0xB000_0000 | (mask << 16),
            0x0200_0001,
            0x800F_0800,
            0xA0E4_0000,
            0x0000_FFFF,
        ]
    };
    let bad = decode(&program(0)).expect("decodes");
    let e = validate(&bad, &ShaderLimits::level_9_1()).expect_err("empty texkill mask");
    assert_eq!(e.rule, "write-mask");
    let good = decode(&program(0xF)).expect("decodes");
    validate(&good, &ShaderLimits::level_9_1()).expect("texkill t0 is valid");
    assert_eq!(
        warp9::shader::assemble(&good.disassemble()).unwrap(),
        program(0xF)
    );
}
