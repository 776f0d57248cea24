//! The composed study on synthetic frames: with one fragment processor
//! every placement serves as private caches do (and, with free table
//! lookups, takes the same cycles); under every placement every access is
//! accounted for; the thread count changes nothing.

use std::path::{Path, PathBuf};

use gfxcache_cache::run::Threads;
use gfxcache_compose::study::{run, ComposeConfig, ComposeReport, ComposedRun};
use gfxcache_gpu::OtherTraffic;
use gfxcache_nbtc::{Mode, RequestUnit};
use gfxcache_nuca::{MergedLookups, NucaConfig, OrgKind};
use gfxcache_trace::texreq::{synth, TexReqWriter};

fn frame(dir: &Path, fps: u16, tiles: u32, seed: u64) -> PathBuf {
    let path = dir.join(format!("f{fps}-{tiles}-{seed}.gtq"));
    let mut w = TexReqWriter::create(&path, &synth::header(fps, tiles)).unwrap();
    for r in synth::frame(fps, tiles, seed) {
        w.write(&r).unwrap();
    }
    w.finish().unwrap();
    path
}

fn modes() -> Vec<Mode> {
    vec![
        Mode::BTC,
        Mode::Blocking { serial: false },
        Mode::Nbtc,
        Mode::mshr(),
        Mode::prefetching(),
    ]
}

fn config(fps: usize, placements: &[OrgKind]) -> ComposeConfig {
    let base = ComposeConfig::default();
    ComposeConfig {
        machine: NucaConfig {
            fps,
            // Small caches: blocks are evicted and fetched again.
            tc_bytes: 2048,
            // Epochs short enough that a small frame ends several: the
            // distributed tables then learn other nodes' buckets.
            epoch: 500,
            ..base.machine.clone()
        },
        unit: gfxcache_nbtc::NbtcConfig {
            fragments_in_flight: 16,
            ..base.unit
        },
        modes: modes(),
        placements: placements.to_vec(),
        ..base
    }
}

fn study(config: &ComposeConfig, requests: &Path) -> ComposeReport {
    run(config, requests, None, &|_| {}).unwrap()
}

/// One fragment processor owns every bucket and is every block's home:
/// each placement serves each access where private caches do, and those
/// that ask no table on a miss take the same cycles. The centralized
/// Affinity Table and D-NUCA's directory add their lookup to each miss,
/// which moves the units' timing (a block still on its way is a merged
/// miss, one back a hit); with those lookups free they are the same too.
#[test]
fn with_one_processor_every_placement_is_private() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 1, 12, 3);
    let mut c = config(1, &OrgKind::ALL);
    let same = |report: &ComposeReport, kinds: &[OrgKind]| {
        for mode in modes() {
            let private = report.run(mode.name(), OrgKind::Private).unwrap();
            assert!(private.machine.served.local_hits > 0);
            for &kind in kinds {
                let r = report.run(mode.name(), kind).unwrap();
                let what = format!("{} {kind:?}", mode.name());
                assert_eq!(r.machine.served, private.machine.served, "{what}");
                assert_eq!(r.total, private.total, "{what}");
                assert_eq!(r.frame_cycles, private.frame_cycles, "{what}");
            }
        }
    };
    let report = study(&c, &requests);
    same(
        &report,
        &[OrgKind::DtmDist, OrgKind::SNuca, OrgKind::IdealShared],
    );
    // The blocking cache waits out every miss, and each is a cycle longer.
    let dtm = report.run("btc", OrgKind::Dtm).unwrap();
    let private = report.run("btc", OrgKind::Private).unwrap();
    assert!(dtm.frame_cycles > private.frame_cycles, "a lookup a miss");
    c.machine.timing.at_cycles = 0;
    c.machine.timing.directory_cycles = 0;
    same(&study(&c, &requests), &OrgKind::ALL);
}

/// Every access reaches the placement and is one of a local hit, a
/// remote hit or an L2 request; remote hits and L2 requests come only
/// from blocks sent; private caches read the L2 for every block sent;
/// DTM-NUCA finds blocks in other processors' caches.
#[test]
fn every_access_is_accounted_for_under_every_placement() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 8, 16, 5);
    for request_unit in [RequestUnit::Sample, RequestUnit::Quad] {
        let c = ComposeConfig {
            request_unit,
            ..config(8, &OrgKind::ALL)
        };
        every_access_is_accounted_for(&study(&c, &requests), request_unit);
    }
}

fn every_access_is_accounted_for(report: &ComposeReport, unit: RequestUnit) {
    assert_eq!(report.runs.len(), modes().len() * OrgKind::ALL.len());
    assert_eq!(report.runs[0].speedup, 1.0);
    // Each request's blocks, once each, whatever the miss handling: an
    // access (a hit or a block sent) or a lookup merged with a miss on
    // its way; the blocking caches merge none.
    let lookups = |r: &ComposedRun| r.machine.served.accesses + r.machine.served.merged_lookups;
    let first = &report.runs[0];
    assert!(report
        .runs
        .iter()
        .any(|r| r.machine.served.merged_lookups > 0));
    for r in &report.runs {
        let s = &r.machine.served;
        let what = format!("{} {:?} {}", r.mode, r.placement, unit.name());
        assert_eq!(lookups(r), lookups(first), "{what}");
        if r.mode.starts_with("btc") {
            assert_eq!(s.merged_lookups, 0, "{what}");
        }
        // Every one is counted in DTM-NUCA's tables (every access,
        // merged lookups counted: the defaults), and epochs end by them.
        if matches!(r.placement, OrgKind::Dtm | OrgKind::DtmDist) {
            assert_eq!(r.machine.side.table_updates, lookups(r), "{what}");
            assert_eq!(
                r.machine.side.epochs,
                lookups(r) / report.config.machine.epoch,
                "{what}"
            );
        } else {
            assert_eq!(r.machine.side.table_updates, 0, "{what}");
        }
        assert_eq!(
            s.local_hits + s.remote_hits + s.l2_requests,
            s.accesses,
            "{what}"
        );
        assert!(
            s.remote_hits + s.l2_requests <= r.total.memory_requests,
            "{what}"
        );
        assert!(s.accesses >= r.total.memory_requests, "{what}");
        assert_eq!(r.machine.l2.texture_requests, s.l2_requests, "{what}");
        assert!(r.frame_cycles > 0 && r.total.requests > 0, "{what}");
        match r.placement {
            OrgKind::Private => assert_eq!(s.l2_requests, r.total.memory_requests, "{what}"),
            OrgKind::Dtm | OrgKind::DtmDist | OrgKind::DNuca | OrgKind::SNuca => {
                assert!(s.remote_hits > 0, "{what}")
            }
            OrgKind::IdealShared => assert_eq!(s.remote_hits, 0, "{what}"),
        }
    }
}

/// With merged lookups unseen the tables count only the accesses, and
/// the runs of the blocking caches, which merge none, are the same as
/// with them counted.
#[test]
fn merged_lookups_unseen_leave_the_tables_the_accesses() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 8, 16, 5);
    let counted = config(8, &[OrgKind::Private, OrgKind::Dtm, OrgKind::DtmDist]);
    let mut unseen = counted.clone();
    unseen.machine.merged = MergedLookups::Unseen;
    let (counted, unseen) = (study(&counted, &requests), study(&unseen, &requests));
    let mut differs = false;
    for (c, u) in counted.runs.iter().zip(&unseen.runs) {
        let what = format!("{} {:?}", u.mode, u.placement);
        if matches!(u.placement, OrgKind::Dtm | OrgKind::DtmDist) {
            assert_eq!(
                u.machine.side.table_updates, u.machine.served.accesses,
                "{what}"
            );
        }
        if u.machine.served.merged_lookups == 0 || u.placement == OrgKind::Private {
            assert_eq!(c.frame_cycles, u.frame_cycles, "{what}");
            assert_eq!(c.machine, u.machine, "{what}");
        } else {
            differs |= c.machine.served != u.machine.served;
        }
    }
    assert!(
        differs,
        "the tables' counts moved some placement's decisions"
    );
}

#[test]
fn threads_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 8, 8, 9);
    let placements = [OrgKind::Private, OrgKind::Dtm, OrgKind::DtmDist];
    let many = study(&config(8, &placements), &requests);
    let one = study(
        &ComposeConfig {
            threads: Threads::One,
            ..config(8, &placements)
        },
        &requests,
    );
    assert_eq!(one.runs, many.runs);
}

#[test]
fn a_unit_block_other_than_the_machines_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 8, 1, 1);
    let mut c = config(8, &[OrgKind::Private]);
    c.unit.block_bytes = 32;
    let e = run(&c, &requests, None, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("unit.block_bytes = 32"), "{e}");
    c.unit.block_bytes = 64;
    c.placements.clear();
    let e = run(&c, &requests, None, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("placements"), "{e}");
}

/// The three speedups are the frame cycles' ratios they say they are:
/// over the baseline, over the same miss handling's first placement, and
/// that over the first miss handling's under the same placement; so the
/// baseline's are 1, and a run's speedup is its miss handling's speedup
/// alone times its placement speedup.
#[test]
fn the_speedups_are_the_frame_cycles_ratios() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 4, 16, 11);
    let placements = [OrgKind::Private, OrgKind::Dtm, OrgKind::DtmDist];
    let c = ComposeConfig {
        modes: vec![Mode::BTC, Mode::Nbtc, Mode::mshr()],
        ..config(4, &placements)
    };
    let r = study(&c, &requests);
    let cycles = |m: &str, p: OrgKind| r.run(m, p).unwrap().frame_cycles as f64;
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
    let first = r.runs[0].clone();
    assert_eq!(
        (first.mode.as_str(), first.placement),
        ("btc", OrgKind::Private)
    );
    for run in &r.runs {
        let (m, p) = (run.mode.as_str(), run.placement);
        assert!(close(
            run.speedup,
            cycles("btc", OrgKind::Private) / cycles(m, p)
        ));
        let alone = cycles(m, OrgKind::Private) / cycles(m, p);
        assert!(close(run.placement_speedup, alone), "{m} {p:?}");
        let under_btc = cycles("btc", OrgKind::Private) / cycles("btc", p);
        assert!(close(run.interaction, alone / under_btc), "{m} {p:?}");
        let mode_alone = r.run(m, OrgKind::Private).unwrap().speedup;
        assert!(close(run.speedup, mode_alone * run.placement_speedup));
    }
    // The frame is one the placements change: a check of 1 = 1 would
    // pass whatever the code did.
    assert!(r.runs.iter().any(|x| !close(x.interaction, 1.0)));
}

/// The report as data: a `runs` row per pair in the report's order, the
/// measures the runs give, the machine's description when the config has
/// one; a suite's mean is each measure's mean over the scenes.
#[test]
fn the_report_tables_and_the_suite_mean() {
    use gfxcache_cache::suite::SuiteMean;
    use gfxcache_compose::study::tables::MEASURES;
    use gfxcache_report::Report;

    let dir = tempfile::tempdir().unwrap();
    let placements = [OrgKind::Private, OrgKind::Dtm];
    let c = ComposeConfig {
        modes: vec![Mode::BTC, Mode::Nbtc],
        ..config(4, &placements)
    };
    let a = study(&c, &frame(dir.path(), 4, 16, 5));
    let b = study(&c, &frame(dir.path(), 4, 16, 6));
    let tables = a.tables().unwrap();
    let names: Vec<&str> = tables.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["runs", "machine"]);
    let runs = &tables[0];
    assert_eq!(runs.rows(), 4);
    let col = |name: &str| runs.index(name).unwrap();
    for (i, run) in a.runs.iter().enumerate() {
        assert_eq!(runs.cell(i, col("l1")), run.mode);
        assert_eq!(runs.cell(i, col("placement")), run.placement.name());
        assert_eq!(
            runs.number(i, col("frame_cycles")),
            Some(run.frame_cycles as f64)
        );
        for (name, _, of) in MEASURES {
            assert_eq!(runs.number(i, col(name)), Some(of(run)), "{name}");
        }
        assert_eq!(
            runs.number(i, col("remote_hits")),
            Some(run.machine.served.remote_hits as f64)
        );
    }
    let without = ComposeReport {
        config: ComposeConfig {
            description: None,
            ..a.config.clone()
        },
        ..a.clone()
    };
    assert_eq!(without.tables().unwrap().len(), 1);
    assert!(!a.figures().is_empty());

    let mean = ComposeReport::suite_mean(&[&a, &b]);
    assert_eq!(mean.runs.len(), a.runs.len());
    for m in &mean.runs {
        let (x, y) = (
            a.run(&m.mode, m.placement).unwrap(),
            b.run(&m.mode, m.placement).unwrap(),
        );
        assert_eq!(m.scenes, 2);
        for (name, _, of) in MEASURES {
            let want = (of(x) + of(y)) / 2.0;
            assert!((m.get(name).unwrap() - want).abs() < 1e-12, "{name}");
        }
    }
}

/// A trace of `frame(_, _, tiles, _)`'s frame, its tiles numbered from
/// `first`: before each tile a binning pass of two vertex blocks; in it a
/// depth load, a texture access, a Parameter Buffer read, a texture
/// access and a colour store of three blocks; after the last tile a
/// display write. Every block is its own.
fn trace(dir: &Path, tiles: u32, first: u32) -> PathBuf {
    use gfxcache_trace::{Access, Marker, Op, Stream, TraceMeta};
    let path = dir.join(format!("t{tiles}-{first}.gtr"));
    let mut w = gfxcache_trace::create(&path, &TraceMeta::default()).unwrap();
    let mut at = 1u64 << 32;
    let mut access = |w: &mut Box<dyn gfxcache_trace::TraceWrite>, stream, op, size: u32| {
        let a = Access {
            addr: at,
            size,
            unit: 0,
            stream,
            op,
        };
        at += 4096;
        w.write_access(&a).unwrap();
    };
    for tile in first..first + tiles {
        access(&mut w, Stream::Vtx, Op::Read, 128);
        w.write_marker(&Marker::TileBegin { tile }).unwrap();
        access(&mut w, Stream::Z, Op::Read, 64);
        access(&mut w, Stream::Tex, Op::Read, 64);
        access(&mut w, Stream::PbList, Op::Read, 64);
        access(&mut w, Stream::Tex, Op::Read, 64);
        access(&mut w, Stream::Rt, Op::Write, 192);
        w.write_marker(&Marker::TileEnd { tile }).unwrap();
    }
    access(&mut w, Stream::Display, Op::Write, 64);
    w.finish().unwrap();
    path
}

/// The frame's other traffic reaches every run's L2, a block at a time:
/// the binning passes and the display write untimed, the tiles' accesses
/// (a load and a read at the tile's start, three stores at its end)
/// timed only under `tiles`, their read misses on DRAM; threads change
/// nothing; and the time it takes is the frame's.
#[test]
fn the_frames_other_traffic_reaches_every_runs_l2() {
    let dir = tempfile::tempdir().unwrap();
    let tiles = 8;
    let requests = frame(dir.path(), 8, tiles, 9);
    let gtr = trace(dir.path(), tiles, 0);
    let placements = [OrgKind::Private, OrgKind::Dtm, OrgKind::DtmDist];
    let with = |other_traffic, threads| {
        let mut c = config(8, &placements);
        c.machine.timing.dram_banks = true;
        c.machine.timing.other_traffic = other_traffic;
        c.machine.timing.tile_buffers = 1;
        c.machine.timing.other_port_cycles = 40;
        c.threads = threads;
        run(&c, &requests, Some(&gtr), &|_| {}).unwrap()
    };
    let none = study(&config(8, &placements), &requests);
    let t = u64::from(tiles);
    for other_traffic in [OtherTraffic::Untimed, OtherTraffic::Tiles] {
        let report = with(other_traffic, Threads::Many);
        assert_eq!(report.trace.as_deref(), Some(gtr.as_path()));
        assert_eq!(
            with(other_traffic, Threads::One).runs,
            report.runs,
            "{other_traffic:?}: threads change nothing"
        );
        for r in &report.runs {
            let what = format!("{} {:?} {other_traffic:?}", r.mode, r.placement);
            let (l2, dram) = (&r.machine.l2, &r.machine.dram);
            assert_eq!(l2.other_accesses, t * (2 + 5) + 1, "{what}");
            assert_eq!(
                l2.other_misses, l2.other_accesses,
                "{what}: every block its own"
            );
            match other_traffic {
                OtherTraffic::Untimed => {
                    assert_eq!(l2.other_timed, 0, "{what}");
                    assert_eq!(dram.other_reads, 0, "{what}");
                    assert_eq!(l2.tile_buffer_wait_cycles, 0, "{what}");
                }
                OtherTraffic::Tiles => {
                    assert_eq!(l2.other_timed, t * 5, "{what}");
                    assert_eq!(dram.other_reads, t * 2, "{what}: the load and the read");
                    assert!(l2.other_port_wait_cycles > 0, "{what}");
                    assert!(l2.tile_buffer_wait_cycles > 0, "{what}: a slow port");
                    let plain = none.run(&r.mode, r.placement).unwrap();
                    assert!(r.frame_cycles > plain.frame_cycles, "{what}");
                }
            }
        }
    }
    assert!(none.runs.iter().all(|r| r.machine.l2.other_accesses == 0));
}

/// A trace of other tiles than the requests' is refused naming both
/// files; other traffic without synchronised tiles is refused by name.
#[test]
fn a_trace_of_another_frame_or_unsynchronised_tiles_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let requests = frame(dir.path(), 8, 4, 9);
    let c = config(8, &[OrgKind::Private]);
    let other = trace(dir.path(), 4, 1);
    let e = run(&c, &requests, Some(&other), &|_| {}).unwrap_err();
    let e = anyhow_chain(&e);
    for what in [
        requests.display().to_string(),
        other.display().to_string(),
        "the trace's next tile is tile 1, the requests' tile 0".to_string(),
    ] {
        assert!(e.contains(&what), "{what} in {e}");
    }
    let mut free = c.clone();
    free.machine.timing.sync_tiles = false;
    let e = run(&free, &requests, Some(&trace(dir.path(), 4, 0)), &|_| {});
    let e = anyhow_chain(&e.unwrap_err());
    assert!(e.contains("sync_tiles"), "{e}");
}

/// An error with its sources, as the command line prints it.
fn anyhow_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text += &format!(": {s}");
        source = s.source();
    }
    text
}
