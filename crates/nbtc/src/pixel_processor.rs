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

use crate::event::UnitEvent;

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
    alu_cycles: u64,
}

/// The shader work of the step at `pos`.
fn step_alu(events: &[UnitEvent], pos: usize, alu_cycles: u64) -> u64 {
    let alu = match events.get(pos) {
        Some(UnitEvent::Request(r)) => r.alu_before,
        Some(UnitEvent::FragmentEnd(w)) => w.cycles,
        None => 0,
    };
    u64::from(alu) * alu_cycles
}

impl PixelProcessor {
    pub fn new(fragments: usize, alu_cycles: u64) -> PixelProcessor {
        PixelProcessor {
            slots: vec![Fragment::default(); fragments].into_boxed_slice(),
            active: Vec::with_capacity(fragments),
            free: (0..fragments as u32).rev().collect(),
            next: 0,
            alu_cycles,
        }
    }

    /// No fragment left to run or admit.
    pub fn is_done(&self, events: &[UnitEvent]) -> bool {
        self.active.is_empty() && self.next == events.len()
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
    pub fn refill(&mut self, events: &[UnitEvent]) {
        loop {
            self.retire(events);
            if !self.admit(events) {
                break;
            }
        }
    }

    fn retire(&mut self, events: &[UnitEvent]) {
        let slots = &mut self.slots;
        let free = &mut self.free;
        self.active.retain(|&s| {
            let f = &mut slots[s as usize];
            // A step that is a fragment end with no work left is done.
            if !f.waiting && f.alu_left == 0 && f.pos < f.end {
                if let UnitEvent::FragmentEnd(_) = events[f.pos] {
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
    fn admit(&mut self, events: &[UnitEvent]) -> bool {
        let mut admitted = false;
        while self.next < events.len() {
            let Some(slot) = self.free.pop() else { break };
            let start = self.next;
            let end = events[start..]
                .iter()
                .position(|e| matches!(e, UnitEvent::FragmentEnd(_)))
                .map_or(events.len(), |i| start + i + 1);
            self.slots[slot as usize] = Fragment {
                pos: start,
                end,
                alu_left: step_alu(events, start, self.alu_cycles),
                waiting: false,
            };
            self.active.push(slot);
            self.next = end;
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
    pub fn issued(&mut self, slot: u32, events: &[UnitEvent]) {
        let f = &mut self.slots[slot as usize];
        f.pos += 1;
        f.waiting = true;
        f.alu_left = if f.pos < f.end {
            step_alu(events, f.pos, self.alu_cycles)
        } else {
            0
        };
    }
}
