//! N-Trace hardware compression (issue 25): bits per retired instruction of the MSEO bytes
//! the N-Trace RTL itself sent (`etrace_tb::ntrace`, byte-exact with the cycle model in
//! every record step), beside the N-Trace model encoder's bytes for the same records and
//! options, and the clocks the RTL took per record.

use std::fmt::Write;
use std::path::Path;

use etrace_spec::isa::Xlen;
use etrace_tb::ntrace::{cosim, Offer};
use etrace_tb::NtraceVariant;

use crate::ntrace::ntrace_bytes;
use crate::programs::Program;
use crate::table::{sig3, Table};

/// The builds measured for programs of `xlen`: BTM, HTM, HTM with every optimisation.
fn builds(xlen: Xlen) -> [NtraceVariant; 3] {
    match xlen {
        Xlen::X32 => [
            NtraceVariant::Rv32Btm,
            NtraceVariant::Rv32Htm,
            NtraceVariant::Rv32HtmAll,
        ],
        Xlen::X64 => [
            NtraceVariant::Rv64Btm,
            NtraceVariant::Rv64Htm,
            NtraceVariant::Rv64HtmAll,
        ],
    }
}

/// The section: a row per program and build.
pub fn section(programs: &Path, names: &[String]) -> String {
    let mut t = Table::new(&[
        "program",
        "N-Trace RTL build",
        "RTL bits / insn",
        "model bits / insn",
        "RTL bytes = model's",
        "RTL clocks / record",
    ]);
    for name in names {
        eprintln!("bench: N-Trace hardware: {name}");
        let prepared = Program::load(programs, name).and_then(|p| p.run().map(|r| (p, r)));
        let (program, run) = match prepared {
            Ok(p) => p,
            Err(e) => {
                let mut cells = vec![name.clone(), "(preparation)".into(), e];
                cells.resize(6, String::new());
                t.row(cells);
                continue;
            }
        };
        let per_insn = |bytes: u64| sig3(8.0 * bytes as f64 / run.retired.max(1) as f64);
        for variant in builds(program.xlen) {
            let mut cells = vec![name.clone(), variant.name().to_string()];
            let model = ntrace_bytes(variant.model_options(), &run.records);
            match (cosim(variant, &run.records, Offer::EveryClock), model) {
                (Ok(report), Ok(model)) => cells.extend([
                    per_insn(report.bytes),
                    per_insn(model.len() as u64),
                    if report.stream == model {
                        "yes".to_string()
                    } else {
                        format!("NO ({} trace restarts)", report.restarts.len() - 1)
                    },
                    sig3(report.clocks as f64 / report.records.max(1) as f64),
                ]),
                (Err(e), _) => cells.extend([
                    format!("error: {e}"),
                    String::new(),
                    String::new(),
                    String::new(),
                ]),
                (_, Err(e)) => cells.extend([
                    String::new(),
                    format!("error: {e}"),
                    String::new(),
                    String::new(),
                ]),
            }
            t.row(cells);
        }
    }
    let mut out = String::from(
        "### N-Trace hardware compression (bits per instruction of the RTL's own bytes)\n\n",
    );
    out.push_str(&t.render());
    let _ = writeln!(
        out,
        "\nEach N-Trace build (`etrace cosim --protocol ntrace --variant ...`: a 256-byte FIFO \
         sending 4 bytes every record step; HTM-all is `--sijump --call-stack 4 \
         --repeat-history`) co-simulated on the program's records, byte-exact with the cycle \
         model (`NtraceCycleEncoder`) in every record step; its MSEO bytes compared with the \
         N-Trace model encoder's (`etrace encode --protocol ntrace`) for the same records and \
         options. The RTL takes one record at a time (`in_valid` / `in_ready`); the last \
         column is the clocks it needed per record."
    );
    out
}
