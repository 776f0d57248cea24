//! The pass over a trace (`run::for_each_batch`): reading ahead on a thread
//! gives exactly what reading inline gives, and errors end it cleanly.

use std::io::Cursor;
use std::path::Path;

use gfxcache_cache::run::{for_each_batch, Threads};
use gfxcache_trace::{Batch, Format, Record, TraceError};

/// A multi-batch CSV trace in memory, with a bad line at `bad_line` if given.
fn csv(lines: usize, bad_line: Option<usize>) -> Vec<u8> {
    let mut s = String::from("op,addr,stream\n");
    for i in 0..lines {
        if Some(i + 2) == bad_line {
            s.push_str("R,0xzz,tex\n");
        } else {
            s.push_str(&format!(
                "{},{:#x},tex\n",
                if i % 3 == 0 { 'W' } else { 'R' },
                i * 64 % 100_003
            ));
        }
    }
    s.into_bytes()
}

fn collect(bytes: Vec<u8>, threads: Threads) -> Result<Vec<Record>, TraceError> {
    let mut reader =
        gfxcache_trace::read_from(Cursor::new(bytes), Path::new("t.csv"), Format::Csv, false)?;
    let mut records = Vec::new();
    let mut batches = 0;
    for_each_batch(
        reader.as_mut(),
        threads,
        |b: &Batch| {
            batches += 1;
            records.extend(b.records());
            Ok::<(), TraceError>(())
        },
        |_, _| {},
    )?;
    assert!(batches >= 1);
    Ok(records)
}

#[test]
fn read_ahead_gives_the_same_records_in_the_same_order() {
    let bytes = csv(300_000, None); // several batches
    let inline = collect(bytes.clone(), Threads::One).unwrap();
    let ahead = collect(bytes, Threads::Many).unwrap();
    assert_eq!(inline.len(), 300_000);
    assert_eq!(inline, ahead);
}

#[test]
fn a_reader_error_in_a_late_batch_is_returned_by_both() {
    for threads in [Threads::One, Threads::Many] {
        let err = collect(csv(200_000, Some(150_000)), threads).expect_err("bad line");
        assert!(err.to_string().contains(":150000:"), "{threads:?}: {err}");
    }
}

#[test]
fn an_error_from_the_work_stops_the_pass_without_hanging() {
    for threads in [Threads::One, Threads::Many] {
        let mut reader = gfxcache_trace::read_from(
            Cursor::new(csv(400_000, None)),
            Path::new("t.csv"),
            Format::Csv,
            false,
        )
        .unwrap();
        let mut seen = 0;
        let r = for_each_batch(
            reader.as_mut(),
            threads,
            |_: &Batch| {
                seen += 1;
                if seen == 2 {
                    Err(TraceError::Unsupported {
                        path: "t.csv".into(),
                        what: "stop".into(),
                    })
                } else {
                    Ok(())
                }
            },
            |_, _| {},
        );
        assert!(r.is_err());
        assert_eq!(seen, 2, "{threads:?}: no batch after the error");
    }
}
