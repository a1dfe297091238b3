//! spike's HTIF on the hart model (`docs/spike.md`, "HTIF"): console requests (device 1
//! command 1), the proxy-kernel `write` syscall through `magic_mem`, replies in
//! `fromhost`, `tohost` cleared by the front end, and the exit request, for 64-bit stores
//! (RV64) and pairs of word stores in either order (RV32).

mod hart_common;

use etrace_hart::HartConfig;
use etrace_spec::ingress::Itype;
use hart_common::{run, run_with, TARGETS};

#[test]
fn htif_console_syscall_and_exit() {
    for target in TARGETS {
        let r = run("htif", target);
        let outcome = r.outcome();
        assert_eq!(outcome.exit_code, 3, "{target}");
        assert_eq!(r.hart.console(), "Hi\nhello\n", "{target}");
        assert_eq!(r.hart.x(18), 6, "{target}: write returned its length");
        assert_eq!(r.hart.x(19), 1, "{target}: fromhost");
        // The front end clears tohost after reading every request, the exit included.
        let tohost = r.hart.read_memory(r.at("tohost"), 8).unwrap();
        assert_eq!(tohost, [0u8; 8], "{target}");
    }
}

#[test]
fn htif_exit_ends_the_run_with_the_store() {
    for target in TARGETS {
        let r = run("exit", target);
        let outcome = r.outcome();
        assert_eq!(outcome.exit_code, 7, "{target}");
        assert_eq!(outcome.retired, r.records.len() as u64, "{target}");
        assert_eq!(outcome.records, r.records.len() as u64, "{target}");
        let (last, insn) = *r.records.last().unwrap();
        assert_eq!(last.iaddr, outcome.exit_pc, "{target}");
        // The last record is the store of the low word: sw a0, 0(t0).
        assert_eq!(insn, 0x00a2_a023, "{target}");
        assert_eq!(r.hart.x(8), 3, "{target}: s0");
        assert!(r.records.iter().all(|(rec, _)| rec.itype == Itype::None));
    }
}

#[test]
fn spike_bootrom_start_sequence() {
    for target in TARGETS {
        let config = HartConfig {
            spike_bootrom: true,
            max_instructions: 1000,
            ..HartConfig::default()
        };
        let r = run_with("exit", target, config);
        assert_eq!(r.outcome().exit_code, 7, "{target}");
        let load = if target == "rv32" {
            0x0182_a283
        } else {
            0x0182_b283
        };
        let expected: [(u64, u32); 5] = [
            (0x1000, 0x0000_0297),
            (0x1004, 0x0202_8593),
            (0x1008, 0xf140_2573),
            (0x100c, load),
            (0x1010, 0x0002_8067),
        ];
        for (k, &(addr, insn)) in expected.iter().enumerate() {
            let (rec, bits) = r.records[k];
            assert_eq!(
                (rec.iaddr, bits, rec.iretire),
                (addr, insn, 1),
                "{target}: {k}"
            );
        }
        // jr t0 is jalr x0, 0(x5): a return by the JumpClasses table.
        assert_eq!(r.records[4].0.itype, Itype::Return, "{target}");
        assert!(!r.records[4].0.sijump, "{target}");
        assert_eq!(r.records[5].0.iaddr, r.at("_start"), "{target}");
        assert_eq!(
            r.hart.x(11),
            0x1020,
            "{target}: a1 points at the device tree"
        );
    }
}

/// With `--spike-bootrom` the console and syscall requests are served at the end of
/// spike's 5000-instruction chunks (`docs/spike.md`, "HTIF"): the program's polling loads
/// (a two-instruction loop) see `tohost` cleared only at the first load after a multiple
/// of 5000 retired instructions (the program takes no trap, so its chunks are whole);
/// without it at once.
#[test]
fn spike_bootrom_serves_htif_requests_between_chunks() {
    for target in TARGETS {
        for spike_bootrom in [false, true] {
            let config = HartConfig {
                spike_bootrom,
                max_instructions: 100_000,
                ..HartConfig::default()
            };
            let r = run_with("htif", target, config);
            assert_eq!(r.outcome().exit_code, 3, "{target}");
            assert_eq!(r.hart.console(), "Hi\nhello\n", "{target}");
            // The polling loops end with their `bnez` not taken, after the load that saw
            // `tohost` cleared.
            let loads: Vec<usize> = r
                .indices_of(Itype::NontakenBranch)
                .iter()
                .map(|&i| i - 1)
                .collect();
            assert_eq!(loads.len(), 4, "{target}: 3 console requests and a syscall");
            let polls = r.indices_of(Itype::TakenBranch).len();
            if spike_bootrom {
                for &i in &loads {
                    assert!(i % 5000 < 2, "{target}: load at retired count {i}");
                }
                // About 2500 two-instruction polls per request.
                assert!(polls > 4 * 2000, "{target}: {polls} polls");
            } else {
                assert_eq!(polls, 0, "{target}: served at once");
            }
        }
    }
}
