//! LEB128 varints, the integer coding of the `.gtr` payload's templates
//! and markers.
//!
//! The decoder has a one-byte fast path and a branch-light eight-byte path,
//! and works on a shrinking `&[u8]` so that safe code needs no per-byte
//! bounds checks.

/// Longest encoding of a `u64`: 64 bits in 7-bit groups.
pub const MAX_LEN: usize = 10;

/// Appends `v` as an unsigned LEB128 varint.
#[inline]
pub fn put(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push((v as u8) | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

/// Reads one varint from the front of `buf` and advances past it.
///
/// `None` when `buf` ends inside the varint or the value does not fit in 64
/// bits; `buf` is then left unchanged.
#[inline(always)]
pub fn get(buf: &mut &[u8]) -> Option<u64> {
    if let Some((&b, rest)) = buf.split_first() {
        if b < 0x80 {
            *buf = rest;
            return Some(u64::from(b));
        }
    }
    get_multi(buf)
}

/// The multi-byte case, kept out of line so that the one-byte path inlines small.
#[inline(never)]
fn get_multi(buf: &mut &[u8]) -> Option<u64> {
    if let Some(w8) = buf.first_chunk::<8>() {
        let w = u64::from_le_bytes(*w8);
        // A set bit at 8k+7 marks byte k as the last one of the varint.
        let stops = !w & 0x8080_8080_8080_8080;
        if stops != 0 {
            // Keep bytes 0..=k: the lowest stop bit and everything below it.
            let x = w & (stops ^ (stops - 1));
            let len = (stops.trailing_zeros() / 8 + 1) as usize;
            let v = (x & 0x7f)
                | ((x >> 1) & (0x7f << 7))
                | ((x >> 2) & (0x7f << 14))
                | ((x >> 3) & (0x7f << 21))
                | ((x >> 4) & (0x7f << 28))
                | ((x >> 5) & (0x7f << 35))
                | ((x >> 6) & (0x7f << 42))
                | ((x >> 7) & (0x7f << 49));
            *buf = buf.get(len..)?;
            return Some(v);
        }
    }
    get_slow(buf)
}

/// Byte at a time: varints of nine or ten bytes, and the last few bytes of a buffer.
fn get_slow(buf: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for (i, &b) in buf.iter().enumerate().take(MAX_LEN) {
        let bits = u64::from(b & 0x7f);
        if i == MAX_LEN - 1 && bits > 1 {
            return None; // more than 64 bits
        }
        v |= bits << (7 * i);
        if b < 0x80 {
            *buf = buf.get(i + 1..)?;
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: u64) {
        let mut buf = Vec::new();
        put(&mut buf, v);
        assert!(buf.len() <= MAX_LEN);
        // Alone, and followed by padding so that the eight-byte path runs too.
        for pad in [0usize, 1, 8] {
            let mut b = buf.clone();
            b.extend(std::iter::repeat_n(0xAAu8, pad));
            let mut s = &b[..];
            assert_eq!(get(&mut s), Some(v), "{v:#x} pad {pad}");
            assert_eq!(s.len(), pad);
        }
    }

    #[test]
    fn round_trips_every_length() {
        for shift in 0..64 {
            let v = 1u64 << shift;
            round_trip(v);
            round_trip(v - 1);
            round_trip(v | (v >> 1));
        }
        round_trip(u64::MAX);
    }

    #[test]
    fn rejects_overruns_and_overflow() {
        for n in 1..12 {
            let b = vec![0x80u8; n];
            let mut s = &b[..];
            assert_eq!(get(&mut s), None);
            assert_eq!(s.len(), n);
        }
        // Eleven bytes' worth, and a tenth byte carrying more than bit 63.
        let mut over = vec![0xffu8; 9];
        over.push(0x02);
        assert_eq!(get(&mut &over[..]), None);
        let mut max = vec![0xffu8; 9];
        max.push(0x01);
        assert_eq!(get(&mut &max[..]), Some(u64::MAX));
    }
}
