//! What a session cost: [`RenderSummary`], from the renderer's counters and
//! the consumer side's tallies.

use std::collections::BTreeMap;

use serde::Serialize;

use gfxcache_trace::{OpCounts, Stream};

use crate::frame::{FilterOverride, FrameRenderer, FrameSummary, StreamCounts};
use crate::pipeline::{ProgramTallies, ProgramTally, Stats};
use crate::render_caches::RenderCacheStats;
use crate::scene::Scene;

use super::consumer::{Consumed, OUTSIDE};
use super::RenderRequest;

/// Reads and writes of one stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Rw {
    pub reads: u64,
    pub writes: u64,
}

/// One pass (all frames together): the renderer's counters and the
/// accesses on both sides of the caches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassFigures {
    pub name: String,
    pub kind: &'static str,
    pub draws: u64,
    pub triangles_in: u64,
    pub fragments_shaded: u64,
    pub texels: u64,
    /// What the pipeline (and the stage) sent.
    pub pipeline_accesses: u64,
    /// What left the caches (the LLC's stream, or tile by tile the L2's).
    pub llc_accesses: u64,
    pub pipeline: BTreeMap<&'static str, Rw>,
    pub llc: BTreeMap<&'static str, Rw>,
}

/// One cache's counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CacheFigures {
    pub cache: String,
    pub accesses: u64,
    /// `accesses` frame by frame (for studies that count frames after a
    /// warm-up); not in the JSON summary.
    #[serde(skip)]
    pub accesses_per_frame: Vec<u64>,
    pub hits: u64,
    pub misses: u64,
    pub writebacks: u64,
    pub hit_rate: f64,
}

/// What the tiles did (tile-based mode).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbrFigures {
    pub tile_size: u32,
    pub order: &'static str,
    pub fps: u16,
    pub hsr: bool,
    /// The Polygon List Builder's overlap test: `exact` or `bbox`.
    pub binning: &'static str,
    /// How quads reach the fragment processors: `round-robin`,
    /// `blocks:SIDE` or `tiles`.
    pub fp_assignment: String,
    pub render_passes: u64,
    pub tiles: u64,
    pub quads_per_fp: Vec<u64>,
    /// Hit rate of each fragment processor's texture cache (empty when
    /// raw: no caches ran).
    pub texture_hit_rate_per_fp: Vec<f64>,
    pub loaded_blocks: u64,
    pub flushed_blocks: u64,
    /// Covered pixels of opaque draws hidden-surface removal took out
    /// before the depth test (many would have failed it anyway).
    pub hsr_hidden: u64,
}

/// What the fragments of one program (or of all, `all`) ran, on the paths
/// they took: operations by class ([`gfxcache_trace::ops`]) and per
/// fragment and per texture request. A machine's issue model turns these
/// into cycles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProgramFigures {
    pub program: &'static str,
    pub fragments: u64,
    /// Texture requests made (filtered samples and texel loads).
    pub requests: u64,
    pub ops: OpCounts,
    /// Operations, each once whatever its width.
    pub instructions: u64,
    /// Operations, each ALU one once per component.
    pub scalar_ops: u64,
    pub requests_per_fragment: f64,
    pub instructions_per_fragment: f64,
    pub scalar_ops_per_fragment: f64,
    /// Per texture request (0 with none).
    pub instructions_per_request: f64,
    pub scalar_ops_per_request: f64,
    /// Requests where a shader and its program disagree: 0 for the
    /// frame's programs.
    pub off_program: u64,
}

impl ProgramFigures {
    pub fn of(t: &ProgramTally) -> ProgramFigures {
        let per = |n: u64, d: u64| if d > 0 { n as f64 / d as f64 } else { 0.0 };
        let (instructions, scalar_ops) = (t.ops.instructions(), t.ops.scalar_ops());
        ProgramFigures {
            program: t.program,
            fragments: t.fragments,
            requests: t.requests,
            ops: t.ops,
            instructions,
            scalar_ops,
            requests_per_fragment: per(t.requests, t.fragments),
            instructions_per_fragment: per(instructions, t.fragments),
            scalar_ops_per_fragment: per(scalar_ops, t.fragments),
            instructions_per_request: per(instructions, t.requests),
            scalar_ops_per_request: per(scalar_ops, t.requests),
            off_program: t.off_program,
        }
    }
}

/// The fragment programs' work: every program that ran, in order of first
/// appearance, and all of them together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShaderFigures {
    pub total: ProgramFigures,
    pub programs: Vec<ProgramFigures>,
}

impl ShaderFigures {
    pub fn of(t: &ProgramTallies) -> ShaderFigures {
        ShaderFigures {
            total: ProgramFigures::of(&t.total()),
            programs: t.programs.iter().map(ProgramFigures::of).collect(),
        }
    }
}

/// What a session rendered and what it cost, over all its frames. The
/// `llc` fields are the stream after the caches: the LLC's in immediate
/// mode, the L2's tile by tile, the pipeline's own when raw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RenderSummary {
    pub scene: String,
    pub mode: &'static str,
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    pub raw: bool,
    pub threads: usize,
    /// The filter forced on material textures and screen-space filtered
    /// reads; left out of the JSON when none is.
    #[serde(skip_serializing_if = "FilterOverride::is_as_authored")]
    pub texture_filter: FilterOverride,
    /// The passes that ran, in frame order.
    pub passes: Vec<String>,
    pub triangles_in: u64,
    pub triangles_after_cull: u64,
    pub fragments: u64,
    pub fragments_shaded: u64,
    /// Fragments shaded by the screen-sized geometry passes (main and
    /// transparent) per screen pixel.
    pub overdraw: f64,
    pub texels_sampled: u64,
    /// The fragment programs' operations, by program and in total.
    pub shader: ShaderFigures,
    pub pipeline_accesses: u64,
    pub llc_accesses: u64,
    /// Per pass name in frame order, then `(flush)` (the render caches'
    /// frame-end write-backs) if any.
    pub per_pass: Vec<PassFigures>,
    pub pipeline: BTreeMap<&'static str, Rw>,
    pub llc: BTreeMap<&'static str, Rw>,
    /// Each cache of the mode (none when raw).
    pub render_caches: Vec<CacheFigures>,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tbr: Option<TbrFigures>,
}

/// Per stream that has accesses, by name.
pub(super) fn by_stream(c: &StreamCounts) -> BTreeMap<&'static str, Rw> {
    Stream::ALL
        .iter()
        .filter(|s| c.of(**s) > 0)
        .map(|s| {
            (
                s.name(),
                Rw {
                    reads: c.reads[s.index()],
                    writes: c.writes[s.index()],
                },
            )
        })
        .collect()
}

fn hit_rate(s: &RenderCacheStats) -> f64 {
    if s.accesses > 0 {
        s.hits as f64 / s.accesses as f64
    } else {
        0.0
    }
}

/// The renderer's counters per pass name, in order of first appearance.
fn pass_stats(frames: &[FrameSummary]) -> Vec<(&str, &'static str, Stats)> {
    let mut passes: Vec<(&str, &'static str, Stats)> = Vec::new();
    for p in frames.iter().flat_map(|f| &f.passes) {
        match passes.iter_mut().find(|x| x.0 == p.name) {
            Some(x) => x.2.add(&p.stats),
            None => passes.push((&p.name, p.kind.name(), p.stats.clone())),
        }
    }
    passes
}

fn per_pass(frames: &[FrameSummary], consumed: &Consumed) -> Vec<PassFigures> {
    let mut out: Vec<PassFigures> = pass_stats(frames)
        .into_iter()
        .map(|(name, kind, s)| {
            let (p, l) = (consumed.pipeline.of(name), consumed.output.of(name));
            PassFigures {
                name: name.to_string(),
                kind,
                draws: s.draws,
                triangles_in: s.triangles_in,
                fragments_shaded: s.fragments_shaded,
                texels: s.texels,
                pipeline_accesses: p.total(),
                llc_accesses: l.total(),
                pipeline: by_stream(&p),
                llc: by_stream(&l),
            }
        })
        .collect();
    let flush = consumed.output.of(OUTSIDE);
    if flush.total() > 0 {
        out.push(PassFigures {
            name: OUTSIDE.into(),
            kind: "other",
            draws: 0,
            triangles_in: 0,
            fragments_shaded: 0,
            texels: 0,
            pipeline_accesses: 0,
            llc_accesses: flush.total(),
            pipeline: Default::default(),
            llc: by_stream(&flush),
        });
    }
    out
}

fn tbr_figures(r: &FrameRenderer, consumed: &Consumed) -> Option<TbrFigures> {
    let (t, c) = (r.tbr_stats()?, r.config().tbr?);
    Some(TbrFigures {
        tile_size: c.tile_size,
        order: c.order.name(),
        fps: c.fps,
        hsr: c.hsr,
        binning: c.binning_mode.name(),
        fp_assignment: c.fp_assignment.name(),
        render_passes: t.render_passes,
        tiles: t.tiles,
        quads_per_fp: t.quads_per_fp.clone(),
        texture_hit_rate_per_fp: consumed.tex_per_fp.iter().map(hit_rate).collect(),
        loaded_blocks: t.loaded_blocks,
        flushed_blocks: t.flushed_blocks,
        hsr_hidden: t.hsr_hidden,
    })
}

pub(super) fn summarize(
    scene: &Scene,
    request: &RenderRequest,
    r: &FrameRenderer,
    frames: &[FrameSummary],
    consumed: &Consumed,
) -> RenderSummary {
    let mut stats = Stats::default();
    for f in frames {
        stats.add(&f.stats());
    }
    let (width, height) = (r.config().width, r.config().height);
    let pixels = u64::from(width) * u64::from(height) * frames.len() as u64;
    // Overdraw counts the screen-sized geometry passes only (the shadow map
    // and the reflection have their own resolutions; full-screen passes
    // shade each pixel once by construction).
    let screen_shaded: u64 = pass_stats(frames)
        .iter()
        .filter(|x| matches!(x.0, "gbuffer" | "forward" | "transparent"))
        .map(|x| x.2.fragments_shaded)
        .sum();
    let (pipeline, llc) = (consumed.pipeline.total(), consumed.output.total());
    RenderSummary {
        scene: scene.name.clone(),
        mode: request.mode.name(),
        width,
        height,
        frames: request.frames,
        raw: request.raw,
        threads: request.threads.max(1),
        texture_filter: request.texture_filter,
        // The passes that ran (one with nothing to draw runs not).
        passes: pass_stats(frames).iter().map(|x| x.0.to_string()).collect(),
        triangles_in: stats.triangles_in,
        triangles_after_cull: stats.triangles_after_cull,
        fragments: stats.fragments,
        fragments_shaded: stats.fragments_shaded,
        overdraw: screen_shaded as f64 / pixels.max(1) as f64,
        texels_sampled: stats.texels,
        shader: ShaderFigures::of(&stats.programs),
        pipeline_accesses: pipeline.total(),
        llc_accesses: llc.total(),
        per_pass: per_pass(frames, consumed),
        pipeline: by_stream(&pipeline),
        llc: by_stream(&llc),
        render_caches: consumed
            .caches
            .iter()
            .zip(&consumed.per_frame)
            .map(|((name, s), per_frame)| CacheFigures {
                cache: name.clone(),
                accesses: s.accesses,
                accesses_per_frame: per_frame.clone(),
                hits: s.hits,
                misses: s.misses,
                writebacks: s.writebacks,
                hit_rate: hit_rate(s),
            })
            .collect(),
        seconds: 0.0,
        tbr: tbr_figures(r, consumed),
    }
}
