//! Errors of the hart model running a program ([`HartError`]); loading one fails with
//! [`etrace_spec::elf::LoadError`].

use thiserror::Error;

/// Why a run stopped without the program exiting through `tohost`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HartError {
    /// The run was stopped from outside ([`crate::Hart::with_stop`]).
    #[error("run stopped on request (at pc {pc:#x})")]
    Stopped {
        /// Address of the next instruction.
        pc: u64,
    },
    /// The retired-instruction limit was reached.
    #[error("program did not exit within {limit} retired instructions (stopped at pc {pc:#x})")]
    MaxInstructions {
        /// The configured limit.
        limit: u64,
        /// Address of the next instruction.
        pc: u64,
    },
    /// The same trap was taken at the same address twice without any instruction retiring
    /// in between: the hart would loop forever (for example `mtvec` points at unmapped
    /// memory).
    #[error("trap storm: {} cause {cause} taken twice at pc {pc:#x} without retiring an instruction (trap vector {vector:#x})", if *interrupt { "interrupt" } else { "exception" })]
    TrapStorm {
        /// Address of the trapping instruction.
        pc: u64,
        /// Cause (without the interrupt bit).
        cause: u64,
        /// Interrupt rather than exception.
        interrupt: bool,
        /// The trap handler address the trap went to.
        vector: u64,
    },
    /// `wfi` retired while no enabled interrupt can ever become pending.
    #[error("wfi at pc {pc:#x} waits forever: no enabled interrupt is pending and the timer is not armed (mie = {mie:#x}, mtime = {mtime}, mtimecmp = {mtimecmp})")]
    WfiDeadlock {
        /// Address of the `wfi`.
        pc: u64,
        /// `mie` at that time.
        mie: u64,
        /// CLINT `mtime`.
        mtime: u64,
        /// CLINT `mtimecmp`.
        mtimecmp: u64,
    },
    /// A `tohost` request could not be served.
    #[error("bad HTIF request {value:#x} written to tohost by the store at pc {pc:#x}: {reason}")]
    BadHtifRequest {
        /// The `tohost` value.
        value: u64,
        /// Address of the store.
        pc: u64,
        /// What is wrong.
        reason: &'static str,
    },
}
