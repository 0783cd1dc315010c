//! Case textures (`textures` of a case): type, size, format, pool, usage
//! and one of the content forms `data_rows`, `fill`, `levels_fill`,
//! `faces`, `slices` or a `generator` formula.

use serde_json::Value;

use super::json::{R, arr, get, known_keys, obj, opt_uint, text, uint};
use super::keys::TEXTURE_KEYS;
use super::names;

pub struct TextureSpec {
    pub kind: TextureKind,
    pub levels: u32,
    pub format: u32,
    pub pool: u32,
    pub usage: u32,
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

pub fn rows(v: &Value) -> R<Vec<Vec<u32>>> {
    arr(v)?
        .iter()
        .map(|r| arr(r)?.iter().map(uint).collect())
        .collect()
}

pub fn fill(v: &Value) -> R<Vec<([u32; 4], u32)>> {
    arr(v)?
        .iter()
        .map(|f| {
            known_keys(f, "a fill", &["rect", "color", "note"])?;
            let r = arr(get(f, "rect")?)?
                .iter()
                .map(uint)
                .collect::<R<Vec<_>>>()?;
            let r: [u32; 4] = r.try_into().map_err(|_| "a rect needs 4 numbers")?;
            Ok((r, uint(get(f, "color")?)?))
        })
        .collect()
}

pub fn content(v: &Value) -> R<Content> {
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
            known_keys(
                c,
                "a cube face",
                &["data_rows", "fill", "generator", "note"],
            )?;
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

pub fn texture(v: &Value) -> R<TextureSpec> {
    known_keys(v, "a texture", TEXTURE_KEYS)?;
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
        usage: opt_uint(v, "usage", 0)?,
        content: content(v)?,
    })
}
