//! The N-Trace encoder hardware on the command line (issue 25, `docs/cli.md`):
//! `gen-verilog --protocol ntrace` writes the top with its flat pins, its FuseSoC core and
//! the decoding note; `cosim --protocol ntrace` co-simulates a program on the verilated
//! N-Trace builds, writes the RTL's bytes with `-o`, which `decode --protocol ntrace`
//! reads, reports a faulty build as a failed check (exit 1), and refuses options the
//! N-Trace hardware does not have (exit 2).

mod common;
use common::{assert_code, elf, etrace, out_dir, stat};

/// `etrace ARGS` fails with exit code 2, its first line of error naming `needle`.
fn check_usage_error(args: &[&str], needle: &str) {
    let out = etrace(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with("error: ") && first.contains(needle),
        "{args:?}: {first}"
    );
}

#[test]
fn gen_verilog_writes_the_ntrace_top_core_and_decoding_note() {
    let dir = out_dir().join("ntrace-hw");
    let dir_name = dir.display().to_string();
    let out = etrace(&[
        "gen-verilog",
        "--config",
        "rv64",
        "--protocol",
        "ntrace",
        "--ntrace-mode",
        "btm",
        "--call-stack",
        "2",
        "--fifo-depth",
        "128",
        "-o",
        &dir_name,
    ]);
    assert_code(&out, 0, "gen-verilog --protocol ntrace");
    let top = "etrace_ntrace_encoder_rv64";
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v"))).unwrap();
    let header = verilog
        .lines()
        .find(|l| l.starts_with(&format!("module {top}(")))
        .unwrap();
    for pin in [
        "clock",
        "reset",
        "iretire",
        "itype",
        "iaddr",
        "ilastsize",
        "in_valid",
        "in_ready",
        "out_valid",
        "out_data",
        "out_last",
        "lost",
    ] {
        assert!(
            header.contains(&format!("({pin},"))
                || header.contains(&format!(",{pin},"))
                || header.contains(&format!(",{pin})")),
            "{pin} missing: {header}"
        );
    }
    assert!(
        verilog.contains("input wire  [63:0] iaddr;"),
        "64-bit iaddr"
    );
    let core = std::fs::read_to_string(dir.join(format!("{top}.core"))).unwrap();
    assert!(core.contains("BTM, implicit return (2 entries)"), "{core}");
    assert!(core.contains("ntrace_call_stack:"), "{core}");
    assert!(core.contains("128-byte FIFO"), "{core}");
    let note = std::fs::read_to_string(dir.join(format!("{top}.decode.txt"))).unwrap();
    assert!(note.contains("--protocol ntrace"), "{note}");
}

#[test]
fn gen_verilog_refuses_what_the_ntrace_hardware_lacks() {
    let dir = out_dir().join("ntrace-refused").display().to_string();
    let base = [
        "gen-verilog",
        "--config",
        "rv32",
        "--protocol",
        "ntrace",
        "-o",
        &dir,
    ];
    for (extra, needle) in [
        (&["--timestamp"][..], "--timestamp"),
        (&["--framing", "smi"][..], "--framing"),
        (&["--bpred-size", "6"][..], "--bpred-size"),
        (&["--fifo-depth", "32"][..], "FIFO of 32 bytes"),
        (&["--call-stack", "9"][..], "call stack of 9 entries"),
        (&["--send-bytes", "0"][..], "send rate"),
        (&["--rvfi"][..], "--rvfi"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        check_usage_error(&args, needle);
    }
    check_usage_error(
        &[
            "gen-verilog",
            "--config",
            "rv32-itype3",
            "--protocol",
            "ntrace",
            "--call-stack",
            "2",
            "-o",
            &dir,
        ],
        "4-bit itype",
    );
    // `--sijump` is a generation parameter of the N-Trace hardware only.
    check_usage_error(
        &["gen-verilog", "--config", "rv32", "--sijump", "-o", &dir],
        "--sijump",
    );
}

/// "History Trace Messaging" with every optimisation: the RTL's bytes equal the model's,
/// `-o` writes them, and `decode --protocol ntrace` decodes them to the program's trace.
#[test]
fn cosim_ntrace_writes_bytes_a_decoder_reads() {
    let trace = out_dir().join("loops.mseo");
    let trace_name = trace.display().to_string();
    let program = elf("loops-rv32.elf");
    let out = etrace(&[
        "cosim",
        &program,
        "--protocol",
        "ntrace",
        "--sijump",
        "--call-stack",
        "4",
        "--repeat-history",
        "--idle-probability",
        "0.3",
        "-o",
        &trace_name,
    ]);
    assert_code(&out, 0, "cosim --protocol ntrace");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("N-Trace RTL ntrace_rv32_htm_all"),
        "{stdout}"
    );
    let bytes = std::fs::read(&trace).unwrap();
    assert_eq!(bytes.len() as u64, stat(&stdout, "bytes matched"));
    assert!(stat(&stdout, "records") > 1000, "{stdout}");
    let decoded = etrace(&[
        "decode",
        &trace_name,
        "--elf",
        &program,
        "--protocol",
        "ntrace",
    ]);
    assert_code(&decoded, 0, "decode of the RTL's N-Trace bytes");
    let text = String::from_utf8_lossy(&decoded.stdout);
    assert!(text.contains("range 0x"), "{text}");
    assert!(!text.contains("error"), "{text}");
}

/// "Error Message" / SYNC 7: the slow build overflows and restarts, as the model does.
#[test]
fn cosim_ntrace_slow_build_restarts_as_the_model() {
    let out = etrace(&[
        "cosim",
        &elf("recursion-rv64.elf"),
        "--protocol",
        "ntrace",
        "--variant",
        "ntrace-rv64-btm-slow",
    ]);
    assert_code(&out, 0, "cosim of the slow N-Trace build");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stat(&stdout, "trace (re)starts") > 10, "{stdout}");
}

#[test]
fn cosim_ntrace_fault_is_a_failed_check_and_bad_options_usage_errors() {
    let program = elf("loops-rv32.elf");
    let out = etrace(&[
        "cosim",
        &program,
        "--protocol",
        "ntrace",
        "--variant",
        "ntrace_rv32_hist_fault",
    ]);
    assert_code(&out, 1, "the HIST fault");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("RTL sent") && stderr.contains("model"),
        "{stderr}"
    );
    let base = ["cosim", program.as_str(), "--protocol", "ntrace"];
    for (extra, needle) in [
        (&["--call-stack", "3"][..], "no verilated N-Trace build"),
        (&["--bpred-size", "6"][..], "--bpred-size"),
        (&["--stall-probability", "0.5"][..], "--stall-probability"),
        (
            &["--variant", "ntrace-rv128"][..],
            "unknown N-Trace RTL variant",
        ),
        (&["--config", "rv64"][..], "32-bit program"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        check_usage_error(&args, needle);
    }
}
