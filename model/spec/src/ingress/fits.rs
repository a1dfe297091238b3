//! Whether the encoder parameters of `discovery.adoc` can represent what a program
//! produces: a trap cause wider than `ecause_width_p`, an instruction address wider than
//! `iaddress_width_p`, or an address with bits below `iaddress_lsb_p` set (compressed code
//! with `iaddress_lsb_p` = 2) would be cut by the ingress port and traced wrongly without
//! a word; a context wider than the packets' context field (`context_width_p`, none with
//! `nocontext_p` = 1) cannot be packed. Callers refuse such a run up front instead.
//!
//! An odd instruction address is wrong input whatever the parameters (no RISC-V
//! instruction starts at one): [`check_aligned`] refuses it, for any protocol (N-Trace
//! address fields drop bit 0 as well).

use super::IngressRecord;
use crate::params::Params;

/// A value of an ingress record that the parameters cannot represent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// The trap cause is wider than `ecause_width_p`.
    #[error("trap cause {cause} does not fit ecause_width_p = {width} bits (at {address:#x})")]
    Cause {
        /// The cause.
        cause: u64,
        /// `ecause_width_p`.
        width: u64,
        /// The instruction address of the record.
        address: u64,
    },
    /// The instruction address is wider than `iaddress_width_p` (neither its unsigned nor
    /// its sign-extended value fits).
    #[error("instruction address {address:#x} does not fit iaddress_width_p = {width} bits")]
    Address {
        /// The address.
        address: u64,
        /// `iaddress_width_p`.
        width: u64,
    },
    /// The context is wider than the packets' context field.
    #[error(
        "context {context:#x} does not fit the {width}-bit context field of the packets \
         (context_width_p; none with nocontext_p = 1) (at {address:#x})"
    )]
    Context {
        /// The context.
        context: u64,
        /// Width of the context field: `context_width_p`, 0 with `nocontext_p` = 1.
        width: u64,
        /// The instruction address of the record.
        address: u64,
    },
    /// The instruction address is odd: the input is wrong, whatever the parameters.
    #[error(
        "instruction address {address:#x} is misaligned: no instruction starts at an odd address"
    )]
    Odd {
        /// The address.
        address: u64,
    },
    /// The instruction address has bits below `iaddress_lsb_p` set.
    #[error(
        "instruction address {address:#x} is not a multiple of 2^iaddress_lsb_p = {} \
         (compressed code needs iaddress_lsb_p <= 1)",
        1u64 << lsb
    )]
    Alignment {
        /// The address.
        address: u64,
        /// `iaddress_lsb_p`.
        lsb: u64,
    },
}

/// Checks that `params` can represent the values of `record` the encoder reports: its
/// instruction address and context (when it retires or traps) and its trap cause.
pub fn check_fits(params: &Params, record: &IngressRecord) -> Result<(), FitError> {
    let address = record.iaddr;
    if record.itype.is_trap() && !fits(record.cause, params.ecause_width_p) {
        return Err(FitError::Cause {
            cause: record.cause,
            width: params.ecause_width_p,
            address,
        });
    }
    if record.iretire == 0 && !record.itype.is_trap() {
        return Ok(());
    }
    check_aligned(record)?;
    let context_width = if params.nocontext_p == 0 {
        params.context_width_p
    } else {
        0
    };
    if !fits(record.context, context_width) {
        return Err(FitError::Context {
            context: record.context,
            width: context_width,
            address,
        });
    }
    let width = params.iaddress_width_p;
    if !fits(address, width) && !sign_extended(address, width) {
        return Err(FitError::Address { address, width });
    }
    let lsb = params.iaddress_lsb_p;
    if lsb > 0 && address & ((1u64 << lsb) - 1) != 0 {
        return Err(FitError::Alignment { address, lsb });
    }
    Ok(())
}

/// Checks that the instruction address of `record` is even when the record is one the
/// encoder reports (it retires or traps): no RISC-V instruction starts at an odd address.
pub fn check_aligned(record: &IngressRecord) -> Result<(), FitError> {
    let reported = record.iretire != 0 || record.itype.is_trap();
    if reported && record.iaddr & 1 != 0 {
        return Err(FitError::Odd {
            address: record.iaddr,
        });
    }
    Ok(())
}

/// True when `value` is the sign extension of its low `width` bits.
fn sign_extended(value: u64, width: u64) -> bool {
    width >= 64 || matches!((value as i64) >> (width - 1), 0 | -1)
}

/// True when `value` fits in `width` bits, unsigned.
fn fits(value: u64, width: u64) -> bool {
    width >= 64 || value >> width == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingress::Itype;

    fn record(itype: Itype, iaddr: u64, cause: u64) -> IngressRecord {
        IngressRecord {
            iretire: 1,
            itype,
            iaddr,
            cause,
            ..IngressRecord::default()
        }
    }

    /// Each parameter limit, just inside and just outside.
    #[test]
    fn values_the_parameters_cannot_hold_are_named() {
        let rv32 = Params::rv32();
        let narrow_cause = Params {
            ecause_width_p: 1,
            ..Params::rv32()
        };
        let narrow_address = Params {
            iaddress_width_p: 16,
            ..Params::rv32()
        };
        let word_aligned = Params {
            iaddress_lsb_p: 2,
            ..Params::rv32()
        };
        let narrow_context = Params {
            nocontext_p: 0,
            context_width_p: 4,
            ..Params::rv32()
        };
        let with_context = |context| IngressRecord {
            context,
            ..record(Itype::None, 0x100, 0)
        };
        let trap = Itype::Exception;
        let cases = [
            (rv32.clone(), with_context(0), Ok(())),
            (
                rv32.clone(),
                with_context(5),
                Err(FitError::Context {
                    context: 5,
                    width: 0,
                    address: 0x100,
                }),
            ),
            (narrow_context.clone(), with_context(0xf), Ok(())),
            (
                narrow_context,
                with_context(0x10),
                Err(FitError::Context {
                    context: 0x10,
                    width: 4,
                    address: 0x100,
                }),
            ),
            (rv32.clone(), record(trap, 0x8000_0000, 11), Ok(())),
            (narrow_cause.clone(), record(trap, 0x100, 1), Ok(())),
            (
                narrow_cause,
                record(trap, 0x100, 3),
                Err(FitError::Cause {
                    cause: 3,
                    width: 1,
                    address: 0x100,
                }),
            ),
            (
                narrow_address.clone(),
                record(Itype::None, 0xfffe, 0),
                Ok(()),
            ),
            (
                narrow_address,
                record(Itype::None, 0x8000_0000, 0),
                Err(FitError::Address {
                    address: 0x8000_0000,
                    width: 16,
                }),
            ),
            (
                word_aligned.clone(),
                record(Itype::None, 0x8000_0004, 0),
                Ok(()),
            ),
            (
                rv32.clone(),
                record(Itype::None, 0x8000_0001, 0),
                Err(FitError::Odd {
                    address: 0x8000_0001,
                }),
            ),
            (
                Params {
                    iaddress_lsb_p: 0,
                    ..Params::rv32()
                },
                record(trap, 0x8000_0003, 2),
                Err(FitError::Odd {
                    address: 0x8000_0003,
                }),
            ),
            (
                rv32.clone(),
                IngressRecord {
                    iretire: 0,
                    ..record(Itype::None, 0x8000_0001, 0)
                },
                Ok(()),
            ),
            (
                word_aligned,
                record(Itype::None, 0x8000_0006, 0),
                Err(FitError::Alignment {
                    address: 0x8000_0006,
                    lsb: 2,
                }),
            ),
        ];
        for (params, rec, want) in cases {
            assert_eq!(check_fits(&params, &rec), want, "{rec:?}");
        }
    }
}
