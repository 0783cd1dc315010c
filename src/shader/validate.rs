//! Placeholder
use super::{Program, ShaderError, ShaderInfo, ShaderLimits};
/// Validate.
pub fn validate(_p: &Program, _l: &ShaderLimits) -> Result<ShaderInfo, ShaderError> {
    todo!()
}
