//! The binned passes file (`render --binned F.json`): a JSON list of
//! `{"frame_number", "pass", "frame"}` objects, `frame` a [`BinnedFrame`],
//! one per render pass in trace order. This is the reading side, for
//! `gfxcache tcor TRACE --binned F.json`; the renderer writes it.
//!
//! A file is someone's input, so besides what [`Binning::new`] checks, its
//! sizes are capped before anything is allocated or walked from them: at
//! most [`MAX_TILES_PER_SIDE`] tiles a side (the tile orders walk the
//! covering power-of-two square) and [`MAX_ATTRIBUTES`] attributes a
//! primitive (every attribute is a Parameter Buffer block the caches
//! touch one by one).

use serde::Deserialize;

use crate::binning::{BinnedFrame, Binning};
use crate::error::BinningError;

/// 4096 tiles of 32 pixels: screens up to 131 072 pixels a side.
pub const MAX_TILES_PER_SIDE: u32 = 4096;
/// Far above the renderer's 1 + 16 / 4 = 5.
pub const MAX_ATTRIBUTES: u32 = 256;

/// One render pass as the file holds it.
#[derive(Clone, Debug, Deserialize)]
pub struct BinnedPassRecord {
    pub frame_number: u32,
    pub pass: String,
    pub frame: BinnedFrame,
}

/// One render pass, binned.
#[derive(Clone, Debug)]
pub struct BinnedPassFile {
    pub frame_number: u32,
    pub pass: String,
    pub binning: Binning,
}

#[derive(Debug, thiserror::Error)]
pub enum BinnedFileError {
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

/// The render passes of a binned passes file, checked and binned.
pub fn parse(bytes: &[u8]) -> Result<Vec<BinnedPassFile>, BinnedFileError> {
    let records: Vec<BinnedPassRecord> = serde_json::from_slice(bytes)?;
    records
        .into_iter()
        .enumerate()
        .map(|(index, r)| {
            let f = &r.frame;
            if f.tiles_x > MAX_TILES_PER_SIDE || f.tiles_y > MAX_TILES_PER_SIDE {
                return Err(BinnedFileError::GridTooLarge {
                    index,
                    pass: r.pass,
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
                    pass: r.pass,
                    prim,
                    attributes: p.attributes,
                });
            }
            match Binning::new(f) {
                Ok(binning) => Ok(BinnedPassFile {
                    frame_number: r.frame_number,
                    pass: r.pass,
                    binning,
                }),
                Err(source) => Err(BinnedFileError::Binning {
                    index,
                    pass: r.pass,
                    source,
                }),
            }
        })
        .collect()
}
