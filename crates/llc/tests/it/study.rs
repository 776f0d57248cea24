//! The GSPC study over several frames: the warm-up warms, each frame is
//! timed on its own, and a frame's figures do not depend on how many
//! frames the trace has.

use crate::common;

use std::path::{Path, PathBuf};

use gfxcache_cache::run::Threads;
use gfxcache_llc::study::{
    self, baseline, machines, GspcConfig, GspcReport, StudyError, TimelineConfig,
};
use gfxcache_mem::{DramConfig, GpuConfig, LlcTiming};
use gfxcache_trace::{Marker, Op, Record, Stream, TraceMeta};

/// One frame's accesses: texture reads of `blocks` distinct 64 B blocks,
/// then render-target writes of as many others, the same every frame.
fn frame_records(blocks: u64) -> Vec<Record> {
    let access = |addr, stream, op| Record::Access(common::block_access(addr, stream, op));
    let tex = (0..blocks).map(|b| access(b * 64, Stream::Tex, Op::Read));
    let rt = (0..blocks).map(|b| access((1 << 30) + b * 64, Stream::Rt, Op::Write));
    tex.chain(rt).collect()
}

/// A trace of `frames` identical frames, with frame markers (or without,
/// for one frame given `markers: false`).
fn write_trace(dir: &Path, name: &str, frames: u32, markers: bool) -> PathBuf {
    let path = dir.join(name);
    let meta = TraceMeta {
        frames: markers.then_some(frames),
        ..TraceMeta::default()
    };
    let mut w = gfxcache_trace::create(&path, &meta).unwrap();
    for frame in 0..frames {
        if markers {
            w.write_marker(&Marker::FrameBegin { frame }).unwrap();
        }
        for r in frame_records(3000) {
            match r {
                Record::Access(a) => w.write_access(&a).unwrap(),
                Record::Marker(m) => w.write_marker(&m).unwrap(),
            }
        }
        if markers {
            w.write_marker(&Marker::FrameEnd { frame }).unwrap();
        }
    }
    w.finish().unwrap();
    path
}

fn config(warmup: u32) -> GspcConfig {
    GspcConfig {
        // 6000 blocks of 64 B fit in 1 MiB: a warm LLC holds the frame.
        sizes: vec![1 << 20],
        ways: 16,
        block: 64,
        banks: 4,
        machines: machines(&baseline(&gspc()).unwrap()),
        description: Some(gspc()),
        warmup,
        timeline: TimelineConfig::default(),
        threads: Threads::Many,
    }
}

fn run(trace: &Path, warmup: u32) -> GspcReport {
    study::run(trace, &config(warmup), &gfxcache_cache::progress::quiet).unwrap()
}

fn policy<'a>(r: &'a GspcReport, name: &str) -> &'a study::report::PolicyResult {
    r.policies.iter().find(|p| p.policy == name).unwrap()
}

#[test]
fn the_warm_up_warms_the_counted_frame() {
    let dir = tempfile::tempdir().unwrap();
    let two = write_trace(dir.path(), "two.gtr", 2, true);
    let one = write_trace(dir.path(), "one.gtr", 1, true);
    let warm = run(&two, 1);
    let cold = run(&one, 0);
    assert_eq!((warm.frames, warm.warmup), (2, 1));
    for name in ["lru", "drrip", "gspc", "opt"] {
        let (w, c) = (policy(&warm, name), policy(&cold, name));
        // The same frame, counted alone either way.
        assert_eq!(w.accesses, 6000, "{name}");
        assert_eq!(c.accesses, 6000, "{name}");
        assert_eq!(w.per_frame.len(), 1);
        assert_eq!(w.per_frame[0].frame, 1);
        assert_eq!(w.per_frame[0].misses, w.misses);
        // Cold, every block misses; warmed by the first frame, the texture
        // reads hit (the render-target writes allocate and hit too).
        assert_eq!(c.misses, 6000, "{name} cold");
        assert!(w.misses < c.misses / 10, "{name}: {} warm", w.misses);
        assert!(w.hit_rate.tex > 0.9, "{name}");
        // A warm frame is faster than a cold one.
        assert!(w.fps > c.fps, "{name}: {} vs {}", w.fps, c.fps);
    }
}

#[test]
fn frame_rates_do_not_depend_on_the_number_of_frames() {
    let dir = tempfile::tempdir().unwrap();
    let unmarked = write_trace(dir.path(), "unmarked.gtr", 1, false);
    let one = write_trace(dir.path(), "one.gtr", 1, true);
    let three = write_trace(dir.path(), "three.gtr", 3, true);
    let (u, a, b) = (run(&unmarked, 0), run(&one, 0), run(&three, 0));
    assert_eq!((u.frames, a.frames, b.frames), (1, 1, 3));
    for (pa, pb) in a.policies.iter().zip(&b.policies) {
        let name = &pa.policy;
        // The first frame of three is the one frame of one, to the bit.
        let (fa, fb) = (&pa.per_frame[0], &pb.per_frame[0]);
        assert_eq!(fa.misses, fb.misses, "{name}");
        assert_eq!(fa.fps, fb.fps, "{name}");
        assert_eq!(pa.fps, fa.fps, "{name}: one frame's rate is its own");
        assert_eq!(policy(&u, name).fps, pa.fps, "{name}: markers or not");
        // Three frames' rate is that of their mean frame time, not a third
        // of one frame's (the cold first frame is the slowest).
        let mean_ms = pb.per_frame.iter().map(|f| f.frame_ms).sum::<f64>() / 3.0;
        assert!(
            (pb.timing["baseline"].frame_ms - mean_ms).abs() < 1e-9,
            "{name}"
        );
        assert!(pb.fps >= pa.fps, "{name}: {} < {}", pb.fps, pa.fps);
        assert_eq!(pb.per_frame.len(), 3);
        assert_eq!(pb.accesses, 3 * pa.accesses);
    }
    // Frames two and three find the same warm LLC (it holds the frame), so
    // they are the same frame to the bit.
    for p in &b.policies {
        let (f1, f2) = (&p.per_frame[1], &p.per_frame[2]);
        if p.policy == "lru" || p.policy == "opt" {
            assert_eq!((f1.misses, f1.fps), (f2.misses, f2.fps), "{}", p.policy);
        }
    }
}

#[test]
fn a_warm_up_that_leaves_no_frame_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let two = write_trace(dir.path(), "two.gtr", 2, true);
    let unannounced = write_trace(dir.path(), "one.gtr", 1, false);
    for (trace, warmup) in [(&two, 2), (&two, 5), (&unannounced, 1)] {
        let e = study::run(trace, &config(warmup), &gfxcache_cache::progress::quiet).unwrap_err();
        assert!(matches!(e, StudyError::Config(_)), "{e}");
        assert!(e.to_string().contains("leaves no frame"), "{e}");
    }
}

#[test]
fn what_a_small_llc_does_to_a_policy_is_said_out_loud() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "one.gtr", 1, true);
    // 16 KiB of 16 ways: 16 sets, all of them DRRIP's leaders.
    let small = GspcConfig {
        sizes: vec![16 << 10],
        ..config(0)
    };
    let r = study::run(&trace, &small, &gfxcache_cache::progress::quiet).unwrap();
    let says = |prefix: &str| r.warnings.iter().any(|w| w.starts_with(prefix));
    assert!(says("drrip at 16KiB: "), "{:?}", r.warnings);
    assert!(says("gspc at 16KiB: "), "{:?}", r.warnings);
    assert!(run(&trace, 0).warnings.is_empty(), "1 MiB: nothing to say");
}

#[test]
fn a_trace_without_stream_tags_is_said_out_loud() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("untagged.din");
    let text: String = (0..2000).map(|b| format!("0 {:x}\n", b * 64)).collect();
    std::fs::write(&path, text).unwrap();
    let r = run(&path, 0);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("stream tags"));
    let tagged = write_trace(dir.path(), "tagged.gtr", 1, true);
    assert!(run(&tagged, 0).warnings.is_empty());
}

/// One frame of two passes: `gbuffer` writes `blocks` render-target lines,
/// `lighting` samples them back as textures; `frames` such frames.
fn two_pass_trace(dir: &Path, frames: u32, blocks: u64) -> PathBuf {
    use gfxcache_trace::PassKind;
    let path = dir.join("passes.gtr");
    let meta = TraceMeta {
        frames: Some(frames),
        ..TraceMeta::default()
    };
    let mut w = gfxcache_trace::create(&path, &meta).unwrap();
    let access = common::block_access;
    for frame in 0..frames {
        w.write_marker(&Marker::FrameBegin { frame }).unwrap();
        for (name, kind, stream, op) in [
            ("gbuffer", PassKind::GBuffer, Stream::Rt, Op::Write),
            ("lighting", PassKind::Lighting, Stream::Tex, Op::Read),
        ] {
            w.write_marker(&Marker::PassBegin {
                name: name.into(),
                kind,
            })
            .unwrap();
            for b in 0..blocks {
                w.write_access(&access((1 << 30) + b * 64, stream, op))
                    .unwrap();
            }
            w.write_marker(&Marker::PassEnd).unwrap();
        }
        w.write_marker(&Marker::FrameEnd { frame }).unwrap();
    }
    w.finish().unwrap();
    path
}

fn timeline<'a>(r: &'a GspcReport, policy: &str) -> &'a study::timeline::Timeline {
    r.timelines.iter().find(|t| t.policy == policy).unwrap()
}

#[test]
fn the_timeline_follows_the_passes_and_adds_up() {
    let dir = tempfile::tempdir().unwrap();
    let trace = two_pass_trace(dir.path(), 2, 5000);
    let mut config = config(0);
    config.timeline.step = 1000;
    let r = study::run(&trace, &config, &gfxcache_cache::progress::quiet).unwrap();
    assert_eq!(r.timelines.len(), 3);
    for t in &r.timelines {
        let p = policy(&r, &t.policy);
        let names: Vec<(u32, &str)> = t
            .passes
            .iter()
            .map(|s| (s.frame, s.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                (0, "gbuffer"),
                (0, "lighting"),
                (1, "gbuffer"),
                (1, "lighting")
            ],
            "{}",
            t.policy
        );
        // 5000 accesses a pass at a step of 1000: five points each.
        assert!(t
            .passes
            .iter()
            .all(|s| s.points == 5 && s.totals.accesses == 5000));
        // Points are in order, each inside its pass and frame.
        for (k, s) in t.passes.iter().enumerate() {
            let pts = &t.points[s.first_point as usize..(s.first_point + s.points) as usize];
            assert!(pts
                .iter()
                .all(|pt| pt.pass == k as u32 && pt.frame == s.frame));
        }
        assert!(t.points.windows(2).all(|w| w[0].at < w[1].at));
        // The passes add up to the run (no warm-up: every frame counts).
        let reads: u64 = t.passes.iter().map(|s| s.totals.read_misses).sum();
        let writes: u64 = t.passes.iter().map(|s| s.totals.write_misses).sum();
        assert_eq!(
            (reads, writes),
            (p.read_misses, p.write_misses),
            "{}",
            t.policy
        );
        assert_eq!(reads + writes, p.misses);
        // The G-buffer pass makes only write misses, the lighting pass
        // only read misses; every render-target fill has one RRPV band.
        for s in &t.passes {
            let rt_fills: u64 = s.totals.rt_fills_by_rrpv.iter().sum();
            if s.name == "gbuffer" {
                assert_eq!(s.totals.read_misses, 0);
                assert_eq!(rt_fills, s.totals.write_misses, "{}", t.policy);
            } else {
                assert_eq!(s.totals.write_misses, 0);
                assert_eq!(rt_fills, 0);
            }
        }
    }
    // 1 MiB holds the 5000 lines: in the cold first frame the G-buffer
    // misses every line and the lighting pass consumes every one of them
    // from the LLC; the second frame hits throughout.
    let drrip = timeline(&r, "drrip");
    assert_eq!(drrip.passes[0].totals.write_misses, 5000);
    assert_eq!(drrip.passes[1].totals.rt_consumed, 5000);
    assert_eq!(drrip.passes[1].totals.read_misses, 0);
    assert_eq!(drrip.passes[2].totals.write_misses, 0);
    assert_eq!(drrip.state, ["psel"]);
    // GSPC learns in its sample sets: PROD rises while render targets are
    // filled, and CONS only once the sampler consumes them.
    let gspc = timeline(&r, "gspc");
    let at = |s: &study::timeline::PassSpan, name: &str| {
        s.state_end[gspc.state.iter().position(|n| n == name).unwrap()]
    };
    assert!(at(&gspc.passes[0], "prod") > 0.0);
    assert_eq!(at(&gspc.passes[0], "cons"), 0.0);
    assert!(at(&gspc.passes[1], "cons") > 0.0);
}

#[test]
fn read_and_write_misses_split_the_misses_of_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "two.gtr", 2, true);
    for warmup in [0, 1] {
        let r = run(&trace, warmup);
        let drrip = policy(&r, "drrip");
        for p in &r.policies {
            assert_eq!(p.read_misses + p.write_misses, p.misses, "{}", p.policy);
            let expect = p.read_misses as f64 / drrip.read_misses.max(1) as f64;
            assert!((p.read_misses_vs_drrip - expect).abs() < 1e-12);
        }
    }
    // Cold: 3000 texture reads and 3000 render-target writes, all missing.
    let cold = run(&write_trace(dir.path(), "one.gtr", 1, true), 0);
    let lru = policy(&cold, "lru");
    assert_eq!((lru.read_misses, lru.write_misses), (3000, 3000));
}

#[test]
fn a_timeline_of_a_policy_the_study_does_not_run_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "one.gtr", 1, true);
    let mut c = config(0);
    c.timeline.policies = vec!["gspc:t=3".into()];
    let e = study::run(&trace, &c, &gfxcache_cache::progress::quiet).unwrap_err();
    assert!(e.to_string().contains("timeline of gspc:t=3"), "{e}");
    c.timeline = TimelineConfig {
        policies: vec![],
        step: 0,
    };
    assert!(study::run(&trace, &c, &gfxcache_cache::progress::quiet).is_err());
}

#[test]
fn timelines_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let trace = two_pass_trace(dir.path(), 1, 3000);
    let mut c = config(0);
    c.timeline.step = 700;
    let many = study::run(&trace, &c, &gfxcache_cache::progress::quiet).unwrap();
    c.threads = Threads::One;
    let one = study::run(&trace, &c, &gfxcache_cache::progress::quiet).unwrap();
    assert_eq!(
        serde_json::to_string(&many.timelines).unwrap(),
        serde_json::to_string(&one.timelines).unwrap()
    );
}

/// The GSPC paper's machine (`gfxcache machines gspc`).
fn gspc() -> gfxcache_machine::Machine {
    gfxcache_machine::Machine::preset("gspc").unwrap()
}

/// The paper's machine as data times frames as the code's baseline did:
/// the GPU front, the LLC and the DRAM of Section 4, and Figure 17's two.
#[test]
fn the_gspc_preset_is_the_baseline_the_study_had() {
    let m = machines(&baseline(&gspc()).unwrap());
    let names: Vec<&str> = m.iter().map(|m| m.name).collect();
    assert_eq!(names, ["baseline", "ddr3-1867", "gpu-64"]);
    assert_eq!(m[0].gpu, GpuConfig::high_end());
    assert_eq!(m[0].llc, LlcTiming::gspc());
    assert_eq!(m[0].dram, DramConfig::ddr3_1600());
    assert_eq!(m[1].dram, DramConfig::ddr3_1867());
    assert_eq!(m[1].gpu, GpuConfig::high_end());
    assert_eq!(m[2].gpu, GpuConfig::less_aggressive());
    assert_eq!(m[2].dram, DramConfig::ddr3_1600());
    // A machine without what the frame time needs is refused by its key.
    let mut lacks = gspc();
    lacks.frame_time = None;
    let e = baseline(&lacks).unwrap_err().to_string();
    assert!(e.contains("gspc") && e.contains("frame_time"), "{e}");
    let mut lacks = gspc();
    lacks.l2.as_mut().unwrap().tag_cycles = None;
    let e = baseline(&lacks).unwrap_err().to_string();
    assert!(e.contains("l2.tag_cycles"), "{e}");
    // Without its own clock the LLC runs at the GPU's.
    let mut slow = gspc();
    slow.l2.as_mut().unwrap().clock_mhz = None;
    assert_eq!(baseline(&slow).unwrap().llc.clock_ghz, 1.6);
}

/// The report carries the machine it ran on, every value with its source.
#[test]
fn the_report_writes_its_machine() {
    use gfxcache_report::Report;
    let dir = tempfile::tempdir().unwrap();
    let r = run(&write_trace(dir.path(), "m.gtr", 1, true), 0);
    assert_eq!(r.machine.as_ref().unwrap().name, "gspc");
    let tables = r.tables().unwrap();
    let machine = tables.iter().find(|t| t.name() == "machine").unwrap();
    assert!(machine.rows() > 20, "{} rows", machine.rows());
}
