//! Writes the `.gtr` fuzz seeds (`fuzz/seeds/gtr_reader` and
//! `fuzz/seeds/gtr_payload`) from `synth`, so that they follow the format
//! when it changes: three small traces, each also as `.zst`, and the raw
//! payload of each one's first chunk behind its record and access counts.
//!
//! `cargo run -p gfxcache-trace --example fuzz_seeds -- fuzz/seeds`

use std::path::{Path, PathBuf};

use gfxcache_trace::gtr::GtrWriter;
use gfxcache_trace::synth::{synth, synth_meta};
use gfxcache_trace::Record;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::args().nth(1).ok_or("usage: fuzz_seeds DIR")?);
    for (i, n) in [20u64, 40, 80].into_iter().enumerate() {
        let mut w = GtrWriter::new(Vec::new(), &synth_meta(i as u64), Path::new("seed"))?;
        for r in synth(i as u64 + 1, n) {
            match r {
                Record::Access(a) => w.write_access(&a)?,
                Record::Marker(m) => w.write_marker(&m)?,
            }
        }
        let file = w.finish_into_inner()?.1;
        let reader = root.join("gtr_reader");
        std::fs::write(reader.join(format!("seed{i}")), &file)?;
        std::fs::write(
            reader.join(format!("seed{i}.zst")),
            zstd::encode_all(&file[..], 3)?,
        )?;
        std::fs::write(
            root.join("gtr_payload").join(format!("seed{i}")),
            first_payload(&file)?,
        )?;
    }
    Ok(())
}

/// The first chunk's payload, behind its record and access counts as
/// `u16` (the `gtr_payload` target's input).
fn first_payload(file: &[u8]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
    let chunk = 16 + u32_at(12) as usize;
    assert_eq!(&file[chunk..chunk + 4], b"CHNK");
    let (records, accesses) = (u32_at(chunk + 4), u32_at(chunk + 8));
    let compressed = u32_at(chunk + 16) as usize;
    let data = &file[chunk + 24..chunk + 24 + compressed];
    let mut out = Vec::new();
    out.extend_from_slice(&u16::try_from(records)?.to_le_bytes());
    out.extend_from_slice(&u16::try_from(accesses)?.to_le_bytes());
    out.extend_from_slice(&zstd::decode_all(data)?);
    Ok(out)
}
