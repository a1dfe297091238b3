//! Function symbols of ELF files (`seeds/004`'s symbol look-up): `STT_FUNC` symbols, with
//! the other (`STT_NOTYPE`) symbols of code sections as a fall-back for code that no
//! function symbol covers (assembly labels such as `_start`).

use super::CallTreeError;
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

/// One function (or code label) of the symbol table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Its name.
    pub name: String,
    /// Entry address (`st_value`).
    pub address: u64,
    /// `st_size` (0 when unknown).
    pub size: u64,
    /// An `STT_FUNC` symbol (else a code label used as fall-back).
    pub is_function: bool,
    /// `STB_GLOBAL` / `STB_WEAK`.
    pub is_global: bool,
}

/// The functions of one or more programs, sorted by address.
#[derive(Debug, Clone, Default)]
pub struct SymbolTable {
    /// Entries: one per address, functions first, labels only where no function covers them.
    entries: Vec<Symbol>,
}

impl SymbolTable {
    /// An empty table.
    pub fn new() -> SymbolTable {
        SymbolTable::default()
    }

    /// The function symbols of one ELF file.
    pub fn from_elf(bytes: &[u8]) -> Result<SymbolTable, CallTreeError> {
        let mut table = SymbolTable::new();
        table.add_elf(bytes)?;
        Ok(table)
    }

    /// Adds the `STT_FUNC` symbols of an ELF file and the labels of its code sections.
    pub fn add_elf(&mut self, bytes: &[u8]) -> Result<(), CallTreeError> {
        let file = object::File::parse(bytes)?;
        let mut symbols = Vec::new();
        for sym in file.symbols() {
            let Ok(name) = sym.name() else { continue };
            if name.is_empty() || name.starts_with('$') || name.starts_with(".L") {
                continue;
            }
            let is_function = match sym.kind() {
                SymbolKind::Text => true,
                SymbolKind::Label | SymbolKind::Unknown => {
                    let in_code = sym
                        .section_index()
                        .and_then(|i| file.section_by_index(i).ok())
                        .is_some_and(|s| s.kind() == SectionKind::Text);
                    if !in_code {
                        continue;
                    }
                    false
                }
                _ => continue,
            };
            if !sym.is_definition() && !is_function {
                continue;
            }
            symbols.push(Symbol {
                name: name.to_string(),
                address: sym.address(),
                size: sym.size(),
                is_function,
                is_global: sym.is_global(),
            });
        }
        self.extend(symbols);
        Ok(())
    }

    /// Adds symbols given directly (for programs without an ELF file).
    pub fn extend(&mut self, symbols: impl IntoIterator<Item = Symbol>) {
        let mut all: Vec<Symbol> = std::mem::take(&mut self.entries);
        all.extend(symbols);
        // One entry per address: functions before labels, global before local.
        all.sort_by(|a, b| {
            a.address
                .cmp(&b.address)
                .then(b.is_function.cmp(&a.is_function))
                .then(b.is_global.cmp(&a.is_global))
                .then(a.name.cmp(&b.name))
        });
        all.dedup_by(|later, first| later.address == first.address);
        // Labels inside a function's range are local labels of that function, not entries.
        let functions: Vec<(u64, u64)> = all
            .iter()
            .filter(|s| s.is_function && s.size > 0)
            .map(|s| (s.address, s.address + s.size))
            .collect();
        all.retain(|s| {
            s.is_function
                || !functions
                    .iter()
                    .any(|&(lo, hi)| lo < s.address && s.address < hi)
        });
        self.entries = all;
    }

    /// Every entry, sorted by address.
    pub fn symbols(&self) -> &[Symbol] {
        &self.entries
    }

    /// The function that starts exactly at `address`, if any.
    pub fn entry_at(&self, address: u64) -> Option<&Symbol> {
        self.entries
            .binary_search_by_key(&address, |s| s.address)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The function containing `address`: the nearest entry at or below it.
    pub fn function_at(&self, address: u64) -> Option<&Symbol> {
        let i = self.entries.partition_point(|s| s.address <= address);
        i.checked_sub(1).map(|i| &self.entries[i])
    }
}
