//! The board's stand-in for a hart: an ingress trace (`ingressPort.adoc`, single-retirement
//! port, the record conventions of `etrace_spec::ingress`) stored in block RAM and played
//! to the encoder's ingress port in a loop.
//!
//! Each pass presents the records in order, one every `period` cycles or more, with
//! `trace_enable` high; after the last record it waits until the output has drained,
//! drops `trace_enable` for `gap` cycles (the encoder's disable sequence, `hdl/DESIGN.md`
//! item 3) and starts the next pass with trace enabled again. While `hold` is high no
//! record is presented and no state change happens: the board top ties it to "the
//! encoder's byte FIFO is not empty", so that a slow UART never makes the encoder drop
//! packets.

use rust_hdl::prelude::*;
use rust_hdl::widgets::ramrom::sync_rom::SyncROM;
use std::collections::BTreeMap;

use etrace_spec::bitfield::low_bits;
use etrace_spec::ingress::IngressRecord;

use super::BoardError;
use crate::ingress::inputs::IngressSource;
use crate::param::LocalParam;

/// Bit positions of the one-bit and two-bit ingress fields in the flags table.
pub mod flags {
    /// `iretire` (1 bit).
    pub const IRETIRE: usize = 0;
    /// `sijump` (1 bit).
    pub const SIJUMP: usize = 1;
    /// `context` bit 0.
    pub const CONTEXT: usize = 2;
    /// `ctype` bit 0.
    pub const CTYPE: usize = 3;
    /// `priv` (2 bits).
    pub const PRIVILEGE: usize = 4;
    /// `ilastsize` (1 bit): read by the N-Trace generator's I-CNT and by implicit return.
    pub const ILASTSIZE: usize = 6;
    /// Width of a flags word.
    pub const WIDTH: usize = 7;
}

/// The flags word of `record`: its narrow fields at the [`flags`] positions.
pub fn flags_word(record: &IngressRecord) -> u64 {
    (u64::from(record.iretire) & 1) << flags::IRETIRE
        | u64::from(record.sijump) << flags::SIJUMP
        | (record.context & 1) << flags::CONTEXT
        | (u64::from(record.ctype) & 1) << flags::CTYPE
        | (u64::from(record.privilege.code()) & 3) << flags::PRIVILEGE
        | (u64::from(record.ilastsize) & 1) << flags::ILASTSIZE
}

/// Replay phases: the values of the `phase` register, which the kernel reads and writes as
/// the replay's `phase_*` constants (`localparam`s of its Verilog).
pub mod phase {
    /// Presenting the records of a pass.
    pub const RUN: u64 = 0;
    /// After the last record, trace still enabled: waiting for the output to drain.
    pub const DRAIN: u64 = 1;
    /// Trace disabled between two passes.
    pub const GAP: u64 = 2;
}

/// Replays up to 2^`D` ingress records from block RAM in a loop (module documentation):
/// `A` = `iaddress_width_p`, `E` = `ecause_width_p`, `IT` = itype width.
#[derive(LogicBlock)]
pub struct IngressReplay<const A: usize, const E: usize, const IT: usize, const D: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the first pass starts again, trace enabled.
    pub reset: Signal<In, Bit>,
    /// Wait: no record is presented and the phase does not change in this cycle.
    pub hold: Signal<In, Bit>,
    /// The ingress block (`itype` 0 in cycles without a record).
    pub block: IngressSource<A, E, IT>,
    /// Trace enable.
    pub trace_enable: Signal<Out, Bit>,
    /// A record is presented on `block` in this cycle.
    pub present: Signal<Out, Bit>,
    /// Index of the last record.
    last: Constant<Bits<D>>,
    /// Cycles between two records, minus one.
    period: Constant<Bits<16>>,
    /// Cycles with trace disabled between passes, minus one.
    gap: Constant<Bits<16>>,
    iaddr_rom: SyncROM<Bits<A>, D>,
    tval_rom: SyncROM<Bits<A>, D>,
    itype_rom: SyncROM<Bits<IT>, D>,
    cause_rom: SyncROM<Bits<E>, D>,
    flags_rom: SyncROM<Bits<{ flags::WIDTH }>, D>,
    index: DFF<Bits<D>>,
    timer: DFF<Bits<16>>,
    // The replay phases ([`phase`]).
    phase_run: LocalParam<2, { phase::RUN }>,
    phase_drain: LocalParam<2, { phase::DRAIN }>,
    phase_gap: LocalParam<2, { phase::GAP }>,
    phase: DFF<Bits<2>>,
    step: Signal<Local, Bit>,
}

/// One table of the replay: `field` of every record, cut to `W` bits, at its index.
fn table<const D: usize, const W: usize>(
    records: &[IngressRecord],
    field: &dyn Fn(&IngressRecord) -> u64,
) -> BTreeMap<Bits<D>, Bits<W>> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| ((i as u64).into(), low_bits(field(r), W as u32).into()))
        .collect()
}

impl<const A: usize, const E: usize, const IT: usize, const D: usize> IngressReplay<A, E, IT, D> {
    /// Replays `records` (1 to 2^`D`), one every `period` cycles or more (2 to 65536;
    /// the table's read takes a cycle), with `gap` cycles of trace disabled between
    /// passes (1 to 65536).
    pub fn new(records: &[IngressRecord], period: u32, gap: u32) -> Result<Self, BoardError> {
        if records.is_empty() || records.len() > 1 << D {
            return Err(BoardError::Records {
                count: records.len(),
                max: 1 << D,
            });
        }
        if !(2..=65_536).contains(&period) {
            return Err(BoardError::Period(period));
        }
        if !(1..=65_536).contains(&gap) {
            return Err(BoardError::Gap(gap));
        }
        let iaddr = table::<D, A>(records, &|r| r.iaddr);
        let tval = table::<D, A>(records, &|r| r.tval);
        let itype = table::<D, IT>(records, &|r| u64::from(r.itype.code()));
        let cause = table::<D, E>(records, &|r| r.cause);
        let flag_words = table::<D, { flags::WIDTH }>(records, &flags_word);
        Ok(IngressReplay {
            clock: Default::default(),
            reset: Default::default(),
            hold: Default::default(),
            block: Default::default(),
            trace_enable: Default::default(),
            present: Default::default(),
            last: Constant::new(((records.len() - 1) as u64).into()),
            period: Constant::new(u64::from(period - 1).into()),
            gap: Constant::new(u64::from(gap - 1).into()),
            iaddr_rom: SyncROM::new(iaddr),
            tval_rom: SyncROM::new(tval),
            itype_rom: SyncROM::new(itype),
            cause_rom: SyncROM::new(cause),
            flags_rom: SyncROM::new(flag_words),
            index: Default::default(),
            timer: Default::default(),
            phase_run: Default::default(),
            phase_drain: Default::default(),
            phase_gap: Default::default(),
            phase: Default::default(),
            step: Default::default(),
        })
    }
}

impl<const A: usize, const E: usize, const IT: usize, const D: usize> Logic
    for IngressReplay<A, E, IT, D>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, index, timer, phase);
        self.iaddr_rom.clock.next = self.clock.val();
        self.tval_rom.clock.next = self.clock.val();
        self.itype_rom.clock.next = self.clock.val();
        self.cause_rom.clock.next = self.clock.val();
        self.flags_rom.clock.next = self.clock.val();
        // The tables are read at the index of the previous cycle; the index changes only
        // when a record is presented, at least `period` >= 2 cycles before the next one.
        self.iaddr_rom.address.next = self.index.q.val();
        self.tval_rom.address.next = self.index.q.val();
        self.itype_rom.address.next = self.index.q.val();
        self.cause_rom.address.next = self.index.q.val();
        self.flags_rom.address.next = self.index.q.val();
        if !self.timer.q.val().all() {
            self.timer.d.next = self.timer.q.val() + 1;
        }
        self.step.next = false;
        self.trace_enable.next = true;
        if self.phase.q.val() == self.phase_run.val() {
            if (self.timer.q.val() >= self.period.val()) & !self.hold.val() {
                self.step.next = true;
                self.timer.d.next = 0.into();
                if self.index.q.val() == self.last.val() {
                    self.phase.d.next = self.phase_drain.val();
                    self.index.d.next = 0.into();
                } else {
                    self.index.d.next = self.index.q.val() + 1;
                }
            }
        } else if self.phase.q.val() == self.phase_drain.val() {
            if (self.timer.q.val() >= self.period.val()) & !self.hold.val() {
                self.phase.d.next = self.phase_gap.val();
                self.timer.d.next = 0.into();
            }
        } else {
            self.trace_enable.next = false;
            if (self.timer.q.val() >= self.gap.val()) & !self.hold.val() {
                self.phase.d.next = self.phase_run.val();
                self.timer.d.next = 0.into();
            }
        }
        // Literal bit positions: the kernel cannot name constants (see [`flags`]).
        self.block.iretire.next = self.step.val() & self.flags_rom.data.val().get_bit(0);
        self.block.itype.next = 0.into();
        if self.step.val() {
            self.block.itype.next = self.itype_rom.data.val();
        }
        self.block.iaddr.next = self.iaddr_rom.data.val();
        self.block.tval.next = self.tval_rom.data.val();
        self.block.cause.next = self.cause_rom.data.val();
        self.block.sijump.next = self.flags_rom.data.val().get_bit(1);
        self.block.hart_context.next = self.flags_rom.data.val().get_bits::<1>(2);
        self.block.ctype.next = self.flags_rom.data.val().get_bits::<1>(3);
        self.block.privilege.next = self.flags_rom.data.val().get_bits::<2>(4);
        self.block.ilastsize.next = self.flags_rom.data.val().get_bit(6);
        self.present.next = self.step.val();
        if self.reset.val() {
            self.index.d.next = 0.into();
            self.timer.d.next = 0.into();
            self.phase.d.next = self.phase_run.val();
        }
    }
}
