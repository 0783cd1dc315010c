//! Flow-control structure: block matching, nesting counters per profile,
//! `break` placement, `ret`/`label` layout, forward calls without
//! recursion and call depth, `aL` scope, the gradient rule inside dynamic
//! flow control, and `oDepth` written on all paths (bytecode.md §3.9, §4.6,
//! §9 items 7 and 9).

use super::{Profile, fail};
use crate::shader::error::ShaderError;
use crate::shader::info::ShaderInfo;
use crate::shader::ir::{Instruction, Program};
use crate::shader::opcode::Opcode;
use crate::shader::token::RegisterFile;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    StaticIf,
    DynamicIf,
    Loop,
    Rep,
}

struct Frame {
    kind: Kind,
    has_else: bool,
    /// oDepth written on every path of the then-branch (valid after `else`).
    then_depth: bool,
    /// Outer "depth written" flag saved on entry.
    outer_depth: bool,
}

/// Per-subroutine (and main) facts for call analysis.
#[derive(Default, Clone)]
struct Region {
    label: Option<u16>,
    max_loop: u32,
    max_dynamic: u32,
    calls: Vec<(usize, u16, u32, u32)>,
    uses_al_outside_loop: Option<usize>,
}

pub(crate) fn check(prog: &Program, p: &Profile, info: &mut ShaderInfo) -> Result<(), ShaderError> {
    use Opcode::*;
    let v = prog.version;
    let mut stack: Vec<Frame> = Vec::new();
    let mut regions = vec![Region::default()];
    let mut static_count = 0u32;
    let mut after_ret = false;
    let mut depth_written = false;
    let mut depth_anywhere = false;
    let mut labels_seen: Vec<u16> = Vec::new();
    for (i, ins) in prog.instructions.iter().enumerate() {
        let op = ins.opcode;
        let e = |rule: &'static str, msg: String| fail(i, ins, v, rule, msg);
        let loops = stack
            .iter()
            .filter(|f| matches!(f.kind, Kind::Loop | Kind::Rep))
            .count() as u32;
        let real_loops = stack.iter().filter(|f| f.kind == Kind::Loop).count() as u32;
        let dynamic = stack.iter().filter(|f| f.kind == Kind::DynamicIf).count() as u32;
        let statics = stack.iter().filter(|f| f.kind == Kind::StaticIf).count() as u32;
        if after_ret && op != Label {
            return Err(e(
                "flow-control",
                "only a label may follow a top-level ret".into(),
            ));
        }
        let cond_is_pred = ins
            .srcs()
            .iter()
            .any(|s| s.reg.file == RegisterFile::Predicate);
        let region = regions.last_mut().expect("main region");
        let dyn_err = |n: u32| {
            let cap = if p.vs {
                "VS20Caps.DynamicFlowControlDepth"
            } else {
                "PS20Caps.DynamicFlowControlDepth"
            };
            e(
                "flow-nesting",
                format!(
                    "dynamic flow control nested {n} deep, limit {} in {} at level {}",
                    p.dynamic_depth,
                    v.profile_name(),
                    p.level
                ),
            )
            .with_cap(cap)
        };
        match op {
            If | IfC => {
                let is_dyn = op == IfC || cond_is_pred;
                if is_dyn {
                    if dynamic + 1 > p.dynamic_depth {
                        return Err(dyn_err(dynamic + 1));
                    }
                    info.dynamic_branching = true;
                    region.max_dynamic = region.max_dynamic.max(dynamic + 1);
                } else {
                    info.static_flow_control = true;
                    static_count += 1;
                    if statics + 1 > p.static_depth {
                        return Err(e(
                            "flow-nesting",
                            format!(
                                "static if nested {} deep, limit {}",
                                statics + 1,
                                p.static_depth
                            ),
                        ));
                    }
                }
                stack.push(Frame {
                    kind: if is_dyn {
                        Kind::DynamicIf
                    } else {
                        Kind::StaticIf
                    },
                    has_else: false,
                    then_depth: false,
                    outer_depth: depth_written,
                });
                depth_written = false;
            }
            Else => {
                let Some(f) = stack
                    .last_mut()
                    .filter(|f| matches!(f.kind, Kind::StaticIf | Kind::DynamicIf) && !f.has_else)
                else {
                    return Err(e("flow-control", "else without a matching if".into()));
                };
                f.has_else = true;
                f.then_depth = depth_written;
                depth_written = false;
                if f.kind == Kind::StaticIf {
                    static_count += 1;
                }
            }
            EndIf => {
                let Some(f) = stack
                    .pop()
                    .filter(|f| matches!(f.kind, Kind::StaticIf | Kind::DynamicIf))
                else {
                    return Err(e("flow-control", "endif without a matching if".into()));
                };
                depth_written = f.outer_depth || (f.has_else && f.then_depth && depth_written);
            }
            Loop | Rep => {
                info.static_flow_control = true;
                static_count += 1;
                if loops + 1 > p.loop_depth {
                    let cap = if p.vs {
                        "VS20Caps.StaticFlowControlDepth"
                    } else {
                        "PS20Caps.StaticFlowControlDepth"
                    };
                    return Err(e(
                        "flow-nesting",
                        format!(
                            "loops nested {} deep, limit {} at level {}",
                            loops + 1,
                            p.loop_depth,
                            p.level
                        ),
                    )
                    .with_cap(cap));
                }
                region.max_loop = region.max_loop.max(loops + 1);
                stack.push(Frame {
                    kind: if op == Loop { Kind::Loop } else { Kind::Rep },
                    has_else: false,
                    then_depth: false,
                    outer_depth: depth_written,
                });
            }
            EndLoop | EndRep => {
                let want = if op == EndLoop { Kind::Loop } else { Kind::Rep };
                let Some(f) = stack.pop().filter(|f| f.kind == want) else {
                    return Err(e(
                        "flow-control",
                        format!(
                            "{} without a matching {}",
                            op.base_name(),
                            if op == EndLoop { "loop" } else { "rep" }
                        ),
                    ));
                };
                depth_written = f.outer_depth;
            }
            Break | BreakC | BreakP => {
                if loops == 0 {
                    return Err(e("flow-control", "break outside loop/rep".into()));
                }
                if op != Break {
                    info.dynamic_branching = true;
                    if dynamic + 1 > p.dynamic_depth {
                        return Err(dyn_err(dynamic + 1));
                    }
                    region.max_dynamic = region.max_dynamic.max(dynamic + 1);
                }
            }
            Call | CallNz => {
                if op == Call || !cond_is_pred {
                    static_count += 1;
                    info.static_flow_control = true;
                } else {
                    info.dynamic_branching = true;
                    if dynamic + 1 > p.dynamic_depth {
                        return Err(dyn_err(dynamic + 1));
                    }
                }
                let label = ins.srcs().first().map_or(0, |s| s.reg.index);
                let d = dynamic + u32::from(op == CallNz && cond_is_pred);
                region.calls.push((i, label, loops, d));
            }
            Ret => {
                if !stack.is_empty() {
                    return Err(e("flow-control", "ret inside a flow-control block".into()));
                }
                after_ret = true;
            }
            Label => {
                let label = ins.srcs().first().map_or(0, |s| s.reg.index);
                if !after_ret {
                    return Err(e("labels", "a label must directly follow a ret".into()));
                }
                if labels_seen.contains(&label) {
                    return Err(e("labels", format!("label l{label} defined twice")));
                }
                labels_seen.push(label);
                after_ret = false;
                regions.push(Region {
                    label: Some(label),
                    ..Region::default()
                });
            }
            _ => {}
        }
        if let Some(n) = p.static_flow_count
            && static_count > n
        {
            return Err(e(
                "flow-nesting",
                format!(
                    "more than {n} static flow-control instructions in {}",
                    v.profile_name()
                ),
            ));
        }
        // aL scope: only inside loop (or a subroutine called from one).
        let uses_al = ins.srcs().iter().any(|s| {
            s.relative.is_some_and(|r| r.reg.file == RegisterFile::Loop)
                || (s.reg.file == RegisterFile::Loop && op != Loop)
        }) || ins
            .dst
            .is_some_and(|d| d.relative.is_some_and(|r| r.reg.file == RegisterFile::Loop));
        if uses_al && real_loops == 0 {
            let region = regions.last_mut().expect("region");
            if region.label.is_none() {
                return Err(e("loop-register", "aL used outside a loop".into()));
            }
            region.uses_al_outside_loop.get_or_insert(i);
        }
        // Gradient rule inside dynamic flow control (§4.6).
        if !p.vs && dynamic > 0 && gradient_on_temp(ins) {
            return Err(e("gradient-in-flow-control", "implicit-gradient texture loads and dsx/dsy of a temp are not allowed inside dynamic flow control".into()));
        }
        if ins
            .dst
            .is_some_and(|d| d.reg.file == RegisterFile::DepthOut)
        {
            depth_anywhere = true;
            if ins.predicate.is_none() {
                depth_written = true;
            }
        }
    }
    if !stack.is_empty() {
        let i = prog.instructions.len().saturating_sub(1);
        return Err(match prog.instructions.get(i) {
            Some(ins) => fail(i, ins, v, "flow-control", "flow-control block not closed"),
            None => crate::shader::error::ShaderError::new(
                crate::shader::error::ShaderErrorKind::Invalid,
                "flow-control",
                "flow-control block not closed",
            ),
        });
    }
    if regions.len() > 1
        && let Some(last) = prog.instructions.last()
        && last.opcode != Ret
    {
        return Err(fail(
            prog.instructions.len() - 1,
            last,
            v,
            "labels",
            "the last subroutine must end with ret",
        ));
    }
    if depth_anywhere && !depth_written_in_main(prog, depth_written, &regions) {
        let i = prog.instructions.len().saturating_sub(1);
        if let Some(ins) = prog.instructions.get(i) {
            return Err(fail(
                i,
                ins,
                v,
                "depth-output",
                "oDepth is written on some paths but not all",
            ));
        }
    }
    calls(prog, p, &regions)
}

fn depth_written_in_main(_prog: &Program, written_at_end: bool, regions: &[Region]) -> bool {
    // Writes inside subroutines are not tracked per path; programs that
    // write oDepth only there are accepted when main calls them.
    written_at_end || regions.len() > 1
}

fn gradient_on_temp(ins: &Instruction) -> bool {
    let first_is_temp = ins
        .srcs()
        .first()
        .is_some_and(|s| s.reg.file == RegisterFile::Temp);
    match ins.opcode {
        Opcode::Tex | Opcode::Dsx | Opcode::Dsy => first_is_temp,
        _ => false,
    }
}

/// Calls: labels defined and forward, no recursion, nesting within limits.
fn calls(prog: &Program, p: &Profile, regions: &[Region]) -> Result<(), ShaderError> {
    let v = prog.version;
    let index_of = |l: u16| regions.iter().position(|r| r.label == Some(l));
    // Depth of each region = 1 + max depth of its callees; computed
    // backwards because calls must be forward.
    let mut depth = vec![(0u32, 0u32, 0u32); regions.len()]; // (call depth, loops, dynamic)
    for r in (0..regions.len()).rev() {
        let mut d = (0, regions[r].max_loop, regions[r].max_dynamic);
        for &(i, label, loops, dynamic) in &regions[r].calls {
            let ins = &prog.instructions[i];
            let Some(c) = index_of(label) else {
                return Err(fail(
                    i,
                    ins,
                    v,
                    "labels",
                    format!("call to undefined label l{label}"),
                ));
            };
            if c <= r {
                return Err(fail(
                    i,
                    ins,
                    v,
                    "labels",
                    format!("call to l{label} is not forward (recursion or backward call)"),
                ));
            }
            let (cd, cl, cdy) = depth[c];
            d.0 = d.0.max(cd + 1);
            d.1 = d.1.max(loops + cl);
            d.2 = d.2.max(dynamic + cdy);
            if cd + 1 > p.call_depth {
                let cap = if p.vs {
                    "VS20Caps.StaticFlowControlDepth"
                } else {
                    "PS20Caps.StaticFlowControlDepth"
                };
                return Err(fail(
                    i,
                    ins,
                    v,
                    "flow-nesting",
                    format!(
                        "calls nested {} deep, limit {} at level {}",
                        cd + 1,
                        p.call_depth,
                        p.level
                    ),
                )
                .with_cap(cap));
            }
            if loops + cl > p.loop_depth {
                return Err(fail(
                    i,
                    ins,
                    v,
                    "flow-nesting",
                    format!(
                        "loops nested {} deep through calls, limit {}",
                        loops + cl,
                        p.loop_depth
                    ),
                ));
            }
            if dynamic + cdy > p.dynamic_depth {
                return Err(fail(
                    i,
                    ins,
                    v,
                    "flow-nesting",
                    format!(
                        "dynamic flow control nested {} deep through calls, limit {}",
                        dynamic + cdy,
                        p.dynamic_depth
                    ),
                ));
            }
            if loops == 0
                && let Some(al) = regions[c].uses_al_outside_loop
            {
                return Err(fail(
                    al,
                    &prog.instructions[al],
                    v,
                    "loop-register",
                    "aL used in a subroutine called outside a loop",
                ));
            }
        }
        depth[r] = d;
    }
    Ok(())
}
