//! The RVFI front end (`etrace_hdl::rvfi::RvfiFrontEnd`) against the model's instruction
//! classification (`etrace_spec::isa`: `Decoded::itype`, `is_sequential_jump`) and the
//! hart's trap conventions (`etrace_spec::ingress`): a stream of retirements (every
//! compressed encoding, every `jal` / `jalr` link-register combination, branches on edge
//! operands, `lui` / `auipc` + `jalr` pairs, random words, traps (misaligned loads and
//! stores among them) and idle cycles) is
//! simulated and each cycle's ingress block compared with the model's record.

use etrace_hart::cause;
use etrace_hdl::rvfi::RvfiFrontEnd;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::isa::{decode, instruction_size, Decoded, Op, Xlen};
use rust_hdl::prelude::*;

/// One cycle of the RVFI channel.
#[derive(Debug, Clone, Copy)]
struct Retirement {
    valid: bool,
    insn: u32,
    pc: u32,
    rs1: u32,
    rs2: u32,
    trap: bool,
    mode: u8,
}

/// Whether the branch `d` is taken with operands `a`, `b` (the unprivileged ISA's
/// conditional branches; `c.beqz` / `c.bnez` decode to `beq` / `bne` with `rs2 = x0`).
fn condition(d: &Decoded, a: u32, b: u32) -> bool {
    let b = if d.size == 2 { 0 } else { b };
    match d.op {
        Op::Beq => a == b,
        Op::Bne => a != b,
        Op::Blt => (a as i32) < (b as i32),
        Op::Bge => (a as i32) >= (b as i32),
        Op::Bltu => a < b,
        Op::Bgeu => a >= b,
        _ => false,
    }
}

/// Whether the load / store `d` at `address` is misaligned for its size.
fn misaligned(d: &Decoded, address: u32) -> bool {
    match d.op {
        Op::Lh | Op::Lhu | Op::Sh => address & 1 != 0,
        Op::Lw | Op::Sw => address & 3 != 0,
        _ => false,
    }
}

/// The model's block for `r` after `prev` (the previous retirement without trap, if the
/// one before was one), or `None` when no block is on the port; `timer`: a trap that is
/// no exception is the machine timer interrupt (SERV's profile), else an illegal
/// instruction.
fn expected(r: &Retirement, prev: Option<&Decoded>, timer: bool) -> Option<IngressRecord> {
    if !r.valid {
        return None;
    }
    let d = decode(r.insn, Xlen::X32);
    let mut rec = IngressRecord {
        iretire: 1,
        itype: d.itype(condition(&d, r.rs1, r.rs2), ItypeWidth::W4),
        iaddr: u64::from(r.pc),
        ilastsize: u8::from(instruction_size(r.insn as u16) == 4),
        privilege: Privilege::from_code(u64::from(r.mode)).unwrap(),
        sijump: prev.is_some_and(|p| d.is_sequential_jump(p)),
        ..IngressRecord::default()
    };
    if r.trap {
        rec.itype = Itype::Exception;
        rec.sijump = false;
        match d.op {
            Op::Ecall => rec.cause = cause::USER_ECALL + u64::from(r.mode),
            Op::Ebreak => {
                rec.cause = cause::BREAKPOINT;
                rec.tval = u64::from(r.pc);
            }
            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu
                if misaligned(&d, r.rs1.wrapping_add(d.imm as u32)) =>
            {
                rec.iretire = 0;
                rec.cause = cause::MISALIGNED_LOAD;
                rec.tval = u64::from(r.rs1.wrapping_add(d.imm as u32));
            }
            Op::Sb | Op::Sh | Op::Sw if misaligned(&d, r.rs1.wrapping_add(d.imm as u32)) => {
                rec.iretire = 0;
                rec.cause = cause::MISALIGNED_STORE;
                rec.tval = u64::from(r.rs1.wrapping_add(d.imm as u32));
            }
            _ if timer => {
                rec.iretire = 0;
                rec.itype = Itype::Interrupt;
                rec.cause = cause::IRQ_M_TIMER;
            }
            _ => {
                rec.iretire = 0;
                rec.cause = cause::ILLEGAL_INSTRUCTION;
                rec.tval = u64::from(r.insn);
            }
        }
    }
    Some(rec)
}

/// The stream: every compressed encoding, the jumps with every `rd` / `rs1`, branches,
/// `lui` / `auipc` + `jalr` pairs, the trap-return and environment instructions, random
/// words; random operands, modes, traps (1 in 16, and every `ecall` / `ebreak`) and idle cycles (1 in 32).
fn stream() -> Vec<Retirement> {
    let mut rng = Rng::new(23);
    let mut words: Vec<u32> = (0..=0xffffu32).filter(|w| w & 3 != 3).collect();
    for rd in 0..32u32 {
        words.push(0x6f | rd << 7 | (rng.next_u64() as u32 & 0xffff_f000));
        for rs1 in 0..32u32 {
            let imm = rng.next_u64() as u32 & 0xfff0_0000;
            words.push(0x67 | rd << 7 | rs1 << 15 | imm);
            // lui / auipc rd, then a jalr through it or through another register.
            let upper = if rng.chance(0.5) { 0x37 } else { 0x17 };
            words.push(upper | rs1 << 7 | (rng.next_u64() as u32 & 0xffff_f000));
            words.push(0x67 | rd << 7 | rs1 << 15);
        }
    }
    for funct3 in 0..8u32 {
        for _ in 0..64 {
            words.push(0x63 | funct3 << 12 | (rng.next_u64() as u32 & 0xfe0f_8f80));
        }
        words.push(0x67 | funct3 << 12 | 1 << 15);
    }
    words.extend([
        0x0000_0073,
        0x0010_0073,
        0x0020_0073,
        0x1020_0073,
        0x3020_0073,
        0x7b20_0073,
        0x9002,
    ]);
    words.extend((0..20_000).map(|_| rng.next_u64() as u32 | 3));
    let operands = [0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
    let operand = |rng: &mut Rng| {
        if rng.chance(0.5) {
            operands[rng.below(operands.len() as u64) as usize]
        } else {
            rng.next_u64() as u32
        }
    };
    let mut out = Vec::with_capacity(words.len() * 2);
    for insn in words {
        if rng.below(32) == 0 {
            out.push(Retirement {
                valid: false,
                insn: rng.next_u64() as u32,
                pc: 0,
                rs1: 0,
                rs2: 0,
                trap: false,
                mode: 3,
            });
        }
        let rs1 = operand(&mut rng);
        let rs2 = if rng.chance(0.25) {
            rs1
        } else {
            operand(&mut rng)
        };
        out.push(Retirement {
            valid: true,
            insn,
            pc: rng.next_u64() as u32 & !1,
            rs1,
            rs2,
            // ecall / ebreak always trap.
            trap: rng.below(16) == 0 || decode(insn, Xlen::X32).is_ecall_or_ebreak(),
            mode: [0, 1, 3][rng.below(3) as usize],
        });
    }
    out
}

/// The block the simulated front end shows, `None` without one.
fn block_of<const SWAP: u64, const TIMER: u64>(
    uut: &RvfiFrontEnd<SWAP, TIMER>,
) -> Option<IngressRecord> {
    let b = &uut.block;
    let iretire = b.iretire.val();
    let itype = b.itype.val().index() as u64;
    if !iretire && itype == 0 {
        return None;
    }
    Some(IngressRecord {
        iretire: u8::from(iretire),
        itype: Itype::from_code(itype).expect("a defined itype code"),
        iaddr: b.iaddr.val().index() as u64,
        ilastsize: u8::from(uut.block.ilastsize.val()),
        privilege: Privilege::from_code(b.privilege.val().index() as u64)
            .expect("a defined privilege code"),
        cause: b.cause.val().index() as u64,
        tval: b.tval.val().index() as u64,
        sijump: b.sijump.val(),
        ..IngressRecord::default()
    })
}

/// A cycle whose block differs: its index, the retirement, the front end's and the
/// model's block.
type Difference = (
    usize,
    Retirement,
    Option<IngressRecord>,
    Option<IngressRecord>,
);

/// Runs `stream` through a front end built with `SWAP` and `TIMER`: the first cycle whose
/// block differs from the model's, or the model's blocks of every cycle.
fn first_difference<const SWAP: u64, const TIMER: u64>(
    stream: &[Retirement],
) -> Result<Vec<IngressRecord>, Difference>
where
    RvfiFrontEnd<SWAP, TIMER>: Block,
{
    let mut uut = RvfiFrontEnd::<SWAP, TIMER>::default();
    uut.connect_all();
    uut.reset.next = true;
    for clock in [false, true, false] {
        uut.clock.next = Clock { clk: clock };
        assert!(simulate(&mut uut, 100));
    }
    uut.reset.next = false;
    let mut prev: Option<Decoded> = None;
    let mut blocks = Vec::new();
    for (i, r) in stream.iter().enumerate() {
        uut.rvfi.valid.next = r.valid;
        uut.rvfi.insn.next = u64::from(r.insn).into();
        uut.rvfi.pc_rdata.next = u64::from(r.pc).into();
        uut.rvfi.rs1_rdata.next = u64::from(r.rs1).into();
        uut.rvfi.rs2_rdata.next = u64::from(r.rs2).into();
        uut.rvfi.trap.next = r.trap;
        uut.rvfi.mode.next = u64::from(r.mode).into();
        assert!(simulate(&mut uut, 100));
        let got = block_of(&uut);
        let want = expected(r, prev.as_ref(), TIMER == 1);
        if got != want {
            return Err((i, *r, got, want));
        }
        blocks.extend(want);
        if r.valid {
            prev = (!r.trap).then(|| decode(r.insn, Xlen::X32));
        }
        uut.clock.next = Clock { clk: true };
        assert!(simulate(&mut uut, 100));
        uut.clock.next = Clock { clk: false };
        assert!(simulate(&mut uut, 100));
    }
    Ok(blocks)
}

#[test]
fn front_end_classifies_as_the_model_does() {
    let stream = stream();
    assert!(stream.len() > 70_000);
    let blocks = match first_difference::<0, 0>(&stream) {
        Ok(blocks) => blocks,
        Err((i, r, got, want)) => {
            panic!("retirement {i} {r:x?}: front end {got:?}, model {want:?}")
        }
    };
    // Every code a single-retirement RV32 core without interrupts produces was compared,
    // and sequentially inferable jumps too.
    for itype in Itype::ALL {
        let present = blocks.iter().any(|b| b.itype == itype);
        let possible = !matches!(itype, Itype::Interrupt | Itype::UninferableJump3);
        assert_eq!(present, possible, "itype {itype}");
    }
    assert!(blocks.iter().filter(|b| b.sijump).count() > 100);
    assert!(blocks
        .iter()
        .any(|b| b.itype == Itype::Exception && b.iretire == 1));
    for c in [cause::MISALIGNED_LOAD, cause::MISALIGNED_STORE] {
        assert!(blocks.iter().any(|b| b.cause == c), "cause {c}");
    }
}

#[test]
fn serv_profile_traces_other_traps_as_the_timer_interrupt() {
    let stream = stream();
    let blocks = match first_difference::<0, 1>(&stream) {
        Ok(blocks) => blocks,
        Err((i, r, got, want)) => {
            panic!("retirement {i} {r:x?}: front end {got:?}, model {want:?}")
        }
    };
    assert!(blocks
        .iter()
        .any(|b| b.itype == Itype::Interrupt && b.cause == cause::IRQ_M_TIMER));
    assert!(!blocks.iter().any(|b| b.cause == cause::ILLEGAL_INSTRUCTION));
}

#[test]
fn swapped_branch_itypes_differ_from_the_model() {
    let stream = stream();
    let (_, r, got, want) = first_difference::<1, 0>(&stream).expect_err("the swap is seen");
    let d = decode(r.insn, Xlen::X32);
    assert!(d.is_branch() && !r.trap, "{r:x?}");
    let (got, want) = (got.unwrap().itype, want.unwrap().itype);
    assert!(got.is_branch() && want.is_branch() && got != want);
}
