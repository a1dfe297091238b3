//! The encoder tops (`hdl/DESIGN.md`, "Data path"): an [`EncoderCore`] joined to one
//! output path, declared by `encoder_top!` in the output path's file
//! (`crate::output::path::Encoder`, `crate::output::atb_path::AtbEncoder`), and the
//! generation of their Verilog per named configuration ([`generate`], with the table of
//! output paths in [`OutputKind`]).
//!
//! A new output path is one new file in `crate::output` (its block, its top, its `emit`
//! function) plus two registrations: its `pub mod` line in `crate::output` and its entry
//! in the table of [`OutputKind`] below.
//!
//! [`EncoderCore`]: crate::encoder_core::EncoderCore

use rust_hdl::prelude::*;

use etrace_spec::params::Params;

use crate::config::Config;
use crate::encoder_core::{CoreOptions, Fault};
use crate::generics::DEFAULT_FIFO_DEPTH;
use crate::logic::predictor::BPRED_MAX_BITS;
use crate::logic::return_stack::RETURN_STACK_MAX_BITS;
use crate::verilog::{flatten_ports, generate_named, top_ports, Port};

/// Declares an encoder top: the clock, the [`EncoderInputs`] pins, the output's source
/// identifier pin, the output path's pins and `trace_lost`, in this order, and inside an
/// [`EncoderCore`] joined to the output path. The output path is a block with the fields
/// `clock`, `pushes` ([`Pushes`]), `source_id` (as wide as the source pin) and `pins` (the
/// bundle named here), and `new(FramerConfig)`.
///
/// ```text
/// encoder_top! {
///     /// Documentation of the top.
///     pub struct Name<A, E, IT, P, Other, Generics> {
///         /// Documentation of the source pin.
///         source_pin: In<Bits<WIDTH>>,
///         pins: PinsBundle<Its, Generics>,
///         path: OutputPathType<P, Other, Generics>,
///     }
/// }
/// ```
///
/// [`EncoderInputs`]: crate::ingress::inputs::EncoderInputs
/// [`EncoderCore`]: crate::encoder_core::EncoderCore
/// [`Pushes`]: crate::output::Pushes
macro_rules! encoder_top {
    (
        $(#[$meta:meta])*
        pub struct $name:ident<A, E, IT, P $(, $g:ident)*> {
            $(#[$source_meta:meta])*
            $source:ident: In<Bits<$id:literal>>,
            pins: $pins:ident $(<$($pg:ident),+>)?,
            path: $path:ty,
        }
    ) => {
        $(#[$meta])*
        #[derive(LogicBlock)]
        pub struct $name<
            const A: usize,
            const E: usize,
            const IT: usize,
            const P: usize
            $(, const $g: usize)*
        > {
            /// Clock.
            pub clock: Signal<In, Clock>,
            /// Reset, the ingress block, trace control and the run-time options.
            pub inputs: $crate::ingress::inputs::EncoderInputs<A, E, IT>,
            $(#[$source_meta])*
            pub $source: Signal<In, Bits<$id>>,
            /// The output port.
            pub pins: $pins $(<$($pg),+>)?,
            /// Packets were dropped and the recovery sync is not sent yet
            /// (`hdl/DESIGN.md` item 4).
            pub trace_lost: Signal<Out, Bit>,
            core: $crate::encoder_core::EncoderCore<A, E, IT, P, $id>,
            path: $path,
        }

        impl<const A: usize, const E: usize, const IT: usize, const P: usize $(, const $g: usize)*>
            $name<A, E, IT, P $(, $g)*>
        {
            /// An encoder whose output path frames with `framing`, its core built with
            /// `core` (generation parameters, test-only fault).
            pub fn new(
                framing: $crate::output::FramerConfig,
                core: $crate::encoder_core::CoreOptions,
            ) -> Self {
                $name {
                    clock: Default::default(),
                    inputs: Default::default(),
                    $source: Default::default(),
                    pins: Default::default(),
                    trace_lost: Default::default(),
                    core: $crate::encoder_core::EncoderCore::new(core),
                    path: <$path>::new(framing),
                }
            }
        }

        impl<const A: usize, const E: usize, const IT: usize, const P: usize $(, const $g: usize)*>
            Logic for $name<A, E, IT, P $(, $g)*>
        {
            #[hdl_gen]
            fn update(&mut self) {
                self.core.clock.next = self.clock.val();
                self.path.clock.next = self.clock.val();
                $crate::ingress::inputs::EncoderInputs::<A, E, IT>::link(
                    &mut self.inputs,
                    &mut self.core.inputs,
                );
                self.core.source_id.next = self.$source.val();
                self.path.source_id.next = self.core.path_source_id.val();
                $crate::output::PushesSource::<P>::join(&mut self.core.pushes, &mut self.path.pushes);
                $pins $(::<$($pg),+>)?::link(&mut self.pins, &mut self.path.pins);
                self.trace_lost.next = self.core.trace_lost.val();
            }
        }
    };
}

pub(crate) use encoder_top;

/// Declares [`OutputKind`] and the generator's table: per output path its variant (with
/// the build-time settings only it has) and the `emit` function of its file.
macro_rules! output_kinds {
    ($(
        $(#[$meta:meta])*
        $variant:ident $({ $($(#[$field_meta:meta])* $field:ident: $ty:ty),+ $(,)? })?
            => $emit:path,
    )+) => {
        /// The output port of a generated encoder: one per output path (`crate::output`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum OutputKind {
            $($(#[$meta])* $variant $({ $($(#[$field_meta])* $field: $ty),+ })?,)+
        }

        /// The generator of `options.output`.
        fn emit_output(config: Config, options: &TopOptions) -> Result<Emitted, TopError> {
            match options.output {
                $(OutputKind::$variant $({ $($field),+ })? => {
                    $emit(config, options $($(, $field)+)?)
                })+
            }
        }
    };
}

output_kinds! {
    /// Encap byte stream with valid / ready (`crate::output::path`).
    Bytes => crate::output::path::emit_bytes,
    /// UltraSoC (smi) byte stream with valid / ready (`crate::output::path`).
    Smi => crate::output::path::emit_smi,
    /// ATB beats of `data_bytes` bytes (`crate::output::atb_path`).
    Atb {
        /// ATDATA width in bytes (1, 2, 4, 8 or 16).
        data_bytes: u32,
    } => crate::output::atb_path::emit_atb,
}

/// Build-time options of a generated encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopOptions {
    /// `srcID` (encap) or index (smi) width in bits (0-16; 0 for ATB).
    pub src_bits: u8,
    /// 2-byte timestamps.
    pub timestamp: bool,
    /// Byte FIFO depth (16, 32, 64, 128 or 256; 64 with ATB).
    pub fifo_depth: usize,
    /// Output port.
    pub output: OutputKind,
    /// `bpred_size_p`: a branch predictor of 2^`bpred_size` entries (0: none, 1 to
    /// [`BPRED_MAX_BITS`]).
    pub bpred_size: u8,
    /// `return_stack_size_p`: a return stack of 2^`return_stack_size` entries (0: none, 1
    /// to [`RETURN_STACK_MAX_BITS`]).
    pub return_stack_size: u8,
    /// Test only: a known RTL fault the co-simulation must catch.
    pub inject_fault: Option<Fault>,
}

impl TopOptions {
    /// The core's generation parameters and fault.
    pub fn core(&self) -> CoreOptions {
        CoreOptions {
            bpred_size: self.bpred_size,
            return_stack_size: self.return_stack_size,
            fault: self.inject_fault,
        }
    }

    /// The `discovery.adoc` parameters of `config` built with these options: those of
    /// [`Config::params`] with `bpred_size_p` and `return_stack_size_p`.
    pub fn params(&self, config: Config) -> Params {
        Params {
            bpred_size_p: u64::from(self.bpred_size),
            return_stack_size_p: u64::from(self.return_stack_size),
            ..config.params()
        }
    }
}

impl Default for TopOptions {
    /// Byte stream, no srcID, no timestamp, 64-byte FIFO, no branch predictor, no return
    /// stack.
    fn default() -> Self {
        TopOptions {
            src_bits: 0,
            timestamp: false,
            fifo_depth: DEFAULT_FIFO_DEPTH,
            output: OutputKind::Bytes,
            bpred_size: 0,
            return_stack_size: 0,
            inject_fault: None,
        }
    }
}

/// Generated Verilog of one encoder.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Top module name, `etrace_encoder_<config>`.
    pub top: String,
    /// The Verilog (top module and its sub-modules).
    pub verilog: String,
    /// The top module's ports (pins), in order.
    pub ports: Vec<Port>,
    /// One line saying what it is.
    pub description: String,
}

/// Build-time options the generator cannot honour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopError {
    /// The FIFO depth is not one of the built ones.
    #[error("FIFO depth {0} is not supported (16, 32, 64, 128 or 256 bytes; 64 with atb)")]
    FifoDepth(usize),
    /// The ATDATA width is not 1, 2, 4, 8 or 16 bytes.
    #[error("ATDATA width of {0} bytes is not supported (1, 2, 4, 8 or 16)")]
    AtbWidth(u32),
    /// `srcID` wider than 16 bits, or a srcID with ATB.
    #[error("srcID width {0} is not supported (0-16 bits, 0 with atb)")]
    SrcBits(u8),
    /// `bpred_size_p` above [`BPRED_MAX_BITS`].
    #[error("bpred_size_p {0} is not supported (0-8: up to 256 predictor entries)")]
    BpredSize(u8),
    /// `return_stack_size_p` above [`RETURN_STACK_MAX_BITS`].
    #[error("return_stack_size_p {0} is not supported (0-3: up to 8 return stack entries)")]
    ReturnStackSize(u8),
    /// The RVFI front end with a configuration other than `rv32`.
    #[error("the RVFI front end is RV32 with a 4-bit itype: configuration rv32 only, not {0}")]
    RvfiConfig(String),
    /// The trace control registers report the srcID width in `trTeSrcBits`, 0 to 12.
    #[error(
        "with the trace control registers the srcID has at most 12 bits (trTeSrcBits), not {0}"
    )]
    ControlSrcBits(u8),
}

/// One generated top, as an output path's `emit` gives it to [`generate`].
#[derive(Debug, Clone)]
pub(crate) struct Emitted {
    verilog: String,
    ports: Vec<Port>,
    output: String,
}

/// The top module name of a configuration.
pub fn top_name(config: Config) -> String {
    format!("etrace_encoder_{}", config.name().replace('-', "_"))
}

/// The Verilog of the encoder top that `make` builds for `config` (module [`top_name`],
/// its bundles' pins under their own names), its ports, and `output`, what its output is.
///
/// The top is built here, not by the caller: a top is a large value, and the caller's
/// `match` over the configurations would hold one on its stack per arm.
#[inline(never)]
pub(crate) fn emit<U: Block>(make: impl FnOnce() -> U, config: Config, output: String) -> Emitted {
    let mut uut = make();
    uut.connect_all();
    let top = top_name(config);
    let ports = top_ports(&uut);
    let verilog = flatten_ports(&generate_named(&uut, &top), &top, &ports);
    Emitted {
        verilog,
        ports: ports.into_iter().map(|(_, port)| port).collect(),
        output,
    }
}

/// Checks a `srcID` / index width and a core's generation parameters against what the
/// generator builds (every encoder with a framer and a core: [`generate`], the board tops).
pub fn check_sizes(src_bits: u8, core: &CoreOptions) -> Result<(), TopError> {
    if src_bits > 16 {
        return Err(TopError::SrcBits(src_bits));
    }
    if usize::from(core.bpred_size) > BPRED_MAX_BITS {
        return Err(TopError::BpredSize(core.bpred_size));
    }
    if usize::from(core.return_stack_size) > RETURN_STACK_MAX_BITS {
        return Err(TopError::ReturnStackSize(core.return_stack_size));
    }
    Ok(())
}

/// Generates the Verilog of `config` with `options` (top module [`top_name`]).
pub fn generate(config: Config, options: &TopOptions) -> Result<Generated, TopError> {
    check_sizes(options.src_bits, &options.core())?;
    let emitted = emit_output(config, options)?;
    Ok(Generated {
        top: top_name(config),
        verilog: emitted.verilog,
        ports: emitted.ports,
        description: format!(
            "RISC-V E-Trace instruction trace encoder, configuration {} ({})",
            config.name(),
            emitted.output
        ),
    })
}
