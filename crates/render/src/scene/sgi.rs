//! SGI images (`.rgb`, `.rgba`, `.sgi`, `.bw`), the textures AC3D models
//! usually reference: 8 bits per channel, 1 to 4 channels (grey, grey +
//! alpha, RGB, RGBA), stored verbatim or run-length encoded. 16-bit
//! channels and colour-mapped files are errors.
//!
//! Layout (big-endian): a 512-byte header (magic 474, storage, bytes per
//! channel, dimension, x/y/z sizes, colormap id at byte 104), then either
//! the channel planes one after the other (verbatim) or, for RLE, a table
//! of row start offsets and one of row lengths (`ysize * zsize` `u32`s
//! each, channel-major) followed by the runs. Rows are stored bottom to
//! top; [`Image`] rows are top to bottom, so they are flipped here.

use std::path::Path;

use super::image_file::check_dims;
use super::{Image, SceneError};
use crate::texture::TexFormat;

/// The first two bytes of every SGI file.
pub const MAGIC: u16 = 474;
const HEADER_LEN: usize = 512;

fn be16(b: &[u8], off: usize) -> u16 {
    u16::from_be_bytes([b[off], b[off + 1]])
}

fn be32(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(off..off + 4)?.try_into().ok()?))
}

/// Decodes a whole SGI file.
pub fn decode(bytes: &[u8], path: &Path, name: String) -> Result<Image, SceneError> {
    let err = |msg: String| SceneError::file(path, msg);
    if bytes.len() < HEADER_LEN {
        return Err(err(format!(
            "SGI file is {} bytes: expected at least the {HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    if be16(bytes, 0) != MAGIC {
        return Err(err("not an SGI image: expected magic 474".into()));
    }
    let rle = match bytes[2] {
        0 => false,
        1 => true,
        s => {
            return Err(err(format!(
                "SGI storage {s}: expected 0 (verbatim) or 1 (RLE)"
            )))
        }
    };
    if bytes[3] != 1 {
        return Err(err(format!(
            "SGI images with {} bytes per channel are not supported (expected 1)",
            bytes[3]
        )));
    }
    let dimension = be16(bytes, 4);
    let (xs, mut ys, mut zs) = (be16(bytes, 6), be16(bytes, 8), be16(bytes, 10));
    match dimension {
        1 => (ys, zs) = (1, 1),
        2 => zs = 1,
        3 => {}
        d => return Err(err(format!("SGI dimension {d}: expected 1, 2 or 3"))),
    }
    let colormap = be32(bytes, 104).unwrap_or(0);
    if colormap != 0 {
        return Err(err(format!(
            "SGI colormap type {colormap} is not supported (expected 0, a normal image)"
        )));
    }
    if !(1..=4).contains(&zs) {
        return Err(err(format!("SGI image has {zs} channels: expected 1 to 4")));
    }
    check_dims(u32::from(xs), u32::from(ys), path)?;
    let (w, h, c) = (usize::from(xs), usize::from(ys), usize::from(zs));

    // planes[channel][row * w + x], rows bottom to top as stored.
    let mut planes = vec![vec![0u8; w * h]; c];
    if rle {
        let table = HEADER_LEN;
        let rows = h * c;
        let lengths = table + rows * 4;
        if bytes.len() < lengths + rows * 4 {
            return Err(err(format!(
                "SGI RLE offset tables need {} bytes after the header: file is {} bytes",
                rows * 8,
                bytes.len()
            )));
        }
        for (ch, plane) in planes.iter_mut().enumerate() {
            for row in 0..h {
                let k = ch * h + row;
                let start = be32(bytes, table + k * 4).unwrap_or(0) as usize;
                let len = be32(bytes, lengths + k * 4).unwrap_or(0) as usize;
                let run = start
                    .checked_add(len)
                    .and_then(|end| bytes.get(start..end))
                    .ok_or_else(|| {
                        err(format!(
                            "SGI RLE row {row} of channel {ch}: offset {start} + length {len} is past the end of the file ({} bytes)",
                            bytes.len()
                        ))
                    })?;
                let out = &mut plane[row * w..(row + 1) * w];
                expand_rle_row(run, out).map_err(|m| {
                    err(format!(
                        "SGI RLE row {row} of channel {ch} at offset {start}: {m}"
                    ))
                })?;
            }
        }
    } else {
        let need = w * h * c;
        let data = bytes.get(HEADER_LEN..HEADER_LEN + need).ok_or_else(|| {
            err(format!(
                "SGI verbatim data: expected {need} bytes after the header, file is {} bytes",
                bytes.len()
            ))
        })?;
        for (ch, plane) in planes.iter_mut().enumerate() {
            plane.copy_from_slice(&data[ch * w * h..(ch + 1) * w * h]);
        }
    }

    let mut texels = Vec::with_capacity(w * h);
    for y in 0..h {
        let row = h - 1 - y; // bottom-up storage
        for x in 0..w {
            let i = row * w + x;
            let v = |ch: usize| planes[ch][i];
            texels.push(match c {
                1 => [v(0), v(0), v(0), 255],
                2 => [v(0), v(0), v(0), v(1)],
                3 => [v(0), v(1), v(2), 255],
                _ => [v(0), v(1), v(2), v(3)],
            });
        }
    }
    Ok(Image {
        name,
        width: u32::from(xs),
        height: u32::from(ys),
        format: TexFormat::Rgba8,
        texels,
    })
}

/// Expands one RLE row into `out`, which it must fill exactly. Each code
/// byte gives a count in its low 7 bits (0 ends the row); with the high bit
/// set that many literal bytes follow, else one byte repeated that often.
fn expand_rle_row(run: &[u8], out: &mut [u8]) -> Result<(), String> {
    let (mut i, mut o) = (0usize, 0usize);
    // A missing terminating 0 ends the row too (some writers omit it).
    while let Some(&code) = run.get(i) {
        i += 1;
        let count = usize::from(code & 0x7F);
        if count == 0 {
            break;
        }
        if o + count > out.len() {
            return Err(format!(
                "runs give more than the {} texels of a row",
                out.len()
            ));
        }
        if code & 0x80 != 0 {
            let lit = run
                .get(i..i + count)
                .ok_or_else(|| format!("literal run of {count} bytes is cut short"))?;
            out[o..o + count].copy_from_slice(lit);
            i += count;
        } else {
            let &v = run
                .get(i)
                .ok_or_else(|| "repeat run is missing its value byte".to_string())?;
            out[o..o + count].fill(v);
            i += 1;
        }
        o += count;
    }
    if o != out.len() {
        return Err(format!("runs give {o} texels: expected {}", out.len()));
    }
    Ok(())
}
