//! A conventional non-blocking cache (gem5's classic cache, as Emerald
//! uses it): `mshrs` missing blocks in flight, each with at most
//! `targets` requests waiting for it (a request missing a block is one
//! target); a request is refused when a block it misses finds neither a
//! free MSHR nor a free target. Waiting requests hold no other buffer
//! (only the requests in flight bound them), and results return as they
//! are ready, in any order.

use gfxcache_mem::MissQueue;

use super::MissHandling;
use crate::config::NbtcConfig;
use crate::retry_buffer::Completion;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mshr {
    pub mshrs: u32,
    pub targets: u32,
}

impl MissHandling for Mshr {
    fn name(self) -> &'static str {
        "mshr"
    }

    fn completion(self) -> Completion {
        Completion::AnyOrder
    }

    fn waiting_requests(self, config: &NbtcConfig) -> usize {
        self.requests_in_flight(config)
    }

    fn miss_queue(self, _: &NbtcConfig) -> MissQueue {
        MissQueue::new(self.mshrs as usize, self.targets)
    }

    fn sizes(self) -> Vec<(&'static str, u32)> {
        vec![
            ("mode.mshr.mshrs", self.mshrs),
            ("mode.mshr.targets", self.targets),
        ]
    }

    fn blocks_in_flight(self) -> Option<(&'static str, u32)> {
        Some(("mode.mshr.mshrs", self.mshrs))
    }

    /// One more target on each block already in flight.
    fn refuses(self, queue: &MissQueue, waiting: &[u64], _new: usize) -> bool {
        waiting.iter().any(|&b| queue.can_take(b).is_err())
    }

    fn counts_targets(self) -> bool {
        true
    }
}
