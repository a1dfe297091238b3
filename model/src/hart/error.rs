//! Errors of the hart model: loading an ELF program ([`LoadError`]) and running it
//! ([`HartError`]).

use thiserror::Error;

/// Why an ELF file could not be loaded into the hart model (ELF-64 Object File Format /
/// RISC-V ELF psABI: `e_machine = EM_RISCV`, `PT_LOAD` segments loaded at `p_paddr`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadError {
    /// The file does not start with the ELF magic bytes.
    #[error("not an ELF file: bytes 0..4 are {found:02x?}, expected 7f 45 4c 46")]
    NotElf {
        /// The first bytes found (fewer if the file is shorter).
        found: Vec<u8>,
    },
    /// The file ends inside a header or table.
    #[error("truncated ELF file: {what} needs bytes {offset}..{end} but the file has {len} bytes")]
    Truncated {
        /// The structure being read.
        what: &'static str,
        /// Its first byte offset.
        offset: u64,
        /// Its end byte offset (exclusive).
        end: u64,
        /// The file length.
        len: u64,
    },
    /// `EI_CLASS` is neither ELFCLASS32 nor ELFCLASS64.
    #[error("unsupported ELF class {class} at byte offset 4 (expected 1 = 32-bit or 2 = 64-bit)")]
    UnsupportedClass {
        /// The `EI_CLASS` byte.
        class: u8,
    },
    /// `EI_DATA` is not little-endian.
    #[error("unsupported ELF data encoding {data} at byte offset 5 (RISC-V is little-endian, 1)")]
    NotLittleEndian {
        /// The `EI_DATA` byte.
        data: u8,
    },
    /// `e_machine` is not EM_RISCV (243).
    #[error("not a RISC-V ELF file: e_machine (byte offset 18) is {machine}, expected 243")]
    NotRiscv {
        /// The `e_machine` value.
        machine: u16,
    },
    /// The object parser rejected the file.
    #[error("malformed ELF file: {reason}")]
    Malformed {
        /// The parser's message.
        reason: String,
    },
    /// No `PT_LOAD` segment with a non-zero memory size.
    #[error("ELF file has no loadable (PT_LOAD) segment")]
    NoLoadableSegment,
    /// A segment's file bytes lie outside the file.
    #[error("program header {index}: file bytes {offset:#x}..{end:#x} lie outside the file ({len} bytes)")]
    SegmentTruncated {
        /// Program header index.
        index: usize,
        /// `p_offset`.
        offset: u64,
        /// `p_offset + p_filesz`.
        end: u64,
        /// The file length.
        len: u64,
    },
    /// A segment cannot be placed in the hart's memory map.
    #[error(
        "program header {index}: segment at {addr:#x} ({size:#x} bytes) cannot be loaded: {reason}"
    )]
    SegmentOutsideMemory {
        /// Program header index.
        index: usize,
        /// `p_paddr`.
        addr: u64,
        /// `p_memsz`.
        size: u64,
        /// What is wrong.
        reason: &'static str,
    },
    /// The entry point is not inside loaded memory.
    #[error("entry point {entry:#x} is not inside any loaded segment or the RAM window")]
    EntryNotMapped {
        /// `e_entry`.
        entry: u64,
    },
    /// The configured RAM window is unusable.
    #[error("RAM window {base:#x} + {size:#x} is invalid: {reason}")]
    BadRamConfig {
        /// Configured base.
        base: u64,
        /// Configured size.
        size: u64,
        /// What is wrong.
        reason: &'static str,
    },
}

/// Why a run stopped without the program exiting through `tohost`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HartError {
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
