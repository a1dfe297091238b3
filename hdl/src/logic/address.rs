//! `AddressUnit`: the `address` field of te_inst packets: full (`payload.adoc`,
//! `sec:format30`, `sec:full-address`) or differential (`sec:delta-address`) to the last
//! reported address, with `iaddress_lsb_p` = 1 (the field is the low `A - 1` bits).

use rust_hdl::prelude::*;

/// Address field computation and the last-address register.
///
/// The full address field is the current instruction's address (formats 3.0 / 3.1; the
/// packet register holds it). The field of formats 1 / 2 (differential to the last
/// reported address unless `full_address`) is formed from registers in the deciding
/// cycle and held in this unit's own register, beside the packet register, so neither
/// the subtraction nor a choice between it and the full address follows the decision:
/// the packer takes each format's field from its own register.
#[derive(LogicBlock)]
pub struct AddressUnit<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Forget the last address (trace enable: the model's `last_address` starts at 0).
    pub clear: Signal<In, Bit>,
    /// Address of the current instruction.
    pub iaddr: Signal<In, Bits<A>>,
    /// Run-time option `full_address` (`sec:full-address`).
    pub full_address: Signal<In, Bit>,
    /// A packet reporting `iaddr` is produced: it becomes the last address.
    pub update: Signal<In, Bit>,
    /// The full `address` field value of the current instruction (low `A - 1` bits).
    pub address: Signal<Out, Bits<A>>,
    /// The formats 1 / 2 `address` field of the previous cycle's current instruction
    /// (low `A - 1` bits; registered): differential unless `full_address`.
    pub address_f12: Signal<Out, Bits<A>>,
    /// Bit `A - 2` of `address_f12` (the field's top bit).
    pub address_f12_msb: Signal<Out, Bit>,
    last: DFF<Bits<A>>,
    field_f12: DFF<Bits<A>>,
    full: Signal<Local, Bits<A>>,
    field_msb: Constant<Bits<A>>,
}

impl<const A: usize> AddressUnit<A> {
    /// The unit for `A`-bit addresses (`A` >= 2).
    pub fn new() -> Self {
        assert!(A >= 2, "address width {A}");
        AddressUnit {
            clock: Default::default(),
            clear: Default::default(),
            iaddr: Default::default(),
            full_address: Default::default(),
            update: Default::default(),
            address: Default::default(),
            address_f12: Default::default(),
            address_f12_msb: Default::default(),
            last: Default::default(),
            field_f12: Default::default(),
            full: Default::default(),
            field_msb: Constant::new(bits::<A>(1) << (A as u64 - 2)),
        }
    }
}

impl<const A: usize> Default for AddressUnit<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const A: usize> Logic for AddressUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last, field_f12);
        self.full.next = self.iaddr.val() >> 1;
        self.address.next = self.full.val();
        self.field_f12.d.next = (((self.iaddr.val() >> 1) - (self.last.q.val() >> 1)) << 1) >> 1;
        if self.full_address.val() {
            self.field_f12.d.next = self.full.val();
        }
        self.address_f12.next = self.field_f12.q.val();
        self.address_f12_msb.next = (self.field_f12.q.val() & self.field_msb.val()).any();
        if self.update.val() {
            self.last.d.next = self.iaddr.val();
        }
        if self.clear.val() {
            self.last.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn address_unit_verilog_rv32_rv64() {
        let mut uut = AddressUnit::<32>::new();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("address_rv32", &v).unwrap();
        lint("address_rv32", &v).unwrap();
        let mut uut = AddressUnit::<64>::new();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("address_rv64", &v).unwrap();
        lint("address_rv64", &v).unwrap();
    }
}
