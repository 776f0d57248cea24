//! One pixel processor's texture unit, cycle by cycle: the L1, the Retry
//! Buffer, the Waiting List Buffer, the Block Address Buffer, the MUX in
//! front of the filter, and a fixed-latency memory. The blocking cache
//! (BTC) is the same unit that accepts no lookup while a miss is handled.
//!
//! Each cycle, in order:
//! 1. fills: blocks memory returns this cycle are written to the L1 and
//!    set the ready bits of every waiting WLB entry (and leave the BAB);
//! 2. MUX: the oldest WLB entry whose texels are all ready goes to the
//!    filter (result at + F) and leaves the WLB;
//! 3. completion: the oldest RB entry whose result is ready and has no
//!    older entry of its (x, y) returns to its fragment (one a cycle, ours;
//!    it does not take the processor's cycle);
//! 4. the processor: the oldest fragment not waiting for a result runs an
//!    instruction or issues its request; the lookup checks the tag of
//!    every texel; a request whose texels all hit takes the MUX if step 2
//!    left it free (result at + H + F), one with a miss takes a WLB entry
//!    (ready bits for its hits) and puts its new missing blocks in the
//!    BAB; a refused request stalls the processor, counted by cause;
//! 5. memory: the oldest unsent BAB block is sent (one a cycle; the serial
//!    blocking cache only when nothing is in flight), back at + latency.
//!
//! A stretch of cycles in which no step of the unit can act (no fill,
//! ready entry, completion or send due) and the processor would do the
//! same each cycle (run one fragment's instructions, wait, or see its
//! request refused) is counted at once; the buffers keep the next cycle
//! anything is due, so most cycles also skip their scans.

use crate::block_address_buffer::BlockAddressBuffer;
use crate::config::{MemoryPath, NbtcConfig, MAX_TEXELS};
use crate::error::NbtcError;
use crate::event::{UnitEvent, UnitInput, UnitRequest};
use crate::l1_port::{L1Port, OwnL1, PlacedL1};
use crate::miss_handling::dispatch;
use crate::pixel_processor::PixelProcessor;
use crate::retry_buffer::RetryBuffer;
use crate::stats::UnitStats;
use crate::waiting_list_buffer::{full_mask, WaitingListBuffer};
use gfxcache_gpu::{Machine, Placement, TextureCache};

/// Why the unit refused a request this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    RbFull,
    WlbFull,
    MissQueueFull,
    MuxConflict,
    Blocked,
}

/// A texture unit and its pixel processor on a configuration, from an
/// empty cache: [`TextureUnit::advance`] replays an input as it streams
/// in, [`TextureUnit::run`] a whole one.
pub struct TextureUnit {
    config: NbtcConfig,
    block_shift: u32,
    /// The unit's own L1 and memory path; out while [`TextureUnit::advance_until`] runs on it.
    own: Option<OwnL1>,
    rb: RetryBuffer,
    wlb: WaitingListBuffer,
    bab: BlockAddressBuffer,
    pp: PixelProcessor,
    /// The next cycle.
    now: u64,
    /// Quiet stretches are counted at once (else cycle by cycle).
    skip: bool,
    /// The MUX passed a request to the filter this cycle.
    mux_taken: bool,
    /// Requests accepted so far: their input order.
    seq: u64,
    stats: UnitStats,
    /// On a shared memory: the blocks sent since the driver last took
    /// them, with the cycle each was sent (in order).
    sent: Vec<(u64, u64)>,
    /// Tile ends of its input passed ([`TextureUnit::pass_tile_end`]).
    passed: usize,
}

/// How far [`TextureUnit::advance_until`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Every fragment of a finished input has finished.
    Done,
    /// The unit needs more of the input first.
    NeedsInput,
    /// The unit reached the cycle it was asked to stop at.
    AtHorizon,
    /// Every fragment before the input's next tile end has finished: the
    /// unit waits there until its driver lets it pass
    /// ([`TextureUnit::pass_tile_end`]).
    AtTileEnd,
}

impl TextureUnit {
    pub fn new(config: &NbtcConfig) -> Result<TextureUnit, NbtcError> {
        config.check()?;
        let geom = config.l1_geometry().expect("checked");
        Ok(TextureUnit {
            config: *config,
            block_shift: geom.block_shift(),
            own: Some(OwnL1 {
                cache: TextureCache::new(&geom),
                latency: config.memory_latency,
            }),
            rb: RetryBuffer::new(config.rb_capacity(), config.completion()),
            wlb: WaitingListBuffer::new(config.wlb_capacity()),
            bab: config.miss_queue(),
            pp: PixelProcessor::new(config.fragments_in_flight as usize, config.issue),
            now: 0,
            skip: true,
            mux_taken: false,
            seq: 0,
            stats: UnitStats::default(),
            sent: Vec::new(),
            passed: 0,
        })
    }

    pub fn config(&self) -> &NbtcConfig {
        &self.config
    }

    /// Fills the L1 with the blocks of the byte addresses `warm`, in order
    /// (the last the most recently used), as a cache that ran before
    /// would; before the first [`TextureUnit::advance`].
    pub fn warm(&mut self, warm: &[u64]) {
        let own = self.own.as_mut().expect("the unit's L1 is home");
        for &addr in warm {
            own.cache.fill_unless_present(addr >> self.block_shift);
        }
    }

    /// Replays `events` (one pixel processor's whole input, in order) from
    /// an empty cache and buffers until every fragment has finished.
    pub fn run(&mut self, events: &[UnitEvent]) -> Result<UnitStats, NbtcError> {
        self.run_warm(events, &[])
    }

    /// [`TextureUnit::run`] after [`TextureUnit::warm`] with `warm`.
    pub fn run_warm(&mut self, events: &[UnitEvent], warm: &[u64]) -> Result<UnitStats, NbtcError> {
        self.replay(events, warm, true)
    }

    /// [`TextureUnit::run_warm`] without skipping quiet stretches: the
    /// reference the tests hold the fast path to.
    #[doc(hidden)]
    pub fn run_every_cycle(
        &mut self,
        events: &[UnitEvent],
        warm: &[u64],
    ) -> Result<UnitStats, NbtcError> {
        self.replay(events, warm, false)
    }

    fn replay(
        &mut self,
        events: &[UnitEvent],
        warm: &[u64],
        skip: bool,
    ) -> Result<UnitStats, NbtcError> {
        let input = UnitInput::whole(events)?;
        *self = TextureUnit::new(&self.config)?;
        self.skip = skip;
        self.warm(warm);
        let done = self.advance(&input);
        debug_assert!(done, "a whole input runs to its end");
        Ok(self.stats())
    }

    /// The counts so far (of the whole run once [`TextureUnit::advance`]
    /// said it is done).
    pub fn stats(&self) -> UnitStats {
        let mut s = self.stats;
        s.cycles = self.now;
        s.instructions = self.pp.instructions();
        s.traffic_bytes = s.memory_requests * u64::from(self.config.block_bytes);
        s
    }

    /// The next cycle the unit will run.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The unit, waiting at its input's next tile end
    /// ([`Progress::AtTileEnd`]), passes it at cycle `at` (no earlier than
    /// [`TextureUnit::now`]): on a machine whose tiles synchronise its
    /// fragment processors, the cycle the last of them finished the tile.
    /// The cycles until then are tile wait.
    pub fn pass_tile_end(&mut self, at: u64) {
        debug_assert!(
            at >= self.now,
            "a tile end passed before the unit reached it"
        );
        let wait = at.saturating_sub(self.now);
        self.sample(wait);
        self.stats.tile_wait_cycles += wait;
        self.now += wait;
        self.passed += 1;
    }

    /// Whether every fragment before the input's next tile end, the
    /// `tile_end`-th fragment, has finished and the unit holds nothing in
    /// its buffers.
    fn at_tile_end(&self, tile_end: usize) -> bool {
        tile_end == self.pp.admitted()
            && self.pp.in_flight() == 0
            && self.rb.is_empty()
            && self.wlb.is_empty()
            && self.bab.is_empty()
    }

    /// The earliest event and fragment of its input the unit still needs:
    /// the driver may discard what comes before.
    pub fn first_needed(&self) -> (usize, usize) {
        (self.pp.first_needed_event(), self.pp.admitted())
    }

    /// Runs on `input` as far as it can: `true` once every fragment of a
    /// finished input has finished, `false` when the unit needs more of
    /// the input first. Runs the same cycles however the input is cut.
    pub fn advance(&mut self, input: &UnitInput) -> bool {
        self.advance_until(input, u64::MAX) == Progress::Done
    }

    /// [`TextureUnit::advance`], stopping at cycle `horizon` at the
    /// latest: a driver of units that share a memory runs them in step,
    /// a window at a time.
    pub fn advance_until(&mut self, input: &UnitInput, horizon: u64) -> Progress {
        let mut own = self.own.take().expect("the unit's L1 is home");
        let progress = self.advance_on(input, horizon, &mut own);
        self.own = Some(own);
        progress
    }

    /// [`TextureUnit::advance_until`] with fragment processor `fp`'s
    /// texture cache in the placement on `machine` as the L1, and the
    /// machine as its memory ([`PlacedL1`]); the unit's own L1 and memory
    /// latency are not used. A driver of the machine's units runs them in
    /// step, a window at a time.
    pub fn advance_placed<P: Placement>(
        &mut self,
        input: &UnitInput,
        horizon: u64,
        machine: &mut Machine<P>,
        fp: usize,
    ) -> Progress {
        self.advance_on(input, horizon, &mut PlacedL1 { machine, fp })
    }

    fn advance_on<L: L1Port>(&mut self, input: &UnitInput, horizon: u64, l1: &mut L) -> Progress {
        let in_flight = self.config.fragments_in_flight as usize;
        // The input and the tile ends passed stay as they are while the
        // unit runs.
        let limit = input.admissible(self.passed);
        let tile_end = input.tile_end_at(self.passed);
        loop {
            if !input.can_advance(self.pp.admitted(), in_flight, self.passed) {
                return Progress::NeedsInput;
            }
            self.pp.refill(input, limit);
            if tile_end.is_some_and(|end| self.at_tile_end(end)) {
                return Progress::AtTileEnd;
            }
            // (A BAB that forgets sent blocks may still wait for a second
            // fetch nobody needs: the run ends when every entry is freed.)
            if self.pp.is_done(input)
                && self.rb.is_empty()
                && self.wlb.is_empty()
                && self.bab.is_empty()
            {
                return Progress::Done;
            }
            let now = self.now;
            if now >= horizon {
                return Progress::AtHorizon;
            }
            if self.skip {
                let span = self.quiet_stretch(now, input, horizon - now, l1);
                if span > 0 {
                    self.sample(span);
                    self.now += span;
                    continue;
                }
            }
            self.fill(now, l1);
            self.mux(now);
            if let Some(fragment) = self.rb.complete(now) {
                self.pp.deliver(fragment);
                self.pp.refill(input, limit);
            }
            self.processor_cycle(now, input, l1);
            self.send(now, l1);
            self.sample(1);
            self.now += 1;
        }
    }

    fn sample(&mut self, cycles: u64) {
        self.stats.rb.sample(self.rb.len(), cycles);
        self.stats.wlb.sample(self.wlb.len(), cycles);
        self.stats.bab.sample(self.bab.len(), cycles);
    }

    /// The first cycle from `now` at which a step of the unit may do
    /// something: a fill, a MUX pass, a completion or a send.
    fn next_unit_event(&self, now: u64) -> u64 {
        let serial = dispatch!(self.config.mode, h => h.serial());
        let sendable = self.bab.unsent() > 0 && (!serial || self.bab.in_flight() == 0);
        if sendable || self.wlb.has_ready() {
            return now;
        }
        self.bab
            .next_arrival()
            .min(self.rb.next_completion())
            .max(now)
    }

    /// Cycles from `now` in which the unit does nothing and the processor
    /// does the same thing each cycle (runs one fragment's instructions,
    /// waits, or has a request refused for a reason only the unit can
    /// lift), done at once and counted; 0 if `now` is not quiet. The
    /// cycle-by-cycle loop gives the same counts (tested).
    fn quiet_stretch<L: L1Port>(&mut self, now: u64, input: &UnitInput, most: u64, l1: &L) -> u64 {
        let quiet = self.next_unit_event(now);
        if quiet == now {
            return 0;
        }
        let span = (quiet - now).min(most);
        let pp = &mut self.pp;
        let (slot, any) = pp.pick();
        let Some(slot) = slot else {
            if any {
                self.stats.ps_stall_cycles += span;
            } else {
                self.stats.drain_cycles += span;
            }
            return span;
        };
        let f = pp.fragment(slot);
        if f.alu_left > 0 {
            let run = f.alu_left.min(span);
            pp.run_many(slot, run);
            self.stats.run_cycles += run;
            return run;
        }
        let UnitEvent::Request(request) = input.event(f.pos) else {
            unreachable!("a fragment at its end is retired before it is picked")
        };
        // No WLB entry is ready, so this cycle's MUX would pass nothing.
        self.mux_taken = false;
        match self.classify(request, l1) {
            Ok(_) => 0,
            Err(refusal) => {
                *self.refusal_count(refusal) += span;
                span
            }
        }
    }

    fn refusal_count(&mut self, refusal: Refusal) -> &mut u64 {
        let s = &mut self.stats;
        match refusal {
            Refusal::RbFull => &mut s.rb_full_cycles,
            Refusal::WlbFull => &mut s.nbtc_stall_cycles,
            Refusal::MissQueueFull => &mut s.miss_queue_full_cycles,
            Refusal::MuxConflict => &mut s.mux_conflict_cycles,
            Refusal::Blocked => &mut s.blocked_cycles,
        }
    }

    fn fill<L: L1Port>(&mut self, now: u64, l1: &mut L) {
        // The prefetching cache took the block's tag at the miss (and a
        // later miss may have taken it since): the fill only wakes the
        // requests waiting for it.
        let tag_taken = dispatch!(self.config.mode, h => h.tags_at_miss());
        while let Some(block) = self.bab.take_arrived(now) {
            // (On a placement the prefetching cache's tag, too, is taken
            // when the block returns.)
            if !tag_taken || L::PLACEMENT {
                l1.fill_at_return(block, now);
            }
            self.wlb.fill(block);
        }
    }

    fn mux(&mut self, now: u64) {
        self.mux_taken = false;
        if let Some(rb_slot) = self.wlb.take_oldest_ready() {
            self.rb.set_ready(rb_slot, now + self.config.filter_latency);
            self.mux_taken = true;
        }
    }

    fn send<L: L1Port>(&mut self, now: u64, l1: &mut L) {
        let serial = dispatch!(self.config.mode, h => h.serial());
        if serial && self.bab.in_flight() > 0 {
            return;
        }
        if let Some(block) = self.bab.send_oldest(now, |block| l1.send(block, now) - now) {
            self.stats.memory_requests += 1;
            if self.config.memory != MemoryPath::Private {
                self.sent.push((now, block));
            }
        }
    }

    /// The blocks sent since the last call, each with the cycle it was
    /// sent, oldest first (only on a shared memory); the driver gives
    /// their waits back through [`TextureUnit::delay_sent`].
    pub fn take_sent(&mut self) -> std::vec::Drain<'_, (u64, u64)> {
        self.sent.drain(..)
    }

    /// `block`, sent at cycle `sent`, returns `by` cycles after its
    /// latency: it waited for a shared memory. The driver calls this
    /// before the unit reaches the block's return.
    pub fn delay_sent(&mut self, block: u64, sent: u64, by: u64) {
        let due = sent + self.config.memory_latency;
        debug_assert!(due >= self.now, "a block delayed after its return");
        let found = self.bab.delay(block, due, by);
        debug_assert!(found, "block {block} sent at {sent} is not on its way");
        self.stats.memory_wait_cycles += by;
    }

    /// The block size's bits (a block number shifted left by them is its
    /// address).
    pub fn block_shift(&self) -> u32 {
        self.block_shift
    }

    /// The processor's cycle: an instruction, a request, or a stall.
    fn processor_cycle<L: L1Port>(&mut self, now: u64, input: &UnitInput, l1: &mut L) {
        let s = &mut self.stats;
        let (slot, any) = self.pp.pick();
        let Some(slot) = slot else {
            if any {
                s.ps_stall_cycles += 1;
            } else {
                s.drain_cycles += 1;
            }
            return;
        };
        let f = self.pp.fragment(slot);
        if f.alu_left > 0 {
            self.pp.run_one(slot);
            s.run_cycles += 1;
            return;
        }
        let UnitEvent::Request(request) = input.event(f.pos) else {
            unreachable!("a fragment at its end is retired before it is picked")
        };
        match self.lookup(request, now, slot, l1) {
            Ok(()) => {
                self.pp.issued(slot, input);
                self.stats.issue_cycles += 1;
            }
            Err(refusal) => *self.refusal_count(refusal) += 1,
        }
    }

    /// The BAB forgets a block once it is sent (see
    /// [`NbtcConfig::bab_merges_sent`]).
    fn forgets_sent(&self) -> bool {
        !self.config.bab_merges_sent && dispatch!(self.config.mode, h => h.may_forget_sent())
    }

    /// Memory latency 0 on the unit's own memory path: the ideal memory
    /// Igehy et al. measure against, a missing block filled at its lookup
    /// with no send limit, so every design takes the same cycles. (On the
    /// GPU machine the machine's latencies hold.)
    fn ideal_memory<L: L1Port>(&self) -> bool {
        !L::PLACEMENT && self.config.memory_latency == 0
    }

    /// Whether a miss on `block` finds it requested already.
    fn in_miss_queue(&self, block: u64) -> bool {
        if self.forgets_sent() {
            self.bab.contains_unsent(block)
        } else {
            self.bab.contains(block)
        }
    }

    /// The tag check of every texel of `r` and whether the unit can take
    /// it this cycle; changes nothing.
    fn classify<L: L1Port>(&self, r: &UnitRequest, l1: &L) -> Result<Lookup, Refusal> {
        let mode = self.config.mode;
        if dispatch!(mode, h => h.blocks()) && !self.wlb.is_empty() {
            return Err(Refusal::Blocked);
        }
        // Refused whatever the tags say: no need to look.
        if self.rb.is_full() {
            return Err(Refusal::RbFull);
        }
        let tag_at_miss = dispatch!(mode, h => h.tags_at_miss());
        let mut l = Lookup {
            blocks: [0; MAX_TEXELS],
            ready: 0,
            hits: 0,
            new: [0; MAX_TEXELS],
            new_len: 0,
            waiting: [0; MAX_TEXELS],
            waiting_len: 0,
        };
        for (i, &addr) in r.addresses().iter().enumerate() {
            let block = addr >> self.block_shift;
            l.blocks[i] = block;
            let tag = l1.contains(block);
            // The prefetching cache's tag, and a placement's, may name a
            // block still on its way.
            let early_tag = tag_at_miss || L::PLACEMENT;
            if tag && !(early_tag && self.bab.contains(block)) {
                l.ready |= 1 << i;
                l.hits += 1;
            } else if l.new[..l.new_len].contains(&block)
                || l.waiting[..l.waiting_len].contains(&block)
            {
                // Counted once per request.
                continue;
            } else if tag || self.in_miss_queue(block) {
                l.waiting[l.waiting_len] = block;
                l.waiting_len += 1;
            } else {
                l.new[l.new_len] = block;
                l.new_len += 1;
            }
        }
        // An ideal memory fills a missing block at its lookup: every
        // request goes the way of an all-hit one.
        let all_hit = l.ready == full_mask(r.len) || self.ideal_memory::<L>();
        if all_hit && self.mux_taken {
            return Err(Refusal::MuxConflict);
        }
        if all_hit {
            return Ok(l);
        }
        if self.wlb.is_full() {
            return Err(Refusal::WlbFull);
        }
        if self.bab.free() < l.new_len {
            return Err(Refusal::MissQueueFull);
        }
        let waiting = &l.waiting[..l.waiting_len];
        if dispatch!(mode, h => h.refuses(&self.bab, waiting, l.new_len)) {
            return Err(Refusal::MissQueueFull);
        }
        Ok(l)
    }

    /// `r`'s way through the unit if the unit takes it.
    fn lookup<L: L1Port>(
        &mut self,
        r: &UnitRequest,
        now: u64,
        fragment: u32,
        l1: &mut L,
    ) -> Result<(), Refusal> {
        let l = self.classify(r, l1)?;
        let len = r.len as usize;
        let ideal = self.ideal_memory::<L>();
        let all_hit = l.ready == full_mask(r.len) || ideal;
        let seq = self.seq;
        self.seq += 1;
        let rb_slot = self
            .rb
            .allocate(r.x, r.y, fragment)
            .expect("checked not full");
        let s = &mut self.stats;
        s.requests += 1;
        s.texel_lookups += len as u64;
        let hits = u64::from(l.hits);
        s.hits += hits;
        s.primary_misses += l.new_len as u64;
        s.secondary_misses += len as u64 - hits - l.new_len as u64;
        for (i, &block) in l.blocks[..len].iter().enumerate() {
            // A placement counts a request's access to a block once, as
            // DTM-NUCA's texture accesses are a request's blocks.
            let again = L::PLACEMENT && l.blocks[..i].contains(&block);
            if l.ready & (1 << i) != 0 && !again {
                l1.hit(block, now);
            }
        }
        // Once per request, as a hit is.
        for &block in &l.waiting[..l.waiting_len] {
            l1.merged(block, now);
        }
        if ideal {
            for &block in &l.new[..l.new_len] {
                l1.fill_at_lookup(block);
            }
            s.memory_requests += l.new_len as u64;
        } else if dispatch!(self.config.mode, h => h.tags_at_miss()) {
            for &block in &l.new[..l.new_len] {
                l1.fill_at_lookup(block);
            }
        }
        if all_hit {
            s.all_hit_requests += 1;
            self.mux_taken = true;
            let at = now + self.config.hit_latency + self.config.filter_latency;
            self.rb.set_ready(rb_slot, at);
        } else {
            self.wlb.allocate(seq, rb_slot, &l.blocks, r.len, l.ready);
            for &block in &l.new[..l.new_len] {
                if self.forgets_sent() {
                    self.bab.push_again(block);
                } else {
                    self.bab.push(block);
                }
            }
            if dispatch!(self.config.mode, h => h.counts_targets()) {
                for &block in &l.waiting[..l.waiting_len] {
                    self.bab.miss(block);
                }
            }
        }
        Ok(())
    }
}

/// A request's tag check.
struct Lookup {
    /// The block of each texel.
    blocks: [u64; MAX_TEXELS],
    /// Bit i: texel i's data is in the L1.
    ready: u8,
    /// Texels whose data is in the L1.
    hits: u32,
    /// The missing blocks not requested yet, once each.
    new: [u64; MAX_TEXELS],
    new_len: usize,
    /// The missing blocks already requested, once each.
    waiting: [u64; MAX_TEXELS],
    waiting_len: usize,
}
