//! The baseline blocking texture cache (BTC): the unit of the NBTC with
//! no lookup taken while a request waits for a block, its missing blocks
//! in the Block Address Buffer, fetched one after another (`serial`, the
//! spec's default, ours) or all at once, one a cycle.

use gfxcache_mem::MissQueue;

use super::MissHandling;
use crate::config::NbtcConfig;
use crate::retry_buffer::Completion;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocking {
    pub serial: bool,
}

impl MissHandling for Blocking {
    fn name(self) -> &'static str {
        if self.serial {
            "btc"
        } else {
            "btc-parallel"
        }
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

    fn blocks(self) -> bool {
        true
    }

    fn serial(self) -> bool {
        self.serial
    }

    fn may_forget_sent(self) -> bool {
        true
    }
}
