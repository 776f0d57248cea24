//! Full decode throughput of a realistic `.gtr` trace: 10 million accesses of
//! `synth`, written once to a temporary file, then read end to end (header,
//! footer check, every chunk's CRC, zstd and payload decode) per iteration.
//!
//! `GFXCACHE_BENCH_ACCESSES` overrides the size.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gfxcache_trace::synth::{synth, synth_meta};
use gfxcache_trace::{create, open, Batch, BATCH_RECORDS};

fn write_trace(path: &Path, n: u64) -> u64 {
    let mut w = create(path, &synth_meta(1)).expect("create bench trace");
    let mut s = synth(1, n);
    let mut batch = Batch::default();
    while s.fill_batch(&mut batch) {
        w.write_batch(&batch).expect("write bench trace");
    }
    w.finish().expect("finish bench trace").records()
}

fn decode_all(path: &Path, batch: &mut Batch) -> u64 {
    let mut r = open(path).expect("open bench trace");
    let mut n = 0u64;
    while r.read_batch(batch).expect("decode bench trace") {
        n += batch.len() as u64;
        black_box(&batch.accesses);
    }
    n
}

/// On-CPU time of this thread in seconds (Linux), which unlike wall time
/// does not count the time other builders on a shared machine hold the core.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn bench(c: &mut Criterion) {
    let n: u64 = std::env::var("GFXCACHE_BENCH_ACCESSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.gtr");
    let records = write_trace(&path, n);
    let bytes = std::fs::metadata(&path).expect("bench trace size").len();
    eprintln!(
        "bench trace: {n} accesses, {records} records, {bytes} bytes, {:.3} bytes/record, {:.3} bytes/access",
        bytes as f64 / records as f64,
        bytes as f64 / n as f64
    );

    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    assert_eq!(decode_all(&path, &mut batch), records);
    let best_cpu = (0..5)
        .filter_map(|_| {
            let t = thread_cpu_seconds()?;
            decode_all(&path, &mut batch);
            Some(thread_cpu_seconds()? - t)
        })
        .fold(f64::INFINITY, f64::min);
    if best_cpu.is_finite() {
        eprintln!(
            "full decode, best of 5 in on-CPU time: {:.1} ms, {:.1} M records/s",
            best_cpu * 1e3,
            records as f64 / best_cpu / 1e6
        );
    }

    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Elements(records));
    g.sample_size(20);
    g.bench_function("gtr_synth", |b| b.iter(|| decode_all(&path, &mut batch)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
