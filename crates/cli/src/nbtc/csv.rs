//! The study's tables as CSV, for spreadsheets and scripts: `runs.csv`
//! (a row per filter mode, latency and design: every count of its units,
//! the changes against the BTC, the miss rate and the slides' numbers
//! beside), `sweeps.csv` (a row per knob value and design) and `paper.csv`
//! (each of the slides' numbers beside ours). Numbers in full precision;
//! a value not given is empty.

use std::path::{Path, PathBuf};

use gfxcache_nbtc::study::{NbtcReport, RunRow};
use gfxcache_nbtc::Mode;

use super::{paper_cycles, paper_traffic, CATEGORIES, COUNTS};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(report: &NbtcReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = vec![
        ("runs.csv", runs(report)),
        ("sweeps.csv", sweeps(report)),
        ("paper.csv", paper(report)),
        ("storage.csv", storage(report)),
    ];
    if let Some(m) = &report.machine {
        files.push(("machine.csv", crate::report::machine::rows(m)));
    }
    write_csvs(dir, files)
}

pub(super) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The columns of [`row_values`].
fn row_columns() -> Vec<String> {
    let mut out = header(&["mode", "cycles"]);
    out.extend(CATEGORIES.iter().map(|c| c.field.to_string()));
    out.push("frame_cycles".into());
    out.extend(COUNTS.iter().map(|(f, _)| f.to_string()));
    for buffer in ["rb", "wlb", "bab"] {
        out.push(format!("{buffer}_max"));
        out.push(format!("{buffer}_mean"));
    }
    out.extend(header(&[
        "miss_rate_percent",
        "cycles_change_percent",
        "frame_cycles_change_percent",
        "traffic_change_percent",
        "fp_issue_rate",
        "stall_share_percent",
    ]));
    out
}

/// A run's design, every count, its buffers' occupancy (per unit and
/// cycle, so the mean over the processors' summed cycles), the miss rate
/// and the changes against the BTC.
fn row_values(row: &RunRow) -> Vec<String> {
    let s = &row.stats;
    let mut out = vec![row.mode.name().to_string(), s.cycles.to_string()];
    out.extend(CATEGORIES.iter().map(|c| (c.of)(s).to_string()));
    out.push(row.frame_cycles.to_string());
    out.extend(COUNTS.iter().map(|(_, of)| of(s).to_string()));
    for o in [&s.rb, &s.wlb, &s.bab] {
        out.push(o.max.to_string());
        out.push(o.mean(s.cycles).to_string());
    }
    out.extend(
        [
            row.miss_rate,
            row.cycles_change,
            row.frame_cycles_change,
            row.traffic_change,
            row.fp_issue_rate,
            row.stall_share,
        ]
        .map(|x| x.to_string()),
    );
    out
}

fn or_empty(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// Per filter mode, latency and design.
fn runs(r: &NbtcReport) -> Vec<Vec<String>> {
    let mut head = header(&["filter", "latency"]);
    head.extend(row_columns());
    head.extend(header(&[
        "paper_cycles_change_percent",
        "paper_traffic_change_max_percent",
    ]));
    let rows = r.frames.iter().flat_map(|f| {
        f.runs.iter().map(move |row| {
            let mut out = vec![f.filter.clone(), row.latency.to_string()];
            out.extend(row_values(row));
            out.push(or_empty(paper_cycles(&r.paper, row.mode, row.latency)));
            out.push(or_empty(paper_traffic(&r.paper, row.mode)));
            out
        })
    });
    std::iter::once(head).chain(rows).collect()
}

/// Per knob value, the NBTC and the BTC; the NBTC's row says what its
/// buffers cost at the value.
fn sweeps(r: &NbtcReport) -> Vec<Vec<String>> {
    let mut head = header(&["knob", "value", "filter", "latency"]);
    head.extend(row_columns());
    head.push("nbtc_buffer_bytes".into());
    let rows = r.sweeps.iter().flat_map(|s| {
        s.points.iter().flat_map(move |p| {
            [(&p.nbtc, Some(p.storage_bytes)), (&p.btc, None)].map(|(row, bytes)| {
                let mut out = vec![
                    s.knob.clone(),
                    p.value.to_string(),
                    s.filter.clone(),
                    s.latency.to_string(),
                ];
                out.extend(row_values(row));
                out.push(bytes.map(|b| b.to_string()).unwrap_or_default());
                out
            })
        })
    });
    std::iter::once(head).chain(rows).collect()
}

/// A row per field of each of the NBTC's buffers at the unit's sizes.
fn storage(r: &NbtcReport) -> Vec<Vec<String>> {
    let head = header(&[
        "buffer",
        "entries",
        "field",
        "bits",
        "entry_bits",
        "buffer_bits",
    ]);
    let s = &r.storage;
    let rows = [("rb", &s.rb), ("wlb", &s.wlb), ("bab", &s.bab)]
        .into_iter()
        .flat_map(|(name, b)| {
            b.fields.iter().map(move |f| {
                vec![
                    name.to_string(),
                    b.entries.to_string(),
                    f.name.clone(),
                    f.bits.to_string(),
                    b.entry_bits.to_string(),
                    b.bits.to_string(),
                ]
            })
        });
    std::iter::once(head).chain(rows).collect()
}

/// Each of the slides' numbers, on each filter mode, beside ours: the
/// NBTC's cycles change at 50 and 300 cycles and its largest traffic
/// change over the latencies run (empty where we did not run it).
fn paper(r: &NbtcReport) -> Vec<Vec<String>> {
    let head = header(&[
        "filter",
        "metric",
        "latency",
        "paper_percent",
        "ours_percent",
    ]);
    let mut rows = vec![head];
    for f in &r.frames {
        for &(latency, paper) in &r.paper.cycles_change {
            let ours = f.row(Mode::Nbtc, latency).map(|row| row.cycles_change);
            rows.push(vec![
                f.filter.clone(),
                "cycles_change".into(),
                latency.to_string(),
                paper.to_string(),
                or_empty(ours),
            ]);
        }
        let nbtc = f.runs.iter().filter(|row| row.mode == Mode::Nbtc);
        let most = nbtc.max_by(|a, b| a.traffic_change.total_cmp(&b.traffic_change));
        rows.push(vec![
            f.filter.clone(),
            "traffic_change_max".into(),
            most.map(|row| row.latency.to_string()).unwrap_or_default(),
            r.paper.traffic_change_max.to_string(),
            or_empty(most.map(|row| row.traffic_change)),
        ]);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::test_report::report;
    use crate::report::read_csv as read;

    fn column(rows: &[Vec<String>], name: &str) -> usize {
        rows[0]
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    #[test]
    fn runs_csv_is_the_reports_numbers() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("runs.csv"))?;
        let runs: usize = r.frames.iter().map(|f| f.runs.len()).sum();
        assert_eq!(rows.len(), 1 + runs);
        assert_eq!(runs, 2 * 2 * 5, "two filters, two latencies, five designs");
        assert!(rows.iter().all(|row| row.len() == rows[0].len()));
        let nbtc = r.frames[1].row(Mode::Nbtc, 300).unwrap();
        let at = rows
            .iter()
            .position(|x| x[0] == "bilinear" && x[1] == "300" && x[2] == "nbtc")
            .unwrap();
        let get = |name: &str| rows[at][column(&rows, name)].clone();
        let s = &nbtc.stats;
        assert_eq!(get("cycles"), s.cycles.to_string());
        assert_eq!(get("nbtc_stall_cycles"), s.nbtc_stall_cycles.to_string());
        assert_eq!(get("secondary_misses"), s.secondary_misses.to_string());
        assert_eq!(get("traffic_bytes"), s.traffic_bytes.to_string());
        assert_eq!(get("wlb_max"), s.wlb.max.to_string());
        assert_eq!(get("cycles_change_percent"), nbtc.cycles_change.to_string());
        assert_eq!(get("miss_rate_percent"), nbtc.miss_rate.to_string());
        assert_eq!(get("paper_cycles_change_percent"), "-41.64");
        assert_eq!(get("paper_traffic_change_max_percent"), "11");
        // The categories add up to the cycles.
        let sum: u64 = CATEGORIES
            .iter()
            .map(|c| get(c.field).parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum.to_string(), get("cycles"));
        // The slides give nothing for the BTC.
        let btc = rows.iter().position(|x| x[2] == "btc").unwrap();
        assert_eq!(rows[btc][column(&rows, "paper_cycles_change_percent")], "");
        Ok(())
    }

    #[test]
    fn sweeps_and_paper_have_a_row_per_point() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let sweeps = read(&dir.path().join("sweeps.csv"))?;
        let points: usize = r.sweeps.iter().map(|s| s.points.len()).sum();
        assert_eq!(sweeps.len(), 1 + 2 * points);
        assert_eq!(
            sweeps[1][..5],
            ["wlb_entries", "1", "bilinear", "300", "nbtc"]
        );
        assert_eq!(sweeps[2][4], "btc");
        let c = column(&sweeps, "cycles");
        let p = &r.sweeps[0].points[0];
        assert_eq!(sweeps[1][c], p.nbtc.stats.cycles.to_string());
        assert_eq!(sweeps[2][c], p.btc.stats.cycles.to_string());
        let bytes = column(&sweeps, "nbtc_buffer_bytes");
        assert_eq!(sweeps[1][bytes], p.storage_bytes.to_string());
        assert_eq!(sweeps[2][bytes], "", "the BTC has no such buffers");

        // storage.csv: a row per field, adding up to each buffer's bits.
        let storage = read(&dir.path().join("storage.csv"))?;
        let s = &r.storage;
        let fields = s.rb.fields.len() + s.wlb.fields.len() + s.bab.fields.len();
        assert_eq!(storage.len(), 1 + fields);
        for (name, b) in [("rb", &s.rb), ("wlb", &s.wlb), ("bab", &s.bab)] {
            let rows: Vec<_> = storage.iter().filter(|x| x[0] == name).collect();
            let entry: u32 = rows.iter().map(|x| x[3].parse::<u32>().unwrap()).sum();
            let bits: u64 = rows[0][5].parse()?;
            let entries: u64 = rows[0][1].parse()?;
            assert_eq!((entry, bits), (b.entry_bits, entries * u64::from(entry)));
        }

        let paper = read(&dir.path().join("paper.csv"))?;
        assert_eq!(paper.len(), 1 + 2 * 3);
        let row = paper
            .iter()
            .find(|x| x[0] == "nearest" && x[1] == "cycles_change" && x[2] == "50")
            .unwrap();
        let ours = r.frames[0].row(Mode::Nbtc, 50).unwrap().cycles_change;
        assert_eq!(row[3..], ["-12.47".to_string(), ours.to_string()]);
        Ok(())
    }
}
