//! A RISC-V hart that runs bare-metal ELF programs and produces the ingress stream of
//! `ingressPort.adoc` (single-retirement form): one [`IngressRecord`] per retired
//! instruction and per trap, following the conventions of [`etrace_spec::ingress`].
//!
//! The hart implements RV32/RV64 I M A C F D Zicsr Zifencei with M, S and U privilege
//! levels, Bare address translation only, spike's CLINT timer and software interrupt, and
//! spike's HTIF `tohost`/`fromhost` protocol; it follows spike's choices where the ISA
//! leaves room (see `docs/spike.md`): misaligned loads and stores
//! trap, unimplemented CSRs (PMP among them) raise illegal-instruction exceptions,
//! illegal-instruction `tval` is the instruction bits, breakpoint `tval` is the pc,
//! `mtime` advances by one every [`INSNS_PER_RTC_TICK`] retired instructions (with
//! [`HartConfig::spike_bootrom`]: by 50 at the end of each of spike's chunks of
//! [`HTIF_INTERLEAVE`] instructions, where HTIF requests are served and interrupts looked at).
//!
//! Speed: decoded instructions are kept in a direct-mapped cache validated against the
//! fetched instruction bits (so stores into code need no invalidation), the run loop is
//! monomorphised per XLEN and per sink type.

mod csr;
mod error;
mod exec;
mod fpu;
mod htif;
mod memory;
mod memory_map;
mod records;
mod sink;
mod trap;

pub use error::HartError;
pub use etrace_spec::elf::LoadError;

use etrace_spec::elf::{parse_elf, ElfImage};
pub use htif::HTIF_INTERLEAVE;
pub use memory::{CLINT_BASE, CLINT_SIZE};
pub use memory_map::{MemoryMap, MemoryMapError, MAX_MAP_REGIONS};
pub use records::{HartRecords, HartRecordsError, RecordsTally};
pub use sink::{CountingSink, IngressSink, NullSink};
pub use trap::cause;

use csr::{Csrs, MIP_MTIP};
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::isa::{decode, Decoded, JumpClass, Op, Xlen};
use etrace_spec::trace_control::registers::TeImplementation;
use memory::{Memory, Region, TraceEncoderDevice};
use trap::Trap;

/// Retired instructions per `mtime` increment (spike's `INSNS_PER_RTC_TICK`).
pub const INSNS_PER_RTC_TICK: u64 = 100;
/// Base of spike's boot ROM, where execution starts with `--spike-bootrom`.
pub const BOOTROM_BASE: u64 = 0x1000;
const BOOTROM_SIZE: u64 = 0x1000;
/// Default RAM window base (spike's `DRAM_BASE`).
pub const DEFAULT_RAM_BASE: u64 = 0x8000_0000;
/// Default RAM window size (spike's default memory, 2 GiB).
pub const DEFAULT_RAM_SIZE: u64 = 2 << 30;
/// Largest RAM window or segment region accepted.
const MAX_MEMORY: u64 = 16 << 30;
const MAX_REGION: u64 = 1 << 30;

const ICACHE_ENTRIES: usize = 1 << 15;

pub(crate) const EV_TOHOST: u8 = 1;
pub(crate) const EV_WFI: u8 = 2;
pub(crate) const EV_LIMIT: u8 = 4;
pub(crate) const EV_HTIF: u8 = 8;
pub(crate) const EV_STOP: u8 = 16;

/// How the hart runs (CLI options of `etrace iss`, see `docs/cli.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HartConfig {
    /// Stop with [`HartError::MaxInstructions`] after this many retired instructions.
    pub max_instructions: u64,
    /// Start in spike's boot ROM at 0x1000 (`--spike-bootrom`) instead of the ELF entry,
    /// and serve HTIF requests other than the exit at spike's times (`docs/spike.md`,
    /// "HTIF"; see [`HTIF_INTERLEAVE`]).
    pub spike_bootrom: bool,
    /// `itype_width_p` of the produced records (`ingressPort.adoc` `tab:itype`).
    pub itype_width: ItypeWidth,
    /// Base address of the RAM window.
    pub ram_base: u64,
    /// Size of the RAM window in bytes (backed lazily).
    pub ram_size: u64,
    /// spike's `-m` memory map (`--memory`): when not empty, the only memory besides the
    /// CLINT and the boot ROM; the ELF must load inside it, and `ram_base` / `ram_size`
    /// are not used (the region holding the entry point gets the fast path).
    pub memory: MemoryMap,
    /// Base address of a trace encoder's control registers (Trace Control Interface 1.0,
    /// a 4 KiB window; `etrace_spec::trace_control`), as the SoCs map them: 32-bit loads
    /// and stores there read and write the golden register model, whose `trTeEmpty` reads
    /// 1 and whose `trTeInstStallOrOverflow` is never set (the hart has no encoder
    /// output). `None`: no such device.
    pub trace_encoder: Option<u64>,
    /// What that encoder implements: the options its `trTeInstFeatures` offers (the
    /// SoC's encoder build).
    pub trace_encoder_implementation: TeImplementation,
}

impl Default for HartConfig {
    fn default() -> HartConfig {
        HartConfig {
            max_instructions: 100_000_000,
            spike_bootrom: false,
            itype_width: ItypeWidth::W4,
            ram_base: DEFAULT_RAM_BASE,
            ram_size: DEFAULT_RAM_SIZE,
            memory: MemoryMap::default(),
            trace_encoder: None,
            trace_encoder_implementation: TeImplementation::default(),
        }
    }
}

/// Number of traps taken with one cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrapCount {
    /// Interrupt (`itype` 2) rather than exception (`itype` 1).
    pub interrupt: bool,
    /// Cause code without the interrupt bit.
    pub cause: u64,
    /// How many were taken.
    pub count: u64,
}

/// Summary of a run that ended with the program's exit request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// Exit code (`tohost >> 1`, or the `exit` syscall's argument).
    pub exit_code: u64,
    /// Records with `iretire = 1` (including `ecall`/`ebreak`, which retire and trap).
    pub retired: u64,
    /// Records produced.
    pub records: u64,
    /// Traps taken, by kind and cause, sorted.
    pub traps: Vec<TrapCount>,
    /// Privilege level changes (trap entries and `xRET`s that changed the level).
    pub privilege_changes: u64,
    /// Address of the store to `tohost` that ended the run.
    pub exit_pc: u64,
}

impl RunOutcome {
    /// Number of traps of one kind and cause.
    pub fn trap_count(&self, interrupt: bool, cause: u64) -> u64 {
        self.traps
            .iter()
            .filter(|t| t.interrupt == interrupt && t.cause == cause)
            .map(|t| t.count)
            .sum()
    }

    /// Number of exceptions taken.
    pub fn exceptions(&self) -> u64 {
        self.traps
            .iter()
            .filter(|t| !t.interrupt)
            .map(|t| t.count)
            .sum()
    }

    /// Number of interrupts taken.
    pub fn interrupts(&self) -> u64 {
        self.traps
            .iter()
            .filter(|t| t.interrupt)
            .map(|t| t.count)
            .sum()
    }
}

/// One decoded-instruction cache entry, keyed by the fetched bits.
#[derive(Debug, Clone, Copy)]
struct CacheEntry {
    /// The 32 bits fetched at the instruction's address (decoding uses the low 16 bits
    /// only for a compressed instruction).
    word: u32,
    /// `itype` when retiring (branches: not taken).
    itype: Itype,
    /// An uninferable jump other than a return (candidate for `sijump`, see
    /// [`Decoded::is_sequential_jump`]).
    uninferable: bool,
    /// `rd` of `lui`/`auipc`/`c.lui`, else 0.
    lui_rd: u8,
    d: Decoded,
}

impl CacheEntry {
    fn new(word: u32, xlen: Xlen, width: ItypeWidth) -> CacheEntry {
        let d = decode(word, xlen);
        CacheEntry {
            word,
            itype: d.itype(false, width),
            uninferable: d.is_uninferable_jump() && d.jump_class() != JumpClass::Return,
            lui_rd: if matches!(d.op, Op::Lui | Op::Auipc) {
                d.rd
            } else {
                0
            },
            d,
        }
    }
}

/// The hart: architectural state, memory, and run statistics.
pub struct Hart {
    config: HartConfig,
    xlen: Xlen,
    x: [u64; 32],
    f: [u64; 32],
    pc: u64,
    prv: Privilege,
    csr: Csrs,
    mem: Memory,
    ram_len: u64,
    icache: Vec<CacheEntry>,
    /// `icache.len() - 1`: the index mask of the decoded-instruction cache.
    icache_mask: usize,
    entry: u64,
    tohost: Option<u64>,
    fromhost: Option<u64>,
    /// Byte range of the low word of `tohost`, whose stores are requests (empty without
    /// the symbol).
    tohost_lo: u64,
    tohost_hi: u64,
    reservation: Option<u64>,
    /// Records with `iretire = 1`.
    retired: u64,
    /// `ecall`/`ebreak` retirements (not counted by `minstret`).
    trap_retired: u64,
    /// Records with `iretire = 0` (traps that do not retire an instruction).
    trap_records: u64,
    next_tick: u64,
    /// `min(next_tick, max_instructions)`: the retired count at which the run loop looks
    /// at the timer and the limit.
    next_event: u64,
    taken: bool,
    events: u8,
    last_lui_rd: u8,
    console: String,
    console_pending: Vec<u8>,
    /// Whether program output is kept in `console` (off: dropped, see
    /// [`Hart::without_console`]).
    keep_console: bool,
    /// Set by another thread to stop the run ([`Hart::with_stop`]); polled with the timer.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    exit: Option<(u64, u64)>,
    exceptions: [u64; 64],
    interrupts: [u64; 64],
    privilege_changes: u64,
    /// Last trap: (pc, cause, interrupt, retired count then).
    last_trap: Option<(u64, u64, bool, u64)>,
    /// With `spike_bootrom`: the retired count at which spike's current chunk of
    /// instructions ends (`docs/spike.md`, "HTIF"); `u64::MAX` otherwise.
    chunk_end: u64,
    /// Address of the store that wrote an HTIF request waiting for the chunk's end.
    htif_waiting: Option<u64>,
    /// With `spike_bootrom`: the retired count at which spike looks for pending interrupts
    /// (the start of a chunk, after a CSR instruction or an `xRET`).
    interrupt_window: u64,
}

impl std::fmt::Debug for Hart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hart")
            .field("xlen", &self.xlen)
            .field("pc", &format_args!("{:#x}", self.pc))
            .field("privilege", &self.prv)
            .field("retired", &self.retired)
            .finish_non_exhaustive()
    }
}

/// spike's boot ROM words (`docs/spike.md`, "Boot ROM").
fn bootrom_image(xlen: Xlen, entry: u64) -> Vec<u8> {
    let load = match xlen {
        Xlen::X32 => 0x0182_a283u32, // lw t0, 24(t0)
        Xlen::X64 => 0x0182_b283,    // ld t0, 24(t0)
    };
    let words: [u32; 8] = [
        0x0000_0297, // auipc t0, 0
        0x0202_8593, // addi a1, t0, 32
        0xf140_2573, // csrr a0, mhartid
        load,
        0x0002_8067, // jr t0
        0,
        entry as u32,
        (entry >> 32) as u32,
    ];
    let mut image = vec![0u8; BOOTROM_SIZE as usize];
    for (i, w) in words.iter().enumerate() {
        image[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    image
}

/// Check a RAM window or memory-map region `base`, `size` for a program of `xlen`; its end.
fn check_ram(base: u64, size: u64, xlen: Xlen, bootrom: bool) -> Result<u64, LoadError> {
    let bad_ram = |reason| LoadError::BadRamConfig { base, size, reason };
    if !(4096..=MAX_MEMORY).contains(&size) {
        return Err(bad_ram("size must be between 4 KiB and 16 GiB"));
    }
    let ram_end = base
        .checked_add(size)
        .ok_or(bad_ram("address range wraps"))?;
    if xlen == Xlen::X32 && ram_end > 1 << 32 {
        return Err(bad_ram(
            "beyond the 32-bit address space of an RV32 program",
        ));
    }
    if Memory::overlaps(base, size, CLINT_BASE, CLINT_SIZE) {
        return Err(bad_ram("overlaps the CLINT"));
    }
    if bootrom && Memory::overlaps(base, size, BOOTROM_BASE, BOOTROM_SIZE) {
        return Err(bad_ram("overlaps the boot ROM"));
    }
    Ok(ram_end)
}

/// The code of spike's boot ROM, its five instructions at [`BOOTROM_BASE`] (`docs/spike.md`,
/// "Boot ROM"), for a program of `xlen` starting at `entry`: what a decoder needs to follow
/// a trace that starts there.
pub fn spike_bootrom_code(xlen: Xlen, entry: u64) -> Vec<u8> {
    let mut code = bootrom_image(xlen, entry);
    code.truncate(BOOTROM_INSNS * 4);
    code
}

/// Instructions of spike's boot ROM.
const BOOTROM_INSNS: usize = 5;

impl Hart {
    /// Load an ELF program (`ElfImage` of [`parse_elf`]) and reset the hart: all
    /// registers zero, machine mode, `mstatus.FS` Off, pc at the ELF entry (or at the
    /// boot ROM with [`HartConfig::spike_bootrom`]).
    pub fn from_elf(bytes: &[u8], config: HartConfig) -> Result<Hart, LoadError> {
        Hart::from_image(&parse_elf(bytes)?, config)
    }

    /// [`Hart::from_elf`] for an already parsed program.
    pub fn from_image(image: &ElfImage, config: HartConfig) -> Result<Hart, LoadError> {
        let xlen = image.xlen;
        if image.entry & 1 != 0 {
            return Err(LoadError::MisalignedEntry { entry: image.entry });
        }
        let map = config.memory.regions();
        // The fast path goes to the map's region holding the entry point.
        let (base, size) = map
            .iter()
            .copied()
            .find(|&(b, s)| image.entry >= b && image.entry - b < s)
            .or(map.first().copied())
            .unwrap_or((config.ram_base, config.ram_size));
        let ram_end = check_ram(base, size, xlen, config.spike_bootrom)?;
        let mut mem = Memory::new(base, size);
        mem.trace_encoder = config
            .trace_encoder
            .map(|base| TraceEncoderDevice::new(base, config.trace_encoder_implementation));
        let mut total = size;
        for &(b, s) in map.iter().filter(|&&(b, _)| b != base) {
            check_ram(b, s, xlen, config.spike_bootrom)?;
            total += s;
            if total > MAX_MEMORY {
                return Err(LoadError::BadRamConfig {
                    base: b,
                    size: s,
                    reason: "the memory map holds more than 16 GiB",
                });
            }
            mem.regions.push(Region {
                base: b,
                // A zeroed allocation: the operating system backs pages only when touched.
                data: vec![0u8; s as usize],
                writable: true,
            });
        }
        if config.spike_bootrom {
            mem.regions.push(Region {
                base: BOOTROM_BASE,
                data: bootrom_image(xlen, image.entry),
                writable: false,
            });
        }
        for seg in &image.segments {
            let outside = |reason| LoadError::SegmentOutsideMemory {
                index: seg.index,
                addr: seg.addr,
                size: seg.mem_size,
                reason,
            };
            let end = seg
                .addr
                .checked_add(seg.mem_size)
                .ok_or(outside("address range wraps"))?;
            if xlen == Xlen::X32 && end > 1 << 32 {
                return Err(outside("beyond the 32-bit address space"));
            }
            if seg.addr >= base && end <= ram_end {
                let off = (seg.addr - base) as usize;
                mem.ram[off..off + seg.data.len()].copy_from_slice(&seg.data);
                continue;
            }
            if !map.is_empty() {
                let inside = map
                    .iter()
                    .any(|&(b, s)| seg.addr >= b && end <= b.saturating_add(s));
                let bytes = mem
                    .slice_mut(seg.addr, seg.data.len() as u64, false)
                    .filter(|_| inside)
                    .ok_or(outside(
                        "not inside one region of the memory map (-m/--memory)",
                    ))?;
                bytes.copy_from_slice(&seg.data);
                continue;
            }
            if Memory::overlaps(seg.addr, seg.mem_size, base, size) {
                return Err(outside("straddles the boundary of the RAM window"));
            }
            if Memory::overlaps(seg.addr, seg.mem_size, CLINT_BASE, CLINT_SIZE) {
                return Err(outside("overlaps the CLINT registers"));
            }
            if mem.is_occupied(seg.addr, seg.mem_size) {
                return Err(outside("overlaps the boot ROM or another segment"));
            }
            if seg.mem_size > MAX_REGION {
                return Err(outside(
                    "segment outside the RAM window is larger than 1 GiB",
                ));
            }
            let mut data = seg.data.clone();
            data.resize(seg.mem_size as usize, 0);
            mem.regions.push(Region {
                base: seg.addr,
                data,
                writable: true,
            });
        }
        if mem.slice(image.entry, 2).is_none() {
            return Err(LoadError::EntryNotMapped { entry: image.entry });
        }
        let (tohost_lo, tohost_hi) = match image.tohost {
            Some(a) => (a, a.saturating_add(4)),
            None => (0, 0),
        };
        let mut hart = Hart {
            config,
            xlen,
            x: [0; 32],
            f: [0; 32],
            pc: if config.spike_bootrom {
                BOOTROM_BASE
            } else {
                image.entry
            },
            prv: Privilege::Machine,
            csr: Csrs::default(),
            ram_len: size,
            mem,
            icache: vec![CacheEntry::new(0, xlen, config.itype_width); ICACHE_ENTRIES],
            icache_mask: ICACHE_ENTRIES - 1,
            entry: image.entry,
            tohost: image.tohost,
            fromhost: image.fromhost,
            tohost_lo,
            tohost_hi,
            reservation: None,
            retired: 0,
            trap_retired: 0,
            trap_records: 0,
            // spike's boot-ROM start: mtime ticks at the ends of chunks instead.
            next_tick: if config.spike_bootrom {
                u64::MAX
            } else {
                INSNS_PER_RTC_TICK
            },
            next_event: INSNS_PER_RTC_TICK.min(config.max_instructions),
            taken: false,
            events: 0,
            last_lui_rd: 0,
            console: String::new(),
            console_pending: Vec::new(),
            keep_console: true,
            stop: None,
            exit: None,
            exceptions: [0; 64],
            interrupts: [0; 64],
            privilege_changes: 0,
            last_trap: None,
            chunk_end: if config.spike_bootrom {
                HTIF_INTERLEAVE
            } else {
                u64::MAX
            },
            htif_waiting: None,
            interrupt_window: 0,
        };
        hart.update_clint_interrupts();
        Ok(hart)
    }

    /// XLEN of the program (from the ELF class).
    pub fn xlen(&self) -> Xlen {
        self.xlen
    }

    /// The hart without its decoded-instruction cache: a cache of one entry, so that every
    /// fetch decodes its instruction again (unless it repeats the previous one). Runs
    /// give the same records; the speed bench measures the cache against it (issue 27,
    /// "Hart model speed").
    pub fn without_decode_cache(mut self) -> Hart {
        self.icache.truncate(1);
        self.icache.shrink_to_fit();
        self.icache_mask = 0;
        self
    }

    /// The hart with a stop signal: once `stop` is set, the run ends with
    /// [`HartError::Stopped`] within [`INSNS_PER_RTC_TICK`] retired instructions (with
    /// `spike_bootrom`: within one of spike's chunks). The flag is polled where the timer and
    /// the instruction limit are looked at, so it costs nothing per instruction (issue 27,
    /// "streaming everywhere": a hart run whose consumer stopped listening).
    pub fn with_stop(mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Hart {
        self.stop = Some(stop);
        self
    }

    /// The hart without its console: program output (HTIF console and `write` syscalls) is
    /// dropped instead of kept for [`Hart::console`], so that a long run that prints does
    /// not grow (issue 27, "streaming everywhere").
    pub fn without_console(mut self) -> Hart {
        self.keep_console = false;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &HartConfig {
        &self.config
    }

    /// Program output received through HTIF (console device and `write` syscalls).
    pub fn console(&self) -> &str {
        &self.console
    }

    /// Address of the next instruction.
    pub fn pc(&self) -> u64 {
        self.pc
    }

    /// Current privilege level.
    pub fn privilege(&self) -> Privilege {
        self.prv
    }

    /// ELF entry point.
    pub fn entry(&self) -> u64 {
        self.entry
    }

    /// Address of the `tohost` symbol, if the program has one.
    pub fn tohost(&self) -> Option<u64> {
        self.tohost
    }

    /// Integer register `x<i>` (RV32 values sign-extended to 64 bits).
    pub fn x(&self, i: usize) -> u64 {
        self.x[i & 31]
    }

    /// Floating-point register `f<i>` (64-bit image, singles NaN-boxed).
    pub fn f(&self, i: usize) -> u64 {
        self.f[i & 31]
    }

    /// Records with `iretire = 1` produced so far.
    pub fn retired(&self) -> u64 {
        self.retired
    }

    /// The CLINT's `mtime`.
    pub fn mtime(&self) -> u64 {
        self.mem.clint.mtime
    }

    /// CSR `addr` as machine-mode software would read it; `None` if not implemented.
    pub fn read_csr(&self, addr: u16) -> Option<u64> {
        self.csr_read_as(addr, Privilege::Machine)
    }

    /// `len` bytes of memory at `addr` (RAM or loaded segments), if mapped.
    pub fn read_memory(&self, addr: u64, len: u64) -> Option<&[u8]> {
        self.mem.slice(addr, len)
    }

    /// Run until the program exits through `tohost`, sending every record to `sink`.
    pub fn run<S: IngressSink>(&mut self, sink: &mut S) -> Result<RunOutcome, HartError> {
        match self.xlen {
            Xlen::X64 => self.run_xlen::<true, S>(sink),
            Xlen::X32 => self.run_xlen::<false, S>(sink),
        }
    }

    fn outcome(&self) -> Option<RunOutcome> {
        let (exit_code, exit_pc) = self.exit?;
        let mut traps = Vec::new();
        for (interrupt, counts) in [(false, &self.exceptions), (true, &self.interrupts)] {
            for (cause, &count) in counts.iter().enumerate() {
                if count > 0 {
                    traps.push(TrapCount {
                        interrupt,
                        cause: cause as u64,
                        count,
                    });
                }
            }
        }
        Some(RunOutcome {
            exit_code,
            retired: self.retired,
            records: self.retired + self.trap_records,
            traps,
            privilege_changes: self.privilege_changes,
            exit_pc,
        })
    }

    /// Fetch the instruction bits at `pc` outside the RAM fast path.
    #[cold]
    fn fetch_slow(&self, pc: u64) -> Result<u32, Trap> {
        let lo = self
            .mem
            .slice(pc, 2)
            .map(|s| u16::from_le_bytes([s[0], s[1]]))
            .ok_or(Trap::new(cause::FETCH_ACCESS, pc))?;
        if lo & 3 != 3 {
            return Ok(u32::from(lo));
        }
        let hi_addr = pc.wrapping_add(2) & self.xlen.mask();
        let hi = self
            .mem
            .slice(hi_addr, 2)
            .map(|s| u16::from_le_bytes([s[0], s[1]]))
            .ok_or(Trap::new(cause::FETCH_ACCESS, hi_addr))?;
        Ok(u32::from(lo) | u32::from(hi) << 16)
    }

    /// Fetch and decode the instruction at `pc`: the index of its entry in the
    /// decoded-instruction cache (an index, not a copy, so that the run loop reads only the
    /// fields it uses).
    #[inline(always)]
    fn fetch(&mut self, pc: u64) -> Result<usize, Trap> {
        let off = pc.wrapping_sub(self.mem.ram_base) as usize;
        // One 32-bit load from the RAM window (its bounds check is the window check).
        let word = match self.mem.ram.get(off..).and_then(<[u8]>::first_chunk) {
            Some(bytes) => u32::from_le_bytes(*bytes),
            None => self.fetch_slow(pc)?,
        };
        let idx = (pc >> 1) as usize & self.icache_mask;
        if self.icache[idx].word != word {
            self.icache[idx] = CacheEntry::new(word, self.xlen, self.config.itype_width);
        }
        Ok(idx)
    }

    /// The retired count reached `next_event`: advance `mtime` every
    /// [`INSNS_PER_RTC_TICK`] instructions (with `spike_bootrom`: flag the end of spike's
    /// chunk instead), flag the instruction limit.
    #[cold]
    fn retire_event(&mut self) {
        if self.retired >= self.next_tick {
            self.next_tick += INSNS_PER_RTC_TICK;
            self.mem.clint.mtime = self.mem.clint.mtime.wrapping_add(1);
            self.update_clint_interrupts();
        }
        let limit = self.config.max_instructions;
        if self.retired >= limit {
            self.events |= EV_LIMIT;
        }
        if let Some(stop) = &self.stop {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                self.events |= EV_STOP;
            }
        }
        if self.retired >= self.chunk_end {
            self.events |= EV_HTIF;
        }
        self.next_event = self
            .next_tick
            .min(limit.max(self.retired + 1))
            .min(self.chunk_end.max(self.retired + 1));
    }

    /// Record bookkeeping common to every trap; a trap storm is an error.
    fn note_trap(&mut self, pc: u64, cause: u64, interrupt: bool) -> Result<(), HartError> {
        let counts = if interrupt {
            &mut self.interrupts
        } else {
            &mut self.exceptions
        };
        counts[(cause as usize).min(63)] += 1;
        self.last_lui_rd = 0;
        let key = (pc, cause, interrupt, self.retired);
        let storm = self.last_trap == Some(key);
        self.last_trap = Some(key);
        self.take_trap_storm_check(storm, pc, cause, interrupt)?;
        self.end_htif_chunk()
    }

    fn take_trap_storm_check(
        &self,
        storm: bool,
        pc: u64,
        cause: u64,
        interrupt: bool,
    ) -> Result<(), HartError> {
        if storm {
            return Err(HartError::TrapStorm {
                pc,
                cause,
                interrupt,
                vector: self.pc,
            });
        }
        Ok(())
    }

    /// An exception (`itype = 1`) at the instruction at `pc` of `size` bytes (`insn`: its
    /// bits, 0 when the fetch faulted): `ecall` / `ebreak` retire their instruction
    /// (`retires`, `iretire = 1`), every other exception does not (`iretire = 0`).
    #[cold]
    fn exception<S: IngressSink>(
        &mut self,
        pc: u64,
        trap: Trap,
        (size, insn): (u8, u32),
        retires: bool,
        sink: &mut S,
    ) -> Result<(), HartError> {
        let rec = IngressRecord {
            iretire: u8::from(retires),
            itype: Itype::Exception,
            iaddr: pc,
            ilastsize: size >> 2,
            privilege: self.prv,
            cause: trap.cause,
            tval: trap.tval,
            ..IngressRecord::default()
        };
        if retires {
            self.retired += 1;
            self.trap_retired += 1;
        } else {
            self.trap_records += 1;
        }
        sink.record(&rec, insn);
        self.take_trap(trap.cause, false, trap.tval, pc);
        if retires && self.retired >= self.next_event {
            self.retire_event();
        }
        self.note_trap(pc, trap.cause, false)
    }

    /// An interrupt taken before the instruction at `pc` (`itype = 2`, `iretire = 0`).
    #[cold]
    fn interrupt<S: IngressSink>(&mut self, cause: u64, sink: &mut S) -> Result<(), HartError> {
        let pc = self.pc;
        // The interrupted instruction's bits go with the record (the spike CSV's INSN), and
        // its size in `ilastsize`, as for an exception record.
        let insn = self.fetch_slow(pc).unwrap_or(0);
        let rec = IngressRecord {
            iretire: 0,
            itype: Itype::Interrupt,
            iaddr: pc,
            ilastsize: u8::from(insn & 3 == 3),
            privilege: self.prv,
            cause,
            tval: 0,
            interrupt: true,
            ..IngressRecord::default()
        };
        self.trap_records += 1;
        sink.record(&rec, insn);
        self.take_trap(cause, true, 0, pc);
        self.note_trap(pc, cause, true)
    }

    /// Post-retirement events: `tohost` written, `wfi` retired. Returns true when the
    /// program exited.
    #[cold]
    fn handle_events<const RV64: bool>(&mut self, pc: u64) -> Result<bool, HartError> {
        if self.events & EV_WFI != 0 {
            // spike's chunk ends with the wfi, also when it was the chunk's last instruction.
            self.events &= !(EV_WFI | EV_HTIF);
            self.end_htif_chunk()?;
            self.wait_for_interrupt(pc)?;
        }
        if self.events & EV_TOHOST != 0 {
            // A 64-bit request written as two 32-bit halves, low word first: serve it once
            // the store of the other half (the next instruction) has retired too.
            if self.next_stores_to_tohost::<RV64>() {
                return Ok(false);
            }
            self.events &= !EV_TOHOST;
            if !self.defer_htif_request(pc) {
                if let Some(code) = self.serve_tohost(pc)? {
                    self.exit = Some((code, pc));
                    return Ok(true);
                }
            }
        }
        if self.events & EV_HTIF != 0 {
            self.events &= !EV_HTIF;
            self.end_htif_chunk()?;
            if self.exit.is_some() {
                return Ok(true);
            }
        }
        if self.events & EV_STOP != 0 {
            self.events &= !EV_STOP;
            return Err(HartError::Stopped { pc: self.pc });
        }
        if self.events & EV_LIMIT != 0 {
            self.events &= !EV_LIMIT;
            return Err(HartError::MaxInstructions {
                limit: self.config.max_instructions,
                pc: self.pc,
            });
        }
        Ok(false)
    }

    /// Whether the instruction at the current pc is a store into `tohost`.
    fn next_stores_to_tohost<const RV64: bool>(&mut self) -> bool {
        let Ok(idx) = self.fetch(self.pc) else {
            return false;
        };
        let e = &self.icache[idx];
        let (size, base, imm) = match e.d.op {
            Op::Sb => (1, e.d.rs1, e.d.imm),
            Op::Sh => (2, e.d.rs1, e.d.imm),
            Op::Sw => (4, e.d.rs1, e.d.imm),
            Op::Sd => (8, e.d.rs1, e.d.imm),
            _ => return false,
        };
        let addr = self.x[usize::from(base & 31)].wrapping_add(imm as u64) & self.xlen.mask();
        addr < self.tohost_lo.saturating_add(8) && addr + size > self.tohost_lo
    }

    /// `wfi` retired at `pc`: continue if an enabled interrupt is pending, jump `mtime`
    /// to `mtimecmp` if the machine timer is armed, otherwise the hart would sleep forever.
    fn wait_for_interrupt(&mut self, pc: u64) -> Result<(), HartError> {
        if self.csr.mip & self.csr.mie != 0 {
            return Ok(());
        }
        let clint = &self.mem.clint;
        if self.csr.mie & MIP_MTIP != 0
            && clint.mtimecmp > clint.mtime
            && clint.mtimecmp != u64::MAX
        {
            if self.config.spike_bootrom {
                self.idle_until_timer();
                return Ok(());
            }
            self.mem.clint.mtime = self.mem.clint.mtimecmp;
            self.next_tick = self.retired + INSNS_PER_RTC_TICK;
            self.next_event = self
                .next_tick
                .min(self.config.max_instructions.max(self.retired + 1))
                .min(self.chunk_end.max(self.retired + 1));
            self.update_clint_interrupts();
            return Ok(());
        }
        Err(HartError::WfiDeadlock {
            pc,
            mie: self.csr.mie,
            mtime: clint.mtime,
            mtimecmp: clint.mtimecmp,
        })
    }

    fn run_xlen<const RV64: bool, S: IngressSink>(
        &mut self,
        sink: &mut S,
    ) -> Result<RunOutcome, HartError> {
        let limit = self.config.max_instructions;
        if self.exit.is_none() && self.retired >= limit {
            return Err(HartError::MaxInstructions { limit, pc: self.pc });
        }
        while self.exit.is_none() {
            if self.csr.mip & self.csr.mie != 0 && self.interrupt_may_be_taken() {
                if let Some(cause) = self.pending_interrupt() {
                    self.interrupt(cause, sink)?;
                    continue;
                }
            }
            let pc = self.pc;
            let e = match self.fetch(pc) {
                Ok(idx) => self.icache[idx],
                Err(trap) => {
                    self.exception(pc, trap, (4, 0), false, sink)?;
                    continue;
                }
            };
            let privilege = self.prv;
            match self.execute::<RV64>(&e.d, pc) {
                Ok(next) => {
                    let itype = if e.itype == Itype::NontakenBranch && self.taken {
                        Itype::TakenBranch
                    } else {
                        e.itype
                    };
                    let sijump = e.uninferable && e.d.rs1 == self.last_lui_rd;
                    self.last_lui_rd = e.lui_rd;
                    self.pc = next;
                    self.retired += 1;
                    sink.record(
                        &IngressRecord {
                            iretire: 1,
                            itype,
                            iaddr: pc,
                            ilastsize: e.d.size >> 2,
                            privilege,
                            cause: 0,
                            tval: 0,
                            interrupt: false,
                            context: 0,
                            ctype: 0,
                            sijump,
                        },
                        e.d.raw,
                    );
                    if self.retired >= self.next_event {
                        self.retire_event();
                    }
                    if self.events != 0 && self.handle_events::<RV64>(pc)? {
                        break;
                    }
                }
                Err(trap) => {
                    if e.d.is_ecall_or_ebreak() {
                        self.exception(pc, trap, (e.d.size, e.d.raw), true, sink)?;
                        if self.events != 0 && self.handle_events::<RV64>(pc)? {
                            break;
                        }
                    } else {
                        self.exception(pc, trap, (e.d.size, e.d.raw), false, sink)?;
                    }
                }
            }
        }
        Ok(self
            .outcome()
            .unwrap_or_else(|| unreachable_outcome(self.retired)))
    }
}

/// Never used: the run loop only ends with `exit` set.
fn unreachable_outcome(retired: u64) -> RunOutcome {
    RunOutcome {
        exit_code: 0,
        retired,
        records: 0,
        traps: Vec::new(),
        privilege_changes: 0,
        exit_pc: 0,
    }
}
