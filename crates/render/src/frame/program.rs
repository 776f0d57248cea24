//! The frame's shader programs, one table each of what a program is: its
//! code size, the varyings its vertex shader outputs, and its fragment
//! code as typed operations and texture requests (`code.rs`).

use crate::pipeline::tcor_attributes;
pub use crate::pipeline::{ShaderCode, ShaderWork};

/// The frame's shader programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    ShadowDepth,
    ShadowMask,
    Reflection,
    GBuffer,
    Forward,
    Lighting,
    Transparent,
    Bright,
    Downsample,
    Upsample,
    Display,
    /// Forward lighting with more lights than the sun.
    ForwardLights,
    Particles,
    Sky,
    Ssao,
    Blur,
    Copy,
    Luminance,
    DepthOfField,
    MotionBlur,
    ToneMap,
    Fxaa,
    Ui,
    /// A sprite, particle or interface element of a mobile frame: its
    /// texture times its colour ([`crate::scene::Shading::Sprite`]).
    Sprite,
    /// A mobile material lit per vertex ([`crate::scene::Shading::VertexLit`]).
    VertexLit,
    /// A mobile material lit per pixel by the sun
    /// ([`crate::scene::Shading::PixelLit`]).
    PixelLit,
}

impl Program {
    /// The classic frame's programs, whose code comes first in the heap.
    pub const CLASSIC: [Program; 11] = [
        Program::ShadowDepth,
        Program::ShadowMask,
        Program::Reflection,
        Program::GBuffer,
        Program::Forward,
        Program::Lighting,
        Program::Transparent,
        Program::Bright,
        Program::Downsample,
        Program::Upsample,
        Program::Display,
    ];

    /// The programs the presets and the mobile materials add, whose code
    /// follows the constants.
    pub const EXTRA: [Program; 15] = [
        Program::ForwardLights,
        Program::Particles,
        Program::Sky,
        Program::Ssao,
        Program::Blur,
        Program::Copy,
        Program::Luminance,
        Program::DepthOfField,
        Program::MotionBlur,
        Program::ToneMap,
        Program::Fxaa,
        Program::Ui,
        Program::Sprite,
        Program::VertexLit,
        Program::PixelLit,
    ];

    /// Bytes of vertex + fragment code: a rough size of what each does.
    pub const fn code_bytes(self) -> u64 {
        match self {
            Program::ShadowDepth => 256,
            Program::ShadowMask => 512,
            Program::Bright | Program::Downsample | Program::Upsample => 512,
            Program::Blur | Program::Copy | Program::Luminance | Program::Sky => 512,
            Program::Reflection | Program::Display | Program::ToneMap | Program::Ui => 1024,
            Program::Particles | Program::Fxaa | Program::MotionBlur => 1024,
            Program::Sprite | Program::VertexLit => 256,
            Program::PixelLit => 512,
            Program::GBuffer | Program::Ssao | Program::DepthOfField => 1536,
            Program::Lighting | Program::Forward | Program::Transparent => 2048,
            Program::ForwardLights => 3072,
        }
    }

    /// The scalars its vertex shader outputs besides the position: the
    /// varyings its fragment shader interpolates (`Fragments::attrs`) in
    /// this renderer. The one table of them:
    ///
    /// | program | outputs | scalars | TCOR attributes |
    /// |---|---|---|---|
    /// | `ShadowDepth` | position | 0 | 1 |
    /// | `ShadowMask` | position, uv (alpha test) | 2 | 2 |
    /// | `GBuffer`, `Forward`, `ForwardLights`, `Reflection`, `Transparent`, `Particles` | position, normal, uv | 5 | 3 |
    /// | `Ui` (HUD atlas, interface instances) | position, uv | 2 | 2 |
    /// | `Sprite`, `VertexLit` | position, uv, colour (the sprite's tint, the vertex's light) | 6 | 3 |
    /// | `PixelLit` | position, normal, uv | 5 | 3 |
    /// | full-screen: `Lighting`, `Sky`, `Ssao`, `Blur`, `Copy`, `Bright`, `Downsample`, `Upsample`, `Luminance`, `DepthOfField`, `MotionBlur`, `ToneMap`, `Fxaa`, `Display` | position | 0 | 1 |
    ///
    /// No desktop program outputs a world position (lighting, shadow and
    /// mirror tests reconstruct it from the pixel's depth) nor a vertex
    /// colour (colours are material constants); the mobile sprite and
    /// vertex-lit programs output a colour, as Unity's and Cocos2d-x's
    /// do (a batch of sprites carries each one's tint in its vertices);
    /// full-screen programs read their inputs at the pixel's own position,
    /// so they interpolate nothing.
    pub const fn varyings(self) -> u32 {
        match self {
            Program::ShadowDepth => 0,
            Program::ShadowMask | Program::Ui => 2,
            Program::Sprite | Program::VertexLit => 6,
            Program::PixelLit => 5,
            Program::GBuffer
            | Program::Forward
            | Program::ForwardLights
            | Program::Reflection
            | Program::Transparent
            | Program::Particles => 5,
            Program::Lighting
            | Program::Sky
            | Program::Ssao
            | Program::Blur
            | Program::Copy
            | Program::Bright
            | Program::Downsample
            | Program::Upsample
            | Program::Luminance
            | Program::DepthOfField
            | Program::MotionBlur
            | Program::ToneMap
            | Program::Fxaa
            | Program::Display => 0,
        }
    }

    /// TCOR's attribute count of its draws' triangles
    /// ([`Program::varyings`] as [`tcor_attributes`] counts them): what
    /// [`Draw::attributes`](crate::pipeline::Draw::attributes) of every
    /// draw of this program is.
    pub const fn attributes(self) -> u32 {
        tcor_attributes(self.varyings())
    }

    /// What every fragment of a draw of this program runs, with `taps`
    /// taps in its loop (ignored without one): what
    /// [`Draw::work`](crate::pipeline::Draw::work) of the draw is.
    pub const fn work(self, taps: u32) -> ShaderWork {
        ShaderWork {
            code: self.code(),
            taps,
        }
    }

    /// The program that draws material `m` where the pass's own is
    /// `otherwise`: the mobile program of its shading, or `otherwise` for
    /// the standard one.
    pub fn for_material(m: &crate::scene::Material, otherwise: Program) -> Program {
        use crate::scene::Shading;
        match m.shading {
            Shading::Standard => otherwise,
            Shading::Sprite => Program::Sprite,
            Shading::VertexLit => Program::VertexLit,
            Shading::PixelLit => Program::PixelLit,
        }
    }

    /// Whether draws of this program read the frame's light constants.
    pub const fn reads_lights(self) -> bool {
        matches!(self, Program::ForwardLights)
    }

    /// The presets' programs that `op` runs: its own, and those of what a
    /// forward or light pass draws after its own draws.
    pub fn extra_of(op: &crate::graph::Op) -> impl Iterator<Item = Program> {
        use crate::graph::Op;
        let (lights, particles) = match op {
            Op::Forward {
                lights, blended, ..
            } => (*lights > 0, *blended),
            Op::Lighting { blended, .. } => (false, *blended),
            _ => (false, false),
        };
        let own = match op {
            Op::Particles => Some(Program::Particles),
            Op::Sky => Some(Program::Sky),
            Op::Ssao { .. } => Some(Program::Ssao),
            Op::Blur { .. } => Some(Program::Blur),
            Op::Copy => Some(Program::Copy),
            Op::Luminance => Some(Program::Luminance),
            Op::DepthOfField { .. } => Some(Program::DepthOfField),
            Op::MotionBlur { .. } => Some(Program::MotionBlur),
            Op::ToneMap => Some(Program::ToneMap),
            Op::Fxaa => Some(Program::Fxaa),
            _ => None,
        };
        [
            lights.then_some(Program::ForwardLights),
            particles.then_some(Program::Particles),
            op.hud_quads().map(|_| Program::Ui),
            own,
        ]
        .into_iter()
        .flatten()
    }
}
