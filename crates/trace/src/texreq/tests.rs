use std::path::Path;

use proptest::prelude::*;

use super::*;
use crate::TraceError;

fn request(fp: u16, index: u8, taps: &[u64]) -> TexRequest {
    let mut t = [0u64; MAX_TAPS];
    t[..taps.len()].copy_from_slice(taps);
    TexRequest {
        fp,
        x: 17,
        y: 300,
        index,
        filter: FilterKind::Trilinear,
        texel_bytes: 4,
        ops: ShaderOps {
            alu: [44, 3, 0, 2],
            special: 1,
            branch: 0x01020304,
        },
        taps: t,
        len: taps.len() as u8,
    }
}

fn sample() -> Vec<TexReqRecord> {
    vec![
        TexReqRecord::PassBegin { pass: 0 },
        TexReqRecord::TileBegin { tile: 7 },
        TexReqRecord::Request(request(3, 0, &[0x1000, 0x1004, 0x1100, 0x1104])),
        TexReqRecord::Request(request(3, 1, &[u64::MAX; 8])),
        TexReqRecord::FragmentEnd {
            fp: 3,
            x: 17,
            y: 300,
            ops: ShaderOps::alu(1, 56),
        },
        TexReqRecord::TileEnd { tile: 7 },
        TexReqRecord::FrameEnd { frame: 0 },
    ]
}

/// The header of [`sample`]: 4 processors, 320x320 pixels in 400 tiles.
fn header() -> TexReqHeader {
    TexReqHeader::new(4, 320, 320, 16)
}

/// A header every record of [`any_record`] fits.
fn wide() -> TexReqHeader {
    TexReqHeader {
        fps: MAX_FPS,
        width: MAX_SIDE,
        height: MAX_SIDE,
        extent: [MAX_SIDE; 2],
        tile_size: 1,
        frames: u32::MAX,
    }
}

fn bytes(records: &[TexReqRecord]) -> Vec<u8> {
    bytes_with(&header(), records)
}

fn bytes_with(h: &TexReqHeader, records: &[TexReqRecord]) -> Vec<u8> {
    let mut w = TexReqWriter::new(Vec::new(), Path::new("t.gtq"), h).unwrap();
    for r in records {
        w.write(r).unwrap();
    }
    w.into_inner().unwrap()
}

fn read(data: &[u8]) -> Result<Vec<TexReqRecord>, TraceError> {
    TexReqReader::new(data, Path::new("t.gtq"))?.collect()
}

#[test]
fn the_layout_is_the_documented_one() {
    let h = TexReqHeader {
        frames: 0x0b0a0908,
        ..wide()
    };
    let b = bytes_with(
        &h,
        &[
            TexReqRecord::TileBegin { tile: 0x01020304 },
            TexReqRecord::Request(request(0x0102, 5, &[0x1122334455667788])),
        ],
    );
    let mut want = b"GFXTEXRQ".to_vec();
    want.extend([3, 0, 0, 0]);
    // 4096 processors; 65536 pixels a side, twice; tiles of 1; frames.
    want.extend([0, 0x10]);
    want.extend([0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0]);
    want.extend([1, 0, 0, 0, 8, 9, 10, 11]);
    assert_eq!(want.len() as u64, HEADER_BYTES);
    want.extend([2, 4, 3, 2, 1]);
    want.extend([4, 2, 1, 17, 0, 44, 1, 5, 2, 4, 1]);
    // ALU by width 44, 3, 0, 2; special 1; branch 0x01020304.
    want.extend([44, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
    want.extend([1, 0, 0, 0, 4, 3, 2, 1]);
    want.extend([0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]);
    let crc = crc32fast::hash(&want);
    // The footer: 2 records, 1 tile, 1 request, 0 fragments, the CRC.
    want.push(7);
    for n in [2u64, 1, 1, 0] {
        want.extend(n.to_le_bytes());
    }
    want.extend(crc.to_le_bytes());
    assert_eq!(b.len() as u64, want.len() as u64);
    assert_eq!(b, want);
}

/// The footer holds the counts of what is before it and its CRC, and a
/// reader that read to the end has checked it.
#[test]
fn the_footer_round_trips() {
    let b = bytes(&sample());
    let mut r = TexReqReader::new(&b[..], Path::new("t.gtq")).unwrap();
    assert_eq!(r.header(), &header());
    let mut n = 0;
    while r.read_record().unwrap().is_some() {
        assert!(r.footer().is_none(), "no footer before the end");
        n += 1;
    }
    assert_eq!(n, sample().len());
    let body = b.len() - FOOTER_BYTES as usize;
    assert_eq!(
        r.footer(),
        Some(&TexReqFooter {
            records: 7,
            tiles: 1,
            requests: 2,
            fragments: 1,
            crc32: crc32fast::hash(&b[..body]),
        })
    );
    // After the end, nothing more.
    assert_eq!(r.read_record().unwrap(), None);
    // An empty frame has a footer too.
    let empty = bytes(&[]);
    assert_eq!(empty.len() as u64, HEADER_BYTES + FOOTER_BYTES);
    assert_eq!(read(&empty).unwrap(), []);
}

#[test]
fn records_read_back_as_written_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.gtq");
    let mut w = TexReqWriter::create(&path, &header()).unwrap();
    for r in sample() {
        w.write(&r).unwrap();
    }
    assert!(!path.exists(), "the file appears only when finished");
    w.finish().unwrap();
    let back: Vec<_> = TexReqReader::open(&path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, sample());
    // Dropped unfinished: nothing is left.
    let other = dir.path().join("g.gtq");
    drop(TexReqWriter::create(&other, &header()).unwrap());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A file cut anywhere short of its end (inside the header, inside a
/// record, at a record or tile boundary, inside the footer) is an error
/// naming the file and the offset of the cut: never a shorter frame.
#[test]
fn every_truncation_is_an_error_naming_its_offset() {
    let b = bytes(&sample());
    for cut in 0..b.len() {
        match read(&b[..cut]) {
            Err(e @ TraceError::Truncated { .. }) => {
                let TraceError::Truncated { offset, what, .. } = &e else {
                    unreachable!()
                };
                assert_eq!(*offset, cut as u64, "{what}");
                assert!(what.starts_with("expected "), "{what}");
                let text = e.to_string();
                assert!(
                    text.contains("t.gtq") && text.contains(&format!("byte {cut}")),
                    "{text}"
                );
            }
            r => panic!("cut at {cut}: {r:?}"),
        }
    }
    // At a record boundary, a tile boundary, after the header: what was
    // expected is a record or the footer.
    let tile_end = b.len() - FOOTER_BYTES as usize - 5;
    for cut in [HEADER_BYTES as usize, HEADER_BYTES as usize + 5, tile_end] {
        let e = read(&b[..cut]).unwrap_err().to_string();
        assert!(e.contains("a record or the footer"), "{e}");
    }
    assert!(read(&b).is_ok());
}

#[test]
fn corrupt_fields_name_their_offset_and_what_was_expected() {
    let b = bytes(&sample());
    let h = HEADER_BYTES as usize;
    let first_request = h + 5 + 5;
    let footer = b.len() - FOOTER_BYTES as usize;
    for (at, value, offset, says) in [
        (0, b'X', 0, "magic"),
        (8, 2, 8, "version 2"),
        (12, 0, 12, "0 fragment processors"),
        (17, 0xff, 14, "resolution 4278190400x320"),
        (22, 1, 22, "extent 257x320"),
        (30, 0, 30, "tile size 0"),
        (34, 0, 34, "0 frames"),
        (h, 9, h, "record tag 9"),
        // Tile 7 of 400 becomes tile 0xff07.
        (h + 7, 0xff, h + 6, "tile 65287"),
        (
            first_request + 2,
            0xff,
            first_request + 1,
            "fragment processor 65283",
        ),
        (
            first_request + 4,
            0xff,
            first_request + 3,
            "pixel (65297, 300)",
        ),
        (first_request + 8, 4, first_request + 8, "filter 4"),
        (first_request + 9, 0, first_request + 9, "texel size 0"),
        (first_request + 10, 9, first_request + 10, "9 taps"),
        // FrameEnd 0 of 1 becomes frame 1.
        (footer - 4, 1, footer - 4, "frame 1"),
        (footer + 1, 8, footer + 1, "the footer says 8 records"),
        (footer + 9, 0, footer + 9, "the footer says 0 tiles"),
        (footer + 17, 3, footer + 17, "the footer says 3 requests"),
        (footer + 25, 0, footer + 25, "the footer says 0 fragments"),
        (footer + 33, 0x5a, footer + 33, "footer checksum"),
        // Shader work changes nothing the reader can range-check: the
        // checksum catches it.
        (first_request + 11, 0x5a, footer + 33, "footer checksum"),
    ] {
        let mut c = b.clone();
        c[at] = value;
        assert_ne!(c, b, "byte {at} = {value} changes the file");
        match read(&c) {
            Err(TraceError::Corrupt {
                offset: o, what, ..
            }) => {
                assert_eq!(o, offset as u64, "{what}");
                assert!(what.contains(says) && what.contains("expected"), "{what}");
            }
            r => panic!("byte {at} = {value}: {r:?}"),
        }
    }
    // A byte after the footer.
    let mut c = b.clone();
    c.push(0);
    match read(&c) {
        Err(TraceError::Corrupt { offset, what, .. }) => {
            assert_eq!(offset, b.len() as u64);
            assert!(what.contains("after the footer"), "{what}");
        }
        r => panic!("{r:?}"),
    }
}

/// The writer refuses a record the reader would, and its file stays
/// unwritten.
#[test]
fn the_writer_refuses_what_the_header_rules_out() {
    let mut w = TexReqWriter::new(Vec::new(), Path::new("t.gtq"), &header()).unwrap();
    for bad in [
        TexReqRecord::Request(request(4, 0, &[0])),
        TexReqRecord::Request(request(0, 0, &[])),
        TexReqRecord::FragmentEnd {
            fp: 0,
            x: 320,
            y: 0,
            ops: ShaderOps::default(),
        },
        TexReqRecord::TileBegin { tile: 400 },
        TexReqRecord::FrameEnd { frame: 1 },
    ] {
        let e = w.write(&bad).unwrap_err().to_string();
        assert!(e.contains("t.gtq") && e.contains("expected"), "{e}");
    }
    assert_eq!(w.into_inner().unwrap(), bytes(&[]));
    let e = TexReqWriter::new(
        Vec::new(),
        Path::new("t.gtq"),
        &TexReqHeader::new(0, 1, 1, 1),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("0 fragment processors"), "{e}");
}

fn any_ops() -> impl Strategy<Value = ShaderOps> {
    (any::<[u32; 4]>(), any::<u32>(), any::<u32>()).prop_map(|(alu, special, branch)| ShaderOps {
        alu,
        special,
        branch,
    })
}

fn any_record() -> impl Strategy<Value = TexReqRecord> {
    prop_oneof![
        any::<u32>().prop_map(|pass| TexReqRecord::PassBegin { pass }),
        any::<u32>().prop_map(|tile| TexReqRecord::TileBegin { tile }),
        any::<u32>().prop_map(|tile| TexReqRecord::TileEnd { tile }),
        (0..u32::MAX).prop_map(|frame| TexReqRecord::FrameEnd { frame }),
        (0..MAX_FPS, any::<u16>(), any::<u16>(), any_ops())
            .prop_map(|(fp, x, y, ops)| TexReqRecord::FragmentEnd { fp, x, y, ops }),
        (
            (0..MAX_FPS, any::<u16>(), any::<u16>(), any::<u8>()),
            (0u8..4, 1u8..=16, any_ops()),
            prop::collection::vec(any::<u64>(), 1..=MAX_TAPS),
        )
            .prop_map(|((fp, x, y, index), (f, texel_bytes, ops), taps)| {
                let mut t = [0u64; MAX_TAPS];
                t[..taps.len()].copy_from_slice(&taps);
                TexReqRecord::Request(TexRequest {
                    fp,
                    x,
                    y,
                    index,
                    filter: FilterKind::from_code(f).unwrap(),
                    texel_bytes,
                    ops,
                    taps: t,
                    len: taps.len() as u8,
                })
            }),
    ]
}

proptest! {
    #[test]
    fn any_records_round_trip(records in prop::collection::vec(any_record(), 0..40)) {
        prop_assert_eq!(read(&bytes_with(&wide(), &records)).unwrap(), records);
    }

    #[test]
    fn any_bytes_read_or_fail_without_panicking(
        records in prop::collection::vec(any_record(), 0..8),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
    ) {
        let mut b = bytes_with(&wide(), &records);
        for (at, v) in flips {
            let n = b.len();
            b[at % n] ^= v;
        }
        let _ = read(&b);
    }
}

/// Through files: plain and `.zst` (by the name) hold the same records,
/// the compressed one is smaller, and a writer as a sink writes the same.
#[test]
fn files_round_trip_plain_and_zstd() {
    let dir = tempfile::tempdir().unwrap();
    let records: Vec<TexReqRecord> = (0..2000).flat_map(|_| sample()).collect();
    let mut sizes = Vec::new();
    for name in ["t.gtq", "t.gtq.zst"] {
        let path = dir.path().join(name);
        let mut w: Box<dyn TexReqSink> = Box::new(TexReqWriter::create(&path, &header()).unwrap());
        w.records(&records[..5]);
        w.records(&records[5..]);
        assert!(!path.exists(), "{name} appears only when finished");
        w.finish().unwrap();
        let back: Vec<TexReqRecord> = TexReqReader::open(&path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, records, "{name}");
        sizes.push(std::fs::metadata(&path).unwrap().len());
    }
    assert_eq!(sizes[0], bytes(&records).len() as u64);
    assert!(sizes[1] * 10 < sizes[0], "{sizes:?}");
}

/// A `.zst` file cut short is an error naming an offset, never a panic or
/// a short list passed off as whole.
#[test]
fn a_truncated_zstd_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.gtq.zst");
    let mut w = TexReqWriter::create(&path, &header()).unwrap();
    for r in (0..200).flat_map(|_| sample()) {
        w.write(&r).unwrap();
    }
    w.finish().unwrap();
    let whole = std::fs::read(&path).unwrap();
    std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let r: Result<Vec<TexReqRecord>, TraceError> =
        TexReqReader::open(&path).and_then(|r| r.collect());
    match r {
        Err(TraceError::Truncated { .. }) | Err(TraceError::Corrupt { .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// Written behind the producer, in runs larger and smaller than the
/// writer's, the file is the direct writer's byte for byte; dropped
/// unfinished, no file appears.
#[test]
fn a_writer_behind_the_producer_writes_the_same_file_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let (direct, behind) = (dir.path().join("a.gtq.zst"), dir.path().join("b.gtq.zst"));
    let records: Vec<TexReqRecord> = std::iter::repeat_n(sample(), 12_000).flatten().collect();
    let mut w = TexReqWriter::create(&direct, &header()).unwrap();
    for r in &records {
        w.write(r).unwrap();
    }
    w.finish().unwrap();
    let mut b: Box<dyn TexReqSink> = Box::new(TexReqBehind::new(Box::new(
        TexReqWriter::create(&behind, &header()).unwrap(),
    )));
    for piece in records.chunks(5_003) {
        b.records(piece);
    }
    b.finish().unwrap();
    assert_eq!(
        std::fs::read(&direct).unwrap(),
        std::fs::read(&behind).unwrap()
    );

    let abandoned = dir.path().join("c.gtq");
    let mut b = TexReqBehind::new(Box::new(
        TexReqWriter::create(&abandoned, &header()).unwrap(),
    ));
    b.records(&records[..80_000]);
    drop(b);
    assert!(!abandoned.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn the_synthetic_frame_is_its_seeds_and_whole() {
    let f = synth::frame(4, 3, 9);
    assert_eq!(f, synth::frame(4, 3, 9));
    assert_ne!(f, synth::frame(4, 3, 10));
    let requests = f
        .iter()
        .filter(|r| matches!(r, TexReqRecord::Request(_)))
        .count();
    assert_eq!(requests, 3 * 256);
    assert_eq!(f.last(), Some(&TexReqRecord::FrameEnd { frame: 0 }));
    let fps: std::collections::BTreeSet<u16> = f
        .iter()
        .filter_map(|r| match r {
            TexReqRecord::Request(q) => Some(q.fp),
            _ => None,
        })
        .collect();
    assert_eq!(fps.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    // Its header holds it: it writes and reads back.
    assert_eq!(read(&bytes_with(&synth::header(4, 3), &f)).unwrap(), f);
}

/// An input that gives at most `step` bytes a read, as a pipe may.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The reader takes its input a buffer at a time: a frame many buffers
/// long reads back whole and checked (its checksum over every buffer),
/// whether the input gives all it can or a few bytes a read, so that
/// records and the footer span the buffer's ends; a changed byte in the
/// second buffer or a cut inside the last is still an error.
#[test]
fn a_frame_of_many_buffers_reads_back_whatever_the_input_gives() {
    let f = synth::frame(8, 40, 5);
    let b = bytes_with(&synth::header(8, 40), &f);
    assert!(b.len() > 3 * reader::BUFFER_BYTES, "{}", b.len());
    assert_eq!(read(&b).unwrap(), f);
    for step in [1, 7, 4093, reader::BUFFER_BYTES - 1] {
        let input = Trickle { data: &b, step };
        let got: Result<Vec<_>, _> = TexReqReader::new(input, Path::new("t.gtq"))
            .unwrap()
            .collect();
        assert_eq!(got.unwrap(), f, "{step} bytes a read");
    }
    // A texel address's byte in the second buffer: only the checksum
    // can tell.
    let at = (reader::BUFFER_BYTES + 1000..b.len())
        .find(|&i| {
            let mut c = b.clone();
            c[i] ^= 0x40;
            read(&c).is_err_and(|e| e.to_string().contains("checksum"))
        })
        .expect("a byte only the checksum covers");
    assert!(at < 2 * reader::BUFFER_BYTES, "{at}");
    let cut = b.len() - 3;
    let e = read(&b[..cut]).unwrap_err();
    assert!(
        matches!(e, TraceError::Truncated { offset, .. } if offset == cut as u64),
        "{e:?}"
    );
}
