//! The built-in frame graphs. Each follows the public structure of a class
//! of engines (talks and frame analyses of shipped games); the sizes and tap
//! counts below are common settings of that class, stated where they are
//! chosen, never fitted to a paper's result. Every one is a knob: a scene
//! file can give its own passes.

use gfxcache_trace::PassKind;

use super::{Axis, FrameGraph, Op, PassDesc, Preset, Role, TargetDesc, TargetFormat, TargetSize};
use crate::scene::Passes;
use crate::target::{ColorFormat, DepthFormat};

/// The knobs a preset takes from the frame configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresetParams {
    /// Side of every shadow map in pixels; `None`: the preset's own,
    /// which follows the screen height.
    pub shadow_size: Option<u32>,
    /// Reflection target size relative to the screen.
    pub reflection_scale: f32,
    /// Bloom levels below full resolution (0: no bloom chain).
    pub bloom_levels: u32,
    /// Which classes of pass run (the classic preset's switches; the other
    /// presets drop the passes a switch turns off, see [`Preset::graph`]).
    pub passes: Passes,
}

/// Builds a graph target by target and pass by pass.
struct Builder {
    g: FrameGraph,
    shadow_size: Option<u32>,
}

impl Builder {
    fn new(shadow_size: Option<u32>) -> Builder {
        Builder {
            g: FrameGraph {
                targets: Vec::new(),
                passes: Vec::new(),
            },
            shadow_size,
        }
    }

    fn target(&mut self, name: &str, format: TargetFormat, size: TargetSize) -> String {
        self.g.targets.push(TargetDesc {
            name: name.to_string(),
            format,
            size,
        });
        name.to_string()
    }

    fn color(&mut self, name: &str, format: ColorFormat, scale: f32) -> String {
        self.target(
            name,
            TargetFormat::Color(format),
            TargetSize::Screen { scale },
        )
    }

    fn depth(&mut self, name: &str, format: DepthFormat, scale: f32) -> String {
        self.target(
            name,
            TargetFormat::Depth(format),
            TargetSize::Screen { scale },
        )
    }

    /// A square D32F shadow map, `side_at_1080p` unless the configuration
    /// fixes the side.
    fn shadow_map(&mut self, name: &str, side_at_1080p: u32) -> String {
        let size = match self.shadow_size {
            Some(s) => TargetSize::Fixed {
                width: s,
                height: s,
            },
            None => TargetSize::Square { side_at_1080p },
        };
        self.target(name, TargetFormat::Depth(DepthFormat::D32F), size)
    }

    /// Targets halving the screen from `first` levels down to 1x1 (at
    /// most `max` of them).
    fn chain(&mut self, prefix: &str, format: ColorFormat, first: u32, max: u32) -> Vec<String> {
        (0..max)
            .map(|k| {
                let levels = first + k;
                self.target(
                    &format!("{prefix}{k}"),
                    TargetFormat::Color(format),
                    TargetSize::Halved { levels },
                )
            })
            .collect()
    }

    /// The one display target, the screen's size.
    fn display(&mut self) -> String {
        self.target(
            "display",
            TargetFormat::Display,
            TargetSize::Screen { scale: 1.0 },
        )
    }

    /// One shadow pass, the whole scene from the sun, into `map`.
    fn sun_shadow(&mut self, map: &String) {
        let whole = Op::Shadow {
            cascade: 0,
            cascades: 1,
        };
        self.pass("shadow", PassKind::Shadow, whole, &[], Some(map), &[]);
    }

    /// The HUD of `quads` quads, blended onto the display.
    fn ui(&mut self, display: &String, quads: u32) {
        self.pass(
            "ui",
            PassKind::Display,
            Op::Ui { quads },
            &[display],
            None,
            &[],
        );
    }

    /// The transparent pass and then the particles pass into `color` over
    /// `depth`, each with its reads.
    fn blended(
        &mut self,
        color: &String,
        depth: &String,
        transparent: &[(Role, &String)],
        particles: &[(Role, &String)],
    ) {
        let kind = PassKind::Transparent;
        self.pass(
            "transparent",
            kind,
            Op::Transparent,
            &[color],
            Some(depth),
            transparent,
        );
        self.pass(
            "particles",
            kind,
            Op::Particles,
            &[color],
            Some(depth),
            particles,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn pass(
        &mut self,
        name: &str,
        kind: PassKind,
        op: Op,
        color: &[&String],
        depth: Option<&String>,
        reads: &[(Role, &String)],
    ) {
        self.g.passes.push(PassDesc {
            name: name.to_string(),
            kind,
            op,
            color: color.iter().map(|s| s.to_string()).collect(),
            depth: depth.cloned(),
            reads: reads.iter().map(|(r, s)| (*r, s.to_string())).collect(),
        });
    }
}

/// Levels that halve a 1080-line screen down to one pixel (11), enough for
/// every screen up to 2048 lines when the last one is clamped to 1x1.
const LUMINANCE_LEVELS: u32 = 11;

impl Preset {
    /// The preset's graph with `p`'s knobs. The classic preset keeps its
    /// targets whatever passes are switched off (the original renderer
    /// allocated them all); the others drop what a switch turns off: shadow
    /// maps, the reflection, transparent and particle passes, and with
    /// `post` off the post-processing chain (SSAO, luminance, bloom, depth
    /// of field, FXAA), their readers reading their sources instead.
    pub fn graph(self, p: &PresetParams) -> FrameGraph {
        let g = match self {
            Preset::Classic => return classic(p),
            Preset::Dx11Deferred => dx11_deferred(p),
            Preset::Dx9Forward => dx9_forward(p),
            Preset::MobileForward => mobile_forward(p),
            Preset::MobileDeferredLite => mobile_deferred_lite(p),
        };
        super::switch_off(g, &p.passes)
    }
}

/// The original renderer's frame, target for target and pass for pass.
fn classic(p: &PresetParams) -> FrameGraph {
    let s = p.passes;
    let mut b = Builder::new(p.shadow_size);
    let shadow = b.shadow_map("shadow", 2048);
    let refl = b.color("reflection", ColorFormat::Rgba16F, p.reflection_scale);
    let refl_depth = b.depth("reflection-depth", DepthFormat::D32F, p.reflection_scale);
    let albedo = b.color("albedo", ColorFormat::Rgba8, 1.0);
    let normal = b.color("normal", ColorFormat::Rgba16F, 1.0);
    let emissive = b.color("emissive", ColorFormat::Rgba16F, 1.0);
    let depth = b.depth("depth", DepthFormat::D24S8, 1.0);
    let hdr = b.color("hdr", ColorFormat::Rgba16F, 1.0);
    let bloom = b.chain("bloom", ColorFormat::Rgba16F, 1, p.bloom_levels);
    let display = b.display();
    let mut lit: Vec<(Role, &String)> = Vec::new();
    if s.shadow {
        b.sun_shadow(&shadow);
        lit.push((Role::Shadow, &shadow));
    }
    let mut mirrored: Vec<(Role, &String)> = Vec::new();
    if s.reflection {
        b.pass(
            "reflection",
            PassKind::RenderToTexture,
            Op::Reflection,
            &[&refl],
            Some(&refl_depth),
            &[],
        );
        mirrored.push((Role::Reflection, &refl));
    }
    if s.deferred {
        b.pass(
            "gbuffer",
            PassKind::GBuffer,
            Op::GBuffer,
            &[&albedo, &normal, &emissive],
            Some(&depth),
            &mirrored,
        );
        let mut reads = vec![
            (Role::Albedo, &albedo),
            (Role::Normal, &normal),
            (Role::Emissive, &emissive),
            (Role::Depth, &depth),
        ];
        reads.extend(lit.iter().copied());
        b.pass(
            "lighting",
            PassKind::Lighting,
            Op::Lighting {
                clear: true,
                blended: false,
                ui: None,
            },
            &[&hdr],
            Some(&depth),
            &reads,
        );
    } else {
        let reads: Vec<_> = lit.iter().chain(&mirrored).copied().collect();
        b.pass(
            "forward",
            PassKind::Forward,
            Op::Forward {
                lights: 0,
                blended: false,
                ui: None,
            },
            &[&hdr],
            Some(&depth),
            &reads,
        );
    }
    if s.transparent {
        b.pass(
            "transparent",
            PassKind::Transparent,
            Op::Transparent,
            &[&hdr],
            Some(&depth),
            &lit,
        );
    }
    let tone_map = s.post && !bloom.is_empty();
    if tone_map {
        let levels: Vec<&String> = bloom.iter().collect();
        b.pass(
            "post",
            PassKind::Post,
            Op::Bloom,
            &levels,
            None,
            &[(Role::Source, &hdr)],
        );
    }
    let mut reads = vec![(Role::Source, &hdr)];
    if tone_map {
        reads.push((Role::Bloom, &bloom[0]));
    }
    b.pass(
        "display",
        PassKind::Display,
        Op::Display { tone_map },
        &[&display],
        None,
        &reads,
    );
    b.g
}

/// A DirectX 10/11 deferred engine's frame, in the order such engines
/// submit it (frame analyses of Battlefield 3, Crysis 2/3 and Unreal
/// Engine 3/4 titles share it): four shadow cascades (1024² each at
/// 1080p, the common "high" setting), a three-target G-buffer, SSAO at
/// half resolution (8 taps) with a horizontal and a vertical blur,
/// deferred lighting, the sky, a half-resolution refraction copy of the
/// scene colour, transparent geometry, soft particles, the luminance chain
/// to 1x1, a five-level bloom chain, depth of field (8 taps), tone mapping
/// into an RGBA8 target, FXAA into the display, and a HUD of 48 quads.
fn dx11_deferred(p: &PresetParams) -> FrameGraph {
    let mut b = Builder::new(p.shadow_size);
    let cascades: Vec<String> = (0..4)
        .map(|k| b.shadow_map(&format!("cascade{k}"), 1024))
        .collect();
    let albedo = b.color("albedo", ColorFormat::Rgba8, 1.0);
    let normal = b.color("normal", ColorFormat::Rgba16F, 1.0);
    let emissive = b.color("emissive", ColorFormat::Rgba16F, 1.0);
    let depth = b.depth("depth", DepthFormat::D24S8, 1.0);
    let ao = b.color("ao", ColorFormat::R8, 0.5);
    let ao_blur = b.color("ao-blur", ColorFormat::R8, 0.5);
    let hdr = b.color("hdr", ColorFormat::Rgba16F, 1.0);
    let refr = b.color("refraction", ColorFormat::Rgba16F, 0.5);
    let lum = b.chain("luminance", ColorFormat::R16F, 2, LUMINANCE_LEVELS);
    let bloom = b.chain("bloom", ColorFormat::Rgba16F, 1, p.bloom_levels);
    let dof = b.color("dof", ColorFormat::Rgba16F, 1.0);
    let ldr = b.color("ldr", ColorFormat::Rgba8, 1.0);
    let display = b.display();
    let n = cascades.len() as u32;
    for (k, c) in cascades.iter().enumerate() {
        let op = Op::Shadow {
            cascade: k as u32,
            cascades: n,
        };
        b.pass(
            &format!("shadow{k}"),
            PassKind::Shadow,
            op,
            &[],
            Some(c),
            &[],
        );
    }
    b.pass(
        "gbuffer",
        PassKind::GBuffer,
        Op::GBuffer,
        &[&albedo, &normal, &emissive],
        Some(&depth),
        &[],
    );
    b.pass(
        "ssao",
        PassKind::Post,
        Op::Ssao { taps: 8 },
        &[&ao],
        None,
        &[(Role::Depth, &depth), (Role::Normal, &normal)],
    );
    let blur = |axis| Op::Blur { axis, taps: 5 };
    b.pass(
        "ssao-blur-x",
        PassKind::Post,
        blur(Axis::X),
        &[&ao_blur],
        None,
        &[(Role::Source, &ao)],
    );
    b.pass(
        "ssao-blur-y",
        PassKind::Post,
        blur(Axis::Y),
        &[&ao],
        None,
        &[(Role::Source, &ao_blur)],
    );
    let mut reads = vec![
        (Role::Albedo, &albedo),
        (Role::Normal, &normal),
        (Role::Emissive, &emissive),
        (Role::Depth, &depth),
        (Role::Ao, &ao),
    ];
    reads.extend(cascades.iter().map(|c| (Role::Shadow, c)));
    b.pass(
        "lighting",
        PassKind::Lighting,
        Op::Lighting {
            clear: false,
            blended: false,
            ui: None,
        },
        &[&hdr],
        Some(&depth),
        &reads,
    );
    b.pass(
        "sky",
        PassKind::Lighting,
        Op::Sky,
        &[&hdr],
        Some(&depth),
        &[],
    );
    b.pass(
        "refraction-copy",
        PassKind::RenderToTexture,
        Op::Copy,
        &[&refr],
        None,
        &[(Role::Source, &hdr)],
    );
    let mut reads: Vec<(Role, &String)> = cascades.iter().map(|c| (Role::Shadow, c)).collect();
    reads.push((Role::Refraction, &refr));
    b.blended(&hdr, &depth, &reads, &[(Role::Depth, &depth)]);
    let lum_refs: Vec<&String> = lum.iter().collect();
    b.pass(
        "luminance",
        PassKind::Post,
        Op::Luminance,
        &lum_refs,
        None,
        &[(Role::Source, &hdr)],
    );
    if !bloom.is_empty() {
        let levels: Vec<&String> = bloom.iter().collect();
        b.pass(
            "bloom",
            PassKind::Post,
            Op::Bloom,
            &levels,
            None,
            &[(Role::Source, &hdr)],
        );
    }
    b.pass(
        "dof",
        PassKind::Post,
        Op::DepthOfField { taps: 8 },
        &[&dof],
        None,
        &[(Role::Source, &hdr), (Role::Depth, &depth)],
    );
    let mut reads = vec![
        (Role::Source, &dof),
        (Role::Luminance, lum.last().expect("luminance levels")),
    ];
    if let Some(b0) = bloom.first() {
        reads.push((Role::Bloom, b0));
    }
    b.pass(
        "tonemap",
        PassKind::Post,
        Op::ToneMap,
        &[&ldr],
        None,
        &reads,
    );
    b.pass(
        "fxaa",
        PassKind::Display,
        Op::Fxaa,
        &[&display],
        None,
        &[(Role::Source, &ldr)],
    );
    b.ui(&display, 48);
    b.g
}

/// A DirectX 9-era forward engine (Source, Unreal Engine 2.5/3 forward
/// titles): one 2048² shadow map at 1080p, a half-resolution reflection
/// render-to-texture, forward lighting with the sun and four more lights
/// per object, transparent geometry, a four-level bloom chain, tone
/// mapping straight into the display, and a HUD of 32 quads.
fn dx9_forward(p: &PresetParams) -> FrameGraph {
    let mut b = Builder::new(p.shadow_size);
    let shadow = b.shadow_map("shadow", 2048);
    let refl = b.color("reflection", ColorFormat::Rgba8, p.reflection_scale);
    let refl_depth = b.depth("reflection-depth", DepthFormat::D24S8, p.reflection_scale);
    let hdr = b.color("hdr", ColorFormat::Rgba16F, 1.0);
    let depth = b.depth("depth", DepthFormat::D24S8, 1.0);
    let bloom = b.chain("bloom", ColorFormat::Rgba8, 1, p.bloom_levels.min(4));
    let display = b.display();
    b.sun_shadow(&shadow);
    b.pass(
        "reflection",
        PassKind::RenderToTexture,
        Op::Reflection,
        &[&refl],
        Some(&refl_depth),
        &[],
    );
    b.pass(
        "forward",
        PassKind::Forward,
        Op::Forward {
            lights: 4,
            blended: false,
            ui: None,
        },
        &[&hdr],
        Some(&depth),
        &[(Role::Shadow, &shadow), (Role::Reflection, &refl)],
    );
    b.blended(&hdr, &depth, &[(Role::Shadow, &shadow)], &[]);
    let mut reads = vec![(Role::Source, &hdr)];
    if !bloom.is_empty() {
        let levels: Vec<&String> = bloom.iter().collect();
        b.pass(
            "bloom",
            PassKind::Post,
            Op::Bloom,
            &levels,
            None,
            &[(Role::Source, &hdr)],
        );
        reads.push((Role::Bloom, &bloom[0]));
    }
    b.pass(
        "tonemap",
        PassKind::Display,
        Op::ToneMap,
        &[&display],
        None,
        &reads,
    );
    b.ui(&display, 32);
    b.g
}

/// A mobile game's frame (Unity and Unreal mobile forward renderers, the
/// engines of the papers' Android games): a 512² shadow map at 1080 lines
/// when the scene asks for shadows, one forward pass straight into the
/// display (no HDR target, no resolve: what a tile-based GPU is built
/// for) that draws the opaque instances, then the transparent sprites and
/// particles, then the interface (the scene's own, else a HUD of 24
/// quads): one render pass, as an OpenGL ES driver makes of the draws
/// into one framebuffer, so the display never goes to memory and back.
fn mobile_forward(p: &PresetParams) -> FrameGraph {
    let mut b = Builder::new(p.shadow_size);
    let shadow = b.shadow_map("shadow", 512);
    let depth = b.depth("depth", DepthFormat::D24S8, 1.0);
    let display = b.display();
    b.sun_shadow(&shadow);
    b.pass(
        "forward",
        PassKind::Forward,
        Op::Forward {
            lights: 0,
            blended: true,
            ui: Some(24),
        },
        &[&display],
        Some(&depth),
        &[(Role::Shadow, &shadow)],
    );
    b.g
}

/// A mobile deferred-lite frame (Unreal Engine 4's mobile deferred path,
/// Unity URP's deferred on mobile): the 512² shadow map, a thin G-buffer
/// of two RGBA8 targets (albedo, packed normal) and depth, then one light
/// pass into the display that also draws the transparent sprites, the
/// particles and the interface (the scene's own, else a HUD of 24 quads):
/// one render pass, as an OpenGL ES driver makes of the draws into one
/// framebuffer. Without subpass merging the G-buffer goes to memory
/// between the two passes.
fn mobile_deferred_lite(p: &PresetParams) -> FrameGraph {
    let mut b = Builder::new(p.shadow_size);
    let shadow = b.shadow_map("shadow", 512);
    let albedo = b.color("albedo", ColorFormat::Rgba8, 1.0);
    let normal = b.color("normal", ColorFormat::Rgba8, 1.0);
    let depth = b.depth("depth", DepthFormat::D24S8, 1.0);
    let display = b.display();
    b.sun_shadow(&shadow);
    b.pass(
        "gbuffer",
        PassKind::GBuffer,
        Op::GBuffer,
        &[&albedo, &normal],
        Some(&depth),
        &[],
    );
    b.pass(
        "lighting",
        PassKind::Lighting,
        Op::Lighting {
            clear: true,
            blended: true,
            ui: Some(24),
        },
        &[&display],
        Some(&depth),
        &[
            (Role::Albedo, &albedo),
            (Role::Normal, &normal),
            (Role::Depth, &depth),
            (Role::Shadow, &shadow),
        ],
    );
    b.g
}
