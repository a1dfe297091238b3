//! The ports of a verilated encoder (`etrace_hdl::output::Encoder` / `AtbEncoder`, and the
//! N-Trace encoder `etrace_hdl::ntrace::top`): the
//! values driven in one cycle ([`Inputs`], declared with the pins it drives in
//! `src/ports.rs`) and the values sampled in it ([`Outputs`]).

use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::IngressRecord;

pub use crate::ports::Inputs;
pub(crate) use crate::ports::RawOutputs;

impl Inputs {
    /// Puts one ingress block on the port (`ingressPort.adoc`; the conventions of
    /// `etrace_spec::ingress`), or clears the block fields for an idle cycle (`None`).
    /// `interrupt` is not a port (`hdl/DESIGN.md`, "Names that differ").
    pub fn set_block(&mut self, block: Option<&IngressRecord>) {
        match block {
            Some(r) => {
                self.iretire = r.iretire != 0;
                self.itype = r.itype.code();
                self.iaddr = r.iaddr;
                self.privilege = r.privilege.code();
                self.cause = r.cause;
                self.tval = r.tval;
                self.hart_context = (r.context & 1) as u8;
                self.ctype = r.ctype;
                self.sijump = r.sijump;
                self.ilastsize = r.ilastsize;
            }
            None => {
                self.iretire = false;
                self.itype = 0;
                self.iaddr = 0;
                self.cause = 0;
                self.tval = 0;
                self.hart_context = 0;
                self.ctype = 0;
                self.sijump = false;
                self.ilastsize = 0;
            }
        }
    }

    /// Sets the run-time option inputs from the model's options (`branchTrace.adoc`,
    /// "Optional and run-time configurable modes"); `resync_max` saturates at 65535.
    pub fn set_options(&mut self, options: &EncoderOptions) {
        self.full_address = options.full_address;
        self.implicit_exception = options.implicit_exception;
        self.sijump_option = options.sijump;
        self.branch_prediction = options.branch_prediction;
        self.implicit_return = options.implicit_return;
        self.resync_max = u16::try_from(options.resync_max).unwrap_or(u16::MAX);
    }
}

/// The output ports sampled in one cycle, before its rising edge: `out_valid && ready`
/// means the byte is taken in this cycle, `atvalid && ready` that the beat is
/// (`hdl/DESIGN.md` items 7 and 8). The fields of the other port kind are 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `out_valid`: `out_data` holds a byte (byte stream).
    pub out_valid: bool,
    /// `out_data`: the byte.
    pub out_data: u8,
    /// `out_last`: the byte is the last of a packet.
    pub out_last: bool,
    /// `trace_lost`: packets were dropped and the recovery sync is not sent yet
    /// (`hdl/DESIGN.md` item 4); an N-Trace encoder's `lost` (messages are being lost,
    /// until the restart).
    pub trace_lost: bool,
    /// `in_ready`: the offered record step is taken (N-Trace encoders only).
    pub in_ready: bool,
    /// `busy`: a record step is in progress (N-Trace encoders only).
    pub busy: bool,
    /// ATVALID (ATB).
    pub atvalid: bool,
    /// ATDATA, byte 0 in bits 7:0 (ATB; `fragmentCodeAndTransport.adoc`).
    pub atdata: u128,
    /// ATBYTES: valid bytes of the beat minus one (ATB).
    pub atbytes: u8,
    /// ATID (ATB).
    pub atid: u8,
}

impl From<RawOutputs> for Outputs {
    fn from(r: RawOutputs) -> Outputs {
        Outputs {
            out_valid: r.out_valid != 0,
            out_data: r.out_data,
            out_last: r.out_last != 0,
            trace_lost: r.trace_lost != 0,
            in_ready: r.in_ready != 0,
            busy: r.busy != 0,
            atvalid: r.atvalid != 0,
            atdata: u128::from(r.atdata[0]) | (u128::from(r.atdata[1]) << 64),
            atbytes: r.atbytes,
            atid: r.atid,
        }
    }
}
