//! The organizations of the fragment processors' texture caches, each
//! behind one small trait so that the replay and the tests treat them
//! alike; one file each.

mod d_nuca;
mod dtm;
mod dtm_distributed;
mod ideal_shared;
mod private;
mod s_nuca;

pub use d_nuca::DNuca;
pub use dtm::Dtm;
pub use dtm_distributed::DtmDistributed;
pub use ideal_shared::IdealShared;
pub use private::Private;
pub use s_nuca::SNuca;

use crate::stats::{NucaStats, Outcome};
use crate::texture_cache::TextureCache;
use crate::{NucaConfig, NucaError};

/// How an organization's requests travel, for the timing model
/// ([`crate::machine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// No mesh: a local probe, then the L2 (private caches, the ideal
    /// shared cache).
    Private,
    /// D-NUCA: a local miss asks the directory at the centre router.
    Directory,
    /// Centralized DTM-NUCA: a local miss asks the Affinity Table at the
    /// centre router, which also counts local hits.
    Central,
    /// Distributed DTM-NUCA: a local miss goes straight to the owner the
    /// node's own table names; epochs end in broadcasts.
    Distributed,
    /// S-NUCA: a block homed elsewhere is asked for at its home with no
    /// local probe.
    Static,
}

/// One organization of the texture caches. Block addresses are byte
/// addresses shifted by the block size; `fp` must be below the
/// configuration's `fps` (the replay checks its input; a direct caller that
/// passes a larger one gets a panic).
pub trait Organization {
    /// How its requests travel.
    const FLOW: Flow;

    /// Serves one texture access of fragment processor `fp` to `block`,
    /// counts it and says where it was served.
    fn access(&mut self, fp: usize, block: u64) -> Outcome;

    /// The counts so far.
    fn stats(&self) -> &NucaStats;

    /// The texture caches, by fragment processor (the ideal shared cache:
    /// its one cache). For the replication count and for tests.
    fn caches(&self) -> &[TextureCache];

    /// Buckets node `node` announced in its last epoch broadcast (only the
    /// distributed Affinity Table broadcasts).
    fn announced(&self, _node: usize) -> u32 {
        0
    }

    /// Bits of one announced bucket: its id and its count.
    fn broadcast_entry_bits(&self) -> u32 {
        0
    }
}

/// In how many of `caches` `block` is.
#[inline]
pub(crate) fn holders(caches: &[TextureCache], block: u64) -> usize {
    caches.iter().filter(|c| c.contains(block)).count()
}

/// One empty texture cache per fragment processor of a checked `config`.
pub(crate) fn private_caches(config: &NucaConfig) -> Result<Vec<TextureCache>, NucaError> {
    config.check()?;
    let geom = config.tc_geometry().expect("checked");
    Ok((0..config.fps).map(|_| TextureCache::new(&geom)).collect())
}

/// The block `fp` fills into its own cache (or `owner` into its cache on
/// `fp`'s behalf): one more eviction when it displaces one.
#[inline]
pub(crate) fn fill(cache: &mut TextureCache, block: u64, stats: &mut NucaStats) -> Option<u64> {
    let victim = cache.fill(block);
    stats.evictions += u64::from(victim.is_some());
    victim
}

/// A request of `fp` that missed in its own cache, sent to the bucket's
/// `owner`: the owner's cache serves it (a remote hit), or else whoever
/// is asked reads the L2 and fills its own cache (the owner forwards the
/// block to `fp`, which keeps no copy). `owner == fp` is the requester
/// reading the L2 for itself.
#[inline]
pub(crate) fn serve_by_owner(
    caches: &mut [TextureCache],
    fp: usize,
    owner: usize,
    block: u64,
    stats: &mut NucaStats,
) -> Outcome {
    if owner != fp && caches[owner].hit(block, true) {
        return Outcome::RemoteHit { owner };
    }
    fill(&mut caches[owner], block, stats);
    Outcome::L2 {
        owner: (owner != fp).then_some(owner),
    }
}
