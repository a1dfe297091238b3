//! Packing and framing of te_inst packets as the encoder hands them out (`--framing`,
//! `docs/cli.md` "Framings"), for `etrace encode` and `etrace run`: each batch of packets
//! is packed (`payload.adoc`) and framed into bytes that the caller writes or deframes
//! at once, so that no whole-trace buffer is kept.

use super::framing_args::{setting_error, FramingArgs};
use crate::error::{CliError, InputContext};
use etrace_encoder::EncodedPacket;
use etrace_spec::bitfield::low_bits;
use etrace_spec::framing::{Framer, Outgoing};
use etrace_spec::packet::pack;
use etrace_spec::params::Params;

/// The framer of `--framing` with the running counts of what went through it.
pub(super) struct PacketFramer {
    framer: Box<dyn Framer>,
    params: Params,
    source: u16,
    timestamp_bits: u32,
    /// Packets framed so far.
    pub(super) packets: u64,
    /// Payload bytes (packed te_inst packets).
    pub(super) payload_bytes: u64,
    /// Bytes on the transport (for atb: beats times the bus width).
    pub(super) framed_bytes: u64,
}

impl PacketFramer {
    /// The framer of `framing` for packets packed with `params`; a bad framing setting is
    /// bad input.
    pub(super) fn new(framing: &FramingArgs, params: &Params) -> Result<PacketFramer, CliError> {
        let config = framing.config()?;
        let settings = framing.settings();
        let framer = config.framer(&settings).map_err(setting_error)?;
        Ok(PacketFramer {
            timestamp_bits: framer.timestamp_bits(),
            source: config.source(&settings),
            framer,
            params: params.clone(),
            packets: 0,
            payload_bytes: 0,
            framed_bytes: 0,
        })
    }

    /// Packs and frames the next `packets` onto `out` (errors name the packet by its index
    /// in the whole trace).
    pub(super) fn write(
        &mut self,
        packets: &[EncodedPacket],
        out: &mut Vec<u8>,
    ) -> Result<(), CliError> {
        for packet in packets {
            let i = self.packets;
            let packed = pack(&packet.packet, &self.params).at(format_args!("packet #{i}"))?;
            self.payload_bytes += packed.bytes.len() as u64;
            let outgoing = Outgoing {
                payload: &packed.bytes,
                source: self.source,
                timestamp: timestamp(self.timestamp_bits, packet),
            };
            self.framed_bytes += self
                .framer
                .write_packet(&outgoing, out)
                .at(format_args!("packet #{i} (record {})", packet.record_index))?;
            self.packets += 1;
        }
        Ok(())
    }

    /// The payload and framed byte counts and their bits per retired instruction, as
    /// statistics lines (`docs/cli.md`, "encode" statistics; `run` prints the same lines).
    pub(super) fn size_lines(&self, retired: u64) -> [String; 3] {
        let per_insn = |bytes: u64| 8.0 * bytes as f64 / retired.max(1) as f64;
        [
            format!("payload bytes: {}", self.payload_bytes),
            format!("framed bytes: {}", self.framed_bytes),
            format!(
                "bits per instruction: {:.4} (payload), {:.4} (framed)",
                per_insn(self.payload_bytes),
                per_insn(self.framed_bytes)
            ),
        ]
    }
}

/// The timestamp of a packet (`docs/cli.md`, "Framings"): `etrace encode` has no cycles, so
/// it stamps the cycle in which the hardware would produce the packet if the ingress
/// presented one record per cycle and nothing stalled (the encoder clock,
/// [`EncodedPacket::clock`]), truncated to the field of `bits` bits (none when 0).
fn timestamp(bits: u32, packet: &EncodedPacket) -> Option<u64> {
    (bits > 0).then(|| low_bits(packet.clock, bits))
}
