//! The hart model's options on every command that runs it (`docs/cli.md`, "Shared option
//! groups"): `-m/--memory` in spike's syntax and `--spike-bootrom`; bad maps and programs
//! that do not fit are one clear error line with exit 2; a boot-ROM trace verifies (`run`)
//! and decodes with `decode --spike-bootrom` (and `calltree --spike-bootrom`) to the hart's
//! retired addresses; the test programs that need a memory map (`lowbase`) or exit non-zero
//! (`exitcode`) run as their manifest tables say; an entry point at an odd address is
//! reported as such.

mod common;

use common::{assert_code, assert_input_error, elf, etrace, out_dir, scratch};

/// Exit 2 with `needle` on the first stderr line, which starts `error:`.
fn one_line_error(args: &[&str], needle: &str) {
    let out = etrace(args);
    assert_input_error(&out, &[needle]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.contains(needle), "{args:?}: first line `{first}`");
}

#[test]
fn bad_memory_maps_are_one_line_with_exit_2() {
    let prog = elf("minimal-rv32.elf");
    for (map, needle) in [
        ("0x80000000:0", "has size zero"),
        ("0x80000000:0x2000,0x80001000:0x1000", "overlap"),
        ("0x80000000:zz", "malformed memory map `0x80000000:zz`"),
        ("lots", "malformed memory map `lots`"),
    ] {
        for cmd in [
            vec!["iss", &prog, "-m", map],
            vec!["run", &prog, "--memory", map],
            vec![
                "encode",
                "--elf",
                &prog,
                "--framing",
                "encap",
                "-o",
                "-",
                "-m",
                map,
            ],
        ] {
            one_line_error(&cmd, needle);
        }
    }
}

#[test]
fn a_malformed_map_is_exactly_one_line() {
    let prog = elf("minimal-rv32.elf");
    for cmd in [
        vec!["iss", &prog, "-m", "lots"],
        vec!["run", &prog, "-m0x80000000:zz"],
        vec![
            "encode",
            "--elf",
            &prog,
            "--framing",
            "smi",
            "-o",
            "-",
            "-m",
            "1:",
        ],
        vec!["cosim", &prog, "--memory", "0x80000000:"],
    ] {
        let out = etrace(&cmd);
        assert_input_error(&out, &["malformed memory map", "(-m/--memory)"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{cmd:?}: {stderr}");
    }
}

/// `lowbase`'s map (its manifest `memory`).
fn lowbase_map() -> String {
    let dir = etrace_programs::dir();
    etrace_programs::manifest_memory(&dir, "lowbase-rv32")
        .expect("manifest")
        .expect("lowbase has a memory map")
}

#[test]
fn the_0x2001_0000_program_runs_with_its_map_and_reports_its_exit_code() {
    let map = lowbase_map();
    for target in ["rv32", "rv64"] {
        let prog = elf(&format!("lowbase-{target}.elf"));
        let out = etrace(&["iss", &prog, "-m", &map]);
        assert_code(&out, 0, &format!("iss lowbase-{target}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("lowbase ok"), "{stdout}");
        // The status line (on stderr, beside the program's console on stdout).
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("exit code 0,"), "{stderr}");
        for cmd in ["run", "cosim"] {
            let out = etrace(&[cmd, &prog, "-m", &map, "--spike-bootrom"]);
            assert_code(&out, 0, &format!("{cmd} lowbase-{target}"));
        }
        // encode takes both too; the trace decodes from the boot ROM into 0x2001_0000.
        let trace = scratch(&format!("lowbase-{target}.smi"));
        let args = ["--elf", &prog, "-m", &map, "--spike-bootrom"];
        let mut encode = vec!["encode", "--framing", "smi", "-o", &trace];
        encode.extend(args);
        assert_code(&etrace(&encode), 0, &format!("encode lowbase-{target}"));
        let decode = [
            "decode",
            &trace,
            "--elf",
            &prog,
            "--framing",
            "smi",
            "--spike-bootrom",
            "--format",
            "pcs",
        ];
        let out = etrace(&decode);
        assert_code(&out, 0, &format!("decode lowbase-{target}"));
        let pcs = String::from_utf8_lossy(&out.stdout);
        assert_eq!(pcs.lines().next(), Some("0x1000"), "lowbase-{target}");
        assert!(
            pcs.lines().any(|l| l == "0x20010000"),
            "lowbase-{target}: the entry is not decoded"
        );
        // Without the map its stack is nowhere: the program cannot run.
        let out = etrace(&["iss", &prog]);
        assert_ne!(
            out.status.code(),
            Some(0),
            "iss lowbase-{target} without -m"
        );
    }
}

#[test]
fn a_non_zero_exit_code_fails_naming_the_code() {
    for target in ["rv32", "rv64"] {
        let prog = elf(&format!("exitcode-{target}.elf"));
        for cmd in ["iss", "run", "cosim"] {
            let out = etrace(&[cmd, &prog]);
            assert_code(&out, 1, &format!("{cmd} exitcode-{target}"));
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr.lines().next().unwrap_or("");
            assert!(
                first.starts_with("error: the program exited with code 5"),
                "{cmd}: {stderr}"
            );
        }
    }
}

#[test]
fn an_odd_entry_point_is_reported_as_such() {
    for target in ["rv32", "rv64"] {
        let mut bytes = std::fs::read(elf(&format!("minimal-{target}.elf"))).unwrap();
        bytes[24] |= 1; // the low byte of e_entry (0x8000_0000)
        let path = scratch(&format!("odd-entry-{target}.elf"));
        std::fs::write(&path, &bytes).unwrap();
        for cmd in [
            vec!["iss", &path],
            vec!["iss", &path, "--spike-bootrom"],
            vec!["run", &path],
            vec!["encode", "--elf", &path, "--framing", "smi", "-o", "-"],
            vec!["cosim", &path],
        ] {
            let out = etrace(&cmd);
            assert_input_error(&out, &["entry point 0x80000001 is an odd address"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("trap storm"), "{cmd:?}: {stderr}");
        }
    }
}

#[test]
fn a_program_outside_the_map_is_refused_naming_its_segment() {
    let prog = elf("recursion-rv64.elf");
    for cmd in ["iss", "run"] {
        one_line_error(
            &[cmd, &prog, "-m0x20010000:0x40000"],
            "segment at 0x80000000",
        );
    }
}

#[test]
fn programs_run_with_a_map_and_from_the_boot_rom() {
    for program in ["recursion-rv32.elf", "privilege-rv64.elf", "timer-rv32.elf"] {
        let prog = elf(program);
        let out = etrace(&["iss", &prog, "-m", "0x80000000:0x100000", "--spike-bootrom"]);
        assert_code(&out, 0, &format!("iss {program}"));
        let out = etrace(&["run", &prog, "-m", "0x80000000:0x100000", "--spike-bootrom"]);
        assert_code(&out, 0, &format!("run {program}"));
    }
}

#[test]
fn decode_spike_bootrom_gives_the_retired_addresses_from_0x1000() {
    let dir = out_dir();
    for (program, framing) in [("loops-rv64.elf", "encap"), ("privilege-rv32.elf", "smi")] {
        let prog = elf(program);
        let trace = dir
            .join(format!("{program}.boot.{framing}"))
            .display()
            .to_string();
        let csv = dir
            .join(format!("{program}.boot.csv"))
            .display()
            .to_string();
        let enc = etrace(&[
            "encode",
            "--elf",
            &prog,
            "--spike-bootrom",
            "--framing",
            framing,
            "-o",
            &trace,
        ]);
        assert_code(&enc, 0, "encode --spike-bootrom");
        assert_code(
            &etrace(&["iss", &prog, "--spike-bootrom", "--spike-csv", &csv]),
            0,
            "iss",
        );
        let decode = |bootrom: bool| {
            let mut args = vec!["decode", &trace, "--elf", &prog, "--framing", framing];
            args.extend(["--format", "pcs"]);
            if bootrom {
                args.push("--spike-bootrom");
            }
            etrace(&args)
        };
        // Without the boot ROM's code the trace cannot be followed from 0x1000.
        assert_ne!(decode(false).status.code(), Some(0), "{program}");
        let dec = decode(true);
        assert_code(&dec, 0, &format!("decode --spike-bootrom {program}"));
        let got: Vec<u64> = String::from_utf8_lossy(&dec.stdout)
            .lines()
            .map(|l| u64::from_str_radix(l.trim_start_matches("0x"), 16).expect("hex"))
            .collect();
        // The spike CSV's retired rows: no trap, or an ecall / ebreak (which retire).
        let want: Vec<u64> = std::fs::read_to_string(&csv)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect::<Vec<_>>())
            .filter(|f| f[0] == "1" && (f[4] == "0" || f[2] == "73" || f[2] == "100073"))
            .map(|f| u64::from_str_radix(f[1], 16).unwrap())
            .collect();
        assert_eq!(got.first(), Some(&0x1000), "{program}");
        assert_eq!(got, want, "{program}");
        // calltree follows the same trace from the boot ROM into the program's main.
        let calltree = |bootrom: bool| {
            let mut args = vec!["calltree", &trace, "--elf", &prog, "--framing", framing];
            if bootrom {
                args.push("--spike-bootrom");
            }
            etrace(&args)
        };
        assert_ne!(calltree(false).status.code(), Some(0), "{program}");
        let tree = calltree(true);
        assert_code(&tree, 0, &format!("calltree --spike-bootrom {program}"));
        let listing = String::from_utf8_lossy(&tree.stdout);
        assert!(listing.contains("main"), "{program}: {listing}");
    }
}
