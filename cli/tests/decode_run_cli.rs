//! `etrace run` and `etrace decode` end to end (`decoder.adoc` over the framings of
//! `docs/cli.md`): every program of `programs/manifest.toml` round-trips through hart,
//! encoder, framing and decoder under the encoder's option sets; a framed file decodes to
//! exactly the hart's retired addresses and spike CSV; corrupted and missing inputs give the
//! exit codes of the convention (1 failed check, 2 bad input).

mod common;
use common::{assert_code, elf, etrace, manifest_programs, out_dir, scratch, stat};
use std::process::Output;

/// Parameters for implicit return (16-entry return stack) and branch prediction.
fn extras_params() -> String {
    let p = out_dir().join("extras.toml");
    std::fs::write(&p, "return_stack_size_p = 4\nbpred_size_p = 6\n").expect("params file");
    p.display().to_string()
}

fn sijump_params() -> String {
    let p = out_dir().join("sijump.toml");
    std::fs::write(&p, "sijump_p = 1\n").expect("params file");
    p.display().to_string()
}

/// `--implicit-return` and `--branch-prediction` without `--params` use the default sizes
/// (`return_stack_size_p` = 3, `bpred_size_p` = 6): `run` verifies the trace and it is
/// smaller than without the options; `encode` takes them too, and `decode` without
/// `--params` (the same sizes) gives exactly the hart's retired addresses.
#[test]
fn implicit_return_and_branch_prediction_without_a_parameter_file_use_default_sizes() {
    for name in ["recursion-rv32.elf", "fnptr_switch-rv64.elf"] {
        let program = elf(name);
        let plain = etrace(&["run", &program]);
        assert_code(&plain, 0, &program);
        let both = etrace(&["run", &program, "--implicit-return", "--branch-prediction"]);
        assert_code(&both, 0, &program);
        let bytes = |out: &std::process::Output| {
            stat(&String::from_utf8_lossy(&out.stdout), "payload bytes")
        };
        assert!(bytes(&both) < bytes(&plain), "{program}");
        let trace = out_dir().join("defaults.encap").display().to_string();
        let encode = etrace(&[
            "encode",
            "--elf",
            &program,
            "--framing",
            "encap",
            "--branch-prediction",
            "--implicit-return",
            "-o",
            &trace,
        ]);
        assert_code(&encode, 0, &program);
        let dec = decode(&trace, &program, "encap", &["--format", "pcs"]);
        assert_code(&dec, 0, &format!("decode {name} without --params"));
        let input = scratch(&format!("{name}.defaults.ei.csv"));
        assert_code(
            &etrace(&["iss", &program, "--encoder-input", &input]),
            0,
            "iss",
        );
        let want = retired_addresses(&std::fs::read_to_string(&input).unwrap());
        assert!(pcs(&dec) == want, "{name}: decoded addresses differ");
    }
}

#[test]
fn decoder_adoc_run_verifies_every_program_in_every_option_set() {
    let sij = sijump_params();
    let extras = extras_params();
    let sets: Vec<Vec<&str>> = vec![
        vec![],
        vec!["--full-address"],
        vec!["--resync-max", "0"],
        vec!["--full-address", "--resync-max", "0"],
        vec!["--sijump", "--implicit-exception", "--params", &sij],
        vec![
            "--implicit-return",
            "--branch-prediction",
            "--params",
            &extras,
        ],
        vec!["--framing", "smi"],
        vec!["--framing", "atb"],
        vec![
            "--framing",
            "encap",
            "--timestamp",
            "--resync-max-code",
            "0",
        ],
    ];
    for (name, memory, exit_code) in manifest_programs() {
        for xlen in ["rv32", "rv64"] {
            let program = elf(&format!("{name}-{xlen}.elf"));
            for (i, set) in sets.iter().enumerate() {
                // The 1.7M-instruction workload: default, full-address without resync and
                // one other framing only.
                if name == "workload" && ![0, 3, if xlen == "rv32" { 5 } else { 6 }].contains(&i) {
                    continue;
                }
                let mut args = vec!["run", program.as_str()];
                if let Some(map) = &memory {
                    args.extend(["-m", map]);
                }
                args.extend(set.iter().copied());
                let out = etrace(&args);
                // A program that exits non-zero fails the run, after the trace verified.
                let code = if exit_code == 0 { 0 } else { 1 };
                assert_code(&out, code, &format!("{name}-{xlen} {set:?}"));
                let stdout = String::from_utf8_lossy(&out.stdout);
                let insns = stat(&stdout, "instructions");
                assert!(insns > 10, "{name}-{xlen} {set:?}:\n{stdout}");
                assert!(stat(&stdout, "packets") >= 2, "{name}-{xlen} {set:?}");
                assert!(
                    stat(&stdout, "framed bytes") >= stat(&stdout, "payload bytes"),
                    "{name}-{xlen} {set:?}"
                );
                assert!(stdout.contains("decoded instructions per second: "));
            }
        }
    }
}

#[test]
fn decode_implicit_exception_needs_the_trap_vectors() {
    let trace = scratch("traps-ie.encap");
    let out = etrace(&[
        "encode",
        "--elf",
        &elf("traps-rv64.elf"),
        "--implicit-exception",
        "--framing",
        "encap",
        "-o",
        &trace,
    ]);
    assert_code(&out, 0, "encode --implicit-exception");
    let out = etrace(&[
        "decode",
        &trace,
        "--elf",
        &elf("traps-rv64.elf"),
        "--framing",
        "encap",
    ]);
    assert_code(&out, 1, "decode without --mtvec");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("trap vectors"), "{stderr}");
}

/// The addresses of the rows with `iretire_0 = 1` of an encoder-input CSV.
fn retired_addresses(csv: &str) -> Vec<u64> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect(n);
    let (iaddr, iretire) = (col("iaddr_0"), col("iretire_0"));
    lines
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[iretire].trim() == "1").then(|| u64::from_str_radix(f[iaddr].trim(), 16).unwrap())
        })
        .collect()
}

/// The addresses of `decode --format pcs`.
fn pcs(decoded: &Output) -> Vec<u64> {
    String::from_utf8_lossy(&decoded.stdout)
        .lines()
        .map(|l| u64::from_str_radix(l.trim_start_matches("0x"), 16).expect("hex"))
        .collect()
}

/// Runs `etrace decode TRACE --elf PROGRAM --framing FRAMING` with `args`.
fn decode(trace: &str, program: &str, framing: &str, args: &[&str]) -> Output {
    let mut command = vec!["decode", trace, "--elf", program, "--framing", framing];
    command.extend(args);
    etrace(&command)
}

#[test]
fn decoder_adoc_decode_pcs_equals_the_retired_addresses() {
    for (program, framing) in [
        ("loops-rv64.elf", "encap"),
        ("traps-rv32.elf", "smi"),
        ("privilege-rv64.elf", "atb"),
        ("timer-rv32.elf", "encap"),
    ] {
        let trace = scratch(&format!("{program}.{framing}"));
        let input = scratch(&format!("{program}.ei.csv"));
        let prog = elf(program);
        let enc = etrace(&["encode", "--elf", &prog, "--framing", framing, "-o", &trace]);
        assert_code(&enc, 0, "encode");
        let iss = etrace(&["iss", &prog, "--encoder-input", &input]);
        assert_code(&iss, 0, "iss");
        let dec = decode(&trace, &prog, framing, &["--format", "pcs"]);
        assert_code(&dec, 0, &format!("decode {program} {framing}"));
        let got = pcs(&dec);
        let want = retired_addresses(&std::fs::read_to_string(&input).unwrap());
        assert!(want.len() > 1000, "{program}: {} retired", want.len());
        assert_eq!(got.len(), want.len(), "{program} {framing}: count");
        assert!(got == want, "{program} {framing}: addresses differ");
    }
}

#[test]
fn decode_spike_csv_equals_the_hart_trace_with_traps_and_interrupts() {
    // traps: exceptions (ecall, ebreak, illegal, misaligned); timer: interrupts;
    // privilege: M/S/U changes.
    for program in ["traps-rv32.elf", "timer-rv64.elf", "privilege-rv32.elf"] {
        let trace = scratch(&format!("{program}.sc.encap"));
        let want = scratch(&format!("{program}.iss.csv"));
        let got = scratch(&format!("{program}.dec.csv"));
        let prog = elf(program);
        let enc = etrace(&["encode", "--elf", &prog, "--framing", "encap", "-o", &trace]);
        assert_code(&enc, 0, "encode");
        assert_code(&etrace(&["iss", &prog, "--spike-csv", &want]), 0, "iss");
        let dec = decode(
            &trace,
            &prog,
            "encap",
            &["--format", "spike-csv", "-o", &got],
        );
        assert_code(&dec, 0, "decode");
        let (want, got) = (
            std::fs::read_to_string(&want).unwrap(),
            std::fs::read_to_string(&got).unwrap(),
        );
        let first_diff = want.lines().zip(got.lines()).position(|(a, b)| a != b);
        assert_eq!(first_diff, None, "{program}: first differing line");
        assert_eq!(want.lines().count(), got.lines().count(), "{program}: rows");
        assert!(want.lines().any(|l| l.split(',').nth(4) == Some("1")));
    }
}

#[test]
fn decode_elements_and_json_name_every_element_kind() {
    let prog = elf("timer-rv64.elf");
    let trace = scratch("timer-rv64.el.encap");
    assert_code(
        &etrace(&["encode", "--elf", &prog, "--framing", "encap", "-o", &trace]),
        0,
        "encode",
    );
    let args = ["decode", &trace, "--elf", &prog, "--framing", "encap"];
    let text = etrace(&args);
    assert_code(&text, 0, "decode elements");
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    let first = text.lines().next().expect("a line");
    assert!(first.starts_with("trace-on 0x80000000 M"), "{first}");
    assert!(text
        .lines()
        .any(|l| l.starts_with("range 0x") && l.contains(" insns end=")));
    assert!(text
        .lines()
        .any(|l| l.starts_with("trap ecause=7 interrupt=1 tval=0x0 epc=0x")));
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json = etrace(&json_args);
    assert_code(&json, 0, "decode json");
    let json = String::from_utf8_lossy(&json.stdout).to_string();
    assert_eq!(json.lines().count(), text.lines().count());
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["element"], "trace-on");
    assert_eq!(first["address"], "0x80000000");
    assert_eq!(first["privilege"], "M");
}

#[test]
fn decode_of_a_corrupted_trace_reports_decode_errors_with_exit_1() {
    let prog = elf("loops-rv32.elf");
    for framing in ["encap", "smi"] {
        let trace = out_dir().join(format!("loops-rv32.bad.{framing}"));
        let t = trace.display().to_string();
        assert_code(
            &etrace(&["encode", "--elf", &prog, "--framing", framing, "-o", &t]),
            0,
            "encode",
        );
        let mut bytes = std::fs::read(&trace).unwrap();
        let mid = bytes.len() / 2;
        for b in &mut bytes[mid..mid + 16] {
            *b ^= 0xa5;
        }
        std::fs::write(&trace, &bytes).unwrap();
        let dec = etrace(&["decode", &t, "--elf", &prog, "--framing", framing]);
        assert_code(&dec, 1, &format!("decode of a corrupted {framing} trace"));
        let stdout = String::from_utf8_lossy(&dec.stdout);
        let stderr = String::from_utf8_lossy(&dec.stderr);
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("decode-error packet #")),
            "{framing}:\n{stdout}"
        );
        assert!(stderr.starts_with("error: "), "{framing}: {stderr}");
        assert!(stderr.contains("decode errors"), "{framing}: {stderr}");
        assert!(!stderr.contains("panicked"), "{framing}: {stderr}");
    }
}

#[test]
fn decode_with_a_missing_elf_exits_2() {
    let trace = scratch("missing-elf.encap");
    std::fs::write(&trace, [0u8; 8]).unwrap();
    let missing = scratch("no-such-program.elf");
    let dec = etrace(&["decode", &trace, "--elf", &missing, "--framing", "encap"]);
    assert_code(&dec, 2, "decode with a missing ELF");
    let stderr = String::from_utf8_lossy(&dec.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("no-such-program.elf"), "{stderr}");
}
