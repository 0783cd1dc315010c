//! Assembler: fxc listing syntax → [`Program`] → tokens.
//!
//! Line oriented: `//` comments, `#line` directives and blank lines are
//! ignored; the first statement is the profile (`ps_3_0`), every other
//! line one instruction. Comment blocks (CTAB) are not produced: the
//! output equals the original program's tokens without its comments.

mod lexer;
mod parser;

use super::error::ShaderError;
use super::ir::Program;

pub use parser::parse_version;

/// Assemble `text` into a token stream (version token to end token).
pub fn assemble(text: &str) -> Result<Vec<u32>, ShaderError> {
    let (program, lines) = parse(text)?;
    program.encode_without_comments().map_err(|mut e| {
        if let Some(line) = e.instruction.and_then(|i| lines.get(i as usize)) {
            e.position = Some((super::error::sat(*line), 1));
        }
        e
    })
}

/// Parse `text` into a [`Program`] without encoding it.
pub fn assemble_program(text: &str) -> Result<Program, ShaderError> {
    parse(text).map(|(p, _)| p)
}

fn parse(text: &str) -> Result<(Program, Vec<usize>), ShaderError> {
    let mut version = None;
    let mut instructions = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let code = raw.split("//").next().unwrap_or("");
        if code.trim_start().starts_with('#') || code.trim().is_empty() {
            continue;
        }
        let toks = lexer::lex(code, line_no)?;
        let Some(v) = version else {
            let first = toks.first().map(|l| &l.tok);
            let ok = match (first, toks.len()) {
                (Some(lexer::Tok::Word(w)), 1) => parse_version(w),
                _ => None,
            };
            version = Some(ok.ok_or_else(|| {
                ShaderError::syntax(
                    line_no,
                    toks.first().map_or(1, |l| l.col),
                    "expected a profile such as `ps_2_0` or `vs_3_0`",
                )
            })?);
            continue;
        };
        let mut p = parser::LineParser::new(&toks, line_no, code.chars().count(), v);
        instructions.push(p.instruction()?);
        lines.push(line_no);
    }
    let version =
        version.ok_or_else(|| ShaderError::syntax(1, 1, "empty program: no profile line"))?;
    Ok((
        Program {
            version,
            instructions,
            comments: Vec::new(),
        },
        lines,
    ))
}
