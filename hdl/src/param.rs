//! Named constants for the `#[hdl_gen]` kernels whose values are fixed by the design (not by
//! a constructor's argument): `localparam`s of the generated Verilog, like rust-hdl's
//! `Constant`, but with a `Default`, so that the blocks holding them still derive `Default`.
//!
//! A kernel can only name a value through a field of its block: a literal is printed as a
//! number and a Rust `const` as a Verilog signal name that does not exist. So the kernels
//! read, for example, the payload layouts of `packer::layout::bit` as [`LocalParam`] fields.

use rust_hdl::prelude::*;

/// A constant of `N` bits (at most 64) with the value `V`: a `localparam` of the block's
/// Verilog module, named after its field; read it in a kernel with [`LocalParam::val`].
#[derive(Clone, Copy, Debug)]
pub struct LocalParam<const N: usize, const V: u64>(Constant<Bits<N>>);

impl<const N: usize, const V: u64> Default for LocalParam<N, V> {
    fn default() -> Self {
        LocalParam(Constant::new(V.into()))
    }
}

impl<const N: usize, const V: u64> LocalParam<N, V> {
    /// The value (usable in kernels, as `Constant::val`).
    pub fn val(&self) -> Bits<N> {
        self.0.val()
    }
}

/// The all-zero value of a packed struct `T` (a `LogicStruct`, whose `Default` is all
/// zeros) as a `localparam`, read with [`ZeroParam::val`].
#[derive(Clone, Copy, Debug)]
pub struct ZeroParam<T: Synth + Default>(Constant<T>);

impl<T: Synth + Default> Default for ZeroParam<T> {
    fn default() -> Self {
        ZeroParam(Constant::new(T::default()))
    }
}

impl<T: Synth + Default> ZeroParam<T> {
    /// The value (usable in kernels, as `Constant::val`).
    pub fn val(&self) -> T {
        self.0.val()
    }
}

/// `Logic` and `Block` of a wrapper around a `Constant`: the constant itself, under the
/// wrapper's field name.
macro_rules! constant_block {
    ($ty:ident [$($g:tt)*] [$($bounds:tt)*]) => {
        impl<$($bounds)*> Logic for $ty<$($g)*> {
            fn update(&mut self) {}
        }

        impl<$($bounds)*> Block for $ty<$($g)*> {
            fn connect_all(&mut self) {}

            fn update_all(&mut self) {}

            fn has_changed(&self) -> bool {
                false
            }

            fn accept(&self, name: &str, probe: &mut dyn Probe) {
                self.0.accept(name, probe);
            }
        }
    };
}

constant_block!(LocalParam [N, V] [const N: usize, const V: u64]);
constant_block!(ZeroParam [T] [T: Synth + Default]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::generate;

    #[derive(LogicBlock, Default)]
    struct Uses {
        out: Signal<Out, Bits<6>>,
        five: LocalParam<6, 5>,
    }

    impl Logic for Uses {
        #[hdl_gen]
        fn update(&mut self) {
            self.out.next = self.five.val();
        }
    }

    #[test]
    fn a_local_param_is_a_named_localparam_of_the_module() {
        let mut uut = Uses::default();
        uut.connect_all();
        assert_eq!(uut.five.val(), Bits::<6>::from(5));
        let v = generate(&uut);
        assert!(v.contains("localparam  five = 6'b101;"), "{v}");
        assert!(v.contains("out = five;"), "{v}");
    }
}
