//! Parallel decoding (issue 27, item 2): the sequential decoder and the parallel one
//! (`etrace_decoder::parallel`, as `etrace decode --jobs N` runs it) on the encap-framed
//! trace of the scaling program's first 10^7 instructions, framed bytes to trace
//! elements, with the speed-up and the load average of the machine at the time.

use std::convert::Infallible;
use std::fmt::Write;
use std::path::Path;

use etrace_decoder::parallel::{decode_parallel, ParallelConfig, Setup};
use etrace_decoder::stream::{feed_payloads, Framing, PayloadStream};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::EncoderOptions;
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};

use crate::harness::{measure, Plan, Timing};
use crate::programs::{our_payloads, Program, SCALING};
use crate::table::{duration, si, sig3, Table};

/// Bytes per read of the trace (as `etrace decode` reads a file).
const CHUNK: usize = 1 << 16;

/// Encap synchronisation sequences every this many bytes (`etrace encode`'s default).
const SYNC_INTERVAL: usize = 4096;

/// What a decoding gave: elements, instructions (compared between the two decoders).
type Output = (u64, u64);

/// Pieces and pieces decoded again of a parallel decoding.
type Pieces = (u64, u64);

/// The sequential decoder over `bytes`, read in chunks.
fn sequential(setup: Setup<'_>, bytes: &[u8]) -> Result<Output, String> {
    let mut decoder = TeDecoder::new(setup.image, setup.params, setup.config);
    let mut stream = PayloadStream::new(setup.framing, true);
    let mut packets = 0;
    let mut elements = 0;
    for chunk in bytes.chunks(CHUNK) {
        packets = feed_payloads(&mut decoder, setup.params, packets, &stream.push(chunk));
        elements += checked(&decoder.take_elements(false))?;
    }
    feed_payloads(&mut decoder, setup.params, packets, &stream.finish());
    elements += checked(&decoder.take_elements(true))?;
    Ok((elements, decoder.instructions()))
}

/// The parallel decoder with `jobs` threads over `bytes`, read in chunks.
fn parallel(setup: Setup<'_>, jobs: usize, bytes: &[u8]) -> Result<(Output, Pieces), String> {
    let mut elements = 0;
    let mut error = None;
    let summary = decode_parallel::<Infallible>(
        setup,
        ParallelConfig::new(jobs),
        |push| {
            for chunk in bytes.chunks(CHUNK) {
                push(chunk)?;
            }
            Ok(())
        },
        |piece, _| {
            match checked(piece) {
                Ok(n) => elements += n,
                Err(e) => error = Some(e),
            }
            Ok(())
        },
    )
    .unwrap_or_else(|e| match e {});
    match error {
        Some(e) => Err(e),
        None => Ok((
            (elements, summary.instructions),
            (summary.pieces, summary.redecoded),
        )),
    }
}

/// The number of `elements`; an error naming the first decode error among them.
fn checked(elements: &[TraceElement]) -> Result<u64, String> {
    match elements.iter().find_map(TraceElement::decode_error) {
        Some(e) => Err(format!("decode error: {e}")),
        None => Ok(elements.len() as u64),
    }
}

/// The machine's load averages (1, 5, 15 minutes) as `/proc/loadavg` gives them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// CPU seconds (user and system) this process used so far, from `/proc/self/stat`
/// (`utime`, `stime`, in clock ticks of 1/100 s); `None` where it cannot be read.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// `f` measured by [`measure`], with the cores it kept busy on average (CPU time over
/// wall time, warm-up runs included).
fn measure_cores<T>(
    plan: Plan,
    f: impl FnMut() -> Result<T, String>,
) -> (Result<Timing, String>, String) {
    let (cpu, wall) = (cpu_seconds(), std::time::Instant::now());
    let timing = measure(plan, f);
    let cores = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => sig3((b - a) / wall.elapsed().as_secs_f64()),
        _ => "unknown".into(),
    };
    (timing, cores)
}

/// The trace of the first `n` instructions of `scaling-<target>`, encap-framed, and the
/// program's image and parameters.
fn trace(
    programs: &Path,
    target: &str,
    n: u64,
) -> Result<(Vec<u8>, ProgramImage, Program), String> {
    let program = Program::load(programs, &format!("{SCALING}-{target}"))?;
    let rounds = u32::try_from(n / 1_000_000 + 2).unwrap_or(u32::MAX);
    let run = program.run_cut(rounds, n)?;
    let payloads = our_payloads(&program.params(), EncoderOptions::default(), &run.records)?;
    drop(run);
    let mut writer = EncapWriter::new(EncapConfig::default(), SYNC_INTERVAL);
    for p in &payloads {
        writer.write(p, 0, None).map_err(|e| e.to_string())?;
    }
    let image = ProgramImage::from_elf(&program.elf).map_err(|e| e.to_string())?;
    Ok((writer.into_bytes(), image, program))
}

/// The parallel decoding section: sequential and parallel decode time of the first `n`
/// instructions of `scaling-<target>`, with `jobs` threads (the available cores).
pub fn section(programs: &Path, target: &str, n: u64, plan: Plan) -> String {
    let jobs = std::thread::available_parallelism().map_or(1, usize::from);
    eprintln!("bench: parallel decoding: {SCALING}-{target}, {n} instructions, {jobs} jobs");
    let mut s = String::new();
    let _ = writeln!(s, "### Parallel decoding\n");
    let (bytes, image, program) = match trace(programs, target, n) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(s, "not run: {e}\n");
            return s;
        }
    };
    let params = program.params();
    let framing = Framing::Encap(EncapConfig::default());
    let setup = Setup {
        image: &image,
        params: &params,
        config: DecoderConfig::default(),
        framing: &framing,
    };
    let load_before = load_average();
    let (seq, seq_cores) = measure_cores(plan, || sequential(setup, &bytes));
    let (par, par_cores) = measure_cores(plan, || parallel(setup, jobs, &bytes));
    let load_after = load_average();
    let same = match (sequential(setup, &bytes), parallel(setup, jobs, &bytes)) {
        (Ok(a), Ok((b, pieces))) if a == b => format!(
            "the same {} elements, {} instructions; {} pieces, {} of them decoded again",
            a.0, a.1, pieces.0, pieces.1
        ),
        (a, b) => format!("DIFFERENT outputs: sequential {a:?}, parallel {b:?}"),
    };
    let mut t = Table::new(&[
        "decoder",
        "threads",
        "time",
        "instructions/s",
        "speed-up",
        "cores busy",
    ]);
    let cell = |r: &Result<Timing, String>| match r {
        Ok(t) => (duration(t.median()), si(t.rate(n))),
        Err(e) => (format!("fails: {e}"), String::new()),
    };
    let speedup = match (&seq, &par) {
        (Ok(a), Ok(b)) => format!("{}x", sig3(a.median() / b.median())),
        _ => String::new(),
    };
    let (time, rate) = cell(&seq);
    t.row(vec![
        "sequential".into(),
        "1".into(),
        time,
        rate,
        "1x".into(),
        seq_cores,
    ]);
    let (time, rate) = cell(&par);
    t.row(vec![
        "parallel".into(),
        jobs.to_string(),
        time,
        rate,
        speedup,
        par_cores,
    ]);
    let _ = writeln!(
        s,
        "`programs/elf/{SCALING}-{target}.elf`, its first {n} instructions, default options, \
         encap-framed ({} bytes, read in {} KiB chunks), decoded to trace elements; {}. Load \
         average (1, 5, 15 min) before: {load_before}, after: {load_after} (a loaded machine \
         shares its cores among the busy sessions: `cores busy`, CPU time over wall time, \
         says how many the decoder got). Outputs: {same}.\n",
        bytes.len(),
        CHUNK / 1024,
        plan.describe()
    );
    s.push_str(&t.render());
    s
}
