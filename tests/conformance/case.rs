//! The case files as typed values. Parsing resolves every name, vertex,
//! shader and probe up front: a file that does not parse completely is a
//! harness bug (or a data change the harness must learn), never a skip.

use serde_json::{Map, Value};

use super::names;

type R<T> = Result<T, String>;

/// One file: one Wine test function.
pub struct Suite {
    pub function: String,
    pub requires: Vec<String>,
    pub cases: Vec<Case>,
}

/// One replayable case.
pub struct Case {
    pub name: String,
    pub requires: Vec<String>,
    pub viewport: Viewport,
    pub clear: Option<ClearOp>,
    pub setup: Setup,
    pub lights: Vec<LightSpec>,
    pub material: Option<[[f32; 4]; 4]>,
    pub material_power: f32,
    pub clip_planes: Vec<(u32, [f32; 4])>,
    pub textures: Vec<(u32, TextureSpec)>,
    pub draws: Vec<Draw>,
    pub steps: Vec<Step>,
    pub expect: Vec<Probe>,
}

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
    /// Whether this is a ps_1_x shader (skipped until ps_1_x runs).
    pub fn is_ps1(&self) -> bool {
        self.version.starts_with("ps_1_")
    }

    /// (pixel?, major, minor) from the version text.
    pub fn model(&self) -> Option<(bool, u32, u32)> {
        let (kind, rest) = self.version.split_once('_')?;
        let (major, minor) = rest.split_once('_')?;
        Some((kind == "ps", major.parse().ok()?, minor.parse().ok()?))
    }
}

pub enum LightSpec {
    /// `LightEnable` only (a light never set becomes D3D9's default light).
    Enable(u32, bool),
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

pub struct TextureSpec {
    pub kind: TextureKind,
    pub levels: u32,
    pub format: u32,
    pub pool: u32,
    pub content: Content,
}

#[derive(Clone, Copy, Debug)]
pub enum TextureKind {
    Flat { width: u32, height: u32 },
    Cube { edge: u32 },
    Volume { width: u32, height: u32, depth: u32 },
}

pub enum Content {
    None,
    /// Level-0 texels row by row, native packing.
    Rows(Vec<Vec<u32>>),
    /// Level-0 rectangles `[l, t, r, b)` of one D3DCOLOR each.
    Fill(Vec<([u32; 4], u32)>),
    /// One D3DCOLOR per mip level.
    LevelsFill(Vec<u32>),
    /// Per cube face (D3DCUBEMAP_FACES number) contents.
    Faces(Vec<(u32, Content)>),
    /// Volume slices, each rows of texels.
    Slices(Vec<Vec<Vec<u32>>>),
    /// `texture_transform_flags_test`'s gradient: R = v, G = u.
    UvGradient,
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

// ----- value helpers -----

fn get<'a>(v: &'a Value, key: &str) -> R<&'a Value> {
    v.get(key).ok_or_else(|| format!("missing key {key:?}"))
}

fn obj(v: &Value) -> R<&Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| format!("expected an object, got {v}"))
}

fn arr(v: &Value) -> R<&Vec<Value>> {
    v.as_array()
        .ok_or_else(|| format!("expected a list, got {v}"))
}

fn text(v: &Value) -> R<&str> {
    v.as_str()
        .ok_or_else(|| format!("expected a string, got {v}"))
}

fn uint(v: &Value) -> R<u32> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("expected a DWORD, got {v}")),
        Value::String(s) => names::dword_expr(s),
        _ => Err(format!("expected a DWORD, got {v}")),
    }
}

fn opt_uint(v: &Value, key: &str, default: u32) -> R<u32> {
    v.get(key).map_or(Ok(default), uint)
}

/// A float: a JSON number or `{"expr", "value"}`.
pub fn float(v: &Value) -> R<f32> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .map(|f| f as f32)
            .ok_or_else(|| format!("bad number {v}")),
        Value::Object(o) => float(o.get("value").ok_or("expression without a value")?),
        _ => Err(format!("expected a float, got {v}")),
    }
}

fn vec4(v: &Value) -> R<[f32; 4]> {
    let a = arr(v)?;
    if a.len() != 4 {
        return Err(format!("expected 4 floats, got {v}"));
    }
    Ok([float(&a[0])?, float(&a[1])?, float(&a[2])?, float(&a[3])?])
}

fn index_key(k: &str) -> R<u32> {
    match k {
        "D3DVERTEXTEXTURESAMPLER0" => Ok(257),
        "D3DVERTEXTEXTURESAMPLER1" => Ok(258),
        "D3DVERTEXTEXTURESAMPLER2" => Ok(259),
        "D3DVERTEXTEXTURESAMPLER3" => Ok(260),
        "D3DDMAPSAMPLER" => Ok(256),
        _ => k.parse().map_err(|_| format!("bad index {k:?}")),
    }
}

/// A state value: a name expression, a DWORD, or a float for float states.
fn state_value(v: &Value, is_float: bool) -> R<u32> {
    match v {
        Value::Number(_) | Value::Object(_) if is_float => Ok(float(v)?.to_bits()),
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_i64().map(|i| i as u64))
            .map(|n| n as u32)
            .ok_or_else(|| format!("a non-integer {v} for an integer state")),
        Value::String(s) => names::dword_expr(s),
        _ => Err(format!("bad state value {v}")),
    }
}

// ----- parsing -----

fn viewport(v: &Value) -> R<Viewport> {
    Ok(Viewport {
        x: uint(get(v, "x")?)?,
        y: uint(get(v, "y")?)?,
        width: uint(get(v, "width")?)?,
        height: uint(get(v, "height")?)?,
        min_z: float(get(v, "min_z")?)?,
        max_z: float(get(v, "max_z")?)?,
    })
}

fn clear(v: &Value) -> R<ClearOp> {
    Ok(ClearOp {
        flags: names::dword_expr(text(get(v, "flags")?)?)?,
        color: opt_uint(v, "color", 0)?,
        z: v.get("z").map_or(Ok(1.0), float)?,
        stencil: opt_uint(v, "stencil", 0)?,
    })
}

fn shader(v: &Value) -> R<Option<ShaderSpec>> {
    if v.is_null() {
        return Ok(None);
    }
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
        .map(|e| Ok((uint(get(e, "register")?)?, conv(get(e, "values")?)?)))
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
        let b = |x: &Value| x.as_bool().ok_or_else(|| format!("bad bool {x}"));
        s.vs_b = constants(c, "vs_bool", b)?;
        s.ps_b = constants(c, "ps_bool", b)?;
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

fn rows(v: &Value) -> R<Vec<Vec<u32>>> {
    arr(v)?
        .iter()
        .map(|r| arr(r)?.iter().map(uint).collect())
        .collect()
}

fn fill(v: &Value) -> R<Vec<([u32; 4], u32)>> {
    arr(v)?
        .iter()
        .map(|f| {
            let r = arr(get(f, "rect")?)?
                .iter()
                .map(uint)
                .collect::<R<Vec<_>>>()?;
            let r: [u32; 4] = r.try_into().map_err(|_| "a rect needs 4 numbers")?;
            Ok((r, uint(get(f, "color")?)?))
        })
        .collect()
}

fn content(v: &Value) -> R<Content> {
    if let Some(r) = v.get("data_rows") {
        return Ok(Content::Rows(rows(r)?));
    }
    if let Some(f) = v.get("fill") {
        return Ok(Content::Fill(fill(f)?));
    }
    if let Some(l) = v.get("levels_fill") {
        return Ok(Content::LevelsFill(
            arr(l)?.iter().map(uint).collect::<R<_>>()?,
        ));
    }
    if let Some(faces) = v.get("faces") {
        let mut out = Vec::new();
        for (face, c) in obj(faces)? {
            out.push((names::dword_expr(face)?, content(c)?));
        }
        return Ok(Content::Faces(out));
    }
    if let Some(s) = v.get("slices") {
        return Ok(Content::Slices(arr(s)?.iter().map(rows).collect::<R<_>>()?));
    }
    if let Some(g) = v.get("generator") {
        let g = text(g)?;
        if g.contains("R = (unsigned char)(y / h * 255.0), G = (unsigned char)(x / w * 255.0)") {
            return Ok(Content::UvGradient);
        }
        return Err(format!("unknown texture generator {g:?}"));
    }
    Ok(Content::None)
}

fn texture(v: &Value) -> R<TextureSpec> {
    let kind = match text(get(v, "type")?)? {
        "texture" => TextureKind::Flat {
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
        },
        "cube_texture" => TextureKind::Cube {
            edge: uint(get(v, "edge")?)?,
        },
        "volume_texture" => TextureKind::Volume {
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
            depth: uint(get(v, "depth")?)?,
        },
        t => return Err(format!("unknown texture type {t}")),
    };
    Ok(TextureSpec {
        kind,
        levels: uint(get(v, "levels")?)?,
        format: names::format_code(text(get(v, "format")?)?)?,
        pool: names::dword_expr(text(get(v, "pool")?)?)?,
        content: content(v)?,
    })
}

fn step(v: &Value) -> R<Step> {
    let name = || -> R<String> { Ok(text(get(v, "name")?)?.to_string()) };
    let format = || names::format_code(text(get(v, "format")?)?);
    Ok(match text(get(v, "op")?)? {
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
            name: name()?,
            width: uint(get(v, "width")?)?,
            height: uint(get(v, "height")?)?,
            format: format()?,
            lockable: v.get("lockable").and_then(Value::as_bool).unwrap_or(false),
        },
        "create_depth_stencil" => Step::CreateDepthStencil {
            name: name()?,
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
        Some(m) => Some((text(get(m, "cap")?)?.to_string(), uint(get(m, "color")?)?)),
        None => None,
    };
    Ok(Probe {
        rect,
        colors,
        tolerance: u8::try_from(uint(get(v, "tolerance")?)?).map_err(|e| e.to_string())?,
        compare_alpha: v
            .get("compare_alpha")
            .and_then(Value::as_bool)
            .unwrap_or(false),
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

fn lights(v: Option<&Value>) -> R<Vec<LightSpec>> {
    let mut out = Vec::new();
    // A string ("none enabled") sets nothing.
    if let Some(Value::Object(map)) = v {
        for (k, l) in map {
            let index = index_key(k)?;
            if l.get("set_light_called").and_then(Value::as_bool) == Some(true)
                || l.get("Type").is_some()
            {
                return Err("explicit D3DLIGHT9 values are not in the data yet".into());
            }
            let enabled = get(l, "enabled")?
                .as_bool()
                .ok_or("enabled must be a bool")?;
            out.push(LightSpec::Enable(index, enabled));
        }
    }
    Ok(out)
}

fn case(v: &Value) -> R<Case> {
    let (material, material_power) = match v.get("material") {
        Some(m @ Value::Object(_)) => (
            Some([
                vec4(get(m, "Diffuse")?)?,
                vec4(get(m, "Ambient")?)?,
                vec4(get(m, "Specular")?)?,
                vec4(get(m, "Emissive")?)?,
            ]),
            float(get(m, "Power")?)?,
        ),
        _ => (None, 0.0),
    };
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
            texture(t).map_err(|e| format!("texture {k}: {e}"))?,
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
        requires: strings(v.get("requires"))?,
        viewport: viewport(get(v, "viewport")?)?,
        clear: match get(v, "clear")? {
            Value::Null => None,
            c => Some(clear(c)?),
        },
        setup: setup(v)?,
        lights: lights(v.get("lights"))?,
        material,
        material_power,
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
