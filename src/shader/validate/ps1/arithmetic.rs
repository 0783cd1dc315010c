//! The arithmetic instructions of ps_1_x and their instruction-specific
//! rules (cnd, lrp, cmp, dp4, bem).

use super::rules::{ALPHA, RGB, needed_components};
use super::{Walk, bit};
use crate::shader::error::ShaderError;
use crate::shader::ir::{Instruction, Src};
use crate::shader::opcode::Opcode;
use crate::shader::token::{Register, RegisterFile, SrcModifier, Swizzle, WriteMask};

impl Walk {
    /// An arithmetic instruction; returns its slot cost.
    pub(super) fn arithmetic(&mut self, i: usize, ins: &Instruction) -> Result<u32, ShaderError> {
        use Opcode::*;
        let (p, op) = (self.p, ins.opcode);
        let Some(d) = ins.dst else {
            return Err(self.err(i, ins, "operand", "missing destination".into()));
        };
        self.arith_seen = true;
        let dst_ok = match d.reg.file {
            RegisterFile::Temp => true,
            RegisterFile::AddrOrTexture => !p.is14(),
            _ => false,
        };
        if !dst_ok {
            let msg = if p.is14() {
                "ps_1_4 arithmetic writes r# registers"
            } else {
                "arithmetic writes r# or t# registers"
            };
            return Err(self.err(i, ins, "register-file", msg.into()));
        }
        self.in_range(i, ins, d.reg)?;
        let mask = d.mask.0;
        let mask_ok = mask != 0 && (p.is14() || matches!(mask, 0xF | RGB | ALPHA));
        if !mask_ok {
            let msg = if p.is14() {
                "empty write mask"
            } else {
                "write masks below ps_1_4 are .rgba, .rgb or .a"
            };
            return Err(self.err(i, ins, "write-mask", msg.into()));
        }
        if op == Dp3 && !p.is14() && mask == ALPHA {
            let msg = "dp3 below ps_1_4 writes .rgb or .rgba".to_string();
            return Err(self.err(i, ins, "write-mask", msg));
        }
        if !p.shift_ok(d.shift) {
            let msg = "result shifts are _x2, _x4 and _d2 (ps_1_4 adds _x8, _d4, _d8)".to_string();
            return Err(self.err(i, ins, "dst-modifier", msg));
        }
        if d.reg.file == RegisterFile::AddrOrTexture {
            let di = usize::from(d.reg.index);
            let depth = self
                .tex_writer
                .get(di)
                .is_some_and(|w| w.contains(&Some(TexM3x2Depth)));
            if depth {
                let msg = format!("t{di} holds texm3x2depth's depth and cannot be written");
                return Err(self.err(i, ins, "texture-result", msg));
            }
        }
        let alpha_only = mask & RGB == 0 && !matches!(op, Dp3 | Dp4);
        for (k, s) in ins.srcs().iter().enumerate() {
            self.arithmetic_source(i, ins, k, s, alpha_only)?;
        }
        self.specific(i, ins)?;
        if self.texdepth_seen {
            let r5 = |r: Register| r.file == RegisterFile::Temp && r.index == 5;
            if r5(d.reg) || ins.srcs().iter().any(|s| r5(s.reg)) {
                let msg = "r5 is no longer available after texdepth".to_string();
                return Err(self.err(i, ins, "texdepth", msg));
            }
        }
        let need = needed_components(p, op, mask);
        for s in ins.srcs() {
            let m = s.swizzle.components_read(WriteMask(need)).0;
            self.read(i, ins, s.reg, m)?;
        }
        self.write(d.reg, mask, false);
        Ok(p.arithmetic_cost(op))
    }

    /// Source `k` of an arithmetic instruction: r#, c#, v# (1_4: after the
    /// phase marker) and, below 1_4, t#; the version's modifiers and
    /// selectors. ("Pixel Shader Source Register Modifiers" also says 1_4
    /// refuses modifiers on c#; the reference validator does not check it
    /// and neither does this.)
    fn arithmetic_source(
        &mut self,
        i: usize,
        ins: &Instruction,
        k: usize,
        s: &Src,
        alpha_only: bool,
    ) -> Result<(), ShaderError> {
        let p = self.p;
        let file_ok = match s.reg.file {
            RegisterFile::Temp | RegisterFile::Const | RegisterFile::Input => true,
            RegisterFile::AddrOrTexture => !p.is14(),
            _ => false,
        };
        if !file_ok {
            let msg = if s.reg.file == RegisterFile::AddrOrTexture {
                "ps_1_4 arithmetic cannot read t# (texcrd copies coordinates to r#)".to_string()
            } else {
                format!(
                    "source {k} reads {:?}, not a ps_1_x source register",
                    s.reg.file
                )
            };
            return Err(self.err(i, ins, "register-file", msg));
        }
        self.in_range(i, ins, s.reg)?;
        if s.reg.file == RegisterFile::Input && self.has_phase && self.phase == 1 {
            let msg = "colour registers (v#) are available only after the phase marker".into();
            return Err(self.err(i, ins, "phase", msg));
        }
        if !p.arithmetic_modifier_ok(s.modifier) {
            let msg = format!(
                "source {k}: modifier {:?} is not a {} arithmetic source modifier",
                s.modifier,
                self.name()
            );
            return Err(self.err(i, ins, "src-modifier", msg));
        }
        if !p.arithmetic_swizzle_ok(s.swizzle, alpha_only) {
            let msg = if p.is14() {
                "ps_1_4 selectors are .r, .g, .b and .a (no other swizzle)"
            } else {
                "selectors below ps_1_4 are .a, and .b in the alpha pipe (no other swizzle)"
            };
            return Err(self.err(i, ins, "source-swizzle", msg.into()));
        }
        let idx = usize::from(s.reg.index);
        match s.reg.file {
            RegisterFile::Const => self.consts |= bit(idx),
            RegisterFile::Input => self.inputs |= bit(idx),
            _ => {}
        }
        Ok(())
    }

    /// Instruction-specific rules of cnd, lrp, cmp, dp4 and bem.
    fn specific(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        use Opcode::*;
        let (p, op) = (self.p, ins.opcode);
        let src0 = ins.srcs().first().copied();
        match op {
            Cnd if !p.is14() => {
                let ok = src0.is_some_and(|s| {
                    s.reg == Register::new(RegisterFile::Temp, 0)
                        && s.swizzle.0 == Swizzle::replicate(3).0
                        && s.modifier == SrcModifier::None
                });
                if !ok {
                    let msg = "cnd's first source below ps_1_4 must be r0.a".to_string();
                    return Err(self.err(i, ins, "cnd-source", msg));
                }
            }
            Lrp if !p.is14()
                && src0.is_some_and(|s| {
                    !matches!(s.modifier, SrcModifier::None | SrcModifier::Comp)
                }) =>
            {
                let msg = "lrp's first source takes no modifier but 1-x".to_string();
                return Err(self.err(i, ins, "lrp-source", msg));
            }
            Cmp | Dp4 if !p.is14() => {
                // The 1_2/1_3 hardware limit kept by the reference validator.
                let (count, limit) = if op == Cmp {
                    self.cmp_count += 1;
                    (self.cmp_count, 3)
                } else {
                    self.dp4_count += 1;
                    (self.dp4_count, 4)
                };
                if count > limit {
                    let msg = format!(
                        "at most {limit} {} instructions in a {} shader",
                        op.base_name(),
                        self.name()
                    );
                    return Err(self.err(i, ins, "instruction-count", msg));
                }
            }
            Bem => {
                if self.bem_seen {
                    let msg = "bem may be used once in a shader".to_string();
                    return Err(self.err(i, ins, "bem", msg));
                }
                self.bem_seen = true;
                if !(self.has_phase && self.phase == 1) {
                    let msg = "bem belongs before a phase marker".to_string();
                    return Err(self.err(i, ins, "phase", msg));
                }
                if ins.dst.is_some_and(|d| d.mask.0 != 0x3) {
                    return Err(self.err(i, ins, "bem", "bem writes .rg".into()));
                }
                let files = ins.srcs().iter().map(|s| s.reg.file).collect::<Vec<_>>();
                let ok = matches!(
                    files.as_slice(),
                    [RegisterFile::Temp | RegisterFile::Const, RegisterFile::Temp]
                );
                if !ok {
                    let msg = "bem reads r# or c#, then r#".to_string();
                    return Err(self.err(i, ins, "bem", msg));
                }
            }
            _ => {}
        }
        Ok(())
    }
}
