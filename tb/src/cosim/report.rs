//! The report of a co-simulation mismatch: the run is repeated from reset with the waveform
//! on around the failing cycle and both sides continue a little past it, so that the first
//! differing byte, the packet it belongs to on each side (decoded) and the cycles involved
//! can be named.

use std::fmt;
use std::path::PathBuf;

use etrace_spec::framing::encap::{EncapDeframer, EncapItem};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::unpack;

use super::{Bench, CosimConfig, CosimError, PortState};
use crate::Variant;

/// Cycles of waveform before the failing cycle.
const WAVE_BEFORE: u64 = 4000;
/// Cycles both sides run past the failing cycle to complete the packets involved.
const RUN_AFTER: u64 = 600;

/// One side's packet around the first differing byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PacketView {
    /// Index of the packet in the stream (0-based).
    pub index: usize,
    /// Byte offset of its header.
    pub offset: usize,
    /// The payload bytes.
    pub payload: Vec<u8>,
    /// The decoded te_inst, or why it does not decode.
    pub decoded: String,
}

/// Where and how the RTL and the model first differ.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The variant simulated.
    pub variant: Variant,
    /// The first cycle (after reset) whose port differs.
    pub cycle: u64,
    /// The RTL's port in that cycle.
    pub rtl: PortState,
    /// The model's port in that cycle.
    pub model: PortState,
    /// Index of the first differing byte taken by the consumer, when the byte streams
    /// differ within the cycles run after the failing one.
    pub byte: Option<u64>,
    /// That byte on each side (RTL, model), if present.
    pub bytes: (Option<u8>, Option<u8>),
    /// The cycle each side handed that byte out (RTL, model).
    pub byte_cycles: (Option<u64>, Option<u64>),
    /// The packet holding that byte on each side (RTL, model).
    pub packets: (Option<PacketView>, Option<PacketView>),
    /// The waveform file and the cycles it covers.
    pub wave: Option<(PathBuf, u64, u64)>,
    /// Wall time until the mismatch, seconds.
    pub seconds: f64,
}

/// One side's stream after the re-run: every byte taken and the cycle it was taken in.
#[derive(Default)]
struct Side {
    bytes: Vec<u8>,
    cycles: Vec<u64>,
}

impl Side {
    fn take(&mut self, port: &PortState, cycle: u64) {
        let data: Vec<u8> = match (port.byte, port.beat) {
            (Some((b, _)), _) => vec![b],
            (_, Some(beat)) => beat.bytes(),
            _ => Vec::new(),
        };
        for b in data {
            self.bytes.push(b);
            self.cycles.push(cycle);
        }
    }
}

/// The packet holding byte `index` of `bytes`.
fn packet_at(bytes: &[u8], index: usize, config: &CosimConfig) -> Option<PacketView> {
    let output = config.output();
    let mut found = None;
    let mut k = 0usize;
    for item in EncapDeframer::new(bytes, output.encap()).flatten() {
        if let EncapItem::Packet(p) = item {
            if p.offset > index {
                break;
            }
            found = Some((k, p));
            k += 1;
        }
    }
    let (index, p) = found?;
    let decoded = match unpack(&p.payload, &config.params()) {
        Ok(inst) => format!("{inst:?}"),
        Err(e) => format!("does not decode: {e}"),
    };
    Some(PacketView {
        index,
        offset: p.offset,
        payload: p.payload,
        decoded,
    })
}

/// Repeats the run to describe the mismatch found at `cycle`.
pub(super) fn mismatch<I>(
    config: &CosimConfig,
    records: I,
    cycle: u64,
    rtl: PortState,
    model: PortState,
    seconds: f64,
) -> Result<Mismatch, CosimError>
where
    I: Iterator<Item = IngressRecord>,
{
    let mut bench = Bench::new(config, records, true)?;
    let path = config.wave.clone().unwrap_or_else(|| {
        config.mismatch_wave_dir.join(format!(
            "etrace-cosim-{}-seed{}-cycle{cycle}.vcd",
            config.variant.name(),
            config.stall.seed
        ))
    });
    let wave_from = cycle.saturating_sub(WAVE_BEFORE);
    let end = cycle + RUN_AFTER;
    let (mut rtl_side, mut model_side) = (Side::default(), Side::default());
    let mut wave = None;
    for t in 0..end {
        if t == wave_from {
            // The waveform is part of the report: a failure to write it is reported, the
            // mismatch is not lost.
            if bench.rtl.open_vcd(&path).is_ok() {
                wave = Some((path.clone(), wave_from, end - 1));
            }
        }
        let (got, want, ready) = bench.step()?;
        if ready {
            rtl_side.take(&got, t);
            model_side.take(&want, t);
        }
    }
    bench.rtl.close_vcd();
    let first = (0..rtl_side.bytes.len().max(model_side.bytes.len()))
        .find(|&i| rtl_side.bytes.get(i) != model_side.bytes.get(i));
    let mut report = Mismatch {
        variant: config.variant,
        cycle,
        rtl,
        model,
        byte: first.map(|i| i as u64),
        bytes: (None, None),
        byte_cycles: (None, None),
        packets: (None, None),
        wave,
        seconds,
    };
    if let Some(i) = first {
        report.bytes = (
            rtl_side.bytes.get(i).copied(),
            model_side.bytes.get(i).copied(),
        );
        report.byte_cycles = (
            rtl_side.cycles.get(i).copied(),
            model_side.cycles.get(i).copied(),
        );
        report.packets = (
            packet_at(&rtl_side.bytes, i, config),
            packet_at(&model_side.bytes, i, config),
        );
    }
    Ok(report)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "RTL and model differ at cycle {} (variant {}, after {:.2} s)",
            self.cycle,
            self.variant.name(),
            self.seconds
        )?;
        writeln!(f, "  RTL:   {}", self.rtl)?;
        writeln!(f, "  model: {}", self.model)?;
        let opt = |b: Option<u8>| b.map_or("none".to_string(), |b| format!("{b:#04x}"));
        let at = |c: Option<u64>| c.map_or("-".to_string(), |c| c.to_string());
        match self.byte {
            Some(i) => {
                writeln!(
                    f,
                    "  first differing byte: {i} (RTL {}, model {}), taken in cycle {} (RTL) / {} (model)",
                    opt(self.bytes.0),
                    opt(self.bytes.1),
                    at(self.byte_cycles.0),
                    at(self.byte_cycles.1)
                )?;
                for (side, p) in [("RTL", &self.packets.0), ("model", &self.packets.1)] {
                    match p {
                        Some(p) => writeln!(
                            f,
                            "  {side:<5} packet {} at byte {}: payload {} = {}",
                            p.index,
                            p.offset,
                            hex(&p.payload),
                            p.decoded
                        )?,
                        None => writeln!(f, "  {side:<5} packet: none")?,
                    }
                }
            }
            None => writeln!(
                f,
                "  the bytes taken agree up to {} cycles after; the port differs in valid, last or trace_lost",
                RUN_AFTER
            )?,
        }
        match &self.wave {
            Some((path, from, to)) => {
                write!(f, "  waveform: {} (cycles {from}-{to})", path.display())
            }
            None => write!(f, "  waveform: could not be written"),
        }
    }
}
