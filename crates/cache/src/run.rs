//! Running caches over a trace: one decode, every cache fed each batch, in
//! parallel when there are several.

use gfxcache_trace::{Batch, TraceError, TraceRead, BATCH_RECORDS};
use rayon::prelude::*;

use crate::next_use::{NextUse, NextUseBuilder};
use crate::sim::CacheSim;

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Trace(#[from] TraceError),
    #[error(transparent)]
    TooLong(#[from] crate::next_use::TooLong),
}

/// Feeds every batch of `reader` to every cache. `progress` is called after
/// each batch with the reader's `(bytes read, bytes total)`. Returns the
/// number of trace accesses.
pub fn simulate(
    reader: &mut dyn TraceRead,
    caches: &mut [Box<dyn CacheSim>],
    mut progress: impl FnMut(u64, u64),
) -> Result<u64, TraceError> {
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    let mut accesses = 0u64;
    while reader.read_batch(&mut batch)? {
        accesses += batch.accesses.len() as u64;
        if caches.len() == 1 {
            caches[0].access_batch(&batch.accesses);
        } else {
            caches
                .par_iter_mut()
                .for_each(|c| c.access_batch(&batch.accesses));
        }
        let (done, total) = reader.progress();
        progress(done, total);
    }
    Ok(accesses)
}

/// The next-use indices of a trace at `block` bytes per line, from one pass.
pub fn next_use(
    reader: &mut dyn TraceRead,
    block: u32,
    mut progress: impl FnMut(u64, u64),
) -> Result<NextUse, RunError> {
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    let mut builder = NextUseBuilder::new(block);
    while reader.read_batch(&mut batch)? {
        builder.push_all(&batch.accesses)?;
        let (done, total) = reader.progress();
        progress(done, total);
    }
    Ok(builder.finish())
}
