//! The call-hierarchy view (`seeds/004`) at absurd depths, as a deep recursion or a
//! corrupted trace gives them: the listing stays as wide as a screen (levels beyond 32
//! are said, not indented), folded stacks cost the nodes and the lines written, not the
//! nodes times the depth, and a jump or return finds its frame without searching the
//! whole stack.

use etrace_decoder::calltree::{
    folded_lines, from_pcs, CallKind, CallNode, CallTree, Ending, Symbol, SymbolTable,
};
use etrace_decoder::ProgramImage;
use etrace_spec::isa::Xlen;
use std::time::{Duration, Instant};

/// Most time a case may take (each was quadratic in the depth: seconds to hours).
const MAX_TIME: Duration = Duration::from_secs(1);

/// A tree of nested calls named `names[depth]`, each returned, with `leaves` more calls
/// of `leaf` (one instruction each) in the innermost; `exclusive[depth]` instructions in
/// each nested call (0 past the end).
fn chain(names: &[&str], exclusive: &[u64], leaves: usize) -> CallTree {
    let mut tree = CallTree::new();
    let node = |name: &str, depth: usize, parent: usize, exclusive: u64| CallNode {
        name: name.to_string(),
        address: 0x1000 + 4 * depth as u64,
        index: depth as u64,
        kind: CallKind::Call,
        ending: Ending::Returned,
        parent: Some(parent),
        children: Vec::new(),
        depth,
        exclusive,
        inclusive: 0,
    };
    for (depth, name) in names.iter().enumerate() {
        let parent = depth;
        let e = exclusive.get(depth).copied().unwrap_or(0);
        tree.nodes.push(node(name, depth, parent, e));
        tree.nodes[parent].children.push(depth + 1);
    }
    let innermost = names.len();
    for _ in 0..leaves {
        let id = tree.nodes.len();
        tree.nodes.push(node("leaf", innermost, innermost, 1));
        tree.nodes[innermost].children.push(id);
    }
    tree
}

#[test]
fn listing_lines_deeper_than_32_levels_say_their_level() {
    let names: Vec<String> = (0..40).map(|i| format!("f{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let listing = chain(&names, &[], 0).listing(None, None);
    let lines: Vec<&str> = listing.lines().collect();
    let pad = " ".repeat(62);
    // (line, text): calls at levels 1, 31, 32, 33 and 40, and their returns.
    let want = [
        (0, "<FunctionCall 0: f0(0x00001000)>".to_string()),
        (
            30,
            format!("{}<FunctionCall 30: f30(0x00001078)>", " ".repeat(60)),
        ),
        (31, format!("{pad}<FunctionCall 31: f31(0x0000107c)>")),
        (32, format!("{pad}[33] <FunctionCall 32: f32(0x00001080)>")),
        (39, format!("{pad}[40] <FunctionCall 39: f39(0x0000109c)>")),
        (40, format!("{pad}[40] <Return: f39>")),
        (47, format!("{pad}[33] <Return: f32>")),
        (48, format!("{pad}<Return: f31>")),
        (79, "<Return: f0>".to_string()),
    ];
    assert_eq!(lines.len(), 80);
    for (i, text) in want {
        assert_eq!(lines[i], text, "line {i}");
    }
    // 5000 levels: every line as wide as one at level 5000 is said to be.
    let deep = vec!["f"; 5000];
    let listing = chain(&deep, &[], 0).listing(None, None);
    let widest = listing.lines().map(str::len).max().unwrap();
    assert_eq!(
        widest,
        62 + "[5000] <FunctionCall 4999: f(0x00005e1c)>".len()
    );
}

#[test]
fn folded_stacks_cost_the_nodes_not_the_depth() {
    // 20000 nested calls, 50000 calls of `leaf` in the innermost: the 50000 calls share
    // one stack of 20001 frames.
    let deep = vec!["rec"; 20_000];
    let tree = chain(&deep, &[1, 1, 2], 50_000);
    let whole = |n: usize| vec!["rec"; n].join(";");
    let cases = [
        (
            None,
            vec![
                format!("{} 1", whole(1)),
                format!("{} 1", whole(2)),
                format!("{} 2", whole(3)),
                format!("{};leaf 50000", whole(20_000)),
            ],
        ),
        // Cut at 2 frames: the counts below go to the second.
        (
            Some(2),
            vec![format!("{} 1", whole(1)), format!("{} 50003", whole(2))],
        ),
    ];
    for (max_depth, want) in cases {
        let started = Instant::now();
        let got = folded_lines(&tree, max_depth);
        assert!(
            started.elapsed() < MAX_TIME,
            "{max_depth:?}: {:?}",
            started.elapsed()
        );
        assert!(got == want, "{max_depth:?}: {} lines", got.len());
    }
}

#[test]
fn returns_find_their_frame_at_any_depth() {
    // f: `jal ra, f` (calls itself), then at f + 4 `ret`, at f + 8 `j .`.
    const F: u64 = 0x1000;
    let code = [
        0xef, 0x00, 0x00, 0x00, 0x67, 0x80, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00,
    ];
    let mut image = ProgramImage::new();
    image.add_code(F, &code, Xlen::X32).unwrap();
    let mut symbols = SymbolTable::new();
    symbols.extend([Symbol {
        name: "f".to_string(),
        address: F,
        size: 12,
        is_function: true,
        is_global: true,
    }]);
    // 100000 nested calls; 100000 turns of the `j .` in the innermost (a jump that is no
    // return: no frame has its target as return address); then a return per call.
    let depth = 100_000;
    let pcs = std::iter::repeat_n(F, depth)
        .chain(std::iter::repeat_n(F + 8, 100_000))
        .chain(std::iter::repeat_n(F + 4, depth));
    let started = Instant::now();
    let tree = from_pcs(pcs, &image, &symbols).unwrap();
    assert!(started.elapsed() < MAX_TIME, "{:?}", started.elapsed());
    // The outermost activation (the trace starts in it) and the calls, one per level.
    assert_eq!(tree.nodes.len(), depth + 1);
    assert_eq!(tree.nodes[depth].depth, depth - 1);
    assert_eq!(tree.nodes[depth].exclusive, 100_001);
    // Every call returned (the jump to `f + 4`, then the `ret`s); the outermost is open.
    let returned = tree.nodes[2..].iter().all(|n| n.ending == Ending::Returned);
    assert!(returned);
    assert_eq!(tree.nodes[1].ending, Ending::Open);
    assert_eq!(tree.total(), 2 * depth as u64 + 100_000);
}
