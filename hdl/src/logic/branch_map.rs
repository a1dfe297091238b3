//! `BranchMap`: the branch map of `exampleAlgorithm.adoc` ("Update branch map") and
//! `payload.adoc` format 1: up to 31 unreported branch outcomes, bit 0 the oldest,
//! 1 = not taken. The model: `etrace_encoder::branch_map`.

use rust_hdl::prelude::*;

/// Adds the current instruction's branch to the held map (combinational; the held count
/// and map are registers of [`super::PacketLogic`], because the decision that reads this
/// block's outputs also decides when the map empties).
///
/// `branches` / `map_bits` include the branch pushed in this cycle (`push`), as the chart
/// sees them when it decides for that instruction. The chart's "branch map full" (31
/// branches, `rpt_br` without prediction) is kept in flip-flops by the packet logic.
#[derive(LogicBlock, Default)]
pub struct BranchMap {
    /// Branches held (not yet reported).
    pub held_count: Signal<In, Bits<5>>,
    /// Outcomes held, bit 0 the oldest, 1 = not taken.
    pub held_map: Signal<In, Bits<32>>,
    /// The current instruction is a branch: add its outcome.
    pub push: Signal<In, Bit>,
    /// Outcome of the pushed branch: 1 = not taken.
    pub not_taken: Signal<In, Bit>,
    /// Branches in the map, with this cycle's.
    pub branches: Signal<Out, Bits<5>>,
    /// The map, with this cycle's branch (bit 31 is 0).
    pub map_bits: Signal<Out, Bits<32>>,
    one: Signal<Local, Bits<32>>,
}

impl Logic for BranchMap {
    #[hdl_gen]
    fn update(&mut self) {
        self.one.next = 1.into();
        self.branches.next = self.held_count.val();
        self.map_bits.next = self.held_map.val();
        if self.push.val() {
            self.branches.next = self.held_count.val() + 1;
            if self.not_taken.val() {
                self.map_bits.next =
                    self.held_map.val() | (self.one.val() << self.held_count.val());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn branch_map_verilog() {
        let mut uut = BranchMap::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("branch_map", &v).unwrap();
        lint("branch_map", &v).unwrap();
    }
}
