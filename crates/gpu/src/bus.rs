//! The bus between the texture caches and the shared L2 (Section IV-A: in
//! the baseline "each Fragment Processor can only access its private
//! Texture Cache, which is connected by a common bus to the shared L2
//! cache"). One bus, shared by every texture cache and the L2, is a
//! resource like a mesh link: a transfer holds it for its beats, and a
//! transfer that finds it busy waits. Everything here is ours, each a knob
//! of [`BusConfig`] (DTM-NUCA's study sets them from its `timing` table):
//!
//! - A transfer asks for the bus at cycle t and is granted after
//!   `bus_arbitration_cycles` (1); arbitration is pipelined, on the bus's
//!   own request and grant lines, so it overlaps the transfer before and
//!   holds nothing.
//! - A request (an address) holds the bus for one beat; a block's reply
//!   for block bytes x 8 / `bus_width_bits` beats (4 of 128 bits for 64
//!   bytes), one beat a cycle. No header beat: the requester's id and the
//!   address travel on the bus's address and tag lines beside the data, as
//!   on a bus with separate address and data lines (AMBA's ID signals),
//!   so a reply is its data. Unloaded, a request takes 1 + 1 = 2 cycles and
//!   a reply 1 + 4 = 5, the fixed latencies this model replaces.
//! - With `bus_occupancy` (the default) a granted transfer takes the first
//!   run of free cycles at or after its grant on a [`Calendar`]: first
//!   come, first served by the cycle it asks. The replay serves accesses
//!   in the fragment processors' clock order, not always in the order
//!   they reach the bus, so, as on the mesh's links, a transfer never
//!   displaces one already placed: it waits only for transfers placed
//!   before it that hold the cycles it wants. Two asking for the same
//!   cycle are served in the replay's order (in clock order the access
//!   issued first, ties to the lower fragment processor; in trace order
//!   the input's). Without occupancy every transfer takes its fixed time
//!   and none waits (the beats it would carry are still counted).
//! - `bus_channels`: one bus for requests and replies alike (the default,
//!   as "a common bus" reads), or a request channel and a reply channel,
//!   each its own calendar.
//!
//! Not modelled: bursts split or interleaved (a reply holds the bus for
//! all its beats), priorities between requests and replies, write-backs
//! (the texture caches are read-only), the frame's other L2 traffic,
//! which takes no bank or bus cycles ([`crate::l2`]).

use serde::{Deserialize, Serialize};

use crate::calendar::Calendar;

/// The bus's knobs (all ours; DTM-NUCA's study's defaults in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusConfig {
    /// A transfer waits for the transfers holding the cycles it wants
    /// (true); false: every transfer takes its unloaded time.
    pub occupancy: bool,
    /// Cycles from asking for the bus to the grant (1).
    pub arbitration_cycles: u32,
    /// Bits a beat carries (128).
    pub width_bits: u32,
    /// One bus for requests and replies, or a channel each (shared).
    pub channels: BusChannels,
}

impl Default for BusConfig {
    fn default() -> BusConfig {
        BusConfig {
            occupancy: true,
            arbitration_cycles: 1,
            width_bits: 128,
            channels: BusChannels::Shared,
        }
    }
}

/// Whether requests and replies share the bus. (ours): shared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BusChannels {
    /// One bus carries requests and replies: "a common bus" (Section
    /// IV-A).
    #[default]
    Shared,
    /// A request channel and a reply channel, each busy on its own.
    Split,
}

impl BusChannels {
    pub fn name(self) -> &'static str {
        match self {
            BusChannels::Shared => "shared",
            BusChannels::Split => "split",
        }
    }

    /// How many channels carry the transfers.
    pub fn count(self) -> u32 {
        match self {
            BusChannels::Shared => 1,
            BusChannels::Split => 2,
        }
    }
}

/// What the bus carried. Transfers and beats count with or without
/// occupancy; waits only with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusStats {
    /// Requests and replies carried.
    pub transfers: u64,
    /// Beats carried, one a cycle: the cycles the bus was held (all
    /// channels together), and what the energy model prices per beat.
    pub busy_cycles: u64,
    /// Channels the beats were carried on (1 shared, 2 split).
    pub channels: u32,
    /// Cycles transfers waited for the bus after their grant, all
    /// together, and the longest one waited.
    pub queue_cycles: u64,
    pub max_wait_cycles: u64,
    /// Reservations held to a calendar's window start (see
    /// [`crate::calendar`]).
    pub late_reservations: u64,
}

impl BusStats {
    /// The share of the frame's `cycles` the bus was held, channels
    /// together ((busy / channels) / cycles); at most 1 with occupancy.
    /// Without occupancy, above 1 says the fixed latencies asked more of
    /// the bus than it can carry.
    pub fn utilisation(&self, cycles: u64) -> f64 {
        let capacity = cycles as f64 * f64::from(self.channels.max(1));
        if capacity == 0.0 {
            0.0
        } else {
            self.busy_cycles as f64 / capacity
        }
    }

    /// Mean cycles a transfer waited for the bus.
    pub fn mean_wait_cycles(&self) -> f64 {
        match self.transfers {
            0 => 0.0,
            n => self.queue_cycles as f64 / n as f64,
        }
    }
}

/// The bus of one organization's machine.
#[derive(Clone, Debug)]
pub struct Bus {
    arbitration: u64,
    request_beats: u32,
    reply_beats: u32,
    /// One calendar per channel (requests use the first, replies the
    /// last); empty without occupancy.
    channels: Vec<Calendar>,
    stats: BusStats,
}

impl Bus {
    /// The bus of `config` carrying blocks of `block_bytes`.
    pub fn new(config: &BusConfig, block_bytes: u32) -> Bus {
        let count = config.channels.count();
        Bus {
            arbitration: u64::from(config.arbitration_cycles),
            request_beats: 1,
            reply_beats: reply_beats(block_bytes, config.width_bits),
            channels: match config.occupancy {
                true => vec![Calendar::new(); count as usize],
                false => Vec::new(),
            },
            stats: BusStats {
                channels: count,
                ..BusStats::default()
            },
        }
    }

    /// A request asking for the bus at cycle `t`; returns when it has
    /// reached the L2.
    #[inline]
    pub fn request(&mut self, t: u64) -> u64 {
        self.transfer(0, t, self.request_beats)
    }

    /// A block's reply asking for the bus at cycle `t`; returns when it has
    /// reached the texture cache.
    #[inline]
    pub fn reply(&mut self, t: u64) -> u64 {
        let last = self.channels.len().saturating_sub(1);
        self.transfer(last, t, self.reply_beats)
    }

    #[inline]
    fn transfer(&mut self, channel: usize, t: u64, beats: u32) -> u64 {
        let granted = t + self.arbitration;
        let start = match self.channels.get_mut(channel) {
            None => granted,
            Some(calendar) => {
                let late = calendar.late();
                let start = calendar.reserve(granted, beats);
                self.stats.late_reservations += calendar.late() - late;
                start
            }
        };
        let wait = start.saturating_sub(granted);
        let s = &mut self.stats;
        s.transfers += 1;
        s.busy_cycles += u64::from(beats);
        s.queue_cycles += wait;
        s.max_wait_cycles = s.max_wait_cycles.max(wait);
        start + u64::from(beats)
    }

    /// What the bus carried so far.
    pub fn stats(&self) -> &BusStats {
        &self.stats
    }
}

/// Beats of a block's reply: block bytes x 8 / width bits, rounded up.
pub fn reply_beats(block_bytes: u32, width_bits: u32) -> u32 {
    (u64::from(block_bytes) * 8).div_ceil(u64::from(width_bits.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bus(occupancy: bool, channels: BusChannels) -> Bus {
        let config = BusConfig {
            occupancy,
            channels,
            ..BusConfig::default()
        };
        Bus::new(&config, 64)
    }

    #[test]
    fn unloaded_a_request_takes_2_cycles_and_a_reply_5() {
        for occupancy in [true, false] {
            let mut b = bus(occupancy, BusChannels::Shared);
            assert_eq!(b.request(10), 12);
            assert_eq!(b.reply(100), 105);
            let s = b.stats();
            assert_eq!((s.transfers, s.busy_cycles, s.queue_cycles), (2, 5, 0));
        }
        assert_eq!(reply_beats(64, 128), 4);
        assert_eq!(reply_beats(64, 96), 6);
        assert_eq!(reply_beats(64, 1024), 1);
    }

    /// Three replies asking at 10: granted at 11, the first holds 11-14,
    /// the second waits 4 cycles (15-18), the third 8 (19-22).
    #[test]
    fn replies_queue_behind_each_other() {
        let mut b = bus(true, BusChannels::Shared);
        assert_eq!([b.reply(10), b.reply(10), b.reply(10)], [15, 19, 23]);
        let s = b.stats();
        assert_eq!(
            (s.queue_cycles, s.max_wait_cycles, s.busy_cycles),
            (12, 8, 12)
        );
        assert!((s.mean_wait_cycles() - 4.0).abs() < 1e-12);
        // Without occupancy none waits.
        let mut free = bus(false, BusChannels::Shared);
        assert_eq!([free.reply(10), free.reply(10), free.reply(10)], [15; 3]);
        assert_eq!(free.stats().queue_cycles, 0);
        assert!(free.stats().utilisation(10) > 1.0);
    }

    /// A transfer placed later in the replay but asking earlier takes a
    /// free gap before the ones placed, and waits only for the ones that
    /// hold the cycles it wants.
    #[test]
    fn out_of_order_arrivals_wait_only_for_cycles_taken() {
        let mut b = bus(true, BusChannels::Shared);
        assert_eq!(b.reply(100), 105); // 101-104
        assert_eq!(b.request(50), 52); // 51: free, no wait behind 100
        assert_eq!(b.reply(94), 99); // 95-98: fits before 101
        assert_eq!(b.reply(96), 109); // 97-100 taken in part: 105-108
        assert_eq!(b.request(99), 101); // 100 is free between them
        let s = b.stats();
        assert_eq!(s.max_wait_cycles, 8);
    }

    #[test]
    fn split_channels_carry_requests_beside_replies() {
        let mut shared = bus(true, BusChannels::Shared);
        assert_eq!(shared.reply(10), 15); // 11-14
        assert_eq!(shared.request(11), 16); // 12 taken: 15
        let mut split = bus(true, BusChannels::Split);
        assert_eq!(split.reply(10), 15);
        assert_eq!(split.request(11), 13);
        assert_eq!(split.stats().channels, 2);
        assert!((split.stats().utilisation(10) - 5.0 / 20.0).abs() < 1e-12);
    }
}
