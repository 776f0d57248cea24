//! The pixel processor (shading unit) in front of a texture unit: it runs
//! fragments in input order, up to `fragments_in_flight` at once, and
//! each cycle gives its one cycle to the oldest fragment not waiting for
//! a result (ours); if that fragment's request is refused, the cycle is a
//! stall: a younger fragment does not jump ahead of it.
//!
//! Our reading (the slides give no shader model): a fragment's work after
//! its request k (the work before request k + 1, or its trailing work)
//! needs request k's result, so within a fragment requests are dependent
//! and the fragment waits; a later fragment may run or issue meanwhile.
//! That is where a non-blocking cache can help: with one fragment in
//! flight only a request's own missing blocks overlap.

use std::collections::VecDeque;

use gfxcache_machine::IssueModel;
use gfxcache_trace::ShaderOps;

use crate::event::{UnitEvent, UnitInput};

/// One fragment in flight.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fragment {
    /// Its next event (the step it is on).
    pub pos: usize,
    /// One past its last event.
    pub end: usize,
    /// Cycles of shader work left before its step's request (or before
    /// its end).
    pub alu_left: u64,
    /// It issued a request whose result has not come back.
    pub waiting: bool,
    /// Its place in input order (fragments admitted before it).
    pub seq: u64,
    /// The slot holds a fragment in flight.
    pub live: bool,
}

/// The processor's fragments in flight.
///
/// With many fragments in flight (a Mali-400 core keeps 128) nothing here
/// scans them every cycle: the fragments not waiting are kept in input
/// order (the one a cycle goes to is the first, and it is the one that
/// issues), and only fragments whose state changed are checked for their
/// end.
pub struct PixelProcessor {
    slots: Box<[Fragment]>,
    /// Fragments in flight.
    in_flight: usize,
    free: Vec<u32>,
    /// Fragments not waiting, by input order: (sequence number, slot).
    ready: VecDeque<(u64, u32)>,
    /// Slots whose fragment may have finished since the last retirement.
    touched: Vec<u32>,
    /// The first event no fragment has taken yet.
    next: usize,
    /// Fragments admitted so far.
    admitted: usize,
    /// How it issues shader operations; `None`: shading takes no time.
    issue: Option<IssueModel>,
    /// Operations of the steps loaded so far (each once).
    instructions: u64,
}

/// The shader operations of the step at `pos` of a fragment ending at
/// `end`.
fn step_ops(input: &UnitInput, pos: usize, end: usize) -> ShaderOps {
    if pos >= end {
        return ShaderOps::NONE;
    }
    match input.event(pos) {
        UnitEvent::Request(r) => r.ops_before,
        UnitEvent::FragmentEnd(w) => w.ops,
    }
}

impl PixelProcessor {
    pub fn new(fragments: usize, issue: Option<IssueModel>) -> PixelProcessor {
        PixelProcessor {
            slots: vec![Fragment::default(); fragments].into_boxed_slice(),
            in_flight: 0,
            free: (0..fragments as u32).rev().collect(),
            ready: VecDeque::with_capacity(fragments),
            touched: Vec::with_capacity(fragments),
            next: 0,
            admitted: 0,
            issue,
            instructions: 0,
        }
    }

    /// No fragment left to run or admit.
    pub fn is_done(&self, input: &UnitInput) -> bool {
        self.in_flight == 0 && input.is_finished() && self.admitted == input.fragments()
    }

    /// Fragments admitted so far.
    pub fn admitted(&self) -> usize {
        self.admitted
    }

    /// The earliest event a fragment in flight, or one to come, needs.
    pub fn first_needed_event(&self) -> usize {
        let live = self.slots.iter().filter(|f| f.live).map(|f| f.pos);
        live.fold(self.next, usize::min)
    }

    /// A request's result reached fragment `slot`.
    pub fn deliver(&mut self, slot: u32) {
        let f = &mut self.slots[slot as usize];
        debug_assert!(f.waiting);
        f.waiting = false;
        let key = (f.seq, slot);
        let at = self.ready.partition_point(|&r| r < key);
        self.ready.insert(at, key);
        self.touched.push(slot);
    }

    /// Retires finished fragments and admits new ones in input order, up
    /// to fragment `limit` (again, as long as an admitted fragment
    /// finishes at once: one with no request and no work).
    pub fn refill(&mut self, input: &UnitInput, limit: usize) {
        loop {
            self.retire(input);
            if !self.admit(input, limit) {
                break;
            }
        }
    }

    /// Fragments in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    fn retire(&mut self, input: &UnitInput) {
        while let Some(s) = self.touched.pop() {
            let f = &mut self.slots[s as usize];
            // A step that is a fragment end with no work left is done.
            if !f.waiting && f.alu_left == 0 && f.pos < f.end {
                if let UnitEvent::FragmentEnd(_) = input.event(f.pos) {
                    f.pos += 1;
                }
            }
            // Touched twice: retired the first time.
            if !f.live || f.waiting || f.pos != f.end {
                continue;
            }
            f.live = false;
            let key = (f.seq, s);
            self.in_flight -= 1;
            self.free.push(s);
            if let Ok(at) = self.ready.binary_search(&key) {
                self.ready.remove(at);
            }
        }
    }

    /// Admits fragments before `limit` while there is room; whether any
    /// was admitted.
    fn admit(&mut self, input: &UnitInput, limit: usize) -> bool {
        let mut admitted = false;
        while self.admitted < limit.min(input.fragments()) {
            let Some(slot) = self.free.pop() else { break };
            let start = self.next;
            let end = input.fragment_end(self.admitted);
            let alu_left = self.load(step_ops(input, start, end));
            let seq = self.admitted as u64;
            self.slots[slot as usize] = Fragment {
                pos: start,
                end,
                alu_left,
                waiting: false,
                seq,
                live: true,
            };
            self.in_flight += 1;
            self.ready.push_back((seq, slot));
            self.touched.push(slot);
            self.next = end;
            self.admitted += 1;
            admitted = true;
        }
        admitted
    }

    /// The oldest fragment that is not waiting for a result, if any, and
    /// whether any fragment is in flight at all.
    pub fn pick(&mut self) -> (Option<u32>, bool) {
        (self.ready.front().map(|&(_, s)| s), self.in_flight > 0)
    }

    pub fn fragment(&self, slot: u32) -> Fragment {
        self.slots[slot as usize]
    }

    /// Runs one cycle of `slot`'s shader work.
    pub fn run_one(&mut self, slot: u32) {
        self.run_many(slot, 1);
    }

    /// Runs `cycles` cycles of `slot`'s shader work, no more than it has.
    pub fn run_many(&mut self, slot: u32, cycles: u64) {
        let f = &mut self.slots[slot as usize];
        f.alu_left -= cycles;
        if f.alu_left == 0 {
            self.touched.push(slot);
        }
    }

    /// `slot`'s request was accepted: it waits, and its next step's work
    /// is loaded.
    pub fn issued(&mut self, slot: u32, input: &UnitInput) {
        let f = self.slots[slot as usize];
        let alu_left = self.load(step_ops(input, f.pos + 1, f.end));
        let f = &mut self.slots[slot as usize];
        f.pos += 1;
        f.waiting = true;
        f.alu_left = alu_left;
        // The fragment that issues is the one picked: the first ready.
        let key = (f.seq, slot);
        if self.ready.front() == Some(&key) {
            self.ready.pop_front();
        } else if let Ok(at) = self.ready.binary_search(&key) {
            self.ready.remove(at);
        }
    }

    /// A step's operations loaded: the cycles they take.
    fn load(&mut self, ops: ShaderOps) -> u64 {
        self.instructions += ops.instructions();
        self.issue.map_or(0, |m| m.cycles(&ops))
    }

    /// Operations of every step loaded so far, each once.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }
}
