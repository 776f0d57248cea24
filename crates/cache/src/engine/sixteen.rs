//! The 16-way loop: a [`Kernel16`] policy's batch run over sets of exactly
//! 16 ways with mask indexing, the engine's fast path for the common LLC.

use super::*;

/// A policy's replacement state for 16-way sets, borrowed for one batch as
/// fixed-size rows, so that the batch loop [`run16`] needs no bounds check
/// nor runtime associativity. Policies the common LLC runs (LRU, SRRIP,
/// DRRIP, OPT) offer one through [`Policy::run16`]; it must behave exactly as the policy's [`Policy`] methods,
/// which ignore every [`Ctx`] field but the set and `seq`.
///
/// # Safety
/// The callers of the `unsafe` methods promise `set < self.sets()` and
/// `way < 16`; implementations index their rows without checks.
pub(crate) trait Kernel16 {
    /// Whether the kernel reads `seq`; when not, the loop does not count it
    /// per access (and passes 0), and [`run16`] works out the final `seq`
    /// from the hit and miss counts.
    const SEQ: bool = true;
    /// Rows of state per set (the set count).
    fn sets(&self) -> usize;
    /// [`Policy::hit`].
    unsafe fn hit(&mut self, set: usize, way: usize, seq: u64);
    /// [`Policy::victim`] of a full set.
    unsafe fn victim(&mut self, set: usize, seq: u64) -> Option<usize>;
    /// [`Policy::fill`] (after [`Policy::evict`], a no-op for these policies).
    unsafe fn fill(&mut self, set: usize, way: usize, seq: u64);
}

/// The engine's state, borrowed for one batch, handed to [`Policy::run16`]
/// so that a policy with a [`Kernel16`] can run the batch through [`run16`].
#[doc(hidden)]
pub struct Engine16<'a>(pub(super) Parts16<'a>);

impl Engine16<'_> {
    /// Runs `accesses` through the 16-way loop with kernel `k` and says
    /// so, or does nothing and returns `false` without a kernel (a policy's
    /// state not kept as 16-way rows): what [`Policy::run16`] answers.
    #[inline]
    pub(crate) fn run<K: Kernel16>(&mut self, k: Option<K>, accesses: &[Access]) -> bool {
        let Some(mut k) = k else {
            return false;
        };
        run16(&mut self.0, &mut k, accesses);
        true
    }
}

/// The engine's state, as [`run16`] needs it.
pub(super) struct Parts16<'a> {
    pub(super) shape: &'a Shape,
    pub(super) tags: &'a mut [[u64; 16]],
    /// One [`Rec`] per set.
    pub(super) recs: &'a mut [Rec],
    pub(super) stats: &'a mut Stats,
    pub(super) seq: &'a mut u64,
}

/// [`run`] for 16 ways, mask indexing and a policy with a [`Kernel16`].
/// Prefetches nothing: the loop is bound by its instructions and by the
/// hit-or-miss branch it cannot predict, not by the host's cache misses
/// (a cache whose state fits the host's L1 runs no faster), and
/// prefetching cost more than it saved.
///
/// Dispatches to [`run16_loop`], specialised for 64-byte blocks and for the
/// write policy so that neither costs a register in the loop.
#[inline(never)]
fn run16<K: Kernel16>(parts: &mut Parts16, k: &mut K, accesses: &[Access]) {
    let sets = parts.recs.len();
    // These make every `get_unchecked(set)` below sound: `set` is
    // `block & mask` with `mask == sets - 1`.
    assert!(parts.shape.set_mask as usize == sets - 1 && sets.is_power_of_two());
    assert!(parts.tags.len() == sets);
    assert!(k.sets() == sets);
    let shape = *parts.shape;
    let mut tally = Tally16::default();
    let st = State16 {
        mask: shape.set_mask,
        mask6: shape.set_mask << 6,
        // Bit `stream + 16 * write`: a miss of that kind is not allocated.
        no_alloc: u32::from(shape.unallocated.0)
            | if shape.geom.write_allocate {
                u32::from(shape.unallocated.0) << 16
            } else {
                0xFFFF << 16
            },
        tags: parts.tags,
        recs: parts.recs,
        tally: &mut tally,
        seq: *parts.seq,
    };
    let shift = shape.shift;
    let seq = match (shift, shape.write_back, st.no_alloc == 0) {
        (6, true, true) => run16_loop::<K, 6, true, true>(st, k, accesses, shift),
        (6, true, false) => run16_loop::<K, 6, true, false>(st, k, accesses, shift),
        (6, false, _) => run16_loop::<K, 6, false, false>(st, k, accesses, shift),
        (_, true, _) => run16_loop::<K, 0, true, false>(st, k, accesses, shift),
        (_, false, _) => run16_loop::<K, 0, false, false>(st, k, accesses, shift),
    };
    // Every block access counts one hit or one miss.
    *parts.seq = if K::SEQ {
        seq
    } else {
        *parts.seq + tally.block_accesses()
    };
    tally.add_to(parts.stats);
}

/// The counts of one batch of [`run16`], by stream id: one array per count,
/// so that each is a single increment at `id * 8` (a [`Counts`] row is 64
/// bytes, which no address mode scales by), and evictions by the victim's
/// meta byte, so that one increment counts the eviction and its write-back.
/// Misses are not counted: each is a fill or a bypass.
struct Tally16 {
    hits: [u64; Stream::COUNT],
    fills: [u64; Stream::COUNT],
    bypasses: [u64; Stream::COUNT],
    write_throughs: [u64; Stream::COUNT],
    /// By meta byte: owner stream id, plus [`DIRTY`] when written back.
    evicted: [u64; 256],
}

impl Default for Tally16 {
    fn default() -> Tally16 {
        Tally16 {
            hits: [0; Stream::COUNT],
            fills: [0; Stream::COUNT],
            bypasses: [0; Stream::COUNT],
            write_throughs: [0; Stream::COUNT],
            evicted: [0; 256],
        }
    }
}

impl Tally16 {
    fn block_accesses(&self) -> u64 {
        self.hits
            .iter()
            .chain(&self.fills)
            .chain(&self.bypasses)
            .sum()
    }

    fn add_to(&self, stats: &mut Stats) {
        for (s, c) in stats.per_stream.iter_mut().enumerate() {
            let (clean, dirty) = (self.evicted[s], self.evicted[s | usize::from(DIRTY)]);
            c.hits += self.hits[s];
            c.misses += self.fills[s] + self.bypasses[s];
            c.fills += self.fills[s];
            c.bypasses += self.bypasses[s];
            c.write_throughs += self.write_throughs[s];
            c.evictions += clean + dirty;
            c.writebacks += dirty;
            c.accesses = c.hits + c.misses;
        }
    }

    #[inline(always)]
    fn bypass(&mut self, s: usize, write: bool) {
        self.bypasses[s] += 1;
        if write {
            self.write_throughs[s] += 1;
        }
    }
}

/// The loop of [`run16`]: blocks of `1 << SHIFT` bytes when `SHIFT` is not
/// 0, else of `1 << shift`; `WB`: write-back; `ALL`: every miss allocates
/// (no stream unallocated, write-allocate), which spares each miss the
/// test. Takes the state by value so
/// that its fields live in registers (nothing takes its address: the cold
/// path for accesses spanning several blocks works on a copy). Returns the
/// final `seq`.
#[inline(never)]
fn run16_loop<K: Kernel16, const SHIFT: u32, const WB: bool, const ALL: bool>(
    st: State16,
    k: &mut K,
    accesses: &[Access],
    shift: u32,
) -> u64 {
    let mut st = st;
    let shift = if SHIFT != 0 { SHIFT } else { shift };
    for a in accesses {
        st.access::<K, SHIFT, WB, ALL>(k, a, shift);
    }
    st.seq
}

struct State16<'a> {
    mask: u64,
    /// `mask << 6`: `addr & mask6` is the byte offset of the set's record
    /// for 64-byte blocks.
    mask6: u64,
    no_alloc: u32,
    tags: &'a mut [[u64; 16]],
    recs: &'a mut [Rec],
    tally: &'a mut Tally16,
    seq: u64,
}

impl State16<'_> {
    /// Every block of one trace access.
    #[inline(always)]
    fn access<K: Kernel16, const SHIFT: u32, const WB: bool, const ALL: bool>(
        &mut self,
        k: &mut K,
        a: &Access,
        shift: u32,
    ) {
        let addr = a.addr;
        let block = addr >> shift;
        let off = if SHIFT == 6 {
            addr & self.mask6
        } else {
            (block & self.mask) << 6
        };
        self.step::<K, WB, ALL>(k, block, off as usize, a.stream, a.op.is_write());
        // Within its first block unless it runs past the block's end (a
        // size of 0 counts as 1, which never does).
        let block_bytes = 1u64 << shift;
        if (addr & (block_bytes - 1)) + u64::from(a.size) > block_bytes {
            // A copy, so that `self` never has its address taken.
            let mut cold = State16 {
                mask: self.mask,
                mask6: self.mask6,
                no_alloc: self.no_alloc,
                tags: &mut *self.tags,
                recs: &mut *self.recs,
                tally: &mut *self.tally,
                seq: self.seq,
            };
            cold.rest::<K, WB, ALL>(k, a, shift);
            self.seq = cold.seq;
        }
    }

    /// The blocks after the first of an access that spans several.
    #[inline(never)]
    fn rest<K: Kernel16, const WB: bool, const ALL: bool>(
        &mut self,
        k: &mut K,
        a: &Access,
        shift: u32,
    ) {
        let (first, last) = block_range(a, shift);
        let write = a.op.is_write();
        let mut b = first;
        while b < last {
            b += 1;
            self.step::<K, WB, ALL>(k, b, ((b & self.mask) << 6) as usize, a.stream, write);
        }
    }

    #[inline(always)]
    fn step<K: Kernel16, const WB: bool, const ALL: bool>(
        &mut self,
        k: &mut K,
        block: u64,
        off: usize,
        stream: Stream,
        write: bool,
    ) {
        // `off` is `set * 64`: the byte offset of the set's record, and half
        // that of its tags (so one scaled address serves both).
        // SAFETY: `off` is `(block & mask) << 6` or `addr & (mask << 6)`.
        unsafe { std::hint::assert_unchecked(off & 63 == 0) };
        let set = off >> 6;
        let seq = if K::SEQ { self.seq } else { 0 };
        if K::SEQ {
            self.seq += 1;
        }
        // SAFETY: `set <= mask == sets - 1`, the length of every row array
        // (checked in `run16`); records are 64 bytes, tag rows 128.
        let (rec, tags) = unsafe {
            (
                &mut *self.recs.as_mut_ptr().byte_add(off),
                &*self.tags.as_ptr().byte_add(off * 2),
            )
        };
        let mut m = lanes::eq_mask16(rec.fp16(), fingerprint(block));
        let s = stream.index();
        while m != 0 {
            let way = m.trailing_zeros() as usize & 15;
            if tags[way] == block {
                self.tally.hits[s] += 1;
                // Without a branch: reads and writes interleave too
                // irregularly for one to be predicted.
                if WB {
                    let keep = u8::from(write).wrapping_sub(1);
                    let line = &mut rec.meta16()[way];
                    *line = (*line & keep) | (meta(stream, true) & !keep);
                } else {
                    self.tally.write_throughs[s] += u64::from(write);
                }
                // SAFETY: `set < sets == k.sets()` (checked in `run16`), `way < 16`.
                unsafe { k.hit(set, way, seq) };
                return;
            }
            m &= m - 1;
        }
        self.miss::<K, WB, ALL>(k, off, block, stream, write, seq);
    }

    #[inline(always)]
    fn miss<K: Kernel16, const WB: bool, const ALL: bool>(
        &mut self,
        k: &mut K,
        off: usize,
        block: u64,
        stream: Stream,
        write: bool,
        seq: u64,
    ) {
        let set = off >> 6;
        let s = stream.index();
        if !ALL && self.no_alloc >> (stream.id() as u32 + 16 * u32::from(write)) & 1 != 0 {
            self.tally.bypass(s, write);
            return;
        }
        // SAFETY: as in `step`.
        let rec = unsafe { &mut *self.recs.as_mut_ptr().byte_add(off) };
        let valid = rec.filled16();
        let way = if valid < 16 {
            rec.set_filled16(valid + 1);
            valid as usize
        } else {
            // SAFETY: as in `step`.
            match unsafe { k.victim(set, seq) } {
                Some(way) => {
                    let way = way & 15;
                    self.tally.evicted[usize::from(rec.meta16()[way])] += 1;
                    way
                }
                None => {
                    self.tally.bypass(s, write);
                    return;
                }
            }
        };
        if write && !WB {
            self.tally.write_throughs[s] += 1;
        }
        self.tally.fills[s] += 1;
        rec.meta16()[way] = meta(stream, write && WB);
        lanes::set16(rec.fp16_mut(), way, fingerprint(block));
        // SAFETY: as in `step`.
        unsafe { (*self.tags.as_mut_ptr().byte_add(off * 2))[way] = block };
        // SAFETY: as in `step`.
        unsafe { k.fill(set, way, seq) };
    }
}
