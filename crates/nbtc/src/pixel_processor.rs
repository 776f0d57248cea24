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
}

/// The processor's fragments in flight.
pub struct PixelProcessor {
    slots: Box<[Fragment]>,
    /// Slots in flight, oldest first.
    active: Vec<u32>,
    free: Vec<u32>,
    /// The first event no fragment has taken yet.
    next: usize,
    /// Fragments admitted so far.
    admitted: usize,
    alu_cycles: u64,
    alu_width: u64,
}

/// The shader work of the step at `pos` of a fragment ending at `end`.
fn step_alu(input: &UnitInput, pos: usize, end: usize, alu_cycles: u64, alu_width: u64) -> u64 {
    if pos >= end {
        return 0;
    }
    let ops = match input.event(pos) {
        UnitEvent::Request(r) => r.ops_before,
        UnitEvent::FragmentEnd(w) => w.ops,
    };
    (ops.scalar_ops() * alu_cycles).div_ceil(alu_width)
}

impl PixelProcessor {
    pub fn new(fragments: usize, alu_cycles: u64, alu_width: u32) -> PixelProcessor {
        PixelProcessor {
            slots: vec![Fragment::default(); fragments].into_boxed_slice(),
            active: Vec::with_capacity(fragments),
            free: (0..fragments as u32).rev().collect(),
            next: 0,
            admitted: 0,
            alu_cycles,
            alu_width: u64::from(alu_width),
        }
    }

    /// No fragment left to run or admit.
    pub fn is_done(&self, input: &UnitInput) -> bool {
        self.active.is_empty() && input.is_finished() && self.admitted == input.fragments()
    }

    /// Fragments admitted so far.
    pub fn admitted(&self) -> usize {
        self.admitted
    }

    /// The earliest event a fragment in flight, or one to come, needs.
    pub fn first_needed_event(&self) -> usize {
        let active = self.active.iter().map(|&s| self.slots[s as usize].pos);
        active.fold(self.next, usize::min)
    }

    /// A request's result reached fragment `slot`.
    pub fn deliver(&mut self, slot: u32) {
        let f = &mut self.slots[slot as usize];
        debug_assert!(f.waiting);
        f.waiting = false;
    }

    /// Retires finished fragments and admits new ones in input order
    /// (again, as long as an admitted fragment finishes at once: one with
    /// no request and no work).
    pub fn refill(&mut self, input: &UnitInput) {
        loop {
            self.retire(input);
            if !self.admit(input) {
                break;
            }
        }
    }

    fn retire(&mut self, input: &UnitInput) {
        let slots = &mut self.slots;
        let free = &mut self.free;
        self.active.retain(|&s| {
            let f = &mut slots[s as usize];
            // A step that is a fragment end with no work left is done.
            if !f.waiting && f.alu_left == 0 && f.pos < f.end {
                if let UnitEvent::FragmentEnd(_) = input.event(f.pos) {
                    f.pos += 1;
                }
            }
            let done = !f.waiting && f.pos == f.end;
            if done {
                free.push(s);
            }
            !done
        });
    }

    /// Admits fragments while there is room; whether any was admitted.
    fn admit(&mut self, input: &UnitInput) -> bool {
        let mut admitted = false;
        while self.admitted < input.fragments() {
            let Some(slot) = self.free.pop() else { break };
            let start = self.next;
            let end = input.fragment_end(self.admitted);
            self.slots[slot as usize] = Fragment {
                pos: start,
                end,
                alu_left: step_alu(input, start, end, self.alu_cycles, self.alu_width),
                waiting: false,
            };
            self.active.push(slot);
            self.next = end;
            self.admitted += 1;
            admitted = true;
        }
        admitted
    }

    /// The oldest fragment that is not waiting for a result, if any, and
    /// whether any fragment is in flight at all.
    pub fn pick(&self) -> (Option<u32>, bool) {
        let slot = self
            .active
            .iter()
            .copied()
            .find(|&s| !self.slots[s as usize].waiting);
        (slot, !self.active.is_empty())
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
        self.slots[slot as usize].alu_left -= cycles;
    }

    /// `slot`'s request was accepted: it waits, and its next step's work
    /// is loaded.
    pub fn issued(&mut self, slot: u32, input: &UnitInput) {
        let f = &mut self.slots[slot as usize];
        f.pos += 1;
        f.waiting = true;
        f.alu_left = step_alu(input, f.pos, f.end, self.alu_cycles, self.alu_width);
    }
}
