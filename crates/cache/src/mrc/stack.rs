//! Fully associative LRU stack distances in O(log M) time per access and
//! memory proportional to the M distinct blocks, not to the trace.
//!
//! The stack distance of an access is the number of distinct blocks touched
//! since the previous access to the same block. Every block keeps a mark at
//! the time of its last access; the distance is the number of marks strictly
//! between that time and now. Times are kept in a bitmap, cut into 512-bit
//! chunks whose counts sit in a Fenwick tree: a distance is a popcount
//! within one 64-byte chunk plus a Fenwick range sum over chunks. The
//! Fenwick tree over chunks is 512 times smaller than one over times and
//! stays in the host's L1/L2 cache, so a distance costs at most one miss
//! of the host's caches (the old time's chunk) instead of one per level of
//! a tree over times.
//!
//! When time reaches the capacity, the live times are renumbered to
//! `0..M` in order and the capacity doubles while M is more than an eighth
//! of it, so at least 7/8 of the capacity in accesses separates two
//! renumberings and their O(capacity) cost is O(1) per access. (An eighth
//! rather than the textbook half: renumbering visits every block, while
//! the bitmap it saves on costs a bit per time, a byte per block.)
//!
//! Blocks are found through a hash index of 16-block groups: neighbouring
//! blocks, which graphics traces touch close together in time, share one
//! index entry and one 64-byte line of last-access times.

use crate::error::CacheError;
use crate::policy::prefetch;
use crate::table;

/// What the tables are, in an error.
const TABLES: &str = "the stack-distance tables";

/// The distance reported for a block's first access.
pub(crate) const COLD: u32 = u32::MAX;

/// "No group known": see [`StackDistances::find_group`].
pub(crate) const NO_GROUP: u32 = u32::MAX;

/// Times are stored as `u32` (plus one) to halve the group lines. With
/// [`MAX_GROUPS`] this bounds the distinct blocks to between 2^27 and
/// 2^31 - 1 (8 GiB of 64-byte lines at the least), beyond any frame;
/// past 2^28 renumbering just comes more often.
const MAX_CAPACITY: usize = 1 << 31;

const DEFAULT_CAPACITY: usize = 1 << 12;

const GROUP_SHIFT: u32 = 4;
const GROUP_LEN: usize = 1 << GROUP_SHIFT;

/// Dense ids (`group * GROUP_LEN + offset`) must stay below the per-set
/// stacks' empty marker, `u32::MAX`.
const MAX_GROUPS: usize = 1 << (31 - GROUP_SHIFT);

/// Last-access time plus one of each block of a group, 0 if never accessed.
/// One cache line.
#[repr(align(64))]
#[derive(Clone, Copy, Default)]
struct Group([u32; GROUP_LEN]);

const CHUNK_WORDS: usize = 8;
const CHUNK_BITS: usize = 64 * CHUNK_WORDS;

/// 512 times of the bitmap. One cache line.
#[repr(align(64))]
#[derive(Clone, Copy, Default)]
struct Chunk([u64; CHUNK_WORDS]);

/// Stack distances of a stream of block addresses, fully associative LRU.
pub struct StackDistances {
    index: GroupIndex,
    groups: Vec<Group>,
    /// A 1 at the last-access time of every block.
    bits: Vec<Chunk>,
    /// Fenwick tree of the chunks' popcounts; chunk `c` is node `c + 1`.
    /// Chunks past the current one are empty, so only nodes `1..=built`
    /// are kept up to date and each node is filled in from its children
    /// when time enters its chunk: adding the new time's mark touches one
    /// node, and removing an old mark stops at `built`.
    fen: Vec<u32>,
    built: usize,
    /// Marks per word of each chunk, one byte per word: with them the
    /// marks of a chunk after a given time are one popcount and one byte
    /// sum, where popcounting the chunk would take up to eight (the
    /// baseline x86-64 target has no popcount instruction).
    counts: Vec<u64>,
    live: usize,
    /// Times `0..now` are used.
    now: usize,
    cap: usize,
    renumberings: u64,
    /// Reused across renumberings so that they do not allocate.
    rank: Vec<u32>,
}

impl Default for StackDistances {
    fn default() -> Self {
        StackDistances::new()
    }
}

impl StackDistances {
    pub fn new() -> StackDistances {
        StackDistances::with_capacity(DEFAULT_CAPACITY)
    }

    /// Starts with room for `times` accesses before the first renumbering
    /// (rounded up to a power of two). Tests use a tiny value to exercise
    /// renumbering and growth on short traces.
    pub fn with_capacity(times: usize) -> StackDistances {
        let cap = times.clamp(1, MAX_CAPACITY).next_power_of_two();
        let chunks = cap.div_ceil(CHUNK_BITS);
        let (fen, counts) = (vec![0; chunks + 1], vec![0; chunks]);
        table::advise(&fen);
        table::advise(&counts);
        StackDistances {
            index: GroupIndex::new(),
            groups: Vec::new(),
            bits: table::filled(chunks, Chunk::default(), TABLES).unwrap_or_else(|e| panic!("{e}")),
            fen,
            built: 0,
            counts,
            live: 0,
            now: 0,
            cap,
            renumberings: 0,
            rank: Vec::new(),
        }
    }

    /// Makes room for `n` more accesses, whatever their blocks, so that
    /// they allocate nothing: the groups and index entries of `n` new
    /// groups, and every table renumbering may grow to with `n` more
    /// blocks. An error names what the memory at hand could not hold.
    /// [`crate::MrcBuilder`] asks before each batch; without it, an
    /// access allocates as it needs and panics where the memory is
    /// refused.
    pub fn reserve(&mut self, n: usize) -> Result<(), CacheError> {
        table::reserve(&mut self.groups, n, TABLES)?;
        self.index.reserve(n)?;
        let live = self.live.saturating_add(n);
        let mut cap = self.cap;
        while live > cap / 8 && cap < MAX_CAPACITY {
            cap *= 2;
        }
        // Renumbering refills these to at most the sizes of `cap`, and
        // ranks the words of the old bitmap, no larger.
        let chunks = cap.div_ceil(CHUNK_BITS);
        table::reserve_total(&mut self.bits, chunks, TABLES)?;
        table::reserve_total(&mut self.fen, chunks + 1, TABLES)?;
        table::reserve_total(&mut self.counts, chunks, TABLES)?;
        table::reserve_total(&mut self.rank, chunks * CHUNK_WORDS, TABLES)
    }

    /// The stack distance of an access to `block`, `None` on its first
    /// access (a cold miss in a cache of any size).
    #[inline]
    pub fn access(&mut self, block: u64) -> Option<u32> {
        let (d, _) = self.access_id(block, NO_GROUP);
        (d != COLD).then_some(d)
    }

    /// Distinct blocks seen.
    pub fn distinct(&self) -> usize {
        self.live
    }

    /// How often times were renumbered; lets tests check that they really
    /// exercised it.
    pub fn renumberings(&self) -> u64 {
        self.renumberings
    }

    /// The distance ([`COLD`] on a first access) and a dense id of the
    /// block, unique and below 2^31. `group` is the block's group as
    /// [`StackDistances::find_group`] answered earlier, or [`NO_GROUP`]:
    /// a group, once made, never changes, so the answer saves a lookup.
    #[inline(always)]
    pub(crate) fn access_id(&mut self, block: u64, group: u32) -> (u32, u32) {
        if self.now == self.cap {
            self.renumber();
        }
        let t = self.now;
        let g = if group != NO_GROUP {
            group as usize
        } else {
            self.index
                .get_or_insert(block >> GROUP_SHIFT, self.groups.len())
        };
        if g == self.groups.len() {
            assert!(
                g < MAX_GROUPS,
                "more than {MAX_GROUPS} groups of {GROUP_LEN} blocks: beyond what stack distances can number"
            );
            table::reserve(&mut self.groups, 1, TABLES).unwrap_or_else(|e| panic!("{e}"));
            self.groups.push(Group::default());
        }
        let off = (block & (GROUP_LEN as u64 - 1)) as usize;
        let id = (g * GROUP_LEN + off) as u32;
        let slot = &mut self.groups[g].0[off];
        let prev = *slot as usize;
        *slot = t as u32 + 1;
        let d = if prev == 0 {
            self.live += 1;
            COLD
        } else {
            let t0 = prev - 1;
            let d = self.marks_after(t0, t - 1);
            self.bits[t0 / CHUNK_BITS].0[t0 / 64 % CHUNK_WORDS] &= !(1 << (t0 % 64));
            self.counts[t0 / CHUNK_BITS] -= 1 << (t0 / 64 % CHUNK_WORDS * 8);
            let mut i = t0 / CHUNK_BITS + 1;
            while i <= self.built {
                self.fen[i] -= 1;
                i += i & i.wrapping_neg();
            }
            d
        };
        let c = t / CHUNK_BITS;
        if c == self.built {
            self.enter_chunk();
        }
        self.bits[c].0[t / 64 % CHUNK_WORDS] |= 1 << (t % 64);
        self.fen[c + 1] += 1;
        self.counts[c] += 1 << (t / 64 % CHUNK_WORDS * 8);
        self.now = t + 1;
        (d, id)
    }

    /// Hints for an access to `block` coming soon, in three stages run at
    /// decreasing distance ahead: each stage finds its address through
    /// lines the previous stage brought in. An access's lookups depend on
    /// each other, so without these the host's caches serve one miss at a
    /// time; with them, the misses of several accesses overlap.
    #[inline(always)]
    pub(crate) fn prefetch_index(&self, block: u64) {
        prefetch(&self.index.slots, self.index.home(block >> GROUP_SHIFT));
    }

    /// The group of `block`, or [`NO_GROUP`] if it has none yet.
    #[inline(always)]
    pub(crate) fn find_group(&self, block: u64) -> u32 {
        match self.index.get(block >> GROUP_SHIFT) {
            Some(g) => {
                prefetch(&self.groups, g);
                g as u32
            }
            None => NO_GROUP,
        }
    }

    #[inline(always)]
    pub(crate) fn prefetch_bits(&self, block: u64, group: u32) {
        if let Some(g) = self.groups.get(group as usize) {
            let p = g.0[(block & (GROUP_LEN as u64 - 1)) as usize] as usize;
            if p != 0 {
                prefetch(&self.bits, (p - 1) / CHUNK_BITS);
            }
        }
    }

    /// Builds the node of the chunk time has just entered, from its
    /// children: node `i` covers chunks `(i - lowbit(i), i]`, its own chunk
    /// (still empty) and nodes `i - 1`, `i - 2`, `i - 4`, ... below lowbit.
    #[inline(always)]
    fn enter_chunk(&mut self) {
        let i = self.built + 1;
        let low = i & i.wrapping_neg();
        let mut v = 0;
        let mut k = 1;
        while k < low {
            v += self.fen[i - k];
            k <<= 1;
        }
        self.fen[i] = v;
        self.built = i;
    }

    /// Marks in times `(t0, last]`, `t0 <= last`.
    #[inline(always)]
    fn marks_after(&self, t0: usize, last: usize) -> u32 {
        let c0 = t0 / CHUNK_BITS;
        let w0 = t0 / 64 % CHUNK_WORDS;
        let word = self.bits[c0].0[w0];
        // `<< 1` after the shift, so that bit 63 leaves an empty mask
        // instead of overflowing.
        let after = word & ((u64::MAX << (t0 % 64)) << 1);
        // Words after w0 in the chunk (those after `last` are unmarked).
        let later = (self.counts[c0] >> (w0 * 8)) >> 8;
        let in_chunk = after.count_ones() + byte_sum(later);
        let cn = last / CHUNK_BITS;
        if cn == c0 {
            in_chunk
        } else {
            in_chunk.wrapping_add(fen_range(&self.fen, c0 + 1, cn + 1))
        }
    }

    /// Renumbers live times to `0..M` in order and grows the capacity so
    /// that at least seven eighths of it are free.
    #[cold]
    #[inline(never)]
    fn renumber(&mut self) {
        // rank[w]: marks in the bitmap's words before word w.
        self.rank.clear();
        let mut acc = 0u32;
        for c in &self.bits {
            for w in c.0 {
                self.rank.push(acc);
                acc += w.count_ones();
            }
        }
        for g in &mut self.groups {
            for p in &mut g.0 {
                if *p != 0 {
                    let t = *p as usize - 1;
                    let word = self.bits[t / CHUNK_BITS].0[t / 64 % CHUNK_WORDS];
                    let below = word & ((1u64 << (t % 64)) - 1);
                    *p = self.rank[t / 64] + below.count_ones() + 1;
                }
            }
        }
        let live = self.live;
        while live > self.cap / 8 && self.cap < MAX_CAPACITY {
            self.cap *= 2;
        }
        assert!(
            live < self.cap,
            "{live} distinct blocks: beyond what stack distances can number"
        );
        let chunks = self.cap.div_ceil(CHUNK_BITS);
        // Allocates nothing after `reserve`.
        let room = |r: Result<(), CacheError>| r.unwrap_or_else(|e| panic!("{e}"));
        room(table::refill(
            &mut self.bits,
            chunks,
            Chunk::default(),
            TABLES,
        ));
        for t in (0..live).step_by(64) {
            let n = (live - t).min(64);
            self.bits[t / CHUNK_BITS].0[t / 64 % CHUNK_WORDS] =
                if n == 64 { u64::MAX } else { (1 << n) - 1 };
        }
        // The nodes of the chunks entered so far, built in O(chunks): each
        // node passes its sum to its parent.
        let built = live.div_ceil(CHUNK_BITS);
        room(table::refill(&mut self.fen, chunks + 1, 0, TABLES));
        room(table::refill(&mut self.counts, chunks, 0, TABLES));
        for c in 0..built {
            let n = (live - c * CHUNK_BITS).min(CHUNK_BITS);
            self.fen[c + 1] = n as u32;
            self.counts[c] = word_counts(n);
        }
        for i in 1..=built {
            let j = i + (i & i.wrapping_neg());
            if j <= built {
                self.fen[j] += self.fen[i];
            }
        }
        self.built = built;
        self.now = live;
        self.renumberings += 1;
    }
}

/// The sum of the bytes of `x`, each at most 64.
#[inline(always)]
fn byte_sum(x: u64) -> u32 {
    // Pairs of bytes into 16-bit lanes first: eight bytes of 64 would
    // overflow a byte.
    let pairs = (x & 0x00ff_00ff_00ff_00ff) + ((x >> 8) & 0x00ff_00ff_00ff_00ff);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Per-word mark counts of a chunk whose first `n` times are marked.
fn word_counts(n: usize) -> u64 {
    (0..CHUNK_WORDS).fold(0, |acc, w| {
        acc | ((n.saturating_sub(w * 64).min(64) as u64) << (w * 8))
    })
}

/// Sum of nodes `(a, b]`, `a <= b`. Walking down from both ends until they
/// meet costs O(log(b - a)) rather than two full prefix sums.
#[inline(always)]
fn fen_range(fen: &[u32], mut a: usize, mut b: usize) -> u32 {
    let mut s = 0u32;
    while b > a {
        s = s.wrapping_add(fen[b]);
        b &= b - 1;
    }
    while a > b {
        s = s.wrapping_sub(fen[a]);
        a &= a - 1;
    }
    s
}

/// Group number -> index into `groups`: open addressing with linear
/// probing, keys and values side by side, so a lookup costs one cache line
/// where a general-purpose map costs two (control bytes, then the bucket).
struct GroupIndex {
    slots: Vec<(u64, u32)>,
    /// `64 - log2(slots.len())`: Fibonacci hashing keeps the top bits.
    shift: u32,
    len: usize,
}

/// No group number reaches it: group numbers are block addresses shifted
/// right by [`GROUP_SHIFT`].
const EMPTY_KEY: u64 = u64::MAX;

impl GroupIndex {
    fn new() -> GroupIndex {
        GroupIndex::with_slots(1 << 10).unwrap_or_else(|e| panic!("{e}"))
    }

    fn with_slots(n: usize) -> Result<GroupIndex, CacheError> {
        Ok(GroupIndex {
            slots: table::filled(n, (EMPTY_KEY, 0), TABLES)?,
            shift: 64 - n.trailing_zeros(),
            len: 0,
        })
    }

    /// Grows the index, if need be, so that `n` more keys keep it at most
    /// half full.
    fn reserve(&mut self, n: usize) -> Result<(), CacheError> {
        while self.len.saturating_add(n).saturating_mul(2) > self.slots.len() {
            self.grow()?;
        }
        Ok(())
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = self.slots[i];
            if k == key {
                return Some(v as usize);
            }
            if k == EMPTY_KEY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`, inserting `fresh` if absent.
    #[inline(always)]
    fn get_or_insert(&mut self, key: u64, fresh: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = self.slots[i];
            if k == key {
                return v as usize;
            }
            if k == EMPTY_KEY {
                break;
            }
            i = (i + 1) & mask;
        }
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow().unwrap_or_else(|e| panic!("{e}"));
            return self.get_or_insert(key, fresh);
        }
        self.slots[i] = (key, fresh as u32);
        self.len += 1;
        fresh
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), CacheError> {
        let mut bigger = GroupIndex::with_slots(self.slots.len() * 2)?;
        let mask = bigger.slots.len() - 1;
        for &(k, v) in &self.slots {
            if k != EMPTY_KEY {
                let mut i = bigger.home(k);
                while bigger.slots[i].0 != EMPTY_KEY {
                    i = (i + 1) & mask;
                }
                bigger.slots[i] = (k, v);
            }
        }
        bigger.len = self.len;
        *self = bigger;
        Ok(())
    }
}
