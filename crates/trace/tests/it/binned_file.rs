//! The binned passes file (`render --binned`, `gfxcache tcor --binned`):
//! what is written reads back; damage is an error that says where and what
//! was expected; sizes that would make a simulator allocate or walk
//! without bound are refused. (Mutations of the fuzz seed run in
//! `fuzz_inputs.rs`.)

use gfxcache_trace::binned::{
    parse, read, to_json, BinnedFileError, BinnedFrame, BinnedPass, BinnedPrimitive, TileOrder,
    MAX_ATTRIBUTES, MAX_TILES_PER_SIDE,
};

fn seed() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/binned/two_passes.json"
    );
    std::fs::read_to_string(path).expect("the fuzz seed")
}

#[test]
fn the_seed_reads_back_and_writes_the_same_text() {
    let text = seed();
    let passes = parse(text.as_bytes()).unwrap();
    assert_eq!(passes.len(), 2);
    assert_eq!(passes[0].pass, "shadow");
    assert_eq!(passes[0].frame.tiles(), 16);
    assert_eq!(passes[0].frame.order, TileOrder::ZOrder);
    assert_eq!(passes[1].frame.primitives.len(), 2);
    assert_eq!(passes[1].frame.primitives[0].tiles, [0, 1, 2, 3, 4, 5]);
    assert_eq!(to_json(&passes), text.trim_end());
}

#[test]
fn written_passes_read_back() {
    let passes: Vec<BinnedPass> = (0..3)
        .map(|k| BinnedPass {
            frame_number: k / 2,
            pass: format!("pass{k}"),
            frame: BinnedFrame {
                tiles_x: 5,
                tiles_y: 2 + k,
                tile_size: 16,
                order: [TileOrder::Scanline, TileOrder::ZOrder, TileOrder::Hilbert][k as usize],
                primitives: (0..k * 4)
                    .map(|p| BinnedPrimitive {
                        attributes: 1 + p % 5,
                        tiles: vec![p % 10, 10 + p % 3],
                    })
                    .collect(),
            },
        })
        .collect();
    assert_eq!(parse(to_json(&passes).as_bytes()).unwrap(), passes);
    assert_eq!(parse(b"[]").unwrap(), []);
}

#[test]
fn errors_say_where_and_what() {
    let e = parse(b"[{\"frame_number\": 0,\n \"pass\": 7}]").unwrap_err();
    assert!(matches!(e, BinnedFileError::Json(_)));
    assert!(e.to_string().contains("line 2"), "{e}");
    assert!(e.to_string().contains("expected the JSON list"), "{e}");

    let text = seed();
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

    let twice = text.replacen("[15,14,10]", "[15,14,15]", 1);
    let e = parse(twice.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("listed twice"), "{e}");
}

#[test]
fn read_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("passes.json");
    let e = read(&path).unwrap_err();
    assert!(matches!(e, BinnedFileError::Io { .. }));
    assert!(e.to_string().contains("passes.json"), "{e}");

    std::fs::write(&path, seed().replacen("[15,14,10]", "[15,14,16]", 1)).unwrap();
    let e = read(&path).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with(&path.display().to_string()), "{msg}");
    assert!(msg.contains("binned pass 0 (shadow)"), "{msg}");

    std::fs::write(&path, seed()).unwrap();
    assert_eq!(read(&path).unwrap().len(), 2);
}
