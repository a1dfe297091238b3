//! What the encoder's output port shows in one cycle, in one form for the RTL ([`Outputs`])
//! and the cycle model ([`OutputItem`]), so that the two compare with `==`
//! (`hdl/DESIGN.md`, items 4, 7 and 8).

use std::fmt;

use etrace_encoder::cycle::output_path::OutputItem;
use etrace_spec::framing::atb::AtbBeat;

use crate::Outputs;

/// The port in one cycle: the byte or beat presented (if valid) and `trace_lost`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PortState {
    /// The byte (`out_data`, `out_last`) presented, byte-stream variants.
    pub byte: Option<(u8, bool)>,
    /// The beat presented, ATB variants; ATDATA above ATBYTES is masked (don't care).
    pub beat: Option<AtbBeat>,
    /// `trace_lost`.
    pub trace_lost: bool,
}

/// ATDATA with the bytes above ATBYTES cleared.
fn valid_data(atdata: u128, atbytes: u8) -> u128 {
    let bits = (u32::from(atbytes) + 1) * 8;
    if bits >= 128 {
        atdata
    } else {
        atdata & ((1u128 << bits) - 1)
    }
}

impl PortState {
    /// The RTL's outputs of a cycle.
    pub fn of_rtl(out: &Outputs, atb: bool) -> PortState {
        PortState {
            byte: (!atb && out.out_valid).then_some((out.out_data, out.out_last)),
            beat: (atb && out.atvalid).then(|| AtbBeat {
                atid: out.atid,
                atbytes: out.atbytes,
                atdata: valid_data(out.atdata, out.atbytes),
            }),
            trace_lost: out.trace_lost,
        }
    }

    /// The cycle model's port before it runs the cycle.
    pub fn of_model(item: Option<OutputItem>, trace_lost: bool) -> PortState {
        let (byte, beat) = match item {
            Some(OutputItem::Byte { data, last }) => (Some((data, last)), None),
            Some(OutputItem::Beat(b)) => (
                None,
                Some(AtbBeat {
                    atdata: valid_data(b.atdata, b.atbytes),
                    ..b
                }),
            ),
            None => (None, None),
        };
        PortState {
            byte,
            beat,
            trace_lost,
        }
    }
}

impl fmt::Display for PortState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.byte, self.beat) {
            (Some((data, last)), _) => write!(
                f,
                "out_valid 1, out_data {data:#04x}, out_last {}",
                u8::from(last)
            )?,
            (_, Some(b)) => write!(
                f,
                "ATVALID 1, ATID {:#04x}, ATBYTES {}, ATDATA {:#x}",
                b.atid, b.atbytes, b.atdata
            )?,
            _ => write!(f, "nothing valid")?,
        }
        write!(f, ", trace_lost {}", u8::from(self.trace_lost))
    }
}
