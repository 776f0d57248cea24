//! LEB128 and prefix varints, the integer coding of the `.gtr` payload.
//!
//! The decoder is on the hottest path of the whole simulator (every access of
//! every trace goes through it), so it has a one-byte fast path and a
//! branch-light eight-byte path, and it works on a shrinking `&[u8]` so that
//! safe code needs no per-byte bounds checks.

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

/// Longest prefix varint: a 0xff byte, then the value's eight bytes.
pub const PREFIX_MAX_LEN: usize = 9;

/// Appends `x` as a signed prefix varint: the count of trailing one bits
/// of the first byte, `n`, says the varint is `n + 1` bytes long. For
/// `n <= 7` the `n + 1` little-endian bytes hold `(x << (n + 1)) | (2^n - 1)`:
/// 7 bits of two's complement value per byte, sign-extended from the top
/// one (values in -2^55 .. 2^55); a first byte of 0xff is followed by the
/// eight little-endian bytes of `x`. Unlike LEB128, the length is known from
/// the first byte, so decoding needs no loop and no data-dependent branch.
#[inline]
pub fn put_prefix(buf: &mut Vec<u8>, x: i64) {
    // Value bits plus a sign bit.
    let bits = 65 - ((x ^ (x >> 63)) as u64).leading_zeros();
    let len = bits.div_ceil(7) as usize;
    if len > 8 {
        buf.push(0xff);
        buf.extend_from_slice(&x.to_le_bytes());
        return;
    }
    let w = ((x as u64) << len) | ((1u64 << (len - 1)) - 1);
    buf.extend_from_slice(&w.to_le_bytes()[..len]);
}

/// Reads the signed prefix varint at `buf[at..]`, returning it and its length.
///
/// Reads [`PREFIX_MAX_LEN`] bytes whatever the varint's length, so callers
/// keep that many readable bytes after their data (the decode buffer's
/// padding) and check the returned length against their data's end. `None`
/// only when `buf` itself ends first.
#[cfg(test)]
pub fn get_prefix(buf: &[u8], at: usize) -> Option<(i64, usize)> {
    Some(prefix_at(buf.get(at..)?.first_chunk()?))
}

/// Decodes the signed prefix varint at the start of `b`, returning it and
/// its length (at most [`PREFIX_MAX_LEN`]). Cannot fail: the caller has
/// already made sure the longest varint's bytes are there.
#[inline(always)]
pub fn prefix_at(b: &[u8; PREFIX_MAX_LEN]) -> (i64, usize) {
    // Always `Some`: the array is longer than eight bytes.
    let w = u64::from_le_bytes(*b.first_chunk::<8>().unwrap_or(&[0; 8]));
    let len = (!w).trailing_zeros() as usize + 1;
    if len <= 8 {
        // The varint's bytes to the top, then its value bits back down.
        (((w << (64 - 8 * len)) as i64) >> (64 - 7 * len), len)
    } else {
        (((w >> 8) | (u64::from(b[8]) << 56)) as i64, PREFIX_MAX_LEN)
    }
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
    fn prefix_round_trips_every_length() {
        let mut vals = vec![0i64, -1, i64::MAX, i64::MIN];
        for shift in 0..63 {
            let v = 1i64 << shift;
            vals.extend([v, v - 1, v | (v >> 1), -v, -v - 1, !(v | (v >> 1))]);
        }
        for v in vals {
            let mut buf = Vec::new();
            put_prefix(&mut buf, v);
            let n = buf.len();
            let bits = 65 - ((v ^ (v >> 63)) as u64).leading_zeros() as usize;
            assert_eq!(n, if bits > 56 { 9 } else { bits.div_ceil(7) }, "{v:#x}");
            buf.extend([0xAAu8; 9]);
            assert_eq!(get_prefix(&buf, 0), Some((v, n)), "{v:#x}");
        }
        assert_eq!(get_prefix(&[0u8; 8], 0), None);
        assert_eq!(get_prefix(&[0u8; 9], 0), Some((0, 1)));
        assert_eq!(
            get_prefix(&[0xfeu8, 0xff, 0, 0, 0, 0, 0, 0, 0], 0),
            Some((-1, 1))
        );
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
