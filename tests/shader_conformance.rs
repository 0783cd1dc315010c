//! The fxc corpus (`../shared/conformance/fxc`, read at test time): every
//! program decodes, re-encodes bit-exactly, disassembles to fxc's listing
//! and reassembles to its tokens; validation per level is reported.

mod shader_support;

use shader_support::{load_corpus, normalise, strip_comments};
use warp9::shader;

#[test]
fn every_program_decodes_and_reencodes_exactly() {
    let Some(corpus) = load_corpus() else { return };
    let mut failures = Vec::new();
    for s in &corpus {
        match shader::decode(&s.tokens) {
            Ok(p) => {
                let enc = p.encode().expect("encode");
                if enc != s.tokens {
                    failures.push(format!("{}: re-encoding differs", s.name));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", s.name)),
        }
    }
    println!(
        "decoded {}/{} programs",
        corpus.len() - failures.len(),
        corpus.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn disassembly_matches_fxc_listings() {
    let Some(corpus) = load_corpus() else { return };
    let mut total = 0;
    let mut matched = 0;
    let mut lines_total = 0;
    let mut lines_matched = 0;
    let mut report = Vec::new();
    for s in &corpus {
        let Some(listing) = &s.listing else { continue };
        total += 1;
        let p = shader::decode(&s.tokens).expect("decode");
        let ours = normalise(&p.disassemble());
        let theirs = normalise(listing);
        lines_total += theirs.len();
        lines_matched += ours.iter().zip(&theirs).filter(|(a, b)| a == b).count();
        if ours == theirs {
            matched += 1;
        } else if report.len() < 20 {
            let diff = ours
                .iter()
                .zip(&theirs)
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("ours `{a}` fxc `{b}`"))
                .unwrap_or_else(|| format!("line counts {} vs {}", ours.len(), theirs.len()));
            report.push(format!("{}: {diff}", s.name));
        }
    }
    println!(
        "disassembly matches fxc listing: {matched}/{total} programs, {lines_matched}/{lines_total} lines"
    );
    assert!(matched == total, "mismatches:\n{}", report.join("\n"));
}

#[test]
fn listings_assemble_to_program_tokens() {
    let Some(corpus) = load_corpus() else { return };
    let mut total = 0;
    let mut ok = 0;
    let mut report = Vec::new();
    for s in &corpus {
        let expect = strip_comments(&s.tokens);
        // Our own disassembly for every program, fxc's listing where present.
        let p = shader::decode(&s.tokens).expect("decode");
        let mut texts = vec![("disasm", p.disassemble())];
        if let Some(l) = &s.listing {
            texts.push(("fxc listing", l.clone()));
        }
        for (what, text) in texts {
            total += 1;
            match shader::assemble(&text) {
                Ok(t) if t == expect => ok += 1,
                Ok(_) => report.push(format!("{} ({what}): tokens differ", s.name)),
                Err(e) => report.push(format!("{} ({what}): {e}", s.name)),
            }
        }
    }
    println!("assembled to the original tokens: {ok}/{total} texts");
    assert!(
        ok == total,
        "{} failures, first:\n{}",
        report.len(),
        report
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
