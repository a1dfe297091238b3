//! The FuseSoC generator core (issue 22, item 5: the generation options as FuseSoC
//! generator options; `fusesoc/etrace.core`, `fusesoc/README.md`): a user core that
//! depends on `etrace:trace:generator` and asks for the all-options rv32 encoder is run by
//! FuseSoC (`scripts/setup.sh` installs it) with its Verilator lint target. The Verilog it
//! gets is byte for byte that of `etrace gen-verilog` with the same options, the generated
//! core carries the options under the VLNV FuseSoC gave, and the decoder's parameter file
//! lies beside it; the same for an N-Trace build (other options pass through as they are).
//! Parameters that `gen-verilog` refuses, or that the generator cannot pass on, fail the
//! FuseSoC run with the error naming the parameter.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{assert_core_parameters, etrace_ok, out_dir};

/// The generate section's parameters of the all-options rv32 build (README "FPGA").
const ALL_OPTIONS: &str = "      config: rv32
      framing: smi
      src_bits: 8
      timestamp: true
      bpred_size: 6
      return_stack_size: 2
";

/// The same build as `etrace gen-verilog` options.
const ALL_OPTIONS_ARGS: [&str; 11] = [
    "--config",
    "rv32",
    "--framing",
    "smi",
    "--src-bits",
    "8",
    "--timestamp",
    "--bpred-size",
    "6",
    "--return-stack-size",
    "2",
];

/// The `fusesoc` program: on `PATH` or in pip's user folder.
fn fusesoc() -> PathBuf {
    let user = std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".local/bin/fusesoc"))
        .filter(|p| p.is_file());
    user.or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("fusesoc"))
                .find(|p| p.is_file())
        })
    })
    .expect("fusesoc not found: scripts/setup.sh installs it (pip, user)")
}

/// A user core `user:soc:trace_demo:0.1` whose lint target generates the encoder with
/// `parameters` (YAML lines, indented six spaces) and lints its top `top` with Verilator.
fn user_core(parameters: &str, top: &str) -> String {
    format!(
        "CAPI=2:
name: user:soc:trace_demo:0.1
filesets:
  deps:
    depend: [etrace:trace:generator]
generate:
  trace_encoder:
    generator: etrace_encoder
    parameters:
{parameters}targets:
  lint:
    default_tool: verilator
    filesets: [deps]
    generate: [trace_encoder]
    toplevel: {top}
    tools:
      verilator:
        mode: lint-only
        verilator_options: [-Wall, -Wno-DECLFILENAME]
"
    )
}

/// Runs FuseSoC's lint target of the user core with `parameters` and top `top` in a fresh
/// folder named `tag`: its output and its build folder.
fn run_fusesoc(tag: &str, parameters: &str, top: &str) -> (Output, PathBuf) {
    let dir = out_dir().join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    let cores = dir.join("cores");
    std::fs::create_dir_all(&cores).unwrap();
    std::fs::write(cores.join("trace_demo.core"), user_core(parameters, top)).unwrap();
    let generator_cores = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fusesoc");
    let build = dir.join("build");
    let out = Command::new(fusesoc())
        .env("ETRACE", env!("CARGO_BIN_EXE_etrace"))
        .current_dir(&dir)
        .arg("--cores-root")
        .arg(&generator_cores)
        .arg("--cores-root")
        .arg(&cores)
        .arg("run")
        .arg("--build-root")
        .arg(&build)
        .args(["--target", "lint", "user:soc:trace_demo"])
        .output()
        .expect("fusesoc runs");
    (out, build)
}

/// The files named `name` below `dir`.
fn find(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|n| n == name) {
                found.push(path);
            }
        }
    }
    found
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn fusesoc_generates_and_lints_the_all_options_encoder() {
    let (out, build) = run_fusesoc("all-options", ALL_OPTIONS, "etrace_encoder_rv32");
    assert!(out.status.success(), "fusesoc failed:\n{}", text(&out));
    // The generator's output, and the copy FuseSoC exported for the lint.
    let copies = find(&build, "etrace_encoder_rv32.v");
    assert_eq!(copies.len(), 2, "{copies:?}");
    let folder = find(&build, "etrace_encoder_rv32.core");
    assert_eq!(folder.len(), 1, "{folder:?}");
    let folder = folder[0].parent().unwrap();

    let direct = out_dir().join("all-options-direct");
    let mut args = vec!["gen-verilog", "--out", direct.to_str().unwrap()];
    args.extend_from_slice(&ALL_OPTIONS_ARGS);
    etrace_ok(&args);
    let expected = std::fs::read(direct.join("etrace_encoder_rv32.v")).unwrap();
    for copy in &copies {
        assert!(
            std::fs::read(copy).unwrap() == expected,
            "{} differs from etrace gen-verilog's Verilog",
            copy.display()
        );
    }

    let core = std::fs::read_to_string(folder.join("etrace_encoder_rv32.core")).unwrap();
    assert!(
        core.contains("\nname: user:soc:trace_demo-trace_encoder:0.1\n"),
        "{core}"
    );
    assert_core_parameters(
        &core,
        &[
            ("framing", "str", "smi"),
            ("src_bits", "int", "8"),
            ("timestamp", "bool", "true"),
            ("fifo_depth", "int", "64"),
            ("bpred_size_p", "int", "6"),
            ("return_stack_size_p", "int", "2"),
        ],
    );
    let params = std::fs::read_to_string(folder.join("etrace_encoder_rv32.params.toml")).unwrap();
    for line in ["bpred_size_p = 6", "return_stack_size_p = 2"] {
        assert!(params.lines().any(|l| l == line), "{line}:\n{params}");
    }
    assert!(
        params.contains("--framing smi --src-bits 8 --timestamp"),
        "{params}"
    );
}

/// Options of another protocol pass through as they are: the N-Trace encoder in BTM with
/// an implicit-return call stack.
#[test]
fn fusesoc_generates_the_ntrace_encoder() {
    let top = "etrace_ntrace_encoder_rv32";
    let parameters = "      config: rv32
      protocol: ntrace
      ntrace_mode: btm
      call_stack: 2
      fifo_depth: 128
";
    let (out, build) = run_fusesoc("ntrace", parameters, top);
    assert!(out.status.success(), "fusesoc failed:\n{}", text(&out));
    let direct = out_dir().join("ntrace-direct");
    etrace_ok(&[
        "gen-verilog",
        "--config",
        "rv32",
        "--protocol",
        "ntrace",
        "--ntrace-mode",
        "btm",
        "--call-stack",
        "2",
        "--fifo-depth",
        "128",
        "--out",
        direct.to_str().unwrap(),
    ]);
    let expected = std::fs::read(direct.join(format!("{top}.v"))).unwrap();
    let copies = find(&build, &format!("{top}.v"));
    assert_eq!(copies.len(), 2, "{copies:?}");
    for copy in &copies {
        assert!(
            std::fs::read(copy).unwrap() == expected,
            "{} differs from etrace gen-verilog's Verilog",
            copy.display()
        );
    }
    let core = find(&build, &format!("{top}.core"));
    let core = std::fs::read_to_string(&core[0]).unwrap();
    assert_core_parameters(
        &core,
        &[
            ("ntrace_htm", "int", "0"),
            ("ntrace_call_stack", "int", "2"),
            ("ntrace_fifo_bytes", "int", "128"),
        ],
    );
}

#[test]
fn fusesoc_reports_what_the_generator_refuses() {
    let cases = [
        (
            "bpred-too-large",
            "      config: rv32\n      bpred_size: 40\n",
            "error: bpred_size_p 40 is not supported",
        ),
        (
            "unknown-option",
            "      config: rv32\n      colour: red\n",
            "--colour",
        ),
        (
            "output-folder",
            "      config: rv32\n      out: elsewhere\n",
            "error: set by the generator itself",
        ),
        (
            "no-config",
            "      framing: smi\n",
            "error: the parameter `config` is required",
        ),
        (
            "list-value",
            "      config: rv32\n      src_bits: [1, 2]\n",
            "error: a value must be a word, a number or true / false",
        ),
    ];
    for (tag, parameters, needle) in cases {
        let (out, _) = run_fusesoc(tag, parameters, "etrace_encoder_rv32");
        let text = text(&out);
        assert!(!out.status.success(), "{tag}: fusesoc succeeded:\n{text}");
        assert!(text.contains(needle), "{tag}: no `{needle}` in:\n{text}");
        assert!(
            text.contains("Failed to run generator 'trace_encoder'"),
            "{tag}: not the generator's failure:\n{text}"
        );
    }
}
