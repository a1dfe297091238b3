//! The hart's memory map in spike's `-m` syntax (`docs/spike.md`, "Memory";
//! `docs/cli.md`, `-m/--memory`): `<base>:<size>,<base>:<size>...` (numbers in hexadecimal
//! with `0x`, or decimal), or `<n>` for n MiB at 0x8000_0000. As spike does, a region is
//! widened to whole 4 KiB pages.

use std::fmt;
use std::str::FromStr;

/// Most regions a map may have.
pub const MAX_MAP_REGIONS: usize = 8;
/// spike's page size, to which regions are widened.
const PAGE: u64 = 0x1000;
/// Base of `-m<n>` (spike's `DRAM_BASE`).
const DRAM_BASE: u64 = 0x8000_0000;

/// Why a memory map is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryMapError {
    /// The text is not in spike's syntax.
    #[error("malformed memory map `{text}`: {reason} (expected <base>:<size>,... in hex with 0x, or <MiB>)")]
    Malformed {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A region of size zero.
    #[error("memory region at {base:#x} has size zero")]
    ZeroSize {
        /// Its base.
        base: u64,
    },
    /// A region that runs past the end of the address space.
    #[error("memory region {base:#x}:{size:#x} runs past the end of the address space")]
    Wraps {
        /// Its base.
        base: u64,
        /// Its size.
        size: u64,
    },
    /// Two regions overlap.
    #[error("memory regions {a_base:#x}:{a_size:#x} and {b_base:#x}:{b_size:#x} overlap")]
    Overlap {
        /// First region's base.
        a_base: u64,
        /// First region's size.
        a_size: u64,
        /// Second region's base.
        b_base: u64,
        /// Second region's size.
        b_size: u64,
    },
    /// No region, or more than [`MAX_MAP_REGIONS`].
    #[error("a memory map has 1 to {MAX_MAP_REGIONS} regions, not {count}")]
    Count {
        /// Regions given.
        count: usize,
    },
}

/// Memory regions `(base, size)` in bytes, page aligned, not overlapping, in the order
/// given. The empty map (the default) means no `-m`: RAM at
/// [`crate::HartConfig::ram_base`] plus whatever the ELF loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryMap {
    regions: [(u64, u64); MAX_MAP_REGIONS],
    len: usize,
}

impl MemoryMap {
    /// A map of these regions (widened to whole pages), checked.
    pub fn new(regions: &[(u64, u64)]) -> Result<MemoryMap, MemoryMapError> {
        if regions.is_empty() || regions.len() > MAX_MAP_REGIONS {
            return Err(MemoryMapError::Count {
                count: regions.len(),
            });
        }
        let mut map = MemoryMap::default();
        for &(base, size) in regions {
            if size == 0 {
                return Err(MemoryMapError::ZeroSize { base });
            }
            let wraps = MemoryMapError::Wraps { base, size };
            let end = base.checked_add(size).ok_or(wraps.clone())?;
            let end = end.checked_next_multiple_of(PAGE).ok_or(wraps)?;
            let page_base = base - base % PAGE;
            let region = (page_base, end - page_base);
            if let Some(&(b, s)) = map.regions().iter().find(|&&(b, s)| {
                region.0 < b.saturating_add(s) && b < region.0.saturating_add(region.1)
            }) {
                return Err(MemoryMapError::Overlap {
                    a_base: b,
                    a_size: s,
                    b_base: region.0,
                    b_size: region.1,
                });
            }
            map.regions[map.len] = region;
            map.len += 1;
        }
        Ok(map)
    }

    /// spike's default: 2 GiB at 0x8000_0000.
    pub fn spike_default() -> MemoryMap {
        MemoryMap::new(&[(DRAM_BASE, 2 << 30)]).unwrap_or_default()
    }

    /// The regions `(base, size)`; empty for the default map.
    pub fn regions(&self) -> &[(u64, u64)] {
        &self.regions[..self.len]
    }

    /// True for the default map (no `-m`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A number as spike's `strtoull(.., 0)` reads it here: hexadecimal with `0x`, else decimal.
fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

impl FromStr for MemoryMap {
    type Err = MemoryMapError;

    fn from_str(text: &str) -> Result<MemoryMap, MemoryMapError> {
        let malformed = |reason| MemoryMapError::Malformed {
            text: text.to_string(),
            reason,
        };
        if !text.contains(':') {
            let mib = number(text).ok_or(malformed("not a number of MiB"))?;
            let size = mib.checked_mul(1 << 20).ok_or(malformed("too many MiB"))?;
            return MemoryMap::new(&[(DRAM_BASE, size)]);
        }
        let mut regions = Vec::new();
        for part in text.split(',') {
            let (base, size) = part
                .split_once(':')
                .ok_or(malformed("a region without `:`"))?;
            let base = number(base).ok_or(malformed("a base that is not a number"))?;
            let size = number(size).ok_or(malformed("a size that is not a number"))?;
            regions.push((base, size));
        }
        MemoryMap::new(&regions)
    }
}

impl fmt::Display for MemoryMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (base, size)) in self.regions().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{base:#x}:{size:#x}")?;
        }
        Ok(())
    }
}
