//! `etrace cosim` (issue 6, `docs/cli.md` exit codes): a program co-simulated under
//! back-pressure ends with the statistics block and exit 0; a random stream runs; the
//! faulty build is a failed check (exit 1) with the mismatch report and a waveform; the
//! hardware generation options choose the build, `-o` writes the RTL's bytes and its
//! parameter files, which `decode` reads; an `-o` that cannot be written stops the run with
//! an error naming it; bad options (a build that does not exist) and a program of the wrong
//! width are usage errors (exit 2).

mod common;
use common::{assert_code, check_usage_error, elf, etrace, etrace_ok, out_dir, stat};

/// `--framing smi --src-bits 8 --timestamp -o`: the RTL's messages (flow 0b10, timestamp
/// bit, the index 0x5a of the `src_id` input 0xf05a), their parameter files, and `decode`
/// with them gives the program's PCs.
#[test]
fn smi_build_writes_its_bytes_and_parameters_for_a_decoder() {
    let dir = out_dir();
    let trace = dir.join("loops.smi");
    let trace_name = trace.display().to_string();
    let out = etrace(&[
        "cosim",
        &elf("loops-rv32.elf"),
        "--framing",
        "smi",
        "--src-bits",
        "8",
        "--timestamp",
        "--src-id",
        "61530",
        "--idle-probability",
        "0.9",
        "-o",
        &trace_name,
    ]);
    assert_code(&out, 0, "cosim of the smi build");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("on RTL rv32_smi_ts"), "{stdout}");
    let bytes = std::fs::read(&trace).unwrap();
    assert_eq!(bytes.len() as u64, stat(&stdout, "bytes matched"));
    assert!(!std::path::Path::new(&format!("{trace_name}.part")).exists());
    assert_eq!(
        (bytes[0] & 0xe0, bytes[1]),
        (0xc0, 0x5a),
        "{:02x?}",
        &bytes[..4]
    );
    let params = format!("{trace_name}.params.toml");
    assert!(stdout.contains(&params), "{stdout}");
    let text = std::fs::read_to_string(&params).unwrap();
    assert!(
        text.contains("--framing smi --src-bits 8 --timestamp"),
        "{text}"
    );
    assert!(std::path::Path::new(&format!("{trace_name}.params.scf")).exists());
    let dec = etrace(&[
        "decode",
        &trace_name,
        "--elf",
        &elf("loops-rv32.elf"),
        "--params",
        &params,
        "--framing",
        "smi",
        "--src-bits",
        "8",
        "--timestamp",
        "--format",
        "pcs",
    ]);
    assert_code(&dec, 0, "decode of the RTL's bytes");
    let pcs = String::from_utf8_lossy(&dec.stdout);
    assert!(pcs.lines().count() > 100, "{pcs}");
}

#[test]
fn program_under_back_pressure_matches_and_prints_statistics() {
    let stdout = etrace_ok(&[
        "cosim",
        &elf("traps-rv32.elf"),
        "--config",
        "rv32",
        "--stall-probability",
        "0.3",
        "--idle-probability",
        "0.2",
        "--seed",
        "9",
    ]);
    assert!(stdout.starts_with("cosim: "), "{stdout}");
    assert!(stat(&stdout, "cycles") > stat(&stdout, "instructions checked"));
    assert!(stat(&stdout, "packets matched") > 2);
    assert!(stat(&stdout, "bytes matched") > 10);
    assert!(stdout.contains("cycles per second: "), "{stdout}");
    assert!(stdout.contains("equal the hart's"), "{stdout}");
}

#[test]
fn rv64_program_with_encoder_options() {
    let stdout = etrace_ok(&[
        "cosim",
        &elf("recursion-rv64.elf"),
        "--full-address",
        "--implicit-exception",
        "--resync-max",
        "32",
    ]);
    assert!(stdout.contains("on RTL rv64"), "{stdout}");
}

#[test]
fn branch_prediction_build_matches_and_decodes() {
    let stdout = etrace_ok(&[
        "cosim",
        &elf("loops-rv32.elf"),
        "--bpred-size",
        "6",
        "--branch-prediction",
        "--stall-probability",
        "0.3",
    ]);
    assert!(stdout.contains("on RTL rv32_bp"), "{stdout}");
    assert!(stdout.contains("decoded: "), "{stdout}");
}

#[test]
fn implicit_return_build_matches_and_decodes() {
    let stdout = etrace_ok(&[
        "cosim",
        &elf("recursion-rv32.elf"),
        "--return-stack-size",
        "2",
        "--implicit-return",
        "--stall-probability",
        "0.3",
    ]);
    assert!(stdout.contains("on RTL rv32_ir"), "{stdout}");
    assert!(stdout.contains("decoded: "), "{stdout}");
}

#[test]
fn random_stream_runs() {
    let stdout = etrace_ok(&[
        "cosim",
        "--random",
        "20000",
        "--config",
        "rv64-itype3",
        "--stall-probability",
        "0.4",
        "--seed",
        "3",
    ]);
    assert!(
        stdout.starts_with("cosim: random stream, seed 3 on RTL rv64_itype3"),
        "{stdout}"
    );
    assert!(stat(&stdout, "cycles") >= 20000);
}

#[test]
fn injected_fault_is_a_failed_check_with_report_and_waveform() {
    let dir = std::env::temp_dir().join(format!("etrace-cosim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wave = dir.join("fault.vcd");
    // A failed run leaves a file that already exists at -o as it was (docs/cli.md).
    let trace = dir.join("kept.bin");
    std::fs::write(&trace, b"an earlier trace").unwrap();
    let out = etrace(&[
        "cosim",
        &elf("fnptr_switch-rv32.elf"),
        "--variant",
        "rv32-fault",
        "--wave",
        wave.to_str().unwrap(),
        "-o",
        trace.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with("error: the RTL differs from the model at cycle "),
        "{stderr}"
    );
    assert!(stderr.contains("first differing byte"), "{stderr}");
    assert!(stderr.contains("Branch("), "{stderr}");
    assert!(stderr.contains("fault.vcd"), "{stderr}");
    let vcd = std::fs::read_to_string(&wave).unwrap();
    assert!(vcd.contains("$enddefinitions"));
    assert_eq!(std::fs::read(&trace).unwrap(), b"an earlier trace");
    assert!(!dir.join("kept.bin.part").exists());
    assert!(!dir.join("kept.bin.params.toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, needle) in [
        (
            vec!["cosim", "--random", "10", "--stall-probability", "1.5"],
            "--stall-probability",
        ),
        (
            vec!["cosim", "--random", "10", "--config", "rv128"],
            "--config",
        ),
        (
            vec!["cosim", "--random", "10", "--variant", "rv99"],
            "--variant",
        ),
        (
            vec![
                "cosim",
                "--random",
                "10",
                "--framing",
                "smi",
                "--src-bits",
                "3",
            ],
            "no verilated build of rv32 with --framing smi --src-bits 3",
        ),
        (
            vec!["cosim", "--random", "10", "--branch-prediction"],
            "the RTL rv32 has no branch predictor",
        ),
        (
            vec!["cosim", "--random", "10", "--bpred-size", "5"],
            "no verilated build of rv32 with --framing encap --src-bits 0 --bpred-size 5",
        ),
        (
            vec!["cosim", "--random", "10", "--implicit-return"],
            "the RTL rv32 has no return stack",
        ),
        (
            vec!["cosim", "--random", "10", "--return-stack-size", "3"],
            "no verilated build of rv32 with --framing encap --src-bits 0 --bpred-size 0 \
             --return-stack-size 3",
        ),
    ] {
        check_usage_error(&args, needle);
    }
    // The SoC's trace control registers set a resync every 2^(k+4) packets only.
    let program = elf("loops-picorv32.elf");
    check_usage_error(
        &[
            "cosim",
            &program,
            "--core",
            "picorv32",
            "--resync-max",
            "100",
        ],
        "trTeInstSyncMax",
    );
}

#[test]
fn program_of_the_wrong_width_is_a_usage_error() {
    let out = etrace(&["cosim", &elf("loops-rv64.elf"), "--config", "rv32"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("64-bit program cannot run on the rv32"),
        "{stderr}"
    );
}

/// Issue 23: `--core picorv32` runs Dhrystone in lock step, `--core serv` a program built
/// for SERV; the swapped front end is a failed check naming the retirement; an RV64
/// program is a usage error. The divergence's waveform goes to `--wave`.
#[test]
fn core_lock_step_runs_and_reports_divergence() {
    let stdout = etrace_ok(&[
        "cosim",
        &elf("dhrystone-picorv32.elf"),
        "--core",
        "picorv32",
    ]);
    assert!(stat(&stdout, "retirements checked") > 80_000, "{stdout}");
    assert!(stat(&stdout, "cycles") > stat(&stdout, "retirements checked"));
    assert!(stdout.contains("equal the hart's"), "{stdout}");
    let stdout = etrace_ok(&["cosim", &elf("tailcall-serv.elf"), "--core", "serv"]);
    assert!(stdout.contains("on core serv"), "{stdout}");
    // SERV is bit-serial: tens of cycles per instruction.
    assert!(stat(&stdout, "cycles") > 30 * stat(&stdout, "retirements checked"));
    assert!(stdout.contains("equal the hart's"), "{stdout}");
    let dir = std::env::temp_dir().join(format!("etrace-cosim-core-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wave = dir.join("swapped.vcd");
    let out = etrace(&[
        "cosim",
        &elf("loops-picorv32.elf"),
        "--core",
        "picorv32-swapped",
        "--wave",
        wave.to_str().unwrap(),
    ]);
    assert_code(&out, 1, "the swapped front end");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("diverges from the hart model at retirement"),
        "{err}"
    );
    // The divergence's waveform, named in the report.
    assert!(
        err.contains("waveform: ") && err.contains("swapped.vcd"),
        "{err}"
    );
    let vcd = std::fs::read_to_string(&wave).unwrap();
    assert!(
        vcd.contains(" rvfi_pc_rdata "),
        "the core's RVFI port is traced"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let out = etrace(&[
        "cosim",
        &elf("tailcall-serv.elf"),
        "--core",
        "serv",
        "--wave",
        "/nonexistent-dir/w.vcd",
    ]);
    assert_code(&out, 2, "a waveform in a missing directory");
    let out = etrace(&["cosim", &elf("loops-rv64.elf"), "--core", "picorv32"]);
    assert_code(&out, 2, "an RV64 program");
}

/// Issue 22 item 5 on `cosim --core`: `--src-bits 8 --timestamp` with both blocks runs the
/// PicoRV32 SoC whose encoder sends an 8-bit `srcID` and timestamps, byte-exact in lock
/// step; its bytes (`-o`) decode, with the parameter file written beside them and the
/// framing options the summary names, to as many steps as the lock step decoded.
#[test]
fn core_lock_step_with_every_generation_option() {
    let tailcall = elf("tailcall-picorv32.elf");
    let dir = std::env::temp_dir().join(format!("etrace-cosim-core-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("tailcall.bin");
    let trace_name = trace.to_str().unwrap();
    let options = "--bpred-size 6 --return-stack-size 2 --src-bits 8 --timestamp";
    let mut args = vec!["cosim", &tailcall, "--core", "picorv32"];
    args.extend(options.split(' '));
    args.extend(["--branch-prediction", "--implicit-return", "-o", trace_name]);
    let stdout = etrace_ok(&args);
    assert!(
        stdout.contains(&format!("on core picorv32 (rv32 {options})")),
        "{stdout}"
    );
    let steps: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("decoded: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    let params = format!("{trace_name}.params.toml");
    let text = std::fs::read_to_string(&params).unwrap();
    assert!(text.contains("--src-bits 8 --timestamp"), "{text}");
    let dec = etrace(&[
        "decode",
        trace_name,
        "--elf",
        &tailcall,
        "--params",
        &params,
        "--framing",
        "encap",
        "--src-bits",
        "8",
        "--timestamp",
        "--format",
        "pcs",
    ]);
    assert_code(&dec, 0, "decode of the SoC's bytes");
    let pcs = String::from_utf8_lossy(&dec.stdout).lines().count();
    assert_eq!(pcs, steps, "decoded PCs against the lock step's steps");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 22 with issue 23: `--core picorv32 --bpred-size 6 --return-stack-size 2` runs the
/// SoC whose encoder has the predictor and the return stack, both options enabled through
/// its trace control registers: byte-exact in lock step, fewer bits per instruction than
/// the default SoC, and its bytes (`-o`) decode with the parameter file written beside
/// them. Options the SoC's encoder cannot give, and sizes no SoC is built with, are
/// usage errors that name the option and the builds there are.
#[test]
fn core_lock_step_with_the_predictor_and_the_return_stack() {
    let recursion = elf("recursion-picorv32.elf");
    let dir = std::env::temp_dir().join(format!("etrace-cosim-core-bpir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("recursion.bin");
    let trace_name = trace.to_str().unwrap();
    let stdout = etrace_ok(&[
        "cosim",
        &recursion,
        "--core",
        "picorv32",
        "--bpred-size",
        "6",
        "--return-stack-size",
        "2",
        "--branch-prediction",
        "--implicit-return",
        "-o",
        trace_name,
    ]);
    assert!(
        stdout.contains("on core picorv32 (rv32 --bpred-size 6 --return-stack-size 2)"),
        "{stdout}"
    );
    assert!(stdout.contains("equal the hart's"), "{stdout}");
    let bits = |out: &str| {
        out.lines()
            .find_map(|l| l.split("per instruction: ").nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{out}"))
    };
    let plain = etrace_ok(&["cosim", &recursion, "--core", "picorv32"]);
    assert!(bits(&stdout) < 0.5 * bits(&plain), "{stdout}\n{plain}");
    let params = format!("{trace_name}.params.toml");
    let text = std::fs::read_to_string(&params).unwrap();
    assert!(text.contains("bpred_size_p = 6"), "{text}");
    assert!(text.contains("return_stack_size_p = 2"), "{text}");
    let dec = etrace(&[
        "decode",
        trace_name,
        "--elf",
        &recursion,
        "--params",
        &params,
        "--framing",
        "encap",
        "--format",
        "pcs",
    ]);
    assert_code(&dec, 0, "decode of the SoC's bytes");
    let pcs = String::from_utf8_lossy(&dec.stdout).lines().count();
    assert!(pcs as u64 > 170_000, "{pcs} pcs");
    std::fs::remove_dir_all(&dir).unwrap();
    let refused: [(&[&str], &[&str]); 5] = [
        (
            &["--core", "picorv32", "--branch-prediction"],
            &["has no branch predictor", "(--branch-prediction)"],
        ),
        (
            &["--core", "picorv32", "--implicit-return"],
            &["has no return stack", "(--implicit-return)"],
        ),
        (
            &["--core", "serv", "--return-stack-size", "2"],
            &[
                "no SoC of serv is built with --return-stack-size 2 (built:",
                "built: serv (rv32); serv (rv32 --bpred-size 6 --return-stack-size 2)",
            ],
        ),
        (
            &["--core", "picorv32", "--src-bits", "4"],
            &[
                "no SoC of picorv32 is built with --src-bits 4",
                "picorv32 (rv32 --bpred-size 6 --return-stack-size 2 --src-bits 8 --timestamp)",
            ],
        ),
        (
            &["--core", "picorv32", "--bpred-size", "3"],
            &[
                "picorv32 (rv32 --bpred-size 6 --return-stack-size 2)",
                "(hardware generation options)",
            ],
        ),
    ];
    for (args, words) in refused {
        let mut all = vec!["cosim", &recursion];
        all.extend_from_slice(args);
        let out = etrace(&all);
        assert_code(&out, 2, &args.join(" "));
        let err = String::from_utf8_lossy(&out.stderr);
        for w in words {
            assert!(err.contains(w), "{args:?}: {err}");
        }
    }
}

/// Issue 23: `--core --baud`: the output taken by the board's UART; at 1 Mbaud from 12 MHz
/// PicoRV32's Dhrystone trace overflows the FIFO, the run still checks out and reports
/// the losses; at 3 Mbaud nothing is lost; a baud rate the clock cannot make is refused.
#[test]
fn core_lock_step_with_a_uart_reports_losses() {
    let dhrystone = elf("dhrystone-picorv32.elf");
    let stdout = etrace_ok(&[
        "cosim", &dhrystone, "--core", "picorv32", "--baud", "1000000",
    ]);
    assert!(stdout.contains("UART at 1000000 baud from a 12.000 MHz clock (12 cycles a bit)"));
    let lost = stdout
        .lines()
        .find_map(|l| l.strip_prefix("trace lost: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let times: u64 = lost.split(' ').next().unwrap().parse().unwrap();
    assert!(times > 0 && lost.contains("% lost"), "{stdout}");
    let stdout = etrace_ok(&[
        "cosim", &dhrystone, "--core", "picorv32", "--baud", "3000000",
    ]);
    assert!(stdout.contains("trace lost: never"), "{stdout}");
    let out = etrace(&[
        "cosim", &dhrystone, "--core", "picorv32", "--baud", "3000000", "--freq", "25",
    ]);
    assert_code(&out, 2, "a baud rate the clock cannot make");
    assert!(String::from_utf8_lossy(&out.stderr).contains("(--baud)"));
}

/// `-o /dev/full`: the first write fails (no space), the run stops there instead of
/// running to its end, and the error names the file and the cause (exit 2, no statistics).
#[test]
fn an_output_that_cannot_be_written_stops_the_run() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let out = etrace(&["cosim", "--random", "400000", "-o", "/dev/full"]);
    assert_code(&out, 2, "cosim -o /dev/full");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("/dev/full"), "{stderr}");
    assert!(stderr.to_lowercase().contains("no space"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("cycles:"));
}
