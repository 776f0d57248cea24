//! `.csv` and `.din`: what they accept, what they refuse (with the line), and
//! that their writers' output reads back to the same accesses.

use crate::common;

use crate::common::{accesses, decode, encode};
use gfxcache_trace::{Access, Format, Marker, Op, Record, Stream, TraceError};
use proptest::prelude::*;

fn read(text: &str, format: Format) -> Result<Vec<Record>, TraceError> {
    decode(text.as_bytes(), format)
}

fn acc(op: Op, addr: u64, stream: Stream, unit: u16, size: u32) -> Record {
    Record::Access(Access {
        addr,
        size,
        unit,
        stream,
        op,
    })
}

fn parse_error_line(r: Result<Vec<Record>, TraceError>) -> (u64, String) {
    match r {
        Err(e @ TraceError::Parse { .. }) => {
            assert_eq!(e.path(), std::path::Path::new(common::NAME));
            (e.line().expect("line"), e.to_string())
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn csv_accepts_columns_in_any_order_with_defaults() {
    let text = "stream, addr ,op\ntex,0x40,R\nrt,128,w\n\nz,0X1F,r\n";
    assert_eq!(
        read(text, Format::Csv).expect("valid"),
        vec![
            acc(Op::Read, 0x40, Stream::Tex, 0, 1),
            acc(Op::Write, 128, Stream::Rt, 0, 1),
            acc(Op::Read, 0x1f, Stream::Z, 0, 1),
        ]
    );
    let text = "size,unit,op,stream,addr\n64,3,W,pb-attr,0xffffffffffffffff\n";
    assert_eq!(
        read(text, Format::Csv).expect("valid"),
        vec![acc(Op::Write, u64::MAX, Stream::PbAttr, 3, 64)]
    );
    assert_eq!(
        read("op,addr,stream\n", Format::Csv).expect("valid"),
        vec![]
    );
}

#[test]
fn csv_errors_name_the_line_and_what_was_expected() {
    let head = "op,addr,stream,unit,size\n";
    let cases = [
        ("R,0x40,tex,0,64\nX,0x40,tex,0,64\n", 3, "expected R or W"),
        ("R,0x40,tex,0,64\nR,0xg0,tex,0,64\n", 3, "addr"),
        ("R,18446744073709551616,tex,0,64\n", 2, "addr"),
        ("R,0x40,texture,0,64\n", 2, "unknown stream"),
        ("R,0x40,tex,65536,64\n", 2, "unit"),
        ("R,0x40,tex,0,-1\n", 2, "size"),
        ("R,0x40,tex,0\n", 2, "fields"),
        ("R,0x40,tex,0,64\n\nR,0x40,tex,0,64,9\n", 4, "fields"),
    ];
    for (body, line, what) in cases {
        let (l, msg) = parse_error_line(read(&format!("{head}{body}"), Format::Csv));
        assert_eq!(l, line, "{msg}");
        assert!(msg.contains(what), "{msg} lacks {what}");
    }
    for (header, what) in [
        ("op,addr\n", "missing column 'stream'"),
        ("op,stream,unit\n", "missing column 'addr'"),
        ("addr,stream\n", "missing column 'op'"),
        ("op,addr,stream,colour\n", "unknown column 'colour'"),
        ("op,addr,stream,op\n", "twice"),
        ("", "header"),
    ] {
        let (l, msg) = parse_error_line(read(header, Format::Csv));
        assert_eq!(l, 1, "{msg}");
        assert!(msg.contains(what), "{msg} lacks {what}");
    }
}

#[test]
fn din_accepts_labels_hex_and_sizes() {
    let text = "0 40\n1 0x80\n\n2 ffFF 4\n   0   10   64  \r\n";
    assert_eq!(
        read(text, Format::Din).expect("valid"),
        vec![
            acc(Op::Read, 0x40, Stream::Other, 0, 1),
            acc(Op::Write, 0x80, Stream::Other, 0, 1),
            acc(Op::Read, 0xffff, Stream::Shader, 0, 4),
            acc(Op::Read, 0x10, Stream::Other, 0, 64),
        ]
    );
    assert_eq!(read("", Format::Din).expect("empty"), vec![]);
}

#[test]
fn din_errors_name_the_line_and_label() {
    let cases = [
        ("0 40\n3 40\n", 2, "escape"),
        ("0 40\n1 40\n4 0\n", 3, "flush"),
        ("7 40\n", 1, "label '7'"),
        ("r 40\n", 1, "label 'r'"),
        ("0\n", 1, "no address"),
        ("0 xyz\n", 1, "address 'xyz'"),
        ("0 10000000000000000\n", 1, "address"),
        ("0 40 abc\n", 1, "size 'abc'"),
        ("0 40 4 5\n", 1, "unexpected '5'"),
        ("\n\n0 40 99999999999\n", 3, "size"),
    ];
    for (text, line, what) in cases {
        let (l, msg) = parse_error_line(read(text, Format::Din));
        assert_eq!(l, line, "{msg}");
        assert!(msg.contains(what), "{msg} lacks {what}");
    }
    let long = format!("0 {}\n", "0".repeat(10_000));
    let (l, msg) = parse_error_line(read(&long, Format::Din));
    assert_eq!(l, 1);
    assert!(msg.contains("longer than"), "{msg}");
}

#[test]
fn writers_skip_and_count_markers() {
    let recs = vec![
        Record::Marker(Marker::FrameBegin { frame: 0 }),
        acc(Op::Read, 0x40, Stream::Tex, 2, 64),
        Record::Marker(Marker::PassEnd),
        acc(Op::Write, 0x1, Stream::Other, 0, 1),
    ];
    let mut w = gfxcache_trace::csv::CsvWriter::new(Vec::new(), "x.csv".as_ref()).expect("csv");
    let mut d = gfxcache_trace::din::DinWriter::new(Vec::new(), "x.din".as_ref()).expect("din");
    for r in &recs {
        match r {
            Record::Access(a) => {
                w.write_access(a).expect("csv");
                d.write_access(a).expect("din");
            }
            Record::Marker(m) => {
                w.write_marker(m).expect("csv");
                d.write_marker(m).expect("din");
            }
        }
    }
    assert_eq!(w.skipped_markers(), 2);
    assert_eq!(d.skipped_markers(), 2);
    let (t, csv) = w.finish_into_inner().expect("csv");
    assert_eq!((t.accesses, t.markers), (2, 0));
    assert_eq!(
        String::from_utf8(csv).expect("utf-8"),
        "op,addr,stream,unit,size\nR,0x40,tex,2,64\nW,0x1,other,0,1\n"
    );
    let (_, din) = d.finish_into_inner().expect("din");
    assert_eq!(String::from_utf8(din).expect("utf-8"), "0 40 64\n1 1\n");
}

fn any_access() -> impl Strategy<Value = Access> {
    (
        any::<u64>(),
        any::<u32>(),
        any::<u16>(),
        prop::sample::select(Stream::ALL.to_vec()),
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

/// What Dinero can hold: `other` reads and writes, `shader` reads, no unit.
fn din_access() -> impl Strategy<Value = Access> {
    (any::<u64>(), any::<u32>(), 0u8..3).prop_map(|(addr, size, label)| Access {
        addr,
        size,
        unit: 0,
        stream: if label == 2 {
            Stream::Shader
        } else {
            Stream::Other
        },
        op: if label == 1 { Op::Write } else { Op::Read },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn csv_round_trips_any_access(v in prop::collection::vec(any_access(), 0..200)) {
        let recs: Vec<Record> = v.into_iter().map(Record::Access).collect();
        let bytes = encode(Format::Csv, &recs);
        prop_assert_eq!(decode(&bytes, Format::Csv).expect("read"), recs.clone());
        // csv -> gtr -> csv is byte-identical.
        let via = encode(Format::Gtr, &recs);
        let back = encode(Format::Csv, &decode(&via, Format::Gtr).expect("gtr"));
        prop_assert_eq!(back, bytes);
    }

    #[test]
    fn din_round_trips_what_it_can_hold(v in prop::collection::vec(din_access(), 0..200)) {
        let recs: Vec<Record> = v.into_iter().map(Record::Access).collect();
        let bytes = encode(Format::Din, &recs);
        prop_assert_eq!(decode(&bytes, Format::Din).expect("read"), recs.clone());
        let via = encode(Format::Gtr, &recs);
        let back = encode(Format::Din, &decode(&via, Format::Gtr).expect("gtr"));
        prop_assert_eq!(back, bytes);
    }
}

#[test]
fn synth_through_text_keeps_its_accesses() {
    let recs: Vec<Record> = gfxcache_trace::synth::synth(4, 70_000).collect();
    let csv = encode(Format::Csv, &recs);
    assert_eq!(decode(&csv, Format::Csv).expect("csv"), accesses(&recs));
}

/// `.din` counts what it cannot hold, and reading it back shows exactly
/// that loss: the streams counted read back as `other`, the units as 0.
#[test]
fn din_counts_the_streams_and_units_it_loses() {
    let recs = vec![
        acc(Op::Read, 0x40, Stream::Tex, 2, 64),
        acc(Op::Read, 0x80, Stream::Tex, 0, 64),
        acc(Op::Write, 0xc0, Stream::Z, 0, 64),
        acc(Op::Read, 0x100, Stream::Shader, 0, 4),
        acc(Op::Write, 0x140, Stream::Shader, 1, 4),
        acc(Op::Write, 0x180, Stream::Other, 0, 1),
        acc(Op::Read, 0x1c0, Stream::Rt, 0, 1),
        Record::Marker(Marker::PassEnd),
    ];
    let mut d = gfxcache_trace::din::DinWriter::new(Vec::new(), "x.din".as_ref()).expect("din");
    let mut c = gfxcache_trace::csv::CsvWriter::new(Vec::new(), "x.csv".as_ref()).expect("csv");
    for r in &recs {
        match r {
            Record::Access(a) => {
                d.write_access(a).expect("din");
                c.write_access(a).expect("csv");
            }
            Record::Marker(m) => {
                d.write_marker(m).expect("din");
                c.write_marker(m).expect("csv");
            }
        }
    }
    let dropped = d.dropped();
    assert_eq!(dropped.markers, 1);
    assert_eq!(dropped.streams[Stream::Tex.index()], 2);
    assert_eq!(dropped.streams[Stream::Z.index()], 1);
    assert_eq!(dropped.streams[Stream::Shader.index()], 1);
    assert_eq!(dropped.streams[Stream::Rt.index()], 1);
    assert_eq!(dropped.stream_total(), 5);
    assert_eq!(dropped.units, 2);
    // CSV holds every field of an access.
    let csv = c.dropped();
    assert_eq!((csv.markers, csv.stream_total(), csv.units), (1, 0, 0));

    let (_, din) = d.finish_into_inner().expect("din");
    let back = read(&String::from_utf8(din).expect("utf-8"), Format::Din).expect("read");
    let originals = accesses(&recs);
    let mut lost_streams = 0;
    let mut lost_units = 0;
    for (a, b) in originals.iter().zip(&back) {
        let (Record::Access(a), Record::Access(b)) = (a, b) else {
            panic!("accesses only")
        };
        assert_eq!((a.addr, a.size, a.op), (b.addr, b.size, b.op));
        lost_streams += u64::from(a.stream != b.stream);
        lost_units += u64::from(a.unit != b.unit);
    }
    assert_eq!(back.len(), originals.len());
    assert_eq!(
        (lost_streams, lost_units),
        (dropped.stream_total(), dropped.units)
    );
}
