//! Address fields as the encoder sends them ("Address Compression"): F-ADDR is the full
//! address without bit 0, U-ADDR the XOR with the previously sent address, without bit 0.

/// The F-ADDR field of `address`.
pub fn faddr(address: u64) -> u64 {
    address >> 1
}

/// The U-ADDR field of `address` when `reference` was the last address sent.
pub fn uaddr(reference: u64, address: u64) -> u64 {
    (reference ^ address) >> 1
}
