//! The README's value forms as JSON: DWORD strings and name expressions,
//! floats (or `{"expr", "value"}`), colours, index keys, and the rule that
//! an object's keys must be documented ones.

use serde_json::{Map, Value};

use super::names;

/// A parse result; the error names the form that was not understood.
pub type R<T> = Result<T, String>;

/// Fails on a key the README does not document for `what`: an unknown
/// form is a failure that names it, never a silent skip.
pub fn known_keys(v: &Value, what: &str, known: &[&str]) -> R<()> {
    match obj(v)?.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!("unknown key {k:?} in {what}")),
        None => Ok(()),
    }
}

/// The value under `key`, or an error naming the missing key.
pub fn get<'a>(v: &'a Value, key: &str) -> R<&'a Value> {
    v.get(key).ok_or_else(|| format!("missing key {key:?}"))
}

/// The value as an object.
pub fn obj(v: &Value) -> R<&Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| format!("expected an object, got {v}"))
}

/// The value as a list.
pub fn arr(v: &Value) -> R<&Vec<Value>> {
    v.as_array()
        .ok_or_else(|| format!("expected a list, got {v}"))
}

/// A bool: JSON `true`/`false`, or a DWORD form (`"TRUE"`, `1`).
pub fn boolean(v: &Value) -> R<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(_) | Value::Number(_) => Ok(uint(v)? != 0),
        _ => Err(format!("expected a bool, got {v}")),
    }
}

/// The value as a string.
pub fn text(v: &Value) -> R<&str> {
    v.as_str()
        .ok_or_else(|| format!("expected a string, got {v}"))
}

/// A DWORD: a JSON integer or a name expression string (`"0x%08x"`, `"A | B"`).
pub fn uint(v: &Value) -> R<u32> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("expected a DWORD, got {v}")),
        Value::String(s) => names::dword_expr(s),
        _ => Err(format!("expected a DWORD, got {v}")),
    }
}

/// The DWORD under `key`, `default` when it is absent.
pub fn opt_uint(v: &Value, key: &str, default: u32) -> R<u32> {
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

/// Four floats.
pub fn vec4(v: &Value) -> R<[f32; 4]> {
    let a = arr(v)?;
    if a.len() != 4 {
        return Err(format!("expected 4 floats, got {v}"));
    }
    Ok([float(&a[0])?, float(&a[1])?, float(&a[2])?, float(&a[3])?])
}

/// A stage, sampler, light or plane index key; the vertex-texture and
/// displacement-map sampler names map to their D3D9 numbers.
pub fn index_key(k: &str) -> R<u32> {
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
pub fn state_value(v: &Value, is_float: bool) -> R<u32> {
    match v {
        Value::Number(_) | Value::Object(_) if is_float => Ok(float(v)?.to_bits()),
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_i64().map(|i| i as u64))
            .map(|n| n as u32)
            .ok_or_else(|| format!("a non-integer {v} for an integer state")),
        Value::String(s) => names::dword_expr(s),
        Value::Object(o) => state_value(o.get("value").ok_or("expression without a value")?, false),
        _ => Err(format!("bad state value {v}")),
    }
}
