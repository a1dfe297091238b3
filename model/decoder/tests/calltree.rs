//! The call-hierarchy view of `seeds/004` over the test programs: the programs run on the
//! hart model, the call tree is rebuilt from the executed PCs (and, once, from decoded
//! trace elements), and its nesting is compared with the nesting the C / assembly sources
//! of `programs/src` imply.

mod common;

use common::{decode_payloads, program};
use etrace_decoder::calltree::{
    folded_lines, from_elements, from_steps, write_flamegraph, CallKind, CallTree, Ending,
    SymbolTable,
};
use etrace_decoder::pcs::{record_steps, Step};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::params::Params;

fn tree_of(name: &str) -> (CallTree, u64) {
    let program = program(name);
    let steps = record_steps(&program.records);
    let symbols = SymbolTable::from_elf(&program.elf).unwrap();
    let tree = from_steps(&steps, &program.image, &symbols).unwrap();
    let total = steps
        .iter()
        .filter(|s| matches!(s, Step::Instruction { .. }))
        .count() as u64;
    (tree, total)
}

fn names(tree: &CallTree, nodes: &[usize]) -> Vec<String> {
    nodes.iter().map(|&i| tree.nodes[i].name.clone()).collect()
}

/// The one child of `node` named `name` (panics unless exactly one).
fn only_child(tree: &CallTree, node: usize, name: &str) -> usize {
    let found: Vec<usize> = tree.nodes[node]
        .children
        .iter()
        .copied()
        .filter(|&c| tree.nodes[c].name == name)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "children {name} of {}",
        tree.nodes[node].name
    );
    found[0]
}

/// Length of the chain of nested activations of `name` starting at `node`.
fn chain_depth(tree: &CallTree, node: usize, name: &str) -> usize {
    let n = &tree.nodes[node];
    if n.name != name {
        return 0;
    }
    1 + n
        .children
        .iter()
        .map(|&c| chain_depth(tree, c, name))
        .max()
        .unwrap_or(0)
}

/// Inclusive = exclusive + the children's inclusive counts, everywhere; the root's
/// inclusive count is the number of executed instructions.
fn check_counts(tree: &CallTree, total: u64) {
    for n in &tree.nodes {
        let children: u64 = n.children.iter().map(|&c| tree.nodes[c].inclusive).sum();
        assert_eq!(n.inclusive, n.exclusive + children, "node {}", n.name);
    }
    assert_eq!(tree.root().inclusive, total);
    assert_eq!(tree.root().exclusive, 0);
}

/// `_start` calls `main`, then tail-jumps to `exit` (crt0.S: `call main; j exit`).
fn check_start(tree: &CallTree) -> usize {
    let top = &tree.root().children;
    assert_eq!(names(tree, top), ["_start", "exit"]);
    assert_eq!(tree.nodes[top[0]].ending, Ending::Replaced);
    assert_eq!(
        tree.nodes[top[1]].kind,
        CallKind::TailCall {
            from: "_start".into()
        }
    );
    assert_eq!(tree.nodes[top[1]].ending, Ending::Open);
    let main = only_child(tree, top[0], "main");
    assert_eq!(tree.nodes[main].ending, Ending::Returned);
    main
}

#[test]
fn seed004_recursion_nesting() {
    for xlen in ["rv32", "rv64"] {
        let (tree, total) = tree_of(&format!("recursion-{xlen}"));
        check_counts(&tree, total);
        let main = check_start(&tree);
        // recursion.c main(): the calls in source order.
        let kids = tree.nodes[main].children.clone();
        assert_eq!(
            names(&tree, &kids),
            [
                "fib",
                "ack",
                "ack",
                "depth_sum",
                "hof_f",
                "hof_m",
                "level0",
                "level0",
                "tree_walk"
            ],
            "{xlen}"
        );
        // fib(18): the fib(n - 1) calls nest 18 deep (18 down to 1).
        assert_eq!(chain_depth(&tree, kids[0], "fib"), 18, "{xlen}");
        // depth_sum(100): 101 nested activations (100 down to 0), one chain.
        assert_eq!(chain_depth(&tree, kids[3], "depth_sum"), 101, "{xlen}");
        let mut node = kids[3];
        for _ in 0..100 {
            assert_eq!(tree.nodes[node].children.len(), 1);
            node = tree.nodes[node].children[0];
        }
        assert!(tree.nodes[node].children.is_empty());
        // level0 -> level1 -> ... -> level48, twice, each level calling only the next.
        for &start in &kids[6..8] {
            let mut node = start;
            for k in 0..=48 {
                assert_eq!(tree.nodes[node].name, format!("level{k}"), "{xlen}");
                assert_eq!(tree.nodes[node].ending, Ending::Returned);
                let c = &tree.nodes[node].children;
                assert_eq!(c.len(), usize::from(k < 48));
                if k < 48 {
                    node = c[0];
                }
            }
        }
        // tree_walk over 127 nodes (depth 0-6) reaches the empty children at depth 7:
        // 8 nested activations.
        assert_eq!(chain_depth(&tree, kids[8], "tree_walk"), 8, "{xlen}");
        // ack's calls in tail position are jumps inside ack (not to its entry): every ack
        // activation is a call, none a tail call.
        assert!(tree
            .nodes
            .iter()
            .filter(|n| n.name == "ack")
            .all(|n| n.kind == CallKind::Call && n.ending == Ending::Returned));
        let stats = tree.function_stats();
        let fib = stats.iter().find(|s| s.name == "fib").unwrap();
        let fib_nodes = tree.nodes.iter().filter(|n| n.name == "fib");
        assert_eq!(fib.calls, fib_nodes.clone().count() as u64);
        assert_eq!(fib.exclusive, fib_nodes.map(|n| n.exclusive).sum::<u64>());
        // Recursion is counted once: fib's inclusive count is that of the outermost call.
        assert_eq!(fib.inclusive, tree.nodes[kids[0]].inclusive);
        let start = stats.iter().find(|s| s.name == "_start").unwrap();
        assert_eq!(
            start.inclusive,
            tree.nodes[tree.root().children[0]].inclusive
        );
        assert!(stats.windows(2).all(|w| w[0].exclusive >= w[1].exclusive));
    }
}

/// Number of odd values (other than 1) on the Collatz path of `x`.
fn collatz_odd_steps(mut x: u32) -> usize {
    let mut odd = 0;
    while x != 1 {
        if x & 1 == 1 {
            odd += 1;
            x = 3 * x + 1;
        } else {
            x >>= 1;
        }
    }
    odd
}

#[test]
fn seed004_tail_calls_replace_the_frame() {
    for xlen in ["rv32", "rv64"] {
        let (tree, total) = tree_of(&format!("tailcall-{xlen}"));
        check_counts(&tree, total);
        let main = check_start(&tree);
        let kids = tree.nodes[main].children.clone();
        // Every activation under main is a direct child of main: tail calls replace the
        // caller's frame instead of nesting.
        let nested: Vec<&str> = kids
            .iter()
            .flat_map(|&c| tree.nodes[c].children.iter())
            .map(|&c| tree.nodes[c].name.as_str())
            .collect();
        assert_eq!(
            nested,
            [
                "milli_mix",
                "milli_mix",
                "target_plus7",
                "target_double",
                "link_t1_helper",
                "link_a3_helper"
            ],
            "{xlen}"
        );
        // collatz(27): collatz tail-calls collatz_odd, which tail-calls collatz_even,
        // which loops on even values and tail-calls collatz_odd on odd ones.
        let odd = collatz_odd_steps(27);
        assert_eq!(odd, 41);
        let mut want = vec!["collatz"];
        for _ in 0..odd {
            want.extend(["collatz_odd", "collatz_even"]);
        }
        let got = names(&tree, &kids[..want.len()]);
        assert_eq!(got, want, "{xlen}");
        for (i, &c) in kids[..want.len()].iter().enumerate() {
            let n = &tree.nodes[c];
            let last = i + 1 == want.len();
            assert_eq!(
                n.ending,
                if last {
                    Ending::Returned
                } else {
                    Ending::Replaced
                }
            );
            if i > 0 {
                assert_eq!(
                    n.kind,
                    CallKind::TailCall {
                        from: want[i - 1].into()
                    }
                );
            }
        }
        // chain_a(1): a -> b -> c by tail calls, c returns to main.
        let a = kids
            .iter()
            .position(|&c| tree.nodes[c].name == "chain_a")
            .unwrap();
        assert_eq!(
            names(&tree, &kids[a..a + 3]),
            ["chain_a", "chain_b", "chain_c"]
        );
        assert_eq!(tree.nodes[kids[a]].kind, CallKind::Call);
        assert_eq!(tree.nodes[kids[a + 2]].ending, Ending::Returned);
        // The assembly helpers (tailcall_asm.S), in main's order, each with the function
        // that replaces it by a tail call.
        let asm = kids
            .iter()
            .position(|&c| tree.nodes[c].name == "asm_tail_jr_t1")
            .unwrap();
        assert_eq!(
            names(&tree, &kids[asm..]),
            [
                "asm_tail_jr_t1",
                "target_double",
                "asm_tail_auipc_jalr",
                "target_plus7",
                "asm_tail_reg",
                "op_rot",
                "asm_tail_direct",
                "target_double",
                "asm_call_t0",
                "asm_call_seq",
                "asm_coroutine",
                "asm_link_other"
            ],
            "{xlen}"
        );
        for k in [1, 3, 5, 7] {
            let n = &tree.nodes[kids[asm + k]];
            assert!(matches!(n.kind, CallKind::TailCall { .. }), "{}", n.name);
            assert_eq!(tree.nodes[kids[asm + k - 1]].ending, Ending::Replaced);
        }
        // The listing: call lines in the seed's style, at main's children's depth.
        let text = tree.listing(None, None);
        let line = text
            .lines()
            .find(|l| l.contains("chain_b("))
            .unwrap()
            .to_string();
        let want_addr = tree.nodes[kids[a + 1]].address;
        let index = tree.nodes[kids[a + 1]].index;
        assert_eq!(
            line,
            format!(
                "    <FunctionCall {index}: chain_b({want_addr:#010x})> (tail call from chain_a)"
            )
        );
        assert!(text.contains("\n    <Return: chain_c>\n"));
        assert!(text.starts_with("<FunctionCall 0: _start(0x80000000)>\n  <FunctionCall "));
        assert_eq!(tree.listing(None, Some(3)).lines().count(), 3);
        assert!(tree
            .listing(Some(2), None)
            .lines()
            .all(|l| !l.starts_with("    ")));
    }
}

#[test]
fn seed004_traps_open_handler_frames() {
    for xlen in ["rv32", "rv64"] {
        let (tree, total) = tree_of(&format!("traps-{xlen}"));
        check_counts(&tree, total);
        let handlers: Vec<_> = tree
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, CallKind::Trap { .. }))
            .collect();
        assert!(!handlers.is_empty());
        for h in handlers {
            assert_eq!(h.name, "_trap_entry", "{xlen}");
            // mret closes the frame; the handler calls trap_handler.
            assert_eq!(h.ending, Ending::Returned, "{xlen}");
            assert!(h
                .children
                .iter()
                .any(|&c| tree.nodes[c].name == "trap_handler"));
        }
    }
}

#[test]
fn seed004_decoded_elements_give_the_same_tree() {
    let program = program("tailcall-rv64");
    let image = &program.image;
    let symbols = SymbolTable::from_elf(&program.elf).unwrap();
    let params = Params::rv64();
    let packets =
        Encoder::encode_all(&params, EncoderOptions::default(), &program.records).unwrap();
    let elements = decode_payloads(image, &params, packets.iter().map(|p| &p.packet));
    let decoded = from_elements(&elements, image, &symbols).unwrap();
    let direct = from_steps(&record_steps(&program.records), image, &symbols).unwrap();
    assert_eq!(decoded, direct);
}

#[test]
fn seed004_folded_stacks_and_flame_graph() {
    let (tree, total) = tree_of("recursion-rv32");
    let lines = folded_lines(&tree, None);
    let mut sum = 0;
    for l in &lines {
        let (stack, weight) = l.rsplit_once(' ').unwrap();
        assert!(!stack.contains(' '));
        sum += weight.parse::<u64>().unwrap();
    }
    assert_eq!(sum, total);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("_start;main;level0;level1;level2;")));
    let depth_sum = format!("_start;main{}", ";depth_sum".repeat(101));
    assert!(lines
        .iter()
        .any(|l| l.starts_with(&format!("{depth_sum} "))));
    // Cut at depth 2: only `_start` and `_start;main` stacks, same total.
    let cut = folded_lines(&tree, Some(2));
    let cut_sum: u64 = cut
        .iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(cut_sum, total);
    assert!(cut.iter().all(|l| l.matches(';').count() <= 1));

    let path = std::env::temp_dir().join(format!("calltree-{}.svg", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    write_flamegraph(&lines, "recursion-rv32", file).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<?xml") || svg.starts_with("<svg"));
    assert!(svg.contains("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    for name in ["main", "fib", "depth_sum", "hof_m", "level0"] {
        assert!(svg.contains(name), "{name}");
    }
}
