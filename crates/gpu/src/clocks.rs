//! The fragment processors' clocks: when each issues a texture request
//! and when its data is back, integer cycles at the GPU clock.
//!
//! The rules (the issue model of DTM-NUCA's study, ours; the paper ran the
//! cycle-accurate Teapot):
//!
//! - Each fragment processor's shader core runs one context's work at a
//!   time and issues at most one texture access per cycle; a context waits
//!   for its access's data before its next work. An access with `work`
//!   cycles of shader work before it issues at max(its context's last
//!   data, the core's next free cycle) + `work`. With one context each
//!   fragment processor blocks on every texture access.
//! - What a context holds is [`ContextUnit`]:
//!   - a fragment (the default): a fragment's requests run one after
//!     another on one context, each after the previous one's data, as the
//!     NBTC units' pixel processor runs them. The previous fragment's work
//!     after its last request (its `tail`) runs on its context after that
//!     request's data; then the new fragment takes the context whose data
//!     is back first (the lowest on a tie), since a GPU starts a waiting
//!     fragment on whichever thread slot frees first;
//!   - a request: each request takes the processor's next context in
//!     turn, its tail and work together before it, so a fragment's
//!     requests overlap (the rule of earlier versions).
//! - A request's further blocks issue one a cycle after its first without
//!   waiting for its data, and the context waits for the last of them.
//! - Work that ends no request (the last fragment's tail before a tile
//!   ends) runs after its context's data (a fragment) or after the data
//!   of every context's request (a request, which knows no fragment).
//! - The frame's cycles are the largest clock; a tile end may synchronise
//!   every fragment processor at the latest of their clocks (a tile-based
//!   GPU finishes a tile before it starts the next).

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::calendar::Calendar;

/// What one of a fragment processor's thread contexts holds (ours).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContextUnit {
    /// A fragment: its requests one after another, each after the
    /// previous one's data; a new fragment on the context free first.
    #[default]
    Fragment,
    /// A request: each on the next context in turn, a fragment's
    /// requests overlapping.
    Request,
}

impl ContextUnit {
    /// The name in configurations and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ContextUnit::Fragment => "fragment",
            ContextUnit::Request => "request",
        }
    }

    /// The other unit.
    pub fn other(self) -> ContextUnit {
        match self {
            ContextUnit::Fragment => ContextUnit::Request,
            ContextUnit::Request => ContextUnit::Fragment,
        }
    }
}

/// The shader work before a texture request's first block, and whether
/// the request opens a fragment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestWork {
    /// Cycles of the processor's previous fragment after its last request
    /// (only on a fragment's first request).
    pub tail: u32,
    /// Cycles of the request's own fragment before it.
    pub work: u32,
    /// The request continues the fragment of the processor's previous
    /// request.
    pub follows: bool,
}

impl RequestWork {
    /// The first request of a fragment after `work` cycles, with no tail
    /// of an earlier fragment.
    pub fn new(work: u32) -> RequestWork {
        RequestWork {
            tail: 0,
            work,
            follows: false,
        }
    }

    /// All of its work, tail included.
    fn cycles(self) -> u64 {
        u64::from(self.tail) + u64::from(self.work)
    }
}

/// What the clocks measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimingStats {
    /// The frame: the largest clock at the end (with tile synchronisation,
    /// the sum of the tiles' spans).
    pub cycles: u64,
    /// Tile ends seen.
    pub tiles: u64,
    /// Cycles from issue to data, all texture accesses together.
    pub texture_latency_cycles: u64,
    /// Shader work cycles of the input.
    pub work_cycles: u64,
}

/// The fragment processors' clocks.
///
/// A texture request may touch several blocks (a bilinear footprint across
/// a block boundary, the two levels of a trilinear one): its first block
/// issues after the request's shader work ([`FpClocks::issue`]), the
/// others one a cycle after it without waiting for its data
/// ([`FpClocks::issue_more`]), and the context waits for the last of them.
///
/// With a request per context, requests issue in input order, so each
/// core's time is a cursor. With a fragment per context a younger
/// fragment may issue while an older one waits for its data, so each
/// core's cycles are a [`Calendar`]: a context's work takes the core's
/// first free cycles after its data, in a row or not, and the older
/// fragments (earlier in the input) have taken theirs first, as a core
/// giving each cycle to its oldest ready fragment would.
#[derive(Clone, Debug)]
pub struct FpClocks {
    contexts: usize,
    unit: ContextUnit,
    /// Per fragment processor, `contexts` slots: when each context's last
    /// texture request has all its data (or its fragment's tail ran).
    ready: Vec<u64>,
    /// Per fragment processor, the context its next request uses (a
    /// request per context).
    next: Vec<u32>,
    /// Per fragment processor, the context of its current request.
    current: Vec<u32>,
    /// Per fragment processor, the contexts used since the last tile
    /// synchronisation but the current one, by when they are free (a
    /// fragment per context); `ready` changes only for the current one,
    /// so the keys stay true.
    idle: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    /// Per fragment processor, its contexts not used since then, free
    /// since `floor` (numbered from the top: context `contexts - fresh`
    /// is the next; which context of equal ones runs a fragment changes
    /// no time).
    fresh: Vec<u32>,
    /// Per fragment processor, the last synchronisation's cycle.
    floor: Vec<u64>,
    /// Per fragment processor, the cycles its core's contexts' work and
    /// issues took (a fragment per context; a window of [`CORE_WINDOW`]).
    core: Vec<Calendar>,
    /// Per fragment processor, when its current request's last block
    /// issued (a fragment per context).
    last_issue: Vec<u64>,
    /// Per fragment processor, the first cycle its core is free (a
    /// request per context), or one past its latest reserved cycle.
    core_free: Vec<u64>,
    /// Per fragment processor, the placing [`FpClocks::next_issue`] found
    /// for a request, until the processor's clocks change (the clock
    /// order asks before each request it plays).
    placed: Vec<Cell<Option<(RequestWork, Placing)>>>,
    /// The latest data return so far.
    latest: u64,
    stats: TimingStats,
}

/// Cycles a core's calendar remembers: a context whose data comes back
/// more than this behind the core's latest taken cycle has its work held
/// to the window (as [`Calendar`] holds a late request), so it holds the
/// work of many contexts queued ahead (1,024 contexts of 256 cycles).
const CORE_WINDOW: u64 = 1 << 18;

/// Where a fragment per context puts a request: the current context's
/// ready cycle after its fragment's tail (if it had one), the context
/// the request takes, and the request's issue cycle.
#[derive(Clone, Copy, Debug)]
struct Placing {
    tail_end: Option<u64>,
    context: u32,
    issue: u64,
}

impl FpClocks {
    /// `fps` fragment processors of `contexts` contexts (at least 1), each
    /// holding a `unit`, all at cycle 0.
    pub fn new(fps: usize, contexts: u32, unit: ContextUnit) -> FpClocks {
        let contexts = contexts.max(1) as usize;
        let mut clocks = FpClocks {
            contexts,
            unit,
            ready: vec![0; fps * contexts],
            next: vec![0; fps],
            current: vec![0; fps],
            idle: Vec::new(),
            fresh: Vec::new(),
            floor: vec![0; fps],
            core: Vec::new(),
            last_issue: vec![0; fps],
            core_free: vec![0; fps],
            placed: vec![Cell::new(None); fps],
            latest: 0,
            stats: TimingStats::default(),
        };
        if unit == ContextUnit::Fragment {
            clocks.idle = vec![BinaryHeap::with_capacity(contexts); fps];
            clocks.fresh = vec![contexts as u32 - 1; fps];
            clocks.core = vec![Calendar::with_window(CORE_WINDOW); fps];
        }
        clocks
    }

    #[inline]
    fn slot(&self, fp: usize, context: u32) -> usize {
        fp * self.contexts + context as usize
    }

    /// The context a fragment of `fp` opening after its previous one's
    /// tail takes, and when it is free: the idle context free first, or
    /// the current one (ties to the lowest).
    #[inline]
    fn free_context(&self, fp: usize, current_ready: u64) -> (u32, u64) {
        let mut best = (current_ready, self.current[fp]);
        if let Some(&Reverse(idle)) = self.idle[fp].peek() {
            best = best.min(idle);
        }
        if self.fresh[fp] > 0 {
            best = best.min((self.floor[fp], self.contexts as u32 - self.fresh[fp]));
        }
        (best.1, best.0)
    }

    /// Where a fragment per context puts `fp`'s request after `w`,
    /// reserving nothing. The previous fragment's tail takes the core's
    /// first `tail` free cycles after its data (from `data`); the
    /// request's work and issue the first `work` + 1 free cycles after its
    /// context is free (from `from`) that the tail has not taken.
    #[inline]
    fn place(&self, fp: usize, w: RequestWork) -> Placing {
        if let Some((placed, p)) = self.placed[fp].get() {
            if placed == w {
                return p;
            }
        }
        let p = self.find_place(fp, w);
        self.placed[fp].set(Some((w, p)));
        p
    }

    /// [`FpClocks::place`], found.
    #[inline]
    fn find_place(&self, fp: usize, w: RequestWork) -> Placing {
        let core = &self.core[fp];
        let current = self.current[fp];
        let data = self.ready[self.slot(fp, current)];
        let work = u64::from(w.work) + 1;
        if w.follows {
            return Placing {
                tail_end: None,
                context: current,
                issue: core.free_nth(data, w.cycles() + 1),
            };
        }
        let tail = u64::from(w.tail);
        let tail_end = (tail > 0).then(|| core.free_nth(data, tail) + 1);
        let (context, from) = self.free_context(fp, tail_end.unwrap_or(data));
        let issue = match tail_end {
            Some(end) if from < end => {
                // The tail's cycles are the first free ones from `data`:
                // the work's come after them, or before `data`.
                let before = core.free_between(from, data);
                if before >= work {
                    core.free_nth(from, work)
                } else {
                    let start = from.max(data);
                    let tail_before = core.free_between(data, start);
                    core.free_nth(start, tail - tail_before + work - before)
                }
            }
            _ => core.free_nth(from, work),
        };
        Placing {
            tail_end,
            context,
            issue,
        }
    }

    /// When fragment processor `fp` would issue a request after `w`, were
    /// it the next to issue.
    #[inline]
    pub fn next_issue(&self, fp: usize, w: RequestWork) -> u64 {
        match self.unit {
            ContextUnit::Request => {
                let slot = self.slot(fp, self.next[fp]);
                self.ready[slot].max(self.core_free[fp]) + w.cycles()
            }
            ContextUnit::Fragment => self.place(fp, w).issue,
        }
    }

    /// When fragment processor `fp` issues the first block of its next
    /// texture request, after `w`.
    #[inline]
    pub fn issue(&mut self, fp: usize, w: RequestWork) -> u64 {
        let t = match self.unit {
            ContextUnit::Request => {
                let t = self.next_issue(fp, w);
                let context = self.next[fp];
                self.current[fp] = context;
                self.next[fp] = ((context as usize + 1) % self.contexts) as u32;
                t
            }
            ContextUnit::Fragment => self.issue_placed(fp, w),
        };
        let slot = self.slot(fp, self.current[fp]);
        self.ready[slot] = t;
        self.core_free[fp] = self.core_free[fp].max(t + 1);
        self.last_issue[fp] = t;
        self.stats.work_cycles += w.cycles();
        t
    }

    /// [`FpClocks::issue`] with a fragment per context: the tail and the
    /// work reserved on the core, the request on its context.
    fn issue_placed(&mut self, fp: usize, w: RequestWork) -> u64 {
        let p = self.place(fp, w);
        self.placed[fp].set(None);
        let old = self.current[fp];
        let data = self.ready[self.slot(fp, old)];
        if let Some(end) = p.tail_end {
            self.core[fp].take_through(data, end - 1);
            let slot = self.slot(fp, old);
            self.ready[slot] = end;
            self.core_free[fp] = self.core_free[fp].max(end);
        }
        if p.context != old {
            let ready = Reverse((self.ready[self.slot(fp, old)], old));
            let fresh = self.contexts as u32 - self.fresh[fp];
            if self.fresh[fp] > 0 && p.context == fresh {
                self.fresh[fp] -= 1;
                let slot = self.slot(fp, fresh);
                self.ready[slot] = self.floor[fp];
                self.idle[fp].push(ready);
            } else if let Some(mut top) = self.idle[fp].peek_mut() {
                *top = ready;
            }
            self.current[fp] = p.context;
        }
        let from = self.ready[self.slot(fp, p.context)];
        let work = match w.follows {
            true => w.cycles(),
            false => u64::from(w.work),
        };
        match p.tail_end {
            None => {
                self.core[fp].take_through(from, p.issue);
                p.issue
            }
            // Taking the tail may have slid the core's window past a
            // context far behind it: count again.
            Some(_) => self.core[fp].reserve_free(from, work + 1),
        }
    }

    /// When fragment processor `fp` issues another block of its current
    /// request: the core's next cycle (free cycle, with a fragment per
    /// context) after the previous block.
    #[inline]
    pub fn issue_more(&mut self, fp: usize) -> u64 {
        self.placed[fp].set(None);
        let t = match self.unit {
            ContextUnit::Request => self.core_free[fp],
            ContextUnit::Fragment => self.core[fp].reserve_free(self.last_issue[fp] + 1, 1),
        };
        self.core_free[fp] = self.core_free[fp].max(t + 1);
        self.last_issue[fp] = t;
        t
    }

    /// A block `fp` issued at `issued` for its current request has its
    /// data at `done`.
    #[inline]
    pub fn complete(&mut self, fp: usize, issued: u64, done: u64) {
        self.placed[fp].set(None);
        let slot = self.slot(fp, self.current[fp]);
        self.ready[slot] = self.ready[slot].max(done);
        self.latest = self.latest.max(done);
        self.stats.texture_latency_cycles += done - issued;
    }

    /// `fp` runs `work` cycles of shader work that end no texture request
    /// (a fragment's work after its last request, before the tile ends):
    /// after its current context's data, on the core's free cycles (a
    /// fragment per context), or after every context's data (a request
    /// per context: whichever fragment it ends). No work is nothing.
    pub fn work(&mut self, fp: usize, work: u32) {
        self.placed[fp].set(None);
        if work == 0 {
            return;
        }
        self.stats.work_cycles += u64::from(work);
        let end = match self.unit {
            ContextUnit::Request => {
                let contexts = fp * self.contexts..(fp + 1) * self.contexts;
                let data = self.ready[contexts].iter().copied().max().unwrap_or(0);
                let end = data.max(self.core_free[fp]) + u64::from(work);
                self.core_free[fp] = end;
                end
            }
            ContextUnit::Fragment => {
                let slot = self.slot(fp, self.current[fp]);
                let end = self.core[fp].reserve_free(self.ready[slot], u64::from(work)) + 1;
                self.ready[slot] = end;
                self.core_free[fp] = self.core_free[fp].max(end);
                end
            }
        };
        self.latest = self.latest.max(end);
    }

    /// A tile ends: with `sync`, every fragment processor waits for the
    /// latest.
    pub fn tile_end(&mut self, sync: bool) {
        self.tile_end_not_before(sync, 0);
    }

    /// [`FpClocks::tile_end`], the next tile starting no earlier than
    /// cycle `at` with `sync` (when its tile buffer is free).
    pub fn tile_end_not_before(&mut self, sync: bool, at: u64) {
        self.stats.tiles += 1;
        if !sync {
            return;
        }
        let now = self.now();
        let t = now.max(at);
        if t > now {
            self.latest = t;
        }
        self.core_free.fill(t);
        self.placed.iter().for_each(|p| p.set(None));
        match self.unit {
            ContextUnit::Request => self.ready.fill(t),
            ContextUnit::Fragment => {
                // Every context is free at `t`: the current one becomes
                // context 0, the others fresh.
                for fp in 0..self.floor.len() {
                    // Nothing was reserved before the last floor or
                    // after `t`.
                    self.core[fp].clear_between(self.floor[fp], t + 1);
                    self.floor[fp] = t;
                    self.idle[fp].clear();
                    self.fresh[fp] = self.contexts as u32 - 1;
                    self.current[fp] = 0;
                    let slot = self.slot(fp, 0);
                    self.ready[slot] = t;
                }
            }
        }
    }

    /// The latest cycle any fragment processor has reached.
    pub fn now(&self) -> u64 {
        let free = self.core_free.iter().map(|&c| c.saturating_sub(1));
        free.fold(self.latest, u64::max)
    }

    /// The clocks' counts, with the frame's cycles so far.
    pub fn stats(&self) -> TimingStats {
        TimingStats {
            cycles: self.now(),
            ..self.stats.clone()
        }
    }
}
