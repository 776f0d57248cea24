//! The fuzz targets' entry points, fed thousands of random and mutated byte
//! strings on stable, so CI exercises what `cargo fuzz` does: any input
//! gives records (or binned passes) or an error, never a panic, never
//! unbounded memory.

use crate::common;

use std::io::Cursor;
use std::path::Path;
use std::sync::OnceLock;

use gfxcache_trace::gtr::PayloadDecoder;
use gfxcache_trace::synth::synth;
use gfxcache_trace::{read_all, read_from, read_stream, Batch, Format, Record};
use proptest::prelude::*;

/// Reads `bytes` every way the library can: seekable and streaming, plain and zstd.
fn read_every_way(bytes: &[u8], format: Format) {
    let name = Path::new("fuzz");
    for zstd in [false, true] {
        if let Ok(mut r) = read_from(Cursor::new(bytes.to_vec()), name, format, zstd) {
            let _ = read_all(r.as_mut());
        }
        if let Ok(mut r) = read_stream(Cursor::new(bytes.to_vec()), 0, name, format, zstd) {
            let _ = read_all(r.as_mut());
        }
    }
}

/// Valid files to mutate: the fuzzers' seed corpus, in spirit.
fn seeds() -> &'static [(Format, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(Format, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let recs: Vec<Record> = synth(17, 300).collect();
        let mut v = Vec::new();
        for f in [Format::Gtr, Format::Csv, Format::Din, Format::OracleGeneral] {
            let plain = common::encode(f, &recs);
            let zst = zstd::encode_all(&plain[..], 3).expect("zstd");
            v.push((f, plain));
            v.push((f, zst));
        }
        v
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Cut(usize),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Le32(usize, u32),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1u8..).prop_map(|(i, b)| Mutation::Flip(i, b)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        1 => any::<usize>().prop_map(Mutation::Cut),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => (any::<usize>(), 1usize..32).prop_map(|(i, n)| Mutation::Remove(i, n)),
        2 => (any::<usize>(), prop_oneof![Just(0u32), Just(1), Just(u32::MAX), Just(65536), Just(65537), any::<u32>()])
            .prop_map(|(i, v)| Mutation::Le32(i, v)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    match m {
        Mutation::Flip(i, b) => bytes[i % n] ^= b,
        Mutation::Set(i, b) => bytes[i % n] = *b,
        Mutation::Cut(i) => bytes.truncate(i % n),
        Mutation::Insert(i, b) => {
            let at = i % n;
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Remove(i, k) => {
            let at = i % n;
            bytes.drain(at..(at + k).min(n));
        }
        Mutation::Le32(i, v) => {
            let at = i % n;
            let end = (at + 4).min(n);
            bytes[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn mutated_files_never_panic(
        seed in 0usize..8,
        muts in prop::collection::vec(mutation(), 1..4),
    ) {
        let (format, file) = &seeds()[seed];
        let mut bytes = file.clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        read_every_way(&bytes, *format);
    }

    /// The `binned` target: the binned passes file.
    #[test]
    fn mutated_binned_files_never_panic(
        muts in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut bytes = binned_seed();
        for m in &muts {
            apply(&mut bytes, m);
        }
        if let Ok(passes) = gfxcache_trace::binned::parse(&bytes) {
            // What the parser accepts is checked, so it bins.
            for p in &passes {
                prop_assert!(p.frame.check().is_ok());
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        format in prop::sample::select(vec![Format::Gtr, Format::Csv, Format::Din]),
        prefix in any::<bool>(),
    ) {
        // With the right magic in front, random bytes get past the first check.
        let mut input = if prefix && format == Format::Gtr {
            b"GFXTRACE\x01\x00\x00\x00\x02\x00\x00\x00{}".to_vec()
        } else {
            Vec::new()
        };
        input.extend_from_slice(&bytes);
        read_every_way(&input, format);
    }

    #[test]
    fn random_payloads_never_panic(
        tags in prop::collection::vec(any::<u8>(), 0..64),
        dir in prop::collection::vec(0u32..80, 3),
        values in prop::collection::vec(any::<u8>(), 0..200),
        accesses in 0usize..70,
    ) {
        let mut payload = tags.clone();
        for d in &dir {
            payload.extend_from_slice(&d.to_le_bytes());
        }
        payload.extend_from_slice(&values);
        let mut batch = Batch::default();
        let _ = PayloadDecoder::default().decode(&payload, tags.len(), accesses, &mut batch);
    }
}

/// The `binned` fuzz target's seed.
fn binned_seed() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/binned/two_passes.json"
    );
    std::fs::read(path).expect("the binned fuzz seed")
}

/// Every truncation of the binned seed is an error; every flipped byte an
/// error or passes, never a panic.
#[test]
fn cut_and_flipped_binned_files_never_panic() {
    let s = binned_seed().trim_ascii_end().to_vec();
    gfxcache_trace::binned::parse(&s).expect("the seed reads");
    for cut in 0..s.len() {
        assert!(
            gfxcache_trace::binned::parse(&s[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    for i in 0..s.len() {
        for x in [0x01u8, 0x20, 0x80, 0xff] {
            let mut m = s.clone();
            m[i] ^= x;
            let _ = gfxcache_trace::binned::parse(&m);
        }
    }
}

/// Valid payloads with one value changed: these get past every structural
/// check and exercise the decoder's own validation.
#[test]
fn mutated_valid_payloads_never_panic() {
    let recs: Vec<Record> = synth(23, 2000).collect();
    let file = common::encode(Format::Gtr, &recs);
    let (chunks, _) = common::chunks(&file);
    let c = &chunks[0];
    let data = &file[c.offset + 24..c.offset + 24 + c.compressed_len as usize];
    let payload = zstd::bulk::decompress(data, c.payload_len as usize).expect("payload");
    let mut batch = Batch::default();
    let mut dec = PayloadDecoder::default();
    dec.decode(
        &payload,
        c.records as usize,
        c.accesses as usize,
        &mut batch,
    )
    .expect("valid payload");
    let mut failures = 0;
    for at in 0..payload.len() {
        for x in [0x01u8, 0x40, 0x80, 0xff] {
            let mut p = payload.clone();
            p[at] ^= x;
            if dec
                .decode(&p, c.records as usize, c.accesses as usize, &mut batch)
                .is_err()
            {
                failures += 1;
            }
        }
    }
    // Most changes are caught by the decoder itself (the rest, such as a
    // different delta, by the chunk checksum in a real file).
    assert!(failures > 0);
}

/// The fuzz target `texreq_reader`'s entry point: the records of `data`
/// (a whole file, to its footer) or the error; what it reads whole
/// writes back to the same bytes (here, outside `--cfg fuzzing`, the
/// checksum too).
fn texreq_entry(
    data: &[u8],
) -> Result<Vec<gfxcache_trace::texreq::TexReqRecord>, gfxcache_trace::TraceError> {
    use gfxcache_trace::texreq::{TexReqReader, TexReqWriter};
    let path = Path::new("seed.gtq");
    let mut reader = TexReqReader::new(data, path)?;
    let mut w = TexReqWriter::new(Vec::new(), path, reader.header()).expect("a read header writes");
    let mut records = Vec::new();
    while let Some(r) = reader.read_record()? {
        w.write(&r).expect("a record the reader took writes");
        records.push(r);
    }
    let footer = *reader.footer().expect("read whole: the footer was checked");
    assert_eq!(footer.records, records.len() as u64);
    assert_eq!(
        w.into_inner().unwrap(),
        data,
        "a whole file writes back the same"
    );
    Ok(records)
}

/// The fuzz target `texreq_reader` on its seed, cut and flipped: the seed
/// reads whole and writes back to its bytes; every cut (inside the
/// header, a record or the footer, or at a record or tile boundary) and
/// every changed byte is an error naming the file and an offset, never a
/// panic or a shorter frame.
#[test]
fn texreq_seed_reads_whole_and_its_mutations_never_panic() {
    let seed = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/texreq_reader/frame"
    ))
    .expect("seed");
    let records = texreq_entry(&seed).expect("the seed is a whole file");
    assert_eq!(records.len(), 7);
    let named = |e: gfxcache_trace::TraceError| {
        assert!(
            e.offset().is_some() && e.path() == Path::new("seed.gtq"),
            "{e}"
        );
    };
    for at in 0..seed.len() {
        named(texreq_entry(&seed[..at]).expect_err("a cut file is refused"));
        for x in [0x01u8, 0x40, 0x80, 0xff] {
            let mut b = seed.clone();
            b[at] ^= x;
            named(texreq_entry(&b).expect_err("a changed byte is refused"));
        }
    }
}
