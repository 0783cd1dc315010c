//! What a vertex shader's outputs are and what a pixel shader's inputs
//! need (bytecode.md §8): the descriptions the rasterizer uses to
//! interpolate vertex outputs and feed pixel inputs, and the linkage
//! function that connects the two.
//!
//! Both sides are lists of [`Varying`]s — a register slot plus a semantic
//! (usage, usage index) and a component mask. Legacy registers get their
//! implied semantics (§8.2): `oPos` → POSITION0, `oD#` → COLOR#, `oT#` →
//! TEXCOORD#, `oFog` → FOG0, `oPts` → PSIZE0 on the vertex side, and ps_2_x
//! `v#` → COLOR#, `t#` → TEXCOORD# on the pixel side. [`link`] then
//! connects every pixel-input component to the vertex-output component of
//! the same semantic at the **same component position** (§8.2 rule 2), so
//! one function covers vs_2 → ps_2, vs_3 → ps_3 and the mixed pairs.

use crate::shader::ir::{Declaration, Program};
use crate::shader::opcode::Opcode;
use crate::shader::token::{RegisterFile, Version};
use crate::vertex::DeclUsage;

use super::regs::{self, OUT_D0, OUT_FOG, OUT_POS, OUT_PTS, OUT_T0};

/// One interpolated value: a register slot with its semantic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Varying {
    /// Output slot (vertex side, see [`OutputLayout`]) or input slot
    /// (pixel side, see [`regs::input_slot`]).
    pub slot: u16,
    /// DeclUsage.
    pub usage: DeclUsage,
    /// DeclUsage index.
    pub index: u8,
    /// Components covered, bit 0 = x.
    pub mask: u8,
    /// Declared `_centroid` (pixel inputs).
    pub centroid: bool,
}

/// The outputs of a vertex shader (or of fixed-function vertex processing).
///
/// Output slots: vs_1_1–vs_2_x use the fixed numbering `oPos` = 0,
/// `oFog` = 1, `oPts` = 2, `oD0`/`oD1` = 3/4, `oT0`–`oT7` = 5–12; vs_3_0
/// uses `o#` = `#`. Unwritten components hold the defaults of §10
/// (`oD0` 1.0, everything else 0.0), and vs < 3.0 `oD#`/`oFog` are already
/// saturated when the interpreter returns them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputLayout {
    /// Every output varying (several may share a slot with disjoint masks).
    pub varyings: Vec<Varying>,
    /// Slot of the clip-space position (POSITION0).
    pub position: Option<u16>,
    /// Slot and component of the point size (PSIZE0), if written.
    pub point_size: Option<(u16, u8)>,
    /// Slot and component of the fog value (FOG0), if written.
    pub fog: Option<(u16, u8)>,
}

/// The interpolated inputs a pixel shader reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputLayout {
    /// Every input varying (slot = input slot, see [`regs::input_slot`]).
    pub varyings: Vec<Varying>,
    /// Reads `vPos`.
    pub uses_vpos: bool,
    /// Reads `vFace`.
    pub uses_vface: bool,
}

/// Where one pixel-input component comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LinkSource {
    /// Interpolate this vertex-output slot and component.
    Output {
        /// Output slot.
        slot: u16,
        /// Component (0 = x).
        comp: u8,
    },
    /// No vertex output has this semantic and component: a constant (§8, §10).
    Constant(f32),
}

/// One pixel-input component and its source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Pixel input slot.
    pub input: u16,
    /// Component (0 = x).
    pub comp: u8,
    /// Where the value comes from.
    pub source: LinkSource,
    /// COLOR usage: flat shading applies (rasterization.md §9.3).
    pub color: bool,
    /// Centroid interpolation was declared.
    pub centroid: bool,
}

fn varying(slot: u16, usage: DeclUsage, index: u8, mask: u8) -> Varying {
    Varying {
        slot,
        usage,
        index,
        mask,
        centroid: false,
    }
}

impl OutputLayout {
    /// The outputs of `program` (a vertex shader).
    pub fn of_program(program: &Program) -> OutputLayout {
        let v = program.version;
        let mut out = OutputLayout::default();
        if v.major >= 3 {
            for ins in &program.instructions {
                if let (Opcode::Dcl, Some(d), Some(Declaration::Semantic { usage, index })) =
                    (ins.opcode, ins.dst, ins.declaration())
                    && d.reg.file == RegisterFile::Output
                    && let Some(slot) = regs::output_slot(v, d.reg.file, d.reg.index)
                {
                    out.varyings.push(varying(slot, usage, index, d.mask.0));
                }
            }
        } else {
            // Legacy registers: a slot is an output when the program writes
            // it; the whole register is exported because unwritten
            // components carry the §10 defaults.
            let mut written = 0u32;
            for ins in &program.instructions {
                if ins.opcode.is_declaration() {
                    continue;
                }
                if let Some(d) = ins.dst
                    && let Some(slot) = regs::output_slot(v, d.reg.file, d.reg.index)
                {
                    written |= 1 << slot;
                }
            }
            out = Self::legacy(written);
        }
        out.fill_specials();
        out
    }

    /// The legacy (vs < 3.0 and fixed-function) outputs whose slot bit is
    /// set in `written` (bit `OUT_POS` = `oPos`, ...).
    pub fn legacy(written: u32) -> OutputLayout {
        let mut out = OutputLayout::default();
        let mut add = |slot: u16, usage, index, mask| {
            if written & (1 << slot) != 0 {
                out.varyings.push(varying(slot, usage, index, mask));
            }
        };
        add(OUT_POS, DeclUsage::Position, 0, 0xF);
        add(OUT_FOG, DeclUsage::Fog, 0, 0x1);
        add(OUT_PTS, DeclUsage::PSize, 0, 0x1);
        add(OUT_D0, DeclUsage::Color, 0, 0xF);
        add(OUT_D0 + 1, DeclUsage::Color, 1, 0xF);
        for t in 0..8u8 {
            add(OUT_T0 + t as u16, DeclUsage::TexCoord, t, 0xF);
        }
        out.fill_specials();
        out
    }

    /// Every legacy output: what fixed-function vertex processing produces.
    pub fn fixed_function() -> OutputLayout {
        Self::legacy(0x1FFF)
    }

    fn fill_specials(&mut self) {
        let find = |usage| {
            self.varyings
                .iter()
                .find(|v| v.usage == usage && v.index == 0)
                .map(|v| (v.slot, v.mask.trailing_zeros().min(3) as u8))
        };
        self.position = find(DeclUsage::Position).map(|(s, _)| s);
        self.point_size = find(DeclUsage::PSize);
        self.fog = find(DeclUsage::Fog);
    }
}

impl InputLayout {
    /// The inputs of `program` (a pixel shader).
    pub fn of_program(program: &Program) -> InputLayout {
        let v: Version = program.version;
        let mut out = InputLayout::default();
        for ins in &program.instructions {
            let (Opcode::Dcl, Some(d)) = (ins.opcode, ins.dst) else {
                continue;
            };
            match d.reg.file {
                RegisterFile::MiscType => {
                    out.uses_vpos |= d.reg.index == 0;
                    out.uses_vface |= d.reg.index == 1;
                    continue;
                }
                RegisterFile::Sampler => continue,
                _ => {}
            }
            let Some(slot) = regs::input_slot(v, d.reg.file, d.reg.index) else {
                continue;
            };
            let (usage, index) = match ins.declaration() {
                Some(Declaration::Semantic { usage, index }) if v.major >= 3 => (usage, index),
                _ if d.reg.file == RegisterFile::Input => (DeclUsage::Color, d.reg.index as u8),
                _ => (DeclUsage::TexCoord, d.reg.index as u8),
            };
            let mut var = varying(slot, usage, index, d.mask.0);
            var.centroid = d.centroid();
            out.varyings.push(var);
        }
        out
    }
}

/// Connects pixel inputs to vertex outputs by semantic and component
/// position (§8.2). Unmatched components get the §10 defaults: 1.0 for a
/// ps_2_x `v0` (COLOR0 fed by a vertex stage without `oD0`), 0.0 otherwise.
/// `legacy_ps` is true for a ps_2_0/ps_2_x consumer.
pub fn link(vs: &OutputLayout, ps: &InputLayout, legacy_ps: bool) -> Vec<Link> {
    let mut links = Vec::new();
    for input in &ps.varyings {
        for comp in 0..4u8 {
            if input.mask & (1 << comp) == 0 {
                continue;
            }
            let source = vs
                .varyings
                .iter()
                .find(|o| {
                    o.usage == input.usage && o.index == input.index && o.mask & (1 << comp) != 0
                })
                .map(|o| LinkSource::Output { slot: o.slot, comp })
                .unwrap_or_else(|| {
                    let one = legacy_ps && input.usage == DeclUsage::Color && input.index == 0;
                    LinkSource::Constant(if one { 1.0 } else { 0.0 })
                });
            links.push(Link {
                input: input.slot,
                comp,
                source,
                color: input.usage == DeclUsage::Color,
                centroid: input.centroid,
            });
        }
    }
    links
}
