//! The keys the README documents for each object of a case file (the
//! informational ones included): a key outside these lists is an unknown
//! form, and the parse fails naming it.

pub const SUITE_KEYS: &[&str] = &[
    "test_function",
    "source",
    "summary",
    "requires",
    "notes",
    "cases",
];

/// A case's keys, the informational ones included (their values are not replayed).
pub const CASE_KEYS: &[&str] = &[
    "name",
    "source_lines",
    "requires",
    "render_target",
    "viewport",
    "clear",
    "shaders",
    "constants",
    "states",
    "transforms",
    "lights",
    "material",
    "clip_planes",
    "textures",
    "draws",
    "steps",
    "expect",
    "notes",
    "note",
    "wine_todo",
    "quirk",
    "table_row",
    "z_index",
    "point_size",
    "eps",
    "precision_class",
    "expected_depth",
    "mismatched",
    "partial",
];

pub const DRAW_KEYS: &[&str] = &[
    "method",
    "primitive",
    "primitive_count",
    "fvf",
    "declaration",
    "vertex_layout",
    "stride",
    "vertices",
    "indices",
    "index_format",
    "min_vertex_index",
    "num_vertices",
    "start_vertex",
    "states",
    "shaders",
    "constants",
    "transforms",
    "texture_lod",
    "note",
    "notes",
    "label",
];

pub const SHADER_KEYS: &[&str] = &[
    "name",
    "version",
    "dwords",
    "asm",
    "asm_complete",
    "source_lines",
    "composed_from",
    "asm_errata",
    "asm_note",
    "note",
];

pub const TEXTURE_KEYS: &[&str] = &[
    "type",
    "width",
    "height",
    "depth",
    "edge",
    "levels",
    "format",
    "pool",
    "usage",
    "data_rows",
    "fill",
    "levels_fill",
    "faces",
    "slices",
    "generator",
    "note",
    "notes",
];

pub const PROBE_KEYS: &[&str] = &[
    "x",
    "y",
    "rect",
    "color",
    "tolerance",
    "compare_alpha",
    "any_of",
    "surface",
    "if_cap_missing",
    "requires",
    "label",
    "wine_todo",
    "note",
];

/// `D3DLIGHT9` members (and the entry's own keys).
pub const LIGHT_KEYS: &[&str] = &[
    "index",
    "enabled",
    "set_light_called",
    "note",
    "Type",
    "Diffuse",
    "Specular",
    "Ambient",
    "Position",
    "Direction",
    "Range",
    "Falloff",
    "Attenuation0",
    "Attenuation1",
    "Attenuation2",
    "Theta",
    "Phi",
];

/// `D3DMATERIAL9` members.
pub const MATERIAL_KEYS: &[&str] = &[
    "Diffuse", "Ambient", "Specular", "Emissive", "Power", "note",
];
