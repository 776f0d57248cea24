//! The frame of a scene TOML file: a built-in preset by name, or a frame
//! graph of its own (`[[target]]` and `[[pass]]` tables, see
//! [`crate::graph`] for the ops and roles):
//!
//! ```toml
//! preset = "mobile-forward"     # classic, dx11-deferred, dx9-forward,
//!                               # mobile-forward, mobile-deferred-lite
//! # ... or a frame of your own (then no preset):
//! [[target]]
//! name = "depth"
//! format = "d24s8"      # rgba8, rgba16f, r8, r16f, d32f, d24s8, display
//! size = 1.0            # of the screen per side (default 1); or [w, h];
//!                       # or `halved = n` or `square = side_at_1080_lines`
//! [[target]]
//! name = "screen"
//! format = "display"    # exactly one: the picture
//!
//! [[pass]]
//! name = "main"
//! op = "forward"        # shadow, reflection, gbuffer, forward, lighting,
//!                       # sky, ssao, blur, copy, transparent, particles,
//!                       # luminance, bloom, dof, motion-blur, tonemap,
//!                       # fxaa, ui, display
//! kind = "forward"      # the pass marker's kind (default: the op's)
//! color = ["screen"]
//! depth = "depth"
//! reads = { shadow = ["sun"] }   # role = target or [targets]
//! # op parameters (defaults in brackets): cascade [0], cascades [1],
//! # lights [0], blended [false], clear [true], taps [8], axis ["x"], quads [24],
//! # tone_map [true]; a forward or lighting pass's `ui = quads` draws the
//! # interface last in the same pass (default: none), and a lighting pass's
//! # `blended = true` the blended instances and particles before it
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::graph::{
    Axis, FrameGraph, GraphPlace, Op, PassDesc, Preset, Role, TargetDesc, TargetFormat, TargetSize,
};
use crate::target::{ColorFormat, DepthFormat};
use gfxcache_trace::PassKind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TargetTable {
    name: String,
    format: String,
    size: Option<SizeValue>,
    halved: Option<u32>,
    square: Option<u32>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SizeValue {
    Scale(f32),
    Fixed([u32; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PassTable {
    name: String,
    op: String,
    kind: Option<String>,
    #[serde(default)]
    color: Vec<String>,
    depth: Option<String>,
    #[serde(default)]
    reads: BTreeMap<String, OneOrMany>,
    cascade: Option<u32>,
    cascades: Option<u32>,
    lights: Option<u32>,
    blended: Option<bool>,
    clear: Option<bool>,
    taps: Option<u32>,
    axis: Option<String>,
    quads: Option<u32>,
    ui: Option<u32>,
    tone_map: Option<bool>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// A frame error at a line of the file.
pub(super) struct AtLine {
    pub line: usize,
    pub msg: String,
}

/// The scene's preset, from its name at `line`.
pub(super) fn preset(name: &str, line: usize) -> Result<Preset, AtLine> {
    name.parse().map_err(|msg| AtLine { line, msg })
}

/// The frame graph of `[[target]]` and `[[pass]]` tables (with the line of
/// each), checked; errors at the line of the table concerned.
pub(super) fn graph(
    targets: &[(usize, &TargetTable)],
    passes: &[(usize, &PassTable)],
) -> Result<FrameGraph, AtLine> {
    let mut g = FrameGraph {
        targets: Vec::new(),
        passes: Vec::new(),
    };
    for &(line, t) in targets {
        g.targets
            .push(target(t).map_err(|msg| AtLine { line, msg })?);
    }
    for &(line, p) in passes {
        g.passes.push(pass(p).map_err(|msg| AtLine { line, msg })?);
    }
    g.check().map_err(|e| {
        let line = match e.place {
            GraphPlace::Target(i) => targets[i].0,
            GraphPlace::Pass(i) => passes[i].0,
            GraphPlace::Graph => targets
                .first()
                .map(|x| x.0)
                .or(passes.first().map(|x| x.0))
                .unwrap_or(1),
        };
        AtLine {
            line,
            msg: format!("frame graph: {e}"),
        }
    })?;
    Ok(g)
}

fn target(t: &TargetTable) -> Result<TargetDesc, String> {
    let format = match t.format.as_str() {
        "rgba8" => TargetFormat::Color(ColorFormat::Rgba8),
        "rgba16f" => TargetFormat::Color(ColorFormat::Rgba16F),
        "r8" => TargetFormat::Color(ColorFormat::R8),
        "r16f" => TargetFormat::Color(ColorFormat::R16F),
        "d32f" => TargetFormat::Depth(DepthFormat::D32F),
        "d24s8" => TargetFormat::Depth(DepthFormat::D24S8),
        "display" => TargetFormat::Display,
        f => {
            return Err(format!(
                "target '{}': unknown format {f:?} (expected rgba8, rgba16f, r8, r16f, d32f, d24s8 or display)",
                t.name
            ))
        }
    };
    let size = match (&t.size, t.halved, t.square) {
        (None, None, None) => TargetSize::Screen { scale: 1.0 },
        (Some(SizeValue::Scale(scale)), None, None) => TargetSize::Screen { scale: *scale },
        (Some(SizeValue::Fixed([width, height])), None, None) => TargetSize::Fixed {
            width: *width,
            height: *height,
        },
        (None, Some(levels), None) => TargetSize::Halved { levels },
        (None, None, Some(side_at_1080p)) => TargetSize::Square { side_at_1080p },
        _ => {
            return Err(format!(
                "target '{}': give one of size, halved and square",
                t.name
            ))
        }
    };
    Ok(TargetDesc {
        name: t.name.clone(),
        format,
        size,
    })
}

fn pass(p: &PassTable) -> Result<PassDesc, String> {
    let bad = |m: String| format!("pass '{}': {m}", p.name);
    let taps = p.taps.unwrap_or(8);
    let op = match p.op.as_str() {
        "shadow" => Op::Shadow {
            cascade: p.cascade.unwrap_or(0),
            cascades: p.cascades.unwrap_or(1),
        },
        "reflection" => Op::Reflection,
        "gbuffer" => Op::GBuffer,
        "forward" => Op::Forward {
            lights: p.lights.unwrap_or(0),
            blended: p.blended.unwrap_or(false),
            ui: p.ui,
        },
        "lighting" => Op::Lighting {
            clear: p.clear.unwrap_or(true),
            blended: p.blended.unwrap_or(false),
            ui: p.ui,
        },
        "sky" => Op::Sky,
        "ssao" => Op::Ssao { taps },
        "blur" => Op::Blur {
            axis: match p.axis.as_deref().unwrap_or("x") {
                "x" => Axis::X,
                "y" => Axis::Y,
                a => return Err(bad(format!("axis {a:?} (expected \"x\" or \"y\")"))),
            },
            taps,
        },
        "copy" => Op::Copy,
        "transparent" => Op::Transparent,
        "particles" => Op::Particles,
        "luminance" => Op::Luminance,
        "bloom" => Op::Bloom,
        "dof" => Op::DepthOfField { taps },
        "motion-blur" => Op::MotionBlur { taps },
        "tonemap" => Op::ToneMap,
        "fxaa" => Op::Fxaa,
        "ui" => Op::Ui {
            quads: p.quads.unwrap_or(24),
        },
        "display" => Op::Display {
            tone_map: p.tone_map.unwrap_or(true),
        },
        o => return Err(bad(format!("unknown op {o:?} (see the scene file format)"))),
    };
    if let Op::Shadow { cascade, cascades } = op {
        if cascades == 0 || cascade >= cascades || cascades > 8 {
            return Err(bad(format!(
                "cascade {cascade} of {cascades} (expected 0 <= cascade < cascades <= 8)"
            )));
        }
    }
    if matches!(
        op,
        Op::Ssao { .. } | Op::Blur { .. } | Op::DepthOfField { .. } | Op::MotionBlur { .. }
    ) && !(1..=64).contains(&taps)
    {
        return Err(bad(format!("{taps} taps (expected 1 to 64)")));
    }
    if let Op::Ui { quads } = op {
        if !(1..=4096).contains(&quads) {
            return Err(bad(format!("{quads} UI quads (expected 1 to 4096)")));
        }
    }
    let kind = match &p.kind {
        None => default_kind(&op),
        Some(k) => PassKind::ALL
            .into_iter()
            .find(|x| x.name() == k)
            .ok_or_else(|| bad(format!("unknown pass kind {k:?}")))?,
    };
    let mut reads = Vec::new();
    for (role, targets) in &p.reads {
        let role = Role::ALL
            .into_iter()
            .find(|r| r.name() == role)
            .ok_or_else(|| bad(format!("unknown read role {role:?}")))?;
        match targets {
            OneOrMany::One(t) => reads.push((role, t.clone())),
            OneOrMany::Many(ts) => reads.extend(ts.iter().map(|t| (role, t.clone()))),
        }
    }
    Ok(PassDesc {
        name: p.name.clone(),
        kind,
        op,
        color: p.color.clone(),
        depth: p.depth.clone(),
        reads,
    })
}

/// The marker kind of a pass of `op` when the file gives none.
fn default_kind(op: &Op) -> PassKind {
    match op {
        Op::Shadow { .. } => PassKind::Shadow,
        Op::Reflection | Op::Copy => PassKind::RenderToTexture,
        Op::GBuffer => PassKind::GBuffer,
        Op::Forward { .. } => PassKind::Forward,
        Op::Lighting { .. } | Op::Sky => PassKind::Lighting,
        Op::Transparent | Op::Particles => PassKind::Transparent,
        Op::Fxaa | Op::Ui { .. } | Op::Display { .. } => PassKind::Display,
        _ => PassKind::Post,
    }
}

/// Spanned tables with their 1-based lines.
pub(super) fn lines<'a, T>(text: &str, v: &'a [Spanned<T>]) -> Vec<(usize, &'a T)> {
    v.iter()
        .map(|s| {
            (
                super::toml_scene::line_of(text, s.span().start),
                s.get_ref(),
            )
        })
        .collect()
}
