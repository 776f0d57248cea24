//! Replay order within a tile. The input lists each tile's texture
//! requests in the renderer's order (trace order); the fragment processors
//! run concurrently, so a request of one may come later in the input than
//! another's yet be issued earlier on the simulated clocks. In clock order
//! ([`ReplayOrder::Clock`], the default) each organization replays a tile
//! by always taking, next, the request of the fragment processor whose
//! clock would issue it first (ties to the lowest processor), so a block
//! another processor fills later in time is not yet there. Each processor
//! keeps its own requests in input order.
//!
//! A [`TilePlan`] is built once per tile from the input and shared by every
//! organization; each replays it on its own clocks. The frame's other L2
//! accesses take no time: each is played once as many of the tile's texture
//! accesses have been played as preceded it in the input.

use serde::{Deserialize, Serialize};

use crate::organization::Organization;
use crate::replay::ReplayEvent;
use gfxcache_gpu::machine::Machine;
use gfxcache_gpu::RequestWork;

/// In which order a replay plays each tile's texture requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReplayOrder {
    /// By the fragment processors' simulated clocks (the default).
    #[default]
    Clock,
    /// As the input lists them (the renderer's order).
    Trace,
}

impl ReplayOrder {
    /// The name reports use (the serde name).
    pub fn name(self) -> &'static str {
        match self {
            ReplayOrder::Clock => "clock",
            ReplayOrder::Trace => "trace",
        }
    }

    /// The other order.
    pub fn other(self) -> ReplayOrder {
        match self {
            ReplayOrder::Clock => ReplayOrder::Trace,
            ReplayOrder::Trace => ReplayOrder::Clock,
        }
    }
}

/// One fragment processor's unit of replay: a texture request (its first
/// block and the blocks that continue it) or a run of work.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// Its first event's index in the tile.
    start: u32,
    /// Its events.
    len: u32,
}

/// A tile's input arranged for clock order.
#[derive(Clone, Debug, Default)]
pub struct TilePlan {
    /// Groups by fragment processor (`fp_groups[fp]..fp_groups[fp + 1]`),
    /// each processor's in input order.
    groups: Vec<Group>,
    fp_groups: Vec<u32>,
    /// The tile's other L2 accesses: (texture accesses before it in the
    /// input, its index in the tile).
    others: Vec<(u32, u32)>,
    /// Groups in input order with their processor (reused).
    by_fp: Vec<(u32, Group)>,
    /// Where each processor's next group goes (reused).
    next: Vec<u32>,
}

impl TilePlan {
    /// The plan of `tile` (events of one tile, its `TileEnd` last if it
    /// has one) for `fps` fragment processors (every access in range).
    pub fn build(&mut self, tile: &[ReplayEvent], fps: usize) {
        self.others.clear();
        let mut by_fp = std::mem::take(&mut self.by_fp);
        by_fp.clear();
        let mut textures = 0u32;
        let mut i = 0usize;
        while i < tile.len() {
            let start = i;
            let fp = match tile[i] {
                ReplayEvent::Texture(a) => {
                    i += 1;
                    while let Some(ReplayEvent::Texture(b)) = tile.get(i) {
                        if !b.more || b.fp != a.fp {
                            break;
                        }
                        i += 1;
                    }
                    textures += (i - start) as u32;
                    a.fp
                }
                ReplayEvent::Work { fp, .. } => {
                    i += 1;
                    fp
                }
                ReplayEvent::Other { .. } => {
                    self.others.push((textures, i as u32));
                    i += 1;
                    continue;
                }
                ReplayEvent::TileEnd => {
                    i += 1;
                    continue;
                }
            };
            let group = Group {
                start: start as u32,
                len: (i - start) as u32,
            };
            by_fp.push((fp, group));
        }
        // A stable counting sort by fragment processor.
        self.fp_groups.clear();
        self.fp_groups.resize(fps + 1, 0);
        for &(fp, _) in &by_fp {
            self.fp_groups[fp as usize + 1] += 1;
        }
        for p in 0..fps {
            self.fp_groups[p + 1] += self.fp_groups[p];
        }
        self.next.clear();
        self.next.extend_from_slice(&self.fp_groups);
        self.groups.clear();
        self.groups.resize(by_fp.len(), Group { start: 0, len: 0 });
        for &(fp, g) in &by_fp {
            self.groups[self.next[fp as usize] as usize] = g;
            self.next[fp as usize] += 1;
        }
        self.by_fp = by_fp;
    }
}

/// What one organization keeps between tiles to replay in clock order: no
/// allocation per access.
#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    /// Per fragment processor, when its next group would start
    /// ([`IDLE`] when it has none left). A scan for the smallest beats a
    /// heap at the tens of processors a GPU has.
    next: Vec<u64>,
    cursor: Vec<u32>,
}

/// No group left.
const IDLE: u64 = u64::MAX;

impl Scheduler {
    /// Replays `tile` on `m` in clock order by `plan` (built from `tile`),
    /// blocks `block_shift` bits below byte addresses; a `TileEnd` in the
    /// tile ends it.
    pub fn run<O: Organization>(
        &mut self,
        m: &mut Machine<O>,
        tile: &[ReplayEvent],
        plan: &TilePlan,
        block_shift: u32,
    ) {
        let fps = plan.fp_groups.len() - 1;
        self.cursor.clear();
        self.cursor.extend_from_slice(&plan.fp_groups[..fps]);
        self.next.clear();
        for fp in 0..fps {
            let t = next_time(m, tile, plan, fp, self.cursor[fp]);
            self.next.push(t);
        }
        let mut played = 0u32;
        let mut others = plan.others.iter().peekable();
        while let Some(fp) = earliest(&self.next) {
            while let Some(&(_, i)) = others.next_if(|o| o.0 <= played) {
                play(m, tile[i as usize], block_shift);
            }
            let g = plan.groups[self.cursor[fp] as usize];
            for e in &tile[g.start as usize..(g.start + g.len) as usize] {
                played += u32::from(matches!(e, ReplayEvent::Texture(_)));
                play(m, *e, block_shift);
            }
            self.cursor[fp] += 1;
            self.next[fp] = next_time(m, tile, plan, fp, self.cursor[fp]);
        }
        for &(_, i) in others {
            play(m, tile[i as usize], block_shift);
        }
        if matches!(tile.last(), Some(ReplayEvent::TileEnd)) {
            m.tile_end();
        }
    }
}

/// The processor whose next group starts first (the lowest of those
/// tied), if any has one left.
#[inline]
fn earliest(next: &[u64]) -> Option<usize> {
    let (mut best, mut at) = (IDLE, 0);
    for (fp, &t) in next.iter().enumerate() {
        if t < best {
            (best, at) = (t, fp);
        }
    }
    (best != IDLE).then_some(at)
}

/// When `fp`'s group at `cursor` would start ([`IDLE`] if it has none
/// left).
#[inline]
fn next_time<O: Organization>(
    m: &Machine<O>,
    tile: &[ReplayEvent],
    plan: &TilePlan,
    fp: usize,
    cursor: u32,
) -> u64 {
    if cursor >= plan.fp_groups[fp + 1] {
        return IDLE;
    }
    let g = plan.groups[cursor as usize];
    let work = match tile[g.start as usize] {
        ReplayEvent::Texture(a) => a.request_work(),
        // A fragment's tail: on its context (every context's, a request
        // per context, is later still, but this orders the groups).
        ReplayEvent::Work { work, .. } => RequestWork {
            tail: 0,
            work,
            follows: true,
        },
        _ => RequestWork::default(),
    };
    m.next_issue(fp, work).min(IDLE - 1)
}

/// One event on `m`.
#[inline]
pub(crate) fn play<O: Organization>(m: &mut Machine<O>, e: ReplayEvent, block_shift: u32) {
    match e {
        ReplayEvent::Texture(a) if a.more => {
            m.texture_more(a.fp as usize, a.addr >> block_shift);
        }
        ReplayEvent::Texture(a) => {
            m.texture(a.fp as usize, a.addr >> block_shift, a.request_work());
        }
        ReplayEvent::Work { fp, work } => m.work(fp as usize, work),
        ReplayEvent::Other {
            addr,
            stream,
            write,
            phase,
        } => m.l2_other(addr >> block_shift, stream, write, phase),
        ReplayEvent::TileEnd => m.tile_end(),
    }
}
