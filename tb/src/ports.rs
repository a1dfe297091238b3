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
        /// `out_ready` (byte stream) or ATREADY (ATB).
        ready: bool => ["out_ready", "atready"],
        /// ATID of the beats (7 bits; 0x00 and 0x70-0x7f are reserved). ATB variants only.
        source_atid: u8 => ["source_atid"],
    }
}

port_struct! {
    /// The outputs as the C++ shim writes them (`Out`): each the output pin of the same
    /// name, 0 when the variant has no such pin; ATDATA in two 64-bit words, the low one
    /// first.
    #[derive(Debug, Clone, Copy, Default)]
    pub(crate) struct RawOutputs {
        atdata: [u64; 2] => ["atdata"],
        out_valid: u8 => ["out_valid"],
        out_data: u8 => ["out_data"],
        out_last: u8 => ["out_last"],
        trace_lost: u8 => ["trace_lost"],
        atvalid: u8 => ["atvalid"],
        atbytes: u8 => ["atbytes"],
        atid: u8 => ["atid"],
    }
}
