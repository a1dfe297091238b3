//! `NextSequential`: the address of the instruction after one that is not a jump
//! (`iaddr` plus its size, 2^`ilastsize` half-words): the return address a call pushes
//! (`branchTrace.adoc`, `sec:implicit-return`).

use rust_hdl::prelude::*;

/// `address` = `iaddr` + 2, or + 4 when `ilastsize` is 1 (a 32-bit instruction): one
/// adder whose addend is selected (one carry chain, not two and a multiplexer).
#[derive(LogicBlock)]
pub struct NextSequential<const A: usize> {
    /// The instruction's `iaddr`.
    pub iaddr: Signal<In, Bits<A>>,
    /// Its `ilastsize`.
    pub ilastsize: Signal<In, Bit>,
    /// The address after it.
    pub address: Signal<Out, Bits<A>>,
    size: Signal<Local, Bits<A>>,
    size2: Constant<Bits<A>>,
    size4: Constant<Bits<A>>,
}

impl<const A: usize> Default for NextSequential<A> {
    fn default() -> Self {
        NextSequential {
            iaddr: Default::default(),
            ilastsize: Default::default(),
            address: Default::default(),
            size: Default::default(),
            size2: Constant::new(2.into()),
            size4: Constant::new(4.into()),
        }
    }
}

impl<const A: usize> Logic for NextSequential<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.size.next = self.size2.val();
        if self.ilastsize.val() {
            self.size.next = self.size4.val();
        }
        self.address.next = self.iaddr.val() + self.size.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address after a 2- or 4-byte instruction, wrapping at the top of the address
    /// space as the hart's program counter does.
    #[test]
    fn next_sequential_adds_the_instruction_size() {
        let mut uut = NextSequential::<32>::default();
        uut.connect_all();
        for iaddr in [0u64, 2, 0x8000_0000, 0x8000_fffe, 0xffff_fffc, 0xffff_fffe] {
            for (ilastsize, size) in [(false, 2u64), (true, 4)] {
                uut.iaddr.next = iaddr.into();
                uut.ilastsize.next = ilastsize;
                assert!(simulate(&mut uut, 10));
                assert_eq!(
                    uut.address.val(),
                    Bits::<32>::from((iaddr + size) & 0xffff_ffff),
                    "{iaddr:#x} + {size}"
                );
            }
        }
    }
}
