//! `etrace run` with N-Trace, in the model: every program of `programs/manifest.toml`, for
//! RV32 and RV64, runs on the hart model; its ingress stream is encoded under every option
//! set of [`common::option_sets`] (BTM, HTM, call stack, repeated history, sequential
//! jumps, small counters, SRC and timestamps), and the decoded steps must equal the hart's.

mod common;

use common::{assert_steps, decode, encode, expected_steps, option_sets};
use etrace_decoder::ProgramImage;
use etrace_hart::HartConfig;

#[test]
fn every_program_reconstructs_exactly_in_every_mode() {
    let names = etrace_programs::manifest_names(&etrace_programs::dir()).unwrap();
    assert!(names.len() >= 9, "manifest lists {} programs", names.len());
    for name in names {
        for xlen in ["rv32", "rv64"] {
            let stem = format!("{name}-{xlen}");
            let elf = etrace_programs::elf(&stem).unwrap();
            let records = etrace_programs::records(&stem, HartConfig::default(), usize::MAX)
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            let image = ProgramImage::from_elf(&elf).unwrap();
            let expected = expected_steps(&records);
            for (set, options) in option_sets() {
                let bytes = encode(options, &records);
                let elements = decode(&image, &options, &bytes);
                assert_steps(&format!("{stem} {set}"), &image, &elements, &expected);
            }
        }
    }
}
