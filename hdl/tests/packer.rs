//! The payload packer against the model's `packet::pack` (`payload.adoc`, introduction of
//! "Instruction Trace Encoder Output Packets": field order, sign-based compression), for
//! every packet kind (format 0 of branch prediction included), edge values and fixed-seed
//! random fields, at RV32 and RV64 widths; with a return stack (`return_stack_size_p` 1 to
//! 3) also `irreport` / `irdepth` (`sec:irxx`).

use std::sync::{Arc, Mutex};

use etrace_hdl::config::Config;
use etrace_hdl::packer::{layout, MapLength, PayloadLength, PayloadPacker, MAP_LENGTHS};
use etrace_hdl::packet_kind::PacketKind;
use etrace_hdl::verilog::{generate, lint, yosys_check};
use etrace_hdl::with_config;
use etrace_spec::bitfield::mask;
use etrace_spec::packet::{
    branch_map_len, pack, pack_uncompressed, AddressInfo, Branch, BranchCount, BranchFmt, Context,
    IOptions, QualStatus, Start, Support, TeInst, Trap,
};
use rust_hdl::prelude::*;

const KINDS: [PacketKind; 9] = [
    PacketKind::Support,
    PacketKind::Sync,
    PacketKind::Trap,
    PacketKind::Context,
    PacketKind::Address,
    PacketKind::BranchAddress,
    PacketKind::BranchMap,
    PacketKind::BranchCount,
    PacketKind::BranchCountOnly,
];

/// One field bundle, as plain values.
#[derive(Debug, Clone, Copy)]
struct Case {
    kind: PacketKind,
    branch: bool,
    privilege: u8,
    ecause: u64,
    interrupt: bool,
    thaddr: bool,
    with_address: bool,
    /// The `address` port (`A` bits; bit `A - 1` is not part of the field).
    address: u64,
    /// Give the model a negative address sign-extended to 64 bits (as a differential
    /// address may be).
    model_sign_extended: bool,
    tval: u64,
    notify: bool,
    updiscon: bool,
    branches: u8,
    branch_map: u32,
    branch_count: u32,
    branch_fail: bool,
    ienable: bool,
    qual_status: u8,
    ioptions: u8,
    /// `irreport`, and `irdepth` when it is set.
    irreport: bool,
    irdepth: u64,
}

impl Case {
    fn new(kind: PacketKind) -> Case {
        Case {
            kind,
            branch: false,
            privilege: 0,
            ecause: 0,
            interrupt: false,
            thaddr: false,
            with_address: true,
            address: 0,
            model_sign_extended: false,
            tval: 0,
            notify: false,
            updiscon: false,
            branches: 1,
            branch_map: 0,
            branch_count: 0,
            branch_fail: false,
            ienable: false,
            qual_status: 0,
            ioptions: 0,
            irreport: false,
            irdepth: 0,
        }
    }
}

/// The model's te_inst of `c` at address width `a`.
fn to_inst(c: &Case, a: u32) -> TeInst {
    let aw = a - 1;
    let field = c.address & mask(aw);
    let address = if c.model_sign_extended && (field >> (aw - 1)) & 1 == 1 {
        field | !mask(aw)
    } else {
        field
    };
    let info = AddressInfo {
        address,
        notify: c.notify,
        updiscon: c.updiscon,
        irreport: c.irreport,
        irdepth: if c.irreport { c.irdepth } else { 0 },
    };
    match c.kind {
        PacketKind::Support => TeInst::Support(Support {
            ienable: c.ienable,
            encoder_mode: 0,
            qual_status: QualStatus::from_code(u64::from(c.qual_status)),
            ioptions: IOptions::from_bits(u64::from(c.ioptions)),
        }),
        PacketKind::Sync => TeInst::Start(Start {
            branch: c.branch,
            privilege: c.privilege,
            time: 0,
            context: 0,
            address,
        }),
        PacketKind::Trap => TeInst::Trap(Trap {
            branch: c.branch,
            privilege: c.privilege,
            time: 0,
            context: 0,
            ecause: c.ecause,
            interrupt: c.interrupt,
            thaddr: c.thaddr,
            address: c.with_address.then_some(address),
            tval: c.tval & mask(a),
        }),
        PacketKind::Context => TeInst::Context(Context {
            privilege: c.privilege,
            time: 0,
            context: 0,
        }),
        PacketKind::Address => TeInst::AddrOnly(info),
        PacketKind::BranchAddress => TeInst::Branch(Branch {
            branches: c.branches,
            branch_map: c.branch_map & mask(branch_map_len(c.branches)) as u32,
            address: Some(info),
        }),
        PacketKind::BranchMap => TeInst::Branch(Branch {
            branches: 0,
            branch_map: c.branch_map & 0x7fff_ffff,
            address: None,
        }),
        PacketKind::BranchCount => TeInst::BranchCount(BranchCount {
            branch_count: c.branch_count,
            branch_fmt: if c.branch_fail {
                BranchFmt::AddrFail
            } else {
                BranchFmt::Addr
            },
            address: Some(info),
        }),
        PacketKind::BranchCountOnly => TeInst::BranchCount(BranchCount {
            branch_count: c.branch_count,
            branch_fmt: BranchFmt::NoAddr,
            address: None,
        }),
    }
}

/// What the packer must output for `c`: the uncompressed payload sign-extended to `p`
/// bits (as bytes) and the compressed bytes.
fn expected(c: &Case, config: Config, p: usize, rss: u8) -> (Vec<u8>, Vec<u8>) {
    let params = etrace_spec::params::Params {
        return_stack_size_p: u64::from(rss),
        ..config.params()
    };
    let inst = to_inst(c, config.address_width());
    let mut full = pack_uncompressed(&inst, &params)
        .unwrap_or_else(|e| panic!("model rejects {c:?}: {e}"))
        .bytes;
    let fill = if full.last().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0x00
    };
    assert!(full.len() <= p / 8, "{c:?} longer than the payload port");
    full.resize(p / 8, fill);
    let compressed = pack(&inst, &params).expect("packs").bytes;
    (full, compressed)
}

fn bytes_of<const P: usize>(x: Bits<P>) -> Vec<u8> {
    (0..P / 8)
        .map(|byte| {
            (0..8).fold(0u8, |acc, bit| {
                acc | (u8::from(x.get_bit(byte * 8 + bit)) << bit)
            })
        })
        .collect()
}

/// The one-hot payload layout of `c` (`packer::layout::bit`), as the packet logic forms it.
fn layout_of(c: &Case) -> u64 {
    let bit = match c.kind {
        PacketKind::Support => layout::bit::SUPPORT,
        PacketKind::Sync => layout::bit::SYNC,
        PacketKind::Trap => {
            layout::bit::TRAP + layout::trap_variant_bit(c.with_address, c.interrupt)
        }
        PacketKind::Context => layout::bit::CONTEXT,
        PacketKind::Address => layout::bit::ADDRESS,
        PacketKind::BranchAddress => {
            layout::bit::BRANCH31 + layout::map_length_bit(u64::from(c.branches))
        }
        PacketKind::BranchMap => layout::bit::BRANCH_MAP,
        PacketKind::BranchCount => layout::bit::BRANCH_COUNT,
        PacketKind::BranchCountOnly => layout::bit::BRANCH_COUNT_ONLY,
    };
    1 << bit
}

fn drive<const A: usize, const E: usize, const P: usize>(x: &mut PayloadPacker<A, E, P>, c: &Case) {
    let x = &mut x.fields;
    let address = c.address & mask(A as u32);
    // Formats 1 / 2 send `notify` relative to the address field's top bit (A - 2) and
    // `updiscon` relative to the sent `notify`.
    let notify_bit = c.notify ^ ((address >> (A - 2)) & 1 == 1);
    x.layout.next = bits(layout_of(c));
    x.branch.next = c.branch;
    x.privilege.next = bits(u64::from(c.privilege));
    x.ecause.next = bits(c.ecause & mask(E as u32));
    x.is_interrupt.next = c.interrupt;
    x.thaddr.next = c.thaddr;
    x.address.next = bits(address);
    x.address_f12.next = bits(address);
    x.tval.next = bits(c.tval & mask(A as u32));
    x.notify_bit.next = notify_bit;
    x.updiscon_bit.next = c.updiscon ^ notify_bit;
    x.branches.next = bits(u64::from(c.branches));
    x.branch_map.next = bits(u64::from(c.branch_map));
    x.branch_count.next = bits(u64::from(c.branch_count));
    x.branch_fail.next = c.branch_fail;
    x.ienable.next = c.ienable;
    x.qual_status.next = bits(u64::from(c.qual_status));
    x.ioptions.next = bits(u64::from(c.ioptions));
    x.irreport.next = c.irreport;
    x.irdepth.next = bits(c.irdepth);
}

/// Drives each input into `uut` with `drive`, lets it settle and records `read`: one
/// result per input, in rust-hdl's simulator (the blocks here are combinational).
fn run_each<B, T, R>(mut uut: B, inputs: &[T], drive: fn(&mut B, &T), read: fn(&B) -> R) -> Vec<R>
where
    B: Block + Send + 'static,
    T: Clone + Send + std::panic::RefUnwindSafe + 'static,
    R: Clone + Send + std::panic::RefUnwindSafe + 'static,
{
    uut.connect_all();
    let mut sim = Simulation::new();
    let results = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&results);
    let todo = inputs.to_vec();
    sim.add_testbench(move |mut sim: Sim<B>| {
        let mut x = sim.init()?;
        for input in &todo {
            drive(&mut x, input);
            x = sim.wait(10, x)?;
            out.lock().expect("results").push(read(&x));
        }
        sim.done(x)
    });
    sim.run(Box::new(uut), 10 * inputs.len() as u64 + 100)
        .expect("simulation runs");
    let got = results.lock().expect("results").clone();
    assert_eq!(got.len(), inputs.len());
    got
}

/// Runs every case through the simulated packer and its payload through the simulated
/// `PayloadLength`: (payload bytes, length) per case.
fn simulate<const A: usize, const E: usize, const P: usize>(
    cases: &[Case],
    rss: u8,
) -> Vec<(Vec<u8>, u64)>
where
    PayloadPacker<A, E, P>: Block,
{
    let irdepth = if rss == 0 { 0 } else { usize::from(rss) + 1 };
    let uut = PayloadPacker::<A, E, P>::new().with_irdepth(irdepth);
    let payloads = run_each(uut, cases, drive, |x| x.payload.val());
    let lengths = simulate_lengths(&payloads);
    payloads
        .iter()
        .zip(lengths)
        .map(|(p, length)| (bytes_of(*p), length))
        .collect()
}

/// The lengths `PayloadLength` gives `payloads`, in rust-hdl's simulator.
fn simulate_lengths<const P: usize>(payloads: &[Bits<P>]) -> Vec<u64> {
    run_each(
        PayloadLength::<P>::default(),
        payloads,
        |x, p| x.payload.next = *p,
        |x| x.length.val().to_u64(),
    )
}

/// Simulates `cases` on the packer of `config` and compares with the model; returns the
/// number of cases checked.
fn check(config: Config, cases: &[Case]) -> usize {
    check_with_return_stack(config, cases, 0)
}

/// As [`check`], with a return stack of 2^`rss` entries (`irdepth` of `rss + 1` bits).
fn check_with_return_stack(config: Config, cases: &[Case], rss: u8) -> usize {
    with_config!(config, [A, E, IT, P] => check_widths::<A, E, P>(config, cases, rss))
}

fn check_widths<const A: usize, const E: usize, const P: usize>(
    config: Config,
    cases: &[Case],
    rss: u8,
) -> usize
where
    PayloadPacker<A, E, P>: Block,
{
    let got = simulate::<A, E, P>(cases, rss);
    for (i, (c, (payload, length))) in cases.iter().zip(got).enumerate() {
        let (full, compressed) = expected(c, config, P, rss);
        assert_eq!(payload, full, "payload of case {i}: {c:?}");
        assert_eq!(
            length,
            compressed.len() as u64,
            "length of case {i}: {c:?}, model bytes {compressed:02x?}"
        );
        assert_eq!(
            &payload[..compressed.len()],
            &compressed[..],
            "case {i}: {c:?}"
        );
    }
    cases.len()
}

/// A fixed-seed xorshift64 generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn bit(&mut self) -> bool {
        self.next() & 1 == 1
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An `a`-bit value, often an edge value: all zeros, all ones, around the sign bit of
    /// the `a - 1`-bit address field, small positive and small negative.
    fn value(&mut self, a: u32) -> u64 {
        let r = self.next() & mask(a);
        let top = 1u64 << (a - 2);
        match self.below(10) {
            0 => 0,
            1 => mask(a),
            2 => top,
            3 => top - 1,
            4 => self.below(256),
            5 => (!self.below(256)) & mask(a),
            6 => 1 << (a - 1),
            7 => mask(a - 1),
            _ => r,
        }
    }

    fn case(&mut self, kind: PacketKind, a: u32, e: u32) -> Case {
        let branches = 1 + self.below(31) as u8;
        let interrupt = self.bit();
        let thaddr = self.bit();
        Case {
            kind,
            branch: self.bit(),
            privilege: self.below(4) as u8,
            ecause: self.next() & mask(e),
            interrupt,
            thaddr,
            with_address: !thaddr || self.bit(),
            address: self.value(a),
            model_sign_extended: self.bit(),
            tval: self.value(a),
            notify: self.bit(),
            updiscon: self.bit(),
            branches,
            branch_map: match self.below(4) {
                0 => 0,
                1 => u32::MAX,
                _ => self.next() as u32,
            },
            branch_count: match self.below(4) {
                0 => 0,
                1 => u32::MAX,
                _ => self.next() as u32,
            },
            branch_fail: self.bit(),
            ienable: self.bit(),
            qual_status: self.below(4) as u8,
            ioptions: self.below(64) as u8,
            irreport: false,
            irdepth: 0,
        }
    }
}

/// Edge cases of every kind: all-zero / all-one fields, address sign boundary, each
/// `branches` value 1-31, empty and full branch maps, every format 3.1 shape.
fn edge_cases(a: u32, e: u32) -> Vec<Case> {
    let addresses = [
        0,
        mask(a),
        mask(a - 1),
        1 << (a - 2),
        (1 << (a - 2)) - 1,
        1 << (a - 1),
        (!4u64) & mask(a),
        2,
    ];
    let mut cases = Vec::new();
    for &address in &addresses {
        for sx in [false, true] {
            for bits in 0..8u8 {
                let (notify, updiscon) = (bits & 1 == 1, bits & 2 == 2);
                for kind in [
                    PacketKind::Address,
                    PacketKind::BranchAddress,
                    PacketKind::BranchCount,
                ] {
                    cases.push(Case {
                        address,
                        model_sign_extended: sx,
                        notify,
                        updiscon,
                        branches: 1 + bits * 4,
                        branch_map: if bits & 1 == 1 { u32::MAX } else { 0 },
                        branch_count: if bits & 4 == 4 { u32::MAX } else { 0 },
                        branch_fail: bits & 2 == 2,
                        ..Case::new(kind)
                    });
                }
            }
            cases.push(Case {
                address,
                model_sign_extended: sx,
                branch: true,
                privilege: 3,
                ..Case::new(PacketKind::Sync)
            });
            for tval in [0, mask(a), 1 << (a - 1), mask(a - 1)] {
                for (with_address, interrupt, thaddr) in [
                    (true, false, false),
                    (true, true, false),
                    (true, false, true),
                    (true, true, true),
                    (false, false, true),
                    (false, true, true),
                ] {
                    cases.push(Case {
                        address,
                        model_sign_extended: sx,
                        tval,
                        with_address,
                        interrupt,
                        thaddr,
                        ecause: mask(e),
                        ..Case::new(PacketKind::Trap)
                    });
                }
            }
        }
    }
    for branches in 1..=31u8 {
        for branch_map in [
            0,
            u32::MAX,
            0x5555_5555,
            1 << (branch_map_len(branches) - 1),
        ] {
            for address in [0, mask(a)] {
                cases.push(Case {
                    branches,
                    branch_map,
                    address,
                    ..Case::new(PacketKind::BranchAddress)
                });
            }
        }
    }
    for branch_map in [0, u32::MAX, 0x7fff_ffff, 0x4000_0000, 0xbfff_ffff, 1] {
        for branches in [0, 31, 5] {
            cases.push(Case {
                branch_map,
                branches,
                ..Case::new(PacketKind::BranchMap)
            });
        }
    }
    for branch_count in [0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff] {
        for branch_fail in [false, true] {
            cases.push(Case {
                branch_count,
                branch_fail,
                ..Case::new(PacketKind::BranchCount)
            });
        }
        cases.push(Case {
            branch_count,
            ..Case::new(PacketKind::BranchCountOnly)
        });
    }
    for ioptions in 0..64u8 {
        cases.push(Case {
            ioptions,
            ienable: ioptions & 1 == 1,
            qual_status: ioptions >> 4,
            ..Case::new(PacketKind::Support)
        });
    }
    for privilege in 0..4u8 {
        cases.push(Case {
            privilege,
            ..Case::new(PacketKind::Context)
        });
    }
    cases
}

fn random_cases(seed: u64, per_kind: usize, a: u32, e: u32) -> Vec<Case> {
    let mut rng = Rng(seed);
    let mut cases = Vec::new();
    for _ in 0..per_kind {
        for kind in KINDS {
            cases.push(rng.case(kind, a, e));
        }
    }
    cases
}

#[test]
fn payload_rv32_edge_cases_match_model_pack() {
    let cases = edge_cases(32, 5);
    assert_eq!(check(Config::Rv32, &cases), 1133);
}

#[test]
fn payload_rv32_random_fields_match_model_pack() {
    let cases = random_cases(0x5eed_0032, 300, 32, 5);
    assert_eq!(check(Config::Rv32, &cases), 2700);
}

/// The random cases with `irreport` on every other case and a random `irdepth` of
/// `rss + 1` bits (all-ones and zero among them).
fn with_irreport(mut cases: Vec<Case>, rss: u8, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    let top = mask(u32::from(rss) + 1);
    for c in &mut cases {
        c.irreport = rng.bit();
        c.irdepth = match rng.below(4) {
            0 => 0,
            1 => top,
            _ => rng.next() & top,
        };
    }
    cases
}

#[test]
fn sec_irxx_irreport_and_irdepth_match_model_pack() {
    for rss in 1..=3u8 {
        let cases = with_irreport(
            random_cases(0x5eed_1700 + u64::from(rss), 60, 32, 5),
            rss,
            7,
        );
        assert_eq!(check_with_return_stack(Config::Rv32, &cases, rss), 540);
        let cases = with_irreport(random_cases(0x5eed_1764, 10, 64, 6), rss, 8);
        assert_eq!(check_with_return_stack(Config::Rv64, &cases, rss), 90);
    }
}

#[test]
fn payload_rv64_edge_cases_match_model_pack() {
    let cases = edge_cases(64, 6);
    assert_eq!(check(Config::Rv64, &cases), 1133);
}

#[test]
fn payload_rv64_random_fields_match_model_pack() {
    let cases = random_cases(0x5eed_0064, 40, 64, 6);
    assert_eq!(check(Config::Rv64, &cases), 360);
}

/// The longest te_inst of each kind for `config`, in uncompressed bits.
fn longest_bits(config: Config) -> Vec<(PacketKind, usize)> {
    let a = config.address_width();
    // Alternating bits keep every byte from compressing away.
    let alternating = 0x5555_5555_5555_5555 & mask(a);
    KINDS
        .iter()
        .map(|&kind| {
            let c = Case {
                address: alternating,
                tval: alternating,
                branches: 31,
                branch_map: 0x5555_5555,
                branch_count: 0x5555_5555,
                ioptions: 0x15,
                ..Case::new(kind)
            };
            let inst = to_inst(&c, a);
            let packed = pack(&inst, &config.params()).expect("packs");
            let bits = pack_uncompressed(&inst, &config.params())
                .expect("packs")
                .bits;
            assert_eq!(packed.bytes.len(), bits.div_ceil(8), "{kind:?}");
            (kind, bits)
        })
        .collect()
}

#[test]
fn payload_width_covers_the_longest_packet_of_each_config() {
    for config in Config::ALL {
        let p = config.payload_width() as usize;
        let longest = longest_bits(config);
        let max = longest.iter().map(|&(_, bits)| bits).max().unwrap_or(0);
        assert!(max <= p, "{config:?}: {longest:?} exceeds {p}");
        assert!(p - max < 8, "{config:?}: {p} is a byte longer than {max}");
        // The longest is format 3.1 with address and tval.
        let trap = longest
            .iter()
            .find(|&&(k, _)| k == PacketKind::Trap)
            .map(|&(_, bits)| bits);
        assert_eq!(trap, Some(max), "{config:?}");
    }
}

/// The Verilog of the packer of `config`.
fn verilog_of(config: Config) -> String {
    verilog_with_irdepth(config, 0)
}

/// The packer's Verilog with an `irdepth` of `width` bits (`sec:irxx`).
fn verilog_with_irdepth(config: Config, width: usize) -> String {
    with_config!(config, [A, E, IT, P] => {
        let mut uut = PayloadPacker::<A, E, P>::new().with_irdepth(width);
        uut.connect_all();
        generate(&uut)
    })
}

#[test]
fn packer_rv32_verilog_passes_yosys_and_lint() {
    let v = verilog_of(Config::Rv32);
    yosys_check("packer_rv32", &v).unwrap_or_else(|e| panic!("{e}"));
    lint("packer_rv32", &v).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn packer_rv64_verilog_passes_yosys_and_lint() {
    let v = verilog_of(Config::Rv64);
    yosys_check("packer_rv64", &v).unwrap_or_else(|e| panic!("{e}"));
    lint("packer_rv64", &v).unwrap_or_else(|e| panic!("{e}"));
}

/// `sec:irxx`: the packer with the largest return stack (`irdepth` 4 bits placed as the
/// address field's tail) is clean Verilog too.
#[test]
fn sec_irxx_packer_with_irdepth_verilog_passes_yosys_and_lint() {
    for (name, config) in [
        ("packer_ir_rv32", Config::Rv32),
        ("packer_ir_rv64", Config::Rv64),
    ] {
        let v = verilog_with_irdepth(config, 4);
        yosys_check(name, &v).unwrap_or_else(|e| panic!("{e}"));
        lint(name, &v).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn payload_length_verilog_passes_yosys_and_lint() {
    for (name, v) in [
        ("length_p80", {
            let mut uut = PayloadLength::<80>::default();
            uut.connect_all();
            generate(&uut)
        }),
        ("length_p144", {
            let mut uut = PayloadLength::<144>::default();
            uut.connect_all();
            generate(&uut)
        }),
    ] {
        yosys_check(name, &v).unwrap_or_else(|e| panic!("{e}"));
        lint(name, &v).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Logic cells of `verilog` (top module `top`) after yosys `synth_ice40`.
fn ice40_luts(name: &str, verilog: &str) -> usize {
    let dir = std::env::temp_dir().join(format!("etrace-area-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.v"));
    std::fs::write(&file, verilog).expect("verilog written");
    let script = format!(
        "read_verilog {}; synth_ice40 -top top; stat",
        file.display()
    );
    let out = std::process::Command::new("yosys")
        .args(["-p", &script])
        .output()
        .expect("yosys runs");
    let _ = std::fs::remove_dir_all(&dir);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "yosys failed: {report}");
    report
        .lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix("SB_LUT4"))
        .find_map(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no SB_LUT4 count in {report}"))
}

/// The RV32 packer stays within its share of the iCE40 budget (`hdl/DESIGN.md`): 346 LUTs
/// with yosys 0.23 when written.
#[test]
fn packer_rv32_ice40_area_within_budget() {
    let luts = ice40_luts("packer_rv32_area", &verilog_of(Config::Rv32));
    assert!((100..=400).contains(&luts), "{luts} SB_LUT4");
}

/// `sec:format1` `branch_map` lengths: the one-hot length the packet logic gives the
/// decision (`MapLength`, of the held branches and this cycle's) against `layout`'s
/// function, for every input.
#[test]
fn sec_format1_branch_map_length_of_held_and_pushed_branches() {
    let cases: Vec<(u64, bool)> = (0..32u64)
        .flat_map(|held| [(held, false), (held, true)])
        .filter(|&(held, push)| !(held == 31 && push))
        .collect();
    let got = run_each(
        MapLength::default(),
        &cases,
        |x, &(held, push)| {
            x.held.next = bits(held);
            x.push.next = push;
        },
        |x| x.length.val().to_u64(),
    );
    for (&(held, push), length) in cases.iter().zip(got) {
        let branches = held + u64::from(push);
        assert_eq!(
            length,
            1 << layout::map_length_bit(branches),
            "{held} held, push {push}"
        );
        assert!(length < 1 << MAP_LENGTHS);
    }
}
