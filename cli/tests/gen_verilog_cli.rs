//! `etrace gen-verilog` (`docs/cli.md`): writes the Verilog and the FuseSoC core of a
//! named configuration; unknown configurations and options are usage errors (exit 2).

mod common;
use common::{assert_core_parameters, assert_input_error, etrace};

/// Runs `etrace gen-verilog --config CONFIG` into a fresh directory and returns the
/// Verilog and the `.core` file it wrote.
fn generate(config: &str) -> (String, String) {
    generate_with(config, &[])
}

/// As [`generate`], with more options.
fn generate_with(config: &str, options: &[&str]) -> (String, String) {
    let tag = options.concat();
    let dir = std::env::temp_dir().join(format!("etrace-gen-{config}{tag}-{}", std::process::id()));
    let mut args = vec![
        "gen-verilog",
        "--config",
        config,
        "-o",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(options);
    let out = etrace(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top = format!("etrace_encoder_{}", config.replace('-', "_"));
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v"))).unwrap();
    let core = std::fs::read_to_string(dir.join(format!("{top}.core"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (verilog, core)
}

#[test]
fn writes_verilog_and_core_of_a_configuration() {
    let (verilog, core) = generate("rv32");
    assert!(verilog.contains("module etrace_encoder_rv32("));
    let header = verilog
        .lines()
        .find(|l| l.starts_with("module etrace_encoder_rv32("))
        .unwrap();
    for port in [
        "iretire",
        "itype",
        "iaddr",
        "privilege",
        "cause",
        "tval",
        "trace_enable",
        "out_data",
        "out_valid",
        "out_ready",
        "out_last",
    ] {
        assert!(
            header.contains(&format!("({port},")) || header.contains(&format!(",{port},")),
            "port {port} in {header}"
        );
    }
    assert!(
        verilog.contains("input wire  [3:0] itype;"),
        "itype is 4 bits wide in rv32"
    );
    assert!(verilog.contains("input wire  [31:0] iaddr;"));
    assert!(core.contains("toplevel: etrace_encoder_rv32"));
}

#[test]
fn itype3_configuration_has_a_3_bit_itype_port() {
    let (verilog, _) = generate("rv64-itype3");
    assert!(verilog.contains("input wire  [2:0] itype;"));
    assert!(verilog.contains("input wire  [63:0] iaddr;"));
}

/// `--framing smi`: the byte-stream pins, the description names the smi output.
#[test]
fn smi_framing_generates_a_byte_stream_encoder() {
    let (verilog, core) = generate_with("rv32", &["--framing", "smi", "--src-bits", "8"]);
    assert!(verilog.contains("module etrace_encoder_rv32("));
    assert!(
        core.contains("configuration rv32 (smi byte stream, 64-byte FIFO)"),
        "{core}"
    );
    assert_core_parameters(
        &core,
        &[("framing", "str", "smi"), ("src_bits", "int", "8")],
    );
    assert!(!core.contains("atb_bits"), "{core}");
}

/// Issue 22, item 5: every generation option in the `.core` file, here of an ATB build.
#[test]
fn atb_options_are_core_parameters() {
    let (_, core) = generate_with("rv32", &["--framing", "atb", "--atb-bits", "64"]);
    assert_core_parameters(
        &core,
        &[
            ("framing", "str", "atb"),
            ("src_bits", "int", "0"),
            ("timestamp", "bool", "false"),
            ("atb_bits", "int", "64"),
            ("fifo_depth", "int", "64"),
            ("bpred_size_p", "int", "0"),
            ("return_stack_size_p", "int", "0"),
        ],
    );
}

/// `--return-stack-size 2`: the `implicit_return` and `ilastsize` pins, and the parameter in
/// the `.core` file.
#[test]
fn return_stack_size_is_a_generation_parameter() {
    let (verilog, core) = generate_with("rv32", &["--return-stack-size", "2"]);
    assert!(
        verilog.contains("input wire  implicit_return;"),
        "implicit_return pin"
    );
    assert!(verilog.contains("input wire  ilastsize;"), "ilastsize pin");
    assert_core_parameters(&core, &[("return_stack_size_p", "int", "2")]);
}

#[test]
fn bad_configuration_and_options_are_usage_errors() {
    for options in [
        &["--config", "rv128"][..],
        &["--config", "rv32", "--fifo-depth", "48"],
        &["--config", "rv32", "--framing", "ntrace"],
        &["--config", "rv32", "--framing", "atb", "--src-bits", "4"],
        &["--config", "rv32", "--framing", "atb", "--atb-bits", "7"],
        &["--config", "rv32", "--return-stack-size", "4"],
    ] {
        let mut args = vec!["gen-verilog"];
        args.extend(options);
        args.extend(["-o", "/tmp/x"]);
        let out = etrace(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// Issue 23: `--rvfi` writes the encoder behind the RVFI front end (top
/// `etrace_rvfi_encoder_rv32`: the RVFI pins in, the encoder's other pins; yosys-checked),
/// with its `.core` file; only for rv32, and `--core-traps` only with `--rvfi`.
#[test]
fn rvfi_writes_the_encoder_behind_the_front_end() {
    let (header, core) = rvfi_top("rvfi", &["--core-traps", "timer-interrupt"]);
    let top = "etrace_rvfi_encoder_rv32";
    for pin in [
        "rvfi_valid",
        "rvfi_insn",
        "rvfi_mode",
        "trace_enable",
        "out_data",
    ] {
        assert!(header.contains(pin), "{pin} missing:\n{header}");
    }
    assert!(!header.contains("iretire"), "{header}");
    assert!(core.contains(top), "{core}");
    assert_core_parameters(
        &core,
        &[
            ("framing", "str", "encap"),
            ("rvfi", "bool", "true"),
            ("core_traps", "str", "timer-interrupt"),
            ("control_registers", "bool", "false"),
        ],
    );

    let out = etrace(&["gen-verilog", "--config", "rv64", "--rvfi", "-o", "/tmp/x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rv32 only"));
    let out = etrace(&[
        "gen-verilog",
        "--config",
        "rv32",
        "--core-traps",
        "timer-interrupt",
        "-o",
        "/tmp/x",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 23, item 2 (Trace Control Interface 1.0): `--rvfi --control-registers` gives the
/// top the registers' port instead of the trace enable and option pins; a srcID wider than
/// `trTeSrcBits` can report is refused, and `--control-registers` needs `--rvfi`.
#[test]
fn control_registers_replace_the_control_pins() {
    let (header, core) = rvfi_top("ctl", &["--control-registers"]);
    assert_core_parameters(&core, &[("control_registers", "bool", "true")]);
    for pin in [
        "te_address",
        "te_write",
        "te_wdata",
        "te_rdata",
        "rvfi_valid",
    ] {
        assert!(header.contains(pin), "{pin} missing:\n{header}");
    }
    for pin in ["trace_enable", "full_address", "resync_max"] {
        assert!(!header.contains(pin), "{pin} still a pin:\n{header}");
    }
    for args in [
        &["--rvfi", "--control-registers", "--src-bits", "16"][..],
        &["--control-registers"][..],
    ] {
        let mut all = vec!["gen-verilog", "--config", "rv32", "-o", "/tmp/x"];
        all.extend_from_slice(args);
        let out = etrace(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
}

/// `etrace gen-verilog --config rv32 --rvfi EXTRA` into a temporary folder (named with
/// `tag`): the header of the top `etrace_rvfi_encoder_rv32` (its pin list) and its
/// `.core` file.
fn rvfi_top(tag: &str, extra: &[&str]) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("etrace-gen-{tag}-{}", std::process::id()));
    let mut args = vec!["gen-verilog", "--config", "rv32", "--rvfi"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", dir.to_str().unwrap()]);
    let out = etrace(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top = "etrace_rvfi_encoder_rv32";
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v"))).unwrap();
    let core = std::fs::read_to_string(dir.join(format!("{top}.core"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let header = &verilog[verilog.find(&format!("module {top}(")).expect("the top")..];
    let header = header[..header.find(");").unwrap()].to_string();
    (header, core)
}

/// Issue 22, item 5: a generation option the generator refuses is reported at that
/// option, with the generator's reason.
#[test]
fn refused_generation_options_name_the_option() {
    let cases: [(&[&str], &[&str]); 6] = [
        (&["--src-bits", "17"], &["srcID width 17", "(--src-bits)"]),
        (
            &["--bpred-size", "9"],
            &["bpred_size_p 9", "(--bpred-size)"],
        ),
        (
            &["--return-stack-size", "4"],
            &["return_stack_size_p 4", "(--return-stack-size)"],
        ),
        (
            &["--fifo-depth", "48"],
            &["FIFO depth 48", "(--fifo-depth)"],
        ),
        (
            &["--rvfi", "--control-registers", "--src-bits", "13"],
            &["at most 12 bits", "(--src-bits)"],
        ),
        (&["--rvfi"], &["rv32 only", "(--config)"]),
    ];
    for (extra, needles) in cases {
        // The RVFI front end is refused for rv64 (every case but it is rv32).
        let config = match extra {
            ["--rvfi"] => "rv64",
            _ => "rv32",
        };
        let mut args = vec![
            "gen-verilog",
            "--config",
            config,
            "-o",
            "/tmp/etrace-refused",
        ];
        args.extend_from_slice(extra);
        assert_input_error(&etrace(&args), needles);
    }
}
