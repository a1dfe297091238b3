//! The whole encoder (`hdl/DESIGN.md`, "Data path"): ingress port and packet logic, two
//! payload packers, and the output path (packet queue, encap framer, byte FIFO) with a
//! byte-stream output ([`Encoder`]) or an ATB output ([`AtbEncoder`]), and the generation of
//! their Verilog per named configuration ([`generate`]).

use rust_hdl::prelude::*;

use crate::config::Config;
use crate::ingress::InputStage;
use crate::logic::packet_logic::PacketLogic;
use crate::logic::resync::RESYNC_MAX_BITS;
use crate::output::framer::FramerConfig;
use crate::output::path::{AtbOutputPath, OutputPath};
use crate::packer::PayloadPacker;
use crate::verilog::generate_named;

/// The encoder with a byte-stream output: `A` = `iaddress_width_p`, `E` = `ecause_width_p`,
/// `IT` = itype width on the ingress port, `P` = payload width, FIFO depth 2^`N` bytes.
#[derive(LogicBlock)]
pub struct Encoder<const A: usize, const E: usize, const IT: usize, const P: usize, const N: usize>
{
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Ingress / control: one instruction retired (`ingressPort.adoc`).
    pub iretire: Signal<In, Bit>,
    /// Ingress / control: instruction type.
    pub itype: Signal<In, Bits<IT>>,
    /// Ingress / control: address of the instruction.
    pub iaddr: Signal<In, Bits<A>>,
    /// Ingress / control: privilege level (`priv`).
    pub privilege: Signal<In, Bits<2>>,
    /// Ingress / control: trap cause (`cause`).
    pub cause: Signal<In, Bits<E>>,
    /// Ingress / control: trap value (`tval`).
    pub tval: Signal<In, Bits<A>>,
    /// Ingress / control: context (`context`).
    pub hart_context: Signal<In, Bits<1>>,
    /// Ingress / control: context type (`ctype`).
    pub ctype: Signal<In, Bits<1>>,
    /// Ingress / control: sequentially inferable jump (`sijump`).
    pub sijump: Signal<In, Bit>,
    /// Ingress / control: trace enable (run-time control).
    pub trace_enable: Signal<In, Bit>,
    /// Ingress / control: trigger: bit 0 start, bit 1 stop, bit 2 notify.
    pub trigger: Signal<In, Bits<3>>,
    /// Ingress / control: hart halted.
    pub halted: Signal<In, Bit>,
    /// Ingress / control: run-time option: full addresses.
    pub full_address: Signal<In, Bit>,
    /// Ingress / control: run-time option: implicit exception.
    pub implicit_exception: Signal<In, Bit>,
    /// Ingress / control: run-time option: sequentially inferable jumps.
    pub sijump_option: Signal<In, Bit>,
    /// Ingress / control: run-time option: packets between forced syncs (0 = off).
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// `srcID` of the framed packets (its low `src_bits` bits are sent).
    pub src_id: Signal<In, Bits<16>>,
    /// Output byte (valid / ready).
    pub out_data: Signal<Out, Bits<8>>,
    /// `out_data` holds a byte.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the byte.
    pub out_ready: Signal<In, Bit>,
    /// The byte is the last of a packet.
    pub out_last: Signal<Out, Bit>,
    /// Packets were dropped and the recovery sync is not sent yet.
    pub trace_lost: Signal<Out, Bit>,
    /// Test only (`TopOptions::inject_fault`): XORed into every packed branch map.
    branch_map_fault: Constant<Bits<32>>,
    input_stage: InputStage<A, E, IT, 16>,
    packet_logic: PacketLogic<A, E, IT>,
    packer0: PayloadPacker<A, E, P>,
    packer1: PayloadPacker<A, E, P>,
    out_path: OutputPath<P, N>,
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const N: usize>
    Encoder<A, E, IT, P, N>
{
    /// An encoder whose framer uses `framing`.
    pub fn new(framing: FramerConfig) -> Self {
        Self::with_fault(framing, false)
    }

    /// As [`Self::new`]; with `fault`, bit 0 of every packed branch map is flipped (the
    /// deliberate fault that shows the co-simulation checker bites).
    pub fn with_fault(framing: FramerConfig, fault: bool) -> Self {
        Encoder {
            clock: Default::default(),
            reset: Default::default(),
            iretire: Default::default(),
            itype: Default::default(),
            iaddr: Default::default(),
            privilege: Default::default(),
            cause: Default::default(),
            tval: Default::default(),
            hart_context: Default::default(),
            ctype: Default::default(),
            sijump: Default::default(),
            trace_enable: Default::default(),
            trigger: Default::default(),
            halted: Default::default(),
            full_address: Default::default(),
            implicit_exception: Default::default(),
            sijump_option: Default::default(),
            resync_max: Default::default(),
            src_id: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_last: Default::default(),
            trace_lost: Default::default(),
            branch_map_fault: Constant::new(u64::from(fault).into()),
            input_stage: Default::default(),
            packet_logic: Default::default(),
            packer0: PayloadPacker::new(),
            packer1: PayloadPacker::new(),
            out_path: OutputPath::new(framing),
        }
    }
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const N: usize> Logic
    for Encoder<A, E, IT, P, N>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Item 0: every input but the output's ready goes through two flip-flops first: the
        // input stage, then trace control's output registers and the ingress block register
        // (in the packet logic) or the input stage's second registers.
        self.input_stage.clock.next = self.clock.val();
        self.input_stage.reset.next = self.reset.val();
        self.input_stage.iretire.next = self.iretire.val();
        self.input_stage.itype.next = self.itype.val();
        self.input_stage.iaddr.next = self.iaddr.val();
        self.input_stage.privilege.next = self.privilege.val();
        self.input_stage.cause.next = self.cause.val();
        self.input_stage.tval.next = self.tval.val();
        self.input_stage.hart_context.next = self.hart_context.val();
        self.input_stage.ctype.next = self.ctype.val();
        self.input_stage.sijump.next = self.sijump.val();
        self.input_stage.trace_enable.next = self.trace_enable.val();
        self.input_stage.trigger.next = self.trigger.val();
        self.input_stage.halted.next = self.halted.val();
        self.input_stage.full_address.next = self.full_address.val();
        self.input_stage.implicit_exception.next = self.implicit_exception.val();
        self.input_stage.sijump_option.next = self.sijump_option.val();
        self.input_stage.resync_max.next = self.resync_max.val();
        self.packet_logic.clock.next = self.clock.val();
        self.packet_logic.reset.next = self.input_stage.reset_q2.val();
        self.packet_logic.reset_ahead.next = self.input_stage.reset_q.val();
        self.out_path.clock.next = self.clock.val();
        self.out_path.reset.next = self.input_stage.reset_q2.val();
        self.packet_logic.iretire.next = self.input_stage.iretire_q.val();
        self.packet_logic.itype.next = self.input_stage.itype_q.val();
        self.packet_logic.iaddr.next = self.input_stage.iaddr_q.val();
        self.packet_logic.privilege.next = self.input_stage.privilege_q.val();
        self.packet_logic.cause.next = self.input_stage.cause_q.val();
        self.packet_logic.tval.next = self.input_stage.tval_q.val();
        self.packet_logic.hart_context.next = self.input_stage.hart_context_q.val();
        self.packet_logic.ctype.next = self.input_stage.ctype_q.val();
        self.packet_logic.sijump.next = self.input_stage.sijump_q.val();
        self.packet_logic.trace_enable.next = self.input_stage.trace_enable_q.val();
        self.packet_logic.trigger.next = self.input_stage.trigger_q.val();
        self.packet_logic.halted.next = self.input_stage.halted_q.val();
        self.packet_logic.full_address.next = self.input_stage.full_address_q2.val();
        self.packet_logic.implicit_exception.next = self.input_stage.implicit_exception_q2.val();
        self.packet_logic.sijump_option.next = self.input_stage.sijump_option_q2.val();
        self.packet_logic.resync_max_ahead.next = self.input_stage.resync_max_q.val();
        self.packet_logic.queue_free.next = self.out_path.free.val();
        self.packet_logic.queue_drained.next = self.out_path.drained.val();
        self.packer0.layout.next = self.packet_logic.pkt0_layout.val();
        self.packer0.branch.next = self.packet_logic.pkt0_branch.val();
        self.packer0.privilege.next = self.packet_logic.pkt0_privilege.val();
        self.packer0.ecause.next = self.packet_logic.pkt0_ecause.val();
        self.packer0.is_interrupt.next = self.packet_logic.pkt0_interrupt.val();
        self.packer0.thaddr.next = self.packet_logic.pkt0_thaddr.val();
        self.packer0.address.next = self.packet_logic.pkt0_address.val();
        self.packer0.address_f12.next = self.packet_logic.pkt0_address_f12.val();
        self.packer0.tval.next = self.packet_logic.pkt0_tval.val();
        self.packer0.notify_bit.next = self.packet_logic.pkt0_notify_bit.val();
        self.packer0.updiscon_bit.next = self.packet_logic.pkt0_updiscon_bit.val();
        self.packer0.branches.next = self.packet_logic.pkt0_branches.val();
        self.packer0.branch_map.next =
            self.packet_logic.pkt0_branch_map.val() ^ self.branch_map_fault.val();
        self.packer0.ienable.next = self.packet_logic.pkt0_ienable.val();
        self.packer0.qual_status.next = self.packet_logic.pkt0_qual_status.val();
        self.packer0.ioptions.next = self.packet_logic.pkt0_ioptions.val();
        // The second packet of a cycle is a context packet (after a branch map) or the
        // recovery sync (after the trace-lost support packet): the second packer is fed
        // only what those two formats carry, and synthesis prunes the rest.
        // (`layout::bit::CONTEXT` = 6, `layout::bit::SYNC` = 1.)
        self.packer1.layout.next = 64.into();
        if self.packet_logic.pkt1_sync.val() {
            self.packer1.layout.next = 2.into();
        }
        self.packer1.branch.next = self.packet_logic.pkt1_branch.val();
        self.packer1.privilege.next = self.packet_logic.pkt1_privilege.val();
        self.packer1.address.next = self.packet_logic.pkt1_address.val();
        self.packer1.address_f12.next = 0.into();
        self.packer1.ecause.next = 0.into();
        self.packer1.is_interrupt.next = false;
        self.packer1.thaddr.next = false;
        self.packer1.tval.next = 0.into();
        self.packer1.notify_bit.next = false;
        self.packer1.updiscon_bit.next = false;
        self.packer1.branches.next = 0.into();
        self.packer1.branch_map.next = 0.into();
        self.packer1.ienable.next = false;
        self.packer1.qual_status.next = 0.into();
        self.packer1.ioptions.next = 0.into();
        self.out_path.push_count.next = self.packet_logic.count.val();
        self.out_path.entry0_payload.next = self.packer0.payload.val();
        self.out_path.entry1_payload.next = self.packer1.payload.val();
        self.input_stage.source_id.next = self.src_id.val();
        self.out_path.src_id.next = self.input_stage.source_id_q2.val();
        self.out_path.out_ready.next = self.out_ready.val();
        self.out_data.next = self.out_path.out_data.val();
        self.out_valid.next = self.out_path.out_valid.val();
        self.out_last.next = self.out_path.out_last.val();
        self.trace_lost.next = self.packet_logic.lost.val();
    }
}

/// The encoder with an ATB output (ATDATA `DW` bits, ATBYTES `BW` bits): `A` = `iaddress_width_p`, `E` = `ecause_width_p`,
/// `IT` = itype width on the ingress port, `P` = payload width, FIFO depth 2^`N` bytes.
#[derive(LogicBlock)]
pub struct AtbEncoder<
    const A: usize,
    const E: usize,
    const IT: usize,
    const P: usize,
    const N: usize,
    const DW: usize,
    const BW: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Ingress / control: one instruction retired (`ingressPort.adoc`).
    pub iretire: Signal<In, Bit>,
    /// Ingress / control: instruction type.
    pub itype: Signal<In, Bits<IT>>,
    /// Ingress / control: address of the instruction.
    pub iaddr: Signal<In, Bits<A>>,
    /// Ingress / control: privilege level (`priv`).
    pub privilege: Signal<In, Bits<2>>,
    /// Ingress / control: trap cause (`cause`).
    pub cause: Signal<In, Bits<E>>,
    /// Ingress / control: trap value (`tval`).
    pub tval: Signal<In, Bits<A>>,
    /// Ingress / control: context (`context`).
    pub hart_context: Signal<In, Bits<1>>,
    /// Ingress / control: context type (`ctype`).
    pub ctype: Signal<In, Bits<1>>,
    /// Ingress / control: sequentially inferable jump (`sijump`).
    pub sijump: Signal<In, Bit>,
    /// Ingress / control: trace enable (run-time control).
    pub trace_enable: Signal<In, Bit>,
    /// Ingress / control: trigger: bit 0 start, bit 1 stop, bit 2 notify.
    pub trigger: Signal<In, Bits<3>>,
    /// Ingress / control: hart halted.
    pub halted: Signal<In, Bit>,
    /// Ingress / control: run-time option: full addresses.
    pub full_address: Signal<In, Bit>,
    /// Ingress / control: run-time option: implicit exception.
    pub implicit_exception: Signal<In, Bit>,
    /// Ingress / control: run-time option: sequentially inferable jumps.
    pub sijump_option: Signal<In, Bit>,
    /// Ingress / control: run-time option: packets between forced syncs (0 = off).
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// ATID of the beats (7 bits; 0x00 and 0x70-0x7f are reserved).
    pub source_atid: Signal<In, Bits<7>>,
    /// ATDATA.
    pub atdata: Signal<Out, Bits<DW>>,
    /// ATBYTES: valid bytes of the beat minus one.
    pub atbytes: Signal<Out, Bits<BW>>,
    /// ATID.
    pub atid: Signal<Out, Bits<7>>,
    /// ATVALID.
    pub atvalid: Signal<Out, Bit>,
    /// ATREADY.
    pub atready: Signal<In, Bit>,
    /// Packets were dropped and the recovery sync is not sent yet.
    pub trace_lost: Signal<Out, Bit>,
    /// Test only (`TopOptions::inject_fault`): XORed into every packed branch map.
    branch_map_fault: Constant<Bits<32>>,
    input_stage: InputStage<A, E, IT, 7>,
    packet_logic: PacketLogic<A, E, IT>,
    packer0: PayloadPacker<A, E, P>,
    packer1: PayloadPacker<A, E, P>,
    out_path: AtbOutputPath<P, N, DW, BW>,
}

impl<
        const A: usize,
        const E: usize,
        const IT: usize,
        const P: usize,
        const N: usize,
        const DW: usize,
        const BW: usize,
    > AtbEncoder<A, E, IT, P, N, DW, BW>
{
    /// An encoder whose framer uses `framing`.
    pub fn new(framing: FramerConfig) -> Self {
        Self::with_fault(framing, false)
    }

    /// As [`Self::new`]; with `fault`, bit 0 of every packed branch map is flipped (the
    /// deliberate fault that shows the co-simulation checker bites).
    pub fn with_fault(framing: FramerConfig, fault: bool) -> Self {
        AtbEncoder {
            clock: Default::default(),
            reset: Default::default(),
            iretire: Default::default(),
            itype: Default::default(),
            iaddr: Default::default(),
            privilege: Default::default(),
            cause: Default::default(),
            tval: Default::default(),
            hart_context: Default::default(),
            ctype: Default::default(),
            sijump: Default::default(),
            trace_enable: Default::default(),
            trigger: Default::default(),
            halted: Default::default(),
            full_address: Default::default(),
            implicit_exception: Default::default(),
            sijump_option: Default::default(),
            resync_max: Default::default(),
            source_atid: Default::default(),
            atdata: Default::default(),
            atbytes: Default::default(),
            atid: Default::default(),
            atvalid: Default::default(),
            atready: Default::default(),
            trace_lost: Default::default(),
            branch_map_fault: Constant::new(u64::from(fault).into()),
            input_stage: Default::default(),
            packet_logic: Default::default(),
            packer0: PayloadPacker::new(),
            packer1: PayloadPacker::new(),
            out_path: AtbOutputPath::new(framing),
        }
    }
}

impl<
        const A: usize,
        const E: usize,
        const IT: usize,
        const P: usize,
        const N: usize,
        const DW: usize,
        const BW: usize,
    > Logic for AtbEncoder<A, E, IT, P, N, DW, BW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Item 0: every input but the output's ready goes through two flip-flops first: the
        // input stage, then trace control's output registers and the ingress block register
        // (in the packet logic) or the input stage's second registers.
        self.input_stage.clock.next = self.clock.val();
        self.input_stage.reset.next = self.reset.val();
        self.input_stage.iretire.next = self.iretire.val();
        self.input_stage.itype.next = self.itype.val();
        self.input_stage.iaddr.next = self.iaddr.val();
        self.input_stage.privilege.next = self.privilege.val();
        self.input_stage.cause.next = self.cause.val();
        self.input_stage.tval.next = self.tval.val();
        self.input_stage.hart_context.next = self.hart_context.val();
        self.input_stage.ctype.next = self.ctype.val();
        self.input_stage.sijump.next = self.sijump.val();
        self.input_stage.trace_enable.next = self.trace_enable.val();
        self.input_stage.trigger.next = self.trigger.val();
        self.input_stage.halted.next = self.halted.val();
        self.input_stage.full_address.next = self.full_address.val();
        self.input_stage.implicit_exception.next = self.implicit_exception.val();
        self.input_stage.sijump_option.next = self.sijump_option.val();
        self.input_stage.resync_max.next = self.resync_max.val();
        self.packet_logic.clock.next = self.clock.val();
        self.packet_logic.reset.next = self.input_stage.reset_q2.val();
        self.packet_logic.reset_ahead.next = self.input_stage.reset_q.val();
        self.out_path.clock.next = self.clock.val();
        self.out_path.reset.next = self.input_stage.reset_q2.val();
        self.packet_logic.iretire.next = self.input_stage.iretire_q.val();
        self.packet_logic.itype.next = self.input_stage.itype_q.val();
        self.packet_logic.iaddr.next = self.input_stage.iaddr_q.val();
        self.packet_logic.privilege.next = self.input_stage.privilege_q.val();
        self.packet_logic.cause.next = self.input_stage.cause_q.val();
        self.packet_logic.tval.next = self.input_stage.tval_q.val();
        self.packet_logic.hart_context.next = self.input_stage.hart_context_q.val();
        self.packet_logic.ctype.next = self.input_stage.ctype_q.val();
        self.packet_logic.sijump.next = self.input_stage.sijump_q.val();
        self.packet_logic.trace_enable.next = self.input_stage.trace_enable_q.val();
        self.packet_logic.trigger.next = self.input_stage.trigger_q.val();
        self.packet_logic.halted.next = self.input_stage.halted_q.val();
        self.packet_logic.full_address.next = self.input_stage.full_address_q2.val();
        self.packet_logic.implicit_exception.next = self.input_stage.implicit_exception_q2.val();
        self.packet_logic.sijump_option.next = self.input_stage.sijump_option_q2.val();
        self.packet_logic.resync_max_ahead.next = self.input_stage.resync_max_q.val();
        self.packet_logic.queue_free.next = self.out_path.free.val();
        self.packet_logic.queue_drained.next = self.out_path.drained.val();
        self.packer0.layout.next = self.packet_logic.pkt0_layout.val();
        self.packer0.branch.next = self.packet_logic.pkt0_branch.val();
        self.packer0.privilege.next = self.packet_logic.pkt0_privilege.val();
        self.packer0.ecause.next = self.packet_logic.pkt0_ecause.val();
        self.packer0.is_interrupt.next = self.packet_logic.pkt0_interrupt.val();
        self.packer0.thaddr.next = self.packet_logic.pkt0_thaddr.val();
        self.packer0.address.next = self.packet_logic.pkt0_address.val();
        self.packer0.address_f12.next = self.packet_logic.pkt0_address_f12.val();
        self.packer0.tval.next = self.packet_logic.pkt0_tval.val();
        self.packer0.notify_bit.next = self.packet_logic.pkt0_notify_bit.val();
        self.packer0.updiscon_bit.next = self.packet_logic.pkt0_updiscon_bit.val();
        self.packer0.branches.next = self.packet_logic.pkt0_branches.val();
        self.packer0.branch_map.next =
            self.packet_logic.pkt0_branch_map.val() ^ self.branch_map_fault.val();
        self.packer0.ienable.next = self.packet_logic.pkt0_ienable.val();
        self.packer0.qual_status.next = self.packet_logic.pkt0_qual_status.val();
        self.packer0.ioptions.next = self.packet_logic.pkt0_ioptions.val();
        // The second packet of a cycle is a context packet (after a branch map) or the
        // recovery sync (after the trace-lost support packet): the second packer is fed
        // only what those two formats carry, and synthesis prunes the rest.
        // (`layout::bit::CONTEXT` = 6, `layout::bit::SYNC` = 1.)
        self.packer1.layout.next = 64.into();
        if self.packet_logic.pkt1_sync.val() {
            self.packer1.layout.next = 2.into();
        }
        self.packer1.branch.next = self.packet_logic.pkt1_branch.val();
        self.packer1.privilege.next = self.packet_logic.pkt1_privilege.val();
        self.packer1.address.next = self.packet_logic.pkt1_address.val();
        self.packer1.address_f12.next = 0.into();
        self.packer1.ecause.next = 0.into();
        self.packer1.is_interrupt.next = false;
        self.packer1.thaddr.next = false;
        self.packer1.tval.next = 0.into();
        self.packer1.notify_bit.next = false;
        self.packer1.updiscon_bit.next = false;
        self.packer1.branches.next = 0.into();
        self.packer1.branch_map.next = 0.into();
        self.packer1.ienable.next = false;
        self.packer1.qual_status.next = 0.into();
        self.packer1.ioptions.next = 0.into();
        self.out_path.push_count.next = self.packet_logic.count.val();
        self.out_path.entry0_payload.next = self.packer0.payload.val();
        self.out_path.entry1_payload.next = self.packer1.payload.val();
        self.input_stage.source_id.next = self.source_atid.val();
        self.out_path.source_atid.next = self.input_stage.source_id_q2.val();
        self.out_path.atready.next = self.atready.val();
        self.atdata.next = self.out_path.atdata.val();
        self.atbytes.next = self.out_path.atbytes.val();
        self.atid.next = self.out_path.atid.val();
        self.atvalid.next = self.out_path.atvalid.val();
        self.trace_lost.next = self.packet_logic.lost.val();
    }
}

/// The output port of a generated encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// Encap byte stream with valid / ready.
    Bytes,
    /// ATB beats of `data_bytes` bytes (1, 2, 4, 8 or 16).
    Atb {
        /// ATDATA width in bytes.
        data_bytes: u32,
    },
}

/// Build-time options of a generated encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopOptions {
    /// `srcID` width in bits (0-16; 0 for ATB).
    pub src_bits: u8,
    /// 2-byte timestamps.
    pub timestamp: bool,
    /// Byte FIFO depth (16, 32, 64, 128 or 256; 64 with ATB).
    pub fifo_depth: usize,
    /// Output port.
    pub output: OutputKind,
    /// Test only: flip bit 0 of every packed branch map (a known RTL fault the
    /// co-simulation must catch).
    pub inject_fault: bool,
}

impl Default for TopOptions {
    /// Byte stream, no srcID, no timestamp, 64-byte FIFO.
    fn default() -> Self {
        TopOptions {
            src_bits: 0,
            timestamp: false,
            fifo_depth: 64,
            output: OutputKind::Bytes,
            inject_fault: false,
        }
    }
}

/// Generated Verilog of one encoder.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Top module name, `etrace_encoder_<config>`.
    pub top: String,
    /// The Verilog (top module and its sub-modules).
    pub verilog: String,
    /// One line saying what it is.
    pub description: String,
}

/// Build-time options the generator cannot honour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopError {
    /// The FIFO depth is not one of the built ones.
    #[error("FIFO depth {0} is not supported (16, 32, 64, 128 or 256 bytes; 64 with atb)")]
    FifoDepth(usize),
    /// The ATDATA width is not 1, 2, 4, 8 or 16 bytes.
    #[error("ATDATA width of {0} bytes is not supported (1, 2, 4, 8 or 16)")]
    AtbWidth(u32),
    /// `srcID` wider than 16 bits, or a srcID with ATB.
    #[error("srcID width {0} is not supported (0-16 bits, 0 with atb)")]
    SrcBits(u8),
}

/// The top module name of a configuration.
pub fn top_name(config: Config) -> String {
    format!("etrace_encoder_{}", config.name().replace('-', "_"))
}

fn emit<U: Block>(mut uut: U, config: Config) -> String {
    uut.connect_all();
    generate_named(&uut, &top_name(config))
}

macro_rules! bytes_encoder {
    ($a:literal, $e:literal, $it:literal, $p:literal, $depth:expr, $framing:expr, $fault:expr, $config:expr) => {
        match $depth {
            16 => emit(
                Encoder::<$a, $e, $it, $p, 4>::with_fault($framing, $fault),
                $config,
            ),
            32 => emit(
                Encoder::<$a, $e, $it, $p, 5>::with_fault($framing, $fault),
                $config,
            ),
            64 => emit(
                Encoder::<$a, $e, $it, $p, 6>::with_fault($framing, $fault),
                $config,
            ),
            128 => emit(
                Encoder::<$a, $e, $it, $p, 7>::with_fault($framing, $fault),
                $config,
            ),
            256 => emit(
                Encoder::<$a, $e, $it, $p, 8>::with_fault($framing, $fault),
                $config,
            ),
            other => return Err(TopError::FifoDepth(other)),
        }
    };
}

macro_rules! atb_encoder {
    ($a:literal, $e:literal, $it:literal, $p:literal, $bytes:expr, $framing:expr, $fault:expr, $config:expr) => {
        match $bytes {
            1 => emit(
                AtbEncoder::<$a, $e, $it, $p, 6, 8, 1>::with_fault($framing, $fault),
                $config,
            ),
            2 => emit(
                AtbEncoder::<$a, $e, $it, $p, 6, 16, 1>::with_fault($framing, $fault),
                $config,
            ),
            4 => emit(
                AtbEncoder::<$a, $e, $it, $p, 6, 32, 2>::with_fault($framing, $fault),
                $config,
            ),
            8 => emit(
                AtbEncoder::<$a, $e, $it, $p, 6, 64, 3>::with_fault($framing, $fault),
                $config,
            ),
            16 => emit(
                AtbEncoder::<$a, $e, $it, $p, 6, 128, 4>::with_fault($framing, $fault),
                $config,
            ),
            other => return Err(TopError::AtbWidth(other)),
        }
    };
}

/// Generates the Verilog of `config` with `options` (top module [`top_name`]).
pub fn generate(config: Config, options: &TopOptions) -> Result<Generated, TopError> {
    if options.src_bits > 16 {
        return Err(TopError::SrcBits(options.src_bits));
    }
    let verilog = match options.output {
        OutputKind::Bytes => {
            let framing = FramerConfig {
                src_bits: options.src_bits,
                timestamp: options.timestamp,
                ..FramerConfig::default()
            };
            let depth = options.fifo_depth;
            match config {
                Config::Rv32 => {
                    bytes_encoder!(32, 5, 4, 80, depth, framing, options.inject_fault, config)
                }
                Config::Rv64 => {
                    bytes_encoder!(64, 6, 4, 144, depth, framing, options.inject_fault, config)
                }
                Config::Rv32Itype3 => {
                    bytes_encoder!(32, 5, 3, 80, depth, framing, options.inject_fault, config)
                }
                Config::Rv64Itype3 => {
                    bytes_encoder!(64, 6, 3, 144, depth, framing, options.inject_fault, config)
                }
            }
        }
        OutputKind::Atb { data_bytes } => {
            if options.src_bits != 0 {
                return Err(TopError::SrcBits(options.src_bits));
            }
            if options.fifo_depth != 64 {
                return Err(TopError::FifoDepth(options.fifo_depth));
            }
            // The ATB transport carries no synchronisation sequences (the model's framing).
            let framing = FramerConfig {
                src_bits: 0,
                timestamp: options.timestamp,
                sync_interval: 0,
            };
            match config {
                Config::Rv32 => atb_encoder!(
                    32,
                    5,
                    4,
                    80,
                    data_bytes,
                    framing,
                    options.inject_fault,
                    config
                ),
                Config::Rv64 => atb_encoder!(
                    64,
                    6,
                    4,
                    144,
                    data_bytes,
                    framing,
                    options.inject_fault,
                    config
                ),
                Config::Rv32Itype3 => atb_encoder!(
                    32,
                    5,
                    3,
                    80,
                    data_bytes,
                    framing,
                    options.inject_fault,
                    config
                ),
                Config::Rv64Itype3 => atb_encoder!(
                    64,
                    6,
                    3,
                    144,
                    data_bytes,
                    framing,
                    options.inject_fault,
                    config
                ),
            }
        }
    };
    let output = match options.output {
        OutputKind::Bytes => format!("encap byte stream, {}-byte FIFO", options.fifo_depth),
        OutputKind::Atb { data_bytes } => format!("ATB output, {}-bit ATDATA", data_bytes * 8),
    };
    Ok(Generated {
        top: top_name(config),
        verilog,
        description: format!(
            "RISC-V E-Trace instruction trace encoder, configuration {} ({output})",
            config.name()
        ),
    })
}
