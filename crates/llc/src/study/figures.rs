//! The study's figures as data ([`gfxcache_report::Figure`]): one per
//! figure of the GSPC paper the study reproduces, bars of ours beside the
//! paper's averages, over the tables of [`super::tables`]; a caption
//! computed from the report ([`super::readings`]) where the paper makes a
//! claim; and the timeline's, what GSPC learns along the frame (series
//! over the `timeline` table, the `passes` table's starts marked).
//!
//! Only what the report holds is drawn: a policy the study did not run has
//! no bar (nor the paper's beside it), and a figure with nothing to show
//! is not written.

use gfxcache_cache::format_size;
use gfxcache_report::suite::SCENE;
use gfxcache_report::{Axis, Figure, Line, Marks, Panel, Paper, Phases, Scale, Stroke};

use super::readings;
use super::report::GspcReport;
use super::runs::{FPS_POLICIES, ISO_OVERHEAD, REUSE_POLICIES, TABLE6};
use super::tables::main_size;

/// Every policy the figures draw as a series, in the order of the
/// palette: one colour per policy in every figure (Table 6's set first,
/// in the colours it had, then [`OTHER_POLICIES`]; a `+ucd` or four-bit
/// variant past the palette's twelve shares a colour with a policy it is
/// never drawn beside).
fn policy_colours() -> Vec<&'static str> {
    TABLE6.iter().chain(OTHER_POLICIES).copied().collect()
}

/// The policies drawn as series besides Table 6's.
const OTHER_POLICIES: &[&str] = &[
    "drrip",
    "lru",
    "drrip:bits=4",
    "gs-drrip:bits=4",
    "nru+ucd",
    "gs-drrip+ucd",
];

/// Figure 4's caption.
const FIG04: &str = "The share of LLC accesses of each of the paper's groups of graphics streams (vertex: vertex attributes and indices; rest: stencil, display, shader code and anything else), ours beside the paper's averages at 8 MB (Section 2.2; Z, of which it says only \"at least 10%\", from the talk's slide 10). The page's table splits ours stream by stream.";

const FIG11: &str = "Percent change in GSPZTC's LLC misses for each threshold t, relative to t = 16. The paper gives no average here, only that on average \"the four values of t experience almost the same number of LLC misses\"; the dashed marks, \"paper (bounds)\", are the bounds it states for single applications of its twelve (Section 5.1): at t = 2, at least +2 % in 3D Mark Vantage GT1, Dirt, HAWX and Unigine and more than 4 % fewer misses in Assassin's Creed; at t = 4, at least +1 % in Dirt and Unigine.";

const FIG13: &str = "Per policy at the main size, a panel per measure: texture hit rate, share of render-target lines consumed by the sampler from the LLC, render-target hit rate and Z hit rate. The paper's text gives only some of its values (at 8 MB), drawn beside ours: OPT's, DRRIP's and NRU's (the same measures as Figures 5 and 6), GSPC's render-target hit rate (Section 5.1) and GSPC+UCD's four (the talk's slide 44); it draws the others without stating them.";

/// The timeline figure's caption.
const TIMELINE: &str = "Along the trace (x: LLC accesses; grey lines: pass starts, numbered as in the pass table; black: frame ends): GSPC's PROD and CONS summed over the banks, with 8 and 16 times CONS, the thresholds a render-target fill is compared with (PROD above 16 CONS: RRPV 3; above 8 CONS: RRPV 2; else 0); the share of each interval's render-target fills inserted at each RRPV; and read misses per 1000 accesses of the runs with a timeline.";

/// A bar of ours per size (`ours 8MiB`) for each policy of `policies`,
/// the paper's (measured at 8 MB) beside those run at the main size.
fn per_size(
    policies: &[&str],
    main: &str,
    subtitle: &str,
    y: (&str, &str, Scale),
    paper: &str,
) -> Panel {
    let (column, label, scale) = y;
    Panel::bars(
        "policies",
        Axis::of("policy").only(policies),
        "size_label",
        column,
    )
    .subtitle(subtitle)
    .series_format("ours {}")
    .y_label(label, scale)
    .paper(Paper::Series {
        name: "paper (8 MB)".into(),
        column: paper.into(),
        of: main.into(),
    })
}

fn misses(main: &str, policies: &[&str], subtitle: &str) -> Panel {
    per_size(
        policies,
        main,
        subtitle,
        ("misses_vs_drrip", "misses / DRRIP's", Scale::Ratio),
        "paper_misses_vs_drrip",
    )
    .around(1.0)
}

/// OPT's epochs of `stream`, death ratios (E0 to E2) beside the paper's.
fn death(stream: &str, subtitle: &str) -> Panel {
    Panel::bars(
        "opt_epochs",
        Axis::of("epoch").except(&["E>=3"]),
        "",
        "death_ratio",
    )
    .rows("stream", stream)
    .subtitle(subtitle)
    .one("ours")
    .y_label("death ratio", Scale::Ratio)
    .paper(Paper::Series {
        name: "paper".into(),
        column: "paper_death_ratio".into(),
        of: "ours".into(),
    })
}

/// Whether OPT's epoch analysis of `stream` saw any line.
fn has_epochs(r: &GspcReport, stream: &str) -> bool {
    let e = if stream == "tex" {
        &r.opt_epochs.tex
    } else {
        &r.opt_epochs.z
    };
    e.entries.iter().any(|&n| n > 0)
}

/// Every figure of one scene's report: the paper's, in its order, then
/// the timeline's.
pub fn figures(r: &GspcReport) -> Vec<Figure> {
    let mut out = papers(r);
    out.extend(timeline(r));
    out
}

/// The render-target fills of an interval, by insertion RRPV: the sum a
/// share of them is over.
const RT_FILLS: [&str; 4] = [
    "rt_fills_rrpv3",
    "rt_fills_rrpv2",
    "rt_fills_rrpv1",
    "rt_fills_rrpv0",
];

/// What GSPC learns along the frame, pass by pass: its PROD and CONS (and
/// the thresholds 8 and 16 CONS), the insertion RRPVs of render-target
/// fills, and read misses, of the runs with a timeline, GSPC's passes
/// marked; none without GSPC's timeline.
fn timeline(r: &GspcReport) -> Option<Figure> {
    let g = r.timelines.iter().find(|t| t.policy == "gspc")?;
    let run = |line: Line, policy: &str, size: u64| {
        line.rows("policy", policy).rows("size", &size.to_string())
    };
    let gspc = |name: &str, column: &str, colour: usize| {
        run(
            Line::new(name, column, colour, Stroke::Solid),
            "gspc",
            g.size,
        )
    };
    let x = || Axis::of("at").label("LLC accesses (millions)").divide(1e6);
    let passes = Phases::new("passes", "at")
        .rows("policy", "gspc")
        .rows("size", &g.size.to_string())
        .ends("frame");
    // The thresholds only where GSPC reports both counters.
    let counted = ["prod", "cons"]
        .iter()
        .all(|c| g.state.iter().any(|s| s == c));
    let counters = if counted {
        vec![
            gspc("PROD", "prod", 0),
            gspc("CONS", "cons", 1),
            gspc("8 CONS", "cons", 2).times(8.0),
            gspc("16 CONS", "cons", 3).times(16.0),
        ]
    } else {
        Vec::new()
    };
    let share = |line: Line| line.per(&RT_FILLS).times(100.0);
    let mut rrpv = vec![
        share(gspc("GSPC at RRPV 3", "rt_fills_rrpv3", 0)),
        share(gspc("GSPC at RRPV 2", "rt_fills_rrpv2", 1)),
        share(gspc("GSPC at RRPV 0", "rt_fills_rrpv0", 2)),
    ];
    if let Some(d) = r.timelines.iter().find(|t| t.policy == "drrip") {
        let line = Line::new("DRRIP at RRPV 3", "rt_fills_rrpv3", 3, Stroke::Solid);
        rrpv.push(share(run(line, "drrip", d.size)));
    }
    let misses = r
        .timelines
        .iter()
        .enumerate()
        .map(|(k, t)| {
            // The policy's colour in every other figure.
            let colour = policy_colours()
                .iter()
                .position(|p| *p == t.policy)
                .unwrap_or(k);
            let line = Line::new(&t.policy, "read_misses", colour, Stroke::Solid);
            run(line, &t.policy, t.size)
                .per(&["accesses"])
                .times(1000.0)
        })
        .collect();
    let panel = |subtitle: &str, y: &str, lines: Vec<Line>| {
        Panel::series("timeline", x(), lines)
            .subtitle(subtitle)
            .y_label(y, Scale::Ratio)
            .phases(passes.clone())
    };
    Some(Figure::new(
        "timeline_gspc.svg",
        "What GSPC learns along the frame",
        TIMELINE,
        vec![
            panel(
                "GSPC's PROD and CONS, summed over the banks",
                "count",
                counters,
            ),
            panel(
                "Render-target fills by insertion RRPV",
                "% of the interval's RT fills",
                rrpv,
            ),
            panel(
                "Read misses per 1000 LLC accesses",
                "read misses / 1000 accesses",
                misses,
            ),
        ],
    ))
}

/// The figures of the paper, in its order.
fn papers(r: &GspcReport) -> Vec<Figure> {
    let mut out = vec![Figure::new(
        "fig04_stream_mix.svg",
        "Figure 4: LLC accesses per stream",
        FIG04,
        vec![
            Panel::bars("stream_groups", Axis::of("group"), "", "percent")
                .subtitle("Share of LLC accesses by the paper's stream groups")
                .one("ours")
                .y_label("% of accesses", Scale::Percent)
                .paper(Paper::Series {
                    name: "paper (8 MB)".into(),
                    column: "paper_percent".into(),
                    of: "ours".into(),
                }),
        ],
    )
    .reading(readings::fig04(r))];
    let Some(size) = main_size(r) else {
        return out;
    };
    let main = format_size(size);
    let at = size.to_string();
    let rates = ["Texture", "Render target", "Z"]
        .iter()
        .zip(["tex", "rt", "z"])
        .map(|(stream, s)| {
            per_size(
                REUSE_POLICIES,
                &main,
                &format!("{stream} hit rate"),
                (&format!("hit_rate_{s}"), "hit rate %", Scale::Percent),
                &format!("paper_hit_rate_{s}_percent"),
            )
            .times(100.0)
        })
        .collect();
    out.push(Figure::new(
        "fig05_hit_rates.svg",
        "Figure 5: texture, render-target and Z hit rates",
        "LLC hit rates of texture, render-target and Z accesses under Belady's OPT, DRRIP and NRU.",
        rates,
    ));
    let hits = Panel::bars("policies", Axis::of("policy").only(REUSE_POLICIES), "", "")
        .rows("size", &at)
        .subtitle(&format!("Texture hits over OPT's at {main}"))
        .one("")
        .measures(&[
            ("tex_hits_inter_vs_opt", "inter (RT->TEX)"),
            ("tex_hits_intra_vs_opt", "intra"),
        ])
        .y_label("hits / OPT's texture hits", Scale::Ratio)
        .paper(Paper::Series {
            name: "paper inter".into(),
            column: "paper_tex_hits_inter_vs_opt".into(),
            of: String::new(),
        })
        .paper(Paper::Series {
            name: "paper intra".into(),
            column: "paper_tex_hits_intra_vs_opt".into(),
            of: String::new(),
        });
    let consumed = per_size(
        REUSE_POLICIES,
        &main,
        "Render-target lines consumed by the sampler from the LLC",
        ("rt_consumed_fraction", "% of RT lines", Scale::Percent),
        "paper_rt_consumed_percent",
    )
    .times(100.0);
    out.push(Figure::new(
        "fig06_rt_to_tex.svg",
        "Figure 6: render target to texture reuse",
        "Texture hits split into inter-stream (RT to TEX) and intra-stream, normalised to OPT's texture hits, and the share of render-target lines the sampler consumes from the LLC.",
        vec![hits, consumed],
    ));
    if has_epochs(r, "tex") {
        let shares = Panel::bars("opt_epochs", Axis::of("epoch"), "", "hit_share")
            .rows("stream", "tex")
            .subtitle("Texture hits by epoch")
            .one("ours")
            .times(100.0)
            .y_label("% of texture hits", Scale::Percent)
            .paper(Paper::Series {
                name: "paper".into(),
                column: "paper_hit_share_percent".into(),
                of: "ours".into(),
            });
        out.push(Figure::new(
            "fig07_tex_epochs.svg",
            "Figure 7: texture hits by epoch under OPT",
            "Under OPT, the share of texture hits per epoch E0, E1, E2, E>=3, and the death ratio of each of the first three epochs.",
            vec![shares, death("tex", "Texture death ratio by epoch")],
        ));
    }
    out.push(Figure::new(
        "fig08_drrip_rrpv3.svg",
        "Figure 8: DRRIP fills at RRPV 3",
        "The share of render-target and texture fills two-bit DRRIP inserts at RRPV 3, predicting no near reuse.",
        vec![
            Panel::bars("drrip_rrpv3", Axis::of("fills"), "size_label", "percent")
                .subtitle("DRRIP fills at the largest RRPV")
                .series_format("ours {}")
                .y_label("% of fills", Scale::Percent)
                .paper(Paper::Series {
                    name: "paper (8 MB)".into(),
                    column: "paper_percent".into(),
                    of: main.clone(),
                }),
        ],
    ));
    if has_epochs(r, "z") {
        out.push(
            Figure::new(
                "fig09_z_death.svg",
                "Figure 9: Z death ratios under OPT",
                "The death ratio of each of the first three epochs of Z lines under OPT (the share of the lines reaching an epoch that leave the LLC without another hit), ours beside the paper's.",
                vec![death("z", "Z death ratio by epoch")],
            )
            .reading(readings::fig09(r)),
        );
    }
    out.push(Figure::new(
        "fig11_t_sensitivity.svg",
        "Figure 11: sensitivity to t (GSPZTC)",
        FIG11,
        vec![Panel::bars(
            "t_sensitivity",
            Axis::of("t").format("t={}"),
            "",
            "change_vs_t16",
        )
        .subtitle("GSPZTC misses relative to t = 16")
        .one("ours")
        .y_label("% change in misses", Scale::Percent)
        .marks(Marks {
            name: "paper (bounds)".into(),
            table: "t_bounds".into(),
            x: "t".into(),
            value: "paper_change_vs_t16".into(),
            label: "label".into(),
        })
        .reference(0.0)],
    ));
    out.push(
        Figure::new(
            "fig12_misses_vs_drrip.svg",
            "Figure 12: LLC misses normalised to DRRIP",
            "LLC misses of the policies of Table 6 over those of two-bit DRRIP; below 1 is fewer misses.",
            vec![misses(&main, TABLE6, "Policies of Table 6")],
        )
        .reading(readings::fig12(r)),
    );
    let fig13_policies: Vec<&str> = std::iter::once("drrip")
        .chain(TABLE6.iter().copied())
        .collect();
    let measures = [
        (
            "Texture hit rate",
            "hit rate %",
            "hit_rate_tex",
            "paper_hit_rate_tex_percent",
        ),
        (
            "Render-target lines consumed by the sampler",
            "% of RT lines",
            "rt_consumed_fraction",
            "paper_rt_consumed_percent",
        ),
        (
            "Render-target hit rate",
            "hit rate %",
            "hit_rate_rt",
            "paper_hit_rate_rt_percent",
        ),
        (
            "Z hit rate",
            "hit rate %",
            "hit_rate_z",
            "paper_hit_rate_z_percent",
        ),
    ];
    let fig13 = measures
        .iter()
        .map(|(name, y, column, paper)| {
            Panel::bars(
                "policies",
                Axis::of("policy").only(&fig13_policies),
                "",
                column,
            )
            .rows("size", &at)
            .subtitle(&format!("{name} at {main}"))
            .one("ours")
            .times(100.0)
            .y_label(y, Scale::Percent)
            .paper(Paper::Series {
                name: "paper".into(),
                column: paper.to_string(),
                of: "ours".into(),
            })
        })
        .collect();
    out.push(Figure::new(
        "fig13_gspc_rates.svg",
        "Figure 13: texture hit rate, RT consumption, RT and Z hit rates",
        FIG13,
        fig13,
    ));
    out.push(Figure::new(
        "fig14_iso_overhead.svg",
        "Figure 14: iso-overhead policies, misses normalised to DRRIP",
        "LLC misses of policies with four state bits per block (LRU, four-bit DRRIP and GS-DRRIP, GSPC) over two-bit DRRIP's.",
        vec![misses(&main, ISO_OVERHEAD, "Four state bits per block")],
    ));
    out.push(Figure::new(
        "fig15_17_fps.svg",
        "Figures 15-17: frame rate normalised to DRRIP+UCD",
        "Frames per second of NRU, GS-DRRIP and GSPC (all with uncached display) over DRRIP's, at each LLC size and under each timing configuration.",
        vec![
            Panel::bars("timing", Axis::of("config_size"), "policy", "fps_vs_drrip")
                .colours(&policy_colours())
                .order(FPS_POLICIES)
                .subtitle("Frame rate over DRRIP's")
                .y_label("FPS / DRRIP's", Scale::Ratio)
                .paper(Paper::Beside {
                    format: "{} paper".into(),
                    column: "paper_fps_vs_drrip".into(),
                })
                .around(1.0),
        ],
    ));
    out
}

/// A suite's per-scene panel, as the paper draws its per-application
/// charts: a group per scene, then the mean's, a bar per policy of
/// `policies` of `column` (× `times`), and last the paper's group named
/// `paper_name` from column `paper`.
fn by_scene(
    table: &str,
    policies: &[&str],
    column: &str,
    subtitle: &str,
    y: (&str, Scale),
    paper: (&str, &str),
) -> Panel {
    Panel::bars(table, Axis::of(SCENE), "policy", column)
        .colours(&policy_colours())
        .order(policies)
        .subtitle(subtitle)
        .y_label(y.0, y.1)
        .paper(Paper::Group {
            name: paper.0.into(),
            column: paper.1.into(),
        })
}

/// The figures of a suite of `scenes`' reports, over the suite's tables:
/// the paper's per-application charts, a group per scene and the mean's,
/// then the paper's average.
pub fn suite_figures(scenes: &[&GspcReport]) -> Vec<Figure> {
    let Some(first) = scenes.first() else {
        return Vec::new();
    };
    let sizes = &first.sizes;
    let Some(&size) = sizes.first() else {
        return Vec::new();
    };
    let main = format_size(size);
    let at = size.to_string();
    let rates = ["Texture", "Render target", "Z"]
        .iter()
        .zip(["tex", "rt", "z"])
        .map(|(stream, s)| {
            by_scene(
                "policies",
                REUSE_POLICIES,
                &format!("hit_rate_{s}"),
                &format!("{stream} hit rate at {main}"),
                ("hit rate %", Scale::Percent),
                ("paper (8 MB)", &format!("paper_hit_rate_{s}_percent")),
            )
            .rows("size", &at)
            .times(100.0)
        })
        .collect();
    let consumed = by_scene(
        "policies",
        REUSE_POLICIES,
        "rt_consumed_fraction",
        &format!("Render-target lines consumed from the LLC at {main}"),
        ("% of RT lines", Scale::Percent),
        ("paper (8 MB)", "paper_rt_consumed_percent"),
    )
    .rows("size", &at)
    .times(100.0);
    let t = Panel::bars("t_sensitivity", Axis::of(SCENE), "t", "change_vs_t16")
        .series_format("t={}")
        .subtitle("GSPZTC misses relative to t = 16")
        .y_label("% change in misses", Scale::Percent)
        .reference(0.0);
    let misses = |policies: &[&str], size: u64, subtitle: &str| {
        by_scene(
            "policies",
            policies,
            "misses_vs_drrip",
            &format!("{subtitle} at {}", format_size(size)),
            ("misses / DRRIP's", Scale::Ratio),
            ("paper (8 MB)", "paper_misses_vs_drrip"),
        )
        .rows("size", &size.to_string())
        .around(1.0)
    };
    // A panel per machine and size: the baseline's at every size, then
    // each other machine's; the paper measured those at 8 MB only.
    let configs = std::iter::once(super::tables::BASELINE).chain(
        first
            .timing_configs
            .iter()
            .map(|c| c.name.as_str())
            .filter(|c| *c != super::tables::BASELINE),
    );
    let fps = configs
        .flat_map(|c| {
            sizes.iter().map(move |&s| {
                by_scene(
                    "timing",
                    FPS_POLICIES,
                    "fps_vs_drrip",
                    &format!("{c} {}", format_size(s)),
                    ("FPS / DRRIP's", Scale::Ratio),
                    ("paper", "paper_fps_vs_drrip"),
                )
                .rows("config", c)
                .rows("size", &s.to_string())
                .around(1.0)
            })
        })
        .collect();
    vec![
        Figure::new(
            "fig05_hit_rates.svg",
            "Figure 5: texture, render-target and Z hit rates per scene",
            "LLC hit rates of texture, render-target and Z accesses under Belady's OPT, DRRIP and NRU at the main size, per scene, their mean, and the paper's average.",
            rates,
        ),
        Figure::new(
            "fig06_rt_consumed.svg",
            "Figure 6: render targets consumed by the sampler per scene",
            "The share of render-target lines the sampler consumes from the LLC at the main size, per scene, their mean, and the paper's average.",
            vec![consumed],
        ),
        Figure::new(
            "fig11_t_sensitivity.svg",
            "Figure 11: sensitivity to t (GSPZTC) per scene",
            "Percent change in GSPZTC's LLC misses for each threshold t, relative to t = 16, per scene and their mean. The paper gives no average (on average \"the four values of t experience almost the same number of LLC misses\"), only bounds for single applications: at t = 2, at least +2 % in four of its twelve and more than 4 % fewer in one; at t = 4, at least +1 % in two (Section 5.1).",
            vec![t],
        ),
        Figure::new(
            "fig12_misses_vs_drrip.svg",
            "Figure 12: LLC misses normalised to DRRIP per scene",
            "LLC misses of the policies of Table 6 over those of two-bit DRRIP, per scene, the mean of the scenes' ratios, and the paper's average over its 52 frames at 8 MB; below 1 is fewer misses.",
            sizes
                .iter()
                .map(|&s| misses(TABLE6, s, "Policies of Table 6"))
                .collect(),
        ),
        Figure::new(
            "fig14_iso_overhead.svg",
            "Figure 14: iso-overhead policies per scene",
            "LLC misses of policies with four state bits per block over two-bit DRRIP's at the main size, per scene, their mean and the paper's average.",
            vec![misses(ISO_OVERHEAD, size, "Four state bits per block")],
        ),
        Figure::new(
            "fig15_17_fps.svg",
            "Figures 15-17: frame rate normalised to DRRIP+UCD per scene",
            "Frames per second of NRU, GS-DRRIP and GSPC (all with uncached display) over DRRIP's, per scene, their mean and the paper's average: one panel per LLC size and timing configuration.",
            fps,
        ),
    ]
}
