//! Device limits the validator checks programs against (caps.md §3.3, §6).
//!
//! A plain copy of the D3DCAPS9 members shader validation needs, so the
//! shader module does not depend on the device's caps code; the device
//! converts its caps into this struct.

/// `D3DVS20CAPS_PREDICATION`
pub const VS20CAPS_PREDICATION: u32 = 0x1;
/// `D3DPS20CAPS_ARBITRARYSWIZZLE`
pub const PS20CAPS_ARBITRARYSWIZZLE: u32 = 0x1;
/// `D3DPS20CAPS_GRADIENTINSTRUCTIONS`
pub const PS20CAPS_GRADIENTINSTRUCTIONS: u32 = 0x2;
/// `D3DPS20CAPS_PREDICATION`
pub const PS20CAPS_PREDICATION: u32 = 0x4;
/// `D3DPS20CAPS_NODEPENDENTREADLIMIT`
pub const PS20CAPS_NODEPENDENTREADLIMIT: u32 = 0x8;
/// `D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT`
pub const PS20CAPS_NOTEXINSTRUCTIONLIMIT: u32 = 0x10;

/// `D3DVSHADERCAPS2_0`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vs20Caps {
    /// `VS20CAPS_*` bits.
    pub caps: u32,
    /// `DynamicFlowControlDepth`
    pub dynamic_flow_control_depth: u32,
    /// `NumTemps`
    pub num_temps: u32,
    /// `StaticFlowControlDepth`
    pub static_flow_control_depth: u32,
}

/// `D3DPSHADERCAPS2_0`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ps20Caps {
    /// `PS20CAPS_*` bits.
    pub caps: u32,
    /// `DynamicFlowControlDepth`
    pub dynamic_flow_control_depth: u32,
    /// `NumTemps`
    pub num_temps: u32,
    /// `StaticFlowControlDepth`
    pub static_flow_control_depth: u32,
    /// `NumInstructionSlots`
    pub num_instruction_slots: u32,
}

/// What shader validation needs to know about a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderLimits {
    /// Highest accepted vertex shader version token (e.g. `0xFFFE0300`).
    pub vertex_shader_version: u32,
    /// Highest accepted pixel shader version token (e.g. `0xFFFF0200`).
    pub pixel_shader_version: u32,
    /// `MaxVertexShaderConst`
    pub max_vertex_shader_const: u32,
    /// `VS20Caps`
    pub vs20: Vs20Caps,
    /// `PS20Caps`
    pub ps20: Ps20Caps,
    /// `MaxVertexShader30InstructionSlots`
    pub max_vertex_shader30_instruction_slots: u32,
    /// `MaxPixelShader30InstructionSlots`
    pub max_pixel_shader30_instruction_slots: u32,
    /// True while software vertex processing is active: allows the `vs_*_sw`
    /// profiles (caps.md §3.3).
    pub software_vertex_processing: bool,
    /// Name used in messages, e.g. `"9_1"`.
    pub level_name: &'static str,
}

const VS20_MIN: Vs20Caps = Vs20Caps {
    caps: 0,
    dynamic_flow_control_depth: 0,
    num_temps: 12,
    static_flow_control_depth: 1,
};
const VS20_FULL: Vs20Caps = Vs20Caps {
    caps: VS20CAPS_PREDICATION,
    dynamic_flow_control_depth: 24,
    num_temps: 32,
    static_flow_control_depth: 4,
};
const PS20_MIN: Ps20Caps = Ps20Caps {
    caps: 0,
    dynamic_flow_control_depth: 0,
    num_temps: 12,
    static_flow_control_depth: 0,
    num_instruction_slots: 96,
};
const PS20_FULL: Ps20Caps = Ps20Caps {
    caps: 0x1F,
    dynamic_flow_control_depth: 24,
    num_temps: 32,
    static_flow_control_depth: 4,
    num_instruction_slots: 512,
};

impl ShaderLimits {
    /// Feature level 9_1 (caps.md §6).
    pub const fn level_9_1() -> ShaderLimits {
        ShaderLimits {
            vertex_shader_version: 0xFFFE_0200,
            pixel_shader_version: 0xFFFF_0200,
            max_vertex_shader_const: 256,
            vs20: VS20_MIN,
            ps20: PS20_MIN,
            max_vertex_shader30_instruction_slots: 0,
            max_pixel_shader30_instruction_slots: 0,
            software_vertex_processing: false,
            level_name: "9_1",
        }
    }

    /// Feature level 9_2 (same shader caps as 9_1).
    pub const fn level_9_2() -> ShaderLimits {
        let mut l = Self::level_9_1();
        l.level_name = "9_2";
        l
    }

    /// Feature level 9_3: vs_3_0 (for instancing), ps_2_x-class PS20Caps.
    pub const fn level_9_3() -> ShaderLimits {
        ShaderLimits {
            vertex_shader_version: 0xFFFE_0300,
            pixel_shader_version: 0xFFFF_0200,
            max_vertex_shader_const: 256,
            vs20: VS20_FULL,
            ps20: PS20_FULL,
            max_vertex_shader30_instruction_slots: 512,
            max_pixel_shader30_instruction_slots: 0,
            software_vertex_processing: false,
            level_name: "9_3",
        }
    }

    /// The crate's "9_3 plus Shader Model 3" profile.
    pub const fn sm3() -> ShaderLimits {
        let mut l = Self::level_9_3();
        l.pixel_shader_version = 0xFFFF_0300;
        // D3DMAX30SHADERINSTRUCTIONS for both (caps.md "Changed (sm3)"):
        // real ps_3_0 content reaches 1,300+ slots.
        l.max_vertex_shader30_instruction_slots = 32768;
        l.max_pixel_shader30_instruction_slots = 32768;
        l.level_name = "SM3";
        l
    }

    /// The software vertex-processing overlay (caps.md §3.3): vertex limits
    /// replaced, pixel limits kept.
    pub const fn software_vertex_processing(self) -> ShaderLimits {
        let mut l = self;
        l.vertex_shader_version = 0xFFFE_0300;
        l.vs20 = VS20_FULL;
        l.max_vertex_shader30_instruction_slots = 32768;
        l.max_vertex_shader_const = 8192;
        l.software_vertex_processing = true;
        l
    }

    /// All four level profiles, lowest first.
    pub const ALL_LEVELS: [ShaderLimits; 4] = [
        Self::level_9_1(),
        Self::level_9_2(),
        Self::level_9_3(),
        Self::sm3(),
    ];
}
