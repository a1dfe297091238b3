//! spike's `-m` memory maps on the hart model (`docs/spike.md`, "Memory"): the values of
//! `tests/data/memory_maps.txt` parse to their regions or fail with their message; a
//! program loads and runs inside a map, a segment outside it is refused naming the segment,
//! and addresses outside the map are not memory (accesses there fault).

mod hart_common;

use etrace_hart::{Hart, HartConfig, LoadError, MemoryMap};
use hart_common::TARGETS;

#[test]
fn memory_map_values_parse_as_listed() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/memory_maps.txt");
    let cases = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (case, want) = line.split_once(" | ").unwrap();
        let (kind, text) = case.split_once(' ').unwrap();
        let got = text.parse::<MemoryMap>();
        match kind {
            "ok" => assert_eq!(got.map(|m| m.to_string()), Ok(want.to_string()), "{text}"),
            _ => assert_eq!(
                got.map_err(|e| e.to_string()),
                Err(want.to_string()),
                "{text}"
            ),
        }
        checked += 1;
    }
    assert!(checked >= 15);
}

fn config(map: &str) -> HartConfig {
    HartConfig {
        memory: map.parse().unwrap(),
        max_instructions: 10_000_000,
        ..HartConfig::default()
    }
}

#[test]
fn programs_run_inside_a_map_and_not_outside_it() {
    for target in TARGETS {
        let elf = etrace_programs::elf(&format!("recursion-{target}")).unwrap();
        // The program's one segment (code, data and stack) is below 0x8001_0000.
        let mut hart = Hart::from_elf(&elf, config("0x80000000:0x10000,0x20010000:0x40000"))
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(hart.read_memory(0x2001_0000, 4).is_some(), "{target}");
        assert!(hart.read_memory(0x2005_0000, 4).is_none(), "{target}");
        assert!(hart.read_memory(0x8001_0000, 4).is_none(), "{target}");
        let mut sink = etrace_hart::CountingSink::default();
        assert_eq!(hart.run(&mut sink).unwrap().exit_code, 0, "{target}");
        // Without -m the RAM is spike's 2 GiB.
        let hart = Hart::from_elf(&elf, HartConfig::default()).unwrap();
        assert!(hart.read_memory(0xffff_fff0, 16).is_some(), "{target}");
        // A map that misses the program.
        let err = Hart::from_elf(&elf, config("0x20010000:0x40000")).unwrap_err();
        assert!(
            matches!(
                err,
                LoadError::SegmentOutsideMemory {
                    addr: 0x8000_0000,
                    ..
                }
            ),
            "{target}: {err}"
        );
        assert!(err.to_string().contains("-m/--memory"), "{err}");
        // One that holds only part of it.
        let err = Hart::from_elf(&elf, config("0x80000000:0x1000")).unwrap_err();
        assert!(
            matches!(err, LoadError::SegmentOutsideMemory { size: 0x9000.., .. }),
            "{target}: {err}"
        );
        // Regions on the CLINT are refused.
        let err = Hart::from_elf(&elf, config("0x80000000:0x10000,0x2000000:0x1000")).unwrap_err();
        assert!(
            matches!(
                err,
                LoadError::BadRamConfig {
                    base: 0x200_0000,
                    ..
                }
            ),
            "{err}"
        );
    }
}
