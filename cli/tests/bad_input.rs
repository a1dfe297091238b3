//! Bad input gives one clear error line naming the place and the cause, and exit code 2
//! (`docs/cli.md`): not an ELF, a truncated ELF, CSVs with a missing column or a bad hex
//! field (line and column named), unknown parameters and out-of-range values, a program that
//! never exits.

use std::path::{Path, PathBuf};

mod common;
use common::{assert_input_error, elf, etrace};

fn tmp(name: &str, contents: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_input");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

fn out_path(name: &str) -> String {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_input")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn iss_rejects_a_file_that_is_not_an_elf() {
    let f = tmp("not-elf.elf", b"VALID,ADDRESS\n1,2\n");
    assert_input_error(&etrace(&["iss", &f]), &["not an ELF", "not-elf.elf"]);
}

#[test]
fn iss_rejects_a_truncated_elf() {
    let bytes = std::fs::read(elf("minimal-rv32.elf")).unwrap();
    for cut in [10usize, 40, 60, bytes.len() / 2] {
        let f = tmp(&format!("truncated-{cut}.elf"), &bytes[..cut]);
        let out = etrace(&["iss", &f]);
        assert_input_error(&out, &[&format!("truncated-{cut}.elf")]);
    }
}

#[test]
fn iss_stops_a_program_that_never_exits_at_max_instructions() {
    let out = etrace(&[
        "iss",
        &elf("workload-rv64.elf"),
        "--max-instructions",
        "1000",
    ]);
    assert_input_error(&out, &["1000"]);
}

#[test]
fn convert_names_the_missing_column() {
    let f = tmp(
        "missing.csv",
        b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL\n",
    );
    let out = etrace(&[
        "convert",
        "--spike-csv",
        &f,
        "--encoder-input",
        &out_path("missing.ei"),
    ]);
    assert_input_error(&out, &["INTERRUPT", "line 1"]);
}

#[test]
fn convert_names_line_and_column_of_a_bad_hex_field() {
    let f = tmp(
        "badhex.csv",
        b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n\
          1,80000000,00000013,3,0,0,0,0\n\
          1,8000zz04,00000013,3,0,0,0,0\n",
    );
    let out = etrace(&[
        "convert",
        "--spike-csv",
        &f,
        "--encoder-input",
        &out_path("badhex.ei"),
    ]);
    assert_input_error(&out, &["8000zz04", "ADDRESS", "line 3", "column 2"]);
}

fn params_error(name: &str, text: &str, needles: &[&str]) {
    let p = tmp(name, text.as_bytes());
    let f = tmp(
        "ok.csv",
        b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n1,80000000,00000013,3,0,0,0,0\n",
    );
    let out = etrace(&[
        "convert",
        "--spike-csv",
        &f,
        "--encoder-input",
        &out_path("p.ei"),
        "--params",
        &p,
    ]);
    assert_input_error(&out, needles);
}

#[test]
fn unknown_parameter_names_are_refused_with_their_line() {
    params_error(
        "unknown.scf",
        "[Required Attributes]\niaddress_width_p=32\nno_such_thing_p=1\n",
        &["no_such_thing_p", "line 3"],
    );
    params_error(
        "unknown.toml",
        "iaddress_width_p = 32\nbogus_p = 1\n",
        &["bogus_p", "line 2"],
    );
}

#[test]
fn out_of_range_parameter_values_are_refused() {
    params_error(
        "range.scf",
        "itype_width_p=5 # only 3 or 4\n",
        &["itype_width_p", "5", "line 1"],
    );
    params_error(
        "range.toml",
        "[required]\niaddress_width_p = 128\n",
        &["iaddress_width_p", "128", "line 2"],
    );
}

#[test]
fn missing_input_files_are_named() {
    let out = etrace(&["iss", "/no/such/program.elf"]);
    assert_input_error(&out, &["/no/such/program.elf"]);
    let missing = Path::new("/no/such/trace.csv").display().to_string();
    let out = etrace(&[
        "convert",
        "--spike-csv",
        &missing,
        "--encoder-input",
        &out_path("x.ei"),
    ]);
    assert_input_error(&out, &["/no/such/trace.csv"]);
}

#[test]
fn a_missing_required_argument_is_one_error_line_naming_it() {
    let f = tmp("any.encap", b"\x00");
    let out = etrace(&["decode", &f, "--framing", "encap"]);
    assert_input_error(&out, &["a required argument is missing", "--elf"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("error: a required argument is missing (--elf"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage:"), "{stderr}");
}

/// `--mtvec` / `--stvec` hold what the CSR can (privileged ISA, "Machine Trap-Vector
/// Base-Address Register"): XLEN bits, MODE 0 or 1. Refused before the trace is read.
#[test]
fn trap_vectors_the_csr_cannot_hold_are_refused() {
    let f = tmp("vectors.encap", b"\x00");
    let rv32 = elf("traps-rv32.elf");
    let rv64 = elf("traps-rv64.elf");
    for (prog, option, value, needles) in [
        (
            &rv32,
            "--mtvec",
            "0x100000000",
            &["0x100000000", "32 bits", "--mtvec"][..],
        ),
        (
            &rv32,
            "--stvec",
            "0x80000002",
            &["MODE 2", "reserved", "--stvec"],
        ),
        (&rv64, "--mtvec", "0x80000003", &["MODE 3", "--mtvec"]),
    ] {
        let out = etrace(&[
            "decode",
            &f,
            "--elf",
            prog,
            "--framing",
            "encap",
            option,
            value,
        ]);
        assert_input_error(&out, needles);
    }
}
