//! What `gfxcache nuca --suite` prints without `--json`: the mean's
//! organizations beside the paper's, each scene's DTM-NUCA figures,
//! Figure 1's mean and Figure 11's mean in a line per number of fragment
//! processors.

use gfxcache_nuca::OrgKind;

use super::super::summary::organizations;
use super::super::{paper_scaling, share, signed};
use super::{NucaSuite, MEAN};
use crate::table::Table;

/// The summary.
pub fn text(r: &NucaSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut out = format!(
        "DTM-NUCA study of the {} suite ({} scenes: {})\n\nMean over the scenes. ",
        r.suite,
        r.scenes.len(),
        names.join(", ")
    );
    out += &organizations(&r.mean.organizations, &r.mean.paper);
    out += &per_scene(r);
    out += &format!(
        "\nFigure 1: with {} private caches, {} of texture accesses find their block in more than one, mean over the scenes (paper, 4 caches: {})\n",
        r.mean.replication_fps,
        share(r.mean.replicated_percent),
        share(r.mean.paper.replicated_percent)
    );
    let mut fps: Vec<usize> = r.mean.scaling.iter().map(|(p, _, _)| *p).collect();
    fps.dedup();
    for p in fps {
        let parts: Vec<String> = r
            .mean
            .scaling
            .iter()
            .filter(|(q, k, _)| *q == p && *k != OrgKind::Private)
            .map(|(_, k, f)| {
                let paper = paper_scaling(&r.mean.paper, *k, p)
                    .map_or(String::new(), |v| format!(" (paper {})", signed(v)));
                format!("{} {}{paper}", k.name(), signed(f.speedup_percent))
            })
            .collect();
        out += &format!("Figure 11, P = {p}, mean: {}\n", parts.join(", "));
    }
    out
}

/// DTM-NUCA's and its distributed form's figures per scene and the mean.
fn per_scene(r: &NucaSuite) -> String {
    let mut t = Table::new([
        "scene",
        "organization",
        "local",
        "L2 requests",
        "speedup",
        "energy",
    ])
    .left(1);
    for kind in [OrgKind::Dtm, OrgKind::DtmDist] {
        let scenes = r
            .scenes
            .iter()
            .filter_map(|s| Some((s.scene.as_str(), s.report.row(kind)?.figures)));
        let mean = super::mean_of(r, kind).map(|f| (MEAN, f));
        for (who, f) in scenes.chain(mean) {
            t.row([
                who.to_string(),
                kind.name().to_string(),
                share(f.local_hit_percent),
                signed(f.l2_texture_change_percent),
                signed(f.speedup_percent),
                signed(f.energy_change_percent),
            ]);
        }
    }
    format!("\nPer scene\n{}", t.render())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::suite::mean_of;
    use crate::nuca::suite::test_suite::suite;

    #[test]
    fn a_row_per_scene_the_mean_and_the_paper() {
        let r = suite();
        let s = text(&r);
        assert!(
            s.starts_with("DTM-NUCA study of the desktop suite (2 scenes: a<1>, b)"),
            "{s}"
        );
        for k in OrgKind::ALL {
            assert!(
                s.lines().any(|l| l.starts_with(&format!("{} ", k.name()))),
                "{}\n{s}",
                k.name()
            );
        }
        let mean = mean_of(&r, OrgKind::Dtm).unwrap();
        let line = s
            .lines()
            .find(|l| l.starts_with("mean") && l.contains("dtm-nuca "))
            .expect("a mean row");
        assert!(line.contains(&signed(mean.speedup_percent)), "{line}");
        assert!(s.lines().any(|l| l.starts_with("a<1>")) && s.lines().any(|l| l.starts_with("b ")));
        assert!(s.contains("(paper, 4 caches: 84.6%)") && s.contains("(paper +10.2%)"));
    }
}
