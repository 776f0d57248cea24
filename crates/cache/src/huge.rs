//! Transparent huge pages for the large tables that grow with a trace's
//! footprint or length: OPT's next-use indices and block table, and the
//! stack-distance tables of `mrc`.
//!
//! Linux backs fresh memory with 4 KiB pages, each faulted in and zeroed
//! on first touch. For tables of tens of megabytes those faults cost a
//! fifth of an OPT run on a real frame (the `city` LLC trace: 23 -> 28 M
//! accesses/s with huge pages), and nearly a tenth of `mrc`'s. Most
//! systems set THP to `madvise`, where a process gets huge pages only
//! where it asks; this asks. It is advice: where the kernel refuses (THP
//! `never`, another OS), nothing changes but the speed.

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

/// `vec![value; n]`, advised before it is written. For a value of zero
/// bytes, `vec![0; n]` then [`advise`] instead: that memory comes zeroed
/// from the kernel, where this would write it twice.
pub(crate) fn filled<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise(&v);
    v.resize(n, value);
    v
}

/// `vec![0; n]`, advised, or `None` where the allocation fails: for
/// tables sized from what a file announces, which must not abort the
/// process when a damaged or hostile file announces too much. The memory
/// comes zeroed from the allocator (`calloc`), untouched until used.
pub(crate) fn try_zeroed(n: usize) -> Option<Vec<u64>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    // SAFETY: `layout` has a non-zero size (n > 0, u64 is 8 bytes).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `n` u64s, all of them zero bytes (a valid u64 each).
    let v = unsafe { Vec::from_raw_parts(ptr, n, n) };
    advise(&v);
    Some(v)
}

/// `v.reserve(more)`, then [`advise`] of the grown allocation: the part
/// not yet touched gets huge pages.
pub(crate) fn reserve<T>(v: &mut Vec<T>, more: usize) {
    if v.capacity() - v.len() < more {
        v.reserve(more);
        advise(v);
    }
}

/// `v` emptied and refilled with `n` copies of `value`, any new
/// allocation advised before it is written.
pub(crate) fn refill<T: Clone>(v: &mut Vec<T>, n: usize, value: T) {
    v.clear();
    reserve(v, n);
    v.resize(n, value);
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
        let v = filled(n, 7u32);
        assert_eq!(v.len(), n);
        assert!(v.iter().all(|&x| x == 7));

        let mut w: Vec<u32> = (0..1000).collect();
        for more in [0, 1, 5000, MIN_BYTES / 4] {
            let before = w.clone();
            reserve(&mut w, more);
            assert!(w.capacity() >= before.len() + more);
            assert_eq!(w, before);
            w.extend((0..more as u32).map(|x| x ^ 0x55));
        }
    }
}
