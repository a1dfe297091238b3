//! Fields of a given bit width held in a `u64`: the one definition of "the low `width`
//! bits" that packets (`payload.adoc`), framings, ingress ports and the hardware's tables
//! all cut their values with.

/// The `width` low bits set (all 64 from `width` 64 on).
pub fn mask(width: u32) -> u64 {
    u64::MAX
        .checked_shr(64u32.saturating_sub(width))
        .unwrap_or(0)
}

/// `value` cut to its `width` low bits (unchanged from `width` 64 on).
pub fn low_bits(value: u64, width: u32) -> u64 {
    value & mask(width)
}

/// True when `value` fits in `width` bits (an index or source ID in its field): nothing is
/// set above them.
pub fn fits(value: u64, width: u32) -> bool {
    low_bits(value, width) == value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each width against its bit-by-bit definition: bit `i` set exactly when `i < width`.
    #[test]
    fn mask_sets_exactly_the_low_bits() {
        for width in 0..=70 {
            let expected = (0..64).filter(|&i| i < width).fold(0u64, |m, i| m | 1 << i);
            assert_eq!(mask(width), expected, "width {width}");
            assert_eq!(
                low_bits(0xdead_beef_0123_4567, width),
                0xdead_beef_0123_4567 & expected
            );
            let top = 1u64.checked_shl(width).map_or(u64::MAX, |t| t - 1);
            assert!(fits(top, width), "width {width}");
            assert_eq!(
                fits(top.wrapping_add(1), width),
                width >= 64 || top == u64::MAX
            );
        }
    }
}
