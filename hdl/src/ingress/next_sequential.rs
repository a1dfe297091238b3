//! `NextSequential`: the address of the instruction after one that is not a jump
//! (`iaddr` plus its size, 2^`ilastsize` half-words): the return address a call pushes
//! (`branchTrace.adoc`, `sec:implicit-return`).

use rust_hdl::prelude::*;

/// `address` = `iaddr` + 2, or + 4 when `ilastsize` is 1 (a 32-bit instruction).
#[derive(LogicBlock)]
pub struct NextSequential<const A: usize> {
    /// The instruction's `iaddr`.
    pub iaddr: Signal<In, Bits<A>>,
    /// Its `ilastsize`.
    pub ilastsize: Signal<In, Bit>,
    /// The address after it.
    pub address: Signal<Out, Bits<A>>,
    size2: Constant<Bits<A>>,
    size4: Constant<Bits<A>>,
}

impl<const A: usize> Default for NextSequential<A> {
    fn default() -> Self {
        NextSequential {
            iaddr: Default::default(),
            ilastsize: Default::default(),
            address: Default::default(),
            size2: Constant::new(2.into()),
            size4: Constant::new(4.into()),
        }
    }
}

impl<const A: usize> Logic for NextSequential<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.address.next = self.iaddr.val() + self.size2.val();
        if self.ilastsize.val() {
            self.address.next = self.iaddr.val() + self.size4.val();
        }
    }
}
