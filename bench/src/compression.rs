//! Compression: bits per retired instruction of our encoder (te_inst payloads, and the
//! e-trace-encap stream), beside the payloads that riscv-etrace's generator makes from the
//! same ingress records with the same parameters.

use std::fmt::Write;
use std::path::Path;

use etrace_encoder::EncoderOptions;
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;
use riscv_etrace::packet::unit::ReferenceIOptions;

use crate::glue::{their_params, their_payloads};
use crate::programs::{our_payloads, Program};
use crate::table::{short, Table};

/// The sync interval of the encap stream in bytes (`etrace encode`'s default).
const SYNC_INTERVAL: usize = 4096;

/// Cell text of an option set riscv-etrace cannot encode.
const NOT_SUPPORTED: &str = "n/a (not supported by riscv-etrace)";

/// One encoder configuration: run-time options, and the parameters they need.
pub struct OptionSet {
    /// Column name, in `etrace`'s flag names.
    pub name: &'static str,
    /// Our run-time options.
    pub options: EncoderOptions,
    /// `sijump_p`.
    sijump_p: bool,
    /// `return_stack_size_p` (implicit return).
    return_stack: bool,
    /// `bpred_size_p` (branch prediction).
    bpred: bool,
    /// riscv-etrace's ioptions for the same set, if its generator has the feature.
    theirs: Option<ReferenceIOptions>,
}

impl OptionSet {
    /// The parameters of `program` with what this set needs.
    pub fn params(&self, program: &Program) -> Params {
        let mut p = program.params();
        if self.sijump_p {
            p.sijump_p = 1;
        }
        if self.return_stack {
            p.return_stack_size_p = 4;
        }
        if self.bpred {
            p.bpred_size_p = 6;
        }
        p
    }
}

/// The option sets measured: those riscv-etrace's generator supports (differential and
/// full addresses, resync on and off, sequentially inferable jumps), then ours alone.
pub fn option_sets() -> Vec<OptionSet> {
    let d = EncoderOptions::default();
    let theirs = ReferenceIOptions::default();
    let set = |name, options, theirs| OptionSet {
        name,
        options,
        sijump_p: false,
        return_stack: false,
        bpred: false,
        theirs,
    };
    vec![
        set("default", d, Some(theirs)),
        set(
            "--full-address",
            EncoderOptions {
                full_address: true,
                ..d
            },
            Some(ReferenceIOptions {
                full_address: true,
                ..theirs
            }),
        ),
        set(
            "--resync-max 0",
            EncoderOptions { resync_max: 0, ..d },
            Some(theirs),
        ),
        OptionSet {
            sijump_p: true,
            ..set(
                "--sijump",
                EncoderOptions { sijump: true, ..d },
                Some(theirs),
            )
        },
        OptionSet {
            return_stack: true,
            ..set(
                "--implicit-return",
                EncoderOptions {
                    implicit_return: true,
                    ..d
                },
                None,
            )
        },
        OptionSet {
            bpred: true,
            ..set(
                "--branch-prediction",
                EncoderOptions {
                    branch_prediction: true,
                    ..d
                },
                None,
            )
        },
        set(
            "--implicit-exception",
            EncoderOptions {
                implicit_exception: true,
                ..d
            },
            None,
        ),
    ]
}

/// What one program and option set measured.
struct Cell {
    /// Our payload and framed bytes, or our encoder's error.
    ours: Result<(u64, u64), String>,
    /// riscv-etrace's payload bytes, its error, or `None` for an unsupported set.
    theirs: Option<Result<u64, String>>,
}

/// One program's row.
struct Row {
    name: String,
    retired: u64,
    cells: Vec<Cell>,
}

fn measure(program: &Program, sets: &[OptionSet]) -> Result<Row, String> {
    let run = program.run()?;
    let cells = sets
        .iter()
        .map(|set| {
            let params = set.params(program);
            let ours = encap_sizes(&params, set.options, &run.records);
            let theirs = set.theirs.map(|ioptions| {
                let payloads = their_payloads(
                    &run.records,
                    &their_params(&params),
                    ioptions,
                    set.options.resync_max,
                )?;
                Ok(payloads.iter().map(|p| p.len() as u64).sum())
            });
            Cell { ours, theirs }
        })
        .collect();
    Ok(Row {
        name: program.name.clone(),
        retired: run.retired,
        cells,
    })
}

/// Our encoder over `records`: the te_inst payload bytes and the e-trace-encap stream
/// bytes (no srcID, no timestamp, a sync sequence every [`SYNC_INTERVAL`] bytes).
pub fn encap_sizes(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
) -> Result<(u64, u64), String> {
    let stream = encap_stream(params, options, records)?;
    Ok((stream.0, stream.1.len() as u64))
}

/// Our encoder's e-trace-encap stream of `records`, with the payload bytes in it.
pub fn encap_stream(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
) -> Result<(u64, Vec<u8>), String> {
    let payloads = our_payloads(params, options, records)?;
    let mut w = EncapWriter::new(EncapConfig::default(), SYNC_INTERVAL);
    for p in &payloads {
        w.write(p, 0, None).map_err(|e| e.to_string())?;
    }
    let payload: usize = payloads.iter().map(Vec::len).sum();
    Ok((payload as u64, w.into_bytes()))
}

/// Bits per instruction of `bytes` over `retired` instructions.
pub fn bits(bytes: u64, retired: u64) -> f64 {
    8.0 * bytes as f64 / retired.max(1) as f64
}

fn ours_text(cell: &Cell, retired: u64) -> String {
    match &cell.ours {
        Ok((payload, framed)) => format!(
            "{:.3} / {:.3}",
            bits(*payload, retired),
            bits(*framed, retired)
        ),
        Err(e) => format!("fails: {}", short(e)),
    }
}

fn theirs_text(cell: &Cell, retired: u64) -> String {
    match (&cell.theirs, &cell.ours) {
        (None, _) => NOT_SUPPORTED.to_string(),
        (Some(Err(e)), _) => format!("fails: {}", short(e)),
        (Some(Ok(theirs)), Ok((ours, _))) => format!(
            "{:.3} ({:.3})",
            bits(*theirs, retired),
            *ours as f64 / (*theirs).max(1) as f64
        ),
        (Some(Ok(theirs)), Err(_)) => format!("{:.3}", bits(*theirs, retired)),
    }
}

/// The sums over `rows` of option set `i` (an error if a program fails).
fn total(rows: &[Row], set: &OptionSet, i: usize) -> Cell {
    let failed = |_| "a program fails".to_string();
    let ours = rows
        .iter()
        .map(|r| r.cells[i].ours.clone())
        .try_fold((0, 0), |(p, f), c| c.map(|(a, b)| (p + a, f + b)))
        .map_err(failed);
    let theirs = set.theirs.map(|_| {
        rows.iter()
            .map(|r| match &r.cells[i].theirs {
                Some(Ok(n)) => Ok(*n),
                _ => Err(String::new()),
            })
            .sum::<Result<u64, String>>()
            .map_err(failed)
    });
    Cell { ours, theirs }
}

/// The compression section for `names` (file stems below `programs/elf`).
pub fn section(programs: &Path, names: &[String]) -> String {
    let sets = option_sets();
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    for name in names {
        eprintln!("bench: compression: {name}");
        match Program::load(programs, name).and_then(|p| measure(&p, &sets)) {
            Ok(row) => rows.push(row),
            Err(e) => failed.push(format!("{name}: fails: {}", short(&e))),
        }
    }
    let mut header = vec!["program".to_string(), "instructions".to_string()];
    header.extend(sets.iter().map(|s| format!("`{}`", s.name)));
    let mut ours = Table::new(&header);
    let mut theirs = Table::new(&header);
    // One row in each table: the label, the instructions, a cell per option set.
    let mut add = |label: &str, retired: u64, cells: &[Cell]| {
        let start = [label.to_string(), retired.to_string()];
        ours.row(
            start
                .iter()
                .cloned()
                .chain(cells.iter().map(|c| ours_text(c, retired)))
                .collect(),
        );
        theirs.row(
            start
                .into_iter()
                .chain(cells.iter().map(|c| theirs_text(c, retired)))
                .collect(),
        );
    };
    for row in &rows {
        add(&row.name, row.retired, &row.cells);
    }
    // Totals over the programs: the sums of bytes over the sum of instructions.
    let retired: u64 = rows.iter().map(|r| r.retired).sum();
    let totals: Vec<Cell> = sets
        .iter()
        .enumerate()
        .map(|(i, set)| total(&rows, set, i))
        .collect();
    add("**all**", retired, &totals);

    let mut s = String::new();
    let _ = writeln!(s, "### Compression\n");
    let _ = writeln!(
        s,
        "Each program runs on the hart model; its ingress records go through our encoder \
         (`rv32` / `rv64` parameters, plus `sijump_p = 1`, `return_stack_size_p = 4` or \
         `bpred_size_p = 6` where the option needs it). Bits per retired instruction of the \
         te_inst payloads / of the e-trace-encap stream (no srcID, no timestamp, a sync \
         sequence every {SYNC_INTERVAL} bytes):\n"
    );
    s.push_str(&ours.render());
    let _ = writeln!(
        s,
        "\nriscv-etrace 0.10's generator (`generator::Generator`, its encoder algorithm) on \
         the same records with the same parameters, its payloads serialised by its packet \
         encoder: payload bits per instruction, and in brackets ours / theirs (payload \
         bytes). Its generator has no resync counter: the benchmark gives it \
         `Event::ReSync` by counting its payloads as our encoder counts packets (256, none \
         with `--resync-max 0`). It has no implicit return, implicit exception or branch \
         prediction (format 0).\n"
    );
    s.push_str(&theirs.render());
    for f in failed {
        let _ = writeln!(s, "\n{f}");
    }
    s
}
