//! The call tree: one node per function activation, with instruction counts, and its
//! listing in the style of `seeds/004` (`<FunctionCall N: name(0xaddr)>` when a function
//! is entered, `N` the index of its first instruction, `<Return: name>` when it returns,
//! two spaces of indentation per level, up to [`INDENT_LEVELS`] levels: deeper lines say
//! their level instead, so that a listing stays as wide as a screen however deep the
//! recursion, or a corrupted trace, goes).

use std::collections::HashMap;
use std::io::{self, Write};

/// The nesting levels indented in the listing: a line of a deeper call is indented as
/// one of this level and starts with its level in brackets, `[40] <FunctionCall ...>`.
pub const INDENT_LEVELS: usize = 32;

/// How a node was entered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallKind {
    /// The synthetic root of the tree (the whole trace).
    Root,
    /// The function executing when the trace starts.
    Start,
    /// A call: a `Call` jump (or a jump with other linkage) to a function entry.
    Call,
    /// A tail call: a jump without linkage to a function entry, replacing the frame of
    /// the function named here.
    TailCall {
        /// The function whose frame was replaced.
        from: String,
    },
    /// A trap handler entered by a trap.
    Trap {
        /// `mcause` / `scause` value.
        ecause: u64,
        /// Interrupt (else exception).
        interrupt: bool,
    },
    /// Execution continued in a caller the trace never saw call (a return from the
    /// outermost known frame).
    Resumed {
        /// The function that returned.
        from: String,
    },
}

/// How a node's activation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Still active at the end of the trace.
    Open,
    /// Returned (or was popped by a return to an outer frame, or closed by `xRET`).
    Returned,
    /// Replaced by a tail call.
    Replaced,
}

/// One function activation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallNode {
    /// Function name.
    pub name: String,
    /// Function entry address (the symbol's address; the first PC if none).
    pub address: u64,
    /// Index (0-based) of the first instruction executed in this activation.
    pub index: u64,
    /// How it was entered.
    pub kind: CallKind,
    /// How it ended.
    pub ending: Ending,
    /// Parent node (`None` for the root).
    pub parent: Option<usize>,
    /// Child nodes in order.
    pub children: Vec<usize>,
    /// Depth: 0 for the outermost functions (the root is not counted).
    pub depth: usize,
    /// Instructions executed in this activation itself.
    pub exclusive: u64,
    /// Instructions executed in this activation and everything it called.
    pub inclusive: u64,
}

/// Totals of one function over all its activations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionStats {
    /// Function name.
    pub name: String,
    /// Entry address.
    pub address: u64,
    /// Number of activations.
    pub calls: u64,
    /// Instructions executed in the function itself.
    pub exclusive: u64,
    /// Instructions executed in it and its callees (recursive activations counted once).
    pub inclusive: u64,
}

/// A call tree; node 0 is the synthetic root whose children are the outermost frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallTree {
    /// All nodes, parents before children (pre-order).
    pub nodes: Vec<CallNode>,
}

impl Default for CallTree {
    fn default() -> CallTree {
        CallTree::new()
    }
}

impl CallTree {
    /// A tree with only the root.
    pub fn new() -> CallTree {
        CallTree {
            nodes: vec![CallNode {
                name: String::from("[trace]"),
                address: 0,
                index: 0,
                kind: CallKind::Root,
                ending: Ending::Open,
                parent: None,
                children: Vec::new(),
                depth: 0,
                exclusive: 0,
                inclusive: 0,
            }],
        }
    }

    /// The root node.
    pub fn root(&self) -> &CallNode {
        &self.nodes[0]
    }

    /// Total number of instructions (the root's inclusive count).
    pub fn total(&self) -> u64 {
        self.nodes[0].inclusive
    }

    /// Adds a node under `parent`; returns its index.
    pub(crate) fn push(
        &mut self,
        parent: usize,
        name: String,
        address: u64,
        index: u64,
        kind: CallKind,
    ) -> usize {
        let depth = if parent == 0 {
            0
        } else {
            self.nodes[parent].depth + 1
        };
        let id = self.nodes.len();
        self.nodes.push(CallNode {
            name,
            address,
            index,
            kind,
            ending: Ending::Open,
            parent: Some(parent),
            children: Vec::new(),
            depth,
            exclusive: 0,
            inclusive: 0,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Computes the inclusive counts (nodes are in pre-order: children follow parents).
    pub(crate) fn finish(&mut self) {
        for n in &mut self.nodes {
            n.inclusive = n.exclusive;
        }
        for i in (1..self.nodes.len()).rev() {
            let (inc, parent) = (self.nodes[i].inclusive, self.nodes[i].parent);
            if let Some(p) = parent {
                self.nodes[p].inclusive += inc;
            }
        }
    }

    /// The names from the outermost frame down to `node` (the root excluded).
    pub fn path(&self, node: usize) -> Vec<&str> {
        let mut out = Vec::new();
        let mut at = Some(node);
        while let Some(i) = at.filter(|&i| i != 0) {
            out.push(self.nodes[i].name.as_str());
            at = self.nodes[i].parent;
        }
        out.reverse();
        out
    }

    /// Per-function totals, sorted by exclusive count (largest first, then by name).
    pub fn function_stats(&self) -> Vec<FunctionStats> {
        let mut by_name: HashMap<&str, FunctionStats> = HashMap::new();
        // Recursion: a node's inclusive count is added only when no ancestor is the same
        // function. `active` counts the open activations of each name along the walk.
        let mut active: HashMap<&str, u32> = HashMap::new();
        let mut walk = vec![(0usize, false)];
        while let Some((i, leaving)) = walk.pop() {
            let n = &self.nodes[i];
            if i == 0 {
                walk.extend(n.children.iter().rev().map(|&c| (c, false)));
                continue;
            }
            let name = n.name.as_str();
            if leaving {
                *active.get_mut(name).expect("entered before") -= 1;
                continue;
            }
            let a = active.entry(name).or_insert(0);
            let outermost = *a == 0;
            *a += 1;
            let s = by_name.entry(name).or_insert_with(|| FunctionStats {
                name: n.name.clone(),
                address: n.address,
                calls: 0,
                exclusive: 0,
                inclusive: 0,
            });
            s.calls += 1;
            s.exclusive += n.exclusive;
            if outermost {
                s.inclusive += n.inclusive;
            }
            walk.push((i, true));
            walk.extend(n.children.iter().rev().map(|&c| (c, false)));
        }
        let mut out: Vec<FunctionStats> = by_name.into_values().collect();
        out.sort_by(|a, b| b.exclusive.cmp(&a.exclusive).then(a.name.cmp(&b.name)));
        out
    }

    /// Writes the listing of `seeds/004`: `<FunctionCall N: name(0xaddr)>` on entry
    /// (followed by `(tail call from f)`, `(trap, cause C)`, `(interrupt, cause C)` or
    /// `(resumed after f)` for the other ways in), `<Return: name>` when the activation
    /// returns, nothing when a tail call replaces it. Nodes deeper than `max_depth` are
    /// left out; at most `limit` lines are written. Lines are indented two spaces per level
    /// up to [`INDENT_LEVELS`] levels; deeper ones are indented as at that level and start
    /// with their level (1 for the outermost frames) in brackets. Returns the number of
    /// lines written.
    pub fn write_listing<W: Write>(
        &self,
        out: &mut W,
        max_depth: Option<usize>,
        limit: Option<usize>,
    ) -> io::Result<usize> {
        let limit = limit.unwrap_or(usize::MAX);
        let mut lines = 0usize;
        let mut walk: Vec<(usize, bool)> = self.nodes[0]
            .children
            .iter()
            .rev()
            .map(|&c| (c, false))
            .collect();
        while let Some((i, leaving)) = walk.pop() {
            if lines >= limit {
                break;
            }
            let n = &self.nodes[i];
            if max_depth.is_some_and(|d| n.depth >= d) {
                continue;
            }
            let indent = indent(n.depth);
            if leaving {
                if n.ending == Ending::Returned {
                    writeln!(out, "{indent}<Return: {}>", n.name)?;
                    lines += 1;
                }
                continue;
            }
            let note = match &n.kind {
                CallKind::TailCall { from } => format!(" (tail call from {from})"),
                CallKind::Trap { ecause, interrupt } => format!(
                    " ({}, cause {ecause})",
                    if *interrupt { "interrupt" } else { "trap" }
                ),
                CallKind::Resumed { from } => format!(" (resumed after {from})"),
                CallKind::Root | CallKind::Start | CallKind::Call => String::new(),
            };
            writeln!(
                out,
                "{indent}<FunctionCall {}: {}({:#010x})>{note}",
                n.index, n.name, n.address
            )?;
            lines += 1;
            walk.push((i, true));
            walk.extend(n.children.iter().rev().map(|&c| (c, false)));
        }
        Ok(lines)
    }

    /// The listing as a string (see [`CallTree::write_listing`]).
    pub fn listing(&self, max_depth: Option<usize>, limit: Option<usize>) -> String {
        let mut out = Vec::new();
        self.write_listing(&mut out, max_depth, limit)
            .expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("names are UTF-8")
    }
}

/// The start of a listing line of a call at `depth` (0 for the outermost frames): two
/// spaces per level, then from [`INDENT_LEVELS`] levels on the level in brackets.
fn indent(depth: usize) -> String {
    if depth < INDENT_LEVELS {
        return "  ".repeat(depth);
    }
    format!("{}[{}] ", "  ".repeat(INDENT_LEVELS - 1), depth + 1)
}
