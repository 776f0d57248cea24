//! Any bytes as a texture request file (`.gtq`, `render --texture-requests`):
//! records up to an error naming its offset, never a panic or a hang; every
//! record a reader yields fits the file's header; and a file it reads whole
//! (to its footer) writes back to the same bytes. Under `--cfg fuzzing` the
//! reader skips the footer's checksum (so that mutations reach the fields
//! and counts behind it), so the checksum's 4 bytes are left out of the
//! comparison.
#![no_main]

use std::path::Path;

use gfxcache_trace::texreq::{TexReqReader, TexReqWriter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.gtq");
    let Ok(mut reader) = TexReqReader::new(data, path) else {
        return;
    };
    let header = *reader.header();
    let mut w = TexReqWriter::new(Vec::new(), path, &header).expect("a read header writes");
    loop {
        match reader.read_record() {
            Ok(Some(r)) => w.write(&r).expect("a record the reader took writes"),
            Ok(None) => break,
            Err(_) => return,
        }
    }
    let footer = reader.footer().expect("read whole: the footer was checked");
    let out = w.into_inner().unwrap();
    let n = data.len() - 4;
    assert_eq!(out.len(), data.len(), "a whole file writes back as long");
    assert_eq!(&out[..n], &data[..n], "a whole file writes back the same");
    assert_eq!(&data[n..], &footer.crc32.to_le_bytes());
});
