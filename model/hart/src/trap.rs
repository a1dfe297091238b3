//! Traps (privileged ISA, "Machine Cause Register (mcause)", "Machine Trap Delegation
//! Registers", "Machine Trap-Vector Base-Address Register", `mret`/`sret`), as spike
//! takes them.

use super::csr::*;
use super::Hart;
use etrace_spec::ingress::Privilege;

/// Exception codes (`mcause` with the interrupt bit clear).
pub mod cause {
    /// Instruction address misaligned.
    pub const MISALIGNED_FETCH: u64 = 0;
    /// Instruction access fault.
    pub const FETCH_ACCESS: u64 = 1;
    /// Illegal instruction.
    pub const ILLEGAL_INSTRUCTION: u64 = 2;
    /// Breakpoint.
    pub const BREAKPOINT: u64 = 3;
    /// Load address misaligned.
    pub const MISALIGNED_LOAD: u64 = 4;
    /// Load access fault.
    pub const LOAD_ACCESS: u64 = 5;
    /// Store/AMO address misaligned.
    pub const MISALIGNED_STORE: u64 = 6;
    /// Store/AMO access fault.
    pub const STORE_ACCESS: u64 = 7;
    /// Environment call from U-mode.
    pub const USER_ECALL: u64 = 8;
    /// Environment call from S-mode.
    pub const SUPERVISOR_ECALL: u64 = 9;
    /// Environment call from M-mode.
    pub const MACHINE_ECALL: u64 = 11;
    /// Interrupt code: supervisor software interrupt.
    pub const IRQ_S_SOFT: u64 = 1;
    /// Interrupt code: machine software interrupt.
    pub const IRQ_M_SOFT: u64 = 3;
    /// Interrupt code: supervisor timer interrupt.
    pub const IRQ_S_TIMER: u64 = 5;
    /// Interrupt code: machine timer interrupt.
    pub const IRQ_M_TIMER: u64 = 7;
    /// Interrupt code: supervisor external interrupt.
    pub const IRQ_S_EXT: u64 = 9;
    /// Interrupt code: machine external interrupt.
    pub const IRQ_M_EXT: u64 = 11;
}

/// A synchronous exception raised by an instruction: cause and trap value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Trap {
    pub cause: u64,
    pub tval: u64,
}

impl Trap {
    pub fn new(cause: u64, tval: u64) -> Trap {
        Trap { cause, tval }
    }
}

impl Hart {
    fn set_privilege(&mut self, p: Privilege) {
        if p != self.prv {
            self.privilege_changes += 1;
            self.prv = p;
        }
    }

    /// Enter the trap handler for `cause` (`interrupt` or exception) raised at `epc`
    /// with trap value `tval`: delegation to S-mode through `medeleg`/`mideleg` when
    /// running at S or U, vectored mode for interrupts, `xPIE`/`xPP`/`xIE` update.
    pub(crate) fn take_trap(&mut self, cause: u64, interrupt: bool, tval: u64, epc: u64) {
        let deleg = if interrupt {
            self.csr.mideleg
        } else {
            self.csr.medeleg
        };
        let old = self.prv;
        let cause_reg = if interrupt {
            cause | (1u64 << (self.xlen.bits() - 1))
        } else {
            cause
        };
        let to_s = old.code() <= 1 && cause < 64 && (deleg >> cause) & 1 == 1;
        let tvec = if to_s { self.csr.stvec } else { self.csr.mtvec };
        let base = tvec & !3;
        let target = if tvec & 1 == 1 && interrupt {
            base.wrapping_add(4 * cause)
        } else {
            base
        };
        let st = self.csr.mstatus;
        if to_s {
            self.csr.scause = cause_reg;
            self.csr.sepc = epc;
            self.csr.stval = tval;
            let mut s = st & !(MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_SPP);
            if st & MSTATUS_SIE != 0 {
                s |= MSTATUS_SPIE;
            }
            if old == Privilege::Supervisor {
                s |= MSTATUS_SPP;
            }
            self.csr.mstatus = s;
            self.set_privilege(Privilege::Supervisor);
        } else {
            self.csr.mcause = cause_reg;
            self.csr.mepc = epc;
            self.csr.mtval = tval;
            let mut s = st & !(MSTATUS_MPIE | MSTATUS_MIE | MSTATUS_MPP);
            if st & MSTATUS_MIE != 0 {
                s |= MSTATUS_MPIE;
            }
            s |= u64::from(old.code() & 3) << 11;
            self.csr.mstatus = s;
            self.set_privilege(Privilege::Machine);
        }
        self.pc = target & self.xlen.mask();
    }

    /// The interrupt to take before the next instruction, if any (priority MEI, MSI,
    /// MTI, SEI, SSI, STI; M-level interrupts enabled below M or with `mstatus.MIE`,
    /// delegated ones below S or in S with `mstatus.SIE`).
    pub(crate) fn pending_interrupt(&self) -> Option<u64> {
        let pending = self.csr.mip & self.csr.mie;
        if pending == 0 {
            return None;
        }
        let st = self.csr.mstatus;
        let prv = self.prv.code();
        let m_enabled = prv < 3 || st & MSTATUS_MIE != 0;
        let mut enabled = if m_enabled {
            pending & !self.csr.mideleg
        } else {
            0
        };
        if enabled == 0 {
            let s_enabled = prv < 1 || (prv == 1 && st & MSTATUS_SIE != 0);
            if s_enabled {
                enabled = pending & self.csr.mideleg;
            }
        }
        [
            cause::IRQ_M_EXT,
            cause::IRQ_M_SOFT,
            cause::IRQ_M_TIMER,
            cause::IRQ_S_EXT,
            cause::IRQ_S_SOFT,
            cause::IRQ_S_TIMER,
        ]
        .into_iter()
        .find(|&c| enabled & (1 << c) != 0)
    }

    /// `mret`: back to `mstatus.MPP`, `MIE = MPIE`, `MPIE = 1`, `MPP = U`, `MPRV`
    /// cleared when leaving M; returns `mepc`.
    pub(crate) fn do_mret(&mut self) -> u64 {
        let st = self.csr.mstatus;
        let mpp = (st & MSTATUS_MPP) >> 11;
        let mut s = st & !(MSTATUS_MIE | MSTATUS_MPP);
        if st & MSTATUS_MPIE != 0 {
            s |= MSTATUS_MIE;
        }
        s |= MSTATUS_MPIE;
        if mpp != 3 {
            s &= !MSTATUS_MPRV;
        }
        self.csr.mstatus = s;
        self.set_privilege(Privilege::from_code(mpp).unwrap_or(Privilege::User));
        self.csr.mepc & !1 & self.xlen.mask()
    }

    /// `sret`: back to `mstatus.SPP`, `SIE = SPIE`, `SPIE = 1`, `SPP = U`, `MPRV`
    /// cleared; returns `sepc`.
    pub(crate) fn do_sret(&mut self) -> u64 {
        let st = self.csr.mstatus;
        let spp = st & MSTATUS_SPP != 0;
        let mut s = st & !(MSTATUS_SIE | MSTATUS_SPP | MSTATUS_MPRV);
        if st & MSTATUS_SPIE != 0 {
            s |= MSTATUS_SIE;
        }
        s |= MSTATUS_SPIE;
        self.csr.mstatus = s;
        self.set_privilege(if spp {
            Privilege::Supervisor
        } else {
            Privilege::User
        });
        self.csr.sepc & !1 & self.xlen.mask()
    }

    /// Mirror the CLINT state into `mip.MTIP` / `mip.MSIP`.
    pub(crate) fn update_clint_interrupts(&mut self) {
        let clint = &self.mem.clint;
        let mut mip = self.csr.mip & !(MIP_MTIP | MIP_MSIP);
        if clint.mtime >= clint.mtimecmp {
            mip |= MIP_MTIP;
        }
        if clint.msip & 1 != 0 {
            mip |= MIP_MSIP;
        }
        self.csr.mip = mip;
    }
}
