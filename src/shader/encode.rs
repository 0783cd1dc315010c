//! [`Program`] → token stream: the exact inverse of the decoder.
//!
//! Used by the assembler and by round-trip tests. Encoding fails only for
//! IR that cannot be expressed in tokens (an SM2+ instruction longer than
//! 15 parameter tokens, SM1 relative addressing through anything but
//! `a0.x`, a shift outside the 4-bit field).

use super::error::{ShaderError, ShaderErrorKind};
use super::ir::{Declaration, Dst, Instruction, Payload, Program, RelativeAddress, Src};
use super::opcode::Opcode;
use super::token::{END_TOKEN, RegisterFile, register_bits};

fn fail(index: usize, msg: impl Into<String>) -> ShaderError {
    let mut e = ShaderError::new(ShaderErrorKind::Syntax, "encode", msg);
    e.instruction = Some(super::error::sat(index));
    e
}

impl Program {
    /// Encode the program, comment blocks included, into tokens.
    pub fn encode(&self) -> Result<Vec<u32>, ShaderError> {
        self.encode_with(true)
    }

    /// Encode without the comment blocks (what the assembler produces).
    pub fn encode_without_comments(&self) -> Result<Vec<u32>, ShaderError> {
        self.encode_with(false)
    }

    fn encode_with(&self, comments: bool) -> Result<Vec<u32>, ShaderError> {
        let mut out = vec![self.version.token()];
        let mut ci = 0;
        let sm1 = self.version.is_sm1();
        for (i, ins) in self.instructions.iter().enumerate() {
            while comments && ci < self.comments.len() && self.comments[ci].before_instruction <= i
            {
                push_comment(&mut out, &self.comments[ci].data, i)?;
                ci += 1;
            }
            encode_instruction(&mut out, ins, sm1).map_err(|m| fail(i, m))?;
        }
        if comments {
            for c in &self.comments[ci..] {
                push_comment(&mut out, &c.data, self.instructions.len())?;
            }
        }
        out.push(END_TOKEN);
        Ok(out)
    }
}

fn push_comment(out: &mut Vec<u32>, data: &[u32], i: usize) -> Result<(), ShaderError> {
    if data.len() > 0x7FFF {
        return Err(fail(i, "comment longer than 32767 DWORDs"));
    }
    out.push(0xFFFE | ((data.len() as u32) << 16));
    out.extend_from_slice(data);
    Ok(())
}

fn rel_token(rel: &RelativeAddress) -> u32 {
    register_bits(rel.reg) | ((rel.swizzle.0 as u32) << 16)
}

fn dst_token(d: &Dst) -> Result<u32, String> {
    if !(-8..=7).contains(&d.shift) {
        return Err(format!("result shift {} out of range", d.shift));
    }
    if d.modifiers > 0x7 {
        return Err("unknown result modifier".into());
    }
    let mut t = register_bits(d.reg)
        | ((d.mask.0 as u32 & 0xF) << 16)
        | ((d.modifiers as u32) << 20)
        | (((d.shift as u32) & 0xF) << 24);
    if d.relative.is_some() {
        t |= 0x2000;
    }
    Ok(t)
}

fn src_token(s: &Src) -> u32 {
    let mut t = register_bits(s.reg) | ((s.swizzle.0 as u32) << 16) | ((s.modifier as u32) << 24);
    if s.relative.is_some() {
        t |= 0x2000;
    }
    t
}

fn push_src(body: &mut Vec<u32>, s: &Src, sm1: bool) -> Result<(), String> {
    body.push(src_token(s));
    if let Some(rel) = &s.relative {
        if sm1 {
            if rel.reg.file != RegisterFile::AddrOrTexture
                || rel.reg.index != 0
                || rel.component() != 0
            {
                return Err("shader model 1 relative addressing is always a0.x".into());
            }
        } else {
            body.push(rel_token(rel));
        }
    }
    Ok(())
}

fn encode_instruction(out: &mut Vec<u32>, ins: &Instruction, sm1: bool) -> Result<(), String> {
    let mut body: Vec<u32> = Vec::with_capacity(12);
    match (ins.opcode, ins.payload) {
        (Opcode::Dcl, Payload::Dcl(decl)) => {
            let a = match decl {
                Declaration::Sampler(t) => 0x8000_0000 | ((t as u32) << 27),
                Declaration::Semantic { usage, index } => {
                    if index > 15 {
                        return Err("usage index above 15".into());
                    }
                    0x8000_0000 | usage as u32 | ((index as u32) << 16)
                }
            };
            body.push(a);
            let d = ins.dst.ok_or("dcl without a register")?;
            body.push(dst_token(&d)?);
        }
        (Opcode::Def | Opcode::DefI | Opcode::DefB, Payload::Def(vals)) => {
            let d = ins.dst.ok_or("def without a register")?;
            body.push(dst_token(&d)?);
            let n = if ins.opcode == Opcode::DefB { 1 } else { 4 };
            body.extend_from_slice(&vals[..n]);
        }
        (Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB, _) => {
            return Err("declaration without its data".into());
        }
        _ => {
            if let Some(d) = &ins.dst {
                body.push(dst_token(d)?);
                if let Some(rel) = &d.relative {
                    if sm1 {
                        return Err("relative destination in shader model 1".into());
                    }
                    body.push(rel_token(rel));
                }
            }
            if let Some(p) = &ins.predicate {
                if sm1 {
                    return Err("predication in shader model 1".into());
                }
                body.push(src_token(p));
            }
            for s in ins.srcs() {
                push_src(&mut body, s, sm1)?;
            }
        }
    }
    let mut tok = ins.opcode.code() | ((ins.control as u32) << 16);
    if ins.coissue {
        tok |= 0x4000_0000;
    }
    if ins.predicate.is_some() {
        tok |= 0x1000_0000;
    }
    if !sm1 {
        if body.len() > 15 {
            return Err("instruction needs more than 15 parameter tokens".into());
        }
        tok |= (body.len() as u32) << 24;
    }
    out.push(tok);
    out.extend_from_slice(&body);
    Ok(())
}
