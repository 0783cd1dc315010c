//! Shared helpers for the shader integration tests: locating the fxc
//! conformance corpus (never copied into the repo) and normalising listings.
#![allow(dead_code)]

use std::path::PathBuf;

/// The `fxc` corpus directory, or `None` (with a printed notice) when the
/// shared conformance data is not available (e.g. a user's clone).
pub fn fxc_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("WARP9_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    };
    let dir = base.join("fxc");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: conformance corpus not found at {} (set WARP9_CONFORMANCE_DIR)",
            dir.display()
        );
        None
    }
}

/// One corpus program: file stem, tokens and the fxc listing if present.
pub struct Sample {
    pub name: String,
    pub tokens: Vec<u32>,
    pub listing: Option<String>,
}

/// Every `.bin` of the corpus, sorted by name.
pub fn load_corpus() -> Option<Vec<Sample>> {
    let dir = fxc_dir()?;
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        let bytes = std::fs::read(dir.join(&n)).expect("read .bin");
        assert_eq!(bytes.len() % 4, 0, "{n}: size not a multiple of 4");
        let tokens = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let stem = n.trim_end_matches(".bin").to_string();
        let listing = std::fs::read_to_string(dir.join(format!("{stem}.asm.txt"))).ok();
        out.push(Sample {
            name: stem,
            tokens,
            listing,
        });
    }
    Some(out)
}

/// Instruction lines of a listing: comments, `#line` directives, blank
/// lines and indentation removed, inner whitespace collapsed.
pub fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The tokens without comment blocks (the decoder re-encodes exactly,
/// so dropping the comments from the decoded program is exact).
pub fn strip_comments(tokens: &[u32]) -> Vec<u32> {
    warp9::shader::decode(tokens)
        .expect("decode")
        .encode_without_comments()
        .expect("encode")
}
