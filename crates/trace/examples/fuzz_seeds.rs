//! Writes the `.gtr` fuzz seeds (`fuzz/seeds/gtr_reader` and
//! `fuzz/seeds/gtr_payload`) from `synth`, so that they follow the format
//! when it changes: three small traces, each also as `.zst`, and the raw
//! payload of each one's first chunk behind its record and access counts;
//! and the `.gtq` seed (`fuzz/seeds/texreq_reader/frame`): one tile of one
//! fragment with a trilinear request and a texel fetch.
//!
//! `cargo run -p gfxcache-trace --example fuzz_seeds -- fuzz/seeds`

use std::path::{Path, PathBuf};

use gfxcache_trace::gtr::GtrWriter;
use gfxcache_trace::synth::{synth, synth_meta};
use gfxcache_trace::texreq::{FilterKind, TexReqHeader, TexReqRecord, TexReqWriter, TexRequest};
use gfxcache_trace::{Record, ShaderOps};

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
    std::fs::write(root.join("texreq_reader").join("frame"), texreq_seed()?)?;
    Ok(())
}

/// A `.gtq` of one tile: a fragment's trilinear request (8 taps) and texel
/// fetch, and its end.
fn texreq_seed() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let header = TexReqHeader::new(2, 128, 128, 32);
    let mut w = TexReqWriter::new(Vec::new(), Path::new("seed"), &header)?;
    let request = |index: u8, filter: FilterKind, alu: u32, taps: &[u64]| {
        let mut q = TexRequest {
            fp: 1,
            x: 40,
            y: 72,
            index,
            filter,
            texel_bytes: 4,
            ops: ShaderOps::alu(1, alu),
            taps: [0; 8],
            len: taps.len() as u8,
        };
        q.taps[..taps.len()].copy_from_slice(taps);
        TexReqRecord::Request(q)
    };
    let trilinear: Vec<u64> = (0..8).map(|k| 0x10000 + 0x40 * k).collect();
    for r in [
        TexReqRecord::PassBegin { pass: 0 },
        TexReqRecord::TileBegin { tile: 5 },
        request(0, FilterKind::Trilinear, 44, &trilinear),
        request(1, FilterKind::Nearest, 84, &[0x90000]),
        TexReqRecord::FragmentEnd {
            fp: 1,
            x: 40,
            y: 72,
            ops: ShaderOps::alu(1, 56),
        },
        TexReqRecord::TileEnd { tile: 5 },
        TexReqRecord::FrameEnd { frame: 0 },
    ] {
        w.write(&r)?;
    }
    Ok(w.into_inner()?)
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
