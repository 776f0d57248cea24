//! The baseline blocking texture cache (BTC): the unit of the NBTC with
//! no lookup taken while a request waits for a block, its missing blocks
//! in the Block Address Buffer, fetched one after another (`serial`, the
//! spec's default, ours) or all at once, one a cycle.

use gfxcache_mem::MissQueue;

use super::{MissHandling, NonBlocking};
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

    /// The NBTC's buffers: the same unit.
    fn completion(self) -> Completion {
        NonBlocking.completion()
    }

    fn waiting_requests(self, config: &NbtcConfig) -> usize {
        NonBlocking.waiting_requests(config)
    }

    fn miss_queue(self, config: &NbtcConfig) -> MissQueue {
        NonBlocking.miss_queue(config)
    }

    fn may_forget_sent(self) -> bool {
        NonBlocking.may_forget_sent()
    }

    fn blocks(self) -> bool {
        true
    }

    fn serial(self) -> bool {
        self.serial
    }
}
