//! Igehy, Eldridge and Proudfoot's prefetching texture cache (HWWS'98)
//! as GPGPU-Sim's `tex_cache` implements it: a miss takes its line's tag
//! at once (so a later lookup of the block finds it and waits for the
//! same fill), its block waits in a request FIFO of `request_fifo`
//! entries to be sent and in a reorder buffer of `rob` entries until it
//! returns, and requests complete in input order through a fragment FIFO
//! of `fragment_fifo` requests. GPGPU-Sim looks up one block a cycle; our
//! unit looks up a request (up to 8 texels) at once, so a request whose
//! new blocks do not fit in the request FIFO enters it whole when it is
//! empty (ours).

use gfxcache_mem::{MissQueue, UNLIMITED_TARGETS};

use super::MissHandling;
use crate::config::NbtcConfig;
use crate::retry_buffer::Completion;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetching {
    pub fragment_fifo: u32,
    pub request_fifo: u32,
    pub rob: u32,
}

impl MissHandling for Prefetching {
    fn name(self) -> &'static str {
        "prefetching"
    }

    /// The fragment FIFO.
    fn requests_in_flight(self, _: &NbtcConfig) -> usize {
        self.fragment_fifo as usize
    }

    fn completion(self) -> Completion {
        Completion::InOrder
    }

    fn waiting_requests(self, config: &NbtcConfig) -> usize {
        self.requests_in_flight(config)
    }

    /// The reorder buffer.
    fn miss_queue(self, _: &NbtcConfig) -> MissQueue {
        MissQueue::new(self.rob as usize, UNLIMITED_TARGETS)
    }

    fn sizes(self) -> Vec<(&'static str, u32)> {
        vec![
            ("mode.prefetching.fragment_fifo", self.fragment_fifo),
            ("mode.prefetching.request_fifo", self.request_fifo),
            ("mode.prefetching.rob", self.rob),
        ]
    }

    fn blocks_in_flight(self) -> Option<(&'static str, u32)> {
        Some(("mode.prefetching.rob", self.rob))
    }

    fn tags_at_miss(self) -> bool {
        true
    }

    /// The request FIFO: a request's new blocks enter it together, or
    /// whole when it is empty.
    fn refuses(self, queue: &MissQueue, _waiting: &[u64], new: usize) -> bool {
        let unsent = queue.unsent();
        unsent > 0 && unsent + new > self.request_fifo as usize
    }
}
