//! Whole-set operations on per-way bytes (fingerprints, RRPVs), 16 ways
//! at a time: on x86-64 one SSE2 compare and one `pmovmskb` per 16 ways
//! (SSE2 is part of the baseline target), elsewhere plain loops.

/// Lanes per chunk.
pub const LANES: usize = 16;

/// Bit `i` set where `chunk[i] == v`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn eq_mask16(chunk: &[u8; LANES], v: u8) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
    // SAFETY: SSE2 is in the x86-64 baseline; the load reads the 16 bytes of `chunk`.
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr().cast());
        _mm_movemask_epi8(_mm_cmpeq_epi8(x, splat(v))) as u32
    }
}

/// `v` in every byte lane: one multiply and two moves, where SSE2's own
/// byte broadcast takes four instructions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn splat(v: u8) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::{_mm_cvtsi32_si128, _mm_shuffle_epi32};
    // SAFETY: SSE2 is in the x86-64 baseline.
    unsafe {
        _mm_shuffle_epi32::<0>(_mm_cvtsi32_si128(
            (u32::from(v).wrapping_mul(0x0101_0101)) as i32,
        ))
    }
}

/// Bit `i` set where `chunk[i] == v`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn eq_mask16(chunk: &[u8; LANES], v: u8) -> u32 {
    let mut m = 0u32;
    for (i, &b) in chunk.iter().enumerate() {
        m |= u32::from(b == v) << i;
    }
    m
}

/// Bit `i` set where `bytes[i] == v`; `bytes` at most 64 long.
#[inline(always)]
pub fn eq_mask(bytes: &[u8], v: u8) -> u64 {
    debug_assert!(bytes.len() <= 64);
    if let Ok(chunk) = <&[u8; LANES]>::try_from(bytes) {
        return u64::from(eq_mask16(chunk, v));
    }
    let mut m = 0u64;
    let mut chunks = bytes.chunks_exact(LANES);
    let mut shift = 0;
    for c in &mut chunks {
        m |= u64::from(eq_mask16(c.try_into().unwrap(), v)) << shift;
        shift += LANES;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        m |= u64::from(b == v) << (shift + i);
    }
    m
}

/// The first index where `bytes[i] == v`; `bytes` at most 64 long.
#[inline(always)]
pub fn first_eq(bytes: &[u8], v: u8) -> Option<usize> {
    let m = eq_mask(bytes, v);
    (m != 0).then(|| m.trailing_zeros() as usize)
}

/// The largest byte (0 for an empty slice).
#[inline(always)]
pub fn max(bytes: &[u8]) -> u8 {
    if let Ok(chunk) = <&[u8; LANES]>::try_from(bytes) {
        return max16(chunk);
    }
    let mut chunks = bytes.chunks_exact(LANES);
    let mut acc = [0u8; LANES];
    for c in &mut chunks {
        for (a, &b) in acc.iter_mut().zip(c) {
            *a = (*a).max(b);
        }
    }
    let mut top = 0;
    for &a in acc.iter().chain(chunks.remainder()) {
        top = top.max(a);
    }
    top
}

/// The largest of 16 bytes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn max16(chunk: &[u8; LANES]) -> u8 {
    use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_loadu_si128, _mm_max_epu8, _mm_srli_si128};
    // SAFETY: SSE2 is in the x86-64 baseline; the load reads `chunk`.
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr().cast());
        let x = _mm_max_epu8(x, _mm_srli_si128::<8>(x));
        let x = _mm_max_epu8(x, _mm_srli_si128::<4>(x));
        let x = _mm_max_epu8(x, _mm_srli_si128::<2>(x));
        let x = _mm_max_epu8(x, _mm_srli_si128::<1>(x));
        _mm_cvtsi128_si32(x) as u8
    }
}

/// The largest of 16 bytes.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn max16(chunk: &[u8; LANES]) -> u8 {
    let mut top = 0;
    for &b in chunk {
        top = top.max(b);
    }
    top
}

/// Adds `d` to every byte (no overflow allowed).
#[inline(always)]
pub fn add(bytes: &mut [u8], d: u8) {
    if let Ok(chunk) = <&mut [u8; LANES]>::try_from(&mut *bytes) {
        for b in chunk {
            *b += d;
        }
        return;
    }
    for b in bytes {
        *b += d;
    }
}

/// The largest of `vals` (not empty) and the lowest index holding it.
#[inline(always)]
pub fn max_first_u32(vals: &[u32]) -> (u32, usize) {
    #[cfg(target_arch = "x86_64")]
    if let Ok(v) = <&[u32; 16]>::try_from(vals) {
        return max_first_u32_16(v);
    }
    let mut far = vals[0];
    let mut at = 0;
    for (i, &v) in vals.iter().enumerate().skip(1) {
        if v > far {
            far = v;
            at = i;
        }
    }
    (far, at)
}

/// [`max_first_u32`] of 16 values in SSE2: a tree of signed maxima over
/// sign-flipped lanes (SSE2 has no unsigned 32-bit compare), then one
/// equality mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn max_first_u32_16(vals: &[u32; 16]) -> (u32, usize) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is in the x86-64 baseline; the loads read `vals`.
    unsafe {
        let bias = _mm_set1_epi32(i32::MIN);
        let p = vals.as_ptr().cast::<__m128i>();
        let a = _mm_xor_si128(_mm_loadu_si128(p), bias);
        let b = _mm_xor_si128(_mm_loadu_si128(p.add(1)), bias);
        let c = _mm_xor_si128(_mm_loadu_si128(p.add(2)), bias);
        let d = _mm_xor_si128(_mm_loadu_si128(p.add(3)), bias);
        let smax = |x: __m128i, y: __m128i| {
            let gt = _mm_cmpgt_epi32(x, y);
            _mm_or_si128(_mm_and_si128(gt, x), _mm_andnot_si128(gt, y))
        };
        let m = smax(smax(a, b), smax(c, d));
        let m = smax(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
        let m = smax(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
        let eq = |x: __m128i| _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, m))) as u32;
        let mask = eq(a) | eq(b) << 4 | eq(c) << 8 | eq(d) << 12;
        let far = (_mm_cvtsi128_si32(m) as u32) ^ 0x8000_0000;
        (far, mask.trailing_zeros() as usize)
    }
}

/// [`max_first_u32`] of 16 values, without the length check.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn max_first_u32_16(vals: &[u32; 16]) -> (u32, usize) {
    max_first_u32(vals)
}

/// Recency-rank touch of 16 ranks (see [`crate::recency::RecencyRanks`]):
/// every rank below `row[way]` grows by one and `row[way]` becomes 0. For
/// rows whose bytes are all below 128, as 16 recency ranks always are
/// ([`crate::recency::UNTOUCHED`] included): a signed compare then finds
/// the ranks below `row[way]` in one instruction.
#[inline(always)]
pub fn touch16_ranks(row: &mut [u8; LANES], way: usize) {
    let a = row[way];
    debug_assert!(row.iter().all(|&b| b < 128));
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86-64 baseline; the load and store cover `row`.
        unsafe {
            let x = _mm_loadu_si128(row.as_ptr().cast());
            // All ones (-1) where a rank is below `a`: subtracting adds 1.
            let below = _mm_cmpgt_epi8(splat(a), x);
            // `way` cleared in the same store: a byte store after it would
            // keep the set's next 16-byte load from taking its data
            // straight from the store buffer.
            let way_lane = _mm_loadu_si128(LANE_BYTE[way & 15].as_ptr().cast());
            let touched = _mm_andnot_si128(way_lane, _mm_sub_epi8(x, below));
            _mm_storeu_si128(row.as_mut_ptr().cast(), touched);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        for b in row.iter_mut() {
            *b += u8::from(*b < a);
        }
        row[way] = 0;
    }
}

/// `row[way] = v` as one 16-byte store, so that the row's next 16-byte
/// load can take its data from the store buffer (after a byte store it
/// must wait for the store to reach the cache).
#[inline(always)]
pub fn set16(row: &mut [u8; LANES], way: usize, v: u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86-64 baseline; the load and store cover `row`.
        unsafe {
            let x = _mm_loadu_si128(row.as_ptr().cast());
            let lane = _mm_loadu_si128(LANE_BYTE[way & 15].as_ptr().cast());
            let y = _mm_or_si128(_mm_andnot_si128(lane, x), _mm_and_si128(lane, splat(v)));
            _mm_storeu_si128(row.as_mut_ptr().cast(), y);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        row[way] = v;
    }
}

/// Row `i`: 0xff in byte `i`, 0 elsewhere.
#[cfg(target_arch = "x86_64")]
static LANE_BYTE: [[u8; LANES]; LANES] = {
    let mut t = [[0; LANES]; LANES];
    let mut i = 0;
    while i < LANES {
        t[i][i] = 0xff;
        i += 1;
    }
    t
};

/// The RRIP victim of 16 RRPVs ([`crate::rrip::Rrpv::victim`]): the lowest
/// way at `max`, after ageing the row until one is.
#[inline(always)]
pub fn rrip_victim16(row: &mut [u8; LANES], max: u8) -> usize {
    // Without a branch on whether a way is at `max` already (the age is
    // then 0): which it is follows the trace, not a pattern.
    let age = max - max16(row);
    for b in row.iter_mut() {
        *b += age;
    }
    eq_mask16(row, max).trailing_zeros() as usize & (LANES - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_max() {
        let v: Vec<u8> = (0..40).map(|i| (i * 7 % 11) as u8).collect();
        for len in [0, 1, 3, 15, 16, 17, 32, 33, 40] {
            let s = &v[..len];
            for x in 0..12u8 {
                let want: u64 = s
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b == x)
                    .map(|(i, _)| 1u64 << i)
                    .sum();
                assert_eq!(eq_mask(s, x), want);
                assert_eq!(first_eq(s, x), s.iter().position(|&b| b == x));
            }
            assert_eq!(max(s), s.iter().copied().max().unwrap_or(0));
        }
    }

    #[test]
    fn touch16_ranks_set16_and_rrip_victim16() {
        let mut x = 99u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let way = (x >> 60) as usize;
            // Ranks: a permutation of 0..16 or, while a set fills, of a
            // prefix with the other ways untouched.
            let mut ranks: [u8; LANES] = std::array::from_fn(|i| i as u8);
            for i in (1..LANES).rev() {
                ranks.swap(i, (x >> (i * 4) & 0xF) as usize % (i + 1));
            }
            let filled = (x >> 8) as u8 % 17;
            for b in ranks.iter_mut().filter(|b| **b >= filled) {
                *b = crate::recency::UNTOUCHED;
            }
            let mut want = ranks;
            let a = want[way];
            for b in want.iter_mut() {
                *b += u8::from(*b < a);
            }
            want[way] = 0;
            let mut got = ranks;
            touch16_ranks(&mut got, way);
            assert_eq!(got, want, "{ranks:?} {way}");

            let mut want = ranks;
            want[way] = (x >> 40) as u8;
            let mut got = ranks;
            set16(&mut got, way, (x >> 40) as u8);
            assert_eq!(got, want, "set16 {ranks:?} {way}");

            let max = 3u8;
            let mut r: [u8; LANES] = std::array::from_fn(|i| (x >> (2 * i)) as u8 & 3);
            if x & 1 == 0 {
                for b in r.iter_mut() {
                    *b = (*b).min(1);
                }
            }
            let mut want = r;
            let top = *want.iter().max().unwrap();
            for b in want.iter_mut() {
                *b += max - top;
            }
            let wway = want.iter().position(|&b| b == max).unwrap();
            let gway = rrip_victim16(&mut r, max);
            assert_eq!((gway, r), (wway, want));
        }
    }

    #[test]
    fn max_first_u32_lowest_of_equals() {
        let mut x = 7u64;
        for len in [1usize, 2, 3, 15, 16, 17, 64] {
            for _ in 0..200 {
                let v: Vec<u32> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct values, both halves of the range.
                        [0, 1, 5, 0x7FFF_FFFF, 0x8000_0000, u32::MAX - 1, u32::MAX]
                            [(x % 7) as usize]
                    })
                    .collect();
                let far = *v.iter().max().unwrap();
                let at = v.iter().position(|&e| e == far).unwrap();
                assert_eq!(max_first_u32(&v), (far, at), "{v:?}");
            }
        }
    }
}
