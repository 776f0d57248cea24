//! The study's page as data ([`gfxcache_report::Page`]): the setup in
//! words, the frame, a section per figure of the paper with ours and the
//! paper's averages side by side and the figures after it, the frames,
//! the passes of the timelines; and the suite's page: the mean over the
//! scenes first, then each scene's runs.

use gfxcache_cache::format_size;
use gfxcache_report::page::thousands;
use gfxcache_report::suite::{MEAN, SCENE};
use gfxcache_report::{Column, Format, Page, Picture, Section, View};

use super::paper;
use super::report::GspcReport;
use super::tables::main_size;

/// Three decimals, as the paper gives its ratios.
const RATIO: Format = Format::decimals(3);

/// The scene of the trace, at its resolution: `city at 1280x720`.
pub fn scene(r: &GspcReport) -> String {
    gfxcache_report::page::scene_words(r.scene.as_deref(), &r.trace, r.resolution)
}

/// What the frame shown is: the scene at its resolution, the frames played.
pub fn frame_caption(r: &GspcReport) -> String {
    let frames = match r.frames {
        1 => String::new(),
        n => format!(" (the last of the {n} frames played)"),
    };
    format!("{}{frames}, as rendered for this study.", scene(r))
}

/// How the frames were played, in words.
fn frames_words(r: &GspcReport) -> String {
    if r.warmup > 0 {
        format!(
            "{} frames played in order through caches that stay warm; the first {} only warm \
             them up, and every figure counts the {} after them",
            r.frames,
            r.warmup,
            r.frames - r.warmup
        )
    } else if r.frames > 1 {
        format!(
            "{} frames played in order through caches that stay warm; every figure counts them all",
            r.frames
        )
    } else {
        "one frame".to_string()
    }
}

fn sizes_words(sizes: &[u64]) -> String {
    let each: Vec<String> = sizes.iter().map(|&s| format_size(s)).collect();
    each.join(", ")
}

const PAPER_WORDS: &str = "The paper's values are its averages over 52 DirectX frames at 8 MB, \
     each simulated on its own from a cold LLC (Gaur et al., MICRO'13), shown in grey italics.";

/// A view's first columns: the scene (a suite's, linked to its page but
/// the mean's) if `suite`, then the run's.
fn run_keys(v: View, suite: bool, size: bool) -> View {
    let v = if suite {
        v.with(Column::new(SCENE, "scene", Format::Plain).link("{}/index.html", &[MEAN]))
    } else {
        v
    };
    let v = v.column("policy", "policy", Format::Plain);
    if size {
        v.column("size", "size", Format::Size)
    } else {
        v
    }
}

fn paper(column: &str, heading: &str, format: Format) -> Column {
    Column::new(column, heading, format).paper("{}")
}

/// Figures 12 and 14: misses over DRRIP's, the paper's beside.
fn misses(suite: bool) -> Section {
    let v = run_keys(View::of("policies"), suite, true)
        .column("misses", "misses", Format::Thousands)
        .column("misses_vs_drrip", "vs DRRIP", RATIO)
        .column("read_misses_vs_drrip", "read misses vs DRRIP", RATIO)
        .with(paper("paper_misses_vs_drrip", "paper (8 MB)", RATIO));
    Section::new("LLC misses normalised to DRRIP (Figures 12 and 14)")
        .view(v)
        .note(
            "Read misses fetch from memory; write misses are whole lines written back by the \
             render caches and fetch nothing.",
        )
        .figures(&["fig12_misses_vs_drrip.svg", "fig14_iso_overhead.svg"])
}

/// Figure 5 at the main size.
fn hit_rates(size: u64, suite: bool) -> Section {
    let v = run_keys(View::of("policies"), suite, false)
        .rows("size", &size.to_string())
        .column("hit_rate_tex", "TEX", Format::Fraction)
        .column("hit_rate_rt", "RT", Format::Fraction)
        .column("hit_rate_z", "Z", Format::Fraction)
        .column("hit_rate_all", "all", Format::Fraction)
        .with(paper(
            "paper_hit_rate_tex_percent",
            "paper TEX",
            Format::Share,
        ))
        .with(paper(
            "paper_hit_rate_rt_percent",
            "paper RT",
            Format::Share,
        ))
        .with(paper("paper_hit_rate_z_percent", "paper Z", Format::Share));
    Section::new(&format!("Hit rates at {} (Figure 5)", format_size(size)))
        .view(v)
        .figures(&["fig05_hit_rates.svg"])
}

/// Figure 6 (and 13) at the main size.
fn rt_to_tex(size: u64, suite: bool, opt_inter: Option<f64>) -> Section {
    let v = run_keys(View::of("policies"), suite, false)
        .rows("size", &size.to_string())
        .column("tex_hits_inter", "TEX hits RT->TEX", Format::Thousands)
        .column("tex_hits_intra", "TEX hits intra", Format::Thousands)
        .column("tex_hits_inter_share", "inter share", Format::Fraction)
        .column("rt_consumed_fraction", "RT consumed", Format::Fraction)
        .with(paper(
            "paper_rt_consumed_percent",
            "paper RT consumed",
            Format::Share,
        ));
    let mut s = Section::new(&format!(
        "Render target to texture consumption at {} (Figure 6)",
        format_size(size)
    ))
    .view(v);
    if let Some(share) = opt_inter {
        s = s.note(format!(
            "Share of OPT's texture hits that are RT->TEX: {:.2}% (paper: {:.2}%).",
            100.0 * share,
            paper::OPT_TEX_INTER_SHARE
        ));
    }
    s.figures(&[
        "fig06_rt_to_tex.svg",
        "fig06_rt_consumed.svg",
        "fig13_gspc_rates.svg",
    ])
}

/// Figure 8: only the policies with RRPVs have these fractions.
fn rrpv(size: u64, suite: bool) -> Section {
    let v = run_keys(View::of("policies"), suite, false)
        .rows("size", &size.to_string())
        .except("rt_fills_at_max_rrpv", "")
        .column(
            "rt_fills_at_max_rrpv",
            "RT fills at max RRPV",
            Format::Fraction,
        )
        .column(
            "tex_fills_at_max_rrpv",
            "TEX fills at max RRPV",
            Format::Fraction,
        )
        .with(paper(
            "paper_rt_fills_at_max_rrpv_percent",
            "paper RT",
            Format::Share,
        ))
        .with(paper(
            "paper_tex_fills_at_max_rrpv_percent",
            "paper TEX",
            Format::Share,
        ));
    Section::new(&format!(
        "Fills at the largest RRPV at {} (Figure 8)",
        format_size(size)
    ))
    .view(v)
    .figures(&["fig08_drrip_rrpv3.svg"])
}

/// Figures 7 and 9: OPT's epochs of `stream`.
fn epochs(title: &str, stream: &str, figure: &str, suite: bool) -> Section {
    let mut v = View::of("opt_epochs").rows("stream", stream);
    if suite {
        v = v.with(Column::new(SCENE, "scene", Format::Plain).link("{}/index.html", &[MEAN]));
    }
    v = v
        .column("epoch", "epoch", Format::Plain)
        .column("hits", "hits", Format::Thousands)
        .column("hit_share", "hit share", Format::Fraction);
    if stream == "tex" {
        v = v.with(paper(
            "paper_hit_share_percent",
            "paper share",
            Format::Share,
        ));
    }
    v = v
        .column("entries", "entries", Format::Thousands)
        .column("resident", "resident", Format::Thousands)
        .column("death_ratio", "death ratio", RATIO)
        .with(paper("paper_death_ratio", "paper death ratio", RATIO));
    Section::new(title).view(v).figures(&[figure])
}

/// Figure 4: stream by stream, then by the paper's groups.
fn stream_mix(suite: bool) -> [Section; 2] {
    let scene = |v: View| {
        if suite {
            v.with(Column::new(SCENE, "scene", Format::Plain).link("{}/index.html", &[MEAN]))
        } else {
            v
        }
    };
    let streams = scene(View::of("stream_mix"))
        .column("stream", "stream", Format::Plain)
        .column("group", "the paper's group", Format::Plain)
        .column("accesses", "accesses", Format::Thousands)
        .column("fraction", "share", Format::Fraction);
    let groups = scene(View::of("stream_groups"))
        .column("group", "group", Format::Plain)
        .column("percent", "share", Format::Share)
        .with(paper("paper_percent", "paper (8 MB)", Format::Share));
    [
        Section::new("LLC accesses per stream (Figure 4)").view(streams),
        Section::new("LLC accesses by the paper's stream groups (Figure 4)")
            .view(groups)
            .figures(&["fig04_stream_mix.svg"]),
    ]
}

/// Figure 11, and the paper's bounds for single applications.
fn t_sensitivity(suite: bool) -> Section {
    let mut v = View::of("t_sensitivity");
    if suite {
        v = v.with(Column::new(SCENE, "scene", Format::Plain).link("{}/index.html", &[MEAN]));
    }
    let v = v
        .column("t", "t", Format::Plain)
        .column("misses", "GSPZTC misses", Format::Thousands)
        .column("change_vs_t16", "change vs t=16", Format::Share);
    let bounds: Vec<String> = paper::T_BOUNDS
        .iter()
        .map(|b| format!("t={}: {}", b.t, super::tables::t_bound_label(b)))
        .collect();
    Section::new("Sensitivity to t (Figure 11)")
        .view(v)
        .note(format!(
            "The paper gives no average, only bounds for single applications: {}.",
            bounds.join("; ")
        ))
        .figures(&["fig11_t_sensitivity.svg"])
}

/// Figures 15-17: the baseline machine's frame rates, then each other
/// machine's.
fn fps(r: &[&GspcReport], suite: bool) -> [Section; 2] {
    let base = run_keys(View::of("policies"), suite, true)
        .column("fps", "FPS", Format::Fixed2)
        .column("fps_vs_drrip", "vs DRRIP", RATIO)
        .with(paper("paper_fps_vs_drrip", "paper", RATIO));
    let others = run_keys(View::of("timing"), suite, true)
        .column("config", "machine", Format::Plain)
        .column("fps", "FPS", Format::Fixed2)
        .column("fps_vs_drrip", "vs DRRIP", RATIO)
        .with(paper("paper_fps_vs_drrip", "paper (8 MB)", RATIO));
    let mut timing = Section::new("Frame rate on the machines of Figure 17").view(others);
    for c in r.first().map_or(&[][..], |r| &r.timing_configs) {
        timing = timing.note(format!("{}: {}", c.name, c.about));
    }
    [
        Section::new("Frame rate normalised to DRRIP (Figures 15-17)").view(base),
        timing.figures(&["fig15_17_fps.svg"]),
    ]
}

/// Each counted frame of every run; none for a single counted frame.
fn frames(r: &GspcReport) -> Option<Section> {
    if r.frames - r.warmup < 2 {
        return None;
    }
    let v = View::of("frames")
        .column("policy", "policy", Format::Plain)
        .column("size", "size", Format::Size)
        .column("frame", "frame", Format::Plain)
        .column("misses", "misses", Format::Thousands)
        .column("hit_rate_tex", "TEX hit", Format::Fraction)
        .column("hit_rate_rt", "RT hit", Format::Fraction)
        .column("hit_rate_z", "Z hit", Format::Fraction)
        .column("hit_rate_all", "all hit", Format::Fraction)
        .column("frame_ms", "ms", Format::Fixed2)
        .column("fps", "FPS", Format::Fixed2);
    Some(
        Section::new("Per frame (baseline machine)")
            .view(v)
            .note("The mean of each run's frames is in policies.csv (frame_mean_*)."),
    )
}

/// The passes of GSPC's timeline (or the first one's): what each pass
/// costs, and what the policy learned and did in it.
fn passes(r: &GspcReport) -> Option<Section> {
    let g = r
        .timelines
        .iter()
        .find(|t| t.policy == "gspc")
        .or(r.timelines.first())?;
    let mut v = View::of("passes")
        .rows("policy", &g.policy)
        .column("frame", "frame", Format::Plain)
        .column("pass", "pass", Format::Plain)
        .column("kind", "kind", Format::Plain)
        .column("accesses", "accesses", Format::Thousands)
        .column("read_misses", "read misses", Format::Thousands)
        .column("write_misses", "write misses", Format::Thousands)
        .column("rt_fills_rrpv3", "RT fills at RRPV 3", Format::Thousands)
        .column("rt_fills_rrpv2", "at RRPV 2", Format::Thousands)
        .column("rt_fills_rrpv0", "at RRPV 0", Format::Thousands)
        .column("rt_consumed", "RT consumed", Format::Thousands);
    for (name, heading) in [("prod", "PROD mean"), ("cons", "CONS mean")] {
        if g.state.iter().any(|s| s == name) {
            v = v.column(&format!("{name}_mean"), heading, Format::decimals(0));
        }
    }
    Some(
        Section::new(&format!(
            "{} pass by pass at {} (timelines, every {} accesses)",
            g.policy.to_uppercase(),
            format_size(g.size),
            thousands(g.step)
        ))
        .lead(
            "Each run with a timeline has its passes in passes.csv and its points in \
             timeline.csv; the figure's grey lines are these passes' starts.",
        )
        .view(v)
        .figures(&["timeline_gspc.svg"]),
    )
}

/// The wall-clock seconds of each phase.
fn seconds(r: &GspcReport) -> Section {
    let each: Vec<String> = r
        .seconds
        .iter()
        .map(|(phase, s)| format!("{phase}: {s:.2} s"))
        .collect();
    Section::new("Wall-clock seconds per phase").note(each.join(", "))
}

/// The page of one scene's study.
pub fn page(r: &GspcReport) -> Page {
    let mut sections = vec![misses(false)];
    if let Some(size) = main_size(r) {
        let opt = r.policies.iter().any(|p| p.policy == "opt");
        let inter = opt.then_some(r.opt_epochs.tex_inter_share);
        sections.extend([
            hit_rates(size, false),
            rt_to_tex(size, false, inter),
            rrpv(size, false),
        ]);
    }
    sections.extend([
        epochs(
            "OPT's texture epochs (Figure 7)",
            "tex",
            "fig07_tex_epochs.svg",
            false,
        ),
        epochs("OPT's Z epochs (Figure 9)", "z", "fig09_z_death.svg", false),
    ]);
    sections.extend(stream_mix(false));
    sections.push(t_sensitivity(false));
    sections.extend(fps(&[r], false));
    sections.extend(frames(r));
    sections.extend(passes(r));
    sections.extend(r.machine.as_ref().map(|m| m.section()));
    sections.push(seconds(r));
    Page {
        title: format!(
            "GSPC study: {}, {} LLC accesses",
            scene(r),
            thousands(r.accesses)
        ),
        intro: vec![
            format!(
                "Trace {} ({}, each timed on its own); LLC of {} ({} ways, {}-byte blocks, {} \
                 banks). {PAPER_WORDS}",
                r.trace,
                frames_words(r),
                sizes_words(&r.sizes),
                r.ways,
                r.block,
                r.banks
            ),
            "Every table is a file of the report (CSV and Parquet, of the same name).".into(),
        ],
        picture: Some(Picture {
            file: "frame.png".into(),
            caption: frame_caption(r),
        }),
        sections,
    }
}

/// The page of a suite of `scenes`: the mean over the scenes first (and
/// each scene's rows under it), the paper's averages beside.
pub fn suite_page(scenes: &[(&str, &GspcReport)]) -> Page {
    let names: Vec<&str> = scenes.iter().map(|(n, _)| *n).collect();
    let reports: Vec<&GspcReport> = scenes.iter().map(|(_, r)| *r).collect();
    let shape = reports.first().map_or(String::new(), |f| {
        format!(
            "; LLC of {} ({} ways, {}-byte blocks, {} banks)",
            sizes_words(&f.sizes),
            f.ways,
            f.block,
            f.banks
        )
    });
    let mut sections = vec![misses(true)];
    if let Some(size) = reports.first().and_then(|r| main_size(r)) {
        sections.extend([
            hit_rates(size, true),
            rt_to_tex(size, true, None),
            rrpv(size, true),
        ]);
    }
    sections.extend([
        epochs(
            "OPT's texture epochs (Figure 7)",
            "tex",
            "fig07_tex_epochs.svg",
            true,
        ),
        epochs("OPT's Z epochs (Figure 9)", "z", "fig09_z_death.svg", true),
    ]);
    sections.extend(stream_mix(true));
    sections.push(t_sensitivity(true));
    sections.extend(fps(&reports, true));
    sections.extend(
        reports
            .first()
            .and_then(|r| r.machine.as_ref())
            .map(|m| m.section()),
    );
    Page {
        title: "GSPC study".into(),
        intro: vec![format!(
            "The GSPC study on each scene ({}){shape}. The mean is the arithmetic mean of the \
             scenes' figures, as the paper averages its applications: a ratio is the mean of \
             the scenes' ratios, so each scene weighs the same; a run or value some scene \
             lacks has none. The paper's values are its averages over 52 DirectX frames at 8 \
             MB (Gaur et al., MICRO'13), shown in grey italics.",
            names.join(", ")
        )],
        picture: None,
        sections,
    }
}
