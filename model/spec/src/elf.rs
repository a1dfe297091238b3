//! Reading a statically linked RISC-V ELF program: class (XLEN), entry point, `PT_LOAD`
//! segments (loaded at `p_paddr`, as spike does) and the HTIF `tohost` / `fromhost`
//! symbols (spike's host-target interface; see `docs/spike.md`, "HTIF").

use object::elf::{FileHeader32, FileHeader64, PT_LOAD};
use object::read::elf::{ElfFile, FileHeader, ProgramHeader};
use object::{Endianness, Object, ObjectSymbol};

use crate::isa::Xlen;

/// Why an ELF file could not be loaded into the hart model (ELF-64 Object File Format /
/// RISC-V ELF psABI: `e_machine = EM_RISCV`, `PT_LOAD` segments loaded at `p_paddr`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    /// The entry point is an odd address, where no instruction can start (the unprivileged
    /// ISA, "Instruction Length Encoding": instructions are 16-bit aligned).
    #[error("entry point {entry:#x} is an odd address: instructions start at even addresses (16-bit aligned)")]
    MisalignedEntry {
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

/// One loadable segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Program header index.
    pub index: usize,
    /// Load address (`p_paddr`).
    pub addr: u64,
    /// Size in memory (`p_memsz`); bytes past `data` are zero.
    pub mem_size: u64,
    /// File bytes (`p_filesz` of them).
    pub data: Vec<u8>,
}

/// What the hart needs from an ELF program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElfImage {
    /// XLEN from `EI_CLASS`.
    pub xlen: Xlen,
    /// `e_entry`.
    pub entry: u64,
    /// `PT_LOAD` segments with a non-zero memory size.
    pub segments: Vec<Segment>,
    /// Address of the `tohost` symbol.
    pub tohost: Option<u64>,
    /// Address of the `fromhost` symbol.
    pub fromhost: Option<u64>,
}

const EM_RISCV: u16 = 243;

/// Parse `bytes` as a RISC-V ELF program.
pub fn parse_elf(bytes: &[u8]) -> Result<ElfImage, LoadError> {
    let len = bytes.len() as u64;
    if bytes.len() < 4 || bytes[..4] != [0x7f, b'E', b'L', b'F'] {
        return Err(LoadError::NotElf {
            found: bytes[..bytes.len().min(4)].to_vec(),
        });
    }
    if bytes.len() < 20 {
        return Err(LoadError::Truncated {
            what: "ELF identification and e_machine",
            offset: 0,
            end: 20,
            len,
        });
    }
    let xlen = match bytes[4] {
        1 => Xlen::X32,
        2 => Xlen::X64,
        class => return Err(LoadError::UnsupportedClass { class }),
    };
    if bytes[5] != 1 {
        return Err(LoadError::NotLittleEndian { data: bytes[5] });
    }
    let machine = u16::from_le_bytes([bytes[18], bytes[19]]);
    if machine != EM_RISCV {
        return Err(LoadError::NotRiscv { machine });
    }
    let header_len: u64 = if xlen == Xlen::X64 { 64 } else { 52 };
    if len < header_len {
        return Err(LoadError::Truncated {
            what: "ELF header",
            offset: 0,
            end: header_len,
            len,
        });
    }
    match xlen {
        Xlen::X32 => parse_class::<FileHeader32<Endianness>>(bytes, xlen),
        Xlen::X64 => parse_class::<FileHeader64<Endianness>>(bytes, xlen),
    }
}

fn malformed(e: object::read::Error) -> LoadError {
    LoadError::Malformed {
        reason: e.to_string(),
    }
}

fn parse_class<Elf: FileHeader<Endian = Endianness>>(
    bytes: &[u8],
    xlen: Xlen,
) -> Result<ElfImage, LoadError> {
    let len = bytes.len() as u64;
    let file = ElfFile::<Elf>::parse(bytes).map_err(malformed)?;
    let endian = file.endian();
    let entry: u64 = file.elf_header().e_entry(endian).into();
    let mut segments = Vec::new();
    for (index, ph) in file.elf_program_headers().iter().enumerate() {
        if ph.p_type(endian) != PT_LOAD {
            continue;
        }
        let mem_size: u64 = ph.p_memsz(endian).into();
        if mem_size == 0 {
            continue;
        }
        let offset: u64 = ph.p_offset(endian).into();
        let file_size: u64 = ph.p_filesz(endian).into();
        let addr: u64 = ph.p_paddr(endian).into();
        let end = offset.saturating_add(file_size);
        if end > len {
            return Err(LoadError::SegmentTruncated {
                index,
                offset,
                end,
                len,
            });
        }
        let outside = |reason| LoadError::SegmentOutsideMemory {
            index,
            addr,
            size: mem_size,
            reason,
        };
        if file_size > mem_size {
            return Err(outside("p_filesz is larger than p_memsz"));
        }
        let last = addr
            .checked_add(mem_size)
            .ok_or(outside("address range wraps"))?;
        if xlen == Xlen::X32 && last > 1 << 32 {
            return Err(outside("beyond the 32-bit address space"));
        }
        segments.push(Segment {
            index,
            addr,
            mem_size,
            data: bytes[offset as usize..end as usize].to_vec(),
        });
    }
    if segments.is_empty() {
        return Err(LoadError::NoLoadableSegment);
    }
    let mut tohost = None;
    let mut fromhost = None;
    for sym in file.symbols() {
        match sym.name() {
            Ok("tohost") => tohost = Some(sym.address()),
            Ok("fromhost") => fromhost = Some(sym.address()),
            _ => {}
        }
    }
    Ok(ElfImage {
        xlen,
        entry,
        segments,
        tohost,
        fromhost,
    })
}
