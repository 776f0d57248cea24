//! What `gfxcache nbtc` prints without `--json`: a row per filter mode,
//! latency and design against the blocking cache, the slides' numbers
//! beside, and a line per knob swept.

use gfxcache_cache::format_size;
use gfxcache_nbtc::study::NbtcReport;
use gfxcache_nbtc::MemoryPath;

use super::{
    knob_points, paper_cycles, paper_traffic, share, signed, storage_line, storage_varies,
    value_label,
};
use crate::table::{thousands, Table};

/// The summary.
pub fn text(r: &NbtcReport) -> String {
    let pps = r.frames.first().map_or(0, |f| f.pixel_processors);
    let frames: Vec<String> = r
        .frames
        .iter()
        .map(|f| format!("{} {} requests", f.filter, thousands(f.requests)))
        .collect();
    let memory = match r.unit.memory {
        MemoryPath::Private => String::new(),
        MemoryPath::SharedDram { clock_mhz, dram } => {
            format!(", one {} shared at {clock_mhz} MHz", dram.name())
        }
    };
    let mut out = format!(
        "NBTC study of {} ({pps} pixel processors, {} {}-way L1 of {} B blocks, RB/WLB/BAB {}/{}/{}{memory}): {}\n\n",
        r.name,
        format_size(r.unit.l1_bytes),
        r.unit.l1_ways,
        r.unit.block_bytes,
        r.unit.rb_entries,
        r.unit.wlb_entries,
        r.unit.bab_entries,
        frames.join(", "),
    );
    out += &format!(
        "NBTC buffers (field widths ours): {}\n\n",
        storage_line(&r.storage)
    );
    out += &runs(r);
    out += &sweeps(r);
    out
}

fn runs(r: &NbtcReport) -> String {
    let mut t = Table::new([
        "filter",
        "latency",
        "design",
        "PS cycles",
        "vs BTC",
        "paper",
        "frame vs BTC",
        "miss rate",
        "traffic vs BTC",
        "paper",
    ])
    .left(2);
    let or_dash = |v: Option<f64>| v.map_or("-".to_string(), signed);
    for f in &r.frames {
        for row in &f.runs {
            t.row([
                f.filter.clone(),
                row.latency.to_string(),
                row.mode.name().to_string(),
                thousands(row.stats.cycles),
                signed(row.cycles_change),
                or_dash(paper_cycles(&r.paper, row.mode, row.latency)),
                signed(row.frame_cycles_change),
                share(row.miss_rate),
                signed(row.traffic_change),
                paper_traffic(&r.paper, row.mode)
                    .map_or("-".into(), |v| format!("<={}", signed(v))),
            ]);
        }
    }
    format!(
        "Against the blocking cache (PS cycles: the pixel processors' summed; frame: the slowest's)\n{}",
        t.render()
    )
}

/// A line per knob: the NBTC's cycles change at each value.
fn sweeps(r: &NbtcReport) -> String {
    let mut out = String::new();
    for s in &r.sweeps {
        let points = knob_points(r, s);
        let costs = storage_varies(&points);
        let parts: Vec<String> = points
            .iter()
            .map(|p| {
                let cost = if costs {
                    format!(" [{} B]", thousands(p.storage_bytes))
                } else {
                    String::new()
                };
                format!(
                    "{} {}{cost}",
                    value_label(p.value, p.main),
                    signed(p.nbtc.cycles_change)
                )
            })
            .collect();
        out += &format!(
            "Sweep of {} ({}, {} cycles), NBTC cycles vs BTC: {}\n",
            s.knob,
            s.filter,
            s.latency,
            parts.join(", ")
        );
    }
    if !out.is_empty() {
        out.insert(0, '\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::test_report::report;
    use gfxcache_nbtc::Mode;

    #[test]
    fn a_row_per_run_and_the_slides_numbers() {
        let r = report();
        let s = text(&r);
        assert!(
            s.starts_with("NBTC study of a<1> (8 pixel processors, 32KiB 4-way L1"),
            "{s}"
        );
        let runs: usize = r.frames.iter().map(|f| f.runs.len()).sum();
        let rows = s
            .lines()
            .filter(|l| l.starts_with("nearest") || l.starts_with("bilinear"))
            .count();
        assert_eq!(rows, runs, "{s}");
        let nbtc = r.frames[1].row(Mode::Nbtc, 300).unwrap();
        let line = s
            .lines()
            .find(|l| l.starts_with("bilinear") && l.contains(" nbtc ") && l.contains("-41.6%"))
            .unwrap_or_else(|| panic!("no bilinear nbtc row at 300:\n{s}"));
        assert!(line.contains(&signed(nbtc.cycles_change)), "{line}");
        assert!(line.contains("<=+11.0%"), "{line}");
        assert!(s.contains("-12.5%"));
        assert!(
            s.contains("Sweep of wlb_entries (bilinear, 300 cycles), NBTC cycles vs BTC: 1 "),
            "{s}"
        );
        assert!(s.contains("32 (main) "));
        assert!(
            s.contains("NBTC buffers (field widths ours): RB 32 x 124 bits, WLB 32 x 552 bits, BAB 32 x 28 bits = 2,816 B, 8.59% of the L1's 32KiB data array"),
            "{s}"
        );
        // The WLB's sweep says what each size costs; a timing knob's would not.
        let wlb = s
            .lines()
            .find(|l| l.starts_with("Sweep of wlb_entries"))
            .unwrap();
        let one = r.sweeps[0].points[0].storage_bytes;
        assert!(
            wlb.contains(&format!(
                "1 {} [{} B]",
                signed(r.sweeps[0].points[0].nbtc.cycles_change),
                thousands(one)
            )),
            "{wlb}"
        );
        assert_eq!(one, 2816 - 31 * 552 / 8);
    }
}
