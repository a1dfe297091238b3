//! Errors of packing and unpacking te_inst payloads (`payload.adoc`).

/// Why a te_inst payload could not be packed or unpacked. Offsets are in bytes (or bits
/// where stated) from the start of the payload.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    /// An empty payload: every te_inst packet has at least the 2-bit format field.
    #[error("empty te_inst payload (byte offset 0): a packet has at least one byte")]
    Empty,
    /// A format / subformat combination that `payload.adoc` does not define, or that these
    /// parameters do not support.
    #[error(
        "format {format} subformat {subformat} cannot occur: {reason} (bit offset {bit_offset})"
    )]
    BadSubformat {
        /// The format field.
        format: u8,
        /// The subformat field (or the inferred one when `f0s_width_p` is 0).
        subformat: u64,
        /// Why it cannot occur.
        reason: &'static str,
        /// Bit offset of the subformat field.
        bit_offset: usize,
    },
    /// A format 0 `branch_fmt` value of 01 (`payload.adoc`, format 0 subformat 0).
    #[error("format 0 branch_fmt 0b01 cannot occur (bit offset {bit_offset})")]
    BadBranchFmt {
        /// Bit offset of the branch_fmt field.
        bit_offset: usize,
    },
    /// More bytes than the packet's fields occupy, even without compression.
    #[error(
        "payload is {len} bytes but this format {format} packet is at most {max} bytes \
         (unexpected data from byte offset {max})"
    )]
    TooLong {
        /// The format of the packet.
        format: u8,
        /// Bytes received.
        len: usize,
        /// The longest encoding of this packet.
        max: usize,
    },
    /// The bits after the last field of a full-length payload are not the sign extension
    /// of that field ("the payload must be sign-extended to the nearest byte boundary").
    #[error("padding bits from bit {bit} of the last byte (byte offset {offset}) are not the sign extension of the packet")]
    BadPadding {
        /// Byte offset of the last byte.
        offset: usize,
        /// Bit offset where the padding starts.
        bit: usize,
    },
    /// `irreport` equals its preceding bit but `irdepth` does not repeat that bit
    /// (`payload.adoc`, format 2 `irreport` and `irdepth`).
    #[error(
        "irdepth (bit offset {bit_offset}) must repeat the irreport bit when no return is reported"
    )]
    ImplicitIrdepth {
        /// Bit offset of the irdepth field.
        bit_offset: usize,
    },
    /// A field value that does not fit in its width.
    #[error("te_inst field `{field}` = {value:#x} does not fit in {width} bits")]
    FieldTooWide {
        /// The spec field name.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The field width from the parameters.
        width: u32,
    },
    /// Field values that contradict each other (for example format 1 `branches` = 0 with
    /// an address).
    #[error("inconsistent te_inst packet: {reason}")]
    Inconsistent {
        /// What is wrong.
        reason: &'static str,
    },
    /// A parameter value that cannot describe te_inst fields.
    #[error("parameter `{name}` = {value} cannot be used for te_inst fields: {reason}")]
    BadParams {
        /// The parameter name (`discovery.adoc`).
        name: &'static str,
        /// Its value.
        value: u64,
        /// Why not.
        reason: &'static str,
    },
}
