//! Floors and rounds of `f32`, the same values as the library's (signed
//! zeros included) without its call: the baseline x86-64 target has no
//! rounding instruction, and the sampler rounds and floors twice per
//! bilinear footprint.

use super::FRAC_BITS;

/// `v` rounded to [`FRAC_BITS`] fractional bits.
#[inline]
pub(super) fn quantize(v: f32) -> f32 {
    let s = (1u32 << FRAC_BITS) as f32;
    round(v * s) / s
}

/// `v.floor()`, the same value (signed zeros included) without the
/// library call the baseline x86-64 target makes for it.
#[inline]
pub(super) fn floor(v: f32) -> f32 {
    // 2^23: from there on every f32 is an integer.
    if v.is_nan() || v.abs() >= 8_388_608.0 {
        return v.floor();
    }
    let t = v as i32 as f32;
    let f = if t > v { t - 1.0 } else { t };
    f.copysign(v)
}

/// `v.round()` (halves away from zero), the same value (signed zeros
/// included) without the library call.
#[inline]
fn round(v: f32) -> f32 {
    if v.is_nan() || v.abs() >= 8_388_608.0 {
        return v.round();
    }
    let t = v as i32 as f32;
    // Exact: the fraction of a float below 2^23.
    let d = v - t;
    let r = if d >= 0.5 {
        t + 1.0
    } else if d <= -0.5 {
        t - 1.0
    } else {
        t
    };
    r.copysign(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Floats around every integer up to 2^24, halves, signed zeros,
    /// tiny and huge values, infinities, and bit patterns from a seeded
    /// generator.
    fn samples() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            f32::MIN_POSITIVE,
        ];
        v.extend([-f32::MIN_POSITIVE, 1e-30, -1e-30, f32::MAX, f32::MIN]);
        v.extend([f32::INFINITY, f32::NEG_INFINITY, 8_388_607.5, -8_388_607.5]);
        v.extend([8_388_608.0, 16_777_217.0, 0.499_999_97, -0.499_999_97]);
        for k in (0..(1u32 << 24)).step_by(4099) {
            for x in [k as f32, -(k as f32)] {
                let up = f32::from_bits(x.to_bits() + 1);
                let down = f32::from_bits(x.to_bits().saturating_sub(1));
                v.extend([x, up, down, x + 0.5, x - 0.5, x + 0.25, x - 0.75]);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            v.push(f32::from_bits((state >> 32) as u32));
        }
        v
    }

    #[test]
    fn floor_and_round_are_the_library_s_to_the_bit() {
        for x in samples() {
            if x.is_nan() {
                assert!(floor(x).is_nan() && round(x).is_nan());
                continue;
            }
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "floor({x:e})");
            assert_eq!(round(x).to_bits(), x.round().to_bits(), "round({x:e})");
        }
    }
}
