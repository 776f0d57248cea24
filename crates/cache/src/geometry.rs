//! The shape of a cache: block size, sets, ways, banks, index function and
//! write policy; and parsing of sizes such as `8MiB`.

use crate::error::CacheError;

/// How a block address picks its set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IndexFn {
    /// `block % sets`.
    #[default]
    Modulo,
    /// The block address cut into `log2(sets)`-bit pieces, XORed together.
    /// Needs a power-of-two set count.
    XorFold,
}

/// What a write does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WritePolicy {
    /// Dirty lines are written back when evicted.
    #[default]
    WriteBack,
    /// Every write goes to memory at once; lines are never dirty.
    WriteThrough,
}

/// Cache geometry. Built by [`Geometry::new`], which checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Block (line) size in bytes, a power of two.
    pub block: u32,
    pub sets: u32,
    pub ways: u32,
    /// Banks; a set belongs to bank `set % banks`. Policies that keep
    /// per-bank state (SHiP-mem, GSPC) use it.
    pub banks: u32,
    pub index: IndexFn,
    pub write: WritePolicy,
    /// Whether a write miss allocates a line (write-allocate) or goes
    /// straight to memory (no-write-allocate).
    pub write_allocate: bool,
}

/// `--ways N` or `--ways full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ways {
    N(u32),
    Full,
}

impl std::str::FromStr for Ways {
    type Err = CacheError;
    fn from_str(s: &str) -> Result<Ways, CacheError> {
        if s == "full" {
            return Ok(Ways::Full);
        }
        match s.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Ways::N(n)),
            _ => Err(CacheError::Geometry(format!(
                "ways '{s}': expected a positive whole number or 'full'"
            ))),
        }
    }
}

impl Geometry {
    /// A write-back, write-allocate cache of `sets` x `ways` blocks.
    pub fn new(block: u32, sets: u32, ways: u32) -> Result<Geometry, CacheError> {
        Geometry {
            block,
            sets,
            ways,
            banks: 1,
            index: IndexFn::Modulo,
            write: WritePolicy::WriteBack,
            write_allocate: true,
        }
        .checked()
    }

    /// The geometry of a cache of `size` bytes.
    pub fn from_size(size: u64, ways: Ways, block: u32) -> Result<Geometry, CacheError> {
        if block == 0 || !block.is_power_of_two() {
            return Err(CacheError::Geometry(format!(
                "block size {block}: expected a power of two"
            )));
        }
        if size == 0 || !size.is_multiple_of(u64::from(block)) {
            return Err(CacheError::Geometry(format!(
                "size {size} is not a positive multiple of the block size {block}"
            )));
        }
        let blocks = size / u64::from(block);
        let blocks = u32::try_from(blocks)
            .map_err(|_| CacheError::Geometry(format!("size {size}: more than 2^32 blocks")))?;
        let ways = match ways {
            Ways::Full => blocks,
            Ways::N(w) => w,
        };
        if ways == 0 || blocks % ways != 0 {
            return Err(CacheError::Geometry(format!(
                "{blocks} blocks cannot be split into sets of {ways} ways"
            )));
        }
        Geometry::new(block, blocks / ways, ways)
    }

    pub fn with_banks(mut self, banks: u32) -> Result<Geometry, CacheError> {
        self.banks = banks;
        self.checked()
    }

    pub fn with_index(mut self, index: IndexFn) -> Result<Geometry, CacheError> {
        self.index = index;
        self.checked()
    }

    pub fn with_write(mut self, write: WritePolicy, allocate: bool) -> Geometry {
        self.write = write;
        self.write_allocate = allocate;
        self
    }

    fn checked(self) -> Result<Geometry, CacheError> {
        let fail = |what: String| Err(CacheError::Geometry(what));
        if self.block == 0 || !self.block.is_power_of_two() {
            return fail(format!(
                "block size {}: expected a power of two",
                self.block
            ));
        }
        if self.sets == 0 || self.ways == 0 {
            return fail(format!(
                "{} sets x {} ways: both must be positive",
                self.sets, self.ways
            ));
        }
        if u64::from(self.sets) * u64::from(self.ways) > u64::from(u32::MAX) {
            return fail(format!(
                "{} sets x {} ways: more than 2^32 blocks",
                self.sets, self.ways
            ));
        }
        if self.banks == 0 || !self.sets.is_multiple_of(self.banks) {
            return fail(format!(
                "{} banks: expected a positive divisor of the set count {}",
                self.banks, self.sets
            ));
        }
        if self.index == IndexFn::XorFold && !self.sets.is_power_of_two() {
            return fail(format!(
                "xor-folded index needs a power-of-two set count, not {}",
                self.sets
            ));
        }
        Ok(self)
    }

    /// Total capacity in bytes.
    pub fn size(&self) -> u64 {
        u64::from(self.block) * u64::from(self.sets) * u64::from(self.ways)
    }

    pub fn blocks(&self) -> usize {
        self.sets as usize * self.ways as usize
    }

    pub fn block_shift(&self) -> u32 {
        self.block.trailing_zeros()
    }

    /// The set of block address `block` (an address already shifted by the block size).
    #[inline(always)]
    pub fn set_of(&self, block: u64) -> usize {
        match self.index {
            IndexFn::Modulo => {
                if self.sets.is_power_of_two() {
                    (block & u64::from(self.sets - 1)) as usize
                } else {
                    (block % u64::from(self.sets)) as usize
                }
            }
            IndexFn::XorFold => {
                let bits = self.sets.trailing_zeros();
                if bits == 0 {
                    return 0;
                }
                let mask = u64::from(self.sets - 1);
                let mut b = block;
                let mut set = 0u64;
                while b != 0 {
                    set ^= b & mask;
                    b >>= bits;
                }
                set as usize
            }
        }
    }

    #[inline(always)]
    pub fn bank_of(&self, set: usize) -> usize {
        if self.banks.is_power_of_two() {
            set & (self.banks as usize - 1)
        } else {
            set % self.banks as usize
        }
    }
}

/// Parses a size: plain bytes, or a number with `KiB`, `MiB`, `GiB` (powers
/// of 1024) or `KB`, `MB`, `GB` (also powers of 1024, as cache sizes are
/// always quoted), `K`/`M`/`G` likewise.
pub fn parse_size(s: &str) -> Result<u64, CacheError> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || {
        CacheError::Geometry(format!(
            "size '{s}': expected a whole number of bytes, optionally with KiB, MiB, GiB, KB, MB or GB"
        ))
    };
    let n: u64 = num.parse().map_err(|_| bad())?;
    let mult: u64 = match unit.trim() {
        "" | "B" => 1,
        "K" | "KB" | "KiB" | "k" | "kB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return Err(bad()),
    };
    n.checked_mul(mult).ok_or_else(bad)
}

/// Formats a byte count the way [`parse_size`] reads it, e.g. `8MiB`.
pub fn format_size(bytes: u64) -> String {
    for (unit, m) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes >= m && bytes.is_multiple_of(m) {
            return format!("{}{unit}", bytes / m);
        }
    }
    format!("{bytes}B")
}
