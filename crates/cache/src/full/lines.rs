//! The packed lines of [`super::queue`] and [`super::ways`]
//! ([`PackedLines`]): the lines live in the index itself, an
//! open-addressing table of at most half load (linear probing from a
//! Fibonacci hash, deletion by backward shift), one 16-byte [`Line`] an
//! entry, so that a lookup compares blocks without following a pointer.

use crate::error::CacheError;
use crate::policy::prefetch;
use crate::table::filled;

/// The block of an empty entry; no block address reaches it (as the
/// engine's invalid tag).
const EMPTY: u64 = u64::MAX;

/// One line: its block, what its kernel ties it to (the queue position of
/// its last touch, or its way) and its meta byte (the engine's:
/// `DIRTY` | owner's stream id).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct Line {
    pub block: u64,
    pub link: u32,
    pub meta: u8,
}

const VACANT: Line = Line {
    block: EMPTY,
    link: 0,
    meta: 0,
};

/// The lines of a fully associative cache, by block.
pub struct PackedLines {
    /// A power of two of entries, at least twice the lines.
    table: Vec<Line>,
    mask: usize,
    /// The top bits of a block's Fibonacci hash are its home entry.
    hash_shift: u32,
}

impl PackedLines {
    /// Room for `lines` lines, or [`CacheError::OutOfMemory`].
    pub fn try_new(lines: usize) -> Result<PackedLines, CacheError> {
        let size = (lines * 2).next_power_of_two();
        Ok(PackedLines {
            table: filled(size, VACANT, "the tag index")?,
            mask: size - 1,
            hash_shift: 64 - size.trailing_zeros(),
        })
    }

    #[inline(always)]
    fn home(&self, block: u64) -> usize {
        (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.hash_shift) as usize
    }

    /// The entry holding `block`, or the empty entry where it would go.
    #[inline(always)]
    pub fn find(&self, block: u64) -> (usize, bool) {
        let mut i = self.home(block);
        loop {
            let b = self.table[i].block;
            if b == block {
                return (i, true);
            }
            if b == EMPTY {
                return (i, false);
            }
            i = (i + 1) & self.mask;
        }
    }

    #[inline(always)]
    pub fn get(&self, at: usize) -> &Line {
        &self.table[at]
    }

    #[inline(always)]
    pub fn get_mut(&mut self, at: usize) -> &mut Line {
        &mut self.table[at]
    }

    /// Puts `line` in entry `at`, which [`PackedLines::find`] gave as
    /// empty for its block.
    #[inline(always)]
    pub fn put(&mut self, at: usize, line: Line) {
        self.table[at] = line;
    }

    /// Hints that `block` will be looked up soon. Changes nothing.
    #[inline(always)]
    pub fn prefetch(&self, block: u64) {
        prefetch(&self.table, self.home(block));
    }

    /// Hints that entry `at` will be read soon. Changes nothing.
    #[inline(always)]
    pub fn prefetch_entry(&self, at: usize) {
        prefetch(&self.table, at);
    }

    /// Empties entry `gone` and gives the empty entry where `block` now
    /// goes, `at` being where [`PackedLines::find`] placed it before. The
    /// entries after `gone` that could not be found otherwise move back,
    /// each told to `moved` (its link, its new entry).
    #[inline(always)]
    pub fn replace(
        &mut self,
        gone: usize,
        block: u64,
        at: usize,
        moved: impl FnMut(u32, usize),
    ) -> usize {
        let emptied = self.remove(gone, moved);
        // Every entry from the block's home up to `at` was full, and the
        // removal emptied one entry only: if that one is on the way, it is
        // now the first empty one there.
        let home = self.home(block);
        let on_the_way =
            (emptied.wrapping_sub(home) & self.mask) < (at.wrapping_sub(home) & self.mask);
        if on_the_way {
            emptied
        } else {
            at
        }
    }

    /// Empties entry `at` (deletion by backward shift); the entry left
    /// empty.
    fn remove(&mut self, mut at: usize, mut moved: impl FnMut(u32, usize)) -> usize {
        let mut j = at;
        loop {
            j = (j + 1) & self.mask;
            let e = self.table[j];
            if e.block == EMPTY {
                break;
            }
            let home = self.home(e.block);
            // Whether `home` lies cyclically in (at, j]: then it stays.
            let stays = if at <= j {
                at < home && home <= j
            } else {
                at < home || home <= j
            };
            if !stays {
                self.table[at] = e;
                moved(e.link, at);
                at = j;
            }
        }
        self.table[at] = VACANT;
        at
    }
}
