//! Shader execution: the 8-lane interpreter ([`simd`]) the Warp path runs
//! and the scalar interpreter ([`scalar`]) the Reference path runs and the
//! tests use as the oracle, over one prepared form of the program.
//!
//! # Data flow
//!
//! ```text
//! Program (decoded, validated at creation)
//!   └─ ExecKey::new(program, bool constants)   state that changes code
//!        └─ Prepared::new(program, key)        once per key (ProgramCache)
//!             ├─ simd::run_vertex / run_pixel  8 lanes, S: Simd
//!             └─ scalar::run_vertex / run_quad 1 vertex / one 2x2 quad
//! ```
//!
//! Entry points, over a [`Prepared`] program:
//!
//! - [`simd::Executor`] — the form the draw path uses: one per draw and
//!   thread (`Executor::new(prepared, s, &Constants, fetch)`), then
//!   `run_vertex(&inputs, active)` (8 vertices; inputs `v0`–`v15`, outputs
//!   by output slot, [`OutputLayout`]) or `run_pixel(&inputs, active)` (two
//!   2x2 quads in the lane layout of [`crate::texture_fetch`]; colours
//!   `oC0`–`oC3`, `oDepth` if written, the `texkill` mask) per batch, so
//!   the register file is set up once and each batch clears only what the
//!   program uses. [`simd::run_vertex`] / [`simd::run_pixel`] are one-batch
//!   runs on a fresh executor (the tests' check that reuse changes nothing).
//! - [`scalar::run_vertex`] / [`scalar::run_quad`] — the same for one vertex
//!   / one quad with `f32` lanes (the Reference path and the oracle).
//!
//! The generic entry points are `#[inline(always)]`: call them from a
//! [`crate::simd::Kernel`] run through [`crate::simd::dispatch`] so the
//! AVX2 backend's code is compiled with AVX2.
//!
//! Vertex outputs are connected to pixel inputs by [`layout::link`]
//! (semantic and component position, bytecode.md §8); the rasterizer
//! interpolates each [`layout::Link`]'s source into the pixel input slot.
//!
//! # Invariants
//!
//! - **Same bits.** Both interpreters produce bit-identical registers for
//!   the same inputs on every backend: vector arithmetic only where
//!   IEEE-754 fixes the result, every other formula in `math`, no FMA, no
//!   approximate reciprocals.
//! - **No failure at run time.** Preparation accepts any decodable program
//!   and produces ops whose every index is in range; execution never
//!   returns an error or panics. Out-of-range relative reads give 0,
//!   out-of-range relative writes are dropped.
//! - **Bounded.** Loop counts are clamped (§7.8) and every lane has an
//!   executed-instruction budget ([`Prepared::with_budget`], default
//!   `MaxVShaderInstructionsExecuted`/`MaxPShaderInstructionsExecuted`);
//!   a lane over budget stops with the outputs it has written.
//! - **Helper lanes run.** Pixel lanes outside coverage but inside a quad
//!   execute everything (derivatives need them); the caller discards their
//!   outputs. Killed lanes keep executing too (§7.11).

pub mod layout;
pub(crate) mod math;
pub(crate) mod op;
pub mod point_fetch;
mod prepare;
pub mod ps1;
pub mod regs;
pub mod scalar;
pub mod simd;

use crate::state_cache::StateCache;
use std::sync::Arc;

use crate::shader::ir::Program;
use crate::simd::Simd;

pub use layout::{InputLayout, Link, LinkSource, OutputLayout, Varying, link};
pub use prepare::{
    ExecKey, KEY_BOOLS, PS_INSTRUCTION_BUDGET, Prepared, VS_INSTRUCTION_BUDGET, branch_bools,
};
pub use simd::Executor;

/// Deepest call nesting executed (the profiles allow 4); deeper calls are
/// skipped, which only unvalidated (recursive) programs can reach.
pub const MAX_CALL_DEPTH: usize = 16;

/// The constants of a draw: application values (the `def*` of the program
/// override them, bytecode.md §10). Registers beyond a slice read as 0 /
/// FALSE.
#[derive(Clone, Copy, Debug, Default)]
pub struct Constants<'a> {
    /// Float constants `c#`.
    pub float: &'a [[f32; 4]],
    /// Integer constants `i#`.
    pub int: &'a [[i32; 4]],
    /// Boolean constants `b#` (only uniform run-time branches read these;
    /// static branches were resolved through the [`ExecKey`]).
    pub bool: &'a [bool],
}

/// Interpolated inputs of 8 pixel lanes.
#[derive(Clone, Copy, Debug)]
pub struct PixelInputs<S: Simd> {
    /// Input slots ([`regs::input_slot`]): ps_3_0 `v#`; ps_2_x `v0`, `v1`, `t0`–`t7`.
    pub v: [[S::F; 4]; 16],
    /// `vPos` x and y: integer pixel coordinates (§4.3).
    pub pos: [S::F; 2],
    /// `vFace`: +1 front, −1 back.
    pub face: S::F,
}

/// Results of 8 pixel lanes.
#[derive(Clone, Copy, Debug)]
pub struct PixelOutputs<S: Simd> {
    /// `oC0`–`oC3` ((0, 0, 0, 0) where not written).
    pub color: [[S::F; 4]; 4],
    /// `oDepth` if the program writes it (not yet clamped to [0, 1]).
    pub depth: Option<S::F>,
    /// Lanes a `texkill` discarded.
    pub kill: S::M,
}

/// Interpolated inputs of one pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScalarPixelInputs {
    /// Input slots, as [`PixelInputs::v`].
    pub v: [[f32; 4]; 16],
    /// `vPos` x and y.
    pub pos: [f32; 2],
    /// `vFace`.
    pub face: f32,
}

/// Results of one pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScalarPixelOutput {
    /// `oC0`–`oC3`.
    pub color: [[f32; 4]; 4],
    /// `oDepth` if written.
    pub depth: Option<f32>,
    /// Discarded by `texkill`.
    pub killed: bool,
}

/// Prepared forms of one program, one per [`ExecKey`] seen ("specialise by
/// state keys, cache decoded shaders").
#[derive(Debug)]
pub struct ProgramCache {
    program: Program,
    used_bools: u128,
    prepared: StateCache<ExecKey, Arc<Prepared>, PREPARED_VARIANTS>,
}

/// Prepared variants one [`ProgramCache`] keeps at most: a program that
/// branches on many boolean constants has up to 2^n variants, and an
/// application that walks through them must not grow the cache with them.
pub const PREPARED_VARIANTS: usize = 64;

impl ProgramCache {
    /// A cache for `program`.
    pub fn new(program: Program) -> ProgramCache {
        ProgramCache {
            used_bools: branch_bools(&program),
            program,
            prepared: StateCache::default(),
        }
    }

    /// The key for the boolean constants `bools`.
    pub fn key(&self, bools: &[bool]) -> ExecKey {
        ExecKey::from_mask(self.used_bools, bools)
    }

    /// The program prepared for `bools`, preparing it on first use.
    pub fn get(&mut self, bools: &[bool]) -> Arc<Prepared> {
        self.get_projected(bools, 0)
    }

    /// [`ProgramCache::get`] with the projection divisors a ps_1_1–1_3
    /// program's `tex` applies ([`ps1::pack_projection`]; ignored for every
    /// other profile, so it cannot split their cache entries).
    pub fn get_projected(&mut self, bools: &[bool], proj: u32) -> Arc<Prepared> {
        let v = self.program.version;
        let mut key = self.key(bools);
        if v.is_pixel() && v.is_sm1() && v.minor < 4 {
            key.proj = proj;
        }
        let program = &self.program;
        self.prepared
            .get_or_build(&key, |&key| Arc::new(Prepared::new(program, key)))
    }

    /// Number of prepared variants.
    pub fn len(&self) -> usize {
        self.prepared.len()
    }

    /// True before the first [`ProgramCache::get`].
    pub fn is_empty(&self) -> bool {
        self.prepared.is_empty()
    }
}
