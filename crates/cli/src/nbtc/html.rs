//! `index.html`: the NBTC study on one self-contained page, built from the
//! pieces in [`crate::report::html`]: the frames and the unit, a table per
//! slide with ours and the slides' numbers side by side, the cycles by
//! category, the counts, the sweeps, the figures, the warnings and the
//! unit as JSON.
//!
//! Every string from the report goes through [`esc`].

use gfxcache_cache::format_size;
use gfxcache_nbtc::study::{FilterReport, NbtcReport, RunRow};
use gfxcache_nbtc::MemoryPath;

use super::{
    knob_points, knob_title, paper_cycles, paper_traffic, share, signed, storage_line, value_label,
    CATEGORIES,
};
use crate::report::html::{
    self, cell, esc, frame, h2, paper_cell, prose, section, strings, text, warnings, Cell, Figures,
};
use crate::report::Shown;
use crate::table::{human_bytes, thousands};

/// The whole page: the setup and the frame, then each table with the
/// figures that plot it right after it.
pub fn page(r: &NbtcReport, shown: &Shown) -> String {
    let pps = r.frames.first().map_or(0, |f| f.pixel_processors);
    let title = format!("NBTC study: {}, {pps} pixel processors", esc(&r.name));
    let figures = gfxcache_report::Report::figures(r);
    let mut figs = Figures::new(shown.figures, |f| crate::report::data::about(&figures, f));
    let mut h = setup(r);
    h += &picture(r, shown);
    h += &against_btc(r);
    for file in ["cycles_change.svg", "miss_rate.svg", "traffic.svg"] {
        h += &figs.take(file);
    }
    h += &categories(r);
    h += &figs.take("ps_cycles.svg");
    h += &counts(r);
    h += &storage(r);
    h += &sweeps(r);
    h += &figs.take_all("sweep_");
    h += &figs.rest("Other figures");
    if let Some(m) = &r.machine {
        h += &crate::report::machine::section(m);
    }
    h += &unit(r);
    html::page(&title, &h)
}

/// The frame of the first filter mode that has its picture here (the
/// study renders the first's), as rendered.
fn picture(r: &NbtcReport, shown: &Shown) -> String {
    let Some(f) = r
        .frames
        .iter()
        .find(|f| shown.holds(&super::picture(&f.filter)))
    else {
        return String::new();
    };
    let caption = format!(
        "{} with {} filtering, as rendered tile by tile for this study ({} pixel processors).",
        esc(&r.name),
        esc(&f.filter),
        f.pixel_processors
    );
    frame(&super::picture(&f.filter), &caption)
}

fn setup(r: &NbtcReport) -> String {
    let frames: Vec<String> = r
        .frames
        .iter()
        .map(|f| {
            format!(
                "{} ({} texture requests, {} texel lookups)",
                esc(&f.filter),
                thousands(f.requests),
                thousands(f.texel_lookups)
            )
        })
        .collect();
    let u = &r.unit;
    let latencies: Vec<String> = r.latencies.iter().map(u64::to_string).collect();
    let modes: Vec<&str> = r.modes.iter().map(|m| m.name()).collect();
    let mut h = format!(
        "<p>Frames, one per filter mode: {}. Each pixel processor has a texture unit with a \
         {} {}-way L1 of {}-byte blocks, a Retry Buffer of {}, a Waiting List Buffer of {} and \
         a Block Address Buffer of {} entries; hits take {} cycle(s), the filter {}; {} \
         {} fragments in flight. {} Memory latencies {} cycles; designs {} \
         against the blocking cache with serial fetches (btc).</p>\n\
         <p>The slides' numbers (mRPsim, 8 pixel processors, the Taiji benchmark) are shown \
         in grey italics beside ours: the NBTC's pixel-shader cycles -12.47 % at 50 cycles \
         and -41.64 % at 300, and its memory traffic up to 11 % above the BTC's.</p>\n",
        frames.join("; "),
        esc(&format_size(u.l1_bytes)),
        u.l1_ways,
        u.block_bytes,
        u.rb_entries,
        u.wlb_entries,
        u.bab_entries,
        u.hit_latency,
        u.filter_latency,
        esc(&crate::report::machine::issue_sentence(
            u.issue,
            r.machine.as_ref().map(|m| m.name.as_str())
        )),
        u.fragments_in_flight,
        memory_path(u.memory),
        latencies.join(", "),
        esc(&modes.join(", ")),
    );
    h += &warnings(&r.warnings);
    h
}

/// Where the units' blocks come from, in a sentence.
fn memory_path(memory: MemoryPath) -> String {
    match memory {
        MemoryPath::Private => "Each unit has its own memory path.".into(),
        MemoryPath::SharedDram { clock_mhz, dram } => format!(
            "The units share one {} (ours), clocked at {clock_mhz} MHz: a block also waits \
             for its bank and bus behind every unit's requests.",
            dram.name()
        ),
    }
}

/// Every run of every frame, in the report's order, with `cells` of it.
fn rows(
    r: &NbtcReport,
    cells: impl Fn(&FilterReport, &RunRow) -> Vec<Cell>,
) -> std::vec::IntoIter<Vec<Cell>> {
    let mut out = Vec::new();
    for f in &r.frames {
        for row in &f.runs {
            let mut line = vec![
                text(&f.filter),
                text(&row.latency.to_string()),
                text(row.mode.name()),
            ];
            line.extend(cells(f, row));
            out.push(line);
        }
    }
    out.into_iter()
}

/// Slides 22-24: each design against the BTC, the slides' beside.
fn against_btc(r: &NbtcReport) -> String {
    let body = rows(r, |_, row| {
        vec![
            cell(Some(thousands(row.stats.cycles))),
            cell(Some(signed(row.cycles_change))),
            paper_cell(paper_cycles(&r.paper, row.mode, row.latency).map(signed)),
            cell(Some(signed(row.frame_cycles_change))),
            cell(Some(share(row.miss_rate))),
            cell(Some(human_bytes(row.stats.traffic_bytes))),
            cell(Some(signed(row.traffic_change))),
            paper_cell(paper_traffic(&r.paper, row.mode).map(|v| format!("at most {}", signed(v)))),
        ]
    });
    let mut h = section(
        "Slides 22-24: each design against the blocking cache",
        &strings(&[
            "filter",
            "latency",
            "design",
            "PS cycles",
            "vs BTC",
            "paper",
            "frame cycles vs BTC",
            "miss rate",
            "traffic",
            "vs BTC",
            "paper",
        ]),
        body,
    );
    if !h.is_empty() {
        h += "<p>PS cycles are the pixel processors' cycles summed (the slides' \"total PS \
              cycles\"); frame cycles the slowest processor's. Changes are against the \
              blocking cache with serial fetches at the same latency on the same frame.</p>\n";
    }
    h
}

/// Slide 22's stacks as numbers.
fn categories(r: &NbtcReport) -> String {
    let mut head = strings(&["filter", "latency", "design"]);
    head.extend(CATEGORIES.iter().map(|c| c.name.to_string()));
    let body = rows(r, |_, row| {
        CATEGORIES
            .iter()
            .map(|c| cell(Some(thousands((c.of)(&row.stats)))))
            .collect()
    });
    section("Slide 22: cycles by category", &head, body)
}

/// What each run counted, and its buffers' largest occupancy.
fn counts(r: &NbtcReport) -> String {
    let body = rows(r, |_, row| {
        let s = &row.stats;
        let n = |v: u64| cell(Some(thousands(v)));
        vec![
            n(s.requests),
            n(s.texel_lookups),
            n(s.hits),
            n(s.primary_misses),
            n(s.secondary_misses),
            n(s.memory_requests),
            n(s.all_hit_requests),
            n(s.rb.max),
            n(s.wlb.max),
            n(s.bab.max),
        ]
    });
    section(
        "Counts",
        &strings(&[
            "filter",
            "latency",
            "design",
            "requests",
            "texel lookups",
            "hits",
            "primary misses",
            "secondary misses",
            "memory requests",
            "all-hit requests",
            "RB max",
            "WLB max",
            "BAB max",
        ]),
        body,
    )
}

/// What the NBTC's buffers hold and cost at the unit's sizes.
fn storage(r: &NbtcReport) -> String {
    let s = &r.storage;
    let body = [
        ("Retry Buffer", &s.rb),
        ("Waiting List Buffer", &s.wlb),
        ("Block Address Buffer", &s.bab),
    ]
    .into_iter()
    .map(|(name, b)| {
        let fields: Vec<String> = b
            .fields
            .iter()
            .map(|f| format!("{} {}", f.name, f.bits))
            .collect();
        vec![
            text(name),
            text(&b.entries.to_string()),
            prose(&fields.join(", ")),
            text(&b.entry_bits.to_string()),
            text(&thousands(b.bits.div_ceil(8))),
        ]
    });
    let table = section(
        "What the NBTC's buffers cost (field widths ours)",
        &strings(&[
            "buffer",
            "entries",
            "fields (bits)",
            "bits an entry",
            "bytes",
        ]),
        body,
    );
    format!(
        "{table}<p>{}. The slides list each entry's fields but give no widths and no \
         hardware cost; the widths are the unit's <code>field_bits</code> (<code>--unit</code>). \
         FIFO pointers and comparators are not counted.</p>\n",
        esc(&storage_line(s))
    )
}

/// Every knob value, the unit's marked.
fn sweeps(r: &NbtcReport) -> String {
    let body = r.sweeps.iter().flat_map(|s| {
        knob_points(r, s).into_iter().map(move |p| {
            vec![
                text(knob_title(&s.knob)),
                text(&value_label(p.value, p.main)),
                text(&s.filter),
                text(&s.latency.to_string()),
                cell(Some(thousands(p.nbtc.stats.cycles))),
                cell(Some(signed(p.nbtc.cycles_change))),
                cell(Some(signed(p.nbtc.traffic_change))),
                cell(Some(share(p.nbtc.miss_rate))),
                cell(Some(thousands(p.storage_bytes))),
            ]
        })
    });
    section(
        "Sweeps (ours): one knob at a time, the NBTC against the BTC",
        &strings(&[
            "knob",
            "value",
            "filter",
            "latency",
            "NBTC PS cycles",
            "vs BTC",
            "traffic vs BTC",
            "miss rate",
            "NBTC buffers (B)",
        ]),
        body,
    )
}

/// The unit and the designs, every parameter, as JSON.
fn unit(r: &NbtcReport) -> String {
    let unit = serde_json::to_string_pretty(&r.unit).unwrap_or_default();
    let modes = serde_json::to_string_pretty(&r.modes).unwrap_or_default();
    format!(
        "{}<p>Every parameter (the slides' where they give one; \
         the rest are ours). Its mode and memory latency are each run's own; the designs \
         run:</p>\n<pre>{}</pre>\n<pre>{}</pre>\n<p>{} distinct configurations replayed in \
         {:.2} s.</p>\n",
        h2("The texture unit"),
        esc(&unit),
        esc(&modes),
        r.runs,
        r.seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::test_report::report;
    use crate::report::write_all;
    use gfxcache_nbtc::Mode;

    fn index(r: &NbtcReport) -> anyhow::Result<String> {
        let dir = tempfile::tempdir()?;
        write_all(r, dir.path())?;
        Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
    }

    #[test]
    fn sets_ours_beside_the_slides() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        let nbtc = r.frames[0].row(Mode::Nbtc, 300).unwrap();
        let ours = format!(
            "<td>{}</td><td>{}</td><td class=\"paper\">-41.6%</td>",
            thousands(nbtc.stats.cycles),
            signed(nbtc.cycles_change)
        );
        assert!(html.contains(&ours), "{ours} missing");
        assert!(html.contains("<td class=\"paper\">-12.5%</td>"));
        assert!(html.contains("<td class=\"paper\">at most +11.0%</td>"));
        Ok(())
    }

    #[test]
    fn says_what_the_buffers_cost() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        let wlb = "<td>Waiting List Buffer</td><td>32</td><td style=\"text-align:left\">valid 1, texture ID 5, \
                   filtering information 26, texel addresses 256, texel data 256, ready bits \
                   8</td><td>552</td><td>2,208</td>";
        assert!(html.contains(wlb), "{wlb} missing");
        assert!(html.contains("= 2,816 B, 8.59% of the L1"), "no total");
        let one = r.sweeps[0].points[0].storage_bytes;
        assert!(html.contains(&format!("<td>{}</td></tr>", thousands(one))));
        Ok(())
    }

    #[test]
    fn has_every_section_figure_and_the_unit() -> anyhow::Result<()> {
        let r = report();
        let html = index(&r)?;
        for part in [
            "NBTC study: a&lt;1&gt;, 8 pixel processors",
            "Slides 22-24",
            "Slide 22: cycles by category",
            "<th>NBTC stall (WLB full)</th>",
            "Counts",
            "<td>32 (main)</td>",
            "<img src=\"ps_cycles.svg\"",
            "<img src=\"sweep_block_bytes.svg\"",
            "<h2 id=\"the-texture-unit\">The texture unit</h2>",
            "&quot;wlb_entries&quot;: 32",
            "&quot;prefetching&quot;",
        ] {
            assert!(html.contains(part), "{part:?} missing");
        }
        assert!(!html.contains("<1>"));
        assert!(html.ends_with("</html>\n"));
        Ok(())
    }

    /// The first filter mode's frame, the contents, each figure after the
    /// table it plots.
    #[test]
    fn shows_the_frame_the_contents_and_figures_beside_their_tables() -> anyhow::Result<()> {
        use crate::report::html::check::{follows, unlinked};
        let (_dir, html) = crate::report::page_with(&report(), &["nearest.png"])?;
        assert!(html.contains("<img src=\"nearest.png\" alt=\"the rendered frame\">"));
        assert!(html.contains("with nearest filtering, as rendered"));
        assert_eq!(unlinked(&html), Vec::<String>::new());
        for (table, figure) in [
            ("Slides 22-24", "cycles_change.svg"),
            ("Slides 22-24", "traffic.svg"),
            ("Slide 22: cycles by category", "ps_cycles.svg"),
            ("Sweeps (ours)", "sweep_wlb_entries.svg"),
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
