//! `index.html`: the study on one self-contained page (inline CSS, no script,
//! no external asset but the SVG plots beside it), every table with the
//! paper's averages beside ours, then the figures.
//!
//! Every string from the report goes through [`esc`]: scene and policy names
//! come from files and command lines.

use std::fmt::Write as _;

use super::{find, main_size, paper_fps, policy_names, PAPER_SIZE};
use crate::report::html::{self, warnings, Figures};
use crate::report::html::{
    cell, esc, frame, paper_cell, ratio, scene, seconds_table, section, strings, text,
};
use crate::report::Shown;
use crate::table::percent;
use crate::table::thousands;
use gfxcache_cache::format_size;
use gfxcache_llc::study::paper;
use gfxcache_llc::study::report::{Epochs, GspcReport, PolicyResult};

/// The whole page: the setup and the frame, then each table with the
/// figures that plot it right after it.
pub fn page(r: &GspcReport, shown: &Shown) -> String {
    let title = format!("GSPC study: {}", esc(&heading(r)));
    let mut figs = Figures::new(shown.figures, |f| super::plots::about(r, f));
    let mut h = setup(r);
    if shown.holds("frame.png") {
        h += &frame("frame.png", &frame_caption(r));
    }
    h += &misses_table(r);
    h += &figs.take("fig12_misses_vs_drrip.svg");
    h += &figs.take("fig14_iso_overhead.svg");
    h += &hit_rate_table(r);
    h += &figs.take("fig05_hit_rates.svg");
    h += &rt_to_tex_table(r);
    h += &figs.take("fig06_rt_to_tex.svg");
    h += &figs.take("fig13_gspc_rates.svg");
    h += &rrpv_table(r);
    h += &figs.take("fig08_drrip_rrpv3.svg");
    let e = &r.opt_epochs;
    h += &epoch_table(
        "OPT's texture epochs (Figure 7)",
        &e.tex,
        Some(&paper::OPT_TEX_HITS_BY_EPOCH),
        &paper::OPT_TEX_DEATH,
    );
    h += &figs.take("fig07_tex_epochs.svg");
    h += &epoch_table("OPT's Z epochs (Figure 9)", &e.z, None, &paper::OPT_Z_DEATH);
    h += &figs.take("fig09_z_death.svg");
    h += &stream_mix_table(r);
    h += &figs.take("fig04_stream_mix.svg");
    h += &t_table(r);
    h += &figs.take("fig11_t_sensitivity.svg");
    h += &fps_table(r);
    h += &figs.take("fig15_17_fps.svg");
    h += &frames_table(r);
    h += &passes_table(r);
    h += &figs.take("timeline_gspc.svg");
    h += &figs.rest("Other figures");
    h += &seconds_table(&r.seconds);
    html::page(&title, &h)
}

/// What the frame shown is: the scene at its resolution, the frames played.
fn frame_caption(r: &GspcReport) -> String {
    let what = scene(r.scene.as_deref(), &r.trace, r.resolution);
    let frames = match r.frames {
        1 => String::new(),
        n => format!(" (the last of the {n} frames played)"),
    };
    format!("{}{frames}, as rendered for this study.", esc(&what))
}

/// Scene, resolution and accesses, for the title.
fn heading(r: &GspcReport) -> String {
    let scene = scene(r.scene.as_deref(), &r.trace, r.resolution);
    format!("{scene}, {} LLC accesses", thousands(r.accesses))
}

fn setup(r: &GspcReport) -> String {
    let sizes: Vec<String> = r.sizes.iter().map(|&s| format_size(s)).collect();
    let frames = if r.warmup > 0 {
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
    };
    let mut h = format!(
        "<p>Trace <code>{}</code> ({frames}, each timed on its own); LLC of {} ({} ways, \
         {}-byte blocks, {} banks). The paper's values are its averages over 52 DirectX frames \
         at 8 MB, each simulated on its own from a cold LLC (Gaur et al., MICRO'13), shown in \
         grey italics.</p>\n",
        esc(&r.trace),
        esc(&sizes.join(", ")),
        r.ways,
        r.block,
        r.banks
    );
    h += &warnings(&r.warnings);
    h
}

/// Each counted frame of every run, then the run's mean (baseline machine).
fn frames_table(r: &GspcReport) -> String {
    if r.frames - r.warmup < 2 {
        return String::new();
    }
    let head = strings(&[
        "policy", "size", "frame", "misses", "TEX hit", "RT hit", "Z hit", "all hit", "ms", "FPS",
    ]);
    let rows = r.policies.iter().flat_map(|p| {
        let run = [text(&p.policy), text(&format_size(p.size))];
        let each = run.clone();
        let frames = p.per_frame.iter().map(move |f| {
            let h = &f.hit_rate;
            let mut row = each.to_vec();
            row.push(text(&f.frame.to_string()));
            row.push(cell(Some(thousands(f.misses))));
            row.extend([h.tex, h.rt, h.z, h.all].map(|v| cell(Some(percent(v)))));
            row.extend([f.frame_ms, f.fps].map(|v| cell(Some(format!("{v:.2}")))));
            row
        });
        let m = &p.mean_per_frame;
        let mut mean = run.to_vec();
        mean.push(text("mean"));
        mean.push(cell(Some(format!("{:.0}", m.misses))));
        let h = &m.hit_rate;
        mean.extend([h.tex, h.rt, h.z, h.all].map(|v| cell(Some(percent(v)))));
        mean.extend([m.frame_ms, m.fps].map(|v| cell(Some(format!("{v:.2}")))));
        frames.chain(std::iter::once(mean))
    });
    section("Per frame (baseline machine)", &head, rows)
}

fn misses_table(r: &GspcReport) -> String {
    let mut head = vec!["policy".to_string()];
    for &s in &r.sizes {
        let l = format_size(s);
        head.push(format!("misses {l}"));
        head.push(format!("vs DRRIP {l}"));
        head.push(format!("read misses vs DRRIP {l}"));
    }
    head.push("paper (8 MB)".into());
    let rows = policy_names(r).into_iter().map(|policy| {
        let mut row = vec![text(policy)];
        for &s in &r.sizes {
            let p = find(r, policy, s);
            row.push(cell(p.map(|p| thousands(p.misses))));
            row.push(cell(p.map(|p| ratio(p.misses_vs_drrip))));
            row.push(cell(p.map(|p| ratio(p.read_misses_vs_drrip))));
        }
        row.push(paper_cell(
            paper::lookup(paper::MISSES_VS_DRRIP, policy).map(ratio),
        ));
        row
    });
    let h = section(
        "LLC misses normalised to DRRIP (Figures 12 and 14)",
        &head,
        rows,
    );
    if h.is_empty() {
        return h;
    }
    h + "<p>Read misses fetch from memory; write misses are whole lines written back by the \
         render caches and fetch nothing.</p>\n"
}

/// The passes of GSPC's timeline (or the first one's): what each pass
/// costs every run with a timeline, and what GSPC learned and did in it.
fn passes_table(r: &GspcReport) -> String {
    let Some(g) = r
        .timelines
        .iter()
        .find(|t| t.policy == "gspc")
        .or(r.timelines.first())
    else {
        return String::new();
    };
    let state = |name: &str| g.state.iter().position(|n| n == name);
    let (prod, cons) = (state("prod"), state("cons"));
    let mut head = strings(&["#", "frame", "pass", "kind", "accesses"]);
    for t in &r.timelines {
        head.push(format!("{} read misses", t.policy));
        head.push(format!("{} write misses", t.policy));
    }
    head.extend(
        [
            "RT fills",
            "at RRPV 3",
            "at RRPV 2",
            "at RRPV 0",
            "RT consumed",
            "PROD mean",
            "CONS mean",
        ]
        .map(|c| format!("{} {c}", g.policy)),
    );
    let rows = g.passes.iter().enumerate().map(|(k, s)| {
        let mut row = vec![
            text(&(k + 1).to_string()),
            text(&s.frame.to_string()),
            text(&s.name),
            text(&s.kind),
            cell(Some(thousands(s.totals.accesses))),
        ];
        for t in &r.timelines {
            let same = t
                .passes
                .get(k)
                .filter(|o| o.name == s.name && o.frame == s.frame);
            row.push(cell(same.map(|o| thousands(o.totals.read_misses))));
            row.push(cell(same.map(|o| thousands(o.totals.write_misses))));
        }
        let fills = s.totals.rt_fills_by_rrpv;
        let all: u64 = fills.iter().sum();
        row.push(cell(Some(thousands(all))));
        for band in [0, 1, 3] {
            row.push(cell(
                (all > 0).then(|| percent(fills[band] as f64 / all as f64)),
            ));
        }
        row.push(cell(Some(thousands(s.totals.rt_consumed))));
        for k in [prod, cons] {
            row.push(cell(k.map(|k| format!("{:.0}", s.state_mean[k]))));
        }
        row
    });
    let title = format!(
        "Pass by pass at {} (timelines, every {} accesses)",
        format_size(g.size),
        thousands(g.step)
    );
    section(&title, &head, rows)
}

/// Ours at the main size beside the paper's Figure 5 (and GSPC's RT rate).
fn hit_rate_table(r: &GspcReport) -> String {
    let Some(size) = main_size(r) else {
        return String::new();
    };
    let head = [
        "policy",
        "TEX",
        "RT",
        "Z",
        "all",
        "paper TEX",
        "paper RT",
        "paper Z",
    ];
    let rows = at_size(r, size).map(|p| {
        let h = &p.hit_rate;
        let paper = paper::HIT_RATES.iter().find(|(n, _)| *n == p.policy);
        let mut row = vec![text(&p.policy)];
        row.extend([h.tex, h.rt, h.z, h.all].map(|v| cell(Some(percent(v)))));
        row.extend(
            (0..3).map(|k| paper_cell(paper.and_then(|(_, v)| v[k]).map(|v| percent(v / 100.0)))),
        );
        row
    });
    let title = format!("Hit rates at {} (Figure 5)", format_size(size));
    section(&title, &strings(&head), rows)
}

fn rt_to_tex_table(r: &GspcReport) -> String {
    let Some(size) = main_size(r) else {
        return String::new();
    };
    let head = [
        "policy",
        "TEX hits RT->TEX",
        "TEX hits intra",
        "inter share",
        "RT consumed",
        "paper RT consumed",
    ];
    let rows = at_size(r, size).map(|p| {
        let all = p.tex_hits_inter + p.tex_hits_intra;
        let share = (all > 0).then(|| percent(p.tex_hits_inter as f64 / all as f64));
        vec![
            text(&p.policy),
            cell(Some(thousands(p.tex_hits_inter))),
            cell(Some(thousands(p.tex_hits_intra))),
            cell(share),
            cell(Some(percent(p.rt_consumed_fraction))),
            paper_cell(paper::lookup(paper::RT_CONSUMED, &p.policy).map(|v| percent(v / 100.0))),
        ]
    });
    let title = format!(
        "Render target to texture consumption at {} (Figure 6)",
        format_size(size)
    );
    let mut h = section(&title, &strings(&head), rows);
    let _ = writeln!(
        h,
        "<p>Share of OPT's texture hits that are RT-&gt;TEX: {} (paper: {}).</p>",
        percent(r.opt_epochs.tex_inter_share),
        percent(paper::OPT_TEX_INTER_SHARE / 100.0)
    );
    h
}

/// Only policies with RRPVs have these fractions.
fn rrpv_table(r: &GspcReport) -> String {
    let Some(size) = main_size(r) else {
        return String::new();
    };
    let head = [
        "policy",
        "RT fills at max RRPV",
        "TEX fills at max RRPV",
        "paper RT",
        "paper TEX",
    ];
    let rows = at_size(r, size)
        .filter(|p| p.rt_fills_at_max_rrpv.is_some() || p.tex_fills_at_max_rrpv.is_some())
        .map(|p| {
            let paper = (p.policy == "drrip").then_some(paper::DRRIP_RRPV3);
            vec![
                text(&p.policy),
                cell(p.rt_fills_at_max_rrpv.map(percent)),
                cell(p.tex_fills_at_max_rrpv.map(percent)),
                paper_cell(paper.map(|(rt, _)| percent(rt / 100.0))),
                paper_cell(paper.map(|(_, tex)| percent(tex / 100.0))),
            ]
        });
    let title = format!(
        "Fills at the largest RRPV at {} (Figure 8)",
        format_size(size)
    );
    section(&title, &strings(&head), rows)
}

fn epoch_table(
    title: &str,
    e: &Epochs,
    paper_share: Option<&[f64; 4]>,
    paper_death: &[f64; 3],
) -> String {
    let head = [
        "epoch",
        "hits",
        "hit share",
        "paper share",
        "entries",
        "resident",
        "death ratio",
        "paper death ratio",
    ];
    let rows = ["E0", "E1", "E2", "E>=3"]
        .iter()
        .enumerate()
        .map(|(k, name)| {
            vec![
                text(name),
                cell(Some(thousands(e.hits_by_epoch[k]))),
                cell(Some(percent(e.hit_share_by_epoch[k]))),
                paper_cell(paper_share.map(|s| percent(s[k] / 100.0))),
                cell(Some(thousands(e.entries[k]))),
                cell(Some(thousands(e.resident[k]))),
                cell(e.death_ratios.get(k).map(|d| ratio(*d))),
                paper_cell(paper_death.get(k).map(|d| ratio(*d))),
            ]
        });
    section(title, &strings(&head), rows)
}

/// Our accesses stream by stream, then by the paper's groups beside its
/// shares.
fn stream_mix_table(r: &GspcReport) -> String {
    let rows = r.stream_mix.iter().map(|s| {
        vec![
            text(&s.stream),
            text(paper::stream_group(&s.stream).unwrap_or("–")),
            cell(Some(thousands(s.accesses))),
            cell(Some(percent(s.fraction))),
        ]
    });
    let h = section(
        "LLC accesses per stream (Figure 4)",
        &strings(&["stream", "the paper's group", "accesses", "share"]),
        rows,
    );
    if h.is_empty() {
        return h;
    }
    let groups = paper::STREAM_GROUPS.iter().map(|(g, _)| {
        vec![
            text(g),
            cell(Some(percent(super::readings::group_share(r, g) / 100.0))),
            paper_cell(paper::lookup(paper::STREAM_MIX, g).map(|v| percent(v / 100.0))),
        ]
    });
    h + &section(
        "LLC accesses by the paper's stream groups (Figure 4)",
        &strings(&["group", "share", "paper (8 MB)"]),
        groups,
    )
}

fn t_table(r: &GspcReport) -> String {
    let rows = r.t_sensitivity.iter().map(|p| {
        vec![
            text(&p.t.to_string()),
            cell(Some(thousands(p.misses))),
            cell(Some(percent(p.change_vs_t16 / 100.0))),
        ]
    });
    let head = strings(&["t", "GSPZTC misses", "change vs t=16"]);
    section("Sensitivity to t (Figure 11)", &head, rows)
}

/// Every run's frame rate over DRRIP's under the baseline timing and each
/// timing configuration, the paper's beside; the paper measured its
/// Figure 17 configurations at 8 MB only.
fn fps_table(r: &GspcReport) -> String {
    let mut head = strings(&["policy", "size", "FPS", "vs DRRIP", "paper"]);
    for c in &r.timing_configs {
        head.push(format!("{} vs DRRIP", c.name));
        head.push(format!("{} paper", c.name));
    }
    let rows = r.policies.iter().map(|p| {
        let label = format_size(p.size);
        let mut row = vec![
            text(&p.policy),
            text(&label),
            cell(Some(format!("{:.2}", p.fps))),
            cell(Some(ratio(p.fps_vs_drrip))),
            paper_cell(paper_fps(&label, &p.policy).map(ratio)),
        ];
        for c in &r.timing_configs {
            row.push(cell(p.timing.get(&c.name).map(|t| ratio(t.fps_vs_drrip))));
            let paper = (p.size == PAPER_SIZE).then(|| paper_fps(&c.name, &p.policy));
            row.push(paper_cell(paper.flatten().map(ratio)));
        }
        row
    });
    let mut h = section(
        "Frame rate normalised to DRRIP (Figures 15-17)",
        &head,
        rows,
    );
    for c in &r.timing_configs {
        let _ = writeln!(h, "<p><b>{}</b>: {}</p>", esc(&c.name), esc(&c.about));
    }
    h
}

fn at_size(r: &GspcReport, size: u64) -> impl Iterator<Item = &PolicyResult> {
    r.policies.iter().filter(move |p| p.size == size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::test_report::{report, report_without_opt};
    use crate::report::write_all;

    fn index(r: &GspcReport) -> anyhow::Result<String> {
        let dir = tempfile::tempdir()?;
        write_all(r, dir.path())?;
        Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
    }

    #[test]
    fn names_every_policy_and_the_paper() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        for name in policy_names(&r) {
            assert!(html.contains(&esc(name)), "{name} missing");
        }
        assert!(html.contains("0.634"), "paper's OPT misses");
        assert!(html.contains("<img src=\"fig12_misses_vs_drrip.svg\""));
        assert!(html.contains("352,800"), "misses with separators");
        Ok(())
    }

    #[test]
    fn escapes_the_report_strings() -> anyhow::Result<()> {
        let html = index(&report())?;
        assert!(html.contains("a&lt;b&amp;c"));
        assert!(!html.contains("a<b&c"));
        assert!(html.contains("faster DRAM &lt;fast&gt;"));
        Ok(())
    }

    #[test]
    fn without_opt_embeds_only_the_figures_written() -> anyhow::Result<()> {
        let html = index(&report_without_opt())?;
        assert!(!html.contains("fig07_tex_epochs.svg"));
        assert!(html.contains("fig12_misses_vs_drrip.svg"));
        Ok(())
    }

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(ratio(0.8691), "0.869");
        assert_eq!(percent(0.5346), "53.46%");
        assert_eq!(esc("a<b&c \"d\""), "a&lt;b&amp;c &quot;d&quot;");
    }

    /// The frame the study rendered under its own heading, a table of
    /// contents linking every section and figure, each figure right after
    /// the table it plots; no frame where the directory holds none.
    #[test]
    fn shows_the_frame_the_contents_and_figures_beside_their_tables() -> anyhow::Result<()> {
        use crate::report::html::check::{follows, unlinked};
        let (_dir, html) = crate::report::page_with(&report(), &["frame.png"])?;
        assert!(html.contains("<img src=\"frame.png\" alt=\"the rendered frame\">"));
        assert!(html.contains("<a href=\"#the-rendered-frame\">The rendered frame</a>"));
        assert!(html.find("<nav").unwrap() < html.find("<h2 id=\"the-rendered-frame\"").unwrap());
        assert_eq!(unlinked(&html), Vec::<String>::new());
        for (table, figure) in [
            (
                "LLC misses normalised to DRRIP",
                "fig12_misses_vs_drrip.svg",
            ),
            ("LLC misses normalised to DRRIP", "fig14_iso_overhead.svg"),
            ("Hit rates at", "fig05_hit_rates.svg"),
            (
                "Render target to texture consumption",
                "fig13_gspc_rates.svg",
            ),
            ("OPT&#39;s Z epochs", "fig09_z_death.svg"),
            (
                "LLC accesses by the paper&#39;s stream groups",
                "fig04_stream_mix.svg",
            ),
            ("Sensitivity to t", "fig11_t_sensitivity.svg"),
            ("Frame rate normalised to DRRIP", "fig15_17_fps.svg"),
            ("Pass by pass", "timeline_gspc.svg"),
        ] {
            assert!(follows(&html, table, figure), "{figure} not after {table}");
        }
        assert!(
            !html.contains("Other figures"),
            "every figure is beside its table"
        );
        let (_dir, without) = crate::report::page_with(&report(), &[])?;
        assert!(!without.contains("frame.png") && !without.contains("rendered frame"));
        Ok(())
    }

    /// A caption computed from the report says what ours show, whichever
    /// way it goes.
    #[test]
    fn captions_follow_the_report() -> anyhow::Result<()> {
        let html = index(&report())?;
        assert!(html.contains("At 8MiB here, GSPC has 11.8 % fewer misses than DRRIP"));
        assert!(html.contains("Here, as in the paper, only E0 dies more often than not"));
        assert!(!html.contains("render targets and textures dominate"));
        let mut r = report();
        r.opt_epochs.z.death_ratios = [0.4, 0.3, 0.2];
        for p in r.policies.iter_mut().filter(|p| p.policy == "gspc") {
            p.misses_vs_drrip = 1.2;
        }
        let html = index(&r)?;
        assert!(html.contains("At 8MiB here, GSPC has 20.0 % more misses than DRRIP"));
        assert!(html.contains("Here no epoch dies more often than not"));
        Ok(())
    }

    /// The frame shown is the last the study rendered, and says so.
    #[test]
    fn the_frames_caption_names_the_last_frame() {
        let mut r = report();
        r.frames = 1;
        r.warmup = 0;
        assert_eq!(
            frame_caption(&r),
            "a&lt;b&amp;c at 1280x720, as rendered for this study."
        );
        r.frames = 3;
        assert!(frame_caption(&r).contains("(the last of the 3 frames played)"));
    }
}
