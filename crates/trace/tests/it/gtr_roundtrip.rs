//! `.gtr` holds every record exactly, in memory and across chunk boundaries.

use crate::common;

use crate::common::{decode, decode_stream, encode};
use gfxcache_trace::synth::synth;
use gfxcache_trace::{Access, Format, Marker, Op, PassKind, Record, Stream};
use proptest::prelude::*;

fn stream() -> impl Strategy<Value = Stream> {
    prop::sample::select(Stream::ALL.to_vec())
}

/// Addresses that hit every delta class: wild, block-aligned nearby,
/// unaligned nearby, and the extremes.
fn addr() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (0u64..4096).prop_map(|b| 0x1000_0000 + b * 64),
        (0u64..300).prop_map(|b| 0x2000_0000 + b),
        Just(0u64),
        Just(u64::MAX),
        Just(1u64 << 63),
    ]
}

fn access() -> impl Strategy<Value = Access> {
    (
        addr(),
        prop_oneof![Just(64u32), Just(128), Just(1), any::<u32>()],
        prop_oneof![Just(0u16), 0u16..4, any::<u16>()],
        stream(),
        any::<bool>(),
    )
        .prop_map(|(addr, size, unit, stream, w)| Access {
            addr,
            size,
            unit,
            stream,
            op: if w { Op::Write } else { Op::Read },
        })
}

fn marker() -> impl Strategy<Value = Marker> {
    prop_oneof![
        any::<u32>().prop_map(|frame| Marker::FrameBegin { frame }),
        any::<u32>().prop_map(|frame| Marker::FrameEnd { frame }),
        (".{0,24}", prop::sample::select(PassKind::ALL.to_vec()))
            .prop_map(|(name, kind)| Marker::PassBegin { name, kind }),
        Just(Marker::PassEnd),
        any::<u32>().prop_map(|draw| Marker::DrawBegin { draw }),
        any::<u32>().prop_map(|tile| Marker::TileBegin { tile }),
        any::<u32>().prop_map(|tile| Marker::TileEnd { tile }),
    ]
}

fn records() -> impl Strategy<Value = Vec<Record>> {
    prop::collection::vec(
        prop_oneof![
            8 => access().prop_map(Record::Access),
            1 => marker().prop_map(Record::Marker),
        ],
        0..400,
    )
}

/// Runs of one lane (stream and op) of every length, lanes coming back
/// after one other or many, as real frames have them: the decoder keeps
/// the last lane's address apart from the others.
fn lane_runs() -> impl Strategy<Value = Vec<Record>> {
    let lanes = [
        (Stream::Z, Op::Read),
        (Stream::Z, Op::Write),
        (Stream::Tex, Op::Read),
        (Stream::Rt, Op::Write),
    ];
    prop::collection::vec(
        (
            0..lanes.len(),
            1usize..9,
            prop_oneof![Just(64i64), Just(-64), -5000i64..5000],
        ),
        0..120,
    )
    .prop_map(move |runs| {
        let mut addr = [0x4000_0000u64; 4];
        let mut recs = Vec::new();
        for (lane, len, delta) in runs {
            let (stream, op) = lanes[lane];
            for _ in 0..len {
                addr[lane] = addr[lane].wrapping_add(delta as u64);
                recs.push(Record::Access(Access {
                    addr: addr[lane],
                    size: 64,
                    unit: 0,
                    stream,
                    op,
                }));
            }
        }
        recs
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_records_round_trip(recs in records()) {
        let bytes = encode(Format::Gtr, &recs);
        prop_assert_eq!(&decode(&bytes, Format::Gtr).expect("seekable read"), &recs);
        prop_assert_eq!(&decode_stream(&bytes, Format::Gtr).expect("streaming read"), &recs);
    }

    #[test]
    fn lane_runs_round_trip(recs in lane_runs()) {
        let bytes = encode(Format::Gtr, &recs);
        prop_assert_eq!(&decode(&bytes, Format::Gtr).expect("seekable read"), &recs);
    }
}

#[test]
fn many_chunks_round_trip_and_batches_are_chunks() {
    let recs: Vec<Record> = synth(5, 200_000).collect();
    let bytes = encode(Format::Gtr, &recs);
    assert_eq!(decode(&bytes, Format::Gtr).expect("read"), recs);

    let mut r = gfxcache_trace::read_from(
        std::io::Cursor::new(bytes),
        std::path::Path::new("x.gtr"),
        Format::Gtr,
        false,
    )
    .expect("open");
    let totals = r.announced_totals().cloned().expect("footer read first");
    assert_eq!(totals.records(), recs.len() as u64);
    let mut batch = gfxcache_trace::Batch::default();
    let mut n = 0;
    while r.read_batch(&mut batch).expect("batch") {
        assert!(batch.len() <= gfxcache_trace::BATCH_RECORDS);
        n += 1;
    }
    assert_eq!(n, recs.len().div_ceil(gfxcache_trace::BATCH_RECORDS));
    // Exhausted readers stay exhausted.
    assert!(!r.read_batch(&mut batch).expect("after end"));
    assert!(batch.is_empty());
}

#[test]
fn markers_at_chunk_edges_and_empty_trace() {
    let mut recs = Vec::new();
    for i in 0..(gfxcache_trace::BATCH_RECORDS as u64 * 2 + 3) {
        if i % 65535 == 0 {
            recs.push(Record::Marker(Marker::TileBegin { tile: i as u32 }));
        } else {
            recs.push(Record::Access(Access::read(i * 64, Stream::Tex)));
        }
    }
    recs.push(Record::Marker(Marker::PassEnd));
    let bytes = encode(Format::Gtr, &recs);
    assert_eq!(decode(&bytes, Format::Gtr).expect("read"), recs);

    let empty = encode(Format::Gtr, &[]);
    assert_eq!(decode(&empty, Format::Gtr).expect("read"), vec![]);
    assert_eq!(decode_stream(&empty, Format::Gtr).expect("read"), vec![]);
}

#[test]
fn huge_pass_names_split_chunks_below_the_payload_cap() {
    // 1100 names of 64 KiB are more than one chunk's 64 MiB payload can hold.
    let name = "p".repeat(64 << 10);
    let recs: Vec<Record> = (0..1100)
        .flat_map(|i| {
            [
                Record::Marker(Marker::PassBegin {
                    name: name.clone(),
                    kind: PassKind::Post,
                }),
                Record::Access(Access::write(i * 64, Stream::Rt)),
            ]
        })
        .collect();
    let bytes = encode(Format::Gtr, &recs);
    assert!(common::chunks(&bytes).0.len() >= 2);
    assert_eq!(decode(&bytes, Format::Gtr).expect("read"), recs);
}

#[test]
fn overlong_pass_name_is_refused_by_the_writer() {
    let mut w = gfxcache_trace::gtr::GtrWriter::new(Vec::new(), &common::meta(), "x.gtr".as_ref())
        .expect("writer");
    let e = w
        .write_marker(&Marker::PassBegin {
            name: "x".repeat((64 << 10) + 1),
            kind: PassKind::Other,
        })
        .expect_err("too long");
    assert!(
        matches!(e, gfxcache_trace::TraceError::Unsupported { .. }),
        "{e}"
    );
}

#[test]
fn writer_is_deterministic() {
    let recs: Vec<Record> = synth(11, 150_000).collect();
    assert_eq!(encode(Format::Gtr, &recs), encode(Format::Gtr, &recs));
}

#[test]
fn meta_round_trips() {
    let mut meta = common::meta();
    meta.resolution = Some([1920, 1080]);
    meta.mode = Some("tbr".into());
    meta.frames = Some(3);
    meta.extra.insert("seed".into(), 7.into());
    let mut w =
        gfxcache_trace::gtr::GtrWriter::new(Vec::new(), &meta, "m.gtr".as_ref()).expect("writer");
    w.write_access(&Access::read(1, Stream::Z)).expect("write");
    let (_, bytes) = w.finish_into_inner().expect("finish");
    let r = gfxcache_trace::read_from(
        std::io::Cursor::new(bytes),
        "m.gtr".as_ref(),
        Format::Gtr,
        false,
    )
    .expect("open");
    assert_eq!(r.meta(), &meta);
}

/// Every stream and op, with sizes and units changing between accesses,
/// deltas of every class and every explicit length (including unaligned
/// ones and the full 64-bit range), and markers between them, at the
/// chunk's start and end and in a row.
#[test]
fn every_template_and_delta_path_round_trips() {
    let deltas: [i64; 14] = [
        0,
        64,
        128,
        192,
        -64,
        1,
        -1,
        63,
        64 * 300,
        -(1 << 40),
        (1 << 62) + 5,
        i64::MIN,
        i64::MAX,
        -(1 << 55) * 64,
    ];
    let mut recs = vec![Record::Marker(Marker::FrameBegin { frame: 0 })];
    // By lane (stream and op), as the format predicts addresses.
    let mut addr = [[0u64; 2]; Stream::COUNT];
    for i in 0..5000u64 {
        let stream = Stream::ALL[(i % 12) as usize];
        let d = deltas[(i / 12 % 14) as usize];
        let op = if i % 3 == 0 { Op::Write } else { Op::Read };
        let lane = &mut addr[stream.index()][op as usize];
        *lane = lane.wrapping_add(d as u64);
        recs.push(Record::Access(Access {
            addr: *lane,
            size: [64, 128, 0, u32::MAX][(i / 7 % 4) as usize],
            unit: [0, 1, 2, u16::MAX][(i / 5 % 4) as usize],
            stream,
            op,
        }));
        if i % 97 == 0 {
            recs.push(Record::Marker(Marker::DrawBegin { draw: i as u32 }));
            recs.push(Record::Marker(Marker::PassEnd));
        }
    }
    recs.push(Record::Marker(Marker::FrameEnd { frame: 0 }));
    let bytes = encode(Format::Gtr, &recs);
    assert_eq!(decode(&bytes, Format::Gtr).expect("read"), recs);
    assert_eq!(decode_stream(&bytes, Format::Gtr).expect("stream"), recs);
}

/// More (stream, op, size, unit) combinations than one chunk's 128
/// templates: the writer starts new chunks, and the totals still add up.
#[test]
fn template_overflow_starts_a_new_chunk() {
    let mut recs = Vec::new();
    for i in 0..1000u32 {
        recs.push(Record::Access(Access {
            addr: u64::from(i) * 64,
            size: i % 150,
            unit: (i % 3) as u16,
            stream: Stream::ALL[(i % 12) as usize],
            op: Op::Read,
        }));
        if i % 100 == 0 {
            recs.push(Record::Marker(Marker::TileBegin { tile: i }));
        }
    }
    let bytes = encode(Format::Gtr, &recs);
    let (cs, _) = common::chunks(&bytes);
    assert!(cs.len() >= 1000 / 128, "{} chunks", cs.len());
    assert_eq!(decode(&bytes, Format::Gtr).expect("read"), recs);
    let r = gfxcache_trace::read_from(
        std::io::Cursor::new(bytes),
        "t.gtr".as_ref(),
        Format::Gtr,
        false,
    )
    .expect("open");
    let totals = r.announced_totals().expect("footer");
    assert_eq!(totals.accesses, 1000);
    assert_eq!(totals.markers, 10);
}
