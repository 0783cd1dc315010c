//! The texture-addressing instructions of ps_1_x: the 1_1–1_3 family
//! (tex, texcoord, texkill, texbem(l), texreg2*, the texm3x* sequences,
//! texdp3(tex)) and the 1_4 block instructions (texld, texcrd, texkill,
//! texdepth).

use super::rules::{RGB, XYWW, XYZW, XYZZ, is_texm, needed_components, reads_own_coordinates};
use super::{Texm, Walk, bit};
use crate::shader::error::ShaderError;
use crate::shader::ir::{Instruction, Src};
use crate::shader::opcode::Opcode;
use crate::shader::token::{Register, RegisterFile, SrcModifier, WriteMask};

impl Walk {
    /// The matrix rows run back to back on consecutive `t#` with one
    /// source: texm3x2pad then texm3x2tex/texm3x2depth; texm3x3pad twice
    /// then texm3x3tex/texm3x3spec/texm3x3vspec/texm3x3.
    pub(super) fn texm_sequence(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        use Opcode::*;
        let op = ins.opcode;
        let dst = ins.dst.map_or(u16::MAX, |d| d.reg.index);
        let src = ins.srcs().first().map_or(u16::MAX, |s| s.reg.index);
        let bad_reg = |s: &Self, what: &str| {
            let msg = format!("{what} (the rows run on consecutive t# with one source register)");
            Err(s.err(i, ins, "texm-register", msg))
        };
        match (self.texm, op) {
            (None, TexM3x2Pad) => self.texm = Some((Texm::Two, dst, src)),
            (None, TexM3x3Pad) => self.texm = Some((Texm::ThreeSecond, dst, src)),
            (None, _) if is_texm(op) => {
                let msg = format!(
                    "{} must directly follow its texm*pad row(s)",
                    op.base_name()
                );
                return Err(self.err(i, ins, "texm-sequence", msg));
            }
            (None, _) => {}
            (Some((Texm::Two, base, s0)), TexM3x2Tex | TexM3x2Depth) => {
                if u32::from(dst) != u32::from(base) + 1 || src != s0 {
                    return bad_reg(self, "texm3x2 second row must write t(m+1) from t(n)");
                }
                self.texm = None;
            }
            (Some((Texm::ThreeSecond, base, s0)), TexM3x3Pad) => {
                if u32::from(dst) != u32::from(base) + 1 || src != s0 {
                    return bad_reg(self, "second texm3x3pad must write t(m+1) from t(n)");
                }
                self.texm = Some((Texm::ThreeFinal, base, s0));
            }
            (
                Some((Texm::ThreeFinal, base, s0)),
                TexM3x3Tex | TexM3x3Spec | TexM3x3VSpec | TexM3x3,
            ) => {
                if u32::from(dst) != u32::from(base) + 2 || src != s0 {
                    return bad_reg(self, "texm3x3 third row must write t(m+2) from t(n)");
                }
                self.texm = None;
            }
            (Some((state, _, _)), _) => {
                let want = match state {
                    Texm::Two => "texm3x2tex or texm3x2depth",
                    Texm::ThreeSecond => "a second texm3x3pad",
                    Texm::ThreeFinal => "texm3x3tex, texm3x3spec, texm3x3vspec or texm3x3",
                };
                let msg = format!("incomplete texm sequence: {want} must come next");
                return Err(self.err(i, ins, "texm-sequence", msg));
            }
        }
        Ok(())
    }

    /// A texture-addressing instruction of 1_1–1_3.
    pub(super) fn texture11(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        use Opcode::*;
        let (p, op) = (self.p, ins.opcode);
        if self.arith_seen {
            let msg = "texture instructions must come before all arithmetic".to_string();
            return Err(self.err(i, ins, "texture-order", msg));
        }
        let Some(d) = ins.dst else {
            return Err(self.err(i, ins, "operand", "missing destination".into()));
        };
        if d.reg.file != RegisterFile::AddrOrTexture {
            let msg = format!("{} writes a t# register", op.base_name());
            return Err(self.err(i, ins, "register-file", msg));
        }
        self.in_range(i, ins, d.reg)?;
        if d.mask.0 != 0xF {
            let msg = "texture instructions write all components".to_string();
            return Err(self.err(i, ins, "write-mask", msg));
        }
        if d.modifiers != 0 || d.shift != 0 {
            let msg = "instruction modifiers are not allowed on texture instructions".to_string();
            return Err(self.err(i, ins, "dst-modifier", msg));
        }
        let di = usize::from(d.reg.index);
        let b = bit(di);
        if self.tex_declared & b != 0 {
            let msg = format!("t{di} is already written by a texture instruction (each t# once)");
            return Err(self.err(i, ins, "texture-register-order", msg));
        }
        if self.tex_declared > b {
            let msg = format!(
                "t{di} after a higher t#: texture instructions write t# in increasing order"
            );
            return Err(self.err(i, ins, "texture-register-order", msg));
        }
        // Sources: t# as written by earlier texture instructions, unswizzled,
        // `_bx2` only (texm* in 1_1, any in 1_2/1_3, as the source-modifier
        // page and the reference validator have it; the texreg2ar page's
        // "no _bx2" is not version-qualified and is not followed);
        // texm3x3spec's eye vector is a plain c#.
        let mut from = 0u8;
        for (k, s) in ins.srcs().iter().enumerate() {
            if op == TexM3x3Spec && k == 1 {
                if s.reg.file != RegisterFile::Const
                    || s.modifier != SrcModifier::None
                    || s.swizzle.0 != XYZW
                {
                    let msg = "texm3x3spec's second source is a plain c# register".to_string();
                    return Err(self.err(i, ins, "texture-operand", msg));
                }
                self.in_range(i, ins, s.reg)?;
                self.consts |= bit(usize::from(s.reg.index));
                continue;
            }
            if s.reg.file != RegisterFile::AddrOrTexture {
                let msg = format!("{} reads a t# register", op.base_name());
                return Err(self.err(i, ins, "texture-operand", msg));
            }
            self.in_range(i, ins, s.reg)?;
            if s.swizzle.0 != XYZW {
                let msg = "texture instructions take no source selector".to_string();
                return Err(self.err(i, ins, "source-swizzle", msg));
            }
            let bx2_ok = p.minor >= 2 || is_texm(op);
            match s.modifier {
                SrcModifier::None => {}
                SrcModifier::Sign if bx2_ok => {}
                _ => {
                    let msg = if p.minor >= 2 {
                        "the only source modifier of a texture instruction is _bx2"
                    } else {
                        "the only source modifier of a ps_1_1 texture instruction is _bx2, on texm* only"
                    };
                    return Err(self.err(i, ins, "src-modifier", msg.into()));
                }
            }
            let si = usize::from(s.reg.index);
            if p.samples(op) && self.level.get(si).copied().unwrap_or(0) >= 2 {
                let msg = format!(
                    "t{si} holds a dependent texture read; its result cannot address another read"
                );
                return Err(self.err(i, ins, "dependent-read", msg));
            }
            let mask = s
                .swizzle
                .components_read(WriteMask(needed_components(p, op, 0xF)))
                .0;
            self.read(i, ins, s.reg, mask)?;
            if matches!(op, TexBem | TexBemL)
                && let Some(br) = self.bem_read.get_mut(si)
            {
                *br |= mask;
            }
            if self.level.get(si).copied().unwrap_or(0) >= 1 {
                from = 1;
            }
        }
        if let (Some(w), Some(lv)) = (self.tex_writer.get_mut(di), self.level.get_mut(di)) {
            *w = [Some(op); 4];
            *lv = if p.samples(op) { 1 + from } else { 0 };
        }
        self.write(d.reg, 0xF, true);
        self.tex_declared |= b;
        if reads_own_coordinates(op) {
            self.coords |= b;
        }
        if p.samples(op) {
            self.samplers |= b;
        }
        self.uses_texkill |= op == TexKill;
        self.writes_depth |= op == TexM3x2Depth;
        self.block_tex += 1;
        self.total_tex += 1;
        if op == TexBemL {
            // texbeml's luminance step costs an arithmetic slot as well.
            self.block_arith += 1;
            self.total_arith += 1;
        }
        Ok(())
    }

    /// A texture instruction of 1_4: texld, texcrd, texkill, texdepth.
    pub(super) fn texture14(&mut self, i: usize, ins: &Instruction) -> Result<(), ShaderError> {
        use Opcode::*;
        let op = ins.opcode;
        let phase1 = self.has_phase && self.phase == 1;
        if self.arith_seen {
            let msg = "texture instructions must come before the arithmetic of their phase".into();
            return Err(self.err(i, ins, "texture-order", msg));
        }
        let Some(d) = ins.dst else {
            return Err(self.err(i, ins, "operand", "missing destination".into()));
        };
        let file_ok = match d.reg.file {
            RegisterFile::Temp => true,
            RegisterFile::AddrOrTexture => op == TexKill,
            _ => false,
        };
        if !file_ok {
            let msg = format!(
                "{} writes an r# register (texkill: r# or t#)",
                op.mnemonic(0, self.v)
            );
            return Err(self.err(i, ins, "register-file", msg));
        }
        self.in_range(i, ins, d.reg)?;
        if d.modifiers != 0 || d.shift != 0 {
            let msg = "instruction modifiers are not allowed on texture instructions".to_string();
            return Err(self.err(i, ins, "dst-modifier", msg));
        }
        let src = ins.srcs().first().copied();
        let dw = src.is_some_and(|s| s.modifier == SrcModifier::Dw);
        let mask_ok = match op {
            TexCoord if dw => d.mask.0 == 0x3,
            TexCoord => d.mask.0 == RGB,
            _ => d.mask.0 == 0xF,
        };
        if !mask_ok {
            let msg = match op {
                TexCoord => "texcrd writes .xyz (.xy with a _dw source)",
                _ => "texld, texkill and texdepth take no write mask",
            };
            return Err(self.err(i, ins, "write-mask", msg.into()));
        }
        let di = usize::from(d.reg.index);
        match op {
            TexDepth => {
                if self.texdepth_seen || d.reg.index != 5 {
                    let msg = "texdepth is used once, on r5".to_string();
                    return Err(self.err(i, ins, "texdepth", msg));
                }
                if phase1 {
                    let msg = "texdepth belongs after the phase marker".to_string();
                    return Err(self.err(i, ins, "phase", msg));
                }
            }
            TexKill if phase1 => {
                let msg = "with a phase marker, texkill belongs after it".to_string();
                return Err(self.err(i, ins, "phase", msg));
            }
            _ => {}
        }
        if self.texdepth_seen && d.reg.file == RegisterFile::Temp && d.reg.index == 5 {
            let msg = "r5 is no longer available after texdepth".to_string();
            return Err(self.err(i, ins, "texdepth", msg));
        }
        if let Some(s) = src {
            self.texture14_source(i, ins, s, phase1)?;
        }
        // texkill and texdepth read their own register.
        let own_read = match (op, d.reg.file) {
            (TexKill, RegisterFile::Temp) => RGB,
            (TexDepth, _) => 0x3,
            _ => 0,
        };
        if own_read != 0 {
            self.dependent14(i, ins, d.reg)?;
            self.read(i, ins, d.reg, own_read)?;
        }
        if d.reg.file == RegisterFile::Temp {
            if self.tex_dst_in_phase & bit(di) != 0 {
                let msg = format!(
                    "r{di} is already the destination of a texture instruction in this phase"
                );
                return Err(self.err(i, ins, "texture-register-order", msg));
            }
            self.tex_dst_in_phase |= bit(di);
        }
        match op {
            Tex => {
                self.write(d.reg, 0xF, true);
                self.samplers |= bit(di);
            }
            TexCoord => {
                self.write(d.reg, d.mask.0, true);
                // A texcrd without blue leaves blue undefined ("texcrd - ps").
                if d.mask.0 & 0x4 == 0
                    && let Some(t) = self.temp.get_mut(di)
                {
                    if *t & 0x4 != 0 {
                        self.zapped_blue |= bit(di);
                    }
                    *t &= !0x4;
                }
            }
            TexKill => {
                self.uses_texkill = true;
                if d.reg.file == RegisterFile::AddrOrTexture {
                    self.coords |= bit(di);
                }
            }
            _ => {
                self.texdepth_seen = true;
                self.writes_depth = true;
            }
        }
        self.block_tex += 1;
        self.total_tex += 1;
        Ok(())
    }

    /// The source of texld/texcrd (texld - ps_1_4, texcrd - ps, "ps_1_4
    /// source register modifiers for texld, texcrd").
    fn texture14_source(
        &mut self,
        i: usize,
        ins: &Instruction,
        s: Src,
        phase1: bool,
    ) -> Result<(), ShaderError> {
        use Opcode::*;
        let op = ins.opcode;
        let file_ok = match s.reg.file {
            RegisterFile::AddrOrTexture => true,
            RegisterFile::Temp => op == Tex,
            _ => false,
        };
        if !file_ok {
            let msg = match op {
                Tex => "texld reads t# or r#",
                _ => "texcrd reads t#",
            };
            return Err(self.err(i, ins, "texture-operand", msg.into()));
        }
        self.in_range(i, ins, s.reg)?;
        let temp = s.reg.file == RegisterFile::Temp;
        if temp && phase1 {
            let msg = "texld reads only t# before the phase marker".to_string();
            return Err(self.err(i, ins, "texture-operand", msg));
        }
        let sw = s.swizzle.0;
        match s.modifier {
            SrcModifier::None => {}
            SrcModifier::Dz => {
                if op != Tex || !temp {
                    let msg = "_dz divides only an r# source of texld".to_string();
                    return Err(self.err(i, ins, "src-modifier", msg));
                }
                if sw != XYZZ && sw != XYZW {
                    let msg = "_dz goes with the .xyz selector".to_string();
                    return Err(self.err(i, ins, "source-swizzle", msg));
                }
                self.dz_count += 1;
                if self.dz_count > 2 {
                    let msg = "_dz may be used at most twice in a shader".to_string();
                    return Err(self.err(i, ins, "projective-modifier", msg));
                }
            }
            SrcModifier::Dw => {
                if temp {
                    let msg = "_dw divides only a t# source".to_string();
                    return Err(self.err(i, ins, "src-modifier", msg));
                }
                if sw != XYWW {
                    let msg = "_dw goes with the .xyw selector".to_string();
                    return Err(self.err(i, ins, "source-swizzle", msg));
                }
            }
            _ => {
                let msg = "texld and texcrd take only the _dz and _dw modifiers".to_string();
                return Err(self.err(i, ins, "src-modifier", msg));
            }
        }
        let sel_ok = sw == XYZZ || sw == XYZW || (!temp && sw == XYWW);
        if !sel_ok {
            let msg = if temp {
                "an r# source of texld takes only the .xyz selector"
            } else {
                "a t# source takes only the .xyz or .xyw selector"
            };
            return Err(self.err(i, ins, "source-swizzle", msg.into()));
        }
        let si = usize::from(s.reg.index);
        if temp {
            let mask = s.swizzle.components_read(WriteMask(RGB)).0;
            self.dependent14(i, ins, s.reg)?;
            self.read(i, ins, s.reg, mask)?;
        } else {
            // Every read of one t# uses one of .xyz / .xyw (alpha ignored).
            if let Some(seen) = self.coord_selector.get_mut(si) {
                match *seen {
                    Some(prev) if prev & 0x3F != sw & 0x3F => {
                        let msg = format!(
                            "t{si} is read with different selectors (.xyz and .xyw) in one shader"
                        );
                        return Err(self.err(i, ins, "source-swizzle", msg));
                    }
                    _ => *seen = Some(sw),
                }
            }
            self.coords |= bit(si);
        }
        Ok(())
    }

    /// 1_4: a texture instruction cannot use a result of another texture
    /// instruction of the same phase (dependent reads need the marker).
    fn dependent14(&self, i: usize, ins: &Instruction, reg: Register) -> Result<(), ShaderError> {
        if reg.file != RegisterFile::Temp {
            return Ok(());
        }
        let idx = usize::from(reg.index);
        let Some(tp) = self.tex_phase.get(idx) else {
            return Ok(());
        };
        // The reference validator looks at red, green and blue whatever
        // the selector: texture instructions consume 3-tuples.
        if tp.iter().take(3).any(|&ph| ph != 0 && ph == self.phase) {
            let msg = format!(
                "r{idx} was written by a texture instruction of this phase; a dependent read needs a phase marker between the two"
            );
            return Err(self.err(i, ins, "dependent-read", msg));
        }
        Ok(())
    }
}
