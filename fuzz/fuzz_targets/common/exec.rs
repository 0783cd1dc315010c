//! The exec fuzzer's logic, shared by the cargo-fuzz target
//! (`fuzz_targets/exec.rs`) and the stable test `tests/exec/fuzz_inputs.rs`.
//!
//! The input is read as a recipe for a valid program rather than as raw
//! tokens, so that almost every input reaches the interpreters instead of
//! the validator's errors: byte 0 picks the profile (vs_2_0, vs_2_x,
//! vs_3_0, ps_2_0, ps_2_x, ps_3_0, or ps_1_1–1_4 from `exec_ps1.rs`, held
//! against level 9_1 and run with its constant bank, bump-environment
//! states and projection), the following bytes pick instructions
//! from the profile's opcode table and their operands (registers within the
//! profile's counts, swizzles, masks, source modifiers, `_sat`,
//! predication, properly nested `if`/`else`/`endif`, `rep`, `loop`,
//! `break*`, `call`/`callnz` to forward labels, texture loads from declared
//! samplers). The text is assembled, decoded and validated at the SM3
//! level; what fails is skipped. The remaining bytes give the constants
//! (float, int, bool), the instruction budget, the textures and the 8
//! lanes' inputs, biased toward NaN, ±Inf, ±0, denormals and huge values.
//!
//! Checked: no panic, and the 8-lane interpreter on every SIMD backend the
//! CPU has gives the scalar interpreter's outputs bit for bit (NaN equals
//! NaN only with the same bits, and +0 differs from −0, as in
//! `tests/exec/exec_support.rs`).

// Each user of this module uses all of it, but the test harness compiles
// it without the fuzz entry point's caller context.
#![allow(dead_code)]

#[path = "batch_check.rs"]
pub(crate) mod batch_check;
#[path = "exec_ps1.rs"]
pub(crate) mod exec_ps1;

use warp9::internals::exec::point_fetch::{PointFetch, Texture2D};
use warp9::internals::exec::{
    Constants, ExecKey, PixelInputs, Prepared, ScalarPixelInputs, scalar, simd,
};
use warp9::internals::simd::{Backend, FloatV, Kernel, MaskV, Simd, dispatch};
use warp9::internals::texture_fetch::{Lod, SamplerSlot, TextureFetch, TextureFetchScalar};
use warp9::shader::{self, ShaderLimits};

/// Reads the fuzz input; past the end every read is 0, so short inputs
/// still make a (small) program.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn below(&mut self, n: u32) -> u32 {
        u32::from(self.u8()) % n.max(1)
    }

    fn chance(&mut self, one_in: u32) -> bool {
        self.below(one_in) == 0
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }

    /// A float that hits the cases where interpreters tend to disagree
    /// (NaN payloads, ±Inf, ±0, denormals, huge values, exact small
    /// values) about half the time.
    fn f32(&mut self) -> f32 {
        match self.u8() % 16 {
            0 => f32::NAN,
            1 => f32::from_bits(self.u32() | 0x7F80_0001), // other NaN payloads and signs
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => 0.0,
            5 => -0.0,
            6 => f32::from_bits(self.u32() & 0x807F_FFFF), // denormal (or ±0)
            7 => self.pick(&[1e30, -1e30, f32::MAX, f32::MIN, 3e38, 1e-30]),
            8 => self.pick(&[1.0, -1.0, 0.5, -0.5, 2.0]),
            9 => f32::from_bits(self.u32()),
            10 | 11 => (self.u8() as i32 - 128) as f32,
            _ => (self.u8() as f32 - 128.0) / 32.0,
        }
    }
}

/// The profiles the interpreters execute (SM1 is decoded but never run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    Vs20,
    Vs2x,
    Vs30,
    Ps20,
    Ps2x,
    Ps30,
    /// ps_1_1–ps_1_4 (`exec_ps1.rs`).
    Ps1x,
}

impl Profile {
    fn vs(self) -> bool {
        matches!(self, Profile::Vs20 | Profile::Vs2x | Profile::Vs30)
    }
    fn sm3(self) -> bool {
        matches!(self, Profile::Vs30 | Profile::Ps30)
    }
    /// Any flow control at all (ps_2_0 has none).
    fn flow(self) -> bool {
        self != Profile::Ps20
    }
    /// if_comp, break, setp and predication (the 2_x profiles with the
    /// SM3 level's full caps, and SM3).
    fn dynamic(self) -> bool {
        !matches!(self, Profile::Vs20 | Profile::Ps20)
    }
    /// `loop aL, i#` (vertex shaders and ps_3_0).
    fn al_loop(self) -> bool {
        self.vs() || self.sm3()
    }
    fn abs_ok(self) -> bool {
        !self.vs() || self.sm3()
    }
    fn sat_ok(self) -> bool {
        !self.vs() || self.sm3()
    }
    fn loop_depth(self) -> u32 {
        if self == Profile::Vs20 { 1 } else { 4 }
    }
    /// Loops a subroutine may open; with main calling from at most
    /// `loop_depth - 2 * sub_loops` loops deep and l0 calling l1, no path
    /// nests deeper than `loop_depth`.
    fn sub_loops(self) -> u32 {
        if self == Profile::Vs20 { 0 } else { 1 }
    }
    /// Static flow-control instructions allowed (vs_2_0 and vs_2_x count them).
    fn static_limit(self) -> u32 {
        if matches!(self, Profile::Vs20 | Profile::Vs2x) {
            16
        } else {
            1000
        }
    }
    /// Float constants the program may name.
    fn consts(self) -> u32 {
        if self.vs() {
            256
        } else if self.sm3() {
            224
        } else {
            32
        }
    }
}

const SWZ: [char; 4] = ['x', 'y', 'z', 'w'];
const CMP: [&str; 6] = ["gt", "lt", "ge", "le", "eq", "ne"];
/// The non-replicate swizzles ps_2_0 accepts besides the identity.
const PS20_SWIZZLES: [&str; 3] = [".yzxw", ".zxyw", ".wzyx"];
/// Application constants the generated program reads as `c0..c15` (more
/// would only repeat the same values).
const APP_FLOATS: u32 = 16;
/// Upper bound on generated lines, so the slot limits are rarely hit.
const MAX_LINES: usize = 60;

/// Builds the assembly text of one program from the input.
struct Gen<'a, 'b> {
    inp: &'b mut Input<'a>,
    prof: Profile,
    out: String,
    /// Temporaries in use (`r0..r{temps-1}`), all written before the body.
    temps: u32,
    /// Open flow-control blocks.
    depth: u32,
    /// Open loops (`rep` or `loop`), for `break` and the loop-depth limit.
    loops: u32,
    /// Open `loop aL` blocks, for `aL` relative addressing.
    al_loops: u32,
    /// Open dynamic blocks (`if_comp`, `if p0`), where implicit gradients
    /// are invalid.
    dynamic: u32,
    /// Labels callable from here are `callable..LABELS` (calls go forward,
    /// so there is no recursion).
    callable: u32,
    /// Static flow-control instructions so far (`if b#`, its `else`,
    /// loops, static calls): vs_2_0 and vs_2_x allow 16.
    statics: u32,
    /// Loops this region may still open: the loop-depth limit counts
    /// loops in called subroutines too.
    loop_cap: u32,
    /// Texture instructions so far (ps_2_0 allows 32).
    tex: u32,
    lines: usize,
}

/// Subroutines generated after the main program.
const LABELS: u32 = 2;

impl Gen<'_, '_> {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
        self.lines += 1;
    }

    fn temp(&mut self, avoid: Option<u32>) -> u32 {
        let t = self.inp.below(self.temps);
        if Some(t) == avoid {
            (t + 1) % self.temps
        } else {
            t
        }
    }

    fn swizzle(&mut self, scalar: bool) -> String {
        if scalar {
            return format!(".{}", SWZ[self.inp.below(4) as usize]);
        }
        match self.inp.below(4) {
            0 | 1 => String::new(),
            2 => format!(".{}", SWZ[self.inp.below(4) as usize]),
            _ if self.prof == Profile::Ps20 => self.inp.pick(&PS20_SWIZZLES).to_string(),
            _ => (0..4).map(|_| SWZ[self.inp.below(4) as usize]).fold(
                String::from("."),
                |mut s, c| {
                    s.push(c);
                    s
                },
            ),
        }
    }

    fn mask(&mut self) -> String {
        let m = 1 + self.inp.below(15) as usize;
        if m == 15 || self.inp.chance(3) {
            return String::new();
        }
        (0..4)
            .filter(|c| m & (1 << c) != 0)
            .fold(String::from("."), |mut s, c| {
                s.push(SWZ[c]);
                s
            })
    }

    /// A readable register (without swizzle or modifier), never temp
    /// `avoid` (for the instructions whose destination must differ from
    /// their sources).
    fn reg(&mut self, avoid: Option<u32>) -> String {
        let p = self.prof;
        match self.inp.below(12) {
            0..=4 => format!("r{}", self.temp(avoid)),
            5 | 6 if p.vs() || p.sm3() => format!("v{}", self.inp.below(4)),
            5 => format!("v{}", self.inp.below(2)),
            6 => format!("t{}", self.inp.below(4)),
            7 if self.al_loops > 0 && p.vs() => format!("c{}[aL]", self.inp.below(20)),
            7 if self.al_loops > 0 && p.sm3() => format!("v{}[aL]", self.inp.below(4)),
            8 if p.vs() => format!(
                "c{}[a0.{}]",
                self.inp.below(24),
                SWZ[self.inp.below(4) as usize]
            ),
            9 if p == Profile::Ps30 => {
                if self.inp.chance(2) { "vPos" } else { "vFace" }.to_string()
            }
            _ => format!("c{}", self.inp.below(APP_FLOATS + 4)),
        }
    }

    fn src_avoiding(&mut self, scalar: bool, avoid: Option<u32>) -> String {
        let r = self.reg(avoid);
        // vPos is declared .xy only; vFace is a scalar.
        let sw = if r == "vPos" {
            format!(".{}", SWZ[self.inp.below(2) as usize])
        } else if r == "vFace" {
            if scalar {
                ".x".to_string()
            } else {
                String::new()
            }
        } else {
            self.swizzle(scalar)
        };
        let abs = self.prof.abs_ok();
        match self.inp.below(6) {
            0 => format!("-{r}{sw}"),
            1 if abs => format!("{r}_abs{sw}"),
            2 if abs => format!("-{r}_abs{sw}"),
            _ => format!("{r}{sw}"),
        }
    }

    fn src(&mut self, scalar: bool) -> String {
        self.src_avoiding(scalar, None)
    }

    fn sat(&mut self) -> &'static str {
        if self.prof.sat_ok() && self.inp.chance(4) {
            "_sat"
        } else {
            ""
        }
    }

    fn dst(&mut self) -> String {
        let sat = self.sat();
        let m = self.mask();
        // vs_3_0 can index its outputs by the loop counter (o0..o3 are
        // declared; a write past o11 is dropped).
        if self.prof == Profile::Vs30 && self.al_loops > 0 && self.inp.chance(6) {
            return format!("{sat} o{}[aL]{m}", self.inp.below(4));
        }
        let t = self.temp(None);
        format!("{sat} r{t}{m}")
    }

    /// A predicate prefix now and then, where predication exists.
    fn pred(&mut self, replicate: bool) -> String {
        if !self.prof.dynamic() || !self.inp.chance(5) {
            return String::new();
        }
        let not = if self.inp.chance(2) { "!" } else { "" };
        let sw = if replicate || self.inp.chance(2) {
            format!(".{}", SWZ[self.inp.below(4) as usize])
        } else {
            String::new()
        };
        format!("({not}p0{sw}) ")
    }

    /// A texture coordinate: ps_2_x takes a temp or `t#` without modifier
    /// (and without swizzle in ps_2_0).
    fn coord(&mut self) -> String {
        if self.prof.vs() || self.prof.sm3() {
            return self.src(false);
        }
        let r = if self.inp.chance(2) {
            format!("t{}", self.inp.below(4))
        } else {
            format!("r{}", self.temp(None))
        };
        if self.prof == Profile::Ps2x && self.inp.chance(3) {
            let sw = self.swizzle(false);
            return format!("{r}{sw}");
        }
        r
    }

    fn sampler(&mut self) -> String {
        format!("s{}", self.inp.below(2))
    }

    /// One non-flow instruction from the profile's table.
    fn arith(&mut self) {
        let p = self.prof;
        const COMMON: [&str; 25] = [
            "mov", "add", "sub", "mad", "mul", "rcp", "rsq", "dp3", "dp4", "min", "max", "exp",
            "log", "lrp", "frc", "pow", "crs", "abs", "nrm", "sincos", "m4x4", "m3x3", "m3x2",
            "m4x3", "m3x4",
        ];
        const VS: [&str; 8] = ["slt", "sge", "lit", "dst", "sgn", "expp", "logp", "mova"];
        const PS: [&str; 8] = [
            "cmp", "dp2add", "texld", "texldp", "texldb", "texkill", "dsx", "dsy",
        ];
        let k = self.inp.below(COMMON.len() as u32 + 9) as usize;
        let mut op = if k < COMMON.len() {
            COMMON[k]
        } else if k == COMMON.len() + 8 {
            // The profile-specific extras and setp share this slot.
            match p {
                _ if p.dynamic() && self.inp.chance(2) => "setp",
                _ if p.sm3() => "texldl",
                _ if !p.vs() && p != Profile::Ps20 => "texldd",
                _ => "mov",
            }
        } else if p.vs() {
            VS[k - COMMON.len()]
        } else {
            PS[k - COMMON.len()]
        };
        let is_tex = matches!(
            op,
            "texld" | "texldp" | "texldb" | "texldl" | "texldd" | "texkill"
        );
        if is_tex && !p.vs() {
            // ps_2_0's 32 texture instructions, with room to spare.
            if self.tex >= 24 {
                op = "mov";
            }
            self.tex += 1;
        }
        if p == Profile::Ps20 && matches!(op, "dsx" | "dsy") {
            op = "mov";
        }
        // Implicit gradients are invalid inside dynamic flow control
        // (bytecode.md §4.6): move them to an explicit form there.
        let gradient = !p.vs() && matches!(op, "dsx" | "dsy" | "texld" | "texldp" | "texldb");
        if gradient && self.dynamic > 0 {
            op = if p.sm3() { "texldl" } else { "mov" };
        }
        let pr = if gradient || op == "setp" {
            String::new()
        } else {
            self.pred(op == "sincos" && !p.sm3())
        };
        let line = match op {
            "mov" | "abs" | "dsx" | "dsy" | "nrm" | "lit" => {
                format!("{pr}{op}{}, {}", self.dst(), self.src(false))
            }
            "frc" => {
                // No _sat on frc in vertex shaders.
                let sat = if p.vs() { "" } else { self.sat() };
                let (t, m) = (self.temp(None), self.mask());
                format!("{pr}frc{sat} r{t}{m}, {}", self.src(false))
            }
            "sgn" if p.sm3() => format!("{pr}sgn{}, {}", self.dst(), self.src(false)),
            "sgn" => {
                // vs_2_x: two scratch temps, all different from the result.
                if self.temps < 4 {
                    return;
                }
                let t = self.temp(None);
                let a = (t + 1) % self.temps;
                let b = (t + 2) % self.temps;
                let m = self.mask();
                let s = self.src_avoiding(false, Some(t));
                format!("{pr}sgn r{t}{m}, {s}, r{a}, r{b}")
            }
            "rcp" | "rsq" | "exp" | "log" | "expp" | "logp" => {
                format!("{pr}{op}{}, {}", self.dst(), self.src(true))
            }
            "pow" => format!(
                "{pr}pow{}, {}, {}",
                self.dst(),
                self.src(true),
                self.src(true)
            ),
            "add" | "sub" | "mul" | "dp3" | "dp4" | "min" | "max" | "slt" | "sge" | "dst" => {
                format!(
                    "{pr}{op}{}, {}, {}",
                    self.dst(),
                    self.src(false),
                    self.src(false)
                )
            }
            "mad" | "lrp" | "cmp" => format!(
                "{pr}{op}{}, {}, {}, {}",
                self.dst(),
                self.src(false),
                self.src(false),
                self.src(false)
            ),
            "dp2add" => format!(
                "{pr}dp2add{}, {}, {}, {}",
                self.dst(),
                self.src(false),
                self.src(false),
                self.src(true)
            ),
            "crs" => {
                let t = self.temp(None);
                let m = self.inp.pick(&[".xyz", ".x", ".yz", ".xz"]);
                let sat = self.sat();
                let (a, b) = (
                    self.src_avoiding(false, Some(t)),
                    self.src_avoiding(false, Some(t)),
                );
                format!("{pr}crs{sat} r{t}{m}, {a}, {b}")
            }
            "sincos" => {
                let t = self.temp(None);
                let m = self.inp.pick(&[".xy", ".x", ".y"]);
                let sat = if p.vs() { "" } else { self.sat() };
                let s = self.src(true);
                if p.sm3() {
                    format!("{pr}sincos{sat} r{t}{m}, {s}")
                } else {
                    // The SM2 form names the two D3DSINCOSCONST registers.
                    format!(
                        "{pr}sincos{sat} r{t}{m}, {s}, c{}, c{}",
                        APP_FLOATS,
                        APP_FLOATS + 1
                    )
                }
            }
            "m4x4" | "m3x3" | "m3x2" | "m4x3" | "m3x4" => {
                let t = self.temp(None);
                let m = match op {
                    "m4x3" | "m3x3" => ".xyz",
                    "m3x2" => ".xy",
                    _ => "",
                };
                let sat = self.sat();
                let s = self.src_avoiding(false, Some(t));
                let c = self.inp.below(p.consts().min(APP_FLOATS + 4) - 4);
                format!("{pr}{op}{sat} r{t}{m}, {s}, c{c}")
            }
            "mova" => {
                let m = self.inp.pick(&["", ".x", ".xy", ".w"]);
                format!("{pr}mova a0{m}, {}", self.src(false))
            }
            "setp" => {
                let c = self.inp.pick(&CMP);
                let m = self.mask();
                format!("setp_{c} p0{m}, {}, {}", self.src(false), self.src(false))
            }
            "texld" | "texldp" | "texldb" | "texldl" => {
                let d = if p.sm3() {
                    self.dst()
                } else {
                    format!(" r{}", self.temp(None))
                };
                let c = self.coord();
                let s = self.sampler();
                format!("{pr}{op}{d}, {c}, {s}")
            }
            "texldd" => {
                let d = if p.sm3() {
                    self.dst()
                } else {
                    format!(" r{}", self.temp(None))
                };
                let c = self.coord();
                let s = self.sampler();
                format!(
                    "{pr}texldd{d}, {c}, {s}, {}, {}",
                    self.src(false),
                    self.src(false)
                )
            }
            "texkill" => {
                if !p.sm3() && self.inp.chance(2) {
                    format!("{pr}texkill t{}", self.inp.below(4))
                } else {
                    let m = if p.sm3() { self.mask() } else { String::new() };
                    if p.sm3() && self.inp.chance(3) {
                        format!("{pr}texkill v{}{m}", self.inp.below(4))
                    } else {
                        format!("{pr}texkill r{}{m}", self.temp(None))
                    }
                }
            }
            _ => unreachable!("{op}"),
        };
        self.line(&line);
    }

    fn block(&mut self, n: u32) {
        for _ in 0..n {
            // An exhausted input would only add `if b0` blocks (byte 0).
            if self.lines >= MAX_LINES || self.inp.is_empty() {
                return;
            }
            let p = self.prof;
            let nest = p.flow() && self.depth < 4;
            match self.inp.below(16) {
                0 if nest && self.statics + 2 <= p.static_limit() => {
                    self.statics += 1;
                    let l = format!("if b{}", self.inp.below(4));
                    self.line(&l);
                    self.if_body(false);
                }
                1 if nest && p.dynamic() => {
                    let l = if self.inp.chance(2) {
                        let c = self.inp.pick(&CMP);
                        format!("if_{c} {}, {}", self.src(true), self.src(true))
                    } else {
                        let not = if self.inp.chance(2) { "!" } else { "" };
                        format!("if {not}p0.{}", SWZ[self.inp.below(4) as usize])
                    };
                    self.line(&l);
                    self.if_body(true);
                }
                2 if nest && self.loops < self.loop_cap && self.statics < p.static_limit() => {
                    self.statics += 1;
                    let al = p.al_loop() && self.inp.chance(2);
                    let i = self.inp.below(4);
                    self.line(&if al {
                        format!("loop aL, i{i}")
                    } else {
                        format!("rep i{i}")
                    });
                    self.depth += 1;
                    self.loops += 1;
                    self.al_loops += al as u32;
                    let k = 1 + self.inp.below(4);
                    self.block(k);
                    self.depth -= 1;
                    self.loops -= 1;
                    self.al_loops -= al as u32;
                    self.line(if al { "endloop" } else { "endrep" });
                }
                3 if self.loops > 0 && p.dynamic() => {
                    let l = match self.inp.below(3) {
                        0 => "break".to_string(),
                        1 => {
                            let not = if self.inp.chance(2) { "!" } else { "" };
                            format!("breakp {not}p0.{}", SWZ[self.inp.below(4) as usize])
                        }
                        _ => {
                            let c = self.inp.pick(&CMP);
                            format!("break_{c} {}, {}", self.src(true), self.src(true))
                        }
                    };
                    self.line(&l);
                }
                4 if p.flow()
                    && self.callable < LABELS
                    && self.statics < p.static_limit()
                    && self.loops + 2 * p.sub_loops() <= p.loop_depth() =>
                {
                    self.statics += 1;
                    let target = self.callable + self.inp.below(LABELS - self.callable);
                    let l = match self.inp.below(3) {
                        0 => format!("call l{target}"),
                        1 => format!("callnz l{target}, b{}", self.inp.below(4)),
                        _ if p.dynamic() => {
                            let not = if self.inp.chance(2) { "!" } else { "" };
                            format!(
                                "callnz l{target}, {not}p0.{}",
                                SWZ[self.inp.below(4) as usize]
                            )
                        }
                        _ => format!("call l{target}"),
                    };
                    self.line(&l);
                }
                _ => self.arith(),
            }
        }
    }

    fn if_body(&mut self, dynamic: bool) {
        self.depth += 1;
        self.dynamic += dynamic as u32;
        let k = 1 + self.inp.below(4);
        self.block(k);
        if self.inp.chance(2) && (dynamic || self.statics < self.prof.static_limit()) {
            self.statics += !dynamic as u32;
            self.line("else");
            let k = 1 + self.inp.below(4);
            self.block(k);
        }
        self.dynamic -= dynamic as u32;
        self.depth -= 1;
        self.line("endif");
    }

    /// The whole program text.
    fn program(inp: &mut Input<'_>, prof: Profile) -> String {
        let mut g = Gen {
            inp,
            prof,
            out: String::new(),
            temps: 0,
            depth: 0,
            loops: 0,
            al_loops: 0,
            dynamic: 0,
            callable: 0,
            statics: 0,
            loop_cap: prof.loop_depth(),
            tex: 0,
            lines: 0,
        };
        g.temps = 2 + g.inp.below(if prof.vs() || prof.sm3() { 11 } else { 9 });
        let (name, decls) = match prof {
            Profile::Vs20 | Profile::Vs2x => (
                if prof == Profile::Vs20 {
                    "vs_2_0"
                } else {
                    "vs_2_x"
                },
                "dcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_color v3",
            ),
            Profile::Vs30 => (
                "vs_3_0",
                "dcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_color v3\n\
                 dcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\ndcl_color o3\n\
                 dcl_2d s0\ndcl_2d s1",
            ),
            Profile::Ps20 | Profile::Ps2x => (
                if prof == Profile::Ps20 {
                    "ps_2_0"
                } else {
                    "ps_2_x"
                },
                "dcl v0\ndcl v1\ndcl t0\ndcl t1\ndcl t2\ndcl t3\ndcl_2d s0\ndcl_2d s1",
            ),
            // ps_1_x programs come from `exec_ps1.rs`; this is never reached.
            Profile::Ps30 | Profile::Ps1x => (
                "ps_3_0",
                "dcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_texcoord2 v2\ndcl_color v3\n\
                 dcl vPos.xy\ndcl vFace\ndcl_2d s0\ndcl_2d s1",
            ),
        };
        g.line(name);
        g.line(decls);
        // Local constants override application ones (bytecode.md §10).
        let c = APP_FLOATS + 2;
        g.line(&format!(
            "def c{c}, 0.5, -0.5, 2.0, 0.0\ndef c{}, 1.0, 0.0, -0.0, 3.0",
            c + 1
        ));
        if prof.flow() {
            let (a, b, s) = (g.inp.below(6), g.inp.below(6), g.inp.below(5) as i32 - 2);
            g.line(&format!("defi i3, {a}, {b}, {s}, 0"));
            if g.inp.chance(2) {
                g.line("defb b3, true");
            }
        }
        // Every temp is written before the body reads it (the validator
        // rejects reads of unwritten components).
        for r in 0..g.temps {
            let s = match (prof.vs(), prof.sm3()) {
                (false, false) if r % 3 == 2 => format!("t{}", r % 4),
                (false, false) => format!("v{}", r % 2),
                _ => format!("v{}", r % 4),
            };
            g.line(&format!("mov r{r}, {s}"));
        }
        if prof.vs() {
            g.line("mova a0, v1");
        }
        if prof.dynamic() {
            g.line("setp_gt p0, v1, v0");
        }
        let n = 2 + g.inp.below(24);
        g.block(n);
        // Outputs: everything each profile requires, from the temps.
        let outs: &[&str] = match prof {
            Profile::Vs20 | Profile::Vs2x => &["oPos", "oD0", "oT0", "oT1"],
            Profile::Vs30 => &["o0", "o1", "o2", "o3"],
            _ => &["oC0", "oC1", "oC2", "oC3"],
        };
        let n_out = if prof.vs() {
            4
        } else {
            1 + g.inp.below(4) as usize
        };
        for o in &outs[..n_out] {
            let t = g.temp(None);
            g.line(&format!("mov {o}, r{t}"));
        }
        if !prof.vs() && g.inp.chance(4) {
            let t = g.temp(None);
            let c = SWZ[g.inp.below(4) as usize];
            g.line(&format!("mov oDepth, r{t}.{c}"));
        }
        if prof.flow() {
            g.line("ret");
            for l in 0..LABELS {
                g.line(&format!("label l{l}"));
                g.depth = 0;
                g.loops = 0;
                g.al_loops = 0;
                g.dynamic = 0;
                // vs_2_0 allows one level of calls: no calls from subroutines.
                g.callable = if prof == Profile::Vs20 { LABELS } else { l + 1 };
                g.loop_cap = prof.sub_loops();
                g.lines = MAX_LINES.saturating_sub(8).min(g.lines);
                let k = 1 + g.inp.below(4);
                g.block(k);
                g.line("ret");
            }
        }
        g.out
    }
}

/// A texture fetch for both interpreters from one per-lane function:
/// either the crate's point sampler, or an echo of the level-of-detail
/// inputs (derivatives, bias, level) so that differences in how the two
/// interpreters compute them show up in the results.
struct Fetch {
    point: PointFetch,
    echo_lod: bool,
}

impl Fetch {
    fn lane(&self, slot: SamplerSlot, c: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        if !self.echo_lod {
            return self.point.texel(slot, c[0], c[1]);
        }
        match lod {
            Lod::Implicit { ddx, ddy } => [ddx[0], ddy[1], ddx[2] - ddy[2], c[3]],
            Lod::Bias { ddx, ddy, bias } => [ddx[1], ddy[0], bias, c[2]],
            Lod::Level(l) => [c[0], c[1], l, slot as f32],
            Lod::Grad { ddx, ddy } => [ddx[2], ddy[2], ddx[0] + ddy[1], c[3]],
        }
    }
}

impl TextureFetchScalar for Fetch {
    fn sample(&self, slot: SamplerSlot, coords: [f32; 4], lod: Lod<f32>) -> [f32; 4] {
        self.lane(slot, coords, lod)
    }
}

impl<S: Simd> TextureFetch<S> for Fetch {
    fn sample(
        &self,
        s: S,
        slot: SamplerSlot,
        coords: [S::F; 4],
        lod: Lod<S::F>,
        active: S::M,
    ) -> [S::F; 4] {
        let c = coords.map(|v| v.to_array());
        let a3 = |v: [S::F; 3]| v.map(|x| x.to_array());
        let per_lane = |l: usize| -> Lod<f32> {
            let pick = |v: [[f32; 8]; 3]| v.map(|x| x[l]);
            match lod {
                Lod::Implicit { ddx, ddy } => Lod::Implicit {
                    ddx: pick(a3(ddx)),
                    ddy: pick(a3(ddy)),
                },
                Lod::Bias { ddx, ddy, bias } => Lod::Bias {
                    ddx: pick(a3(ddx)),
                    ddy: pick(a3(ddy)),
                    bias: bias.to_array()[l],
                },
                Lod::Level(v) => Lod::Level(v.to_array()[l]),
                Lod::Grad { ddx, ddy } => Lod::Grad {
                    ddx: pick(a3(ddx)),
                    ddy: pick(a3(ddy)),
                },
            }
        };
        let bits = active.bits();
        // Inactive lanes get zeros, as the scalar interpreter never asks
        // for them.
        let t: [[f32; 4]; 8] = std::array::from_fn(|l| {
            if bits & (1 << l) != 0 {
                self.lane(slot, [c[0][l], c[1][l], c[2][l], c[3][l]], per_lane(l))
            } else {
                [0.0; 4]
            }
        });
        std::array::from_fn(|k| s.f32s(std::array::from_fn(|l| t[l][k])))
    }
}

/// Owned constants of one run.
struct Consts {
    float: Vec<[f32; 4]>,
    int: Vec<[i32; 4]>,
    bool: Vec<bool>,
}

impl Consts {
    fn view(&self) -> Constants<'_> {
        Constants {
            float: &self.float,
            int: &self.int,
            bool: &self.bool,
        }
    }
}

/// Every backend to compare: portable, and AVX2 when the CPU has it.
fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::new(false)];
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        v.push(Backend::new(true));
    }
    v
}

fn bits(v: &[[f32; 4]]) -> Vec<[u32; 4]> {
    v.iter().map(|r| r.map(f32::to_bits)).collect()
}

/// Runs `inputs` (`[inputs, other]`) on a fresh executor, and on a
/// second one after a run of `other` on every lane; returns both results,
/// which must agree (an executor clears only what the program uses).
/// The three runs share one call of `run`: every call site of the 8-lane
/// interpreter is a whole inlined copy, and the build time of every crate
/// that includes this file grows with them.
pub fn fresh_and_reused<'a, S: Simd, I, O>(
    s: S,
    p: &'a Prepared,
    consts: &Constants<'a>,
    fetch: &'a dyn TextureFetch<S>,
    [inputs, other]: [&I; 2],
    active: S::M,
    mut run: impl FnMut(&mut simd::Executor<'a, S>, &I, S::M) -> O,
) -> (O, O) {
    let mut ex = [0, 1].map(|_| simd::Executor::new(p, s, consts, fetch));
    let runs = [
        (0, inputs, active),
        (1, other, s.mask_from_bits(0xFF)),
        (1, inputs, active),
    ];
    let mut outs = Vec::with_capacity(3);
    for (k, inputs, active) in runs {
        outs.push(run(&mut ex[k], inputs, active));
    }
    let reused = outs.pop().expect("three runs");
    (outs.swap_remove(0), reused)
}

/// 8 vertices through the 8-lane interpreter; results per lane.
struct VsKernel<'a> {
    p: &'a Prepared,
    inputs: &'a [[[f32; 4]; 16]; 8],
    consts: &'a Constants<'a>,
    fetch: &'a Fetch,
    active: u32,
}

impl Kernel for VsKernel<'_> {
    type Output = [[[f32; 4]; 16]; 8];
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> Self::Output {
        let i = self.inputs;
        let soa: [[S::F; 4]; 16] = std::array::from_fn(|r| {
            std::array::from_fn(|c| s.f32s(std::array::from_fn(|l| i[l][r][c])))
        });
        let active = s.mask_from_bits(self.active);
        // A reused executor, after a batch with other inputs and lanes,
        // must give what a fresh one gives: it clears only what the
        // program uses.
        let mut other = soa;
        other.reverse();
        let (o, again) = fresh_and_reused(
            s,
            self.p,
            self.consts,
            self.fetch,
            [&soa, &other],
            active,
            |ex, inputs, active| ex.run_vertex(inputs, active),
        );
        let o = o.map(|r| r.map(|x| x.to_array()));
        assert_eq!(
            o.map(|r| r.map(|x| x.map(f32::to_bits))),
            again.map(|r| r.map(|x| x.to_array().map(f32::to_bits))),
            "a reused vertex executor differs from a fresh run"
        );
        std::array::from_fn(|l| std::array::from_fn(|r| std::array::from_fn(|c| o[r][c][l])))
    }
}

/// Two quads through the 8-lane interpreter: colours per lane, depth per
/// lane if written, kill bits.
struct PsKernel<'a> {
    p: &'a Prepared,
    inputs: &'a [ScalarPixelInputs; 8],
    consts: &'a Constants<'a>,
    fetch: &'a Fetch,
    active: u32,
}

type PsLanes = ([[[f32; 4]; 4]; 8], Option<[f32; 8]>, u32);

impl Kernel for PsKernel<'_> {
    type Output = PsLanes;
    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> PsLanes {
        let i = self.inputs;
        let lanes =
            |f: &dyn Fn(&ScalarPixelInputs) -> f32| s.f32s(std::array::from_fn(|l| f(&i[l])));
        let inputs = PixelInputs::<S> {
            v: std::array::from_fn(|r| std::array::from_fn(|c| lanes(&|p| p.v[r][c]))),
            pos: [lanes(&|p| p.pos[0]), lanes(&|p| p.pos[1])],
            face: lanes(&|p| p.face),
        };
        let active = s.mask_from_bits(self.active);
        // As for vertices: a reused executor must not leak state.
        let mut other = inputs;
        other.v.reverse();
        let (o, again) = fresh_and_reused(
            s,
            self.p,
            self.consts,
            self.fetch,
            [&inputs, &other],
            active,
            |ex, inputs, active| ex.run_pixel(inputs, active),
        );
        batch_check::check_batch(s, self.p, &inputs, self.consts, self.fetch, self.active);
        let color = o.color.map(|r| r.map(|x| x.to_array()));
        assert_eq!(
            color.map(|r| r.map(|x| x.map(f32::to_bits))),
            again
                .color
                .map(|r| r.map(|x| x.to_array().map(f32::to_bits))),
            "a reused pixel executor differs from a fresh run"
        );
        assert_eq!(
            o.depth.map(|d| d.to_array().map(f32::to_bits)),
            again.depth.map(|d| d.to_array().map(f32::to_bits)),
            "a reused pixel executor's depth differs"
        );
        assert_eq!(
            o.kill.bits(),
            again.kill.bits(),
            "a reused pixel executor's kill differs"
        );
        (
            std::array::from_fn(|l| {
                std::array::from_fn(|r| std::array::from_fn(|c| color[r][c][l]))
            }),
            o.depth.map(|d| d.to_array()),
            o.kill.bits(),
        )
    }
}

/// Builds a program from `data`, runs it on the scalar interpreter and on
/// the 8-lane interpreter with every backend, and panics on any difference.
/// Returns whether a program was executed (false when the generated text
/// did not assemble or validate).
pub fn run(data: &[u8]) -> bool {
    let mut inp = Input(data);
    // EXEC_FUZZ_PS1 set: every input makes a ps_1_x program (a fuzzing
    // session aimed at the ps_1_x lowering).
    let pick = inp.u8();
    let pick = if std::env::var_os("EXEC_FUZZ_PS1").is_some() {
        6
    } else {
        pick
    };
    let prof = match pick % 7 {
        0 => Profile::Vs20,
        1 => Profile::Vs2x,
        2 => Profile::Vs30,
        3 => Profile::Ps20,
        4 => Profile::Ps2x,
        5 => Profile::Ps30,
        _ => Profile::Ps1x,
    };
    let ps1 = (prof == Profile::Ps1x).then(|| exec_ps1::program(&mut inp));
    let text = match &ps1 {
        Some(p) => p.text.clone(),
        None => Gen::program(&mut inp, prof),
    };
    // ps_1_x is held against the lowest level, the others against SM3.
    let limits = if ps1.is_some() {
        ShaderLimits::level_9_1()
    } else {
        ShaderLimits::sm3()
    };
    if std::env::var_os("EXEC_FUZZ_PRINT").is_some() {
        eprintln!("{text}");
    }
    let Some(prog) = shader::assemble(&text)
        .ok()
        .and_then(|t| shader::decode(&t).ok())
        .filter(|p| shader::validate(p, &limits).is_ok())
    else {
        if std::env::var_os("EXEC_FUZZ_VERBOSE").is_some() {
            let why = match shader::assemble(&text) {
                Err(e) => format!("assemble: {e}"),
                Ok(t) => match shader::decode(&t) {
                    Err(e) => format!("decode: {e}"),
                    Ok(p) => format!("{}", shader::validate(&p, &limits).unwrap_err()),
                },
            };
            eprintln!("rejected {prof:?}: {why}");
        }
        return false;
    };
    let floats: Vec<[f32; 4]> = (0..APP_FLOATS + 4)
        .map(|_| std::array::from_fn(|_| inp.f32()))
        .collect();
    let consts = Consts {
        // A ps_1_x program reads the bank a draw builds for it.
        float: match &ps1 {
            Some(p) => warp9::internals::exec::ps1::constants(&floats, &p.bump),
            None => floats,
        },
        // Loop counts, starts and steps around the interesting edges
        // (0, negative, beyond the clamp).
        int: (0..4)
            .map(|_| {
                std::array::from_fn(|_| match inp.u8() % 4 {
                    0 => inp.u8() as i8 as i32,
                    1 => inp.u32() as i32,
                    _ => inp.below(5) as i32,
                })
            })
            .collect(),
        bool: (0..4).map(|_| inp.chance(2)).collect(),
    };
    // Small budgets reach the over-budget stop; the largest still keeps an
    // input well under a millisecond.
    let budget = [1, 3, 17, 64, 200, 1000][inp.below(6) as usize];
    let mut key = ExecKey::new(&prog, &consts.bool);
    key.proj = ps1.as_ref().map_or(0, |p| p.proj);
    let p = Prepared::new(&prog, key).with_budget(budget);
    let mut fetch = Fetch {
        point: PointFetch::default(),
        echo_lod: inp.chance(2),
    };
    // Pixel samplers are slots 0..16, vertex samplers 17..21.
    for slot in [0, 1, 17, 18] {
        if inp.chance(2) {
            let (width, height) = (1 + inp.below(4), 1 + inp.below(2));
            let texels = (0..width * height).map(|_| inp.u32()).collect();
            fetch.point.bind(
                slot,
                Texture2D {
                    width,
                    height,
                    texels,
                },
            );
        }
    }
    let c = consts.view();
    if prof.vs() {
        let n = 1 + inp.below(8) as usize;
        let mut inputs = [[[0.0f32; 4]; 16]; 8];
        for lane in inputs.iter_mut().take(n) {
            for reg in lane.iter_mut().take(4) {
                *reg = std::array::from_fn(|_| inp.f32());
            }
        }
        let scalar: Vec<_> = (0..n)
            .map(|l| scalar::run_vertex(&p, &inputs[l], &c, &fetch))
            .collect();
        for b in backends() {
            let out = dispatch(
                b,
                VsKernel {
                    p: &p,
                    inputs: &inputs,
                    consts: &c,
                    fetch: &fetch,
                    active: (1 << n) - 1,
                },
            );
            for (l, sc) in scalar.iter().enumerate() {
                assert_eq!(
                    bits(&out[l]),
                    bits(sc),
                    "vertex lane {l}: {} differs from scalar\nsimd   {:?}\nscalar {:?}\n{text}",
                    b.name(),
                    out[l],
                    sc
                );
            }
        }
    } else {
        let inputs: [ScalarPixelInputs; 8] = std::array::from_fn(|l| {
            let mut v = [[0.0f32; 4]; 16];
            // ps_3_0 reads v0..v3; ps_2_x reads v0, v1 (slots 0, 1) and t0..t3 (slots 2..5).
            for reg in v.iter_mut().take(6) {
                *reg = std::array::from_fn(|_| inp.f32());
            }
            ScalarPixelInputs {
                v,
                pos: [(l & 3) as f32, (l >> 2) as f32],
                face: if inp.chance(2) { 1.0 } else { -1.0 },
            }
        });
        // Helper lanes (inactive but in a quad) run too.
        let active = u32::from(inp.u8()) | 1;
        let mut scalar_out = [Default::default(); 8];
        for q in 0..2 {
            // Quad q of the 4x2 stamp is lanes {2q, 2q + 1, 2q + 4, 2q + 5}.
            let lane = |k: usize| 2 * q + (k & 1) + 2 * (k & 2);
            let qi = std::array::from_fn(|k| inputs[lane(k)]);
            let qa = std::array::from_fn(|k| active & (1 << lane(k)) != 0);
            for (k, o) in scalar::run_quad(&p, &qi, &c, &fetch, qa)
                .into_iter()
                .enumerate()
            {
                scalar_out[lane(k)] = o;
            }
        }
        for b in backends() {
            let (color, depth, kill) = dispatch(
                b,
                PsKernel {
                    p: &p,
                    inputs: &inputs,
                    consts: &c,
                    fetch: &fetch,
                    active,
                },
            );
            for (l, sc) in scalar_out.iter().enumerate() {
                let sc: &warp9::internals::exec::ScalarPixelOutput = sc;
                assert_eq!(
                    bits(&color[l]),
                    bits(&sc.color),
                    "pixel lane {l}: {} colours differ from scalar\nsimd   {:?}\nscalar {:?}\n{text}",
                    b.name(),
                    color[l],
                    sc.color
                );
                assert_eq!(
                    depth.map(|d| d[l].to_bits()),
                    sc.depth.map(f32::to_bits),
                    "pixel lane {l}: {} depth differs\n{text}",
                    b.name()
                );
                assert_eq!(
                    kill & (1 << l) != 0,
                    sc.killed,
                    "pixel lane {l}: {} kill differs\n{text}",
                    b.name()
                );
            }
        }
    }
    true
}
