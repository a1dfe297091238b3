//! Signal bundles (`hdl/DESIGN.md`, "Bundles"): a list of signals between two blocks
//! declared once, as a rust-hdl `LogicInterface`, and with it, when both sides are blocks of
//! the design, its mate (the same signals, each in the other direction).
//!
//! A kernel connects a bundle of a block's port to the same bundle of a child with
//! `X::link(&mut self.x, &mut self.child.x)`, and the two sides of a bundle between two
//! children with `X::join(&mut self.a.x, &mut self.b.x_source)`; the Verilog of a link or a
//! join is one assignment per signal. A bundle's signals are named `field$signal` in the
//! Verilog of a module that has it as a port: the encoder tops flatten their own bundles
//! to plain pin names (`crate::verilog::flatten_ports`).

/// The direction of a signal in a bundle's mate.
macro_rules! mate_direction {
    (In) => {
        Out
    };
    (Out) => {
        In
    };
}

/// Declares a bundle: a `LogicInterface` struct whose fields are signals written
/// `name: In<T>` or `name: Out<T>` (the direction as seen by the block that has the bundle
/// in its port), with an optional mate `pub struct XSource;` (every signal the other way)
/// and `join` between the two, and, for a bundle of inputs with a mate, an optional
/// register `pub struct XRegister;` (a flip-flop per signal: the bundle `d` in, its mate
/// `q` out one cycle later). Generic parameters are `const X: usize`.
macro_rules! bundle {
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(<$(const $g:ident: usize),+>)? {
            $($(#[$field_meta:meta])* $field:ident: In<$ty:ty>),+ $(,)?
        }
        $(#[$mate_meta:meta])*
        pub struct $mate:ident;
        $(#[$register_meta:meta])*
        pub struct $register:ident;
    ) => {
        $crate::bundle::bundle! {
            $(#[$meta])*
            pub struct $name $(<$(const $g: usize),+>)? {
                $($(#[$field_meta])* $field: In<$ty>),+
            }
            $(#[$mate_meta])*
            pub struct $mate;
        }

        $(#[$register_meta])*
        #[derive(LogicBlock, Default)]
        pub struct $register $(<$(const $g: usize),+>)? {
            /// Clock.
            pub clock: Signal<In, Clock>,
            /// The signals.
            pub d: $name $(<$($g),+>)?,
            /// The signals one cycle later.
            pub q: $mate $(<$($g),+>)?,
            $($field: DFF<$ty>,)+
        }

        impl $(<$(const $g: usize),+>)? Logic for $register $(<$($g),+>)? {
            #[hdl_gen]
            fn update(&mut self) {
                $(
                    self.$field.clock.next = self.clock.val();
                    self.$field.d.next = self.d.$field.val();
                    self.q.$field.next = self.$field.q.val();
                )+
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(<$(const $g:ident: usize),+>)? {
            $($(#[$field_meta:meta])* $field:ident: $dir:ident<$ty:ty>),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(LogicInterface, Default)]
        pub struct $name $(<$(const $g: usize),+>)? {
            $($(#[$field_meta])* pub $field: Signal<$dir, $ty>,)+
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(<$(const $g:ident: usize),+>)? {
            $($(#[$field_meta:meta])* $field:ident: $dir:ident<$ty:ty>),+ $(,)?
        }
        $(#[$mate_meta:meta])*
        pub struct $mate:ident;
    ) => {
        $crate::bundle::bundle! {
            $(#[$meta])*
            pub struct $name $(<$(const $g: usize),+>)? {
                $($(#[$field_meta])* $field: $dir<$ty>),+
            }
        }

        $(#[$mate_meta])*
        #[derive(LogicInterface, Default)]
        pub struct $mate $(<$(const $g: usize),+>)? {
            $($(#[$field_meta])* pub $field: Signal<$crate::bundle::mate_direction!($dir), $ty>,)+
        }

        impl $(<$(const $g: usize),+>)? $name $(<$($g),+>)? {
            /// Drives each signal of the mate from this side or this side from the mate
            /// (a kernel's `join` of two children).
            pub fn join(&mut self, other: &mut $mate $(<$($g),+>)?) {
                $(self.$field.join(&mut other.$field);)+
            }
        }

        impl $(<$(const $g: usize),+>)? $mate $(<$($g),+>)? {
            /// Drives each signal of the mate from this side or this side from the mate
            /// (a kernel's `join` of two children).
            pub fn join(&mut self, other: &mut $name $(<$($g),+>)?) {
                $(self.$field.join(&mut other.$field);)+
            }
        }
    };
}

pub(crate) use {bundle, mate_direction};

#[cfg(test)]
#[allow(dead_code)]
mod tests {
    use rust_hdl::prelude::*;

    use crate::verilog::{generate, lint, yosys_check};

    bundle! {
        /// A bundle of the test.
        pub struct Pair<const W: usize> {
            /// Data into the receiver.
            data: In<Bits<W>>,
            /// The receiver's answer.
            ack: Out<Bit>,
        }
        /// Its mate.
        pub struct PairSource;
    }

    /// Sends `data` and reads `ack`.
    #[derive(LogicBlock, Default)]
    struct Sender {
        value: Signal<In, Bits<4>>,
        acked: Signal<Out, Bit>,
        port: PairSource<4>,
    }

    impl Logic for Sender {
        #[hdl_gen]
        fn update(&mut self) {
            self.port.data.next = self.value.val();
            self.acked.next = self.port.ack.val();
        }
    }

    /// Acknowledges nonzero data.
    #[derive(LogicBlock, Default)]
    struct Receiver {
        port: Pair<4>,
    }

    impl Logic for Receiver {
        #[hdl_gen]
        fn update(&mut self) {
            self.port.ack.next = self.port.data.val().any();
        }
    }

    /// A receiver behind a link, joined to a sender.
    #[derive(LogicBlock, Default)]
    struct Parent {
        value: Signal<In, Bits<4>>,
        acked: Signal<Out, Bit>,
        sender: Sender,
        inner: Relay,
    }

    impl Logic for Parent {
        #[hdl_gen]
        fn update(&mut self) {
            self.sender.value.next = self.value.val();
            self.acked.next = self.sender.acked.val();
            PairSource::<4>::join(&mut self.sender.port, &mut self.inner.port);
        }
    }

    /// Passes its port to a receiver.
    #[derive(LogicBlock, Default)]
    struct Relay {
        port: Pair<4>,
        receiver: Receiver,
    }

    impl Logic for Relay {
        #[hdl_gen]
        fn update(&mut self) {
            Pair::<4>::link(&mut self.port, &mut self.receiver.port);
        }
    }

    #[test]
    fn joined_and_linked_bundles_simulate_and_generate_clean_verilog() {
        let mut uut = Parent::default();
        uut.connect_all();
        for v in 0..16u64 {
            uut.value.next = v.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(uut.acked.val(), v != 0, "value {v}");
        }
        let verilog = generate(&uut);
        assert!(
            verilog.contains("always @(*) inner$port$data = sender$port$data;"),
            "{verilog}"
        );
        yosys_check("bundle", &verilog).unwrap();
        lint("bundle", &verilog).unwrap();
    }
}
