//! Any bytes as a texture request file (`.gtq`, `render --texture-requests`):
//! records up to an error naming its offset, never a panic or a hang; and
//! what it reads writes back to the same bytes.
#![no_main]

use std::path::Path;

use gfxcache_trace::texreq::{TexReqReader, TexReqWriter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.gtq");
    let Ok(reader) = TexReqReader::new(data, path) else {
        return;
    };
    let mut w = TexReqWriter::new(Vec::new(), path).expect("a Vec takes the header");
    let mut whole = true;
    for r in reader {
        match r {
            Ok(r) => w.write(&r).expect("a Vec takes a record"),
            Err(_) => {
                whole = false;
                break;
            }
        }
    }
    if whole {
        assert_eq!(w.into_inner().unwrap(), data, "a whole file writes back the same");
    }
});
