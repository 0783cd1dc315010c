//! Differential tests: random programs (assembled from random instruction
//! sequences over valid registers, with nested flow control, predication
//! and relative addressing) and every program of the fxc corpus (vs_1_1 to
//! vs_3_0, ps_1_1 to ps_3_0) run on the scalar interpreter and on the 8-lane interpreter with
//! every SIMD backend; the outputs must be bit-identical. Inputs and
//! constants include NaN, ±Inf, ±0 and denormals.

use crate::exec_support;

use exec_support::{Consts, Rng, run_ps_prepared, run_vs_prepared};
use warp9::internals::exec::point_fetch::{PointFetch, Texture2D};
use warp9::internals::exec::ps1::{self, BumpEnv};
use warp9::internals::exec::{ExecKey, Prepared, ScalarPixelInputs};
use warp9::shader::{self, ShaderLimits};

struct Gen {
    rng: Rng,
    pixel: bool,
    depth: usize,
    in_loop: usize,
    in_al_loop: usize,
    /// Labels callable from here: `label..2` (calls must go forward).
    label: u64,
    out: String,
}

const SWZ: [char; 4] = ['x', 'y', 'z', 'w'];

impl Gen {
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.rng.below(v.len() as u64) as usize]
    }

    fn swizzle(&mut self, replicate: bool) -> String {
        if replicate {
            return format!(".{}", SWZ[self.rng.below(4) as usize]);
        }
        match self.rng.below(3) {
            0 => String::new(),
            _ => {
                let s: String = (0..4).map(|_| SWZ[self.rng.below(4) as usize]).collect();
                format!(".{s}")
            }
        }
    }

    fn mask(&mut self) -> String {
        let m = 1 + self.rng.below(15) as usize;
        if m == 15 {
            return String::new();
        }
        let s: String = (0..4)
            .filter(|c| m & (1 << c) != 0)
            .map(|c| SWZ[c])
            .collect();
        format!(".{s}")
    }

    fn reg(&mut self) -> String {
        match self.rng.below(10) {
            0..=4 => format!("r{}", self.rng.below(8)),
            5..=6 => format!("v{}", self.rng.below(4)),
            7 if self.in_al_loop > 0 && !self.pixel => format!("c{}[aL]", self.rng.below(8)),
            7 if self.in_al_loop > 0 => format!("v{}[aL]", self.rng.below(2)),
            8 if !self.pixel => format!(
                "c{}[a0.{}]",
                4 + self.rng.below(8),
                SWZ[self.rng.below(4) as usize]
            ),
            _ => format!("c{}", self.rng.below(24)),
        }
    }

    fn src(&mut self, replicate: bool) -> String {
        let r = self.reg();
        let sw = self.swizzle(replicate);
        match self.rng.below(6) {
            0 => format!("-{r}{sw}"),
            1 => format!("{r}_abs{sw}"),
            2 => format!("-{r}_abs{sw}"),
            _ => format!("{r}{sw}"),
        }
    }

    fn dst(&mut self) -> String {
        let sat = if self.rng.below(4) == 0 { "_sat" } else { "" };
        let d = format!("r{}{}", self.rng.below(8), self.mask());
        format!("{sat} {d}")
    }

    fn pred(&mut self) -> String {
        if self.rng.below(5) == 0 {
            let not = if self.rng.below(2) == 0 { "!" } else { "" };
            let rep = self.rng.below(2) == 0;
            let sw = self.swizzle(rep);
            format!("({not}p0{sw}) ")
        } else {
            String::new()
        }
    }

    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn arith(&mut self) {
        let cmp = ["gt", "lt", "ge", "le", "eq", "ne"];
        let mut ops = vec![
            "mov", "add", "sub", "mad", "mul", "rcp", "rsq", "dp3", "dp4", "min", "max", "exp",
            "log", "lrp", "frc", "pow", "crs", "abs", "nrm", "sincos", "setp", "m4x4", "m3x3",
            "m3x2", "m4x3", "m3x4",
        ];
        if self.pixel {
            ops.extend([
                "cmp", "dp2add", "dsx", "dsy", "texld", "texldp", "texldb", "texldl", "texldd",
                "texkill",
            ]);
        } else {
            ops.extend([
                "slt", "sge", "lit", "dst", "sgn", "expp", "logp", "mova", "texldl",
            ]);
        }
        let mut op = self.pick(&ops);
        // Implicit gradients of temps are invalid inside dynamic flow
        // control (§4.6): keep them at the top level, unpredicated.
        let gradient = matches!(op, "dsx" | "dsy" | "texld" | "texldp" | "texldb");
        if gradient && self.depth > 0 {
            op = "texldl";
        }
        let p = if gradient || op == "setp" {
            String::new()
        } else {
            self.pred()
        };
        let line = match op {
            "mov" | "abs" | "sgn" | "dsx" | "dsy" => {
                format!("{p}{op}{}, {}", self.dst(), self.src(false))
            }
            "frc" => format!(
                "{p}frc r{}{}, {}",
                self.rng.below(8),
                self.mask(),
                self.src(false)
            ),
            "nrm" => format!(
                "{p}nrm{} r{}, {}",
                if self.rng.below(3) == 0 { "_sat" } else { "" },
                8 + self.rng.below(2),
                self.src(false)
            ),
            "rcp" | "rsq" | "exp" | "log" | "expp" | "logp" => {
                format!("{p}{op}{}, {}", self.dst(), self.src(true))
            }
            "pow" => format!(
                "{p}pow{}, {}, {}",
                self.dst(),
                self.src(true),
                self.src(true)
            ),
            "add" | "sub" | "mul" | "dp3" | "dp4" | "min" | "max" | "slt" | "sge" | "dst" => {
                format!(
                    "{p}{op}{}, {}, {}",
                    self.dst(),
                    self.src(false),
                    self.src(false)
                )
            }
            "mad" | "lrp" | "cmp" => format!(
                "{p}{op}{}, {}, {}, {}",
                self.dst(),
                self.src(false),
                self.src(false),
                self.src(false)
            ),
            "dp2add" => format!(
                "{p}dp2add{}, {}, {}, {}",
                self.dst(),
                self.src(false),
                self.src(false),
                self.src(true)
            ),
            "crs" => format!(
                "crs r{}.xyz, {}, {}",
                8 + self.rng.below(2),
                self.src(false),
                self.src(false)
            ),
            "lit" => format!("{p}lit{}, {}", self.dst(), self.src(false)),
            "sincos" => format!("sincos r{}.xy, {}", self.rng.below(8), self.src(true)),
            "setp" => {
                let c = self.pick(&cmp);
                format!(
                    "{p}setp_{c} p0{}, {}, {}",
                    self.mask(),
                    self.src(false),
                    self.src(false)
                )
            }
            "m4x4" | "m3x4" => format!(
                "{op} r{}, {}, c{}",
                8 + self.rng.below(2),
                self.src(false),
                self.rng.below(20)
            ),
            "m4x3" | "m3x3" => format!(
                "{op} r{}.xyz, {}, c{}",
                8 + self.rng.below(2),
                self.src(false),
                self.rng.below(20)
            ),
            "m3x2" => format!(
                "m3x2 r{}.xy, {}, c{}",
                8 + self.rng.below(2),
                self.src(false),
                self.rng.below(20)
            ),
            "mova" => format!("{p}mova a0{}, {}", self.mask(), self.src(false)),
            "texld" | "texldp" | "texldb" | "texldl" => {
                format!(
                    "{p}{op}{}, {}, s{}",
                    self.dst(),
                    self.src(false),
                    self.rng.below(2)
                )
            }
            "texldd" => format!(
                "{p}texldd{}, {}, s{}, {}, {}",
                self.dst(),
                self.src(false),
                self.rng.below(2),
                self.src(false),
                self.src(false)
            ),
            "texkill" => format!("{p}texkill r{}", self.rng.below(8)),
            _ => unreachable!(),
        };
        self.line(&line);
    }

    fn block(&mut self, n: usize) {
        for _ in 0..n {
            match self.rng.below(14) {
                0 if self.depth < 3 => {
                    let c = self.pick(&["gt", "lt", "ge", "le", "eq", "ne"]);
                    let l = format!("if_{c} {}, {}", self.src(true), self.src(true));
                    self.line(&l);
                    self.nested(true);
                }
                1 if self.depth < 3 => {
                    let l = format!(
                        "if {}p0.{}",
                        if self.rng.below(2) == 0 { "!" } else { "" },
                        SWZ[self.rng.below(4) as usize]
                    );
                    self.line(&l);
                    self.nested(true);
                }
                2 if self.depth < 3 => {
                    let al = self.rng.below(2) == 0;
                    let l = if al {
                        format!("loop aL, i{}", self.rng.below(2))
                    } else {
                        format!("rep i{}", self.rng.below(2))
                    };
                    self.line(&l);
                    self.in_loop += 1;
                    self.in_al_loop += al as usize;
                    self.depth += 1;
                    let k = 1 + self.rng.below(5) as usize;
                    self.block(k);
                    self.depth -= 1;
                    self.in_loop -= 1;
                    self.in_al_loop -= al as usize;
                    self.line(if al { "endloop" } else { "endrep" });
                }
                3 if self.in_loop > 0 => {
                    let l = match self.rng.below(3) {
                        0 => "break".to_string(),
                        1 => format!(
                            "breakp {}p0.{}",
                            if self.rng.below(2) == 0 { "!" } else { "" },
                            SWZ[self.rng.below(4) as usize]
                        ),
                        _ => {
                            let c = self.pick(&["gt", "lt", "ge", "le", "eq", "ne"]);
                            format!("break_{c} {}, {}", self.src(true), self.src(true))
                        }
                    };
                    self.line(&l);
                }
                4 if self.label < 2 => {
                    let target = self.label + self.rng.below(2 - self.label);
                    let l = format!(
                        "callnz l{target}, {}p0.{}",
                        if self.rng.below(2) == 0 { "!" } else { "" },
                        SWZ[self.rng.below(4) as usize]
                    );
                    self.line(&l);
                }
                _ => self.arith(),
            }
        }
    }

    fn nested(&mut self, can_else: bool) {
        self.depth += 1;
        let k = 1 + self.rng.below(4) as usize;
        self.block(k);
        if can_else && self.rng.below(2) == 0 {
            self.line("else");
            let k = 1 + self.rng.below(4) as usize;
            self.block(k);
        }
        self.depth -= 1;
        self.line("endif");
    }

    fn program(seed: u64, pixel: bool) -> String {
        let mut g = Gen {
            rng: Rng(seed),
            pixel,
            depth: 0,
            in_loop: 0,
            in_al_loop: 0,
            label: 0,
            out: String::new(),
        };
        if pixel {
            g.line("ps_3_0");
            for i in 0..4 {
                g.line(&format!("dcl_texcoord{i} v{i}"));
            }
            g.line("dcl_2d s0\ndcl_2d s1");
        } else {
            g.line("vs_3_0");
            g.line("dcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_texcoord2 v3");
            g.line("dcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\ndcl_texcoord2 o3");
            g.line("dcl_2d s0\ndcl_2d s1");
        }
        g.line("def c20, 0.5, -0.5, 2.0, 0.0\ndef c21, 1.0, 0.0, -0.0, 3.0");
        g.line("defi i1, 3, 1, 2, 0");
        if !pixel {
            g.line("mova a0, v1");
        }
        for r in 0..10 {
            g.line(&format!("mov r{r}, v{}", r % 4));
        }
        g.line("setp_gt p0, v1, v2");
        let n = 4 + g.rng.below(20) as usize;
        g.block(n);
        for r in 0..4 {
            let out = if pixel {
                format!("oC{r}")
            } else {
                format!("o{r}")
            };
            g.line(&format!("mov {out}, r{r}"));
        }
        if pixel && g.rng.below(3) == 0 {
            g.line("mov oDepth, r4.x");
        }
        g.line("ret");
        for l in 0..2 {
            g.line(&format!("label l{l}"));
            g.in_loop = 0;
            g.in_al_loop = 0;
            g.label = l + 1;
            let k = 1 + g.rng.below(4) as usize;
            g.block(k);
            g.line("ret");
        }
        g.out
    }
}

fn random_consts(rng: &mut Rng) -> Consts {
    Consts {
        float: (0..256)
            .map(|_| std::array::from_fn(|_| rng.special()))
            .collect(),
        int: (0..16)
            .map(|_| {
                [
                    rng.below(7) as i32 - 1,
                    rng.below(8) as i32,
                    rng.below(4) as i32 - 1,
                    0,
                ]
            })
            .collect(),
        bool: (0..16).map(|_| rng.below(2) == 0).collect(),
    }
}

fn random_fetch(rng: &mut Rng) -> PointFetch {
    let mut f = PointFetch::default();
    for slot in (0..16).chain(17..21) {
        if rng.below(4) != 0 {
            f.bind(
                slot,
                Texture2D {
                    width: 4,
                    height: 2,
                    texels: (0..8).map(|_| rng.next() as u32).collect(),
                },
            );
        }
    }
    f
}

fn random_vs_inputs(rng: &mut Rng) -> Vec<[[f32; 4]; 16]> {
    (0..8)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| rng.special())))
        .collect()
}

fn random_ps_inputs(rng: &mut Rng) -> [ScalarPixelInputs; 8] {
    std::array::from_fn(|l| ScalarPixelInputs {
        v: std::array::from_fn(|_| std::array::from_fn(|_| rng.special())),
        pos: [(l % 2 + l / 4 * 2) as f32, ((l / 2) % 2) as f32],
        face: if rng.below(2) == 0 { 1.0 } else { -1.0 },
    })
}

#[test]
fn random_programs_agree_bit_for_bit() {
    let mut valid = [0usize; 2];
    let mut total = [0usize; 2];
    for seed in 1..=1000u64 {
        let pixel = seed % 2 == 0;
        let text = Gen::program(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15), pixel);
        let tokens = shader::assemble(&text).unwrap_or_else(|e| panic!("assemble: {e}\n{text}"));
        let prog = shader::decode(&tokens).expect("decode");
        total[pixel as usize] += 1;
        match shader::validate(&prog, &ShaderLimits::sm3()) {
            Ok(_) => valid[pixel as usize] += 1,
            Err(e) => {
                if std::env::var_os("EXEC_DIFF_VERBOSE").is_some() {
                    let m = e.to_string();
                    println!("invalid: {}", &m[..m.len().min(90)]);
                }
            }
        }
        let mut rng = Rng(seed);
        let consts = random_consts(&mut rng);
        let fetch = random_fetch(&mut rng);
        let p = Prepared::new(&prog, ExecKey::new(&prog, &consts.bool));
        let run = std::panic::AssertUnwindSafe(|| {
            if pixel {
                let inputs = random_ps_inputs(&mut rng);
                let active = rng.below(256) as u32 | 1;
                run_ps_prepared(&p, &inputs, &consts, &fetch, active);
            } else {
                let lanes = random_vs_inputs(&mut rng);
                run_vs_prepared(&p, &lanes, &consts, &fetch);
            }
        });
        if let Err(e) = std::panic::catch_unwind(run) {
            eprintln!("seed {seed} program:\n{text}");
            std::panic::resume_unwind(e);
        }
    }
    println!(
        "random programs: vs {}/{} valid at SM3, ps {}/{} valid; all agree",
        valid[0], total[0], valid[1], total[1]
    );
    assert!(
        valid[0] > 0 && valid[1] > 0,
        "the generator never produced a valid program"
    );
}

#[test]
fn fxc_corpus_programs_run_identically() {
    let Some(dir) = exec_support_fxc_dir() else {
        return;
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("read corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    names.sort();
    let (mut ran_vs, mut ran_ps, mut ran_ps1, mut skipped, mut long) = (0, 0, 0, 0, 0);
    let mut invalid = Vec::new();
    for (i, path) in names.iter().enumerate() {
        let bytes = std::fs::read(path).expect("read");
        let tokens: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let Ok(prog) = shader::decode(&tokens) else {
            skipped += 1;
            continue;
        };
        // Every program of the corpus is valid: ps_1_x at the lowest level
        // (9_1), the rest at SM3 (the 1,300+ slot bgfx shaders since SM3 has
        // 32768 ps_3_0 slots).
        let ps1 = prog.version.is_pixel() && prog.version.major < 2;
        let limits = if ps1 {
            ShaderLimits::level_9_1()
        } else {
            ShaderLimits::sm3()
        };
        match shader::validate(&prog, &limits) {
            Err(e) => {
                invalid.push(format!("{}: {e}", path.display()));
                continue;
            }
            Ok(info) if info.instruction_slots > 1000 => long += 1,
            Ok(_) => {}
        }
        let mut rng = Rng(i as u64 + 1);
        let consts = random_consts(&mut rng);
        let fetch = random_fetch(&mut rng);
        let mut key = ExecKey::new(&prog, &consts.bool);
        let consts = if ps1 {
            // A ps_1_x program reads the bank a draw builds for it, and its
            // `tex` projects by what the stages say.
            key.proj = (i as u32).wrapping_mul(0x9E37_79B9) & 0x4444_4444;
            ps1_consts(&consts, &mut rng)
        } else {
            consts
        };
        let p = Prepared::new(&prog, key);
        let run = std::panic::AssertUnwindSafe(|| {
            if prog.version.is_pixel() {
                run_ps_prepared(&p, &random_ps_inputs(&mut rng), &consts, &fetch, 0xFF);
            } else {
                run_vs_prepared(&p, &random_vs_inputs(&mut rng), &consts, &fetch);
            }
        });
        if let Err(e) = std::panic::catch_unwind(run) {
            eprintln!("corpus program {}", path.display());
            std::panic::resume_unwind(e);
        }
        if ps1 {
            ran_ps1 += 1;
        } else if prog.version.is_pixel() {
            ran_ps += 1;
        } else {
            ran_vs += 1;
        }
    }
    println!(
        "fxc corpus: {ran_vs} vertex, {ran_ps} ps_2_0-3_0 and {ran_ps1} ps_1_x programs ran identically on scalar and every SIMD backend ({long} of over 1,000 slots); {skipped} did not decode"
    );
    // The corpus's 41 ps_1_x programs (valid at 9_1, run like the others).
    assert!(ran_ps1 >= 41, "ps_1_x programs run: {ran_ps1}");
    assert!(
        invalid.is_empty(),
        "not valid at SM3:\n{}",
        invalid.join("\n")
    );
    assert!(ran_vs + ran_ps > 0);
    assert!(long >= 20, "the long bgfx shaders run ({long})");
}

/// The constant bank of a ps_1_x draw from random application constants
/// and bump-environment states.
fn ps1_consts(app: &Consts, rng: &mut Rng) -> Consts {
    let bump = std::array::from_fn(|_| BumpEnv {
        mat: std::array::from_fn(|_| rng.special()),
        lscale: rng.special(),
        loffset: rng.special(),
    });
    Consts {
        float: ps1::constants(&app.float, &bump),
        int: app.int.clone(),
        bool: app.bool.clone(),
    }
}

fn exec_support_fxc_dir() -> Option<std::path::PathBuf> {
    let base = match std::env::var_os("WARP9_CONFORMANCE_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    };
    let dir = base.join("fxc");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: conformance corpus not found at {}",
            dir.display()
        );
        None
    }
}
