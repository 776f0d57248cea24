//! Raw chunk payloads straight into the .gtr decoder, past the checksum and
//! zstd layers that keep mutated files from reaching it. The first four
//! bytes choose the record and access counts.
#![no_main]

use gfxcache_trace::gtr::PayloadDecoder;
use gfxcache_trace::Batch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((head, payload)) = data.split_first_chunk::<4>() else {
        return;
    };
    let records = usize::from(u16::from_le_bytes([head[0], head[1]]));
    let accesses = usize::from(u16::from_le_bytes([head[2], head[3]]));
    let mut batch = Batch::default();
    let mut dec = PayloadDecoder::default();
    if dec.decode(payload, records, accesses, &mut batch).is_ok() {
        assert_eq!(batch.accesses.len(), accesses);
        assert_eq!(batch.len(), records);
        assert!(batch.markers.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(batch
            .markers
            .iter()
            .all(|(i, _)| *i <= batch.accesses.len()));
    }
});
