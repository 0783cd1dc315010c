//! The D3D9 conformance harness over Wine's visual tests as data
//! (`shared/conformance/wine-d3d9`, layout in its README).
//!
//! Every case of every file is parsed, then replayed through the public
//! API on a fresh Warp device and a fresh Reference device at the lowest
//! feature level that meets its requirements (see `conformance/requires.rs`
//! for how stated and derived requirements map to the four levels), and its
//! probes are read back with the case's tolerance. A case passes when every
//! probe matches on both drivers. It is skipped only when no level meets its
//! requirements; everything else that does not match — wrong pixels or an
//! API error during replay (a shader the device refuses included) — fails
//! visibly.
//!
//! The run prints one line per test function, the failed probes (a few per
//! case), a breakdown by level and the closing `N passed, M failed, K
//! skipped`; `cargo test --test conformance -- --nocapture` shows it, and the
//! same report is written to `conformance-report.txt` in Cargo's test temp
//! directory.
//!
//! The reader is complete for the README's layout: every requirement form
//! (shader versions, numeric D3DCAPS9 comparisons, `Member & FLAGS`, bare
//! flags of every `d3d9caps.h` family, format-support phrasings), every
//! value form (DWORD strings, OR-expressions of names and numbers, floats
//! and `{"expr", "value"}` for float states, names with remarks) and every
//! documented key, explicit `lights` and `material` included. A key, name
//! or form outside the README is a parse failure that names it, never a
//! silent skip; `conformance/*_tests.rs` hold a test per form.
//!
//! What the test asserts, so CI stays green while features are missing:
//! (a) no case panics (each runs under `catch_unwind` and is named if it
//! does), (b) every case of every file parses (a parse failure is a harness
//! bug or an unlearnt data change), (c) no case fails and (d) over the
//! shared data, at least [`FLOOR`] cases pass. **`FLOOR` is today's pass count: raise it whenever
//! a feature lands**, so a regression in a passing case fails CI.
//!
//! Data location: `WARP9_WINE_D3D9_DIR`, else
//! `../shared/conformance/wine-d3d9` beside the crate; [`run_dir`] runs
//! and reports any such directory the same way (a test writes one). Without
//! the data the test prints one line and passes, unless `WARP9_REQUIRE_CONFORMANCE=1`
//! (CI), where missing data is a failure. The data is never copied here.

#[path = "conformance/case.rs"]
mod case;
#[cfg(test)]
#[path = "conformance/case_tests.rs"]
mod case_tests;
#[path = "conformance/json.rs"]
mod json;
#[path = "conformance/keys.rs"]
mod keys;
#[path = "conformance/lighting.rs"]
mod lighting;
#[path = "conformance/names/mod.rs"]
mod names;
#[path = "conformance/probe.rs"]
mod probe;
#[path = "conformance/replay.rs"]
mod replay;
#[path = "conformance/requires.rs"]
mod requires;
#[cfg(test)]
#[path = "conformance/requires_tests.rs"]
mod requires_tests;
#[path = "conformance/texture.rs"]
mod texture;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use warp9::{DriverType, FeatureLevel};

use case::{Case, Suite};
use replay::{Replay, Stop};

/// Cases that must pass; today's count. Raise it as features land.
const FLOOR: usize = 244;

const LEVELS: [FeatureLevel; 4] = FeatureLevel::SUPPORTED;
const DRIVERS: [DriverType; 2] = [DriverType::Warp, DriverType::Reference];

enum Outcome {
    Passed,
    Failed(Vec<String>),
    Skipped(String),
}

fn data_dir() -> PathBuf {
    data_dir_from(std::env::var_os("WARP9_WINE_D3D9_DIR"))
}

/// The case directory: the variable's value when set, else the shared data beside the crate.
fn data_dir_from(var: Option<std::ffi::OsString>) -> PathBuf {
    match var {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/wine-d3d9"),
    }
}

/// The lowest level meeting every requirement, or why there is none.
fn choose_level(
    suite: &Suite,
    case: &Case,
    probes: &[warp9::Device],
) -> Result<FeatureLevel, Outcome> {
    let reqs = requires::case_reqs(suite, case)
        .map_err(|e| Outcome::Failed(vec![format!("requirement: {e}")]))?;
    for (level, device) in LEVELS.iter().zip(probes) {
        if reqs.iter().all(|r| requires::met(r, device)) {
            return Ok(*level);
        }
    }
    let top = probes.last().expect("four levels");
    let unmet: Vec<String> = reqs
        .iter()
        .filter(|r| !requires::met(r, top))
        .map(ToString::to_string)
        .collect();
    Err(Outcome::Skipped(format!(
        "no level has {}",
        unmet.join(", ")
    )))
}

fn run_case(case: &Case, level: FeatureLevel) -> Outcome {
    let mut lines = Vec::new();
    for driver in DRIVERS {
        match Replay::run(case, driver, level) {
            Err(Stop::Fail(why)) => lines.push(format!("{driver:?} at {level}: {why}")),
            Ok(replay) => {
                let failures = probe::check(&replay, &case.expect);
                let n = failures.len();
                for f in failures.into_iter().take(probe::DETAIL_LINES) {
                    lines.push(format!("{driver:?} at {level}: {f}"));
                }
                if n > probe::DETAIL_LINES {
                    lines.push(format!(
                        "{driver:?} at {level}: ... and {} more probes",
                        n - probe::DETAIL_LINES
                    ));
                }
            }
        }
    }
    if lines.is_empty() {
        Outcome::Passed
    } else {
        Outcome::Failed(lines)
    }
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    skipped: usize,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        match o {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed(_) => self.failed += 1,
            Outcome::Skipped(_) => self.skipped += 1,
        }
    }
}

/// What one run over a directory of case files found.
struct Report {
    total: Tally,
    /// Files that do not parse, each with the first error (names the case and form).
    parse_errors: Vec<String>,
    /// Cases that panicked.
    panics: Vec<String>,
    /// The printed report: a line per test function, details, levels, totals.
    text: String,
}

/// Parses and runs every `*.json` case file of `dir` (sorted by name) and
/// reports as the README's harness does; the `#[test]` over the shared
/// data and the tests over written directories both call this.
fn run_dir(dir: &Path) -> Report {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no case files in {}", dir.display());

    let level_devices: Vec<warp9::Device> = LEVELS
        .iter()
        .map(|&l| replay::fresh_device(DriverType::Warp, l).expect("a device at every level"))
        .collect();

    let mut report = String::new();
    let mut details = String::new();
    let mut parse_errors = Vec::new();
    let mut panics = Vec::new();
    let mut total = Tally::default();
    let mut by_level: BTreeMap<String, Tally> = BTreeMap::new();
    for path in &files {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let text = std::fs::read_to_string(path).expect("read a case file");
        let suite = match case::suite(&text) {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(report, "{file}: does not parse: {e}");
                parse_errors.push(format!("{file}: {e}"));
                continue;
            }
        };
        let mut tally = Tally::default();
        for case in &suite.cases {
            let (level, outcome) = match choose_level(&suite, case, &level_devices) {
                Err(o) => ("none".to_string(), o),
                Ok(level) => {
                    let run = catch_unwind(AssertUnwindSafe(|| run_case(case, level)));
                    let outcome = run.unwrap_or_else(|p| {
                        let msg = p
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        panics.push(format!("{}: {}: {msg}", suite.function, case.name));
                        Outcome::Failed(vec![format!("PANIC: {msg}")])
                    });
                    (level.to_string(), outcome)
                }
            };
            tally.add(&outcome);
            total.add(&outcome);
            by_level.entry(level).or_default().add(&outcome);
            match &outcome {
                Outcome::Failed(lines) => {
                    for l in lines {
                        let _ = writeln!(details, "  FAIL {}: {}: {l}", suite.function, case.name);
                    }
                }
                Outcome::Skipped(why) => {
                    let _ = writeln!(details, "  skip {}: {}: {why}", suite.function, case.name);
                }
                Outcome::Passed => {}
            }
        }
        let _ = writeln!(
            report,
            "{}: {} passed, {} failed, {} skipped",
            suite.function, tally.passed, tally.failed, tally.skipped
        );
    }
    let _ = writeln!(report, "details:\n{details}by level:");
    for (level, t) in &by_level {
        let _ = writeln!(
            report,
            "  {level}: {} passed, {} failed, {} skipped",
            t.passed, t.failed, t.skipped
        );
    }
    let _ = writeln!(
        report,
        "{} passed, {} failed, {} skipped",
        total.passed, total.failed, total.skipped
    );
    Report {
        total,
        parse_errors,
        panics,
        text: report,
    }
}

#[test]
fn wine_d3d9_conformance() {
    let dir = data_dir();
    let required = std::env::var("WARP9_REQUIRE_CONFORMANCE").is_ok_and(|v| v == "1");
    if !dir.is_dir() {
        assert!(
            !required,
            "WARP9_REQUIRE_CONFORMANCE=1 but the wine-d3d9 data is not at {}",
            dir.display()
        );
        println!(
            "conformance: skipping, no wine-d3d9 data at {} (set WARP9_WINE_D3D9_DIR)",
            dir.display()
        );
        return;
    }
    let report = run_dir(&dir);
    println!("{}", report.text);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-report.txt");
    let _ = std::fs::write(&out, &report.text);

    assert!(
        report.parse_errors.is_empty(),
        "case files that do not parse (harness bug):\n{}",
        report.parse_errors.join("\n")
    );
    assert!(
        report.panics.is_empty(),
        "cases panicked:\n{}",
        report.panics.join("\n")
    );
    assert_eq!(
        report.total.failed, 0,
        "cases failed (see FAIL lines above and conformance-report.txt)"
    );
    // The floor is the shared data's pass count; another directory given
    // by WARP9_WINE_D3D9_DIR is reported and checked the same way, but
    // holds other cases.
    if std::env::var_os("WARP9_WINE_D3D9_DIR").is_none() {
        assert!(
            report.total.passed >= FLOOR,
            "{} cases passed, below the floor of {FLOOR}",
            report.total.passed
        );
    }
}

/// A case of the written directory: a lit full-screen quad with the forms
/// the shared files do not use (caps comparisons, bare flags, a texture
/// format requirement, explicit lights and material, OR-expressions,
/// D3DVBF names), expecting `expect` at the centre.
fn written_case(name: &str, requires: &[&str], expect: &str) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "source_lines": [1, 1],
        "requires": requires,
        "render_target": {"width": 640, "height": 480, "format": "D3DFMT_A8R8G8B8",
                          "depth_stencil": "D3DFMT_D24S8 (auto)"},
        "viewport": {"x": 0, "y": 0, "width": 640, "height": 480, "min_z": 0.0, "max_z": 1.0},
        "clear": {"flags": "D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER", "color": "0xff000000",
                  "z": 1.0, "stencil": 0},
        "shaders": {"vertex": null, "pixel": null},
        "states": {"render": {
            "D3DRS_CULLMODE": "D3DCULL_NONE",
            "D3DRS_VERTEXBLEND": "D3DVBF_DISABLE",
            "D3DRS_COLORWRITEENABLE": "D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_GREEN | D3DCOLORWRITEENABLE_ALPHA"
        }},
        "lights": {"1": {"enabled": true, "set_light_called": true, "Type": "D3DLIGHT_DIRECTIONAL",
                         "Diffuse": [1.0, 1.0, 0.0, 1.0], "Direction": [0.0, 0.0, 1.0]}},
        "material": {"Diffuse": [0.0, 1.0, 1.0, 1.0], "Ambient": [0.0, 0.0, 0.0, 0.0],
                     "Specular": [0.0, 0.0, 0.0, 0.0], "Emissive": [0.0, 0.0, 0.0, 0.0],
                     "Power": 0.0},
        "draws": [{"method": "DrawPrimitiveUP", "primitive": "D3DPT_TRIANGLESTRIP",
                   "primitive_count": 2, "fvf": "D3DFVF_XYZ | D3DFVF_NORMAL",
                   "vertices": [[-1.0, -1.0, 0.5, 0.0, 0.0, -1.0], [-1.0, 1.0, 0.5, 0.0, 0.0, -1.0],
                                [1.0, -1.0, 0.5, 0.0, 0.0, -1.0], [1.0, 1.0, 0.5, 0.0, 0.0, -1.0]]}],
        "expect": [{"x": 320, "y": 240, "color": expect, "tolerance": 1}],
        "notes": "written by the harness's own test"
    })
}

/// `WARP9_WINE_D3D9_DIR` names another directory; the run over it reports
/// as over the shared data: per function, details, levels, totals, and
/// files that do not parse named with their first unknown form.
#[test]
fn another_directory_reports_the_same_way() {
    assert_eq!(
        data_dir_from(Some("/elsewhere/cases".into())),
        PathBuf::from("/elsewhere/cases")
    );
    assert!(data_dir_from(None).ends_with("shared/conformance/wine-d3d9"));

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wine-d3d9-written");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the case directory");
    let suite = |function: &str, requires: &[&str], cases: Vec<serde_json::Value>| {
        serde_json::json!({
            "test_function": function,
            "source": {"repo": "warp9", "path": "tests/conformance.rs", "function": function,
                       "function_lines": [1, 1], "snapshot": "test"},
            "summary": "cases written by the harness test",
            "requires": requires,
            "cases": cases
        })
        .to_string()
    };
    // Yellow light on a cyan material: green (blue is masked anyway, over a black clear).
    let lit = suite(
        "lit_forms",
        &["MaxPointSize >= 63"],
        vec![
            written_case(
                "green",
                &[
                    "MaxVertexBlendMatrices >= 4",
                    "TextureOpCaps & D3DTEXOPCAPS_DISABLE",
                    "D3DTEXOPCAPS_SELECTARG1",
                    "D3DPTEXTURECAPS_CUBEMAP",
                    "D3DFMT_A8R8G8B8 supported as a texture format",
                ],
                "0x0000ff00",
            ),
            written_case("wrong colour", &[], "0x00ff0000"),
            written_case("no level", &["MaxPointSize >= 100000"], "0x0000ff00"),
        ],
    );
    let mut broken = written_case("broken", &[], "0x0");
    broken["expect"][0]["colour"] = "0x0".into();
    let broken = suite("broken_forms", &[], vec![broken]);
    std::fs::write(dir.join("a_lit.json"), lit).expect("write a case file");
    std::fs::write(dir.join("b_broken.json"), broken).expect("write a case file");
    std::fs::write(dir.join("README.md"), "not a case file").expect("write the readme");

    let report = run_dir(&dir);
    let t = &report.total;
    assert_eq!(
        (t.passed, t.failed, t.skipped),
        (1, 1, 1),
        "{}",
        report.text
    );
    assert!(report.panics.is_empty());
    assert_eq!(report.parse_errors.len(), 1, "{:?}", report.parse_errors);
    let e = &report.parse_errors[0];
    assert!(
        e.starts_with("b_broken.json: ") && e.contains("\"colour\""),
        "{e}"
    );
    for line in [
        "lit_forms: 1 passed, 1 failed, 1 skipped\n",
        "b_broken.json: does not parse: ",
        "  FAIL lit_forms: wrong colour: Warp at 9_1: (320,240) on backbuffer: expected 0x00ff0000",
        "  skip lit_forms: no level: no level has MaxPointSize >= 100000\n",
        "1 passed, 1 failed, 1 skipped\n",
    ] {
        assert!(
            report.text.contains(line),
            "{line:?} not in\n{}",
            report.text
        );
    }
}
