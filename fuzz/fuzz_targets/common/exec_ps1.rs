//! The exec fuzzer's ps_1_1–ps_1_4 programs (see `exec.rs`): the input
//! picks the version, a texture-addressing section that follows the
//! version's register rules (`tex`, `texcoord`, `texkill`, `texbem(l)`,
//! `texreg2*`, the `texm3x2*`/`texm3x3*` groups, `texdp3*`; ps_1_4
//! `texld`/`texcrd` with `_dw`/`_dz`, `phase`, dependent reads, `bem`,
//! `texdepth`), then arithmetic with result shifts, `_sat`, source
//! modifiers, selectors and co-issued pairs. The generator keeps to the
//! D3D9 rules (read ports, selectors, initialised reads, slot counts) so
//! most inputs reach the interpreters; the caller validates at level 9_1
//! and skips the rest. The input also gives the bump-environment states
//! and the stages' projection.

use super::Input;
use warp9::internals::exec::ps1::{BumpEnv, pack_projection};

/// A generated ps_1_x program and the draw state it runs with.
pub(super) struct Ps1Program {
    pub text: String,
    pub bump: [BumpEnv; 8],
    /// Packed projection divisors (`ExecKey::proj`).
    pub proj: u32,
}

struct Gen<'a, 'b> {
    inp: &'b mut Input<'a>,
    minor: u8,
    out: String,
    /// 1_1–1_3 `t#` arithmetic may read (texture results and `texcoord`).
    t_readable: u8,
    /// 1_1–1_3 `t#` a texture instruction may take as its source.
    t_source: u8,
    /// `r#` whose four components are initialised.
    r_full: u8,
    /// ps_1_4: before the phase marker of a program that has one (no
    /// colour inputs yet).
    phase1: bool,
    /// Arithmetic slots used in this phase.
    slots: u32,
}

const MODS: [(&str, &str); 5] = [("", ""), ("-", ""), ("", "_bias"), ("", "_bx2"), ("1-", "")];

impl Gen<'_, '_> {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn is14(&self) -> bool {
        self.minor >= 4
    }

    fn temps(&self) -> u32 {
        if self.is14() { 6 } else { 2 }
    }

    /// A register to read: an initialised `r#`, a readable `t#`, `v#`
    /// (not in ps_1_4's first phase) or one of the two constants `consts`
    /// (at most two distinct `c#` per instruction).
    fn reg(&mut self, consts: [u32; 2]) -> String {
        match self.inp.below(5) {
            0 | 1 => {
                let r = self.inp.below(self.temps());
                if self.r_full & (1 << r) != 0 {
                    return format!("r{r}");
                }
            }
            2 if !self.is14() => {
                let t = self.inp.below(4);
                if self.t_readable & (1 << t) != 0 {
                    return format!("t{t}");
                }
            }
            3 if !self.phase1 => return format!("v{}", self.inp.below(2)),
            _ => {}
        }
        format!("c{}", consts[self.inp.below(2) as usize])
    }

    /// A source with modifier and selector; `alpha_only`: the instruction
    /// writes only alpha (the one place `.b` is a 1_1–1_3 selector);
    /// `plain`: no modifier (lrp's first source takes only `1-x`).
    fn src(&mut self, consts: [u32; 2], alpha_only: bool, lrp0: bool) -> String {
        let reg = self.reg(consts);
        let (pre, post) = if lrp0 {
            self.inp.pick(&[("", ""), ("1-", "")])
        } else {
            self.inp.pick(&MODS)
        };
        let sel = match self.inp.below(6) {
            0 => ".a",
            1 if alpha_only || self.is14() => ".b",
            2 if self.is14() => ".r",
            3 if self.is14() => ".g",
            _ => "",
        };
        let x2 = if self.is14() && post.is_empty() && pre != "1-" && self.inp.chance(6) {
            "_x2"
        } else {
            ""
        };
        format!("{pre}{reg}{post}{x2}{sel}")
    }

    fn shift(&mut self) -> &'static str {
        match self.inp.below(8) {
            0 => "_x2",
            1 => "_x4",
            2 => "_d2",
            3 if self.is14() => "_x8",
            4 if self.is14() => "_d4",
            5 if self.is14() => "_d8",
            _ => "",
        }
    }

    /// One arithmetic instruction writing `mask` of a temp; `coissue`: the
    /// alpha half of a pair (`+`). Returns the opcode written.
    fn arith(&mut self, mask: &str, coissue: bool, consts: [u32; 2]) -> &'static str {
        let mut ops: Vec<(&'static str, usize)> = vec![
            ("mov", 1),
            ("add", 2),
            ("sub", 2),
            ("mul", 2),
            ("mad", 3),
            ("lrp", 3),
            ("cnd", 3),
        ];
        // dp3 writes colour (never a lone alpha below 1_4, never the alpha
        // half of a pair); dp4 and cmp cost two slots in 1_2/1_3 and dp4
        // never pairs.
        if !coissue && (self.is14() || mask != ".a") {
            ops.push(("dp3", 2));
        }
        if self.minor >= 2 {
            ops.push(("cmp", 3));
            if !coissue && mask.is_empty() {
                ops.push(("dp4", 2));
            }
        }
        let (op, n) = self.inp.pick(&ops);
        let d = self.inp.below(self.temps());
        let shift = self.shift();
        let sat = if self.inp.chance(3) { "_sat" } else { "" };
        let alpha_only = mask == ".a";
        let mut srcs: Vec<String> = (0..n)
            .map(|k| self.src(consts, alpha_only, op == "lrp" && k == 0))
            .collect();
        if op == "cnd" && !self.is14() {
            if self.r_full & 1 == 0 {
                return op;
            }
            srcs[0] = "r0.a".into();
        }
        let plus = if coissue { "+" } else { "" };
        self.line(&format!(
            "{plus}{op}{shift}{sat} r{d}{mask}, {}",
            srcs.join(", ")
        ));
        if mask.is_empty() {
            self.r_full |= 1 << d;
        }
        let cost = if !self.is14() && matches!(op, "dp4" | "cmp") {
            2
        } else {
            1
        };
        if !coissue {
            self.slots += cost;
        }
        op
    }

    /// Up to `count` more arithmetic instructions, within the phase's 8 slots.
    fn arithmetic(&mut self, count: u32) {
        for _ in 0..count {
            if self.slots + 2 > 8 {
                return;
            }
            // A pair reads at most three distinct constants: give both
            // halves the same two.
            let consts = [self.inp.below(8), self.inp.below(8)];
            if self.inp.chance(4) {
                let first = self.arith(".rgb", false, consts);
                if first != "dp4" {
                    self.arith(".a", true, consts);
                }
            } else {
                let mask = if self.is14() {
                    self.inp
                        .pick(&["", ".r", ".rg", ".gb", ".rgb", ".a", ".ra"])
                } else {
                    self.inp.pick(&["", ".rgb", ".a"])
                };
                self.arith(mask, false, consts);
            }
        }
    }

    /// The ps_1_1–1_3 texture section.
    fn textures13(&mut self) {
        let mut t = 0u32;
        while t < 4 {
            let sources = self.t_source;
            let src = (0..t).find(|&s| sources & (1 << s) != 0 && self.inp.chance(2));
            let group = self.inp.below(12);
            // What the instruction makes of t: readable result, source of
            // later texture instructions.
            let (readable, source) = match (group, src) {
                (0 | 1, _) => {
                    self.line(&format!("tex t{t}"));
                    (true, true)
                }
                (2, _) => {
                    self.line(&format!("texcoord t{t}"));
                    (true, true)
                }
                (3, _) => {
                    self.line(&format!("texkill t{t}"));
                    (false, false)
                }
                (4, Some(s)) => {
                    let op = self.inp.pick(&["texbem", "texbeml"]);
                    self.line(&format!("{op} t{t}, t{s}"));
                    // The bump map is read by texbem alone from now on.
                    self.t_readable &= !(1 << s);
                    self.t_source &= !(1 << s);
                    (true, false)
                }
                (5, Some(s)) => {
                    let op = if self.minor >= 2 {
                        self.inp.pick(&["texreg2ar", "texreg2gb", "texreg2rgb"])
                    } else {
                        self.inp.pick(&["texreg2ar", "texreg2gb"])
                    };
                    self.line(&format!("{op} t{t}, t{s}"));
                    (true, false)
                }
                (6, Some(s)) if t + 1 < 4 => {
                    self.line(&format!("texm3x2pad t{t}, t{s}"));
                    t += 1;
                    if self.minor >= 3 && self.inp.chance(3) {
                        self.line(&format!("texm3x2depth t{t}, t{s}"));
                        t += 1;
                        continue;
                    }
                    self.line(&format!("texm3x2tex t{t}, t{s}"));
                    (true, false)
                }
                (7, Some(s)) if t + 2 < 4 => {
                    self.line(&format!("texm3x3pad t{t}, t{s}"));
                    self.line(&format!("texm3x3pad t{}, t{s}", t + 1));
                    t += 2;
                    match self.inp.below(4) {
                        0 => {
                            let c = self.inp.below(8);
                            self.line(&format!("texm3x3spec t{t}, t{s}, c{c}"))
                        }
                        1 => self.line(&format!("texm3x3vspec t{t}, t{s}")),
                        2 if self.minor >= 2 => self.line(&format!("texm3x3 t{t}, t{s}")),
                        _ => self.line(&format!("texm3x3tex t{t}, t{s}")),
                    }
                    (true, false)
                }
                (8, Some(s)) if self.minor >= 2 => {
                    let op = self.inp.pick(&["texdp3tex", "texdp3"]);
                    self.line(&format!("{op} t{t}, t{s}"));
                    (true, false)
                }
                _ => {
                    t += 1;
                    continue;
                }
            };
            if readable {
                self.t_readable |= 1 << t;
            }
            if source {
                self.t_source |= 1 << t;
            }
            t += 1;
        }
    }

    /// A ps_1_4 texture-coordinate source: `t#` read the same way every
    /// time (`.xyz`, or `.xyw` for odd registers, which may project).
    fn coord14(&mut self, projecting_ok: bool) -> (String, bool) {
        let t = self.inp.below(6);
        if t % 2 == 1 {
            if projecting_ok && self.inp.chance(2) {
                (format!("t{t}_dw.xyw"), true)
            } else {
                (format!("t{t}.xyw"), false)
            }
        } else {
            (format!("t{t}"), false)
        }
    }

    /// ps_1_4: texld/texcrd of one phase into distinct registers; returns
    /// the registers written.
    fn textures14(&mut self, phase2: bool, from_phase1: u8) -> u8 {
        let mut written = 0u8;
        for r in 0..6u32 {
            if !self.inp.chance(3) {
                continue;
            }
            written |= 1 << r;
            let dependent = phase2 && from_phase1 & (1 << r) != 0 && self.inp.chance(2);
            if dependent {
                let m = if self.inp.chance(3) { "_dz" } else { "" };
                self.line(&format!("texld r{r}, r{r}{m}"));
                self.r_full |= 1 << r;
            } else if self.inp.chance(3) {
                let (src, projected) = self.coord14(true);
                let mask = if projected { ".rg" } else { ".rgb" };
                self.line(&format!("texcrd r{r}{mask}, {src}"));
                self.r_full &= !(1 << r);
            } else {
                let (src, _) = self.coord14(true);
                self.line(&format!("texld r{r}, {src}"));
                self.r_full |= 1 << r;
            }
        }
        written
    }

    fn program(&mut self) {
        self.line(&format!("ps_1_{}", self.minor));
        if self.inp.chance(2) {
            let v: Vec<String> = (0..4).map(|_| format!("{}", self.inp.f32())).collect();
            let c = self.inp.below(8);
            // Only finite values assemble; others are dropped.
            if v.iter().all(|x| x.parse::<f32>().is_ok_and(f32::is_finite)) {
                self.line(&format!("def c{c}, {}", v.join(", ")));
            }
        }
        if self.is14() {
            let phase = self.inp.chance(2);
            self.phase1 = phase;
            let _ = self.textures14(false, 0);
            if phase {
                let arith = self.inp.below(4);
                self.arithmetic(arith);
                if self.inp.chance(3) {
                    let r = self.inp.below(6);
                    if self.r_full & (1 << r) != 0 {
                        let d = self.inp.below(6);
                        let c = self.inp.below(8);
                        self.line(&format!("bem r{d}.rg, c{c}, r{r}"));
                        self.slots += 2;
                    }
                }
                // Registers with x, y, z set may address a phase-2 read.
                let from_phase1 = self.r_full;
                self.line("phase");
                self.phase1 = false;
                self.slots = 0;
                // Alpha does not persist across the marker.
                self.r_full = 0;
                let rewritten = self.textures14(true, from_phase1);
                if self.inp.chance(4) {
                    let r = self.inp.below(6);
                    if from_phase1 & !rewritten & (1 << r) != 0 {
                        self.line(&format!("texkill r{r}"));
                    }
                }
            }
        } else {
            self.textures13();
        }
        if self.r_full & 1 == 0 {
            let c = self.inp.below(8);
            let s = self.src([c, c], false, false);
            self.line(&format!("mov r0, {s}"));
            self.r_full |= 1;
            self.slots += 1;
        }
        let n = 1 + self.inp.below(6);
        self.arithmetic(n);
    }
}

/// A ps_1_x program and its state from `inp`.
pub(super) fn program(inp: &mut Input<'_>) -> Ps1Program {
    let minor = 1 + inp.below(4) as u8;
    let mut g = Gen {
        inp,
        minor,
        out: String::new(),
        t_readable: 0,
        t_source: 0,
        r_full: 0,
        phase1: false,
        slots: 0,
    };
    g.program();
    let text = g.out;
    let bump = std::array::from_fn(|_| BumpEnv {
        mat: std::array::from_fn(|_| inp.f32()),
        lscale: inp.f32(),
        loffset: inp.f32(),
    });
    let proj = pack_projection(std::array::from_fn(|_| match inp.below(4) {
        0 => Some(inp.below(4) as u8),
        _ => None,
    }));
    Ps1Program { text, bump, proj }
}
