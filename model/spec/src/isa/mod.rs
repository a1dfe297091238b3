//! RISC-V instruction decoding and the instruction classification of the E-Trace
//! specification.
//!
//! One table drives both the hart model and the trace decoder:
//! * [`decode`] turns an instruction word into a [`Decoded`] instruction (RV32/RV64, I M A C
//!   F D Zicsr Zifencei and the privileged instructions); compressed instructions are
//!   expanded to their base operation with `size == 2`, exactly, so that the spec's `C.*`
//!   opcodes stay distinguishable (see [`Decoded::compressed`]);
//! * the predicates of `decoder.adoc` (`is_branch`, `is_inferable_jump`, ...) and the jump
//!   classes of `ingressPort.adoc` section "Jump classification and target inference"
//!   (`JumpClasses`) are methods of [`Decoded`];
//! * [`Decoded::itype`] gives the `itype` code of `ingressPort.adoc` table `tab:itype`.

mod classify;
mod decode;
mod op;
mod rvc;

pub use classify::JumpClass;
pub use decode::{decode, Decoded};
pub use op::Op;

/// The base integer ISA width XLEN (RISC-V unprivileged ISA, chapter "RV32I"/"RV64I").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Xlen {
    /// RV32: 32-bit registers and addresses.
    X32,
    /// RV64: 64-bit registers and addresses.
    #[default]
    X64,
}

impl Xlen {
    /// XLEN in bits (32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            Xlen::X32 => 32,
            Xlen::X64 => 64,
        }
    }

    /// Mask of the valid address / register bits.
    pub fn mask(self) -> u64 {
        match self {
            Xlen::X32 => 0xffff_ffff,
            Xlen::X64 => u64::MAX,
        }
    }
}

/// Size in bytes (2 or 4) of the instruction whose first (lowest-addressed) 16-bit parcel
/// is `first_halfword` (unprivileged ISA, section "Base Instruction-Length Encoding").
///
/// Parcels whose two low bits are not `11` start a 16-bit instruction; every other parcel
/// gives 4. Longer (48/64-bit) encodings are not supported: their first 32 bits decode as
/// [`Op::Illegal`].
pub fn instruction_size(first_halfword: u16) -> u8 {
    if first_halfword & 3 == 3 {
        4
    } else {
        2
    }
}
