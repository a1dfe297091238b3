//! Helpers shared by the hardware tests: an ingress block on the port bundle, the model's
//! encap stream of one or more encoder runs (the reference of every whole-encoder test),
//! an 8N1 decoder for the board's serial line, a checked command runner, and Verilog run
//! under Icarus Verilog.

#![allow(dead_code)]

use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hdl::board::BoardEncoder;
use etrace_hdl::encoder_core::CoreOptions;
use etrace_hdl::ingress::inputs::Ingress;
use etrace_spec::bitfield::low_bits;
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::pack;
use etrace_spec::params::Params;
use std::path::Path;
use std::process::Command;

/// Drives `block` onto an ingress port bundle (`ingressPort.adoc`; the conventions of
/// `etrace_spec::ingress`), each field cut to its port's width; `None` is an idle cycle
/// (`iretire` and `itype` 0).
pub fn drive_block<const A: usize, const E: usize, const IT: usize>(
    port: &mut Ingress<A, E, IT>,
    block: Option<&IngressRecord>,
) {
    let r = block.copied().unwrap_or_default();
    let present = block.is_some();
    port.iretire.next = present && r.iretire != 0;
    port.itype.next = if present {
        u64::from(r.itype.code())
    } else {
        0
    }
    .into();
    port.iaddr.next = low_bits(r.iaddr, A as u32).into();
    port.privilege.next = u64::from(r.privilege.code()).into();
    port.cause.next = low_bits(r.cause, E as u32).into();
    port.tval.next = low_bits(r.tval, A as u32).into();
    port.hart_context.next = (r.context & 1).into();
    port.ctype.next = u64::from(r.ctype & 1).into();
    port.sijump.next = r.sijump;
    port.ilastsize.next = r.ilastsize != 0;
}

/// The model's encap stream of `runs`, one `Encoder::encode_all` per run framed by one
/// `EncapWriter` (no srcID, no timestamp, a sync sequence every 4096 bytes): what
/// `etrace encode --framing encap` writes, continued across the runs. Also returns the
/// stream's length after each run.
pub fn encap_stream(
    params: &Params,
    options: EncoderOptions,
    runs: &[&[IngressRecord]],
) -> (Vec<u8>, Vec<usize>) {
    encap_stream_framed(params, options, EncapConfig::default(), runs, &[])
}

/// [`encap_stream`] framed with `encap`, its `srcID` 0; with timestamps
/// (`encap.timestamp_bytes` > 0) the n-th packet carries `timestamps[n]` (0 past its
/// end): the model has no cycles, so a test takes them from the hardware's stream and
/// checks them on their own.
pub fn encap_stream_framed(
    params: &Params,
    options: EncoderOptions,
    encap: EncapConfig,
    runs: &[&[IngressRecord]],
    timestamps: &[u64],
) -> (Vec<u8>, Vec<usize>) {
    let mut writer = EncapWriter::new(encap, 4096);
    let mut ends = Vec::new();
    let mut n = 0;
    for &records in runs {
        for p in Encoder::encode_all(params, options, records).unwrap() {
            let payload = pack(&p.packet, params).unwrap().bytes;
            let timestamp =
                (encap.timestamp_bytes > 0).then(|| timestamps.get(n).copied().unwrap_or(0));
            writer.write(&payload, 0, timestamp).unwrap();
            n += 1;
        }
        ends.push(writer.bytes().len());
    }
    (writer.into_bytes(), ends)
}

/// Decodes an 8N1 line sampled once per clock cycle, `c` cycles per bit: every falling
/// edge from idle starts a frame, sampled in the middle of each bit. Panics on a frame
/// whose start bit does not last half a bit or whose stop bit is 0 (a framing error).
pub fn decode_uart(line: &[bool], c: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut t = 1;
    while t < line.len() {
        if line[t - 1] && !line[t] {
            let mid = |bit: usize| t + c / 2 + bit * c;
            if mid(9) >= line.len() {
                break;
            }
            assert!(
                !line[mid(0)],
                "start bit at cycle {t} does not last half a bit"
            );
            let byte = (0..8).fold(0u8, |b, i| b | (u8::from(line[mid(i + 1)]) << i));
            assert!(
                line[mid(9)],
                "framing error: stop bit of the frame at cycle {t}"
            );
            bytes.push(byte);
            t = mid(9);
        }
        t += 1;
    }
    bytes
}

/// What a board top's Icarus Verilog run printed: the serial line, one sample per cycle,
/// and the testbench's second line (its LED counts).
pub struct IcarusRun {
    /// The serial line in each cycle (`true`: high).
    pub line: Vec<bool>,
    /// The testbench's second line of output.
    pub counts: String,
}

/// Runs `command` in `dir`, panicking with its output on failure.
pub fn run(what: &str, command: &mut Command, dir: &Path) -> String {
    let out = command
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{what} does not run: {e} (scripts/setup.sh installs it)"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Compiles `sources` in `dir` with Icarus Verilog (`options` first, then a `-D` for
/// each of `defines`, such as `CYCLES=1000`) and runs the simulation: what it printed.
/// Panics with the tool's output when either step fails.
pub fn icarus(dir: &Path, options: &[&str], defines: &[String], sources: &[&str]) -> String {
    let mut iverilog = Command::new("iverilog");
    iverilog
        .args(options)
        .args(["-o", "sim"])
        .args(defines.iter().map(|d| format!("-D{d}")))
        .args(sources);
    run("iverilog", &mut iverilog, dir);
    run("vvp", Command::new("vvp").args(["-n", "sim"]), dir)
}

/// Compiles `top_v` and the testbench `tb_v` with Icarus Verilog ([`icarus`]) in a fresh
/// directory named after `name` and the process, runs the simulation, and returns its two
/// lines of output: the serial line as `0`/`1`, one character per cycle, then the LED
/// counts.
pub fn run_under_icarus(name: &str, top_v: &str, tb_v: &str, defines: &[String]) -> IcarusRun {
    let dir = std::env::temp_dir().join(format!("etrace-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), top_v).unwrap();
    std::fs::write(dir.join("tb.v"), tb_v).unwrap();
    let stdout = icarus(&dir, &[], defines, &["tb.v", "top.v"]);
    let _ = std::fs::remove_dir_all(&dir);
    let mut lines = stdout.lines();
    let line = lines
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| c == '1')
        .collect();
    let counts = lines.next().unwrap_or("").to_string();
    IcarusRun { line, counts }
}

/// The board encoder with every generation option, as `etrace synth`'s `rv32-all` build
/// (`README.md`, "FPGA cost"): an 8-bit `srcID`, timestamps, `bpred_size_p` = 6 and
/// `return_stack_size_p` = 2.
pub fn all_options_board() -> BoardEncoder {
    BoardEncoder {
        src_bits: 8,
        timestamp: true,
        core: CoreOptions {
            bpred_size: 6,
            return_stack_size: 2,
            fault: None,
        },
    }
}
