//! What a frame graph must be for the renderer to run it, and the pass
//! switches applied to a graph.

use std::collections::HashSet;

use super::{FrameGraph, Op, PassDesc, Role, TargetFormat, TargetSize};
use crate::frame::MAX_SIZE;
use crate::scene::Passes;

/// How many colour targets an op draws into, whether it needs a depth
/// target, and the roles it must and may read.
struct Signature {
    color: (usize, usize),
    depth: Need,
    required: &'static [Role],
    optional: &'static [Role],
}

#[derive(PartialEq)]
enum Need {
    No,
    Yes,
    /// A depth target with a stencil plane (D24S8).
    Stencil,
}

fn signature(op: &Op) -> Signature {
    use Role::*;
    let sig = |color, depth, required, optional| Signature {
        color,
        depth,
        required,
        optional,
    };
    match op {
        Op::Shadow { .. } => sig((0, 0), Need::Yes, &[], &[]),
        Op::Reflection => sig((1, 1), Need::Yes, &[], &[]),
        Op::GBuffer => sig((2, 3), Need::Stencil, &[], &[Reflection]),
        Op::Forward { .. } => sig((1, 1), Need::Yes, &[], &[Shadow, Reflection]),
        Op::Lighting { .. } => sig(
            (1, 1),
            Need::Stencil,
            &[Albedo, Normal, Depth],
            &[Emissive, Shadow, Ao],
        ),
        Op::Sky => sig((1, 1), Need::Stencil, &[], &[]),
        Op::Ssao { .. } => sig((1, 1), Need::No, &[Depth], &[Normal]),
        Op::Blur { .. } | Op::Copy | Op::Fxaa => sig((1, 1), Need::No, &[Source], &[]),
        Op::Transparent => sig((1, 1), Need::Yes, &[], &[Shadow, Refraction]),
        Op::Particles => sig((1, 1), Need::Yes, &[], &[Depth]),
        Op::Luminance | Op::Bloom => sig((1, 16), Need::No, &[Source], &[]),
        Op::DepthOfField { .. } | Op::MotionBlur { .. } => {
            sig((1, 1), Need::No, &[Source, Depth], &[])
        }
        Op::ToneMap => sig((1, 1), Need::No, &[Source], &[Bloom, Luminance]),
        Op::Ui { .. } => sig((1, 1), Need::No, &[], &[]),
        Op::Display { .. } => sig((1, 1), Need::No, &[Source], &[Bloom]),
    }
}

/// Where in a graph a [`GraphError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphPlace {
    Target(usize),
    Pass(usize),
    Graph,
}

/// Why a frame graph cannot run, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GraphError {
    pub place: GraphPlace,
    pub message: String,
}

impl FrameGraph {
    /// Whether the renderer can run this graph: names unique and known,
    /// sizes in range, one display target, every pass's targets of the
    /// kind its op needs, and every target read written by an earlier
    /// pass. The error names the pass or target.
    pub fn check(&self) -> Result<(), GraphError> {
        let mut names = HashSet::new();
        let mut displays = 0;
        for (i, t) in self.targets.iter().enumerate() {
            let at = |message: String| GraphError {
                place: GraphPlace::Target(i),
                message,
            };
            if t.name.is_empty() || !names.insert(t.name.as_str()) {
                return Err(at(format!(
                    "target name {:?} is empty or used twice",
                    t.name
                )));
            }
            displays += usize::from(t.format == TargetFormat::Display);
            check_size(&t.name, t.size).map_err(at)?;
        }
        let whole = |message: String| GraphError {
            place: GraphPlace::Graph,
            message,
        };
        if displays != 1 {
            return Err(whole(format!(
                "a frame has exactly one display target ({displays} given)"
            )));
        }
        let mut written: HashSet<&str> = HashSet::new();
        for (i, p) in self.passes.iter().enumerate() {
            self.check_pass(p, &written).map_err(|e| GraphError {
                place: GraphPlace::Pass(i),
                message: format!("pass '{}' ({}): {e}", p.name, p.op.name()),
            })?;
            written.extend(p.color.iter().map(String::as_str));
            written.extend(p.depth.iter().map(String::as_str));
        }
        let display = self
            .targets
            .iter()
            .find(|t| t.format == TargetFormat::Display)
            .map(|t| t.name.as_str());
        if !display.is_some_and(|d| written.contains(d)) {
            return Err(whole("no pass draws into the display target".to_string()));
        }
        Ok(())
    }

    fn check_pass(&self, p: &PassDesc, written: &HashSet<&str>) -> Result<(), String> {
        let sig = signature(&p.op);
        let (lo, hi) = sig.color;
        if !(lo..=hi).contains(&p.color.len()) {
            return Err(format!(
                "draws into {} colour targets ({lo} to {hi} expected)",
                p.color.len()
            ));
        }
        for c in &p.color {
            match self.format_of(c)? {
                TargetFormat::Depth(_) => {
                    return Err(format!("colour target {c:?} is a depth target"))
                }
                TargetFormat::Color(_) | TargetFormat::Display => {}
            }
        }
        match (&p.depth, sig.depth) {
            (None, Need::No) => {}
            (Some(d), Need::No) => return Err(format!("takes no depth target ({d:?} given)")),
            (None, _) => return Err("needs a depth target".to_string()),
            (Some(d), need) => match self.format_of(d)? {
                TargetFormat::Depth(f) => {
                    if need == Need::Stencil && f != crate::target::DepthFormat::D24S8 {
                        return Err(format!("depth target {d:?} has no stencil (D24S8 needed)"));
                    }
                }
                _ => return Err(format!("depth target {d:?} is a colour target")),
            },
        }
        for r in sig.required {
            if !p.reads.iter().any(|(role, _)| role == r) {
                return Err(format!("reads no {} target", r.name()));
            }
        }
        let mut seen = HashSet::new();
        for (role, t) in &p.reads {
            if !sig.required.contains(role) && !sig.optional.contains(role) {
                return Err(format!("does not read a {} target", role.name()));
            }
            if *role != Role::Shadow && !seen.insert(*role) {
                return Err(format!("reads two {} targets", role.name()));
            }
            let depth_role = matches!(role, Role::Shadow | Role::Depth);
            match self.format_of(t)? {
                TargetFormat::Depth(_) if !depth_role => {
                    return Err(format!("reads depth target {t:?} as {}", role.name()))
                }
                TargetFormat::Color(_) | TargetFormat::Display if depth_role => {
                    return Err(format!("reads colour target {t:?} as {}", role.name()))
                }
                _ => {}
            }
            if p.color.contains(t) {
                return Err(format!("reads {t:?}, which it draws into"));
            }
            if !written.contains(t.as_str()) {
                return Err(format!("reads {t:?}, which no earlier pass draws"));
            }
        }
        Ok(())
    }

    fn format_of(&self, name: &str) -> Result<TargetFormat, String> {
        self.target(name)
            .map(|(_, t)| t.format)
            .ok_or_else(|| format!("no target is called {name:?}"))
    }
}

fn check_size(name: &str, size: TargetSize) -> Result<(), String> {
    let ok = match size {
        TargetSize::Screen { scale } => scale > 0.0 && scale <= 4.0,
        TargetSize::Halved { levels } => levels <= 16,
        TargetSize::Square { side_at_1080p } => (1..=MAX_SIZE).contains(&side_at_1080p),
        TargetSize::Fixed { width, height } => {
            (1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "target {name:?}: size {size:?} out of range (scale in (0, 4], at most 16 halvings, sides 1 to {MAX_SIZE})"
        ))
    }
}

/// Whether a switch in `s` turns a pass of `op` off.
fn switched_off(op: &Op, s: &Passes) -> bool {
    match op {
        Op::Shadow { .. } => !s.shadow,
        Op::Reflection => !s.reflection,
        Op::Transparent | Op::Particles => !s.transparent,
        Op::Ssao { .. }
        | Op::Blur { .. }
        | Op::Luminance
        | Op::Bloom
        | Op::DepthOfField { .. }
        | Op::MotionBlur { .. } => !s.post,
        _ => false,
    }
}

/// Whether `op` cannot run without a `role` read.
pub(crate) fn required(op: &Op, role: Role) -> bool {
    signature(op).required.contains(&role)
}

/// `g` without the passes `s` turns off. A reader of a dropped pass's
/// output loses that read, except a `source`, which becomes the dropped
/// pass's own source (a filter switched off passes its input through).
/// Targets stay (their addresses do not depend on the switches).
pub fn switch_off(mut g: FrameGraph, s: &Passes) -> FrameGraph {
    let mut kept = Vec::with_capacity(g.passes.len());
    // Output target -> what readers of it read instead (None: nothing).
    let mut replaced: Vec<(String, Option<String>)> = Vec::new();
    for mut p in g.passes.drain(..) {
        let mut reads = Vec::with_capacity(p.reads.len());
        for (role, t) in p.reads.drain(..) {
            match replaced.iter().rev().find(|(out, _)| *out == t) {
                None => reads.push((role, t)),
                Some((_, Some(src))) if role == Role::Source => reads.push((role, src.clone())),
                Some(_) => {}
            }
        }
        p.reads = reads;
        if let Op::Forward { blended, .. } | Op::Lighting { blended, .. } = &mut p.op {
            *blended &= s.transparent;
        }
        if switched_off(&p.op, s) {
            let source = p
                .reads
                .iter()
                .find(|(r, _)| *r == Role::Source)
                .map(|(_, t)| t.clone());
            for out in p.color.iter().chain(&p.depth) {
                replaced.push((out.clone(), source.clone()));
            }
        } else {
            // A pass kept redraws its outputs: later readers read them.
            let outs: Vec<&String> = p.color.iter().chain(&p.depth).collect();
            replaced.retain(|(o, _)| !outs.contains(&o));
            kept.push(p);
        }
    }
    g.passes = kept;
    g
}
