//! The seeded stimulus generator of the crate's unit tests: xorshift64 (shifts 13, 7, 17).

/// Steps `state` to the next xorshift64 value.
pub(crate) fn xorshift(state: &mut u64) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
}
