//! Register offsets and field positions of a trace encoder (Trace Control Interface 1.0,
//! "Summary of Trace Encoder Registers" and the register tables of "Trace Encoder Control
//! Interface").

/// `trTeControl`: trace encoder control register.
pub const TR_TE_CONTROL: u32 = 0x000;
/// `trTeImpl`: trace encoder implementation register (read only).
pub const TR_TE_IMPL: u32 = 0x004;
/// `trTeInstFeatures`: instruction trace features and trace source ID.
pub const TR_TE_INST_FEATURES: u32 = 0x008;
/// `trTeInstFilters`: instruction trace filters.
pub const TR_TE_INST_FILTERS: u32 = 0x00C;
/// `trTeDataControl`: data trace control (bit 0 `trTeDataImplemented`).
pub const TR_TE_DATA_CONTROL: u32 = 0x010;
/// Size in bytes of the register window of one component ("Trace Component Register
/// Map": 4 KiB; offsets 0x000-0xFFF).
pub const WINDOW_BYTES: u32 = 0x1000;

/// A field of a 32-bit register: its lowest bit and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field's name in the specification.
    pub name: &'static str,
    /// Bit position of the field's least significant bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

impl Field {
    /// The field's value in register value `reg`.
    pub const fn get(self, reg: u32) -> u32 {
        (reg >> self.lsb) & self.mask()
    }

    /// `value` placed at the field's position (bits beyond its width dropped).
    pub const fn put(self, value: u32) -> u32 {
        (value & self.mask()) << self.lsb
    }

    /// The field's mask before shifting.
    pub const fn mask(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1 << self.width) - 1
        }
    }
}

macro_rules! fields {
    ($($(#[$meta:meta])* $id:ident = $name:literal, $lsb:literal, $width:literal;)+) => {
        $($(#[$meta])* pub const $id: Field = Field { name: $name, lsb: $lsb, width: $width };)+
    };
}

/// Fields of `trTeControl` ("Register: trTeControl").
pub mod control {
    use super::Field;
    fields! {
        /// Primary activate / reset bit of the encoder.
        ACTIVE = "trTeActive", 0, 1;
        /// Encoder enabled.
        ENABLE = "trTeEnable", 1, 1;
        /// Instruction trace is being generated.
        INST_TRACING = "trTeInstTracing", 2, 1;
        /// All generated trace has been emitted (read only).
        EMPTY = "trTeEmpty", 3, 1;
        /// Instruction trace mode (E-Trace: hard-coded 7).
        INST_MODE = "trTeInstMode", 4, 3;
        /// Context / privilege in messages (E-Trace: hard-coded 0).
        CONTEXT = "trTeContext", 9, 1;
        /// Triggers may set / clear `trTeInstTracing`.
        INST_TRIG_ENABLE = "trTeInstTrigEnable", 11, 1;
        /// Trace lost (overflow) or stall happened; write 1 to clear.
        INST_STALL_OR_OVERFLOW = "trTeInstStallOrOverflow", 12, 1;
        /// Stall the hart instead of dropping trace.
        INST_STALL_ENA = "trTeInstStallEna", 13, 1;
        /// Leave the source field out of messages.
        INHIBIT_SRC = "trTeInhibitSrc", 15, 1;
        /// Periodic synchronisation mechanism (0 off, 1 packets, 2 cycles, 3 half-words).
        INST_SYNC_MODE = "trTeInstSyncMode", 16, 2;
        /// Periodic synchronisation after 2^(N+4) units.
        INST_SYNC_MAX = "trTeInstSyncMax", 20, 4;
        /// Trace protocol (0 E-Trace, 1 N-Trace).
        FORMAT = "trTeFormat", 24, 3;
    }
}

/// Fields of `trTeImpl` ("Register: trTeImpl").
pub mod implementation {
    use super::Field;
    fields! {
        /// Component major version (1: Trace Control Interface 1.0).
        VER_MAJOR = "trTeVerMajor", 0, 4;
        /// Component minor version.
        VER_MINOR = "trTeVerMinor", 4, 4;
        /// Component type (1: trace encoder).
        COMP_TYPE = "trTeCompType", 8, 4;
        /// Protocol major version (E-Trace 2.0.x: 0, `control.adoc`).
        PROTOCOL_MAJOR = "trTeProtocolMajor", 16, 4;
        /// Protocol minor version (E-Trace: 0).
        PROTOCOL_MINOR = "trTeProtocolMinor", 20, 4;
    }
}

/// Fields of `trTeInstFeatures` ("Register: trTeInstFeatures").
pub mod features {
    use super::Field;
    fields! {
        /// Always a full address (E-Trace `full_address`).
        INST_NO_ADDR_DIFF = "trTeInstNoAddrDiff", 0, 1;
        /// No trap handler address (E-Trace `implicit_exception`).
        INST_NO_TRAP_ADDR = "trTeInstNoTrapAddr", 1, 1;
        /// Sequentially inferable jumps (E-Trace `sijump`).
        INST_EN_SEQUENTIAL_JUMP = "trTeInstEnSequentialJump", 2, 1;
        /// Implicit return (E-Trace `implicit_return`).
        INST_EN_IMPLICIT_RETURN = "trTeInstEnImplicitReturn", 3, 1;
        /// Branch prediction (E-Trace `branch_prediction`).
        INST_EN_BRANCH_PREDICTION = "trTeInstEnBranchPrediction", 4, 1;
        /// Jump target cache (E-Trace `jump_target_cache`).
        INST_EN_JUMP_TARGET_CACHE = "trTeInstEnJumpTargetCache", 5, 1;
        /// Implicit return mode (E-Trace: hard-coded 0).
        INST_IMPLICIT_RETURN_MODE = "trTeInstImplicitReturnMode", 6, 2;
        /// Trace source ID of this encoder.
        SRC_ID = "trTeSrcID", 16, 12;
        /// Width of the trace source field (0..12).
        SRC_BITS = "trTeSrcBits", 28, 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_get_and_put_round_trip() {
        let reg = control::INST_SYNC_MAX.put(0xB) | control::ACTIVE.put(1);
        assert_eq!(reg, 0x00B0_0001);
        assert_eq!(control::INST_SYNC_MAX.get(reg), 0xB);
        assert_eq!(control::ENABLE.get(reg), 0);
        assert_eq!(
            features::SRC_BITS.put(0x1F),
            0xF000_0000,
            "bits beyond the width dropped"
        );
    }

    #[test]
    fn fields_of_a_register_do_not_overlap() {
        let tables: [&[Field]; 3] = [
            &[
                control::ACTIVE,
                control::ENABLE,
                control::INST_TRACING,
                control::EMPTY,
                control::INST_MODE,
                control::CONTEXT,
                control::INST_TRIG_ENABLE,
                control::INST_STALL_OR_OVERFLOW,
                control::INST_STALL_ENA,
                control::INHIBIT_SRC,
                control::INST_SYNC_MODE,
                control::INST_SYNC_MAX,
                control::FORMAT,
            ],
            &[
                implementation::VER_MAJOR,
                implementation::VER_MINOR,
                implementation::COMP_TYPE,
                implementation::PROTOCOL_MAJOR,
                implementation::PROTOCOL_MINOR,
            ],
            &[
                features::INST_NO_ADDR_DIFF,
                features::INST_NO_TRAP_ADDR,
                features::INST_EN_SEQUENTIAL_JUMP,
                features::INST_EN_IMPLICIT_RETURN,
                features::INST_EN_BRANCH_PREDICTION,
                features::INST_EN_JUMP_TARGET_CACHE,
                features::INST_IMPLICIT_RETURN_MODE,
                features::SRC_ID,
                features::SRC_BITS,
            ],
        ];
        for table in tables {
            let mut used = 0u32;
            for f in table {
                let bits = f.put(u32::MAX);
                assert_eq!(used & bits, 0, "{} overlaps", f.name);
                used |= bits;
            }
        }
    }
}
