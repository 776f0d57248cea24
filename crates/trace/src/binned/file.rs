//! The binned passes file (`render --binned F.json`): a JSON list of
//! [`BinnedPass`] objects (`{"frame_number", "pass", "frame"}`), one per
//! render pass in trace order. [`to_json`] writes it; [`parse`] reads it
//! back (`gfxcache tcor TRACE --binned F.json`) and [`read`] reads it from
//! a file, naming the file in its errors.
//!
//! A file is someone's input, so besides what [`BinnedFrame::check`]
//! demands, its sizes are capped before anything is allocated or walked
//! from them: at most [`MAX_TILES_PER_SIDE`] tiles a side (the tile orders
//! walk the covering power-of-two square) and [`MAX_ATTRIBUTES`]
//! attributes a primitive (every attribute is a Parameter Buffer block the
//! caches touch one by one).

use std::path::{Path, PathBuf};

use super::{BinnedFrame, BinnedPass, BinningError};

/// 4096 tiles of 32 pixels: screens up to 131 072 pixels a side.
pub const MAX_TILES_PER_SIDE: u32 = 4096;
/// Far above the renderer's 1 + 16 / 4 = 5.
pub const MAX_ATTRIBUTES: u32 = 256;

/// Why a binned passes file cannot be read. [`parse`]'s errors say where in
/// the text; [`read`]'s also name the file.
#[derive(Debug, thiserror::Error)]
pub enum BinnedFileError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An error of the file at `path`.
    #[error("{}: {source}", path.display())]
    InFile {
        path: PathBuf,
        source: Box<BinnedFileError>,
    },
    /// Not the JSON list of binned passes; the message has the line and
    /// column.
    #[error("expected the JSON list of binned passes `render --binned` writes: {0}")]
    Json(#[from] serde_json::Error),
    #[error("binned pass {index} ({pass}): a grid of {tiles_x}x{tiles_y} tiles; at most {MAX_TILES_PER_SIDE} a side")]
    GridTooLarge {
        index: usize,
        pass: String,
        tiles_x: u32,
        tiles_y: u32,
    },
    #[error("binned pass {index} ({pass}): primitive {prim} has {attributes} attributes; at most {MAX_ATTRIBUTES}")]
    TooManyAttributes {
        index: usize,
        pass: String,
        prim: usize,
        attributes: u32,
    },
    #[error("binned pass {index} ({pass}): {source}")]
    Binning {
        index: usize,
        pass: String,
        source: BinningError,
    },
}

/// The binned passes as the file holds them: `passes` as one JSON document.
pub fn to_json(passes: &[BinnedPass]) -> String {
    serde_json::to_string(passes).expect("binned passes have no maps and no non-finite numbers")
}

/// The render passes of a binned passes file, each checked
/// ([`BinnedFrame::check`]) and within the caps.
pub fn parse(bytes: &[u8]) -> Result<Vec<BinnedPass>, BinnedFileError> {
    let passes: Vec<BinnedPass> = serde_json::from_slice(bytes)?;
    for (index, p) in passes.iter().enumerate() {
        check(index, &p.pass, &p.frame)?;
    }
    Ok(passes)
}

/// [`parse`] of the file at `path`.
pub fn read(path: &Path) -> Result<Vec<BinnedPass>, BinnedFileError> {
    let bytes = std::fs::read(path).map_err(|source| BinnedFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes).map_err(|e| BinnedFileError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

fn check(index: usize, pass: &str, f: &BinnedFrame) -> Result<(), BinnedFileError> {
    if f.tiles_x > MAX_TILES_PER_SIDE || f.tiles_y > MAX_TILES_PER_SIDE {
        return Err(BinnedFileError::GridTooLarge {
            index,
            pass: pass.to_string(),
            tiles_x: f.tiles_x,
            tiles_y: f.tiles_y,
        });
    }
    if let Some((prim, p)) = f
        .primitives
        .iter()
        .enumerate()
        .find(|(_, p)| p.attributes > MAX_ATTRIBUTES)
    {
        return Err(BinnedFileError::TooManyAttributes {
            index,
            pass: pass.to_string(),
            prim,
            attributes: p.attributes,
        });
    }
    f.check().map_err(|source| BinnedFileError::Binning {
        index,
        pass: pass.to_string(),
        source,
    })
}
