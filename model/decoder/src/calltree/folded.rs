//! Folded stacks (`outer;inner;leaf weight` lines, the input format of flame-graph tools)
//! with instruction counts as weights, and an SVG flame graph drawn with `inferno`.

use super::tree::CallTree;
use super::CallTreeError;
use std::collections::HashMap;
use std::io::Write;

/// A frame name safe for the folded format (no `;`, no spaces).
fn frame_name(name: &str) -> String {
    name.replace(';', ":").replace(char::is_whitespace, "_")
}

/// One line per distinct stack with its exclusive instruction count, in first-seen order.
/// Stacks deeper than `max_depth` are cut there (their counts go to the frame at the cut).
pub fn folded_lines(tree: &CallTree, max_depth: Option<usize>) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut weight: HashMap<String, u64> = HashMap::new();
    for (i, n) in tree.nodes.iter().enumerate().skip(1) {
        if n.exclusive == 0 {
            continue;
        }
        let path = tree.path(i);
        let keep = max_depth.map_or(path.len(), |d| path.len().min(d.max(1)));
        let key = path[..keep]
            .iter()
            .map(|s| frame_name(s))
            .collect::<Vec<_>>()
            .join(";");
        match weight.get_mut(&key) {
            Some(w) => *w += n.exclusive,
            None => {
                weight.insert(key.clone(), n.exclusive);
                order.push(key);
            }
        }
    }
    order
        .into_iter()
        .map(|k| {
            let w = weight[&k];
            format!("{k} {w}")
        })
        .collect()
}

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
