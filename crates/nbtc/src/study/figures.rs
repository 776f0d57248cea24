//! The study's figures as specifications over its tables
//! ([`super::tables`]), named after the slides' charts, a panel per
//! filter mode, the slides' numbers beside ours where they give them:
//! slide 22's total pixel-shader cycles stacked by category and its
//! cycles change against the BTC, slide 23's miss rate and slide 24's
//! memory traffic as grouped bars, and a figure per knob swept (ours).
//!
//! Only what the report holds is plotted: a design the study did not run
//! has no bar, a knob it did not sweep no figure.

use gfxcache_report::{Axis, Figure, Panel, Paper, Scale};

use super::tables::{knob_title, CATEGORIES, KNOBS};
use crate::config::Mode;
use crate::study::report::NbtcReport;

const PS_CYCLES: &str = "Per filter mode and memory latency, each design's cycles summed over the pixel processors (the slides' \"total PS cycles\"), cut into the cycles the shader ran (PS run), waited with every fragment in flight waiting for a texture result (PS stall), and the texture unit refused a request because the Waiting List Buffer was full (NBTC stall), then our finer causes: a cycle a request was accepted (issue), the blocking cache busy with a miss (BTC blocked), no room for a missing block (miss queue full: the BAB, an MSHR or target, the reorder buffer or request FIFO), the Retry Buffer full, an all-hit request losing the MUX, and the drain (no fragment left: the cycle the last result returns, and with a BAB that forgets sent blocks the wait for a second fetch nobody needs). The slides draw the BTC and the NBTC on an axis to 15 M cycles a frame and give no bar's value.";

const CYCLES_CHANGE: &str = "Each design's total pixel-shader cycles over the blocking cache's (serial fetches) at the same latency on the same frame, minus one, in percent; the slides' NBTC at 50 cycles (-12.47 %) and 300 cycles (-41.64 %) beside.";

const MISS_RATE: &str = "Missing texels (primary and secondary misses) over texel lookups, per design and latency. The slides give no values (their axis runs to 8 %) and say the NBTC's miss rate is \"slightly\" above the BTC's, since a lookup of a block still on its way misses again.";

const TRAFFIC: &str = "Bytes fetched from memory (block requests x block size), per design and latency, and the change against the BTC; the slides' bound, the NBTC up to 11 % above the BTC, beside as the last group.";

const SWEEP: &str = "One knob changed at a time on one frame at one latency, the others at the unit's values (the unit's own marked \"main\"): the NBTC's total pixel-shader cycles and memory traffic against the blocking cache. The blocking cache has the same value of the knob, except for the NBTC's buffers, which it lacks.";

/// The files of the knobs' figures, and their titles, in [`KNOBS`] order.
pub const SWEEP_TITLES: [(&str, &str); 9] = [
    ("wlb_entries", "Sweep: Waiting List Buffer entries"),
    ("bab_entries", "Sweep: Block Address Buffer entries"),
    ("rb_entries", "Sweep: Retry Buffer entries"),
    ("block_bytes", "Sweep: block bytes"),
    ("hit_latency", "Sweep: hit latency (ours)"),
    ("filter_latency", "Sweep: filter latency (ours)"),
    (
        "issue_rate",
        "Sweep: issue rates, % of the machine's (0: free shading)",
    ),
    ("fragments_in_flight", "Sweep: fragments in flight"),
    ("shared_memory", "Sweep: units sharing one DRAM (ours)"),
];

/// Every design in the order of the palette, so that each has one colour
/// in every figure (the BTC's blue whether or not a panel draws it).
pub const DESIGN_COLOURS: [&str; 5] = ["btc", "btc-parallel", "nbtc", "mshr", "prefetching"];

/// A latency as a category.
const LATENCY: &str = "{} cycles";

/// A bar chart of `y` from `runs`, a panel per filter mode, a group per
/// latency, a bar per design.
fn by_latency(subtitle: &str, y: &str, label: &str, scale: Scale) -> Panel {
    Panel::bars("runs", Axis::of("latency").format(LATENCY), "mode", y)
        .colours(&DESIGN_COLOURS)
        .subtitle(subtitle)
        .y_label(label, scale)
}

/// Every figure, the slides' order, then a figure per knob swept.
pub fn figures(r: &NbtcReport) -> Vec<Figure> {
    let segments: Vec<(&str, &str)> = CATEGORIES.iter().map(|c| (c.field, c.name)).collect();
    let btc = Mode::BTC.name();
    let mut out = vec![
        Figure::new(
            "ps_cycles.svg",
            "Slide 22: total pixel-shader cycles",
            PS_CYCLES,
            vec![Panel::stacked(
                "runs",
                Axis::of("latency").format(LATENCY),
                "mode",
                &segments,
            )
            .subtitle("Total PS cycles: {} filtering")
            .y_label("cycles", Scale::Ratio)],
        )
        .facet("filter"),
        Figure::new(
            "cycles_change.svg",
            "Slide 22: pixel-shader cycles against the BTC",
            CYCLES_CHANGE,
            vec![by_latency(
                "PS cycles against the BTC: {} filtering",
                "cycles_change_percent",
                "cycles vs BTC %",
                Scale::Percent,
            )
            .except(&[btc])
            .paper(Paper::Series {
                name: "paper nbtc".into(),
                column: "paper_cycles_change_percent".into(),
                of: Mode::Nbtc.name().into(),
            })
            .reference(0.0)],
        )
        .facet("filter"),
        Figure::new(
            "miss_rate.svg",
            "Slide 23: miss rate",
            MISS_RATE,
            vec![by_latency(
                "Miss rate: {} filtering",
                "miss_rate_percent",
                "texel misses %",
                Scale::Percent,
            )],
        )
        .facet("filter")
        .reading(miss_rate_words(r)),
        Figure::new(
            "traffic.svg",
            "Slide 24: memory traffic",
            TRAFFIC,
            vec![
                by_latency(
                    "Memory traffic: {} filtering",
                    "traffic_bytes",
                    "MiB",
                    Scale::Ratio,
                )
                .divide(f64::from(1u32 << 20)),
                by_latency(
                    "Memory traffic against the BTC: {} filtering",
                    "traffic_change_percent",
                    "traffic vs BTC %",
                    Scale::Percent,
                )
                .except(&[btc])
                .paper(Paper::Group {
                    name: "paper (at most)".into(),
                    column: "paper_traffic_change_max_percent".into(),
                })
                .reference(0.0),
            ],
        )
        .facet("filter"),
    ];
    for (knob, title) in SWEEP_TITLES {
        if let Some(s) = r.sweeps.iter().find(|s| s.knob == knob) {
            let at = format!("{} filtering, {} cycles", s.filter, s.latency);
            let metric = |y: &str, column: &str| {
                Panel::bars(
                    "sweeps",
                    Axis::of("value").mark("main", "{} (main)"),
                    "mode",
                    column,
                )
                .rows("knob", knob)
                .rows("mode", Mode::Nbtc.name())
                .one(Mode::Nbtc.name())
                .colours(&DESIGN_COLOURS)
                .subtitle(&format!("NBTC {y} by {} ({at})", knob_title(knob)))
                .y_label(y, Scale::Percent)
                .reference(0.0)
            };
            out.push(Figure::new(
                &format!("sweep_{knob}.svg"),
                title,
                SWEEP,
                vec![
                    metric("cycles vs BTC %", "cycles_change_percent"),
                    metric("traffic vs BTC %", "traffic_change_percent"),
                ],
            ));
        }
    }
    debug_assert_eq!(SWEEP_TITLES.len(), KNOBS.len());
    out
}

/// The slide 23's claim checked here: in how many runs (filter and
/// latency) the NBTC's miss rate is above the BTC's, and by how much.
fn miss_rate_words(r: &NbtcReport) -> String {
    let gaps: Vec<f64> = r
        .frames
        .iter()
        .flat_map(|f| {
            r.latencies.iter().filter_map(|&l| {
                let (n, b) = (f.row(Mode::Nbtc, l)?, f.row(Mode::BTC, l)?);
                Some(n.miss_rate - b.miss_rate)
            })
        })
        .collect();
    if gaps.is_empty() {
        return String::new();
    }
    let above = gaps.iter().filter(|&&g| g > 0.0).count();
    let (lo, hi) = gaps
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &g| {
            (lo.min(g), hi.max(g))
        });
    let n = gaps.len();
    let runs = if n == 1 { "run" } else { "runs" };
    let side = match above {
        0 => format!("at or below the BTC's in all {n} {runs}"),
        a if a == n => format!("above the BTC's in all {n} {runs}"),
        a => format!("above the BTC's in {a} of {n} runs"),
    };
    format!("Here the NBTC's miss rate is {side} (NBTC minus BTC: {lo:+.2} to {hi:+.2} points).")
}

const SCENES_CYCLES: &str = "The NBTC's total pixel-shader cycles over the blocking cache's, minus one, in percent, at each latency, per scene, their mean and the slides' (-12.47 % at 50 cycles, -41.64 % at 300).";

const SUITE_SWEEP: &str = "One knob changed at a time, the NBTC's cycles against the blocking cache at each value swept (the unit's own marked \"main\"), per scene and their mean.";

/// The mean rows' panel of `y` per filter mode, a group per latency, a
/// bar per design.
fn mean_by_latency(subtitle: &str, y: &str, label: &str) -> Panel {
    by_latency(subtitle, y, label, Scale::Percent).rows("scene", "mean")
}

/// The figures of a suite, over its tables: the NBTC's cycles change per
/// scene, the mean of every design's cycles change, miss rate and traffic
/// change per latency beside the slides', and a figure per knob swept (a
/// bar per scene and the mean's).
pub fn suite_figures(scenes: &[&NbtcReport]) -> Vec<Figure> {
    let btc = Mode::BTC.name();
    let nbtc = Mode::Nbtc.name();
    let mut out = vec![
        Figure::new(
            "cycles_change_scenes.svg",
            "Slide 22: NBTC pixel-shader cycles against the BTC per scene",
            SCENES_CYCLES,
            vec![Panel::bars("runs", Axis::of("scene"), "latency", "cycles_change_percent")
                .rows("mode", nbtc)
                .series_format("nbtc at {} cycles")
                .subtitle("NBTC cycles against the BTC: {} filtering")
                .y_label("cycles vs BTC %", Scale::Percent)
                .paper(Paper::Group {
                    name: "paper".into(),
                    column: "paper_cycles_change_percent".into(),
                })
                .reference(0.0)],
        )
        .facet("filter"),
        Figure::new(
            "cycles_change.svg",
            "Slide 22: pixel-shader cycles against the BTC, mean over the scenes",
            "Each design's cycles change against the blocking cache at each latency, the mean of the scenes', beside the slides' NBTC.",
            vec![mean_by_latency(
                "PS cycles against the BTC: {} filtering, mean",
                "cycles_change_percent",
                "cycles vs BTC %",
            )
            .except(&[btc])
            .paper(Paper::Series {
                name: "paper nbtc".into(),
                column: "paper_cycles_change_percent".into(),
                of: nbtc.into(),
            })
            .reference(0.0)],
        )
        .facet("filter"),
        Figure::new(
            "miss_rate.svg",
            "Slide 23: miss rate, mean over the scenes",
            "Missing texels over texel lookups, per design and latency, the mean of the scenes'. The slides give no values.",
            vec![mean_by_latency(
                "Miss rate: {} filtering, mean",
                "miss_rate_percent",
                "texel misses %",
            )],
        )
        .facet("filter"),
        Figure::new(
            "traffic_change.svg",
            "Slide 24: memory traffic against the BTC, mean over the scenes",
            "Each design's bytes fetched from memory over the blocking cache's, minus one, in percent, the mean of the scenes'; the slides' bound (the NBTC up to 11 % above the BTC) as the last group.",
            vec![mean_by_latency(
                "Memory traffic against the BTC: {} filtering, mean",
                "traffic_change_percent",
                "traffic vs BTC %",
            )
            .except(&[btc])
            .paper(Paper::Group {
                name: "paper (at most)".into(),
                column: "paper_traffic_change_max_percent".into(),
            })
            .reference(0.0)],
        )
        .facet("filter"),
    ];
    for (knob, title) in SWEEP_TITLES {
        let swept = scenes
            .iter()
            .any(|r| r.sweeps.iter().any(|s| s.knob == knob));
        if swept {
            let subtitle = format!("NBTC cycles vs BTC % by {}", knob_title(knob));
            out.push(Figure::new(
                &format!("sweep_{knob}.svg"),
                &format!("{title} per scene"),
                SUITE_SWEEP,
                vec![Panel::bars(
                    "sweeps",
                    Axis::of("value").mark("main", "{} (main)"),
                    "scene",
                    "cycles_change_percent",
                )
                .rows("knob", knob)
                .rows("mode", nbtc)
                .subtitle(&subtitle)
                .y_label("cycles vs BTC %", Scale::Percent)
                .reference(0.0)],
            ));
        }
    }
    out
}
