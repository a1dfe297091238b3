//! A seeded random program and a random execution of it, for long regressions that need
//! a program image (the N-Trace decoder follows the code): straight-line instructions of
//! both sizes, conditional branches, direct and indirect jumps and calls of every jump
//! class, returns (mostly to their call site), co-routine swaps, `lui` / `auipc` + `jalr`
//! pairs (sequentially inferable jumps), `mret`, `ecall`, and interrupts and faults at
//! random places; each record follows the ingress conventions of `etrace_spec::ingress`
//! and takes its itype from the classification the hart model uses.

use etrace_decoder::ProgramImage;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::isa::{decode, Decoded, Op, Xlen};

/// Where the program is loaded.
pub const BASE: u64 = 0x1000_0000;

const X1: u32 = 1;
const X3: u32 = 3;
const X5: u32 = 5;
const X6: u32 = 6;
const X7: u32 = 7;

fn i_type(opcode: u32, rd: u32, rs1: u32, imm: i64) -> u32 {
    ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | opcode
}

fn jalr(rd: u32, rs1: u32, imm: i64) -> u32 {
    i_type(0x67, rd, rs1, imm)
}

fn jal(rd: u32, offset: i64) -> u32 {
    let i = offset as u32;
    (((i >> 20) & 1) << 31)
        | (((i >> 1) & 0x3ff) << 21)
        | (((i >> 11) & 1) << 20)
        | (((i >> 12) & 0xff) << 12)
        | (rd << 7)
        | 0x6f
}

fn beq(offset: i64) -> u32 {
    let i = offset as u32;
    (((i >> 12) & 1) << 31)
        | (((i >> 5) & 0x3f) << 25)
        | (X6 << 20)
        | (X5 << 15)
        | (((i >> 1) & 0xf) << 8)
        | (((i >> 11) & 1) << 7)
        | 0x63
}

/// The `%hi` / `%lo` split of a value.
fn hi_lo(value: i64) -> (u32, i64) {
    let hi = (value + 0x800) >> 12;
    (hi as u32 & 0xfffff, value - (hi << 12))
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    Plain32,
    Plain16,
    Branch,
    Jal(u32),
    Jalr(u32, u32),
    Ret16,
    /// `lui` (false) or `auipc` (true) into x7, then `jalr rd, lo(x7)`.
    Pair(bool, u32),
    Mret,
    Ecall,
}

impl Slot {
    fn size(self) -> u64 {
        match self {
            Slot::Plain16 | Slot::Ret16 => 2,
            Slot::Pair(..) => 8,
            _ => 4,
        }
    }
}

/// A random program: its code and the addresses an indirect jump may land on.
pub struct RandomProgram {
    code: Vec<u8>,
    /// Instruction addresses other than the second instruction of a pair (the slots'
    /// first instructions).
    targets: Vec<u64>,
    /// The decoded instruction at each half-word (by offset / 2).
    insns: Vec<Option<Decoded>>,
    /// Second instructions of pairs (never interrupted, never a target).
    pair_jumps: std::collections::HashSet<u64>,
}

impl RandomProgram {
    /// A program of `slots` instruction slots from `seed`.
    pub fn new(seed: u64, slots: usize) -> RandomProgram {
        let mut rng = Rng::new(seed);
        let weights: [(Slot, u64); 16] = [
            (Slot::Plain32, 30),
            (Slot::Plain16, 20),
            (Slot::Branch, 16),
            (Slot::Jal(X1), 4),
            (Slot::Jal(0), 3),
            (Slot::Jal(X3), 1),
            (Slot::Jalr(X1, X6), 2),
            (Slot::Jalr(0, X6), 2),
            (Slot::Jalr(X3, X6), 1),
            (Slot::Jalr(0, X1), 3),
            (Slot::Ret16, 3),
            (Slot::Jalr(X5, X1), 1),
            (Slot::Pair(false, 0), 2),
            (Slot::Pair(true, X1), 2),
            (Slot::Mret, 1),
            (Slot::Ecall, 1),
        ];
        let total: u64 = weights.iter().map(|w| w.1).sum();
        let mut layout = Vec::with_capacity(slots);
        let mut at = BASE;
        for n in 0..slots {
            if n + 1 == slots {
                // The last instruction jumps back: execution never runs off the end.
                layout.push((at, Slot::Jal(0)));
                at += 4;
                break;
            }
            let mut pick = rng.below(total);
            let slot = weights
                .iter()
                .find(|(_, w)| {
                    let hit = pick < *w;
                    pick = pick.saturating_sub(*w);
                    hit
                })
                .map(|w| w.0)
                .unwrap();
            layout.push((at, slot));
            at += slot.size();
        }
        let targets: Vec<u64> = layout.iter().map(|&(a, _)| a).collect();
        let pair_jumps = layout
            .iter()
            .filter(|(_, s)| matches!(s, Slot::Pair(..)))
            .map(|&(a, _)| a + 4)
            .collect();
        let mut code = Vec::with_capacity((at - BASE) as usize);
        // A target near slot `i` (branches reach +-4 KiB, jumps further).
        let near = |rng: &mut Rng, i: usize, reach: usize| {
            let lo = i.saturating_sub(reach);
            let hi = (i + reach).min(targets.len() - 1);
            targets[lo + rng.below((hi - lo + 1) as u64) as usize] as i64 - targets[i] as i64
        };
        for (i, &(addr, slot)) in layout.iter().enumerate() {
            let words: Vec<u32> = match slot {
                Slot::Plain32 => vec![i_type(0x13, X5, X5, 1)],
                Slot::Plain16 => vec![0x0001],
                Slot::Ret16 => vec![0x8082],
                Slot::Branch => vec![beq(near(&mut rng, i, 1000))],
                Slot::Jal(rd) => vec![jal(rd, near(&mut rng, i, 50_000))],
                Slot::Jalr(rd, rs1) => vec![jalr(rd, rs1, 0)],
                Slot::Pair(auipc, rd) => {
                    let target = targets[rng.below(targets.len() as u64) as usize] as i64;
                    let value = if auipc { target - addr as i64 } else { target };
                    let (hi, lo) = hi_lo(value);
                    let opcode = if auipc { 0x17 } else { 0x37 };
                    vec![(hi << 12) | (X7 << 7) | opcode, jalr(rd, X7, lo)]
                }
                Slot::Mret => vec![0x3020_0073],
                Slot::Ecall => vec![0x0000_0073],
            };
            for w in words {
                if slot.size() == 2 {
                    code.extend_from_slice(&(w as u16).to_le_bytes());
                } else {
                    code.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        let mut insns = vec![None; code.len() / 2];
        for &(addr, slot) in &layout {
            let off = (addr - BASE) as usize;
            let mut place = |o: usize, size: u64| {
                let raw = if size == 2 {
                    u32::from(u16::from_le_bytes([code[o], code[o + 1]]))
                } else {
                    u32::from_le_bytes([code[o], code[o + 1], code[o + 2], code[o + 3]])
                };
                insns[o / 2] = Some(decode(raw, Xlen::X32));
            };
            if let Slot::Pair(..) = slot {
                place(off, 4);
                place(off + 4, 4);
            } else {
                place(off, slot.size());
            }
        }
        RandomProgram {
            code,
            targets,
            insns,
            pair_jumps,
        }
    }

    /// The decoder's image of the program.
    pub fn image(&self) -> ProgramImage {
        let mut image = ProgramImage::new();
        image.add_code(BASE, &self.code, Xlen::X32).unwrap();
        image
    }

    /// A random execution of the program from its first instruction, `seed` for its
    /// choices.
    pub fn run(&self, seed: u64) -> Execution<'_> {
        Execution {
            program: self,
            rng: Rng::new(seed),
            pc: BASE,
            privilege: Privilege::Machine,
            calls: Vec::new(),
            frames: Vec::new(),
            last: None,
        }
    }

    fn insn(&self, pc: u64) -> Decoded {
        self.insns[((pc - BASE) / 2) as usize].expect("execution stays on instruction starts")
    }

    fn random_target(&self, rng: &mut Rng) -> u64 {
        self.targets[rng.below(self.targets.len() as u64) as usize]
    }
}

/// An endless random execution ([`Iterator`] of ingress records).
pub struct Execution<'a> {
    program: &'a RandomProgram,
    rng: Rng,
    pc: u64,
    privilege: Privilege,
    /// Return addresses of the calls not yet returned from (what the software expects).
    calls: Vec<u64>,
    /// Traps taken and not yet returned from: (epc, privilege).
    frames: Vec<(u64, Privilege)>,
    /// The last retired instruction: (address, decoded).
    last: Option<(u64, Decoded)>,
}

impl Execution<'_> {
    fn trap(&mut self, epc: u64) {
        self.frames.push((epc, self.privilege));
        self.privilege = Privilege::Machine;
        self.pc = if self.rng.below(2) == 0 {
            BASE
        } else {
            self.program.targets[self.program.targets.len() / 2]
        };
        self.last = None;
    }

    fn pop_return(&mut self) -> u64 {
        match self.calls.pop() {
            Some(a) if self.rng.below(20) != 0 => a,
            _ => self.program.random_target(&mut self.rng),
        }
    }
}

impl Iterator for Execution<'_> {
    type Item = IngressRecord;

    fn next(&mut self) -> Option<IngressRecord> {
        let pc = self.pc;
        let d = self.program.insn(pc);
        let mut rec = IngressRecord {
            iaddr: pc,
            ilastsize: u8::from(d.size == 4),
            privilege: self.privilege,
            ..IngressRecord::default()
        };
        if self.frames.len() < 3
            && !self.program.pair_jumps.contains(&pc)
            && self.rng.below(80) == 0
        {
            let interrupt = self.rng.below(2) == 0;
            rec.itype = if interrupt {
                Itype::Interrupt
            } else {
                Itype::Exception
            };
            rec.interrupt = interrupt;
            rec.cause = if interrupt { 7 } else { 2 };
            self.trap(pc);
            return Some(rec);
        }
        rec.iretire = 1;
        let seq = pc + u64::from(d.size);
        let mut taken = false;
        let link = d.rd == 1 || d.rd == 5;
        self.pc = match d.op {
            Op::Beq => {
                taken = self.rng.below(2) == 0;
                if taken {
                    d.branch_target(pc).unwrap()
                } else {
                    seq
                }
            }
            Op::Jal => {
                if link {
                    self.calls.push(seq);
                }
                d.inferable_jump_target(pc).unwrap()
            }
            Op::Jalr => {
                let prev = self.last.filter(|(a, _)| *a + 4 == pc).map(|(_, p)| p);
                let target = match prev {
                    Some(p) if d.is_sequential_jump(&p) => {
                        rec.sijump = true;
                        d.sequential_jump_target(&p, pc - 4, Xlen::X32)
                    }
                    _ if d.rs1 == 1 => self.pop_return(),
                    _ => self.program.random_target(&mut self.rng),
                };
                if link {
                    self.calls.push(seq);
                }
                target
            }
            Op::Mret => match self.frames.pop() {
                Some((epc, p)) => {
                    self.privilege = p;
                    epc
                }
                None => {
                    self.privilege = Privilege::User;
                    self.program.random_target(&mut self.rng)
                }
            },
            Op::Ecall => {
                rec.itype = Itype::Exception;
                rec.cause = if self.privilege == Privilege::User {
                    8
                } else {
                    11
                };
                self.trap(seq);
                return Some(rec);
            }
            _ => seq,
        };
        rec.itype = d.itype(taken, ItypeWidth::W4);
        self.last = Some((pc, d));
        Some(rec)
    }
}
