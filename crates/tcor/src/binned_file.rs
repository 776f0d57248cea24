//! The binned passes file (`render --binned F.json`) with each pass
//! binned: for `gfxcache tcor TRACE --binned F.json`. The file format, its
//! caps and its errors are `gfxcache-trace`'s ([`gfxcache_trace::binned::file`]);
//! this adds the [`Binning`] the Tiling Engine models run on.

use crate::binning::Binning;

pub use gfxcache_trace::binned::{BinnedFileError, MAX_ATTRIBUTES, MAX_TILES_PER_SIDE};

/// One render pass, binned.
#[derive(Clone, Debug)]
pub struct BinnedPassFile {
    pub frame_number: u32,
    pub pass: String,
    pub binning: Binning,
}

/// The render passes of a binned passes file, checked and binned.
pub fn parse(bytes: &[u8]) -> Result<Vec<BinnedPassFile>, BinnedFileError> {
    gfxcache_trace::binned::parse(bytes)?
        .into_iter()
        .enumerate()
        .map(|(index, p)| match Binning::new(&p.frame) {
            Ok(binning) => Ok(BinnedPassFile {
                frame_number: p.frame_number,
                pass: p.pass,
                binning,
            }),
            Err(source) => Err(BinnedFileError::Binning {
                index,
                pass: p.pass,
                source,
            }),
        })
        .collect()
}
