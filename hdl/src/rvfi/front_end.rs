//! `RvfiFrontEnd`: one RVFI retirement per cycle in, one block of the single-retirement
//! ingress port out (`ingressPort.adoc`, tables `tab:common-ingress`,
//! `tab:single-ingress` and `tab:itype`, section "Jump classification and target
//! inference"), for RV32 cores with the C extension and the 4-bit `itype` of the
//! `rv32` configuration.
//!
//! The block follows the conventions of the model's ingress records
//! (`etrace_spec::ingress`) and the classification of its ISA tables
//! (`etrace_spec::isa::Decoded::itype`, `jump_class`, `is_sequential_jump`), which a test
//! compares it with over many instructions:
//!
//! * a retirement without trap: `iretire = 1`, `iaddr = rvfi_pc_rdata`, `ilastsize` from
//!   the instruction's two low bits, `priv = rvfi_mode`, and `itype` from the instruction:
//!   4 / 5 for a not taken / taken branch (the branch condition evaluated on
//!   `rvfi_rs1_rdata` / `rvfi_rs2_rdata`, so that a taken branch to the next instruction is
//!   still 5, as the hart reports it), 3 for `uret` / `sret` / `mret` / `dret`, 8-15 for
//!   jumps by jump class (link registers x1 and x5) and inferability (`jalr` with
//!   `rs1 = x0` is inferable), 0 otherwise; `sijump` when the jump is an uninferable
//!   non-return jump whose `rs1` is the `rd` of the immediately preceding `lui` / `auipc`
//!   / `c.lui` (one register holds that `rd`, cleared by a trap);
//! * a retirement with `rvfi_trap`: `itype = 1`; `ecall` / `ebreak` / `c.ebreak` retire
//!   (`iretire = 1`) with `cause` 8 + `priv` (environment call) or 3 (breakpoint, `tval`
//!   = the pc); a trapping load / store (RV32I and RV32C integer loads and stores) whose
//!   address (`rvfi_rs1_rdata` + the offset) is misaligned for its size does not retire
//!   and is a misaligned access: `cause` 4 (load) / 6 (store), `tval` = that address
//!   (the only trap of a load or store on cores without PMP and bus errors: PicoRV32
//!   with `CATCH_MISALIGN`, SERV); any other trapping instruction does not retire
//!   (`iretire = 0`) and is, by the core's profile ([`FrontEndOptions::core_traps`]),
//!   an illegal instruction (`itype` 1, `cause` 2, `tval` = the instruction bits) or the
//!   machine timer interrupt (`itype` 2, `cause` 7, `tval` 0) taken in place of that
//!   instruction.
//!
//! What a core does not provide, the trace cannot show: RVFI has no `mcause` and PicoRV32
//! has no standard trap CSRs, so a bus error on such a core is traced as an illegal
//! instruction (cause 2) at the faulting instruction; PicoRV32's interrupts
//! (`rvfi_intr` marks the first instruction of a handler, after the interrupted one has
//! gone) are not traced as `itype` 2: the handler's first instruction appears as an
//! uninferable discontinuity the decoder cannot follow, so PicoRV32 is traced with its
//! non-standard interrupts disabled (`ENABLE_IRQ = 0`). SERV reports its timer interrupt
//! as a trap of the instruction it replaces (it has no illegal-instruction exception and
//! does not drive `rvfi_intr`): [`CoreTraps::TimerInterrupt`]. An interrupt that
//! replaces an `ecall` / `ebreak` looks like that instruction's exception on RVFI and is
//! traced as one.
//!
//! The outputs are combinational from the RVFI signals (which a core drives from
//! flip-flops); the encoder's input stage registers them (`hdl/DESIGN.md`, item 0).
//!
//! A generation parameter ([`FrontEndOptions::swap_branch_itypes`], test only) swaps the
//! codes 4 and 5: the deliberately wrong front end the lock-step co-simulation must catch.

use rust_hdl::prelude::*;

use super::port::Rvfi;
use crate::ingress::inputs::IngressSource;
use crate::param::LocalParam;

/// `iaddress_width_p` of the front end (XLEN = 32).
const A: usize = 32;
/// `ecause_width_p` of the `rv32` configuration.
const E: usize = 5;
/// `itype_width_p` (4: jumps fully classified).
const IT: usize = 4;

/// What a trap that is no environment call, breakpoint or misaligned access is on a core
/// (module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CoreTraps {
    /// An illegal instruction (PicoRV32).
    #[default]
    IllegalInstruction,
    /// The machine timer interrupt, taken in place of the instruction (SERV).
    TimerInterrupt,
}

/// Build-time options of the front end (the `SWAP` and `TIMER` generics of
/// [`RvfiFrontEnd`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrontEndOptions {
    /// Test only: report taken branches as not taken and the reverse (`itype` 4 and 5
    /// swapped), the known fault the lock-step co-simulation must catch.
    pub swap_branch_itypes: bool,
    /// The core's other traps.
    pub core_traps: CoreTraps,
}

/// RVFI in, ingress block out (module documentation); `SWAP` = 1 (test only) swaps the
/// branch codes 4 and 5 ([`FrontEndOptions::swap_branch_itypes`]); `TIMER` = 1: other
/// traps are the timer interrupt ([`CoreTraps::TimerInterrupt`]).
#[derive(LogicBlock, Default)]
pub struct RvfiFrontEnd<const SWAP: u64, const TIMER: u64> {
    /// Clock (the `rd` of the last `lui` / `auipc`, for `sijump`).
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (clears that register).
    pub reset: Signal<In, Bit>,
    /// The core's retirement channel.
    pub rvfi: Rvfi,
    /// The ingress block (`iretire = itype = 0`: no block), with `ilastsize`: the retired
    /// instruction is 2^`ilastsize` half-words.
    pub block: IngressSource<A, E, IT>,
    swap: LocalParam<1, SWAP>,
    timer: LocalParam<1, TIMER>,
    lui_rd: DFF<Bits<5>>,
    // The instruction's fields.
    wide: Signal<Local, Bit>,
    opcode: Signal<Local, Bits<7>>,
    funct3: Signal<Local, Bits<3>>,
    rd: Signal<Local, Bits<5>>,
    rs1: Signal<Local, Bits<5>>,
    c_quadrant: Signal<Local, Bits<2>>,
    c_funct3: Signal<Local, Bits<3>>,
    c_rd: Signal<Local, Bits<5>>,
    c_rs2: Signal<Local, Bits<5>>,
    c_bit12: Signal<Local, Bit>,
    // Its class.
    branch: Signal<Local, Bit>,
    c_branch: Signal<Local, Bit>,
    xret: Signal<Local, Bit>,
    jump: Signal<Local, Bit>,
    /// A `jal` (also `c.j` / `c.jal`): the jump class ignores `rs1`.
    jal: Signal<Local, Bit>,
    j_rd: Signal<Local, Bits<5>>,
    j_rs: Signal<Local, Bits<5>>,
    inferable: Signal<Local, Bit>,
    rd_link: Signal<Local, Bit>,
    rs_link: Signal<Local, Bit>,
    lui: Signal<Local, Bit>,
    ecall: Signal<Local, Bit>,
    ebreak: Signal<Local, Bit>,
    // Loads and stores, and the offset of their address.
    load: Signal<Local, Bit>,
    store: Signal<Local, Bit>,
    offset: Signal<Local, Bits<32>>,
    address: Signal<Local, Bits<32>>,
    misaligned: Signal<Local, Bit>,
    /// The bits a negative 12-bit immediate sets when sign-extended.
    imm_sign: LocalParam<32, 0xffff_f000>,
    // The branch condition.
    equal: Signal<Local, Bit>,
    less_unsigned: Signal<Local, Bit>,
    less_signed: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
    jump_itype: Signal<Local, Bits<4>>,
    code: Signal<Local, Bits<4>>,
}

impl<const SWAP: u64, const TIMER: u64> Logic for RvfiFrontEnd<SWAP, TIMER> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lui_rd);
        // Fields of a 32-bit instruction and of a compressed one (RV32C).
        self.wide.next = self.rvfi.insn.val().get_bits::<2>(0) == 3;
        self.opcode.next = self.rvfi.insn.val().get_bits::<7>(0);
        self.funct3.next = self.rvfi.insn.val().get_bits::<3>(12);
        self.rd.next = self.rvfi.insn.val().get_bits::<5>(7);
        self.rs1.next = self.rvfi.insn.val().get_bits::<5>(15);
        self.c_quadrant.next = self.rvfi.insn.val().get_bits::<2>(0);
        self.c_funct3.next = self.rvfi.insn.val().get_bits::<3>(13);
        self.c_rd.next = self.rvfi.insn.val().get_bits::<5>(7);
        self.c_rs2.next = self.rvfi.insn.val().get_bits::<5>(2);
        self.c_bit12.next = self.rvfi.insn.val().get_bit(12);
        // `decoder.adoc` `is_branch`: BEQ BNE BLT BGE BLTU BGEU (funct3 2, 3 are illegal),
        // C.BEQZ, C.BNEZ.
        self.c_branch.next = !self.wide.val()
            && (self.c_quadrant.val() == 1)
            && ((self.c_funct3.val() == 6) || (self.c_funct3.val() == 7));
        self.branch.next = (self.wide.val()
            && (self.opcode.val() == 0x63)
            && (self.funct3.val() != 2)
            && (self.funct3.val() != 3))
            || self.c_branch.val();
        // `is_return_from_trap`: URET, SRET, MRET, DRET.
        self.xret.next = (self.rvfi.insn.val() == 0x0020_0073)
            || (self.rvfi.insn.val() == 0x1020_0073)
            || (self.rvfi.insn.val() == 0x3020_0073)
            || (self.rvfi.insn.val() == 0x7b20_0073);
        self.ecall.next = self.rvfi.insn.val() == 0x0000_0073;
        self.ebreak.next = (self.rvfi.insn.val() == 0x0010_0073)
            || (!self.wide.val() && (self.rvfi.insn.val().get_bits::<16>(0) == 0x9002));
        // Integer loads (LB LH LW LBU LHU, C.LW, C.LWSP with rd != 0) and stores (SB SH SW,
        // C.SW, C.SWSP), and their offsets: I / S immediates sign-extended, the scaled
        // unsigned offsets of the compressed forms.
        self.load.next = (self.wide.val()
            && (self.opcode.val() == 0x03)
            && (self.funct3.val() != 3)
            && (self.funct3.val() < 6))
            || (!self.wide.val()
                && (self.c_funct3.val() == 2)
                && ((self.c_quadrant.val() == 0)
                    || ((self.c_quadrant.val() == 2) && self.c_rd.val().any())));
        self.store.next =
            (self.wide.val() && (self.opcode.val() == 0x23) && (self.funct3.val() < 3))
                || (!self.wide.val()
                    && (self.c_funct3.val() == 6)
                    && ((self.c_quadrant.val() == 0) || (self.c_quadrant.val() == 2)));
        if self.wide.val() {
            if self.opcode.val() == 0x23 {
                self.offset.next =
                    ((self.rvfi.insn.val() >> 20) & 0xfe0) | ((self.rvfi.insn.val() >> 7) & 0x1f);
            } else {
                self.offset.next = self.rvfi.insn.val() >> 20;
            }
            if self.rvfi.insn.val().get_bit(31) {
                self.offset.next = self.offset.val() | self.imm_sign.val();
            }
        } else if self.c_quadrant.val() == 0 {
            // C.LW / C.SW: uimm[5:3] = insn[12:10], uimm[2] = insn[6], uimm[6] = insn[5].
            self.offset.next = ((self.rvfi.insn.val() >> 7) & 0x38)
                | ((self.rvfi.insn.val() >> 4) & 0x04)
                | ((self.rvfi.insn.val() << 1) & 0x40);
        } else if self.c_funct3.val() == 2 {
            // C.LWSP: uimm[5] = insn[12], uimm[4:2] = insn[6:4], uimm[7:6] = insn[3:2].
            self.offset.next = ((self.rvfi.insn.val() >> 7) & 0x20)
                | ((self.rvfi.insn.val() >> 2) & 0x1c)
                | ((self.rvfi.insn.val() << 4) & 0xc0);
        } else {
            // C.SWSP: uimm[5:2] = insn[12:9], uimm[7:6] = insn[8:7].
            self.offset.next =
                ((self.rvfi.insn.val() >> 7) & 0x3c) | ((self.rvfi.insn.val() >> 1) & 0xc0);
        }
        // The address, misaligned for the access size: a word (LW, SW and the compressed
        // forms) or a half-word (LH, LHU, SH; funct3 bit 1 clear, bit 0 set).
        self.address.next = self.rvfi.rs1_rdata.val() + self.offset.val();
        if !self.wide.val() || (self.funct3.val().get_bits::<2>(0) == 2) {
            self.misaligned.next = self.address.val().get_bits::<2>(0).any();
        } else {
            self.misaligned.next = self.funct3.val().get_bit(0) && self.address.val().get_bit(0);
        }
        // `lui`, `auipc`, `c.lui` (rd != x2, nonzero immediate): the `rd` of `sijump`.
        self.lui.next = (self.wide.val()
            && ((self.opcode.val() == 0x37) || (self.opcode.val() == 0x17)))
            || (!self.wide.val()
                && (self.c_quadrant.val() == 1)
                && (self.c_funct3.val() == 3)
                && (self.c_rd.val() != 2)
                && (self.c_bit12.val() || self.c_rs2.val().any()));
        // Jumps: `jal` / `jalr` (funct3 0) and C.J, C.JAL (RV32), C.JR, C.JALR (rs1 != 0,
        // rs2 = 0), with their link and source registers.
        self.jump.next = false;
        self.jal.next = false;
        self.j_rd.next = self.rd.val();
        self.j_rs.next = self.rs1.val();
        self.inferable.next = false;
        if self.wide.val() {
            if self.opcode.val() == 0x6f {
                self.jump.next = true;
                self.jal.next = true;
                self.inferable.next = true;
            }
            if (self.opcode.val() == 0x67) && (self.funct3.val() == 0) {
                self.jump.next = true;
                self.inferable.next = !self.rs1.val().any();
            }
        } else {
            if (self.c_quadrant.val() == 1)
                && ((self.c_funct3.val() == 5) || (self.c_funct3.val() == 1))
            {
                self.jump.next = true;
                self.jal.next = true;
                self.inferable.next = true;
                // C.J: jal x0; C.JAL: jal x1.
                if self.c_funct3.val() == 5 {
                    self.j_rd.next = 0.into();
                } else {
                    self.j_rd.next = 1.into();
                }
            }
            if (self.c_quadrant.val() == 2)
                && (self.c_funct3.val() == 4)
                && self.c_rd.val().any()
                && !self.c_rs2.val().any()
            {
                self.jump.next = true;
                self.j_rs.next = self.c_rd.val();
                // C.JR: jalr x0, 0(rs1); C.JALR: jalr x1, 0(rs1).
                if self.c_bit12.val() {
                    self.j_rd.next = 1.into();
                } else {
                    self.j_rd.next = 0.into();
                }
            }
        }
        self.rd_link.next = (self.j_rd.val() == 1) || (self.j_rd.val() == 5);
        self.rs_link.next = (self.j_rs.val() == 1) || (self.j_rs.val() == 5);
        // `JumpClasses` with 4-bit codes: call 9 / 8, jump without linkage 11 / 10,
        // co-routine swap 12, return 13, other jump with linkage 15 / 14 (inferable /
        // uninferable).
        if self.jal.val() {
            if !self.j_rd.val().any() {
                self.jump_itype.next = 10.into();
            } else if self.rd_link.val() {
                self.jump_itype.next = 8.into();
            } else {
                self.jump_itype.next = 14.into();
            }
        } else if self.rd_link.val() {
            if self.rs_link.val() && (self.j_rs.val() != self.j_rd.val()) {
                self.jump_itype.next = 12.into();
            } else {
                self.jump_itype.next = 8.into();
            }
        } else if self.rs_link.val() {
            self.jump_itype.next = 13.into();
        } else if !self.j_rd.val().any() {
            self.jump_itype.next = 10.into();
        } else {
            self.jump_itype.next = 14.into();
        }
        // The branch condition on the operands the instruction read (C.BEQZ / C.BNEZ
        // compare rs1' with zero).
        if self.c_branch.val() {
            self.equal.next = !self.rvfi.rs1_rdata.val().any();
        } else {
            self.equal.next = self.rvfi.rs1_rdata.val() == self.rvfi.rs2_rdata.val();
        }
        self.less_unsigned.next = self.rvfi.rs1_rdata.val() < self.rvfi.rs2_rdata.val();
        if self.rvfi.rs1_rdata.val().get_bit(31) == self.rvfi.rs2_rdata.val().get_bit(31) {
            self.less_signed.next = self.less_unsigned.val();
        } else {
            self.less_signed.next = self.rvfi.rs1_rdata.val().get_bit(31);
        }
        if self.c_branch.val() {
            self.taken.next = self.equal.val() ^ self.c_funct3.val().get_bit(0);
        } else if self.funct3.val().get_bit(2) {
            if self.funct3.val().get_bit(1) {
                self.taken.next = self.less_unsigned.val() ^ self.funct3.val().get_bit(0);
            } else {
                self.taken.next = self.less_signed.val() ^ self.funct3.val().get_bit(0);
            }
        } else {
            self.taken.next = self.equal.val() ^ self.funct3.val().get_bit(0);
        }
        // `tab:itype`.
        self.code.next = 0.into();
        if self.branch.val() {
            if self.taken.val() ^ self.swap.val().any() {
                self.code.next = 5.into();
            } else {
                self.code.next = 4.into();
            }
        } else if self.xret.val() {
            self.code.next = 3.into();
        } else if self.jump.val() {
            // The inferable code is the uninferable one + 1.
            if self.inferable.val() {
                self.code.next = self.jump_itype.val() + 1;
            } else {
                self.code.next = self.jump_itype.val();
            }
        }
        // The block.
        self.block.iretire.next = self.rvfi.valid.val();
        self.block.itype.next = self.code.val();
        self.block.iaddr.next = self.rvfi.pc_rdata.val();
        self.block.privilege.next = self.rvfi.mode.val();
        self.block.cause.next = 0.into();
        self.block.tval.next = 0.into();
        self.block.hart_context.next = 0.into();
        self.block.ctype.next = 0.into();
        // `is_sequential_jump`: an uninferable jump but a return (rd not a link, rs one).
        self.block.sijump.next = self.jump.val()
            && !self.inferable.val()
            && (self.rd_link.val() || !self.rs_link.val())
            && (self.j_rs.val() == self.lui_rd.q.val());
        self.block.ilastsize.next = self.wide.val();
        if self.lui.val() {
            self.lui_rd.d.next = self.rd.val();
        } else {
            self.lui_rd.d.next = 0.into();
        }
        if self.rvfi.trap.val() {
            self.block.itype.next = 1.into();
            self.block.sijump.next = false;
            self.lui_rd.d.next = 0.into();
            if self.ecall.val() {
                // Environment call from U / S / M: 8 + `priv`.
                self.block.cause.next = 8.into();
                if self.rvfi.mode.val() == 1 {
                    self.block.cause.next = 9.into();
                }
                if self.rvfi.mode.val() == 3 {
                    self.block.cause.next = 11.into();
                }
            } else if self.ebreak.val() {
                self.block.cause.next = 3.into();
                self.block.tval.next = self.rvfi.pc_rdata.val();
            } else if (self.load.val() || self.store.val()) && self.misaligned.val() {
                // Misaligned load / store address.
                self.block.iretire.next = false;
                if self.store.val() {
                    self.block.cause.next = 6.into();
                } else {
                    self.block.cause.next = 4.into();
                }
                self.block.tval.next = self.address.val();
            } else if self.timer.val().any() {
                // The machine timer interrupt in place of the instruction.
                self.block.iretire.next = false;
                self.block.itype.next = 2.into();
                self.block.cause.next = 7.into();
            } else {
                self.block.iretire.next = false;
                self.block.cause.next = 2.into();
                self.block.tval.next = self.rvfi.insn.val();
            }
        }
        if !self.rvfi.valid.val() {
            self.block.iretire.next = false;
            self.block.itype.next = 0.into();
            self.lui_rd.d.next = self.lui_rd.q.val();
        }
        if self.reset.val() {
            self.lui_rd.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn front_end_verilog() {
        for v in [verilog::<0, 0>(), verilog::<1, 0>(), verilog::<0, 1>()] {
            yosys_check("rvfi_front_end", &v).unwrap();
            lint("rvfi_front_end", &v).unwrap();
        }
    }

    fn verilog<const SWAP: u64, const TIMER: u64>() -> String {
        let mut uut = RvfiFrontEnd::<SWAP, TIMER>::default();
        uut.connect_all();
        generate(&uut)
    }
}
