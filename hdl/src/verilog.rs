//! Verilog generation and checks for every block: rust-hdl's generator, one literal
//! rewrite, the flat pins of a top ([`flatten_ports`]), `yosys_validate`, and Verilator's
//! lint.
//!
//! rust-hdl 0.46 prints every integer literal of an `#[hdl_gen]` kernel as a 32-bit sized
//! constant (`32'h5`), which makes Verilator report a WIDTH warning wherever the literal
//! meets a narrower signal. [`generate`] rewrites exactly those literals as unsized
//! unsigned constants (`'d5`): the same value and signedness, sized by context as Verilog
//! does for unsized numbers, so the lint sees the widths the design really has.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use rust_hdl::prelude::*;

/// A check of generated Verilog that failed, with the tool's report.
#[derive(Debug, thiserror::Error)]
pub enum VerilogCheckError {
    /// The tool could not be run.
    #[error("cannot run {tool}: {source}")]
    Tool {
        /// The program.
        tool: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// Verilator reported warnings or errors.
    #[error("verilator --lint-only -Wall reported problems in `{top}`:\n{report}")]
    Lint {
        /// The top module.
        top: String,
        /// Verilator's messages.
        report: String,
    },
    /// `yosys_validate` failed.
    #[error("yosys validation of `{top}` failed: {report}")]
    Yosys {
        /// The top module.
        top: String,
        /// The failure.
        report: String,
    },
}

/// Rewrites rust-hdl's 32-bit sized literals (`32'h1f`) as unsized unsigned ones (`'d31`),
/// its 64-bit offsets of packed struct fields (`x[(64'h3)+:(1)]`) as `x[('d3)+:(1)]`, and
/// its zero literals of other widths (`64'h0`, the reset value it gives an enum register)
/// as `'d0`: a zero fits any width, so no width warning is left.
pub fn unsize_literals(verilog: &str) -> String {
    const MARK: &str = "'h";
    let mut out = String::with_capacity(verilog.len());
    let mut rest = verilog;
    while let Some(at) = rest.find(MARK) {
        let before = &rest[..at];
        let width_len = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let prefix = &before[..before.len() - width_len];
        let width = &before[prefix.len()..];
        // Only a literal standing on its own, not the tail of a name like `x132'h`.
        let glued = prefix
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        let after = &rest[at + MARK.len()..];
        let digits = after
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(after.len());
        out.push_str(prefix);
        // The offset of a packed struct's field (`x[(64'h3)+:(1)]`) is printed 64 bits wide.
        let offset = prefix.ends_with("[(") && width == "64";
        match u64::from_str_radix(&after[..digits], 16) {
            Ok(value)
                if !glued
                    && digits > 0
                    && (width == "32" || offset || (value == 0 && !width.is_empty())) =>
            {
                out.push_str(&format!("'d{value}"));
            }
            _ => {
                out.push_str(width);
                out.push_str(MARK);
                out.push_str(&after[..digits]);
            }
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// The Verilog of `uut` (top module `top`) with the literal rewrite of [`unsize_literals`]
/// and the encoder's LUT boundaries marked ([`crate::lut_boundary::mark`]).
pub fn generate<U: Block>(uut: &U) -> String {
    crate::lut_boundary::mark(&unsize_literals(&generate_verilog(uut)))
}

/// The Verilog of `uut` renamed so that its top module is `name` (for files that hold one
/// configuration's encoder among others).
pub fn generate_named<U: Block>(uut: &U, name: &str) -> String {
    rename_top(&generate(uut), name)
}

/// Renames module `top` and its sub-modules `top$...` to `name` / `name$...`.
pub fn rename_top(verilog: &str, name: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    for line in verilog.split_inclusive('\n') {
        out.push_str(&rename_line(line, name));
    }
    out
}

fn rename_line(line: &str, name: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("top") {
        let before = &rest[..at];
        let after = &rest[at + 3..];
        let starts_word = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'));
        let ends_word = after
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        out.push_str(before);
        out.push_str(if starts_word && ends_word {
            name
        } else {
            "top"
        });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// One port of a generated top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// The port name (a bundle's signal: the signal's own name, [`flatten_ports`]).
    pub name: String,
    /// Width in bits.
    pub width: usize,
    /// An input (else an output).
    pub input: bool,
}

/// Collects the ports of the top block: the atoms of depth 1 that are module arguments,
/// with the names of the bundles they are in.
#[derive(Default)]
struct TopPorts {
    depth: usize,
    bundles: Vec<String>,
    ports: Vec<(String, Port)>,
}

impl Probe for TopPorts {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.bundles.push(name.to_string());
        }
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let kind = signal.kind();
        if self.depth == 1 && kind.is_parameter() {
            let full = self
                .bundles
                .iter()
                .map(String::as_str)
                .chain([name])
                .collect::<Vec<_>>()
                .join("$");
            let port = Port {
                name: name.to_string(),
                width: signal.bits(),
                input: kind == AtomKind::InputParameter,
            };
            self.ports.push((full, port));
        }
    }

    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.bundles.pop();
        }
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
}

/// The ports of `uut`'s module in declaration order, each with its name in rust-hdl's
/// Verilog (`bundle$signal` for a signal of a bundle, `bundle$inner$signal` for a bundle in
/// a bundle) and as a [`Port`] named after the signal alone.
pub fn top_ports<U: Block>(uut: &U) -> Vec<(String, Port)> {
    let mut probe = TopPorts::default();
    uut.accept("top", &mut probe);
    probe.ports
}

/// Renames the ports of module `top` in `verilog` from their rust-hdl names to their
/// [`Port`] names ([`top_ports`]): the pins of a top are flat, named as their signals, as
/// tools and users expect. Only module `top` changes (a sub-module's port of the same
/// name, after a `.` in an instance, stays).
///
/// # Panics
///
/// If two ports would get the same name, or a port's name is taken by another signal of
/// the module: a design error of the top, not an input.
pub fn flatten_ports(verilog: &str, top: &str, ports: &[(String, Port)]) -> String {
    let renames: std::collections::HashMap<&str, &str> = ports
        .iter()
        .filter(|(full, port)| *full != port.name)
        .map(|(full, port)| (full.as_str(), port.name.as_str()))
        .collect();
    let header = format!("\nmodule {top}(");
    let footer = format!("endmodule // {top}\n");
    let (Some(start), Some(end)) = (verilog.find(&header), verilog.find(&footer)) else {
        return verilog.to_string();
    };
    let module = &verilog[start..end];
    let mut names: Vec<&str> = ports.iter().map(|(_, p)| p.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        ports.len(),
        "two pins of {top} have the same name"
    );
    let mut out = String::with_capacity(verilog.len());
    out.push_str(&verilog[..start]);
    let mut rest = module;
    while let Some(at) = rest.find(is_identifier_char) {
        let (before, from) = rest.split_at(at);
        let len = from.find(|c| !is_identifier_char(c)).unwrap_or(from.len());
        let (word, tail) = from.split_at(len);
        // A sub-module's port in an instance (`.name(signal)`) keeps its name.
        let dot = before.ends_with('.');
        out.push_str(before);
        match renames.get(word) {
            Some(flat) if !dot => out.push_str(flat),
            _ => {
                assert!(
                    dot || renames.contains_key(word) || !renames.values().any(|f| *f == word),
                    "pin `{word}` of {top} is also the name of another signal"
                );
                out.push_str(word);
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    out.push_str(&verilog[end..]);
    out
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Runs rust-hdl's `yosys_validate` (read, hierarchy check, `proc`; fails on latches,
/// implicit declarations, undriven wires) on `verilog` whose top module is `top`.
pub fn yosys_check(name: &str, verilog: &str) -> Result<(), VerilogCheckError> {
    yosys_validate(name, verilog).map_err(|e| VerilogCheckError::Yosys {
        top: name.to_string(),
        report: format!("{e:?}"),
    })
}

/// Runs yosys on `verilog` whose top module is `top`: read, `hierarchy -check`, `proc`;
/// fails on an inferred latch, an implicitly declared or undriven wire, or a missing
/// module (the checks of rust-hdl's `yosys_validate`, for any top module name).
pub fn yosys_check_top(top: &str, verilog: &str) -> Result<(), VerilogCheckError> {
    let dir = scratch_dir("etrace-yosys", top);
    let tool_error = |source| VerilogCheckError::Tool {
        tool: "yosys",
        source,
    };
    std::fs::create_dir_all(&dir).map_err(tool_error)?;
    let file = dir.join(format!("{top}.v"));
    std::fs::write(&file, verilog).map_err(tool_error)?;
    let output = Command::new("yosys")
        .arg("-p")
        .arg(format!(
            "read_verilog {}; hierarchy -check -top {top}; proc; check -assert",
            file.display()
        ))
        .output()
        .map_err(tool_error);
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let problems: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| {
            l.contains("Latch inferred")
                || l.contains("implicitly declared")
                || l.contains("has no driver")
                || l.starts_with("ERROR")
        })
        .collect();
    if output.status.success() && problems.is_empty() {
        Ok(())
    } else {
        Err(VerilogCheckError::Yosys {
            top: top.to_string(),
            report: problems.join("\n"),
        })
    }
}

/// Marks `signals` of `verilog` as read on purpose nowhere (a sub-block's output its
/// parent does not need, such as the replay's `cause` in the N-Trace board top): after
/// each one's wire declaration a `_unused_ok_<n>` wire reads it, which Verilator's lint
/// ignores (its default `--unused-regexp` is `*unused*`) and synthesis removes.
pub fn waive_unused(verilog: &str, signals: &[&str]) -> String {
    let mut out = String::with_capacity(verilog.len());
    let mut n = 0;
    for line in verilog.lines() {
        out.push_str(line);
        out.push('\n');
        let t = line.trim();
        let declared = t
            .strip_prefix("wire")
            .and_then(|rest| rest.strip_suffix(';'))
            .and_then(|rest| rest.split_whitespace().last());
        if let Some(name) = declared.filter(|name| signals.contains(name)) {
            out.push_str(&format!(
                "    wire _unused_ok_{n} = &{{1'b0, {name}, 1'b0}};\n"
            ));
            n += 1;
        }
    }
    out
}

/// Verilator's lint waivers of `scripts/check-verilog.sh` (see there why): DECLFILENAME
/// (one file holds a top and its sub-modules). UNOPTFLAT is not waived: a loop between
/// always blocks slows the co-simulation (Verilator evaluates it until it settles).
pub const CHECK_WAIVERS: [&str; 1] = ["-Wno-DECLFILENAME"];

/// Runs `verilator --lint-only -Wall` on `verilog` (top module `top`, as rust-hdl names
/// it) with the waivers of `scripts/check-verilog.sh` ([`CHECK_WAIVERS`]: only
/// DECLFILENAME, module names are chosen by configuration, not by file name).
pub fn lint(name: &str, verilog: &str) -> Result<(), VerilogCheckError> {
    lint_text(name, verilog, "top", &CHECK_WAIVERS)
}

/// Lints a generated design whose top module is `top` with the waivers of
/// `scripts/check-verilog.sh` ([`CHECK_WAIVERS`]).
pub fn lint_top(top: &str, verilog: &str) -> Result<(), VerilogCheckError> {
    lint_text(top, verilog, top, &CHECK_WAIVERS)
}

fn lint_text(
    name: &str,
    verilog: &str,
    top: &str,
    waivers: &[&str],
) -> Result<(), VerilogCheckError> {
    let dir = scratch_dir("etrace-lint", name);
    let tool_error = |source| VerilogCheckError::Tool {
        tool: "verilator",
        source,
    };
    std::fs::create_dir_all(&dir).map_err(tool_error)?;
    let file = dir.join(format!("{name}.v"));
    let write = std::fs::File::create(&file).and_then(|mut f| f.write_all(verilog.as_bytes()));
    write.map_err(tool_error)?;
    let result = lint_file(&file, top, waivers);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Runs `verilator --lint-only -Wall WAIVERS --top-module TOP FILE`.
pub fn lint_file(file: &Path, top: &str, waivers: &[&str]) -> Result<(), VerilogCheckError> {
    let output = Command::new("verilator")
        .args(["--lint-only", "-Wall"])
        .args(waivers)
        .args(["--top-module", top])
        .arg(file)
        .output()
        .map_err(|source| VerilogCheckError::Tool {
            tool: "verilator",
            source,
        })?;
    let report = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() && !report.contains("%Warning") {
        Ok(())
    } else {
        Err(VerilogCheckError::Lint {
            top: top.to_string(),
            report,
        })
    }
}

/// A temporary folder of its own for one check of `top` (process id and a counter: checks
/// of the same top in parallel threads do not share it).
fn scratch_dir(kind: &str, top: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("{kind}-{}-{n}-{top}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_become_unsized_unsigned() {
        let v = "a = b + 32'h1f; c = d[32'h7]; e = 64'h32; f = x132'h5; q = 64'h0; g = 8'h00; \
                 k[(64'h12)+:(1)] = 1;";
        assert_eq!(
            unsize_literals(v),
            "a = b + 'd31; c = d['d7]; e = 64'h32; f = x132'h5; q = 'd0; g = 'd0; \
             k[('d18)+:(1)] = 1;"
        );
    }

    #[test]
    fn top_is_renamed_with_its_submodules() {
        let v = "module top(a);\n top$count count(.d(top_d));\nendmodule // top$count\n";
        assert_eq!(
            rename_top(v, "enc"),
            "module enc(a);\n enc$count count(.d(top_d));\nendmodule // enc$count\n"
        );
    }

    #[test]
    fn waived_signals_are_read_by_an_unused_wire() {
        let v = "module t(a);\n    wire  r$present;\n    wire  r$kept;\n    reg  q;\nendmodule\n";
        assert_eq!(
            waive_unused(v, &["r$present", "q"]),
            "module t(a);\n    wire  r$present;\n    wire _unused_ok_0 = &{1'b0, r$present, 1'b0};\n    \
             wire  r$kept;\n    reg  q;\nendmodule\n"
        );
    }
}
