//! Unpacking te_inst payload bytes: the inverse of [`super::pack`], sign-extending from the
//! most significant received bit (`payload.adoc`).

use super::bits::{bit_at, BitReader};
use super::widths::{
    branch_map_len, jtc_branch_map_len, FieldWidths, BRANCHES_WIDTH, BRANCH_COUNT_WIDTH,
    ENCODER_MODE_WIDTH, IOPTIONS_WIDTH,
};
use super::{
    AddressInfo, Branch, BranchCount, BranchFmt, Context, IOptions, JumpTargetIndex, PacketError,
    QualStatus, Start, Support, TeInst, Trap,
};
use crate::bitfield::mask;
use crate::params::Params;

/// Unpacks a payload with the field widths of `params`, assuming no run-time option that
/// changes the layout (see [`unpack_with`]).
pub fn unpack(bytes: &[u8], params: &Params) -> Result<TeInst, PacketError> {
    unpack_with(bytes, params, &IOptions::default())
}

/// Unpacks a payload with the field widths of `params` and the run-time options of the
/// latest support packet, which decide two layouts:
/// * `implicit_exception`: format 3 subformat 1 has no `address` when `thaddr` is 1;
/// * format 0 with `f0s_width_p` = 0 (`sec:f0s`): subformat 1 (jump target cache) if
///   `jump_target_cache` is on and `branch_prediction` off; subformat 0 if
///   `branch_prediction` is on; with neither, subformat 1 if the parameters have only a
///   jump target cache (`cache_size_p` > 0, `bpred_size_p` = 0), else 0.
///
/// Errors: an empty payload, a subformat or `branch_fmt` that cannot occur, a payload
/// longer than the packet's uncompressed length, bad sign padding of a full-length
/// payload, or an `irdepth` that is not implicit when `irreport` is not set.
pub fn unpack_with(
    bytes: &[u8],
    params: &Params,
    ioptions: &IOptions,
) -> Result<TeInst, PacketError> {
    if bytes.is_empty() {
        return Err(PacketError::Empty);
    }
    let widths = FieldWidths::from_params(params)?;
    let mut r = BitReader::new(bytes);
    let format = r.read(2) as u8;
    let inst = match format {
        0 => read_format0(&mut r, &widths, params, ioptions)?,
        1 => read_format1(&mut r, &widths)?,
        2 => TeInst::AddrOnly(read_address_info(&mut r, &widths)?),
        _ => read_format3(&mut r, &widths, ioptions)?,
    };
    check_length(bytes, r.pos(), format)?;
    Ok(inst)
}

/// The received bytes must not extend past the packet's fields (rounded up to a byte),
/// and bits after the last field in the last byte must repeat that field's last bit.
fn check_length(bytes: &[u8], bits: usize, format: u8) -> Result<(), PacketError> {
    let max = bits.div_ceil(8);
    if bytes.len() > max {
        return Err(PacketError::TooLong {
            format,
            len: bytes.len(),
            max,
        });
    }
    if bytes.len() == max && bits % 8 != 0 {
        let sign = bit_at(bytes, bits - 1);
        if (bits..max * 8).any(|i| bit_at(bytes, i) != sign) {
            return Err(PacketError::BadPadding {
                offset: max - 1,
                bit: bits,
            });
        }
    }
    Ok(())
}

/// A bit whose meaning is "differs from the bit before it".
fn read_diff_bit(r: &mut BitReader<'_>) -> bool {
    let prev = r.last_bit();
    r.bit() != prev
}

fn read_ir(r: &mut BitReader<'_>, width: u32) -> Result<(bool, u64), PacketError> {
    let prev = r.last_bit();
    let raw = r.bit();
    let irreport = raw != prev;
    let at = r.pos();
    let depth = r.read(width);
    if irreport {
        Ok((true, depth))
    } else if depth == if raw { mask(width) } else { 0 } {
        Ok((false, 0))
    } else {
        Err(PacketError::ImplicitIrdepth { bit_offset: at })
    }
}

fn read_address_info(
    r: &mut BitReader<'_>,
    widths: &FieldWidths,
) -> Result<AddressInfo, PacketError> {
    let address = r.read(widths.address);
    let notify = read_diff_bit(r);
    let updiscon = read_diff_bit(r);
    let (irreport, irdepth) = read_ir(r, widths.irdepth)?;
    Ok(AddressInfo {
        address,
        notify,
        updiscon,
        irreport,
        irdepth,
    })
}

fn inferred_f0_subformat(params: &Params, ioptions: &IOptions) -> u64 {
    if ioptions.jump_target_cache && !ioptions.branch_prediction {
        1
    } else if ioptions.branch_prediction {
        0
    } else if params.cache_size_p > 0 && params.bpred_size_p == 0 {
        1
    } else {
        0
    }
}

fn read_format0(
    r: &mut BitReader<'_>,
    widths: &FieldWidths,
    params: &Params,
    ioptions: &IOptions,
) -> Result<TeInst, PacketError> {
    let at = r.pos();
    let sub = if widths.f0s > 0 {
        r.read(widths.f0s)
    } else {
        inferred_f0_subformat(params, ioptions)
    };
    match sub {
        0 => {
            let branch_count = r.read(BRANCH_COUNT_WIDTH) as u32;
            let fmt_at = r.pos();
            let branch_fmt = match r.read(2) {
                0b00 => BranchFmt::NoAddr,
                0b10 => BranchFmt::Addr,
                0b11 => BranchFmt::AddrFail,
                _ => return Err(PacketError::BadBranchFmt { bit_offset: fmt_at }),
            };
            let address = match branch_fmt {
                BranchFmt::NoAddr => None,
                _ => Some(read_address_info(r, widths)?),
            };
            Ok(TeInst::BranchCount(BranchCount {
                branch_count,
                branch_fmt,
                address,
            }))
        }
        1 => {
            let index = r.read(widths.index);
            let branches = r.read(BRANCHES_WIDTH) as u8;
            let branch_map = r.read(jtc_branch_map_len(branches)) as u32;
            let (irreport, irdepth) = read_ir(r, widths.irdepth)?;
            Ok(TeInst::JumpTargetIndex(JumpTargetIndex {
                index,
                branches,
                branch_map,
                irreport,
                irdepth,
            }))
        }
        _ => Err(PacketError::BadSubformat {
            format: 0,
            subformat: sub,
            reason: "only subformats 0 (branch count) and 1 (jump target cache) are defined",
            bit_offset: at,
        }),
    }
}

fn read_format1(r: &mut BitReader<'_>, widths: &FieldWidths) -> Result<TeInst, PacketError> {
    let branches = r.read(BRANCHES_WIDTH) as u8;
    let branch_map = r.read(branch_map_len(branches)) as u32;
    let address = if branches == 0 {
        None
    } else {
        Some(read_address_info(r, widths)?)
    };
    Ok(TeInst::Branch(Branch {
        branches,
        branch_map,
        address,
    }))
}

/// The `privilege`, `time` and `context` fields that formats 3.0, 3.1 and 3.2 share
/// (`payload.adoc`, format 3), in that order.
fn read_privilege_time_context(r: &mut BitReader<'_>, widths: &FieldWidths) -> (u8, u64, u64) {
    let privilege = r.read(widths.privilege) as u8;
    let time = r.read(widths.time);
    let context = r.read(widths.context);
    (privilege, time, context)
}

fn read_format3(
    r: &mut BitReader<'_>,
    widths: &FieldWidths,
    ioptions: &IOptions,
) -> Result<TeInst, PacketError> {
    let sub = r.read(2);
    Ok(match sub {
        0 => {
            let branch = r.bit();
            let (privilege, time, context) = read_privilege_time_context(r, widths);
            let address = r.read(widths.address);
            TeInst::Start(Start {
                branch,
                privilege,
                time,
                context,
                address,
            })
        }
        1 => {
            let branch = r.bit();
            let (privilege, time, context) = read_privilege_time_context(r, widths);
            let ecause = r.read(widths.ecause);
            let interrupt = r.bit();
            let thaddr = r.bit();
            let address = if ioptions.implicit_exception && thaddr {
                None
            } else {
                Some(r.read(widths.address))
            };
            let tval = if interrupt { 0 } else { r.read(widths.tval) };
            TeInst::Trap(Trap {
                branch,
                privilege,
                time,
                context,
                ecause,
                interrupt,
                thaddr,
                address,
                tval,
            })
        }
        2 => {
            let (privilege, time, context) = read_privilege_time_context(r, widths);
            TeInst::Context(Context {
                privilege,
                time,
                context,
            })
        }
        _ => {
            let ienable = r.bit();
            let encoder_mode = r.read(ENCODER_MODE_WIDTH) as u8;
            let qual_status = QualStatus::from_code(r.read(2));
            let ioptions = IOptions::from_bits(r.read(IOPTIONS_WIDTH));
            TeInst::Support(Support {
                ienable,
                encoder_mode,
                qual_status,
                ioptions,
            })
        }
    })
}
