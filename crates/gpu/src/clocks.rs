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
//! - A request's further blocks issue one a cycle after its first without
//!   waiting for its data, and the context waits for the last of them.
//! - Work that ends no request (a fragment's last instructions) starts
//!   after the data of every context's request.
//! - The frame's cycles are the largest clock; a tile end may synchronise
//!   every fragment processor at the latest of their clocks (a tile-based
//!   GPU finishes a tile before it starts the next).

use serde::{Deserialize, Serialize};

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
#[derive(Clone, Debug)]
pub struct FpClocks {
    contexts: usize,
    /// Per fragment processor, `contexts` slots: when each context's last
    /// texture request has all its data.
    ready: Vec<u64>,
    /// Per fragment processor, the context its next request uses.
    next: Vec<u32>,
    /// Per fragment processor, the context of its current request.
    current: Vec<u32>,
    /// Per fragment processor, the first cycle its core is free.
    core_free: Vec<u64>,
    /// The latest data return so far.
    latest: u64,
    stats: TimingStats,
}

impl FpClocks {
    /// `fps` fragment processors of `contexts` contexts (at least 1), all at
    /// cycle 0.
    pub fn new(fps: usize, contexts: u32) -> FpClocks {
        let contexts = contexts.max(1) as usize;
        FpClocks {
            contexts,
            ready: vec![0; fps * contexts],
            next: vec![0; fps],
            current: vec![0; fps],
            core_free: vec![0; fps],
            latest: 0,
            stats: TimingStats::default(),
        }
    }

    /// When fragment processor `fp` would issue a request that follows
    /// `work` cycles of shader work, were it the next to issue.
    #[inline]
    pub fn next_issue(&self, fp: usize, work: u32) -> u64 {
        let slot = fp * self.contexts + self.next[fp] as usize;
        self.ready[slot].max(self.core_free[fp]) + u64::from(work)
    }

    /// When fragment processor `fp` issues the first block of its next
    /// texture request, which follows `work` cycles of shader work.
    #[inline]
    pub fn issue(&mut self, fp: usize, work: u32) -> u64 {
        let t = self.next_issue(fp, work);
        let context = self.next[fp];
        self.current[fp] = context;
        self.next[fp] = ((context as usize + 1) % self.contexts) as u32;
        self.ready[fp * self.contexts + context as usize] = t;
        self.core_free[fp] = t + 1;
        self.stats.work_cycles += u64::from(work);
        t
    }

    /// When fragment processor `fp` issues another block of its current
    /// request: the cycle after the previous one.
    #[inline]
    pub fn issue_more(&mut self, fp: usize) -> u64 {
        let t = self.core_free[fp];
        self.core_free[fp] = t + 1;
        t
    }

    /// A block `fp` issued at `issued` for its current request has its
    /// data at `done`.
    #[inline]
    pub fn complete(&mut self, fp: usize, issued: u64, done: u64) {
        let slot = fp * self.contexts + self.current[fp] as usize;
        self.ready[slot] = self.ready[slot].max(done);
        self.latest = self.latest.max(done);
        self.stats.texture_latency_cycles += done - issued;
    }

    /// `fp` runs `work` cycles of shader work that end no texture request
    /// (a fragment's work after its last request, before the tile ends):
    /// after the data of every context's request, as the fragment's last
    /// instructions use it.
    pub fn work(&mut self, fp: usize, work: u32) {
        let contexts = fp * self.contexts..(fp + 1) * self.contexts;
        let data = self.ready[contexts].iter().copied().max().unwrap_or(0);
        let end = data.max(self.core_free[fp]) + u64::from(work);
        self.core_free[fp] = end;
        self.latest = self.latest.max(end);
        self.stats.work_cycles += u64::from(work);
    }

    /// A tile ends: with `sync`, every fragment processor waits for the
    /// latest.
    pub fn tile_end(&mut self, sync: bool) {
        self.stats.tiles += 1;
        if sync {
            let t = self.now();
            self.ready.fill(t);
            self.core_free.fill(t);
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
