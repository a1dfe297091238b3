//! The encoder for one's own core (issue 23): a top module that takes a core's RVFI
//! retirement signals instead of the ingress port, the [`RvfiFrontEnd`] feeding the
//! encoder of a configuration (`etrace gen-verilog --rvfi`).
//!
//! Its pins: `clock`, `reset`, the RVFI inputs ([`RVFI_PINS`]: `rvfi_valid`, `rvfi_insn`,
//! `rvfi_pc_rdata`, `rvfi_rs1_rdata`, `rvfi_rs2_rdata`, `rvfi_trap`, `rvfi_mode`), then
//! every pin of the encoder top but its ingress block (trace control, run-time options,
//! the output port), under the encoder's names. The front end is RV32 with a 4-bit
//! `itype`: the `rv32` configuration only. The same front end and encoder, joined the
//! same way, run in the lock-step co-simulation of PicoRV32 and SERV ([`super::soc`]).
//!
//! [`RvfiFrontEnd`]: super::RvfiFrontEnd

use crate::config::Config;
use crate::top::{generate, top_name, Generated, TopError, TopOptions};
use crate::verilog::Port;

use super::soc::{front_end_instance, front_end_module, port_declarations, range};
use super::soc_control::{
    check_control_src_bits, implementation_of, option_pin_connection, predictor_connections,
    predictor_wires, registers_instance, registers_module, te_wires,
};
use super::FrontEndOptions;
use crate::control_interface::te_registers::WORD_ADDRESS_BITS;

/// The RVFI pins of the top, as (name, width), all inputs.
pub const RVFI_PINS: [(&str, usize); 7] = [
    ("rvfi_valid", 1),
    ("rvfi_insn", 32),
    ("rvfi_pc_rdata", 32),
    ("rvfi_rs1_rdata", 32),
    ("rvfi_rs2_rdata", 32),
    ("rvfi_trap", 1),
    ("rvfi_mode", 2),
];

/// The encoder's ingress pins, driven by the front end inside the top.
const INGRESS_PINS: [&str; 10] = [
    "iretire",
    "itype",
    "iaddr",
    "privilege",
    "cause",
    "tval",
    "hart_context",
    "ctype",
    "sijump",
    "ilastsize",
];

/// The top module name for `config`: `etrace_rvfi_encoder_<config>`.
pub fn rvfi_top_name(config: Config) -> String {
    top_name(config).replacen("etrace_encoder", "etrace_rvfi_encoder", 1)
}

/// The encoder's pins that the trace control registers drive in a top with them.
const CONTROLLED_PINS: [&str; 7] = [
    "trace_enable",
    "full_address",
    "implicit_exception",
    "sijump_option",
    "implicit_return",
    "branch_prediction",
    "resync_max",
];

/// The register port of a top with the trace control registers, as (name, width, input).
pub const REGISTER_PINS: [(&str, usize, bool); 4] = [
    ("te_address", WORD_ADDRESS_BITS, true),
    ("te_write", 1, true),
    ("te_wdata", 32, true),
    ("te_rdata", 32, false),
];

/// The RVFI encoder of `config` with the encoder's generation `options` and the front
/// end's `front_end` options (module documentation). With `registers`, the trace control
/// registers ([`super::soc_control`]) drive the encoder's trace enable, reset and run-time
/// options, and the top has their register port ([`REGISTER_PINS`]: a word address in the
/// 4 KiB window, a write strobe with its data, the register read at the address) instead
/// of those pins.
pub fn rvfi_encoder(
    config: Config,
    options: &TopOptions,
    front_end: FrontEndOptions,
    registers: bool,
) -> Result<Generated, TopError> {
    if config != Config::Rv32 {
        return Err(TopError::RvfiConfig(config.name().to_string()));
    }
    let encoder = generate(config, options)?;
    let top = rvfi_top_name(config);
    let mut ports = vec![
        Port {
            name: "clock".to_string(),
            width: 1,
            input: true,
        },
        Port {
            name: "reset".to_string(),
            width: 1,
            input: true,
        },
    ];
    ports.extend(RVFI_PINS.iter().map(|&(name, width)| Port {
        name: name.to_string(),
        width,
        input: true,
    }));
    let passed: Vec<&Port> = encoder
        .ports
        .iter()
        .filter(|p| !matches!(p.name.as_str(), "clock" | "reset"))
        .filter(|p| !INGRESS_PINS.contains(&p.name.as_str()))
        .filter(|p| !registers || !CONTROLLED_PINS.contains(&p.name.as_str()))
        .collect();
    ports.extend(passed.iter().map(|&p| p.clone()));
    if registers {
        ports.extend(REGISTER_PINS.iter().map(|&(name, width, input)| Port {
            name: name.to_string(),
            width,
            input,
        }));
    }
    let has = |name: &str| encoder.ports.iter().find(|p| p.name == name);
    // What the registers offer: the options whose blocks this build has (a build with
    // only one of them still has both option pins; the other is tied off).
    let implementation = implementation_of(options);
    let registers_top = format!("{top}_registers");
    let mut v = front_end_module(front_end);
    v.push_str(&encoder.verilog);
    if registers {
        check_control_src_bits(options)?;
        v.push_str(&registers_module(implementation, &registers_top));
    }
    v.push_str(&format!(
        "\n// The encoder with the RVFI front end (etrace-hdl, rvfi::rvfi_encoder).\n\
         module {top}(\n{}\n);\n",
        port_declarations(&ports)
    ));
    // The ingress wires; the front end drives the context and its type as the two bits
    // of `fe_context_ctype` (one-bit pins of a single-context core).
    let from_front_end = |name: &str| match name {
        "hart_context" => Some("fe_context_ctype[0]"),
        "ctype" => Some("fe_context_ctype[1]"),
        _ => None,
    };
    for p in encoder
        .ports
        .iter()
        .filter(|p| INGRESS_PINS.contains(&p.name.as_str()))
    {
        if from_front_end(&p.name).is_none() {
            v.push_str(&format!("    wire {}{};\n", range(p.width), p.name));
        }
    }
    v.push_str(&front_end_instance());
    if registers {
        v.push_str(&te_wires());
        v.push_str(&predictor_wires(implementation));
        let empty = if has("out_valid").is_some() {
            "!out_valid"
        } else {
            "!atvalid"
        };
        v.push_str(&registers_instance(
            &registers_top,
            "reset",
            empty,
            &predictor_connections(implementation),
        ));
    }
    let connections: Vec<String> = encoder
        .ports
        .iter()
        .map(|p| {
            let wire = match p.name.as_str() {
                "reset" if registers => "reset || !te_active".to_string(),
                name @ ("branch_prediction" | "implicit_return") if registers => {
                    option_pin_connection(implementation, name)
                }
                name if registers && CONTROLLED_PINS.contains(&name) => format!("te_{name}"),
                name => from_front_end(name).unwrap_or(name).to_string(),
            };
            format!("        .{}({wire})", p.name)
        })
        .collect();
    v.push_str(&format!(
        "    {} encoder (\n{}\n    );\nendmodule // {top}\n",
        encoder.top,
        connections.join(",\n")
    ));
    Ok(Generated {
        top,
        verilog: v,
        ports,
        description: format!("{}, fed by the RVFI front end", encoder.description),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{lint_top, yosys_check_top};

    #[test]
    fn rvfi_encoder_is_clean_verilog_with_the_rvfi_and_encoder_pins() {
        let g = rvfi_encoder(
            Config::Rv32,
            &TopOptions::default(),
            FrontEndOptions::default(),
            false,
        )
        .unwrap();
        assert_eq!(g.top, "etrace_rvfi_encoder_rv32");
        for name in [
            "rvfi_valid",
            "rvfi_mode",
            "trace_enable",
            "out_data",
            "trace_lost",
        ] {
            assert!(g.ports.iter().any(|p| p.name == name), "{name}");
        }
        assert!(!g.ports.iter().any(|p| p.name == "iretire"));
        yosys_check_top(&g.top, &g.verilog).unwrap();
        lint_top(&g.top, &g.verilog).unwrap();
    }

    /// Trace Control Interface 1.0, "Trace Encoder Control Interface": the top with the
    /// registers has their port instead of the pins they drive, with and without the
    /// predictor and return stack options.
    #[test]
    fn rvfi_encoder_with_trace_control_registers() {
        for options in [
            TopOptions::default(),
            TopOptions {
                bpred_size: 6,
                return_stack_size: 2,
                ..TopOptions::default()
            },
        ] {
            let g = rvfi_encoder(Config::Rv32, &options, FrontEndOptions::default(), true).unwrap();
            for (name, _, _) in REGISTER_PINS {
                assert!(g.ports.iter().any(|p| p.name == name), "{name}");
            }
            for name in CONTROLLED_PINS {
                assert!(!g.ports.iter().any(|p| p.name == name), "{name}");
            }
            assert!(g.verilog.contains(".reset(reset || !te_active)"));
            yosys_check_top(&g.top, &g.verilog).unwrap();
            lint_top(&g.top, &g.verilog).unwrap();
        }
    }

    /// Trace Control Interface 1.0, `trTeInstFeatures` (WARL): the registers offer the
    /// run-time options whose blocks the build has, not every option the encoder has a
    /// pin for. A build with only a return stack or only a predictor has both pins;
    /// the registers (generated for exactly that implementation, so the other option
    /// reads and writes 0) drive the one it has and the other pin is tied off.
    #[test]
    fn rvfi_encoder_registers_offer_only_the_options_built() {
        use etrace_spec::trace_control::registers::TeImplementation;
        let cases: [(u8, u8, &str, &str); 3] = [
            (0, 2, "1'b0", "te_implicit_return"),
            (6, 0, "te_branch_prediction", "1'b0"),
            (6, 2, "te_branch_prediction", "te_implicit_return"),
        ];
        for (bpred_size, return_stack_size, bp_pin, ir_pin) in cases {
            let options = TopOptions {
                bpred_size,
                return_stack_size,
                src_bits: 4,
                ..TopOptions::default()
            };
            let g = rvfi_encoder(Config::Rv32, &options, FrontEndOptions::default(), true).unwrap();
            let implementation = TeImplementation {
                branch_prediction: bpred_size > 0,
                implicit_return: return_stack_size > 0,
                src_bits: 4,
                ..super::super::soc_control::SOC_TE_IMPLEMENTATION
            };
            let registers = registers_module(implementation, &format!("{}_registers", g.top));
            let case = format!("bpred_size {bpred_size}, return_stack_size {return_stack_size}");
            assert!(
                g.verilog.contains(&registers),
                "{case}: the registers' module"
            );
            assert!(
                g.verilog.contains(&format!(".branch_prediction({bp_pin})")),
                "{case}: branch_prediction"
            );
            assert!(
                g.verilog.contains(&format!(".implicit_return({ir_pin})")),
                "{case}: implicit_return"
            );
            lint_top(&g.top, &g.verilog).unwrap();
        }
    }

    #[test]
    fn only_the_rv32_configuration() {
        let e = rvfi_encoder(
            Config::Rv64,
            &TopOptions::default(),
            FrontEndOptions::default(),
            false,
        )
        .unwrap_err();
        assert!(e.to_string().contains("rv32"), "{e}");
    }
}
