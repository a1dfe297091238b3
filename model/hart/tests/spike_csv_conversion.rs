//! The reference flow's conversion (spike CSV -> encoder input) gives back exactly the
//! hart's own ingress stream, for every test program, RV32 and RV64, both itype widths:
//! the hart's records are written as spike rows (instruction word, trap flags), converted
//! as spike's trace would be, and compared record by record.

use etrace_hart::{Hart, HartConfig};
use etrace_spec::formats::convert::{convert_rows, ConvertOptions};
use etrace_spec::formats::spike_csv::{read_all, write_all, SpikeRow};
use etrace_spec::ingress::{IngressRecord, ItypeWidth};

#[test]
fn ingress_port_spike_csv_conversion_reproduces_the_hart_stream() {
    let dir = etrace_programs::elf_dir();
    // Every program but the million-instruction workloads.
    let programs = etrace_programs::manifest_names_up_to(&etrace_programs::dir(), 200_000).unwrap();
    assert_eq!(programs.len(), 11, "{programs:?}");
    for name in &programs {
        for xlen in ["rv32", "rv64"] {
            for width in [ItypeWidth::W3, ItypeWidth::W4] {
                let path = dir.join(format!("{name}-{xlen}.elf"));
                let bytes = std::fs::read(&path).unwrap();
                let config = HartConfig {
                    itype_width: width,
                    ..HartConfig::default()
                };
                let config =
                    etrace_programs::hart_config(&format!("{name}-{xlen}"), config).unwrap();
                let mut hart = Hart::from_elf(&bytes, config).unwrap();
                let mut records: Vec<(IngressRecord, u32)> = Vec::new();
                hart.run(&mut records).unwrap();
                let rows: Vec<SpikeRow> = records
                    .iter()
                    .map(|(r, insn)| SpikeRow::from_ingress(r, *insn))
                    .collect();
                // Through the text format, as a user's file would go.
                let rows = read_all(&write_all(&rows)[..]).unwrap();
                let options = ConvertOptions {
                    xlen: hart.xlen(),
                    itype_width: width,
                };
                let converted = convert_rows(&rows, options).unwrap();
                let expected: Vec<IngressRecord> = records.iter().map(|(r, _)| *r).collect();
                assert_eq!(converted.len(), expected.len(), "{name}-{xlen} {width:?}");
                for (i, (got, want)) in converted.iter().zip(&expected).enumerate() {
                    assert_eq!(got, want, "{name}-{xlen} {width:?}: record {i}");
                }
            }
        }
    }
}
