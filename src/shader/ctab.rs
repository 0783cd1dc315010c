//! The D3DX constant table carried in a `CTAB` comment (bytecode.md §2.4).
//!
//! Every offset is relative to the blob after the `'CTAB'` FOURCC and is
//! bounds-checked; struct type trees are walked with a depth and node
//! budget so cyclic or exploding offsets fail instead of hanging.

use super::error::{ShaderError, ShaderErrorKind};

/// `D3DXREGISTER_SET`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterSet {
    /// `b#`
    Bool,
    /// `i#`
    Int4,
    /// `c#`
    Float4,
    /// `s#`
    Sampler,
}

/// `D3DXPARAMETER_CLASS`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterClass {
    /// scalar
    Scalar,
    /// vector
    Vector,
    /// row-major matrix
    MatrixRows,
    /// column-major matrix
    MatrixColumns,
    /// object (sampler, texture, ...)
    Object,
    /// struct
    Struct,
}

/// `D3DXPARAMETER_TYPE`, as its raw value (0 VOID … 19 UNSUPPORTED); see
/// [`type_name`].
pub type ParameterType = u16;

/// Lower-case name of a `D3DXPARAMETER_TYPE` value, as fxc prints it.
pub fn type_name(t: ParameterType) -> &'static str {
    const NAMES: [&str; 20] = [
        "void",
        "bool",
        "int",
        "float",
        "string",
        "texture",
        "texture1d",
        "texture2d",
        "texture3d",
        "texturecube",
        "sampler",
        "sampler1d",
        "sampler2d",
        "sampler3d",
        "samplercube",
        "pixelshader",
        "vertexshader",
        "pixelfragment",
        "vertexfragment",
        "unsupported",
    ];
    NAMES.get(t as usize).copied().unwrap_or("unknown")
}

/// `D3DXSHADER_TYPEINFO` with its struct members resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    /// Class.
    pub class: ParameterClass,
    /// Type (see [`type_name`]).
    pub ty: ParameterType,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 if not an array).
    pub elements: u16,
    /// Struct members (empty unless `class == Struct`).
    pub members: Vec<StructMember>,
}

/// One member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructMember {
    /// Member name.
    pub name: String,
    /// Member type.
    pub type_info: TypeInfo,
}

/// One `D3DXSHADER_CONSTANTINFO` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    /// Name (`$` prefix for entry-point uniform parameters).
    pub name: String,
    /// Register file.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// Type.
    pub type_info: TypeInfo,
    /// Blob offset of the default value, if any (0 = none).
    pub default_value_offset: u32,
}

/// A parsed constant table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantTable {
    /// Creator string (e.g. the compiler name).
    pub creator: String,
    /// Copy of the version token.
    pub version: u32,
    /// D3DXSHADER compile flags.
    pub flags: u32,
    /// Target string, e.g. `"ps_3_0"`.
    pub target: String,
    /// Constants in table order (fxc sorts them by name).
    pub constants: Vec<Constant>,
}

impl ConstantTable {
    /// Find a constant by exact name.
    pub fn by_name(&self, name: &str) -> Option<&Constant> {
        self.constants.iter().find(|c| c.name == name)
    }
}

const MAX_DEPTH: u32 = 16;
const MAX_TYPE_NODES: u32 = 65_536;

fn bad(msg: impl Into<String>) -> ShaderError {
    ShaderError::new(ShaderErrorKind::Malformed, "ctab", msg)
}

struct Blob<'a> {
    bytes: &'a [u8],
    nodes: u32,
}

impl Blob<'_> {
    fn u32_at(&self, off: usize) -> Result<u32, ShaderError> {
        let b = off
            .checked_add(4)
            .and_then(|e| self.bytes.get(off..e))
            .ok_or_else(|| {
                bad(format!(
                    "offset {off:#x} outside the {}-byte table",
                    self.bytes.len()
                ))
            })?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16_at(&self, off: usize) -> Result<u16, ShaderError> {
        let b = off
            .checked_add(2)
            .and_then(|e| self.bytes.get(off..e))
            .ok_or_else(|| {
                bad(format!(
                    "offset {off:#x} outside the {}-byte table",
                    self.bytes.len()
                ))
            })?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn string_at(&self, off: u32) -> Result<String, ShaderError> {
        if off == 0 {
            return Ok(String::new());
        }
        let rest = self
            .bytes
            .get(off as usize..)
            .ok_or_else(|| bad(format!("string offset {off:#x} outside the table")))?;
        let len = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| bad(format!("string at {off:#x} is not NUL-terminated")))?;
        Ok(String::from_utf8_lossy(&rest[..len]).into_owned())
    }

    fn type_at(&mut self, off: u32, depth: u32) -> Result<TypeInfo, ShaderError> {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > MAX_TYPE_NODES {
            return Err(bad("type information nested too deeply or too large"));
        }
        let o = off as usize;
        let class = match self.u16_at(o)? {
            0 => ParameterClass::Scalar,
            1 => ParameterClass::Vector,
            2 => ParameterClass::MatrixRows,
            3 => ParameterClass::MatrixColumns,
            4 => ParameterClass::Object,
            5 => ParameterClass::Struct,
            c => return Err(bad(format!("unknown parameter class {c}"))),
        };
        let ty = self.u16_at(o + 2)?;
        let rows = self.u16_at(o + 4)?;
        let columns = self.u16_at(o + 6)?;
        let elements = self.u16_at(o + 8)?;
        let n_members = self.u16_at(o + 10)? as usize;
        let members_off = self.u32_at(o + 12)? as usize;
        let mut members = Vec::new();
        if class == ParameterClass::Struct {
            for i in 0..n_members {
                let m = members_off
                    .checked_add(i * 8)
                    .ok_or_else(|| bad("struct member offset overflows"))?;
                let name = self.string_at(self.u32_at(m)?)?;
                let t = self.u32_at(m + 4)?;
                let type_info = self.type_at(t, depth + 1)?;
                members.push(StructMember { name, type_info });
            }
        }
        Ok(TypeInfo {
            class,
            ty,
            rows,
            columns,
            elements,
            members,
        })
    }
}

/// Parse the CTAB blob: the comment payload after the `'CTAB'` FOURCC.
pub fn parse(blob: &[u32]) -> Result<ConstantTable, ShaderError> {
    let bytes: Vec<u8> = blob.iter().flat_map(|d| d.to_le_bytes()).collect();
    let mut b = Blob {
        bytes: &bytes,
        nodes: 0,
    };
    let size = b.u32_at(0)?;
    if size != 28 {
        return Err(bad(format!(
            "constant table header size {size}, expected 28"
        )));
    }
    let creator = b.string_at(b.u32_at(4)?)?;
    let version = b.u32_at(8)?;
    let count = b.u32_at(12)? as usize;
    let info = b.u32_at(16)? as usize;
    let flags = b.u32_at(20)?;
    let target = b.string_at(b.u32_at(24)?)?;
    // Each record is 20 bytes; refusing counts that cannot fit keeps the
    // allocation bounded by the input size.
    if count > bytes.len() / 20 {
        return Err(bad(format!(
            "{count} constants cannot fit in a {}-byte table",
            bytes.len()
        )));
    }
    let mut constants = Vec::with_capacity(count);
    for i in 0..count {
        let r = info
            .checked_add(i * 20)
            .ok_or_else(|| bad("constant record offset overflows"))?;
        let name = b.string_at(b.u32_at(r)?)?;
        let register_set = match b.u16_at(r + 4)? {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            s => return Err(bad(format!("unknown register set {s} for constant {name}"))),
        };
        let register_index = b.u16_at(r + 6)?;
        let register_count = b.u16_at(r + 8)?;
        let type_info = b.type_at(b.u32_at(r + 12)?, 0)?;
        let default_value_offset = b.u32_at(r + 16)?;
        constants.push(Constant {
            name,
            register_set,
            register_index,
            register_count,
            type_info,
            default_value_offset,
        });
    }
    Ok(ConstantTable {
        creator,
        version,
        flags,
        target,
        constants,
    })
}
