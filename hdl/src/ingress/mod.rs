//! The encoder's input flip-flops (`hdl/DESIGN.md`, cycle contract item 0), then the
//! hart-to-encoder ingress port (`ingressPort.adoc`, section `sec:single-retire`) and the
//! previous / current / next window it fills (`hdl/DESIGN.md`, cycle contract item 1).

pub mod input_stage;
pub mod inputs;
pub mod next_sequential;
pub mod port;

pub use input_stage::InputStage;
pub use next_sequential::NextSequential;
pub use port::IngressPort;
