//! A frame's texture requests and trace merged into replay events, by
//! hand: blocks of a request once each, work carried from a fragment's end
//! to its processor's next request, other traffic placed by its position
//! among the trace's `tex` records, and disagreeing files named.

use std::path::Path;

use gfxcache_gpu::{OtherAccess, TileTraffic};
use gfxcache_machine::IssueModel;
use gfxcache_nuca::{
    FrameInput, InputError, OtherPhase, ReplayEvent, RequestUnit, TextureAccess, TileTrace,
};
use gfxcache_trace::texreq::{
    FilterKind, TexReqHeader, TexReqReader, TexReqRecord, TexReqWriter, TexRequest,
};
use gfxcache_trace::{Access, Marker, Op, ShaderOps, Stream, TraceMeta};

fn request(fp: u16, alu: u32, taps: &[u64]) -> TexReqRecord {
    request_at(fp, (0, 0), 0, FilterKind::Bilinear, alu, taps)
}

fn request_at(
    fp: u16,
    (x, y): (u16, u16),
    index: u8,
    filter: FilterKind,
    alu: u32,
    taps: &[u64],
) -> TexReqRecord {
    let mut q = TexRequest {
        fp,
        x,
        y,
        index,
        filter,
        texel_bytes: 4,
        ops: ShaderOps::alu(1, alu),
        taps: [0; 8],
        len: taps.len() as u8,
    };
    q.taps[..taps.len()].copy_from_slice(taps);
    TexReqRecord::Request(q)
}

fn fragment_end(fp: u16, alu: u32) -> TexReqRecord {
    TexReqRecord::FragmentEnd {
        fp,
        x: 0,
        y: 0,
        ops: ShaderOps::alu(1, alu),
    }
}

/// The header of the requests here: 4 fragment processors, 64x64 pixels
/// in 16 tiles.
fn header() -> TexReqHeader {
    TexReqHeader::new(4, 64, 64, 16)
}

fn write_requests(path: &Path, records: &[TexReqRecord]) {
    let mut w = TexReqWriter::create(path, &header()).unwrap();
    for r in records {
        w.write(r).unwrap();
    }
    w.finish().unwrap();
}

enum T {
    A(u64, Stream, Op),
    M(Marker),
}

fn write_trace(path: &Path, records: &[T]) {
    write_trace_with(path, &TraceMeta::default(), records)
}

fn write_trace_with(path: &Path, meta: &TraceMeta, records: &[T]) {
    let mut w = gfxcache_trace::create(path, meta).unwrap();
    for r in records {
        match r {
            T::A(addr, stream, op) => w
                .write_access(&Access {
                    addr: *addr,
                    size: 64,
                    unit: 0,
                    stream: *stream,
                    op: *op,
                })
                .unwrap(),
            T::M(m) => w.write_marker(m).unwrap(),
        }
    }
    w.finish().unwrap();
}

fn events(requests: &Path, trace: Option<&Path>, alu_cycles: u32) -> Vec<ReplayEvent> {
    events_of(requests, trace, alu_cycles, RequestUnit::Quad)
}

/// A scalar core at `alu_cycles` cycles an operation of a pixel: a quad's
/// four lanes run four times its slowest pixel's operations, so a quad's
/// core issues four a cycle.
fn issue(alu_cycles: u32, unit: RequestUnit) -> Option<IssueModel> {
    let lanes = match unit {
        RequestUnit::Quad => 4.0,
        RequestUnit::Pixel | RequestUnit::Sample => 1.0,
    };
    Some(IssueModel::SCALAR.scaled(lanes / f64::from(alu_cycles)))
}

fn events_of(
    requests: &Path,
    trace: Option<&Path>,
    alu_cycles: u32,
    unit: RequestUnit,
) -> Vec<ReplayEvent> {
    let reader = TexReqReader::open(requests).unwrap();
    let issue = issue(alu_cycles, unit);
    let mut input = FrameInput::new(reader, requests, trace, issue, unit, 64).unwrap();
    let mut out = Vec::new();
    while input.next_tile(&mut out).unwrap() {}
    out
}

fn tex(fp: u32, addr: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess::new(fp, addr, work))
}

/// A request that continues its fragment.
fn then(fp: u32, addr: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess {
        follows: true,
        ..TextureAccess::new(fp, addr, work)
    })
}

/// A fragment's first request after `tail` cycles of the processor's
/// previous fragment.
fn after(fp: u32, addr: u64, tail: u32, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess {
        tail,
        ..TextureAccess::new(fp, addr, work)
    })
}

fn more(fp: u32, addr: u64) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess {
        more: true,
        ..TextureAccess::new(fp, addr, 0)
    })
}

/// A binning pass's other access.
fn binning(addr: u64, stream: Stream, write: bool) -> ReplayEvent {
    ReplayEvent::Other {
        addr,
        stream,
        write,
        phase: OtherPhase::Binning,
    }
}

/// A tile's other access.
fn other(addr: u64, stream: Stream, write: bool) -> ReplayEvent {
    ReplayEvent::Other {
        addr,
        stream,
        write,
        phase: OtherPhase::Tile,
    }
}

fn tile_requests() -> Vec<TexReqRecord> {
    vec![
        TexReqRecord::PassBegin { pass: 0 },
        TexReqRecord::TileBegin { tile: 0 },
        // Blocks 0 and 64, each once, in the order first touched.
        request(0, 5, &[8, 0, 72, 64]),
        fragment_end(0, 3),
        request(1, 2, &[130]),
        fragment_end(1, 0),
        // Processor 0's next fragment: its work after the 3 carried.
        request(0, 4, &[0]),
        fragment_end(0, 6),
        TexReqRecord::TileEnd { tile: 0 },
        TexReqRecord::FrameEnd { frame: 0 },
    ]
}

/// [`tile_requests`] as `f.gtq` in `dir`, and `trace` as `f.gtr`.
fn tile_files(dir: &Path, trace: &[T]) -> (std::path::PathBuf, std::path::PathBuf) {
    let (q, t) = (dir.join("f.gtq"), dir.join("f.gtr"));
    write_requests(&q, &tile_requests());
    write_trace(&t, trace);
    (q, t)
}

#[test]
fn a_tile_merges_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    use Op::{Read, Write};
    let (q, t) = tile_files(
        dir.path(),
        &[
            T::A(4096, Stream::Vtx, Read),
            T::M(Marker::TileBegin { tile: 0 }),
            T::A(8192, Stream::Rt, Read),
            T::A(999 * 64, Stream::Tex, Read),
            T::A(8256, Stream::Rt, Write),
            T::A(998 * 64, Stream::Tex, Read),
            T::A(9024, Stream::Z, Write),
            T::M(Marker::TileEnd { tile: 0 }),
            T::A(12288, Stream::Display, Write),
        ],
    );
    // Four texture accesses, two `tex` records in the trace: the write
    // after the first record goes halfway, before the third access. Each
    // other access keeps its stream.
    // The accesses between tiles are the binning pass's, the others the
    // tile's.
    let want = vec![
        binning(4096, Stream::Vtx, false),
        other(8192, Stream::Rt, false),
        tex(0, 0, 5),
        more(0, 64),
        other(8256, Stream::Rt, true),
        tex(1, 128, 2),
        after(0, 0, 3, 4),
        other(9024, Stream::Z, true),
        ReplayEvent::Work { fp: 0, work: 6 },
        ReplayEvent::TileEnd,
        binning(12288, Stream::Display, true),
    ];
    assert_eq!(events(&q, Some(&t), 1), want);
    // Two cycles an instruction double every work; no trace, no others.
    let doubled: Vec<ReplayEvent> = want
        .iter()
        .filter(|e| !matches!(e, ReplayEvent::Other { .. }))
        .map(|e| match *e {
            ReplayEvent::Texture(a) => ReplayEvent::Texture(TextureAccess {
                work: 2 * a.work,
                tail: 2 * a.tail,
                ..a
            }),
            ReplayEvent::Work { fp, work } => ReplayEvent::Work { fp, work: 2 * work },
            e => e,
        })
        .collect();
    assert_eq!(events(&q, None, 2), doubled);
}

/// The same frame a tile at a time for units that keep their own time
/// ([`TileTrace::tile_traffic`]): the binning pass before the tile; the
/// tile's accesses up to its last `tex` record at its start, the others
/// at its end, as block numbers of 64-byte blocks; then the binning
/// after the last tile. A tile with no `tex` record has all its
/// traffic at its end; a tile the trace does not hold next is named.
#[test]
fn a_tiles_traffic_splits_at_its_last_texture_record_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    use Op::{Read, Write};
    let (q, t) = tile_files(
        dir.path(),
        &[
            T::A(4096, Stream::Vtx, Read),
            T::M(Marker::TileBegin { tile: 0 }),
            T::A(8192, Stream::Z, Read),
            T::A(999 * 64, Stream::Tex, Read),
            T::A(8256, Stream::PbList, Read),
            T::A(998 * 64, Stream::Tex, Read),
            T::A(9024, Stream::Rt, Write),
            T::M(Marker::TileEnd { tile: 0 }),
            T::M(Marker::TileBegin { tile: 1 }),
            T::A(10240, Stream::Z, Read),
            T::M(Marker::TileEnd { tile: 1 }),
            T::A(12288, Stream::Display, Write),
        ],
    );
    let reader = TexReqReader::open(&q).unwrap();
    let mut trace = TileTrace::open(&t, reader.header(), &q).unwrap();
    let block = |addr: u64, stream, write| OtherAccess {
        block: addr / 64,
        stream,
        write,
    };
    assert_eq!(
        trace.tile_traffic(Some(0), 64).unwrap(),
        TileTraffic {
            binning: vec![block(4096, Stream::Vtx, false)],
            start: vec![
                block(8192, Stream::Z, false),
                block(8256, Stream::PbList, false)
            ],
            end: vec![block(9024, Stream::Rt, true)],
        }
    );
    assert_eq!(
        trace.tile_traffic(Some(1), 64).unwrap(),
        TileTraffic {
            end: vec![block(10240, Stream::Z, false)],
            ..TileTraffic::default()
        }
    );
    assert_eq!(
        trace.tile_traffic(None, 64).unwrap(),
        TileTraffic {
            binning: vec![block(12288, Stream::Display, true)],
            ..TileTraffic::default()
        }
    );
    let mut trace = TileTrace::open(&t, reader.header(), &q).unwrap();
    let e = trace.tile_traffic(Some(3), 64).unwrap_err().to_string();
    for what in [
        q.display().to_string(),
        t.display().to_string(),
        "the trace's next tile is tile 0, the requests' tile 3".into(),
    ] {
        assert!(e.contains(&what), "{what} in {e}");
    }
}

#[test]
fn files_of_different_frames_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (q, t) = (dir.path().join("f.gtq"), dir.path().join("f.gtr"));
    write_requests(&q, &tile_requests());
    write_trace(
        &t,
        &[
            T::M(Marker::TileBegin { tile: 3 }),
            T::M(Marker::TileEnd { tile: 3 }),
        ],
    );
    let mut input = FrameInput::new(
        TexReqReader::open(&q).unwrap(),
        &q,
        Some(&t),
        issue(1, RequestUnit::Quad),
        RequestUnit::Quad,
        64,
    )
    .unwrap();
    let err = input.next_tile(&mut Vec::new()).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, InputError::Mismatch { .. }), "{text}");
    assert!(
        text.contains("f.gtq") && text.contains("f.gtr") && text.contains("tile 3"),
        "{text}"
    );
    // A trace that ends before the requests' tile.
    write_trace(&t, &[T::A(0, Stream::Vtx, Op::Read)]);
    let mut input = FrameInput::new(
        TexReqReader::open(&q).unwrap(),
        &q,
        Some(&t),
        issue(1, RequestUnit::Quad),
        RequestUnit::Quad,
        64,
    )
    .unwrap();
    let err = input.next_tile(&mut Vec::new()).unwrap_err().to_string();
    assert!(err.contains("ends before tile 0"), "{err}");
}

#[test]
fn a_request_outside_a_tile_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("f.gtq");
    write_requests(&q, &[request(0, 1, &[0])]);
    let mut input = FrameInput::new(
        TexReqReader::open(&q).unwrap(),
        &q,
        None,
        issue(1, RequestUnit::Quad),
        RequestUnit::Quad,
        64,
    )
    .unwrap();
    let err = input.next_tile(&mut Vec::new()).unwrap_err().to_string();
    assert!(
        err.contains("outside any tile") && err.contains("f.gtq"),
        "{err}"
    );
}

/// A quad's four pixels sample blocks {0, 64}, {0}, {128}, {0}, then
/// fetch a texel each from block 192, then end with 3, 5, 2 and 5
/// instructions. As a quad: one sample request of blocks 0, 64, 128 with
/// the most work, one fetch, the most tail. Per pixel: four samples with
/// their own work, the fetch still one request (its pixels' work summed),
/// the tails summed. Per sample: the fetch too is one request a pixel.
/// Every way, the quad is one fragment: its requests after the first
/// continue it.
#[test]
fn a_quads_pixels_make_one_request_or_one_each() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("f.gtq");
    let pixels = [(2, 4), (3, 4), (2, 5), (3, 5)];
    let samples: [&[u64]; 4] = [&[0, 64], &[8], &[130], &[4]];
    let mut records = vec![TexReqRecord::TileBegin { tile: 0 }];
    for (i, (&at, taps)) in pixels.iter().zip(samples).enumerate() {
        records.push(request_at(
            1,
            at,
            0,
            FilterKind::Bilinear,
            10 + i as u32,
            taps,
        ));
    }
    for &at in &pixels {
        records.push(request_at(1, at, 1, FilterKind::Fetch, 2, &[192]));
    }
    for (&(x, y), alu) in pixels.iter().zip([3, 5, 2, 5]) {
        let ops = ShaderOps::alu(1, alu);
        records.push(TexReqRecord::FragmentEnd { fp: 1, x, y, ops });
    }
    records.push(TexReqRecord::TileEnd { tile: 0 });
    write_requests(&q, &records);
    assert_eq!(
        events_of(&q, None, 1, RequestUnit::Quad),
        vec![
            tex(1, 0, 13),
            more(1, 64),
            more(1, 128),
            then(1, 192, 2),
            ReplayEvent::Work { fp: 1, work: 5 },
            ReplayEvent::TileEnd,
        ]
    );
    assert_eq!(
        events_of(&q, None, 1, RequestUnit::Pixel),
        vec![
            tex(1, 0, 10),
            more(1, 64),
            then(1, 0, 11),
            then(1, 128, 12),
            then(1, 0, 13),
            then(1, 192, 8),
            ReplayEvent::Work { fp: 1, work: 15 },
            ReplayEvent::TileEnd,
        ]
    );
    assert_eq!(
        events_of(&q, None, 1, RequestUnit::Sample),
        vec![
            tex(1, 0, 10),
            more(1, 64),
            then(1, 0, 11),
            then(1, 128, 12),
            then(1, 0, 13),
            then(1, 192, 2),
            then(1, 192, 2),
            then(1, 192, 2),
            then(1, 192, 2),
            ReplayEvent::Work { fp: 1, work: 15 },
            ReplayEvent::TileEnd,
        ]
    );
}

/// A `.gtq` and a `.gtr` whose headers disagree on a field both hold
/// (16 processors beside 32, another resolution, tile size, frame count,
/// an immediate-mode trace) are refused before anything is read, the
/// error naming both files and the field; a trace header that leaves a
/// field out is not compared on it.
#[test]
fn a_trace_of_another_frame_is_refused_by_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let (q, t) = (dir.path().join("f.gtq"), dir.path().join("f.gtr"));
    write_requests(&q, &tile_requests());
    let tile = [
        T::M(Marker::TileBegin { tile: 0 }),
        T::M(Marker::TileEnd { tile: 0 }),
    ];
    let meta = |resolution: [u32; 2], frames: u32, mode: &str, fps: u64, tile_size: u64| {
        let mut m = TraceMeta {
            resolution: Some(resolution),
            frames: Some(frames),
            mode: Some(mode.into()),
            ..TraceMeta::default()
        };
        m.extra.insert("fps".into(), fps.into());
        m.extra.insert("tile_size".into(), tile_size.into());
        m
    };
    let open = |meta: &TraceMeta| {
        write_trace_with(&t, meta, &tile);
        FrameInput::new(
            TexReqReader::open(&q).unwrap(),
            &q,
            Some(&t),
            None,
            RequestUnit::Quad,
            64,
        )
    };
    // The requests' own header: 4 processors, 64x64, tiles of 16, 1 frame.
    assert!(open(&meta([64, 64], 1, "tbr", 4, 16)).is_ok());
    assert!(open(&TraceMeta::default()).is_ok());
    for (m, field) in [
        (
            meta([64, 64], 1, "tbr", 8, 16),
            "fps: 4 in the requests' header, 8 in the trace's",
        ),
        (
            meta([64, 48], 1, "tbr", 4, 16),
            "resolution: 64x64 in the requests' header, 64x48",
        ),
        (meta([64, 64], 1, "tbr", 4, 32), "tile_size: 16"),
        (meta([64, 64], 2, "tbr", 4, 16), "frames: 1"),
        (meta([64, 64], 1, "imr", 4, 16), "mode: tbr"),
    ] {
        let err = match open(&m) {
            Ok(_) => panic!("{field}: accepted"),
            Err(e) => e,
        };
        let text = err.to_string();
        assert!(matches!(err, InputError::Mismatch { .. }), "{text}");
        assert!(
            text.contains("f.gtq") && text.contains("f.gtr") && text.contains(field),
            "{text}"
        );
    }
}

/// Requests whose tiles disagree with themselves, with no trace beside
/// them, are named alone (the message once had an empty second name:
/// "f.gtq and  do not hold the same frame").
#[test]
fn requests_alone_that_disagree_about_tiles_are_named_alone() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("f.gtq");
    write_requests(
        &q,
        &[
            TexReqRecord::TileBegin { tile: 0 },
            TexReqRecord::TileBegin { tile: 1 },
        ],
    );
    let mut input = FrameInput::new(
        TexReqReader::open(&q).unwrap(),
        &q,
        None,
        None,
        RequestUnit::Quad,
        64,
    )
    .unwrap();
    let err = input.next_tile(&mut Vec::new()).unwrap_err().to_string();
    assert!(err.contains("f.gtq: tile 1 inside tile 0"), "{err}");
    assert!(!err.contains(" and "), "{err}");
}
