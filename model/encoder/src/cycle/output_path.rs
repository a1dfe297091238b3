//! Cycle-accurate model of the encoder's output path (`hdl/DESIGN.md`, "Cycle contract"
//! items 4-8): the packet register and the queue's input register (the packets produced in
//! cycle `t` pass them in cycles `t + 1` and `t + 2`, enter the queue at the end of `t + 2`
//! and count as taken meanwhile), the 2-entry packet queue, the 16-bit timestamp counter, the serializer that
//! writes the framed bytes of `e-trace-encap` or of UltraSoC messages (the framer of the
//! registry [`etrace_spec::framing`]: `EncapWriter`, `SmiWriter`) one per cycle into the
//! byte FIFO, and the output port: a valid/ready byte stream or the ATB adapter
//! (`fragmentCodeAndTransport.adoc`, "ATB transport").
//!
//! One call of [`OutputPath::cycle`] is one clock cycle; every decision uses the state at
//! the start of the cycle, as the hardware's registers do.

use std::collections::VecDeque;

use etrace_spec::framing::atb::{atid_is_valid, AtbBeat};
use etrace_spec::framing::encap::EncapConfig;
use etrace_spec::framing::{
    FrameError, Framer, FramingConfig, FramingKind, FramingSettings, Outgoing,
};

/// Entries of the packet queue (`DESIGN.md` item 4).
pub const QUEUE_ENTRIES: usize = 2;

/// Bytes of the timestamp: the 16-bit cycle counter (`DESIGN.md` item 5).
pub const TIMESTAMP_BYTES: u8 = 2;

/// The output port after the byte FIFO (`DESIGN.md` items 7 and 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputPort {
    /// The byte stream: `out_data`, `out_valid`, `out_ready`, `out_last`.
    ByteStream,
    /// The ATB adapter: ATDATA of `data_bytes` bytes (1, 2, 4, 8, 16), the source on
    /// `atid`.
    Atb {
        /// ATDATA width in bytes.
        data_bytes: u8,
        /// ATID of every beat.
        atid: u8,
    },
}

/// Compile-time settings of the output path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputPathConfig {
    /// The framing of the bytes: [`FramingKind::Encap`] or [`FramingKind::Smi`]
    /// (UltraSoC messages, byte stream only).
    pub framing: FramingKind,
    /// Width of the encap `srcID` or of the smi index in bits, 0-16
    /// (`encapsulation.adoc`); 0 for ATB.
    pub src_bits: u8,
    /// The `srcID` (index) value.
    pub src_id: u16,
    /// Whether every packet carries the 2-byte timestamp (encap `header.extend` = 1, smi
    /// header bit 7).
    pub timestamp: bool,
    /// Bytes between encap synchronisation sequences as `EncapWriter` counts them (0 =
    /// none; `etrace encode --framing encap` uses 4096). Must be 0 for ATB and smi.
    pub sync_interval: usize,
    /// Depth D of the byte FIFO (a power of two).
    pub fifo_depth: usize,
    /// The port after the FIFO.
    pub port: OutputPort,
}

impl Default for OutputPathConfig {
    /// The byte stream of `etrace encode --framing encap`: no srcID, no timestamp, a sync
    /// sequence every 4096 bytes, a 64-byte FIFO.
    fn default() -> Self {
        OutputPathConfig {
            framing: FramingKind::Encap,
            src_bits: 0,
            src_id: 0,
            timestamp: false,
            sync_interval: 4096,
            fifo_depth: 64,
            port: OutputPort::ByteStream,
        }
    }
}

impl OutputPathConfig {
    /// The encapsulation of the framed packets (flow 0, no `type` field).
    pub fn encap(&self) -> EncapConfig {
        EncapConfig {
            src_bits: self.src_bits,
            timestamp_bytes: if self.timestamp { TIMESTAMP_BYTES } else { 0 },
            ..EncapConfig::default()
        }
    }

    /// The framing settings of the bytes (as `etrace encode --framing encap|smi` takes
    /// them; `--src-id` is the `srcID` / index value).
    pub fn settings(&self) -> FramingSettings {
        FramingSettings {
            src_bits: self.src_bits,
            src_id: Some(self.src_id),
            timestamp: self.timestamp,
            timestamp_bytes: TIMESTAMP_BYTES,
            atb_bits: 0,
            sync_interval: self.sync_interval,
        }
    }

    /// The framing of the bytes with its configuration (the registry's; for the ATB port
    /// the encapsulation inside the beats).
    pub fn framing_config(&self) -> Result<FramingConfig, CycleError> {
        self.framing
            .config(&self.settings())
            .map_err(|e| CycleError::Framing(e.to_string()))
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<(), CycleError> {
        let bad = |what, value: u64| Err(CycleError::BadConfig { what, value });
        self.encap().validate().map_err(CycleError::Frame)?;
        match self.framing {
            FramingKind::Encap => {}
            FramingKind::Smi if self.port == OutputPort::ByteStream => {
                if self.sync_interval != 0 {
                    return bad("sync interval with smi", self.sync_interval as u64);
                }
            }
            _ => return Err(CycleError::Framing(format!("{} bytes", self.framing))),
        }
        self.framing_config()?;
        if !etrace_spec::bitfield::fits(u64::from(self.src_id), u32::from(self.src_bits)) {
            return bad("srcID wider than src_bits", u64::from(self.src_id));
        }
        if !self.fifo_depth.is_power_of_two() {
            return bad("FIFO depth (a power of two)", self.fifo_depth as u64);
        }
        if let OutputPort::Atb { data_bytes, atid } = self.port {
            if ![1, 2, 4, 8, 16].contains(&data_bytes) {
                return bad("ATB data width in bytes", u64::from(data_bytes));
            }
            if !atid_is_valid(atid) {
                return bad("ATID", u64::from(atid));
            }
            if self.src_bits != 0 {
                return bad("srcID bits over ATB", u64::from(self.src_bits));
            }
            if self.sync_interval != 0 {
                return bad("sync interval over ATB", self.sync_interval as u64);
            }
        }
        Ok(())
    }
}

/// What the output port presents or hands over in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputItem {
    /// A byte of the stream and whether it is the last byte of a packet.
    Byte {
        /// `out_data`.
        data: u8,
        /// `out_last`.
        last: bool,
    },
    /// An ATB beat.
    Beat(AtbBeat),
}

/// A cycle that breaks the output path's contract.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CycleError {
    /// A setting out of range.
    #[error("output path configuration: bad {what}: {value}")]
    BadConfig {
        /// The setting.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// More pushes than free queue entries (the packet logic must drop instead).
    #[error("cycle {cycle}: {pushes} packets pushed but only {free} queue entries free")]
    QueueOverflow {
        /// The cycle.
        cycle: u64,
        /// Packets pushed.
        pushes: usize,
        /// `free` at the start of the cycle.
        free: usize,
    },
    /// A payload the framer rejects (empty or too long).
    #[error("cycle {cycle}: packet produced in cycle {pushed}: {source}")]
    Payload {
        /// The cycle in which the serializer popped it.
        cycle: u64,
        /// The cycle in which it was produced.
        pushed: u64,
        /// The framer's error.
        source: FrameError,
    },
    /// A framing setting the framer rejects.
    #[error("output path configuration: {0}")]
    Frame(FrameError),
    /// A framing the output path cannot write (`atb` bytes, smi over ATB) or whose
    /// settings the registry rejects.
    #[error("output path configuration: framing not supported: {0}")]
    Framing(String),
}

/// A queued packet: payload bytes, timestamp, and the cycle it was produced in.
#[derive(Debug, Clone)]
struct Entry {
    payload: Vec<u8>,
    timestamp: u16,
    pushed: u64,
}

/// The output path, cycle by cycle (`DESIGN.md` items 4-8).
pub struct OutputPath {
    config: OutputPathConfig,
    cycle: u64,
    counter: u16,
    /// The packet register: produced in the previous cycle.
    staged: Vec<Entry>,
    /// The queue's input register: produced two cycles ago, enter the queue at the end of
    /// this one.
    incoming: Vec<Entry>,
    queue: VecDeque<Entry>,
    writer: Box<dyn Framer>,
    /// Bytes of the packet being serialized (sync sequence included), not yet written.
    pending: VecDeque<u8>,
    fifo: VecDeque<(u8, bool)>,
    beat: Vec<u8>,
    beat_valid: bool,
}

impl std::fmt::Debug for OutputPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputPath")
            .field("config", &self.config)
            .field("cycle", &self.cycle)
            .field("queue", &self.queue)
            .field("pending", &self.pending)
            .field("fifo", &self.fifo)
            .finish_non_exhaustive()
    }
}

impl OutputPath {
    /// The output path after reset.
    pub fn new(config: OutputPathConfig) -> Result<OutputPath, CycleError> {
        config.validate()?;
        let writer = config
            .framing_config()?
            .framer(&config.settings())
            .map_err(|e| CycleError::Framing(e.to_string()))?;
        Ok(OutputPath {
            config,
            cycle: 0,
            counter: 0,
            staged: Vec::new(),
            incoming: Vec::new(),
            queue: VecDeque::new(),
            writer,
            pending: VecDeque::new(),
            fifo: VecDeque::new(),
            beat: Vec::new(),
            beat_valid: false,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &OutputPathConfig {
        &self.config
    }

    /// Cycles run since reset.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }

    /// `free`: 2 minus the queue occupancy at the start of this cycle, counting the packets
    /// in the packet register and the queue's input register (item 4).
    pub fn free(&self) -> usize {
        QUEUE_ENTRIES - self.queue.len() - self.staged.len() - self.incoming.len()
    }

    /// The timestamp counter in this cycle (item 5).
    pub fn timestamp(&self) -> u16 {
        self.counter
    }

    /// Byte FIFO occupancy at the start of this cycle (item 7).
    pub fn fifo_occupancy(&self) -> usize {
        self.fifo.len()
    }

    /// What the port presents in this cycle: the FIFO's head byte (`out_valid`) or the
    /// valid beat (ATVALID); `None` when nothing is valid.
    pub fn presented(&self) -> Option<OutputItem> {
        match self.config.port {
            OutputPort::ByteStream => self
                .fifo
                .front()
                .map(|&(data, last)| OutputItem::Byte { data, last }),
            OutputPort::Atb { atid, .. } => self
                .beat_valid
                .then(|| OutputItem::Beat(self.make_beat(atid))),
        }
    }

    /// Whether nothing is queued, being serialized, buffered or presented.
    pub fn is_idle(&self) -> bool {
        self.staged.is_empty()
            && self.incoming.is_empty()
            && self.queue.is_empty()
            && self.pending.is_empty()
            && self.fifo.is_empty()
            && self.beat.is_empty()
    }

    fn make_beat(&self, atid: u8) -> AtbBeat {
        let mut le = [0u8; 16];
        le[..self.beat.len()].copy_from_slice(&self.beat);
        AtbBeat {
            atid,
            atbytes: self.beat.len().saturating_sub(1) as u8,
            atdata: u128::from_le_bytes(le),
        }
    }

    /// Runs one cycle: `pushes` are the payloads (sign-compressed bytes, as
    /// [`etrace_spec::packet::pack`] gives them) produced in this cycle, at most [`Self::free`]
    /// (they pass the packet register and the queue's input register in the next two cycles
    /// and enter the queue at the end of the second);
    /// `ready` is `out_ready` (byte stream) or ATREADY. Returns the byte or beat taken by
    /// the consumer in this cycle.
    pub fn cycle(
        &mut self,
        pushes: &[&[u8]],
        ready: bool,
    ) -> Result<Option<OutputItem>, CycleError> {
        let free = self.free();
        if pushes.len() > free {
            return Err(CycleError::QueueOverflow {
                cycle: self.cycle,
                pushes: pushes.len(),
                free,
            });
        }
        let fifo_start = self.fifo.len();
        // Item 7 / 8: the consumer side, from the state at the start of the cycle.
        let mut taken = None;
        match self.config.port {
            OutputPort::ByteStream => {
                if ready {
                    taken = self
                        .fifo
                        .pop_front()
                        .map(|(data, last)| OutputItem::Byte { data, last });
                }
            }
            OutputPort::Atb { data_bytes, atid } => {
                if self.beat_valid {
                    if ready {
                        taken = Some(OutputItem::Beat(self.make_beat(atid)));
                        self.beat.clear();
                        self.beat_valid = false;
                    }
                } else if let Some((data, last)) = self.fifo.pop_front() {
                    self.beat.push(data);
                    self.beat_valid = last || self.beat.len() == usize::from(data_bytes);
                }
            }
        }
        // Item 6: the serializer pops when idle, else writes one byte if the FIFO had room.
        if self.pending.is_empty() {
            if let Some(entry) = self.queue.pop_front() {
                let packet = Outgoing {
                    payload: &entry.payload,
                    source: self.config.src_id,
                    timestamp: self.config.timestamp.then_some(u64::from(entry.timestamp)),
                };
                let mut bytes = Vec::new();
                self.writer
                    .write_packet(&packet, &mut bytes)
                    .map_err(|source| CycleError::Payload {
                        cycle: self.cycle,
                        pushed: entry.pushed,
                        source,
                    })?;
                self.pending.extend(bytes);
            }
        } else if fifo_start < self.config.fifo_depth {
            if let Some(byte) = self.pending.pop_front() {
                self.fifo.push_back((byte, self.pending.is_empty()));
            }
        }
        // Item 4 / 5: the input register's packets enter the queue, the packet register's
        // move on, and this cycle's take their place, with this cycle's timestamp.
        self.queue.extend(self.incoming.drain(..));
        std::mem::swap(&mut self.incoming, &mut self.staged);
        for payload in pushes {
            self.staged.push(Entry {
                payload: payload.to_vec(),
                timestamp: self.counter,
                pushed: self.cycle,
            });
        }
        self.counter = self.counter.wrapping_add(1);
        self.cycle += 1;
        Ok(taken)
    }
}

#[cfg(test)]
mod tests;
