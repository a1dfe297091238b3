//! `EncoderCore`: the part of every encoder before its output path (`hdl/DESIGN.md`,
//! "Data path"): the input stage, the packet logic and the two payload packers. An encoder
//! top joins it to one output path through the [`PushesSource`] / [`Pushes`] bundle
//! (`crate::top::encoder_top!`).
//!
//! [`Pushes`]: crate::output::Pushes

use rust_hdl::prelude::*;

use crate::ingress::inputs::{ControlSource, EncoderInputs, IngressSource, OptionsSource};
use crate::ingress::InputStage;
use crate::logic::PacketLogic;
use crate::output::PushesSource;
use crate::packer::{PacketFieldsSource, PayloadPacker};

/// A deliberate fault of a test build (`TopOptions::inject_fault`): it shows that the
/// co-simulation checker bites in the block it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Bit 0 of every packed branch map flipped (payload packer 0).
    BranchMap,
    /// Every branch prediction inverted (the predictor).
    Predictor,
    /// Every address pushed on the return stack with its bit 1 inverted, so no return is inferred
    /// (the return stack).
    ReturnStack,
}

/// The generation parameters of a core (`discovery.adoc`) and its test-only fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CoreOptions {
    /// `bpred_size_p`: a branch predictor of 2^`bpred_size` entries (0: none;
    /// at most [`crate::logic::predictor::BPRED_MAX_BITS`]).
    pub bpred_size: u8,
    /// `return_stack_size_p`: a return stack of 2^`return_stack_size` entries (0: none;
    /// at most [`crate::logic::return_stack::RETURN_STACK_MAX_BITS`]).
    pub return_stack_size: u8,
    /// The deliberate fault, if any (test only).
    pub fault: Option<Fault>,
}

impl CoreOptions {
    /// Width of `irdepth` (`payload.adoc`, `sec:irxx`): `return_stack_size_p + 1`, 0
    /// without a return stack.
    pub fn irdepth_width(&self) -> usize {
        match self.return_stack_size {
            0 => 0,
            n => usize::from(n) + 1,
        }
    }
}

/// The input stage, packet logic and payload packers of an encoder: `A` =
/// `iaddress_width_p`, `E` = `ecause_width_p`, `IT` = itype width, `P` = payload width,
/// `ID` = width of the output path's source identifier (`srcID`, ATID).
#[derive(LogicBlock)]
pub struct EncoderCore<
    const A: usize,
    const E: usize,
    const IT: usize,
    const P: usize,
    const ID: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The encoder's inputs but the output's (`DESIGN.md` item 0: through the input stage).
    pub inputs: EncoderInputs<A, E, IT>,
    /// The output path's source identifier pin (registered twice, as the options).
    pub source_id: Signal<In, Bits<ID>>,
    /// The source identifier for the output path, from the input stage.
    pub path_source_id: Signal<Out, Bits<ID>>,
    /// The packets for the output path (its reset, the pushes, its queue's room).
    pub pushes: PushesSource<P>,
    /// Packets were dropped and the recovery sync is not sent yet (`DESIGN.md` item 4).
    pub trace_lost: Signal<Out, Bit>,
    input_stage: InputStage<A, E, IT, ID>,
    packet_logic: PacketLogic<A, E, IT>,
    packer0: PayloadPacker<A, E, P>,
    packer1: PayloadPacker<A, E, P>,
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const ID: usize>
    EncoderCore<A, E, IT, P, ID>
{
    /// The core with the generation parameters and fault of `options`.
    pub fn new(options: CoreOptions) -> Self {
        EncoderCore {
            clock: Default::default(),
            inputs: Default::default(),
            source_id: Default::default(),
            path_source_id: Default::default(),
            pushes: Default::default(),
            trace_lost: Default::default(),
            input_stage: Default::default(),
            packet_logic: PacketLogic::new(
                options.bpred_size,
                options.fault == Some(Fault::Predictor),
                options.return_stack_size,
                options.fault == Some(Fault::ReturnStack),
            ),
            packer0: PayloadPacker::with_fault(options.fault == Some(Fault::BranchMap))
                .with_irdepth(options.irdepth_width()),
            packer1: PayloadPacker::new(),
        }
    }
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const ID: usize> Logic
    for EncoderCore<A, E, IT, P, ID>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Item 0: every input but the output's ready goes through two flip-flops first: the
        // input stage, then trace control's output registers and the ingress block register
        // (in the packet logic) or the input stage's second registers.
        self.input_stage.clock.next = self.clock.val();
        self.packet_logic.clock.next = self.clock.val();
        EncoderInputs::<A, E, IT>::link(&mut self.inputs, &mut self.input_stage.inputs);
        self.input_stage.source_id.next = self.source_id.val();
        self.path_source_id.next = self.input_stage.source_id_q2.val();
        self.packet_logic.reset.next = self.input_stage.reset_q2.val();
        self.packet_logic.reset_ahead.next = self.input_stage.reset_q.val();
        IngressSource::<A, E, IT>::join(&mut self.input_stage.block, &mut self.packet_logic.block);
        ControlSource::join(
            &mut self.input_stage.control,
            &mut self.packet_logic.control,
        );
        OptionsSource::join(
            &mut self.input_stage.options,
            &mut self.packet_logic.options,
        );
        // Items 4-5: the packet register's bundles into the packers, the payloads into the
        // output path's queue.
        PacketFieldsSource::<A, E>::join(&mut self.packet_logic.pkt0, &mut self.packer0.fields);
        PacketFieldsSource::<A, E>::join(&mut self.packet_logic.pkt1, &mut self.packer1.fields);
        self.pushes.reset.next = self.input_stage.reset_q2.val();
        self.pushes.push_count.next = self.packet_logic.count.val();
        self.pushes.entry0_payload.next = self.packer0.payload.val();
        self.pushes.entry1_payload.next = self.packer1.payload.val();
        self.packet_logic.queue_free.next = self.pushes.free.val();
        self.packet_logic.queue_drained.next = self.pushes.drained.val();
        self.trace_lost.next = self.packet_logic.lost.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn encoder_core_verilog() {
        let v = crate::with_config!(Config::Rv32, [A, E, IT, P] => {
            let mut uut = EncoderCore::<A, E, IT, P, 16>::new(CoreOptions {
                bpred_size: 6,
                return_stack_size: 2,
                fault: None,
            });
            uut.connect_all();
            generate(&uut)
        });
        yosys_check("encoder_core", &v).unwrap();
        lint("encoder_core", &v).unwrap();
    }
}
