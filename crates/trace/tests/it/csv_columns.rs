//! CSV traces from elsewhere, read through a column mapping: their own
//! names, extra columns ignored, op and stream defaulted, errors by line.

use std::io::Write;
use std::path::Path;

use gfxcache_trace::{open_with, read_all, Access, CsvColumns, Op, ReadOptions, Record, Stream};

fn read(text: &str, mapping: &str) -> Result<Vec<Record>, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("web.csv");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let options = ReadOptions {
        csv_columns: Some(mapping.parse::<CsvColumns>()?),
    };
    let mut r = open_with(&path, &options).map_err(|e| e.to_string())?;
    read_all(r.as_mut()).map_err(|e| e.to_string())
}

fn access(addr: u64, size: u32, op: Op, stream: Stream) -> Record {
    Record::Access(Access {
        addr,
        size,
        unit: 0,
        stream,
        op,
    })
}

#[test]
fn a_foreign_header_reads_through_the_mapping() {
    let text = "time,obj_id,obj_size,next\n1,100,4096,-1\n2,0x40,64,7\n";
    assert_eq!(
        read(text, "addr=obj_id,size=obj_size").unwrap(),
        vec![
            access(100, 4096, Op::Read, Stream::Other),
            access(64, 64, Op::Read, Stream::Other)
        ]
    );
    let text = "kind,address,type\nW,16,tex\nr,32,rt\n";
    assert_eq!(
        read(text, "op=kind, addr=address, stream=type").unwrap(),
        vec![
            access(16, 1, Op::Write, Stream::Tex),
            access(32, 1, Op::Read, Stream::Rt)
        ]
    );
}

#[test]
fn bad_mappings_and_missing_columns_are_named() {
    let text = "time,obj_id\n1,2\n";
    let e = read(text, "addr=id").unwrap_err();
    assert!(
        e.contains("web.csv:1") && e.contains("no column 'id'") && e.contains("time,obj_id"),
        "{e}"
    );
    for (m, says) in [
        ("size=obj_id", "must name the file's addr column"),
        ("address=obj_id", "none of our columns"),
        ("addr", "expected OURS=THEIRS"),
        ("addr=a,addr=b", "mapped twice"),
        ("addr=", "empty"),
    ] {
        let e = read(text, m).unwrap_err();
        assert!(e.contains(says), "{m}: {e}");
    }
    let e = read("obj_id\nnope\n", "addr=obj_id").unwrap_err();
    assert!(e.contains("web.csv:2") && e.contains("addr 'nope'"), "{e}");
}

#[test]
fn a_mapping_for_another_format_is_refused() {
    let options = ReadOptions {
        csv_columns: Some("addr=x".parse().unwrap()),
    };
    let e = open_with(Path::new("t.din"), &options)
        .err()
        .expect("refused");
    assert!(e.to_string().contains(".csv traces only"), "{e}");
}
