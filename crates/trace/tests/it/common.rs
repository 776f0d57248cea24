//! Helpers shared by the integration tests: in-memory encoding, reading back,
//! and surgery on `.gtr` bytes.
#![allow(dead_code)]

use std::io::Cursor;
use std::path::Path;

use gfxcache_trace::csv::CsvWriter;
use gfxcache_trace::din::DinWriter;
use gfxcache_trace::gtr::GtrWriter;
use gfxcache_trace::{read_all, read_from, read_stream, Format, Record, TraceError, TraceMeta};

pub fn meta() -> TraceMeta {
    TraceMeta {
        generator: "gfxcache-trace tests".to_string(),
        scene: Some("unit".to_string()),
        block_size: Some(64),
        ..TraceMeta::default()
    }
}

/// Encodes `records` in `format` in memory (markers dropped by text formats).
pub fn encode(format: Format, records: &[Record]) -> Vec<u8> {
    let path = Path::new("mem");
    match format {
        Format::Gtr => {
            let mut w = GtrWriter::new(Vec::new(), &meta(), path).expect("gtr writer");
            for r in records {
                match r {
                    Record::Access(a) => w.write_access(a),
                    Record::Marker(m) => w.write_marker(m),
                }
                .expect("gtr write");
            }
            w.finish_into_inner().expect("gtr finish").1
        }
        Format::Csv => {
            let mut w = CsvWriter::new(Vec::new(), path).expect("csv writer");
            for r in records {
                match r {
                    Record::Access(a) => w.write_access(a),
                    Record::Marker(m) => w.write_marker(m),
                }
                .expect("csv write");
            }
            w.finish_into_inner().expect("csv finish").1
        }
        Format::Din => {
            let mut w = DinWriter::new(Vec::new(), path).expect("din writer");
            for r in records {
                match r {
                    Record::Access(a) => w.write_access(a),
                    Record::Marker(m) => w.write_marker(m),
                }
                .expect("din write");
            }
            w.finish_into_inner().expect("din finish").1
        }
        Format::OracleGeneral => {
            // Its writer needs the whole trace before it can write (next
            // uses): through a file.
            let dir = tempfile::tempdir().expect("tempdir");
            let file = dir.path().join("t.oracleGeneral");
            let mut w = gfxcache_trace::create(&file, &Default::default()).expect("writer");
            for r in records {
                match r {
                    Record::Access(a) => w.write_access(a),
                    Record::Marker(m) => w.write_marker(m),
                }
                .expect("oracleGeneral write");
            }
            w.finish().expect("oracleGeneral finish");
            std::fs::read(&file).expect("read back")
        }
    }
}

pub const NAME: &str = "damaged.gtr";

/// Reads `bytes` completely through the seekable entry point.
pub fn decode(bytes: &[u8], format: Format) -> Result<Vec<Record>, TraceError> {
    let mut r = read_from(Cursor::new(bytes.to_vec()), Path::new(NAME), format, false)?;
    read_all(r.as_mut())
}

/// Reads `bytes` completely through the streaming entry point.
pub fn decode_stream(bytes: &[u8], format: Format) -> Result<Vec<Record>, TraceError> {
    let mut r = read_stream(
        Cursor::new(bytes.to_vec()),
        bytes.len() as u64,
        Path::new(NAME),
        format,
        false,
    )?;
    read_all(r.as_mut())
}

/// Accesses only, in order.
pub fn accesses(records: &[Record]) -> Vec<Record> {
    records
        .iter()
        .filter(|r| matches!(r, Record::Access(_)))
        .cloned()
        .collect()
}

/// One chunk of a `.gtr` file, located.
#[derive(Clone, Debug)]
pub struct ChunkAt {
    pub offset: usize,
    pub records: u32,
    pub accesses: u32,
    pub payload_len: u32,
    pub compressed_len: u32,
}

pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

pub fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// The chunks of a well-formed `.gtr` file and the footer offset.
pub fn chunks(file: &[u8]) -> (Vec<ChunkAt>, usize) {
    let mut at = 16 + u32_at(file, 12) as usize;
    let mut out = Vec::new();
    while &file[at..at + 4] == b"CHNK" {
        let c = ChunkAt {
            offset: at,
            records: u32_at(file, at + 4),
            accesses: u32_at(file, at + 8),
            payload_len: u32_at(file, at + 12),
            compressed_len: u32_at(file, at + 16),
        };
        at += 24 + c.compressed_len as usize;
        out.push(c);
    }
    assert_eq!(&file[at..at + 4], b"FOOT");
    (out, at)
}

/// Replaces chunk `i`'s payload by `edit(payload)`, recompressed with a
/// valid checksum and lengths, and fixes the footer offset, so that only the
/// decoder can notice what changed.
pub fn rewrite_chunk(
    file: &[u8],
    i: usize,
    edit: impl FnOnce(&mut Vec<u8>, &mut u32, &mut u32),
) -> Vec<u8> {
    let (chunks, _) = chunks(file);
    let c = &chunks[i];
    let data = &file[c.offset + 24..c.offset + 24 + c.compressed_len as usize];
    let mut payload = zstd::bulk::decompress(data, c.payload_len as usize).expect("payload");
    let (mut records, mut accesses) = (c.records, c.accesses);
    edit(&mut payload, &mut records, &mut accesses);
    let compressed = zstd::bulk::compress(&payload, 3).expect("recompress");
    let mut out = file[..c.offset].to_vec();
    out.extend_from_slice(b"CHNK");
    for v in [
        records,
        accesses,
        payload.len() as u32,
        compressed.len() as u32,
        crc32fast::hash(&compressed),
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&compressed);
    let rest = &file[c.offset + 24 + c.compressed_len as usize..];
    let shift = out.len() as i64 - (c.offset + 24 + c.compressed_len as usize) as i64;
    out.extend_from_slice(rest);
    // The last 16 bytes: footer offset, end magic.
    let n = out.len();
    let footer = u64::from_le_bytes(out[n - 16..n - 8].try_into().expect("8 bytes"));
    let footer = (footer as i64 + shift) as u64;
    out[n - 16..n - 8].copy_from_slice(&footer.to_le_bytes());
    out
}

/// Asserts `r` is a damage error about [`NAME`] at an offset within the file.
pub fn assert_damage(r: Result<Vec<Record>, TraceError>, len: usize, context: &str) {
    match r {
        Ok(recs) => panic!("{context}: read {} records from damaged input", recs.len()),
        Err(e) => {
            assert_eq!(e.path(), Path::new(NAME), "{context}: {e}");
            match e {
                TraceError::Corrupt { offset, .. } | TraceError::Truncated { offset, .. } => {
                    assert!(
                        offset <= len as u64,
                        "{context}: offset {offset} past {len}: {e}"
                    )
                }
                other => panic!("{context}: expected Corrupt or Truncated, got {other}"),
            }
        }
    }
}
