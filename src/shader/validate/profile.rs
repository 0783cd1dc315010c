//! What one profile (vs_1_1 … ps_3_0, shaped by the device limits) allows:
//! register counts per file and position, opcode availability, nesting
//! limits (bytecode.md §4.2, §4.6, §5; caps.md §6, §8).

use crate::shader::limits::{
    PS20CAPS_ARBITRARYSWIZZLE, PS20CAPS_GRADIENTINSTRUCTIONS, PS20CAPS_NODEPENDENTREADLIMIT,
    PS20CAPS_NOTEXINSTRUCTIONLIMIT, PS20CAPS_PREDICATION, ShaderLimits, VS20CAPS_PREDICATION,
};
use crate::shader::opcode::Opcode;
use crate::shader::token::{RegisterFile, Version};

/// Limits of one program's profile under one device.
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    pub vs: bool,
    pub sw: bool,
    /// vs_1_x (ps_1_x never gets this far: `ps1` validates it).
    pub sm1: bool,
    /// vs_3_0 / ps_3_0 (and `_sw` of major 3).
    pub sm3: bool,
    /// vs_2_x / ps_2_x (2.1 tokens) and the 2_sw profiles.
    pub x: bool,
    /// ps_2_0 exactly.
    pub ps20: bool,
    pub temps: u32,
    pub temps_cap: Option<&'static str>,
    pub consts: u32,
    pub predication: bool,
    pub arbitrary_swizzle: bool,
    pub gradients: bool,
    pub dependent_read_limit: bool,
    pub tex_instruction_limit: bool,
    pub static_flow: bool,
    pub dynamic_depth: u32,
    pub static_depth: u32,
    pub loop_depth: u32,
    pub call_depth: u32,
    /// vs_2_0/vs_2_x "static flow count" limit.
    pub static_flow_count: Option<u32>,
    pub labels: u32,
    pub slots: Option<(u32, Option<&'static str>)>,
    pub texture_slot_costs: bool,
    pub level: &'static str,
}

impl Profile {
    pub fn new(v: Version, l: &ShaderLimits) -> Profile {
        let vs = v.is_vertex();
        let sw = v.is_software();
        let sm1 = vs && v.is_sm1();
        let sm3 = v.major >= 3;
        let x = v.major == 2 && v.minor != 0;
        let ps20 = !vs && v.major == 2 && v.minor == 0;
        let (vs20, ps20c) = (l.vs20, l.ps20);
        let big = sm3 || sw;
        let (temps, temps_cap) = if big {
            (32, None)
        } else if vs {
            if x {
                (vs20.num_temps.min(32), Some("VS20Caps.NumTemps"))
            } else {
                (12, None)
            }
        } else if x {
            (ps20c.num_temps.min(32), Some("PS20Caps.NumTemps"))
        } else {
            (12, None)
        };
        let consts = if vs {
            if sw {
                8192
            } else {
                l.max_vertex_shader_const.min(8192)
            }
        } else if sm3 {
            224
        } else {
            32
        };
        let pred = if vs {
            vs20.caps & VS20CAPS_PREDICATION != 0
        } else {
            ps20c.caps & PS20CAPS_PREDICATION != 0
        };
        let predication = sm3 || sw || (x && pred);
        let ps_cap = |bit: u32| sm3 || sw || (x && ps20c.caps & bit != 0);
        let (dynamic_depth, static_depth, loop_depth, call_depth) = if sm3 || sw {
            (24, 24, 4, 4)
        } else if vs {
            if x {
                let s = vs20.static_flow_control_depth.clamp(1, 4);
                (vs20.dynamic_flow_control_depth.min(24), u32::MAX, s, s)
            } else {
                (0, u32::MAX, 1, 1)
            }
        } else if x {
            let s = ps20c.static_flow_control_depth.min(4);
            (
                ps20c.dynamic_flow_control_depth.min(24),
                if s > 0 { 24 } else { 0 },
                s,
                s,
            )
        } else {
            (0, 0, 0, 0)
        };
        let slots = if sw {
            None
        } else if vs {
            if sm3 {
                Some((
                    l.max_vertex_shader30_instruction_slots,
                    Some("MaxVertexShader30InstructionSlots"),
                ))
            } else if sm1 {
                Some((128, None))
            } else {
                Some((256, None))
            }
        } else if sm3 {
            Some((
                l.max_pixel_shader30_instruction_slots,
                Some("MaxPixelShader30InstructionSlots"),
            ))
        } else if x {
            Some((
                ps20c.num_instruction_slots.min(512),
                Some("PS20Caps.NumInstructionSlots"),
            ))
        } else {
            Some((96, None))
        };
        Profile {
            vs,
            sw,
            sm1,
            sm3,
            x,
            ps20,
            temps,
            temps_cap,
            consts,
            predication,
            arbitrary_swizzle: vs || ps_cap(PS20CAPS_ARBITRARYSWIZZLE),
            gradients: !vs && ps_cap(PS20CAPS_GRADIENTINSTRUCTIONS),
            dependent_read_limit: !vs && !ps_cap(PS20CAPS_NODEPENDENTREADLIMIT),
            tex_instruction_limit: !vs && !ps_cap(PS20CAPS_NOTEXINSTRUCTIONLIMIT),
            static_flow: (vs && !sm1) || sm3 || sw || (x && ps20c.static_flow_control_depth > 0),
            dynamic_depth,
            static_depth,
            loop_depth,
            call_depth,
            static_flow_count: if vs && !sm3 && !sw { Some(16) } else { None },
            labels: if sm3 || sw { 2048 } else { 16 },
            slots,
            texture_slot_costs: sm3 || (!vs && x && ps_cap(PS20CAPS_NOTEXINSTRUCTIONLIMIT)),
            level: l.level_name,
        }
    }

    /// Number of registers of `file` this profile has in the given
    /// position (`dst` = written), or `None` if the file is not usable there.
    pub fn file_count(&self, file: RegisterFile, dst: bool) -> Option<u32> {
        use RegisterFile::*;
        let (vs, sm3, sw) = (self.vs, self.sm3, self.sw);
        let n = match (file, dst) {
            (Temp, _) => self.temps,
            (Input, false) => {
                if vs {
                    16
                } else if sm3 {
                    if sw { 14 } else { 10 }
                } else {
                    2
                }
            }
            (Const, false) => self.consts.min(2048),
            (Const2 | Const3 | Const4, false) if sw && vs => 8192,
            (AddrOrTexture, true) if vs => 1,
            (AddrOrTexture, false) if !vs && !sm3 => 8,
            (RastOut, true) if vs && !sm3 => 3,
            (AttrOut, true) if vs && !sm3 => 2,
            (Output, true) if vs => {
                if sm3 {
                    if sw { 16 } else { 12 }
                } else {
                    8
                }
            }
            (ConstInt, false) | (ConstBool, false) if !self.sm1 && (vs || !self.ps20) => {
                if sw {
                    2048
                } else {
                    16
                }
            }
            (ColorOut, true) | (DepthOut, true) if !vs => {
                if file == ColorOut {
                    4
                } else {
                    1
                }
            }
            (Sampler, false) => {
                if vs {
                    if sm3 { 4 } else { return None }
                } else {
                    16
                }
            }
            (Loop, false) if (vs && !self.sm1) || sm3 => 1,
            (MiscType, false) if !vs && sm3 => 2,
            (Label, false) if self.static_flow => self.labels,
            (Predicate, _) if self.predication => 1,
            _ => return None,
        };
        Some(n)
    }

    /// Whether `op` exists in this profile at all (§5); cap-dependent
    /// instructions are checked separately with their cap names.
    pub fn opcode_exists(&self, op: Opcode) -> bool {
        use Opcode::*;
        let (vs, sm3, ps20) = (self.vs, self.sm3, self.ps20);
        if self.sm1 {
            // vs_1_1 (§5, SM1 column): no flow control, no SM2 additions;
            // `mov` also writes a0.
            return matches!(
                op,
                Nop | Mov
                    | Add
                    | Sub
                    | Mad
                    | Mul
                    | Rcp
                    | Rsq
                    | Dp3
                    | Dp4
                    | Min
                    | Max
                    | Slt
                    | Sge
                    | Exp
                    | Log
                    | Lit
                    | Dst
                    | Frc
                    | M4x4
                    | M4x3
                    | M3x4
                    | M3x3
                    | M3x2
                    | ExpP
                    | LogP
                    | Dcl
                    | Def
            );
        }
        match op {
            Nop | Mov | Add | Sub | Mad | Mul | Rcp | Rsq | Dp3 | Dp4 | Min | Max | Exp | Log
            | Lrp | Frc | M4x4 | M4x3 | M3x4 | M3x3 | M3x2 | Pow | Crs | Abs | Nrm | SinCos
            | Dcl | Def => true,
            Slt | Sge | Lit | Dst | MovA | ExpP | LogP | Sgn => vs,
            TexKill | Tex | Cmp | Dp2Add => !vs,
            Dsx | Dsy | TexLdd => !vs && !ps20,
            TexLdl => sm3,
            Loop | EndLoop => vs || sm3,
            Call | CallNz | Ret | Label | Rep | EndRep | If | Else | EndIf | DefB | DefI => !ps20,
            IfC | Break | BreakC | SetP | BreakP => !ps20 && (sm3 || self.x),
            _ => false,
        }
    }
}
