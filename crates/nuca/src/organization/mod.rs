//! The organizations of the fragment processors' texture caches, each
//! behind one small trait so that the replay and the tests treat them
//! alike; one file each, and one line below (`placement!`) that makes it
//! a placement of the GPU machine ([`gfxcache_gpu::Placement`]).

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

use crate::block_hash::{block_map, BlockMap};
use crate::stats::NucaStats;
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::placement::{Flow, Placement, Served, SideEvents};
use gfxcache_gpu::Outcome;
use gfxcache_gpu::TextureCache;

/// Makes organization `$org` the GPU machine's placement of flow `$flow`:
/// an access is served ([`Organization::serve`]), the tables move on
/// ([`Organization::after`]), and the outcome and the block's copies are
/// counted, the same for all.
macro_rules! placement {
    ($org:ty, $flow:expr) => {
        impl Placement for $org {
            const FLOW: Flow = $flow;

            #[inline]
            fn access(&mut self, fp: usize, block: u64) -> Outcome {
                let outcome = self.serve(fp, block);
                self.after();
                self.fps_mut().record(outcome, block)
            }

            fn access_deferred(&mut self, fp: usize, block: u64) -> Outcome {
                let own = self.fps().own(fp);
                self.fps_mut().deferring = Some(own);
                let outcome = self.access(fp, block);
                self.fps_mut().deferring = None;
                outcome
            }

            fn returned(&mut self, fp: usize, block: u64) {
                Organization::returned(self, fp, block)
            }

            fn merged(&mut self, fp: usize, block: u64) {
                self.fps_mut().stats.merged_lookups += 1;
                if self.count_merged(fp, block) {
                    self.after();
                }
            }

            #[inline]
            fn side_events(&self) -> SideEvents {
                let s = self.stats();
                SideEvents {
                    evictions: s.evictions,
                    table_updates: s.at_updates,
                    epochs: s.epochs,
                    ownership_changes: s.ownership_changes,
                }
            }

            fn served(&self) -> Served {
                let s = self.stats();
                Served {
                    accesses: s.texture_accesses,
                    local_hits: s.local_hits,
                    remote_hits: s.remote_hits,
                    l2_requests: s.l2_requests,
                    l2_requests_by_owner: s.l2_requests_by_owner,
                    merged_lookups: s.merged_lookups,
                }
            }

            fn caches(&self) -> &[TextureCache] {
                &self.fps().caches
            }

            fn announced(&self, node: usize) -> u32 {
                Organization::announced(self, node)
            }

            fn broadcast_entry_bits(&self) -> u32 {
                Organization::broadcast_entry_bits(self)
            }
        }
    };
}

placement!(Private, Flow::Private);
placement!(DNuca, Flow::Directory);
placement!(Dtm, Flow::Central);
placement!(DtmDistributed, Flow::Distributed);
placement!(SNuca, Flow::Static);
placement!(IdealShared, Flow::Private);

/// One organization of the texture caches. Block addresses are byte
/// addresses shifted by the block size; `fp` must be below the
/// configuration's `fps` (the replay checks its input; a direct caller that
/// passes a larger one gets a panic).
///
/// An organization says where a request is served ([`Organization::serve`])
/// and what its tables do after it ([`Organization::after`]); counting the
/// outcome and the copies of the block is the same for all
/// ([`Placement::access`], by `placement!`).
pub trait Organization: Placement {
    /// Serves one texture access of fragment processor `fp` to `block`
    /// (its own counters aside from the outcome) and says where.
    fn serve(&mut self, fp: usize, block: u64) -> Outcome;

    /// After each access: epochs and what they change.
    #[inline]
    fn after(&mut self) {}

    /// A lookup of `fp` merged with its miss on `block` already on its
    /// way ([`Placement::merged`]): counted in the tables if the
    /// organization has any and [`crate::MergedLookups`] says so; then
    /// it is one more of the epoch's accesses. Says whether it counted.
    fn count_merged(&mut self, _fp: usize, _block: u64) -> bool {
        false
    }

    /// Its texture caches and counts.
    fn fps(&self) -> &TextureCaches;
    fn fps_mut(&mut self) -> &mut TextureCaches;

    /// The counts so far.
    fn stats(&self) -> &NucaStats {
        &self.fps().stats
    }

    /// The block of `fp`'s deferred access is back
    /// ([`Placement::returned`]): its own cache takes it.
    fn returned(&mut self, fp: usize, block: u64) {
        self.fps_mut().fill_returned(fp, block);
    }

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

/// The texture caches of an organization, by fragment processor (the
/// ideal shared cache: its one cache), and what it counted.
pub struct TextureCaches {
    pub(crate) caches: Vec<TextureCache>,
    pub(crate) stats: NucaStats,
    /// Per block held somewhere, the caches holding it: kept at every fill
    /// and eviction, so that counting an access's copies (Figure 1) is
    /// one lookup, not a probe of every cache.
    copies: BlockMap<u16>,
    /// During a deferred access ([`Placement::access_deferred`]): the
    /// requester's own cache, whose fill waits for the block's return.
    deferring: Option<usize>,
    /// The fills waiting for their block's return, by (cache, block)
    /// ([`TextureCaches::pending_key`]): how many.
    pending: BlockMap<u32>,
}

impl TextureCaches {
    /// One empty texture cache per fragment processor of `config`.
    pub(crate) fn private(config: &NucaConfig) -> Result<TextureCaches, NucaError> {
        config.check()?;
        let geom = config.tc_geometry().expect("checked");
        Ok(TextureCaches {
            caches: (0..config.fps).map(|_| TextureCache::new(&geom)).collect(),
            stats: NucaStats::new(config.fps),
            copies: block_map(geom.blocks() * config.fps),
            deferring: None,
            pending: block_map(0),
        })
    }

    /// One cache of all the capacity, shared by every fragment processor.
    pub(crate) fn shared(config: &NucaConfig) -> Result<TextureCaches, NucaError> {
        config.check()?;
        let geom = config.shared_geometry().expect("checked");
        Ok(TextureCaches {
            caches: vec![TextureCache::new(&geom)],
            stats: NucaStats::new(config.fps),
            copies: block_map(geom.blocks()),
            deferring: None,
            pending: block_map(0),
        })
    }

    /// Counts a served access and the caches that then hold its block.
    #[inline]
    fn record(&mut self, outcome: Outcome, block: u64) -> Outcome {
        let n = self.copies.get(&block).copied().unwrap_or(0);
        debug_assert_eq!(
            n as usize,
            self.caches.iter().filter(|c| c.contains(block)).count()
        );
        self.stats.record(outcome, n as usize);
        outcome
    }

    /// Cache `fp`'s lookup of `block`; a hit moves the line to MRU only with
    /// `refresh` (the no-LRU-update rule).
    #[inline]
    pub(crate) fn hit(&mut self, fp: usize, block: u64, refresh: bool) -> bool {
        self.caches[fp].hit(block, refresh)
    }

    /// The block `fp` fills into its own cache (or an owner into its cache
    /// on another's behalf): one more eviction when it displaces one.
    #[inline]
    pub(crate) fn fill(&mut self, fp: usize, block: u64) -> Option<u64> {
        if self.deferring == Some(fp) {
            *self.pending.entry(self.pending_key(fp, block)).or_insert(0) += 1;
            return None;
        }
        self.fill_now(fp, block)
    }

    /// The key of cache `cache`'s fill of `block` in `pending`.
    fn pending_key(&self, cache: usize, block: u64) -> u64 {
        block.wrapping_mul(self.caches.len() as u64) + cache as u64
    }

    /// Whether cache `cache`'s fill of `block` waits for its return (the
    /// block is on its way there).
    pub(crate) fn is_pending(&self, cache: usize, block: u64) -> bool {
        self.pending.contains_key(&self.pending_key(cache, block))
    }

    /// The requester's cache index: its own, or the one shared cache.
    fn own(&self, fp: usize) -> usize {
        if self.caches.len() == 1 {
            0
        } else {
            fp
        }
    }

    /// A deferred fill of `fp`'s own cache, now that the block is back:
    /// the victim it displaced, if it was not there already.
    /// Nothing if `fp`'s access did not leave its own cache a fill (the
    /// block came from another's cache, or was already there).
    pub(crate) fn fill_returned(&mut self, fp: usize, block: u64) -> Option<u64> {
        let own = self.own(fp);
        let key = self.pending_key(own, block);
        match self.pending.get_mut(&key) {
            None => return None,
            Some(n) if *n > 1 => *n -= 1,
            Some(_) => {
                self.pending.remove(&key);
            }
        }
        if self.caches[own].hit(block, true) {
            return None;
        }
        self.fill_now(own, block)
    }

    #[inline]
    fn fill_now(&mut self, fp: usize, block: u64) -> Option<u64> {
        let victim = self.caches[fp].fill(block);
        *self.copies.entry(block).or_insert(0) += 1;
        if let Some(v) = victim {
            self.stats.evictions += 1;
            match self.copies.get_mut(&v) {
                Some(n) if *n > 1 => *n -= 1,
                _ => {
                    self.copies.remove(&v);
                }
            }
        }
        victim
    }

    /// A request of `fp` that missed in its own cache, sent to the bucket's
    /// `owner`: the owner's cache serves it (a remote hit), or else whoever
    /// is asked reads the L2 and fills its own cache (the owner forwards
    /// the block to `fp`, which keeps no copy). `owner == fp` is the
    /// requester reading the L2 for itself.
    #[inline]
    pub(crate) fn serve_by_owner(&mut self, fp: usize, owner: usize, block: u64) -> Outcome {
        if owner != fp && self.caches[owner].hit(block, true) {
            return Outcome::RemoteHit { owner };
        }
        self.fill(owner, block);
        Outcome::L2 {
            owner: (owner != fp).then_some(owner),
        }
    }
}
