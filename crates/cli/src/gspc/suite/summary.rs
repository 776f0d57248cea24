//! What `gfxcache gspc --suite` prints without `--json`: per scene and
//! the mean, the misses and frame rates over DRRIP's at the main size,
//! with the paper's averages.

use gfxcache_cache::format_size;
use gfxcache_llc::study::mean::PolicyMean;
use gfxcache_llc::study::paper;
use gfxcache_llc::study::report::PolicyResult;

use super::super::{find, paper_fps, FPS_POLICIES, TABLE6};
use super::{find_mean, main_size, GspcSuite, MEAN};
use crate::table::{thousands, Table};

/// The summary: a table of misses and one of frame rates, a row per scene,
/// the mean's and the paper's.
pub fn text(r: &GspcSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let accesses: u64 = r.scenes.iter().map(|s| s.report.accesses).sum();
    let mut out = format!(
        "GSPC study of the {} suite ({} scenes: {}; {} LLC block accesses in all)\n",
        r.suite,
        r.scenes.len(),
        names.join(", "),
        thousands(accesses)
    );
    let Some(size) = main_size(r) else {
        return out;
    };
    let at = format_size(size);
    out += &format!("\nLLC misses over DRRIP's at {at} (the paper's: at 8 MB)\n");
    out += &table(
        r,
        TABLE6,
        size,
        (|p| p.misses_vs_drrip, |m| m.misses_vs_drrip),
        |policy| paper::lookup(paper::MISSES_VS_DRRIP, policy),
    );
    out += &format!("\nLLC read misses over DRRIP's at {at} (write misses fetch nothing)\n");
    out += &table(
        r,
        TABLE6,
        size,
        (|p| p.read_misses_vs_drrip, |m| m.read_misses_vs_drrip),
        |_| None,
    );
    out += &format!("\nFrame rate over DRRIP's at {at} (baseline machine)\n");
    out += &table(
        r,
        FPS_POLICIES,
        size,
        (|p| p.fps_vs_drrip, |m| m.fps_vs_drrip),
        |policy| paper_fps(&at, policy),
    );
    out
}

type Figures = (fn(&PolicyResult) -> f64, fn(&PolicyMean) -> f64);

fn table(
    r: &GspcSuite,
    policies: &[&str],
    size: u64,
    (scene, mean): Figures,
    paper: impl Fn(&str) -> Option<f64>,
) -> String {
    let mut t = Table::new(std::iter::once("scene").chain(policies.iter().copied()));
    let value = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
    for s in &r.scenes {
        let row = policies
            .iter()
            .map(|p| value(find(&s.report, p, size).map(scene)));
        t.row(std::iter::once(s.scene.clone()).chain(row));
    }
    let row = policies
        .iter()
        .map(|p| value(find_mean(r, p, size).map(mean)));
    t.row(std::iter::once(MEAN.to_string()).chain(row));
    let row = policies.iter().map(|p| value(paper(p)));
    t.row(std::iter::once("paper".to_string()).chain(row));
    t.render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::suite::test_suite::suite;

    #[test]
    fn a_row_per_scene_the_mean_and_the_paper() {
        let r = suite();
        let s = text(&r);
        assert!(s.contains("desktop suite (2 scenes: a<1>, b;"), "{s}");
        let rows: Vec<&str> = s.lines().filter(|l| l.starts_with("mean")).collect();
        assert_eq!(rows.len(), 3, "{s}");
        assert!(s.contains("LLC read misses over DRRIP's"), "{s}");
        let gspc = find_mean(&r, "gspc+ucd", 8 << 20).unwrap();
        assert!(
            rows[0].contains(&format!("{:.3}", gspc.misses_vs_drrip)),
            "{s}"
        );
        assert!(s
            .lines()
            .any(|l| l.starts_with("paper") && l.contains("0.869")));
    }
}
