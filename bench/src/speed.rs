//! Speed: the hart model, the software encoder, the decoder and the co-simulation, with
//! riscv-etrace's encoder and tracer beside ours; and how decoder and co-simulation time
//! grow with the length of the run.

use std::fmt::Write;
use std::path::Path;

use etrace_decoder::pcs::{steps, Step, StepWalker};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::EncoderOptions;
use etrace_hart::{CountingSink, Hart};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::isa::Xlen;
use etrace_spec::packet::TeInst;
use etrace_spec::params::Params;
use etrace_tb::cosim::{self, CosimConfig};
use etrace_tb::Variant;
use riscv_etrace::packet::payload::InstructionTrace;
use riscv_etrace::packet::unit::ReferenceIOptions;

use crate::glue::{their_params, their_payloads, their_trace_count, unpack_both};
use crate::harness::{measure, Plan, Timing};
use crate::programs::{our_payloads, Program, Run, SCALING};
use crate::table::{duration, short, si, sig3, Table};

/// A program's run with everything the timed parts start from, prepared untimed.
struct Prepared {
    program: Program,
    params: Params,
    run: Run,
    image: ProgramImage,
    /// Our encoder's packets, unpacked (the decoder's input).
    packets: Vec<TeInst>,
    /// The same payloads as riscv-etrace's payload decoder reads them (its tracer's input).
    theirs: Vec<InstructionTrace>,
}

impl Prepared {
    fn new(program: Program, run: Run) -> Result<Prepared, String> {
        let params = program.params();
        let payloads = our_payloads(&params, EncoderOptions::default(), &run.records)?;
        let (packets, theirs) = unpack_both(&payloads, &params)?;
        let image = ProgramImage::from_elf(&program.elf).map_err(|e| e.to_string())?;
        Ok(Prepared {
            program,
            params,
            run,
            image,
            packets,
            theirs,
        })
    }

    /// Our decoder: packets to trace elements; an error on a decode error.
    fn elements(&self) -> Result<Vec<TraceElement>, String> {
        let mut decoder = TeDecoder::new(&self.image, &self.params, DecoderConfig::default());
        for (i, packet) in self.packets.iter().enumerate() {
            decoder.process(packet, i as u64, None);
        }
        let elements = decoder.take_elements(true);
        check_decoded(&elements)?;
        Ok(elements)
    }

    /// Our decoder down to the executed instructions (per-PC steps); their number.
    fn pcs(&self) -> Result<usize, String> {
        steps(&self.elements()?, &self.image)
            .map(|s| s.len())
            .map_err(left_program)
    }

    /// Our decoder down to the executed instructions, streamed: the elements are taken
    /// from the decoder every [`STREAM_PACKETS`] packets and their instructions visited
    /// one by one, nothing stored (`pcs::StepWalker`); their number. What a consumer of a
    /// long trace runs: its memory does not grow with the trace.
    fn streamed_pcs(&self) -> Result<u64, String> {
        let mut decoder = TeDecoder::new(&self.image, &self.params, DecoderConfig::default());
        let mut walker = StepWalker::new();
        let mut checksum = 0u64;
        let mut n = 0u64;
        let mut visit = |step| {
            if let Step::Instruction { pc, .. } = step {
                checksum = checksum.rotate_left(1) ^ pc;
            }
        };
        for (i, packet) in self.packets.iter().enumerate() {
            decoder.process(packet, i as u64, None);
            if i % STREAM_PACKETS == STREAM_PACKETS - 1 {
                let piece = decoder.take_elements(false);
                check_decoded(&piece)?;
                n += walker
                    .walk(&piece, &self.image, &mut visit)
                    .map_err(left_program)?;
            }
        }
        let piece = decoder.take_elements(true);
        check_decoded(&piece)?;
        n += walker
            .walk(&piece, &self.image, &mut visit)
            .map_err(left_program)?;
        std::hint::black_box(checksum);
        Ok(n)
    }

    /// riscv-etrace's tracer; an error unless it reconstructs every retired instruction.
    fn their_pcs(&self) -> Result<u64, String> {
        let n = their_trace_count(&self.program.elf, &self.params, &self.theirs)?;
        if n == self.run.retired {
            Ok(n)
        } else {
            Err(format!(
                "reconstructs {n} of {} instructions",
                self.run.retired
            ))
        }
    }

    /// The co-simulation of the records on the matching RTL build (default options, no
    /// back-pressure); the clock cycles it took.
    fn cosim(&self) -> Result<u64, String> {
        let config = CosimConfig::new(self.variant());
        cosim::run(&config, self.run.records.iter().copied(), &mut |_, _| {})
            .map(|o| o.stats.cycles)
            .map_err(|e| e.to_string())
    }

    /// [`Prepared::cosim`] in one thread, one call into the RTL per cycle, on the traced
    /// build (`cosim::run_per_cycle`, the loop before issue 27's batches and untraced
    /// build).
    fn cosim_per_cycle(&self) -> Result<u64, String> {
        let config = CosimConfig::new(self.variant());
        cosim::run_per_cycle(&config, self.run.records.iter().copied())
            .map(|o| o.stats.cycles)
            .map_err(|e| e.to_string())
    }

    /// The RTL build of the program's XLEN.
    fn variant(&self) -> Variant {
        match self.program.xlen {
            Xlen::X32 => Variant::Rv32,
            Xlen::X64 => Variant::Rv64,
        }
    }
}

/// A measured rate, or why there is none.
type Rate = Result<f64, String>;

/// Packets between two takes of the decoder's elements in [`Prepared::streamed_pcs`].
const STREAM_PACKETS: usize = 1024;

/// The error of a decoded trace that reaches an address outside the program.
fn left_program(address: u64) -> String {
    format!("the decoded trace leaves the program at {address:#x}")
}

/// An error naming the first decode error among `elements`.
fn check_decoded(elements: &[TraceElement]) -> Result<(), String> {
    match elements
        .iter()
        .find(|e| matches!(e, TraceElement::DecodeError { .. }))
    {
        Some(e) => Err(format!("{e:?}")),
        None => Ok(()),
    }
}

fn rate_text(rate: &Rate, unit: &str) -> String {
    match rate {
        Ok(r) => format!("{}{unit}/s", si(*r)),
        Err(e) => format!("fails: {}", short(e)),
    }
}

/// `measure`, as instructions (`units`) per second.
fn rate<T>(plan: Plan, units: u64, f: impl FnMut() -> Result<T, String>) -> Rate {
    measure(plan, f).map(|t| t.rate(units))
}

/// One row of the speed table.
fn row(t: &mut Table, what: &str, program: &str, ours: Rate, unit: &str, theirs: Option<Rate>) {
    let ratio = match (&ours, &theirs) {
        (Ok(a), Some(Ok(b))) => format!("{:.2}", a / b),
        _ => "—".to_string(),
    };
    t.row(vec![
        what.to_string(),
        program.to_string(),
        rate_text(&ours, unit),
        theirs.map_or("— (no equivalent)".to_string(), |r| rate_text(&r, unit)),
        ratio,
    ]);
}

/// The speed table's header (ours beside riscv-etrace).
fn speed_table() -> Table {
    Table::new(&[
        "what",
        "program",
        "ours",
        "riscv-etrace",
        "ours / riscv-etrace",
    ])
}

/// The speed section on `names` (file stems below `programs/elf`).
pub fn section(programs: &Path, names: &[String], plan: Plan) -> String {
    let mut t = speed_table();
    for name in names {
        eprintln!("bench: speed: {name}");
        let prepared = Program::load(programs, name)
            .and_then(|p| p.run().map(|r| (p, r)))
            .and_then(|(p, r)| Prepared::new(p, r));
        let p = match prepared {
            Ok(p) => p,
            Err(e) => {
                row(&mut t, "(preparation)", name, Err(e), "", None);
                continue;
            }
        };
        let retired = p.run.retired;
        // Records consumed as they are produced (the streaming pipeline's case), with the
        // decoded-instruction cache and without it (every fetch decoded; issue 27's "Hart
        // model speed" measured beside its baseline in the same run)...
        let streamed = |cache: bool| {
            rate(plan, retired, || {
                let mut hart =
                    Hart::from_elf(&p.program.elf, p.program.config).map_err(|e| e.to_string())?;
                if !cache {
                    hart = hart.without_decode_cache();
                }
                let mut sink = CountingSink::default();
                hart.run(&mut sink).map_err(|e| e.to_string())?;
                Ok(sink)
            })
        };
        row(
            &mut t,
            "hart model (retired, records streamed to a counter)",
            name,
            streamed(true),
            " insn",
            None,
        );
        row(
            &mut t,
            "hart model without its decoded-instruction cache (every fetch decoded; counter)",
            name,
            streamed(false),
            " insn",
            None,
        );
        // ... and kept: a fresh Vec grows to 40 bytes per record (page faults included).
        let hart = rate(plan, retired, || {
            let mut hart =
                Hart::from_elf(&p.program.elf, p.program.config).map_err(|e| e.to_string())?;
            let mut records: Vec<IngressRecord> = Vec::new();
            hart.run(&mut records).map_err(|e| e.to_string())
        });
        row(
            &mut t,
            "hart model (retired, records kept in a Vec)",
            name,
            hart,
            " insn",
            None,
        );

        let ours = rate(plan, retired, || {
            our_payloads(&p.params, EncoderOptions::default(), &p.run.records)
        });
        let tp = their_params(&p.params);
        let theirs = rate(plan, retired, || {
            their_payloads(&p.run.records, &tp, ReferenceIOptions::default(), 256)
        });
        row(
            &mut t,
            "encoder (records -> payload bytes)",
            name,
            ours,
            " insn",
            Some(theirs),
        );

        let elements = rate(plan, retired, || p.elements());
        row(
            &mut t,
            "decoder, elements (packets -> trace elements)",
            name,
            elements,
            " insn",
            None,
        );
        let pcs = rate(plan, retired, || p.pcs());
        let theirs = rate(plan, retired, || p.their_pcs());
        row(
            &mut t,
            "decoder, per PC (packets -> instruction addresses)",
            name,
            pcs,
            " insn",
            Some(theirs),
        );

        cosim_rows(&mut t, &p, name, plan);
    }
    let mut s = String::new();
    let _ = writeln!(s, "### Speed\n");
    let _ = writeln!(
        s,
        "Default options, {}. The hart model runs the ELF into ingress records, consumed as \
         they come (a counter) or kept in a growing Vec, and once more without its \
         decoded-instruction cache (`Hart::without_decode_cache`: every fetch decodes the \
         instruction again; issue 27's target: 100 M \
         instructions/s with the cache); the encoder \
         turns the records into te_inst payload bytes (riscv-etrace: our records as its \
         generator's steps, its payloads serialised); the decoder starts from unpacked \
         packets (riscv-etrace: its tracer, which yields one item per instruction, on the \
         same payloads read by its payload decoder); the co-simulation runs the records \
         through the verilated `rv32` / `rv64` encoder and the model's cycle-accurate \
         encoder, comparing the output ports in every cycle (`etrace_tb::cosim::run`: the \
         model side in a second thread, batches of cycles per call into the RTL, which is \
         verilated without tracing; no back-pressure; the decode check of `etrace cosim` is \
         not timed); the per-cycle row is the same run as before issue 27: in one thread, \
         one call into the RTL per cycle, on the build verilated with `--trace` \
         (`etrace_tb::cosim::run_per_cycle`).\n",
        plan.describe()
    );
    s.push_str(&t.render());
    s
}

/// The co-simulation rows of `p` (program `name`): batched with the model thread, and per
/// cycle in one thread (the reference from before issue 27's batches).
fn cosim_rows(t: &mut Table, p: &Prepared, name: &str, plan: Plan) {
    let mut cycles = 0;
    let timing = measure(plan, || p.cosim().map(|c| cycles = c));
    let cosim = timing.map(|t| t.rate(cycles));
    row(
        t,
        "co-simulation (Verilator RTL + cycle model, every port compared)",
        name,
        cosim,
        " cycles",
        None,
    );
    let timing = measure(plan, || p.cosim_per_cycle().map(|c| cycles = c));
    row(
        t,
        "co-simulation, per-cycle FFI, single thread, traced build (the loop before issue 27)",
        name,
        timing.map(|t| t.rate(cycles)),
        " cycles",
        None,
    );
}

/// Only the co-simulation rows of the speed section on `names` (`etrace-bench --only
/// cosim`), with the machine's load average before and after (the machine may be shared).
pub fn cosim_section(programs: &Path, names: &[String], plan: Plan) -> String {
    let mut t = speed_table();
    let before = crate::machine::load_average();
    for name in names {
        eprintln!("bench: co-simulation: {name}");
        let prepared = Program::load(programs, name)
            .and_then(|p| p.run().map(|r| (p, r)))
            .and_then(|(p, r)| Prepared::new(p, r));
        match prepared {
            Ok(p) => cosim_rows(&mut t, &p, name, plan),
            Err(e) => row(&mut t, "(preparation)", name, Err(e), "", None),
        }
    }
    let after = crate::machine::load_average();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### Co-simulation speed\n\n{}; load average {before} before, {after} after.\n",
        plan.describe()
    );
    s.push_str(&t.render());
    s
}

/// The rows of one measurement at each size (time, time per instruction); its verdict.
fn growth(t: &mut Table, what: &str, sizes: &[u64], timings: &[Result<Timing, String>]) -> String {
    let mut points = Vec::new();
    for (&n, timing) in sizes.iter().zip(timings) {
        match timing {
            Ok(tm) => {
                points.push((n, tm.median()));
                t.row(vec![
                    what.to_string(),
                    n.to_string(),
                    duration(tm.median()),
                    format!("{} ns", sig3(tm.median() * 1e9 / n as f64)),
                ]);
            }
            Err(e) => t.row(vec![
                what.to_string(),
                n.to_string(),
                format!("fails: {}", short(e)),
                String::new(),
            ]),
        }
    }
    format!("- {what}: {}", verdict(&points))
}

/// The verdict on (instructions, seconds) points in increasing size: "linear within X %"
/// when the times per instruction lie within 25 % of each other; else, when the slopes
/// between successive points do, linear with a fixed cost; else "not linear: ...".
pub fn verdict(points: &[(u64, f64)]) -> String {
    if points.len() < 2 {
        return "not measured".to_string();
    }
    let spread = |v: &[f64]| {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        100.0 * (max / min - 1.0)
    };
    let per: Vec<f64> = points.iter().map(|&(n, s)| s * 1e9 / n as f64).collect();
    let slopes: Vec<f64> = points
        .windows(2)
        .map(|w| (w[1].1 - w[0].1) * 1e9 / (w[1].0 - w[0].0) as f64)
        .collect();
    let (first, last) = (per[0], per[per.len() - 1]);
    let slope = slopes[slopes.len() - 1];
    let slopes_text = slopes
        .iter()
        .map(|s| sig3(*s))
        .collect::<Vec<_>>()
        .join(", ");
    if spread(&per) <= 25.0 {
        // The spread is that of the lowest and highest time, so those are the range shown.
        let lowest = per.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = per.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!(
            "linear within {:.0} % (time per instruction {} to {} ns)",
            spread(&per),
            sig3(lowest),
            sig3(highest)
        )
    } else if slopes.iter().all(|&s| s > 0.0) && spread(&slopes) <= 25.0 {
        let fixed = points[0].1 - slope * 1e-9 * points[0].0 as f64;
        format!(
            "linear plus a fixed cost: {} ns per instruction (the slopes between the sizes \
             agree within {:.0} %) beyond about {} of start-up, which is why the time per \
             instruction falls from {} to {} ns",
            sig3(slope),
            spread(&slopes),
            duration(fixed.max(0.0)),
            sig3(first),
            sig3(last)
        )
    } else if last > first {
        format!(
            "not linear: the time per instruction grows with the size, {} to {} ns \
             (slopes {slopes_text} ns)",
            sig3(first),
            sig3(last),
        )
    } else {
        format!(
            "not linear: the time per instruction falls from {} to {} ns and the slopes \
             between the sizes differ ({slopes_text} ns)",
            sig3(first),
            sig3(last),
        )
    }
}

/// The scaling section: decoder and co-simulation time for runs of `sizes` instructions
/// of `scaling-<target>` (cut with the hart's instruction limit).
pub fn scaling_section(programs: &Path, target: &str, sizes: &[u64], plan: Plan) -> String {
    let name = format!("{SCALING}-{target}");
    let mut decoder = Vec::new();
    let mut cosim = Vec::new();
    for &n in sizes {
        eprintln!("bench: scaling: {name}, {n} instructions");
        // Enough rounds of about 1.7 million instructions each.
        let rounds = u32::try_from(n / 1_000_000 + 2).unwrap_or(u32::MAX);
        let prepared = Program::load(programs, &name)
            .and_then(|p| p.run_cut(rounds, n).map(|r| (p, r)))
            .and_then(|(p, r)| Prepared::new(p, r));
        match prepared {
            Ok(p) => {
                decoder.push(measure(plan, || p.streamed_pcs()));
                cosim.push(measure(plan, || p.cosim()));
            }
            Err(e) => {
                decoder.push(Err(e.clone()));
                cosim.push(Err(e));
            }
        }
    }
    let mut t = Table::new(&["what", "instructions", "time", "per instruction"]);
    let verdicts = [
        growth(
            &mut t,
            "decoder (packets -> instruction addresses, streamed)",
            sizes,
            &decoder,
        ),
        growth(&mut t, "co-simulation (RTL + cycle model)", sizes, &cosim),
    ];
    let mut s = String::new();
    let _ = writeln!(s, "### How cost grows\n");
    let _ = writeln!(
        s,
        "`programs/elf/{name}.elf` (the workload's parts, its round count set to run long \
         enough) cut at each size with the hart's instruction limit; default options, {}. \
         Linear growth means equal time per instruction at every size (within 25 %), or \
         equal slopes between the sizes where a fixed start-up cost weighs on the small \
         runs.\n",
        plan.describe()
    );
    s.push_str(&t.render());
    s.push('\n');
    for v in verdicts {
        let _ = writeln!(s, "{v}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::verdict;

    #[test]
    fn verdicts() {
        let at = |per_ns: [f64; 3]| {
            [100, 1000, 10_000]
                .into_iter()
                .zip(per_ns)
                .map(|(n, p)| (n, n as f64 * p * 1e-9))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            verdict(&at([10.0, 11.0, 10.5])),
            "linear within 10 % (time per instruction 10.0 to 11.0 ns)"
        );
        assert!(verdict(&at([10.0, 20.0, 40.0])).starts_with("not linear: the time per"));
        // 1 µs fixed plus 10 ns per instruction.
        let fixed: Vec<(u64, f64)> = [100u64, 1000, 10_000]
            .into_iter()
            .map(|n| (n, 1e-6 + n as f64 * 10e-9))
            .collect();
        let v = verdict(&fixed);
        assert!(v.starts_with("linear plus a fixed cost: 10.0 ns"), "{v}");
        assert!(verdict(&at([40.0, 5.0, 10.0]))
            .starts_with("not linear: the time per instruction falls"));
        assert_eq!(verdict(&[(1, 1.0)]), "not measured");
    }
}
