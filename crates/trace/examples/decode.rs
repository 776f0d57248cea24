//! Decodes a trace to the end and prints records per second: the
//! command-line twin of `benches/decode.rs`, for profilers.
//!
//! `cargo run --release -p gfxcache-trace --example decode -- FILE.gtr`

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: decode FILE")?;
    let start = Instant::now();
    let mut reader = gfxcache_trace::open(path.as_ref())?;
    let mut batch = gfxcache_trace::Batch::with_capacity(gfxcache_trace::BATCH_RECORDS);
    let mut records = 0u64;
    let mut checksum = 0u64;
    while reader.read_batch(&mut batch)? {
        records += batch.len() as u64;
        checksum = checksum.wrapping_add(
            batch
                .accesses
                .iter()
                .map(|a| a.addr)
                .fold(0, u64::wrapping_add),
        );
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{records} records in {s:.3} s: {:.1} M records/s (checksum {checksum:x})",
        records as f64 / s / 1e6
    );
    Ok(())
}
