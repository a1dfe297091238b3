//! The hart-to-encoder ingress port (`ingressPort.adoc`, section `sec:single-retire`) and the
//! previous / current / next window it fills (`hdl/DESIGN.md`, cycle contract item 1).

pub mod port;

pub use port::IngressPort;
