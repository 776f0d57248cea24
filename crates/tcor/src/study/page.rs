//! The study's page as data ([`gfxcache_report::Page`]): the setup in
//! words and the frame, the energy model, Table II, our decreases beside
//! the paper's and the figures that plot them, the engines' absolute
//! numbers, the Tile Fetcher and its speedup by timing, the frames one by
//! one, where the curves reach the lower bound and the curves, the bound,
//! the machine and the seconds; and the suite's page: the mean over the
//! scenes first, beside the paper's averages, then each scene. Every
//! table a view of [`super::tables`]; the words here, and the
//! [`timing_words`] every writer of the study says of the Tile Fetcher.

use gfxcache_cache::format_size;
use gfxcache_report::page::thousands;
use gfxcache_report::page::{seconds_per_scene, seconds_words};
use gfxcache_report::{Column, Format, Page, Picture, Section, View};

use super::paper;
use super::report::{TcorReport, ENGINES};
use super::tables::in_size_order;
use crate::{FetcherModel, FetcherTiming, TileBuffers};

/// The Tile Fetcher's timing in words.
pub fn timing_words(t: &FetcherTiming) -> String {
    let dram = match &t.dram_banks {
        None => " (no DRAM bank or bus waits, --dram-banks off)".to_string(),
        Some(d) => format!(
            ", and besides the waits for {}'s banks and channel buses (--dram-banks on; the \
             blocking fetcher's one read never waits)",
            d.dram.name()
        ),
    };
    let latency = format!(
        "a block read from the L2 takes {} cycles, {} more when the L2 misses{dram}",
        t.l2_cycles, t.memory_cycles
    );
    match t.model {
        FetcherModel::Blocking => format!(
            "blocking: one cycle per primitive and a wait on every block it reads; {latency}"
        ),
        FetcherModel::NonBlocking => format!(
            "non-blocking: up to {} blocks outstanding ({} reads each), {} primitives in flight, \
             output in order, at most one a cycle; {latency}",
            t.mshrs, t.targets_per_mshr, t.fifo_entries
        ),
    }
}

/// The scene (or the trace, without one) and the resolution.
fn scene_words(r: &TcorReport) -> String {
    gfxcache_report::page::scene_words(r.scene.as_deref(), &r.trace, r.resolution)
}

/// Scene (or trace), resolution, render passes, tiles and the binning
/// mode, for the title.
pub fn heading(r: &TcorReport) -> String {
    format!(
        "{}, {} render passes, {} tiles{}",
        scene_words(r),
        thousands(r.render_passes),
        thousands(r.tiles),
        r.binning
            .as_deref()
            .map_or(String::new(), |b| format!(", {b} binning"))
    )
}

/// The picture of the frame a scene's study renders.
pub const PICTURE: &str = "frame.png";

/// The setup: trace, L2, Tile Fetcher, TCOR's queue and stalls, the
/// baseline's overflow area, the frames counted; and the paper's values.
fn setup(r: &TcorReport) -> Vec<String> {
    let l2 = &r.l2;
    let buffers = match l2.tile_buffers {
        TileBuffers::Memory => "go to main memory without the L2",
        TileBuffers::L2 => "go through the L2",
    };
    vec![
        format!(
            "Trace {}, binned render passes {}. Shared L2 of {} ({} ways, 64-byte lines); tile \
             loads and stores {buffers}. The Tile Fetcher outputs at most one primitive per \
             cycle to an unbounded output queue (the paper's throughput experiment), {}. \
             TCOR's Tile Fetcher output queue holds {} primitives, whose Attribute Cache lines \
             stay locked while they wait{}.{}",
            r.trace,
            r.binned,
            format_size(l2.bytes),
            l2.ways,
            timing_words(&l2.fetcher),
            l2.queue_depth,
            stalls(r),
            overflow(r),
        ),
        format!(
            "The paper's values (Joseph, Aragón, Parcerisa and González: averages over ten \
             Android games on the simulated GPU of its Table I) are shown in grey italics \
             beside ours, which come from {}.",
            frames_words(r)
        ),
    ]
}

/// TCOR's stalls on locked lines, in words.
fn stalls(r: &TcorReport) -> String {
    let runs: Vec<String> = r
        .runs
        .iter()
        .filter(|run| run.engine == ENGINES[2])
        .map(|run| {
            let n = run.stats.engine.attribute_cache_stalls;
            format!("{n} at {}", run.tile_cache)
        })
        .collect();
    if runs.is_empty() {
        return String::new();
    }
    format!(
        " (the Tile Fetcher stalled because every candidate line was locked: {})",
        runs.join(", ")
    )
}

/// How much the baseline's lists used its overflow area, in words (nothing
/// when they never outgrew their room).
fn overflow(r: &TcorReport) -> String {
    let Some(o) = r
        .runs
        .iter()
        .find(|run| run.engine == ENGINES[0])
        .map(|run| run.stats.overflow)
        .filter(|o| o.passes > 0)
    else {
        return String::new();
    };
    format!(
        " In {} render passes the baseline's lists outgrew their room of 1024 PMDs per tile \
         and went on in its overflow area: {} tiles, {} PMDs.",
        o.passes, o.tiles, o.pmds
    )
}

/// Which frames the figures count, in words.
fn frames_words(r: &TcorReport) -> String {
    match (r.frames, r.warmup) {
        (1, _) => "one frame".to_string(),
        (n, 0) => format!("{n} frames played in order through an L2 that stays warm"),
        (n, w) => format!(
            "the last {} of {n} frames played in order through an L2 that stays warm \
             (the first {w} only warm it up)",
            n - w
        ),
    }
}

/// A model number as short as it reads: `70`, `0.5`, `198.0`.
fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The energy model's numbers, in words.
fn energy_words(r: &TcorReport) -> String {
    let m = &r.energy_model;
    format!(
        "Dynamic energy per 64-byte access: SRAM {} pJ at {}, scaled by (capacity / {})^{} \
         ({} pJ for the {} L2); main memory {} pJ per line read, {} pJ per line written. \
         Leakage, refresh and the interconnect are not modelled.",
        num(m.sram_ref_pj),
        format_size(m.sram_ref_bytes),
        format_size(m.sram_ref_bytes),
        num(m.sram_exponent),
        num(m.sram_access_pj(r.l2.bytes)),
        format_size(r.l2.bytes),
        num(m.dram_read_pj),
        num(m.dram_write_pj),
    )
}

const MIB: Format = Format::Scaled {
    divisor: 1 << 20,
    decimals: 3,
};
const MICRO: Format = Format::Scaled {
    divisor: 1000,
    decimals: 2,
};

/// The decreases' columns: (column, heading, format).
const DECREASES: [(&str, &str, Format); 6] = [
    (
        "pb_l2_accesses",
        "PB accesses to the L2 (Figures 14-15)",
        Format::Share,
    ),
    (
        "pb_dram_accesses",
        "PB accesses to main memory (16-17)",
        Format::Share,
    ),
    (
        "dram_accesses",
        "main-memory accesses (18-19)",
        Format::Share,
    ),
    ("energy", "memory-hierarchy energy (20-21)", Format::Share),
    (
        "energy_no_l2",
        "energy without the L2 enhancements (20-21)",
        Format::Share,
    ),
    (
        "fetcher_speedup",
        "Tile Fetcher speedup, times (23-24)",
        Format::Fixed2,
    ),
];

/// Ours beside the paper's, a pair of columns per decrease.
fn versus_paper(v: View) -> View {
    let mut v = v.column("tile_cache", "Tile Cache", Format::Plain);
    for (column, heading, format) in DECREASES {
        v = v
            .column(column, &format!("ours: {heading}"), format)
            .with(Column::new(&format!("paper_{column}"), "paper", format).paper("{}"));
    }
    v
}

const REDUCTIONS_NOTE: &str = "Decreases are TCOR's (with its L2 enhancements unless the \
     column says otherwise) versus the baseline Tiling Engine; the speedup is TCOR's Tile \
     Fetcher throughput over the baseline's. The paper's energy without the L2 enhancements is \
     its \"around 9 %\" for both sizes, its speedup the \"5x\" of its text.";

const BAR_FIGURES: [&str; 4] = [
    "fig14_15_pb_l2.svg",
    "fig16_17_pb_dram.svg",
    "fig18_19_dram.svg",
    "fig20_21_energy.svg",
];
const FETCHER_FIGURE: &str = "fig23_24_fetcher.svg";
const CURVE_FIGURES: [&str; 3] = ["fig11_full.svg", "fig12_ways.svg", "fig13_4way.svg"];

/// A section per Tile Cache size of the fetcher's sweep: TCOR's speedup
/// at each memory latency and fetcher (`mean` views add `scene` = mean),
/// the note and `figures` after the last.
fn sensitivity_sections(
    title: &str,
    sizes: &[String],
    mean: bool,
    figures: &[&str],
) -> Vec<Section> {
    let mut out: Vec<Section> = sizes
        .iter()
        .map(|size| {
            let mut v = View::of("fetcher");
            if mean {
                v = v.rows("scene", "mean");
            }
            let v = v
                .rows("tile_cache", size)
                .column("memory_cycles", "memory cycles", Format::Plain)
                .column("model", "fetcher", Format::Plain)
                .column("mshrs", "MSHRs", Format::Plain)
                .column("speedup", "TCOR's speedup", Format::Fixed2);
            Section::new(&format!("{title}, Tile Cache {size}")).view(v)
        })
        .collect();
    if let Some(last) = out.pop() {
        out.push(
            last.note(
                "TCOR's Tile Fetcher throughput over the baseline's (Figures 23-24) with the \
                 fetcher blocking, or non-blocking with each MSHR count, at each memory latency \
                 (Table I: 50-100 cycles), measured on each run's same L2 reads.",
            )
            .figures(figures),
        );
    }
    out
}

/// Every run's absolute numbers.
fn engines_view() -> View {
    let mut v = View::of("engines")
        .column("tile_cache", "Tile Cache", Format::Plain)
        .column("engine", "engine", Format::Plain)
        .column("l2_policy", "L2 policy", Format::Plain);
    for (column, heading) in [
        ("pb_l2_reads", "PB L2 reads"),
        ("pb_l2_writes", "PB L2 writes"),
        ("pb_dram_accesses", "PB main memory"),
        ("dram_reads", "memory reads"),
        ("dram_writes", "memory writes"),
        ("dram_accesses", "memory accesses"),
    ] {
        v = v.column(column, heading, Format::Thousands);
    }
    for (column, heading) in [
        ("energy_l1_nj", "L1 µJ"),
        ("energy_l2_nj", "L2 µJ"),
        ("energy_dram_nj", "memory µJ"),
        ("energy_total_nj", "total µJ"),
    ] {
        v = v.column(column, heading, MICRO);
    }
    v.column(
        "fetcher_primitives",
        "fetched primitives",
        Format::Thousands,
    )
    .column("fetcher_cycles", "fetcher cycles", Format::Thousands)
    .column(
        "primitives_per_cycle",
        "primitives per cycle",
        Format::decimals(3),
    )
}

/// Each run's Tile Fetcher.
fn fetcher_view() -> View {
    View::of("engines")
        .column("tile_cache", "tile cache", Format::Plain)
        .column("engine", "engine", Format::Plain)
        .column(
            "fetcher_l2_reads_per_primitive",
            "L2 reads/prim",
            Format::Fixed2,
        )
        .column(
            "fetcher_l2_read_misses_per_primitive",
            "L2 misses/prim",
            Format::Fixed2,
        )
        .column("fetcher_merged_reads", "merged reads", Format::Thousands)
        .column("fetcher_mlp", "MLP", Format::Fixed2)
        .column(
            "fetcher_fifo_stall_cycles",
            "FIFO stall cycles",
            Format::Thousands,
        )
        .column(
            "fetcher_mshr_stall_cycles",
            "MSHR stall cycles",
            Format::Thousands,
        )
        .column(
            "fetcher_target_stall_cycles",
            "target stall cycles",
            Format::Thousands,
        )
        .column(
            "fetcher_dram_wait_cycles",
            "DRAM wait cycles",
            Format::Thousands,
        )
}

/// The frame's figures: (column, heading, format of a frame's, of the mean).
const FRAME_FIGURES: [(&str, &str, Format, Format); 5] = [
    (
        "pb_l2_accesses",
        "PB to L2",
        Format::Thousands,
        Format::decimals(0),
    ),
    (
        "pb_dram_accesses",
        "PB to memory",
        Format::Thousands,
        Format::decimals(0),
    ),
    (
        "dram_accesses",
        "memory",
        Format::Thousands,
        Format::decimals(0),
    ),
    (
        "energy_nj",
        "energy (nJ)",
        Format::decimals(1),
        Format::decimals(1),
    ),
    (
        "primitives_per_cycle",
        "primitives/cycle",
        Format::decimals(3),
        Format::decimals(3),
    ),
];

/// The sections on the frames one by one, when more than one counts.
fn per_frame(r: &TcorReport) -> Vec<Section> {
    if r.frames.saturating_sub(r.warmup) < 2 {
        return Vec::new();
    }
    let keys = |v: View| {
        v.column("engine", "engine", Format::Plain).column(
            "tile_cache",
            "Tile Cache",
            Format::Plain,
        )
    };
    let mut each = keys(View::of("frames")).column("frame", "frame", Format::Plain);
    let mut mean = keys(View::of("engines"));
    for (column, heading, frame, of_mean) in FRAME_FIGURES {
        each = each.column(column, heading, frame);
        mean = mean.column(&format!("frame_mean_{column}"), heading, of_mean);
    }
    vec![
        Section::new("Per frame").view(each),
        Section::new("Per frame: the mean of the counted frames").view(mean),
    ]
}

/// Where the curves reach the lower bound, the paper's sizes beside, and
/// the ratio of LRU's size to OPT's.
fn reach_section(r: &TcorReport) -> Section {
    let reach = &r.reach;
    let paper_ratio = paper::LRU_REACHES_BOUND_KIB / paper::OPT_REACHES_BOUND_KIB;
    let ours = match reach.lru_over_opt_full {
        Some(x) => format!("LRU needs {x:.1} times OPT's size"),
        None => {
            "OPT and LRU do not both reach it within the sweep, so there is no ratio".to_string()
        }
    };
    Section::new(&format!(
        "Where the miss ratio reaches the lower bound (within {} %)",
        num(100.0 * reach.tolerance)
    ))
    .view(
        View::of("reach")
            .column("policy", "policy", Format::Plain)
            .column("ways", "ways", Format::Plain)
            .with(
                Column::new("bytes", "reaches the bound at", Format::Size)
                    .blank("not within the sweep"),
            )
            .with(Column::new("paper_bytes", "paper", Format::Size).paper("{}")),
    )
    .note(format!(
        "Fully associative: {ours} (paper: {} KiB / {} KiB = {paper_ratio:.1} times).",
        paper::LRU_REACHES_BOUND_KIB,
        paper::OPT_REACHES_BOUND_KIB,
    ))
    .figures(&CURVE_FIGURES)
}

/// Table II per render pass.
fn passes_view() -> View {
    let mut v = View::of("passes")
        .column("frame", "frame", Format::Plain)
        .column("pass", "render pass", Format::Plain);
    for (column, heading) in [
        ("primitives", "primitives"),
        ("tiles", "tiles"),
        ("busy_tiles", "busy tiles"),
        ("attributes", "attributes"),
        ("tile_uses", "tile uses (PMDs)"),
    ] {
        v = v.column(column, heading, Format::Thousands);
    }
    v.column("footprint_bytes", "PB footprint MiB", MIB)
        .column("average_reuse", "average reuse", Format::Fixed2)
        .column("longest_list", "longest list", Format::Thousands)
}

/// Table II for the frame as a whole, the paper's ranges beside.
fn whole_frame_view() -> View {
    let paper_mib = Format::Scaled {
        divisor: 1 << 20,
        decimals: 2,
    };
    View::of("scenes")
        .column("primitives", "primitives", Format::Thousands)
        .column("tiles", "tiles", Format::Thousands)
        .column("attributes", "attributes", Format::Thousands)
        .column("tile_uses", "tile uses (PMDs)", Format::Thousands)
        .column("footprint_bytes", "PB footprint MiB", MIB)
        .column(
            "largest_pass_footprint_bytes",
            "largest pass's PB footprint MiB",
            MIB,
        )
        .column("average_reuse", "average reuse", Format::Fixed2)
        .with(
            Column::new(
                "paper_footprint_bytes_min",
                "paper footprint MiB, smallest",
                paper_mib,
            )
            .paper("{}"),
        )
        .with(Column::new("paper_footprint_bytes_max", "largest", paper_mib).paper("{}"))
        .with(
            Column::new(
                "paper_average_reuse_min",
                "paper reuse, smallest",
                Format::Plain,
            )
            .paper("{}"),
        )
        .with(Column::new("paper_average_reuse_max", "largest", Format::Plain).paper("{}"))
}

/// One scene's page.
pub fn page(r: &TcorReport) -> Page {
    let mut sections = vec![Section::new("Energy model").lead(energy_words(r))];
    if !r.other_l1.is_empty() {
        sections.push(
            Section::new("Other L1s in every run's energy").view(
                View::of("other_l1")
                    .column("name", "L1 outside the Tiling Engine", Format::Plain)
                    .column("bytes", "size", Format::Size)
                    .column("accesses", "accesses", Format::Thousands)
                    .column("access_pj", "pJ per access", Format::decimals(1)),
            ),
        );
    }
    sections.push(
        Section::new("Frame characteristics (Table II)")
            .view(passes_view())
            .note(format!(
                "Every render pass has its own Parameter Buffer, one at a time: the largest \
                 pass's footprint is {:.3} MiB.",
                r.frame.largest_pass_footprint_bytes as f64 / (1024.0 * 1024.0)
            )),
    );
    sections.push(
        Section::new("Table II for the whole frame")
            .view(whole_frame_view())
            .note("The paper's columns are the smallest and largest of its games."),
    );
    sections.push(
        Section::new("Ours versus the paper, by Tile Cache size")
            .view(versus_paper(View::of("reductions")))
            .note(REDUCTIONS_NOTE)
            .figures(&BAR_FIGURES),
    );
    let mut engines = Section::new("Tiling Engines through the shared L2").view(engines_view());
    for x in &r.runs {
        engines = engines.note(format!("{} {}: {}", x.engine, x.tile_cache, x.about));
    }
    sections.push(engines);
    sections.push(
        Section::new("Tile Fetcher")
            .view(fetcher_view())
            .note(format!(
                "The Tile Fetcher is {}. MLP is the requests in flight on average while any is; a \
             read of a block already requested is merged into that request. The stall cycles \
             are those in which it could not issue a primitive or register a read: its FIFO of \
             primitives in flight was full, or no MSHR (or no target of the block's MSHR) was \
             free. TCOR's stalls on locked Attribute Cache lines are the cache's, not counted \
             here.",
                timing_words(&r.l2.fetcher)
            )),
    );
    let sizes: Vec<String> = in_size_order(r.fetcher_sensitivity.keys())
        .into_iter()
        .filter(|s| !r.fetcher_sensitivity[s].is_empty())
        .collect();
    let fetcher = sensitivity_sections(
        "Tile Fetcher speedup by fetcher and memory latency",
        &sizes,
        false,
        &[FETCHER_FIGURE],
    );
    if fetcher.is_empty() {
        // No sweep: the throughput figure after the fetcher's table.
        if let Some(last) = sections.pop() {
            sections.push(last.figures(&[FETCHER_FIGURE]));
        }
    }
    sections.extend(fetcher);
    sections.extend(per_frame(r));
    sections.push(reach_section(r));
    sections.push(
        Section::new("Lower bound of TCOR's Attribute Caches (48 and 112 KiB, 4-way)").view(
            View::of("lower_bound")
                .column("tile_cache", "Tile Cache", Format::Plain)
                .column("lower_bound", "LB, primitive misses", Format::Thousands),
        ),
    );
    if let Some(m) = &r.machine {
        sections.push(m.section());
    }
    if !r.seconds.is_empty() {
        sections.push(
            Section::new("Wall-clock seconds per phase")
                .note(format!("{}.", seconds_words(&r.seconds))),
        );
    }
    let last = match r.frames {
        1 => String::new(),
        n => format!(" (the last of the {n} frames)"),
    };
    Page {
        title: format!("TCOR study: {}", heading(r)),
        intro: setup(r),
        picture: Some(Picture {
            file: PICTURE.into(),
            caption: format!(
                "{}{last}, as rendered tile by tile for this study.",
                scene_words(r)
            ),
        }),
        sections,
    }
}

/// The page of a suite of `scenes` (name, report), over its tables: the
/// mean first, beside the paper's averages, then each scene.
pub fn suite_page(scenes: &[(&str, &TcorReport)]) -> Page {
    let names: Vec<&str> = scenes.iter().map(|(n, _)| *n).collect();
    let mut intro = vec![format!(
        "The TCOR study on each scene of the suite ({}). The mean is the arithmetic mean of \
         the scenes' figures, as the paper averages its games: a decrease or a ratio over the \
         baseline is the mean of the scenes', so each scene weighs the same; a figure a scene \
         lacks has no mean. The paper's values are its averages over ten Android games \
         (Joseph et al.), shown in grey italics.",
        names.join(", ")
    )];
    if let Some((_, first)) = scenes.first() {
        intro.push(format!(
            "The Tile Fetcher is {} (each scene's page says its own).",
            timing_words(&first.l2.fetcher)
        ));
    }
    let scene = || Column::new("scene", "scene", Format::Plain).link("{}/index.html", &["mean"]);
    let mut mean_engines = View::of("engines")
        .rows("scene", "mean")
        .column("tile_cache", "Tile Cache", Format::Plain)
        .column("engine", "engine", Format::Plain);
    for (column, heading, format) in [
        ("pb_l2_accesses", "PB to L2", Format::Thousands),
        ("pb_dram_accesses", "PB to memory", Format::Thousands),
        ("dram_accesses", "memory", Format::Thousands),
        ("energy_nj", "energy (uJ)", MICRO),
        ("primitives_per_cycle", "prims/cycle", Format::decimals(3)),
    ] {
        mean_engines = mean_engines.column(column, heading, format).column(
            &format!("{column}_vs_baseline"),
            "vs baseline",
            Format::decimals(3),
        );
    }
    let mut sizes: Vec<&String> = Vec::new();
    for (_, r) in scenes {
        for (size, points) in &r.fetcher_sensitivity {
            if !points.is_empty() {
                sizes.push(size);
            }
        }
    }
    let sizes = in_size_order(sizes);
    let mut per_scene =
        View::of("reductions")
            .with(scene())
            .column("tile_cache", "Tile Cache", Format::Plain);
    for (column, heading) in [
        ("pb_l2_accesses", "PB to L2"),
        ("pb_dram_accesses", "PB to memory"),
        ("dram_accesses", "memory"),
        ("energy", "energy"),
        ("energy_no_l2", "energy no L2"),
    ] {
        per_scene = per_scene.column(column, heading, Format::Share);
    }
    per_scene = per_scene.column("fetcher_speedup", "fetcher speedup", Format::Fixed2);
    let mut sections = vec![
        Section::new("Mean over the scenes versus the paper, by Tile Cache size")
            .view(
                versus_paper(View::of("reductions").rows("scene", "mean")).column(
                    "scenes",
                    "scenes",
                    Format::Plain,
                ),
            )
            .note(REDUCTIONS_NOTE),
        Section::new("Mean over the scenes: Tiling Engines through the shared L2")
            .view(mean_engines.column("scenes", "scenes", Format::Plain)),
    ];
    sections.extend(sensitivity_sections(
        "Mean over the scenes: Tile Fetcher speedup by fetcher and memory latency",
        &sizes,
        true,
        &[],
    ));
    sections.push(
        Section::new("Scenes: Table II").view(
            View::of("scenes")
                .with(scene())
                .column("resolution", "resolution", Format::Plain)
                .column("frames", "frames", Format::Plain)
                .column("warmup", "of warm-up", Format::Plain)
                .column("render_passes", "render passes", Format::Plain)
                .column("primitives", "primitives", Format::Thousands)
                .column("average_reuse", "reuse", Format::Fixed2)
                .column("largest_pass_footprint_bytes", "largest PB (MiB)", MIB),
        ),
    );
    let mut figures: Vec<&str> = BAR_FIGURES.to_vec();
    figures.push(FETCHER_FIGURE);
    sections.push(
        Section::new("Per scene: decreases versus the baseline")
            .view(per_scene)
            .figures(&figures),
    );
    if scenes.iter().any(|(_, r)| !r.curves.is_empty()) {
        sections.push(Section::new("Mean Attribute Cache curves").figures(&CURVE_FIGURES));
    }
    sections.push(seconds_per_scene(
        scenes.iter().map(|(n, r)| (*n, &r.seconds)),
    ));
    Page {
        title: format!("TCOR study: a suite of {} scenes", scenes.len()),
        intro,
        picture: None,
        sections,
    }
}
