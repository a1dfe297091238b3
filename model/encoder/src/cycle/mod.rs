//! Cycle-accurate models of the encoder hardware's blocks (`hdl/DESIGN.md`, "Cycle
//! contract"): the same behaviour, cycle by cycle, as the RustHDL blocks in `hdl/`.

pub mod encoder;
pub mod output_path;
