//! Damaged `.gtr` input is an error naming the file and a plausible offset:
//! never a panic, never a trace quietly shorter than the one written.

use crate::common;

use crate::common::{
    assert_damage, chunks, decode, decode_stream, encode, put_u32, rewrite_chunk, u32_at,
};
use gfxcache_trace::synth::synth;
use gfxcache_trace::{Format, Record, TraceError};

/// A small one-chunk trace with markers, accesses of several streams, sizes and units.
fn small() -> Vec<u8> {
    let recs: Vec<Record> = synth(2, 150).collect();
    encode(Format::Gtr, &recs)
}

/// Three chunks.
fn multi() -> Vec<u8> {
    let recs: Vec<Record> = synth(3, 140_000).collect();
    encode(Format::Gtr, &recs)
}

fn both(bytes: &[u8], context: &str) {
    assert_damage(decode(bytes, Format::Gtr), bytes.len(), context);
    assert_damage(decode_stream(bytes, Format::Gtr), bytes.len(), context);
}

#[test]
fn every_truncation_of_a_small_file_is_an_error() {
    let file = small();
    assert!(decode(&file, Format::Gtr).is_ok());
    for cut in 0..file.len() {
        both(&file[..cut], &format!("cut at {cut}"));
    }
}

#[test]
fn truncations_of_a_multi_chunk_file_are_errors() {
    let file = multi();
    assert_eq!(chunks(&file).0.len(), 3);
    for cut in (0..file.len())
        .step_by(97)
        .chain(file.len() - 40..file.len())
    {
        let context = format!("cut at {cut}");
        assert_damage(decode(&file[..cut], Format::Gtr), cut, &context);
    }
    for cut in (0..file.len()).step_by(4099) {
        let context = format!("stream cut at {cut}");
        assert_damage(decode_stream(&file[..cut], Format::Gtr), cut, &context);
    }
}

#[test]
fn a_cut_at_a_chunk_boundary_is_truncation_there() {
    let file = multi();
    let (cs, footer) = chunks(&file);
    for at in cs.iter().map(|c| c.offset).skip(1).chain([footer]) {
        match decode_stream(&file[..at], Format::Gtr) {
            Err(TraceError::Truncated { offset, .. }) => assert_eq!(offset, at as u64),
            other => panic!("cut at {at}: {other:?}"),
        }
        match decode(&file[..at], Format::Gtr) {
            Err(TraceError::Truncated { offset, .. }) => assert_eq!(offset, at as u64),
            other => panic!("cut at {at}: {other:?}"),
        }
    }
}

#[test]
fn every_bit_flip_of_a_small_file_is_an_error() {
    let file = small();
    for at in 0..file.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = file.clone();
            bad[at] ^= bit;
            both(&bad, &format!("flip {bit:#x} at {at}"));
        }
    }
}

#[test]
fn flips_in_each_region_are_reported_where_they_are() {
    let file = multi();
    let (cs, footer) = chunks(&file);
    let at_of = |bad: &[u8]| match decode(bad, Format::Gtr) {
        Err(e) => e.offset().expect("offset"),
        Ok(_) => panic!("damage not noticed"),
    };
    // Magic, version.
    let mut bad = file.clone();
    bad[0] ^= 1;
    assert_eq!(at_of(&bad), 0);
    // A file of the first layout (version 1) is refused, not misread.
    let mut bad = file.clone();
    bad[8] = 1;
    assert_eq!(at_of(&bad), 8);
    let err = decode(&bad, Format::Gtr)
        .expect_err("old version")
        .to_string();
    assert!(err.contains("format version 1"), "{err}");
    // Header JSON: covered by the footer's header checksum.
    let mut bad = file.clone();
    bad[20] ^= 1;
    assert!(at_of(&bad) <= 20);
    // Compressed data of the second chunk: its checksum field.
    let c = &cs[1];
    let mut bad = file.clone();
    bad[c.offset + 24 + 10] ^= 0x10;
    assert_eq!(at_of(&bad), c.offset as u64 + 20);
    // Stored checksum itself.
    let mut bad = file.clone();
    bad[c.offset + 20] ^= 1;
    assert_eq!(at_of(&bad), c.offset as u64 + 20);
    // Footer JSON.
    let mut bad = file.clone();
    bad[footer + 10] ^= 1;
    assert!(at_of(&bad) >= footer as u64);
}

#[test]
fn wrong_counts_in_a_chunk_header_are_errors() {
    let file = multi();
    let (cs, _) = chunks(&file);
    for c in &cs {
        for (field, delta) in [(4usize, 1i64), (4, -1), (8, 1), (8, -1), (12, 1), (12, -1)] {
            let mut bad = file.clone();
            let v = u32_at(&bad, c.offset + field) as i64 + delta;
            put_u32(&mut bad, c.offset + field, v as u32);
            both(
                &bad,
                &format!("chunk at {} field {field} {delta:+}", c.offset),
            );
        }
        for v in [0u32, u32::MAX, 65537] {
            let mut bad = file.clone();
            put_u32(&mut bad, c.offset + 4, v);
            both(&bad, &format!("records = {v}"));
        }
        for v in [u32::MAX, 64 << 20] {
            let mut bad = file.clone();
            put_u32(&mut bad, c.offset + 12, v);
            both(&bad, &format!("payload length = {v}"));
            let mut bad = file.clone();
            put_u32(&mut bad, c.offset + 16, v);
            both(&bad, &format!("compressed length = {v}"));
        }
    }
}

/// The length of payload section `i` (templates, delta lengths, delta
/// data) from the directory after the `a` tags.
fn section_len(p: &[u8], a: usize, i: usize) -> usize {
    common::u32_at(p, a + 4 * i) as usize
}

/// Makes the directory claim one byte more for section `i`.
fn grow_section(p: &mut [u8], a: usize, i: usize) {
    let n = section_len(p, a, i) as u32;
    common::put_u32(p, a + 4 * i, n + 1);
}

#[test]
fn payloads_that_disagree_with_their_header_are_errors() {
    let file = multi();
    type Edit = Box<dyn Fn(&mut Vec<u8>, &mut u32, &mut u32)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("one record fewer", Box::new(|_, r, _| *r -= 1)),
        ("one record more", Box::new(|_, r, _| *r += 1)),
        ("one access fewer", Box::new(|_, _, a| *a -= 1)),
        (
            "payload cut short",
            Box::new(|p, _, _| p.truncate(p.len() - 1)),
        ),
        ("payload extended", Box::new(|p, _, _| p.push(0))),
        // Payload: tags (one per access), directory of the template, delta
        // length and delta data section lengths, templates, delta lengths,
        // delta data, markers.
        (
            "tag names an undefined template",
            Box::new(|p, _, _| p[3] = (p[3] & 0x80) | 0x7f),
        ),
        (
            "unknown stream in a template",
            Box::new(|p, _, a| {
                let at = *a as usize + 12;
                p[at] = (p[at] & 0xf0) | 13;
            }),
        ),
        (
            "unknown bits in a template",
            Box::new(|p, _, a| p[*a as usize + 12] |= 0x80),
        ),
        (
            "delta length over eight bytes",
            Box::new(|p, _, a| {
                let a = *a as usize;
                let lens = a + 12 + section_len(p, a, 0);
                p[lens] = 9;
            }),
        ),
        (
            "unknown bits in a delta length",
            Box::new(|p, _, a| {
                let a = *a as usize;
                let lens = a + 12 + section_len(p, a, 0);
                p[lens] |= 0x40;
            }),
        ),
        (
            "unknown marker kind",
            Box::new(|p, _, a| {
                let a = *a as usize;
                let marks = a + 12 + (0..3).map(|i| section_len(p, a, i)).sum::<usize>();
                let kind = (marks..).find(|&i| p[i] < 0x80).unwrap() + 1;
                p[kind] = 0x0f;
            }),
        ),
        (
            "marker past the last access",
            Box::new(|p, _, a| {
                let a = *a as usize;
                let marks = a + 12 + (0..3).map(|i| section_len(p, a, i)).sum::<usize>();
                p.splice(marks..marks + 1, [0xff, 0xff, 0x7f]);
            }),
        ),
        (
            "directory overflows",
            Box::new(|p, _, a| {
                let at = *a as usize;
                p[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            }),
        ),
        (
            "delta length section longer",
            Box::new(|p, _, a| grow_section(p, *a as usize, 1)),
        ),
        (
            "delta data section longer",
            Box::new(|p, _, a| grow_section(p, *a as usize, 2)),
        ),
        (
            "tags all explicit deltas",
            Box::new(|p, _, a| p[..*a as usize].fill(0x80)),
        ),
        (
            "tags all next block",
            Box::new(|p, _, a| p[..*a as usize].fill(0x00)),
        ),
        (
            "values all 0xff",
            Box::new(|p, _, a| p[*a as usize + 12..].fill(0xff)),
        ),
    ];
    for (what, edit) in &edits {
        let bad = rewrite_chunk(&file, 1, |p, r, a| edit(p, r, a));
        both(&bad, what);
    }
}

#[test]
fn bad_pass_names_are_errors() {
    // A chunk of one PassBegin marker: no tags, an empty directory, then in
    // the marker section its position 0, kind 2, and its name.
    let recs = vec![Record::Marker(gfxcache_trace::Marker::PassBegin {
        name: "main".into(),
        kind: gfxcache_trace::PassKind::Forward,
    })];
    let file = encode(Format::Gtr, &recs);
    assert_eq!(decode(&file, Format::Gtr).expect("valid"), recs);
    // Payload: 8-byte directory, then: position 0, kind 2, len 4, "main", kind 3.
    for (what, at, v) in [
        ("non-UTF-8 name", 12usize, 0xffu8),
        ("name runs past the end", 10, 40),
        ("unknown pass kind", 15, 200),
        ("unknown marker kind", 9, 7),
        ("marker after a missing access", 8, 1),
    ] {
        let bad = rewrite_chunk(&file, 0, |p, _, _| p[at] = v);
        both(&bad, what);
    }
}

#[test]
fn trailing_garbage_is_an_error_at_the_end_marker() {
    let file = small();
    for extra in [&b"x"[..], &[0u8; 16], b"GTR-END\0", &[0u8; 100_000]] {
        let mut bad = file.clone();
        bad.extend_from_slice(extra);
        both(&bad, &format!("{} extra bytes", extra.len()));
        if extra.len() < 1000 {
            // Right at the end marker, or (when the garbage itself ends like
            // an end marker) at the bogus footer offset just before it.
            match decode(&bad, Format::Gtr) {
                Err(TraceError::Corrupt { offset, .. }) => {
                    assert!((file.len() as u64 - 16..=file.len() as u64).contains(&offset))
                }
                other => panic!("{other:?}"),
            }
        }
        match decode_stream(&bad, Format::Gtr) {
            Err(TraceError::Corrupt { offset, .. }) => assert_eq!(offset, file.len() as u64),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn footer_totals_must_match_the_chunks() {
    let file = multi();
    let (_, footer) = chunks(&file);
    let len = u32_at(&file, footer + 4) as usize;
    let json = std::str::from_utf8(&file[footer + 8..footer + 8 + len]).expect("utf-8");
    for (from, to) in [
        ("\"chunks\":3", "\"chunks\":4"),
        ("\"markers\":", "\"markers\":1"),
    ] {
        assert!(json.contains(from), "{json}");
        let new_json = json.replacen(from, to, 1);
        let mut bad = file[..footer + 4].to_vec();
        bad.extend_from_slice(&(new_json.len() as u32).to_le_bytes());
        bad.extend_from_slice(new_json.as_bytes());
        bad.extend_from_slice(&crc32fast::hash(new_json.as_bytes()).to_le_bytes());
        bad.extend_from_slice(&(footer as u64).to_le_bytes());
        bad.extend_from_slice(b"GTR-END\0");
        both(&bad, &format!("{from} -> {to}"));
    }
}

#[test]
fn not_a_gtr_file() {
    for bytes in [
        &b""[..],
        b"GFXTRACE",
        b"hello world, this is not a trace at all",
    ] {
        both(bytes, &format!("{bytes:?}"));
    }
}

#[test]
fn reading_on_after_an_error_keeps_failing() {
    let file = multi();
    let (cs, _) = chunks(&file);
    let mut bad = file.clone();
    bad[cs[1].offset + 30] ^= 1;
    let mut r = gfxcache_trace::read_stream(
        std::io::Cursor::new(bad),
        0,
        common::NAME.as_ref(),
        Format::Gtr,
        false,
    )
    .expect("open");
    let mut batch = gfxcache_trace::Batch::default();
    assert!(r.read_batch(&mut batch).expect("first chunk is fine"));
    assert!(r.read_batch(&mut batch).is_err());
    assert!(batch.is_empty());
    assert!(r.read_batch(&mut batch).is_err());
    assert!(r.read_batch(&mut batch).is_err());
}
