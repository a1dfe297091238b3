//! The C ABI of the verilated variants (`src/shim.h`), declared by `build.rs` in
//! `$OUT_DIR/ffi.rs`: each encoder variant as a fast build (`vtable`) and a traced one
//! (`traced_vtable`), each SoC as a traced build (`soc_vtable`), each N-Trace encoder as a
//! fast build (`ntrace_vtable`).

use std::os::raw::{c_char, c_int, c_void};

use crate::variant::{NtraceVariant, SocVariant, Variant};

/// The C functions of one variant.
#[derive(Clone, Copy)]
pub(crate) struct VTable {
    /// Verilated with `--trace`: `trace_open` can open a VCD file.
    pub(crate) traced: bool,
    /// A new model; never null.
    pub(crate) new: unsafe extern "C" fn() -> *mut c_void,
    /// Frees a model.
    pub(crate) free: unsafe extern "C" fn(*mut c_void),
    /// One cycle: `Inputs` in, `RawOutputs` out.
    pub(crate) step: unsafe extern "C" fn(*mut c_void, *const c_void, *mut c_void),
    /// `n` cycles: `n` `Inputs` in, `n` `RawOutputs` out.
    pub(crate) run: unsafe extern "C" fn(*mut c_void, *const c_void, *mut c_void, usize),
    /// Opens a VCD file: 0 on success.
    pub(crate) trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    /// Closes the VCD file.
    pub(crate) trace_close: unsafe extern "C" fn(*mut c_void),
    /// The C++ layout of `In` / `Out` (see `src/shim.h`).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) layout: unsafe extern "C" fn(*mut u64, usize) -> usize,
}

include!(concat!(env!("OUT_DIR"), "/ffi.rs"));
