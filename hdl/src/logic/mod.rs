//! The encoder's packet logic (`hdl/DESIGN.md`, cycle contract items 1-4): qualification,
//! trace enable / disable, the decision of `exampleAlgorithm.adoc`, branch map, resync
//! counter, return stack, address computation and drop / recovery, combined in [`PacketLogic`].

pub mod address;
pub mod branch_count;
pub mod branch_map;
pub mod chart_key;
pub mod control;
pub mod decision;
pub mod loss;
pub mod packet_logic;
pub mod predictor;
pub mod resync;
pub mod return_stack;

pub use packet_logic::PacketLogic;
