//! The prepared instruction form both interpreters walk: a flat list of
//! [`Op`]s with resolved register slots, swizzles as component indices,
//! `def` constants folded into immediates and flow control turned into
//! structured jumps.
//!
//! Invariants (established by `prepare`, relied on by the interpreters so
//! that their hot loops have no error paths): every register slot is below
//! [`super::regs::NREG`], every swizzle selector is below 4, every jump
//! target is a valid index into the op list, every `If`/`Loop` is closed by
//! its `EndIf`/`EndLoop` inside the same routine, and the only backward
//! jumps are `EndLoop` → loop body (bounded by the loop count and the
//! executed-instruction budget) and `EndSub` → the caller.

use crate::shader::token::Comparison;

/// The index register of a relative address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Index {
    /// `a0` component (per lane).
    A0(u8),
    /// `aL` (uniform over the batch).
    Al,
}

/// Where a source operand reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SrcKind {
    /// A per-lane register slot (temps, inputs, vPos, vFace).
    Reg(u16),
    /// An application float constant (not overridden by `def`).
    Const(u32),
    /// A `def` value: index into `Prepared::imms`.
    Imm(u32),
    /// `c[index + base]`: out-of-range reads give (0, 0, 0, 0).
    ConstRel { base: u32, index: Index },
    /// `v[index + base]` (input slots): out-of-range reads give 0.
    InputRel { base: u16, index: Index },
    /// Anything that has no float value (reads as 0).
    Zero,
}

/// What a constant slot of the 8-lane register file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ConstSlot {
    /// A `def` value: index into `Prepared::imms`.
    Imm(u32),
    /// Application float constant `c#`.
    App(u32),
}

/// Source modifier (SM2/3 use the first four; the rest are ps_1_x forms,
/// kept because they are cheap and the decoder produces them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Modifier {
    None,
    Neg,
    Abs,
    AbsNeg,
    Bias,
    BiasNeg,
    Sign,
    SignNeg,
    Comp,
    X2,
    X2Neg,
}

/// A source operand: register, swizzle (component per output channel), modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Src {
    pub kind: SrcKind,
    pub swizzle: [u8; 4],
    /// The swizzle's shape, so the common cases skip the general shuffle.
    pub shape: Shape,
    pub modifier: Modifier,
    /// For `Reg` sources: component `c` reads flat component
    /// `4 * slot + swizzle[c]` of the register file (the 8-lane
    /// interpreter's branch-free read; filled in by `prepare`).
    pub flat: [u16; 4],
}

/// The shape of a swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Shape {
    /// `.xyzw`
    Identity,
    /// `.xxxx` ... `.wwww`
    Replicate(u8),
    /// Anything else.
    General,
}

impl Shape {
    pub fn of(swizzle: [u8; 4]) -> Shape {
        if swizzle == [0, 1, 2, 3] {
            Shape::Identity
        } else if swizzle.iter().all(|&c| c == swizzle[0]) {
            Shape::Replicate(swizzle[0] & 3)
        } else {
            Shape::General
        }
    }
}

impl Src {
    pub const ZERO: Src = Src {
        kind: SrcKind::Zero,
        swizzle: [0, 1, 2, 3],
        shape: Shape::Identity,
        modifier: Modifier::None,
        flat: [0, 1, 2, 3],
    };
}

/// Where a destination writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum DstKind {
    /// A per-lane register slot (temps, outputs).
    Reg(u16),
    /// vs_3_0 `o[aL + base]`: out-of-range writes are dropped.
    OutRel { base: u16 },
    /// `a0` (mova).
    A0,
    /// `p0` (setp).
    P0,
    /// Nothing (e.g. a register file this interpreter does not write).
    None,
}

/// Predicate of an instruction: write channel `c` iff `p0[swizzle[c]] != not`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pred {
    pub swizzle: [u8; 4],
    pub not: bool,
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Dst {
    pub kind: DstKind,
    /// Write mask, bit 0 = x.
    pub mask: u8,
    /// `_sat`.
    pub sat: bool,
    /// Predication.
    pub pred: Option<Pred>,
    /// A plain full write (register, `.xyzw`, no `_sat`, no predicate):
    /// the fast path of the 8-lane interpreter.
    pub plain: bool,
}

/// An integer-vector operand of `loop`/`rep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IntSrc {
    /// `defi` value.
    Imm([i32; 4]),
    /// Application `i#`.
    Const(u16),
}

impl IntSrc {
    /// The operand's value, with the application's integer constants
    /// `int` (an `i#` the application did not set reads 0).
    #[inline(always)]
    pub(crate) fn value(self, int: &[[i32; 4]]) -> [i32; 4] {
        match self {
            IntSrc::Imm(v) => v,
            IntSrc::Const(i) => int.get(i as usize).copied().unwrap_or([0; 4]),
        }
    }
}

/// A branch condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Cond {
    /// `src[0]` COMP `src[1]` on the first component of each swizzled source.
    Cmp(Comparison),
    /// `p0.comp`, negated with `not`.
    Pred { comp: u8, not: bool },
    /// `b#` not resolved at prepare time (index beyond the key): uniform.
    Bool { index: u16, not: bool },
}

/// How a texture instruction chooses its level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TexMode {
    /// texld: implicit derivatives.
    Implicit,
    /// texldp: divide by w, implicit derivatives of the projected coordinate.
    Project,
    /// texldb: implicit plus `coord.w` bias.
    Bias,
    /// texldl: explicit level `coord.w`; also texld in a vertex shader (level 0).
    Level,
    /// texld in a vertex shader (no derivatives): level 0.
    Level0,
    /// texldd: gradients from `src[2]`, `src[3]`.
    Grad,
}

/// What an op does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Nop,
    Mov,
    /// vs_2_0+ `mova`: round half away from zero.
    MovA,
    /// vs_1_1 `mov a0.x`: floor.
    MovAFloor,
    Add,
    Sub,
    Mad,
    Mul,
    Rcp,
    Rsq,
    Dp3,
    Dp4,
    Min,
    Max,
    Slt,
    Sge,
    Exp,
    /// vs_1_1 four-component `expp`.
    ExpP1,
    Log,
    Lit,
    Dst,
    Lrp,
    Frc,
    /// Matrix macro: `src[1..=rows]` are the rows, dot products of 3 or 4.
    Mat {
        rows: u8,
        dp4: bool,
    },
    Pow,
    Crs,
    Sgn,
    Abs,
    Nrm,
    SinCos,
    Cmp,
    Cnd,
    Dp2Add,
    Dsx,
    Dsy,
    SetP(Comparison),
    /// Texture sample: `src[0]` coordinate; `swizzle` the sampler operand's.
    Tex {
        slot: u16,
        mode: TexMode,
        swizzle: [u8; 4],
    },
    /// `texkill`: `src[0]` is the tested register, `dst.mask` the components.
    TexKill,
    /// Enter a conditional block; when no lane takes it jump to `skip`
    /// (the matching `Else` or `EndIf`).
    If {
        cond: Cond,
        skip: u32,
    },
    /// Switch to the other lanes; `end` is the matching `EndIf`.
    Else {
        end: u32,
    },
    EndIf,
    /// `loop` (`rep == false`, sets aL) or `rep`; `end` is the `EndLoop`.
    Loop {
        count: IntSrc,
        rep: bool,
        sw: bool,
        end: u32,
    },
    /// Next iteration at `body`; `len` ops per iteration count toward the budget.
    EndLoop {
        body: u32,
        len: u32,
    },
    Break,
    BreakIf(Cond),
    /// Call the routine at `target` (`len` ops, counted toward the budget)
    /// for the lanes where `cond` holds.
    Call {
        target: u32,
        len: u32,
        cond: Option<Cond>,
    },
    /// `ret` inside flow control: the executing lanes leave the routine.
    Ret,
    /// End of a subroutine: return to the caller.
    EndSub,
    /// End of the main program.
    End,
}

impl Kind {
    /// Number of sources of an op whose result is a function of its source
    /// values alone (no other lanes, no machine state), 0 for every other op.
    /// Such ops run through `simd::arith::pure` in both the per-stamp and the batched
    /// forms of the 8-lane interpreter.
    #[inline(always)]
    pub(crate) fn pure_arity(self) -> usize {
        match self {
            Kind::Mov
            | Kind::Abs
            | Kind::Frc
            | Kind::Sgn
            | Kind::Rcp
            | Kind::Rsq
            | Kind::Exp
            | Kind::Log
            | Kind::ExpP1
            | Kind::Lit
            | Kind::Nrm
            | Kind::SinCos => 1,
            Kind::Add
            | Kind::Sub
            | Kind::Mul
            | Kind::Dp3
            | Kind::Dp4
            | Kind::Min
            | Kind::Max
            | Kind::Slt
            | Kind::Sge
            | Kind::Pow
            | Kind::Dst
            | Kind::Crs => 2,
            Kind::Mad | Kind::Dp2Add | Kind::Lrp | Kind::Cmp | Kind::Cnd => 3,
            _ => 0,
        }
    }
}

/// How the batched 8-lane interpreter runs an op (set by `prepare` in
/// `Prepared::wide_ops`; see `simd::batch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BatchForm {
    /// Stamp by stamp, through the general interpreter.
    General,
    /// A pure op on plain registers, in one loop over the batch.
    /// `simple`: no source modifier, a full unsaturated write;
    /// `identity`: also every source unswizzled.
    Tight { simple: bool, identity: bool },
}

/// One prepared instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Op {
    pub kind: Kind,
    pub dst: Dst,
    pub src: [Src; 5],
    /// Only meaningful in `Prepared::wide_ops`.
    pub batch: BatchForm,
}
