//! ps_1_1–ps_1_4 programs rewritten into the ps_2_0 instruction forms both
//! interpreters already run ([`lower`]), and the constant bank such a
//! program reads ([`constants`]).
//!
//! Why a rewrite: every ps_1_x texture instruction is a short sequence of
//! ps_2_0 operations (dot products, a multiply-add by the bump matrix, a
//! `texld`), so one lowering gives the 8-lane and the scalar interpreter
//! the same program and they agree bit for bit without a second
//! implementation of each instruction. The rewrite runs once per prepared
//! program (see `prepare`), never per pixel.
//!
//! The lowered program's registers:
//!
//! | Lowered | Holds |
//! |---|---|
//! | `r0`–`r5` | ps_1_x `r0`–`r5` |
//! | `r8`–`r15` | ps_1_1–1_3 `t0`–`t7` as registers (texture results, `texcoord` values) |
//! | `r16`–`r23` | scratch of the texture-instruction sequences |
//! | `r24` | a co-issued pair's first result, held until its partner has read its sources |
//! | `v0`, `v1`, `t0`–`t7` | colour inputs and texture-coordinate sets (the iterated values) |
//! | `c0`–`c7` | application constants, clamped to [−1, 1] ([`constants`]) |
//! | `c8 + 2s`, `c9 + 2s` | stage s's `BUMPENVMAT00/01/10/11` and `(LSCALE, LOFFSET, 0, 0)` |
//! | `c32`… | `def`s: the program's own (clamped) and the lowering's immediates |
//!
//! Semantics (bytecode.md §7.13; Microsoft's ps_1_x reference where the
//! spec is brief):
//! - Constants, application-set and `def`, are clamped to [−1, 1] before
//!   use (Wine `constant_clamp_ps_test`: what Windows drivers do). Other
//!   values are float32 and unclamped (`PixelShader1xMaxValue` is FLT_MAX at
//!   every level, caps.md).
//! - A co-issued pair reads all its sources before either half writes.
//! - The result shift (`_x2` … `_d8`) scales before `_sat`.
//! - ps_1_1–1_3 `tex`, `texreg2*`, `texm3x*`, `texdp3tex`, `texbem(l)`
//!   sample the stage numbered by the destination; `tex` divides by the
//!   component `D3DTTFF_PROJECTED` names ([`ExecKey::proj`](super::ExecKey)).
//! - ps_1_4 ignores `D3DTTFF_PROJECTED`; `_dz`/`_dw` divide x and y by z/w
//!   (`texcrd`: 1.0 where the divisor is 0; z and w are undefined there and
//!   keep the source's values). The `phase` marker zeroes the alpha of
//!   `r0`–`r5` (alpha does not persist across it).
//! - `texm3x2depth` / `texdepth` write depth `u / v`, 1.0 where `v` is 0.
//! - `r0` is the colour (`oC0`); nothing else is written.
//!
//! Invariants: [`lower`] accepts any decodable ps_1_x program (valid or
//! not) and produces a ps_2_0-shaped program whose every register index is
//! in range for `prepare`; it never panics.

use crate::shader::ir::{Dst, Instruction, Payload, Program, Src};
use crate::shader::opcode::Opcode;
use crate::shader::token::{
    DST_SATURATE, Register, RegisterFile, ShaderType, SrcModifier, Swizzle, Version, WriteMask,
};

/// Number of application float constants a ps_1_x program reads (`c0`–`c7`).
pub const APP_CONSTANTS: usize = 8;
/// First constant of the bump-environment block (two per stage).
const BUMP_BASE: u16 = 8;
/// Length of the constant bank [`constants`] builds.
pub const BANK_LEN: usize = 24;
/// First constant the lowering's `def`s use.
const IMM_BASE: u16 = 32;

/// First register of the ps_1_1–1_3 `t#` working registers.
const TEX_REGS: u16 = 8;
/// First scratch register.
const SCRATCH: u16 = 16;
/// The co-issue holding register.
const COISSUE: u16 = 24;

/// A ps_1_x constant as the program sees it: clamped to [−1, 1] (NaN stays NaN).
pub fn clamp_constant(x: f32) -> f32 {
    x.clamp(-1.0, 1.0)
}

/// The bump-environment values of one texture stage, as the D3D9 texture
/// stage states give them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BumpEnv {
    /// `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11`.
    pub mat: [f32; 4],
    /// `D3DTSS_BUMPENVLSCALE`.
    pub lscale: f32,
    /// `D3DTSS_BUMPENVLOFFSET`.
    pub loffset: f32,
}

/// The float constants a lowered ps_1_x program reads: `app` `c0`–`c7`
/// clamped to [−1, 1] (missing ones are 0), then the bump-environment
/// block of the eight stages.
pub fn constants(app: &[[f32; 4]], bump: &[BumpEnv; 8]) -> Vec<[f32; 4]> {
    let mut bank = vec![[0.0f32; 4]; BANK_LEN];
    for (dst, src) in bank.iter_mut().zip(app.iter().take(APP_CONSTANTS)) {
        *dst = src.map(clamp_constant);
    }
    for (s, b) in bump.iter().enumerate() {
        bank[BUMP_BASE as usize + 2 * s] = b.mat;
        bank[BUMP_BASE as usize + 2 * s + 1] = [b.lscale, b.loffset, 0.0, 0.0];
    }
    bank
}

/// Projection divisors of the eight stages packed for [`super::ExecKey::proj`]:
/// 4 bits per stage, 0 = not projected, else the divisor component + 1.
pub fn pack_projection(divisors: [Option<u8>; 8]) -> u32 {
    divisors.iter().enumerate().fold(0, |acc, (s, d)| match d {
        Some(c) => acc | (u32::from(c & 3) + 1) << (4 * s),
        None => acc,
    })
}

fn reg(file: RegisterFile, index: u16) -> Register {
    Register::new(file, index)
}

fn temp(index: u16) -> Register {
    reg(RegisterFile::Temp, index)
}

fn swizzle(c: [u8; 4]) -> Swizzle {
    Swizzle((c[0] & 3) | (c[1] & 3) << 2 | (c[2] & 3) << 4 | (c[3] & 3) << 6)
}

fn src(r: Register, sw: [u8; 4]) -> Src {
    let mut s = Src::new(r);
    s.swizzle = swizzle(sw);
    s
}

/// `s` read through `sel` (component i of the result is `s`'s component `sel[i]`).
fn select(s: Src, sel: [u8; 4]) -> Src {
    let mut out = s;
    out.swizzle = swizzle(sel.map(|c| s.swizzle.get(c as usize & 3)));
    out
}

fn negate(s: Src) -> Src {
    let mut out = s;
    out.modifier = match s.modifier {
        SrcModifier::None => SrcModifier::Neg,
        SrcModifier::Neg => SrcModifier::None,
        m => m,
    };
    out
}

fn dst(r: Register, mask: u8) -> Dst {
    let mut d = Dst::new(r);
    d.mask = WriteMask(mask & 0xF);
    d
}

const XYZW: [u8; 4] = [0, 1, 2, 3];
const X: u8 = 1;
const Y: u8 = 2;
const XY: u8 = 3;
const XYZ: u8 = 7;
const W: u8 = 8;

struct Lowering {
    v: Version,
    out: Vec<Instruction>,
    defs: Vec<Instruction>,
    imm_next: u16,
    /// Coordinate sets of the open `texm3x3pad` rows (for `texm3x3vspec`).
    pad_rows: Vec<u16>,
}

impl Lowering {
    fn is14(&self) -> bool {
        self.v.minor >= 4
    }

    fn push(&mut self, op: Opcode, d: Option<Dst>, srcs: &[Src]) {
        let mut ins = Instruction::new(op);
        ins.dst = d;
        for s in srcs {
            ins.push_src(*s);
        }
        self.out.push(ins);
    }

    /// A new `def` constant holding `v`, read with `sw`.
    fn imm(&mut self, v: [f32; 4], sw: [u8; 4]) -> Src {
        if let Some(existing) = self.defs.iter().find_map(|d| match d.payload {
            Payload::Def(bits) if bits == v.map(f32::to_bits) => d.dst.map(|x| x.reg),
            _ => None,
        }) {
            return src(existing, sw);
        }
        let r = reg(RegisterFile::Const, self.imm_next);
        self.imm_next = self.imm_next.saturating_add(1).min(2047);
        let mut ins = Instruction::new(Opcode::Def);
        ins.dst = Some(Dst::new(r));
        ins.payload = Payload::Def(v.map(f32::to_bits));
        self.defs.push(ins);
        src(r, sw)
    }

    fn one(&mut self) -> Src {
        self.imm([0.0, 1.0, 0.0, 0.0], [1; 4])
    }

    fn zero(&mut self) -> Src {
        self.imm([0.0, 1.0, 0.0, 0.0], [0; 4])
    }

    /// The coordinate set `n` (the iterated `t#`).
    fn coord(&self, n: u16) -> Register {
        reg(RegisterFile::AddrOrTexture, n & 7)
    }

    /// ps_1_1–1_3 `t#` as a register.
    fn tex_reg(&self, n: u16) -> Register {
        temp(TEX_REGS + (n & 7))
    }

    fn scratch(&self, k: u16) -> Register {
        temp(SCRATCH + (k & 7))
    }

    fn bump(&self, stage: u16, sw: [u8; 4]) -> Src {
        src(reg(RegisterFile::Const, BUMP_BASE + 2 * (stage & 7)), sw)
    }

    fn luminance(&self, stage: u16, sw: [u8; 4]) -> Src {
        src(
            reg(RegisterFile::Const, BUMP_BASE + 2 * (stage & 7) + 1),
            sw,
        )
    }

    fn sampler(&self, stage: u16) -> Src {
        Src::new(reg(RegisterFile::Sampler, stage & 7))
    }

    /// A ps_1_x register read as the lowered program names it.
    fn map_src_reg(&self, r: Register) -> Register {
        match r.file {
            RegisterFile::Temp => temp(r.index.min(7)),
            RegisterFile::Input => reg(RegisterFile::Input, r.index & 1),
            RegisterFile::Const => {
                if (r.index as usize) < APP_CONSTANTS {
                    r
                } else {
                    // Not a ps_1_x register (only unvalidated programs get
                    // here): a constant no bank entry holds, which reads 0.
                    reg(RegisterFile::Const, 2047)
                }
            }
            RegisterFile::AddrOrTexture if self.is14() => self.coord(r.index),
            RegisterFile::AddrOrTexture => self.tex_reg(r.index),
            _ => temp(7),
        }
    }

    fn map_src(&self, s: &Src) -> Src {
        let mut out = *s;
        out.reg = self.map_src_reg(s.reg);
        out.relative = None;
        if matches!(
            out.modifier,
            SrcModifier::Dz | SrcModifier::Dw | SrcModifier::Not
        ) {
            out.modifier = SrcModifier::None;
        }
        out
    }

    /// The register a ps_1_x destination writes in the lowered program.
    fn map_dst_reg(&self, r: Register) -> Register {
        match r.file {
            RegisterFile::Temp => temp(r.index.min(7)),
            RegisterFile::AddrOrTexture if !self.is14() => self.tex_reg(r.index),
            // Nothing else is a ps_1_x destination: a register nothing reads.
            _ => temp(7),
        }
    }

    /// Emits `op d, srcs` with the instruction's result shift and `_sat`
    /// applied in that order, writing `target` instead of `d`'s register.
    fn arith(&mut self, op: Opcode, d: &Dst, target: Register, srcs: &[Src]) {
        let shift = d.shift;
        let sat = d.saturate();
        let mask = d.mask.0 & 0xF;
        let mut first = dst(target, mask);
        if sat && shift == 0 {
            first.modifiers |= DST_SATURATE;
        }
        self.push(op, Some(first), srcs);
        if shift != 0 {
            let k = (2.0f32).powi(i32::from(shift));
            let factor = self.imm([k; 4], XYZW);
            let mut second = dst(target, mask);
            if sat {
                second.modifiers |= DST_SATURATE;
            }
            self.push(Opcode::Mul, Some(second), &[src(target, XYZW), factor]);
        }
    }

    /// Samples `stage` at `coord` into `target` (`project`: divide by w).
    fn sample(&mut self, target: Register, coord: Src, stage: u16, project: bool) {
        let mut ins = Instruction::new(Opcode::Tex);
        ins.control = u8::from(project);
        ins.dst = Some(Dst::new(target));
        ins.push_src(coord);
        ins.push_src(self.sampler(stage));
        self.out.push(ins);
    }

    /// `depth = u / v`, 1.0 where `v` is 0 (texm3x2depth, texdepth).
    fn depth_ratio(&mut self, u: Src, v: Src) {
        let q = self.scratch(3);
        self.push(Opcode::Rcp, Some(dst(q, X)), &[v]);
        self.push(Opcode::Mul, Some(dst(q, X)), &[u, src(q, [0; 4])]);
        let mut test = v;
        test.modifier = SrcModifier::AbsNeg;
        let one = self.one();
        self.push(
            Opcode::Cmp,
            Some(dst(reg(RegisterFile::DepthOut, 0), 0xF)),
            &[test, one, src(q, [0; 4])],
        );
    }

    /// `n.x` … `n.z` of a 3x3 row: `dot(coordinate set, source)`.
    fn row(&mut self, comp: u8, set: u16, s: Src) {
        let m = self.scratch(2);
        self.push(
            Opcode::Dp3,
            Some(dst(m, 1 << comp)),
            &[src(self.coord(set), XYZW), s],
        );
    }

    /// Samples `stage` at the reflection of eye vector `e` about the
    /// normal in scratch 2: `2·N·(N·E)/(N·N) − E`.
    fn reflect_sample(&mut self, target: Register, stage: u16, e: Src) {
        let n = src(self.scratch(2), XYZW);
        let k = self.scratch(4);
        let r = self.scratch(5);
        self.push(Opcode::Dp3, Some(dst(k, X)), &[n, e]);
        self.push(Opcode::Dp3, Some(dst(k, Y)), &[n, n]);
        self.push(Opcode::Rcp, Some(dst(k, Y)), &[src(k, [1; 4])]);
        self.push(
            Opcode::Mul,
            Some(dst(k, X)),
            &[src(k, [0; 4]), src(k, [1; 4])],
        );
        self.push(
            Opcode::Add,
            Some(dst(k, X)),
            &[src(k, [0; 4]), src(k, [0; 4])],
        );
        self.push(
            Opcode::Mad,
            Some(dst(r, XYZ)),
            &[n, src(k, [0; 4]), negate(e)],
        );
        self.sample(target, src(r, XYZW), stage, false);
    }

    /// `u' = u + M00·s.x + M10·s.y`, `v' = v + M01·s.x + M11·s.y` into scratch 0.xy.
    fn bump_offset(&mut self, stage: u16, s: Src) {
        let b = self.scratch(0);
        let bx = self.bump(stage, [0, 1, 0, 1]);
        let by = self.bump(stage, [2, 3, 2, 3]);
        self.push(Opcode::Mul, Some(dst(b, XY)), &[select(s, [0; 4]), bx]);
        self.push(
            Opcode::Mad,
            Some(dst(b, XY)),
            &[select(s, [1; 4]), by, src(b, XYZW)],
        );
    }

    /// One ps_1_x instruction; `target` overrides an arithmetic destination
    /// (co-issue).
    fn instruction(&mut self, ins: &Instruction, proj: u32, target: Option<Register>) {
        use Opcode as O;
        let Some(d) = ins.dst else {
            if ins.opcode == O::Phase && self.is14() {
                let zero = self.zero();
                for r in 0..6 {
                    self.push(O::Mov, Some(dst(temp(r), W)), &[zero]);
                }
            }
            return;
        };
        let srcs: Vec<Src> = ins.srcs().iter().map(|s| self.map_src(s)).collect();
        let s0 = srcs.first().copied();
        let n = d.reg.index & 7;
        match ins.opcode {
            O::Def | O::Dcl | O::DefI | O::DefB | O::Label => {}
            O::TexCoord if self.is14() => {
                let Some(raw) = ins.srcs().first() else {
                    return;
                };
                let t = self.map_dst_reg(d.reg);
                let s = self.map_src(raw);
                let mask = d.mask.0 & 0xF;
                match raw.modifier {
                    SrcModifier::Dz | SrcModifier::Dw => {
                        let by = if raw.modifier == SrcModifier::Dz {
                            2
                        } else {
                            3
                        };
                        let div = select(s, [by; 4]);
                        let q = self.scratch(6);
                        self.push(O::Rcp, Some(dst(q, X)), &[div]);
                        self.push(O::Mul, Some(dst(q, XY)), &[s, src(q, [0; 4])]);
                        let mut test = div;
                        test.modifier = SrcModifier::AbsNeg;
                        let one = self.one();
                        self.push(O::Cmp, Some(dst(q, XY)), &[test, one, src(q, XYZW)]);
                        if mask & XY != 0 {
                            self.push(O::Mov, Some(dst(t, mask & XY)), &[src(q, XYZW)]);
                        }
                        if mask & !XY != 0 {
                            self.push(O::Mov, Some(dst(t, mask & !XY)), &[s]);
                        }
                    }
                    _ => self.push(O::Mov, Some(dst(t, mask)), &[s]),
                }
            }
            O::TexCoord => {
                let t = self.tex_reg(n);
                let mut sat = dst(t, XYZ);
                sat.modifiers |= DST_SATURATE;
                self.push(O::Mov, Some(sat), &[src(self.coord(n), XYZW)]);
                let one = self.one();
                self.push(O::Mov, Some(dst(t, W)), &[one]);
            }
            O::Tex if self.is14() => {
                let Some(raw) = ins.srcs().first() else {
                    return;
                };
                let s = self.map_src(raw);
                let t = self.map_dst_reg(d.reg);
                match raw.modifier {
                    SrcModifier::Dz => self.sample(t, select(s, [0, 1, 2, 2]), n, true),
                    SrcModifier::Dw => self.sample(t, s, n, true),
                    _ => self.sample(t, s, n, false),
                }
            }
            O::Tex => {
                let c = src(self.coord(n), XYZW);
                match (proj >> (4 * n)) & 0xF {
                    0 => self.sample(self.tex_reg(n), c, n, false),
                    k => {
                        let by = (k - 1) as u8 & 3;
                        self.sample(self.tex_reg(n), select(c, [0, 1, 2, by]), n, true)
                    }
                }
            }
            O::TexKill => {
                let tested = match d.reg.file {
                    RegisterFile::AddrOrTexture => self.coord(n),
                    _ => self.map_dst_reg(d.reg),
                };
                let mut k = Instruction::new(O::TexKill);
                k.dst = Some(dst(tested, XYZ));
                self.out.push(k);
                if !self.is14() && d.reg.file == RegisterFile::AddrOrTexture {
                    let c = src(self.coord(n), XYZW);
                    self.push(O::Mov, Some(dst(self.tex_reg(n), 0xF)), &[c]);
                }
            }
            O::TexBem | O::TexBemL => {
                let Some(s) = s0 else { return };
                self.bump_offset(n, s);
                let b = self.scratch(0);
                self.push(
                    O::Add,
                    Some(dst(b, XY)),
                    &[src(b, XYZW), src(self.coord(n), XYZW)],
                );
                self.push(O::Mov, Some(dst(b, 0xC)), &[src(self.coord(n), XYZW)]);
                let t = self.tex_reg(n);
                self.sample(t, src(b, XYZW), n, false);
                if ins.opcode == O::TexBemL {
                    let l = self.scratch(1);
                    let mut lum = dst(l, X);
                    lum.modifiers |= DST_SATURATE;
                    let (ls, lo) = (self.luminance(n, [0; 4]), self.luminance(n, [1; 4]));
                    self.push(O::Mad, Some(lum), &[select(s, [2; 4]), ls, lo]);
                    self.push(O::Mul, Some(dst(t, XYZ)), &[src(t, XYZW), src(l, [0; 4])]);
                }
            }
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => {
                let Some(s) = s0 else { return };
                let sel = match ins.opcode {
                    O::TexReg2Ar => [3, 0, 0, 0],
                    O::TexReg2Gb => [1, 2, 2, 2],
                    _ => [0, 1, 2, 2],
                };
                self.sample(self.tex_reg(n), select(s, sel), n, false);
            }
            O::TexM3x2Pad => {
                let Some(s) = s0 else { return };
                self.row(0, n, s);
            }
            O::TexM3x2Tex | O::TexM3x2Depth => {
                let Some(s) = s0 else { return };
                self.row(1, n, s);
                let m = self.scratch(2);
                if ins.opcode == O::TexM3x2Tex {
                    self.sample(self.tex_reg(n), src(m, [0, 1, 1, 1]), n, false);
                } else {
                    self.depth_ratio(src(m, [0; 4]), src(m, [1; 4]));
                }
            }
            O::TexM3x3Pad => {
                let Some(s) = s0 else { return };
                if self.pad_rows.len() >= 2 {
                    self.pad_rows.clear();
                }
                let comp = self.pad_rows.len() as u8;
                self.pad_rows.push(n);
                self.row(comp, n, s);
            }
            O::TexM3x3Tex | O::TexM3x3 | O::TexM3x3Spec | O::TexM3x3VSpec => {
                let Some(s) = s0 else { return };
                self.row(2, n, s);
                let rows = std::mem::take(&mut self.pad_rows);
                let m = self.scratch(2);
                let t = self.tex_reg(n);
                match ins.opcode {
                    O::TexM3x3Tex => self.sample(t, src(m, [0, 1, 2, 2]), n, false),
                    O::TexM3x3 => {
                        self.push(O::Mov, Some(dst(t, XYZ)), &[src(m, XYZW)]);
                        let one = self.one();
                        self.push(O::Mov, Some(dst(t, W)), &[one]);
                    }
                    O::TexM3x3Spec => {
                        let e = srcs.get(1).copied().unwrap_or(src(temp(7), XYZW));
                        self.reflect_sample(t, n, e);
                    }
                    _ => {
                        let e = self.scratch(7);
                        let sets = [
                            rows.first().copied().unwrap_or(n),
                            rows.get(1).copied().unwrap_or(n),
                            n,
                        ];
                        for (k, set) in sets.into_iter().enumerate() {
                            self.push(
                                O::Mov,
                                Some(dst(e, 1 << k)),
                                &[src(self.coord(set), [3; 4])],
                            );
                        }
                        self.reflect_sample(t, n, src(e, XYZW));
                    }
                }
            }
            O::TexDp3Tex => {
                let Some(s) = s0 else { return };
                let m = self.scratch(2);
                self.push(O::Dp3, Some(dst(m, X)), &[src(self.coord(n), XYZW), s]);
                let zero = self.zero();
                self.push(O::Mov, Some(dst(m, 0xE)), &[zero]);
                self.sample(self.tex_reg(n), src(m, XYZW), n, false);
            }
            O::TexDp3 => {
                let Some(s) = s0 else { return };
                self.push(
                    O::Dp3,
                    Some(dst(self.tex_reg(n), 0xF)),
                    &[src(self.coord(n), XYZW), s],
                );
            }
            O::TexDepth => {
                let r = self.map_dst_reg(d.reg);
                self.depth_ratio(src(r, [0; 4]), src(r, [1; 4]));
            }
            O::Bem => {
                let (Some(a), Some(b)) = (s0, srcs.get(1).copied()) else {
                    return;
                };
                self.bump_offset(n, b);
                let t = target.unwrap_or(self.map_dst_reg(d.reg));
                let mut dd = d;
                dd.mask = WriteMask(d.mask.0 & XY);
                self.arith(O::Add, &dd, t, &[src(self.scratch(0), XYZW), a]);
            }
            O::Nop
            | O::If
            | O::IfC
            | O::Else
            | O::EndIf
            | O::Loop
            | O::Rep
            | O::EndLoop
            | O::EndRep
            | O::Break
            | O::BreakC
            | O::BreakP
            | O::Call
            | O::CallNz
            | O::Ret
            | O::TexLdl
            | O::TexLdd
            | O::SetP
            | O::MovA
            | O::Dsx
            | O::Dsy
            | O::Phase => {}
            op => {
                let t = target.unwrap_or(self.map_dst_reg(d.reg));
                self.arith(op, &d, t, &srcs);
            }
        }
    }
}

/// Whether `op` is an arithmetic instruction that can be the first half of
/// a co-issued pair (it writes through [`Lowering::arith`]).
fn pairs(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Mov
            | O::Add
            | O::Sub
            | O::Mad
            | O::Mul
            | O::Dp3
            | O::Dp4
            | O::Lrp
            | O::Cnd
            | O::Cmp
            | O::Bem
    )
}

/// Whether `ins` reads register `r` (in the lowered naming).
fn reads(l: &Lowering, ins: &Instruction, r: Register) -> bool {
    ins.srcs().iter().any(|s| l.map_src_reg(s.reg) == r)
}

/// The lowered form of the ps_1_x program `program`; `proj` packs the
/// stages' projection divisors ([`pack_projection`], ps_1_1–1_3 `tex` only).
pub(crate) fn lower(program: &Program, proj: u32) -> Program {
    let v = program.version;
    let mut l = Lowering {
        v,
        out: Vec::new(),
        defs: Vec::new(),
        imm_next: IMM_BASE,
        pad_rows: Vec::new(),
    };
    // The program's own defs, clamped like every ps_1_x constant.
    let mut own_defs = Vec::new();
    for ins in &program.instructions {
        if let (Opcode::Def, Some(d), Payload::Def(bits)) = (ins.opcode, ins.dst, ins.payload)
            && d.reg.file == RegisterFile::Const
            && (d.reg.index as usize) < APP_CONSTANTS
        {
            let mut def = *ins;
            def.payload = Payload::Def(bits.map(|b| clamp_constant(f32::from_bits(b)).to_bits()));
            own_defs.push(def);
        }
    }
    let instrs = &program.instructions;
    // The destination (register, mask) of a pair's first half, written to
    // the holding register and copied back once its partner has run. A
    // hold is only taken when a partner follows, so the loop ends with
    // nothing held.
    let mut held: Option<(Register, u8)> = None;
    for (i, ins) in instrs.iter().enumerate() {
        let partner = instrs.get(i + 1).filter(|next| next.coissue);
        let hold = match (ins.dst, partner) {
            (Some(d), Some(next)) if pairs(ins.opcode) && reads(&l, next, l.map_dst_reg(d.reg)) => {
                Some(d)
            }
            _ => None,
        };
        match hold {
            Some(d) => {
                l.instruction(ins, proj, Some(temp(COISSUE)));
                held = Some((l.map_dst_reg(d.reg), d.mask.0 & 0xF));
                continue;
            }
            None => l.instruction(ins, proj, None),
        }
        if let Some((target, mask)) = held.take() {
            l.push(
                Opcode::Mov,
                Some(dst(target, mask)),
                &[src(temp(COISSUE), XYZW)],
            );
        }
    }
    l.push(
        Opcode::Mov,
        Some(dst(reg(RegisterFile::ColorOut, 0), 0xF)),
        &[src(temp(0), XYZW)],
    );

    // Declarations of the inputs the lowered code reads.
    let mut used = [false; 10];
    for ins in &l.out {
        for s in ins.srcs() {
            match s.reg.file {
                RegisterFile::Input => used[(s.reg.index & 1) as usize] = true,
                RegisterFile::AddrOrTexture => used[2 + (s.reg.index & 7) as usize] = true,
                _ => {}
            }
        }
        if ins.opcode == Opcode::TexKill
            && let Some(d) = ins.dst
            && d.reg.file == RegisterFile::AddrOrTexture
        {
            used[2 + (d.reg.index & 7) as usize] = true;
        }
    }
    let mut instructions = Vec::with_capacity(l.out.len() + l.defs.len() + 16);
    for (k, &u) in used.iter().enumerate() {
        if !u {
            continue;
        }
        let r = if k < 2 {
            reg(RegisterFile::Input, k as u16)
        } else {
            reg(RegisterFile::AddrOrTexture, k as u16 - 2)
        };
        let mut dcl = Instruction::new(Opcode::Dcl);
        dcl.dst = Some(Dst::new(r));
        dcl.payload = Payload::Dcl(crate::shader::ir::Declaration::Semantic {
            usage: if k < 2 {
                crate::vertex::DeclUsage::Color
            } else {
                crate::vertex::DeclUsage::TexCoord
            },
            index: 0,
        });
        instructions.push(dcl);
    }
    instructions.extend(own_defs);
    instructions.extend(l.defs);
    instructions.extend(l.out);
    Program {
        version: Version {
            shader_type: ShaderType::Pixel,
            major: 2,
            minor: 0,
        },
        instructions,
        comments: Vec::new(),
    }
}
