//! The `.gtr` footer's footprint estimate: close to the true count of
//! distinct 64-byte blocks, absent (not an error) in version 3 files, and
//! never needed to read the records.

use std::collections::HashSet;
use std::io::Cursor;
use std::path::Path;

use crate::common::{chunks, decode, decode_stream, encode, put_u32};
use gfxcache_trace::synth::synth;
use gfxcache_trace::{read_from, Footprint, Format, Record};

fn announced(bytes: &[u8]) -> Option<Footprint> {
    let r = read_from(
        Cursor::new(bytes.to_vec()),
        Path::new("mem"),
        Format::Gtr,
        false,
    )
    .expect("opens");
    r.announced_footprint()
}

fn distinct_blocks(records: &[Record]) -> usize {
    let mut blocks = HashSet::new();
    for r in records {
        if let Record::Access(a) = r {
            let (first, last) = a.block_range(6);
            blocks.extend(first..=last);
        }
    }
    blocks.len()
}

#[test]
fn the_footer_announces_the_footprint_within_five_per_cent() {
    for (seed, n) in [(1, 2_000), (7, 300_000)] {
        let recs: Vec<Record> = synth(seed, n).collect();
        let truth = distinct_blocks(&recs) as f64;
        let f = announced(&encode(Format::Gtr, &recs)).expect("a version 4 footer has one");
        assert_eq!(f.block, 64);
        let err = (f.blocks as f64 - truth).abs() / truth;
        assert!(err < 0.05, "estimated {} of {truth} blocks", f.blocks);
    }
}

/// A version 4 file rewritten as version 3 wrote it: the version field,
/// and a footer without the footprint (new length and checksum).
fn as_version_3(file: &[u8]) -> Vec<u8> {
    let (_, footer_at) = chunks(file);
    let json_len = u32::from_le_bytes(file[footer_at + 4..footer_at + 8].try_into().unwrap());
    let json = &file[footer_at + 8..footer_at + 8 + json_len as usize];
    let mut footer: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(json).expect("footer JSON");
    assert!(footer.remove("footprint").is_some());
    let json = serde_json::to_vec(&footer).expect("JSON");
    let mut out = file[..footer_at].to_vec();
    put_u32(&mut out, 8, 3);
    out.extend_from_slice(b"FOOT");
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&crc32fast::hash(&json).to_le_bytes());
    out.extend_from_slice(&(footer_at as u64).to_le_bytes());
    out.extend_from_slice(b"GTR-END\0");
    out
}

#[test]
fn version_3_files_read_the_same_without_a_footprint() {
    let recs: Vec<Record> = synth(3, 140_000).collect();
    let v4 = encode(Format::Gtr, &recs);
    let v3 = as_version_3(&v4);
    assert_eq!(decode(&v3, Format::Gtr).expect("version 3 reads"), recs);
    assert_eq!(decode_stream(&v3, Format::Gtr).expect("streams"), recs);
    assert_eq!(announced(&v3), None);
}

#[test]
fn versions_past_this_builds_are_refused() {
    let mut file = encode(Format::Gtr, &synth(2, 150).collect::<Vec<_>>());
    put_u32(&mut file, 8, 5);
    let err = decode(&file, Format::Gtr)
        .expect_err("version 5")
        .to_string();
    assert!(
        err.contains("format version 5; this build reads versions 3 to 4"),
        "{err}"
    );
}
