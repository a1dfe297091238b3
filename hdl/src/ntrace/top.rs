//! The N-Trace encoder top (issue 25, "Generation and tools"): the MSEO output path
//! ([`NtraceMseoPath`]) of a named configuration as Verilog with flat pins, the generation
//! behind `etrace gen-verilog --protocol ntrace` and the co-simulation builds of
//! `etrace-tb`. Pins: `clock`, `reset`, the ingress signals of [`NtraceIngress`]
//! (`iretire`, `itype`, `iaddr`, `privilege`, `hart_context`, `sijump`, `ilastsize`),
//! `trace_enable`, `in_valid` / `in_ready` (one record step offered / taken), `out_valid`,
//! `out_data`, `out_last` (the MSEO bytes) and `lost`.
//!
//! [`NtraceIngress`]: super::NtraceIngress

use rust_hdl::prelude::*;

use super::call_stack::CALL_STACK_MAX;
use super::generator::{NtraceHwOptions, ICNT_BITS, REPEAT_BITS};
use super::queue::{NtraceFifoConfig, NtraceMseoPath, RESTART_ROOM};
use crate::config::Config;
use crate::top::Generated;
use crate::verilog::{flatten_ports, generate_named, top_ports};

/// Build-time options of a generated N-Trace encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NtraceTopOptions {
    /// The message generator's parameters (mode, counters, optimisations).
    pub generator: NtraceHwOptions,
    /// The output FIFO: the bytes it holds and its send rate (the model's `FifoConfig`).
    pub fifo: NtraceFifoConfig,
}

impl Default for NtraceTopOptions {
    /// The generator's defaults (HTM), a 256-byte FIFO sending 4 bytes every record step.
    fn default() -> Self {
        NtraceTopOptions {
            generator: NtraceHwOptions::default(),
            fifo: NtraceFifoConfig {
                bytes: 256,
                send_bytes: 4,
                every_cycles: 1,
                error_fault: false,
            },
        }
    }
}

/// Options the N-Trace generator cannot honour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NtraceTopError {
    /// The FIFO holds fewer bytes than a restart needs, or more than 256.
    #[error("N-Trace FIFO of {0} bytes is not supported ({RESTART_ROOM} to 256 bytes)")]
    FifoBytes(u32),
    /// No byte sent, or a send rate out of range.
    #[error("N-Trace send rate of {0} bytes every {1} record steps is not supported (1-65535 bytes, every 1-65536 steps)")]
    SendRate(u32, u32),
    /// The implicit-return call stack needs the 4-bit itype and at most its maximum depth.
    #[error("N-Trace call stack of {depth} entries is not supported with configuration {config} (0-{CALL_STACK_MAX} entries, and a 4-bit itype for any)")]
    CallStack {
        /// Entries asked for.
        depth: usize,
        /// The configuration.
        config: &'static str,
    },
    /// I-CNT or HIST width out of the generator's range.
    #[error("N-Trace counter widths I-CNT {icnt}, HIST {hist} and repeat {repeat} bits are not supported (I-CNT 3-{ICNT_BITS}, HIST 2-32, repeat 1-{REPEAT_BITS})")]
    Counters {
        /// I-CNT width.
        icnt: usize,
        /// HIST width.
        hist: usize,
        /// HREPEAT / B-CNT width.
        repeat: usize,
    },
    /// Periodic synchronisation beyond the generator's counter.
    #[error("N-Trace sync every {0} messages is not supported (0-65528)")]
    SyncMax(u32),
}

/// The top module name of a configuration's N-Trace encoder.
pub fn ntrace_top_name(config: Config) -> String {
    format!("etrace_ntrace_encoder_{}", config.name().replace('-', "_"))
}

/// The options refused before a top is built (the encoder top's and the board top's).
pub fn check_options(config: Config, options: &NtraceTopOptions) -> Result<(), NtraceTopError> {
    let (g, fifo) = (&options.generator, &options.fifo);
    if !(RESTART_ROOM..=256).contains(&fifo.bytes) {
        return Err(NtraceTopError::FifoBytes(fifo.bytes));
    }
    if !(1..1 << 16).contains(&fifo.send_bytes) || !(1..=1 << 16).contains(&fifo.every_cycles) {
        return Err(NtraceTopError::SendRate(fifo.send_bytes, fifo.every_cycles));
    }
    if g.call_stack > CALL_STACK_MAX || (g.call_stack > 0 && config.itype_width() != 4) {
        return Err(NtraceTopError::CallStack {
            depth: g.call_stack,
            config: config.name(),
        });
    }
    if !(3..=ICNT_BITS).contains(&g.icnt_bits)
        || !(2..=32).contains(&g.hist_bits)
        || !(1..=REPEAT_BITS).contains(&g.repeat_bits)
    {
        return Err(NtraceTopError::Counters {
            icnt: g.icnt_bits,
            hist: g.hist_bits,
            repeat: g.repeat_bits,
        });
    }
    if g.sync_max > 65528 {
        return Err(NtraceTopError::SyncMax(g.sync_max));
    }
    Ok(())
}

/// The Verilog of the path `make` builds, as module `top` with flat pins.
#[inline(never)]
fn emit<U: Block>(make: impl FnOnce() -> U, top: &str) -> (String, Vec<crate::verilog::Port>) {
    let mut uut = make();
    uut.connect_all();
    let ports = top_ports(&uut);
    let verilog = flatten_ports(&generate_named(&uut, top), top, &ports);
    (verilog, ports.into_iter().map(|(_, port)| port).collect())
}

/// Address bits of the byte FIFO for a FIFO of `bytes` bytes: the smallest power of two
/// that holds them (from [`RESTART_ROOM`] to 256 bytes: 6 to 8 bits). A FIFO of 64 bytes
/// fits a 64-entry memory, which synthesis may build from LUTs (ECP5) where 256 entries
/// take a block RAM and its slow read.
pub fn fifo_bits(bytes: u32) -> usize {
    match bytes {
        0..=64 => 6,
        65..=128 => 7,
        _ => 8,
    }
}

/// The Verilog of configuration `<A, E, IT>`'s path with a byte FIFO of [`fifo_bits`].
fn emit_path<const A: usize, const E: usize, const IT: usize>(
    g: NtraceHwOptions,
    f: NtraceFifoConfig,
    top: &str,
) -> (String, Vec<crate::verilog::Port>) {
    match fifo_bits(f.bytes) {
        6 => emit(|| NtraceMseoPath::<A, E, IT, 6>::new(g, f), top),
        7 => emit(|| NtraceMseoPath::<A, E, IT, 7>::new(g, f), top),
        _ => emit(|| NtraceMseoPath::<A, E, IT, 8>::new(g, f), top),
    }
}

/// Generates the N-Trace encoder of `config` with `options` (top module
/// [`ntrace_top_name`]): the MSEO path with a byte FIFO of 2^[`fifo_bits`] entries
/// holding at most `options.fifo.bytes`.
pub fn generate_ntrace(
    config: Config,
    options: &NtraceTopOptions,
) -> Result<Generated, NtraceTopError> {
    check_options(config, options)?;
    let top = ntrace_top_name(config);
    let (g, f) = (options.generator, options.fifo);
    let (verilog, ports) = match config {
        Config::Rv32 => emit_path::<32, 5, 4>(g, f, &top),
        Config::Rv64 => emit_path::<64, 6, 4>(g, f, &top),
        Config::Rv32Itype3 => emit_path::<32, 5, 3>(g, f, &top),
        Config::Rv64Itype3 => emit_path::<64, 6, 3>(g, f, &top),
    };
    let mut optimisations = Vec::new();
    if g.sijump {
        optimisations.push("sequential jump".to_string());
    }
    if g.call_stack > 0 {
        optimisations.push(format!("implicit return ({} entries)", g.call_stack));
    }
    if g.repeat_history {
        optimisations.push("repeated history".to_string());
    }
    let optimisations = if optimisations.is_empty() {
        String::new()
    } else {
        format!(", {}", optimisations.join(", "))
    };
    Ok(Generated {
        top,
        verilog,
        ports,
        description: format!(
            "RISC-V N-Trace instruction trace encoder, configuration {} ({}{optimisations}; MSEO bytes, {}-byte FIFO sending {} bytes every {} record steps)",
            config.name(),
            if g.htm { "HTM" } else { "BTM" },
            f.bytes,
            f.send_bytes,
            f.every_cycles,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_refused_with_their_reason() {
        let ok = NtraceTopOptions::default();
        let with_fifo = |bytes| NtraceTopOptions {
            fifo: NtraceFifoConfig { bytes, ..ok.fifo },
            ..ok
        };
        assert_eq!(
            check_options(Config::Rv32, &with_fifo(RESTART_ROOM - 1)),
            Err(NtraceTopError::FifoBytes(RESTART_ROOM - 1))
        );
        assert_eq!(
            check_options(Config::Rv32, &with_fifo(257)),
            Err(NtraceTopError::FifoBytes(257))
        );
        let stack = NtraceTopOptions {
            generator: NtraceHwOptions {
                call_stack: 2,
                ..ok.generator
            },
            ..ok
        };
        assert!(check_options(Config::Rv32, &stack).is_ok());
        assert!(matches!(
            check_options(Config::Rv32Itype3, &stack),
            Err(NtraceTopError::CallStack { depth: 2, .. })
        ));
        let no_send = NtraceTopOptions {
            fifo: NtraceFifoConfig {
                send_bytes: 0,
                ..ok.fifo
            },
            ..ok
        };
        assert_eq!(
            check_options(Config::Rv32, &no_send),
            Err(NtraceTopError::SendRate(0, 1))
        );
    }

    #[test]
    fn the_byte_fifo_is_the_smallest_power_of_two_holding_the_fifo() {
        for (bytes, bits) in [
            (RESTART_ROOM, 6),
            (64, 6),
            (65, 7),
            (128, 7),
            (129, 8),
            (256, 8),
        ] {
            assert_eq!(fifo_bits(bytes), bits, "{bytes} bytes");
            assert!(bytes <= 1 << bits && (bits == 6 || bytes > 1 << (bits - 1)));
        }
    }

    #[test]
    fn the_top_has_flat_pins_and_passes_the_checks() {
        let g = generate_ntrace(Config::Rv32, &NtraceTopOptions::default()).unwrap();
        assert_eq!(g.top, "etrace_ntrace_encoder_rv32");
        let names: Vec<&str> = g.ports.iter().map(|p| p.name.as_str()).collect();
        for pin in [
            "clock",
            "reset",
            "iretire",
            "itype",
            "iaddr",
            "privilege",
            "hart_context",
            "sijump",
            "ilastsize",
            "trace_enable",
            "in_valid",
            "in_ready",
            "out_valid",
            "out_data",
            "out_last",
            "lost",
        ] {
            assert!(names.contains(&pin), "pin {pin} missing from {names:?}");
        }
        let iaddr = g.ports.iter().find(|p| p.name == "iaddr").unwrap();
        assert_eq!((iaddr.width, iaddr.input), (32, true));
        crate::verilog::lint_top(&g.top, &g.verilog).unwrap();
    }
}
