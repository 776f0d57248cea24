//! What `gfxcache render` prints: one JSON document (`--json`) or tables.
//! The document is the session's summary with the files written, the
//! binned passes' Table II and, tile by tile, the Parameter Buffer traffic
//! the trace carries, in the fields and order it has always had.

use std::collections::BTreeMap;

use gfxcache_render::frame::FilterOverride;
use gfxcache_render::session::{CacheFigures, PassFigures, Rw, ShaderFigures};
use gfxcache_trace::Stream;
use serde::Serialize;

use super::super::binned::BinnedOut;
use super::Done;
use crate::table::{percent, thousands, Table};

/// A rendering with where its files went.
pub(super) struct Output {
    pub(super) done: Done,
    pub(super) out: Option<String>,
    pub(super) png: Option<String>,
    pub(super) texture_requests: Option<String>,
    /// The whole command: rendering and writing the files.
    pub(super) seconds: f64,
}

/// The `--json` document.
#[derive(Serialize)]
pub(super) struct Json<'a> {
    scene: &'a str,
    mode: &'a str,
    width: u32,
    height: u32,
    frames: u32,
    raw: bool,
    threads: usize,
    /// With `--texture-filter` other than `as-authored`: the filter forced.
    #[serde(skip_serializing_if = "FilterOverride::is_as_authored")]
    texture_filter: FilterOverride,
    passes: &'a [String],
    triangles_in: u64,
    triangles_after_cull: u64,
    fragments: u64,
    fragments_shaded: u64,
    /// Fragments shaded by the main and transparent passes per screen pixel.
    overdraw: f64,
    texels_sampled: u64,
    /// The fragment programs' operations on the paths their fragments
    /// took, in total and by program: per fragment and per texture
    /// request.
    shader: &'a ShaderFigures,
    pipeline_accesses: u64,
    llc_accesses: u64,
    per_pass: &'a [PassFigures],
    pipeline: &'a BTreeMap<&'static str, Rw>,
    llc: &'a BTreeMap<&'static str, Rw>,
    render_caches: &'a [CacheFigures],
    out: Option<&'a str>,
    png: Option<&'a str>,
    seconds: f64,
    /// With `--binned`: Table II of TCOR for each binned pass.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    binned: &'a [BinnedOut],
    /// With `--mode tbr`: what the tiles did.
    #[serde(skip_serializing_if = "Option::is_none")]
    tbr: Option<TbrJson<'a>>,
}

/// The tile-based mode's figures.
#[derive(Serialize)]
struct TbrJson<'a> {
    tile_size: u32,
    order: &'a str,
    fragment_processors: u16,
    hsr: bool,
    /// The Polygon List Builder's overlap test: `exact` or `bbox`.
    binning: &'a str,
    /// How quads reach the fragment processors: `round-robin`,
    /// `blocks:SIDE` or `tiles`.
    fp_assignment: &'a str,
    render_passes: u64,
    tiles: u64,
    quads_per_fp: &'a [u64],
    /// Hit rate of each fragment processor's texture cache (empty with
    /// `--raw`: no caches ran).
    texture_hit_rate_per_fp: &'a [f64],
    loaded_blocks: u64,
    flushed_blocks: u64,
    pb_l2_reads: u64,
    pb_l2_writes: u64,
    /// Lists that outgrew the baseline PB-Lists room of 1024 PMDs and went
    /// on in its overflow area: render passes, tiles, PMDs, chunks, L2
    /// blocks.
    pb_overflow: gfxcache_tcor::OverflowCounts,
    /// With `--hsr`: covered pixels of opaque draws taken out before the
    /// depth test (many would have failed it anyway).
    hsr_hidden: u64,
}

impl Output {
    pub(super) fn json(&self) -> Json<'_> {
        let s = &self.done.summary;
        let pb = self.done.pb.unwrap_or_default();
        Json {
            scene: &s.scene,
            mode: s.mode,
            width: s.width,
            height: s.height,
            frames: s.frames,
            raw: s.raw,
            threads: s.threads,
            texture_filter: s.texture_filter,
            passes: &s.passes,
            triangles_in: s.triangles_in,
            triangles_after_cull: s.triangles_after_cull,
            fragments: s.fragments,
            fragments_shaded: s.fragments_shaded,
            overdraw: s.overdraw,
            texels_sampled: s.texels_sampled,
            shader: &s.shader,
            pipeline_accesses: s.pipeline_accesses,
            llc_accesses: s.llc_accesses,
            per_pass: &s.per_pass,
            pipeline: &s.pipeline,
            llc: &s.llc,
            render_caches: &s.render_caches,
            out: self.out.as_deref(),
            png: self.png.as_deref(),
            seconds: self.seconds,
            binned: &self.done.binned,
            tbr: s.tbr.as_ref().map(|t| TbrJson {
                tile_size: t.tile_size,
                order: t.order,
                fragment_processors: t.fps,
                hsr: t.hsr,
                binning: t.binning,
                fp_assignment: &t.fp_assignment,
                render_passes: t.render_passes,
                tiles: t.tiles,
                quads_per_fp: &t.quads_per_fp,
                texture_hit_rate_per_fp: &t.texture_hit_rate_per_fp,
                loaded_blocks: t.loaded_blocks,
                flushed_blocks: t.flushed_blocks,
                pb_l2_reads: pb.pb_reads,
                pb_l2_writes: pb.pb_writes,
                pb_overflow: pb.pb_overflow,
                hsr_hidden: t.hsr_hidden,
            }),
        }
    }
}

/// The summary as tables.
pub(super) fn text(o: &Output) -> String {
    let s = &o.done.summary;
    // Tile-based frames go through L1s only: what leaves them is the L2's
    // request stream (the `llc` fields of the JSON).
    let level = if s.mode == "tbr" { "L2" } else { "LLC" };
    let mut out = format!(
        "scene {}  {}x{}  {}  {} frame(s)  passes: {}\n\
         triangles {} in, {} after culling; fragments {} ({} shaded, overdraw {:.2}); texels sampled {}\n\
         accesses: pipeline {}, {level} {}{}  ({:.2} s)\n{}\n",
        s.scene,
        s.width,
        s.height,
        s.mode,
        s.frames,
        s.passes.join(" "),
        thousands(s.triangles_in),
        thousands(s.triangles_after_cull),
        thousands(s.fragments),
        thousands(s.fragments_shaded),
        s.overdraw,
        thousands(s.texels_sampled),
        thousands(s.pipeline_accesses),
        thousands(s.llc_accesses),
        if s.raw { " (raw: trace holds the pipeline stream)" } else { "" },
        o.seconds,
        if s.texture_filter.is_as_authored() {
            String::new()
        } else {
            format!(
                "texture filter forced: {} (material textures and screen-space filtered reads)\n",
                s.texture_filter
            )
        },
    );
    out.push_str(&passes_table(&s.per_pass, level));
    out.push('\n');
    out.push_str(&shader_table(&s.shader));
    out.push('\n');
    out.push_str(&streams_table(&s.pipeline, &s.llc, level));
    if !s.render_caches.is_empty() {
        out.push('\n');
        out.push_str(&caches_table(&s.render_caches));
    }
    if let Some(t) = &o.json().tbr {
        out.push_str(&tbr_text(t));
    }
    out.push_str(&super::super::binned::table(&o.done.binned));
    for (what, f) in [
        ("trace", &o.out),
        ("picture", &o.png),
        ("texture requests", &o.texture_requests),
    ] {
        if let Some(f) = f {
            out.push_str(&format!("wrote {what} {f}\n"));
        }
    }
    out
}

fn passes_table(passes: &[PassFigures], level: &str) -> String {
    let mut t = Table::new([
        "pass",
        "kind",
        "draws",
        "triangles",
        "shaded",
        "pipeline",
        level,
    ])
    .left(1);
    for p in passes {
        t.row([
            p.name.clone(),
            p.kind.to_string(),
            thousands(p.draws),
            thousands(p.triangles_in),
            thousands(p.fragments_shaded),
            thousands(p.pipeline_accesses),
            thousands(p.llc_accesses),
        ]);
    }
    t.render()
}

/// The fragment programs' work, per fragment and per request, each program
/// then all of them.
fn shader_table(shader: &ShaderFigures) -> String {
    let mut t = Table::new([
        "program",
        "fragments",
        "requests/frag",
        "instr/frag",
        "scalar/frag",
        "instr/request",
        "scalar/request",
    ])
    .left(1);
    for p in shader.programs.iter().chain([&shader.total]) {
        t.row([
            p.program.to_string(),
            thousands(p.fragments),
            format!("{:.2}", p.requests_per_fragment),
            format!("{:.1}", p.instructions_per_fragment),
            format!("{:.1}", p.scalar_ops_per_fragment),
            format!("{:.1}", p.instructions_per_request),
            format!("{:.1}", p.scalar_ops_per_request),
        ]);
    }
    t.render()
}

fn streams_table(
    pipeline: &BTreeMap<&'static str, Rw>,
    llc: &BTreeMap<&'static str, Rw>,
    level: &str,
) -> String {
    let (lr, lw) = (format!("{level} R"), format!("{level} W"));
    let mut t = Table::new([
        "stream",
        "pipeline R",
        "pipeline W",
        lr.as_str(),
        lw.as_str(),
    ]);
    for st in Stream::ALL {
        let p = pipeline.get(st.name()).copied().unwrap_or_default();
        let l = llc.get(st.name()).copied().unwrap_or_default();
        if p.reads + p.writes + l.reads + l.writes > 0 {
            t.row([
                st.name().to_string(),
                thousands(p.reads),
                thousands(p.writes),
                thousands(l.reads),
                thousands(l.writes),
            ]);
        }
    }
    t.render()
}

fn caches_table(caches: &[CacheFigures]) -> String {
    let mut t = Table::new([
        "render cache",
        "accesses",
        "hits",
        "hit rate",
        "write-backs",
    ]);
    for c in caches {
        t.row([
            c.cache.to_string(),
            thousands(c.accesses),
            thousands(c.hits),
            percent(c.hit_rate),
            thousands(c.writebacks),
        ]);
    }
    t.render()
}

fn tbr_text(t: &TbrJson) -> String {
    let mut s = format!(
        "\ntiles: {} in {} render passes ({}x{} pixels, {} order, {} binning, quads to fragment \
         processors {}); blocks loaded {}, flushed {}; Parameter Buffer to L2: {} reads, {} \
         writes{}\n",
        thousands(t.tiles),
        thousands(t.render_passes),
        t.tile_size,
        t.tile_size,
        t.order,
        t.binning,
        t.fp_assignment,
        thousands(t.loaded_blocks),
        thousands(t.flushed_blocks),
        thousands(t.pb_l2_reads),
        thousands(t.pb_l2_writes),
        if t.pb_overflow.passes > 0 {
            let o = &t.pb_overflow;
            format!(
                " ({} render passes outgrew the baseline's 1024 PMDs per tile: {} tiles, \
                 {} PMDs, {} blocks of L2 traffic in the overflow area)",
                thousands(o.passes),
                thousands(o.tiles),
                thousands(o.pmds),
                thousands(o.l2_blocks)
            )
        } else {
            String::new()
        },
    );
    if t.hsr {
        s.push_str(&format!(
            "hidden-surface removal: {} covered pixels taken out before the depth test\n",
            thousands(t.hsr_hidden)
        ));
    }
    let mut tb = Table::new(["fragment processor", "quads", "texture hit rate"]);
    for (i, q) in t.quads_per_fp.iter().enumerate() {
        let rate = t
            .texture_hit_rate_per_fp
            .get(i)
            .map_or("-".to_string(), |r| percent(*r));
        tb.row([format!("fp{i}"), thousands(*q), rate]);
    }
    s.push_str(&tb.render());
    s
}
