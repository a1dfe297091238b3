//! Co-simulation of `PacketLogic` (rust-hdl simulator) with the golden model `Encoder` on
//! the same ingress streams, cycle contract of `hdl/DESIGN.md` items 0-4: the packets the
//! hardware pushes, in order, equal the model's `Encoder::packets()` (with `context` set to 0:
//! `nocontext_p` = 1, the field is not transmitted). With implicit return the packet logic
//! has a return stack of 4 entries (`return_stack_size_p` 2).

mod common;

use etrace_encoder::qualification::{Qualification, TRIGGER_NOTIFY, TRIGGER_START, TRIGGER_STOP};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hart::HartConfig;
use etrace_hdl::config::Config;
use etrace_hdl::logic::PacketLogic;
use etrace_hdl::packer::{layout, PacketFieldsSource};
use etrace_hdl::packet_kind::PacketKind;
use etrace_hdl::with_config;
use etrace_spec::bitfield::low_bits;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::packet::{
    AddressInfo, Branch, BranchCount, BranchFmt, Context, IOptions, QualStatus, Start, Support,
    TeInst, Trap,
};
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

/// The inputs of one cycle.
#[derive(Debug, Clone, Copy, Default)]
struct CycleIn {
    trace_enable: bool,
    block: Option<IngressRecord>,
    trigger: u8,
    halted: bool,
    queue_free: u8,
}

/// The fields of one packet slot, as plain numbers.
#[derive(Debug, Clone, Copy, Default)]
struct Fields {
    kind: PacketKind,
    branch: bool,
    privilege: u64,
    ecause: u64,
    interrupt: bool,
    thaddr: bool,
    address: u64,
    tval: u64,
    notify: bool,
    updiscon: bool,
    irreport: bool,
    irdepth: u64,
    branches: u64,
    branch_map: u64,
    branch_count: u64,
    branch_fail: bool,
    ienable: bool,
    qual_status: u64,
    ioptions: u64,
}

fn to_te_inst(f: &Fields) -> TeInst {
    let info = AddressInfo {
        address: f.address,
        notify: f.notify,
        updiscon: f.updiscon,
        irreport: f.irreport,
        irdepth: f.irdepth,
    };
    let ioptions = IOptions::from_bits(f.ioptions);
    match f.kind {
        PacketKind::Support => TeInst::Support(Support {
            ienable: f.ienable,
            encoder_mode: 0,
            qual_status: QualStatus::from_code(f.qual_status),
            ioptions,
        }),
        PacketKind::Sync => TeInst::Start(Start {
            branch: f.branch,
            privilege: f.privilege as u8,
            time: 0,
            context: 0,
            address: f.address,
        }),
        PacketKind::Trap => TeInst::Trap(Trap {
            branch: f.branch,
            privilege: f.privilege as u8,
            time: 0,
            context: 0,
            ecause: f.ecause,
            interrupt: f.interrupt,
            thaddr: f.thaddr,
            address: if f.thaddr && ioptions.implicit_exception {
                None
            } else {
                Some(f.address)
            },
            tval: f.tval,
        }),
        PacketKind::Context => TeInst::Context(Context {
            privilege: f.privilege as u8,
            time: 0,
            context: 0,
        }),
        PacketKind::Address => TeInst::AddrOnly(info),
        PacketKind::BranchAddress => TeInst::Branch(Branch {
            branches: f.branches as u8,
            branch_map: f.branch_map as u32,
            address: Some(info),
        }),
        PacketKind::BranchMap => TeInst::Branch(Branch {
            branches: 0,
            branch_map: f.branch_map as u32,
            address: None,
        }),
        PacketKind::BranchCount => TeInst::BranchCount(BranchCount {
            branch_count: f.branch_count as u32,
            branch_fmt: if f.branch_fail {
                BranchFmt::AddrFail
            } else {
                BranchFmt::Addr
            },
            address: Some(info),
        }),
        PacketKind::BranchCountOnly => TeInst::BranchCount(BranchCount {
            branch_count: f.branch_count as u32,
            branch_fmt: BranchFmt::NoAddr,
            address: None,
        }),
    }
}

fn bits<const N: usize>(b: Bits<N>) -> u64 {
    (0..N)
        .filter(|&i| b.get_bit(i))
        .fold(0, |v, i| v | (1u64 << i))
}

/// The kind of a one-hot payload layout (`packer::layout::kind`); panics unless exactly one
/// bit is set.
fn kind_of(layout_bits: u64) -> PacketKind {
    assert_eq!(
        layout_bits.count_ones(),
        1,
        "layout {layout_bits:#x} is not one-hot"
    );
    let bit = layout_bits.trailing_zeros() as usize;
    layout::kind(bit).unwrap_or_else(|| panic!("layout bit {bit}"))
}

/// A packet slot as field values: the kind from the layout; formats 1 / 2 take their
/// address field from `address_f12` and `notify` / `updiscon` from the bits as sent (each
/// relative to the bit before: the field's top bit, the sent `notify`).
fn read<const A: usize, const E: usize>(x: &PacketFieldsSource<A, E>) -> Fields {
    let kind = kind_of(bits(x.layout.val()));
    let f12 = matches!(
        kind,
        PacketKind::Address | PacketKind::BranchAddress | PacketKind::BranchCount
    );
    let address = if f12 {
        bits(x.address_f12.val())
    } else {
        bits(x.address.val())
    };
    let msb = (address >> (A - 2)) & 1 == 1;
    let notify_bit = x.notify_bit.val();
    let updiscon_bit = x.updiscon_bit.val();
    let interrupt = x.is_interrupt.val();
    Fields {
        kind,
        branch: x.branch.val(),
        privilege: bits(x.privilege.val()),
        ecause: bits(x.ecause.val()),
        interrupt,
        thaddr: x.thaddr.val(),
        address,
        // An interrupt's packet has no `tval` (the model's field is 0).
        tval: if interrupt { 0 } else { bits(x.tval.val()) },
        notify: notify_bit ^ msb,
        updiscon: updiscon_bit ^ notify_bit,
        irreport: x.irreport.val(),
        irdepth: if x.irreport.val() {
            bits(x.irdepth.val())
        } else {
            0
        },
        branches: bits(x.branches.val()),
        branch_map: bits(x.branch_map.val()),
        branch_count: bits(x.branch_count.val()),
        branch_fail: x.branch_fail.val(),
        ienable: x.ienable.val(),
        qual_status: bits(x.qual_status.val()),
        ioptions: bits(x.ioptions.val()),
    }
}

/// Checks a packet's layout variant (`packer::layout`) against its fields: the format 3.1
/// variant of its `thaddr`, implicit-exception option and `interrupt`, the format 1
/// `branch_map` length of its `branches`.
fn check_variant<const A: usize, const E: usize>(x: &PacketFieldsSource<A, E>, f: &Fields) {
    let layout_bits = bits(x.layout.val());
    let with_address = !(f.thaddr && IOptions::from_bits(f.ioptions).implicit_exception);
    if f.kind == PacketKind::Trap {
        assert_eq!(
            layout_bits,
            1 << (layout::bit::TRAP + layout::trap_variant_bit(with_address, f.interrupt)),
            "format 3.1 variant of {f:?}"
        );
    }
    if f.kind == PacketKind::BranchAddress {
        assert_eq!(
            layout_bits,
            1 << (layout::bit::BRANCH31 + layout::map_length_bit(f.branches)),
            "branch_map length of {f:?}"
        );
    }
}

fn drive<const A: usize, const E: usize, const IT: usize>(
    x: &mut PacketLogic<A, E, IT>,
    c: &CycleIn,
) {
    common::drive_block(&mut x.block, c.block.as_ref());
    x.control.trace_enable.next = c.trace_enable;
    x.control.trigger.next = u64::from(c.trigger).into();
    x.control.halted.next = c.halted;
}

/// Runs `PacketLogic` on the cycles and returns the pushed packets in order.
fn run_hardware<const A: usize, const E: usize, const IT: usize>(
    cycles: &[CycleIn],
    options: &EncoderOptions,
) -> Vec<TeInst> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    // The ingress and trace-control inputs act a cycle after they are driven (the block
    // register and the registered trace control; `reset`, the options and the queue room
    // act in the cycle they are driven), and the outputs of a cycle are the packets
    // produced in the previous one (the packet register): two more cycles, without a
    // block, present those of the last cycle.
    let mut stim = cycles.to_vec();
    if let Some(&last) = cycles.last() {
        for _ in 0..2 {
            stim.push(CycleIn {
                block: None,
                ..last
            });
        }
    }
    let o = *options;
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<PacketLogic<A, E, IT>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<PacketLogic<A, E, IT>>| {
        let mut x = sim.init()?;
        x.options.full_address.next = o.full_address;
        x.options.implicit_exception.next = o.implicit_exception;
        x.options.sijump_option.next = o.sijump;
        x.options.implicit_return.next = o.implicit_return;
        x.options.resync_max.next = u64::from(o.resync_max).into();
        x.reset.next = true;
        x.reset_ahead.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset_ahead.next = false;
        // `reset` and the queue room of the cycle the inputs driven before act in.
        let mut lagged = (true, 2u8);
        for c in &stim {
            drive(&mut *x, c);
            x.reset.next = lagged.0;
            x.queue_free.next = u64::from(lagged.1).into();
            // Read only while lost, when the packet register is empty: drained is 2 free.
            x.queue_drained.next = lagged.1 == 2;
            lagged = (false, c.queue_free);
            x = sim.wait(1, x)?;
            let count = x.count.val().index();
            let mut pkts = out_tb.lock().unwrap();
            for slot in [&x.pkt0, &x.pkt1].into_iter().take(count) {
                let fields = read(slot);
                check_variant(slot, &fields);
                pkts.push(to_te_inst(&fields));
            }
            drop(pkts);
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = PacketLogic::<A, E, IT>::new(0, false, return_stack_size(&o), false);
    uut.connect_all();
    sim.run(Box::new(uut), 10 * cycles.len() as u64 + 100)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// `return_stack_size_p` of the packet logic for `options`: 2 with implicit return.
fn return_stack_size(options: &EncoderOptions) -> u8 {
    if options.implicit_return {
        2
    } else {
        0
    }
}

/// The model's packets for the same cycles (`hdl/DESIGN.md` items 1-4).
fn run_model(config: Config, cycles: &[CycleIn], options: &EncoderOptions) -> Vec<TeInst> {
    let params = etrace_spec::params::Params {
        return_stack_size_p: u64::from(return_stack_size(options)),
        ..config.params()
    };
    let mut packets = Vec::new();
    let mut enc: Option<Encoder> = None;
    let mut qual = Qualification::new();
    let mut fin = 0;
    let free_at = |t: usize| cycles.get(t).map_or(2, |c| c.queue_free);
    for (t, c) in cycles.iter().enumerate() {
        let present = c.block.is_some();
        let rec = c.block.unwrap_or_default();
        if fin == 0 && enc.is_none() && c.trace_enable {
            // The enable support packet sees this cycle's queue room.
            let e = Encoder::with_queue_free(&params, *options, c.queue_free).unwrap();
            qual.enable();
            enc = Some(e);
            fin = 3;
        }
        let Some(e) = &mut enc else {
            qual.idle(c.halted);
            continue;
        };
        if fin == 3 && c.trace_enable {
            if let Some((r, q, n)) = qual.cycle(present, c.trigger, c.halted).push_args(&rec) {
                e.set_queue_free(free_at(t + 1));
                e.push_with(&r, q, n);
            }
            continue;
        }
        // Trace disable: two empty slots, each decided in the next cycle with that
        // cycle's queue room.
        qual.idle(c.halted);
        fin = if fin == 3 { 1 } else { fin + 1 };
        if fin <= 2 {
            e.set_queue_free(free_at(t + 1));
            e.finish_step();
        } else {
            packets.extend(e.take_packets());
            enc = None;
            fin = 0;
        }
    }
    if let Some(mut e) = enc {
        e.finish();
        packets.extend(e.take_packets());
    }
    packets
        .into_iter()
        .map(|p| match p.packet {
            TeInst::Start(s) => TeInst::Start(Start { context: 0, ..s }),
            TeInst::Trap(s) => TeInst::Trap(Trap { context: 0, ..s }),
            TeInst::Context(s) => TeInst::Context(Context { context: 0, ..s }),
            other => other,
        })
        .collect()
}

/// The ingress records of the first `limit` instructions of a program in
/// `programs/elf` (`<name>.elf`), whose whole run must end with its exit.
fn program_records(name: &str, width: ItypeWidth, limit: usize) -> Vec<IngressRecord> {
    let config = HartConfig {
        itype_width: width,
        ..HartConfig::default()
    };
    etrace_programs::records(name, config, limit).unwrap()
}

/// Random records: every `itype` of the width, traps with and without retirement,
/// privilege and context changes (`ctype` 0 / 1), `sijump`; most returns go back to the
/// address after their call, some elsewhere.
fn random_records(rng: &mut Rng, n: usize, width: ItypeWidth, a: usize) -> Vec<IngressRecord> {
    let codes: Vec<Itype> = Itype::ALL
        .iter()
        .copied()
        .filter(|t| t.fits_width(width))
        .collect();
    let privs = [Privilege::User, Privilege::Supervisor, Privilege::Machine];
    let mut addr = 0x8000_0000u64;
    let mut privilege = Privilege::Machine;
    let mut context = 0u64;
    let mut calls: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..n {
        let r = rng.below(100);
        let itype = if r < 55 {
            Itype::None
        } else {
            codes[rng.below(codes.len() as u64) as usize]
        };
        if rng.below(40) == 0 {
            privilege = privs[rng.below(3) as usize];
        }
        if rng.below(30) == 0 {
            context ^= 1;
        }
        let iretire = if itype.is_trap() && rng.below(3) != 0 {
            0
        } else {
            1
        };
        out.push(IngressRecord {
            iretire,
            itype,
            iaddr: low_bits(addr, a as u32),
            ilastsize: 1,
            privilege,
            cause: rng.below(64),
            tval: rng.next_u64(),
            interrupt: itype == Itype::Interrupt,
            context,
            ctype: (rng.below(2)) as u8,
            sijump: rng.below(2) == 0,
        });
        let next = if itype == Itype::None || itype == Itype::NontakenBranch {
            addr.wrapping_add(4)
        } else {
            rng.next_u64() & !1
        };
        addr = match itype {
            Itype::UninferableCall | Itype::InferableCall if iretire != 0 => {
                calls.push(low_bits(addr.wrapping_add(4), a as u32));
                next
            }
            Itype::Return if iretire != 0 && rng.below(5) != 0 => calls.pop().unwrap_or(next),
            _ => next,
        };
    }
    out
}

/// Cycles presenting `records`: enabled throughout, idle cycles between blocks, and (when
/// `events`) trigger start / stop / notify pulses, a halt, a disable / re-enable in the
/// middle; `drops` varies the queue's free entries.
fn schedule(rng: &mut Rng, records: &[IngressRecord], events: bool, drops: bool) -> Vec<CycleIn> {
    let mut cycles = Vec::new();
    let on = |block| CycleIn {
        trace_enable: true,
        block,
        trigger: 0,
        halted: false,
        queue_free: 2,
    };
    cycles.push(CycleIn::default());
    let mut halted_until = 0;
    for (i, rec) in records.iter().enumerate() {
        while rng.below(4) == 0 {
            cycles.push(on(None));
        }
        let mut c = on(Some(*rec));
        if events {
            match rng.below(60) {
                0 => c.trigger = TRIGGER_STOP,
                1 | 2 => c.trigger = TRIGGER_START,
                3 => c.trigger = TRIGGER_NOTIFY,
                4 => c.trigger = TRIGGER_START | TRIGGER_STOP,
                5 if halted_until == 0 => halted_until = i + 3,
                _ => {}
            }
            if halted_until != 0 {
                c.halted = true;
                if i >= halted_until {
                    halted_until = 0;
                }
            }
            if i == records.len() / 2 {
                // Disable for a few cycles, then enable again.
                for _ in 0..4 {
                    cycles.push(CycleIn::default());
                }
            }
        }
        cycles.push(c);
    }
    for _ in 0..5 {
        cycles.push(CycleIn::default());
    }
    if drops {
        for c in cycles.iter_mut() {
            c.queue_free = match rng.below(8) {
                0 => 0,
                1 | 2 => 1,
                _ => 2,
            };
        }
        // Re-enable with a full queue (the support packet is dropped) and trace disable
        // with room for the first final decision only.
        for t in 2..cycles.len() {
            let (before, now) = (cycles[t - 1].trace_enable, cycles[t].trace_enable);
            if now && !before {
                cycles[t].queue_free = 0;
            }
            if before && !now && t + 2 < cycles.len() {
                cycles[t + 1].queue_free = 1;
                cycles[t + 2].queue_free = 0;
            }
        }
    }
    cycles
}

fn check(config: Config, cycles: &[CycleIn], options: EncoderOptions) -> Vec<TeInst> {
    let want = run_model(config, cycles, &options);
    let got = with_config!(config, [A, E, IT, P] => run_hardware::<A, E, IT>(cycles, &options));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "packet {i} differs");
    }
    assert_eq!(got.len(), want.len(), "number of packets");
    got
}

/// Names of the packet kinds (and support `qual_status` values) in `packets`.
fn kinds(packets: &[TeInst]) -> std::collections::BTreeSet<String> {
    packets
        .iter()
        .map(|p| match p {
            TeInst::Support(s) => format!("support {}", s.qual_status.name()),
            TeInst::Trap(t) if t.address.is_none() => "trap without address".to_string(),
            TeInst::Branch(b) if b.address.is_none() => "branch map".to_string(),
            other => format!("format {}.{:?}", other.format(), other.subformat()),
        })
        .collect()
}

fn options(
    full_address: bool,
    implicit_exception: bool,
    sijump: bool,
    resync_max: u32,
) -> EncoderOptions {
    EncoderOptions {
        full_address,
        implicit_exception,
        sijump,
        resync_max,
        ..EncoderOptions::default()
    }
}

#[test]
fn rv32_program_loops_differential_matches_model() {
    let mut rng = Rng::new(1);
    let recs = program_records("loops-rv32", ItypeWidth::W4, 2500);
    let cycles = schedule(&mut rng, &recs, false, false);
    let got = check(Config::Rv32, &cycles, options(false, false, false, 0));
    assert!(got.len() > 20);
}

#[test]
fn rv32_itype3_program_full_address_sijump_resync_matches_model() {
    let mut rng = Rng::new(2);
    let recs = program_records("fnptr_switch-rv32", ItypeWidth::W3, 2500);
    let cycles = schedule(&mut rng, &recs, true, false);
    let got = check(Config::Rv32Itype3, &cycles, options(true, false, true, 6));
    assert!(got.len() > 20);
}

#[test]
fn rv32_traps_program_implicit_exception_matches_model() {
    let mut rng = Rng::new(3);
    let recs = program_records("traps-rv32", ItypeWidth::W4, 2500);
    let cycles = schedule(&mut rng, &recs, true, false);
    let got = check(Config::Rv32, &cycles, options(false, true, false, 16));
    assert!(kinds(&got).contains("trap without address"));
}

#[test]
fn rv32_random_streams_with_triggers_halts_and_resync_match_model() {
    for seed in 10..14 {
        let mut rng = Rng::new(seed);
        let recs = random_records(&mut rng, 800, ItypeWidth::W4, 32);
        let cycles = schedule(&mut rng, &recs, true, false);
        let o = options(
            seed % 2 == 0,
            seed % 3 == 0,
            seed % 2 == 1,
            (seed % 4) as u32 * 3,
        );
        check(Config::Rv32, &cycles, o);
    }
}

#[test]
fn rv32_itype3_random_streams_match_model() {
    for seed in 20..22 {
        let mut rng = Rng::new(seed);
        let recs = random_records(&mut rng, 800, ItypeWidth::W3, 32);
        let cycles = schedule(&mut rng, &recs, true, false);
        check(Config::Rv32Itype3, &cycles, options(false, true, true, 5));
    }
}

#[test]
fn hdl_design_item4_drop_and_trace_lost_recovery_match_model() {
    for seed in 30..34 {
        let mut rng = Rng::new(seed);
        let recs = random_records(&mut rng, 800, ItypeWidth::W4, 32);
        let cycles = schedule(&mut rng, &recs, seed % 2 == 0, true);
        let got = check(Config::Rv32, &cycles, options(false, false, false, 8));
        assert!(kinds(&got).contains("support trace_lost"));
    }
    let mut rng = Rng::new(35);
    let recs = program_records("loops-rv32", ItypeWidth::W4, 1500);
    let cycles = schedule(&mut rng, &recs, false, true);
    check(Config::Rv32, &cycles, options(true, false, false, 0));
}

#[test]
fn rv64_program_and_random_stream_match_model() {
    let mut rng = Rng::new(40);
    let recs = program_records("traps-rv64", ItypeWidth::W4, 400);
    let cycles = schedule(&mut rng, &recs, true, false);
    check(Config::Rv64, &cycles, options(false, true, false, 4));
    let recs = random_records(&mut rng, 300, ItypeWidth::W4, 64);
    let cycles = schedule(&mut rng, &recs, true, true);
    check(Config::Rv64, &cycles, options(false, false, true, 5));
}

#[test]
fn rv64_itype3_random_stream_full_address_matches_model() {
    let mut rng = Rng::new(50);
    let recs = random_records(&mut rng, 300, ItypeWidth::W3, 64);
    let cycles = schedule(&mut rng, &recs, true, false);
    check(Config::Rv64Itype3, &cycles, options(true, false, false, 7));
}

/// `options` with `implicit_return` (a return stack of 4 entries in the packet logic).
fn implicit_return(base: EncoderOptions) -> EncoderOptions {
    EncoderOptions {
        implicit_return: true,
        ..base
    }
}

/// Address packets (formats 0 / 1 / 2) that carry `irreport`.
fn irreports(packets: &[TeInst]) -> usize {
    packets
        .iter()
        .filter(|p| match p {
            TeInst::AddrOnly(a) => a.irreport,
            TeInst::Branch(b) => b.address.is_some_and(|a| a.irreport),
            TeInst::BranchCount(b) => b.address.is_some_and(|a| a.irreport),
            _ => false,
        })
        .count()
}

#[test]
fn sec_implicit_return_programs_match_model() {
    let mut saved = 0;
    for (seed, name) in [
        (60, "recursion-rv32"),
        (61, "tailcall-rv32"),
        (62, "workload-rv32"),
    ] {
        let mut rng = Rng::new(seed);
        let recs = program_records(name, ItypeWidth::W4, 3000);
        let cycles = schedule(&mut rng, &recs, seed == 61, false);
        let base = options(false, false, seed == 62, 0);
        let without = run_model(Config::Rv32, &cycles, &base);
        let got = check(Config::Rv32, &cycles, implicit_return(base));
        saved += without.len() - got.len();
    }
    assert!(saved > 50, "{saved} packets saved by implicit return");
}

#[test]
fn sec_implicit_return_random_streams_with_events_drops_and_resync_match_model() {
    let mut reported = 0;
    for seed in 70..76 {
        let mut rng = Rng::new(seed);
        let recs = random_records(&mut rng, 1500, ItypeWidth::W4, 32);
        let cycles = schedule(&mut rng, &recs, seed % 2 == 0, seed % 3 == 0);
        let o = options(
            seed % 2 == 1,
            seed % 3 == 1,
            seed % 4 < 2,
            (seed % 4) as u32 * 2,
        );
        reported += irreports(&check(Config::Rv32, &cycles, implicit_return(o)));
    }
    assert!(reported > 5, "{reported} packets with irreport");
    let mut rng = Rng::new(77);
    let recs = random_records(&mut rng, 400, ItypeWidth::W4, 64);
    let cycles = schedule(&mut rng, &recs, true, true);
    check(
        Config::Rv64,
        &cycles,
        implicit_return(options(false, true, true, 5)),
    );
}
