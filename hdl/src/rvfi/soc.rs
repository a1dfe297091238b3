//! What the SoCs of the lock-step co-simulation share (issue 23): the memory map, the
//! pins, and the Verilog around the core: the RVFI front end ([`RvfiFrontEnd`]), the
//! `rv32` encoder (`crate::top::generate`, byte stream; with a branch predictor and a
//! return stack as [`SocEncoderOptions`] asks, which the trace control registers then
//! offer and drive), and the cycle and retirement
//! counters the host reads. Each core's SoC ([`super::picorv32_soc`],
//! [`super::serv_soc`]) adds the core and its bus to the program RAM.
//!
//! Every SoC has the same top module name ([`SOC_TOP`]) and the same pins ([`PINS`]), so
//! that one simulator binding steps any of them. The core's RVFI signals the front end
//! reads are the wires `rvfi_valid`, `rvfi_insn`, `rvfi_pc_rdata`, `rvfi_pc_wdata`,
//! `rvfi_trap` (pins) and `rvfi_rs1_rdata`, `rvfi_rs2_rdata`, `rvfi_mode` (declared
//! here), which the core's part drives.
//!
//! Memory map (the hart's profile of the SoCs): [`SOC_RAM_BYTES`] of RAM at the core's
//! reset address ([`CorePart::ram_base`]); the trace control registers at
//! [`TE_BASE`](super::soc_control::TE_BASE) ([`super::soc_control`]; they reset, enable
//! and set the options of the encoder); SERV's timer at 0x0200_0000; an access elsewhere
//! reads 0 and writes nothing.
//! The host loads the RAM through the `load_*` pins while the core is in reset and sees
//! every store on the `store_*` pins (the `tohost` convention is kept by the host).
//!
//! [`RvfiFrontEnd`]: super::RvfiFrontEnd

use crate::config::Config;
use crate::top::{generate, TopError, TopOptions};
use crate::verilog::{flatten_ports, generate_named, top_ports, Port};

use super::front_end::CoreTraps;
use super::soc_control::{
    check_control_src_bits, encoder_controls, implementation_of, option_pin_connection,
    predictor_connections, predictor_wires, te_registers_instance, te_registers_module, WritePort,
};
use super::{FrontEndOptions, RvfiFrontEnd};
use crate::control_interface::te_registers::WORD_ADDRESS_BITS;
use crate::logic::resync::RESYNC_MAX_BITS;
use etrace_spec::trace_control::registers::TeImplementation;
use rust_hdl::prelude::Block;

/// log2 of the RAM size in bytes.
pub const SOC_RAM_BITS: u32 = 18;
/// The RAM size in bytes (256 KiB).
pub const SOC_RAM_BYTES: u64 = 1 << SOC_RAM_BITS;

/// The SoC's top module name (every core).
pub const SOC_TOP: &str = "etrace_soc";
/// The front end's module name in the SoC's Verilog.
const FRONT_END_TOP: &str = "etrace_rvfi_front_end";

/// The Verilog of a SoC (without the core's sources) and its pins.
#[derive(Debug, Clone)]
pub struct SocVerilog {
    /// Top module [`SOC_TOP`], the front end and the encoder.
    pub verilog: String,
    /// The top's pins, in order.
    pub ports: Vec<Port>,
}

/// The SoC's pins, as (name, width, input). The trace control registers
/// ([`super::soc_control`]) are reset by `te_reset` and written by the host through
/// `host_write` / `host_address` (word address in the window) / `host_data`; the `te_*`
/// outputs are what the encoder sees of them (`te_resync_max` has the registers' width).
pub const PINS: [(&str, usize, bool); 40] = [
    ("clock", 1, true),
    ("reset", 1, true),
    ("load_enable", 1, true),
    ("load_addr", 32, true),
    ("load_data", 32, true),
    ("te_reset", 1, true),
    ("host_write", 1, true),
    ("host_address", WORD_ADDRESS_BITS, true),
    ("host_data", 32, true),
    ("out_ready", 1, true),
    ("core_trap", 1, false),
    ("rvfi_valid", 1, false),
    ("rvfi_insn", 32, false),
    ("rvfi_pc_rdata", 32, false),
    ("rvfi_pc_wdata", 32, false),
    ("rvfi_trap", 1, false),
    ("iretire", 1, false),
    ("itype", 4, false),
    ("iaddr", 32, false),
    ("privilege", 2, false),
    ("cause", 5, false),
    ("tval", 32, false),
    ("sijump", 1, false),
    ("ilastsize", 1, false),
    ("store_valid", 1, false),
    ("store_addr", 32, false),
    ("store_data", 32, false),
    ("store_strobe", 4, false),
    ("out_valid", 1, false),
    ("out_data", 8, false),
    ("out_last", 1, false),
    ("trace_lost", 1, false),
    ("cycle_low", 32, false),
    ("retired_low", 32, false),
    ("te_active", 1, false),
    ("te_trace_enable", 1, false),
    ("te_full_address", 1, false),
    ("te_implicit_exception", 1, false),
    ("te_sijump_option", 1, false),
    ("te_resync_max", RESYNC_MAX_BITS, false),
];

/// A core's part of a SoC: what [`soc_verilog`] puts between the pins and the shared
/// instances.
pub struct CorePart<'a> {
    /// The core, for the module's header comment.
    pub name: &'a str,
    /// Lint waivers of the module's header: why some signals are unused.
    pub unused: &'a str,
    /// The RAM's base address (a multiple of its size), the core's reset address.
    pub ram_base: u64,
    /// The core instance, its bus and the RAM ([`ram_declaration`]), driving the RVFI
    /// wires (module documentation), `core_trap` and the `store_*` pins, and reading
    /// `te_rdata` for the register window ([`super::soc_control`]).
    pub body: String,
    /// The core's writes to the register window: write, byte address, data.
    pub te_store: [&'a str; 3],
}

/// The generation options of a SoC's encoder (`etrace cosim --core`, `etrace synth
/// --core`): the `rv32` encap byte stream (64-byte FIFO) with a branch predictor of
/// 2^`bpred_size` entries and a return stack of 2^`return_stack_size` entries, 0 for none
/// (`bpred_size_p`, `return_stack_size_p`; E-Trace 2.0 `discovery.adoc`), a `srcID` of
/// `src_bits` bits (its value 0: a single hart) and 2-byte timestamps
/// (`payload.adoc`, "Two example transport schemes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SocEncoderOptions {
    /// `bpred_size_p` (0: no branch predictor).
    pub bpred_size: u8,
    /// `return_stack_size_p` (0: no return stack).
    pub return_stack_size: u8,
    /// `srcID` width in bits (0-12: `trTeSrcBits`).
    pub src_bits: u8,
    /// 2-byte timestamps.
    pub timestamp: bool,
}

impl SocEncoderOptions {
    /// The encoder's generation options.
    pub fn top_options(self) -> TopOptions {
        TopOptions {
            bpred_size: self.bpred_size,
            return_stack_size: self.return_stack_size,
            src_bits: self.src_bits,
            timestamp: self.timestamp,
            ..TopOptions::default()
        }
    }

    /// What the SoC's trace control registers offer ([`SOC_TE_IMPLEMENTATION`], with
    /// branch prediction and implicit return where the encoder has their blocks, and its
    /// `srcID` width as `trTeSrcBits`).
    pub fn implementation(self) -> TeImplementation {
        implementation_of(&self.top_options())
    }
}

/// The `rv32` encoder of a SoC (byte stream, [`SocEncoderOptions`]), its trace control
/// registers, and how both are connected.
pub struct SocEncoder {
    /// The encoder's module.
    pub encoder: crate::top::Generated,
    /// What the registers offer.
    pub implementation: TeImplementation,
    /// The run-time options the encoder has pins for, of `branch_prediction` and
    /// `implicit_return` (a build with the predictor or the return stack has both).
    predictor_pins: Vec<&'static str>,
    /// The width of the `src_id` pin, if any.
    src_id_width: Option<usize>,
}

impl SocEncoder {
    /// The encoder of a SoC built with `options`.
    pub fn new(options: SocEncoderOptions) -> Result<SocEncoder, TopError> {
        let top = options.top_options();
        check_control_src_bits(&top)?;
        let encoder = generate(Config::Rv32, &top)?;
        let width = |name: &str| {
            encoder
                .ports
                .iter()
                .find(|p| p.name == name)
                .map(|p| p.width)
        };
        let predictor_pins = ["branch_prediction", "implicit_return"]
            .into_iter()
            .filter(|name| width(name).is_some())
            .collect();
        let src_id_width = width("src_id");
        Ok(SocEncoder {
            encoder,
            implementation: options.implementation(),
            predictor_pins,
            src_id_width,
        })
    }

    /// The modules: the encoder's and the registers'.
    pub fn modules(&self) -> String {
        let mut v = self.encoder.verilog.clone();
        v.push_str(&te_registers_module(self.implementation));
        v
    }

    /// The declarations of the wires from the registers to the encoder's option pins
    /// (`soc_control::predictor_wires`), besides those of `soc_control::te_wires`.
    pub fn predictor_wires(&self) -> String {
        predictor_wires(self.implementation)
    }

    /// The registers' instance (`soc_control::te_registers_instance`) reset by `reset`,
    /// written through `host` and `core`.
    pub fn registers(&self, reset: &str, host: &WritePort, core: &WritePort) -> String {
        te_registers_instance(
            reset,
            host,
            core,
            &predictor_connections(self.implementation),
        )
    }

    /// The encoder's instance `encoder` on the front end's ingress wires, with `reset`
    /// and `controls` (the connections of `trace_enable`, `full_address`,
    /// `implicit_exception`, `sijump_option` and `resync_max`), its byte stream on the
    /// wires `out_*` and `trace_lost`.
    pub fn instance(&self, reset: &str, controls: &str) -> String {
        format!(
            r#"    {top} encoder (
        .clock(clock), .reset({reset}),
        .iretire(iretire), .itype(itype), .iaddr(iaddr), .privilege(privilege),
        .cause(cause), .tval(tval), .hart_context(fe_context_ctype[0]),
        .ctype(fe_context_ctype[1]), .sijump(sijump), .ilastsize(ilastsize),
        .trigger(3'd0), .halted(1'b0), {controls},
        {optional}.out_ready(out_ready), .out_valid(out_valid), .out_data(out_data),
        .out_last(out_last), .trace_lost(trace_lost)
    );
"#,
            top = self.encoder.top,
            optional = self.optional_pins(),
        )
    }

    /// The connections of the pins that not every encoder build has: the run-time
    /// branch prediction and implicit return options from the registers where they
    /// offer them (else off), the srcID 0.
    fn optional_pins(&self) -> String {
        self.predictor_pins
            .iter()
            .map(|name| {
                format!(
                    ".{name}({}), ",
                    option_pin_connection(self.implementation, name)
                )
            })
            .chain(self.src_id_width.map(|w| format!(".src_id({w}'d0), ")))
            .collect()
    }
}

/// The SoC of `core` with a front end built with `options` and an encoder built with
/// `encoder`.
pub fn soc_verilog(
    core: &CorePart,
    options: FrontEndOptions,
    encoder: SocEncoderOptions,
) -> Result<SocVerilog, TopError> {
    let encoder = SocEncoder::new(encoder)?;
    let fe = front_end_module(options);
    let mut v = String::new();
    v.push_str(&fe);
    v.push_str(&encoder.modules());
    v.push_str(&format!(
        "\n// The {} SoC of the lock-step co-simulation (etrace-hdl, rvfi).\n\
         // Unused: {}.\n/* verilator lint_off UNUSEDSIGNAL */\nmodule {SOC_TOP}(\n",
        core.name, core.unused
    ));
    let ports: Vec<Port> = PINS
        .iter()
        .map(|&(name, width, input)| Port {
            name: name.to_string(),
            width,
            input,
        })
        .collect();
    v.push_str(&port_declarations(&ports));
    v.push_str("\n);\n");
    v.push_str("    wire [31:0] rvfi_rs1_rdata, rvfi_rs2_rdata;\n    wire [1:0] rvfi_mode;\n");
    v.push_str(&core.body);
    v.push_str(&shared_instances(&encoder, core.te_store));
    Ok(SocVerilog { verilog: v, ports })
}

/// The program RAM `ram` ([`SOC_RAM_BYTES`] as 32-bit words at `base`), and
/// `in_ram_<name>` for each bus address `<name>` in `buses`: the address is in the RAM.
pub fn ram_declaration(base: u64, buses: &[&str]) -> String {
    let words = SOC_RAM_BYTES / 4;
    let mut v = format!(
        "    // The program RAM: {words} words at 0x{base:08x}.\n    \
         reg [31:0] ram [0:{}];\n",
        words - 1
    );
    for bus in buses {
        v.push_str(&format!(
            "    wire in_ram_{bus} = {bus}[31:{SOC_RAM_BITS}] == {}'h{:x};\n",
            32 - SOC_RAM_BITS,
            base >> SOC_RAM_BITS
        ));
    }
    v
}

/// The RAM word index of the byte address `addr` (a Verilog expression).
pub fn ram_word(addr: &str) -> String {
    format!("{addr}[{}:2]", SOC_RAM_BITS - 1)
}

/// The Verilog statements of one write of `data` with byte strobes `strobe` to the RAM
/// word of `addr`.
pub fn ram_write(addr: &str, data: &str, strobe: &str) -> String {
    strobed_write(&format!("ram[{}]", ram_word(addr)), 0, data, strobe)
}

/// The Verilog statements of a write of the 32-bit `data` with byte strobes `strobe` to
/// the 32 bits of `target` from bit `low` on.
pub fn strobed_write(target: &str, low: usize, data: &str, strobe: &str) -> String {
    (0..4)
        .map(|b| {
            let (hi, lo) = (8 * b + 7, 8 * b);
            format!(
                "            if ({strobe}[{b}]) {target}[{}:{}] <= {data}[{hi}:{lo}];\n",
                low + hi,
                low + lo
            )
        })
        .collect()
}

/// The front end's module [`FRONT_END_TOP`] built with `options`.
pub fn front_end_module(options: FrontEndOptions) -> String {
    match (options.swap_branch_itypes, options.core_traps) {
        (false, CoreTraps::IllegalInstruction) => front_end::<0, 0>(),
        (true, CoreTraps::IllegalInstruction) => front_end::<1, 0>(),
        (false, CoreTraps::TimerInterrupt) => front_end::<0, 1>(),
        (true, CoreTraps::TimerInterrupt) => front_end::<1, 1>(),
    }
}

/// The instance of [`front_end_module`]: the RVFI wires `rvfi_*` in, the ingress wires
/// (the encoder's pin names) out; `fe_context_ctype` is declared here.
pub fn front_end_instance() -> String {
    format!(
        r#"    wire [1:0] fe_context_ctype;
    {FRONT_END_TOP} front_end (
        .clock(clock), .reset(reset),
        .valid(rvfi_valid), .insn(rvfi_insn), .pc_rdata(rvfi_pc_rdata),
        .rs1_rdata(rvfi_rs1_rdata), .rs2_rdata(rvfi_rs2_rdata), .trap(rvfi_trap),
        .mode(rvfi_mode),
        .iretire(iretire), .itype(itype), .iaddr(iaddr), .privilege(privilege),
        .cause(cause), .tval(tval), .hart_context(fe_context_ctype[0]),
        .ctype(fe_context_ctype[1]), .sijump(sijump), .ilastsize(ilastsize)
    );
"#
    )
}

/// The front end's module [`FRONT_END_TOP`], its pins named as their signals.
fn front_end<const SWAP: u64, const TIMER: u64>() -> String {
    let mut front_end = RvfiFrontEnd::<SWAP, TIMER>::default();
    front_end.connect_all();
    let ports = top_ports(&front_end);
    flatten_ports(
        &generate_named(&front_end, FRONT_END_TOP),
        FRONT_END_TOP,
        &ports,
    )
}

/// `[W-1:0] ` for a width above 1, else nothing.
pub fn range(width: usize) -> String {
    if width > 1 {
        format!("[{}:0] ", width - 1)
    } else {
        String::new()
    }
}

/// The port declarations of a module header, one a line.
pub fn port_declarations(ports: &[Port]) -> String {
    ports
        .iter()
        .map(|p| {
            let dir = if p.input { "input wire" } else { "output wire" };
            format!("    {dir} {}{}", range(p.width), p.name)
        })
        .collect::<Vec<_>>()
        .join(",\n")
}

/// The counters, the front end, the registers (the core's stores `te_store`) and the
/// encoder, and the end of the module.
fn shared_instances(encoder: &SocEncoder, te_store: [&str; 3]) -> String {
    let host = WritePort {
        write: "host_write",
        address: "host_address",
        data: "host_data",
    };
    let [write, address, data] = te_store;
    let core = WritePort {
        write,
        address,
        data,
    };
    let (reset, controls) = encoder_controls("reset", "1'b1");
    format!(
        r#"    /* verilator lint_on UNUSEDSIGNAL */
    // Cycles and retirements since reset (the host's figures).
    reg [31:0] cycles, retired;
    always @(posedge clock) begin
        cycles <= reset ? 32'd0 : cycles + 32'd1;
        retired <= reset ? 32'd0 : retired + {{31'd0, rvfi_valid}};
    end
    assign cycle_low = cycles;
    assign retired_low = retired;
{wires}{front_end}{registers}{encoder}endmodule // {SOC_TOP}
"#,
        wires = encoder.predictor_wires(),
        front_end = front_end_instance(),
        registers = encoder.registers("te_reset", &host, &core),
        encoder = encoder.instance(&reset, &controls),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoder_pin_is_connected_by_name() {
        let core = CorePart {
            name: "test",
            unused: "nothing",
            ram_base: 0x8000_0000,
            body: String::new(),
            te_store: ["1'b0", "32'd0", "32'd0"],
        };
        let with_all = SocEncoderOptions {
            bpred_size: 6,
            return_stack_size: 2,
            src_bits: 8,
            timestamp: true,
        };
        for options in [SocEncoderOptions::default(), with_all] {
            let soc = soc_verilog(&core, FrontEndOptions::default(), options).unwrap();
            let encoder = generate(Config::Rv32, &options.top_options()).unwrap();
            // Every pin of the encoder but its clock is connected by name.
            for p in &encoder.ports {
                assert!(soc.verilog.contains(&format!(".{}(", p.name)), "{}", p.name);
            }
            assert_eq!(soc.ports.len(), PINS.len());
        }
    }

    /// Trace Control Interface 1.0, "Trace Encoder Control Interface": the registers of a
    /// SoC offer branch prediction where its encoder has the predictor and implicit
    /// return where it has the return stack, and drive those option pins of the encoder;
    /// an option they do not offer is off.
    #[test]
    fn the_registers_drive_the_predictor_options_the_encoder_has() {
        for (bpred_size, return_stack_size) in [(0, 0), (6, 0), (0, 2), (6, 2)] {
            let options = SocEncoderOptions {
                bpred_size,
                return_stack_size,
                ..SocEncoderOptions::default()
            };
            let encoder = SocEncoder::new(options).unwrap();
            let implementation = options.implementation();
            assert_eq!(implementation.branch_prediction, bpred_size > 0);
            assert_eq!(implementation.implicit_return, return_stack_size > 0);
            let host = WritePort {
                write: "w",
                address: "a",
                data: "d",
            };
            let registers = encoder.registers("r", &host, &host);
            let instance = encoder.instance("r", "");
            for (name, built) in [
                ("branch_prediction", bpred_size > 0),
                ("implicit_return", return_stack_size > 0),
            ] {
                let driven = format!(".{name}(te_{name})");
                assert_eq!(registers.contains(&driven), built, "{name}: {registers}");
                assert_eq!(instance.contains(&driven), built, "{name}: {instance}");
                let wire = format!("wire te_{name};");
                assert_eq!(encoder.predictor_wires().contains(&wire), built, "{name}");
                if !built {
                    let off = format!(".{name}(1'b0)");
                    let pin = encoder.encoder.ports.iter().any(|p| p.name == name);
                    assert_eq!(instance.contains(&off), pin, "{name}: {instance}");
                }
            }
        }
    }

    /// Trace Control Interface 1.0, `trTeSrcBits`: the registers report the srcID width
    /// of a SoC's encoder, whose `src_id` is 0; a width beyond the registers' 12 bits is
    /// refused.
    #[test]
    fn the_srcid_width_is_the_registers_and_at_most_12_bits() {
        let options = |src_bits| SocEncoderOptions {
            src_bits,
            ..SocEncoderOptions::default()
        };
        assert_eq!(options(8).implementation().src_bits, 8);
        let encoder = SocEncoder::new(options(8)).unwrap();
        let width = encoder
            .src_id_width
            .expect("a build with a srcID has the pin");
        assert!(encoder
            .instance("r", "")
            .contains(&format!(".src_id({width}'d0)")));
        assert!(matches!(
            SocEncoder::new(options(13)),
            Err(TopError::ControlSrcBits(13))
        ));
    }

    #[test]
    fn ram_write_has_one_strobe_per_byte() {
        let w = ram_write("a", "d", "s");
        assert_eq!(w.lines().count(), 4);
        assert!(w.contains("if (s[3]) ram[a[17:2]][31:24] <= d[31:24];"));
    }
}
