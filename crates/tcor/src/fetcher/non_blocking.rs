//! The non-blocking Tile Fetcher, cycle by cycle (the steps are in
//! [`super`]'s doc). Cycles in which nothing can change (every request in
//! flight, the front end waiting for a block or a FIFO entry) are skipped
//! to the next event; what they count (stalls, requests in flight) is
//! counted for all of them at once.

use std::collections::VecDeque;

use gfxcache_gpu::DramBanks;
use gfxcache_mem::{MissQueue, MissRefused};

use super::{counts, FetchTrace, FetcherStats, FetcherTiming};
use crate::layout::BLOCK_BYTES;

/// A primitive in the temporary FIFO.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    /// Registered reads whose block has not returned.
    pending: u32,
    /// Every read registered.
    registered: bool,
    /// The first cycle it may be output: one after its issue and one after
    /// its last block returned.
    ready: u64,
}

/// Why the front end waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Fifo,
    Mshr,
    Target,
}

impl From<MissRefused> for Wait {
    fn from(r: MissRefused) -> Wait {
        match r {
            MissRefused::NoEntry => Wait::Mshr,
            MissRefused::NoTarget => Wait::Target,
        }
    }
}

struct Fetcher<'a> {
    trace: &'a FetchTrace,
    timing: &'a FetcherTiming,
    mshrs: MissQueue,
    /// Each registered block not yet sent, and whether its first read hit
    /// in the L2 (which gives its latency).
    unsent: Vec<(u64, bool)>,
    /// The DRAM's banks and buses, if the misses wait for them.
    dram: Option<DramBanks>,
    /// Registered reads waiting for their block: (block, primitive).
    waiting: Vec<(u64, usize)>,
    fifo: VecDeque<InFlight>,
    /// The primitive at the head of `fifo`.
    oldest: usize,
    /// The next primitive to issue.
    next: usize,
    /// The primitive whose reads are being registered, and its next read.
    registering: Option<(usize, usize)>,
    last_output: u64,
    stats: FetcherStats,
}

pub(super) fn time(
    trace: &FetchTrace,
    timing: &FetcherTiming,
    mut output: impl FnMut(usize, u64),
) -> FetcherStats {
    let mut f = Fetcher {
        trace,
        timing,
        mshrs: MissQueue::new(timing.mshrs as usize, timing.targets_per_mshr),
        unsent: Vec::with_capacity(timing.mshrs as usize),
        dram: timing.dram_banks.as_ref().map(DramBanks::new),
        waiting: Vec::new(),
        fifo: VecDeque::with_capacity(timing.fifo_entries.min(1024) as usize),
        oldest: 0,
        next: 0,
        registering: None,
        last_output: 0,
        stats: counts(trace),
    };
    let mut now = 0;
    loop {
        f.arrivals(now);
        if f.output(now) {
            output(f.oldest - 1, now);
        }
        let (progress, wait) = f.front_end(now);
        f.send(now);
        if f.done() {
            break;
        }
        let at = f.next_event(now, wait.is_none());
        f.account(now, at, progress, wait);
        now = at;
    }
    f.stats.cycles = f.last_output;
    f.stats.with_ratios()
}

impl Fetcher<'_> {
    fn done(&self) -> bool {
        self.next == self.trace.primitives() && self.registering.is_none() && self.fifo.is_empty()
    }

    /// Step 1: blocks due at `now` return to every read waiting for them.
    fn arrivals(&mut self, now: u64) {
        while let Some(block) = self.mshrs.take_arrived(now) {
            let (fifo, oldest) = (&mut self.fifo, self.oldest);
            self.waiting.retain(|&(b, p)| {
                if b != block {
                    return true;
                }
                let f = &mut fifo[p - oldest];
                f.pending -= 1;
                f.ready = f.ready.max(now + 1);
                false
            });
        }
    }

    /// Step 2: the oldest primitive leaves when complete; whether it did.
    fn output(&mut self, now: u64) -> bool {
        let Some(h) = self.fifo.front() else {
            return false;
        };
        if !(h.registered && h.pending == 0 && h.ready <= now) {
            return false;
        }
        self.fifo.pop_front();
        self.oldest += 1;
        self.last_output = now;
        true
    }

    /// Step 3: issues the next primitive or registers more reads of the
    /// current one. Returns whether it did anything, and what it waits
    /// for if it has work left it cannot do next cycle as things stand.
    fn front_end(&mut self, now: u64) -> (bool, Option<Wait>) {
        let mut progress = false;
        if self.registering.is_none() {
            if self.next == self.trace.primitives() {
                return (false, None);
            }
            if self.fifo.len() == self.timing.fifo_entries as usize {
                return (false, Some(Wait::Fifo));
            }
            self.fifo.push_back(InFlight {
                pending: 0,
                registered: false,
                ready: now + 1,
            });
            self.registering = Some((self.next, 0));
            self.next += 1;
            progress = true;
        }
        let (p, mut i) = self.registering.expect("a primitive to register");
        let reads = self.trace.primitive(p);
        let slot = p - self.oldest;
        while let Some(r) = reads.get(i) {
            match self.mshrs.try_miss(r.block) {
                Ok(true) => self.unsent.push((r.block, r.l2_hit)),
                Ok(false) => self.stats.merged_reads += 1,
                Err(refused) => {
                    self.registering = Some((p, i));
                    return (progress, Some(refused.into()));
                }
            }
            self.waiting.push((r.block, p));
            self.fifo[slot].pending += 1;
            progress = true;
            i += 1;
        }
        self.fifo[slot].registered = true;
        self.registering = None;
        // The next issue is in a later cycle, so the front end has work
        // next cycle only if it may issue then.
        let full = self.fifo.len() == self.timing.fifo_entries as usize;
        let wait = (full && self.next < self.trace.primitives()).then_some(Wait::Fifo);
        (progress, wait)
    }

    /// Step 4: the oldest unsent block goes to the L2, and on a miss to
    /// DRAM `l2_cycles` later.
    fn send(&mut self, now: u64) {
        let (unsent, dram, timing) = (&mut self.unsent, &mut self.dram, self.timing);
        let mut waited = 0;
        let sent = self.mshrs.send_oldest(now, |block| {
            let k = unsent
                .iter()
                .position(|&(b, _)| b == block)
                .expect("every registered block has its latency");
            let l2_hit = unsent.swap_remove(k).1;
            if let (false, Some(dram)) = (l2_hit, dram.as_mut()) {
                let at = now + u64::from(timing.l2_cycles);
                waited = dram.read(block, BLOCK_BYTES as u32, at);
            }
            timing.read_cycles(l2_hit) + waited
        });
        self.stats.dram_wait_cycles += waited;
        if sent.is_some() {
            self.stats.l2_requests += 1;
        }
    }

    /// The next cycle at which anything can change.
    fn next_event(&self, now: u64, front_end_can_go: bool) -> u64 {
        let mut at = u64::MAX;
        let has_work = self.registering.is_some() || self.next < self.trace.primitives();
        if self.mshrs.unsent() > 0 || (has_work && front_end_can_go) {
            at = now + 1;
        }
        if let Some(h) = self.fifo.front() {
            if h.registered && h.pending == 0 {
                at = at.min(h.ready.max(now + 1));
            }
        }
        if self.mshrs.in_flight() > 0 {
            at = at.min(self.mshrs.next_arrival());
        }
        debug_assert!(at > now && at != u64::MAX, "the fetcher is stuck at {now}");
        at
    }

    /// Counts the cycles `now..at`: requests in flight, and stalls of a
    /// front end that waits through all of them (through `now` itself only
    /// if it did nothing then).
    fn account(&mut self, now: u64, at: u64, progress: bool, wait: Option<Wait>) {
        let span = at - now;
        let in_flight = self.mshrs.in_flight() as u64;
        self.stats.request_cycles += in_flight * span;
        if in_flight > 0 {
            self.stats.busy_cycles += span;
        }
        let Some(wait) = wait else { return };
        let stalled = span - u64::from(progress);
        match wait {
            Wait::Fifo => self.stats.fifo_stall_cycles += stalled,
            Wait::Mshr => self.stats.mshr_stall_cycles += stalled,
            Wait::Target => self.stats.target_stall_cycles += stalled,
        }
    }
}
