//! Address fields as the decoder applies them ("Address Compression"): F-ADDR is the
//! full address without bit 0, U-ADDR is XORed with the previously decoded address.

/// The address an F-ADDR field gives.
pub fn from_faddr(faddr: u64) -> u64 {
    faddr << 1
}

/// The address a U-ADDR field gives when `reference` was the last decoded address.
pub fn from_uaddr(reference: u64, uaddr: u64) -> u64 {
    reference ^ (uaddr << 1)
}
