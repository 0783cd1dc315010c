//! The `warp9` command line: caps JSON per level against caps.md's values,
//! device creation as the issue's must-show list states, and bad arguments.

use std::process::Command;

fn warp9(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warp9"))
        .args(args)
        .output()
        .expect("the warp9 binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn caps_json_prints_all_69_members_with_their_d3d9_names() {
    for level in ["9_1", "9_2", "9_3", "sm3"] {
        let (code, out, err) = warp9(&["caps", "--level", level, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        let obj = v.as_object().expect("object");
        assert_eq!(obj.len(), 69, "level {level}");
        let caps = warp9::Caps::for_level(level.parse().unwrap()).unwrap();
        assert_eq!(v, caps.to_json());
        assert!(obj["VS20Caps"].is_object() && obj["PS20Caps"]["NumInstructionSlots"].is_number());
    }
    let (_, out, _) = warp9(&["caps", "--level", "9_1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["MaxTextureWidth"], 2048);
    assert_eq!(v["TextureAddressCaps"], 0x17);
    assert_eq!(v["PixelShaderVersion"], 0xFFFF_0200u32);
    assert_eq!(v["MaxVertexW"], 0.0);
}

/// Checked against the spec's own data file when it is beside the repo.
#[test]
fn caps_json_equals_the_spec_values_file() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/caps-values.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} is not present", path.display());
        return;
    };
    let spec: serde_json::Value = serde_json::from_str(&text).unwrap();
    for level in ["9_1", "9_2", "9_3", "sm3"] {
        let (_, out, _) = warp9(&["caps", "--level", level, "--json"]);
        let ours: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(ours, spec[level], "level {level}");
    }
}

#[test]
fn caps_diff_lists_what_changes() {
    let (code, out, _) = warp9(&["caps", "--diff", "9_2", "9_3"]);
    assert_eq!(code, 0);
    assert!(out.contains("NumSimultaneousRTs"), "{out}");
    assert!(out.contains("MaxTextureWidth"));
    assert!(!out.contains("MaxStreams"));
}

#[test]
fn create_walks_drivers_then_levels() {
    let levels = "11_0,10_1,10_0,9_3,9_2,9_1";
    let (code, out, _) = warp9(&[
        "create",
        "--levels",
        levels,
        "--drivers",
        "hardware,warp,reference",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"driver":"warp","level":"9_3"}"#);
    let with_sm3 = format!("sm3,{levels}");
    let (_, out, _) = warp9(&[
        "create",
        "--levels",
        &with_sm3,
        "--drivers",
        "hardware,warp,reference",
        "--json",
    ]);
    assert_eq!(out.trim(), r#"{"driver":"warp","level":"sm3"}"#);
    let (_, out, _) = warp9(&[
        "create",
        "--levels",
        "9_2",
        "--drivers",
        "reference",
        "--json",
    ]);
    assert_eq!(out.trim(), r#"{"driver":"reference","level":"9_2"}"#);
}

#[test]
fn create_failures_name_what_was_tried() {
    let (code, _, err) = warp9(&[
        "create",
        "--levels",
        "11_0,10_1,10_0,9_3,9_2,9_1",
        "--drivers",
        "hardware",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("hardware at 9_3") && err.contains("NOTAVAILABLE"),
        "{err}"
    );
    let (code, _, err) = warp9(&[
        "create",
        "--levels",
        "10_0",
        "--drivers",
        "hardware,warp,reference",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("warp at 10_0") && err.contains("reference at 10_0"),
        "{err}"
    );
}

#[test]
fn bad_arguments_exit_non_zero_with_a_message() {
    for args in [
        &["caps", "--level", "9_9"][..],
        &["caps", "--level", "10_0"],
        &["caps"],
        &["create", "--drivers", "gpu"],
        &["create", "--vertex-processing", "quantum"],
        &["frobnicate"],
        &["disasm", "/nonexistent/file.bin"],
    ] {
        let (code, _, err) = warp9(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn shader_tools_round_trip() {
    let dir = std::env::temp_dir().join(format!("warp9-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("a.asm");
    std::fs::write(
        &src,
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )
    .unwrap();
    let (code, out, err) = warp9(&["asm", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("DWORDs"));
    let bin = dir.join("a.bin");
    let (code, out, _) = warp9(&["disasm", bin.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("texld r0, t0, s0"), "{out}");
    let (code, out, _) = warp9(&["validate", bin.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("valid at level 9_1"), "{out}");
    // vs_3_0 is valid at 9_1 only under software vertex processing.
    let vs = dir.join("vs.asm");
    std::fs::write(
        &vs,
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
    )
    .unwrap();
    let (code, _, _) = warp9(&["asm", vs.to_str().unwrap()]);
    assert_eq!(code, 0);
    let vs_bin = dir.join("vs.bin");
    let (code, _, err) = warp9(&["validate", "--level", "9_1", vs_bin.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("VertexShaderVersion"), "{err}");
    let (code, out, _) = warp9(&[
        "validate",
        "--level",
        "9_1",
        "--software-vp",
        vs_bin.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("software vertex processing"), "{out}");
    // ps_1_x validates (at the lowest level, 9_1); a broken one names its rule.
    let ps14 = dir.join("ps14.asm");
    std::fs::write(
        &ps14,
        "ps_1_4\ntexld r0, t0\nmad r0.xy, r0.x, c2.x, c2.y\nphase\ntexld r1, r0\nmad r0, r1, v1, v0\n",
    )
    .unwrap();
    let (code, _, err) = warp9(&["asm", ps14.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = warp9(&["validate", dir.join("ps14.bin").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("valid at level 9_1"), "{out}");
    let ps11 = dir.join("ps11.asm");
    std::fs::write(&ps11, "ps_1_1\nmov r0, t0\n").unwrap();
    let (code, _, _) = warp9(&["asm", ps11.to_str().unwrap()]);
    assert_eq!(code, 0);
    let (code, _, err) = warp9(&["validate", dir.join("ps11.bin").to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("rule uninitialized-read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_tools_read_standard_input() {
    use std::io::Write;
    use std::process::Stdio;
    let run = |args: &[&str], input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warp9"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code().unwrap_or(-1), out.stdout)
    };
    let (code, bytes) = run(&["asm", "-"], b"ps_2_0\nmov oC0, c0\n");
    assert_eq!(code, 0);
    assert_eq!(bytes.len() % 4, 0);
    assert_eq!(&bytes[0..4], &0xFFFF_0200u32.to_le_bytes());
    let (code, text) = run(&["disasm", "-"], &bytes);
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8(text).unwrap(), "ps_2_0\nmov oC0, c0\n");
    let (code, _) = run(&["validate", "--level", "9_1", "-"], &bytes);
    assert_eq!(code, 0);
    let (code, _) = run(&["disasm", "-"], &[1, 2, 3]);
    assert_ne!(code, 0);
}
