//! The program image a decoder follows (`branchTrace.adoc`: "The approach relies on an
//! offline copy of the program binary being available to the decoder"): the code of one or
//! more ELF files, pre-decoded at every half-word so that following the execution path
//! costs one table look-up per instruction.

use etrace_spec::elf::{parse_elf, ElfImage, LoadError};
use etrace_spec::isa::{decode, instruction_size, Decoded, JumpClass, Xlen};

/// What the decoder needs to know about one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    /// The decoded instruction.
    pub decoded: Decoded,
    /// Its kind, for the decoder's predicates.
    pub kind: InsnKind,
    /// The straight-line run starting here: number of consecutive
    /// [`InsnKind::Other`] instructions from this one on (0 if this one is not).
    pub run_len: u32,
    /// Bytes from this instruction to the first instruction after the run.
    pub run_bytes: u32,
    /// Bytes from this instruction to the last instruction of the run.
    pub run_last: u32,
}

/// The instruction classes of `decoder.adoc`'s predicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsnKind {
    /// Sequential instruction (none of the others).
    Other,
    /// `is_branch`; `offset` is the branch offset.
    Branch {
        /// Target minus the branch's address.
        offset: i64,
    },
    /// `is_inferable_jump`; `offset` is the jump offset (or the absolute target for
    /// `jalr` with `rs1 = x0`).
    InferableJump {
        /// Target minus the jump's address.
        offset: i64,
    },
    /// `is_uninferable_jump` (register jumps with `rs1 != x0`).
    UninferableJump,
    /// `is_return_from_trap` (`uret`, `sret`, `mret`, `dret`).
    TrapReturn,
    /// `ecall`, `ebreak`, `c.ebreak`.
    EcallEbreak,
}

impl Insn {
    fn new(decoded: Decoded, address: u64) -> Insn {
        let kind = if decoded.is_branch() {
            InsnKind::Branch {
                offset: decoded.branch_target(address).unwrap_or(address) as i64 - address as i64,
            }
        } else if let Some(target) = decoded
            .is_inferable_jump()
            .then(|| decoded.inferable_jump_target(address))
            .flatten()
        {
            InsnKind::InferableJump {
                offset: target.wrapping_sub(address) as i64,
            }
        } else if decoded.is_uninferable_jump() {
            InsnKind::UninferableJump
        } else if decoded.is_return_from_trap() {
            InsnKind::TrapReturn
        } else if decoded.is_ecall_or_ebreak() {
            InsnKind::EcallEbreak
        } else {
            InsnKind::Other
        };
        Insn {
            decoded,
            kind,
            run_len: 0,
            run_bytes: 0,
            run_last: 0,
        }
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        u64::from(self.decoded.size)
    }

    /// `is_uninferable_discon`: uninferable jump or trap return.
    pub fn is_uninferable_discon(&self) -> bool {
        matches!(self.kind, InsnKind::UninferableJump | InsnKind::TrapReturn)
    }

    /// The jump class of `ingressPort.adoc` (calls push, returns pop the implicit-return
    /// stack, as in the encoder).
    pub fn jump_class(&self) -> JumpClass {
        self.decoded.jump_class()
    }
}

/// The kind of a [`Hot`] entry ([`InsnKind`] without its payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum HotKind {
    /// [`InsnKind::Other`].
    Other,
    /// [`InsnKind::Branch`].
    Branch,
    /// [`InsnKind::InferableJump`].
    InferableJump,
    /// [`InsnKind::UninferableJump`].
    UninferableJump,
    /// [`InsnKind::TrapReturn`].
    TrapReturn,
    /// [`InsnKind::EcallEbreak`].
    EcallEbreak,
}

/// The part of an [`Insn`] the decoder reads for every instruction, packed into 16 bytes
/// so that the table of a program stays in the first-level data cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hot {
    /// The kind.
    pub kind: HotKind,
    /// Size in bytes.
    pub size: u8,
    /// Jump class "call" (`ingressPort.adoc` `JumpClasses`).
    pub call: bool,
    /// Jump class "return".
    pub ret: bool,
    /// [`Insn::run_len`].
    pub run_len: u32,
    /// `HotKind::Other`: [`Insn::run_bytes`] in bits 31:0, [`Insn::run_last`] in bits
    /// 63:32. `Branch` / `InferableJump`: the offset (two's complement).
    word: u64,
}

impl Hot {
    fn new(insn: &Insn) -> Hot {
        let (kind, word) = match insn.kind {
            InsnKind::Other => (
                HotKind::Other,
                u64::from(insn.run_bytes) | (u64::from(insn.run_last) << 32),
            ),
            InsnKind::Branch { offset } => (HotKind::Branch, offset as u64),
            InsnKind::InferableJump { offset } => (HotKind::InferableJump, offset as u64),
            InsnKind::UninferableJump => (HotKind::UninferableJump, 0),
            InsnKind::TrapReturn => (HotKind::TrapReturn, 0),
            InsnKind::EcallEbreak => (HotKind::EcallEbreak, 0),
        };
        let class = insn.jump_class();
        Hot {
            kind,
            size: insn.decoded.size,
            call: class == JumpClass::Call,
            ret: class == JumpClass::Return,
            run_len: insn.run_len,
            word,
        }
    }

    /// Size in bytes.
    #[inline(always)]
    pub fn size(&self) -> u64 {
        u64::from(self.size)
    }

    /// Target minus address of a branch or inferable jump (wrapping).
    #[inline(always)]
    pub fn offset(&self) -> u64 {
        self.word
    }

    /// [`Insn::run_bytes`].
    #[inline(always)]
    pub fn run_bytes(&self) -> u64 {
        self.word & 0xffff_ffff
    }

    /// [`Insn::run_last`].
    #[inline(always)]
    pub fn run_last(&self) -> u64 {
        self.word >> 32
    }

    /// `is_uninferable_discon`.
    #[inline(always)]
    pub fn is_uninferable_discon(&self) -> bool {
        matches!(self.kind, HotKind::UninferableJump | HotKind::TrapReturn)
    }
}

/// One contiguous region of code.
#[derive(Debug, Clone)]
struct Region {
    base: u64,
    /// Pre-decoded instruction starting at each half-word of the region.
    insns: Vec<Insn>,
    /// The same, compact ([`Hot`]).
    hot: Vec<Hot>,
}

/// Code of one or more programs.
#[derive(Debug, Clone, Default)]
pub struct ProgramImage {
    regions: Vec<Region>,
    xlen: Option<Xlen>,
}

/// A problem with the programs given to the decoder.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The ELF could not be read.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// Two programs of different XLEN.
    #[error("programs of different XLEN ({0} and {1} bits)")]
    MixedXlen(u32, u32),
    /// Code loaded twice at the same addresses: two segments of one ELF, or two programs.
    #[error(
        "code at {0:#x}..{1:#x} overlaps code already loaded (an earlier segment of this ELF or \
         an earlier program)"
    )]
    Overlap(u64, u64),
}

impl ProgramImage {
    /// An empty image.
    pub fn new() -> ProgramImage {
        ProgramImage::default()
    }

    /// An image of one ELF file.
    pub fn from_elf(bytes: &[u8]) -> Result<ProgramImage, ImageError> {
        let mut image = ProgramImage::new();
        image.add_elf(bytes)?;
        Ok(image)
    }

    /// Adds the loadable segments of an ELF file.
    pub fn add_elf(&mut self, bytes: &[u8]) -> Result<(), ImageError> {
        let elf: ElfImage = parse_elf(bytes)?;
        if let Some(x) = self.xlen {
            if x != elf.xlen {
                return Err(ImageError::MixedXlen(x.bits(), elf.xlen.bits()));
            }
        }
        self.xlen = Some(elf.xlen);
        for seg in &elf.segments {
            if seg.data.is_empty() {
                continue;
            }
            self.add_code(seg.addr, &seg.data, elf.xlen)?;
        }
        Ok(())
    }

    /// Adds raw code bytes at `base`.
    pub fn add_code(&mut self, base: u64, bytes: &[u8], xlen: Xlen) -> Result<(), ImageError> {
        let end = base + bytes.len() as u64;
        if self
            .regions
            .iter()
            .any(|r| base < r.base + 2 * r.insns.len() as u64 && r.base < end)
        {
            return Err(ImageError::Overlap(base, end));
        }
        self.xlen = Some(xlen);
        let half =
            |i: usize| -> u16 { u16::from_le_bytes([bytes[i], *bytes.get(i + 1).unwrap_or(&0)]) };
        let insns = (0..bytes.len() / 2)
            .map(|h| {
                let i = 2 * h;
                let first = half(i);
                let raw = if instruction_size(first) == 4 {
                    if i + 3 < bytes.len() {
                        u32::from(first) | (u32::from(half(i + 2)) << 16)
                    } else {
                        // A 32-bit parcel cut by the end of the region.
                        return Insn::new(Decoded::illegal(u32::from(first), 4, xlen), 0);
                    }
                } else {
                    u32::from(first)
                };
                let address = base + i as u64;
                Insn::new(decode(raw, xlen), address)
            })
            .collect();
        let mut insns: Vec<Insn> = insns;
        // Straight-line runs, from the end backwards (each half-word as a possible start).
        for h in (0..insns.len()).rev() {
            if insns[h].kind != InsnKind::Other {
                continue;
            }
            let size = insns[h].decoded.size as usize;
            let (len, bytes, last) = match insns.get(h + size / 2) {
                Some(next) if next.run_len > 0 => (
                    next.run_len + 1,
                    next.run_bytes + size as u32,
                    next.run_last + size as u32,
                ),
                _ => (1, size as u32, 0),
            };
            insns[h].run_len = len;
            insns[h].run_bytes = bytes;
            insns[h].run_last = last;
        }
        let hot = insns.iter().map(Hot::new).collect();
        self.regions.push(Region { base, insns, hot });
        self.regions.sort_by_key(|r| r.base);
        Ok(())
    }

    /// XLEN of the programs, if any was added.
    pub fn xlen(&self) -> Option<Xlen> {
        self.xlen
    }

    /// The instruction at `address`, or `None` outside the image / at an odd address.
    #[inline]
    pub fn insn(&self, address: u64) -> Option<&Insn> {
        if address & 1 != 0 {
            return None;
        }
        // Few regions: a linear scan from the most likely one is fastest.
        for r in &self.regions {
            let off = address.wrapping_sub(r.base);
            if off < 2 * r.insns.len() as u64 {
                return r.insns.get((off / 2) as usize);
            }
        }
        None
    }

    /// The region holding `address`: its base address and its [`Hot`] table (one entry
    /// per half-word).
    #[inline]
    pub(crate) fn hot_region(&self, address: u64) -> Option<(u64, &[Hot])> {
        self.regions
            .iter()
            .find(|r| address.wrapping_sub(r.base) < 2 * r.hot.len() as u64)
            .map(|r| (r.base, r.hot.as_slice()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Code over code already loaded is refused with both ranges' start named; code next
    /// to it is not.
    #[test]
    fn overlapping_code_is_refused() {
        let nops = [0x01, 0x00, 0x01, 0x00]; // c.nop, c.nop
        let mut image = ProgramImage::new();
        image.add_code(0x1000, &nops, Xlen::X32).unwrap();
        image.add_code(0x1004, &nops, Xlen::X32).unwrap();
        let err = image.add_code(0x1006, &nops, Xlen::X32).unwrap_err();
        assert!(matches!(err, ImageError::Overlap(0x1006, 0x100a)), "{err}");
        assert!(
            err.to_string().contains("an earlier segment of this ELF"),
            "{err}"
        );
    }
}
