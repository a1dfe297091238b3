//! Field widths of te_inst packets derived from the parameters (`payload.adoc` tables,
//! `discovery.adoc` `tab:iparameters`).

use super::PacketError;
use crate::params::Params;

/// Width of `encoder_mode` in format 3 subformat 3 (`payload.adoc`: "E" bits; only branch
/// trace, value 0, is defined; one bit as in the reference flow).
pub const ENCODER_MODE_WIDTH: u32 = 1;
/// Width of `ioptions` in format 3 subformat 3: the six bits of [`super::IOptions`].
pub const IOPTIONS_WIDTH: u32 = 6;
/// Width of `branch_count` in format 0 subformat 0 (`payload.adoc`; stays 32 bits, issue
/// #120 in `spec/README.md`).
pub const BRANCH_COUNT_WIDTH: u32 = 32;
/// Width of the `branches` field of formats 1 and 0 subformat 1.
pub const BRANCHES_WIDTH: u32 = 5;

/// Widths in bits of the parameter-dependent te_inst fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldWidths {
    /// `privilege`: `privilege_width_p`.
    pub privilege: u32,
    /// `time`: `time_width_p`, or 0 if `notime_p` is 1.
    pub time: u32,
    /// `context`: `context_width_p`, or 0 if `nocontext_p` is 1.
    pub context: u32,
    /// `ecause`: `ecause_width_p`.
    pub ecause: u32,
    /// `address`: `iaddress_width_p - iaddress_lsb_p`.
    pub address: u32,
    /// `address` left shift to recreate the byte address: `iaddress_lsb_p`.
    pub address_lsb: u32,
    /// `tval`: `iaddress_width_p`.
    pub tval: u32,
    /// `irdepth`: `return_stack_size_p + (return_stack_size_p > 0 ? 1 : 0) +
    /// call_counter_size_p`.
    pub irdepth: u32,
    /// `index` of format 0 subformat 1: `cache_size_p`.
    pub index: u32,
    /// Format 0 `subformat`: `f0s_width_p` (`sec:f0s`).
    pub f0s: u32,
}

fn check(name: &'static str, value: u64, max: u64) -> Result<u32, PacketError> {
    if value > max {
        return Err(PacketError::BadParams {
            name,
            value,
            reason: "wider than the model supports",
        });
    }
    Ok(value as u32)
}

impl FieldWidths {
    /// The widths for `p`, checking that every field fits the model (at most 64 bits).
    pub fn from_params(p: &Params) -> Result<FieldWidths, PacketError> {
        let width = check("iaddress_width_p", p.iaddress_width_p, 64)?;
        let lsb = check("iaddress_lsb_p", p.iaddress_lsb_p, 63)?;
        if lsb >= width {
            return Err(PacketError::BadParams {
                name: "iaddress_lsb_p",
                value: p.iaddress_lsb_p,
                reason: "must be smaller than iaddress_width_p",
            });
        }
        let rss = check("return_stack_size_p", p.return_stack_size_p, 32)?;
        let ccs = check("call_counter_size_p", p.call_counter_size_p, 32)?;
        let irdepth = rss + u32::from(rss > 0) + ccs;
        if irdepth > 64 {
            return Err(PacketError::BadParams {
                name: "return_stack_size_p",
                value: p.return_stack_size_p,
                reason: "irdepth would be wider than 64 bits",
            });
        }
        Ok(FieldWidths {
            privilege: check("privilege_width_p", p.privilege_width_p, 8)?,
            time: if p.notime_p == 0 {
                check("time_width_p", p.time_width_p, 64)?
            } else {
                0
            },
            context: if p.nocontext_p == 0 {
                check("context_width_p", p.context_width_p, 64)?
            } else {
                0
            },
            ecause: check("ecause_width_p", p.ecause_width_p, 64)?,
            address: width - lsb,
            address_lsb: lsb,
            tval: width,
            irdepth,
            index: check("cache_size_p", p.cache_size_p, 64)?,
            f0s: check("f0s_width_p", p.f0s_width_p, 8)?,
        })
    }
}

/// Length of `branch_map` for a `branches` value of format 1 (`payload.adoc`): 0 -> 31
/// (no address), 1 -> 1, 2-3 -> 3, 4-7 -> 7, 8-15 -> 15, 16-31 -> 31.
pub fn branch_map_len(branches: u8) -> u32 {
    match branches {
        0 => 31,
        1 => 1,
        2..=3 => 3,
        4..=7 => 7,
        8..=15 => 15,
        _ => 31,
    }
}

/// Length of `branch_map` for a `branches` value of format 0 subformat 1: as format 1,
/// except that 0 means no branch map.
pub fn jtc_branch_map_len(branches: u8) -> u32 {
    if branches == 0 {
        0
    } else {
        branch_map_len(branches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format1_branch_map_lengths_follow_the_table() {
        let expect = [
            (0, 31),
            (1, 1),
            (2, 3),
            (3, 3),
            (4, 7),
            (7, 7),
            (8, 15),
            (12, 15),
            (15, 15),
            (16, 31),
            (31, 31),
        ];
        for (b, len) in expect {
            assert_eq!(branch_map_len(b), len, "branches={b}");
        }
        assert_eq!(jtc_branch_map_len(0), 0);
    }

    #[test]
    fn widths_of_rv64_with_context_and_time() {
        let p = Params {
            nocontext_p: 0,
            context_width_p: 32,
            notime_p: 0,
            time_width_p: 40,
            return_stack_size_p: 3,
            call_counter_size_p: 0,
            ..Params::rv64()
        };
        let w = FieldWidths::from_params(&p).unwrap();
        assert_eq!((w.address, w.tval, w.address_lsb), (63, 64, 1));
        assert_eq!((w.context, w.time, w.irdepth), (32, 40, 4));
    }

    #[test]
    fn lsb_not_below_width_is_rejected() {
        let p = Params {
            iaddress_lsb_p: 40,
            iaddress_width_p: 32,
            ..Params::rv32()
        };
        assert!(matches!(
            FieldWidths::from_params(&p),
            Err(PacketError::BadParams {
                name: "iaddress_lsb_p",
                ..
            })
        ));
    }
}
