//! What `gfxcache nbtc --suite` prints without `--json`: the mean of every
//! design against the blocking cache beside the slides' numbers, then the
//! NBTC per scene.

use gfxcache_nbtc::Mode;

use super::super::{paper_cycles, paper_traffic, share, signed, storage_line};
use super::{latencies, paper_of, NbtcSuite, MEAN};
use crate::table::Table;

/// The summary.
pub fn text(r: &NbtcSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut out = format!(
        "NBTC study of the {} suite ({} scenes: {})\n\n",
        r.suite,
        r.scenes.len(),
        names.join(", ")
    );
    if let Some(first) = r.scenes.first() {
        out += &format!(
            "NBTC buffers (field widths ours): {}\n\n",
            storage_line(&first.report.storage)
        );
    }
    out += &mean(r);
    out += &per_scene(r);
    out
}

fn mean(r: &NbtcSuite) -> String {
    let p = paper_of(r);
    let mut t = Table::new([
        "filter",
        "latency",
        "design",
        "vs BTC",
        "paper",
        "frame vs BTC",
        "miss rate",
        "traffic vs BTC",
        "paper",
    ])
    .left(2);
    let or_dash = |v: Option<f64>| v.map_or("-".to_string(), signed);
    for m in &r.mean.rows {
        t.row([
            m.filter.clone(),
            m.latency.to_string(),
            m.mode.name().to_string(),
            signed(m.cycles_change),
            or_dash(paper_cycles(&p, m.mode, m.latency)),
            signed(m.frame_cycles_change),
            share(m.miss_rate),
            signed(m.traffic_change),
            paper_traffic(&p, m.mode).map_or("-".into(), |v| format!("<={}", signed(v))),
        ]);
    }
    format!(
        "Mean over the scenes, against the blocking cache (PS cycles)\n{}",
        t.render()
    )
}

/// The NBTC's cycles change per scene (and the mean), a column per
/// latency.
fn per_scene(r: &NbtcSuite) -> String {
    let lats = latencies(r);
    let mut head = vec!["scene".to_string(), "filter".to_string()];
    head.extend(lats.iter().map(|l| format!("{l} cycles")));
    let mut t = Table::new(head).left(1);
    for s in &r.scenes {
        for f in &s.report.frames {
            let mut row = vec![s.scene.clone(), f.filter.clone()];
            row.extend(lats.iter().map(|&l| {
                f.row(Mode::Nbtc, l)
                    .map_or("-".into(), |x| signed(x.cycles_change))
            }));
            t.row(row);
        }
    }
    for filter in super::filters(r) {
        let mut row = vec![MEAN.to_string(), filter.clone()];
        row.extend(lats.iter().map(|&l| {
            r.mean
                .row(&filter, Mode::Nbtc, l)
                .map_or("-".into(), |m| signed(m.cycles_change))
        }));
        t.row(row);
    }
    format!(
        "\nThe NBTC's PS cycles against the BTC per scene\n{}",
        t.render()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::suite::test_suite::suite;

    #[test]
    fn the_mean_beside_the_slides_and_a_row_per_scene() {
        let r = suite();
        let s = text(&r);
        assert!(
            s.starts_with("NBTC study of the mobile suite (2 scenes: a<1>, b)"),
            "{s}"
        );
        let m = r.mean.row("bilinear", Mode::Nbtc, 300).unwrap();
        let line = s
            .lines()
            .find(|l| l.starts_with("bilinear") && l.contains(" nbtc ") && l.contains("-41.6%"))
            .unwrap_or_else(|| panic!("no mean row:\n{s}"));
        assert!(line.contains(&signed(m.cycles_change)), "{line}");
        let mean = s
            .lines()
            .find(|l| l.starts_with("mean") && l.contains("bilinear"))
            .expect("a mean row per filter");
        assert!(mean.contains(&signed(m.cycles_change)), "{mean}");
        assert_eq!(s.lines().filter(|l| l.starts_with("a<1>")).count(), 2);
    }
}
