//! Verilog of the output-path blocks (`hdl/DESIGN.md` items 4-8): rust-hdl's generator,
//! `yosys_validate` and `verilator --lint-only -Wall` for each block, for the RV32
//! (P = 80) and RV64 (P = 144) payload widths.

use etrace_hdl::output::{
    AtbAdapter, AtbOutputPath, ByteFifo, FrameFormat, Framer, FramerConfig, OutputPath,
    PacketQueue, Timestamp,
};
use etrace_hdl::verilog::{generate, lint, yosys_check};
use rust_hdl::prelude::*;

fn check<U: Block>(name: &str, mut uut: U) {
    uut.connect_all();
    let verilog = generate(&uut);
    yosys_check(name, &verilog).unwrap_or_else(|e| panic!("{e}"));
    lint(name, &verilog).unwrap_or_else(|e| panic!("{e}"));
}

const WITH_SRCID: FramerConfig = FramerConfig {
    format: FrameFormat::Encap,
    src_bits: 12,
    timestamp: true,
    sync_interval: 4096,
};

#[test]
fn timestamp_verilog_is_clean() {
    check("output_timestamp", Timestamp::default());
}

#[test]
fn packet_queue_verilog_is_clean() {
    check("output_queue_p80", PacketQueue::<80>::default());
    check("output_queue_p144", PacketQueue::<144>::default());
}

#[test]
fn framer_verilog_is_clean() {
    check(
        "output_framer_p80",
        Framer::<80>::new(FramerConfig::default()),
    );
    check("output_framer_p80_src", Framer::<80>::new(WITH_SRCID));
    check(
        "output_framer_p144",
        Framer::<144>::new(FramerConfig::default()),
    );
    check("output_framer_p144_src", Framer::<144>::new(WITH_SRCID));
    check(
        "output_framer_p80_smi",
        Framer::<80>::new(FramerConfig::smi(0, false)),
    );
    check(
        "output_framer_p80_smi_ts",
        Framer::<80>::new(FramerConfig::smi(8, true)),
    );
}

#[test]
fn byte_fifo_verilog_is_clean() {
    check("output_fifo_64", ByteFifo::<6>::default());
    check("output_fifo_4", ByteFifo::<2>::default());
}

#[test]
fn atb_adapter_verilog_is_clean() {
    check("output_atb8", AtbAdapter::<8, 1>::new());
    check("output_atb32", AtbAdapter::<32, 2>::new());
    check("output_atb128", AtbAdapter::<128, 4>::new());
}

#[test]
fn output_path_verilog_is_clean() {
    check(
        "output_path_p80",
        OutputPath::<80, 6>::new(FramerConfig::default()),
    );
    check("output_path_p144", OutputPath::<144, 6>::new(WITH_SRCID));
    check(
        "output_path_p80_smi",
        OutputPath::<80, 6>::new(FramerConfig::smi(8, true)),
    );
    let atb = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 0,
        timestamp: true,
        sync_interval: 0,
    };
    check(
        "output_atb_path_p80",
        AtbOutputPath::<80, 6, 32, 2>::new(atb),
    );
    check(
        "output_atb_path_p144",
        AtbOutputPath::<144, 6, 64, 3>::new(atb),
    );
}
