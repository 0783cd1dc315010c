//! `lights` and `material` of a case: D3DLIGHT9 entries (set, enabled or
//! both) and the D3DMATERIAL9, with colours as `[r, g, b, a]` floats.

use glam::Vec3;
use serde_json::Value;
use warp9::state::{Light, LightType, Material};

use super::json::{R, arr, boolean, float, get, index_key, known_keys, uint, vec4};
use super::keys::{LIGHT_KEYS, MATERIAL_KEYS};

/// One entry of `lights`: `SetLight` when D3DLIGHT9 fields are given,
/// `LightEnable` when `enabled` is (a light enabled but never set becomes
/// D3D9's default light).
pub struct LightSpec {
    pub index: u32,
    pub light: Option<Light>,
    pub enabled: Option<bool>,
}

/// `[x, y, z]` floats.
fn vec3(v: &Value) -> R<Vec3> {
    match arr(v)?.as_slice() {
        [x, y, z] => Ok(Vec3::new(float(x)?, float(y)?, float(z)?)),
        _ => Err(format!("expected 3 floats, got {v}")),
    }
}

/// A `D3DCOLORVALUE`: `[r, g, b, a]`, or `[r, g, b]` with alpha 0.
fn color_value(v: &Value) -> R<[f32; 4]> {
    match arr(v)?.as_slice() {
        [r, g, b] => Ok([float(r)?, float(g)?, float(b)?, 0.0]),
        [_, _, _, _] => vec4(v),
        _ => Err(format!("expected a colour [r, g, b, a], got {v}")),
    }
}

/// The D3DLIGHT9 of an entry that gives `Type`; members it leaves out are
/// zero, as in the C source's zero-initialised structures.
fn light(l: &Value) -> R<Option<Light>> {
    let Some(ty) = l.get("Type") else {
        if let Some(k) = LIGHT_KEYS[4..].iter().find(|k| l.get(**k).is_some()) {
            return Err(format!("a light gives {k} but no Type"));
        }
        return Ok(None);
    };
    let light_type = match uint(ty)? {
        1 => LightType::Point,
        2 => LightType::Spot,
        3 => LightType::Directional,
        t => return Err(format!("bad D3DLIGHTTYPE {t}")),
    };
    let c = |k: &str| l.get(k).map_or(Ok([0.0; 4]), color_value);
    let v = |k: &str| l.get(k).map_or(Ok(Vec3::ZERO), vec3);
    let f = |k: &str| l.get(k).map_or(Ok(0.0), float);
    Ok(Some(Light {
        light_type,
        diffuse: c("Diffuse")?,
        specular: c("Specular")?,
        ambient: c("Ambient")?,
        position: v("Position")?,
        direction: v("Direction")?,
        range: f("Range")?,
        falloff: f("Falloff")?,
        attenuation0: f("Attenuation0")?,
        attenuation1: f("Attenuation1")?,
        attenuation2: f("Attenuation2")?,
        theta: f("Theta")?,
        phi: f("Phi")?,
    }))
}

fn light_entry(index: u32, l: &Value) -> R<LightSpec> {
    known_keys(l, "a light", LIGHT_KEYS)?;
    let light = light(l)?;
    let set_called = l.get("set_light_called").map(boolean).transpose()?;
    match (set_called, &light) {
        (Some(true), None) => return Err("set_light_called without D3DLIGHT9 members".into()),
        (Some(false), Some(_)) => {
            return Err("D3DLIGHT9 members with set_light_called false".into());
        }
        _ => {}
    }
    let enabled = l.get("enabled").map(boolean).transpose()?;
    if light.is_none() && enabled.is_none() {
        return Err(format!("light {index} neither sets nor enables a light"));
    }
    Ok(LightSpec {
        index,
        light,
        enabled,
    })
}

/// `lights`: `{"<index>": entry}` or `[entry with "index"]`; a string
/// (`"none enabled"`) sets nothing.
pub fn lights(v: Option<&Value>) -> R<Vec<LightSpec>> {
    match v {
        None | Some(Value::Null | Value::String(_)) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, l)| light_entry(index_key(k)?, l).map_err(|e| format!("light {k}: {e}")))
            .collect(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|l| light_entry(uint(get(l, "index")?)?, l))
            .collect(),
        Some(other) => Err(format!("bad lights {other}")),
    }
}

/// `material`: the D3DMATERIAL9 (members left out are zero); a string is a
/// note that the device default stays.
pub fn material(v: Option<&Value>) -> R<Option<Material>> {
    match v {
        None | Some(Value::Null | Value::String(_)) => Ok(None),
        Some(m @ Value::Object(_)) => {
            known_keys(m, "the material", MATERIAL_KEYS)?;
            let c = |k: &str| m.get(k).map_or(Ok([0.0; 4]), color_value);
            Ok(Some(Material {
                diffuse: c("Diffuse")?,
                ambient: c("Ambient")?,
                specular: c("Specular")?,
                emissive: c("Emissive")?,
                power: m.get("Power").map_or(Ok(0.0), float)?,
            }))
        }
        Some(other) => Err(format!("bad material {other}")),
    }
}
