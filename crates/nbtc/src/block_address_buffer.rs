//! The Block Address Buffer (BAB): the missing blocks, in miss order
//! (a FIFO), each sent to memory once: a later miss on a block already
//! here is a secondary miss that sends nothing. An entry stays until its
//! block is filled, so that a miss during the fetch still finds it. With
//! [`crate::NbtcConfig::bab_merges_sent`] false the unit's lookup ignores
//! sent entries ([`MissQueue::contains_unsent`]): a miss during the fetch
//! takes a second entry ([`MissQueue::push_again`]) and the block is sent
//! again, while the sent entry still holds its room until its fill.
//!
//! It is the shared [`MissQueue`] with no limit on targets: the Waiting
//! List Buffer, not the BAB, holds the requests waiting for a block.

use gfxcache_mem::{MissQueue, UNLIMITED_TARGETS};

pub type BlockAddressBuffer = MissQueue;

/// A Block Address Buffer of `entries` blocks.
pub fn block_address_buffer(entries: usize) -> BlockAddressBuffer {
    MissQueue::new(entries, UNLIMITED_TARGETS)
}
