//! Packing te_inst packets into payload bytes with sign-based compression
//! (`payload.adoc`, introduction of "Instruction Trace Encoder Output Packets").

use super::bits::{sign_compress, BitWriter};
use super::widths::{
    branch_map_len, jtc_branch_map_len, FieldWidths, BRANCHES_WIDTH, BRANCH_COUNT_WIDTH,
    ENCODER_MODE_WIDTH, IOPTIONS_WIDTH,
};
use super::{AddressInfo, BranchFmt, PacketError, TeInst};
use crate::bitfield::mask;
use crate::params::Params;

/// A packed te_inst payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedPayload {
    /// The payload bytes, least significant (first transmitted) byte first.
    pub bytes: Vec<u8>,
    /// Length in bits of the packet's fields before compression and byte padding.
    pub bits: usize,
}

/// Packs `inst` with the field widths of `params` and applies sign-based compression: the
/// shortest payload whose sign extension (from the most significant bit of its last byte)
/// gives back every field (`payload.adoc`). Field values must fit their widths; an
/// `address` may also be given sign-extended to 64 bits.
pub fn pack(inst: &TeInst, params: &Params) -> Result<PackedPayload, PacketError> {
    let mut packed = pack_uncompressed(inst, params)?;
    sign_compress(&mut packed.bytes);
    Ok(packed)
}

/// Packs `inst` without compression: every field at full width, sign-extended to the
/// next byte boundary (a valid but longer payload, as an encoder without compression
/// would send).
pub fn pack_uncompressed(inst: &TeInst, params: &Params) -> Result<PackedPayload, PacketError> {
    let widths = FieldWidths::from_params(params)?;
    let mut w = BitWriter::new();
    write_packet(&mut w, inst, &widths)?;
    let bits = w.len();
    Ok(PackedPayload {
        bytes: w.into_sign_extended_bytes(),
        bits,
    })
}

fn put(w: &mut BitWriter, field: &'static str, value: u64, width: u32) -> Result<(), PacketError> {
    push_if_fits(w, field, value, width, value & !mask(width) == 0)
}

/// Writes the low `width` bits of `value` if `fits`, else reports the field too wide.
fn push_if_fits(
    w: &mut BitWriter,
    field: &'static str,
    value: u64,
    width: u32,
    fits: bool,
) -> Result<(), PacketError> {
    if !fits {
        return Err(PacketError::FieldTooWide {
            field,
            value,
            width,
        });
    }
    w.push(value, width);
    Ok(())
}

/// An address field: unsigned in `width` bits, or a two's complement value sign-extended
/// to 64 bits.
fn put_address(
    w: &mut BitWriter,
    field: &'static str,
    value: u64,
    width: u32,
) -> Result<(), PacketError> {
    let high = value & !mask(width);
    let sign_extended = width > 0 && high == !mask(width) && (value >> (width - 1)) & 1 == 1;
    push_if_fits(w, field, value, width, high == 0 || sign_extended)
}

/// `irreport` relative to the bit before it, then `irdepth` (or copies of the `irreport`
/// bit when nothing is reported).
fn write_ir(
    w: &mut BitWriter,
    irreport: bool,
    irdepth: u64,
    width: u32,
) -> Result<(), PacketError> {
    let raw = irreport ^ w.last_bit();
    w.push_bit(raw);
    if irreport {
        put(w, "irdepth", irdepth, width)
    } else {
        w.push(if raw { u64::MAX } else { 0 }, width);
        Ok(())
    }
}

fn write_address_info(
    w: &mut BitWriter,
    a: &AddressInfo,
    widths: &FieldWidths,
) -> Result<(), PacketError> {
    put_address(w, "address", a.address, widths.address)?;
    let notify = a.notify ^ w.last_bit();
    w.push_bit(notify);
    w.push_bit(a.updiscon ^ notify);
    write_ir(w, a.irreport, a.irdepth, widths.irdepth)
}

fn write_f0_subformat(
    w: &mut BitWriter,
    sub: u64,
    widths: &FieldWidths,
) -> Result<(), PacketError> {
    if widths.f0s > 0 {
        put(w, "subformat", sub, widths.f0s)?;
    }
    Ok(())
}

fn check_branches(branches: u8) -> Result<(), PacketError> {
    if u32::from(branches) >= 1 << BRANCHES_WIDTH {
        return Err(PacketError::FieldTooWide {
            field: "branches",
            value: u64::from(branches),
            width: BRANCHES_WIDTH,
        });
    }
    Ok(())
}

fn write_context_fields(
    w: &mut BitWriter,
    privilege: u8,
    time: u64,
    context: u64,
    widths: &FieldWidths,
) -> Result<(), PacketError> {
    put(w, "privilege", u64::from(privilege), widths.privilege)?;
    put(w, "time", time, widths.time)?;
    put(w, "context", context, widths.context)
}

fn write_packet(w: &mut BitWriter, inst: &TeInst, widths: &FieldWidths) -> Result<(), PacketError> {
    w.push(u64::from(inst.format()), 2);
    match inst {
        TeInst::BranchCount(b) => {
            write_f0_subformat(w, 0, widths)?;
            w.push(u64::from(b.branch_count), BRANCH_COUNT_WIDTH);
            w.push(u64::from(b.branch_fmt.code()), 2);
            match (b.branch_fmt, &b.address) {
                (BranchFmt::NoAddr, None) => Ok(()),
                (BranchFmt::Addr | BranchFmt::AddrFail, Some(a)) => {
                    write_address_info(w, a, widths)
                }
                (BranchFmt::NoAddr, Some(_)) => Err(PacketError::Inconsistent {
                    reason: "format 0 branch_fmt no-addr with an address",
                }),
                _ => Err(PacketError::Inconsistent {
                    reason: "format 0 branch_fmt addr / addr-fail without an address",
                }),
            }
        }
        TeInst::JumpTargetIndex(j) => {
            write_f0_subformat(w, 1, widths)?;
            put(w, "index", j.index, widths.index)?;
            check_branches(j.branches)?;
            w.push(u64::from(j.branches), BRANCHES_WIDTH);
            put(
                w,
                "branch_map",
                u64::from(j.branch_map),
                jtc_branch_map_len(j.branches),
            )?;
            write_ir(w, j.irreport, j.irdepth, widths.irdepth)
        }
        TeInst::Branch(b) => {
            check_branches(b.branches)?;
            if (b.branches == 0) != b.address.is_none() {
                return Err(PacketError::Inconsistent {
                    reason: "format 1 has an address exactly when branches is not 0",
                });
            }
            w.push(u64::from(b.branches), BRANCHES_WIDTH);
            put(
                w,
                "branch_map",
                u64::from(b.branch_map),
                branch_map_len(b.branches),
            )?;
            match &b.address {
                Some(a) => write_address_info(w, a, widths),
                None => Ok(()),
            }
        }
        TeInst::AddrOnly(a) => write_address_info(w, a, widths),
        TeInst::Start(s) => {
            w.push(0, 2);
            w.push_bit(s.branch);
            write_context_fields(w, s.privilege, s.time, s.context, widths)?;
            put_address(w, "address", s.address, widths.address)
        }
        TeInst::Trap(t) => {
            w.push(1, 2);
            w.push_bit(t.branch);
            write_context_fields(w, t.privilege, t.time, t.context, widths)?;
            put(w, "ecause", t.ecause, widths.ecause)?;
            w.push_bit(t.interrupt);
            w.push_bit(t.thaddr);
            match t.address {
                Some(a) => put_address(w, "address", a, widths.address)?,
                None if t.thaddr => {}
                None => {
                    return Err(PacketError::Inconsistent {
                        reason: "format 3 subformat 1 address may be omitted only when thaddr is 1",
                    })
                }
            }
            if !t.interrupt {
                put(w, "tval", t.tval, widths.tval)?;
            }
            Ok(())
        }
        TeInst::Context(c) => {
            w.push(2, 2);
            write_context_fields(w, c.privilege, c.time, c.context, widths)
        }
        TeInst::Support(s) => {
            w.push(3, 2);
            w.push_bit(s.ienable);
            put(
                w,
                "encoder_mode",
                u64::from(s.encoder_mode),
                ENCODER_MODE_WIDTH,
            )?;
            w.push(u64::from(s.qual_status.code()), 2);
            w.push(s.ioptions.bits(), IOPTIONS_WIDTH);
            Ok(())
        }
    }
}
