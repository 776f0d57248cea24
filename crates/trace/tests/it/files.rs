//! Opening and creating traces by name: extensions, `.zst`, the partial-file
//! discipline, conversions between formats through real files.

use crate::common;

use std::path::{Path, PathBuf};

use gfxcache_trace::synth::{synth, synth_meta};
use gfxcache_trace::{create, open, read_all, Batch, Format, Record, TraceError, TraceMeta};

fn write(path: &Path, meta: &TraceMeta, records: &[Record]) -> u64 {
    let mut w = create(path, meta).expect("create");
    let mut batch = Batch::default();
    for chunk in records.chunks(10_000) {
        batch.clear();
        for r in chunk {
            batch.push(r.clone());
        }
        w.write_batch(&batch).expect("write");
    }
    let skipped = w.skipped_markers();
    w.finish().expect("finish");
    skipped
}

fn read(path: &Path) -> Result<Vec<Record>, TraceError> {
    let mut r = open(path)?;
    read_all(r.as_mut())
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn formats_come_from_extensions() {
    for (name, want) in [
        ("a.gtr", (Format::Gtr, false)),
        ("a.csv", (Format::Csv, false)),
        ("dir.x/a.din", (Format::Din, false)),
        ("a.gtr.zst", (Format::Gtr, true)),
        ("A.CSV.ZST", (Format::Csv, true)),
        ("a.b.din.zst", (Format::Din, true)),
    ] {
        assert_eq!(
            Format::from_path(Path::new(name)).expect(name),
            want,
            "{name}"
        );
    }
    for name in ["a.txt", "a.zst", "a", "gtr", "a.gtr.gz", "a.gtrx"] {
        match Format::from_path(Path::new(name)) {
            Err(e @ TraceError::Unsupported { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(".gtr")
                        && msg.contains(".csv")
                        && msg.contains(".din")
                        && msg.contains(".zst"),
                    "{msg}"
                );
                assert_eq!(e.path(), Path::new(name));
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    let d = dir();
    assert!(matches!(
        create(&d.path().join("x.txt"), &TraceMeta::default()),
        Err(TraceError::Unsupported { .. })
    ));
    assert!(matches!(
        open(&d.path().join("x.txt")),
        Err(TraceError::Unsupported { .. })
    ));
    assert!(matches!(
        open(&d.path().join("missing.gtr")),
        Err(TraceError::Io { .. })
    ));
}

#[test]
fn every_format_round_trips_through_files_plain_and_zst() {
    let d = dir();
    let recs: Vec<Record> = synth(21, 100_000).collect();
    let only_accesses = common::accesses(&recs);
    for ext in ["gtr", "gtr.zst", "csv", "csv.zst", "din", "din.zst"] {
        let path = d.path().join(format!("t.{ext}"));
        let skipped = write(&path, &synth_meta(21), &recs);
        let back = read(&path).expect(ext);
        if ext.starts_with("gtr") {
            assert_eq!(skipped, 0);
            assert_eq!(back, recs, "{ext}");
            let r = open(&path).expect("open");
            assert_eq!(r.meta(), &synth_meta(21));
        } else {
            assert_eq!(skipped, (recs.len() - only_accesses.len()) as u64, "{ext}");
            assert_eq!(back.len(), only_accesses.len(), "{ext}");
            let r = open(&path).expect("open");
            assert_eq!(r.meta().generator, ext.split('.').next().expect("ext"));
            assert!(r.announced_totals().is_none());
        }
        // Nothing is left beside the file.
        let names: Vec<PathBuf> = std::fs::read_dir(d.path())
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .collect();
        assert!(
            names
                .iter()
                .all(|n| !n.to_string_lossy().ends_with(".partial")),
            "{names:?}"
        );
    }
    // csv and din have lost units/streams they cannot hold, but the same
    // accesses read back from csv (which holds them all) as from gtr.
    assert_eq!(
        read(&d.path().join("t.csv.zst")).expect("csv"),
        only_accesses
    );
}

#[test]
fn conversions_reproduce_canonical_text_byte_for_byte() {
    let d = dir();
    let recs: Vec<Record> = synth(8, 30_000).collect();
    for (text, via) in [
        ("csv", "gtr"),
        ("din", "gtr"),
        ("csv", "gtr.zst"),
        ("din.zst", "gtr"),
    ] {
        let a = d.path().join(format!("a.{text}"));
        let g = d.path().join(format!("b.{via}"));
        let b = d.path().join(format!("c.{text}"));
        write(&a, &TraceMeta::default(), &recs);
        let first = read(&a).expect("text");
        write(&g, &synth_meta(8), &first);
        let second = read(&g).expect("gtr");
        assert_eq!(first, second);
        write(&b, &TraceMeta::default(), &second);
        let (x, y) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
        assert_eq!(x, y, "{text} -> {via} -> {text}");
    }
    // gtr -> gtr keeps every record, markers included.
    let g1 = d.path().join("1.gtr");
    let g2 = d.path().join("2.gtr");
    write(&g1, &synth_meta(8), &recs);
    write(&g2, &synth_meta(8), &read(&g1).expect("g1"));
    assert_eq!(read(&g2).expect("g2"), recs);
    assert_eq!(
        std::fs::read(&g1).expect("g1"),
        std::fs::read(&g2).expect("g2")
    );
}

#[test]
fn writing_the_same_records_twice_gives_the_same_bytes() {
    let d = dir();
    let recs: Vec<Record> = synth(13, 80_000).collect();
    for ext in ["gtr", "gtr.zst", "csv", "din.zst"] {
        let a = d.path().join(format!("a.{ext}"));
        let b = d.path().join(format!("b.{ext}"));
        write(&a, &synth_meta(13), &recs);
        write(&b, &synth_meta(13), &recs);
        assert_eq!(
            std::fs::read(&a).expect("a"),
            std::fs::read(&b).expect("b"),
            "{ext}"
        );
    }
}

#[test]
fn a_writer_dropped_without_finish_leaves_nothing() {
    let d = dir();
    for ext in ["gtr", "gtr.zst", "csv", "csv.zst", "din", "din.zst"] {
        let path = d.path().join(format!("t.{ext}"));
        {
            let mut w = create(&path, &TraceMeta::default()).expect("create");
            for r in synth(1, 100_000) {
                match r {
                    Record::Access(a) => w.write_access(&a).expect("write"),
                    Record::Marker(m) => w.write_marker(&m).expect("write"),
                }
            }
        }
        assert!(!path.exists(), "{ext}");
        assert_eq!(
            std::fs::read_dir(d.path()).expect("dir").count(),
            0,
            "{ext}"
        );
    }
    // An existing trace is not replaced until the new one is finished.
    let path = d.path().join("keep.gtr");
    write(
        &path,
        &TraceMeta::default(),
        &synth(1, 10).collect::<Vec<_>>(),
    );
    let before = std::fs::read(&path).expect("read");
    {
        let mut w = create(&path, &TraceMeta::default()).expect("create");
        w.write_marker(&gfxcache_trace::Marker::PassEnd)
            .expect("write");
    }
    assert_eq!(std::fs::read(&path).expect("read"), before);
}

/// The `.partial` files in `dir`.
fn partials(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".partial"))
        .collect()
}

#[test]
fn two_writers_of_one_path_leave_one_whole_trace() {
    let d = dir();
    let a: Vec<Record> = synth(31, 150_000).collect();
    let b: Vec<Record> = synth(32, 90_000).collect();
    for ext in ["gtr", "gtr.zst", "csv", "csv.zst", "din", "din.zst"] {
        // What each writer alone writes.
        let alone_a = d.path().join(format!("alone-a.{ext}"));
        let alone_b = d.path().join(format!("alone-b.{ext}"));
        write(&alone_a, &synth_meta(31), &a);
        write(&alone_b, &synth_meta(32), &b);
        // Both at once on one path, their batches interleaved.
        let shared = d.path().join(format!("shared.{ext}"));
        let mut wa = create(&shared, &synth_meta(31)).expect("create a");
        let mut wb = create(&shared, &synth_meta(32)).expect("create b");
        let mut batch = Batch::default();
        for i in 0..a.len().max(b.len()).div_ceil(10_000) {
            for (w, recs) in [(&mut wa, &a), (&mut wb, &b)] {
                let chunk = recs.chunks(10_000).nth(i).unwrap_or_default();
                batch.clear();
                for r in chunk {
                    batch.push(r.clone());
                }
                w.write_batch(&batch).expect("write");
            }
        }
        wa.finish().expect("finish a");
        wb.finish().expect("finish b");
        read(&shared).unwrap_or_else(|e| panic!("{ext}: the result does not read back: {e}"));
        let got = std::fs::read(&shared).expect("shared");
        assert!(
            got == std::fs::read(&alone_a).expect("a")
                || got == std::fs::read(&alone_b).expect("b"),
            "{ext}: the result is neither writer's trace"
        );
        assert!(
            partials(d.path()).is_empty(),
            "{ext}: {:?}",
            partials(d.path())
        );
    }
}

#[test]
fn truncated_zst_is_an_error_not_a_short_trace() {
    let d = dir();
    let recs: Vec<Record> = synth(6, 50_000).collect();
    for ext in ["gtr.zst", "csv.zst", "din.zst"] {
        let path = d.path().join(format!("t.{ext}"));
        write(&path, &synth_meta(6), &recs);
        let full = std::fs::read(&path).expect("read");
        for cut in [
            0,
            1,
            10,
            full.len() / 3,
            full.len() / 2,
            full.len() - 9,
            full.len() - 1,
        ] {
            let bad = d.path().join(format!("cut{cut}.{ext}"));
            std::fs::write(&bad, &full[..cut]).expect("write");
            match read(&bad) {
                Err(TraceError::Truncated { path, offset, .. })
                | Err(TraceError::Corrupt { path, offset, .. }) => {
                    assert_eq!(path, bad);
                    assert!(
                        offset <= full.len() as u64,
                        "{ext} cut {cut}: offset {offset}"
                    );
                }
                other => panic!("{ext} cut at {cut}: {:?}", other.map(|r| r.len())),
            }
        }
        // Damage inside the compressed stream is an error too.
        let mut bad_bytes = full.clone();
        let mid = full.len() / 2;
        bad_bytes[mid] ^= 0x55;
        let bad = d.path().join(format!("flip.{ext}"));
        std::fs::write(&bad, &bad_bytes).expect("write");
        assert!(read(&bad).is_err(), "{ext} flipped byte");
    }
}

#[test]
fn progress_reaches_the_file_length() {
    let d = dir();
    let recs: Vec<Record> = synth(2, 150_000).collect();
    for ext in ["gtr", "gtr.zst", "csv", "din.zst"] {
        let path = d.path().join(format!("p.{ext}"));
        write(&path, &synth_meta(2), &recs);
        let len = std::fs::metadata(&path).expect("len").len();
        let mut r = open(&path).expect("open");
        let mut batch = Batch::default();
        let mut last = 0;
        while r.read_batch(&mut batch).expect("read") {
            let (done, total) = r.progress();
            assert_eq!(total, len);
            assert!(done >= last && done <= total, "{ext}: {done}/{total}");
            last = done;
        }
        assert_eq!(r.progress(), (len, len), "{ext}");
    }
}
