//! The study on synthetic frames written as `.gtq` files.

use gfxcache_cache::progress::quiet;
use gfxcache_cache::run::Threads;
use gfxcache_nbtc::study::{self, FilterFrame, NbtcMean, NbtcStudyConfig, Sweeps};
use gfxcache_nbtc::{FieldBits, Mode, NbtcConfig, Storage};
use gfxcache_trace::texreq::{synth, TexReqWriter};

fn frame(dir: &std::path::Path, filter: &str, seed: u64) -> FilterFrame {
    let path = dir.join(format!("{filter}.gtq"));
    let mut w = TexReqWriter::create(&path, &synth::header(8, 4)).unwrap();
    for r in synth::frame(8, 4, seed) {
        w.write(&r).unwrap();
    }
    w.finish().unwrap();
    FilterFrame {
        filter: filter.into(),
        requests: path,
    }
}

fn config(threads: Threads) -> NbtcStudyConfig {
    NbtcStudyConfig {
        latencies: vec![50, 300],
        sweeps: Sweeps {
            wlb_entries: vec![1, 32],
            block_bytes: vec![32, 64],
            ..Sweeps::none()
        },
        threads,
        ..NbtcStudyConfig::default()
    }
}

#[test]
fn every_design_and_latency_against_the_blocking_cache() {
    let dir = tempfile::tempdir().unwrap();
    let frames = [
        frame(dir.path(), "nearest", 1),
        frame(dir.path(), "bilinear", 2),
    ];
    let report = study::run(&config(Threads::Many), &frames, &quiet).unwrap();
    assert_eq!(report.frames.len(), 2);
    for f in &report.frames {
        assert_eq!(f.runs.len(), 2 * 5, "{}", f.filter);
        assert_eq!(f.pixel_processors, 8);
        for r in &f.runs {
            assert_eq!(
                r.stats.requests, f.requests,
                "every design sees every request"
            );
            assert_eq!(r.stats.accounted_cycles(), r.stats.cycles);
        }
        for l in [50, 300] {
            let btc = f.row(Mode::BTC, l).unwrap();
            assert_eq!((btc.cycles_change, btc.traffic_change), (0.0, 0.0));
            let nbtc = f.row(Mode::Nbtc, l).unwrap();
            let expect = (nbtc.stats.cycles as f64 / btc.stats.cycles as f64 - 1.0) * 100.0;
            assert!((nbtc.cycles_change - expect).abs() < 1e-9);
        }
    }
    // Sweeps run on the bilinear frame only, at 300 cycles.
    assert_eq!(report.sweeps.len(), 2);
    let wlb = &report.sweeps[0];
    assert_eq!(
        (wlb.knob.as_str(), wlb.filter.as_str(), wlb.latency),
        ("wlb_entries", "bilinear", 300)
    );
    let main = report.frames[1].row(Mode::Nbtc, 300).unwrap();
    assert_eq!(
        wlb.points[1].nbtc.stats, main.stats,
        "the default WLB is the main run"
    );
    let block = &report.sweeps[1];
    assert_ne!(
        block.points[0].btc.stats, block.points[1].btc.stats,
        "a block size changes the BTC too"
    );
    // Threads change nothing; the mean of one scene is that scene.
    let one = study::run(&config(Threads::One), &frames, &quiet).unwrap();
    assert_eq!(one.frames, report.frames);
    assert_eq!(one.sweeps, report.sweeps);
    let mean = NbtcMean::of(&[&report]);
    let m = mean.row("bilinear", Mode::Nbtc, 300).unwrap();
    assert_eq!((m.cycles_change, m.scenes), (main.cycles_change, 1));
    assert_eq!(mean.sweeps[0].storage_bytes, wlb.points[0].storage_bytes);
}

/// The report says what the NBTC's buffers cost at the unit's sizes and
/// at each sweep point: a buffer's knob moves it by that buffer's entries,
/// a timing knob not at all.
#[test]
fn storage_at_the_unit_and_at_each_sweep_point() {
    let dir = tempfile::tempdir().unwrap();
    let frames = [frame(dir.path(), "bilinear", 3)];
    let config = NbtcStudyConfig {
        latencies: vec![300],
        sweeps: Sweeps {
            wlb_entries: vec![1, 32],
            issue_rate: vec![0, 200],
            ..Sweeps::none()
        },
        threads: Threads::One,
        ..NbtcStudyConfig::default()
    };
    let report = study::run(&config, &frames, &quiet).unwrap();
    assert_eq!(report.storage, Storage::of(&NbtcConfig::default()));
    assert_eq!(report.storage.bytes, 2816);
    let wlb = &report.sweeps[0].points;
    let entry_bytes = u64::from(report.storage.wlb.entry_bits);
    assert_eq!(wlb[1].storage_bytes, report.storage.bytes);
    assert_eq!(
        (wlb[1].storage_bytes - wlb[0].storage_bytes) * 8,
        31 * entry_bytes
    );
    let alu = &report.sweeps[1].points;
    assert!(alu.iter().all(|p| p.storage_bytes == report.storage.bytes));
    let bad = NbtcStudyConfig {
        unit: NbtcConfig {
            field_bits: FieldBits {
                coordinate: 0,
                ..FieldBits::default()
            },
            ..NbtcConfig::default()
        },
        ..config
    };
    let e = study::run(&bad, &frames, &quiet).unwrap_err().to_string();
    assert!(e.contains("field_bits.coordinate"), "{e}");
}

#[test]
fn bad_studies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let frames = [frame(dir.path(), "bilinear", 1)];
    let no_latency = NbtcStudyConfig {
        latencies: vec![],
        ..config(Threads::One)
    };
    assert!(study::run(&no_latency, &frames, &quiet).is_err());
    let bad_sweep = NbtcStudyConfig {
        sweeps: Sweeps {
            block_bytes: vec![48],
            ..Sweeps::none()
        },
        ..config(Threads::One)
    };
    let e = study::run(&bad_sweep, &frames, &quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("block_bytes at 48"), "{e}");
    let missing = [FilterFrame {
        filter: "bilinear".into(),
        requests: dir.path().join("none.gtq"),
    }];
    let e = study::run(&config(Threads::One), &missing, &quiet).unwrap_err();
    assert!(format!("{e:#}").contains("none.gtq"), "{e:#}");
}

/// Every knob given values is swept, in the order of `Sweeps`' fields.
#[test]
fn every_knob_with_values_is_swept() {
    let dir = tempfile::tempdir().unwrap();
    let frames = [frame(dir.path(), "bilinear", 1)];
    let config = NbtcStudyConfig {
        latencies: vec![300],
        sweeps: Sweeps {
            wlb_entries: vec![8],
            bab_entries: vec![16],
            rb_entries: vec![8],
            block_bytes: vec![64],
            hit_latency: vec![2],
            filter_latency: vec![8],
            issue_rate: vec![200],
            fragments_in_flight: vec![4],
            shared_memory: vec![1],
            ..Sweeps::none()
        },
        threads: Threads::One,
        ..NbtcStudyConfig::default()
    };
    let report = study::run(&config, &frames, &quiet).unwrap();
    let shared = &report.sweeps[8].points[0];
    assert!(shared.nbtc.stats.memory_wait_cycles > 0);
    assert!(
        shared.btc.stats.memory_wait_cycles > 0,
        "the BTC shares it too"
    );
    assert_eq!(
        shared.nbtc.stats.memory_requests,
        report.frames[0]
            .row(Mode::Nbtc, 300)
            .unwrap()
            .stats
            .memory_requests
    );
    let knobs: Vec<&str> = report.sweeps.iter().map(|s| s.knob.as_str()).collect();
    assert_eq!(
        knobs,
        [
            "wlb_entries",
            "bab_entries",
            "rb_entries",
            "block_bytes",
            "hit_latency",
            "filter_latency",
            "issue_rate",
            "fragments_in_flight",
            "shared_memory"
        ]
    );
    let width = &report.sweeps[6].points[0];
    assert_ne!(width.nbtc.stats, width.btc.stats);
    assert!(width.btc.stats.cycles < report.frames[0].row(Mode::BTC, 300).unwrap().stats.cycles);
}

/// The synthetic frame (8 processors, 4 tiles) as bytes, and the same
/// damaged as the issue found: a request's processor field 0xFFFF, cut
/// inside a record, at a record boundary, at a tile boundary, after the
/// header, inside the footer.
fn damaged_frames() -> Vec<(&'static str, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let whole = std::fs::read(frame(dir.path(), "whole", 1).requests).unwrap();
    // Header 38 bytes, PassBegin and TileBegin 5 each, then 256 pixels of
    // a 4-tap request (67 bytes) and its FragmentEnd (31), TileEnd 5;
    // the footer is the last 37 bytes.
    let first_request = 38 + 5 + 5;
    let tile_end = first_request + 256 * (67 + 31) + 5;
    let mut fp = whole.clone();
    fp[first_request + 1..first_request + 3].copy_from_slice(&[0xff, 0xff]);
    let cut = |n: usize| whole[..n].to_vec();
    vec![
        ("processor 0xFFFF", fp),
        ("inside a record", cut(first_request + 20)),
        ("at a record boundary", cut(first_request + 67)),
        ("at a tile boundary", cut(tile_end)),
        ("header only", cut(38)),
        ("inside the footer", cut(whole.len() - 3)),
    ]
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

/// A damaged or cut frame is an error naming the file and the byte, never
/// a report of part of the frame (or of 65536 processors).
#[test]
fn a_damaged_or_cut_frame_is_refused_never_reported() {
    let dir = tempfile::tempdir().unwrap();
    for threads in [Threads::One, Threads::Many] {
        for (what, bytes) in damaged_frames() {
            let path = dir.path().join("damaged.gtq");
            std::fs::write(&path, &bytes).unwrap();
            let frames = [FilterFrame {
                filter: "bilinear".into(),
                requests: path.clone(),
            }];
            let config = NbtcStudyConfig {
                sweeps: Sweeps::none(),
                ..config(threads)
            };
            let err = match study::run(&config, &frames, &quiet) {
                Ok(r) => panic!("{what}: a report of {:?}", r.frames[0].pixel_processors),
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
    let frames = [
        frame(dir.path(), "nearest", 1),
        frame(dir.path(), "bilinear", 2),
    ];
    let total: u64 = frames
        .iter()
        .map(|f| std::fs::metadata(&f.requests).unwrap().len())
        .sum();
    let seen = std::sync::Mutex::new(Vec::new());
    study::run(&config(Threads::Many), &frames, &|p| {
        seen.lock().unwrap().push(p)
    })
    .unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(seen.len() > 2, "{seen:?}");
    for p in &seen {
        assert_eq!((p.phase, p.total), (study::REPLAYING, total));
        assert_eq!(p.unit, gfxcache_cache::ProgressUnit::Bytes);
    }
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done), "{seen:?}");
    assert_eq!(seen.last().unwrap().done, total);
    // The second frame counts from where the first ended.
    let first = std::fs::metadata(&frames[0].requests).unwrap().len();
    assert!(seen.iter().any(|p| p.done == first), "{seen:?}");
}

/// The study's units take each pixel's sample (the slides' reading); on a
/// machine whose texture units take a quad's requests the report says so,
/// and on the slides' machine it does not.
#[test]
fn a_machine_of_quad_requests_is_named_in_the_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let frames = [frame(dir.path(), "bilinear", 4)];
    let on = |name: &str| {
        let config = NbtcStudyConfig {
            machine: Some(gfxcache_machine::Machine::preset(name).unwrap()),
            latencies: vec![100],
            sweeps: Sweeps::none(),
            ..NbtcStudyConfig::default()
        };
        study::run(&config, &frames, &quiet).unwrap().warnings
    };
    let quad = on("dtm-nuca");
    assert!(
        quad.iter()
            .any(|w| w.contains("dtm-nuca") && w.contains("a quad's requests")),
        "{quad:?}"
    );
    assert!(on("nbtc").is_empty(), "{:?}", on("nbtc"));
}
