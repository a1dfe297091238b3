//! Folded stacks (`outer;inner;leaf weight` lines, the input format of flame-graph tools)
//! with instruction counts as weights, and an SVG flame graph drawn with `inferno`.

use super::tree::CallTree;
use super::CallTreeError;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;

/// A frame name safe for the folded format (no `;`, no spaces).
fn frame_name(name: &str) -> Cow<'_, str> {
    if name.contains(|c: char| c == ';' || c.is_whitespace()) {
        Cow::Owned(name.replace(';', ":").replace(char::is_whitespace, "_"))
    } else {
        Cow::Borrowed(name)
    }
}

/// One line per distinct stack with its exclusive instruction count, in first-seen order.
/// Stacks deeper than `max_depth` are cut there (their counts go to the frame at the cut).
///
/// Each node's stack is found from its parent's in one step (stacks are numbered as they
/// are first met, by the number of the stack above and the frame name), so the cost is
/// that of the nodes and of the lines written, however deep the tree.
pub fn folded_lines(tree: &CallTree, max_depth: Option<usize>) -> Vec<String> {
    let keep = max_depth.map_or(usize::MAX, |d| d.max(1));
    // The stacks met: the stack above (`NONE` for an outermost frame) and the frame name.
    let mut stacks: Vec<(usize, Cow<'_, str>)> = Vec::new();
    let mut numbers: HashMap<(usize, Cow<'_, str>), usize> = HashMap::new();
    // The stack of each node (nodes are in pre-order: parents first).
    let mut stack_of: Vec<usize> = vec![NONE; tree.nodes.len()];
    let mut weight: Vec<u64> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    for (i, n) in tree.nodes.iter().enumerate().skip(1) {
        let above = n.parent.map_or(NONE, |p| stack_of[p]);
        let stack = if n.depth >= keep {
            above
        } else {
            let name = frame_name(&n.name);
            *numbers.entry((above, name.clone())).or_insert_with(|| {
                stacks.push((above, name));
                weight.push(0);
                stacks.len() - 1
            })
        };
        stack_of[i] = stack;
        if n.exclusive == 0 {
            continue;
        }
        if weight[stack] == 0 {
            order.push(stack);
        }
        weight[stack] += n.exclusive;
    }
    let mut frames: Vec<&str> = Vec::new();
    order
        .into_iter()
        .map(|stack| {
            frames.clear();
            let mut at = stack;
            while at != NONE {
                frames.push(&stacks[at].1);
                at = stacks[at].0;
            }
            let mut line = String::new();
            for (k, name) in frames.iter().rev().enumerate() {
                if k > 0 {
                    line.push(';');
                }
                line.push_str(name);
            }
            format!("{line} {}", weight[stack])
        })
        .collect()
}

/// The stack above an outermost frame (and of the root).
const NONE: usize = usize::MAX;

/// Writes an SVG flame graph of the folded stacks.
pub fn write_flamegraph<W: Write>(
    lines: &[String],
    title: &str,
    out: W,
) -> Result<(), CallTreeError> {
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_string();
    options.count_name = String::from("instructions");
    inferno::flamegraph::from_lines(&mut options, lines.iter().map(String::as_str), out)?;
    Ok(())
}
