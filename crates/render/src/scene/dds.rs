//! DDS textures: DXT1 (kept as [`TexFormat::Bc1`]), DXT5 (kept as
//! [`TexFormat::Bc3`]) and uncompressed 32-bit RGB(A) with any byte-aligned
//! channel masks. Only the top mip level is read (the renderer builds its
//! own chain). Anything else (DX10 headers, DXT3, cube maps, volumes,
//! 16/24-bit formats) is an error naming the format.
//!
//! Block-compressed images keep their format, so the simulated memory sees
//! BC1/BC3 footprints; their texels are the colours decoded here by a small
//! BC1/BC3 decoder (the Direct3D rules, integer arithmetic, so decoding is
//! exact and deterministic).

use std::path::Path;

use super::image_file::check_dims;
use super::{Image, SceneError};
use crate::texture::TexFormat;

/// Bytes before the pixel data: the magic and the 124-byte header.
const HEADER_LEN: usize = 128;
const DDPF_ALPHAPIXELS: u32 = 0x1;
const DDPF_FOURCC: u32 = 0x4;
const DDPF_RGB: u32 = 0x40;
const DDSCAPS2_CUBEMAP: u32 = 0x200;
const DDSCAPS2_VOLUME: u32 = 0x20_0000;

fn u32_at(b: &[u8], off: usize) -> u32 {
    // Callers check `b.len() >= HEADER_LEN` first; every offset is below it.
    u32::from_le_bytes([b[off], b[off + 1], b[off + 2], b[off + 3]])
}

/// Decodes a whole DDS file (`bytes` starts with `DDS `).
pub fn decode(bytes: &[u8], path: &Path, name: String) -> Result<Image, SceneError> {
    let err = |msg: String| SceneError::file(path, msg);
    if bytes.len() < HEADER_LEN {
        return Err(err(format!(
            "DDS file is {} bytes: expected at least the {HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    if !bytes.starts_with(b"DDS ") || u32_at(bytes, 4) != 124 {
        return Err(err(
            "not a DDS file: expected magic 'DDS ' and a 124-byte header".into(),
        ));
    }
    let header = Header {
        height: u32_at(bytes, 12),
        width: u32_at(bytes, 16),
        pf_flags: u32_at(bytes, 80),
        fourcc: u32_at(bytes, 84),
        bit_count: u32_at(bytes, 88),
        masks: [
            u32_at(bytes, 92),
            u32_at(bytes, 96),
            u32_at(bytes, 100),
            u32_at(bytes, 104),
        ],
    };
    let caps2 = u32_at(bytes, 112);
    if caps2 & (DDSCAPS2_CUBEMAP | DDSCAPS2_VOLUME) != 0 {
        return Err(err(
            "DDS cube maps and volume textures are not supported (expected a 2D texture)".into(),
        ));
    }
    check_dims(header.width, header.height, path)?;
    let data = &bytes[HEADER_LEN..];
    let (format, texels) = if header.pf_flags & DDPF_FOURCC != 0 {
        decode_compressed(&header, data).map_err(err)?
    } else if header.pf_flags & DDPF_RGB != 0 && header.bit_count == 32 {
        (TexFormat::Rgba8, decode_rgba32(&header, data).map_err(err)?)
    } else {
        return Err(err(format!(
            "DDS pixel format (flags {:#x}, {} bits) is not supported (expected DXT1, DXT5 or uncompressed 32-bit RGBA)",
            header.pf_flags, header.bit_count
        )));
    };
    Ok(Image {
        name,
        width: header.width,
        height: header.height,
        format,
        texels,
    })
}

/// The fields of a DDS header this reader uses.
struct Header {
    width: u32,
    height: u32,
    pf_flags: u32,
    fourcc: u32,
    bit_count: u32,
    /// Red, green, blue and alpha masks of an uncompressed format.
    masks: [u32; 4],
}

/// The texels of a DXT1 (BC1) or DXT5 (BC3) image, kept in that format;
/// errors say what is wrong, for the caller to name the file.
fn decode_compressed(h: &Header, data: &[u8]) -> Result<(TexFormat, Vec<[u8; 4]>), String> {
    let (width, height) = (h.width, h.height);
    let (w, hh) = (width as usize, height as usize);
    let cc = h.fourcc.to_le_bytes();
    let (format, block_bytes) = match &cc {
        b"DXT1" => (TexFormat::Bc1, 8),
        b"DXT5" => (TexFormat::Bc3, 16),
        _ => {
            return Err(format!(
            "DDS format '{}' is not supported (expected DXT1, DXT5 or uncompressed 32-bit RGBA)",
            String::from_utf8_lossy(&cc).escape_debug()
        ))
        }
    };
    let (bw, bh) = (w.div_ceil(4), hh.div_ceil(4));
    let need = bw * bh * block_bytes;
    if data.len() < need {
        return Err(format!(
            "DDS data is {} bytes at offset {HEADER_LEN}: expected {need} for a {width}x{height} {}",
            data.len(),
            String::from_utf8_lossy(&cc)
        ));
    }
    let mut texels = vec![[0u8; 4]; w * hh];
    for by in 0..bh {
        for bx in 0..bw {
            let off = (by * bw + bx) * block_bytes;
            let block = match format {
                TexFormat::Bc1 => {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&data[off..off + 8]);
                    decode_bc1_block(&b)
                }
                _ => {
                    let mut b = [0u8; 16];
                    b.copy_from_slice(&data[off..off + 16]);
                    decode_bc3_block(&b)
                }
            };
            // Blocks past the right or bottom edge are partly padding.
            for (i, t) in block.iter().enumerate() {
                let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
                if x < w && y < hh {
                    texels[y * w + x] = *t;
                }
            }
        }
    }
    Ok((format, texels))
}

/// The texels of an uncompressed 32-bit image with byte-aligned 8-bit
/// channels (any order; alpha only where flagged and masked).
fn decode_rgba32(h: &Header, data: &[u8]) -> Result<Vec<[u8; 4]>, String> {
    let (width, height) = (h.width, h.height);
    let need = width as usize * height as usize * 4;
    if data.len() < need {
        return Err(format!(
            "DDS data is {} bytes at offset {HEADER_LEN}: expected {need} for {width}x{height} 32-bit texels",
            data.len()
        ));
    }
    let has_alpha = h.pf_flags & DDPF_ALPHAPIXELS != 0 && h.masks[3] != 0;
    let mut shifts = [0u32; 4];
    for (c, &m) in h.masks.iter().enumerate() {
        if c == 3 && !has_alpha {
            continue;
        }
        let shift = m.trailing_zeros();
        if m == 0 || m >> shift != 0xFF {
            return Err(format!(
                "DDS channel mask {m:#010x} is not supported (expected 8-bit byte-aligned channels)"
            ));
        }
        shifts[c] = shift;
    }
    Ok(data[..need]
        .chunks_exact(4)
        .map(|p| {
            let v = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            let ch = |c: usize| (v >> shifts[c]) as u8;
            [ch(0), ch(1), ch(2), if has_alpha { ch(3) } else { 255 }]
        })
        .collect())
}

/// RGB565 expanded to 8 bits per channel by replicating the top bits.
fn rgb565(c: u16) -> [u8; 3] {
    let r = ((c >> 11) & 31) as u8;
    let g = ((c >> 5) & 63) as u8;
    let b = (c & 31) as u8;
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

/// The four colours of a BC colour block. `three_colour` allows the BC1
/// mode where `c0 <= c1` means a midpoint and transparent black; BC3's
/// colour block always uses four colours.
fn colour_palette(block: &[u8], three_colour: bool) -> [[u8; 4]; 4] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix = |wa: u16, wb: u16, d: u16| -> [u8; 4] {
        let m = |i: usize| ((wa * u16::from(a[i]) + wb * u16::from(b[i])) / d) as u8;
        [m(0), m(1), m(2), 255]
    };
    let opaque = |c: [u8; 3]| [c[0], c[1], c[2], 255];
    if c0 > c1 || !three_colour {
        [opaque(a), opaque(b), mix(2, 1, 3), mix(1, 2, 3)]
    } else {
        [opaque(a), opaque(b), mix(1, 1, 2), [0, 0, 0, 0]]
    }
}

fn colour_texels(block: &[u8], three_colour: bool) -> [[u8; 4]; 16] {
    let pal = colour_palette(block, three_colour);
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    let mut out = [[0u8; 4]; 16];
    for (i, t) in out.iter_mut().enumerate() {
        *t = pal[((bits >> (2 * i)) & 3) as usize];
    }
    out
}

/// Decodes one 8-byte BC1 (DXT1) block into 4x4 texels, row-major.
///
/// Colours are RGB565 expanded by bit replication; the interpolated ones
/// are `(2a + b) / 3` and `(a + 2b) / 3` (integer division), or `(a + b) / 2`
/// and transparent black when `c0 <= c1`.
pub fn decode_bc1_block(block: &[u8; 8]) -> [[u8; 4]; 16] {
    colour_texels(block, true)
}

/// Decodes one 16-byte BC3 (DXT5) block into 4x4 texels, row-major: an
/// alpha block (two 8-bit endpoints, sixteen 3-bit indices; eight
/// interpolated values when `a0 > a1`, else six plus 0 and 255) followed by
/// a four-colour BC1 block.
pub fn decode_bc3_block(block: &[u8; 16]) -> [[u8; 4]; 16] {
    let (a0, a1) = (u16::from(block[0]), u16::from(block[1]));
    let mut alphas = [0u8; 8];
    alphas[0] = a0 as u8;
    alphas[1] = a1 as u8;
    if a0 > a1 {
        for i in 1..7u16 {
            alphas[i as usize + 1] = (((7 - i) * a0 + i * a1) / 7) as u8;
        }
    } else {
        for i in 1..5u16 {
            alphas[i as usize + 1] = (((5 - i) * a0 + i * a1) / 5) as u8;
        }
        alphas[6] = 0;
        alphas[7] = 255;
    }
    let mut bits = 0u64;
    for (i, &b) in block[2..8].iter().enumerate() {
        bits |= u64::from(b) << (8 * i);
    }
    let mut out = colour_texels(&block[8..16], false);
    for (i, t) in out.iter_mut().enumerate() {
        t[3] = alphas[((bits >> (3 * i)) & 7) as usize];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb565_expands_extremes_exactly() {
        assert_eq!(rgb565(0xFFFF), [255, 255, 255]);
        assert_eq!(rgb565(0), [0, 0, 0]);
        assert_eq!(rgb565(0xF800), [255, 0, 0]);
    }
}
