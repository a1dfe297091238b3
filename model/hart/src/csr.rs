//! Control and status registers of the hart model (privileged ISA chapters "Control and
//! Status Registers", "Machine-Level ISA" and "Supervisor-Level ISA"; unprivileged ISA
//! "Zicsr", "Counters" and the F extension's `fcsr`).
//!
//! Implemented: `fflags`, `frm`, `fcsr`; `cycle`, `time`, `instret`, `hpmcounter3..31`
//! (and their `h` halves on RV32); `sstatus`, `sie`, `stvec`, `scounteren`, `sscratch`,
//! `sepc`, `scause`, `stval`, `sip`, `satp` (Bare only); `mstatus`, `mstatush` (RV32),
//! `misa`, `medeleg`, `mideleg`, `mie`, `mtvec`, `mcounteren`, `mcountinhibit` (stored,
//! no effect), `mhpmevent3..31` (zero), `mscratch`, `mepc`, `mcause`, `mtval`, `mip`,
//! `mcycle`, `minstret`, `mhpmcounter3..31` (zero), `mvendorid`, `marchid`, `mimpid`,
//! `mhartid`, `mconfigptr`. Every other address (`pmpcfg*`, `pmpaddr*`, `menvcfg`, debug
//! and trigger registers, ...) raises an illegal-instruction exception, as spike without
//! those features does.

use super::Hart;
use etrace_spec::ingress::Privilege;
use etrace_spec::isa::Xlen;

pub(crate) const MSTATUS_SIE: u64 = 1 << 1;
pub(crate) const MSTATUS_MIE: u64 = 1 << 3;
pub(crate) const MSTATUS_SPIE: u64 = 1 << 5;
pub(crate) const MSTATUS_MPIE: u64 = 1 << 7;
pub(crate) const MSTATUS_SPP: u64 = 1 << 8;
pub(crate) const MSTATUS_MPP: u64 = 3 << 11;
pub(crate) const MSTATUS_FS: u64 = 3 << 13;
pub(crate) const MSTATUS_XS: u64 = 3 << 15;
pub(crate) const MSTATUS_MPRV: u64 = 1 << 17;
pub(crate) const MSTATUS_SUM: u64 = 1 << 18;
pub(crate) const MSTATUS_MXR: u64 = 1 << 19;
pub(crate) const MSTATUS_TVM: u64 = 1 << 20;
pub(crate) const MSTATUS_TW: u64 = 1 << 21;
pub(crate) const MSTATUS_TSR: u64 = 1 << 22;
const MSTATUS_UXL: u64 = 3 << 32;

const MSTATUS_WRITABLE: u64 = MSTATUS_SIE
    | MSTATUS_MIE
    | MSTATUS_SPIE
    | MSTATUS_MPIE
    | MSTATUS_SPP
    | MSTATUS_MPP
    | MSTATUS_FS
    | MSTATUS_MPRV
    | MSTATUS_SUM
    | MSTATUS_MXR
    | MSTATUS_TVM
    | MSTATUS_TW
    | MSTATUS_TSR;
const SSTATUS_WRITABLE: u64 =
    MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR;
const SSTATUS_READABLE: u64 = SSTATUS_WRITABLE | MSTATUS_XS | MSTATUS_UXL;

/// Interrupt bits of `mip` / `mie` (privileged ISA, "Machine Interrupt Registers").
pub(crate) const MIP_SSIP: u64 = 1 << 1;
pub(crate) const MIP_MSIP: u64 = 1 << 3;
pub(crate) const MIP_STIP: u64 = 1 << 5;
pub(crate) const MIP_MTIP: u64 = 1 << 7;
pub(crate) const MIP_SEIP: u64 = 1 << 9;
pub(crate) const MIP_MEIP: u64 = 1 << 11;
const MIE_WRITABLE: u64 = MIP_SSIP | MIP_MSIP | MIP_STIP | MIP_MTIP | MIP_SEIP | MIP_MEIP;
const MIP_WRITABLE: u64 = MIP_SSIP | MIP_STIP | MIP_SEIP;
const DELEGABLE_INTERRUPTS: u64 = MIP_SSIP | MIP_STIP | MIP_SEIP;
/// Exceptions spike lets `medeleg` delegate: misaligned/access faults, illegal
/// instruction, breakpoint, ecall from U and S, page faults.
const DELEGABLE_EXCEPTIONS: u64 = 0b1011_0011_1111_1111;

/// `misa` extension bits: A, C, D, F, I, M, S, U.
const MISA_EXTENSIONS: u64 =
    (1 << 0) | (1 << 2) | (1 << 3) | (1 << 5) | (1 << 8) | (1 << 12) | (1 << 18) | (1 << 20);

/// spike's `marchid`.
const MARCHID_VALUE: u64 = 5;

/// CSR addresses used by name.
pub(crate) mod addr {
    pub const FFLAGS: u16 = 0x001;
    pub const FRM: u16 = 0x002;
    pub const FCSR: u16 = 0x003;
    pub const SSTATUS: u16 = 0x100;
    pub const SIE: u16 = 0x104;
    pub const STVEC: u16 = 0x105;
    pub const SCOUNTEREN: u16 = 0x106;
    pub const SSCRATCH: u16 = 0x140;
    pub const SEPC: u16 = 0x141;
    pub const SCAUSE: u16 = 0x142;
    pub const STVAL: u16 = 0x143;
    pub const SIP: u16 = 0x144;
    pub const SATP: u16 = 0x180;
    pub const MSTATUS: u16 = 0x300;
    pub const MISA: u16 = 0x301;
    pub const MEDELEG: u16 = 0x302;
    pub const MIDELEG: u16 = 0x303;
    pub const MIE: u16 = 0x304;
    pub const MTVEC: u16 = 0x305;
    pub const MCOUNTEREN: u16 = 0x306;
    pub const MSTATUSH: u16 = 0x310;
    pub const MCOUNTINHIBIT: u16 = 0x320;
    pub const MSCRATCH: u16 = 0x340;
    pub const MEPC: u16 = 0x341;
    pub const MCAUSE: u16 = 0x342;
    pub const MTVAL: u16 = 0x343;
    pub const MIP: u16 = 0x344;
    pub const MCYCLE: u16 = 0xb00;
    pub const MINSTRET: u16 = 0xb02;
    pub const MCYCLEH: u16 = 0xb80;
    pub const MINSTRETH: u16 = 0xb82;
    pub const MVENDORID: u16 = 0xf11;
    pub const MARCHID: u16 = 0xf12;
    pub const MIMPID: u16 = 0xf13;
    pub const MHARTID: u16 = 0xf14;
    pub const MCONFIGPTR: u16 = 0xf15;
}

/// The CSR state that is not derived from other state.
#[derive(Debug, Clone, Default)]
pub(crate) struct Csrs {
    /// `mstatus` without SD, UXL, SXL (computed on read).
    pub mstatus: u64,
    pub medeleg: u64,
    pub mideleg: u64,
    pub mie: u64,
    /// `mip`, including MTIP / MSIP mirrored from the CLINT.
    pub mip: u64,
    pub mtvec: u64,
    pub stvec: u64,
    pub mepc: u64,
    pub sepc: u64,
    pub mcause: u64,
    pub scause: u64,
    pub mtval: u64,
    pub stval: u64,
    pub mscratch: u64,
    pub sscratch: u64,
    pub mcounteren: u64,
    pub scounteren: u64,
    pub mcountinhibit: u64,
    pub satp: u64,
    pub fflags: u8,
    pub frm: u8,
    /// `mcycle` = completed instructions + this (wrapping).
    pub mcycle_adjust: u64,
    /// `minstret` = completed instructions + this (wrapping).
    pub minstret_adjust: u64,
}

impl Hart {
    fn xlen_mask(&self) -> u64 {
        self.xlen.mask()
    }

    /// Instructions completed without a trap (what spike's `minstret` counts).
    pub(crate) fn completed(&self) -> u64 {
        self.retired - self.trap_retired
    }

    /// `mstatus` as software reads it.
    pub(crate) fn read_mstatus(&self) -> u64 {
        let mut v = self.csr.mstatus;
        let dirty = v & MSTATUS_FS == MSTATUS_FS;
        match self.xlen {
            Xlen::X64 => {
                v |= (2 << 32) | (2 << 34);
                if dirty {
                    v |= 1 << 63;
                }
            }
            Xlen::X32 => {
                v &= 0xffff_ffff;
                if dirty {
                    v |= 1 << 31;
                }
            }
        }
        v
    }

    fn write_mstatus(&mut self, v: u64) {
        let mut new = (self.csr.mstatus & !MSTATUS_WRITABLE) | (v & MSTATUS_WRITABLE);
        // MPP is WARL: the reserved value 2 reads as U (spike's legalize_privilege).
        if new & MSTATUS_MPP == 2 << 11 {
            new &= !MSTATUS_MPP;
        }
        self.csr.mstatus = new;
    }

    fn counter_enabled(&self, addr: u16, prv: Privilege) -> bool {
        let bit = 1u64 << (addr & 0x1f);
        match prv {
            Privilege::Machine => true,
            Privilege::Supervisor => self.csr.mcounteren & bit != 0,
            _ => self.csr.mcounteren & self.csr.scounteren & bit != 0,
        }
    }

    fn fp_enabled(&self) -> bool {
        self.csr.mstatus & MSTATUS_FS != 0
    }

    fn half(&self, v: u64, high: bool) -> u64 {
        if high {
            v >> 32
        } else {
            v & self.xlen_mask()
        }
    }

    /// Read CSR `a` as an instruction at the current privilege would (access-level and
    /// read-only checks aside); `None` if that raises an illegal-instruction exception.
    pub(crate) fn csr_read(&self, a: u16) -> Option<u64> {
        self.csr_read_as(a, self.prv)
    }

    /// [`Hart::csr_read`] at privilege `prv`.
    pub(crate) fn csr_read_as(&self, a: u16, prv: Privilege) -> Option<u64> {
        use addr::*;
        let rv32 = self.xlen == Xlen::X32;
        let c = &self.csr;
        let v = match a {
            FFLAGS | FRM | FCSR if !self.fp_enabled() => return None,
            FFLAGS => u64::from(c.fflags),
            FRM => u64::from(c.frm),
            FCSR => u64::from(c.frm) << 5 | u64::from(c.fflags),
            0xc00..=0xc1f | 0xc80..=0xc9f => {
                let high = a >= 0xc80;
                if (high && !rv32) || !self.counter_enabled(a, prv) {
                    return None;
                }
                let v = match a & 0x7f {
                    0 => self.completed().wrapping_add(c.mcycle_adjust),
                    1 => self.mem.clint.mtime,
                    2 => self.completed().wrapping_add(c.minstret_adjust),
                    _ => 0,
                };
                self.half(v, high)
            }
            SSTATUS => self.read_mstatus() & (SSTATUS_READABLE | 1 << 63 | 1 << 31),
            SIE => c.mie & c.mideleg,
            STVEC => c.stvec,
            SCOUNTEREN => c.scounteren,
            SSCRATCH => c.sscratch,
            SEPC => c.sepc & !1,
            SCAUSE => c.scause,
            STVAL => c.stval,
            SIP => c.mip & c.mideleg,
            SATP => {
                if prv == Privilege::Supervisor && c.mstatus & MSTATUS_TVM != 0 {
                    return None;
                }
                c.satp
            }
            MSTATUS => self.read_mstatus(),
            MSTATUSH if rv32 => 0,
            MISA => {
                let mxl = if rv32 { 1u64 << 30 } else { 2u64 << 62 };
                mxl | MISA_EXTENSIONS
            }
            MEDELEG => c.medeleg,
            MIDELEG => c.mideleg,
            MIE => c.mie,
            MTVEC => c.mtvec,
            MCOUNTEREN => c.mcounteren,
            MCOUNTINHIBIT => c.mcountinhibit,
            0x323..=0x33f => 0,
            MSCRATCH => c.mscratch,
            MEPC => c.mepc & !1,
            MCAUSE => c.mcause,
            MTVAL => c.mtval,
            MIP => c.mip,
            MCYCLE | MCYCLEH => {
                if a == MCYCLEH && !rv32 {
                    return None;
                }
                self.half(self.completed().wrapping_add(c.mcycle_adjust), a == MCYCLEH)
            }
            MINSTRET | MINSTRETH => {
                if a == MINSTRETH && !rv32 {
                    return None;
                }
                self.half(
                    self.completed().wrapping_add(c.minstret_adjust),
                    a == MINSTRETH,
                )
            }
            0xb03..=0xb1f => 0,
            0xb83..=0xb9f if rv32 => 0,
            MVENDORID | MIMPID | MHARTID | MCONFIGPTR => 0,
            MARCHID => MARCHID_VALUE,
            _ => return None,
        };
        Some(v & self.xlen_mask())
    }

    /// Write CSR `a` (already known to exist and be accessible and writable);
    /// `None` if the write raises an illegal-instruction exception.
    pub(crate) fn csr_write(&mut self, a: u16, v: u64) -> Option<()> {
        use addr::*;
        let v = v & self.xlen_mask();
        let rv32 = self.xlen == Xlen::X32;
        let low_mask = self.xlen_mask();
        match a {
            FFLAGS => self.csr.fflags = (v & 0x1f) as u8,
            FRM => self.csr.frm = (v & 7) as u8,
            FCSR => {
                self.csr.fflags = (v & 0x1f) as u8;
                self.csr.frm = ((v >> 5) & 7) as u8;
            }
            SSTATUS => {
                self.csr.mstatus = (self.csr.mstatus & !SSTATUS_WRITABLE) | (v & SSTATUS_WRITABLE);
            }
            SIE => {
                let m = self.csr.mideleg & MIE_WRITABLE;
                self.csr.mie = (self.csr.mie & !m) | (v & m);
            }
            STVEC => self.csr.stvec = v & !2,
            SCOUNTEREN => self.csr.scounteren = v & 0xffff_ffff,
            SSCRATCH => self.csr.sscratch = v,
            SEPC => self.csr.sepc = v & !1,
            SCAUSE => self.csr.scause = v,
            STVAL => self.csr.stval = v,
            SIP => {
                let m = self.csr.mideleg & MIP_SSIP;
                self.csr.mip = (self.csr.mip & !m) | (v & m);
            }
            SATP => {
                // Only Bare translation: writes selecting another mode have no effect.
                let mode = if rv32 { v >> 31 } else { v >> 60 };
                if mode == 0 {
                    self.csr.satp = v;
                }
            }
            MSTATUS => self.write_mstatus(if rv32 {
                (self.csr.mstatus & !low_mask) | v
            } else {
                v
            }),
            MSTATUSH | MISA => {}
            MEDELEG => self.csr.medeleg = v & DELEGABLE_EXCEPTIONS,
            MIDELEG => self.csr.mideleg = v & DELEGABLE_INTERRUPTS,
            MIE => self.csr.mie = v & MIE_WRITABLE,
            MTVEC => self.csr.mtvec = v & !2,
            MCOUNTEREN => self.csr.mcounteren = v & 0xffff_ffff,
            MCOUNTINHIBIT => self.csr.mcountinhibit = v & 0xffff_fffd,
            0x323..=0x33f | 0xb03..=0xb1f | 0xb83..=0xb9f => {}
            MSCRATCH => self.csr.mscratch = v,
            MEPC => self.csr.mepc = v & !1,
            MCAUSE => self.csr.mcause = v,
            MTVAL => self.csr.mtval = v,
            MIP => self.csr.mip = (self.csr.mip & !MIP_WRITABLE) | (v & MIP_WRITABLE),
            MCYCLE | MCYCLEH | MINSTRET | MINSTRETH => {
                let instret = a == MINSTRET || a == MINSTRETH;
                let adjust = if instret {
                    self.csr.minstret_adjust
                } else {
                    self.csr.mcycle_adjust
                };
                let current = self.completed().wrapping_add(adjust);
                let new = match (a, rv32) {
                    (MCYCLEH | MINSTRETH, _) => (v << 32) | (current & 0xffff_ffff),
                    (_, true) => (current & !0xffff_ffff) | v,
                    _ => v,
                };
                // The writing instruction itself completes afterwards (counted +1).
                let adjust = new.wrapping_sub(self.completed() + 1);
                if instret {
                    self.csr.minstret_adjust = adjust;
                } else {
                    self.csr.mcycle_adjust = adjust;
                }
            }
            _ => return None,
        }
        if matches!(a, FFLAGS | FRM | FCSR) {
            self.csr.mstatus |= MSTATUS_FS;
        }
        Some(())
    }
}
