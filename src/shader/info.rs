//! x
/// i
pub struct ShaderInfo;
