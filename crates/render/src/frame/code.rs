//! The frame's fragment programs as code: typed operations and texture
//! requests in order ([`ShaderCode`], `pipeline/work.rs` says how a
//! fragment walks them), one static per program. The one table of what
//! each program's fragments run; `gfxcache programs` prints it, with each
//! variant's longest and shortest path.
//!
//! **How a program is written.** Each is the GPU code a real engine runs
//! for what the renderer draws, counted by the rules of
//! [`gfxcache_trace::ops`] (one ALU operation per vector operation of its
//! width, special functions per component, branches). Work a vertex
//! shader does per vertex in an engine is not the fragment program's: a
//! forward pass gets its world position and world normal interpolated
//! (the pixel normalizes the normal), as Unity's forward passes do
//! (`UnityCG.cginc`'s `UnityObjectToWorldNormal` in the vertex shader);
//! a full-screen pass reconstructs the world position from the depth
//! buffer. Texels are decoded from sRGB by the texture unit (sRGB
//! formats), so their linearization costs nothing; encoding for the
//! display is a program's where it writes the display ([`Opt::Encode`]).
//! Per-draw constants (the light's direction, material colours, kernel
//! weights) are uniforms and cost nothing. Our Rust shaders compute the
//! picture on the CPU their own way; these programs are what a GPU runs
//! for it.
//!
//! **The desktop programs** (DX10/11-class frames: forward and deferred
//! lighting with cascaded shadow maps, screen-space effects, post
//! processing) describe the renderer's own shaders. Each alpha test is a
//! `clip` at the program's end (its pixel runs the whole program and makes
//! all its requests, as Direct3D 9's fixed-function alpha test does), so
//! no desktop program stops a fragment early.

use gfxcache_trace::ShaderOps;

use super::program::Program;
use crate::pipeline::{Opt, ShaderCode, Step, When};

const fn a(width: usize, n: u32) -> ShaderOps {
    ShaderOps::alu(width, n)
}

const fn sp(n: u32) -> ShaderOps {
    ShaderOps::special(n)
}

const fn br(n: u32) -> ShaderOps {
    ShaderOps::branch(n)
}

const fn ops(o: ShaderOps) -> Step {
    Step::Ops(o)
}

/// The next `len` steps run where the shader makes their request.
const fn requested(len: u8) -> Step {
    Step::If {
        when: When::Requested,
        len,
    }
}

/// The next `len` steps run in the draws with option `o`.
const fn with(o: Opt, len: u8) -> Step {
    Step::If {
        when: When::Option(o),
        len,
    }
}

const fn each_tap(len: u8) -> Step {
    Step::Loop { len }
}

use Step::{Load, Sample};

/// The operations the programs share, per pixel.
mod blocks {
    use super::*;

    /// The pixel's centre in texture space: `gl_FragCoord.xy` times the
    /// target's reciprocal size.
    pub const CENTRE: ShaderOps = a(2, 1);
    /// The texel times the material's colour.
    pub const TINT: ShaderOps = a(4, 1);
    /// Alpha below the cut-off, and the discard.
    pub const ALPHA_TEST: ShaderOps = a(1, 1).plus(br(1));
    /// `normalize` of a 3-vector: a dot product, a reciprocal square root,
    /// a multiply.
    pub const UNIT3: ShaderOps = a(3, 2).plus(sp(1));
    /// The interpolated world normal normalized and turned to the face
    /// seen (a select).
    pub const NORMAL: ShaderOps = UNIT3.plus(a(3, 1));
    /// The reflection mixed into the colour.
    pub const REFLECT: ShaderOps = a(3, 2);
    /// The pixel's cascade: its view depth against the splits' near and
    /// far ends (two vec4 compares) and their product summed (a dot).
    pub const CASCADE: ShaderOps = a(4, 3);
    /// World to the light's clip space (a 4x4 matrix), the divide (a
    /// reciprocal and a multiply), to texture space (a multiply-add),
    /// inside the map (two vec2 compares) and the branch on it.
    pub const SHADOW_COORD: ShaderOps = a(4, 4)
        .plus(sp(1))
        .plus(a(3, 1))
        .plus(a(2, 1))
        .plus(a(2, 2))
        .plus(br(1));
    /// The depth minus the bias against the stored depth, and the select.
    pub const SHADOW_CMP: ShaderOps = a(1, 3);
    /// N.L clamped and times the shadow; ambient plus the sun's colour
    /// times it (a multiply-add); times the albedo; plus the emissive.
    pub const LIGHT: ShaderOps = a(3, 1).plus(a(1, 2)).plus(a(3, 3));
    /// Gamma encoding: a clamp and a square root per channel.
    pub const ENCODE3: ShaderOps = a(3, 1).plus(sp(3));
    /// A pixel's world position from the depth buffer: device coordinates
    /// (a vec2 multiply-add), the inverse view-projection (a 4x4 matrix),
    /// the divide.
    pub const WORLD_FROM_DEPTH: ShaderOps = a(2, 1).plus(a(4, 4)).plus(sp(1)).plus(a(3, 1));
    /// The view distance of a depth-buffer value (Unity's
    /// `LinearEyeDepth`: a multiply-add and a reciprocal).
    pub const LINEAR_DEPTH: ShaderOps = a(1, 1).plus(sp(1));
    /// A soft particle's fade: the scene's view distance, the gap to the
    /// particle's, scaled and clamped (Unity's soft particles).
    pub const FADE: ShaderOps = LINEAR_DEPTH.plus(a(1, 3));
    /// The screen position displaced by the normal.
    pub const REFRACT_UV: ShaderOps = a(2, 2);
    /// The glass's colour over the refracted scene (a mix), drawn opaque.
    pub const REFRACT_MIX: ShaderOps = a(3, 2);
    /// Reinhard's `c / (1 + c)` per channel.
    pub const REINHARD: ShaderOps = a(3, 2).plus(sp(3));
}

use blocks::*;

/// The shadow lookup of a lit pass: where the pass has a shadow map, the
/// cascade (when cascaded), the coordinates, and the request where the map
/// holds the pixel. Seven steps.
macro_rules! shadow_lookup {
    () => {
        [
            with(Opt::Shadowed, 6),
            with(Opt::Cascades, 1),
            ops(CASCADE),
            ops(SHADOW_COORD),
            requested(2),
            Sample,
            ops(SHADOW_CMP),
        ]
    };
}

/// Concatenates step arrays into one static slice.
macro_rules! steps {
    ($($part:expr),* $(,)?) => {{
        const PARTS: &[&[Step]] = &[$(&$part),*];
        const LEN: usize = {
            let mut n = 0;
            let mut k = 0;
            while k < PARTS.len() {
                n += PARTS[k].len();
                k += 1;
            }
            n
        };
        const STEPS: [Step; LEN] = {
            let mut out = [Step::Discard; LEN];
            let mut n = 0;
            let mut k = 0;
            while k < PARTS.len() {
                let mut j = 0;
                while j < PARTS[k].len() {
                    out[n] = PARTS[k][j];
                    n += 1;
                    j += 1;
                }
                k += 1;
            }
            out
        };
        &STEPS
    }};
}

/// The albedo texture where the material has one, times its colour.
const ALBEDO: [Step; 3] = [requested(2), Sample, ops(TINT)];
/// The reflection where the material reflects: at the pixel's centre.
const REFLECTION: [Step; 4] = [requested(3), ops(CENTRE), Sample, ops(REFLECT)];
/// The end of a lit program: encoding where it draws the display, the
/// alpha test where the material is cut out.
const LIT_END: [Step; 4] = [
    with(Opt::Encode, 1),
    ops(ENCODE3),
    with(Opt::AlphaTest, 1),
    ops(ALPHA_TEST),
];

static SHADOW_DEPTH: ShaderCode = ShaderCode {
    name: "shadow-depth",
    steps: &[],
};

static SHADOW_MASK: ShaderCode = ShaderCode {
    name: "shadow-mask",
    steps: &[requested(2), Sample, ops(a(1, 1)), ops(ALPHA_TEST)],
};

static GBUFFER: ShaderCode = ShaderCode {
    name: "gbuffer",
    steps: steps![
        ALBEDO,
        [ops(NORMAL)],
        REFLECTION,
        [with(Opt::PackNormal, 1), ops(a(3, 1))],
        [with(Opt::AlphaTest, 1), ops(ALPHA_TEST)],
    ],
};

const FORWARD_STEPS: &[Step] = steps![
    ALBEDO,
    [ops(NORMAL)],
    REFLECTION,
    shadow_lookup!(),
    [ops(LIGHT)],
    LIT_END,
];

static FORWARD: ShaderCode = ShaderCode {
    name: "forward",
    steps: FORWARD_STEPS,
};

static FORWARD_LIGHTS: ShaderCode = ShaderCode {
    name: "forward-lights",
    steps: FORWARD_STEPS,
};

static REFLECTION_PASS: ShaderCode = ShaderCode {
    name: "reflection",
    // The mirror's test: the world height against the mirror's, and the
    // discard, at the end like the alpha test.
    steps: steps![
        ALBEDO,
        [ops(NORMAL), ops(LIGHT), ops(a(1, 1).plus(br(1)))],
        LIT_END,
    ],
};

static TRANSPARENT: ShaderCode = ShaderCode {
    name: "transparent",
    steps: steps![
        ALBEDO,
        [ops(NORMAL)],
        REFLECTION,
        shadow_lookup!(),
        [requested(2), Load, ops(FADE)],
        [requested(3), ops(REFRACT_UV), Sample, ops(REFRACT_MIX)],
        [ops(LIGHT.plus(a(1, 1)))],
        LIT_END,
    ],
};

static PARTICLES: ShaderCode = ShaderCode {
    name: "particles",
    steps: steps![
        ALBEDO,
        [ops(NORMAL)],
        shadow_lookup!(),
        [requested(2), Load, ops(FADE)],
        [ops(LIGHT.plus(a(1, 1)))],
        LIT_END,
    ],
};

static UI: ShaderCode = ShaderCode {
    name: "ui",
    // Unity's `UI-Default`: the texel times the vertex colour.
    steps: steps![[requested(1), Sample, ops(a(4, 1))], LIT_END],
};

static LIGHTING: ShaderCode = ShaderCode {
    name: "lighting",
    steps: steps![
        [Load, Load, requested(1), Load, Load],
        [requested(3), ops(CENTRE), Sample, ops(a(3, 1))],
        [ops(WORLD_FROM_DEPTH)],
        shadow_lookup!(),
        [with(Opt::PackNormal, 1), ops(a(3, 1))],
        [ops(UNIT3.plus(LIGHT))],
        [with(Opt::Encode, 1), ops(ENCODE3)],
    ],
};

static SKY: ShaderCode = ShaderCode {
    name: "sky",
    // The gradient's factor (a multiply-add) times the sky's colour.
    steps: &[
        ops(a(1, 1).plus(a(3, 1))),
        with(Opt::Encode, 1),
        ops(ENCODE3),
    ],
};

static SSAO: ShaderCode = ShaderCode {
    name: "ssao",
    steps: &[
        ops(CENTRE),
        Sample,
        requested(1),
        Sample,
        // The centre's view distance and the pixel's turn of the spiral.
        ops(LINEAR_DEPTH.plus(a(1, 2))),
        each_tap(3),
        // The tap's angle and radius along the spiral (a sine and a
        // cosine), its position.
        ops(a(1, 1).plus(sp(2)).plus(a(2, 2))),
        Sample,
        // The tap's view distance, the gap, its two bounds, the count.
        ops(LINEAR_DEPTH.plus(a(1, 5))),
        ops(a(1, 1)),
    ],
};

static BLUR: ShaderCode = ShaderCode {
    name: "blur",
    steps: &[ops(CENTRE), each_tap(3), ops(a(2, 1)), Sample, ops(a(4, 1))],
};

static COPY: ShaderCode = ShaderCode {
    name: "copy",
    steps: &[ops(CENTRE), Sample],
};

static DOWNSAMPLE: ShaderCode = ShaderCode {
    name: "downsample",
    steps: &[ops(CENTRE), Sample],
};

static UPSAMPLE: ShaderCode = ShaderCode {
    name: "upsample",
    steps: &[ops(CENTRE), Sample],
};

static BRIGHT: ShaderCode = ShaderCode {
    name: "bright",
    // The threshold subtracted, clamped at 0.
    steps: &[ops(CENTRE), Sample, ops(a(3, 2))],
};

static LUMINANCE: ShaderCode = ShaderCode {
    name: "luminance",
    // Luma (a dot), one plus it, its logarithm (log2 and a scale).
    steps: &[ops(CENTRE), Sample, ops(a(3, 1).plus(a(1, 2)).plus(sp(1)))],
};

static DEPTH_OF_FIELD: ShaderCode = ShaderCode {
    name: "depth-of-field",
    steps: &[
        ops(CENTRE),
        Load,
        Sample,
        // The circle of confusion: the view distance past the focus,
        // scaled, clamped, times the largest.
        ops(LINEAR_DEPTH.plus(a(1, 3))),
        each_tap(3),
        ops(a(2, 1)),
        Sample,
        ops(a(4, 1)),
        ops(a(4, 1)),
    ],
};

static MOTION_BLUR: ShaderCode = ShaderCode {
    name: "motion-blur",
    steps: &[
        ops(CENTRE),
        Load,
        // The world position, last frame's clip position (a 4x4 matrix and
        // the divide), its screen position, the motion, its length and
        // the clamp to a tenth of the screen.
        ops(WORLD_FROM_DEPTH
            .plus(a(4, 4))
            .plus(sp(1))
            .plus(a(2, 2))
            .plus(a(2, 1))
            .plus(a(2, 1).plus(sp(1)))
            .plus(a(1, 3).plus(sp(1)))
            .plus(a(2, 1))),
        each_tap(3),
        ops(a(2, 1)),
        Sample,
        ops(a(4, 1)),
    ],
};

static FXAA: ShaderCode = ShaderCode {
    name: "fxaa",
    steps: &[
        Load,
        Load,
        Load,
        Load,
        Load,
        // Five lumas (dots), their largest and smallest, the range against
        // its threshold, the branch.
        ops(a(3, 5).plus(a(1, 8)).plus(a(1, 4)).plus(br(1))),
        requested(4),
        // The edge's direction (two second differences and their
        // compare), the axis, the two positions along it.
        ops(a(1, 7).plus(a(2, 3))),
        Sample,
        Sample,
        ops(a(4, 2)),
    ],
};

static DISPLAY: ShaderCode = ShaderCode {
    name: "display",
    steps: &[
        Load,
        requested(4),
        ops(CENTRE),
        Sample,
        ops(a(3, 1)),
        ops(REINHARD),
        // Clamped and gamma-encoded.
        ops(a(3, 2).plus(sp(3))),
    ],
};

static TONE_MAP: ShaderCode = ShaderCode {
    name: "tone-map",
    steps: &[
        Load,
        requested(3),
        ops(CENTRE),
        Sample,
        ops(a(3, 1)),
        requested(2),
        Load,
        // The exposure: the average from its log, the key over it.
        ops(sp(2).plus(a(1, 3))),
        ops(a(3, 1).plus(REINHARD).plus(a(3, 1)).plus(sp(3))),
    ],
};

// The mobile programs ([`crate::scene::Shading`]): gamma-space, as a
// GLES 2 game's are (texels used as stored, nothing encoded), and an
// alpha test where a material is cut out discards at once (`clip` in the
// fragment function), so a discarded pixel runs and requests nothing more.

/// The texture times the colour, then the alpha test where cut out.
const TEXTURED: [Step; 6] = [
    requested(2),
    Sample,
    ops(TINT),
    with(Opt::AlphaTest, 2),
    ops(ALPHA_TEST),
    Step::Discard,
];

static SPRITE: ShaderCode = ShaderCode {
    name: "sprite",
    // Unity's `Sprites-Default` (`SpriteFrag`: the texel times the vertex
    // colour) and `Mobile/Particles/Alpha Blended` (`texture * primary`);
    // Cocos2d-x's `v_fragmentColor * texture2D(...)`.
    steps: &TEXTURED,
};

static VERTEX_LIT: ShaderCode = ShaderCode {
    name: "vertex-lit",
    // Unity's `Mobile/VertexLit`: the texel times the light its vertices
    // got (`texture * primary`), interpolated.
    steps: &TEXTURED,
};

static PIXEL_LIT: ShaderCode = ShaderCode {
    name: "pixel-lit",
    // Unity's `Mobile/Diffuse` (Lambert, one directional light): the
    // interpolated normal normalized, N.L clamped, the shadow where the
    // pass has a map (the coordinates interpolated, as Unity's
    // `TRANSFER_SHADOW` computes them per vertex: a divide), the albedo
    // times ambient plus the light, plus the emission.
    steps: steps![
        TEXTURED,
        [ops(UNIT3), ops(a(3, 1).plus(a(1, 1)))],
        [
            with(Opt::Shadowed, 4),
            ops(a(2, 1).plus(sp(1))),
            requested(2),
            Sample,
            ops(SHADOW_CMP),
        ],
        [ops(a(3, 3).plus(a(1, 1)))],
    ],
};

impl Program {
    /// Its fragment code ([`ShaderCode`]).
    pub const fn code(self) -> &'static ShaderCode {
        match self {
            Program::ShadowDepth => &SHADOW_DEPTH,
            Program::ShadowMask => &SHADOW_MASK,
            Program::Reflection => &REFLECTION_PASS,
            Program::GBuffer => &GBUFFER,
            Program::Forward => &FORWARD,
            Program::ForwardLights => &FORWARD_LIGHTS,
            Program::Lighting => &LIGHTING,
            Program::Transparent => &TRANSPARENT,
            Program::Particles => &PARTICLES,
            Program::Bright => &BRIGHT,
            Program::Downsample => &DOWNSAMPLE,
            Program::Upsample => &UPSAMPLE,
            Program::Display => &DISPLAY,
            Program::Sky => &SKY,
            Program::Ssao => &SSAO,
            Program::Blur => &BLUR,
            Program::Copy => &COPY,
            Program::Luminance => &LUMINANCE,
            Program::DepthOfField => &DEPTH_OF_FIELD,
            Program::MotionBlur => &MOTION_BLUR,
            Program::ToneMap => &TONE_MAP,
            Program::Fxaa => &FXAA,
            Program::Ui => &UI,
            Program::Sprite => &SPRITE,
            Program::VertexLit => &VERTEX_LIT,
            Program::PixelLit => &PIXEL_LIT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Options;

    fn all() -> impl Iterator<Item = Program> {
        Program::CLASSIC.into_iter().chain(Program::EXTRA)
    }

    #[test]
    fn every_program_is_code_the_walk_can_follow_with_its_own_name() {
        let mut names = Vec::new();
        for p in all() {
            let c = p.code();
            assert_eq!(c.check(), Ok(()), "{p:?}");
            assert!(!names.contains(&c.name), "{} twice", c.name);
            names.push(c.name);
        }
    }

    #[test]
    fn the_requests_are_the_shaders_own() {
        // (program, taps, longest path's samples and loads, shortest's).
        type Row = (Program, u32, (u32, u32), (u32, u32));
        let rows: [Row; 10] = [
            (Program::GBuffer, 0, (2, 0), (0, 0)),
            (Program::Forward, 0, (3, 0), (0, 0)),
            (Program::Transparent, 0, (4, 1), (0, 0)),
            (Program::Particles, 0, (2, 1), (0, 0)),
            (Program::Lighting, 0, (2, 4), (0, 3)),
            (Program::Ssao, 8, (10, 0), (9, 0)),
            (Program::Blur, 5, (5, 0), (5, 0)),
            (Program::Fxaa, 0, (2, 5), (0, 5)),
            (Program::ToneMap, 0, (1, 2), (0, 1)),
            (Program::MotionBlur, 4, (4, 1), (4, 1)),
        ];
        for (p, taps, long, short) in rows {
            let variant = Options::NONE.with(Opt::Shadowed, true);
            let l = p.code().path(taps, variant, true);
            let s = p.code().path(taps, variant, false);
            assert_eq!((l.samples, l.loads), long, "{p:?} longest");
            assert_eq!((s.samples, s.loads), short, "{p:?} shortest");
        }
    }

    #[test]
    fn the_mobile_programs_are_the_engines_few_operations() {
        // A sprite: one sample, one vec4 multiply; cut out, the test too.
        let sprite = Program::Sprite.code().path(0, Options::NONE, true);
        assert_eq!((sprite.samples, sprite.ops), (1, TINT));
        let cut = Options::NONE.with(Opt::AlphaTest, true);
        assert_eq!(
            Program::Sprite.code().path(0, cut, true).ops,
            TINT + ALPHA_TEST
        );
        // One light a pixel: 4 to 15 operations with 0 to 2 special
        // functions, the class Unity's mobile shaders are in.
        let lit = Program::PixelLit.code().path(0, Options::NONE, true);
        assert_eq!(lit.samples, 1);
        assert!((4..=15).contains(&lit.ops.instructions()), "{lit:?}");
        assert!(lit.ops.special <= 2, "{lit:?}");
    }

    #[test]
    fn options_add_their_blocks_only() {
        let f = Program::Forward.code();
        let plain = f.path(0, Options::NONE, true);
        let shadowed = f.path(0, Options::NONE.with(Opt::Shadowed, true), true);
        assert_eq!(shadowed.samples, plain.samples + 1);
        assert_eq!(
            shadowed.ops,
            plain.ops + SHADOW_COORD + SHADOW_CMP,
            "a shadow map adds its lookup"
        );
        let encoded = f.path(0, Options::NONE.with(Opt::Encode, true), true);
        assert_eq!(encoded.ops, plain.ops + ENCODE3);
        // Only the depth-only shadow program runs nothing.
        for p in all() {
            let o = Options::NONE.with(Opt::Shadowed, true);
            let none = p.code().path(4, o, true).ops.is_none();
            assert_eq!(none, p == Program::ShadowDepth, "{p:?}");
        }
    }
}
