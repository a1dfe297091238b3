//! Zero extension of a narrow vector to a wide one, as a tiny custom-Verilog block.
//!
//! rust-hdl 0.46 widens with `bit_cast`, printed as `(narrow & M'hff..)`: a narrow operand
//! next to a wide one, which Verilator's lint reports as a WIDTH mismatch, and its
//! `#[hdl_gen]` has no concatenation. This block prints `{zeros, narrow}`, so the kernels
//! that use it keep equal operand widths (payload placement in `hdl/DESIGN.md`, "Packer ->
//! queue").

use rust_hdl::prelude::*;

/// `wide` = `narrow` zero-extended from `N` to `M` bits (`M >= N`).
#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const M: usize> {
    /// The value to extend.
    pub narrow: Signal<In, Bits<N>>,
    /// `narrow` with `M - N` zero bits above it.
    pub wide: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExtend<N, M> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<M, N>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        if M > N {
            Verilog::Custom(format!("always @(*) wide = {{{}'d0, narrow}};", M - N))
        } else {
            Verilog::Custom("always @(*) wide = narrow;".to_string())
        }
    }
}
