//! The large tables of a simulation: a cache's tags and line records, a
//! policy's per-line state, OPT's next-use indices and table of last
//! uses, the stack-distance tables of `mrc`. Two concerns, one place:
//!
//! - Allocation is fallible: a table too large for the memory at hand
//!   (a 64 GiB cache under `ulimit -v`, a damaged file announcing too
//!   much) is [`CacheError::OutOfMemory`], naming the table and its size,
//!   never an abort in the allocator. Every table that grows with the
//!   cache, the trace or its footprint comes from here.
//! - Transparent huge pages. Linux backs fresh memory with 4 KiB pages,
//!   each faulted in and zeroed on first touch. For tables of tens of
//!   megabytes those faults cost a fifth of an OPT run on a real frame
//!   (the `city` LLC trace: 23 -> 28 M accesses/s with huge pages), and
//!   nearly a tenth of `mrc`'s. Most systems set THP to `madvise`, where
//!   a process gets huge pages only where it asks; this asks. It is
//!   advice: where the kernel refuses (THP `never`, another OS), nothing
//!   changes but the speed.

use crate::error::CacheError;

/// Below this, tables are left alone: huge pages are 2 MiB.
const MIN_BYTES: usize = 4 << 20;

/// Advises the kernel to back the whole allocation of `v` (its capacity,
/// not just its length) with huge pages, if it is large enough to gain.
pub(crate) fn advise<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes >= MIN_BYTES {
        advise_range(v.as_ptr().cast(), bytes);
    }
}

/// `vec![value; n]`, advised before it is written, or the error that
/// names `what` when the memory is refused. For a value of zero bytes,
/// `zeroed` asks the allocator for memory it need not write.
pub fn filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>, CacheError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| CacheError::out_of_memory::<T>(n, what))?;
    advise(&v);
    v.resize(n, value);
    Ok(v)
}

/// The values of `values`, collected into a table, or the error that names
/// `what` when the memory is refused.
pub fn collect<T>(
    values: impl ExactSizeIterator<Item = T>,
    what: &str,
) -> Result<Vec<T>, CacheError> {
    let mut v = Vec::new();
    v.try_reserve_exact(values.len())
        .map_err(|_| CacheError::out_of_memory::<T>(values.len(), what))?;
    v.extend(values);
    Ok(v)
}

/// `vec![0; n]`, advised, or the error that names `what` when the memory
/// is refused. The memory comes zeroed from the allocator (`calloc`),
/// untouched until used.
pub(crate) fn zeroed<T: Zeroed>(n: usize, what: &str) -> Result<Vec<T>, CacheError> {
    let refused = || CacheError::out_of_memory::<T>(n, what);
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| refused())?;
    // SAFETY: `layout` has a non-zero size (n > 0, T is not zero-sized).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(refused());
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `n` values of `T`, all zero bytes, a valid `T` each (`Zeroed`).
    let v = unsafe { Vec::from_raw_parts(ptr, n, n) };
    advise(&v);
    Ok(v)
}

/// Types for which all-zero bytes are a valid value (zero).
///
/// # Safety
/// Every implementation must be a type whose all-zero bit pattern is a
/// valid value.
pub(crate) unsafe trait Zeroed {}
// SAFETY: integers are valid for every bit pattern.
unsafe impl Zeroed for u64 {}
// SAFETY: as above.
unsafe impl Zeroed for u32 {}
// SAFETY: as above.
unsafe impl Zeroed for u16 {}

/// `vec![0; n]` as [`zeroed`], or `None` where the allocation fails: for
/// tables sized from what a file announces, a hint the caller may do
/// without.
pub(crate) fn try_zeroed(n: usize) -> Option<Vec<u64>> {
    zeroed(n, "").ok()
}

/// `v.try_reserve(more)`, then [`advise`] of the grown allocation (the
/// part not yet touched gets huge pages), or the error that names `what`.
pub(crate) fn reserve<T>(v: &mut Vec<T>, more: usize, what: &str) -> Result<(), CacheError> {
    if v.capacity() - v.len() < more {
        v.try_reserve(more)
            .map_err(|_| CacheError::out_of_memory::<T>(v.len().saturating_add(more), what))?;
        advise(v);
    }
    Ok(())
}

/// [`reserve`] of room for `total` values in all.
pub(crate) fn reserve_total<T>(v: &mut Vec<T>, total: usize, what: &str) -> Result<(), CacheError> {
    let more = total.saturating_sub(v.len());
    reserve(v, more, what)
}

/// `v` emptied and refilled with `n` copies of `value`, any new
/// allocation advised before it is written, or the error that names
/// `what` (then `v` is empty).
pub(crate) fn refill<T: Clone>(
    v: &mut Vec<T>,
    n: usize,
    value: T,
    what: &str,
) -> Result<(), CacheError> {
    v.clear();
    reserve(v, n, what)?;
    v.resize(n, value);
    Ok(())
}

#[cfg(target_os = "linux")]
fn advise_range(start: *const u8, bytes: usize) {
    const PAGE: usize = 4096;
    // madvise takes page-aligned ranges: the pages wholly inside.
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside one live allocation of ours;
        // MADV_HUGEPAGE changes how it is backed, never its contents.
        // The result is ignored: advice the kernel declines costs nothing.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_start: *const u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_zeroed_is_zeroed_or_refused() {
        let v = try_zeroed(MIN_BYTES / 8 + 5).expect("a few MiB");
        assert_eq!(v.len(), MIN_BYTES / 8 + 5);
        assert!(v.iter().all(|&x| x == 0));
        assert_eq!(try_zeroed(0), Some(Vec::new()));
        // Past what a layout can describe, and past what the machine can map.
        assert_eq!(try_zeroed(usize::MAX / 4), None);
        assert_eq!(try_zeroed(1 << 57), None);
    }

    #[test]
    fn filled_and_reserve_keep_values() {
        // Above MIN_BYTES, so that the advice is really given.
        let n = MIN_BYTES / 4 + 3;
        let v = filled(n, 7u32, "t").unwrap();
        assert_eq!(v.len(), n);
        assert!(v.iter().all(|&x| x == 7));

        let mut w: Vec<u32> = (0..1000).collect();
        for more in [0, 1, 5000, MIN_BYTES / 4] {
            let before = w.clone();
            reserve(&mut w, more, "t").unwrap();
            assert!(w.capacity() >= before.len() + more);
            assert_eq!(w, before);
            w.extend((0..more as u32).map(|x| x ^ 0x55));
        }
    }

    #[test]
    fn a_table_too_large_is_an_error_naming_it() {
        let e = filled(1usize << 58, 0u64, "the tags").unwrap_err();
        assert_eq!(
            e,
            CacheError::OutOfMemory {
                what: "the tags".into(),
                bytes: 1 << 61
            }
        );
        assert!(zeroed::<u32>(1 << 60, "x").is_err());
        assert!(collect((0..1usize << 60).map(|x| x as u8), "x").is_err());
        let mut v = vec![1u8];
        assert!(reserve(&mut v, usize::MAX / 2, "x").is_err());
        assert_eq!(v, [1], "a refused reservation leaves the table alone");
        assert!(refill(&mut v, 1 << 62, 0, "x").is_err());
    }
}
