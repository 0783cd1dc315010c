//! Resource creation, validated against the device's level (caps.md section
//! 8, textures.md section 2.3). Every rejection names the cap or rule.

use super::device::{Device, check_render_target_size};
use crate::caps::check_format;
use crate::error::{Error, ErrorKind, Result};
use crate::format::{Format, Layout, Pool, ResourceKind, Usage};
use crate::resource::{
    CubeTexture, IndexBuffer, Surface, SurfaceDesc, SurfaceKind, Texture, TextureDesc,
    VertexBuffer, VolumeTexture, full_chain,
};
use crate::vertex::{
    DeclMethod, DeclType, DeclUsage, Fvf, RawVertexElement, VertexDeclaration, VertexElement,
};

/// Usages a texture may be created with.
const TEXTURE_USAGES: Usage = Usage::from_bits_retain(
    Usage::RENDERTARGET.bits()
        | Usage::DEPTHSTENCIL.bits()
        | Usage::DYNAMIC.bits()
        | Usage::AUTOGENMIPMAP.bits()
        | Usage::SOFTWAREPROCESSING.bits(),
);

/// Usages a buffer may be created with.
const BUFFER_USAGES: Usage = Usage::from_bits_retain(
    Usage::WRITE_ONLY.bits()
        | Usage::DYNAMIC.bits()
        | Usage::SOFTWAREPROCESSING.bits()
        | Usage::DONOTCLIP.bits()
        | Usage::POINTS.bits(),
);

impl Device {
    fn check_usage_pool(&self, what: &str, usage: Usage, allowed: Usage, pool: Pool) -> Result<()> {
        let extra = usage.difference(allowed);
        if !extra.is_empty() {
            return Err(Error::invalid_call(format!(
                "{what}: usage {extra:?} is not a creation usage for this resource"
            )));
        }
        if usage.intersects(Usage::RENDERTARGET | Usage::DEPTHSTENCIL) && pool != Pool::Default {
            return Err(Error::invalid_call(format!(
                "{what}: render targets and depth-stencil resources must be in D3DPOOL_DEFAULT, not {pool:?}"
            )));
        }
        if usage.contains(Usage::DYNAMIC) && pool == Pool::Managed {
            return Err(Error::invalid_call(format!(
                "{what}: D3DUSAGE_DYNAMIC cannot be used with D3DPOOL_MANAGED"
            )));
        }
        if usage.contains(Usage::SOFTWAREPROCESSING)
            && self.vp_mode == super::desc::VertexProcessing::Hardware
        {
            return Err(Error::invalid_call(format!(
                "{what}: D3DUSAGE_SOFTWAREPROCESSING is refused under hardware vertex processing"
            )));
        }
        Ok(())
    }

    fn check_extent(&self, what: &str, cap: &str, limit: u32, value: u32) -> Result<()> {
        if value == 0 {
            return Err(Error::invalid_call(format!("{what}: a size of 0")));
        }
        if value > limit {
            return Err(Error::cap_exceeded(
                ErrorKind::InvalidCall,
                cap,
                self.level,
                limit,
                format!("{what} size {value}"),
            ));
        }
        Ok(())
    }

    fn check_levels(&self, what: &str, levels: u32, extent: u32, usage: Usage) -> Result<u32> {
        let chain = full_chain(extent);
        if usage.contains(Usage::AUTOGENMIPMAP) && levels > 1 {
            return Err(Error::invalid_call(format!(
                "{what}: D3DUSAGE_AUTOGENMIPMAP needs Levels 0 or 1, got {levels}"
            )));
        }
        match levels {
            0 => Ok(chain),
            l if l <= chain => Ok(l),
            l => Err(Error::invalid_call(format!(
                "{what}: {l} levels, but a full chain for size {extent} has {chain}"
            ))),
        }
    }

    fn check_texture_format(
        &self,
        what: &str,
        kind: ResourceKind,
        format: Format,
        usage: Usage,
        pool: Pool,
    ) -> Result<()> {
        if pool == Pool::Scratch {
            // Scratch resources are not bound by the device's caps, only by having a layout.
            return match format.layout() {
                Layout::None => Err(Error::invalid_call(format!(
                    "{what}: {format:?} has no memory layout"
                ))),
                _ => Ok(()),
            };
        }
        let probe = usage & (Usage::RENDERTARGET | Usage::DEPTHSTENCIL | Usage::AUTOGENMIPMAP);
        check_format(self.level, kind, format, probe, self.software_vp)
            .map(|_| ())
            .map_err(|e| Error::invalid_call(format!("{what}: {}", e.message())))
    }

    /// `CreateTexture`. `levels` 0 makes a full mip chain.
    pub fn create_texture(
        &mut self,
        width: u32,
        height: u32,
        levels: u32,
        usage: Usage,
        format: Format,
        pool: Pool,
    ) -> Result<Texture> {
        let what = "CreateTexture";
        self.check_usage_pool(what, usage, TEXTURE_USAGES, pool)?;
        self.check_texture_format(what, ResourceKind::Texture, format, usage, pool)?;
        if pool != Pool::Scratch {
            self.check_extent(what, "MaxTextureWidth", self.caps.max_texture_width, width)?;
            self.check_extent(
                what,
                "MaxTextureHeight",
                self.caps.max_texture_height,
                height,
            )?;
            let ratio = width.max(height) / width.min(height);
            if ratio > self.caps.max_texture_aspect_ratio {
                return Err(Error::cap_exceeded(
                    ErrorKind::InvalidCall,
                    "MaxTextureAspectRatio",
                    self.level,
                    self.caps.max_texture_aspect_ratio,
                    format!("{width}x{height}"),
                ));
            }
        } else if width == 0 || height == 0 {
            return Err(Error::invalid_call(format!("{what}: a size of 0")));
        }
        let levels = self.check_levels(what, levels, width.max(height), usage)?;
        let npot = !width.is_power_of_two() || !height.is_power_of_two();
        if npot && pool != Pool::Scratch {
            if levels != 1 {
                return Err(Error::invalid_call(format!(
                    "{what}: a non-power-of-two {width}x{height} texture needs Levels 1 (D3DPTEXTURECAPS_NONPOW2CONDITIONAL; POW2 is set at level {})",
                    self.level
                )));
            }
            if format.is_compressed() {
                return Err(Error::invalid_call(format!(
                    "{what}: a non-power-of-two {width}x{height} texture cannot be {format:?} (D3DPTEXTURECAPS_NONPOW2CONDITIONAL)"
                )));
            }
        }
        if format.is_compressed() && (!width.is_multiple_of(4) || !height.is_multiple_of(4)) {
            return Err(Error::invalid_call(format!(
                "{what}: {format:?} needs a width and height that are multiples of 4, got {width}x{height}"
            )));
        }
        if format.is_depth() && levels != 1 {
            return Err(Error::invalid_call(format!(
                "{what}: depth textures have one level, got {levels}"
            )));
        }
        Texture::create(
            &self.tracker,
            TextureDesc {
                format,
                usage,
                pool,
                width,
                height,
                depth: 1,
                levels,
            },
        )
    }

    /// `CreateCubeTexture`: power-of-two edge up to the level's cube limit.
    pub fn create_cube_texture(
        &mut self,
        edge: u32,
        levels: u32,
        usage: Usage,
        format: Format,
        pool: Pool,
    ) -> Result<CubeTexture> {
        let what = "CreateCubeTexture";
        self.check_usage_pool(what, usage, TEXTURE_USAGES - Usage::DEPTHSTENCIL, pool)?;
        self.check_texture_format(what, ResourceKind::CubeTexture, format, usage, pool)?;
        if pool != Pool::Scratch {
            self.check_extent(
                what,
                "largest cube-map edge (caps.md 6.1)",
                self.limits.max_cube_edge,
                edge,
            )?;
        }
        if !edge.is_power_of_two() {
            return Err(Error::invalid_call(format!(
                "{what}: edge {edge} is not a power of two (D3DPTEXTURECAPS_CUBEMAP_POW2)"
            )));
        }
        if format.is_compressed() && !edge.is_multiple_of(4) {
            return Err(Error::invalid_call(format!(
                "{what}: {format:?} needs an edge that is a multiple of 4, got {edge}"
            )));
        }
        let levels = self.check_levels(what, levels, edge, usage)?;
        CubeTexture::create(
            &self.tracker,
            TextureDesc {
                format,
                usage,
                pool,
                width: edge,
                height: edge,
                depth: 1,
                levels,
            },
        )
    }

    /// `CreateVolumeTexture`: power-of-two extents up to MaxVolumeExtent.
    #[allow(clippy::too_many_arguments)]
    pub fn create_volume_texture(
        &mut self,
        width: u32,
        height: u32,
        depth: u32,
        levels: u32,
        usage: Usage,
        format: Format,
        pool: Pool,
    ) -> Result<VolumeTexture> {
        let what = "CreateVolumeTexture";
        self.check_usage_pool(
            what,
            usage,
            Usage::DYNAMIC | Usage::SOFTWAREPROCESSING,
            pool,
        )?;
        self.check_texture_format(what, ResourceKind::VolumeTexture, format, usage, pool)?;
        for extent in [width, height, depth] {
            if pool != Pool::Scratch {
                self.check_extent(what, "MaxVolumeExtent", self.caps.max_volume_extent, extent)?;
            }
            if !extent.is_power_of_two() {
                return Err(Error::invalid_call(format!(
                    "{what}: {width}x{height}x{depth} is not a power of two in every extent (D3DPTEXTURECAPS_VOLUMEMAP_POW2)"
                )));
            }
        }
        let levels = self.check_levels(what, levels, width.max(height).max(depth), usage)?;
        VolumeTexture::create(
            &self.tracker,
            TextureDesc {
                format,
                usage,
                pool,
                width,
                height,
                depth,
                levels,
            },
        )
    }

    /// `CreateVertexBuffer`. A non-zero `fvf` must be valid and fit at least one vertex.
    pub fn create_vertex_buffer(
        &mut self,
        length: u32,
        usage: Usage,
        fvf: Fvf,
        pool: Pool,
    ) -> Result<VertexBuffer> {
        let what = "CreateVertexBuffer";
        self.check_usage_pool(what, usage, BUFFER_USAGES, pool)?;
        if length == 0 {
            return Err(Error::invalid_call(format!("{what}: a length of 0")));
        }
        if !fvf.is_empty() {
            fvf.validate()?;
            if length < fvf.vertex_size() {
                return Err(Error::invalid_call(format!(
                    "{what}: {length} bytes hold no vertex of FVF 0x{:X} ({} bytes)",
                    fvf.bits(),
                    fvf.vertex_size()
                )));
            }
        }
        VertexBuffer::create(&self.tracker, length, usage, fvf.bits(), pool)
    }

    /// `CreateIndexBuffer` (INDEX16 or INDEX32). Drawing from a 32-bit buffer at 9_1 fails at the draw.
    pub fn create_index_buffer(
        &mut self,
        length: u32,
        usage: Usage,
        format: Format,
        pool: Pool,
    ) -> Result<IndexBuffer> {
        let what = "CreateIndexBuffer";
        self.check_usage_pool(what, usage, BUFFER_USAGES, pool)?;
        if !matches!(format, Format::Index16 | Format::Index32) {
            return Err(Error::invalid_call(format!(
                "{what}: {format:?} is not D3DFMT_INDEX16 or D3DFMT_INDEX32"
            )));
        }
        let index_size = if format == Format::Index32 { 4 } else { 2 };
        if length < index_size {
            return Err(Error::invalid_call(format!(
                "{what}: {length} bytes hold no {format:?} index"
            )));
        }
        IndexBuffer::create(&self.tracker, length, usage, format, pool)
    }

    /// `CreateRenderTarget` (no multisampling at any level).
    pub fn create_render_target(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        lockable: bool,
    ) -> Result<Surface> {
        check_render_target_size(&self.caps, self.level, width, height)?;
        check_format(
            self.level,
            ResourceKind::Surface,
            format,
            Usage::RENDERTARGET,
            false,
        )
        .map_err(|e| Error::invalid_call(format!("CreateRenderTarget: {}", e.message())))?;
        Surface::create(
            &self.tracker,
            SurfaceDesc {
                format,
                kind: SurfaceKind::RenderTarget,
                usage: Usage::RENDERTARGET,
                pool: Pool::Default,
                width,
                height,
            },
            lockable,
        )
    }

    /// `CreateDepthStencilSurface` (D16, D16_LOCKABLE, D24S8, D24X8 at every level).
    pub fn create_depth_stencil_surface(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
    ) -> Result<Surface> {
        check_render_target_size(&self.caps, self.level, width, height)?;
        check_format(
            self.level,
            ResourceKind::Surface,
            format,
            Usage::DEPTHSTENCIL,
            false,
        )
        .map_err(|e| Error::invalid_call(format!("CreateDepthStencilSurface: {}", e.message())))?;
        Surface::create(
            &self.tracker,
            SurfaceDesc {
                format,
                kind: SurfaceKind::DepthStencil,
                usage: Usage::DEPTHSTENCIL,
                pool: Pool::Default,
                width,
                height,
            },
            matches!(format, Format::D16_LOCKABLE | Format::D32F_LOCKABLE),
        )
    }

    /// `CreateOffscreenPlainSurface`: any format the level knows (any format with a layout in SCRATCH).
    pub fn create_offscreen_plain_surface(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        pool: Pool,
    ) -> Result<Surface> {
        let what = "CreateOffscreenPlainSurface";
        if pool == Pool::Managed {
            return Err(Error::invalid_call(format!(
                "{what}: D3DPOOL_MANAGED is not allowed for offscreen plain surfaces"
            )));
        }
        if pool == Pool::Scratch {
            if width == 0 || height == 0 || format.layout() == Layout::None {
                return Err(Error::invalid_call(format!(
                    "{what}: {width}x{height} {format:?} is not a surface"
                )));
            }
        } else {
            check_render_target_size(&self.caps, self.level, width, height)?;
            check_format(
                self.level,
                ResourceKind::Surface,
                format,
                Usage::empty(),
                false,
            )
            .map_err(|e| Error::invalid_call(format!("{what}: {}", e.message())))?;
            if format.is_compressed() && (!width.is_multiple_of(4) || !height.is_multiple_of(4)) {
                return Err(Error::invalid_call(format!(
                    "{what}: {format:?} needs sizes that are multiples of 4, got {width}x{height}"
                )));
            }
        }
        Surface::create(
            &self.tracker,
            SurfaceDesc {
                format,
                kind: SurfaceKind::OffscreenPlain,
                usage: Usage::empty(),
                pool,
                width,
                height,
            },
            true,
        )
    }

    /// `CreateVertexDeclaration` from typed elements (fixed-function.md section 1.2 rules).
    pub fn create_vertex_declaration(
        &mut self,
        elements: &[VertexElement],
    ) -> Result<VertexDeclaration> {
        let what = "CreateVertexDeclaration";
        let bad = |why: String| Err(Error::invalid_call(format!("{what}: {why}")));
        if elements.len() > 64 {
            return bad(format!("{} elements (at most 64)", elements.len()));
        }
        let caps = self.vertex_caps();
        let has_positiont = elements
            .iter()
            .any(|e| e.usage == DeclUsage::PositionT && e.usage_index == 0);
        for (i, e) in elements.iter().enumerate() {
            if u32::from(e.stream) >= caps.max_streams {
                return Err(Error::cap_exceeded(
                    ErrorKind::InvalidCall,
                    "MaxStreams",
                    self.level,
                    caps.max_streams,
                    format!("element {i} stream {}", e.stream),
                ));
            }
            if e.decl_type == DeclType::Unused {
                return bad(format!("element {i} has type D3DDECLTYPE_UNUSED"));
            }
            if let Some(bit) = e.decl_type.cap_bit()
                && self.caps.decl_types.bits() & bit == 0
            {
                return Err(Error::cap_missing(
                    ErrorKind::InvalidCall,
                    &format!("{what}: element {i} of type {:?}", e.decl_type),
                    &format!("DeclTypes bit 0x{bit:X}"),
                    self.level,
                ));
            }
            if e.method != DeclMethod::Default {
                return bad(format!(
                    "element {i} uses method {:?}; only D3DDECLMETHOD_DEFAULT is drawn (no tessellation caps)",
                    e.method
                ));
            }
            if !e.offset.is_multiple_of(4) {
                return bad(format!(
                    "element {i} offset {} is not DWORD-aligned",
                    e.offset
                ));
            }
            if e.usage_index > 15 {
                return bad(format!("element {i} usage index {} > 15", e.usage_index));
            }
            if e.usage == DeclUsage::TessFactor
                && (e.decl_type != DeclType::Float1 || e.usage_index != 0)
            {
                return bad(format!("element {i}: TESSFACTOR must be FLOAT1 index 0"));
            }
            if has_positiont && e.stream != 0 {
                return bad(format!(
                    "element {i}: a declaration with POSITIONT may only use stream 0"
                ));
            }
            for (j, f) in elements[..i].iter().enumerate() {
                if f.usage == e.usage && f.usage_index == e.usage_index {
                    return bad(format!(
                        "elements {j} and {i} both have usage {:?}{}",
                        e.usage, e.usage_index
                    ));
                }
                if f.stream == e.stream {
                    let (a0, a1) = (f.offset as u32, f.offset as u32 + f.decl_type.size());
                    let (b0, b1) = (e.offset as u32, e.offset as u32 + e.decl_type.size());
                    let overlap = a0 < b1 && b0 < a1;
                    let shares = self.caps.dev_caps2.bits() & 0x40 != 0;
                    if overlap && !shares {
                        return Err(Error::cap_missing(
                            ErrorKind::InvalidCall,
                            &format!(
                                "{what}: elements {j} and {i} overlap at stream {} offsets {}/{}",
                                e.stream, f.offset, e.offset
                            ),
                            "D3DDEVCAPS2_VERTEXELEMENTSCANSHARESTREAMOFFSET",
                            self.level,
                        ));
                    }
                }
            }
        }
        if has_positiont {
            if elements
                .iter()
                .any(|e| e.usage == DeclUsage::Position && e.usage_index == 0)
            {
                return bad("POSITIONT0 and POSITION0 together".into());
            }
            if elements.windows(2).any(|w| w[1].offset <= w[0].offset) {
                return bad(
                    "a declaration with POSITIONT must list elements in increasing offset".into(),
                );
            }
        }
        Ok(VertexDeclaration::new(elements.to_vec(), 0))
    }

    /// `CreateVertexDeclaration` from raw `D3DVERTEXELEMENT9`s ending with `D3DDECL_END()`.
    pub fn create_vertex_declaration_raw(
        &mut self,
        elements: &[RawVertexElement],
    ) -> Result<VertexDeclaration> {
        let end = elements
            .iter()
            .position(|e| e.stream == 0xFF)
            .ok_or_else(|| {
                Error::invalid_call("CreateVertexDeclaration: no D3DDECL_END() terminator")
            })?;
        let typed = elements[..end]
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let field = |name: &str, v: u8| {
                    Error::invalid_call(format!(
                        "CreateVertexDeclaration: element {i} has unknown {name} {v}"
                    ))
                };
                Ok(VertexElement {
                    stream: e.stream,
                    offset: e.offset,
                    decl_type: DeclType::from_raw(e.decl_type)
                        .ok_or_else(|| field("type", e.decl_type))?,
                    method: DeclMethod::from_raw(e.method)
                        .ok_or_else(|| field("method", e.method))?,
                    usage: DeclUsage::from_raw(e.usage).ok_or_else(|| field("usage", e.usage))?,
                    usage_index: e.usage_index,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        self.create_vertex_declaration(&typed)
    }
}
