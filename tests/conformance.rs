//! The D3D9 conformance harness over Wine's visual tests as data
//! (`shared/conformance/wine-d3d9`, layout in its README).
//!
//! Every case of every file is parsed, then replayed through the public
//! API on a fresh Warp device and a fresh Reference device at the lowest
//! feature level that meets its requirements (see `conformance/requires.rs`
//! for how stated and derived requirements map to the four levels), and its
//! probes are read back with the case's tolerance. A case passes when every
//! probe matches on both drivers. It is skipped only when no level meets its
//! requirements or it needs a ps_1_x shader that the device refuses as
//! NotAvailable (ps_1_x does not run yet; vs_1_1 does); everything else that does
//! not match — wrong pixels or an API error during replay — fails visibly.
//!
//! The run prints one line per test function, the failed probes (a few per
//! case), a breakdown by level and the closing `N passed, M failed, K
//! skipped`; `cargo test --test conformance -- --nocapture` shows it, and the
//! same report is written to `conformance-report.txt` in Cargo's test temp
//! directory.
//!
//! What the test asserts, so CI stays green while features are missing:
//! (a) no case panics (each runs under `catch_unwind` and is named if it
//! does), (b) every case of every file parses (a parse failure is a harness
//! bug or an unlearnt data change), and (c) at least [`FLOOR`] cases pass.
//! **`FLOOR` is today's pass count: raise it whenever a feature lands**, so a
//! regression in a passing case fails CI.
//!
//! Data location: `WARP9_WINE_D3D9_DIR`, else
//! `../shared/conformance/wine-d3d9` beside the crate. Without the data the
//! test prints one line and passes, unless `WARP9_REQUIRE_CONFORMANCE=1`
//! (CI), where missing data is a failure. The data is never copied here.

#[path = "conformance/case.rs"]
mod case;
#[path = "conformance/names.rs"]
mod names;
#[path = "conformance/probe.rs"]
mod probe;
#[path = "conformance/replay.rs"]
mod replay;
#[path = "conformance/requires.rs"]
mod requires;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use warp9::{DriverType, FeatureLevel};

use case::{Case, Suite};
use replay::{Replay, Stop};

/// Cases that must pass; today's count. Raise it as features land.
const FLOOR: usize = 179;

const LEVELS: [FeatureLevel; 4] = FeatureLevel::SUPPORTED;
const DRIVERS: [DriverType; 2] = [DriverType::Warp, DriverType::Reference];

enum Outcome {
    Passed,
    Failed(Vec<String>),
    Skipped(String),
}

fn data_dir() -> PathBuf {
    match std::env::var_os("WARP9_WINE_D3D9_DIR") {
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
            Err(Stop::Skip(why)) => return Outcome::Skipped(why),
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
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
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
    println!("{report}");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-report.txt");
    let _ = std::fs::write(&out, &report);

    assert!(
        parse_errors.is_empty(),
        "case files that do not parse (harness bug):\n{}",
        parse_errors.join("\n")
    );
    assert!(panics.is_empty(), "cases panicked:\n{}", panics.join("\n"));
    assert!(
        total.passed >= FLOOR,
        "{} cases passed, below the floor of {FLOOR}",
        total.passed
    );
}
