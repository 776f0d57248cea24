//! The binned passes file (`gfxcache tcor --binned`): a file the renderer
//! wrote reads back; any damage is an error that says where, never a
//! panic; sizes that would make the simulator allocate or walk without
//! bound are refused. The `binned` fuzz target's entry point, run on
//! stable over its seed and deterministic mutations of it.

use gfxcache_tcor::binned_file::{parse, BinnedFileError, MAX_ATTRIBUTES, MAX_TILES_PER_SIDE};

fn seed() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/binned/two_passes.json"
    );
    std::fs::read(path).expect("the fuzz seed")
}

#[test]
fn the_seed_reads_back() {
    let passes = parse(&seed()).unwrap();
    assert_eq!(passes.len(), 2);
    assert_eq!(passes[0].pass, "shadow");
    assert_eq!(passes[0].binning.tiles(), 16);
    assert_eq!(passes[1].binning.primitives(), 2);
    assert_eq!(passes[1].binning.total_attributes(), 6);
}

#[test]
fn truncations_and_flipped_bytes_are_errors_or_passes_never_panics() {
    let s = seed().trim_ascii_end().to_vec();
    for cut in 0..s.len() {
        assert!(parse(&s[..cut]).is_err(), "cut at {cut}");
    }
    for i in 0..s.len() {
        for x in [0x01u8, 0x20, 0x80, 0xff] {
            let mut m = s.clone();
            m[i] ^= x;
            let _ = parse(&m);
        }
    }
}

#[test]
fn errors_say_where_and_what() {
    let e = parse(b"[{\"frame_number\": 0,\n \"pass\": 7}]").unwrap_err();
    assert!(matches!(e, BinnedFileError::Json(_)));
    assert!(e.to_string().contains("line 2"), "{e}");

    let text = String::from_utf8(seed()).unwrap();
    let big = text.replacen(
        "\"tiles_x\":4",
        &format!("\"tiles_x\":{}", MAX_TILES_PER_SIDE + 1),
        1,
    );
    let e = parse(big.as_bytes()).unwrap_err();
    assert!(
        matches!(e, BinnedFileError::GridTooLarge { index: 0, .. }),
        "{e}"
    );

    let heavy = text.replacen(
        "\"attributes\":5",
        &format!("\"attributes\":{}", MAX_ATTRIBUTES + 1),
        1,
    );
    let e = parse(heavy.as_bytes()).unwrap_err();
    assert!(
        e.to_string()
            .contains("binned pass 1 (gbuffer): primitive 0"),
        "{e}"
    );

    let outside = text.replacen("[15,14,10]", "[15,14,16]", 1);
    let e = parse(outside.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("binned pass 0 (shadow)"), "{e}");
    assert!(e.to_string().contains("outside the grid"), "{e}");
}
