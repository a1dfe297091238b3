//! The N-Trace encoder hardware on the command line (issue 25, `docs/cli.md`):
//! `gen-verilog --protocol ntrace` writes the top with its flat pins, its FuseSoC core and
//! the decoding note; `cosim --protocol ntrace` co-simulates a program on the verilated
//! N-Trace builds, writes the RTL's bytes with `-o`, which `decode --protocol ntrace`
//! reads, reports a faulty build as a failed check (exit 1), and refuses options the
//! N-Trace hardware does not have (exit 2).

mod common;
use common::{assert_code, check_usage_error, elf, etrace, etrace_ok, out_dir, scratch, stat};

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

/// Co-simulates `program` on the N-Trace RTL with `options`, its bytes written to `trace`;
/// returns the summary.
fn cosim_ntrace_to(program: &str, options: &[&str], trace: &str) -> String {
    let mut args = vec!["cosim", program, "--protocol", "ntrace"];
    args.extend(options);
    args.extend(["-o", trace]);
    etrace_ok(&args)
}

/// `decode --protocol ntrace` of `trace` against `program`, with `options`; returns the
/// decoded text.
fn decode_ntrace(trace: &str, program: &str, options: &[&str]) -> String {
    let mut args = vec!["decode", trace, "--elf", program, "--protocol", "ntrace"];
    args.extend(options);
    etrace_ok(&args)
}

/// The arguments of `capture --protocol ntrace` reading `trace` (a file as the serial
/// device) against `program`, with `options`.
fn capture_ntrace_args<'a>(trace: &'a str, program: &'a str, options: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["capture", "--serial", trace, "--elf", program];
    args.extend(["--protocol", "ntrace"]);
    args.extend(options);
    args
}

/// "History Trace Messaging" with every optimisation: the RTL's bytes equal the model's,
/// `-o` writes them, and `decode --protocol ntrace` decodes them to the program's trace.
#[test]
fn cosim_ntrace_writes_bytes_a_decoder_reads() {
    let trace = scratch("loops.mseo");
    let program = elf("loops-rv32.elf");
    let stdout = cosim_ntrace_to(
        &program,
        &[
            "--sijump",
            "--call-stack",
            "4",
            "--repeat-history",
            "--idle-probability",
            "0.3",
        ],
        &trace,
    );
    assert!(
        stdout.contains("N-Trace RTL ntrace_rv32_htm_all"),
        "{stdout}"
    );
    let bytes = std::fs::read(&trace).unwrap();
    assert_eq!(bytes.len() as u64, stat(&stdout, "bytes matched"));
    assert!(stat(&stdout, "records") > 1000, "{stdout}");
    let text = decode_ntrace(&trace, &program, &[]);
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

/// `capture --protocol ntrace` reads the N-Trace RTL's bytes (a file as the "device") as
/// `decode --protocol ntrace` does, from the first byte (`--synced`) or hunting for the
/// first message boundary; the program's retired addresses come out.
#[test]
fn capture_ntrace_reads_the_rtl_stream_as_decode_does() {
    let trace = scratch("capture-recursion.mseo");
    let program = elf("recursion-rv32.elf");
    cosim_ntrace_to(&program, &["--ntrace-mode", "btm"], &trace);
    let decoded = decode_ntrace(&trace, &program, &["--format", "pcs"]);
    let synced = etrace_ok(&capture_ntrace_args(
        &trace,
        &program,
        &["--format", "pcs", "--synced"],
    ));
    assert_eq!(synced, decoded);
    let pcs = synced.lines().count();
    assert!(pcs > 1000, "{pcs} addresses");
    // Entered at an arbitrary byte: the first message is skipped, the rest is the same.
    let tail = etrace_ok(&capture_ntrace_args(&trace, &program, &["--format", "pcs"]));
    assert!(!tail.is_empty() && decoded.ends_with(&tail));
    check_usage_error(
        &capture_ntrace_args(&trace, &program, &["--framing", "smi"]),
        "--framing",
    );
}

/// `synth --protocol ntrace` refuses what its board tops and the N-Trace hardware do not
/// have, before any tool runs; `--sijump` needs `--protocol ntrace`.
#[test]
fn synth_ntrace_refuses_cores_and_etrace_options() {
    let base = ["synth", "--board", "icebreaker", "--protocol", "ntrace"];
    for (extra, needle) in [
        (&["--core", "serv"][..], "--core"),
        (&["--bpred-size", "6"][..], "--bpred-size"),
        (&["--framing", "atb"][..], "--framing"),
        (&["--call-stack", "9"][..], "call stack of 9 entries"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        check_usage_error(&args, needle);
    }
    check_usage_error(&["synth", "--board", "icebreaker", "--sijump"], "--sijump");
}
