//! SVG plots, one per figure of the GSPC paper that the study reproduces,
//! drawn with plotters' SVG backend: bar charts of ours beside the paper's
//! averages. Text is SVG `<text>`, so no font is loaded or needed.
//!
//! Only what the report holds is plotted: a policy the study did not run is
//! left out, and a figure with nothing to show is not written at all.

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{find, main_size, paper_fps, size_label, FPS_POLICIES, ISO_OVERHEAD, PAPER_SIZE};
use super::{REUSE_POLICIES, TABLE6};
use crate::gspc::paper;
use crate::gspc::report::{Epochs, GspcReport, PolicyResult};

/// One figure of the paper: its file, its title and what the paper's shows.
pub struct Figure {
    pub file: &'static str,
    pub title: &'static str,
    pub caption: &'static str,
    /// The panels to draw, top to bottom, from the report.
    build: fn(&GspcReport) -> Vec<Panel>,
}

/// Every figure, in the paper's order.
pub const FIGURES: &[Figure] = &[
    Figure {
        file: "fig04_stream_mix.svg",
        title: "Figure 4: LLC accesses per stream",
        caption: "The share of LLC accesses each graphics stream makes; render targets and textures dominate.",
        build: fig04,
    },
    Figure {
        file: "fig05_hit_rates.svg",
        title: "Figure 5: texture, render-target and Z hit rates",
        caption: "LLC hit rates of texture, render-target and Z accesses under Belady's OPT, DRRIP and NRU.",
        build: fig05,
    },
    Figure {
        file: "fig06_rt_to_tex.svg",
        title: "Figure 6: render target to texture reuse",
        caption: "Texture hits split into inter-stream (RT to TEX) and intra-stream, normalised to OPT's texture hits, and the share of render-target lines the sampler consumes from the LLC.",
        build: fig06,
    },
    Figure {
        file: "fig07_tex_epochs.svg",
        title: "Figure 7: texture hits by epoch under OPT",
        caption: "Under OPT, the share of texture hits per epoch E0, E1, E2, E>=3, and the death ratio of each of the first three epochs.",
        build: fig07,
    },
    Figure {
        file: "fig08_drrip_rrpv3.svg",
        title: "Figure 8: DRRIP fills at RRPV 3",
        caption: "The share of render-target and texture fills two-bit DRRIP inserts at RRPV 3, predicting no near reuse.",
        build: fig08,
    },
    Figure {
        file: "fig09_z_death.svg",
        title: "Figure 9: Z death ratios under OPT",
        caption: "The death ratio of each of the first three epochs of Z lines under OPT; only E0 dies often.",
        build: fig09,
    },
    Figure {
        file: "fig11_t_sensitivity.svg",
        title: "Figure 11: sensitivity to t (GSPZTC)",
        caption: "Percent change in GSPZTC's LLC misses for each threshold t, relative to t = 16.",
        build: fig11,
    },
    Figure {
        file: "fig12_misses_vs_drrip.svg",
        title: "Figure 12: LLC misses normalised to DRRIP",
        caption: "LLC misses of the policies of Table 6 over those of two-bit DRRIP; below 1 is fewer misses.",
        build: fig12,
    },
    Figure {
        file: "fig13_gspc_rates.svg",
        title: "Figure 13: texture hit rate, RT consumption, RT and Z hit rates",
        caption: "Per policy: texture hit rate, share of render targets consumed by the sampler, render-target hit rate and Z hit rate.",
        build: fig13,
    },
    Figure {
        file: "fig14_iso_overhead.svg",
        title: "Figure 14: iso-overhead policies, misses normalised to DRRIP",
        caption: "LLC misses of policies with four state bits per block (LRU, four-bit DRRIP and GS-DRRIP, GSPC) over two-bit DRRIP's.",
        build: fig14,
    },
    Figure {
        file: "fig15_17_fps.svg",
        title: "Figures 15-17: frame rate normalised to DRRIP+UCD",
        caption: "Frames per second of NRU, GS-DRRIP and GSPC (all with uncached display) over DRRIP's, at each LLC size and under each timing configuration.",
        build: fig15_17,
    },
];

/// How a panel's values read: ratios (3 decimals) or percentages (1 decimal).
#[derive(Clone, Copy)]
enum Unit {
    Ratio,
    Percent,
}

impl Unit {
    fn format(self, v: f64) -> String {
        match self {
            Unit::Ratio => format!("{v:.3}"),
            Unit::Percent => format!("{v:.1}"),
        }
    }
}

/// One bar per category; `None` where there is nothing to show.
struct Series {
    name: String,
    values: Vec<Option<f64>>,
    /// The paper's values, drawn in light tones so they read as reference.
    paper: bool,
}

/// One grouped bar chart: a group per category, a bar per series.
struct Panel {
    subtitle: String,
    y_label: String,
    unit: Unit,
    categories: Vec<String>,
    series: Vec<Series>,
    /// A horizontal line, e.g. at 1.0 for DRRIP on normalised charts.
    reference: Option<f64>,
}

impl Panel {
    fn new(subtitle: &str, y_label: &str, unit: Unit, categories: Vec<String>) -> Panel {
        Panel {
            subtitle: subtitle.into(),
            y_label: y_label.into(),
            unit,
            categories,
            series: Vec::new(),
            reference: None,
        }
    }

    fn series(mut self, name: impl Into<String>, values: Vec<Option<f64>>) -> Panel {
        self.push(name.into(), values, false);
        self
    }

    fn paper(mut self, name: impl Into<String>, values: Vec<Option<f64>>) -> Panel {
        self.push(name.into(), values, true);
        self
    }

    fn reference(mut self, at: f64) -> Panel {
        self.reference = Some(at);
        self
    }

    /// Keeps a series only if it has a value: an all-empty "paper" series
    /// would put a legend entry on a chart with nothing behind it.
    fn push(&mut self, name: String, values: Vec<Option<f64>>, paper: bool) {
        if values.iter().any(Option::is_some) {
            self.series.push(Series {
                name,
                values,
                paper,
            });
        }
    }

    /// Drops categories no series has a value for; false if nothing is left.
    fn prune(&mut self) -> bool {
        let keep: Vec<bool> = (0..self.categories.len())
            .map(|i| self.series.iter().any(|s| s.values[i].is_some()))
            .collect();
        let mut k = keep.iter();
        self.categories.retain(|_| *k.next().unwrap_or(&false));
        for s in &mut self.series {
            let mut k = keep.iter();
            s.values.retain(|_| *k.next().unwrap_or(&false));
        }
        !self.categories.is_empty()
    }
}

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, in the paper's order.
pub fn write_all(report: &GspcReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for fig in FIGURES {
        let panels: Vec<Panel> = (fig.build)(report)
            .into_iter()
            .filter_map(|mut p| p.prune().then_some(p))
            .collect();
        if panels.is_empty() {
            continue;
        }
        let path = dir.join(fig.file);
        let svg = render(fig.title, &panels).with_context(|| format!("plotting {}", fig.file))?;
        super::write_file(&path, &svg)?;
        written.push(path);
    }
    Ok(written)
}

// ---- The figures -------------------------------------------------------

fn fig04(r: &GspcReport) -> Vec<Panel> {
    let cats = r.stream_mix.iter().map(|s| s.stream.clone()).collect();
    let ours = r
        .stream_mix
        .iter()
        .map(|s| Some(s.fraction * 100.0))
        .collect();
    vec![Panel::new(
        "Share of LLC accesses",
        "% of accesses",
        Unit::Percent,
        cats,
    )
    .series("ours", ours)]
}

fn fig05(r: &GspcReport) -> Vec<Panel> {
    let rate = |k: usize| {
        move |p: &PolicyResult| Some(100.0 * [p.hit_rate.tex, p.hit_rate.rt, p.hit_rate.z][k])
    };
    let paper = |k: usize| move |policy: &str| paper_hit_rate(policy, k);
    ["Texture", "Render target", "Z"]
        .iter()
        .enumerate()
        .map(|(k, stream)| {
            let title = format!("{stream} hit rate");
            per_size(
                r,
                REUSE_POLICIES,
                &title,
                "hit rate %",
                Unit::Percent,
                rate(k),
                paper(k),
            )
        })
        .collect()
}

/// The paper's Figure 5 rate of stream `k` (tex, rt, z) for `policy`.
fn paper_hit_rate(policy: &str, k: usize) -> Option<f64> {
    paper::HIT_RATES
        .iter()
        .find(|(p, _)| *p == policy)
        .and_then(|(_, rates)| rates[k])
}

/// Inter- and intra-stream texture hits over OPT's texture hits; without
/// OPT there is nothing to normalise to, so only the consumption panel shows.
fn fig06(r: &GspcReport) -> Vec<Panel> {
    let consumed = per_size(
        r,
        REUSE_POLICIES,
        "Render-target lines consumed by the sampler from the LLC",
        "% of RT lines",
        Unit::Percent,
        |p| Some(100.0 * p.rt_consumed_fraction),
        |policy| paper::lookup(paper::RT_CONSUMED, policy),
    );
    let Some(size) = main_size(r) else {
        return vec![consumed];
    };
    let opt_hits = find(r, "opt", size).map(|o| (o.tex_hits_inter + o.tex_hits_intra) as f64);
    let Some(opt_hits) = opt_hits.filter(|h| *h > 0.0) else {
        return vec![consumed];
    };
    let runs: Vec<Option<&PolicyResult>> =
        REUSE_POLICIES.iter().map(|p| find(r, p, size)).collect();
    let share = |f: fn(&PolicyResult) -> u64| -> Vec<Option<f64>> {
        runs.iter()
            .map(|p| p.map(|p| f(p) as f64 / opt_hits))
            .collect()
    };
    let paper_share = |s: f64| {
        REUSE_POLICIES
            .iter()
            .map(|p| (*p == "opt").then_some(s))
            .collect()
    };
    let inter_paper = paper::OPT_TEX_INTER_SHARE / 100.0;
    let hits = Panel::new(
        &format!("Texture hits over OPT's at {}", size_label(size)),
        "hits / OPT's texture hits",
        Unit::Ratio,
        names(REUSE_POLICIES),
    )
    .series("inter (RT->TEX)", share(|p| p.tex_hits_inter))
    .series("intra", share(|p| p.tex_hits_intra))
    .paper("paper inter", paper_share(inter_paper))
    .paper("paper intra", paper_share(1.0 - inter_paper));
    vec![hits, consumed]
}

/// Skipped when the report has no epoch analysis (OPT did not run).
fn fig07(r: &GspcReport) -> Vec<Panel> {
    let tex = &r.opt_epochs.tex;
    if !has_epochs(tex) {
        return Vec::new();
    }
    let epochs = names(&["E0", "E1", "E2", "E>=3"]);
    let share = tex
        .hit_share_by_epoch
        .iter()
        .map(|s| Some(100.0 * s))
        .collect();
    let paper_share = paper::OPT_TEX_HITS_BY_EPOCH
        .iter()
        .map(|s| Some(*s))
        .collect();
    let hits = Panel::new(
        "Texture hits by epoch",
        "% of texture hits",
        Unit::Percent,
        epochs,
    )
    .series("ours", share)
    .paper("paper", paper_share);
    vec![
        hits,
        death_panel("Texture death ratio by epoch", tex, &paper::OPT_TEX_DEATH),
    ]
}

/// Skipped when the report has no epoch analysis (OPT did not run).
fn fig09(r: &GspcReport) -> Vec<Panel> {
    let z = &r.opt_epochs.z;
    if !has_epochs(z) {
        return Vec::new();
    }
    vec![death_panel(
        "Z death ratio by epoch",
        z,
        &paper::OPT_Z_DEATH,
    )]
}

fn has_epochs(e: &Epochs) -> bool {
    e.entries.iter().any(|&n| n > 0)
}

fn death_panel(subtitle: &str, e: &Epochs, paper: &[f64; 3]) -> Panel {
    Panel::new(
        subtitle,
        "death ratio",
        Unit::Ratio,
        names(&["E0", "E1", "E2"]),
    )
    .series("ours", e.death_ratios.iter().map(|d| Some(*d)).collect())
    .paper("paper", paper.iter().map(|d| Some(*d)).collect())
}

fn fig08(r: &GspcReport) -> Vec<Panel> {
    let cats = names(&["RT fills", "TEX fills"]);
    let mut panel = Panel::new(
        "DRRIP fills at the largest RRPV",
        "% of fills",
        Unit::Percent,
        cats,
    );
    for &size in &r.sizes {
        let drrip = find(r, "drrip", size);
        let values = vec![
            drrip
                .and_then(|p| p.rt_fills_at_max_rrpv)
                .map(|f| 100.0 * f),
            drrip
                .and_then(|p| p.tex_fills_at_max_rrpv)
                .map(|f| 100.0 * f),
        ];
        panel = panel.series(format!("ours {}", size_label(size)), values);
    }
    let (rt, tex) = paper::DRRIP_RRPV3;
    vec![panel.paper("paper (8 MB)", vec![Some(rt), Some(tex)])]
}

fn fig11(r: &GspcReport) -> Vec<Panel> {
    let cats = r
        .t_sensitivity
        .iter()
        .map(|p| format!("t={}", p.t))
        .collect();
    let ours = r
        .t_sensitivity
        .iter()
        .map(|p| Some(p.change_vs_t16))
        .collect();
    let panel = Panel::new(
        "GSPZTC misses relative to t = 16",
        "% change in misses",
        Unit::Percent,
        cats,
    );
    vec![panel.series("ours", ours).reference(0.0)]
}

fn fig12(r: &GspcReport) -> Vec<Panel> {
    vec![misses_panel(r, TABLE6, "Policies of Table 6")]
}

fn fig14(r: &GspcReport) -> Vec<Panel> {
    vec![misses_panel(r, ISO_OVERHEAD, "Four state bits per block")]
}

fn misses_panel(r: &GspcReport, policies: &[&str], subtitle: &str) -> Panel {
    per_size(
        r,
        policies,
        subtitle,
        "misses / DRRIP's",
        Unit::Ratio,
        |p| Some(p.misses_vs_drrip),
        |policy| paper::lookup(paper::MISSES_VS_DRRIP, policy),
    )
    .reference(1.0)
}

/// The rates of Figure 13 at the main size; the paper gives only averages
/// in prose here, which `index.html` sets beside ours.
fn fig13(r: &GspcReport) -> Vec<Panel> {
    let Some(size) = main_size(r) else {
        return Vec::new();
    };
    let policies: Vec<&str> = std::iter::once("drrip")
        .chain(TABLE6.iter().copied())
        .collect();
    let runs: Vec<Option<&PolicyResult>> = policies.iter().map(|p| find(r, p, size)).collect();
    let metric =
        |f: fn(&PolicyResult) -> f64| runs.iter().map(|p| p.map(|p| 100.0 * f(p))).collect();
    let subtitle = format!("Rates at {}", size_label(size));
    let panel = Panel::new(&subtitle, "%", Unit::Percent, names(&policies))
        .series("TEX hit rate", metric(|p| p.hit_rate.tex))
        .series("RT consumed", metric(|p| p.rt_consumed_fraction))
        .series("RT hit rate", metric(|p| p.hit_rate.rt))
        .series("Z hit rate", metric(|p| p.hit_rate.z));
    vec![panel]
}

/// A group per (configuration, size): the baseline timing at every size,
/// then each timing configuration at every size. The paper's Figure 17
/// configurations were measured at 8 MB only, so its values go there.
fn fig15_17(r: &GspcReport) -> Vec<Panel> {
    type Ours = Box<dyn Fn(&PolicyResult) -> Option<f64>>;
    let mut groups: Vec<(String, u64, Ours, Option<String>)> = Vec::new();
    for &size in &r.sizes {
        let label = size_label(size);
        let ours: Ours = Box::new(|p| Some(p.fps_vs_drrip));
        groups.push((format!("baseline {label}"), size, ours, Some(label)));
    }
    // The baseline is the first set of groups already.
    for c in r.timing_configs.iter().filter(|c| c.name != "baseline") {
        for &size in &r.sizes {
            let name = c.name.clone();
            let ours: Ours = Box::new(move |p| p.timing.get(&name).map(|t| t.fps_vs_drrip));
            let paper_config = (size == PAPER_SIZE).then(|| c.name.clone());
            groups.push((
                format!("{} {}", c.name, size_label(size)),
                size,
                ours,
                paper_config,
            ));
        }
    }
    let cats = groups.iter().map(|g| g.0.clone()).collect();
    let mut panel = Panel::new(
        "Frame rate over DRRIP's",
        "FPS / DRRIP's",
        Unit::Ratio,
        cats,
    );
    for policy in FPS_POLICIES {
        let ours: Vec<Option<f64>> = groups
            .iter()
            .map(|(_, size, f, _)| find(r, policy, *size).and_then(f))
            .collect();
        // The paper's bars only beside ours: a policy the study did not run
        // is left out, not shown by the paper's value alone.
        if ours.iter().all(Option::is_none) {
            continue;
        }
        let paper = groups
            .iter()
            .map(|(_, _, _, c)| c.as_deref().and_then(|c| paper_fps(c, policy)))
            .collect();
        panel = panel
            .series(*policy, ours)
            .paper(format!("{policy} paper"), paper);
    }
    vec![panel.reference(1.0)]
}

/// `policies` as categories with a series of ours at every size, then the
/// paper's value (measured at 8 MB).
fn per_size(
    r: &GspcReport,
    policies: &[&str],
    subtitle: &str,
    y_label: &str,
    unit: Unit,
    ours: impl Fn(&PolicyResult) -> Option<f64>,
    paper: impl Fn(&str) -> Option<f64>,
) -> Panel {
    let mut panel = Panel::new(subtitle, y_label, unit, names(policies));
    for &size in &r.sizes {
        let values = policies
            .iter()
            .map(|p| find(r, p, size).and_then(&ours))
            .collect();
        panel = panel.series(format!("ours {}", size_label(size)), values);
    }
    // The paper's bar shows only beside a policy we ran: prune keeps any
    // category with a value, and a paper-only group would invent a result.
    let ran = |p: &str| r.sizes.iter().any(|&s| find(r, p, s).is_some());
    let paper_values = policies
        .iter()
        .map(|p| if ran(p) { paper(p) } else { None })
        .collect();
    panel.paper("paper (8 MB)", paper_values)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---- Drawing -----------------------------------------------------------

/// Colours of our series, and light ones for the paper's.
const OURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];
const PAPER: [RGBColor; 4] = [
    RGBColor(170, 170, 170),
    RGBColor(240, 170, 170),
    RGBColor(170, 220, 170),
    RGBColor(210, 190, 230),
];

const PANEL_HEIGHT: u32 = 380;
const TITLE_HEIGHT: u32 = 40;

/// The SVG text of a figure: its title above its panels.
fn render(title: &str, panels: &[Panel]) -> anyhow::Result<String> {
    let width = panels.iter().map(panel_width).max().unwrap_or(640);
    let height = TITLE_HEIGHT + PANEL_HEIGHT * panels.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 24))?;
        for (area, panel) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// Wide enough for every bar to carry its value and every category its
/// label, horizontally: rotated labels are hard to read.
fn panel_width(p: &Panel) -> u32 {
    let label = p
        .categories
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let group = (p.series.len() as u32 * 36 + 24).max(label * 8 + 16);
    (140 + group * p.categories.len() as u32).max(640)
}

fn draw_panel(area: &DrawingArea<SVGBackend, Shift>, p: &Panel) -> anyhow::Result<()> {
    let x = Categories(p.categories.clone());
    let mut chart = ChartBuilder::on(area)
        .caption(&p.subtitle, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y_range(p))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(p.y_label.as_str())
        .max_light_lines(1)
        .label_style(("sans-serif", 14))
        .draw()?;
    let m = p.series.len();
    for (j, s) in p.series.iter().enumerate() {
        let color = series_color(p, j);
        let bars: Vec<(f64, f64, f64)> = s
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (bar_x(i, j, m), v)))
            .map(|((x0, x1), v)| (x0, x1, v))
            .collect();
        chart
            .draw_series(
                bars.iter()
                    .map(|&(x0, x1, v)| bar(x0, x1, v, color, s.paper)),
            )?
            .label(s.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], color.filled()));
        chart.draw_series(
            bars.iter()
                .map(|&(x0, x1, v)| value_label(x0, x1, v, p.unit)),
        )?;
    }
    if let Some(at) = p.reference {
        let line = vec![(0.0, at), (p.categories.len() as f64, at)];
        chart.draw_series(std::iter::once(PathElement::new(line, BLACK.mix(0.6))))?;
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

/// The paper's bars get an outline so they read apart from ours in grey.
fn bar(x0: f64, x1: f64, v: f64, color: RGBColor, paper: bool) -> Rectangle<(f64, f64)> {
    let style = if paper {
        color.filled().stroke_width(1)
    } else {
        color.filled()
    };
    Rectangle::new([(x0, 0.0), (x1, v)], style)
}

fn value_label(x0: f64, x1: f64, v: f64, unit: Unit) -> Text<'static, (f64, f64), String> {
    // Above a positive bar, below a negative one.
    let v_pos = if v >= 0.0 { VPos::Bottom } else { VPos::Top };
    let style = TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Center, v_pos));
    Text::new(unit.format(v), ((x0 + x1) / 2.0, v), style)
}

/// Ours in strong colours, the paper's in light ones, each counted apart so
/// the first paper series pairs with the first of ours.
fn series_color(p: &Panel, j: usize) -> RGBColor {
    let kind = p.series[j].paper;
    let k = p.series[..j].iter().filter(|s| s.paper == kind).count();
    if kind {
        PAPER[k % PAPER.len()]
    } else {
        OURS[k % OURS.len()]
    }
}

/// The x extent of series `j` of `m` in category `i`: the bars of a group
/// share 80% of its width, leaving a gap between groups.
fn bar_x(i: usize, j: usize, m: usize) -> (f64, f64) {
    let w = 0.8 / m as f64;
    let x0 = i as f64 + 0.1 + j as f64 * w;
    (x0, x0 + w)
}

/// From 0 (bars start there) to past the largest value, with room above
/// for the value labels and the legend, whose height grows with the series.
fn y_range(p: &Panel) -> Range<f64> {
    let values = p.series.iter().flat_map(|s| s.values.iter().flatten());
    let (lo, hi) = values
        .chain(p.reference.iter())
        .fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let span = if hi - lo > 0.0 { hi - lo } else { 1.0 };
    let lo = if lo < 0.0 { lo - 0.15 * span } else { 0.0 };
    let headroom = 0.2 + 0.08 * p.series.len() as f64;
    lo..hi + headroom * span
}

/// An x axis of named categories: category `i` spans `i..i+1`, and its label
/// sits at the centre.
struct Categories(Vec<String>);

impl Ranged for Categories {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (value / self.0.len().max(1) as f64 * span).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0.len()).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0.len() as f64
    }
}

impl ValueFormatter<f64> for Categories {
    fn format_ext(&self, value: &f64) -> String {
        let i = value.floor();
        if i >= 0.0 && (i as usize) < self.0.len() {
            self.0[i as usize].clone()
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::write::test_report::{report, report_without_opt};

    fn svg(dir: &Path, file: &str) -> anyhow::Result<String> {
        let path = dir.join(file);
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    }

    #[test]
    fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        assert_eq!(written.len(), FIGURES.len());
        for fig in FIGURES {
            let text = svg(dir.path(), fig.file)?;
            assert!(text.starts_with("<svg"), "{} is not an SVG", fig.file);
            assert!(text.contains(fig.title), "{} lacks its title", fig.file);
        }
        Ok(())
    }

    #[test]
    fn fig12_shows_our_policies_and_the_paper_but_no_other() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let text = svg(dir.path(), "fig12_misses_vs_drrip.svg")?;
        // plotters writes each <text> element's text on a line of its own.
        assert!(text.contains("\ngspc+ucd\n"));
        assert!(text.contains("\npaper (8 MB)\n"));
        assert!(text.contains("\n0.634\n"), "OPT's paper value");
        // ship-mem is in Table 6 but the report did not run it.
        assert!(!text.contains("ship-mem"));
        Ok(())
    }

    /// Without OPT: Figures 7 and 9 (OPT's epochs) are skipped; Figure 6
    /// keeps only its RT-consumption panel, as texture hits cannot be
    /// normalised to OPT's; Figures 5, 12 and 13 show the other policies.
    #[test]
    fn without_opt_the_opt_figures_are_skipped() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report_without_opt(), dir.path())?;
        let has = |f: &str| written.iter().any(|p| p.ends_with(f));
        assert!(!has("fig07_tex_epochs.svg"));
        assert!(!has("fig09_z_death.svg"));
        assert!(has("fig05_hit_rates.svg"));
        let fig06 = svg(dir.path(), "fig06_rt_to_tex.svg")?;
        assert!(!fig06.contains("over OPT"));
        assert!(!svg(dir.path(), "fig12_misses_vs_drrip.svg")?.contains("\nopt\n"));
        Ok(())
    }

    #[test]
    fn y_range_holds_negative_bars_and_zero() {
        let cats = names(&["t=2", "t=4"]);
        let p =
            Panel::new("t", "%", Unit::Percent, cats).series("ours", vec![Some(-4.0), Some(2.0)]);
        let r = y_range(&p);
        assert!(r.start < -4.0 && r.end > 2.0);
        let flat =
            Panel::new("t", "%", Unit::Percent, names(&["t=16"])).series("ours", vec![Some(0.0)]);
        assert!(
            y_range(&flat).end > 0.0,
            "an all-zero chart still has a height"
        );
    }

    #[test]
    fn bars_of_a_group_stay_inside_it() {
        let (x0, _) = bar_x(2, 0, 3);
        let (_, x1) = bar_x(2, 2, 3);
        assert!(x0 > 2.0 && x1 < 3.0);
        assert!((x1 - x0 - 0.8).abs() < 1e-9);
    }
}
