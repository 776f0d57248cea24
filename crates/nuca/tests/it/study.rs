//! The study on synthetic frames written as texture request files: every
//! run accounts for every access, the figures are against the private
//! caches of the same frame, one fragment processor makes every
//! organization private, and nothing depends on the thread count.

use std::path::Path;

use gfxcache_cache::progress::quiet;
use gfxcache_cache::run::Threads;
use gfxcache_nuca::study::{self, FrameFiles, NucaStudyConfig, Sweeps};
use gfxcache_nuca::{NucaConfig, OrgKind};
use gfxcache_trace::texreq::{synth, TexReqWriter};

/// The synthetic frame of `gfxcache_trace::texreq::synth`, written.
fn write_frame(path: &Path, fps: u16, tiles: u32, seed: u64) {
    let mut w = TexReqWriter::create(path, &synth::header(fps, tiles)).unwrap();
    for r in &synth::frame(fps, tiles, seed) {
        w.write(r).unwrap();
    }
    w.finish().unwrap();
}

fn files(path: &Path) -> FrameFiles {
    FrameFiles {
        requests: path.to_path_buf(),
        trace: None,
    }
}

fn config(dir: &Path) -> NucaStudyConfig {
    let main = dir.join("p8.gtq");
    write_frame(&main, 8, 60, 1);
    let p2 = dir.join("p2.gtq");
    write_frame(&p2, 2, 60, 1);
    let tiles = dir.join("tiles.gtq");
    write_frame(&tiles, 8, 60, 2);
    NucaStudyConfig {
        config: NucaConfig {
            fps: 8,
            epoch: 2000,
            tc_bytes: 4096,
            ..NucaConfig::default()
        },
        scaling: vec![(2, files(&p2))],
        assignments: vec![("tiles".into(), files(&tiles))],
        private_sizes: vec![2048, 4096, 16384],
        sweeps: Sweeps {
            epoch: vec![500, 2000],
            buckets: vec![16],
            counter_bits: vec![],
            page_blocks: vec![4],
            trace_order: true,
            context_unit: true,
            tc_index: true,
            announced_count: true,
            organizations: vec![OrgKind::Dtm],
        },
        ..NucaStudyConfig::new(files(&main))
    }
}

#[test]
fn every_run_accounts_for_every_access() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let report = study::run(&config, &quiet).unwrap();
    assert_eq!(report.frame.tiles, 60);
    assert_eq!(report.frame.texture_requests, 60 * 256);
    let accesses = report.frame.texture_accesses;
    assert!(
        accesses > report.frame.texture_requests,
        "some requests span two blocks"
    );
    assert_eq!(report.organizations.len(), OrgKind::ALL.len());
    for row in &report.organizations {
        let s = &row.result.stats;
        assert_eq!(s.texture_accesses, accesses, "{:?}", row.organization);
        assert_eq!(s.local_hits + s.remote_hits + s.l2_requests, accesses);
        assert_eq!(s.l2_hits + s.l2_misses, s.l2_requests);
        let f = &row.figures;
        let shares =
            f.local_hit_percent + f.remote_hit_percent + f.l2_hit_percent + f.l2_miss_percent;
        assert!((shares - 100.0).abs() < 1e-9, "{shares}");
        assert_eq!(row.result.timing.tiles, 60);
    }
    let private = report.row(OrgKind::Private).unwrap();
    assert_eq!(private.figures.speedup_percent, 0.0);
    assert_eq!(private.figures.l2_texture_change_percent, 0.0);
    assert_eq!(private.result.stats.remote_hits, 0);
    // Figure 7: the sizes in order, the main size's point the main run.
    let sizes: Vec<u64> = report.capacity.iter().map(|p| p.tc_bytes).collect();
    assert_eq!(sizes, [2048, 4096, 16384]);
    let main = report.capacity.iter().find(|p| p.tc_bytes == 4096).unwrap();
    assert_eq!(main.l2_requests, private.result.stats.l2_requests);
    // Figure 11 from the two-processor frame and the main one; Figure 1
    // from the fewest.
    let fps: Vec<usize> = report.scaling.iter().map(|p| p.fps).collect();
    assert_eq!(fps, [2, 8]);
    assert_eq!(report.replication.fps, 2);
    assert_eq!(report.replication.in_caches_percent.len(), 3);
    let replication_sum: f64 = report.replication.in_caches_percent.iter().sum();
    assert!((replication_sum - 100.0).abs() < 1e-9);
    // The sweeps: epoch 2000 is the machine's, so only 500; the order and
    // index points are against private caches with the same setting; the
    // other reading of the announced count runs the distributed tables
    // only, whatever organizations the other knobs sweep.
    let knobs: Vec<(&str, &str)> = report
        .sweeps
        .iter()
        .map(|p| (p.knob.as_str(), p.value.as_str()))
        .collect();
    assert_eq!(
        knobs,
        [
            ("epoch", "500"),
            ("buckets", "16"),
            ("page_blocks", "4"),
            ("order", "trace"),
            ("context_unit", "request"),
            ("tc_index", "xor-fold"),
            ("announced_count", "halved")
        ]
    );
    let halved = report.sweeps.last().unwrap();
    assert_eq!(halved.organization, OrgKind::DtmDist);
    assert_eq!(report.assignments.len(), 2);
    assert_eq!(report.assignments[1].assignment, "tiles");
    assert!(report.warnings.iter().any(|w| w.contains("no trace")));
}

#[test]
fn one_fragment_processor_makes_every_organization_private() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p1.gtq");
    write_frame(&path, 1, 30, 5);
    let config = NucaStudyConfig {
        config: NucaConfig {
            fps: 1,
            tc_bytes: 4096,
            ..NucaConfig::default()
        },
        private_sizes: vec![],
        sweeps: Sweeps::none(),
        ..NucaStudyConfig::new(files(&path))
    };
    let report = study::run(&config, &quiet).unwrap();
    let private = &report.row(OrgKind::Private).unwrap().result.stats;
    for row in &report.organizations {
        let s = &row.result.stats;
        assert_eq!(
            (s.local_hits, s.remote_hits, s.l2_requests),
            (private.local_hits, private.remote_hits, private.l2_requests),
            "{:?}",
            row.organization
        );
    }
}

#[test]
fn the_report_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    let json = |config: &NucaStudyConfig| {
        let mut r = study::run(config, &quiet).unwrap();
        r.seconds.clear();
        serde_json::to_string(&r).unwrap()
    };
    config.threads = Threads::One;
    let one = json(&config);
    config.threads = Threads::Many;
    assert_eq!(one, json(&config));
}

#[test]
fn bad_studies_are_refused_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.organizations = vec![OrgKind::Dtm];
    let err = study::run(&config, &quiet).unwrap_err().to_string();
    assert!(err.contains("private"), "{err}");
    let mut config = self::config(dir.path());
    config.frame.requests = dir.path().join("missing.gtq");
    let err = study::run(&config, &quiet).unwrap_err();
    let chain = format!("{err}: {}", std::error::Error::source(&err).unwrap());
    assert!(chain.contains("missing.gtq"), "{chain}");
    let mut config = self::config(dir.path());
    config.scaling = vec![(0, files(&dir.path().join("p2.gtq")))];
    assert!(study::run(&config, &quiet).is_err());
}

/// The other reading of the announced count is DTM-NUCA-Dist on the main
/// machine with that reading: the sweep point is what a study with it as
/// the main reading gives.
#[test]
fn the_other_reading_is_the_main_run_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.sweeps = Sweeps {
        announced_count: true,
        ..Sweeps::none()
    };
    let report = study::run(&config, &quiet).unwrap();
    let point = &report.sweeps[0];
    assert_eq!(
        (
            point.knob.as_str(),
            point.value.as_str(),
            point.organization
        ),
        ("announced_count", "halved", OrgKind::DtmDist)
    );
    config.config.announced_count = gfxcache_nuca::AnnouncedCount::Halved;
    config.sweeps = Sweeps::none();
    let halved = study::run(&config, &quiet).unwrap();
    let row = halved.row(OrgKind::DtmDist).unwrap();
    assert_eq!(point.figures, row.figures);
    assert_ne!(
        report.row(OrgKind::DtmDist).unwrap().result.stats,
        row.result.stats,
        "the readings differ on this frame"
    );
}

/// An error and its causes, as the command line prints them.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text = format!("{text}: {c}");
        cause = c.source();
    }
    text
}

/// A synthetic frame (8 processors, 4 tiles) damaged as the issue found:
/// a request's processor field 0xFFFF, cut inside a record, at a record
/// boundary, at a tile boundary, after the header, inside the footer.
/// Each is an error naming the file and the byte, never a report of part
/// of the frame.
#[test]
fn a_damaged_or_cut_frame_is_refused_never_reported() {
    let dir = tempfile::tempdir().unwrap();
    let whole_path = dir.path().join("whole.gtq");
    write_frame(&whole_path, 8, 4, 1);
    let whole = std::fs::read(&whole_path).unwrap();
    // Header 38 bytes, PassBegin and TileBegin 5 each, then 256 pixels of
    // a 4-tap request (67 bytes) and its FragmentEnd (31), TileEnd 5;
    // the footer is the last 37 bytes.
    let first_request = 38 + 5 + 5;
    let tile_end = first_request + 256 * (67 + 31) + 5;
    let mut fp = whole.clone();
    fp[first_request + 1..first_request + 3].copy_from_slice(&[0xff, 0xff]);
    let cut = |n: usize| whole[..n].to_vec();
    let damaged = [
        ("processor 0xFFFF", fp),
        ("inside a record", cut(first_request + 20)),
        ("at a record boundary", cut(first_request + 67)),
        ("at a tile boundary", cut(tile_end)),
        ("header only", cut(38)),
        ("inside the footer", cut(whole.len() - 3)),
    ];
    for threads in [Threads::One, Threads::Many] {
        for (what, bytes) in &damaged {
            let path = dir.path().join("damaged.gtq");
            std::fs::write(&path, bytes).unwrap();
            let config = NucaStudyConfig {
                config: NucaConfig {
                    fps: 8,
                    tc_bytes: 4096,
                    ..NucaConfig::default()
                },
                organizations: vec![OrgKind::Private],
                private_sizes: vec![4096],
                sweeps: Sweeps::none(),
                threads,
                ..NucaStudyConfig::new(files(&path))
            };
            let err = match study::run(&config, &quiet) {
                Ok(r) => panic!("{what}: a report of {} tiles", r.frame.tiles),
                Err(e) => chain(&e),
            };
            assert!(
                err.contains("damaged.gtq") && err.contains("byte"),
                "{what}: {err}"
            );
            if what.starts_with("processor") {
                assert!(err.contains("fragment processor 65535"), "{err}");
            } else {
                assert!(err.contains("truncated"), "{what}: {err}");
            }
        }
    }
}

#[test]
fn progress_counts_the_bytes_of_every_frame_replayed_up_to_their_sum() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let files = std::iter::once(&config.frame)
        .chain(config.scaling.iter().map(|(_, f)| f))
        .chain(config.assignments.iter().map(|(_, f)| f));
    let total: u64 = files
        .map(|f| std::fs::metadata(&f.requests).unwrap().len())
        .sum();
    let seen = std::sync::Mutex::new(Vec::new());
    study::run(&config, &|p| seen.lock().unwrap().push(p)).unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(seen.len() > 1, "{seen:?}");
    for p in &seen {
        assert_eq!((p.phase, p.total), (study::REPLAYING, total));
        assert_eq!(p.unit, gfxcache_cache::ProgressUnit::Bytes);
    }
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done), "{seen:?}");
    assert_eq!(seen.last().unwrap().done, total);
}
