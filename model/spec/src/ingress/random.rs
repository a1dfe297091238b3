//! Seeded random ingress streams that follow the hart's rules (the conventions of
//! [`super`], `ingressPort.adoc` tables `tab:itype` and `tab:single-ingress`), for
//! regressions that must reach corners real programs do not: every record's `iaddr` is
//! where the previous one leads (the sequential address, a branch or jump target, a trap
//! handler, or the return address of an `xRET`); exceptions and interrupts enter a handler
//! at machine or supervisor level and `xRET` returns to the interrupted level; `ecall`
//! retires with its cause; instruction sizes are 2 or 4 bytes.

use super::{IngressRecord, Itype, ItypeWidth, Privilege};
use crate::bitfield::low_bits;
use crate::params::Params;

/// A deterministic generator (xorshift64*); the same seed gives the same stream.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `p` (0.0-1.0).
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }
}

/// Settings of a random stream.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomStreamConfig {
    /// `iaddress_width_p` (32 or 64): addresses stay inside it.
    pub address_width: u32,
    /// Width of the `itype` bus.
    pub itype_width: ItypeWidth,
    /// Probability that a record is a trap (exception or interrupt).
    pub trap_rate: f64,
    /// Probability that a record ends with a discontinuity or branch.
    pub control_rate: f64,
    /// Probability that the context changes on a record.
    pub context_rate: f64,
}

impl RandomStreamConfig {
    /// Defaults for a configuration: about one trap every 60 records, a branch or jump in
    /// about 40% of the records, a context change every 500.
    pub fn new(address_width: u32, itype_width: ItypeWidth) -> RandomStreamConfig {
        RandomStreamConfig {
            address_width,
            itype_width,
            trap_rate: 1.0 / 60.0,
            control_rate: 0.4,
            context_rate: 1.0 / 500.0,
        }
    }

    /// Defaults for an encoder with `params` (`discovery.adoc`): `iaddress_width_p`, the
    /// itype width, and no context changes when the encoder has no context bus
    /// (`context_width_p` 0 or `nocontext_p` 1), as its hart could not report them.
    pub fn for_params(params: &Params) -> RandomStreamConfig {
        let mut config =
            RandomStreamConfig::new(params.iaddress_width_p as u32, params.itype_width());
        if params.context_width_p == 0 || params.nocontext_p == 1 {
            config.context_rate = 0.0;
        }
        config
    }
}

/// A trap taken and not yet returned from.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// Where `xRET` goes.
    epc: u64,
    /// The privilege level to return to.
    privilege: Privilege,
}

/// An endless random stream ([`Iterator`] of records).
#[derive(Debug, Clone)]
pub struct RandomStream {
    config: RandomStreamConfig,
    rng: Rng,
    pc: u64,
    privilege: Privilege,
    context: u64,
    traps: Vec<Frame>,
    mtvec: u64,
    stvec: u64,
}

/// Machine-level exception causes of synchronous faults (`iretire = 0`).
const FAULT_CAUSES: [u64; 9] = [0, 1, 2, 4, 5, 6, 7, 12, 13];
/// Interrupt causes (without the interrupt bit).
const INTERRUPT_CAUSES: [u64; 6] = [1, 3, 5, 7, 9, 11];
/// Deepest nesting of traps.
const MAX_NESTING: usize = 3;

impl RandomStream {
    /// A stream from `seed`, starting in machine mode at a reset address.
    pub fn new(config: RandomStreamConfig, seed: u64) -> RandomStream {
        let mut rng = Rng::new(seed);
        let base = 0x8000_0000u64 + (rng.below(1 << 12) << 4);
        RandomStream {
            config,
            rng,
            pc: base,
            privilege: Privilege::Machine,
            context: 0,
            traps: Vec::new(),
            mtvec: 0x8000_0100,
            stvec: 0x8000_0200,
        }
    }

    fn mask(&self, address: u64) -> u64 {
        low_bits(address, self.config.address_width)
    }

    /// A jump target: near (a few KiB around the pc) or anywhere in a 1 MiB region.
    fn target(&mut self) -> u64 {
        let t = if self.rng.below(2) == 0 {
            let offset = (self.rng.below(1 << 12) as i64 - (1 << 11)) * 2;
            self.pc.wrapping_add(offset as u64)
        } else {
            0x8000_0000 + (self.rng.below(1 << 19) << 1)
        };
        self.mask(t & !1)
    }

    /// Enters a trap handler: machine level, or supervisor when trapping from user level
    /// (delegated) half of the time.
    fn enter_trap(&mut self, epc: u64) {
        self.traps.push(Frame {
            epc,
            privilege: self.privilege,
        });
        let delegated = self.privilege == Privilege::User && self.rng.below(2) == 0;
        if delegated {
            self.privilege = Privilege::Supervisor;
            self.pc = self.stvec;
        } else {
            self.privilege = Privilege::Machine;
            self.pc = self.mtvec;
        }
    }

    fn trap_record(&mut self, size: u8) -> IngressRecord {
        let mut rec = IngressRecord {
            iaddr: self.pc,
            ilastsize: size,
            privilege: self.privilege,
            context: self.context,
            ..IngressRecord::default()
        };
        match self.rng.below(3) {
            0 => {
                // An interrupt before the instruction at pc.
                rec.itype = Itype::Interrupt;
                rec.interrupt = true;
                rec.cause = INTERRUPT_CAUSES[self.rng.below(6) as usize];
                self.enter_trap(self.pc);
            }
            1 => {
                // ecall retires with the cause of its privilege level.
                rec.iretire = 1;
                rec.itype = Itype::Exception;
                rec.cause = match self.privilege {
                    Privilege::User => 8,
                    Privilege::Supervisor => 9,
                    _ => 11,
                };
                let next = self.mask(rec.next_sequential());
                self.enter_trap(next);
            }
            _ => {
                // A fault: the instruction does not retire.
                rec.itype = Itype::Exception;
                let k = self.rng.below(FAULT_CAUSES.len() as u64) as usize;
                rec.cause = FAULT_CAUSES[k];
                let tval = self.rng.next_u64();
                rec.tval = self.mask(tval);
                let resume = self.mask(rec.next_sequential());
                self.enter_trap(resume);
            }
        }
        rec
    }

    fn control_itype(&mut self) -> Itype {
        let w3 = self.config.itype_width == ItypeWidth::W3;
        match self.rng.below(10) {
            0..=3 if self.rng.below(2) == 0 => Itype::NontakenBranch,
            0..=3 => Itype::TakenBranch,
            4 if !self.traps.is_empty() || self.privilege == Privilege::Machine => {
                Itype::TrapReturn
            }
            4 | 5 if w3 => Itype::None,
            4 => Itype::InferableCall,
            5 => Itype::InferableJump,
            _ if w3 => Itype::UninferableJump3,
            6 => Itype::UninferableCall,
            7 => Itype::Return,
            8 => Itype::UninferableJump,
            _ => [
                Itype::CoroutineSwap,
                Itype::OtherUninferableJump,
                Itype::OtherInferableJump,
            ][self.rng.below(3) as usize],
        }
    }
}

impl Iterator for RandomStream {
    type Item = IngressRecord;

    fn next(&mut self) -> Option<IngressRecord> {
        let size = if self.rng.below(3) == 0 { 0 } else { 1 };
        if self.rng.chance(self.config.context_rate) {
            self.context ^= 1;
        }
        if self.traps.len() < MAX_NESTING && self.rng.chance(self.config.trap_rate) {
            return Some(self.trap_record(size));
        }
        let mut rec = IngressRecord {
            iretire: 1,
            iaddr: self.pc,
            ilastsize: size,
            privilege: self.privilege,
            context: self.context,
            ..IngressRecord::default()
        };
        let sequential = self.mask(rec.next_sequential());
        rec.itype = if self.rng.chance(self.config.control_rate) {
            self.control_itype()
        } else {
            Itype::None
        };
        self.pc = match rec.itype {
            Itype::None | Itype::NontakenBranch => sequential,
            Itype::TrapReturn => {
                let frame = self.traps.pop().unwrap_or(Frame {
                    // mret from machine code that was not trapped into: to user code.
                    epc: 0x8010_0000,
                    privilege: Privilege::User,
                });
                self.privilege = frame.privilege;
                frame.epc
            }
            t => {
                rec.sijump = t.is_uninferable_discon() && self.rng.below(4) == 0;
                self.target()
            }
        };
        Some(rec)
    }
}

/// Random records: every 4-bit itype, both instruction sizes, traps with and without
/// retirement, privilege and context changes, returns mostly to the address after their
/// call (a shadow stack of the calls), and loops: a body of sequential instructions and
/// conditional branches ending in a taken branch or an indirect jump back to its start,
/// run many times (repeated HIST and branch messages). For the N-Trace co-simulations,
/// which compare bytes: unlike [`RandomStream`], a trap or jump goes to a random address,
/// not to a handler the hart would take.
pub fn looping_records(seed: u64, n: usize) -> Vec<IngressRecord> {
    let mut rng = Rng::new(seed);
    let privs = [Privilege::User, Privilege::Supervisor, Privilege::Machine];
    let codes: Vec<Itype> = Itype::ALL
        .iter()
        .copied()
        .filter(|t| *t != Itype::None && *t != Itype::UninferableJump3)
        .collect();
    let mut addr = 0x8000_0000u64;
    let (mut privilege, mut context) = (Privilege::Machine, 0);
    let mut links: Vec<u64> = Vec::new();
    let mut records = Vec::with_capacity(n);
    let record = |itype, iaddr, ilastsize, privilege, context, sijump| IngressRecord {
        iretire: 1,
        itype,
        iaddr,
        ilastsize,
        privilege,
        context,
        sijump,
        ..IngressRecord::default()
    };
    while records.len() < n {
        if rng.below(150) == 0 {
            // A loop: its body's kinds, sizes and the jump back are fixed, so every
            // iteration is the same.
            let start = addr;
            let body: Vec<(Itype, u8)> = (0..1 + rng.below(6))
                .map(|_| {
                    let kind = if rng.below(2) == 0 {
                        Itype::None
                    } else if rng.below(2) == 0 {
                        Itype::NontakenBranch
                    } else {
                        Itype::TakenBranch
                    };
                    (kind, rng.below(2) as u8)
                })
                .collect();
            let back = if rng.below(2) == 0 {
                Itype::TakenBranch
            } else {
                Itype::UninferableJump
            };
            let sijump = rng.below(2) == 0;
            for _ in 0..2 + rng.below(40) {
                let mut a = start;
                for &(kind, size) in &body {
                    // A taken branch of the body skips nothing: its target is the next
                    // instruction.
                    records.push(record(kind, a, size, privilege, context, false));
                    a += 2 << size;
                }
                records.push(record(back, a, 1, privilege, context, sijump));
            }
            continue;
        }
        let itype = if rng.below(100) < 50 {
            Itype::None
        } else {
            codes[rng.below(codes.len() as u64) as usize]
        };
        if rng.below(40) == 0 {
            privilege = privs[rng.below(3) as usize];
        }
        if rng.below(60) == 0 {
            context ^= 1;
        }
        let iretire = u8::from(!(itype.is_trap() && rng.below(2) == 0));
        let ilastsize = rng.below(2) as u8;
        // Every other record says its jump is sequentially inferable (read with the
        // `sijump` option, only for uninferable jumps).
        let sijump = rng.below(2) == 0;
        records.push(IngressRecord {
            iretire,
            interrupt: itype == Itype::Interrupt,
            ..record(itype, addr, ilastsize, privilege, context, sijump)
        });
        let link = addr + (2 << ilastsize);
        let jump = (rng.next_u64() & 0xffff_fffe) | 0x8000_0000;
        addr = match itype {
            Itype::None | Itype::NontakenBranch => link,
            Itype::UninferableCall | Itype::InferableCall => {
                links.push(link);
                jump
            }
            Itype::Return | Itype::CoroutineSwap if rng.below(4) != 0 => {
                let back = links.pop().unwrap_or(jump);
                if itype == Itype::CoroutineSwap {
                    links.push(link);
                }
                back
            }
            _ => jump,
        };
    }
    records.truncate(n);
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tab:single-ingress`: each record's address is where the previous one leads.
    #[test]
    fn tab_single_ingress_streams_follow_the_hart_rules() {
        for width in [ItypeWidth::W3, ItypeWidth::W4] {
            let config = RandomStreamConfig::new(32, width);
            let records: Vec<_> = RandomStream::new(config, 5).take(20_000).collect();
            let mut seen = std::collections::BTreeSet::new();
            for pair in records.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                assert!(a.itype.fits_width(width), "{a:?}");
                assert!(a.iaddr >> 32 == 0 && a.iaddr & 1 == 0, "{a:?}");
                seen.insert(a.itype.code());
                match a.itype {
                    Itype::None | Itype::NontakenBranch if a.iretire == 1 => {
                        assert_eq!(b.iaddr, a.next_sequential() & 0xffff_ffff, "{a:?} {b:?}")
                    }
                    Itype::Exception | Itype::Interrupt => {
                        assert!(
                            b.iaddr == 0x8000_0100 || b.iaddr == 0x8000_0200,
                            "handler: {b:?}"
                        );
                        let ecall = a.itype == Itype::Exception && [8, 9, 11].contains(&a.cause);
                        assert_eq!(a.iretire == 1, ecall, "{a:?}");
                    }
                    _ => {}
                }
            }
            let want = if width == ItypeWidth::W3 { 7 } else { 14 };
            assert_eq!(seen.len(), want, "every itype appears: {seen:?}");
        }
    }

    #[test]
    fn same_seed_same_stream() {
        let config = RandomStreamConfig::new(64, ItypeWidth::W4);
        let a: Vec<_> = RandomStream::new(config, 9).take(1000).collect();
        let b: Vec<_> = RandomStream::new(config, 9).take(1000).collect();
        let c: Vec<_> = RandomStream::new(config, 10).take(1000).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    /// `looping_records`: as many records as asked, the same for the same seed, every
    /// 4-bit itype but 3, sequential records where they lead, and loops that run the
    /// same addresses again.
    #[test]
    fn looping_records_have_every_itype_and_repeated_loops() {
        let a = looping_records(7, 20_000);
        assert_eq!(a.len(), 20_000);
        assert_eq!(a, looping_records(7, 20_000));
        assert_ne!(a, looping_records(8, 20_000));
        let itypes: std::collections::BTreeSet<u8> = a.iter().map(|r| r.itype.code()).collect();
        assert_eq!(itypes.len(), 14, "{itypes:?}");
        assert!(!itypes.contains(&Itype::UninferableJump3.code()));
        for pair in a.windows(2) {
            let (r, next) = (&pair[0], &pair[1]);
            if r.itype == Itype::NontakenBranch {
                assert_eq!(next.iaddr, r.iaddr + (2 << r.ilastsize), "{r:?} {next:?}");
            }
        }
        // A loop's jump back: a taken branch or jump to an address seen just before.
        let backs = a
            .windows(2)
            .filter(|p| p[1].iaddr < p[0].iaddr && p[0].iaddr - p[1].iaddr < 64)
            .count();
        assert!(backs > 500, "{backs} jumps back");
    }
}
