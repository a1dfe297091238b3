//! How runs end without an exit request, and ELF files the hart model refuses: the
//! retired-instruction limit, `wfi` with nothing to wake the hart, trap storms, and the
//! load errors (ELF header checks, `PT_LOAD` placement).

mod hart_common;

use etrace_hart::{Hart, HartConfig, HartError, LoadError};
use hart_common::{elf, run_with, TARGETS};

fn limited(max: u64) -> HartConfig {
    HartConfig {
        max_instructions: max,
        ..HartConfig::default()
    }
}

#[test]
fn max_instructions_stops_with_the_pc() {
    for target in TARGETS {
        let r = run_with("loop", target, limited(1000));
        let forever = r.at("forever");
        match r.result {
            Err(HartError::MaxInstructions { limit, pc }) => {
                assert_eq!(limit, 1000, "{target}");
                assert!((forever..forever + 8).contains(&pc), "{target}: pc {pc:#x}");
            }
            ref other => panic!("{target}: {other:?}"),
        }
        assert_eq!(r.records.len(), 1000, "{target}");
        let msg = r.result.unwrap_err().to_string();
        assert!(msg.contains("1000 retired instructions"), "{msg}");
        assert!(msg.contains(&format!("{:#x}", r.hart.pc())), "{msg}");
    }
}

#[test]
fn wfi_without_wakeup_source_is_an_error() {
    for target in TARGETS {
        let r = run_with("wfi_deadlock", target, limited(1000));
        match r.result {
            Err(HartError::WfiDeadlock { pc, mie, .. }) => {
                assert_eq!((pc, mie), (r.at("sleep"), 0), "{target}");
            }
            ref other => panic!("{target}: {other:?}"),
        }
    }
}

#[test]
fn trap_storm_is_an_error() {
    for target in TARGETS {
        let r = run_with("storm", target, limited(1000));
        // The illegal instruction goes to mtvec = 0, where every fetch faults.
        assert_eq!(
            r.result,
            Err(HartError::TrapStorm {
                pc: 0,
                cause: 1,
                interrupt: false,
                vector: 0
            }),
            "{target}"
        );
        let causes: Vec<u64> = r.records.iter().map(|(rec, _)| rec.cause).collect();
        assert_eq!(causes, vec![2, 1, 1], "{target}");
    }
}

fn load(bytes: &[u8], config: HartConfig) -> LoadError {
    Hart::from_elf(bytes, config).expect_err("load fails")
}

#[test]
fn load_errors_name_the_cause() {
    let good = elf("exit", "rv64");
    let good32 = elf("exit", "rv32");
    let config = HartConfig::default();
    assert!(matches!(load(b"", config), LoadError::NotElf { .. }));
    assert!(matches!(
        load(b"#!/bin/sh\n", config),
        LoadError::NotElf { .. }
    ));
    assert!(matches!(
        load(&good[..16], config),
        LoadError::Truncated {
            offset: 0,
            end: 20,
            len: 16,
            ..
        }
    ));
    assert!(matches!(
        load(&good[..40], config),
        LoadError::Truncated { end: 64, .. }
    ));
    let mut bad = good.clone();
    bad[4] = 3;
    assert_eq!(load(&bad, config), LoadError::UnsupportedClass { class: 3 });
    let mut bad = good.clone();
    bad[5] = 2;
    assert_eq!(load(&bad, config), LoadError::NotLittleEndian { data: 2 });
    let mut bad = good.clone();
    bad[18] = 62; // EM_X86_64
    assert_eq!(load(&bad, config), LoadError::NotRiscv { machine: 62 });
    // Program headers past the end of the file.
    let mut bad = good.clone();
    bad[32..40].copy_from_slice(&0x10_0000u64.to_le_bytes()); // e_phoff
    assert!(matches!(load(&bad, config), LoadError::Malformed { .. }));
    // No program header at all.
    let mut bad = good.clone();
    bad[56..58].copy_from_slice(&0u16.to_le_bytes()); // e_phnum
    assert_eq!(load(&bad, config), LoadError::NoLoadableSegment);
    // The program at 0x8000_0000 straddles a RAM window ending inside it.
    let small = HartConfig {
        ram_base: 0x7fff_f000,
        ram_size: 0x1010,
        ..HartConfig::default()
    };
    assert!(matches!(
        load(&good, small),
        LoadError::SegmentOutsideMemory {
            reason: "straddles the boundary of the RAM window",
            ..
        }
    ));
    // A RAM window elsewhere: the segment gets its own region and still runs.
    let elsewhere = HartConfig {
        ram_base: 0x4000_0000,
        ram_size: 0x10_0000,
        max_instructions: 100,
        ..HartConfig::default()
    };
    let mut hart = Hart::from_elf(&good, elsewhere).expect("loads into a region");
    let mut sink = etrace_hart::CountingSink::default();
    assert_eq!(hart.run(&mut sink).expect("exits").exit_code, 7);
    // Entry point outside every segment.
    let mut bad = good.clone();
    bad[24..32].copy_from_slice(&0x10u64.to_le_bytes()); // e_entry
    assert_eq!(
        load(&bad, config),
        LoadError::EntryNotMapped { entry: 0x10 }
    );
    // Entry point at an odd address, in and outside the boot ROM start: refused as such
    // (not run into a trap storm).
    for spike_bootrom in [false, true] {
        let mut odd = good.clone();
        let entry = u64::from_le_bytes(odd[24..32].try_into().unwrap()) + 1;
        odd[24..32].copy_from_slice(&entry.to_le_bytes());
        let config = HartConfig {
            spike_bootrom,
            ..config
        };
        let err = load(&odd, config);
        assert_eq!(err, LoadError::MisalignedEntry { entry });
        assert!(err.to_string().contains("odd address"), "{err}");
    }
    // RAM window configuration.
    let wraps = HartConfig {
        ram_base: u64::MAX - 0xfff,
        ram_size: 0x2000,
        ..HartConfig::default()
    };
    assert!(matches!(load(&good, wraps), LoadError::BadRamConfig { .. }));
    let too_high_for_rv32 = HartConfig {
        ram_base: 0xffff_f000,
        ram_size: 0x2000,
        ..HartConfig::default()
    };
    assert!(matches!(
        load(&good32, too_high_for_rv32),
        LoadError::BadRamConfig { .. }
    ));
    // Messages name the place.
    assert_eq!(
        LoadError::NotRiscv { machine: 62 }.to_string(),
        "not a RISC-V ELF file: e_machine (byte offset 18) is 62, expected 243"
    );
}

#[test]
fn truncated_files_never_panic() {
    let good = elf("traps", "rv32");
    for len in 0..good.len() {
        let _ = Hart::from_elf(&good[..len], HartConfig::default());
    }
}
