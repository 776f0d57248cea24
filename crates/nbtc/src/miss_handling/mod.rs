//! How a texture unit handles a miss: one scheme a file, each a small
//! `Copy` type with the [`MissHandling`] interface, and one line of
//! `dispatch!` from the configuration's [`Mode`](crate::config::Mode) (what a configuration
//! file and the command line name) to it.
//!
//! The unit ([`crate::TextureUnit`]) is the same for every scheme: the
//! requests in flight (the Retry Buffer, or a fragment FIFO), the requests
//! waiting for blocks (the Waiting List Buffer), the missing blocks in
//! flight (a [`MissQueue`]: the Block Address Buffer, MSHRs or a reorder
//! buffer) and the MUX before the filter. A scheme says how big each is,
//! which results wait for older ones, and the few places where it
//! decides: whether a miss stops the unit, whether blocks go out one at a
//! time, whether a miss takes its block's tag at once, whether a block
//! sent is forgotten by later misses, what else refuses a request, and
//! whether a request waiting for a block in flight is one of its targets.
//!
//! A new scheme: a file here with its type and `impl MissHandling`, a
//! variant of [`Mode`](crate::config::Mode) with its parameters, and its line in `dispatch!`
//! (and, for the command line, its name in `gfxcache nbtc --modes`).

mod blocking;
mod mshr;
mod non_blocking;
mod prefetching;

pub use blocking::Blocking;
pub use mshr::Mshr;
pub use non_blocking::NonBlocking;
pub use prefetching::Prefetching;

use gfxcache_mem::MissQueue;

use crate::config::NbtcConfig;
use crate::retry_buffer::Completion;

/// What a miss-handling scheme decides. Each call is a few instructions
/// on a `Copy` value built from the [`Mode`](crate::config::Mode) by `dispatch!`, so the
/// unit pays a `match`, as it would on the mode, and no dynamic call.
pub trait MissHandling: Copy {
    /// Its short name in reports (`btc`, `nbtc`, ...).
    fn name(self) -> &'static str;

    /// Requests accepted and not yet returned, at most: the Retry Buffer
    /// by default.
    fn requests_in_flight(self, config: &NbtcConfig) -> usize {
        config.rb_entries as usize
    }

    /// Which results wait for older ones.
    fn completion(self) -> Completion;

    /// Requests waiting for a block, at most.
    fn waiting_requests(self, config: &NbtcConfig) -> usize;

    /// The missing blocks in flight.
    fn miss_queue(self, config: &NbtcConfig) -> MissQueue;

    /// Its own sizes, by their field in a configuration (each 1 to 4096
    /// entries), and the one that bounds the blocks in flight, which must
    /// hold a request's 8 missing blocks.
    fn sizes(self) -> Vec<(&'static str, u32)> {
        Vec::new()
    }
    fn blocks_in_flight(self) -> Option<(&'static str, u32)> {
        None
    }

    /// The unit takes no lookup while a request waits for a block.
    fn blocks(self) -> bool {
        false
    }

    /// Blocks are sent one at a time, none while one is on its way.
    fn serial(self) -> bool {
        false
    }

    /// A miss takes its block's tag at once: a later lookup finds the
    /// tag and waits for the same fill, which then only wakes the
    /// requests waiting for it.
    fn tags_at_miss(self) -> bool {
        false
    }

    /// With [`NbtcConfig::bab_merges_sent`] false, a miss ignores a block
    /// already sent and sends it again (the Block Address Buffer's
    /// reading; the others always merge).
    fn may_forget_sent(self) -> bool {
        false
    }

    /// Whether a request whose tag check found `waiting` blocks already
    /// in flight and `new` blocks to send is refused for the scheme's own
    /// reason (its queue or FIFO full), beyond the unit's buffers.
    fn refuses(self, _queue: &MissQueue, _waiting: &[u64], _new: usize) -> bool {
        false
    }

    /// A request waiting for a block in flight is one of that block's
    /// targets, counted against its entry (MSHRs).
    fn counts_targets(self) -> bool {
        false
    }
}

/// `$body` with `$h` bound to the scheme of `$mode`: the one place a
/// [`Mode`](crate::config::Mode) becomes its [`MissHandling`], a line a scheme.
macro_rules! dispatch {
    ($mode:expr, $h:ident => $body:expr) => {{
        use $crate::config::Mode;
        use $crate::miss_handling::*;
        match $mode {
            Mode::Blocking { serial } => {
                let $h = Blocking { serial };
                $body
            }
            Mode::Nbtc => {
                let $h = NonBlocking;
                $body
            }
            Mode::Mshr { mshrs, targets } => {
                let $h = Mshr { mshrs, targets };
                $body
            }
            Mode::Prefetching {
                fragment_fifo,
                request_fifo,
                rob,
            } => {
                let $h = Prefetching {
                    fragment_fifo,
                    request_fifo,
                    rob,
                };
                $body
            }
        }
    }};
}
pub(crate) use dispatch;
