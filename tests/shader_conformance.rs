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

/// Lowest level whose limits accept the program, and the errors below it.
#[test]
fn programs_validate_at_their_lowest_level() {
    let Some(corpus) = load_corpus() else { return };
    let levels = shader::ShaderLimits::ALL_LEVELS;
    let mut per_level = [0usize; 4];
    let mut ps1 = 0;
    let mut failures = Vec::new();
    let mut below_without_cap = Vec::new();
    let mut slot_matches = (0, 0);
    for s in &corpus {
        let p = shader::decode(&s.tokens).expect("decode");
        // ps_1_x goes through the same levels: every one accepts it.
        ps1 += usize::from(p.version.is_sm1() && p.version.is_pixel());
        let results: Vec<_> = levels.iter().map(|l| shader::validate(&p, l)).collect();
        match results.iter().position(|r| r.is_ok()) {
            Some(lowest) => {
                per_level[lowest] += 1;
                for r in &results[lowest..] {
                    assert!(
                        r.is_ok(),
                        "{}: valid at a lower level but not at a higher one: {:?}",
                        s.name,
                        r
                    );
                }
                for r in &results[..lowest] {
                    let e = r.as_ref().unwrap_err();
                    if e.cap.is_none() {
                        below_without_cap.push(format!("{}: {e}", s.name));
                    }
                }
                if let (Some(l), Ok(info)) = (&s.listing, &results[lowest])
                    && let Some(n) = fxc_slots(l)
                {
                    slot_matches.1 += 1;
                    if n == info.instruction_slots {
                        slot_matches.0 += 1;
                    } else if std::env::var_os("WARP9_SHOW_SLOTS").is_some() {
                        println!("slots {} ours {} fxc {n}", s.name, info.instruction_slots);
                    }
                }
            }
            None => failures.push(format!("{}: {}", s.name, results[3].as_ref().unwrap_err())),
        }
    }
    println!(
        "validated: 9_1 {}, 9_2 {}, 9_3 {}, SM3 {}; rejected everywhere {}; ps_1_x among them {ps1}",
        per_level[0],
        per_level[1],
        per_level[2],
        per_level[3],
        failures.len()
    );
    println!(
        "instruction slots equal to fxc's estimate: {}/{}",
        slot_matches.0, slot_matches.1
    );
    assert_eq!(
        slot_matches.0, slot_matches.1,
        "slot counts differ from fxc's"
    );
    // Every program validates at some level: the 20 bgfx shadow-map
    // shaders of 1,307-1,428 slots too, at SM3's 32768 ps_3_0 slots
    // (caps.md "Changed (sm3)"), where 512 once refused them.
    assert!(
        failures.is_empty(),
        "{} programs rejected at every level:\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        per_level[3] >= 20,
        "the bgfx programs above 512 slots validate only at SM3"
    );
    assert!(
        below_without_cap.is_empty(),
        "rejections below the lowest level that name no cap:\n{}",
        below_without_cap
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn fxc_slots(listing: &str) -> Option<u32> {
    let line = listing.lines().find(|l| l.contains("approximately"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}
