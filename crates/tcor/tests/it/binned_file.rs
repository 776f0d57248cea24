//! The binned passes file with each pass binned (`gfxcache tcor
//! --binned`): the file format's own checks and errors are
//! `gfxcache-trace`'s (`crates/trace/tests/it/binned_file.rs`); here, every
//! file the format accepts bins, and the binnings are those of the passes.

use gfxcache_tcor::binned_file::parse;
use gfxcache_tcor::Binning;

fn seed() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/binned/two_passes.json"
    );
    std::fs::read(path).expect("the fuzz seed")
}

#[test]
fn the_seed_reads_back_binned() {
    let passes = parse(&seed()).unwrap();
    assert_eq!(passes.len(), 2);
    assert_eq!(passes[0].pass, "shadow");
    assert_eq!(passes[0].binning.tiles(), 16);
    assert_eq!(passes[1].binning.primitives(), 2);
    assert_eq!(passes[1].binning.total_attributes(), 6);
}

/// What the `binned` fuzz target asserts: a file the format accepts
/// (`gfxcache_trace::binned::parse`) bins, pass by pass, here over every
/// flipped byte of the seed.
#[test]
fn every_accepted_file_bins() {
    let s = seed().trim_ascii_end().to_vec();
    let mut accepted = 0;
    for i in 0..s.len() {
        for x in [0x01u8, 0x02, 0x04, 0x08, 0x10, 0x20, 0x80] {
            let mut m = s.clone();
            m[i] ^= x;
            let Ok(passes) = gfxcache_trace::binned::parse(&m) else {
                assert!(parse(&m).is_err());
                continue;
            };
            accepted += 1;
            let binned = parse(&m).expect("an accepted file bins");
            for (p, b) in passes.iter().zip(&binned) {
                let again = Binning::new(&p.frame).unwrap();
                assert_eq!(b.binning.tiles(), again.tiles());
                assert_eq!(b.binning.total_uses(), again.total_uses());
            }
        }
    }
    // Flipped digits inside tile lists and attribute counts stay valid.
    assert!(accepted > 10, "{accepted}");
}
