//! Validation of a decoded [`Program`] against its profile and the device
//! [`ShaderLimits`] (bytecode.md §9, caps.md §8), producing [`ShaderInfo`].
//!
//! ps_1_x programs go through their own walk (`ps1`) after the version
//! check: shader model 1 pixel rules share little with SM2/3.
//!
//! Passes for the other profiles, in order: version; per-instruction
//! operand rules (`operands`); declarations and data flow (`dataflow`:
//! declared inputs, read-before-write, dependent reads, required outputs);
//! flow-control structure and nesting (`flow`); resource limits (slots,
//! texture instructions). The first failure is returned; its message names
//! the instruction index, the rule and the cap.

mod dataflow;
mod flow;
mod operands;
mod profile;
mod ps1;

use super::error::{ShaderError, ShaderErrorKind};
use super::info::ShaderInfo;
use super::ir::{Instruction, Program};
use super::limits::ShaderLimits;
use super::token::Version;

pub(crate) use profile::Profile;

/// Validate `program` for a device with `limits`.
pub fn validate(program: &Program, limits: &ShaderLimits) -> Result<ShaderInfo, ShaderError> {
    let v = program.version;
    check_version(v, limits)?;
    if v.is_pixel() && v.is_sm1() {
        return ps1::validate(program);
    }
    let p = Profile::new(v, limits);
    let mut info = ShaderInfo {
        version: Some(v),
        ..ShaderInfo::default()
    };
    let decls = dataflow::Declarations::collect(program, &p)?;
    for (i, ins) in program.instructions.iter().enumerate() {
        operands::check(&p, &decls, i, ins, v)?;
    }
    flow::check(program, &p, &mut info)?;
    dataflow::check(program, &p, &decls, &mut info)?;
    Ok(info)
}

/// Error for instruction `i`.
pub(crate) fn fail(
    i: usize,
    ins: &Instruction,
    v: Version,
    rule: &'static str,
    msg: impl Into<String>,
) -> ShaderError {
    ShaderError::new(ShaderErrorKind::Invalid, rule, msg).at(i, ins.opcode.mnemonic(ins.control, v))
}

fn version_name(tok: u32) -> String {
    match Version::from_token(tok) {
        Some(v) => format!("{}.{}", v.major, v.minor),
        None if tok & 0xFFFF == 0 => "none".into(),
        None => format!("{tok:#010x}"),
    }
}

fn check_version(v: Version, l: &ShaderLimits) -> Result<(), ShaderError> {
    let name = v.profile_name();
    // vs_1_x and ps_1_x are held against VertexShaderVersion /
    // PixelShaderVersion below like any other version: every level reports
    // 2.0 or more, and a 1.x token fits under any major above 1.
    if v.is_software() {
        if v.is_pixel() {
            return Err(ShaderError::new(
                ShaderErrorKind::NotAvailable,
                "version",
                format!("{name}: software pixel shaders are not available"),
            ));
        }
        if !l.software_vertex_processing {
            return Err(ShaderError::new(
                ShaderErrorKind::Invalid,
                "version",
                format!(
                    "{name} needs software vertex processing, off at level {}",
                    l.level_name
                ),
            )
            .with_cap("SoftwareVertexProcessing"));
        }
        return Ok(());
    }
    // A 2.1 token counts as 2.0 (caps.md §8, note on 2.x tokens).
    let wanted = (v.major, if v.major == 2 { 0 } else { v.minor });
    let (cap_tok, cap) = if v.is_vertex() {
        (l.vertex_shader_version, "VertexShaderVersion")
    } else {
        (l.pixel_shader_version, "PixelShaderVersion")
    };
    let have = (((cap_tok >> 8) & 0xFF) as u8, (cap_tok & 0xFF) as u8);
    let type_ok = (cap_tok >> 16) == (v.token() >> 16);
    if !type_ok || wanted > have {
        return Err(ShaderError::new(
            ShaderErrorKind::Invalid,
            "version",
            format!(
                "{name} needs {cap} {}.{}, level {} has {}",
                wanted.0,
                wanted.1,
                l.level_name,
                version_name(cap_tok)
            ),
        )
        .with_cap(cap));
    }
    Ok(())
}
