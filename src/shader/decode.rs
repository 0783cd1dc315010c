//! Token stream → [`Program`] (bytecode.md §1–§3).
//!
//! The decoder checks structure, not profile rules: every token must be
//! well formed and every field must hold a value the format defines, so
//! the result can always be re-encoded exactly. Which registers, opcodes
//! and modifiers a profile allows is the validator's business.
//!
//! Bad input never panics: every read is bounds-checked, allocation is
//! bounded by the input length, and the loop always advances.

use super::error::ShaderError;
use super::ir::{Comment, Declaration, Dst, Instruction, Payload, Program, RelativeAddress, Src};
use super::opcode::Opcode;
use super::token::{
    COMMENT_OPCODE, END_TOKEN, Register, RegisterFile, SrcModifier, Swizzle, TextureType, Version,
    WriteMask, param_register,
};
use crate::vertex::DeclUsage;

/// Number of tokens of the shader starting at `tokens[0]`, end token
/// included; what the runtime computes for a bare bytecode pointer.
pub fn bytecode_len(tokens: &[u32]) -> Result<usize, ShaderError> {
    let mut d = Decoder::new(tokens)?;
    d.run()?;
    Ok(d.pos)
}

/// Decode a complete shader: the slice must end exactly with the end token.
pub fn decode(tokens: &[u32]) -> Result<Program, ShaderError> {
    let mut d = Decoder::new(tokens)?;
    d.run()?;
    if d.pos != tokens.len() {
        return Err(ShaderError::malformed(
            d.pos,
            "trailing-data",
            format!("{} token(s) after the end token", tokens.len() - d.pos),
        ));
    }
    Ok(Program {
        version: d.version,
        instructions: d.instructions,
        comments: d.comments,
    })
}

struct Decoder<'a> {
    tokens: &'a [u32],
    pos: usize,
    version: Version,
    instructions: Vec<Instruction>,
    comments: Vec<Comment>,
}

fn err(pos: usize, rule: &'static str, msg: impl Into<String>) -> ShaderError {
    ShaderError::malformed(pos, rule, msg)
}

impl<'a> Decoder<'a> {
    fn new(tokens: &'a [u32]) -> Result<Self, ShaderError> {
        let &first = tokens
            .first()
            .ok_or_else(|| err(0, "version", "empty token stream"))?;
        let version = Version::from_token(first).ok_or_else(|| {
            let what = match first >> 16 {
                0x4658 => " (an effect container, not a shader)",
                0x5458 => " (a texture-shader container, not a shader)",
                0xFFFE | 0xFFFF => " (unsupported version)",
                _ => "",
            };
            err(
                0,
                "version",
                format!("invalid version token {first:#010x}{what}"),
            )
        })?;
        Ok(Decoder {
            tokens,
            pos: 1,
            version,
            instructions: Vec::new(),
            comments: Vec::new(),
        })
    }

    fn run(&mut self) -> Result<(), ShaderError> {
        loop {
            let at = self.pos;
            let Some(&tok) = self.tokens.get(at) else {
                return Err(err(
                    at,
                    "end-token",
                    "unexpected end of stream (missing end token)",
                ));
            };
            if tok & 0x8000_0000 == 0 && tok & 0xFFFF == COMMENT_OPCODE {
                let n = ((tok >> 16) & 0x7FFF) as usize;
                let data = self
                    .tokens
                    .get(at + 1..)
                    .and_then(|rest| rest.get(..n))
                    .ok_or_else(|| {
                        err(
                            at,
                            "comment-length",
                            format!("comment of {n} DWORDs runs past the end of the stream"),
                        )
                    })?;
                self.comments.push(Comment {
                    before_instruction: self.instructions.len(),
                    data: data.to_vec(),
                });
                self.pos = at + 1 + n;
                continue;
            }
            if tok & 0xFFFF == 0xFFFF {
                if tok != END_TOKEN {
                    return Err(err(
                        at,
                        "end-token",
                        format!("malformed end token {tok:#010x}"),
                    ));
                }
                self.pos = at + 1;
                return Ok(());
            }
            let ins = self.instruction(at, tok)?;
            self.instructions.push(ins);
        }
    }

    fn instruction(&mut self, at: usize, tok: u32) -> Result<Instruction, ShaderError> {
        let v = self.version;
        if tok & 0x8000_0000 != 0 {
            return Err(err(
                at,
                "instruction-token",
                format!("parameter token {tok:#010x} where an instruction was expected"),
            ));
        }
        if tok & 0x2000_0000 != 0 {
            return Err(err(
                at,
                "instruction-token",
                "reserved bit 29 set in instruction token",
            ));
        }
        let code = tok & 0xFFFF;
        let opcode = Opcode::from_code(code)
            .ok_or_else(|| err(at, "opcode", format!("unknown opcode {code:#06x}")))?;
        let mut ins = Instruction::new(opcode);
        ins.control = ((tok >> 16) & 0xFF) as u8;
        ins.coissue = tok & 0x4000_0000 != 0;
        let predicated = tok & 0x1000_0000 != 0;
        let len = ((tok >> 24) & 0xF) as usize;
        if opcode.has_comparison() && super::token::Comparison::from_code(ins.control).is_none() {
            return Err(err(
                at,
                "control",
                format!(
                    "invalid comparison {} on {}",
                    ins.control,
                    opcode.base_name()
                ),
            ));
        }
        if opcode == Opcode::Tex && !v.is_sm1() && ins.control > 2 {
            return Err(err(
                at,
                "control",
                format!("invalid texld variant {}", ins.control),
            ));
        }
        let body_start = at + 1;
        let end = if v.is_sm1() {
            if len != 0 || predicated {
                return Err(err(
                    at,
                    "instruction-length",
                    "shader model 1 instruction token with length or predicate bits",
                ));
            }
            None
        } else {
            let end = body_start + len;
            if end > self.tokens.len() {
                return Err(err(
                    at,
                    "instruction-length",
                    format!("instruction length {len} runs past the end of the stream"),
                ));
            }
            Some(end)
        };
        let mut r = Reader {
            tokens: self.tokens,
            pos: body_start,
            end,
            sm1: v.is_sm1(),
        };
        match opcode {
            Opcode::Dcl => {
                if predicated {
                    return Err(err(at, "predicate", "dcl cannot be predicated"));
                }
                let a = r.raw()?;
                let dst = r.dst(false)?;
                ins.payload = Payload::Dcl(declaration(r.pos - 2, a, dst.reg)?);
                ins.dst = Some(dst);
            }
            Opcode::Def | Opcode::DefI | Opcode::DefB => {
                if predicated {
                    return Err(err(at, "predicate", "def cannot be predicated"));
                }
                ins.dst = Some(r.dst(false)?);
                let mut vals = [0u32; 4];
                let n = if opcode == Opcode::DefB { 1 } else { 4 };
                for v in vals.iter_mut().take(n) {
                    *v = r.raw()?;
                }
                ins.payload = Payload::Def(vals);
            }
            _ => {
                let shape = opcode
                    .shape(v)
                    .ok_or_else(|| err(at, "opcode", "opcode has no operand layout"))?;
                if shape.dst {
                    ins.dst = Some(r.dst(true)?);
                }
                if predicated {
                    ins.predicate = Some(r.src(false)?);
                }
                if v.is_sm1() {
                    for _ in 0..shape.srcs {
                        let s = r.src(true)?;
                        ins.push_src(s);
                    }
                } else {
                    while r.pos < r.end.unwrap_or(r.pos) {
                        let s = r.src(true)?;
                        if !ins.push_src(s) {
                            return Err(err(r.pos, "instruction-length", "too many operands"));
                        }
                    }
                    if ins.srcs().len() != shape.srcs as usize {
                        return Err(err(
                            at,
                            "instruction-length",
                            format!(
                                "{} has {} source operand(s), expected {}",
                                opcode.mnemonic(ins.control, v),
                                ins.srcs().len(),
                                shape.srcs
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(end) = r.end
            && r.pos != end
        {
            return Err(err(
                at,
                "instruction-length",
                format!(
                    "length field says {len} tokens, operands use {}",
                    r.pos - body_start
                ),
            ));
        }
        self.pos = r.pos;
        Ok(ins)
    }
}

fn declaration(at: usize, a: u32, reg: Register) -> Result<Declaration, ShaderError> {
    if a & 0x8000_0000 == 0 {
        return Err(err(at, "dcl", format!("dcl token {a:#010x} lacks bit 31")));
    }
    if reg.file == RegisterFile::Sampler {
        if a & 0x07FF_FFFF != 0 {
            return Err(err(
                at,
                "dcl",
                format!("reserved bits set in sampler dcl token {a:#010x}"),
            ));
        }
        let t = TextureType::from_code((a >> 27) & 0xF).ok_or_else(|| {
            err(
                at,
                "dcl",
                format!("unknown sampler texture type in {a:#010x}"),
            )
        })?;
        return Ok(Declaration::Sampler(t));
    }
    if a & 0x7FF0_FFE0 != 0 {
        return Err(err(
            at,
            "dcl",
            format!("reserved bits set in dcl token {a:#010x}"),
        ));
    }
    let usage = DeclUsage::from_raw((a & 0x1F) as u8).ok_or_else(|| {
        err(
            at,
            "dcl",
            format!("unknown usage {} in dcl token", a & 0x1F),
        )
    })?;
    Ok(Declaration::Semantic {
        usage,
        index: ((a >> 16) & 0xF) as u8,
    })
}

/// Cursor over the parameter tokens of one instruction.
struct Reader<'a> {
    tokens: &'a [u32],
    pos: usize,
    /// Exclusive end for SM2+ (length field); `None` for SM1.
    end: Option<usize>,
    sm1: bool,
}

impl Reader<'_> {
    fn raw(&mut self) -> Result<u32, ShaderError> {
        let limit = self.end.unwrap_or(self.tokens.len());
        if self.pos >= limit {
            return Err(err(
                self.pos,
                "instruction-length",
                "instruction needs more tokens than it has",
            ));
        }
        let t = self
            .tokens
            .get(self.pos)
            .copied()
            .ok_or_else(|| err(self.pos, "instruction-length", "truncated instruction"))?;
        self.pos += 1;
        Ok(t)
    }

    fn param(&mut self) -> Result<(u32, usize, Register), ShaderError> {
        let at = self.pos;
        let t = self.raw()?;
        if t & 0x8000_0000 == 0 {
            return Err(err(
                at,
                "parameter-token",
                format!("parameter token {t:#010x} lacks bit 31"),
            ));
        }
        if t & 0xC000 != 0 {
            return Err(err(
                at,
                "parameter-token",
                format!("reserved (min-precision) bits set in {t:#010x}"),
            ));
        }
        let code = ((t >> 28) & 0x7) | ((t >> 8) & 0x18);
        let reg = param_register(t).ok_or_else(|| {
            err(
                at,
                "register-type",
                format!("unknown register type {code} in {t:#010x}"),
            )
        })?;
        Ok((t, at, reg))
    }

    fn relative(&mut self, implicit: bool) -> Result<RelativeAddress, ShaderError> {
        if implicit {
            return Ok(RelativeAddress {
                reg: Register::new(RegisterFile::AddrOrTexture, 0),
                swizzle: Swizzle::replicate(0),
            });
        }
        let (t, at, reg) = self.param()?;
        if t & 0x0F00_2000 != 0 {
            return Err(err(
                at,
                "relative-address",
                format!("modifier or relative bit set in address token {t:#010x}"),
            ));
        }
        Ok(RelativeAddress {
            reg,
            swizzle: Swizzle(((t >> 16) & 0xFF) as u8),
        })
    }

    fn dst(&mut self, allow_relative: bool) -> Result<Dst, ShaderError> {
        let (t, at, reg) = self.param()?;
        let modifiers = ((t >> 20) & 0xF) as u8;
        if modifiers & 0x8 != 0 {
            return Err(err(
                at,
                "parameter-token",
                format!("unknown result modifier in {t:#010x}"),
            ));
        }
        let s = ((t >> 24) & 0xF) as i8;
        let shift = (s & 7) - (s & 8);
        let relative = if t & 0x2000 != 0 {
            if !allow_relative || self.sm1 {
                return Err(err(
                    at,
                    "relative-address",
                    "relative addressing on this destination",
                ));
            }
            Some(self.relative(false)?)
        } else {
            None
        };
        Ok(Dst {
            reg,
            mask: WriteMask(((t >> 16) & 0xF) as u8),
            modifiers,
            shift,
            relative,
        })
    }

    fn src(&mut self, allow_relative: bool) -> Result<Src, ShaderError> {
        let (t, at, reg) = self.param()?;
        let modifier = SrcModifier::from_code((t >> 24) & 0xF).ok_or_else(|| {
            err(
                at,
                "parameter-token",
                format!("reserved source modifier in {t:#010x}"),
            )
        })?;
        let relative = if t & 0x2000 != 0 {
            if !allow_relative {
                return Err(err(
                    at,
                    "relative-address",
                    "relative addressing on a predicate",
                ));
            }
            Some(self.relative(self.sm1)?)
        } else {
            None
        };
        Ok(Src {
            reg,
            swizzle: Swizzle(((t >> 16) & 0xFF) as u8),
            modifier,
            relative,
        })
    }
}
