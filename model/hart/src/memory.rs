//! Physical memory of the hart model: one flat RAM window (lazily backed by the operating
//! system), extra regions for ELF segments and the boot ROM, and spike's CLINT
//! (core-local interruptor) at 0x0200_0000: `msip` at +0, `mtimecmp` at +0x4000, `mtime`
//! at +0xbff8 (privileged ISA, "Machine Timer Registers (mtime and mtimecmp)").

use etrace_spec::trace_control::map::WINDOW_BYTES;
use etrace_spec::trace_control::registers::{TeImplementation, TeRegisters};

/// CLINT base address (spike's memory map).
pub const CLINT_BASE: u64 = 0x0200_0000;
/// CLINT size in bytes.
pub const CLINT_SIZE: u64 = 0xc000;
const MSIP_OFFSET: u64 = 0;
const MTIMECMP_OFFSET: u64 = 0x4000;
const MTIME_OFFSET: u64 = 0xbff8;

/// A trace encoder's control registers at `base` (a 4 KiB window of 32-bit registers).
#[derive(Debug, Clone)]
pub(crate) struct TraceEncoderDevice {
    pub base: u64,
    pub registers: TeRegisters,
}

impl TraceEncoderDevice {
    /// The registers of an encoder that implements `implementation`, at `base`.
    pub fn new(base: u64, implementation: TeImplementation) -> TraceEncoderDevice {
        TraceEncoderDevice {
            base,
            registers: TeRegisters::new(implementation),
        }
    }

    /// The register offset of a 32-bit access at `addr` in the window.
    fn offset(&self, addr: u64, size: u64) -> Option<u32> {
        let off = addr.checked_sub(self.base)?;
        (off < u64::from(WINDOW_BYTES) && size == 4).then_some(off as u32)
    }
}

/// A memory region outside the RAM window.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    pub base: u64,
    pub data: Vec<u8>,
    pub writable: bool,
}

impl Region {
    fn end(&self) -> u64 {
        self.base + self.data.len() as u64
    }
}

/// The CLINT registers of hart 0.
#[derive(Debug, Clone, Default)]
pub(crate) struct Clint {
    pub msip: u32,
    pub mtimecmp: u64,
    pub mtime: u64,
}

/// RAM window + regions + CLINT.
#[derive(Debug, Clone)]
pub(crate) struct Memory {
    pub ram_base: u64,
    pub ram: Vec<u8>,
    pub regions: Vec<Region>,
    pub clint: Clint,
    pub trace_encoder: Option<TraceEncoderDevice>,
}

fn read_le(bytes: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(buf)
}

impl Memory {
    pub fn new(ram_base: u64, ram_size: u64) -> Memory {
        Memory {
            ram_base,
            // A zeroed allocation: the operating system backs pages only when touched.
            ram: vec![0u8; ram_size as usize],
            regions: Vec::new(),
            clint: Clint::default(),
            trace_encoder: None,
        }
    }

    pub fn ram_end(&self) -> u64 {
        self.ram_base + self.ram.len() as u64
    }

    /// True if `[addr, addr + size)` overlaps `[base, base + len)`.
    pub fn overlaps(addr: u64, size: u64, base: u64, len: u64) -> bool {
        addr < base.saturating_add(len) && base < addr.saturating_add(size)
    }

    /// True if `[addr, addr+size)` overlaps RAM, a region or the CLINT.
    pub fn is_occupied(&self, addr: u64, size: u64) -> bool {
        Memory::overlaps(addr, size, self.ram_base, self.ram.len() as u64)
            || Memory::overlaps(addr, size, CLINT_BASE, CLINT_SIZE)
            || self
                .trace_encoder
                .as_ref()
                .is_some_and(|te| Memory::overlaps(addr, size, te.base, u64::from(WINDOW_BYTES)))
            || self
                .regions
                .iter()
                .any(|r| Memory::overlaps(addr, size, r.base, r.data.len() as u64))
    }

    /// The bytes `[addr, addr + len)` of RAM or one region (no MMIO), for reading.
    pub fn slice(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let end = addr.checked_add(len)?;
        if addr >= self.ram_base && end <= self.ram_end() {
            let off = (addr - self.ram_base) as usize;
            return Some(&self.ram[off..off + len as usize]);
        }
        let r = self
            .regions
            .iter()
            .find(|r| addr >= r.base && end <= r.end())?;
        let off = (addr - r.base) as usize;
        Some(&r.data[off..off + len as usize])
    }

    /// The bytes `[addr, addr + len)` of RAM or one region, for writing (`writable`
    /// regions only unless `force`).
    pub fn slice_mut(&mut self, addr: u64, len: u64, force: bool) -> Option<&mut [u8]> {
        let end = addr.checked_add(len)?;
        if addr >= self.ram_base && end <= self.ram_end() {
            let off = (addr - self.ram_base) as usize;
            return Some(&mut self.ram[off..off + len as usize]);
        }
        let r = self
            .regions
            .iter_mut()
            .find(|r| addr >= r.base && end <= r.end() && (r.writable || force))?;
        let off = (addr - r.base) as usize;
        Some(&mut r.data[off..off + len as usize])
    }

    /// Load `size` (1, 2, 4, 8) bytes, zero-extended; `None` for an access fault.
    pub fn load(&self, addr: u64, size: u64) -> Option<u64> {
        if let Some(bytes) = self.slice(addr, size) {
            return Some(read_le(bytes));
        }
        if let Some(te) = &self.trace_encoder {
            if let Some(offset) = te.offset(addr, size) {
                return Some(u64::from(te.registers.read(offset, true)));
            }
        }
        self.clint_load(addr, size)
    }

    /// Store the `size` low bytes of `value`; `false` for an access fault.
    pub fn store(&mut self, addr: u64, size: u64, value: u64) -> bool {
        if let Some(bytes) = self.slice_mut(addr, size, false) {
            bytes.copy_from_slice(&value.to_le_bytes()[..size as usize]);
            return true;
        }
        if let Some(te) = &mut self.trace_encoder {
            if let Some(offset) = te.offset(addr, size) {
                te.registers.write(offset, value as u32);
                return true;
            }
        }
        self.clint_store(addr, size, value)
    }

    /// The CLINT register containing `[addr, addr + size)`: (register offset, width).
    fn clint_register(addr: u64, size: u64) -> Option<(u64, u64)> {
        let off = addr.checked_sub(CLINT_BASE)?;
        let end = off.checked_add(size)?;
        [(MSIP_OFFSET, 4), (MTIMECMP_OFFSET, 8), (MTIME_OFFSET, 8)]
            .into_iter()
            .find(|&(base, width)| off >= base && end <= base + width)
    }

    fn clint_load(&self, addr: u64, size: u64) -> Option<u64> {
        let (base, _) = Memory::clint_register(addr, size)?;
        let reg = match base {
            MSIP_OFFSET => u64::from(self.clint.msip),
            MTIMECMP_OFFSET => self.clint.mtimecmp,
            _ => self.clint.mtime,
        };
        let shift = (addr - CLINT_BASE - base) * 8;
        let mask = if size == 8 {
            u64::MAX
        } else {
            (1u64 << (size * 8)) - 1
        };
        Some((reg >> shift) & mask)
    }

    fn clint_store(&mut self, addr: u64, size: u64, value: u64) -> bool {
        let Some((base, _)) = Memory::clint_register(addr, size) else {
            return false;
        };
        let shift = (addr - CLINT_BASE - base) * 8;
        let mask = if size == 8 {
            u64::MAX
        } else {
            ((1u64 << (size * 8)) - 1) << shift
        };
        let merge = |old: u64| (old & !mask) | ((value << shift) & mask);
        match base {
            // Only bit 0 of msip is implemented.
            MSIP_OFFSET => self.clint.msip = (merge(u64::from(self.clint.msip)) & 1) as u32,
            MTIMECMP_OFFSET => self.clint.mtimecmp = merge(self.clint.mtimecmp),
            _ => self.clint.mtime = merge(self.clint.mtime),
        }
        true
    }

    /// True if `addr` is a CLINT address (stores there change interrupt state).
    pub fn is_clint(addr: u64) -> bool {
        addr.wrapping_sub(CLINT_BASE) < CLINT_SIZE
    }
}
