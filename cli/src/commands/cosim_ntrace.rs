//! `etrace cosim --protocol ntrace`: the hart model's ingress records (or seeded random
//! records) drive a verilated N-Trace encoder (`etrace_tb::ntrace`) and the model's cycle
//! encoder `NtraceCycleEncoder`, one record step at a time; the bytes the RTL sends in
//! every step must equal the model's. It runs as the records come: memory does not grow
//! with the length of the run. `-o` writes the RTL's MSEO bytes.

use std::io::Write;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use etrace_hart::{Hart, HartConfig, HartRecords, RecordsTally};
use etrace_hdl::config::Config;
use etrace_spec::ingress::random::looping_records;
use etrace_spec::ingress::IngressRecord;
use etrace_tb::ntrace::{NtraceCosim, NtraceCosimReport, Offer};
use etrace_tb::NtraceVariant;

use super::cosim::CosimArgs;
use super::io::{outln, read_elf, PartFile};
use super::protocol_args::ModeArg;
use crate::error::{CliError, InputContext};

/// The verilated N-Trace build for `--variant`, or the one of `--config` (default: the
/// ELF's XLEN) with the N-Trace options given; a combination not built in is refused.
fn variant(args: &CosimArgs, xlen: Option<u32>) -> Result<NtraceVariant, CliError> {
    if let Some(name) = &args.variant {
        return NtraceVariant::from_str(&name.replace('-', "_")).at("--variant");
    }
    let config = match &args.config {
        Some(name) => Config::from_name(name).at("--config")?,
        None if xlen == Some(64) => Config::Rv64,
        None => Config::Rv32,
    };
    let (n, e) = (&args.ntrace, &args.encoder);
    let wanted = (
        config,
        n.ntrace_mode == ModeArg::Htm,
        n.call_stack,
        n.repeat_history,
        e.sijump,
        e.options()?.resync_max,
    );
    let built = |v: &&NtraceVariant| {
        let g = v.generator();
        let wide = v.fifo().every_cycles == 1 && !g.hist_fault;
        wide && (
            v.config(),
            g.htm,
            g.call_stack,
            g.repeat_history,
            g.sijump,
            g.sync_max,
        ) == wanted
    };
    NtraceVariant::ALL
        .iter()
        .find(built)
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = NtraceVariant::ALL.iter().map(|v| v.name()).collect();
            CliError::input(
                format!(
                    "no verilated N-Trace build of {} with these options (the builds: {}; see \
                 --variant)",
                    config.name(),
                    names.join(", ")
                ),
                "N-Trace options",
            )
        })
}

/// The options of the E-Trace cosim that the N-Trace one does not take.
fn refuse_etrace_options(args: &CosimArgs) -> Result<(), CliError> {
    let h = &args.hardware;
    let refused = [
        (args.core.is_some(), "--core"),
        (args.wave.is_some(), "--wave"),
        (args.stall_probability != 0.0, "--stall-probability"),
        (h.bpred_size != 0, "--bpred-size"),
        (h.return_stack_size != 0, "--return-stack-size"),
        (h.src_bits != 0, "--src-bits"),
        (h.timestamp, "--timestamp"),
    ];
    CliError::refuse_given(
        &refused,
        "not an option of the N-Trace co-simulation (its output has no back-pressure: \
         the FIFO's send rate is built in; use --idle-probability for a stalling hart)",
    )
}

/// Runs `records` through `cosim`, the RTL's bytes into `file` as they come; a failed
/// hart run (`tally`) is an error of `source`.
fn drive(
    mut cosim: NtraceCosim,
    records: impl Iterator<Item = IngressRecord>,
    file: &mut Option<PartFile>,
    tally: &RecordsTally,
    source: &str,
) -> Result<NtraceCosimReport, CliError> {
    for r in records {
        cosim.push(&r).map_err(|e| CliError::check(e, source))?;
        if let Some(f) = file.as_mut() {
            let bytes = cosim.take_bytes();
            f.write_all(&bytes).at(f.written().display())?;
        }
    }
    if let Some(e) = tally.error() {
        return Err(CliError::check(format!("hart model: {e}"), source));
    }
    let report = cosim.finish().map_err(|e| CliError::check(e, source))?;
    if let Some(f) = file.as_mut() {
        f.write_all(&report.stream).at(f.written().display())?;
    }
    Ok(report)
}

/// Runs `etrace cosim --protocol ntrace`.
pub fn run(args: &CosimArgs) -> Result<(), CliError> {
    refuse_etrace_options(args)?;
    let p = args.idle_probability;
    if !(0.0..1.0).contains(&p) {
        return Err(CliError::input(
            format!("probability {p} is not in [0, 1)"),
            "--idle-probability",
        ));
    }
    // Steps offered with gaps: a hart that stalls.
    let offer = if p > 0.0 {
        Offer::WithGaps {
            seed: args.seed,
            probability: p,
        }
    } else {
        Offer::EveryClock
    };
    let program = match &args.elf {
        Some(path) => {
            let name = path.display().to_string();
            let bytes = read_elf(path)?;
            let xlen = match Hart::from_elf(&bytes, HartConfig::default())
                .at(&name)?
                .xlen()
            {
                etrace_spec::isa::Xlen::X32 => 32,
                etrace_spec::isa::Xlen::X64 => 64,
            };
            Some((name, bytes, xlen))
        }
        None => None,
    };
    let variant = variant(args, program.as_ref().map(|p| p.2))?;
    if let Some((name, _, xlen)) = &program {
        if *xlen != variant.config().address_width() {
            return Err(CliError::input(
                format!(
                    "a {xlen}-bit program cannot run on the {} encoder",
                    variant.config().name()
                ),
                name,
            ));
        }
    }
    let mut file = match &args.output {
        Some(path) => Some(PartFile::create(path)?),
        None => None,
    };
    let start = Instant::now();
    let cosim = NtraceCosim::new(variant, offer);
    let tally = Arc::new(RecordsTally::default());
    let (source, records): (String, Box<dyn Iterator<Item = IngressRecord>>) = match &program {
        Some((name, bytes, _)) => {
            let config = args.hart.config(variant.config().itype())?;
            let records = HartRecords::spawn(Arc::new(bytes.clone()), config)
                .tallied(tally.clone())
                .map(|(r, _)| r);
            (name.clone(), Box::new(records))
        }
        None => {
            let n = args.random.unwrap_or(0);
            if n == 0 {
                return Err(CliError::input(
                    "a random stream of 0 records: nothing would be checked",
                    "--random",
                ));
            }
            let records = looping_records(args.seed, n as usize);
            (
                format!("random records, seed {}", args.seed),
                Box::new(records.into_iter()),
            )
        }
    };
    // A failed run drops `file`, which removes its `.part` file.
    let report = drive(cosim, records, &mut file, &tally, &source)?;
    let seconds = start.elapsed().as_secs_f64();
    outln!("cosim: {source} on N-Trace RTL {variant}")?;
    outln!("records: {}", report.records)?;
    outln!("clocks: {}", report.clocks)?;
    outln!(
        "clocks per record: {:.2}",
        report.clocks as f64 / report.records.max(1) as f64
    )?;
    outln!("wall time: {seconds:.3} s")?;
    outln!("bytes matched: {}", report.bytes)?;
    outln!(
        "trace (re)starts: {} (at records {:?})",
        report.restarts.len(),
        &report.restarts[..report.restarts.len().min(8)]
    )?;
    if let (Some(path), Some(f)) = (&args.output, file.take()) {
        f.finish()?;
        outln!("RTL output: {}", path.display())?;
        let elf = args
            .elf
            .as_ref()
            .map_or_else(|| "PROG.elf".to_string(), |e| e.display().to_string());
        outln!(
            "decode it with: etrace decode {} --elf {elf} --protocol ntrace",
            path.display()
        )?;
    }
    if report.bytes == 0 {
        return Err(CliError::check("nothing was checked: no byte", &source));
    }
    Ok(())
}
