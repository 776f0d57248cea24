//! Any policy fully associative ([`FullWays`]): the engine's ways and
//! policy hooks, in the same order and with the same way numbers, over
//! the packed index of [`super::queue`] instead of the engine's tags,
//! meta bytes and hash map.
//!
//! The lines live in the index ([`PackedLines`]), each entry holding a
//! block, its way and its meta byte; a way knows its entry
//! (`entry_of`, kept as deletions move entries), so that an
//! eviction finds the victim's block and meta byte from the way the
//! policy names without hashing. The policy keeps its state by way, as it
//! does in the engine (the RRIP family's tiers, SHiP's signatures, the
//! random victim's generator), and sees the same [`Ctx`] (set 0).

use gfxcache_trace::Stream;

use super::lines::{Line, PackedLines};
use super::{Accounts, FullKernel};
use crate::engine::DIRTY;
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::outcome::BlockOutcome;
use crate::policy::{Ctx, Policy};

/// The lines of a fully associative cache of policy `P`. See the module's
/// documentation.
pub struct FullWays<P> {
    policy: P,
    /// The lines, by block; a line's link is its way.
    table: PackedLines,
    /// Per way filled, its entry.
    entry_of: Vec<u32>,
    ways: usize,
    bank: usize,
    /// The next block access's number ([`Ctx::seq`]).
    seq: u64,
}

impl<P: Policy> FullWays<P> {
    /// The lines of `geom` (one set, at most 2^30 ways) run by `policy`,
    /// or [`CacheError::OutOfMemory`].
    pub fn try_new(geom: &Geometry, policy: P) -> Result<FullWays<P>, CacheError> {
        let ways = geom.ways as usize;
        let mut entry_of = Vec::new();
        entry_of
            .try_reserve_exact(ways)
            .map_err(|_| CacheError::out_of_memory::<u32>(ways, "the entry of each way"))?;
        Ok(FullWays {
            policy,
            table: PackedLines::try_new(ways)?,
            entry_of,
            ways,
            bank: geom.bank_of(0),
            seq: 0,
        })
    }

    pub fn policy(&self) -> &P {
        &self.policy
    }
}

impl<P: Policy> FullKernel for FullWays<P> {
    #[inline(always)]
    fn access(
        &mut self,
        acc: &mut Accounts,
        block: u64,
        stream: Stream,
        write: bool,
        unit: u16,
    ) -> BlockOutcome {
        let ctx = Ctx {
            block,
            set: 0,
            bank: self.bank,
            stream,
            write,
            unit,
            seq: self.seq,
        };
        self.seq += 1;
        let (at, hit) = self.table.find(block);
        if hit {
            let line = self.table.get_mut(at);
            acc.hit(stream, write, &mut line.meta);
            self.policy.hit(&ctx, line.link as usize);
            return BlockOutcome::Hit;
        }
        if !acc.miss(stream, write) {
            self.policy.bypass(&ctx);
            return BlockOutcome::Bypass;
        }
        let (way, at, victim) = if self.entry_of.len() < self.ways {
            self.entry_of.push(at as u32);
            (self.entry_of.len() - 1, at, None)
        } else {
            let Some(way) = self.policy.victim(&ctx) else {
                acc.refuse(stream, write);
                self.policy.bypass(&ctx);
                return BlockOutcome::Bypass;
            };
            let gone = self.entry_of[way] as usize;
            let Line {
                block: old, meta, ..
            } = *self.table.get(gone);
            let dirty = acc.evict(meta);
            self.policy.evict(&ctx, way);
            let entry_of = &mut self.entry_of;
            let at = self.table.replace(gone, block, at, |way, to| {
                entry_of[way as usize] = to as u32
            });
            self.entry_of[way] = at as u32;
            (way, at, Some((old, dirty)))
        };
        let meta = acc.fill(stream, write);
        self.table.put(
            at,
            Line {
                block,
                link: way as u32,
                meta,
            },
        );
        self.policy.fill(&ctx, way);
        BlockOutcome::Fill { victim }
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        self.policy.report()
    }

    fn resident(&self) -> Vec<(u64, bool)> {
        self.entry_of
            .iter()
            .map(|&at| {
                let e = self.table.get(at as usize);
                (e.block, e.meta & DIRTY != 0)
            })
            .collect()
    }

    #[inline(always)]
    fn prefetch(&self, block: u64) {
        self.table.prefetch(block);
        self.policy.prefetch(0, block);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{Cache, StreamMask};
    use crate::full::testing::{case, same_as_engine, trace};
    use crate::full::Full;
    use crate::policies::{
        brrip::Brrip, drrip::Drrip, mru::Mru, nru::Nru, random::Random, ship_mem::ShipMem,
        srrip::Srrip,
    };
    use crate::policy::Env;
    use crate::sim::CacheSim;
    use crate::spec::{Params, PolicySpec};

    /// `spec`'s policy `P` in the engine and in [`FullWays`]: the same
    /// outcomes, statistics, lines and report.
    fn same<P: Policy>(spec: &str, g: Geometry, mask: StreamMask, raw: &[(u64, usize, bool, u32)]) {
        let spec: PolicySpec = spec.parse().unwrap();
        let build = || P::build(&mut Params::new(&spec), &g, &Env::default()).unwrap();
        let lines = FullWays::try_new(&g, build()).unwrap();
        let full = Full::new(g, mask, spec.to_string(), Vec::new(), lines);
        let engine = Cache::new(g, build(), mask);
        let want = {
            let mut e = Cache::new(g, build(), mask);
            e.access_all(&trace(raw));
            e.policy().report()
        };
        let ours = same_as_engine(engine, full, &trace(raw));
        assert_eq!(ours.report(), want, "{spec}: the report");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn every_policy_counts_as_in_the_engine((g, mask, raw) in case()) {
            same::<Random>("random:seed=7", g, mask, &raw);
            same::<Mru>("mru", g, mask, &raw);
            same::<Nru>("nru", g, mask, &raw);
            same::<Srrip>("srrip", g, mask, &raw);
            same::<Brrip>("brrip", g, mask, &raw);
            same::<Drrip>("drrip", g, mask, &raw);
            same::<ShipMem>("ship-mem", g, mask, &raw);
        }
    }
}
