//! `etrace-bench`: one benchmark run (issue 8) printed as Markdown on stdout: the date,
//! machine and tool versions; compression of every test program in every option set
//! beside riscv-etrace's encoder; bits per instruction of the RTL's own bytes for each
//! hardware build (workload programs) and for the N-Trace RTL builds (with their clocks per
//! record); N-Trace beside E-Trace (compression and the speed of
//! both encoders and decoders); speed of the hart model, encoder, decoder and
//! co-simulation beside riscv-etrace's encoder and tracer; the soft cores PicoRV32 and
//! SERV in lock step on Dhrystone (speed, bits per core cycle); FPGA cost from the flow reports;
//! decoder and co-simulation time for runs of 10^5, 10^6 and 10^7 instructions; time and
//! peak memory of `etrace run` and `etrace decode` up to 10^7 instructions (to 10^9 with
//! `--long`); the parallel decoder beside the sequential one on the 10^7-instruction run.
//! Progress goes to stderr. `scripts/bench` builds it, runs the FPGA flows and calls it.
//!
//! ```text
//! etrace-bench [--quick] [--long] [--runs N] [--warmup N] [--fpga DIR] [--programs DIR]
//!              [--only parallel-decoding|long-runs|hardware-compression|cosim|speed|cores]
//! etrace-bench --fpga-flows
//! etrace-bench --run-child OUT BIN ARGS...
//! ```
//!
//! `--fpga-flows` prints the FPGA flows `scripts/bench` runs (board, flow directory,
//! `etrace synth` options), one a line, and exits. `--run-child` is the small runner that
//! measures one child process of the long-run table (`child_cost`).
//!
//! Exit codes: 0 (failures of a measurement are reported in its table cell), 2 for bad
//! usage (`error: <what> (<where>)`).

#[path = "../../model/decoder/tests/support/riscv_etrace_glue.rs"]
mod glue;

mod child_cost;
mod compression;
mod cores;
mod fpga;
mod hardware;
mod harness;
mod long_runs;
mod machine;
mod ntrace;
mod ntrace_hardware;
mod parallel;
mod programs;
mod speed;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use harness::Plan;

const USAGE: &str =
    "usage: etrace-bench [--quick] [--long] [--runs N] [--warmup N] [--fpga DIR] [--programs DIR]
                    [--only parallel-decoding|long-runs|hardware-compression|cosim|speed|cores]
       etrace-bench --fpga-flows

  --fpga-flows     print the FPGA flows scripts/bench runs (board, directory, etrace synth
                   options), one a line, and exit
  --quick          tiny programs and sizes, one run, no warm-up, no FPGA reports (a smoke test)
  --long           long runs of `etrace run` / `etrace decode` up to 10^9 instructions (minutes)
  --runs N         timed runs per measurement, median reported (default 5)
  --warmup N       untimed runs before them (default 1)
  --fpga DIR       read DIR/<board>/<config>/report.json of `etrace synth` (or status.txt there)
  --programs DIR   the programs folder (default: this checkout's programs/)
  --only parallel-decoding
                   only the parallel decoding section
  --only long-runs only the long runs of `etrace run` / `etrace decode` (with --long: to 10^9)
  --only hardware-compression
                   only the bits per instruction of the RTL's own bytes
  --only cosim     only the co-simulation rows of the speed section (with the load average)
  --only speed     only the speed section (hart model, encoder, decoder, co-simulation)
  --only cores     only the soft cores in lock step (PicoRV32, SERV on Dhrystone)";

/// Command-line settings.
struct Args {
    quick: bool,
    long: bool,
    runs: Option<usize>,
    warmup: Option<usize>,
    fpga: Option<PathBuf>,
    programs: PathBuf,
    /// The one section to run (`--only`), or every section.
    only: Option<Only>,
    /// Print the FPGA flows and exit (`--fpga-flows`).
    fpga_flows: bool,
}

/// A section run alone (`--only`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Only {
    /// The parallel decoder beside the sequential one.
    ParallelDecoding,
    /// The bits per instruction of the RTL's own bytes.
    HardwareCompression,
    /// The long runs of `etrace run` / `etrace decode`.
    LongRuns,
    /// The co-simulation rows of the speed section.
    Cosim,
    /// The speed section.
    Speed,
    /// The soft cores in lock step.
    Cores,
}

/// A usage error: what, and where.
struct UsageError(String, String);

fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Args>, UsageError> {
    let mut parsed = Args {
        quick: false,
        long: false,
        runs: None,
        warmup: None,
        fpga: None,
        programs: programs::default_dir(),
        only: None,
        fpga_flows: false,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| UsageError(format!("{name} needs a value"), name.to_string()))
        };
        let count = |name: &str, v: String| {
            v.parse::<usize>()
                .map_err(|_| UsageError(format!("'{v}' is not a count"), name.to_string()))
        };
        match arg.as_str() {
            "--quick" => parsed.quick = true,
            "--long" => parsed.long = true,
            "--runs" => {
                let n = count("--runs", value("--runs")?)?;
                if n == 0 {
                    return Err(UsageError("at least one run".into(), "--runs".into()));
                }
                parsed.runs = Some(n);
            }
            "--warmup" => parsed.warmup = Some(count("--warmup", value("--warmup")?)?),
            "--fpga-flows" => parsed.fpga_flows = true,
            "--fpga" => parsed.fpga = Some(value("--fpga")?.into()),
            "--programs" => parsed.programs = value("--programs")?.into(),
            "--only" => match value("--only")?.as_str() {
                "parallel-decoding" => parsed.only = Some(Only::ParallelDecoding),
                "hardware-compression" => parsed.only = Some(Only::HardwareCompression),
                "long-runs" => parsed.only = Some(Only::LongRuns),
                "cosim" => parsed.only = Some(Only::Cosim),
                "speed" => parsed.only = Some(Only::Speed),
                "cores" => parsed.only = Some(Only::Cores),
                other => {
                    return Err(UsageError(
                        format!("unknown section '{other}'"),
                        "--only".into(),
                    ))
                }
            },
            "-h" | "--help" => return Ok(None),
            other => {
                return Err(UsageError(
                    format!("unknown option '{other}'"),
                    "etrace-bench".into(),
                ))
            }
        }
    }
    Ok(Some(parsed))
}

fn main() -> ExitCode {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().map(String::as_str) == Some(child_cost::RUNNER_FLAG) {
        return child_cost::runner(&all[1..]);
    }
    let args = match parse(all) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(UsageError(what, place)) => {
            eprintln!("error: {what} ({place})");
            return ExitCode::from(2);
        }
    };
    if args.fpga_flows {
        print!("{}", fpga::flows());
        return ExitCode::SUCCESS;
    }
    if !args.programs.join("manifest.toml").is_file() {
        eprintln!(
            "error: no manifest.toml in the programs folder ({})",
            args.programs.display()
        );
        return ExitCode::from(2);
    }
    let plan = Plan {
        warmup: args.warmup.unwrap_or(if args.quick { 0 } else { 1 }),
        runs: args.runs.unwrap_or(if args.quick { 1 } else { 5 }),
    };
    let parallel_size = if args.quick { 100_000 } else { 10_000_000 };
    if args.only == Some(Only::ParallelDecoding) {
        print!(
            "{}",
            parallel::section(&args.programs, "rv32", parallel_size, plan)
        );
        return ExitCode::SUCCESS;
    }
    if args.only == Some(Only::HardwareCompression) {
        let names = if args.quick {
            vec!["loops-rv32".to_string()]
        } else {
            vec!["workload-rv32".to_string(), "workload-rv64".to_string()]
        };
        println!("{}", hardware::section(&args.programs, &names));
        print!("{}", ntrace_hardware::section(&args.programs, &names));
        return ExitCode::SUCCESS;
    }
    let long_sizes: Vec<u64> = if args.quick {
        vec![1_000_000, 3_000_000]
    } else if args.long {
        vec![100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
    } else {
        vec![100_000, 1_000_000, 10_000_000]
    };
    let long_runs = || {
        long_runs::section(
            &args.programs,
            "rv32",
            &long_sizes,
            &PathBuf::from("target/bench/long-runs"),
        )
    };
    if args.only == Some(Only::LongRuns) {
        print!("{}", long_runs());
        return ExitCode::SUCCESS;
    }
    let (compressed, timed, sizes): (Vec<String>, Vec<String>, Vec<u64>) = if args.quick {
        (
            vec!["minimal".into(), "traps".into()],
            vec!["loops-rv32".into()],
            vec![1_000, 10_000, 100_000],
        )
    } else {
        let names = match programs::manifest_names(&args.programs) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        (
            names,
            vec!["workload-rv32".into(), "workload-rv64".into()],
            vec![100_000, 1_000_000, 10_000_000],
        )
    };
    if args.only == Some(Only::Cosim) {
        print!("{}", speed::cosim_section(&args.programs, &timed, plan));
        return ExitCode::SUCCESS;
    }
    // Dhrystone on each core; the shortest program in quick mode.
    let core_program = if args.quick { "tailcall" } else { "dhrystone" };
    if args.only == Some(Only::Cores) {
        print!("{}", cores::section(&args.programs, core_program, plan));
        return ExitCode::SUCCESS;
    }
    if args.only == Some(Only::Speed) {
        // The machine the figures come from, then the section.
        print!("{}", machine::header());
        print!("{}", speed::section(&args.programs, &timed, plan));
        return ExitCode::SUCCESS;
    }
    let targets: Vec<String> = compressed
        .iter()
        .flat_map(|n| [format!("{n}-rv32"), format!("{n}-rv64")])
        .collect();

    let mut out = String::new();
    out.push_str(&format!(
        "Output of `scripts/bench`{}:\n\n",
        if args.quick {
            " in `--quick` mode (tiny programs, no FPGA flows: a smoke test, not results)"
        } else {
            ""
        }
    ));
    out.push_str(&machine::header());
    out.push('\n');
    out.push_str(&compression::section(&args.programs, &targets));
    out.push('\n');
    out.push_str(&hardware::section(&args.programs, &timed));
    out.push('\n');
    out.push_str(&ntrace::section(&args.programs, &targets));
    out.push_str(&ntrace_hardware::section(&args.programs, &timed));
    out.push('\n');
    out.push_str(&ntrace::speed_section(&args.programs, &timed, plan));
    out.push('\n');
    out.push_str(&speed::section(&args.programs, &timed, plan));
    out.push('\n');
    out.push_str(&cores::section(&args.programs, core_program, plan));
    out.push('\n');
    let fpga_dir = args.fpga.as_deref();
    out.push_str(&fpga::section(fpga_dir.ok_or(if args.quick {
        "--quick"
    } else {
        "no --fpga directory given"
    })));
    out.push('\n');
    out.push_str(&speed::scaling_section(
        &args.programs,
        "rv32",
        &sizes,
        plan,
    ));
    out.push('\n');
    out.push_str(&long_runs());
    out.push('\n');
    out.push_str(&parallel::section(
        &args.programs,
        "rv32",
        parallel_size,
        plan,
    ));
    print!("{out}");
    ExitCode::SUCCESS
}
