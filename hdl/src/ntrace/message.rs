//! One N-Trace message as the hardware carries it to the MSEO serialiser ("Fields in
//! Messages"): TCODE, then the message's fields as at most three variable-length fields
//! ("MSEO Sequences": every variable-length field ends on a byte boundary). The
//! fixed-length fields of every standard message (SYNC, B-TYPE, RCODE, ETYPE, EVCODE,
//! CDF) come before its first variable-length field and take at most 6 bits, so they are
//! sent as the low bits of that field's run (`lead`); the second variable field is the
//! address (U-ADDR or F-ADDR, 64 bits wide for every configuration), the third HIST.
//! No SRC and no TSTAMP field (`trTeSrcBits` 0, `trTsEnable` 0 in this piece).

use rust_hdl::prelude::*;

use crate::bundle::bundle;

/// Width of `lead`: the fixed fields (at most 6 bits) and the first variable field (at
/// most 32 bits: RDATA of a HIST ResourceFull message, `NTRACE_MAX_HIST`).
pub const LEAD_BITS: usize = 40;
/// Width of the address field (F-ADDR / U-ADDR of RV64: 63 bits).
pub const ADDR_BITS: usize = 64;
/// Width of the HIST field (`NTRACE_MAX_HIST` 32, stop bit included).
pub const HIST_BITS: usize = 32;

bundle! {
    /// One N-Trace message ("Fields in Messages"), as the MSEO serialiser reads it.
    pub struct NtraceMessage {
        /// A message is present.
        valid: In<Bit>,
        /// TCODE (6 bits, "Common Fields").
        tcode: In<Bits<6>>,
        /// The fixed-length fields, least significant first, and above them the first
        /// variable-length field.
        lead: In<Bits<LEAD_BITS>>,
        /// Bits of `lead` always sent: the fixed fields' width plus one (a variable
        /// field sends at least one bit).
        lead_min: In<Bits<3>>,
        /// The second variable-length field (U-ADDR or F-ADDR).
        addr: In<Bits<ADDR_BITS>>,
        /// The message has the second field.
        addr_valid: In<Bit>,
        /// The third variable-length field (HIST).
        hist: In<Bits<HIST_BITS>>,
        /// The message has the third field.
        hist_valid: In<Bit>,
    }
    /// The side that forms a message: the generator.
    pub struct NtraceMessageSource;
}

/// A message whose fields are generation constants ("Fields in Messages"): only fixed
/// fields (`lead`, of which `lead_min` bits are sent), no address and no HIST, present
/// while `present` is high. The output path's Error message and its empty slot.
#[derive(LogicBlock)]
pub struct FixedMessage {
    /// The message is present.
    pub present: Signal<In, Bit>,
    /// The message.
    pub message: NtraceMessageSource,
    tcode: Constant<Bits<6>>,
    lead: Constant<Bits<LEAD_BITS>>,
    lead_min: Constant<Bits<3>>,
}

impl FixedMessage {
    /// The message of `tcode` whose fixed fields are `lead`, `lead_min` bits sent.
    pub fn new(tcode: u8, lead: u8, lead_min: u8) -> Self {
        FixedMessage {
            present: Default::default(),
            message: Default::default(),
            tcode: Constant::new(u64::from(tcode).into()),
            lead: Constant::new(u64::from(lead).into()),
            lead_min: Constant::new(u64::from(lead_min).into()),
        }
    }

    /// No message: every field 0 (with `present` low).
    pub fn none() -> Self {
        FixedMessage::new(0, 0, 0)
    }
}

impl Logic for FixedMessage {
    #[hdl_gen]
    fn update(&mut self) {
        self.message.valid.next = self.present.val();
        self.message.tcode.next = self.tcode.val();
        self.message.lead.next = self.lead.val();
        self.message.lead_min.next = self.lead_min.val();
        self.message.addr.next = 0.into();
        self.message.addr_valid.next = false;
        self.message.hist.next = 0.into();
        self.message.hist_valid.next = false;
    }
}

/// The messages of one record, one per output slot (slots 1 to 8 in field order), in the
/// model's order ("Rules of Generating Messages"; [`super::NtraceGenerator`]'s list): what
/// the output path reads.
#[derive(LogicInterface, Default)]
#[join = "NtraceSlotsSource"]
pub struct NtraceSlots {
    /// ResourceFull RCODE 2 before the first message that ends a run of HIST repeats.
    pub early_hrepeat: NtraceMessage,
    /// RepeatBranch.
    pub repeat_branch: NtraceMessage,
    /// The message that ends a block.
    pub block_end: NtraceMessage,
    /// The Ownership message after a synchronising message.
    pub sync_owner: NtraceMessage,
    /// The Ownership message of a privilege or context change.
    pub owner: NtraceMessage,
    /// ResourceFull, I-CNT overflow.
    pub icnt_full: NtraceMessage,
    /// ResourceFull RCODE 2 before a HIST ResourceFull that is no repeat.
    pub late_hrepeat: NtraceMessage,
    /// ResourceFull, HIST full.
    pub hist_full: NtraceMessage,
}

/// The side that forms a record's messages ([`NtraceSlots`], whose fields say what each
/// slot carries): the generator.
#[derive(LogicInterface, Default)]
#[join = "NtraceSlots"]
pub struct NtraceSlotsSource {
    /// Slot 1.
    pub early_hrepeat: NtraceMessageSource,
    /// Slot 2.
    pub repeat_branch: NtraceMessageSource,
    /// Slot 3.
    pub block_end: NtraceMessageSource,
    /// Slot 4.
    pub sync_owner: NtraceMessageSource,
    /// Slot 5.
    pub owner: NtraceMessageSource,
    /// Slot 6.
    pub icnt_full: NtraceMessageSource,
    /// Slot 7.
    pub late_hrepeat: NtraceMessageSource,
    /// Slot 8.
    pub hist_full: NtraceMessageSource,
}

impl NtraceSlotsSource {
    /// The eight messages in slot order (as the output path sends them).
    pub fn in_order(&self) -> [&NtraceMessageSource; 8] {
        [
            &self.early_hrepeat,
            &self.repeat_branch,
            &self.block_end,
            &self.sync_owner,
            &self.owner,
            &self.icnt_full,
            &self.late_hrepeat,
            &self.hist_full,
        ]
    }
}
