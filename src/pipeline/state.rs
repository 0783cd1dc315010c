//! Building the drivers' per-draw state ([`DrawState`], `driver::state`)
//! from the device's render states: decoded once per draw, with the D3D9
//! default for anything undecodable (the API validated the values).

pub(crate) use crate::driver::state::*;

use super::DrawDevice;
use crate::format::Format;
use crate::state::{
    Blend, BlendOp, CmpFunc, Color, Cull, FillMode, FogMode, Rect, RenderStateType as Rs,
    ShadeMode, StateValue, StencilOp, ZBufferType,
};

fn rs<T: StateValue>(d: &DrawDevice<'_>, key: Rs, default: T) -> T {
    T::from_raw(d.state.rs(key)).unwrap_or(default)
}

fn rsf(d: &DrawDevice<'_>, key: Rs) -> f32 {
    f32::from_bits(d.state.rs(key))
}

/// Whether depth outside [0, 1] is clipped (true) or drawn clamped to the
/// viewport's depth range (false), rasterization.md 4.4: under software
/// vertex processing D3DRS_CLIPPING decides for all input; under hardware
/// vertex processing untransformed input is always clipped and
/// pre-transformed input only where the device claims
/// D3DPMISCCAPS_CLIPTLVERTS (Wine `z_range_test`, `depth_clamp_test`).
pub(crate) fn clips_depth(d: &DrawDevice<'_>, pretransformed: bool) -> bool {
    if d.software_vp {
        d.state.rs_bool(Rs::Clipping)
    } else {
        !pretransformed
            || d.caps
                .primitive_misc_caps
                .contains(crate::caps::PrimitiveMiscCaps::CLIPTLVERTS)
    }
}

impl DrawState {
    /// Decodes the device's current state for a draw.
    pub(crate) fn from_device(d: &DrawDevice<'_>, pretransformed: bool) -> DrawState {
        let rt0 = d.render_targets[0]
            .as_ref()
            .map(|s| s.desc())
            .map_or((0, 0), |s| (s.width, s.height));
        let vp = d.state.viewport;
        let mut clip = vp.rect().intersect(&Rect::of_size(rt0.0, rt0.1));
        if d.state.rs_bool(Rs::ScissorTestEnable) {
            clip = clip.intersect(&d.state.scissor);
        }
        let face = |fail, zfail, pass, func| StencilFace {
            fail: rs(d, fail, StencilOp::Keep),
            zfail: rs(d, zfail, StencilOp::Keep),
            pass: rs(d, pass, StencilOp::Keep),
            func: rs(d, func, CmpFunc::Always),
        };
        let depth = d.depth_stencil.as_ref().map(|ds| {
            let format = ds.desc().format;
            let bits = format.stencil_bits();
            let stencil = (bits > 0 && d.state.rs_bool(Rs::StencilEnable)).then(|| {
                let front = face(
                    Rs::StencilFail,
                    Rs::StencilZFail,
                    Rs::StencilPass,
                    Rs::StencilFunc,
                );
                let back = if d.state.rs_bool(Rs::TwoSidedStencilMode) {
                    face(
                        Rs::CcwStencilFail,
                        Rs::CcwStencilZFail,
                        Rs::CcwStencilPass,
                        Rs::CcwStencilFunc,
                    )
                } else {
                    front
                };
                let m = (1u32 << bits) - 1;
                StencilState {
                    front,
                    back,
                    reference: d.state.rs(Rs::StencilRef) & m,
                    mask: d.state.rs(Rs::StencilMask) & m,
                    write_mask: d.state.rs(Rs::StencilWriteMask) & m,
                    bits,
                }
            });
            let test = rs(d, Rs::ZEnable, ZBufferType::False) != ZBufferType::False;
            DepthState {
                surface: ds.clone(),
                format,
                test,
                func: rs(d, Rs::ZFunc, CmpFunc::LessEqual),
                write: test && d.state.rs_bool(Rs::ZWriteEnable),
                stencil,
            }
        });
        let depth = depth.filter(|ds| ds.test || ds.stencil.is_some());
        // Never touch pixels a bound surface does not have.
        if let Some(ds) = &depth {
            let dd = ds.surface.desc();
            clip = clip.intersect(&Rect::of_size(dd.width, dd.height));
        }
        for s in d.render_targets.iter().flatten() {
            let sd = s.desc();
            clip = clip.intersect(&Rect::of_size(sd.width, sd.height));
        }
        let alpha_test = d.state.rs_bool(Rs::AlphaTestEnable).then(|| {
            (
                rs(d, Rs::AlphaFunc, CmpFunc::Always),
                (d.state.rs(Rs::AlphaRef) & 0xFF) as f32 / 255.0,
            )
        });
        let blend = d.state.rs_bool(Rs::AlphaBlendEnable).then(|| {
            let src = rs(d, Rs::SrcBlend, Blend::One);
            let dst = rs(d, Rs::DestBlend, Blend::Zero);
            let op = rs(d, Rs::BlendOp, BlendOp::Add);
            let separate = d.state.rs_bool(Rs::SeparateAlphaBlendEnable);
            BlendState {
                src,
                dst,
                op,
                src_alpha: if separate {
                    rs(d, Rs::SrcBlendAlpha, Blend::One)
                } else {
                    src
                },
                dst_alpha: if separate {
                    rs(d, Rs::DestBlendAlpha, Blend::Zero)
                } else {
                    dst
                },
                op_alpha: if separate {
                    rs(d, Rs::BlendOpAlpha, BlendOp::Add)
                } else {
                    op
                },
                factor: Color(d.state.rs(Rs::BlendFactor)).to_rgba(),
            }
        });
        let masks = [
            Rs::ColorWriteEnable,
            Rs::ColorWriteEnable1,
            Rs::ColorWriteEnable2,
            Rs::ColorWriteEnable3,
        ];
        let srgb_on = d.state.rs_bool(Rs::SrgbWriteEnable);
        let mut seen: Vec<u64> = Vec::new();
        let targets = (0..d.caps.num_simultaneous_rts.clamp(1, 4) as usize)
            .map(|i| {
                let s = d.render_targets[i].as_ref()?;
                // The same surface bound twice is written through its first slot only.
                if seen.contains(&s.id()) {
                    return None;
                }
                seen.push(s.id());
                let format = s.desc().format;
                Some(TargetState {
                    surface: s.clone(),
                    format,
                    write_mask: d.state.rs(masks[i]) & 0xF,
                    srgb: i == 0
                        && srgb_on
                        && matches!(
                            format,
                            Format::A8R8G8B8
                                | Format::X8R8G8B8
                                | Format::A8B8G8R8
                                | Format::X8B8G8R8
                        ),
                })
            })
            .collect();
        let fog = d.state.rs_bool(Rs::FogEnable).then(|| {
            let table: FogMode = rs(d, Rs::FogTableMode, FogMode::None);
            let c = Color(d.state.rs(Rs::FogColor)).to_rgba();
            let source = if table == FogMode::None {
                FogSource::SpecularAlpha
            } else {
                // fixed-function.md 9.4: z-based when the projection's fourth
                // column is (0, 0, 0, 1), else w-based where WFOG is reported.
                let p = d.state.transforms[1].to_cols_array_2d();
                let affine = p[0][3] == 0.0 && p[1][3] == 0.0 && p[2][3] == 0.0 && p[3][3] == 1.0;
                let wfog = d.caps.raster_caps.contains(crate::caps::RasterCaps::WFOG);
                FogSource::Table {
                    mode: table,
                    w_based: !affine && wfog,
                    start: rsf(d, Rs::FogStart),
                    end: rsf(d, Rs::FogEnd),
                    density: rsf(d, Rs::FogDensity),
                }
            };
            FogState {
                color: [c[0], c[1], c[2]],
                source,
            }
        });
        let max_point = d.caps.max_point_size.max(1.0);
        // The quantiser takes the clamp's result as lying in [0, 1]; the
        // effective MaxZ of a viewport with MinZ near 1 reaches past it.
        let (min_z, max_z) = vp.depth_range();
        DrawState {
            clip,
            min_z,
            max_z: max_z.min(1.0),
            cull: rs(d, Rs::CullMode, Cull::Ccw),
            fill: rs(d, Rs::FillMode, FillMode::Solid),
            flat: rs(d, Rs::ShadeMode, ShadeMode::Gouraud) == ShadeMode::Flat,
            last_pixel: d.state.rs_bool(Rs::LastPixel),
            // Screen-space z is linear, so discarding pixels outside
            // [0, 1] is the geometric near/far clip of pre-transformed input.
            z_clip_per_pixel: pretransformed && clips_depth(d, pretransformed),
            depth,
            alpha_test,
            blend,
            targets,
            fog,
            specular_add: d.state.rs_bool(Rs::SpecularEnable),
            depth_bias: rsf(d, Rs::DepthBias),
            slope_bias: rsf(d, Rs::SlopeScaleDepthBias),
            point_size: rsf(d, Rs::PointSize),
            point_size_min: rsf(d, Rs::PointSizeMin),
            point_size_max: rsf(d, Rs::PointSizeMax).min(max_point),
            point_sprite: d.state.rs_bool(Rs::PointSpriteEnable),
        }
    }
}
