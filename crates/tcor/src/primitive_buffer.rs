//! The Primitive Buffer of the Attribute Cache (Section III-C2): one line
//! per cached primitive, holding three control bits (valid, lock, dirty),
//! the tag, the OPT Number and the Attribute Buffer Pointer (ABP).
//!
//! It is indexed with the Primitive ID (the address of the primitive's
//! first attribute) through an XOR-based set index (González et al., the paper's reference 12):
//! the block address cut into `log2(sets)`-bit pieces XORed together, which
//! spreads primitives that a modulo index would pile into few sets. The
//! set count must be a power of two; one set is a fully associative
//! buffer. The tag kept here is the whole Primitive ID (the paper keeps
//! its most significant bits, which identify it as uniquely).
//!
//! Besides the paper's fields a line keeps what the simulator needs: the
//! primitive's number and attribute count (for write-backs and the L2
//! model), a last-touch stamp for the LRU and MRU variants and a 2-bit RRPV
//! for the DRRIP variant.

use std::collections::{BTreeSet, HashMap};

use crate::attribute_buffer::Abp;
use crate::binning::OptNumber;
use crate::error::ConfigError;
use crate::layout::BLOCK_BYTES;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PbLine {
    pub valid: bool,
    /// A bit in hardware; a count here (see the Attribute Buffer's lock).
    pub lock: u16,
    pub dirty: bool,
    /// The Primitive ID.
    pub tag: u64,
    pub opt: OptNumber,
    pub abp: Abp,
    pub prim: u32,
    pub attributes: u32,
    /// Last access, for LRU and MRU.
    pub stamp: u64,
    /// Re-reference prediction value, for DRRIP (0 otherwise).
    pub rrpv: u8,
}

impl PbLine {
    const INVALID: PbLine = PbLine {
        valid: false,
        lock: 0,
        dirty: false,
        tag: 0,
        opt: OptNumber::NEVER,
        abp: 0,
        prim: 0,
        attributes: 0,
        stamp: 0,
        rrpv: 0,
    };
}

#[derive(Clone, Debug)]
pub struct PrimitiveBuffer {
    lines: Vec<PbLine>,
    sets: u32,
    ways: u32,
    set_bits: u32,
    /// Primitive ID -> line, for sets too wide to scan (the simulator's
    /// stand-in for a fully associative tag match).
    index: Option<HashMap<u64, u32>>,
    /// The invalid lines of each set, for sets with an `index`: finding
    /// the lowest one must not scan a set of thousands of ways.
    free: Option<Vec<BTreeSet<u32>>>,
}

/// Sets up to this wide are scanned; wider ones use a hash index.
pub const SCAN_WAYS: u32 = 16;

impl PrimitiveBuffer {
    /// `lines` lines of `ways` ways each set (`ways == lines`: fully
    /// associative); the set count must be a power of two.
    pub fn new(lines: u32, ways: u32) -> Result<PrimitiveBuffer, ConfigError> {
        if lines == 0 || ways == 0 || !lines.is_multiple_of(ways) {
            return Err(ConfigError::Cache(format!(
                "Primitive Buffer of {lines} lines cannot be split into sets of {ways} ways"
            )));
        }
        let sets = lines / ways;
        if !sets.is_power_of_two() {
            return Err(ConfigError::Cache(format!(
                "Primitive Buffer: {sets} sets; the XOR-based index needs a power of two"
            )));
        }
        Ok(PrimitiveBuffer {
            lines: vec![PbLine::INVALID; lines as usize],
            sets,
            ways,
            set_bits: sets.trailing_zeros(),
            index: (ways > SCAN_WAYS).then(|| HashMap::with_capacity(lines as usize)),
            free: (ways > SCAN_WAYS).then(|| {
                (0..sets)
                    .map(|set| (set * ways..(set + 1) * ways).collect())
                    .collect()
            }),
        })
    }

    pub fn sets(&self) -> u32 {
        self.sets
    }

    pub fn ways(&self) -> u32 {
        self.ways
    }

    pub fn capacity(&self) -> u32 {
        self.lines.len() as u32
    }

    /// The set of a Primitive ID: its block address XOR-folded.
    pub fn set_of(&self, id: u64) -> u32 {
        if self.set_bits == 0 {
            return 0;
        }
        let mask = (1u64 << self.set_bits) - 1;
        let mut block = id / BLOCK_BYTES;
        let mut set = 0;
        while block != 0 {
            set ^= block & mask;
            block >>= self.set_bits;
        }
        set as u32
    }

    /// The line indices of a set.
    pub fn set_lines(&self, set: u32) -> std::ops::Range<usize> {
        let base = (set * self.ways) as usize;
        base..base + self.ways as usize
    }

    /// The line holding `id`, if any.
    pub fn find(&self, id: u64) -> Option<usize> {
        if let Some(index) = &self.index {
            return index.get(&id).map(|&i| i as usize);
        }
        self.set_lines(self.set_of(id))
            .find(|&i| self.lines[i].valid && self.lines[i].tag == id)
    }

    /// The first invalid line of a set.
    pub fn free_line(&self, set: u32) -> Option<usize> {
        if let Some(free) = &self.free {
            return free[set as usize].first().map(|&i| i as usize);
        }
        self.set_lines(set).find(|&i| !self.lines[i].valid)
    }

    pub fn line(&self, i: usize) -> &PbLine {
        &self.lines[i]
    }

    /// Changes a line's fields other than valid and tag (use
    /// [`PrimitiveBuffer::fill`] for those).
    pub fn line_mut(&mut self, i: usize) -> &mut PbLine {
        &mut self.lines[i]
    }

    /// Puts a valid line in line `i`, which must be invalid.
    pub fn fill(&mut self, i: usize, line: PbLine) {
        debug_assert!(!self.lines[i].valid && line.valid);
        debug_assert!(self.set_lines(self.set_of(line.tag)).contains(&i));
        if let Some(index) = &mut self.index {
            index.insert(line.tag, i as u32);
        }
        if let Some(free) = &mut self.free {
            free[i / self.ways as usize].remove(&(i as u32));
        }
        self.lines[i] = line;
    }

    pub fn lines(&self) -> &[PbLine] {
        &self.lines
    }

    pub fn invalidate(&mut self, i: usize) {
        if let Some(index) = &mut self.index {
            index.remove(&self.lines[i].tag);
        }
        if let Some(free) = &mut self.free {
            free[i / self.ways as usize].insert(i as u32);
        }
        self.lines[i] = PbLine::INVALID;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_index_folds_the_block_address() {
        let pb = PrimitiveBuffer::new(64, 4).unwrap(); // 16 sets, 4 bits
        assert_eq!(pb.set_of(0), 0);
        assert_eq!(pb.set_of(5 * 64), 5);
        // Block 0x35: 0x5 ^ 0x3.
        assert_eq!(pb.set_of(0x35 * 64), 6);
        // A modulo index would put blocks 16 apart in one set; XOR does not.
        assert_ne!(pb.set_of(16 * 64), pb.set_of(32 * 64));
        let full = PrimitiveBuffer::new(8, 8).unwrap();
        assert_eq!(full.set_of(12345 * 64), 0);
    }

    #[test]
    fn shapes_are_checked() {
        assert!(PrimitiveBuffer::new(12, 4).is_err()); // 3 sets
        assert!(PrimitiveBuffer::new(10, 4).is_err());
        assert!(PrimitiveBuffer::new(0, 1).is_err());
        assert!(PrimitiveBuffer::new(12, 12).is_ok());
    }
}
