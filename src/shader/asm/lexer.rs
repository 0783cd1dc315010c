//! Splits one line of assembly into tokens with 1-based columns.
//!
//! Comments (`//` to end of line) are removed by the caller. Words take
//! letters, digits and `_` (so `r0_abs` and `dcl_texcoord1` are one word);
//! numbers take digits, `.`, an exponent and a `0x` prefix; everything
//! else is single-character punctuation.

use crate::shader::error::ShaderError;

/// One lexical token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier-like word.
    Word(String),
    /// Numeric literal text (sign not included).
    Number(String),
    /// Punctuation character.
    Punct(char),
}

/// A token and its 1-based column.
#[derive(Clone, Debug, PartialEq)]
pub struct Lexeme {
    /// The token.
    pub tok: Tok,
    /// Column of its first character.
    pub col: usize,
}

/// Tokenise `line` (already stripped of comments); `line_no` for errors.
pub fn lex(line: &str, line_no: usize) -> Result<Vec<Lexeme>, ShaderError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Lexeme {
                tok: Tok::Word(chars[start..i].iter().collect()),
                col,
            });
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            if c == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
                i += 2;
                while i < chars.len() && chars[i].is_ascii_hexdigit() {
                    i += 1;
                }
            } else {
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                if i < chars.len() && matches!(chars[i], 'e' | 'E') {
                    let mut j = i + 1;
                    if j < chars.len() && matches!(chars[j], '+' | '-') {
                        j += 1;
                    }
                    if j < chars.len() && chars[j].is_ascii_digit() {
                        i = j;
                        while i < chars.len() && chars[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                }
            }
            out.push(Lexeme {
                tok: Tok::Number(chars[start..i].iter().collect()),
                col,
            });
        } else if ",()[]+-!.".contains(c) {
            out.push(Lexeme {
                tok: Tok::Punct(c),
                col,
            });
            i += 1;
        } else {
            return Err(ShaderError::syntax(
                line_no,
                col,
                format!("unexpected character `{c}`"),
            ));
        }
    }
    Ok(out)
}
