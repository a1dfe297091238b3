//! The decoded-instruction cache changes no record (issue 27, "Hart model speed"): every
//! program of the manifest that retires at most two million instructions, both targets,
//! run with the cache and without it ([`Hart::without_decode_cache`]: every fetch decodes
//! again); the two runs give the same ingress records, instruction bits and outcome. The
//! run with the cache streams from its own thread ([`HartRecords`]) and is compared record
//! by record as the run without it goes, so nothing is held.

use std::sync::Arc;

use etrace_hart::{Hart, HartConfig, HartRecords};
use etrace_spec::ingress::IngressRecord;

#[test]
fn runs_without_the_decode_cache_give_the_same_records() {
    let names = etrace_programs::manifest_names_up_to(&etrace_programs::dir(), 2_000_000).unwrap();
    assert!(names.len() >= 5, "quick programs: {names:?}");
    for name in names {
        for target in ["rv32", "rv64"] {
            let stem = format!("{name}-{target}");
            let elf = Arc::new(etrace_programs::elf(&stem).unwrap());
            let config = etrace_programs::hart_config(&stem, HartConfig::default()).unwrap();
            let mut cached = HartRecords::spawn(elf.clone(), config);
            let mut index = 0u64;
            let mut first_difference = None;
            let mut compare = |rec: &IngressRecord, insn: u32| {
                let with_cache = cached.next();
                if first_difference.is_none() && with_cache != Some(Ok((*rec, insn))) {
                    first_difference = Some((index, with_cache, (*rec, insn)));
                }
                index += 1;
            };
            let uncached = Hart::from_elf(&elf, config)
                .unwrap()
                .without_decode_cache()
                .run(&mut compare)
                .unwrap_or_else(|e| panic!("{stem} without the cache: {e}"));
            if let Some((i, with, without)) = first_difference {
                panic!("{stem}: record {i} differs: with the cache {with:?}, without {without:?}");
            }
            assert!(index > 0, "{stem}: no records");
            let rest = cached.next();
            assert!(
                rest.is_none(),
                "{stem}: the run with the cache goes on: {rest:?}"
            );
            let exit = Hart::from_elf(&elf, config)
                .unwrap()
                .run(&mut etrace_hart::NullSink)
                .unwrap_or_else(|e| panic!("{stem}: {e}"))
                .exit_code;
            assert_eq!(exit, uncached.exit_code, "{stem}: exit code");
        }
    }
}
