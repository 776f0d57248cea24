//! libCacheSim's `oracleGeneral`: records laid out as libCacheSim reads
//! them, next uses against a simple reference (across the writer's chunk
//! boundaries), accesses split into 64-byte objects, what is lost counted,
//! damaged files refused by byte offset.

use std::collections::HashMap;
use std::path::Path;

use gfxcache_trace::oracle::{ORACLE_BLOCK, RECORD};
use gfxcache_trace::{
    create, open, read_all, Access, Format, Marker, Op, Record, Stream, TraceError,
};
use proptest::prelude::*;

/// A file's records: (clock, obj_id, obj_size, next_access_vtime).
fn records(bytes: &[u8]) -> Vec<(u32, u64, u32, i64)> {
    assert_eq!(bytes.len() % RECORD, 0);
    bytes
        .chunks_exact(RECORD)
        .map(|r| {
            (
                u32::from_le_bytes(r[..4].try_into().unwrap()),
                u64::from_le_bytes(r[4..12].try_into().unwrap()),
                u32::from_le_bytes(r[12..16].try_into().unwrap()),
                i64::from_le_bytes(r[16..].try_into().unwrap()),
            )
        })
        .collect()
}

/// Each record's next use, 1-based, by a forward pass: the simplest
/// reference, unlike the writer's backward one.
fn next_uses(objs: &[u64]) -> Vec<i64> {
    let mut next = vec![-1i64; objs.len()];
    let mut last: HashMap<u64, usize> = HashMap::new();
    for (i, &o) in objs.iter().enumerate() {
        if let Some(p) = last.insert(o, i) {
            next[p] = i as i64 + 1;
        }
    }
    next
}

fn write(path: &Path, records: &[Record]) -> gfxcache_trace::Dropped {
    let mut w = create(path, &Default::default()).unwrap();
    for r in records {
        match r {
            Record::Access(a) => w.write_access(a).unwrap(),
            Record::Marker(m) => w.write_marker(m).unwrap(),
        }
    }
    let dropped = w.dropped();
    w.finish().unwrap();
    dropped
}

fn block_read(obj: u64) -> Access {
    Access {
        addr: obj * ORACLE_BLOCK,
        size: ORACLE_BLOCK as u32,
        unit: 0,
        stream: Stream::Other,
        op: Op::Read,
    }
}

#[test]
fn names_choose_the_format() {
    for name in [
        "a.oracleGeneral",
        "w.oracleGeneral.bin",
        "x.oraclegeneral.zst",
        "y.oracleGeneral.bin.zst",
    ] {
        let (f, zstd) = Format::from_path(Path::new(name)).unwrap();
        assert_eq!(f, Format::OracleGeneral, "{name}");
        assert_eq!(zstd, name.ends_with(".zst"), "{name}");
    }
}

#[test]
fn next_uses_across_chunk_boundaries_equal_the_reference() {
    // More records than the writer's 64 Ki-record chunks, few objects.
    let mut x: u64 = 12345;
    let objs: Vec<u64> = (0..150_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % 5000
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for name in ["t.oracleGeneral", "t.oracleGeneral.zst"] {
        let path = dir.path().join(name);
        let recs: Vec<Record> = objs
            .iter()
            .map(|&o| Record::Access(block_read(o)))
            .collect();
        let dropped = write(&path, &recs);
        assert!(dropped.is_empty(), "{dropped:?}");
        let bytes = if name.ends_with(".zst") {
            zstd::decode_all(std::fs::File::open(&path).unwrap()).unwrap()
        } else {
            std::fs::read(&path).unwrap()
        };
        let got = records(&bytes);
        assert_eq!(got.len(), objs.len());
        let next = next_uses(&objs);
        for (i, r) in got.iter().enumerate() {
            assert_eq!(*r, (0, objs[i], 64, next[i]), "record {}", i + 1);
        }
        // And back: the same accesses.
        let back = read_all(open(&path).unwrap().as_mut()).unwrap();
        assert_eq!(back, recs);
    }
}

#[test]
fn accesses_become_64_byte_objects_and_what_is_lost_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.oracleGeneral");
    let recs = vec![
        Record::Marker(Marker::FrameBegin { frame: 3 }),
        // Two blocks: bytes 60..70.
        Record::Access(Access {
            addr: 60,
            size: 10,
            unit: 2,
            stream: Stream::Tex,
            op: Op::Read,
        }),
        Record::Marker(Marker::FrameEnd { frame: 3 }),
        Record::Marker(Marker::FrameBegin { frame: 4 }),
        Record::Access(Access {
            addr: 64,
            size: 0,
            unit: 0,
            stream: Stream::Other,
            op: Op::Write,
        }),
    ];
    let d = write(&path, &recs);
    assert_eq!((d.markers, d.units, d.writes, d.sizes), (3, 1, 1, 2));
    assert_eq!(d.streams[Stream::Tex.index()], 1);
    assert_eq!(d.stream_total(), 1);
    let got = records(&std::fs::read(&path).unwrap());
    assert_eq!(got, vec![(3, 0, 64, -1), (3, 1, 64, 3), (4, 1, 64, -1)]);
    let back = read_all(open(&path).unwrap().as_mut()).unwrap();
    assert_eq!(
        back,
        [0, 1, 1].map(|o| Record::Access(block_read(o))).to_vec()
    );
}

#[test]
fn a_partial_record_or_an_id_past_the_address_space_is_refused_by_offset() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.oracleGeneral");
    write(
        &path,
        &(0..3)
            .map(|o| Record::Access(block_read(o)))
            .collect::<Vec<_>>(),
    );
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[1, 2, 3, 4, 5]);
    std::fs::write(&path, &bytes).unwrap();
    let e = read_all(open(&path).unwrap().as_mut()).unwrap_err();
    match &e {
        TraceError::Corrupt { offset, .. } => assert_eq!(*offset, 72),
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("partial record of 5 bytes"), "{e}");

    let mut big = vec![0u8; RECORD];
    big[4..12].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&path, &big).unwrap();
    let e = read_all(open(&path).unwrap().as_mut()).unwrap_err();
    assert!(e.to_string().contains("obj_id"), "{e}");
}

proptest! {
    #[test]
    fn any_block_reads_round_trip_with_reference_next_uses(objs in prop::collection::vec(0u64..64, 0..400)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.oracleGeneral");
        let recs: Vec<Record> = objs.iter().map(|&o| Record::Access(block_read(o))).collect();
        write(&path, &recs);
        let got = records(&std::fs::read(&path).unwrap());
        let next = next_uses(&objs);
        prop_assert_eq!(got.iter().map(|r| r.3).collect::<Vec<_>>(), next);
        prop_assert_eq!(read_all(open(&path).unwrap().as_mut()).unwrap(), recs);
    }
}
