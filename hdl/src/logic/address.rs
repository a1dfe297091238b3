//! `AddressUnit`: the `address` field of te_inst packets: full (`payload.adoc`,
//! `sec:format30`, `sec:full-address`) or differential (`sec:delta-address`) to the last
//! reported address, with `iaddress_lsb_p` = 1 (the field is the low `A - 1` bits).

use rust_hdl::prelude::*;

/// Address field computation and the last-address register.
#[derive(LogicBlock, Default)]
pub struct AddressUnit<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Forget the last address (trace enable: the model's `last_address` starts at 0).
    pub clear: Signal<In, Bit>,
    /// Address of the current instruction.
    pub iaddr: Signal<In, Bits<A>>,
    /// Run-time option `full_address` (`sec:full-address`).
    pub full_address: Signal<In, Bit>,
    /// The packet is a format 1 / 2 (address reported differentially unless `full_address`);
    /// else a format 3 (always the full address).
    pub differential: Signal<In, Bit>,
    /// A packet reporting `iaddr` is produced: it becomes the last address.
    pub update: Signal<In, Bit>,
    /// The `address` field value (low `A - 1` bits).
    pub address: Signal<Out, Bits<A>>,
    last: DFF<Bits<A>>,
    full: Signal<Local, Bits<A>>,
    diff: Signal<Local, Bits<A>>,
}

impl<const A: usize> Logic for AddressUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last);
        self.full.next = self.iaddr.val() >> 1;
        self.diff.next = (((self.iaddr.val() >> 1) - (self.last.q.val() >> 1)) << 1) >> 1;
        if self.differential.val() && !self.full_address.val() {
            self.address.next = self.diff.val();
        } else {
            self.address.next = self.full.val();
        }
        if self.clear.val() {
            self.last.d.next = 0.into();
        }
        if self.update.val() {
            self.last.d.next = self.iaddr.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn address_unit_verilog_rv32_rv64() {
        let mut uut = AddressUnit::<32>::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("address_rv32", &v).unwrap();
        lint("address_rv32", &v).unwrap();
        let mut uut = AddressUnit::<64>::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("address_rv64", &v).unwrap();
        lint("address_rv64", &v).unwrap();
    }
}
