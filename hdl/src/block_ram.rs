//! `BlockRam`: the synchronous-read RAM of the byte FIFO and the branch predictor
//! (`hdl/DESIGN.md`, "Block RAM"), generated so that synthesis maps it to block RAM
//! without read-during-write logic.
//!
//! Both users forward the word written at an edge themselves when they read it at that
//! edge (the FIFO's bypass register, the predictor's `written`), so what the RAM reads
//! then is never used. Yosys cannot know that: for a plain Verilog memory it adds a
//! compare of the two addresses and a multiplexer on the read data to give the old word
//! (the block RAMs of iCE40 and ECP5 do not define it). The memory here carries yosys's
//! `no_rw_check` attribute, which leaves the colliding read undefined, so that logic (and
//! the read address's path through it) is gone. Simulation (rust-hdl's, Verilator's)
//! reads the old word, as before.

use std::collections::BTreeMap;

use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;

/// A RAM of 2^`N` words of type `D`, one read port with a synchronous read and one write
/// port, both on `clock`; a word never written reads as 0. A read at the edge that
/// writes the same address is undefined after synthesis (the old word in simulation):
/// the user must not use it.
#[derive(LogicBlock, Default)]
pub struct BlockRam<D: Synth, const N: usize> {
    /// Clock of both ports.
    pub clock: Signal<In, Clock>,
    /// The word read at the next edge.
    pub read_address: Signal<In, Bits<N>>,
    /// The word at `read_address` at the last edge (before that edge's write).
    pub read_data: Signal<Out, D>,
    /// Written at the next edge when `write_enable`.
    pub write_address: Signal<In, Bits<N>>,
    /// The word written.
    pub write_data: Signal<In, D>,
    /// Writes `write_data` at `write_address` at the next edge.
    pub write_enable: Signal<In, Bit>,
    _words: BTreeMap<Bits<N>, D>,
}

impl<D: Synth, const N: usize> Logic for BlockRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.read_data.next = self
                ._words
                .get(&self.read_address.val())
                .copied()
                .unwrap_or_default();
            if self.write_enable.val() {
                self._words
                    .insert(self.write_address.val(), self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "(* no_rw_check *)
reg [{msb}:0] words [0:{last}];

always @(posedge clock) begin
    read_data <= words[read_address];
    if (write_enable) begin
        words[write_address] <= write_data;
    end
end
",
            msb = D::BITS - 1,
            last = (1usize << N) - 1,
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "block_ram".into(),
            clock: "clock".into(),
            inputs: vec![
                "read_address".into(),
                "write_address".into(),
                "write_data".into(),
                "write_enable".into(),
            ],
            outputs: vec!["read_data".into()],
        }]
    }
}
