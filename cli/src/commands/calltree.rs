//! `etrace calltree`: framed te_inst packets + the program's ELF file(s) -> the trace
//! decoder of `decoder.adoc` -> the function-call hierarchy of `seeds/004`: the indented
//! `<FunctionCall N: name(0xaddr)>` / `<Return: name>` listing, a per-function table of
//! inclusive and exclusive instruction counts, and on request folded stacks and an SVG
//! flame graph.
//!
//! The trace is read in pieces and each piece's elements go into the tree as they are
//! decoded; the elements are not kept. The tree has a node per function activation.
//!
//! Exit codes: 0; 1 when the trace had decode errors (the tree is still printed, with gaps
//! where they were); 2 for bad input or usage. With `--protocol ntrace` the trace is
//! decoded by the N-Trace decoder into the same elements.

use super::io::{check_distinct, create_output, given_paths, read_elf};
use super::trace_args::TraceArgs;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::calltree::{folded_lines, write_flamegraph, CallTreeBuilder, SymbolTable};
use etrace_decoder::{DecodeError, DecoderConfig, TraceElement};
use std::io::Write;
use std::path::PathBuf;

/// Decode errors listed with the error of a trace that had some.
const LISTED_ERRORS: usize = 20;

/// Arguments of `etrace calltree`.
#[derive(Args)]
pub struct CalltreeArgs {
    /// The trace and its programs (with their symbols).
    #[command(flatten)]
    pub trace: TraceArgs,
    /// Write folded stacks (`outer;inner count`, instruction counts) to this file.
    #[arg(long, value_name = "OUT")]
    pub folded: Option<PathBuf>,
    /// Write an SVG flame graph to this file.
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
    /// Leave out calls nested deeper than D (listing and folded stacks).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<usize>,
    /// Print only the first N lines of the call listing.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

/// Runs `etrace calltree`.
pub fn run(args: CalltreeArgs) -> Result<(), CliError> {
    if args.max_depth == Some(0) {
        return Err(CliError::input(
            "--max-depth must be at least 1",
            "--max-depth",
        ));
    }
    let outputs = given_paths(&[("--folded", &args.folded), ("--svg", &args.svg)]);
    check_distinct(&outputs, &args.trace.inputs())?;
    let (image, params) = args.trace.programs()?;
    let mut symbols = SymbolTable::new();
    for elf in &args.trace.elf {
        let bytes = read_elf(elf)?;
        symbols.add_elf(&bytes).at(elf.display())?;
    }
    let mut decoder = args
        .trace
        .decoder(&image, &params, DecoderConfig::default());
    // The elements of each piece go into the tree as they come; decode errors are counted
    // and the first few kept.
    let mut builder = CallTreeBuilder::new(&image, &symbols);
    let mut errors: Vec<DecodeError> = Vec::new();
    let mut error_count = 0u64;
    let place = args.trace.input.display().to_string();
    args.trace.decode(&mut decoder, |piece, _| {
        for e in piece.iter().filter_map(TraceElement::decode_error) {
            error_count += 1;
            if errors.len() < LISTED_ERRORS {
                errors.push(e.clone());
            }
        }
        builder.elements(piece).at(&place)
    })?;
    if decoder.packets == 0 {
        return Err(CliError::input(
            format!("no {} in the trace", decoder.units()),
            args.trace.place(),
        ));
    }
    let tree = builder.finish();

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io = |r: std::io::Result<()>| r.at("standard output");
    io(tree
        .write_listing(&mut out, args.max_depth, args.limit)
        .map(|_| ()))?;
    io(writeln!(out))?;
    io(writeln!(
        out,
        "{:>12} {:>7} {:>12} {:>7} {:>8}  function",
        "exclusive", "%", "inclusive", "%", "calls"
    ))?;
    let total = tree.total().max(1) as f64;
    for s in tree.function_stats() {
        io(writeln!(
            out,
            "{:>12} {:>6.2}% {:>12} {:>6.2}% {:>8}  {} ({:#x})",
            s.exclusive,
            100.0 * s.exclusive as f64 / total,
            s.inclusive,
            100.0 * s.inclusive as f64 / total,
            s.calls,
            s.name,
            s.address
        ))?;
    }
    io(writeln!(out, "{:>12} instructions in total", tree.total()))?;
    io(out.flush())?;

    // Folded stacks only when asked for: their lines are as long as the stacks are deep.
    let lines = if args.folded.is_some() || args.svg.is_some() {
        folded_lines(&tree, args.max_depth)
    } else {
        Vec::new()
    };
    if let Some(path) = &args.folded {
        let mut f = create_output(path)?;
        for l in &lines {
            writeln!(f, "{l}").at(path.display())?;
        }
        f.finish()?;
    }
    if let Some(path) = &args.svg {
        let title = args
            .trace
            .elf
            .first()
            .and_then(|p| p.file_name())
            .map_or("call tree".to_string(), |n| {
                n.to_string_lossy().into_owned()
            });
        let mut f = create_output(path)?;
        write_flamegraph(&lines, &title, &mut f).at(path.display())?;
        f.finish()?;
    }

    if error_count == 0 {
        return Ok(());
    }
    let mut err = CliError::check(
        format!("{error_count} decode errors (gaps in the call tree)"),
        args.trace.input.display(),
    );
    for e in &errors {
        err = err.with_context(e);
    }
    Err(err)
}
