//! Placeholder
use super::ShaderError;
/// Assemble.
pub fn assemble(_s: &str) -> Result<Vec<u32>, ShaderError> { todo!() }
