//! One-line listing of a te_inst packet with every field by name, for `etrace dump`
//! (modelled on the reference flow's annotated te_inst listing; `payload.adoc` names).

use std::fmt;

use super::widths::{branch_map_len, jtc_branch_map_len, FieldWidths};
use super::{AddressInfo, IOptions, TeInst};
use crate::bitfield::mask;
use crate::params::Params;

/// A te_inst packet ready to print: `format=N [subformat=N] (name) field=value ...`.
/// Addresses are shown as byte addresses (field value shifted left by `iaddress_lsb_p`,
/// `iaddress_width_p` bits, in hex); branch maps in binary with their length; the
/// `notify` / `updiscon` / `irreport` flags by meaning (1 = the transmitted bit differs
/// from the bit before it); `time` / `context` only when the parameters include them.
pub struct Listing<'a> {
    inst: &'a TeInst,
    lsb: u32,
    iaddress_width: u32,
    widths: Option<FieldWidths>,
}

impl TeInst {
    /// The packet's listing with the field widths of `params`.
    pub fn listing<'a>(&'a self, params: &Params) -> Listing<'a> {
        let widths = FieldWidths::from_params(params).ok();
        Listing {
            inst: self,
            lsb: widths.map_or(0, |w| w.address_lsb),
            iaddress_width: widths.map_or(64, |w| w.tval),
            widths,
        }
    }
}

impl Listing<'_> {
    fn byte_address(&self, field: u64) -> u64 {
        field.checked_shl(self.lsb).unwrap_or(0) & mask(self.iaddress_width)
    }

    fn has_time(&self) -> bool {
        self.widths.is_none_or(|w| w.time > 0)
    }

    fn has_context(&self) -> bool {
        self.widths.is_none_or(|w| w.context > 0)
    }

    fn has_irdepth(&self) -> bool {
        self.widths.is_none_or(|w| w.irdepth > 0)
    }

    fn write_context(
        &self,
        f: &mut fmt::Formatter<'_>,
        privilege: u8,
        time: u64,
        context: u64,
    ) -> fmt::Result {
        write!(f, " privilege={privilege}")?;
        if self.has_time() {
            write!(f, " time={time}")?;
        }
        if self.has_context() {
            write!(f, " context={context:#x}")?;
        }
        Ok(())
    }

    fn write_ir(&self, f: &mut fmt::Formatter<'_>, irreport: bool, irdepth: u64) -> fmt::Result {
        write!(f, " irreport={}", u8::from(irreport))?;
        if self.has_irdepth() {
            write!(f, " irdepth={irdepth}")?;
        }
        Ok(())
    }

    fn write_address_info(&self, f: &mut fmt::Formatter<'_>, a: &AddressInfo) -> fmt::Result {
        write!(
            f,
            " address={:#x} notify={} updiscon={}",
            self.byte_address(a.address),
            u8::from(a.notify),
            u8::from(a.updiscon)
        )?;
        self.write_ir(f, a.irreport, a.irdepth)
    }
}

fn write_branch_map(f: &mut fmt::Formatter<'_>, map: u32, len: u32) -> fmt::Result {
    if len == 0 {
        return write!(f, " branch_map=none (0 bits)");
    }
    let bits = if len == 1 { "bit" } else { "bits" };
    write!(
        f,
        " branch_map=0b{:0width$b} ({len} {bits})",
        u64::from(map) & mask(len),
        width = len as usize
    )
}

fn option_names(o: &IOptions) -> String {
    let bits = o.bits();
    let names: Vec<&str> = IOptions::NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| (bits >> i) & 1 == 1)
        .map(|(_, n)| *n)
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(",")
    }
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inst = self.inst;
        write!(f, "format={}", inst.format())?;
        if let Some(sub) = inst.subformat() {
            write!(f, " subformat={sub}")?;
        }
        write!(f, " ({})", inst.kind_name())?;
        match inst {
            TeInst::BranchCount(b) => {
                write!(
                    f,
                    " branch_count={} branch_fmt={} ({})",
                    b.branch_count,
                    b.branch_fmt.code(),
                    b.branch_fmt.name()
                )?;
                if let Some(a) = &b.address {
                    self.write_address_info(f, a)?;
                }
                Ok(())
            }
            TeInst::JumpTargetIndex(j) => {
                write!(f, " index={} branches={}", j.index, j.branches)?;
                write_branch_map(f, j.branch_map, jtc_branch_map_len(j.branches))?;
                self.write_ir(f, j.irreport, j.irdepth)
            }
            TeInst::Branch(b) => {
                write!(f, " branches={}", b.branches)?;
                write_branch_map(f, b.branch_map, branch_map_len(b.branches))?;
                if let Some(a) = &b.address {
                    self.write_address_info(f, a)?;
                }
                Ok(())
            }
            TeInst::AddrOnly(a) => self.write_address_info(f, a),
            TeInst::Start(s) => {
                write!(f, " branch={}", u8::from(s.branch))?;
                self.write_context(f, s.privilege, s.time, s.context)?;
                write!(f, " address={:#x}", self.byte_address(s.address))
            }
            TeInst::Trap(t) => {
                write!(f, " branch={}", u8::from(t.branch))?;
                self.write_context(f, t.privilege, t.time, t.context)?;
                write!(
                    f,
                    " ecause={} interrupt={} thaddr={}",
                    t.ecause,
                    u8::from(t.interrupt),
                    u8::from(t.thaddr)
                )?;
                match t.address {
                    Some(a) => write!(f, " address={:#x}", self.byte_address(a))?,
                    None => write!(f, " address=omitted")?,
                }
                if !t.interrupt {
                    write!(f, " tval={:#x}", t.tval)?;
                }
                Ok(())
            }
            TeInst::Context(c) => self.write_context(f, c.privilege, c.time, c.context),
            TeInst::Support(s) => write!(
                f,
                " ienable={} encoder_mode={} qual_status={} ({}) ioptions={:#08b} ({})",
                u8::from(s.ienable),
                s.encoder_mode,
                s.qual_status.code(),
                s.qual_status.name(),
                s.ioptions.bits(),
                option_names(&s.ioptions)
            ),
        }
    }
}
