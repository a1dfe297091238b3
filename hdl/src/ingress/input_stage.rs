//! `InputStage`: the flip-flops every encoder input passes through first (`hdl/DESIGN.md`,
//! cycle contract item 0): the ingress signals of `ingressPort.adoc` (tables
//! `tab:common-ingress` and `tab:single-ingress`), the control inputs (reset, trace enable,
//! trigger, halted), the run-time options and the output's source identifier.
//!
//! With them, no encoder logic depends combinationally on a pin: the hart's retirement
//! signals and the system's option registers only have to reach one flip-flop in a clock
//! period, whatever the encoder's own paths are, and a simulator evaluates the encoder's
//! logic once per clock edge instead of again whenever a pin changes. The output's ready
//! input is the only exception: a valid / ready transfer happens in the cycle both are high.
//!
//! A second register stage makes every input act two cycles after it was on the pins
//! (`hdl/DESIGN.md` item 0): the trace-control inputs (reset, trace enable, trigger, halted,
//! `iretire` / `itype`) feed `logic::control::TraceControl`, which registers its outputs;
//! the ingress block is registered again, decoded, by `ingress::IngressPort`; and the
//! signals that act with them (reset of the rest of the encoder, the run-time options,
//! the source identifier) are registered twice here, but for `resync_max`, which the
//! resync counter registers with its comparisons.

use rust_hdl::prelude::*;

use super::inputs::{
    Control, ControlRegister, ControlSource, EncoderInputs, Ingress, IngressRegister,
    IngressSource, Options, OptionsRegister, OptionsSource,
};

/// One flip-flop per input: `reset_q`, `block` and `control` are the inputs one cycle
/// later, `reset_q2`, `options` (but `resync_max`) and `source_id_q2` two (`DESIGN.md`
/// item 0); `ID` is the width of the output's source identifier.
#[derive(LogicBlock, Default)]
pub struct InputStage<const A: usize, const E: usize, const IT: usize, const ID: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The encoder's inputs: reset (the encoder stays in reset two cycles after the pin
    /// falls), the ingress block, trace control, the run-time options.
    pub inputs: EncoderInputs<A, E, IT>,
    /// The output's source identifier: `srcID` (`ID` = 16) or ATID (`ID` = 7).
    pub source_id: Signal<In, Bits<ID>>,
    /// `reset`, registered.
    pub reset_q: Signal<Out, Bit>,
    /// `reset`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `reset_q`).
    pub reset_q2: Signal<Out, Bit>,
    /// The ingress block, registered.
    pub block: IngressSource<A, E, IT>,
    /// Trace control, registered.
    pub control: ControlSource,
    /// The run-time options, registered twice (they act with the block register and the
    /// trace-control outputs), but `resync_max`, registered once: the resync counter
    /// registers it again, with its comparisons (`logic::resync::ResyncCounter`).
    pub options: OptionsSource,
    /// `source_id`, registered twice (it acts with the block register and the
    /// trace-control outputs).
    pub source_id_q2: Signal<Out, Bits<ID>>,
    block_reg: IngressRegister<A, E, IT>,
    control_reg: ControlRegister,
    options_reg: OptionsRegister,
    reset_ff: DFF<Bit>,
    source_id_ff: DFF<Bits<ID>>,
    // The second stage.
    reset_ff2: DFF<Bit>,
    full_address_ff2: DFF<Bit>,
    implicit_exception_ff2: DFF<Bit>,
    sijump_option_ff2: DFF<Bit>,
    branch_prediction_ff2: DFF<Bit>,
    implicit_return_ff2: DFF<Bit>,
    source_id_ff2: DFF<Bits<ID>>,
}

impl<const A: usize, const E: usize, const IT: usize, const ID: usize> Logic
    for InputStage<A, E, IT, ID>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            reset_ff,
            source_id_ff,
            reset_ff2,
            full_address_ff2,
            implicit_exception_ff2,
            sijump_option_ff2,
            branch_prediction_ff2,
            implicit_return_ff2,
            source_id_ff2
        );
        self.block_reg.clock.next = self.clock.val();
        self.control_reg.clock.next = self.clock.val();
        self.options_reg.clock.next = self.clock.val();
        // The first stage.
        Ingress::<A, E, IT>::link(&mut self.inputs.block, &mut self.block_reg.d);
        IngressSource::<A, E, IT>::link(&mut self.block, &mut self.block_reg.q);
        Control::link(&mut self.inputs.control, &mut self.control_reg.d);
        ControlSource::link(&mut self.control, &mut self.control_reg.q);
        Options::link(&mut self.inputs.options, &mut self.options_reg.d);
        self.reset_ff.d.next = self.inputs.reset.val();
        self.reset_q.next = self.reset_ff.q.val();
        self.source_id_ff.d.next = self.source_id.val();
        self.options.resync_max.next = self.options_reg.q.resync_max.val();
        // The second stage.
        self.reset_ff2.d.next = self.reset_ff.q.val();
        self.full_address_ff2.d.next = self.options_reg.q.full_address.val();
        self.implicit_exception_ff2.d.next = self.options_reg.q.implicit_exception.val();
        self.sijump_option_ff2.d.next = self.options_reg.q.sijump_option.val();
        self.branch_prediction_ff2.d.next = self.options_reg.q.branch_prediction.val();
        self.implicit_return_ff2.d.next = self.options_reg.q.implicit_return.val();
        self.source_id_ff2.d.next = self.source_id_ff.q.val();
        self.reset_q2.next = self.reset_ff2.q.val();
        self.options.full_address.next = self.full_address_ff2.q.val();
        self.options.implicit_exception.next = self.implicit_exception_ff2.q.val();
        self.options.sijump_option.next = self.sijump_option_ff2.q.val();
        self.options.branch_prediction.next = self.branch_prediction_ff2.q.val();
        self.options.implicit_return.next = self.implicit_return_ff2.q.val();
        self.source_id_q2.next = self.source_id_ff2.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn input_stage_verilog() {
        let v = crate::with_config!(Config::Rv32, [A, E, IT, P] => {
            let mut uut = InputStage::<A, E, IT, 16>::default();
            uut.connect_all();
            generate(&uut)
        });
        yosys_check("input_stage", &v).unwrap();
        lint("input_stage", &v).unwrap();
    }
}
