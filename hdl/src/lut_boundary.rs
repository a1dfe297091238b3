//! LUT boundaries (`hdl/DESIGN.md`, "LUT boundaries and `top_hit` alone"): nets of the
//! packet logic that synthesis keeps as nets of their own, so that the technology mapper
//! cannot merge the logic before them into the logic after them.
//!
//! ABC maps the decision for area: it shares terms across the chart's outcomes and builds
//! the payload's sign extension from another payload bit, and so puts more LUT levels
//! between flip-flops than the logic as written needs. A `(* keep *)` net ends a LUT, and
//! what follows it starts from that LUT's output. rust-hdl has no attributes, so the
//! generated Verilog is marked here, by module and net name; each block names its own
//! boundaries beside its logic.
//!
//! They are measured where the decision limits Fmax: in an encoder built with a branch
//! predictor (`bpred_size_p` above 0), such as the all-options build. Without one (the
//! default builds, the return stack alone) the same boundaries measured slower on the
//! UP5K, so such an encoder keeps its Verilog unmarked.

use crate::logic::decision;
use crate::logic::return_stack;
use crate::packer;

/// The boundaries of one block.
struct Boundaries {
    /// The end of the block's module name: its instance path (`$core$packer0`).
    module: &'static str,
    /// Also only where the module's localparam `available` is 1: a block built without
    /// its function (a return stack of size 0) keeps no dead logic alive.
    only_available: bool,
    /// The nets (`reg` declarations of the module, outputs included).
    nets: &'static [&'static str],
}

/// The module whose `available` says that the encoder has a predictor (its branch count).
const PREDICTOR: &str = "$packet_logic$branch_count";

/// A module's localparam that says its block is built.
const AVAILABLE: &str = "localparam  available = 1'b1;";

const BLOCKS: [Boundaries; 4] = [
    Boundaries {
        module: "$packet_logic$decision",
        only_available: false,
        nets: decision::LUT_BOUNDARIES,
    },
    Boundaries {
        module: "$packet_logic$return_stack",
        only_available: true,
        nets: return_stack::LUT_BOUNDARIES,
    },
    Boundaries {
        module: "$core$packer0",
        only_available: false,
        nets: packer::LUT_BOUNDARIES,
    },
    Boundaries {
        module: "$core$packer1",
        only_available: false,
        nets: packer::LUT_BOUNDARIES,
    },
];

/// The attribute written before a boundary's declaration.
pub const KEEP: &str = "(* keep *) ";

/// `verilog` with every LUT boundary's declaration marked `(* keep *)`. Modules and nets
/// that are not there are left alone (a top without an encoder core).
pub fn mark(verilog: &str) -> String {
    let with_predictor = pieces(verilog)
        .any(|piece| module_name(piece).ends_with(PREDICTOR) && piece.contains(AVAILABLE));
    if !with_predictor {
        return verilog.to_string();
    }
    pieces(verilog).map(mark_module).collect()
}

/// `verilog` cut at its module boundaries: each module's text (a line from `module` to a
/// line from `endmodule`), and the text between them, in order.
fn pieces(verilog: &str) -> impl Iterator<Item = &str> {
    let mut rest = verilog;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = if rest.starts_with("module ") {
            rest.find("\nendmodule").map_or(rest.len(), |at| {
                let after = at + 1;
                after
                    + rest[after..]
                        .find('\n')
                        .map_or(rest.len() - after, |n| n + 1)
            })
        } else {
            rest.find("\nmodule ").map_or(rest.len(), |at| at + 1)
        };
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

/// The name of the module whose text starts at `text` ("" for text that is no module).
fn module_name(text: &str) -> &str {
    text.strip_prefix("module ")
        .and_then(|rest| rest.split(|c: char| c == '(' || c.is_whitespace()).next())
        .unwrap_or("")
}

/// One piece of the Verilog ([`pieces`]), marked if it is the module of a block with
/// boundaries (in an encoder with a predictor).
fn mark_module(text: &str) -> String {
    let name = module_name(text);
    let Some(block) = BLOCKS
        .iter()
        .find(|b| !name.is_empty() && name.ends_with(b.module))
    else {
        return text.to_string();
    };
    if block.only_available && !text.contains(AVAILABLE) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.split_inclusive('\n') {
        if declared_net(line).is_some_and(|net| block.nets.contains(&net)) {
            let indent = line.len() - line.trim_start().len();
            out.push_str(&line[..indent]);
            out.push_str(KEEP);
            out.push_str(&line[indent..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The net a `reg` declaration line declares (`reg  [3:0] name;`, `output reg  name;`).
fn declared_net(line: &str) -> Option<&str> {
    let declaration = line.trim();
    let declaration = declaration
        .strip_prefix("output ")
        .unwrap_or(declaration)
        .strip_prefix("reg ")?
        .trim_start();
    let declaration = match declaration.strip_prefix('[') {
        Some(range) => range.split_once(']')?.1.trim_start(),
        None => declaration,
    };
    declaration.strip_suffix(';')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::top::{generate, OutputKind, TopOptions};

    fn encoder(bpred_size: u8, return_stack_size: u8) -> String {
        let options = TopOptions {
            src_bits: 0,
            timestamp: false,
            fifo_depth: 64,
            output: OutputKind::Bytes,
            bpred_size,
            return_stack_size,
            inject_fault: None,
        };
        generate(Config::Rv32, &options).unwrap().verilog
    }

    /// The marked declarations of the module whose name ends with `module`.
    fn marked(verilog: &str, module: &str) -> Vec<String> {
        let start = verilog
            .find(&format!("{module}("))
            .unwrap_or_else(|| panic!("no module {module}"));
        let end = start + verilog[start..].find("\nendmodule").unwrap();
        verilog[start..end]
            .lines()
            .filter_map(|line| line.trim().strip_prefix(KEEP))
            .filter_map(declared_net)
            .map(str::to_string)
            .collect()
    }

    /// Every boundary a block names is a net of its module (a renamed signal would
    /// silently drop its boundary), and only those are marked.
    #[test]
    fn every_boundary_marks_its_net() {
        let verilog = encoder(6, 2);
        for block in &BLOCKS {
            let mut found = marked(&verilog, block.module);
            found.sort();
            let mut named: Vec<String> = block.nets.iter().map(|n| n.to_string()).collect();
            named.sort();
            assert_eq!(found, named, "{}", block.module);
        }
        assert_eq!(
            verilog.matches(KEEP).count(),
            BLOCKS.iter().map(|b| b.nets.len()).sum::<usize>()
        );
    }

    /// Only an encoder with a predictor is marked; without a return stack its compares
    /// are not kept (they would be dead logic).
    #[test]
    fn boundaries_follow_the_predictor() {
        let predictor_only = encoder(6, 0);
        assert!(marked(&predictor_only, "$packet_logic$return_stack").is_empty());
        assert_eq!(
            marked(&predictor_only, "$packet_logic$decision").len(),
            decision::LUT_BOUNDARIES.len()
        );
        assert_eq!(
            marked(&predictor_only, "$core$packer0"),
            vec![packer::LUT_BOUNDARIES[0].to_string()]
        );
        assert!(!encoder(0, 2).contains(KEEP));
        assert!(!encoder(0, 0).contains(KEEP));
    }

    /// The pieces are the whole text, every module one piece of its own.
    #[test]
    fn pieces_cut_at_module_boundaries() {
        let verilog = encoder(6, 2);
        assert_eq!(pieces(&verilog).collect::<String>(), verilog);
        let modules = pieces(&verilog)
            .filter(|p| p.starts_with("module "))
            .count();
        assert_eq!(modules, verilog.matches("\nendmodule").count());
        assert!(pieces(&verilog)
            .filter(|p| p.starts_with("module "))
            .all(|p| p
                .trim_end()
                .lines()
                .last()
                .unwrap()
                .starts_with("endmodule")));
    }

    #[test]
    fn declarations_are_read_with_and_without_a_range() {
        assert_eq!(declared_net("    reg  due;\n"), Some("due"));
        assert_eq!(declared_net("    reg  [15:0] l_sync;\n"), Some("l_sync"));
        assert_eq!(declared_net("    output reg  none;\n"), Some("none"));
        assert_eq!(declared_net("    reg  fill$sign;\n"), Some("fill$sign"));
        assert_eq!(declared_net("    input wire  keys;\n"), None);
        assert_eq!(declared_net("    always @(*) begin\n"), None);
    }
}
