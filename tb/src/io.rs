//! The ports of a verilated encoder (`hdl/src/top.rs`, `Encoder` / `AtbEncoder`): the
//! values driven in one cycle ([`Inputs`]) and the values sampled in it ([`Outputs`]).

use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::IngressRecord;

/// The input ports of one clock cycle (`hdl/DESIGN.md`; ingress fields of
/// `ingressPort.adoc`, single-retirement form). Values wider than a port are truncated to
/// its width (for example `iaddr` to 32 bits on RV32).
///
/// `#[repr(C)]`: the step function hands this struct to the C++ shim (`src/shim.h`, `In`)
/// as it is; the field order is that of the shim.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inputs {
    /// `iaddr`: address of the instruction (`ingressPort.adoc`).
    pub iaddr: u64,
    /// `cause`: exception or interrupt cause, `ecause_width_p` bits.
    pub cause: u64,
    /// `tval`: trap value.
    pub tval: u64,
    /// Run-time option: te_inst packets between forced syncs, 0 = off
    /// (`branchTrace.adoc`, `sec:resync`).
    pub resync_max: u16,
    /// `srcID` of the framed packets (`encapsulation.adoc`); its low `src_bits` bits are
    /// sent. Byte-stream variants only.
    pub src_id: u16,
    /// Synchronous reset, active high.
    pub reset: bool,
    /// `iretire`: one instruction retired.
    pub iretire: bool,
    /// `itype`: termination type (`tab:itype`), `itype_width_p` bits.
    pub itype: u8,
    /// `priv`: privilege level (`tab:priv`), 2 bits on the port.
    pub privilege: u8,
    /// `context` (1 bit).
    pub hart_context: u8,
    /// `ctype` (1 bit).
    pub ctype: u8,
    /// `sijump`: the block ends with a sequentially inferable jump.
    pub sijump: bool,
    /// Trace enable (run-time control, `hdl/DESIGN.md` item 3).
    pub trace_enable: bool,
    /// Trigger: bit 0 start, bit 1 stop, bit 2 notify (`ingressPort.adoc` `trigger`).
    pub trigger: u8,
    /// `halted`: the hart is halted.
    pub halted: bool,
    /// Run-time option: full addresses (`sec:full-address`).
    pub full_address: bool,
    /// Run-time option: implicit exception (`sec:implicit-exception`).
    pub implicit_exception: bool,
    /// Run-time option: sequentially inferable jumps (`sec:si-jump`).
    pub sijump_option: bool,
    /// `out_ready` (byte stream) or ATREADY (ATB).
    pub ready: bool,
    /// ATID of the beats (7 bits; 0x00 and 0x70-0x7f are reserved). ATB variants only.
    pub source_atid: u8,
}

impl Inputs {
    /// Puts one ingress block on the port (`ingressPort.adoc`; the conventions of
    /// `etrace_spec::ingress`), or clears the block fields for an idle cycle (`None`).
    /// `interrupt` and `ilastsize` are not ports (`hdl/DESIGN.md`, "Names that differ").
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
            }
        }
    }

    /// Sets the run-time option inputs from the model's options (`branchTrace.adoc`,
    /// "Optional and run-time configurable modes"); `resync_max` saturates at 65535. The
    /// hardware has no implicit return or branch prediction.
    pub fn set_options(&mut self, options: &EncoderOptions) {
        self.full_address = options.full_address;
        self.implicit_exception = options.implicit_exception;
        self.sijump_option = options.sijump;
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
    /// (`hdl/DESIGN.md` item 4).
    pub trace_lost: bool,
    /// ATVALID (ATB).
    pub atvalid: bool,
    /// ATDATA, byte 0 in bits 7:0 (ATB; `fragmentCodeAndTransport.adoc`).
    pub atdata: u128,
    /// ATBYTES: valid bytes of the beat minus one (ATB).
    pub atbytes: u8,
    /// ATID (ATB).
    pub atid: u8,
}

/// The outputs as the C++ shim writes them (`src/shim.h`, `Out`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RawOutputs {
    pub(crate) atdata_lo: u64,
    pub(crate) atdata_hi: u64,
    pub(crate) out_valid: u8,
    pub(crate) out_data: u8,
    pub(crate) out_last: u8,
    pub(crate) trace_lost: u8,
    pub(crate) atvalid: u8,
    pub(crate) atbytes: u8,
    pub(crate) atid: u8,
}

impl From<RawOutputs> for Outputs {
    fn from(r: RawOutputs) -> Outputs {
        Outputs {
            out_valid: r.out_valid != 0,
            out_data: r.out_data,
            out_last: r.out_last != 0,
            trace_lost: r.trace_lost != 0,
            atvalid: r.atvalid != 0,
            atdata: u128::from(r.atdata_lo) | (u128::from(r.atdata_hi) << 64),
            atbytes: r.atbytes,
            atid: r.atid,
        }
    }
}
