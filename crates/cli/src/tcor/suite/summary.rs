//! What `gfxcache tcor --suite` prints without `--json`: per Tile Cache
//! size, TCOR's decreases versus the baseline per scene, their mean and
//! the paper's average.

use gfxcache_tcor::study::report::Reductions;

use super::{tile_caches, TcorSuite, MEAN};
use crate::table::Table;

/// The summary: a table per Tile Cache size, a row per scene, the mean's
/// and the paper's.
pub fn text(r: &TcorSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut out = format!(
        "TCOR study of the {} suite ({} scenes: {}){}\n",
        r.suite,
        r.scenes.len(),
        names.join(", "),
        super::binning(r).map_or(String::new(), |b| format!(", {b} binning"))
    );
    for size in tile_caches(r) {
        let mut t = Table::new([
            "scene",
            "PB to L2",
            "PB to memory",
            "memory",
            "energy",
            "energy no L2",
            "fetcher",
        ]);
        let scenes = r
            .scenes
            .iter()
            .map(|s| (s.scene.as_str(), s.report.reductions.get(&size)));
        let rest = [
            (MEAN, r.mean.reductions.get(&size)),
            ("paper", r.mean.paper.get(&size)),
        ];
        for (who, d) in scenes.chain(rest) {
            t.row(std::iter::once(who.to_string()).chain(row(d)));
        }
        out += &format!(
            "\nTCOR against the baseline, Tile Cache {size} (fetcher: throughput ratio)\n"
        );
        out += &t.render();
    }
    if !r.mean.fetcher_sensitivity.is_empty() {
        out += "\nMean over the scenes:";
        out += &crate::tcor::fetcher::sensitivity_text(&r.mean.fetcher_sensitivity);
    }
    out
}

/// A decrease in percent as a signed change, as the scene's summary
/// writes it: 5.6 -> "-5.6%"; a dash where there is none.
fn row(d: Option<&Reductions>) -> Vec<String> {
    let Some(d) = d else {
        return vec!["-".to_string(); 6];
    };
    let change = |v: f64| format!("{:+.1}%", -v + 0.0);
    vec![
        change(d.pb_l2_accesses),
        change(d.pb_dram_accesses),
        change(d.dram_accesses),
        change(d.energy),
        change(d.energy_no_l2),
        format!("{:.2}x", d.fetcher_speedup),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcor::suite::test_suite::suite;

    #[test]
    fn a_row_per_scene_the_mean_and_the_paper() {
        let r = suite();
        let s = text(&r);
        assert!(
            s.contains("mobile suite (2 scenes: a<1>, b), exact binning"),
            "{s}"
        );
        let mean = r.mean.reductions["64KiB"].pb_l2_accesses;
        let line = s
            .lines()
            .find(|l| l.starts_with("mean"))
            .expect("a mean row");
        assert!(line.contains(&format!("{:+.1}%", -mean)), "{s}");
        assert!(s
            .lines()
            .any(|l| l.starts_with("paper") && l.contains("-33.5%")));
    }
}
