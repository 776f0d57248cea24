//! `index.html`: the DTM-NUCA study on one self-contained page, built from
//! the pieces in [`crate::report::html`]: the setup and the rendered frame,
//! a table per figure with ours and the paper's side by side and the figure
//! after it, the organizations' counts, the sweeps and quad assignments
//! with theirs, the warnings and the machine.
//!
//! Every string from the report goes through [`esc`].

use gfxcache_cache::format_size;
use gfxcache_nuca::study::paper::PaperNumbers;
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::OrgKind;

use super::{
    against_private, knob_values, knobs, paper_effective_bytes, paper_scaling, share, signed,
    swept, swept_organizations, Metric, ENERGY, L2_ALL, L2_TEXTURE, LOCAL_HITS, SPEEDUP,
};
use crate::report::html::{self, warnings};
use crate::report::html::{
    cell, esc, frame, h2, paper_cell, seconds_table, section, strings, text, Cell,
};
use crate::report::Shown;
use crate::table::thousands;

/// The whole page: the setup and the frame, then each table with the
/// figures that plot it right after it.
pub fn page(r: &NucaReport, shown: &Shown) -> String {
    let title = format!(
        "DTM-NUCA study: {}, {} fragment processors",
        esc(r.scene.as_deref().unwrap_or(&r.requests)),
        r.frame.fps
    );
    let figures = gfxcache_report::Report::figures(r);
    let mut figs = html::Figures::new(shown.figures, |f| crate::report::data::about(&figures, f));
    let mut h = setup(r);
    if shown.holds("frame.png") {
        let what = esc(r.scene.as_deref().unwrap_or(&r.requests));
        let caption = format!(
            "{what}, as rendered tile by tile for the main runs ({} fragment processors, {} \
             quad assignment).",
            r.frame.fps,
            esc(&r.frame.assignment)
        );
        h += &frame("frame.png", &caption);
    }
    let rows: Vec<(OrgKind, Figures)> = r
        .organizations
        .iter()
        .map(|row| (row.organization, row.figures))
        .collect();
    h += &figures_table(
        "Figures 6, 8, 9, 10: against private caches",
        &rows,
        &r.paper,
    );
    for file in ["fig6_l2_accesses.svg", "fig8_hits.svg", "fig9_speedup.svg"] {
        h += &figs.take(file);
    }
    h += &announced(r);
    h += &replication(r);
    h += &figs.take("fig1_replication.svg");
    h += &capacity(r);
    h += &figs.take("fig7_capacity.svg");
    h += &scaling(r);
    h += &figs.take("fig11_scaling.svg");
    h += &counts(r);
    h += &bus(r);
    h += &energy(r);
    h += &figs.take("fig10_energy.svg");
    h += &sweeps(r);
    h += &figs.take_all("sweep_");
    h += &assignments(r);
    h += &figs.take("assignments.svg");
    h += &figs.rest("Other figures");
    h += &machine(r);
    h += &seconds_table(&r.seconds);
    html::page(&title, &h)
}

fn setup(r: &NucaReport) -> String {
    let f = &r.frame;
    let trace = r
        .trace
        .as_deref()
        .map_or(String::from("none"), |t| format!("<code>{}</code>", esc(t)));
    let mut h = format!(
        "<p>Texture requests <code>{}</code>, L2 trace {trace}. The frame: {} fragment \
         processors fed by {} quad assignment, {} tiles, {} texture requests ({} texture \
         block accesses), {} other L2 accesses, {} shader operations, {} cycles of shader work: \
         {} Texture caches of {}, {}-way, {}-byte blocks; a shared L2 of {}.</p>\n\
         <p>The paper's values (DTM-NUCA, Section V: averages over its games on a machine \
         of 32 fragment processors) are shown in grey italics beside ours.</p>\n",
        esc(&r.requests),
        f.fps,
        esc(&f.assignment),
        thousands(f.tiles),
        thousands(f.texture_requests),
        thousands(f.texture_accesses),
        thousands(f.other_accesses),
        thousands(f.shader_instructions),
        thousands(f.work_cycles),
        esc(&crate::report::machine::issue_sentence(
            r.issue,
            r.machine.as_ref().map(|m| m.name.as_str())
        )),
        esc(&format_size(r.config.tc_bytes)),
        r.config.tc_ways,
        r.config.block_bytes,
        esc(&format_size(r.config.l2.bytes)),
    );
    h += &warnings(&r.warnings);
    h
}

/// Our value of `metric` and the paper's, as two cells.
fn ours_and_paper(
    paper: &PaperNumbers,
    kind: OrgKind,
    f: &Figures,
    metric: Metric,
    fmt: fn(f64) -> String,
) -> [Cell; 2] {
    [
        cell(Some(fmt((metric.of)(f)))),
        paper_cell(metric.paper(paper, kind).map(fmt)),
    ]
}

/// A row per organization of `rows` with every figure against private,
/// the paper's beside each it gives.
pub(super) fn figures_table(
    title: &str,
    rows: &[(OrgKind, Figures)],
    paper: &PaperNumbers,
) -> String {
    let head = strings(&[
        "organization",
        "local hits",
        "paper",
        "remote hits",
        "L2 hits",
        "L2 misses",
        "L2 texture requests (Fig 6)",
        "paper",
        "L2 all streams (Fig 6)",
        "paper",
        "speedup (Fig 9)",
        "paper",
        "energy (Fig 10)",
        "paper",
        "GPU energy",
        "memory energy",
        "mean latency (cycles)",
    ]);
    let body = rows.iter().map(|&(k, ref f)| {
        let mut cells = vec![text(k.name())];
        cells.extend(ours_and_paper(paper, k, f, LOCAL_HITS, share));
        cells.push(cell(Some(share(f.remote_hit_percent))));
        cells.push(cell(Some(share(f.l2_hit_percent))));
        cells.push(cell(Some(share(f.l2_miss_percent))));
        for m in [L2_TEXTURE, L2_ALL, SPEEDUP, ENERGY] {
            cells.extend(ours_and_paper(paper, k, f, m, signed));
        }
        cells.push(cell(Some(signed(f.gpu_energy_change_percent))));
        cells.push(cell(Some(signed(f.memory_energy_change_percent))));
        cells.push(cell(Some(format!("{:.2}", f.mean_latency_cycles))));
        cells
    });
    let mut h = section(title, &head, body);
    if !h.is_empty() {
        h += "<p>Hits and misses are shares of the texture accesses; the rest are changes \
              against private caches of the same frame and machine (speedup: private's \
              cycles over the organization's, minus one). The paper gives one \"L2 \
              accesses\" number per organization, set beside both of ours.</p>\n";
    }
    h
}

/// DTM-NUCA-Dist under both readings of the announced count, the main
/// one first.
fn announced(r: &NucaReport) -> String {
    let readings = super::announced_readings(r);
    let rows = readings.iter().map(|(name, main, f)| {
        let value = if *main {
            format!("{name} (main)")
        } else {
            name.clone()
        };
        let mut cells = vec![text(&value)];
        cells.extend(main_cells(f));
        cells
    });
    let mut h = section(
        "DTM-NUCA-Dist: the announced count a claim must beat (ours)",
        &strings(&[
            "announced count",
            "local hits",
            "L2 texture requests",
            "speedup",
            "energy",
        ]),
        rows,
    );
    if !h.is_empty() {
        h += "<p>Between broadcasts a node claims a bucket when its own saturated counter \
              beats, by the margin, the count the owner announced at the last epoch \
              broadcast: kept as announced, or halved as the owner's own counter was at \
              the epoch's end. The paper does not say; both readings on the main frame, \
              against the same private caches.</p>\n";
    }
    h
}

/// Figure 1.
fn replication(r: &NucaReport) -> String {
    let p = &r.replication;
    let rows = p
        .in_caches_percent
        .iter()
        .enumerate()
        .skip(1)
        .map(|(n, v)| {
            vec![
                text(&format!("in {n} cache(s)")),
                cell(Some(share(*v))),
                paper_cell(None),
            ]
        });
    let replicated = vec![
        text("in more than one"),
        cell(Some(share(p.replicated_percent))),
        paper_cell(Some(share(r.paper.replicated_percent))),
    ];
    section(
        &format!(
            "Figure 1: replication with {} private caches (the paper's with 4)",
            p.fps
        ),
        &strings(&["block after a texture access", "texture accesses", "paper"]),
        rows.chain([replicated]),
    )
}

/// Figure 7: the private sizes, then the effective capacity of each
/// DTM-NUCA form beside the paper's.
fn capacity(r: &NucaReport) -> String {
    let rows = r.capacity.iter().map(|p| {
        vec![
            text(&format_size(p.tc_bytes)),
            cell(Some(thousands(p.l2_requests))),
            cell(Some(share(p.local_hit_percent))),
            cell(Some(thousands(p.cycles))),
        ]
    });
    let mut h = section(
        "Figure 7: private texture caches by size",
        &strings(&["texture cache", "L2 requests", "local hits", "cycles"]),
        rows,
    );
    let largest = r.capacity.iter().map(|p| p.tc_bytes).max();
    let effective = [OrgKind::Dtm, OrgKind::DtmDist]
        .into_iter()
        .filter_map(|k| Some((k, r.row(k)?)))
        .map(|(k, row)| {
            let ours = match (r.effective_capacity(k), largest) {
                (Some(b), _) => format_size(b),
                (None, Some(b)) => format!("more than {}", format_size(b)),
                (None, None) => "–".into(),
            };
            vec![
                text(k.name()),
                cell(Some(thousands(row.result.stats.l2_requests))),
                cell(Some(ours)),
                paper_cell(paper_effective_bytes(&r.paper, k).map(format_size)),
            ]
        });
    h += &section(
        &format!(
            "Figure 7: effective capacity of {} DTM-NUCA caches",
            format_size(r.config.tc_bytes)
        ),
        &strings(&[
            "organization",
            "L2 requests",
            "smallest private size with no more",
            "paper (16KiB caches)",
        ]),
        effective,
    );
    h
}

/// Figure 11: a row per number of fragment processors and organization.
fn scaling(r: &NucaReport) -> String {
    let rows = r.scaling.iter().flat_map(|p| {
        p.rows
            .iter()
            .filter(|row| row.organization != OrgKind::Private)
            .map(move |row| {
                let (k, f) = (row.organization, &row.figures);
                vec![
                    text(&p.fps.to_string()),
                    text(k.name()),
                    cell(Some(signed(f.speedup_percent))),
                    paper_cell(paper_scaling(&r.paper, k, p.fps).map(signed)),
                    cell(Some(signed(f.l2_texture_change_percent))),
                    cell(Some(share(f.local_hit_percent))),
                ]
            })
    });
    section(
        "Figure 11: by number of fragment processors",
        &strings(&[
            "fragment processors",
            "organization",
            "speedup",
            "paper",
            "L2 texture requests",
            "local hits",
        ]),
        rows,
    )
}

/// What each organization did on the main frame, in counts.
fn counts(r: &NucaReport) -> String {
    let rows = r.organizations.iter().map(|row| {
        let (s, x) = (&row.result.stats, &row.result);
        let n = |v: u64| cell(Some(thousands(v)));
        vec![
            text(row.organization.name()),
            n(s.texture_accesses),
            n(s.local_hits),
            n(s.remote_hits),
            n(s.l2_hits),
            n(s.l2_misses),
            n(x.l2.texture_requests + x.l2.other_accesses),
            n(x.timing.cycles),
            n(x.mesh.flit_hops),
            n(s.broadcasts),
            n(s.epochs),
            n(s.ownership_changes),
        ]
    });
    section(
        "Counts on the main frame",
        &strings(&[
            "organization",
            "texture accesses",
            "local hits",
            "remote hits",
            "L2 hits",
            "L2 misses",
            "L2 accesses (all)",
            "cycles",
            "mesh flit-hops",
            "broadcasts",
            "epochs",
            "ownership changes",
        ]),
        rows,
    )
}

/// Each organization's bus to the L2: what it carried and how long
/// transfers queued for it.
fn bus(r: &NucaReport) -> String {
    let rows = r.organizations.iter().map(|row| {
        let (b, f) = (&row.result.bus, &row.figures);
        let n = |v: u64| cell(Some(thousands(v)));
        vec![
            text(row.organization.name()),
            n(b.transfers),
            n(b.busy_cycles),
            cell(Some(share(f.bus_utilisation_percent))),
            n(b.queue_cycles),
            cell(Some(format!("{:.2}", f.bus_mean_wait_cycles))),
            n(b.max_wait_cycles),
        ]
    });
    let t = &r.config.timing;
    let mut h = section(
        "The bus to the L2 (ours)",
        &strings(&[
            "organization",
            "transfers",
            "busy cycles",
            "utilisation",
            "queueing cycles",
            "mean wait (cycles)",
            "largest wait (cycles)",
        ]),
        rows,
    );
    if !h.is_empty() {
        let occupancy = if t.bus_occupancy {
            "held by one transfer at a time, later ones queueing first come first served"
        } else {
            "a fixed latency with no queueing (occupancy off): busy cycles are the beats \
             it carried, and a utilisation above 100% is more than one bus can carry"
        };
        let channels = match t.bus_channels {
            gfxcache_nuca::BusChannels::Shared => "one shared bus",
            gfxcache_nuca::BusChannels::Split => "a request channel and a reply channel",
        };
        let mesh = if t.l2_attach == gfxcache_nuca::L2Attach::Bus {
            ""
        } else {
            " The NUCA organizations reach the L2 over the mesh and leave the bus idle."
        };
        h += &format!(
            "<p>The texture caches reach the L2 over {channels} of {} bits ({occupancy}), \
             {} cycle(s) of arbitration before each transfer; a request holds it one beat, \
             a block's reply {} beats. Utilisation: busy cycles over the frame's cycles \
             (per channel).{mesh}</p>\n",
            t.bus_width_bits,
            t.bus_arbitration_cycles,
            gfxcache_nuca::bus::reply_beats(r.config.block_bytes, t.bus_width_bits),
        );
    }
    h
}

/// Each organization's energy by part, in µJ.
fn energy(r: &NucaReport) -> String {
    let rows = r.organizations.iter().map(|row| {
        let e = &row.result.energy;
        let uj = |nj: f64| cell(Some(format!("{:.2}", nj / 1000.0)));
        vec![
            text(row.organization.name()),
            uj(e.texture_caches_nj),
            uj(e.tables_nj),
            uj(e.network_nj),
            uj(e.l2_nj),
            uj(e.static_nj),
            uj(e.gpu_nj),
            uj(e.memory_nj),
            uj(e.total_nj),
        ]
    });
    section(
        "Energy by part (µJ, our model)",
        &strings(&[
            "organization",
            "texture caches",
            "tables",
            "network",
            "L2",
            "static",
            "GPU",
            "memory",
            "total",
        ]),
        rows,
    )
}

/// Every knob value, the machine's marked, per organization swept.
fn sweeps(r: &NucaReport) -> String {
    let rows = knobs(r).into_iter().flat_map(|knob| {
        let kinds = swept_organizations(r, knob);
        knob_values(r, knob).into_iter().flat_map(move |v| {
            let kinds = kinds.clone();
            kinds.into_iter().filter_map(move |k| {
                let f = swept(r, knob, &v, k)?;
                let value = if v.1 {
                    format!("{} (main)", v.0)
                } else {
                    v.0.clone()
                };
                let mut cells = vec![text(knob), text(&value), text(k.name())];
                cells.extend(main_cells(&f));
                Some(cells)
            })
        })
    });
    section(
        "Sweeps (ours): one knob at a time",
        &strings(&[
            "knob",
            "value",
            "organization",
            "local hits",
            "L2 texture requests",
            "speedup",
            "energy",
        ]),
        rows,
    )
}

/// An organization's main figures against private caches, as the tables
/// of sweeps, assignments and scenes show them: local hits, L2 texture
/// requests, speedup, energy.
pub(super) fn main_cells(f: &Figures) -> [Cell; 4] {
    [
        cell(Some(share(f.local_hit_percent))),
        cell(Some(signed(f.l2_texture_change_percent))),
        cell(Some(signed(f.speedup_percent))),
        cell(Some(signed(f.energy_change_percent))),
    ]
}

/// Each quad assignment's frame, every organization against its private.
fn assignments(r: &NucaReport) -> String {
    let rows = r.assignments.iter().flat_map(|p| {
        let kinds = against_private(p.rows.iter().map(|row| row.organization));
        kinds.into_iter().filter_map(move |k| {
            let f = p.rows.iter().find(|row| row.organization == k)?.figures;
            let mut cells = vec![text(&p.assignment), text(k.name())];
            cells.extend(main_cells(&f));
            Some(cells)
        })
    });
    section(
        "Quad assignments (ours)",
        &strings(&[
            "assignment",
            "organization",
            "local hits",
            "L2 texture requests",
            "speedup",
            "energy",
        ]),
        rows,
    )
}

/// The machine of the main runs, every parameter, as JSON.
fn machine(r: &NucaReport) -> String {
    let json = serde_json::to_string_pretty(&r.config).unwrap_or_default();
    let preset = r
        .machine
        .as_ref()
        .map_or(String::new(), crate::report::machine::section);
    format!(
        "{preset}{}<p>Every parameter of the main runs: the machine's, the paper's Table I \
         where it gives one, the rest ours.</p>\n<pre>{}</pre>\n",
        h2("The model configuration"),
        esc(&json)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::test_report::report;
    use crate::report::write_all;

    fn index(r: &NucaReport) -> anyhow::Result<String> {
        let dir = tempfile::tempdir()?;
        write_all(r, dir.path())?;
        Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
    }

    #[test]
    fn sets_ours_beside_the_paper() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        let dtm = r.row(OrgKind::Dtm).unwrap().figures;
        let ours = format!(
            "<tr><td>dtm-nuca</td><td>{}</td><td class=\"paper\">66.3%</td>",
            share(dtm.local_hit_percent)
        );
        assert!(html.contains(&ours), "{ours} missing");
        for paper in [
            "-41.8%", "+16.9%", "-6.9%", "84.6%", "128KiB", "64KiB", "+10.2%",
        ] {
            let c = format!("<td class=\"paper\">{paper}</td>");
            assert!(html.contains(&c), "{c} missing");
        }
        let speedup = signed(dtm.speedup_percent);
        assert!(html.contains(&format!(
            "<td>{speedup}</td><td class=\"paper\">+16.9%</td>"
        )));
        Ok(())
    }

    #[test]
    fn has_every_section_figure_warning_and_the_machine() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        for part in [
            "DTM-NUCA study: a&lt;1&gt;, 8 fragment processors",
            "Figures 6, 8, 9, 10",
            "Figure 1: replication with 4 private caches",
            "Figure 7: private texture caches by size",
            "Figure 7: effective capacity",
            "Figure 11: by number of fragment processors",
            "Counts on the main frame",
            "The bus to the L2 (ours)",
            "DTM-NUCA-Dist: the announced count a claim must beat (ours)",
            "<td>as-announced (main)</td>",
            "<td>halved</td>",
            "Energy by part",
            "<td>2000 (main)</td>",
            "Quad assignments (ours)",
            "<td>tiles</td>",
            "<img src=\"fig7_capacity.svg\"",
            "<img src=\"sweep_epoch.svg\"",
            "<h2 id=\"the-model-configuration\">The model configuration</h2>",
            "&quot;counter_bits&quot;: 4",
            "<strong>Warning:</strong> no trace of the frame",
            "Wall-clock seconds per phase",
        ] {
            assert!(html.contains(part), "{part:?} missing");
        }
        assert!(!html.contains("<1>"));
        assert!(html.ends_with("</html>\n"));
        Ok(())
    }

    /// The frame, the contents, each figure after the table it plots.
    #[test]
    fn shows_the_frame_the_contents_and_figures_beside_their_tables() -> anyhow::Result<()> {
        use crate::report::html::check::{follows, unlinked};
        let (_dir, html) = crate::report::page_with(&report(), &["frame.png"])?;
        assert!(html.contains("<img src=\"frame.png\""));
        assert!(html.contains("href=\"#the-rendered-frame\""));
        assert_eq!(unlinked(&html), Vec::<String>::new());
        for (table, figure) in [
            ("Figures 6, 8, 9, 10", "fig8_hits.svg"),
            ("Figure 1: replication", "fig1_replication.svg"),
            ("Figure 11: by number", "fig11_scaling.svg"),
            ("Energy by part", "fig10_energy.svg"),
            ("Sweeps (ours)", "sweep_epoch.svg"),
            ("Quad assignments", "assignments.svg"),
        ] {
            assert!(follows(&html, table, figure), "{figure} not after {table}");
        }
        let (_dir, without) = crate::report::page_with(&report(), &[])?;
        assert!(!without.contains("rendered frame"));
        Ok(())
    }

    /// No figure is wider than the page.
    #[test]
    fn no_figure_is_wider_than_the_page() -> anyhow::Result<()> {
        let (dir, _) = crate::report::page_with(&report(), &[])?;
        let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
        assert!(wide.is_empty(), "{wide:?}");
        Ok(())
    }
}
