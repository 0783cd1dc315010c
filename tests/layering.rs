//! The crate's layering, read from its sources: the top-level modules under
//! `src/` import each other without a cycle, nothing below `api` names the
//! API layer or the device, and the Reference driver imports nothing from
//! the Warp-only modules (`raster`, `om`), so the oracle never runs the code
//! it checks.
//!
//! An import is any `crate::<module>` path, including the names inside a
//! `crate::{...}` group; unit-test modules (`#[cfg(test)] mod tests`) are
//! skipped, since a test may build a device to make its inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without line comments and without its unit-test module.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers that follow `crate::` in `code`, with those inside a
/// `crate::{a::b, c}` group (every path segment, which over-approximates:
/// a module named like an item would count).
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for word in group[..end].split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !word.is_empty() {
                    out.push(word.to_string());
                }
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(word);
        }
    }
    out
}

/// Module name -> the other top-level modules it imports.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeSet::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let module_dir = path.is_dir() && name != "bin";
        let module_file = path.extension().is_some_and(|e| e == "rs") && name != "lib";
        if module_dir || module_file {
            modules.insert(name);
        }
    }
    let mut graph = BTreeMap::new();
    for m in &modules {
        let mut files = Vec::new();
        let dir = src.join(m);
        if dir.is_dir() {
            sources(&dir, &mut files);
        } else {
            files.push(src.join(format!("{m}.rs")));
        }
        let mut deps = BTreeSet::new();
        for f in files {
            let code = code_of(&fs::read_to_string(&f).unwrap());
            for p in crate_paths(&code) {
                if &p != m && modules.contains(&p) {
                    deps.insert(p);
                }
            }
        }
        graph.insert(m.clone(), deps);
    }
    graph
}

/// Whether `to` is reachable from `from`.
fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for d in &graph[&m] {
            if d == to {
                return true;
            }
            if seen.insert(d.clone()) {
                stack.push(d.clone());
            }
        }
    }
    false
}

#[test]
fn the_import_graph_has_no_cycle() {
    let graph = import_graph();
    // The modules the draw path is made of must be there, or this checks nothing.
    for m in [
        "api",
        "pipeline",
        "raster",
        "reference",
        "om",
        "driver",
        "error",
    ] {
        assert!(graph.contains_key(m), "no module {m}");
    }
    assert!(
        graph["api"].contains("pipeline"),
        "api hands draws to pipeline"
    );
    let cycles: Vec<String> = graph
        .iter()
        .flat_map(|(m, deps)| {
            deps.iter()
                .filter(|d| reaches(&graph, d, m))
                .map(move |d| format!("{m} -> {d} -> ... -> {m}"))
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

#[test]
fn nothing_below_api_names_the_api_or_the_device() {
    let graph = import_graph();
    let importers: Vec<&String> = graph
        .iter()
        .filter(|(_, deps)| deps.contains("api"))
        .map(|(m, _)| m)
        .collect();
    assert!(importers.is_empty(), "modules importing api: {importers:?}");
}

#[test]
fn the_reference_driver_imports_no_warp_module() {
    let graph = import_graph();
    for warp_only in ["raster", "om"] {
        assert!(
            !reaches(&graph, "reference", warp_only),
            "reference reaches {warp_only}: {:?}",
            graph["reference"]
        );
    }
    // And the Warp driver does not reach into the oracle.
    for warp in ["raster", "om"] {
        assert!(
            !reaches(&graph, warp, "reference"),
            "{warp} reaches reference"
        );
    }
}
