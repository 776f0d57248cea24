//! The non-blocking texture cache (NBTC): a request with a miss waits in
//! the Waiting List Buffer, its new missing blocks in the Block Address
//! Buffer, and the unit takes the next request; results return out of
//! order except between requests of the same pixel (the Retry Buffer).

use gfxcache_mem::MissQueue;

use super::MissHandling;
use crate::config::NbtcConfig;
use crate::retry_buffer::Completion;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonBlocking;

impl MissHandling for NonBlocking {
    fn name(self) -> &'static str {
        "nbtc"
    }

    fn completion(self) -> Completion {
        Completion::SamePixel
    }

    fn waiting_requests(self, config: &NbtcConfig) -> usize {
        config.wlb_entries as usize
    }

    fn miss_queue(self, config: &NbtcConfig) -> MissQueue {
        crate::block_address_buffer::block_address_buffer(config.bab_entries as usize)
    }

    fn may_forget_sent(self) -> bool {
        true
    }
}
