//! Frame graphs: the structure of a frame as data. A [`FrameGraph`] is a
//! list of render targets ([`TargetDesc`]: format, size relative to the
//! screen or fixed) and a list of passes ([`PassDesc`]) in submission
//! order, each with the targets it draws into, the earlier targets it
//! samples (each in a [`Role`]), and what it draws ([`Op`]: scene geometry
//! of a material class from a viewpoint, a full-screen effect, particles,
//! UI quads).
//!
//! The ops are the renderer's shader library; the graph says which run,
//! in which order, on which targets. [`Preset`]s are the built-in graphs,
//! modelled on the public structure of real engines of each era and class
//! (`presets.rs`); a scene names the preset of the game class it stands
//! for, or a scene file gives its own passes. [`FrameGraph::check`] holds a
//! graph to what the frame renderer ([`crate::frame`]) can run.

mod check;
mod presets;

pub(crate) use check::required;
pub use check::{switch_off, GraphError, GraphPlace};
pub use presets::PresetParams;

use gfxcache_trace::PassKind;

use crate::target::{ColorFormat, DepthFormat};

/// A frame's targets and passes.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameGraph {
    pub targets: Vec<TargetDesc>,
    pub passes: Vec<PassDesc>,
}

/// A render target of the frame, allocated once when the renderer is made
/// (every frame uses the same addresses, as a game's targets do).
#[derive(Clone, Debug, PartialEq)]
pub struct TargetDesc {
    pub name: String,
    pub format: TargetFormat,
    pub size: TargetSize,
}

/// What a target holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetFormat {
    Color(ColorFormat),
    Depth(DepthFormat),
    /// The displayable RGBA8 surface (`display` stream). A graph has
    /// exactly one; it is the picture.
    Display,
}

/// How big a target is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TargetSize {
    /// `scale` of the screen per side (rounded, at least 1 pixel).
    Screen {
        scale: f32,
    },
    /// The screen halved `levels` times per side (at least 1 pixel): mip
    /// chains such as bloom levels.
    Halved {
        levels: u32,
    },
    /// A square whose side is `side_at_1080p` at a 1080-line screen and
    /// follows the screen height elsewhere (shadow maps: engines size them
    /// by their resolution setting).
    Square {
        side_at_1080p: u32,
    },
    Fixed {
        width: u32,
        height: u32,
    },
}

impl TargetSize {
    /// The size on a `width` x `height` screen.
    pub fn resolve(self, width: u32, height: u32) -> (u32, u32) {
        let scaled = |v: u32, k: f32| ((v as f32 * k).round() as u32).max(1);
        match self {
            TargetSize::Screen { scale } => (scaled(width, scale), scaled(height, scale)),
            TargetSize::Halved { levels } => {
                let (mut w, mut h) = (width, height);
                for _ in 0..levels {
                    w = (w / 2).max(1);
                    h = (h / 2).max(1);
                }
                (w, h)
            }
            TargetSize::Square { side_at_1080p } => {
                let s = (u64::from(side_at_1080p) * u64::from(height) + 540) / 1080;
                let s = s.clamp(1, u64::from(crate::frame::MAX_SIZE)) as u32;
                (s, s)
            }
            TargetSize::Fixed { width, height } => (width, height),
        }
    }
}

/// One pass: its marker name and kind, what it draws, into what, reading
/// what.
#[derive(Clone, Debug, PartialEq)]
pub struct PassDesc {
    pub name: String,
    pub kind: PassKind,
    pub op: Op,
    /// Colour targets drawn into, in the op's order (see [`Op`]).
    pub color: Vec<String>,
    /// The depth(-stencil) target tested or written.
    pub depth: Option<String>,
    /// Earlier targets sampled, each in a role the op knows.
    pub reads: Vec<(Role, String)>,
}

/// Why a pass samples a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The image a filter works on (blur, copy, tone map, FXAA, DOF...).
    Source,
    /// A shadow map (several for cascades, nearest first).
    Shadow,
    /// The mirror reflection.
    Reflection,
    /// G-buffer albedo, normal, emissive.
    Albedo,
    Normal,
    Emissive,
    /// Scene depth sampled as a texture.
    Depth,
    /// Ambient occlusion (one channel).
    Ao,
    /// A copy of the scene colour that refractive surfaces sample.
    Refraction,
    /// The top bloom level, added before tone mapping.
    Bloom,
    /// The 1x1 average luminance, for exposure.
    Luminance,
}

impl Role {
    pub const ALL: [Role; 11] = [
        Role::Source,
        Role::Shadow,
        Role::Reflection,
        Role::Albedo,
        Role::Normal,
        Role::Emissive,
        Role::Depth,
        Role::Ao,
        Role::Refraction,
        Role::Bloom,
        Role::Luminance,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Role::Source => "source",
            Role::Shadow => "shadow",
            Role::Reflection => "reflection",
            Role::Albedo => "albedo",
            Role::Normal => "normal",
            Role::Emissive => "emissive",
            Role::Depth => "depth",
            Role::Ao => "ao",
            Role::Refraction => "refraction",
            Role::Bloom => "bloom",
            Role::Luminance => "luminance",
        }
    }
}

/// Which direction a separable blur runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// What a pass draws: the frame renderer's shader library.
///
/// Colour outputs are listed in [`PassDesc::color`] in the order given
/// here; reads are by [`Role`]. Scene passes draw the scene's instances of
/// a material class; full-screen ops draw one triangle covering their
/// first colour target per step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// Depth only, from the sun: cascade `cascade` of `cascades` (the
    /// camera's depth range split for each; one cascade covers the whole
    /// scene). Opaque and masked instances. Writes `depth`.
    Shadow { cascade: u32, cascades: u32 },
    /// The opaque scene mirrored about the scene's mirror plane, lit
    /// without shadows, into `color[0]` and `depth`. Skipped without a
    /// mirror.
    Reflection,
    /// Opaque and masked instances into the G-buffer: `color` = albedo,
    /// normal[, emissive] (two targets make a thin G-buffer); `depth`
    /// with stencil 1 on geometry. Reads: `reflection`.
    GBuffer,
    /// Opaque and masked instances lit directly into `color[0]` (cleared
    /// to the sky) with `depth`, by the sun and `lights` more lights; with
    /// `blended`, then the blended instances and the particles back to
    /// front in the same pass (one render pass tile by tile); with `ui`,
    /// then the frame's interface, as [`Op::Ui`] with that many quads
    /// draws it, in the same pass too: a mobile game's UI drawn into the
    /// framebuffer it renders to, which an OpenGL ES driver keeps in the
    /// same render pass. Reads: `shadow`*, `reflection`.
    Forward {
        lights: u32,
        blended: bool,
        ui: Option<u32>,
    },
    /// Full screen, where the stencil marks geometry: the G-buffer lit
    /// into `color[0]` (cleared to the sky first when `clear`); then, in
    /// the same pass, as [`Op::Forward`] draws them: with `blended` the
    /// blended instances and the particles, with `ui` the interface (a
    /// mobile deferred frame's light pass, which an OpenGL ES driver keeps
    /// in one render pass with what follows into the same framebuffer).
    /// Reads: `albedo`, `normal`, `emissive`?, `depth`, `shadow`*, `ao`?.
    Lighting {
        clear: bool,
        blended: bool,
        ui: Option<u32>,
    },
    /// Full screen where the stencil marks no geometry: the sky gradient
    /// into `color[0]`.
    Sky,
    /// Screen-space ambient occlusion into `color[0]` from `depth` and
    /// `normal`, `taps` depth samples a pixel.
    Ssao { taps: u32 },
    /// A separable Gaussian blur of `source` along `axis`, `taps` bilinear
    /// samples a pixel.
    Blur { axis: Axis, taps: u32 },
    /// `source` resampled into `color[0]` (a refraction copy, a resolve).
    Copy,
    /// Blended instances (not particles) back to front into `color[0]`,
    /// depth-tested against `depth` without writes. Reads: `shadow`*,
    /// `refraction`?.
    Transparent,
    /// Particle instances back to front, blended; with `depth` read as a
    /// texture they fade where they meet the scene (soft particles).
    Particles,
    /// The luminance chain: log luminance of `source` into `color[0]`,
    /// then each next target a bilinear downsample of the one before
    /// (down to 1x1 in the presets). One draw a target.
    Luminance,
    /// The bloom chain: a bright pass of `source` into `color[0]`,
    /// downsamples through the rest, then additive upsampling back to
    /// `color[0]`.
    Bloom,
    /// Depth of field: `source` blurred by each pixel's circle of
    /// confusion from `depth`, `taps` samples a pixel, into `color[0]`.
    DepthOfField { taps: u32 },
    /// Camera motion blur: `source` sampled `taps` times along each
    /// pixel's screen motion since the last frame (from `depth`).
    MotionBlur { taps: u32 },
    /// Tone mapping (Reinhard, exposed by `luminance`? , plus `bloom`?)
    /// and gamma of `source` into `color[0]`.
    ToneMap,
    /// FXAA of `source` (luma edges, a few taps) into `color[0]`.
    Fxaa,
    /// The frame's interface alpha-blended onto `color[0]`: the scene's
    /// own ([`crate::scene::Material::interface`] instances), else `quads`
    /// textured quads from the UI atlas (a HUD: bars, icons, text strips,
    /// a minimap).
    Ui { quads: u32 },
    /// The classic display write: tone-map (with `bloom`) or clamp
    /// `source` into `color[0]` (the display surface).
    Display { tone_map: bool },
}

impl Op {
    /// The quads of the HUD the op draws when the scene has no interface
    /// of its own.
    pub const fn hud_quads(&self) -> Option<u32> {
        match *self {
            Op::Ui { quads } => Some(quads),
            Op::Forward { ui, .. } | Op::Lighting { ui, .. } => ui,
            _ => None,
        }
    }

    /// The name scene files use.
    pub const fn name(&self) -> &'static str {
        match self {
            Op::Shadow { .. } => "shadow",
            Op::Reflection => "reflection",
            Op::GBuffer => "gbuffer",
            Op::Forward { .. } => "forward",
            Op::Lighting { .. } => "lighting",
            Op::Sky => "sky",
            Op::Ssao { .. } => "ssao",
            Op::Blur { .. } => "blur",
            Op::Copy => "copy",
            Op::Transparent => "transparent",
            Op::Particles => "particles",
            Op::Luminance => "luminance",
            Op::Bloom => "bloom",
            Op::DepthOfField { .. } => "dof",
            Op::MotionBlur { .. } => "motion-blur",
            Op::ToneMap => "tonemap",
            Op::Fxaa => "fxaa",
            Op::Ui { .. } => "ui",
            Op::Display { .. } => "display",
        }
    }

    /// Whether the op draws scene geometry (as opposed to full-screen or
    /// screen-space quads).
    pub const fn draws_scene(&self) -> bool {
        matches!(
            self,
            Op::Shadow { .. }
                | Op::Reflection
                | Op::GBuffer
                | Op::Forward { .. }
                | Op::Transparent
                | Op::Particles
        )
    }
}

impl FrameGraph {
    /// The target called `name`.
    pub fn target(&self, name: &str) -> Option<(usize, &TargetDesc)> {
        self.targets
            .iter()
            .enumerate()
            .find(|(_, t)| t.name == name)
    }
}

use std::fmt;
use std::str::FromStr;

/// A built-in frame structure.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// The renderer's original frame: shadow map, reflection, G-buffer and
    /// deferred lighting (or one forward pass), transparent, bloom, display.
    /// Its passes are switched by [`crate::scene::Passes`].
    #[default]
    Classic,
    /// A DirectX 10/11 deferred engine: shadow cascades, G-buffer, SSAO with
    /// separable blurs, deferred lighting, sky, transparent and soft
    /// particles, a refraction copy, the luminance chain, bloom, depth of
    /// field, tone mapping, FXAA, UI.
    Dx11Deferred,
    /// A DirectX 9-era forward engine: one shadow map, forward lighting,
    /// a reflection render-to-texture, bloom, tone mapping, UI.
    Dx9Forward,
    /// A mobile game's frame: one forward pass (optionally a small shadow
    /// map) and UI.
    MobileForward,
    /// A mobile deferred-lite frame: a thin G-buffer and one light pass at
    /// mobile sizes, then UI.
    MobileDeferredLite,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Classic,
        Preset::Dx11Deferred,
        Preset::Dx9Forward,
        Preset::MobileForward,
        Preset::MobileDeferredLite,
    ];

    /// The name scene files and the command line use.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Dx11Deferred => "dx11-deferred",
            Preset::Dx9Forward => "dx9-forward",
            Preset::MobileForward => "mobile-forward",
            Preset::MobileDeferredLite => "mobile-deferred-lite",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                format!("unknown frame preset {s:?} (known: {})", known.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
        }
        let e = "dx12".parse::<Preset>().unwrap_err();
        assert!(e.contains("dx12") && e.contains("mobile-forward"), "{e}");
    }
}
