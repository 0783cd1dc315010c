//! One test per value form and per documented key of a case file: small
//! JSON snippets parsed into cases and, where a key changes the device,
//! replayed on one and read back.

use serde_json::{Value, json};
use warp9::state::LightType;
use warp9::{DriverType, FeatureLevel};

use super::case::{self, Case, Content, Method, Step, TextureKind};
use super::probe;
use super::replay::{Replay, Stop};

/// A case with only the keys every case has, plus `extra` merged over them.
fn case_with(extra: Value) -> Value {
    let mut c = json!({
        "name": "t",
        "source_lines": [1, 2],
        "render_target": {"width": 640, "height": 480, "format": "D3DFMT_A8R8G8B8",
                          "depth_stencil": "D3DFMT_D24S8 (auto)"},
        "viewport": {"x": 0, "y": 0, "width": 640, "height": 480, "min_z": 0.0, "max_z": 1.0},
        "clear": {"flags": "D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER", "color": "0xff000000",
                  "z": 1.0, "stencil": 0},
        "expect": []
    });
    for (k, v) in extra.as_object().expect("an object") {
        c[k] = v.clone();
    }
    c
}

fn file_with(cases: Vec<Value>) -> String {
    json!({
        "test_function": "forms",
        "source": {"repo": "r", "path": "p", "function": "f", "function_lines": [1, 2],
                   "snapshot": "s"},
        "summary": "unit test",
        "cases": cases
    })
    .to_string()
}

fn parse(extra: Value) -> Result<Case, String> {
    let mut suite = case::suite(&file_with(vec![case_with(extra)]))?;
    Ok(suite.cases.remove(0))
}

fn parse_ok(extra: Value) -> Case {
    parse(extra.clone()).unwrap_or_else(|e| panic!("{extra}: {e}"))
}

/// A full-screen quad of `D3DFVF_XYZ | D3DFVF_NORMAL` facing the viewer.
fn lit_quad() -> Value {
    json!({"method": "DrawPrimitiveUP", "primitive": "D3DPT_TRIANGLESTRIP",
           "primitive_count": 2, "fvf": "D3DFVF_XYZ | D3DFVF_NORMAL",
           "vertices": [[-1.0, -1.0, 0.5, 0.0, 0.0, -1.0], [-1.0, 1.0, 0.5, 0.0, 0.0, -1.0],
                        [1.0, -1.0, 0.5, 0.0, 0.0, -1.0], [1.0, 1.0, 0.5, 0.0, 0.0, -1.0]]})
}

fn replay(c: &Case) -> Replay {
    match Replay::run(c, DriverType::Reference, FeatureLevel::L9_1) {
        Ok(r) => r,
        Err(Stop::Fail(e)) => panic!("replay: {e}"),
    }
}

#[test]
fn dword_strings_enum_names_and_remarks() {
    let c = parse_ok(json!({"states": {"render": {
        "D3DRS_ALPHAREF": "0x00000080",
        "D3DRS_ZFUNC": "D3DCMP_GREATER (set earlier in the test)",
        "D3DRS_LIGHTING": "FALSE",
        "D3DRS_STENCILREF": 3,
        "D3DRS_VERTEXBLEND": "D3DVBF_3WEIGHTS",
        "D3DRS_PATCHEDGESTYLE": "D3DPATCHEDGE_CONTINUOUS",
        "D3DRS_POSITIONDEGREE": "D3DDEGREE_QUINTIC",
        "D3DRS_COLORWRITEENABLE": "D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_ALPHA",
        "D3DRS_CLIPPLANEENABLE": "D3DCLIPPLANE0 | 0x4",
        "D3DRS_STENCILMASK": -1
    }}}));
    assert_eq!(
        c.setup.render,
        vec![
            (24, 0x80),
            (23, 5),
            (137, 0),
            (57, 3),
            (151, 3),
            (163, 1),
            (172, 5),
            (168, 0x9),
            (152, 0x5),
            (58, u32::MAX)
        ]
    );
}

#[test]
fn float_states_take_json_floats_and_expressions() {
    let c = parse_ok(json!({"states": {
        "render": {"D3DRS_FOGSTART": 0.25, "D3DRS_POINTSIZE": {"expr": "32.0f", "value": 32.0},
                   "D3DRS_DEPTHBIAS": "0xbf800000", "D3DRS_ALPHAREF": {"expr": "0x80", "value": 128}},
        "texture_stage": {"1": {"D3DTSS_BUMPENVMAT00": -0.5}},
        "sampler": {"0": {"D3DSAMP_MIPMAPLODBIAS": {"expr": "1.0f / 2", "value": 0.5}}}
    }}));
    assert_eq!(
        c.setup.render,
        vec![
            (36, 0.25f32.to_bits()),
            (154, 32.0f32.to_bits()),
            (195, (-1.0f32).to_bits()),
            (24, 128)
        ]
    );
    assert_eq!(c.setup.stage, vec![(1, 7, (-0.5f32).to_bits())]);
    assert_eq!(c.setup.sampler, vec![(0, 8, 0.5f32.to_bits())]);
    // A fraction for an integer state is no DWORD.
    assert!(parse(json!({"states": {"render": {"D3DRS_ALPHAREF": 0.5}}})).is_err());
}

#[test]
fn stage_and_sampler_values_of_every_family() {
    let c = parse_ok(json!({"states": {
        "texture_stage": {"0": {
            "D3DTSS_COLOROP": "D3DTOP_SELECTARG1",
            "D3DTSS_ALPHAOP": "D3DTOP_DISABLE",
            "D3DTSS_COLORARG1": "D3DTA_TEXTURE | D3DTA_COMPLEMENT | D3DTA_ALPHAREPLICATE",
            "D3DTSS_RESULTARG": "D3DTA_TEMP",
            "D3DTSS_TEXCOORDINDEX": "D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR | 1",
            "D3DTSS_TEXTURETRANSFORMFLAGS": "D3DTTFF_COUNT3 | D3DTTFF_PROJECTED",
            "D3DTSS_CONSTANT": "0x80ff0000"
        }},
        "sampler": {"D3DVERTEXTEXTURESAMPLER0": {
            "D3DSAMP_ADDRESSU": "D3DTADDRESS_MIRRORONCE",
            "D3DSAMP_MINFILTER": "D3DTEXF_ANISOTROPIC",
            "D3DSAMP_MIPFILTER": "D3DTEXF_NONE",
            "D3DSAMP_SRGBTEXTURE": "TRUE"
        }}
    }}));
    assert_eq!(
        c.setup.stage,
        vec![
            (0, 1, 2),
            (0, 4, 1),
            (0, 2, 0x32),
            (0, 28, 5),
            (0, 11, 0x3_0001),
            (0, 24, 0x103),
            (0, 32, 0x80ff_0000)
        ]
    );
    assert_eq!(
        c.setup.sampler,
        vec![(257, 1, 5), (257, 6, 3), (257, 7, 0), (257, 11, 1)]
    );
}

#[test]
fn unknown_names_and_keys_fail_naming_them() {
    for (extra, named) in [
        (
            json!({"states": {"render": {"D3DRS_ZFUNC": "D3DCMP_SOMETIMES"}}}),
            "D3DCMP_SOMETIMES",
        ),
        (
            json!({"states": {"render": {"D3DRS_WARP": 1}}}),
            "D3DRS_WARP",
        ),
        (json!({"states": {"stage": {}}}), "stage"),
        (json!({"lighting": true}), "lighting"),
        (json!({"draws": [{"method": "DrawRect"}]}), "DrawRect"),
        (json!({"steps": [{"op": "present"}]}), "present"),
        (
            json!({"expect": [{"x": 1, "y": 1, "colour": "0x0", "tolerance": 0}]}),
            "colour",
        ),
        (
            json!({"lights": {"0": {"Type": "D3DLIGHT_AREA"}}}),
            "D3DLIGHT_AREA",
        ),
        (json!({"material": {"Shininess": 2.0}}), "Shininess"),
    ] {
        let e = match parse(extra.clone()) {
            Err(e) => e,
            Ok(_) => panic!("{extra} parsed"),
        };
        assert!(e.contains(named), "{extra}: {e}");
    }
}

#[test]
fn informational_keys_are_read_and_not_replayed() {
    let c = parse_ok(json!({
        "notes": ["a", "b"], "wine_todo": true, "quirk": "q", "table_row": 3, "z_index": 1,
        "point_size": 2.0, "eps": 0.1, "precision_class": "x", "expected_depth": 0.5,
        "mismatched": true, "partial": "p", "requires": "D3DPRASTERCAPS_FOGTABLE"
    }));
    assert_eq!(c.requires, vec!["D3DPRASTERCAPS_FOGTABLE".to_string()]);
}

#[test]
fn render_target_viewport_and_clear() {
    let c = parse_ok(json!({
        "render_target": {"width": 64, "height": 32, "format": "D3DFMT_X8R8G8B8",
                          "depth_stencil": null},
        "viewport": null,
        "clear": {"flags": "D3DCLEAR_TARGET", "color": "0xff00ff00"}
    }));
    assert_eq!((c.render_target.width, c.render_target.height), (64, 32));
    assert_eq!(c.render_target.format, 22);
    assert_eq!(c.render_target.depth_stencil, None);
    // No viewport: the whole target, depth 0..1.
    assert_eq!((c.viewport.width, c.viewport.height), (64, 32));
    assert_eq!((c.viewport.min_z, c.viewport.max_z), (0.0, 1.0));
    let clear = c.clear.expect("a clear");
    assert_eq!(
        (clear.flags, clear.color, clear.z, clear.stencil),
        (1, 0xff00ff00, 1.0, 0)
    );
    let r = replay(&c);
    let argb = r
        .device
        .read_surface_argb(&r.device.back_buffer())
        .expect("read back");
    assert_eq!(argb.len(), 64 * 32);
    assert_eq!(argb[5] & 0xFFFFFF, 0x00ff00);
    assert!(r.surface(Some("backbuffer")).is_ok());
    assert!(parse_ok(json!({"clear": null})).clear.is_none());
}

#[test]
fn shaders_constants_transforms_and_clip_planes() {
    let c = parse_ok(json!({
        "shaders": {"vertex": {"name": "vs", "version": "vs_1_1",
                               "dwords": ["0xfffe0101", "0x0000001f", "0x80000000", "0x900f0000", "0x00000001", "0xc00f0000", "0x90e40000", "0x0000ffff"],
                               "asm": ["vs_1_1"], "asm_complete": true, "source_lines": [1, 1],
                               "composed_from": ["a"], "asm_note": "n"},
                    "pixel": null},
        "constants": {"vs_float": [{"register": 2, "values": [1.0, 2.0, 3.0, 4.0]}],
                      "ps_float": [{"register": 0, "values": [0.5, 0.5, 0.5, {"expr": "1/2", "value": 0.5}]}],
                      "vs_int": [{"register": 1, "values": [3, 0, 1, 0]}],
                      "ps_int": [{"register": 0, "values": [1, 2, 3, 4]}],
                      "vs_bool": [{"register": 4, "values": true}],
                      "ps_bool": [{"register": 5, "values": false}]},
        "transforms": {"D3DTS_WORLDMATRIX(1)": [[2.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                       "D3DTS_PROJECTION": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0.5, 0, 0, 1]]},
        "clip_planes": {"0": [0.0, 1.0, 0.0, 0.5]}
    }));
    let sh = c.setup.shaders.as_ref().expect("shaders");
    let vs = sh.vertex.as_ref().expect("a vertex shader");
    assert_eq!(
        vs.tokens,
        vec![
            0xfffe0101,
            0x1f,
            0x8000_0000,
            0x900f_0000,
            1,
            0xc00f0000,
            0x90e40000,
            0x0000ffff
        ]
    );
    assert_eq!(vs.model(), Some((false, 1, 1)));
    assert!(sh.pixel.is_none());
    assert_eq!(c.setup.vs_f, vec![(2, [1.0, 2.0, 3.0, 4.0])]);
    assert_eq!(c.setup.ps_f, vec![(0, [0.5; 4])]);
    assert_eq!(c.setup.vs_i, vec![(1, [3, 0, 1, 0])]);
    assert_eq!(c.setup.ps_i, vec![(0, [1, 2, 3, 4])]);
    assert_eq!(c.setup.vs_b, vec![(4, true)]);
    assert_eq!(c.setup.ps_b, vec![(5, false)]);
    assert_eq!(c.setup.transforms[0].0, 257);
    assert_eq!(c.setup.transforms[0].1[0][0], 2.0);
    assert_eq!(c.setup.transforms[1].0, 3);
    assert_eq!(c.setup.transforms[1].1[3][0], 0.5);
    assert_eq!(c.clip_planes, vec![(0, [0.0, 1.0, 0.0, 0.5])]);
    let r = replay(&c);
    assert_eq!(
        r.device.get_clip_plane(0).expect("plane"),
        [0.0, 1.0, 0.0, 0.5]
    );
    assert!(parse(json!({"constants": {"vs_double": []}})).is_err());
}

#[test]
fn explicit_lights_and_material() {
    let c = parse_ok(json!({
        "states": {"render": {"D3DRS_CULLMODE": "D3DCULL_NONE"}},
        "lights": {
            "0": {"enabled": true, "set_light_called": true, "Type": "D3DLIGHT_DIRECTIONAL",
                  "Diffuse": [0.0, 1.0, 0.0, 1.0], "Direction": [0.0, 0.0, 1.0]},
            "3": {"Type": 1, "Diffuse": [1.0, 0.0, 0.0], "Specular": [0.5, 0.5, 0.5, 1.0],
                  "Ambient": [0.1, 0.2, 0.3, 0.4], "Position": [1.0, 2.0, 3.0], "Range": 10.0,
                  "Attenuation0": 1.0, "Attenuation1": 0.5, "Attenuation2": 0.25},
            "4": {"enabled": false, "Type": "D3DLIGHT_SPOT", "Direction": [0.0, -1.0, 0.0],
                  "Range": 5.0, "Falloff": 1.0, "Theta": 0.5, "Phi": 1.0}
        },
        "material": {"Diffuse": [1.0, 1.0, 1.0, 1.0], "Ambient": [0.0, 0.0, 0.0, 0.0],
                     "Specular": [0.0, 0.0, 0.0, 0.0], "Emissive": [0.0, 0.0, 0.0, 0.0],
                     "Power": 8.0},
        "draws": [lit_quad()],
        "expect": [{"x": 320, "y": 240, "color": "0xff00ff00", "tolerance": 1,
                    "compare_alpha": true}]
    }));
    assert_eq!(c.lights.len(), 3);
    let r = replay(&c);
    let d = &r.device;
    let l0 = d.get_light(0).expect("light 0 set");
    assert_eq!(l0.light_type, LightType::Directional);
    assert_eq!(l0.diffuse, [0.0, 1.0, 0.0, 1.0]);
    assert!(d.get_light_enable(0).expect("enabled"));
    let l3 = d.get_light(3).expect("light 3 set");
    assert_eq!(l3.light_type, LightType::Point);
    assert_eq!(l3.diffuse, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(l3.ambient, [0.1, 0.2, 0.3, 0.4]);
    assert_eq!(l3.position.to_array(), [1.0, 2.0, 3.0]);
    assert_eq!(
        (l3.range, l3.attenuation1, l3.attenuation2),
        (10.0, 0.5, 0.25)
    );
    // Set without LightEnable: present and off.
    assert!(!d.get_light_enable(3).expect("light 3 exists"));
    let l4 = d.get_light(4).expect("light 4 set");
    assert_eq!(
        (l4.light_type, l4.theta, l4.phi, l4.falloff),
        (LightType::Spot, 0.5, 1.0, 1.0)
    );
    assert_eq!(d.get_material().expect("material").power, 8.0);
    // Light 0 alone lights the white material green.
    assert_eq!(probe::check(&r, &c.expect), Vec::<String>::new());
}

#[test]
fn light_entries_as_a_list_and_enable_only() {
    let c = parse_ok(json!({
        "lights": [{"index": 2, "enabled": true, "set_light_called": false, "note": "default"}],
        "material": "device default"
    }));
    assert_eq!(c.lights.len(), 1);
    assert_eq!((c.lights[0].index, c.lights[0].enabled), (2, Some(true)));
    assert!(c.lights[0].light.is_none());
    assert!(c.material.is_none());
    let r = replay(&c);
    // LightEnable on a light never set creates D3D9's default light.
    let l = r.device.get_light(2).expect("default light");
    assert_eq!(
        (l.light_type, l.diffuse),
        (LightType::Directional, [1.0, 1.0, 1.0, 0.0])
    );
    assert!(parse(json!({"lights": {"0": {"set_light_called": true}}})).is_err());
    assert!(parse(json!({"lights": {"0": {"Diffuse": [1.0, 1.0, 1.0, 1.0]}}})).is_err());
    assert!(
        parse_ok(json!({"lights": "none enabled"}))
            .lights
            .is_empty()
    );
}

#[test]
fn draw_keys() {
    let c = parse_ok(json!({"draws": [
        {"method": "DrawIndexedPrimitiveUP", "primitive": "D3DPT_TRIANGLELIST",
         "primitive_count": 1, "fvf": "D3DFVF_XYZRHW | D3DFVF_DIFFUSE",
         "vertex_layout": "x, y, z, rhw, colour", "stride": 20,
         "vertices": [[0.0, 0.0, 0.0, 1.0, "0xffff0000"], [8.0, 0.0, 0.0, 1.0, "0xffff0000"],
                      [0.0, 8.0, 0.0, 1.0, "0xffff0000"]],
         "indices": [0, 1, 2], "index_format": "D3DFMT_INDEX32", "min_vertex_index": 0,
         "num_vertices": 3, "note": "n", "label": "l",
         "states": {"render": {"D3DRS_LIGHTING": "FALSE"}}},
        {"method": "DrawPrimitive", "primitive": "D3DPT_POINTLIST", "primitive_count": 1,
         "declaration": [{"stream": 0, "offset": 0, "type": "D3DDECLTYPE_FLOAT4",
                          "method": "D3DDECLMETHOD_DEFAULT", "usage": "D3DDECLUSAGE_POSITIONT",
                          "usage_index": 0}],
         "vertices": [[1.0, 1.0, 0.0, 1.0], [2.0, 2.0, 0.0, 1.0]], "start_vertex": 1,
         "texture_lod": {"0": 1}}
    ]}));
    let d = &c.draws[0];
    assert_eq!(
        (d.method, d.primitive, d.count, d.fvf, d.stride),
        (Method::IndexedUp, 4, 1, 0x44, 20)
    );
    assert_eq!(d.vertices.len(), 60);
    assert_eq!(&d.vertices[16..20], &[0x00, 0x00, 0xff, 0xff]);
    assert_eq!(
        (d.indices.clone(), d.index_format, d.num_vertices),
        (vec![0, 1, 2], 102, 3)
    );
    assert_eq!(d.setup.render, vec![(137, 0)]);
    let d = &c.draws[1];
    assert_eq!(
        (d.method, d.fvf, d.stride, d.start_vertex),
        (Method::Buffer, 0, 16, 1)
    );
    assert_eq!(d.decl, vec![(0, 0, 3, 0, 9, 0)]);
    assert_eq!(d.texture_lod, vec![(0, 1)]);
    assert!(
        parse(
            json!({"draws": [{"method": "DrawPrimitiveUP", "primitive": "D3DPT_POINTLIST",
        "primitive_count": 1, "fvf": "D3DFVF_XYZ", "vertices": [[0.0, 0.0]]}]})
        )
        .is_err()
    );
}

#[test]
fn step_ops() {
    let c = parse_ok(json!({"steps": [
        {"op": "create_texture", "name": "t", "width": 16, "height": 16, "levels": 1,
         "usage": "D3DUSAGE_RENDERTARGET", "format": "D3DFMT_A8R8G8B8", "pool": "D3DPOOL_DEFAULT"},
        {"op": "create_render_target", "name": "rt", "width": 32, "height": 32,
         "format": "D3DFMT_A8R8G8B8", "multisample": "D3DMULTISAMPLE_NONE", "lockable": false},
        {"op": "create_depth_stencil", "name": "ds", "width": 32, "height": 32,
         "format": "D3DFMT_D24S8", "multisample": "D3DMULTISAMPLE_NONE", "discard": false},
        {"op": "set_render_target", "index": 0, "target": "rt", "note": "resets the viewport"},
        {"op": "set_depth_stencil", "target": "ds"},
        {"op": "set_viewport", "viewport": {"x": 0, "y": 0, "width": 16, "height": 16,
                                            "min_z": 0.0, "max_z": 1.0}},
        {"op": "clear", "flags": "D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER", "color": "0xff0000ff",
         "z": 0.5, "stencil": 0},
        {"op": "draw", "textures": {"0": "t"},
         "states": {"render": {"D3DRS_ZENABLE": "D3DZB_FALSE"},
                    "texture_stage": {"0": {"D3DTSS_COLOROP": "D3DTOP_SELECTARG2"}}},
         "draw": {"method": "DrawPrimitiveUP", "primitive": "D3DPT_TRIANGLELIST",
                  "primitive_count": 1, "fvf": "D3DFVF_XYZRHW",
                  "vertices": [[0.0, 0.0, 0.0, 1.0], [4.0, 0.0, 0.0, 1.0], [0.0, 4.0, 0.0, 1.0]]}},
        {"op": "set_render_target", "index": 0, "target": "backbuffer"}
    ],
    "expect": [{"x": 10, "y": 10, "color": "0x000000ff", "tolerance": 0, "surface": "rt"},
               {"x": 1, "y": 1, "color": "0x00ffffff", "tolerance": 0, "surface": "rt"}]}));
    assert_eq!(c.steps.len(), 9);
    assert!(matches!(
        &c.steps[0],
        Step::CreateTexture {
            usage: 1,
            pool: 0,
            format: 21,
            ..
        }
    ));
    assert!(matches!(&c.steps[6], Step::Clear(op) if op.z == 0.5 && op.color == 0xff0000ff));
    assert!(
        matches!(&c.steps[7], Step::Draw { textures, .. } if textures == &vec![(0, "t".to_string())])
    );
    assert!(
        matches!(&c.steps[8], Step::SetRenderTarget { index: 0, target } if target == "backbuffer")
    );
    let r = replay(&c);
    assert_eq!(probe::check(&r, &c.expect), Vec::<String>::new());
    let e = parse(
        json!({"steps": [{"op": "create_render_target", "name": "m", "width": 4,
        "height": 4, "format": "D3DFMT_A8R8G8B8", "multisample": "D3DMULTISAMPLE_4_SAMPLES"}]}),
    )
    .err()
    .expect("multisampling is refused");
    assert!(e.contains("multisample 4"), "{e}");
}

#[test]
fn texture_content_forms() {
    let c = parse_ok(json!({"textures": {
        "0": {"type": "texture", "width": 2, "height": 2, "levels": 1, "format": "D3DFMT_L8",
              "pool": "D3DPOOL_MANAGED", "data_rows": [["0x10", "0x20"], ["0x30", "0x40"]]},
        "1": {"type": "texture", "width": 4, "height": 4, "levels": 1, "format": "D3DFMT_A8R8G8B8",
              "pool": "D3DPOOL_DEFAULT", "usage": "D3DUSAGE_DYNAMIC",
              "fill": [{"rect": [0, 0, 2, 4], "color": "0xffff0000"}]},
        "2": {"type": "texture", "width": 4, "height": 4, "levels": 3, "format": "D3DFMT_A8R8G8B8",
              "pool": "D3DPOOL_MANAGED", "levels_fill": ["0xff000001", "0xff000002", "0xff000003"]},
        "3": {"type": "cube_texture", "edge": 2, "levels": 1, "format": "D3DFMT_A8R8G8B8",
              "pool": "D3DPOOL_MANAGED",
              "faces": {"D3DCUBEMAP_FACE_NEGATIVE_Y": {"fill": [{"rect": [0, 0, 2, 2], "color": "0xff00ff00"}]}}},
        "4": {"type": "volume_texture", "width": 2, "height": 1, "depth": 2, "levels": 1,
              "format": "D3DFMT_A8R8G8B8", "pool": "D3DPOOL_MANAGED",
              "slices": [[["0xff000000", "0xff111111"]], [["0xff222222", "0xff333333"]]]},
        "D3DVERTEXTEXTURESAMPLER0": {"type": "texture", "width": 8, "height": 8, "levels": 1,
              "format": "D3DFMT_A8R8G8B8", "pool": "D3DPOOL_MANAGED", "note": "n",
              "generator": "R = (unsigned char)(y / h * 255.0), G = (unsigned char)(x / w * 255.0)"}
    }}));
    let t = |i: usize| &c.textures[i].1;
    assert!(matches!(&t(0).content, Content::Rows(r) if r[1] == vec![0x30, 0x40]));
    assert!(matches!(&t(1).content, Content::Fill(f) if f == &vec![([0, 0, 2, 4], 0xffff0000)]));
    assert_eq!(t(1).usage, 0x200);
    assert!(matches!(&t(2).content, Content::LevelsFill(l) if l.len() == 3));
    assert!(matches!(t(3).kind, TextureKind::Cube { edge: 2 }));
    assert!(matches!(&t(3).content, Content::Faces(f) if f[0].0 == 3));
    assert!(matches!(t(4).kind, TextureKind::Volume { depth: 2, .. }));
    assert!(matches!(&t(4).content, Content::Slices(s) if s[1][0][1] == 0xff333333));
    assert_eq!(c.textures[5].0, 257);
    assert!(matches!(t(5).content, Content::UvGradient));
    assert!(
        parse(
            json!({"textures": {"0": {"type": "texture", "width": 1, "height": 1,
        "levels": 1, "format": "D3DFMT_A8R8G8B8", "pool": "D3DPOOL_MANAGED",
        "generator": "noise"}}})
        )
        .is_err()
    );
}

#[test]
fn probe_keys() {
    let c = parse_ok(json!({"expect": [
        {"x": 3, "y": 4, "color": "0x00ff0000", "tolerance": 1, "compare_alpha": false,
         "label": "l", "wine_todo": true, "note": "n"},
        {"rect": [0, 0, 640, 480], "color": "0xff000000", "tolerance": 0, "compare_alpha": true},
        {"x": 1, "y": 1, "color": "0x0", "tolerance": 2, "any_of": ["0x00ff0000", "0x0000ff00"],
         "surface": "rt32", "requires": "D3DPRASTERCAPS_FOGTABLE",
         "if_cap_missing": {"cap": "D3DPMISCCAPS_CLIPTLVERTS", "color": "0x00000000"}}
    ]}));
    let p = &c.expect;
    assert_eq!(
        (p[0].rect, p[0].tolerance, p[0].compare_alpha),
        ([3, 4, 4, 5], 1, false)
    );
    assert_eq!(p[0].label, "l");
    assert_eq!((p[1].rect, p[1].compare_alpha), ([0, 0, 640, 480], true));
    assert_eq!(p[2].colors, vec![0x00ff0000, 0x0000ff00]);
    assert_eq!(p[2].surface.as_deref(), Some("rt32"));
    assert_eq!(p[2].requires.as_deref(), Some("D3DPRASTERCAPS_FOGTABLE"));
    assert_eq!(
        p[2].if_cap_missing,
        Some(("D3DPMISCCAPS_CLIPTLVERTS".to_string(), 0))
    );
    // The whole-target probe of a cleared target passes; the colour probe does not.
    let c = parse_ok(json!({"expect": [
        {"rect": [0, 0, 640, 480], "color": "0xff000000", "tolerance": 0, "compare_alpha": true},
        {"x": 3, "y": 4, "color": "0x00ff0000", "tolerance": 1}]}));
    let fails = probe::check(&replay(&c), &c.expect);
    assert_eq!(fails.len(), 1, "{fails:?}");
    assert!(
        fails[0].contains("(3,4)") && fails[0].contains("got 0xff000000"),
        "{fails:?}"
    );
}
