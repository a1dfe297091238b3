//! The trace control registers of the SoCs (issue 23, item 2): the encoder's
//! [`TeRegisters`] (Trace Control Interface 1.0, "Trace Encoder Control Interface") on
//! the core's data bus at [`TE_BASE`], so that software on the core turns trace on and
//! off and discovers the encoder, plus a host port through which a debugger (the
//! lock-step host, a board's boot sequence) writes them.
//!
//! The registers drive the encoder: it is held in reset while `trTeActive` is 0, traces
//! while `trTeActive`, `trTeEnable` and `trTeInstTracing` are set, and takes its run-time
//! options from `trTeInstFeatures` and `trTeInstSyncMode` / `trTeInstSyncMax`. Accesses
//! are whole words (a store's byte strobes are not looked at). `trTeEmpty` reads 1 while
//! the encoder's byte stream holds no byte (`out_valid` low: a packet still inside the
//! encoder is not counted); `trTeInstStallOrOverflow` is set by `trace_lost`.

use rust_hdl::prelude::Block;

use crate::control_interface::te_registers::{TeRegisters, WORD_ADDRESS_BITS};
use crate::logic::resync::RESYNC_MAX_BITS;
use crate::top::{TopError, TopOptions};
use crate::verilog::{flatten_ports, generate_named, top_ports};
use etrace_spec::trace_control::map::WINDOW_BYTES;
use etrace_spec::trace_control::registers::{TeImplementation, TeProtocol};

/// Base address of the trace encoder's register window (4 KiB) in every SoC: beside the
/// CLINT at 0x0200_0000, as the hart model maps it (`HartConfig::trace_encoder`).
pub const TE_BASE: u64 = 0x0300_0000;

/// What the SoCs' encoder implements by default (the `rv32` build: E-Trace, no
/// predictor, no return stack, no source field); a SoC built with a predictor or a return
/// stack offers them too (`super::soc::SocEncoderOptions::implementation`).
pub const SOC_TE_IMPLEMENTATION: TeImplementation = TeImplementation {
    protocol: TeProtocol::ETrace,
    branch_prediction: false,
    implicit_return: false,
    src_bits: 0,
    sync_max_limit: 11,
};

/// What the trace control registers of an encoder built with `options` offer:
/// [`SOC_TE_IMPLEMENTATION`] with branch prediction where it has a predictor
/// (`bpred_size_p` > 0), implicit return where it has a return stack
/// (`return_stack_size_p` > 0), and its `srcID` width as `trTeSrcBits`.
pub fn implementation_of(options: &TopOptions) -> TeImplementation {
    TeImplementation {
        branch_prediction: options.bpred_size > 0,
        implicit_return: options.return_stack_size > 0,
        src_bits: u32::from(options.src_bits),
        ..SOC_TE_IMPLEMENTATION
    }
}

/// The widest `srcID` the registers can report (`trTeSrcBits`, Trace Control Interface
/// 1.0).
pub const MAX_CONTROL_SRC_BITS: u8 = 12;

/// `options` as a build with the trace control registers takes them: an error when its
/// `srcID` is wider than `trTeSrcBits` can report ([`MAX_CONTROL_SRC_BITS`]).
pub fn check_control_src_bits(options: &TopOptions) -> Result<(), TopError> {
    match options.src_bits > MAX_CONTROL_SRC_BITS {
        true => Err(TopError::ControlSrcBits(options.src_bits)),
        false => Ok(()),
    }
}

/// The run-time options the registers drive, in the order of their pins.
const PREDICTOR_OPTIONS: [&str; 2] = ["implicit_return", "branch_prediction"];

/// Whether registers implementing `implementation` offer the run-time option `name`
/// (`branch_prediction`, `implicit_return`): the encoder has its block.
pub fn offers(implementation: TeImplementation, name: &str) -> bool {
    match name {
        "branch_prediction" => implementation.branch_prediction,
        "implicit_return" => implementation.implicit_return,
        _ => false,
    }
}

/// The declarations of the wires from the registers to the encoder's run-time option
/// pins (`te_implicit_return`, `te_branch_prediction`) for the options `implementation`
/// offers, besides those of [`te_wires`].
pub fn predictor_wires(implementation: TeImplementation) -> String {
    PREDICTOR_OPTIONS
        .iter()
        .filter(|name| offers(implementation, name))
        .map(|name| format!("    wire te_{name};\n"))
        .collect()
}

/// The registers' connections of the run-time options ([`registers_instance`]'s
/// `predictor_options`): `te_<name>` for those `implementation` offers, open otherwise.
pub fn predictor_connections(implementation: TeImplementation) -> String {
    PREDICTOR_OPTIONS
        .iter()
        .map(|name| match offers(implementation, name) {
            true => format!(".{name}(te_{name})"),
            false => format!(".{name}()"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The connection of the encoder's run-time option pin `name` in a top whose registers
/// implement `implementation`: `te_<name>` where they offer it, else off.
pub fn option_pin_connection(implementation: TeImplementation, name: &str) -> String {
    match offers(implementation, name) {
        true => format!("te_{name}"),
        false => "1'b0".to_string(),
    }
}

/// The registers' module name in the SoCs' Verilog.
const TE_REGISTERS_TOP: &str = "etrace_te_registers";

/// The module of the registers of a SoC whose encoder implements `implementation`, pins
/// named as their signals.
pub fn te_registers_module(implementation: TeImplementation) -> String {
    registers_module(implementation, TE_REGISTERS_TOP)
}

/// The module `name` of the registers of a build that implements `implementation`, pins
/// named as their signals.
pub fn registers_module(implementation: TeImplementation, name: &str) -> String {
    let mut registers = TeRegisters::new(implementation);
    registers.connect_all();
    let ports = top_ports(&registers);
    flatten_ports(&generate_named(&registers, name), name, &ports)
}

/// `in_te_<bus>`: the byte address `bus` is in the register window; and `te_rdata`, the
/// register the window reads ([`te_registers_instance`]).
pub fn te_window(bus: &str) -> String {
    format!(
        "    wire in_te_{bus} = {bus}[31:12] == 20'h{:05x};\n    wire [31:0] te_rdata;\n",
        TE_BASE >> 12
    )
}

/// The connections of one register write port: a write in this cycle, the byte address
/// (or, for the host, the word address in the window) and the data (Verilog
/// expressions).
pub struct WritePort<'a> {
    /// Write in this cycle.
    pub write: &'a str,
    /// Address.
    pub address: &'a str,
    /// Data.
    pub data: &'a str,
}

/// The register file `te_registers`, reset by `reset`: the host port `host` (word
/// address, priority) and the core's stores `core` (byte address, the reads of that
/// address on `te_rdata`, declared by [`te_window`]). It drives the wires `te_active`,
/// `te_trace_enable`, `te_full_address`, `te_implicit_exception`, `te_sijump_option` and
/// `te_resync_max` (declared by the caller: pins or wires, see [`te_wires`]), its
/// `implicit_return` and `branch_prediction` as `predictor_options` connects them, and
/// reads the encoder's `out_valid` and `trace_lost`.
pub fn te_registers_instance(
    reset: &str,
    host: &WritePort,
    core: &WritePort,
    predictor_options: &str,
) -> String {
    let window = WINDOW_BYTES.trailing_zeros() - 1;
    let mut v = format!(
        r#"    // The trace control registers at 0x{TE_BASE:08x} (rvfi::soc_control).
    wire te_write = ({host_write}) || ({core_write});
    wire [{a1}:0] te_address = ({host_write}) ? {host_address} : {core_address}[{window}:2];
    wire [31:0] te_wdata = ({host_write}) ? {host_data} : {core_data};
"#,
        a1 = WORD_ADDRESS_BITS - 1,
        host_write = host.write,
        host_address = host.address,
        host_data = host.data,
        core_write = core.write,
        core_address = core.address,
        core_data = core.data,
    );
    v.push_str(&registers_instance(
        TE_REGISTERS_TOP,
        reset,
        "!out_valid",
        predictor_options,
    ));
    v
}

/// The instance `te_registers` of the register module `module`, reset by `reset`, on the
/// wires `te_address` (word), `te_write`, `te_wdata` and `te_rdata`, its output path
/// `empty`, the encoder's `trace_lost`, driving the `te_*` wires of [`te_wires`] and, as
/// `predictor_options` connects them, its `implicit_return` and `branch_prediction`; its
/// `htm` (N-Trace only) is left unconnected, the SoCs' encoder being E-Trace.
pub fn registers_instance(
    module: &str,
    reset: &str,
    empty: &str,
    predictor_options: &str,
) -> String {
    format!(
        r#"    /* verilator lint_off PINCONNECTEMPTY */
    {module} te_registers (
        .clock(clock), .reset({reset}), .address(te_address), .write(te_write),
        .write_data(te_wdata), .read_data(te_rdata), .empty({empty}),
        .lost(trace_lost), .active(te_active), .trace_enable(te_trace_enable),
        .full_address(te_full_address), .implicit_exception(te_implicit_exception),
        .sijump_option(te_sijump_option), {predictor_options},
        .resync_max(te_resync_max), .htm()
    );
    /* verilator lint_on PINCONNECTEMPTY */
"#
    )
}

/// The declarations of the wires the registers drive ([`te_registers_instance`]).
pub fn te_wires() -> String {
    format!(
        "    wire te_active, te_trace_enable, te_full_address, te_implicit_exception, \
         te_sijump_option;\n    wire [{}:0] te_resync_max;\n",
        RESYNC_MAX_BITS - 1
    )
}

/// The encoder's `reset` and run-time controls from the registers (for
/// `SocEncoder::instance`), `trace_enable` also gated by `gate` (a Verilog expression).
pub fn encoder_controls(reset: &str, gate: &str) -> (String, String) {
    (
        format!("{reset} || !te_active"),
        format!(
            ".trace_enable(te_trace_enable && {gate}), .full_address(te_full_address),\n        \
             .implicit_exception(te_implicit_exception), .sijump_option(te_sijump_option),\n        \
             .resync_max(te_resync_max)"
        ),
    )
}
