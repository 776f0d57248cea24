//! The GSPC study's mean over a suite's scenes: each figure the mean of
//! the scenes' figures, ratios included (each scene weighs the same, as
//! the paper averages its applications).

use crate::common;

use std::path::{Path, PathBuf};

use gfxcache_cache::run::Threads;
use gfxcache_cache::suite::{SceneReport, SuiteReport};
use gfxcache_llc::study::{self, baseline, machines, GspcConfig, GspcReport, TimelineConfig};
use gfxcache_trace::{Op, Stream, TraceMeta};

/// `rounds` passes over `blocks` texture blocks, each followed by a
/// render-target write of a block of its own: more blocks than the LLC
/// holds, so that the policies differ.
fn write_trace(dir: &Path, name: &str, blocks: u64, rounds: u32) -> PathBuf {
    let path = dir.join(name);
    let mut w = gfxcache_trace::create(&path, &TraceMeta::default()).unwrap();
    let access = common::block_access;
    for round in 0..u64::from(rounds) {
        for b in 0..blocks {
            w.write_access(&access(b * 64, Stream::Tex, Op::Read))
                .unwrap();
            let rt = (1 << 30) + (round * blocks + b) * 64;
            w.write_access(&access(rt, Stream::Rt, Op::Write)).unwrap();
        }
    }
    w.finish().unwrap();
    path
}

fn study(trace: &Path) -> GspcReport {
    let config = GspcConfig {
        // 1024 lines: both scenes overflow it.
        sizes: vec![64 << 10],
        ways: 16,
        block: 64,
        banks: 4,
        machines: machines(&baseline(&gspc()).unwrap()),
        description: Some(gspc()),
        warmup: 0,
        timeline: TimelineConfig::default(),
        threads: Threads::Many,
    };
    study::run(trace, &config, &gfxcache_cache::progress::quiet).unwrap()
}

fn mean(a: f64, b: f64) -> f64 {
    (a + b) / 2.0
}

#[test]
fn the_mean_is_the_mean_of_the_scenes_figures() {
    let dir = tempfile::tempdir().unwrap();
    let a = study(&write_trace(dir.path(), "a.gtr", 900, 3));
    let b = study(&write_trace(dir.path(), "b.gtr", 2000, 2));
    let scenes = vec![
        SceneReport {
            scene: "a".into(),
            report: a.clone(),
        },
        SceneReport {
            scene: "b".into(),
            report: b.clone(),
        },
    ];
    let suite = SuiteReport::new("desktop", scenes, Vec::new()).unwrap();
    let m = &suite.mean;
    assert_eq!(m.scenes, 2);
    assert_eq!(m.policies.len(), a.policies.len());
    let mut ratio_of_sums_differs = false;
    for (pm, (pa, pb)) in m.policies.iter().zip(a.policies.iter().zip(&b.policies)) {
        assert_eq!((&pm.policy, pm.size), (&pa.policy, pa.size));
        assert_eq!(pb.policy, pa.policy);
        let close = |x: f64, y: f64| assert!((x - y).abs() < 1e-12, "{}: {x} {y}", pm.policy);
        close(pm.misses, mean(pa.misses as f64, pb.misses as f64));
        close(
            pm.misses_vs_drrip,
            mean(pa.misses_vs_drrip, pb.misses_vs_drrip),
        );
        close(pm.hit_rate.tex, mean(pa.hit_rate.tex, pb.hit_rate.tex));
        close(pm.fps, mean(pa.fps, pb.fps));
        close(pm.fps_vs_drrip, mean(pa.fps_vs_drrip, pb.fps_vs_drrip));
        for (name, t) in &pm.timing {
            close(
                t.fps_vs_drrip,
                mean(pa.timing[name].fps_vs_drrip, pb.timing[name].fps_vs_drrip),
            );
        }
        let drrip = |r: &GspcReport| {
            r.policies
                .iter()
                .find(|p| p.policy == "drrip")
                .unwrap()
                .misses
        };
        let of_sums = (pa.misses + pb.misses) as f64 / (drrip(&a) + drrip(&b)) as f64;
        ratio_of_sums_differs |= (of_sums - pm.misses_vs_drrip).abs() > 1e-6;
        assert_eq!(
            pm.rt_fills_at_max_rrpv.is_some(),
            pa.rt_fills_at_max_rrpv.is_some(),
            "{}",
            pm.policy
        );
    }
    assert!(
        ratio_of_sums_differs,
        "each scene weighs the same, not each access"
    );
    let share = |r: &GspcReport, s: &str| {
        r.stream_mix
            .iter()
            .find(|x| x.stream == s)
            .map_or(0.0, |x| x.fraction)
    };
    for s in &m.stream_mix {
        let expected = mean(share(&a, &s.stream), share(&b, &s.stream));
        assert!((s.fraction - expected).abs() < 1e-12, "{}", s.stream);
    }
    assert_eq!(m.t_sensitivity.len(), a.t_sensitivity.len());
    let v = serde_json::to_value(&suite).unwrap();
    assert_eq!(v["scenes"][1]["scene"], "b");
    assert_eq!(v["scenes"][1]["report"]["accesses"], b.accesses);
}

/// The GSPC paper's machine (`gfxcache machines gspc`).
fn gspc() -> gfxcache_machine::Machine {
    gfxcache_machine::Machine::preset("gspc").unwrap()
}
