//! The hart-to-encoder ingress port of `ingressPort.adoc`, single-retirement form
//! (section "Simplifications for single-retirement").
//!
//! One [`IngressRecord`] is what the hart presents to the encoder in one cycle in which
//! something happened: an instruction retired, or a trap was taken.
//!
//! Conventions (shared by the hart model, the spike-CSV converter and the encoder):
//!
//! * a retired instruction: `iretire = 1`, `iaddr` its address, `ilastsize` its size,
//!   `itype` its termination type (table `tab:itype`);
//! * an exception raised by `ecall`, `ebreak` or `c.ebreak`: the instruction retires
//!   (`iretire = 1`) with `itype = 1` (as the reference flow's post-ISS step does, and as
//!   `decoder.adoc`'s `exception_address` expects);
//! * any other exception: the faulting instruction does not retire: `iretire = 0`,
//!   `itype = 1`, `iaddr` the faulting instruction's address, `cause` / `tval` as written to
//!   `xcause` / `xtval`;
//! * an interrupt: `iretire = 0`, `itype = 2`, `iaddr` the address of the interrupted
//!   (not executed) instruction, `cause` without the interrupt bit, `tval = 0`;
//! * `priv` is the privilege level the instruction (or the trapping instruction) ran at.

use std::fmt;

pub mod fits;
pub mod random;

/// Instruction type (`itype`) codes of `ingressPort.adoc`, table `tab:itype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Itype {
    /// 0: none of the other named codes.
    #[default]
    None = 0,
    /// 1: an exception that traps occurred following the last retired instruction.
    Exception = 1,
    /// 2: an interrupt that traps occurred following the last retired instruction.
    Interrupt = 2,
    /// 3: exception or interrupt return (`xRET`).
    TrapReturn = 3,
    /// 4: nontaken branch.
    NontakenBranch = 4,
    /// 5: taken branch.
    TakenBranch = 5,
    /// 6: uninferable jump (`itype_width_p = 3` only).
    UninferableJump3 = 6,
    /// 8: uninferable call.
    UninferableCall = 8,
    /// 9: inferable call.
    InferableCall = 9,
    /// 10: uninferable jump (tail call, jump without linkage).
    UninferableJump = 10,
    /// 11: inferable jump.
    InferableJump = 11,
    /// 12: co-routine swap.
    CoroutineSwap = 12,
    /// 13: return.
    Return = 13,
    /// 14: other uninferable jump (with linkage).
    OtherUninferableJump = 14,
    /// 15: other inferable jump (with linkage).
    OtherInferableJump = 15,
}

impl Itype {
    /// Every defined code, in numeric order.
    pub const ALL: [Itype; 15] = [
        Itype::None,
        Itype::Exception,
        Itype::Interrupt,
        Itype::TrapReturn,
        Itype::NontakenBranch,
        Itype::TakenBranch,
        Itype::UninferableJump3,
        Itype::UninferableCall,
        Itype::InferableCall,
        Itype::UninferableJump,
        Itype::InferableJump,
        Itype::CoroutineSwap,
        Itype::Return,
        Itype::OtherUninferableJump,
        Itype::OtherInferableJump,
    ];

    /// The numeric code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The `itype` of a numeric code; `None` for the reserved code 7 and values above 15.
    pub fn from_code(code: u64) -> Option<Itype> {
        Itype::ALL
            .iter()
            .copied()
            .find(|t| u64::from(t.code()) == code)
    }

    /// True for codes that end the block with an uninferable discontinuity
    /// (codes 6, 8, 10, 12, 13, 14; `xRET` is treated the same, see spec README errata).
    pub fn is_uninferable_discon(self) -> bool {
        matches!(
            self,
            Itype::TrapReturn
                | Itype::UninferableJump3
                | Itype::UninferableCall
                | Itype::UninferableJump
                | Itype::CoroutineSwap
                | Itype::Return
                | Itype::OtherUninferableJump
        )
    }

    /// True for the two branch codes (4, 5).
    pub fn is_branch(self) -> bool {
        matches!(self, Itype::NontakenBranch | Itype::TakenBranch)
    }

    /// True for exception and interrupt (1, 2).
    pub fn is_trap(self) -> bool {
        matches!(self, Itype::Exception | Itype::Interrupt)
    }

    /// Whether the code can be carried by an `itype` bus of `width` bits (3 or 4).
    pub fn fits_width(self, width: ItypeWidth) -> bool {
        match width {
            ItypeWidth::W3 => self.code() <= 6,
            ItypeWidth::W4 => self != Itype::UninferableJump3,
        }
    }
}

impl fmt::Display for Itype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// `itype_width_p`: 3 or 4 bits (`ingressPort.adoc`, table `tab:itype` and following text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ItypeWidth {
    /// 3 bits: one code (6) for every uninferable jump; inferable jumps and calls are 0.
    W3,
    /// 4 bits: jumps fully classified (codes 8-15).
    #[default]
    W4,
}

impl ItypeWidth {
    /// The width in bits.
    pub fn bits(self) -> u32 {
        match self {
            ItypeWidth::W3 => 3,
            ItypeWidth::W4 => 4,
        }
    }

    /// From a bit count; `None` unless 3 or 4.
    pub fn from_bits(bits: u64) -> Option<ItypeWidth> {
        match bits {
            3 => Some(ItypeWidth::W3),
            4 => Some(ItypeWidth::W4),
            _ => None,
        }
    }
}

/// Privilege level encoding of `ingressPort.adoc`, table `tab:priv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Privilege {
    /// 0: user.
    User = 0,
    /// 1: supervisor / hypervisor-extended supervisor.
    Supervisor = 1,
    /// 3: machine.
    #[default]
    Machine = 3,
    /// 4: debug mode.
    Debug = 4,
    /// 5: virtual user.
    VirtualUser = 5,
    /// 6: virtual supervisor.
    VirtualSupervisor = 6,
}

impl Privilege {
    /// The numeric code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The privilege of a numeric code; `None` for the reserved codes 2 and 7 and above.
    pub fn from_code(code: u64) -> Option<Privilege> {
        Some(match code {
            0 => Privilege::User,
            1 => Privilege::Supervisor,
            3 => Privilege::Machine,
            4 => Privilege::Debug,
            5 => Privilege::VirtualUser,
            6 => Privilege::VirtualSupervisor,
            _ => return None,
        })
    }
}

/// One cycle of the single-retirement ingress port (`ingressPort.adoc`, tables
/// `tab:common-ingress` and `tab:single-ingress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct IngressRecord {
    /// Number of instructions retired (0 or 1).
    pub iretire: u8,
    /// Termination type of the block.
    pub itype: Itype,
    /// Address of the retired instruction, or of the faulting instruction when `itype = 1`.
    pub iaddr: u64,
    /// Size of the retired instruction is 2^`ilastsize` half-words (0: 16-bit, 1: 32-bit).
    pub ilastsize: u8,
    /// Privilege level the instruction ran at.
    pub privilege: Privilege,
    /// Exception or interrupt cause (valid for `itype` 1 and 2), without the interrupt bit.
    pub cause: u64,
    /// Trap value (valid for `itype` 1).
    pub tval: u64,
    /// Set for `itype = 2` (interrupt); kept separately as the spike CSV does.
    pub interrupt: bool,
    /// Context (for example ASID); 0 when not used.
    pub context: u64,
    /// Context reporting type (`tab:context-type`); 0 when not used.
    pub ctype: u8,
    /// The block ends with a sequentially inferable jump (see `JumpClasses`).
    pub sijump: bool,
}

impl IngressRecord {
    /// Size in bytes of the retired instruction.
    pub fn instruction_size(&self) -> u64 {
        2u64 << self.ilastsize
    }

    /// Address of the instruction that follows the retired one sequentially.
    pub fn next_sequential(&self) -> u64 {
        self.iaddr.wrapping_add(self.instruction_size())
    }
}
