//! The structs one step of a verilated encoder passes to and from the C++ shim
//! ([`Inputs`], `RawOutputs`), declared once: each field with its type and the pins of the
//! verilated top it carries. From this one declaration come the Rust structs
//! (`#[repr(C)]`) and, in `build.rs` (which compiles this file too), the shim's `In` /
//! `Out` structs, the copies between them and each variant's pins (the pins' widths from
//! `etrace_hdl::top::Generated::ports`), and the layout the `layout` test compares.
//!
//! This file depends on nothing but `std` (the build script compiles it).

// The tables are read by the build script, the layouts by the tests.
#![allow(dead_code)]

use std::mem::{offset_of, size_of};

/// One field of [`Inputs`] or `RawOutputs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: &'static str,
    /// Its C type (`uint64_t[2]` for an array).
    pub c_type: &'static str,
    /// The pins of the top it carries: in each variant, the one its top has (none: the
    /// variant ignores the input, the output is 0).
    pub pins: &'static [&'static str],
}

/// The C type of a field type.
macro_rules! c_type {
    (u64) => {
        "uint64_t"
    };
    (u16) => {
        "uint16_t"
    };
    (u8) => {
        "uint8_t"
    };
    (bool) => {
        "bool"
    };
    ([u64; 2]) => {
        "uint64_t[2]"
    };
}

/// Declares a `#[repr(C)]` struct whose fields are written `name: type => [pins]`, with
/// its table of [`Field`]s (`FIELDS`) and its layout (`layout()`).
macro_rules! port_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident: $ty:tt => [$($pin:literal),+],)+
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        $vis struct $name {
            $($(#[$field_meta])* pub $field: $ty,)+
        }

        impl $name {
            /// The fields in declaration order, with their C types and pins.
            pub const FIELDS: &'static [Field] = &[
                $(Field {
                    name: stringify!($field),
                    c_type: c_type!($ty),
                    pins: &[$($pin),+],
                },)+
            ];

            /// The size, then the offset of each field in declaration order.
            pub fn layout() -> Vec<u64> {
                [size_of::<$name>() $(, offset_of!($name, $field))+]
                    .iter()
                    .map(|&x| x as u64)
                    .collect()
            }
        }
    };
}

port_struct! {
    /// The input ports of one clock cycle (`hdl/DESIGN.md`; ingress fields of
    /// `ingressPort.adoc`, single-retirement form). Values wider than a port are truncated
    /// to its width (for example `iaddr` to 32 bits on RV32).
    ///
    /// `#[repr(C)]`: the step function hands this struct to the C++ shim (`In`) as it is.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Inputs {
        /// `iaddr`: address of the instruction (`ingressPort.adoc`).
        iaddr: u64 => ["iaddr"],
        /// `cause`: exception or interrupt cause, `ecause_width_p` bits.
        cause: u64 => ["cause"],
        /// `tval`: trap value.
        tval: u64 => ["tval"],
        /// Run-time option: te_inst packets between forced syncs, 0 = off
        /// (`branchTrace.adoc`, `sec:resync`).
        resync_max: u16 => ["resync_max"],
        /// `srcID` of the framed packets (`encapsulation.adoc`); its low `src_bits` bits
        /// are sent. Byte-stream variants only.
        src_id: u16 => ["src_id"],
        /// Synchronous reset, active high.
        reset: bool => ["reset"],
        /// `iretire`: one instruction retired.
        iretire: bool => ["iretire"],
        /// `itype`: termination type (`tab:itype`), `itype_width_p` bits.
        itype: u8 => ["itype"],
        /// `priv`: privilege level (`tab:priv`), 2 bits on the port.
        privilege: u8 => ["privilege"],
        /// `context` (1 bit).
        hart_context: u8 => ["hart_context"],
        /// `ctype` (1 bit).
        ctype: u8 => ["ctype"],
        /// `sijump`: the block ends with a sequentially inferable jump.
        sijump: bool => ["sijump"],
        /// `ilastsize`: the retired instruction is 2^`ilastsize` half-words.
        ilastsize: u8 => ["ilastsize"],
        /// Trace enable (run-time control, `hdl/DESIGN.md` item 3).
        trace_enable: bool => ["trace_enable"],
        /// Trigger: bit 0 start, bit 1 stop, bit 2 notify (`ingressPort.adoc` `trigger`).
        trigger: u8 => ["trigger"],
        /// `halted`: the hart is halted.
        halted: bool => ["halted"],
        /// Run-time option: full addresses (`sec:full-address`).
        full_address: bool => ["full_address"],
        /// Run-time option: implicit exception (`sec:implicit-exception`).
        implicit_exception: bool => ["implicit_exception"],
        /// Run-time option: sequentially inferable jumps (`sec:si-jump`).
        sijump_option: bool => ["sijump_option"],
        /// Run-time option: branch prediction (`sec:branch-prediction`).
        branch_prediction: bool => ["branch_prediction"],
        /// Run-time option: implicit return (`sec:implicit-return`).
        implicit_return: bool => ["implicit_return"],
        /// `out_ready` (byte stream) or ATREADY (ATB).
        ready: bool => ["out_ready", "atready"],
        /// ATID of the beats (7 bits; 0x00 and 0x70-0x7f are reserved). ATB variants only.
        source_atid: u8 => ["source_atid"],
        /// A record step is offered (N-Trace encoders only, `etrace_hdl::ntrace::top`).
        in_valid: bool => ["in_valid"],
    }
}

port_struct! {
    /// The outputs as the C++ shim writes them (`Out`): each the output pin of the same
    /// name (`trace_lost` the N-Trace encoder's `lost`), 0 when the variant has no such pin; ATDATA in two 64-bit words, the low one
    /// first.
    #[derive(Debug, Clone, Copy, Default)]
    pub(crate) struct RawOutputs {
        atdata: [u64; 2] => ["atdata"],
        out_valid: u8 => ["out_valid"],
        out_data: u8 => ["out_data"],
        out_last: u8 => ["out_last"],
        trace_lost: u8 => ["trace_lost", "lost"],
        in_ready: u8 => ["in_ready"],
        busy: u8 => ["busy"],
        atvalid: u8 => ["atvalid"],
        atbytes: u8 => ["atbytes"],
        atid: u8 => ["atid"],
    }
}

port_struct! {
    /// The input pins of one clock cycle of the PicoRV32 SoC (`etrace_hdl::rvfi::picorv32_soc`).
    ///
    /// `#[repr(C)]`: handed to the C++ shim (`In`) as it is.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct SocInputs {
        /// RAM word the load port writes (a byte address; bits 1:0 ignored).
        load_addr: u64 => ["load_addr"],
        /// The word written.
        load_data: u64 => ["load_data"],
        /// The value the host writes to the trace control registers.
        host_data: u64 => ["host_data"],
        /// The register the host writes (word address in the window).
        host_address: u16 => ["host_address"],
        /// Reset of the core (`resetn` low), the front end and the encoder, active high.
        reset: bool => ["reset"],
        /// Write `load_data` at `load_addr` at this cycle's edge (while in reset).
        load_enable: bool => ["load_enable"],
        /// Power-up reset of the trace control registers, active high.
        te_reset: bool => ["te_reset"],
        /// Write `host_data` to the register `host_address` at this cycle's edge.
        host_write: bool => ["host_write"],
        /// `out_ready` of the encoder's byte stream.
        ready: bool => ["out_ready"],
    }
}

port_struct! {
    /// The output pins of the PicoRV32 SoC as the C++ shim writes them (`Out`).
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct SocOutputs {
        /// `rvfi_insn`.
        rvfi_insn: u64 => ["rvfi_insn"],
        /// `rvfi_pc_rdata`.
        rvfi_pc_rdata: u64 => ["rvfi_pc_rdata"],
        /// `rvfi_pc_wdata`.
        rvfi_pc_wdata: u64 => ["rvfi_pc_wdata"],
        /// The front end's `iaddr`.
        iaddr: u64 => ["iaddr"],
        /// The front end's `cause`.
        cause: u64 => ["cause"],
        /// The front end's `tval`.
        tval: u64 => ["tval"],
        /// Address of the core's store in this cycle.
        store_addr: u64 => ["store_addr"],
        /// Its data (the bytes of `store_strobe`).
        store_data: u64 => ["store_data"],
        /// Cycles since reset (low 32 bits).
        cycle_low: u64 => ["cycle_low"],
        /// RVFI retirements since reset (low 32 bits).
        retired_low: u64 => ["retired_low"],
        /// `rvfi_valid`.
        rvfi_valid: u8 => ["rvfi_valid"],
        /// `rvfi_trap`.
        rvfi_trap: u8 => ["rvfi_trap"],
        /// The core's `trap` (it has halted).
        core_trap: u8 => ["core_trap"],
        /// The front end's `iretire`.
        iretire: u8 => ["iretire"],
        /// The front end's `itype`.
        itype: u8 => ["itype"],
        /// The front end's `priv`.
        privilege: u8 => ["privilege"],
        /// The front end's `sijump`.
        sijump: u8 => ["sijump"],
        /// The front end's `ilastsize`.
        ilastsize: u8 => ["ilastsize"],
        /// The core stores in this cycle.
        store_valid: u8 => ["store_valid"],
        /// Byte enables of the store.
        store_strobe: u8 => ["store_strobe"],
        /// The encoder's `out_valid`.
        out_valid: u8 => ["out_valid"],
        /// The encoder's `out_data`.
        out_data: u8 => ["out_data"],
        /// The encoder's `out_last`.
        out_last: u8 => ["out_last"],
        /// The encoder's `trace_lost`.
        trace_lost: u8 => ["trace_lost"],
        /// `trTeActive` (the encoder is out of reset).
        te_active: u8 => ["te_active"],
        /// The encoder's trace enable from the registers.
        te_trace_enable: u8 => ["te_trace_enable"],
        /// The encoder's `full_address` option from the registers.
        te_full_address: u8 => ["te_full_address"],
        /// The encoder's `implicit_exception` option from the registers.
        te_implicit_exception: u8 => ["te_implicit_exception"],
        /// The encoder's `sijump_option` from the registers.
        te_sijump_option: u8 => ["te_sijump_option"],
        /// The encoder's `resync_max` from the registers.
        te_resync_max: u64 => ["te_resync_max"],
    }
}
