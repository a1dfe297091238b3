//! `--protocol ntrace` end to end (`docs/cli.md`): `etrace run` verifies every program of
//! `programs/manifest.toml` in BTM, HTM, HTM with a call stack and with repeated history;
//! `encode` -> `dump` / `decode` / `calltree` agree with each other and with the E-Trace
//! decode of the same program; corrupted streams give errors with byte offsets and the
//! exit codes of the convention.

mod common;
use common::{assert_code, assert_input_error, elf, etrace, manifest_programs, out_dir, stat};

#[test]
fn run_verifies_every_program_in_every_ntrace_mode() {
    let sets: [&[&str]; 5] = [
        &["--ntrace-mode", "btm"],
        &["--ntrace-mode", "htm"],
        &["--call-stack", "8"],
        &["--call-stack", "8", "--repeat-history", "--sijump"],
        &[
            "--ntrace-mode",
            "btm",
            "--repeat-history",
            "--src-bits",
            "3",
            "--src-id",
            "5",
            "--timestamp",
        ],
    ];
    for (name, memory, exit_code) in manifest_programs() {
        for xlen in ["rv32", "rv64"] {
            let program = elf(&format!("{name}-{xlen}.elf"));
            for set in sets {
                let mut args = vec!["run", program.as_str(), "--protocol", "ntrace"];
                if let Some(map) = &memory {
                    args.extend(["-m", map]);
                }
                args.extend_from_slice(set);
                let out = etrace(&args);
                // A program that exits non-zero fails the run, after the trace verified.
                let code = if exit_code == 0 { 0 } else { 1 };
                assert_code(&out, code, &format!("{args:?}"));
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(stdout.starts_with("verified: "), "{stdout}");
                assert!(stat(&stdout, "messages") > 0, "{stdout}");
            }
        }
    }
}

#[test]
fn encode_dump_decode_calltree_agree() {
    let dir = out_dir();
    let program = elf("recursion-rv32.elf");
    let trace = dir.join("recursion.ntrace").display().to_string();
    let out = etrace(&[
        "encode",
        "--elf",
        &program,
        "--protocol",
        "ntrace",
        "--call-stack",
        "4",
        "-o",
        &trace,
        "--stats",
    ]);
    assert_code(&out, 0, "encode");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let messages = stat(&stdout, "messages");
    assert_eq!(
        stat(&stdout, "bytes"),
        std::fs::metadata(&trace).unwrap().len()
    );

    let dump = etrace(&["dump", &trace, "--protocol", "ntrace"]);
    assert_code(&dump, 0, "dump");
    let listing = String::from_utf8_lossy(&dump.stdout).to_string();
    assert_eq!(listing.lines().count() as u64, messages, "{listing}");
    assert!(listing
        .lines()
        .next()
        .unwrap()
        .starts_with("#0 @0 ProgTraceSync SRC=0 SYNC=5 I-CNT=0"));

    // The decoded addresses equal those of the E-Trace decode of the same program.
    let ntrace_pcs = etrace(&[
        "decode",
        &trace,
        "--elf",
        &program,
        "--protocol",
        "ntrace",
        "--format",
        "pcs",
    ]);
    assert_code(&ntrace_pcs, 0, "decode ntrace");
    let etrace_file = dir.join("recursion.encap").display().to_string();
    assert_code(
        &etrace(&[
            "encode",
            "--elf",
            &program,
            "--framing",
            "encap",
            "-o",
            &etrace_file,
        ]),
        0,
        "encode etrace",
    );
    let etrace_pcs = etrace(&[
        "decode",
        &etrace_file,
        "--elf",
        &program,
        "--framing",
        "encap",
        "--format",
        "pcs",
    ]);
    assert_code(&etrace_pcs, 0, "decode etrace");
    assert!(!ntrace_pcs.stdout.is_empty());
    assert_eq!(ntrace_pcs.stdout, etrace_pcs.stdout);

    let tree = |args: &[&str]| {
        let out = etrace(args);
        assert_code(&out, 0, &format!("{args:?}"));
        out.stdout
    };
    assert_eq!(
        tree(&[
            "calltree",
            &trace,
            "--elf",
            &program,
            "--protocol",
            "ntrace",
            "--limit",
            "30"
        ]),
        tree(&[
            "calltree",
            &etrace_file,
            "--elf",
            &program,
            "--framing",
            "encap",
            "--limit",
            "30"
        ])
    );
}

#[test]
fn corrupted_ntrace_streams_name_byte_offsets() {
    let dir = out_dir();
    let program = elf("traps-rv32.elf");
    let trace = dir.join("traps.ntrace");
    let t = trace.display().to_string();
    assert_code(
        &etrace(&[
            "encode",
            "--elf",
            &program,
            "--protocol",
            "ntrace",
            "-o",
            &t,
        ]),
        0,
        "encode",
    );
    let mut bytes = std::fs::read(&trace).unwrap();
    // A reserved MSEO = 10 in the fifth byte.
    bytes[4] = (bytes[4] & !3) | 2;
    let bad = dir.join("bad.ntrace");
    std::fs::write(&bad, &bytes).unwrap();
    let b = bad.display().to_string();
    let dump = etrace(&["dump", &b, "--protocol", "ntrace"]);
    assert_code(&dump, 1, "dump of a corrupted stream (a failed check)");
    let stderr = String::from_utf8_lossy(&dump.stderr);
    assert!(stderr.contains("framing or packet errors"), "{stderr}");
    let listing = String::from_utf8_lossy(&dump.stdout);
    assert!(listing.contains("#? @4 error: byte offset 4"), "{listing}");

    let decode = etrace(&["decode", &b, "--elf", &program, "--protocol", "ntrace"]);
    assert_code(&decode, 1, "decode of a corrupted stream");
    let stderr = String::from_utf8_lossy(&decode.stderr);
    assert!(stderr.contains("byte offset 4"), "{stderr}");

    // Truncated: the last message is not terminated.
    let cut = dir.join("cut.ntrace");
    let clean = std::fs::read(&trace).unwrap();
    std::fs::write(&cut, &clean[..clean.len() / 2]).unwrap();
    let decode = etrace(&[
        "decode",
        &cut.display().to_string(),
        "--elf",
        &program,
        "--protocol",
        "ntrace",
    ]);
    assert_code(&decode, 1, "decode of a truncated stream");
    assert!(String::from_utf8_lossy(&decode.stderr).contains("not terminated"));

    // E-Trace without a framing, and an N-Trace option out of range.
    assert_input_error(&etrace(&["dump", &t]), &["--framing"]);
    assert_input_error(
        &etrace(&[
            "run",
            &program,
            "--protocol",
            "ntrace",
            "--call-stack",
            "33",
        ]),
        &["--call-stack", "33"],
    );
}

/// Command lines with an option of the other protocol ({prog}: `traps-rv32.elf`, {trace}: its
/// N-Trace stream, {out}: a scratch path) and the option refused.
#[rustfmt::skip]
const OTHER_PROTOCOL_CASES: &[(&str, &str)] = &[
    ("run {prog} --call-stack 4", "--call-stack"),
    ("encode --elf {prog} --framing encap --repeat-history -o {out}", "--repeat-history"),
    ("gen-verilog --config rv32 --ntrace-mode btm -o {out}", "--ntrace-mode"),
    ("gen-verilog --config rv32 --send-every 2 -o {out}", "--send-every"),
    ("synth --board icebreaker --config rv32 --resync-max 64 -o {out}", "--resync-max"),
    ("cosim {prog} --call-stack 2", "--call-stack"),
    ("decode {trace} --elf {prog} --protocol ntrace --framing smi", "--framing"),
    ("dump {trace} --protocol ntrace --framing encap", "--framing"),
    ("calltree {trace} --elf {prog} --protocol ntrace --framing encap", "--framing"),
    ("run {prog} --protocol ntrace --framing encap", "--framing"),
];

/// Command lines with an E-Trace option given to N-Trace, which once ignored them, and the
/// option refused.
#[rustfmt::skip]
const ETRACE_OPTION_CASES: &[(&str, &str)] = &[
    ("encode --elf {prog} --protocol ntrace --implicit-return -o {out}", "--implicit-return"),
    ("encode --elf {prog} --protocol ntrace --branch-prediction -o {out}", "--branch-prediction"),
    ("run {prog} --protocol ntrace --full-address", "--full-address"),
    ("run {prog} --protocol ntrace --implicit-exception", "--implicit-exception"),
    ("encode --elf {prog} --protocol ntrace --atb-bits 64 -o {out}", "--atb-bits"),
    ("run {prog} --protocol ntrace --timestamp --timestamp-bytes 4", "--timestamp-bytes"),
    ("encode --elf {prog} --protocol ntrace --sync-interval 0 -o {out}", "--sync-interval"),
    ("decode {trace} --elf {prog} --protocol ntrace --timestamp-bytes 4", "--timestamp-bytes"),
    ("dump {trace} --protocol ntrace --atb-bits 64", "--atb-bits"),
    ("calltree {trace} --elf {prog} --protocol ntrace --sync-interval 64", "--sync-interval"),
];

/// Options of one protocol are refused with the other (exit 2 at the option) rather than
/// ignored: the N-Trace options on E-Trace commands; `--framing`, the E-Trace encoder's
/// options and those of the framings on N-Trace commands.
#[test]
fn options_of_the_other_protocol_are_refused() {
    let program = elf("traps-rv32.elf");
    let trace = out_dir().join("refused.mseo").display().to_string();
    let scratch = out_dir().join("refused-out").display().to_string();
    common::etrace_ok(&[
        "encode",
        "--elf",
        &program,
        "--protocol",
        "ntrace",
        "-o",
        &trace,
    ]);
    let cases = OTHER_PROTOCOL_CASES.iter().map(|&(line, option)| {
        let what = if option == "--framing" {
            "an N-Trace stream is MSEO bytes without framing"
        } else {
            "an option of the N-Trace encoder (with --protocol ntrace)"
        };
        (line, option, what)
    });
    let etrace_cases = ETRACE_OPTION_CASES.iter().map(|&(line, option)| {
        (
            line,
            option,
            "an option of E-Trace (not of --protocol ntrace)",
        )
    });
    for (line, option, what) in cases.chain(etrace_cases) {
        let args: Vec<String> = line
            .split_whitespace()
            .map(|w| {
                w.replace("{prog}", &program)
                    .replace("{trace}", &trace)
                    .replace("{out}", &scratch)
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_input_error(&etrace(&args), &[what, &format!("({option})")]);
    }
}
