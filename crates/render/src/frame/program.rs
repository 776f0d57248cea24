//! The frame's shader programs, one table each of what a program is: its
//! code size, the varyings its vertex shader outputs, and the work of its
//! fragment shader (ALU instructions around its texture requests).

use crate::pipeline::tcor_attributes;
pub use crate::pipeline::{FragmentWork, ShaderWork, TapWork};

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

    /// The programs the presets add, whose code follows the constants.
    pub const EXTRA: [Program; 12] = [
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
    /// | full-screen: `Lighting`, `Sky`, `Ssao`, `Blur`, `Copy`, `Bright`, `Downsample`, `Upsample`, `Luminance`, `DepthOfField`, `MotionBlur`, `ToneMap`, `Fxaa`, `Display` | position | 0 | 1 |
    ///
    /// No program outputs a world position (lighting, shadow and mirror
    /// tests reconstruct it from the pixel's depth) nor a vertex colour
    /// (colours are material constants), and full-screen programs read
    /// their inputs at the pixel's own position, so they interpolate
    /// nothing.
    pub const fn varyings(self) -> u32 {
        match self {
            Program::ShadowDepth => 0,
            Program::ShadowMask | Program::Ui => 2,
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

    /// What every fragment of a draw of this program runs around its
    /// texture requests, with `taps` taps in its loop (ignored without
    /// one): what [`Draw::work`](crate::pipeline::Draw::work) of the draw
    /// is.
    pub const fn work(self, taps: u32) -> ShaderWork {
        ShaderWork {
            fragment: self.fragment_work(),
            taps,
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

/// Building blocks of [`Program::fragment_work`]'s counts, per pixel, by
/// the counting rule there.
mod cost {
    /// A pixel's centre in texture space, `(x + 0.5) / w` per axis.
    pub const CENTRE: u32 = 6;
    /// `shaders::unit`: length (3 mul, 2 add, sqrt), compare, reciprocal,
    /// 3 mul.
    pub const UNIT: u32 = 11;
    /// A 3x3 matrix times a vector (9 mul, 6 add).
    pub const MUL3: u32 = 15;
    /// `Mat4::transform` (16 mul, 12 add).
    pub const TRANSFORM: u32 = 28;
    /// `shaders::world_of`: 2 x 5 for the device coordinates, a
    /// transform, compare and reciprocal of w, 3 mul.
    pub const WORLD_OF: u32 = 10 + TRANSFORM + 2 + 3;
    /// `shaders::light`: negate and normalize the light direction, N.L
    /// (5), max, times shadow, 4 per channel.
    pub const LIGHT: u32 = 3 + UNIT + 5 + 1 + 1 + 12;
    /// `shaders::shadow_factor` before its request (one cascade): the
    /// light's clip position, 1/w, uv (6), depth, the 4 bounds compares.
    pub const SHADOW_BEFORE: u32 = TRANSFORM + 2 + 6 + 1 + 4;
    /// ... and after it: the bias (2), subtract, compare.
    pub const SHADOW_AFTER: u32 = 4;
    /// Gamma encoding of three channels (clamp 2, sqrt).
    pub const ENCODE3: u32 = 9;
    /// Linear view depth from viewport depth (clamp 2, 5 arithmetic, max).
    pub const LINEAR_DEPTH: u32 = 8;
    /// Material shader after its albedo request: the texel linearized and
    /// tinted (7), the alpha-mask compare.
    pub const ALBEDO: u32 = 8;
    /// Material shader: the face's sign, the normal to world and unit,
    /// flipped (1 + 15 + 11 + 3).
    pub const NORMAL: u32 = 1 + MUL3 + UNIT + 3;
    /// Material shader: albedo scaled for reflection (4), emissive plus
    /// reflection (6).
    pub const SURFACE: u32 = 4 + 6;
    /// Soft particles after their depth load: two linear depths, the gap
    /// over the range, clamped.
    pub const FADE: u32 = 2 * LINEAR_DEPTH + 2 + 2;
}

impl Program {
    /// The ALU work of its fragment shader around its texture requests
    /// ([`FragmentWork`]): ours, counted from what this renderer's
    /// fragment code computes per pixel. The one table of it.
    ///
    /// **Counting rule.** One instruction per scalar operation the Rust
    /// fragment code performs per pixel: add, subtract, multiply, divide,
    /// min, max, compare, abs, conversion, sqrt and each transcendental
    /// (exp, ln, sin, cos) count 1, a clamp 2, vector operations per
    /// component. Not counted: varying interpolation (the interpolator's),
    /// texture addressing and filtering (the texture unit's), constants
    /// and anything computed once per draw, output writes. The full path:
    /// every optional request is made and every optional step done (a
    /// reflective, alpha-masked material; encoding for the display), one
    /// shadow cascade. Requests in order (`L` load, `S` sample):
    ///
    /// | program | requests | ALU before each, then after the last |
    /// |---|---|---|
    /// | `ShadowDepth` | none | 0 |
    /// | `ShadowMask` | S albedo | 0, 2 |
    /// | `GBuffer` | S albedo, S reflection | 0, 44, 16 |
    /// | `Forward`, `ForwardLights` | S albedo, S reflection, S shadow | 0, 44, 84, 56 |
    /// | `Reflection` | S albedo | 0, 126 |
    /// | `Transparent` | S albedo, S reflection, S shadow, L scene depth, S refraction | 0, 44, 84, 4, 30, 65 |
    /// | `Particles` | S albedo, S shadow, L scene depth | 0, 122, 4, 73 |
    /// | `Ui` | S albedo (interface material or HUD atlas) | 0, 20 |
    /// | `Lighting` | L albedo, L normal, L emissive, L depth, S ao, S shadow | 0, 0, 0, 0, 6, 84, 66 |
    /// | `Sky` | none | 16 |
    /// | `Ssao` | S depth, S normal, per tap S depth | 6, 0, per tap 20 before and 22 after, 4 |
    /// | `Blur` | per tap S source | 6 + per tap 5 before and 12 after |
    /// | `Copy`, `Downsample`, `Upsample` | S source | 6, 0 |
    /// | `Bright` | S source | 6, 6 |
    /// | `Luminance` | S source | 6, 7 |
    /// | `DepthOfField` | L depth, S source, per tap S source | 6, 0, 14 + per tap 13 before and 4 after, 5 |
    /// | `MotionBlur` | L depth, per tap S source | 6, 89 + per tap 7 before and 8 after |
    /// | `Fxaa` | L centre, L 4 neighbours, S 2 along the edge | 0, 4, 4, 4, 4, 59, 5, 17 |
    /// | `Display` | L colour, S bloom | 0, 6, 18 |
    /// | `ToneMap` | L colour, S bloom, L luminance | 0, 6, 6, 19 |
    ///
    /// `ForwardLights` shades as `Forward` does (its extra lights are
    /// constants it reads, not light it adds). A consumer turns these into
    /// time with its own cycles per instruction (e.g. 1: a scalar,
    /// in-order core per fragment processor).
    pub const fn fragment_work(self) -> FragmentWork {
        use cost::*;
        const fn plain(lead: &'static [u32], tail: u32) -> FragmentWork {
            FragmentWork {
                lead,
                between: 0,
                taps: None,
                tail,
            }
        }
        const fn looped(
            lead: &'static [u32],
            between: u32,
            before: u32,
            after: u32,
            tail: u32,
        ) -> FragmentWork {
            FragmentWork {
                lead,
                between,
                taps: Some(TapWork { before, after }),
                tail,
            }
        }
        // Material shader: albedo, then normal and (reflective) the
        // reflection at the pixel's centre; lit passes then the world
        // position and the shadow.
        const BEFORE_REFLECTION: u32 = ALBEDO + NORMAL + CENTRE;
        const BEFORE_SHADOW: u32 = WORLD_OF + SHADOW_BEFORE;
        const LIT: u32 = SURFACE + LIGHT + ENCODE3;
        match self {
            Program::ShadowDepth => plain(&[], 0),
            Program::ShadowMask => plain(&[0], 2),
            Program::GBuffer => plain(&[0, BEFORE_REFLECTION], SURFACE + 6),
            Program::Forward | Program::ForwardLights => {
                plain(&[0, BEFORE_REFLECTION, BEFORE_SHADOW], SHADOW_AFTER + LIT)
            }
            Program::Reflection => plain(&[0], ALBEDO + NORMAL + WORLD_OF + 2 + SURFACE + LIGHT),
            Program::Transparent => plain(
                &[0, BEFORE_REFLECTION, BEFORE_SHADOW, SHADOW_AFTER, FADE + 10],
                1 + LIT + 12,
            ),
            Program::Particles => plain(
                &[0, ALBEDO + NORMAL + BEFORE_SHADOW, SHADOW_AFTER],
                FADE + 1 + LIT,
            ),
            Program::Ui => plain(&[0], 7 + 1 + 3 + ENCODE3),
            Program::Lighting => plain(
                &[0, 0, 0, 0, CENTRE, BEFORE_SHADOW],
                SHADOW_AFTER + 6 + UNIT + 3 + LIGHT + ENCODE3,
            ),
            Program::Sky => plain(&[], 4 + 3 * 4),
            Program::Ssao => looped(&[CENTRE, 0], 0, 20, 2 * LINEAR_DEPTH + 6, 4),
            Program::Blur => looped(&[], CENTRE, 5, 12, 0),
            Program::Copy | Program::Downsample | Program::Upsample => plain(&[CENTRE], 0),
            Program::Bright => plain(&[CENTRE], 6),
            Program::Luminance => plain(&[CENTRE], 7),
            Program::DepthOfField => looped(&[CENTRE, 0], LINEAR_DEPTH + 6, 13, 4, 5),
            Program::MotionBlur => looped(
                &[CENTRE],
                WORLD_OF + TRANSFORM + 2 + 6 + 2 + 4 + 2 + 2,
                7,
                8,
                0,
            ),
            Program::Fxaa => plain(&[0, 4, 4, 4, 4, CENTRE + 25 + 10 + 4 + 9 + 5, 5], 17),
            Program::Display => plain(&[0, CENTRE], 6 + 12),
            Program::ToneMap => plain(&[0, CENTRE, 6], 4 + 15),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every program, once.
    fn all() -> impl Iterator<Item = Program> {
        Program::CLASSIC.into_iter().chain(Program::EXTRA)
    }

    #[test]
    fn the_table_matches_its_documented_rows() {
        let rows: [(Program, u32, &[u32]); 8] = [
            (Program::GBuffer, 0, &[0, 44, 16]),
            (Program::Forward, 0, &[0, 44, 84, 56]),
            (Program::Transparent, 0, &[0, 44, 84, 4, 30, 65]),
            (Program::Particles, 0, &[0, 122, 4, 73]),
            (Program::Lighting, 0, &[0, 0, 0, 0, 6, 84, 66]),
            (Program::Fxaa, 0, &[0, 4, 4, 4, 4, 59, 5, 17]),
            (Program::Reflection, 0, &[0, 126]),
            (Program::ToneMap, 0, &[0, 6, 6, 19]),
        ];
        for (p, taps, want) in rows {
            assert_eq!(p.fragment_work().segments(taps), want, "{p:?}");
        }
    }

    #[test]
    fn a_tap_loop_puts_each_taps_work_around_its_request() {
        // Blur, 3 taps: centre + tap 0's coordinates, then each earlier
        // tap's accumulation + the next tap's coordinates, then the last
        // accumulation.
        let w = Program::Blur.fragment_work();
        assert_eq!(w.segments(3), [6 + 5, 12 + 5, 12 + 5, 12]);
        assert_eq!(w.requests(3), 3);
        // SSAO, 2 taps: centre depth, normal, 2 taps, then the ratio.
        let s = Program::Ssao.fragment_work();
        assert_eq!(s.segments(2), [6, 0, 20, 22 + 20, 22 + 4]);
        // Depth of field: the circle of confusion before the first tap.
        let d = Program::DepthOfField.fragment_work();
        assert_eq!(d.segments(1), [6, 0, 14 + 13, 4 + 5]);
        assert_eq!(d.segments(0), [6, 0, 14 + 5]);
    }

    #[test]
    fn every_program_has_one_more_segment_than_requests() {
        for p in all() {
            let w = p.fragment_work();
            for taps in [0, 1, 8] {
                let s = w.segments(taps);
                assert_eq!(s.len() as u32, w.requests(taps) + 1, "{p:?}");
                assert_eq!(w.instructions(taps), s.iter().sum::<u32>(), "{p:?}");
            }
            // Only the shadow pass's depth-only program does no work.
            assert_eq!(w.instructions(4) == 0, p == Program::ShadowDepth, "{p:?}");
            // A draw's segments are the table's, one by one, and none after.
            for taps in [0, 3] {
                let d = p.work(taps);
                let s = w.segments(taps);
                for (k, &want) in s.iter().enumerate() {
                    assert_eq!(d.segment(k as u32), want, "{p:?} segment {k}");
                }
                assert_eq!(d.segment(s.len() as u32), 0, "{p:?}");
                assert_eq!(d.segments(), s.len() as u32, "{p:?}");
                assert_eq!(d.instructions(), w.instructions(taps), "{p:?}");
            }
        }
    }
}
