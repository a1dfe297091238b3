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
use super::FrontEndOptions;

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

/// The RVFI encoder of `config` with the encoder's generation `options` and the front
/// end's `front_end` options (module documentation).
pub fn rvfi_encoder(
    config: Config,
    options: &TopOptions,
    front_end: FrontEndOptions,
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
        .collect();
    ports.extend(passed.iter().map(|&p| p.clone()));
    let mut v = front_end_module(front_end);
    v.push_str(&encoder.verilog);
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
    let connections: Vec<String> = encoder
        .ports
        .iter()
        .map(|p| {
            format!(
                "        .{}({})",
                p.name,
                from_front_end(&p.name).unwrap_or(&p.name)
            )
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

    #[test]
    fn only_the_rv32_configuration() {
        let e = rvfi_encoder(
            Config::Rv64,
            &TopOptions::default(),
            FrontEndOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("rv32"), "{e}");
    }
}
