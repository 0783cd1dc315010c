//! The case files as typed values. Parsing resolves every name, vertex,
//! shader and probe up front: a file that does not parse completely is a
//! harness bug (or a data change the harness must learn), never a skip.

use serde_json::Value;
use warp9::state::Material;

use super::json::{
    R, arr, boolean, float, get, index_key, known_keys, obj, opt_uint, state_value, text, uint,
    vec4,
};
use super::keys::{CASE_KEYS, DRAW_KEYS, PROBE_KEYS, SHADER_KEYS, SUITE_KEYS};
use super::lighting::{self, LightSpec};
use super::names;
pub use super::texture::{Content, TextureKind, TextureSpec};

/// One file: one Wine test function.
pub struct Suite {
    pub function: String,
    pub requires: Vec<String>,
    pub cases: Vec<Case>,
}

/// One replayable case.
pub struct Case {
    pub name: String,
    pub render_target: RenderTarget,
    pub requires: Vec<String>,
    pub viewport: Viewport,
    pub clear: Option<ClearOp>,
    pub setup: Setup,
    pub lights: Vec<LightSpec>,
    pub material: Option<Material>,
    pub clip_planes: Vec<(u32, [f32; 4])>,
    pub textures: Vec<(u32, TextureSpec)>,
    pub draws: Vec<Draw>,
    pub steps: Vec<Step>,
    pub expect: Vec<Probe>,
}

/// The back buffer and its automatic depth buffer (`render_target`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderTarget {
    pub width: u32,
    pub height: u32,
    pub format: u32,
    /// `None` when the case has no automatic depth buffer.
    pub depth_stencil: Option<u32>,
}

/// The README's back buffer: 640x480 A8R8G8B8 with an automatic D24S8.
pub const DEFAULT_TARGET: RenderTarget = RenderTarget {
    width: 640,
    height: 480,
    format: 21,
    depth_stencil: Some(75),
};

#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub min_z: f32,
    pub max_z: f32,
}

#[derive(Clone, Copy, Debug)]
pub struct ClearOp {
    pub flags: u32,
    pub color: u32,
    pub z: f32,
    pub stencil: u32,
}

/// State, shader, constant and transform changes applied together.
#[derive(Default)]
pub struct Setup {
    pub render: Vec<(u32, u32)>,
    pub stage: Vec<(u32, u32, u32)>,
    pub sampler: Vec<(u32, u32, u32)>,
    pub shaders: Option<Shaders>,
    pub vs_f: Vec<(u32, [f32; 4])>,
    pub ps_f: Vec<(u32, [f32; 4])>,
    pub vs_i: Vec<(u32, [i32; 4])>,
    pub ps_i: Vec<(u32, [i32; 4])>,
    pub vs_b: Vec<(u32, bool)>,
    pub ps_b: Vec<(u32, bool)>,
    /// (D3DTS number, the 16 floats in D3D memory order: m[row][col]).
    pub transforms: Vec<(u32, [[f32; 4]; 4])>,
}

pub struct Shaders {
    pub vertex: Option<ShaderSpec>,
    pub pixel: Option<ShaderSpec>,
}

pub struct ShaderSpec {
    pub name: String,
    pub version: String,
    pub tokens: Vec<u32>,
}

impl ShaderSpec {
    /// (pixel?, major, minor) from the version text.
    pub fn model(&self) -> Option<(bool, u32, u32)> {
        let (kind, rest) = self.version.split_once('_')?;
        let (major, minor) = rest.split_once('_')?;
        Some((kind == "ps", major.parse().ok()?, minor.parse().ok()?))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Up,
    IndexedUp,
    Buffer,
}

pub struct Draw {
    pub method: Method,
    pub primitive: u32,
    pub count: u32,
    /// FVF bits, or 0 when `decl` is used.
    pub fvf: u32,
    /// (stream, offset, type, method, usage, usage index), D3D numbering.
    pub decl: Vec<(u16, u16, u8, u8, u8, u8)>,
    pub stride: u32,
    pub vertices: Vec<u8>,
    pub indices: Vec<u32>,
    pub index_format: u32,
    pub min_index: u32,
    pub num_vertices: u32,
    pub start_vertex: u32,
    pub setup: Setup,
    pub texture_lod: Vec<(u32, u32)>,
}

pub enum Step {
    CreateTexture {
        name: String,
        width: u32,
        height: u32,
        levels: u32,
        usage: u32,
        format: u32,
        pool: u32,
    },
    CreateRenderTarget {
        name: String,
        width: u32,
        height: u32,
        format: u32,
        lockable: bool,
    },
    CreateDepthStencil {
        name: String,
        width: u32,
        height: u32,
        format: u32,
    },
    SetRenderTarget {
        index: u32,
        target: String,
    },
    SetDepthStencil {
        target: String,
    },
    SetViewport(Viewport),
    Clear(ClearOp),
    Draw {
        setup: Box<Setup>,
        textures: Vec<(u32, String)>,
        draw: Box<Draw>,
    },
}

pub struct Probe {
    /// `[left, top, right, bottom)`; a point probe is a 1x1 rectangle.
    pub rect: [u32; 4],
    pub colors: Vec<u32>,
    pub tolerance: u8,
    pub compare_alpha: bool,
    pub surface: Option<String>,
    pub if_cap_missing: Option<(String, u32)>,
    pub requires: Option<String>,
    pub label: String,
}

fn viewport(v: &Value) -> R<Viewport> {
    known_keys(
        v,
        "a viewport",
        &["x", "y", "width", "height", "min_z", "max_z", "note"],
    )?;
    Ok(Viewport {
        x: uint(get(v, "x")?)?,
        y: uint(get(v, "y")?)?,
        width: uint(get(v, "width")?)?,
        height: uint(get(v, "height")?)?,
        min_z: float(get(v, "min_z")?)?,
        max_z: float(get(v, "max_z")?)?,
    })
}

/// The viewport D3D9 sets for a new target: all of it, depth 0..1.
fn full_viewport(t: &RenderTarget) -> Viewport {
    Viewport {
        x: 0,
        y: 0,
        width: t.width,
        height: t.height,
        min_z: 0.0,
        max_z: 1.0,
    }
}

fn clear(v: &Value) -> R<ClearOp> {
    known_keys(
        v,
        "a clear",
        &["op", "flags", "color", "z", "stencil", "note", "notes"],
    )?;
    Ok(ClearOp {
        flags: uint(get(v, "flags")?)?,
        color: opt_uint(v, "color", 0)?,
        z: v.get("z").map_or(Ok(1.0), float)?,
        stencil: opt_uint(v, "stencil", 0)?,
    })
}

fn shader(v: &Value) -> R<Option<ShaderSpec>> {
    if v.is_null() {
        return Ok(None);
    }
    known_keys(v, "a shader", SHADER_KEYS)?;
    let name = v.get("name").and_then(Value::as_str).unwrap_or("?").into();
    let version = text(get(v, "version")?)?.to_string();
    let dwords = match v.get("dwords") {
        Some(d) => arr(d)?.iter().map(uint).collect::<R<Vec<u32>>>()?,
        None => Vec::new(),
    };
    // The DWORDs are authoritative; only where the data has none is the listing assembled.
    let tokens = if dwords.is_empty() {
        let lines = arr(get(v, "asm")?)?
            .iter()
            .map(|l| text(l).map(str::to_string))
            .collect::<R<Vec<_>>>()?;
        warp9::shader::assemble(&lines.join("\n")).map_err(|e| {
            format!("shader {name} has no DWORDs and its listing does not assemble: {e}")
        })?
    } else {
        dwords
    };
    Ok(Some(ShaderSpec {
        name,
        version,
        tokens,
    }))
}

fn constants<T>(v: &Value, key: &str, conv: impl Fn(&Value) -> R<T>) -> R<Vec<(u32, T)>> {
    let Some(list) = v.get(key) else {
        return Ok(Vec::new());
    };
    arr(list)?
        .iter()
        .map(|e| {
            known_keys(e, "a constant", &["register", "values", "note"])?;
            Ok((uint(get(e, "register")?)?, conv(get(e, "values")?)?))
        })
        .collect()
}

fn ivec4(v: &Value) -> R<[i32; 4]> {
    let a = arr(v)?;
    let i = |x: &Value| {
        x.as_i64()
            .map(|n| n as i32)
            .ok_or_else(|| format!("bad int {x}"))
    };
    if a.len() != 4 {
        return Err(format!("expected 4 ints, got {v}"));
    }
    Ok([i(&a[0])?, i(&a[1])?, i(&a[2])?, i(&a[3])?])
}

/// Reads `states`, `shaders`, `constants` and `transforms` of `v` into a setup.
fn setup(v: &Value) -> R<Setup> {
    let mut s = Setup::default();
    if let Some(states) = v.get("states") {
        known_keys(states, "states", &["render", "texture_stage", "sampler"])?;
        for (key, value) in states
            .get("render")
            .map(obj)
            .transpose()?
            .into_iter()
            .flatten()
        {
            let (n, f) = names::render_state(key).ok_or(format!("unknown state {key}"))?;
            s.render
                .push((n, state_value(value, f).map_err(|e| format!("{key}: {e}"))?));
        }
        for (group, is_stage) in [("texture_stage", true), ("sampler", false)] {
            for (unit, states) in states
                .get(group)
                .map(obj)
                .transpose()?
                .into_iter()
                .flatten()
            {
                let unit = index_key(unit)?;
                for (key, value) in obj(states)? {
                    let found = if is_stage {
                        names::stage_state(key)
                    } else {
                        names::sampler_state(key)
                    };
                    let (n, f) = found.ok_or(format!("unknown state {key}"))?;
                    let value = state_value(value, f).map_err(|e| format!("{key}: {e}"))?;
                    if is_stage {
                        s.stage.push((unit, n, value));
                    } else {
                        s.sampler.push((unit, n, value));
                    }
                }
            }
        }
    }
    if let Some(sh) = v.get("shaders") {
        known_keys(sh, "shaders", &["vertex", "pixel"])?;
        s.shaders = Some(Shaders {
            vertex: shader(sh.get("vertex").unwrap_or(&Value::Null))?,
            pixel: shader(sh.get("pixel").unwrap_or(&Value::Null))?,
        });
    }
    if let Some(c) = v.get("constants") {
        for key in obj(c)?.keys() {
            if ![
                "vs_float", "ps_float", "vs_int", "ps_int", "vs_bool", "ps_bool",
            ]
            .contains(&key.as_str())
            {
                return Err(format!("unknown constant kind {key}"));
            }
        }
        s.vs_f = constants(c, "vs_float", vec4)?;
        s.ps_f = constants(c, "ps_float", vec4)?;
        s.vs_i = constants(c, "vs_int", ivec4)?;
        s.ps_i = constants(c, "ps_int", ivec4)?;
        s.vs_b = constants(c, "vs_bool", boolean)?;
        s.ps_b = constants(c, "ps_bool", boolean)?;
    }
    if let Some(t) = v.get("transforms") {
        for (key, m) in obj(t)? {
            let n = names::transform(key).ok_or(format!("unknown transform {key}"))?;
            let rows = arr(m)?;
            if rows.len() != 4 {
                return Err(format!("{key}: expected 4 rows"));
            }
            let mut out = [[0.0; 4]; 4];
            for (o, r) in out.iter_mut().zip(rows) {
                *o = vec4(r)?;
            }
            s.transforms.push((n, out));
        }
    }
    Ok(s)
}

fn draw(v: &Value) -> R<Draw> {
    known_keys(v, "a draw", DRAW_KEYS)?;
    let method = match text(get(v, "method")?)? {
        "DrawPrimitiveUP" => Method::Up,
        "DrawIndexedPrimitiveUP" => Method::IndexedUp,
        "DrawPrimitive" => Method::Buffer,
        m => return Err(format!("unknown draw method {m}")),
    };
    let mut natural = 0;
    let mut fvf = 0;
    let mut decl = Vec::new();
    if let Some(f) = v.get("fvf") {
        fvf = names::dword_expr(text(f)?)?;
        natural = fvf_size(fvf)?;
    } else {
        for e in arr(get(v, "declaration")?)? {
            known_keys(
                e,
                "a declaration element",
                &["stream", "offset", "type", "method", "usage", "usage_index"],
            )?;
            let (ty, size) =
                names::decl_type(text(get(e, "type")?)?).ok_or(format!("bad type in {e}"))?;
            let el = (
                uint(get(e, "stream")?)? as u16,
                uint(get(e, "offset")?)? as u16,
                ty,
                names::decl_method(text(get(e, "method")?)?).ok_or(format!("bad method {e}"))?,
                names::decl_usage(text(get(e, "usage")?)?).ok_or(format!("bad usage {e}"))?,
                uint(get(e, "usage_index")?)? as u8,
            );
            if el.0 != 0 {
                return Err("declarations over several streams are not in the data".into());
            }
            natural = natural.max(u32::from(el.1) + size);
            decl.push(el);
        }
    }
    let mut vertices = Vec::new();
    let mut per_vertex = None;
    for vert in arr(get(v, "vertices")?)? {
        let before = vertices.len();
        for x in arr(vert)? {
            match x {
                Value::String(s) => vertices.extend(names::dword_expr(s)?.to_le_bytes()),
                _ => vertices.extend(float(x)?.to_le_bytes()),
            }
        }
        let len = (vertices.len() - before) as u32;
        if *per_vertex.get_or_insert(len) != len {
            return Err("vertices of different sizes".into());
        }
    }
    let data_size = per_vertex.unwrap_or(0);
    let stride = match v.get("stride") {
        Some(s) => uint(s)?,
        None => natural.max(data_size),
    };
    if data_size != stride {
        return Err(format!(
            "vertex data of {data_size} bytes per vertex for stride {stride}"
        ));
    }
    let indices = match v.get("indices") {
        Some(list) => arr(list)?.iter().map(uint).collect::<R<Vec<_>>>()?,
        None => Vec::new(),
    };
    let mut texture_lod = Vec::new();
    for (k, lod) in v
        .get("texture_lod")
        .map(obj)
        .transpose()?
        .into_iter()
        .flatten()
    {
        texture_lod.push((index_key(k)?, uint(lod)?));
    }
    Ok(Draw {
        method,
        primitive: names::dword_expr(text(get(v, "primitive")?)?)?,
        count: uint(get(v, "primitive_count")?)?,
        fvf,
        decl,
        stride,
        vertices,
        index_format: match v.get("index_format") {
            Some(f) => names::format_code(text(f)?)?,
            None => 101,
        },
        indices,
        min_index: opt_uint(v, "min_vertex_index", 0)?,
        num_vertices: opt_uint(v, "num_vertices", 0)?,
        start_vertex: opt_uint(v, "start_vertex", 0)?,
        setup: setup(v)?,
        texture_lod,
    })
}

/// The natural vertex size of an FVF (position, blend weights, normal,
/// point size, colours, texture coordinates with their sizes).
pub fn fvf_size(fvf: u32) -> R<u32> {
    let position = match fvf & 0x400E {
        0x0 => 0,
        0x2 => 12,
        0x4 => 16,
        0x6 => 16,
        0x8 => 20,
        0xA => 24,
        0xC => 28,
        0xE => 32,
        0x4002 => 16,
        p => return Err(format!("bad FVF position 0x{p:x}")),
    };
    let mut size = position;
    for (bit, bytes) in [(0x10, 12), (0x20, 4), (0x40, 4), (0x80, 4)] {
        if fvf & bit != 0 {
            size += bytes;
        }
    }
    let sets = (fvf >> 8) & 0xF;
    for set in 0..sets {
        size += match (fvf >> (16 + 2 * set)) & 3 {
            0 => 8,
            1 => 12,
            2 => 16,
            _ => 4,
        };
    }
    Ok(size)
}

fn step(v: &Value) -> R<Step> {
    let name = || -> R<String> { Ok(text(get(v, "name")?)?.to_string()) };
    let format = || names::format_code(text(get(v, "format")?)?);
    let op = text(get(v, "op")?)?;
    let keys: &[&str] = match op {
        "create_texture" => &[
            "name", "width", "height", "levels", "usage", "format", "pool",
        ],
        "create_render_target" => &[
            "name",
            "width",
            "height",
            "format",
            "multisample",
            "multisample_quality",
            "lockable",
        ],
        "create_depth_stencil" => &[
            "name",
            "width",
            "height",
            "format",
            "multisample",
            "multisample_quality",
            "discard",
        ],
        "set_render_target" => &["index", "target"],
        "set_depth_stencil" => &["target"],
        "set_viewport" => &["viewport"],
        "clear" => &["flags", "color", "z", "stencil"],
        "draw" => &[
            "draw",
            "states",
            "shaders",
            "constants",
            "transforms",
            "textures",
        ],
        _ => &[],
    };
    let mut all = vec!["op", "note", "notes"];
    all.extend_from_slice(keys);
    known_keys(v, &format!("step {op}"), &all)?;
    let multisample = || -> R<()> {
        let m = opt_uint(v, "multisample", 0)?;
        let q = opt_uint(v, "multisample_quality", 0)?;
        // The back buffer is single-sampled; a multisampled surface would need a resolve the data never asks for.
        if m != 0 || q != 0 {
            return Err(format!("multisample {m} (quality {q}) in step {op}"));
        }
        Ok(())
    };
    Ok(match op {
        "create_texture" => Step::CreateTexture {
            name: name()?,
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
            levels: uint(get(v, "levels")?)?,
            usage: uint(get(v, "usage")?)?,
            format: format()?,
            pool: uint(get(v, "pool")?)?,
        },
        "create_render_target" => Step::CreateRenderTarget {
            name: {
                multisample()?;
                name()?
            },
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
            format: format()?,
            lockable: v.get("lockable").map_or(Ok(false), boolean)?,
        },
        "create_depth_stencil" => Step::CreateDepthStencil {
            // `Discard` only allows dropping contents; keeping them is valid, so it is read and not replayed.
            name: {
                multisample()?;
                v.get("discard").map_or(Ok(false), boolean)?;
                name()?
            },
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
            format: format()?,
        },
        "set_render_target" => Step::SetRenderTarget {
            index: uint(get(v, "index")?)?,
            target: text(get(v, "target")?)?.to_string(),
        },
        "set_depth_stencil" => Step::SetDepthStencil {
            target: text(get(v, "target")?)?.to_string(),
        },
        "set_viewport" => Step::SetViewport(viewport(get(v, "viewport")?)?),
        "clear" => Step::Clear(clear(v)?),
        "draw" => {
            let mut textures = Vec::new();
            for (k, t) in v
                .get("textures")
                .map(obj)
                .transpose()?
                .into_iter()
                .flatten()
            {
                textures.push((index_key(k)?, text(t)?.to_string()));
            }
            Step::Draw {
                setup: Box::new(setup(v)?),
                textures,
                draw: Box::new(draw(get(v, "draw")?)?),
            }
        }
        op => return Err(format!("unknown step {op}")),
    })
}

fn probe(v: &Value) -> R<Probe> {
    known_keys(v, "a probe", PROBE_KEYS)?;
    let rect = match v.get("rect") {
        Some(r) => {
            let r = arr(r)?.iter().map(uint).collect::<R<Vec<_>>>()?;
            r.try_into().map_err(|_| "a rect needs 4 numbers")?
        }
        None => {
            let (x, y) = (uint(get(v, "x")?)?, uint(get(v, "y")?)?);
            [x, y, x + 1, y + 1]
        }
    };
    let colors = match v.get("any_of") {
        Some(list) => arr(list)?.iter().map(uint).collect::<R<Vec<_>>>()?,
        None => vec![uint(get(v, "color")?)?],
    };
    let if_cap_missing = match v.get("if_cap_missing") {
        Some(m) => {
            known_keys(m, "if_cap_missing", &["cap", "color", "note"])?;
            Some((text(get(m, "cap")?)?.to_string(), uint(get(m, "color")?)?))
        }
        None => None,
    };
    Ok(Probe {
        rect,
        colors,
        tolerance: u8::try_from(uint(get(v, "tolerance")?)?).map_err(|e| e.to_string())?,
        compare_alpha: v.get("compare_alpha").map_or(Ok(false), boolean)?,
        surface: v.get("surface").map(text).transpose()?.map(str::to_string),
        if_cap_missing,
        requires: v.get("requires").map(text).transpose()?.map(str::to_string),
        label: v
            .get("label")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    })
}

fn strings(v: Option<&Value>) -> R<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(list) => arr(list)?
            .iter()
            .map(|s| text(s).map(str::to_string))
            .collect(),
    }
}

/// `render_target`: size, format and the automatic depth buffer (`null` for none).
fn render_target(v: Option<&Value>) -> R<RenderTarget> {
    let Some(v) = v else {
        return Ok(DEFAULT_TARGET);
    };
    known_keys(
        v,
        "render_target",
        &["width", "height", "format", "depth_stencil", "note"],
    )?;
    Ok(RenderTarget {
        width: opt_uint(v, "width", DEFAULT_TARGET.width)?,
        height: opt_uint(v, "height", DEFAULT_TARGET.height)?,
        format: match v.get("format") {
            Some(f) => names::format_code(text(f)?)?,
            None => DEFAULT_TARGET.format,
        },
        depth_stencil: match v.get("depth_stencil") {
            None => DEFAULT_TARGET.depth_stencil,
            Some(Value::Null) => None,
            Some(f) => Some(names::format_code(text(f)?)?),
        },
    })
}

fn case(v: &Value) -> R<Case> {
    known_keys(v, "a case", CASE_KEYS)?;
    let target = render_target(v.get("render_target"))?;
    let mut clip_planes = Vec::new();
    for (k, p) in v
        .get("clip_planes")
        .map(obj)
        .transpose()?
        .into_iter()
        .flatten()
    {
        clip_planes.push((index_key(k)?, vec4(p)?));
    }
    let mut textures = Vec::new();
    for (k, t) in v
        .get("textures")
        .map(obj)
        .transpose()?
        .into_iter()
        .flatten()
    {
        textures.push((
            index_key(k)?,
            super::texture::texture(t).map_err(|e| format!("texture {k}: {e}"))?,
        ));
    }
    let list = |key: &str| -> R<Vec<&Value>> {
        Ok(match v.get(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(l) => arr(l)?.iter().collect(),
        })
    };
    Ok(Case {
        name: text(get(v, "name")?)?.to_string(),
        render_target: target,
        requires: strings(v.get("requires"))?,
        viewport: match v.get("viewport") {
            None | Some(Value::Null) => full_viewport(&target),
            Some(vp) => viewport(vp)?,
        },
        clear: match v.get("clear").unwrap_or(&Value::Null) {
            Value::Null => None,
            c => Some(clear(c)?),
        },
        setup: setup(v)?,
        lights: lighting::lights(v.get("lights"))?,
        material: lighting::material(v.get("material"))?,
        clip_planes,
        textures,
        draws: list("draws")?
            .into_iter()
            .enumerate()
            .map(|(i, d)| draw(d).map_err(|e| format!("draw {i}: {e}")))
            .collect::<R<_>>()?,
        steps: list("steps")?
            .into_iter()
            .enumerate()
            .map(|(i, s)| step(s).map_err(|e| format!("step {i}: {e}")))
            .collect::<R<_>>()?,
        expect: list("expect")?
            .into_iter()
            .enumerate()
            .map(|(i, p)| probe(p).map_err(|e| format!("probe {i}: {e}")))
            .collect::<R<_>>()?,
    })
}

/// Parses one file; every case must parse (errors name the case).
pub fn suite(text_: &str) -> R<Suite> {
    let v: Value = serde_json::from_str(text_).map_err(|e| format!("JSON: {e}"))?;
    known_keys(&v, "the file", SUITE_KEYS)?;
    let cases = arr(get(&v, "cases")?)?
        .iter()
        .map(|c| {
            let name = c.get("name").and_then(Value::as_str).unwrap_or("?");
            case(c).map_err(|e| format!("case {name:?}: {e}"))
        })
        .collect::<R<Vec<_>>>()?;
    Ok(Suite {
        function: text(get(&v, "test_function")?)?.to_string(),
        requires: strings(v.get("requires"))?,
        cases,
    })
}
