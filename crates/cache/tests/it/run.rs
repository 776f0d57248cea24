//! The pass over a trace (`run::for_each_batch`): reading ahead on a thread
//! gives exactly what reading inline gives, and errors end it cleanly. The
//! fan-out to many consumers (`run::for_each_consumer`, `run::feed`): every
//! consumer gets every batch in order, and the error is the same whatever
//! the thread count.

use std::io::Cursor;
use std::path::Path;

use gfxcache_cache::run::{feed, for_each_batch, for_each_consumer, Threads};
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

#[test]
fn every_consumer_runs_once_and_the_first_failure_in_order_is_the_error() {
    for threads in [Threads::One, Threads::Many] {
        let mut runs = vec![0u32; 40];
        for_each_consumer(&mut runs, threads, |n| {
            *n += 1;
            Ok::<(), usize>(())
        })
        .unwrap();
        assert!(runs.iter().all(|&n| n == 1), "{threads:?}: {runs:?}");

        // Consumers 7, 23 and 31 fail (each with its index): 7 is the error.
        let mut consumers: Vec<(usize, u32)> = (0..40).map(|i| (i, 0)).collect();
        let err = for_each_consumer(&mut consumers, threads, |(i, n)| {
            *n += 1;
            if [7, 23, 31].contains(i) {
                Err(*i)
            } else {
                Ok(())
            }
        });
        assert_eq!(err, Err(7), "{threads:?}");
        let ran = consumers.iter().filter(|c| c.1 == 1).count();
        match threads {
            // In order: up to the failing one.
            Threads::One => assert_eq!(ran, 8),
            // In parallel: every one.
            Threads::Many => assert_eq!(ran, 40),
        }
    }
}

/// What a consumer saw of a pass: its batches' first addresses, in order.
#[derive(Default)]
struct Seen {
    firsts: Vec<u64>,
    accesses: u64,
}

fn fed(threads: Threads, consumers: usize) -> (u64, Vec<Seen>) {
    let mut reader = gfxcache_trace::read_from(
        Cursor::new(csv(300_000, None)),
        Path::new("t.csv"),
        Format::Csv,
        false,
    )
    .unwrap();
    let mut seen: Vec<Seen> = (0..consumers).map(|_| Seen::default()).collect();
    let mut calls = 0;
    let n = feed(
        reader.as_mut(),
        &mut seen,
        threads,
        |s, batch: &Batch| {
            s.firsts.push(batch.accesses[0].addr);
            s.accesses += batch.accesses.len() as u64;
            Ok::<(), TraceError>(())
        },
        |_, _| calls += 1,
    )
    .unwrap();
    assert!(calls >= 2, "progress after each batch");
    (n, seen)
}

#[test]
fn feed_gives_every_consumer_every_batch_in_order() {
    let (n, one) = fed(Threads::One, 5);
    assert_eq!(n, 300_000);
    assert!(one[0].firsts.len() >= 2, "several batches");
    for threads in [Threads::One, Threads::Many] {
        for consumers in [1, 5] {
            let (m, seen) = fed(threads, consumers);
            assert_eq!(m, n);
            for s in &seen {
                assert_eq!(s.accesses, n, "{threads:?}");
                assert_eq!(s.firsts, one[0].firsts, "{threads:?}");
            }
        }
    }
}
