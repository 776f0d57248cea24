//! The composed study on synthetic frames: with one fragment processor
//! every placement serves as private caches do (and, with free table
//! lookups, takes the same cycles); under every placement every access is
//! accounted for; the thread count changes nothing.

use std::path::{Path, PathBuf};

use gfxcache_cache::run::Threads;
use gfxcache_compose::study::{run, ComposeConfig, ComposeReport};
use gfxcache_nbtc::Mode;
use gfxcache_nuca::{NucaConfig, OrgKind};
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
    run(config, requests, &|_| {}).unwrap()
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
    let report = study(&config(8, &OrgKind::ALL), &requests);
    assert_eq!(report.runs.len(), modes().len() * OrgKind::ALL.len());
    assert_eq!(report.runs[0].speedup, 1.0);
    for r in &report.runs {
        let s = &r.machine.served;
        let what = format!("{} {:?}", r.mode, r.placement);
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
    let e = run(&c, &requests, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("unit.block_bytes = 32"), "{e}");
    c.unit.block_bytes = 64;
    c.placements.clear();
    let e = run(&c, &requests, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("placements"), "{e}");
}
