//! Arm AMBA Trace Bus transport (`fragmentCodeAndTransport.adoc`, "ATB transport"): the
//! encapsulated stream of `e-trace-encap` with a 0-bit `srcID` (the source is on ATID)
//! carried in ATDATA beats of 8-128 bits. Each packet starts a new beat; a beat carries
//! ATBYTES + 1 valid bytes, byte 0 in ATDATA[7:0].

use std::collections::BTreeMap;

use super::encap::{EncapConfig, EncapDeframer, EncapItem};
use super::FrameError;

/// One ATB transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtbBeat {
    /// ATID: the trace source, 7 bits (0x00 and 0x70-0x7f are reserved).
    pub atid: u8,
    /// ATBYTES: number of valid bytes minus one.
    pub atbytes: u8,
    /// ATDATA: valid bytes from bit 0 up; the rest zero.
    pub atdata: u128,
}

impl AtbBeat {
    /// The valid bytes, in stream order.
    pub fn bytes(&self) -> Vec<u8> {
        let n = usize::from(self.atbytes) + 1;
        self.atdata.to_le_bytes()[..n.min(16)].to_vec()
    }
}

/// ATB transport parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtbConfig {
    /// ATDATA width in bytes: 1, 2, 4, 8 or 16.
    pub data_bytes: u8,
    /// The inner encapsulation (its `src_bits` must be 0).
    pub encap: EncapConfig,
}

impl Default for AtbConfig {
    /// A 32-bit bus, no timestamps, no type field.
    fn default() -> Self {
        AtbConfig {
            data_bytes: 4,
            encap: EncapConfig::default(),
        }
    }
}

/// Whether an ATID may carry trace (ATB: 0x00 and 0x70-0x7f are reserved).
pub fn atid_is_valid(atid: u8) -> bool {
    (0x01..0x70).contains(&atid)
}

/// One item of an ATB trace: a deframed encap item of one ATID, the index of the beat
/// holding its first byte, and its offset within that ATID's byte stream (inside `item`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtbItem {
    /// The source.
    pub atid: u8,
    /// Index of the beat that holds the item's first byte (or the offending beat).
    pub beat: usize,
    /// The item; offsets in it are offsets in this ATID's byte stream.
    pub item: Result<EncapItem, FrameError>,
}

impl AtbConfig {
    /// A configuration for an ATDATA width in bits (8, 16, 32, 64 or 128).
    pub fn with_data_bits(data_bits: u32) -> Result<AtbConfig, FrameError> {
        let cfg = AtbConfig {
            data_bytes: (data_bits / 8) as u8,
            ..AtbConfig::default()
        };
        if data_bits % 8 != 0 {
            return Err(FrameError::BadConfig {
                what: "ATB data width in bits",
                value: u64::from(data_bits),
            });
        }
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the bus width and the inner encapsulation.
    pub fn validate(&self) -> Result<(), FrameError> {
        if ![1, 2, 4, 8, 16].contains(&self.data_bytes) {
            return Err(FrameError::BadConfig {
                what: "ATB data width in bytes",
                value: u64::from(self.data_bytes),
            });
        }
        if self.encap.src_bits != 0 {
            return Err(FrameError::BadConfig {
                what: "srcID bits over ATB (the source is on ATID)",
                value: u64::from(self.encap.src_bits),
            });
        }
        self.encap.validate()
    }

    /// Splits a byte stream of one source into beats (the last may be partial).
    pub fn beats(&self, bytes: &[u8], atid: u8) -> Result<Vec<AtbBeat>, FrameError> {
        self.validate()?;
        if !atid_is_valid(atid) {
            return Err(FrameError::BadAtid { beat: 0, atid });
        }
        Ok(bytes
            .chunks(usize::from(self.data_bytes))
            .map(|chunk| {
                let mut le = [0u8; 16];
                le[..chunk.len()].copy_from_slice(chunk);
                AtbBeat {
                    atid,
                    atbytes: (chunk.len() - 1) as u8,
                    atdata: u128::from_le_bytes(le),
                }
            })
            .collect())
    }

    /// Frames one payload: an encap packet (no srcID) in beats on `atid`.
    pub fn frame(
        &self,
        payload: &[u8],
        atid: u8,
        timestamp: Option<u64>,
    ) -> Result<Vec<AtbBeat>, FrameError> {
        self.validate()?;
        let packet = self.encap.frame(payload, 0, timestamp)?;
        self.beats(&packet, atid)
    }

    /// One beat as a line: `ATID=0x05 ATBYTES=3 ATDATA=0x00007309` (ATDATA with the bus
    /// width's number of hex digits).
    pub fn format_beat(&self, beat: &AtbBeat) -> String {
        format!(
            "ATID={:#04x} ATBYTES={} ATDATA=0x{:0width$x}",
            beat.atid,
            beat.atbytes,
            beat.atdata,
            width = 2 * usize::from(self.data_bytes)
        )
    }

    /// Parses a line written by [`AtbConfig::format_beat`].
    pub fn parse_beat(&self, line: &str) -> Result<AtbBeat, FrameError> {
        let bad = |what| FrameError::BadBeatText {
            text: line.to_string(),
            what,
        };
        let mut atid = None;
        let mut atbytes = None;
        let mut atdata = None;
        for word in line.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad("expected KEY=VALUE"))?;
            let number = match value
                .strip_prefix("0x")
                .or_else(|| value.strip_prefix("0X"))
            {
                Some(hex) => u128::from_str_radix(hex, 16),
                None => value.parse::<u128>(),
            }
            .map_err(|_| bad("value is not a number"))?;
            match key {
                "ATID" => atid = Some(u8::try_from(number).map_err(|_| bad("ATID too large"))?),
                "ATBYTES" => {
                    atbytes = Some(u8::try_from(number).map_err(|_| bad("ATBYTES too large"))?)
                }
                "ATDATA" => atdata = Some(number),
                _ => return Err(bad("unknown key (expected ATID, ATBYTES, ATDATA)")),
            }
        }
        Ok(AtbBeat {
            atid: atid.ok_or_else(|| bad("missing ATID"))?,
            atbytes: atbytes.ok_or_else(|| bad("missing ATBYTES"))?,
            atdata: atdata.ok_or_else(|| bad("missing ATDATA"))?,
        })
    }
}

/// The inverse of framing: collects the valid bytes of each ATID into its own stream and
/// deframes each stream as encap (assuming it starts at a packet boundary). Beats with a
/// reserved ATID or an ATBYTES too large for the bus are reported and skipped. Items are
/// ordered by the beat holding their first byte.
pub fn deframe_atb(beats: &[AtbBeat], config: &AtbConfig) -> Vec<AtbItem> {
    let mut items = Vec::new();
    if let Err(e) = config.validate() {
        items.push(AtbItem {
            atid: 0,
            beat: 0,
            item: Err(e),
        });
        return items;
    }
    // Per ATID: the byte stream and, for each byte, the beat it came from.
    let mut streams: BTreeMap<u8, (Vec<u8>, Vec<usize>)> = BTreeMap::new();
    for (i, beat) in beats.iter().enumerate() {
        if !atid_is_valid(beat.atid) {
            items.push(AtbItem {
                atid: beat.atid,
                beat: i,
                item: Err(FrameError::BadAtid {
                    beat: i,
                    atid: beat.atid,
                }),
            });
            continue;
        }
        if beat.atbytes >= config.data_bytes {
            items.push(AtbItem {
                atid: beat.atid,
                beat: i,
                item: Err(FrameError::BadAtbytes {
                    beat: i,
                    atbytes: beat.atbytes,
                    data_bytes: config.data_bytes,
                }),
            });
            continue;
        }
        let (bytes, origin) = streams.entry(beat.atid).or_default();
        for b in beat.bytes() {
            bytes.push(b);
            origin.push(i);
        }
    }
    for (atid, (bytes, origin)) in &streams {
        for item in EncapDeframer::new(bytes, config.encap) {
            let offset = match &item {
                Ok(EncapItem::Packet(p)) => p.offset,
                Ok(EncapItem::NullIdle { offset, .. })
                | Ok(EncapItem::NullAlignment { offset, .. })
                | Ok(EncapItem::Synced { offset, .. }) => *offset,
                Err(FrameError::Truncated { offset, .. })
                | Err(FrameError::BadHeader { offset, .. })
                | Err(FrameError::EmptyPayload { offset })
                | Err(FrameError::NoSync { offset, .. }) => *offset,
                Err(_) => 0,
            };
            let beat = origin.get(offset).or(origin.last()).copied().unwrap_or(0);
            items.push(AtbItem {
                atid: *atid,
                beat,
                item,
            });
        }
    }
    items.sort_by_key(|it| it.beat);
    items
}
