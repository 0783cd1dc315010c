//! The sampling expectations of Wine's D3D9 visual tests
//! (`../shared/conformance/wine-d3d9`, read at test time; set
//! WARP9_CONFORMANCE_DIR to move it, WARP9_REQUIRE_CONFORMANCE=1 to fail
//! when absent), checked directly through the sampler until the
//! rasterizer can run the cases end to end.
//!
//! For each probe of maxmip_test, test_cube_wrap,
//! test_mismatched_sample_types and test_vertex_texture: the textures and
//! sampler states of the case (with per-draw state changes and SetLOD), the
//! texture coordinate and its screen derivatives at the probed pixel
//! (interpolated over the draw's triangle that covers it, D3D9 pixel
//! centres), one sample on both paths, written as an A8R8G8B8 pixel, and
//! compared with Windows' colour within the case's tolerance. The shader or
//! texture stage around the sample is an identity in these cases (MODULATE
//! by white diffuse, or `mov oC0, r1` after a branch not taken).

use crate::sampler_support;

use std::path::PathBuf;

use sampler_support::{device, sample};
use serde_json::Value;
use warp9::internals::sampler::{BoundTextures, SamplerDesc};
use warp9::internals::texture_fetch::Lod;
use warp9::resource::{BaseTexture, CubeFace};
use warp9::state::{StateValue, TextureAddress, TextureFilter};
use warp9::{Device, Format, Pool, Usage};

fn dir() -> Option<PathBuf> {
    let base = std::env::var_os("WARP9_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"));
    let d = base.join("wine-d3d9");
    if d.is_dir() {
        Some(d)
    } else if std::env::var_os("WARP9_REQUIRE_CONFORMANCE").is_some() {
        panic!("conformance data not found at {}", d.display());
    } else {
        eprintln!(
            "skipping: Wine conformance data not found at {}",
            d.display()
        );
        None
    }
}

fn hex(v: &Value) -> u32 {
    match v {
        Value::String(s) => {
            let t = s.split_whitespace().next().unwrap_or("");
            u32::from_str_radix(t.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("{s}"))
        }
        Value::Number(n) => n.as_u64().unwrap() as u32,
        _ => panic!("{v}"),
    }
}

fn filter(v: &Value) -> TextureFilter {
    match v
        .as_str()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("")
    {
        "D3DTEXF_NONE" => TextureFilter::None,
        "D3DTEXF_POINT" => TextureFilter::Point,
        "D3DTEXF_LINEAR" => TextureFilter::Linear,
        "D3DTEXF_ANISOTROPIC" => TextureFilter::Anisotropic,
        s => panic!("filter {s}"),
    }
}

fn address(v: &Value) -> TextureAddress {
    let s = v.as_str().unwrap_or("").trim_start_matches("D3DTADDRESS_");
    let raw = ["WRAP", "MIRROR", "CLAMP", "BORDER", "MIRRORONCE"]
        .iter()
        .position(|m| s.starts_with(m) && s.len() == m.len())
        .unwrap_or_else(|| panic!("address {s}"));
    TextureAddress::from_raw(raw as u32 + 1).unwrap()
}

/// Applies `{"<sampler>": {D3DSAMP_*: value}}` to per-slot descriptions.
fn apply_samplers(descs: &mut [SamplerDesc; 21], states: Option<&Value>) {
    let Some(map) = states
        .and_then(|s| s.get("sampler"))
        .and_then(Value::as_object)
    else {
        return;
    };
    for (slot, kv) in map {
        let d = &mut descs[slot.parse::<usize>().unwrap()];
        for (k, v) in kv.as_object().unwrap() {
            match k.as_str() {
                "D3DSAMP_MINFILTER" => d.min_filter = filter(v),
                "D3DSAMP_MAGFILTER" => d.mag_filter = filter(v),
                "D3DSAMP_MIPFILTER" => d.mip_filter = filter(v),
                "D3DSAMP_ADDRESSU" => d.address[0] = address(v),
                "D3DSAMP_ADDRESSV" => d.address[1] = address(v),
                "D3DSAMP_ADDRESSW" => d.address[2] = address(v),
                "D3DSAMP_BORDERCOLOR" => d.border_color = hex(v),
                "D3DSAMP_MAXMIPLEVEL" => d.max_mip_level = hex(v),
                k => panic!("sampler state {k}"),
            }
        }
    }
}

fn slot_of(key: &str) -> usize {
    if key == "D3DVERTEXTEXTURESAMPLER0" {
        17
    } else {
        key.parse().unwrap()
    }
}

fn rows(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter().map(hex))
        .collect()
}

fn bytes(texels: &[u32]) -> Vec<u8> {
    texels.iter().flat_map(|t| t.to_le_bytes()).collect()
}

fn make_texture(d: &mut Device, spec: &Value) -> BaseTexture {
    assert_eq!(spec["format"], "D3DFMT_A8R8G8B8");
    let n = |k: &str| spec[k].as_u64().unwrap() as u32;
    let levels = n("levels");
    match spec["type"].as_str().unwrap() {
        "texture" => {
            let (w, h) = (n("width"), n("height"));
            let t = d
                .create_texture(
                    w,
                    h,
                    levels,
                    Usage::empty(),
                    Format::A8R8G8B8,
                    Pool::Managed,
                )
                .unwrap();
            if let Some(r) = spec.get("data_rows") {
                t.write_level(0, None, &bytes(&rows(r)), 4 * w as usize)
                    .unwrap();
            }
            if let Some(fills) = spec.get("levels_fill").and_then(Value::as_array) {
                for (l, c) in fills.iter().enumerate() {
                    let (lw, lh) = ((w >> l).max(1), (h >> l).max(1));
                    let texels = vec![hex(c); (lw * lh) as usize];
                    t.write_level(l as u32, None, &bytes(&texels), 4 * lw as usize)
                        .unwrap();
                }
            }
            t.into()
        }
        "cube_texture" => {
            let e = n("edge");
            let t = d
                .create_cube_texture(e, levels, Usage::empty(), Format::A8R8G8B8, Pool::Managed)
                .unwrap();
            let names = [
                "POSITIVE_X",
                "NEGATIVE_X",
                "POSITIVE_Y",
                "NEGATIVE_Y",
                "POSITIVE_Z",
                "NEGATIVE_Z",
            ];
            for (f, face) in CubeFace::ALL.into_iter().enumerate() {
                let fill = &spec["faces"][format!("D3DCUBEMAP_FACE_{}", names[f])]["fill"];
                let mut texels = vec![0u32; (e * e) as usize];
                for r in fill.as_array().unwrap() {
                    let rect: Vec<u32> = r["rect"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_u64().unwrap() as u32)
                        .collect();
                    for y in rect[1]..rect[3] {
                        for x in rect[0]..rect[2] {
                            texels[(y * e + x) as usize] = hex(&r["color"]);
                        }
                    }
                }
                t.cube_map_surface(face, 0)
                    .unwrap()
                    .write_rect(None, &bytes(&texels), 4 * e as usize)
                    .unwrap();
            }
            t.into()
        }
        "volume_texture" => {
            let (w, h, dd) = (n("width"), n("height"), n("depth"));
            let t = d
                .create_volume_texture(
                    w,
                    h,
                    dd,
                    levels,
                    Usage::empty(),
                    Format::A8R8G8B8,
                    Pool::Managed,
                )
                .unwrap();
            let v = t.volume_level(0).unwrap();
            let mut lock = v.lock_box(None, warp9::LockFlags::empty()).unwrap();
            let (rp, sp) = (lock.row_pitch, lock.slice_pitch);
            for (z, slice) in spec["slices"].as_array().unwrap().iter().enumerate() {
                for (i, t) in rows(slice).into_iter().enumerate() {
                    let at = z * sp + (i / w as usize) * rp + (i % w as usize) * 4;
                    lock.bytes[at..at + 4].copy_from_slice(&t.to_le_bytes());
                }
            }
            drop(lock);
            t.into()
        }
        t => panic!("texture type {t}"),
    }
}

/// The texture coordinate and its screen derivatives at pixel (px, py) if
/// a triangle of the strip `verts` ([x, y, z, tex...] in clip space, identity
/// transforms, 640x480) covers it.
fn interpolate(verts: &[Vec<f64>], px: f64, py: f64) -> Option<([f32; 3], [f32; 3], [f32; 3])> {
    let (x, y) = (px / 320.0 - 1.0, 1.0 - py / 240.0);
    for t in 0..verts.len().saturating_sub(2) {
        let (a, b, c) = (&verts[t], &verts[t + 1], &verts[t + 2]);
        let det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if det == 0.0 {
            continue;
        }
        let l1 = ((x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])) / det;
        let l2 = ((b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1])) / det;
        if l1 < -1e-9 || l2 < -1e-9 || l1 + l2 > 1.0 + 1e-9 {
            continue;
        }
        let tex = |k: usize| {
            a.get(3 + k).map_or((0.0, 0.0, 0.0), |&ta| {
                let (tb, tc) = (b[3 + k], c[3 + k]);
                let v = ta + l1 * (tb - ta) + l2 * (tc - ta);
                // Plane gradient in clip x and y, then per pixel.
                let gx = ((tb - ta) * (c[1] - a[1]) - (tc - ta) * (b[1] - a[1])) / det;
                let gy = ((b[0] - a[0]) * (tc - ta) - (c[0] - a[0]) * (tb - ta)) / det;
                (v, gx / 320.0, -gy / 240.0)
            })
        };
        let t3 = [tex(0), tex(1), tex(2)];
        return Some((
            t3.map(|t| t.0 as f32),
            t3.map(|t| t.1 as f32),
            t3.map(|t| t.2 as f32),
        ));
    }
    None
}

fn to_pixel(c: [f32; 4]) -> u32 {
    let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u32;
    (q(c[0]) << 16) | (q(c[1]) << 8) | q(c[2])
}

fn run_file(name: &str) -> usize {
    let Some(dir) = dir() else { return 0 };
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
    let mut probes = 0;
    for case in json["cases"].as_array().unwrap() {
        let cname = case["name"].as_str().unwrap();
        let mut d = device();
        let mut textures: Vec<(usize, BaseTexture)> = Vec::new();
        for (k, spec) in case["textures"].as_object().unwrap() {
            textures.push((slot_of(k), make_texture(&mut d, spec)));
        }
        let mut descs = [SamplerDesc::default(); 21];
        apply_samplers(&mut descs, case.get("states"));
        // Each probe takes the state of the last draw covering it.
        let mut results: Vec<Option<u32>> = vec![None; case["expect"].as_array().unwrap().len()];
        for draw in case["draws"].as_array().unwrap() {
            apply_samplers(&mut descs, draw.get("states"));
            if let Some(lods) = draw.get("texture_lod").and_then(Value::as_object) {
                for (k, v) in lods {
                    let slot = slot_of(k);
                    for (s, t) in &textures {
                        if let (true, BaseTexture::Texture(t)) = (*s == slot, t) {
                            t.set_lod(v.as_u64().unwrap() as u32);
                        }
                    }
                }
            }
            let mut bound = BoundTextures::new();
            for (slot, t) in &textures {
                bound.bind(*slot, Some(t), &descs[*slot]);
            }
            let verts: Vec<Vec<f64>> = draw["vertices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    v.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_f64().unwrap())
                        .collect()
                })
                .collect();
            for (i, probe) in case["expect"].as_array().unwrap().iter().enumerate() {
                let (px, py) = (probe["x"].as_f64().unwrap(), probe["y"].as_f64().unwrap());
                if name == "test_vertex_texture.json" {
                    // vs_3_0 `texldl` at (0, 0) with LOD 0 from D3DVERTEXTEXTURESAMPLER0.
                    results[i] = Some(to_pixel(sample(&bound, 17, [0.0; 4], Lod::Level(0.0))));
                } else if let Some((t, dx, dy)) = interpolate(&verts, px, py) {
                    let lod = Lod::Implicit { ddx: dx, ddy: dy };
                    results[i] = Some(to_pixel(sample(&bound, 0, [t[0], t[1], t[2], 1.0], lod)));
                }
            }
        }
        for (probe, got) in case["expect"].as_array().unwrap().iter().zip(results) {
            let want = hex(&probe["color"]) & 0x00FF_FFFF;
            let tol = probe["tolerance"].as_u64().unwrap_or(0) as i32;
            let got = got.unwrap_or_else(|| panic!("{cname}: no draw covers probe {probe}"));
            let ok = (0..3).all(|k| {
                ((got >> (8 * k)) as i32 & 0xFF).abs_diff((want >> (8 * k)) as i32 & 0xFF) as i32
                    <= tol
            });
            assert!(
                ok,
                "{name} / {cname}: probe {probe} got 0x{got:06x}, want 0x{want:06x}"
            );
            probes += 1;
        }
    }
    probes
}

#[test]
fn maxmip_test() {
    let n = run_file("maxmip_test.json");
    assert!(n == 0 || n == 12, "{n} probes");
}

#[test]
fn test_cube_wrap() {
    let n = run_file("test_cube_wrap.json");
    assert!(n == 0 || n == 5, "{n} probes");
}

#[test]
fn test_mismatched_sample_types() {
    let n = run_file("test_mismatched_sample_types.json");
    assert!(n == 0 || n == 4, "{n} probes");
}

#[test]
fn test_vertex_texture() {
    let n = run_file("test_vertex_texture.json");
    assert!(n == 0 || n == 1, "{n} probes");
}
