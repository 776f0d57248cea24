//! Number parsing and formatting shared by the text formats. Hand-written
//! because text traces run to hundreds of millions of lines and the general
//! machinery (`str::parse`, `write!`) costs several times more per field.

/// Parses an unsigned decimal number; `None` if empty, not all digits, or over `u64::MAX`.
pub(crate) fn parse_dec(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut v = 0u64;
    for &b in s {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(v)
}

/// Parses unsigned hex digits (no prefix); `None` if empty, not hex, or over 64 bits.
pub(crate) fn parse_hex_digits(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut v = 0u64;
    for &b in s {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return None,
        };
        if v >> 60 != 0 {
            return None;
        }
        v = (v << 4) | u64::from(d);
    }
    Some(v)
}

/// `0x`/`0X`-prefixed hex, or plain hex when `bare_hex`, else decimal.
pub(crate) fn parse_addr(s: &[u8], bare_hex: bool) -> Option<u64> {
    match s {
        [b'0', b'x' | b'X', rest @ ..] => parse_hex_digits(rest),
        _ if bare_hex => parse_hex_digits(s),
        _ => parse_dec(s),
    }
}

/// Appends `v` in lowercase hex, no prefix, no leading zeros.
pub(crate) fn put_hex(out: &mut Vec<u8>, v: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let n = (16 - v.leading_zeros() as usize / 4).max(1);
    for i in (0..n).rev() {
        out.push(DIGITS[((v >> (4 * i)) & 15) as usize]);
    }
}

/// Appends `v` in decimal.
pub(crate) fn put_dec(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// A field as it would appear in a message: lossy UTF-8, shortened if huge.
pub(crate) fn show(s: &[u8]) -> String {
    const MAX: usize = 40;
    let t = String::from_utf8_lossy(&s[..s.len().min(MAX)]);
    if s.len() > MAX {
        format!("{t}...")
    } else {
        t.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for v in [0u64, 1, 9, 10, 15, 16, 255, 4096, u32::MAX as u64, u64::MAX] {
            let mut h = Vec::new();
            put_hex(&mut h, v);
            assert_eq!(parse_hex_digits(&h), Some(v));
            assert_eq!(h, format!("{v:x}").into_bytes());
            let mut d = Vec::new();
            put_dec(&mut d, v);
            assert_eq!(parse_dec(&d), Some(v));
            assert_eq!(d, v.to_string().into_bytes());
        }
    }

    #[test]
    fn rejects_junk_and_overflow() {
        assert_eq!(parse_dec(b""), None);
        assert_eq!(parse_dec(b"12a"), None);
        assert_eq!(parse_dec(b"18446744073709551616"), None);
        assert_eq!(parse_hex_digits(b"10000000000000000"), None);
        assert_eq!(parse_hex_digits(b"00000000000000000001"), Some(1));
        assert_eq!(parse_hex_digits(b"000000000000000000"), Some(0));
        assert_eq!(parse_hex_digits(b"g"), None);
        assert_eq!(parse_addr(b"0x", false), None);
        assert_eq!(parse_addr(b"0X1F", false), Some(31));
        assert_eq!(parse_addr(b"31", false), Some(31));
        assert_eq!(parse_addr(b"1f", true), Some(31));
        assert_eq!(parse_addr(b"-1", false), None);
    }
}
