//! Texture decoders on hand-built files: DDS (BC1/BC3 blocks decoded to
//! hand-computed colours, formats kept as stored) and SGI (verbatim and
//! RLE, rows flipped to top first).

use std::path::Path;

use gfxcache_render::scene::{self, dds, decode_image};
use gfxcache_render::TexFormat;

// ---------------------------------------------------------------- DDS

/// A DDS header for `width` x `height`, FourCC `cc` (or none: RGBA32).
fn dds_header(width: u32, height: u32, cc: Option<&[u8; 4]>) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    let put =
        |h: &mut Vec<u8>, off: usize, v: u32| h[off..off + 4].copy_from_slice(&v.to_le_bytes());
    h[..4].copy_from_slice(b"DDS ");
    put(&mut h, 4, 124);
    put(&mut h, 8, 0x1007);
    put(&mut h, 12, height);
    put(&mut h, 16, width);
    put(&mut h, 76, 32);
    match cc {
        Some(cc) => {
            put(&mut h, 80, 0x4);
            h[84..88].copy_from_slice(cc);
        }
        None => {
            put(&mut h, 80, 0x41);
            put(&mut h, 88, 32);
            put(&mut h, 92, 0x0000_00FF);
            put(&mut h, 96, 0x0000_FF00);
            put(&mut h, 100, 0x00FF_0000);
            put(&mut h, 104, 0xFF00_0000);
        }
    }
    h
}

#[test]
fn bc1_block_decodes_to_hand_computed_colours() {
    // c0 = pure red (0xF800), c1 = pure blue (0x001F): c0 > c1, 4 colours.
    // Indices row by row: 0 1 2 3 / 3 2 1 0 / 0 0 0 0 / 1 1 1 1.
    let rows: [u32; 4] = [0b11_10_01_00, 0b00_01_10_11, 0, 0b01_01_01_01];
    let bits = rows[0] | rows[1] << 8 | rows[2] << 16 | rows[3] << 24;
    let mut block = [0u8; 8];
    block[..2].copy_from_slice(&0xF800u16.to_le_bytes());
    block[2..4].copy_from_slice(&0x001Fu16.to_le_bytes());
    block[4..].copy_from_slice(&bits.to_le_bytes());
    let t = dds::decode_bc1_block(&block);
    let red = [255, 0, 0, 255];
    let blue = [0, 0, 255, 255];
    let c2 = [170, 0, 85, 255]; // (2*255 + 0) / 3, (2*0 + 255) / 3
    let c3 = [85, 0, 170, 255];
    assert_eq!(&t[..4], &[red, blue, c2, c3]);
    assert_eq!(&t[4..8], &[c3, c2, blue, red]);
    assert_eq!(&t[8..12], &[red; 4]);
    assert_eq!(&t[12..], &[blue; 4]);

    // c0 <= c1: three colours and transparent black.
    block[..2].copy_from_slice(&0x001Fu16.to_le_bytes());
    block[2..4].copy_from_slice(&0xF800u16.to_le_bytes());
    block[4..].copy_from_slice(&0xE4u32.to_le_bytes()); // 0 1 2 3 in row 0
    let t = dds::decode_bc1_block(&block);
    assert_eq!(&t[..4], &[blue, red, [127, 0, 127, 255], [0, 0, 0, 0]]);
}

#[test]
fn bc3_block_decodes_alpha_and_colour() {
    let mut block = [0u8; 16];
    // Alpha endpoints 255 > 0: eight values 255, 0, 218, 182, 145, 109, 72, 36.
    block[0] = 255;
    block[1] = 0;
    // Texel i gets alpha index i % 8.
    let mut bits = 0u64;
    for i in 0..16u64 {
        bits |= (i % 8) << (3 * i);
    }
    block[2..8].copy_from_slice(&bits.to_le_bytes()[..6]);
    // Colour: c0 = white, c1 = black, all index 0 (white), even though
    // c0 > c1 does not matter: BC3 always has four colours.
    block[8..10].copy_from_slice(&0xFFFFu16.to_le_bytes());
    let t = dds::decode_bc3_block(&block);
    let alphas = [255, 0, 218, 182, 145, 109, 72, 36];
    for (i, texel) in t.iter().enumerate() {
        assert_eq!(*texel, [255, 255, 255, alphas[i % 8]], "texel {i}");
    }
    // a0 <= a1: six interpolated values plus 0 and 255.
    block[0] = 0;
    block[1] = 100;
    let t = dds::decode_bc3_block(&block);
    let alphas = [0, 100, 20, 40, 60, 80, 0, 255];
    for (i, texel) in t.iter().enumerate() {
        assert_eq!(texel[3], alphas[i % 8], "texel {i}");
    }
    // BC3 colour blocks with c0 <= c1 still interpolate (no transparent black).
    let mut block = [0u8; 16];
    block[10..12].copy_from_slice(&0xFFFFu16.to_le_bytes());
    block[12] = 0b11; // texel 0: index 3 = (c0 + 2 c1) / 3
    let t = dds::decode_bc3_block(&block);
    assert_eq!(t[0], [170, 170, 170, 0]);
}

#[test]
fn dds_files_keep_their_format_and_decode() {
    let p = Path::new("t.dds");
    // 6x5 DXT1: 2x2 blocks, right and bottom blocks partly outside.
    let mut f = dds_header(6, 5, Some(b"DXT1"));
    for _ in 0..4 {
        f.extend_from_slice(&0xF800u16.to_le_bytes());
        f.extend_from_slice(&0x001Fu16.to_le_bytes());
        f.extend_from_slice(&0u32.to_le_bytes());
    }
    let img = decode_image(&f, p).unwrap();
    assert_eq!((img.width, img.height, img.format), (6, 5, TexFormat::Bc1));
    assert!(img.texels.iter().all(|&t| t == [255, 0, 0, 255]));
    // Truncated data is an error, not a panic.
    let e = decode_image(&f[..f.len() - 1], p).unwrap_err();
    assert!(e.to_string().contains("expected 32"), "{e}");

    let mut f = dds_header(4, 4, Some(b"DXT5"));
    f.extend_from_slice(&[0u8; 16]);
    assert_eq!(decode_image(&f, p).unwrap().format, TexFormat::Bc3);

    let mut f = dds_header(2, 1, None);
    f.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let img = decode_image(&f, p).unwrap();
    assert_eq!(
        (img.format, img.texels.clone()),
        (TexFormat::Rgba8, vec![[1, 2, 3, 4], [5, 6, 7, 8]])
    );

    let mut f = dds_header(4, 4, Some(b"DXT3"));
    f.extend_from_slice(&[0u8; 16]);
    let e = decode_image(&f, p).unwrap_err();
    assert!(
        e.to_string().contains("DXT3") && e.to_string().contains("not supported"),
        "{e}"
    );
}

// ---------------------------------------------------------------- SGI

fn sgi_header(storage: u8, w: u16, h: u16, c: u16) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[..2].copy_from_slice(&474u16.to_be_bytes());
    b[2] = storage;
    b[3] = 1;
    b[4..6].copy_from_slice(&3u16.to_be_bytes());
    b[6..8].copy_from_slice(&w.to_be_bytes());
    b[8..10].copy_from_slice(&h.to_be_bytes());
    b[10..12].copy_from_slice(&c.to_be_bytes());
    b
}

#[test]
fn sgi_verbatim_rgb_flips_rows() {
    // 2x2 RGB, planes R, G, B, each bottom row first.
    let mut f = sgi_header(0, 2, 2, 3);
    f.extend_from_slice(&[1, 2, 3, 4]); // R: bottom 1 2, top 3 4
    f.extend_from_slice(&[10, 20, 30, 40]);
    f.extend_from_slice(&[100, 101, 102, 103]);
    let img = decode_image(&f, Path::new("a.rgb")).unwrap();
    assert_eq!((img.width, img.height), (2, 2));
    assert_eq!(
        img.texels,
        vec![
            [3, 30, 102, 255],
            [4, 40, 103, 255],
            [1, 10, 100, 255],
            [2, 20, 101, 255]
        ]
    );
    // One byte short.
    assert!(decode_image(&f[..f.len() - 1], Path::new("a.rgb")).is_err());
}

#[test]
fn sgi_rle_grey_alpha() {
    // 3x1, 2 channels (grey + alpha), RLE.
    let mut f = sgi_header(1, 3, 1, 2);
    let data_start = 512 + 2 * 8;
    let grey = [0x03u8, 7, 0]; // repeat 7 three times
    let alpha = [0x82u8, 50, 60, 0x01, 70, 0]; // literal 50 60, then 70
    let put = |f: &mut Vec<u8>, v: u32| f.extend_from_slice(&v.to_be_bytes());
    put(&mut f, data_start as u32);
    put(&mut f, (data_start + grey.len()) as u32);
    put(&mut f, grey.len() as u32);
    put(&mut f, alpha.len() as u32);
    f.extend_from_slice(&grey);
    f.extend_from_slice(&alpha);
    let img = scene::decode_image(&f, Path::new("a.sgi")).unwrap();
    assert_eq!(
        img.texels,
        vec![[7, 7, 7, 50], [7, 7, 7, 60], [7, 7, 7, 70]]
    );

    // A run overflowing the row, and an offset past the end: errors.
    let mut bad = f.clone();
    bad[data_start] = 0x05;
    assert!(decode_image(&bad, Path::new("a.sgi")).is_err());
    let mut bad = f.clone();
    bad[512..516].copy_from_slice(&9999u32.to_be_bytes());
    let e = decode_image(&bad, Path::new("a.sgi")).unwrap_err();
    assert!(e.to_string().contains("past the end"), "{e}");
    // 16-bit channels are refused by name.
    let mut bad = f;
    bad[3] = 2;
    assert!(decode_image(&bad, Path::new("a.sgi"))
        .unwrap_err()
        .to_string()
        .contains("bytes per channel"));
}
