//! The decoded-instruction cache changes no record (issue 27, "Hart model speed"): every
//! program of the manifest that retires at most two million instructions, both targets,
//! run with the cache and without it ([`Hart::without_decode_cache`]: every fetch decodes
//! again); the two runs give the same ingress records, instruction bits and outcome.

use etrace_hart::{Hart, HartConfig};
use etrace_spec::ingress::IngressRecord;

/// The records (with instruction bits) and the exit code of a whole run.
fn run(hart: &mut Hart, what: &str) -> (Vec<(IngressRecord, u32)>, u64) {
    let mut records = Vec::new();
    let outcome = hart
        .run(&mut records)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    (records, outcome.exit_code)
}

#[test]
fn runs_without_the_decode_cache_give_the_same_records() {
    let names = etrace_programs::manifest_names_up_to(&etrace_programs::dir(), 2_000_000).unwrap();
    assert!(names.len() >= 5, "quick programs: {names:?}");
    for name in names {
        for target in ["rv32", "rv64"] {
            let stem = format!("{name}-{target}");
            let elf = etrace_programs::elf(&stem).unwrap();
            let config = etrace_programs::hart_config(&stem, HartConfig::default()).unwrap();
            let load = || Hart::from_elf(&elf, config).unwrap();
            let (cached, cached_exit) = run(&mut load(), &stem);
            let (uncached, uncached_exit) = run(&mut load().without_decode_cache(), &stem);
            assert!(!cached.is_empty(), "{stem}: no records");
            assert_eq!(cached_exit, uncached_exit, "{stem}: exit code");
            if let Some(i) =
                (0..cached.len().max(uncached.len())).find(|&i| cached.get(i) != uncached.get(i))
            {
                panic!(
                    "{stem}: record {i} differs: with the cache {:?}, without {:?}",
                    cached.get(i),
                    uncached.get(i)
                );
            }
        }
    }
}
