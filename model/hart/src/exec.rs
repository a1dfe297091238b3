//! Instruction execution: RV32I/RV64I, M, A, Zicsr, Zifencei, the privileged
//! instructions (unprivileged and privileged ISA manuals), and F/D through [`super::fpu`].

use super::csr::*;
use super::fpu::{self, Compare, Fp};
use super::memory::Memory;
use super::trap::{cause, Trap};
use super::{Hart, EV_TOHOST, EV_WFI};
use etrace_spec::ingress::Privilege;
use etrace_spec::isa::{Decoded, Op};

fn le16(s: &[u8]) -> u64 {
    u64::from(u16::from_le_bytes([s[0], s[1]]))
}

pub(crate) fn le32(s: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn le64(s: &[u8]) -> u64 {
    u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
}

fn sext32(v: u64) -> u64 {
    v as i32 as i64 as u64
}

impl Hart {
    /// Write integer register `rd` (XLEN-wide: RV32 values are kept sign-extended).
    #[inline(always)]
    pub(crate) fn wx<const RV64: bool>(&mut self, rd: u8, v: u64) {
        self.x[usize::from(rd & 31)] = if RV64 { v } else { sext32(v) };
        self.x[0] = 0;
    }

    #[inline(always)]
    fn rx(&self, r: u8) -> u64 {
        self.x[usize::from(r & 31)]
    }

    #[inline(always)]
    fn effective_address<const RV64: bool>(&self, base: u64, imm: i64) -> u64 {
        let a = base.wrapping_add(imm as u64);
        if RV64 {
            a
        } else {
            a & 0xffff_ffff
        }
    }

    /// Load `size` bytes at `addr`, zero-extended (misaligned accesses trap, as spike
    /// does by default).
    #[inline(always)]
    pub(crate) fn load(&mut self, addr: u64, size: u64) -> Result<u64, Trap> {
        if addr & (size - 1) != 0 {
            return Err(Trap::new(cause::MISALIGNED_LOAD, addr));
        }
        let off = addr.wrapping_sub(self.mem.ram_base);
        if off <= self.ram_len - size {
            let s = &self.mem.ram[off as usize..];
            return Ok(match size {
                1 => u64::from(s[0]),
                2 => le16(s),
                4 => le32(s),
                _ => le64(s),
            });
        }
        self.mem
            .load(addr, size)
            .ok_or(Trap::new(cause::LOAD_ACCESS, addr))
    }

    /// Store the `size` low bytes of `value` at `addr`.
    #[inline(always)]
    pub(crate) fn store(&mut self, addr: u64, size: u64, value: u64) -> Result<(), Trap> {
        if addr & (size - 1) != 0 {
            return Err(Trap::new(cause::MISALIGNED_STORE, addr));
        }
        let off = addr.wrapping_sub(self.mem.ram_base);
        if off <= self.ram_len - size {
            let o = off as usize;
            let bytes = value.to_le_bytes();
            self.mem.ram[o..o + size as usize].copy_from_slice(&bytes[..size as usize]);
        } else {
            if !self.mem.store(addr, size, value) {
                return Err(Trap::new(cause::STORE_ACCESS, addr));
            }
            if Memory::is_clint(addr) {
                self.update_clint_interrupts();
            }
        }
        // The front end acts on a store that writes the low word of `tohost` (on RV32 a
        // request is two word stores; the high word alone is not a request yet).
        if addr < self.tohost_hi && addr + size > self.tohost_lo {
            self.events |= EV_TOHOST;
        }
        Ok(())
    }

    #[inline(always)]
    fn branch(&mut self, taken: bool, pc: u64, imm: u64, next: u64, mask: u64) -> u64 {
        self.taken = taken;
        if taken {
            pc.wrapping_add(imm) & mask
        } else {
            next
        }
    }

    /// Execute `d` at `pc`; the address of the next instruction, or the exception the
    /// instruction raises.
    #[inline(always)]
    pub(crate) fn execute<const RV64: bool>(&mut self, d: &Decoded, pc: u64) -> Result<u64, Trap> {
        let mask = if RV64 { u64::MAX } else { 0xffff_ffff };
        let next = pc.wrapping_add(u64::from(d.size)) & mask;
        let a = self.rx(d.rs1);
        let b = self.rx(d.rs2);
        let imm = d.imm as u64;
        let rd = d.rd;
        let sh = if RV64 { 63 } else { 31 };
        let illegal = Trap::new(cause::ILLEGAL_INSTRUCTION, u64::from(d.raw));
        let v = match d.op {
            Op::Lui => imm,
            Op::Auipc => pc.wrapping_add(imm),
            Op::Jal => {
                self.wx::<RV64>(rd, next);
                return Ok(pc.wrapping_add(imm) & mask);
            }
            Op::Jalr => {
                let target = a.wrapping_add(imm) & !1 & mask;
                self.wx::<RV64>(rd, next);
                return Ok(target);
            }
            Op::Beq => return Ok(self.branch(a == b, pc, imm, next, mask)),
            Op::Bne => return Ok(self.branch(a != b, pc, imm, next, mask)),
            Op::Blt => return Ok(self.branch((a as i64) < (b as i64), pc, imm, next, mask)),
            Op::Bge => return Ok(self.branch((a as i64) >= (b as i64), pc, imm, next, mask)),
            Op::Bltu => return Ok(self.branch(a < b, pc, imm, next, mask)),
            Op::Bgeu => return Ok(self.branch(a >= b, pc, imm, next, mask)),
            Op::Lb => self.load(self.effective_address::<RV64>(a, d.imm), 1)? as i8 as u64,
            Op::Lh => self.load(self.effective_address::<RV64>(a, d.imm), 2)? as i16 as u64,
            Op::Lw => sext32(self.load(self.effective_address::<RV64>(a, d.imm), 4)?),
            Op::Ld => self.load(self.effective_address::<RV64>(a, d.imm), 8)?,
            Op::Lbu => self.load(self.effective_address::<RV64>(a, d.imm), 1)?,
            Op::Lhu => self.load(self.effective_address::<RV64>(a, d.imm), 2)?,
            Op::Lwu => self.load(self.effective_address::<RV64>(a, d.imm), 4)?,
            Op::Sb | Op::Sh | Op::Sw | Op::Sd => {
                let size = match d.op {
                    Op::Sb => 1,
                    Op::Sh => 2,
                    Op::Sw => 4,
                    _ => 8,
                };
                self.store(self.effective_address::<RV64>(a, d.imm), size, b)?;
                return Ok(next);
            }
            Op::Addi => a.wrapping_add(imm),
            Op::Slti => u64::from((a as i64) < (imm as i64)),
            Op::Sltiu => u64::from(a < imm),
            Op::Xori => a ^ imm,
            Op::Ori => a | imm,
            Op::Andi => a & imm,
            Op::Slli => a << (imm & sh),
            Op::Srli => (a & mask) >> (imm & sh),
            Op::Srai => ((a as i64) >> (imm & sh)) as u64,
            Op::Add => a.wrapping_add(b),
            Op::Sub => a.wrapping_sub(b),
            Op::Sll => a << (b & sh),
            Op::Slt => u64::from((a as i64) < (b as i64)),
            Op::Sltu => u64::from(a < b),
            Op::Xor => a ^ b,
            Op::Srl => (a & mask) >> (b & sh),
            Op::Sra => ((a as i64) >> (b & sh)) as u64,
            Op::Or => a | b,
            Op::And => a & b,
            Op::Addiw => sext32(a.wrapping_add(imm)),
            Op::Slliw => sext32(a << (imm & 31)),
            Op::Srliw => sext32(u64::from(a as u32 >> (imm & 31))),
            Op::Sraiw => ((a as i32) >> (imm & 31)) as i64 as u64,
            Op::Addw => sext32(a.wrapping_add(b)),
            Op::Subw => sext32(a.wrapping_sub(b)),
            Op::Sllw => sext32(a << (b & 31)),
            Op::Srlw => sext32(u64::from(a as u32 >> (b & 31))),
            Op::Sraw => ((a as i32) >> (b & 31)) as i64 as u64,
            Op::Mul => a.wrapping_mul(b),
            Op::Mulh => {
                if RV64 {
                    ((i128::from(a as i64) * i128::from(b as i64)) >> 64) as u64
                } else {
                    ((a as i64 * b as i64) >> 32) as u64
                }
            }
            Op::Mulhsu => {
                if RV64 {
                    ((i128::from(a as i64) * i128::from(b)) >> 64) as u64
                } else {
                    ((a as i64 * i64::from(b as u32)) >> 32) as u64
                }
            }
            Op::Mulhu => {
                if RV64 {
                    ((u128::from(a) * u128::from(b)) >> 64) as u64
                } else {
                    (u64::from(a as u32) * u64::from(b as u32)) >> 32
                }
            }
            Op::Div => {
                if RV64 {
                    div_signed(a as i64, b as i64) as u64
                } else {
                    i64::from(div_signed32(a as i32, b as i32)) as u64
                }
            }
            Op::Divu => {
                if RV64 {
                    a.checked_div(b).unwrap_or(u64::MAX)
                } else {
                    u64::from((a as u32).checked_div(b as u32).unwrap_or(u32::MAX))
                }
            }
            Op::Rem => {
                if RV64 {
                    rem_signed(a as i64, b as i64) as u64
                } else {
                    i64::from(rem_signed32(a as i32, b as i32)) as u64
                }
            }
            Op::Remu => {
                if RV64 {
                    a.checked_rem(b).unwrap_or(a)
                } else {
                    u64::from((a as u32).checked_rem(b as u32).unwrap_or(a as u32))
                }
            }
            Op::Mulw => sext32(a.wrapping_mul(b)),
            Op::Divw => i64::from(div_signed32(a as i32, b as i32)) as u64,
            Op::Divuw => sext32(u64::from(
                (a as u32).checked_div(b as u32).unwrap_or(u32::MAX),
            )),
            Op::Remw => i64::from(rem_signed32(a as i32, b as i32)) as u64,
            Op::Remuw => sext32(u64::from(
                (a as u32).checked_rem(b as u32).unwrap_or(a as u32),
            )),
            Op::Fence | Op::FenceI => return Ok(next),
            Op::Ecall => {
                let c = match self.prv {
                    Privilege::User => cause::USER_ECALL,
                    Privilege::Supervisor => cause::SUPERVISOR_ECALL,
                    _ => cause::MACHINE_ECALL,
                };
                return Err(Trap::new(c, 0));
            }
            Op::Ebreak => return Err(Trap::new(cause::BREAKPOINT, pc)),
            Op::Mret => {
                if self.prv != Privilege::Machine {
                    return Err(illegal);
                }
                self.serialize();
                return Ok(self.do_mret());
            }
            Op::Sret => {
                let tsr = self.csr.mstatus & MSTATUS_TSR != 0;
                match self.prv {
                    Privilege::Machine => {}
                    Privilege::Supervisor if !tsr => {}
                    _ => return Err(illegal),
                }
                self.serialize();
                return Ok(self.do_sret());
            }
            Op::Wfi => {
                let tw = self.csr.mstatus & MSTATUS_TW != 0;
                match self.prv {
                    Privilege::Machine => {}
                    Privilege::Supervisor if !tw => {}
                    _ => return Err(illegal),
                }
                self.events |= EV_WFI;
                return Ok(next);
            }
            Op::SfenceVma => {
                let tvm = self.csr.mstatus & MSTATUS_TVM != 0;
                match self.prv {
                    Privilege::Machine => {}
                    Privilege::Supervisor if !tvm => {}
                    _ => return Err(illegal),
                }
                return Ok(next);
            }
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                self.exec_csr::<RV64>(*d)?;
                self.serialize();
                return Ok(next);
            }
            Op::Illegal | Op::Uret | Op::Dret => return Err(illegal),
            op if op >= Op::LrW && op <= Op::AmomaxuD => {
                self.exec_amo::<RV64>(*d)?;
                return Ok(next);
            }
            _ => {
                self.exec_fp::<RV64>(*d)?;
                return Ok(next);
            }
        };
        self.wx::<RV64>(rd, v);
        Ok(next)
    }

    /// Zicsr: `csrrw`, `csrrs`, `csrrc` and the immediate forms.
    fn exec_csr<const RV64: bool>(&mut self, d: Decoded) -> Result<(), Trap> {
        let illegal = Trap::new(cause::ILLEGAL_INSTRUCTION, u64::from(d.raw));
        let src = match d.op {
            Op::Csrrw | Op::Csrrs | Op::Csrrc => self.rx(d.rs1),
            _ => u64::from(d.rs1),
        };
        let writes = matches!(d.op, Op::Csrrw | Op::Csrrwi) || d.rs1 != 0;
        let csr = d.csr;
        if u16::from(self.prv.code()) < (csr >> 8) & 3 || (writes && csr >> 10 == 3) {
            return Err(illegal);
        }
        let old = self.csr_read(csr).ok_or(illegal)?;
        if writes {
            let new = match d.op {
                Op::Csrrw | Op::Csrrwi => src,
                Op::Csrrs | Op::Csrrsi => old | src,
                _ => old & !src,
            };
            self.csr_write(csr, new).ok_or(illegal)?;
        }
        self.wx::<RV64>(d.rd, old);
        Ok(())
    }

    /// A extension: LR/SC and AMOs (aligned only; misaligned ones raise a store/AMO
    /// misaligned exception, LR a load misaligned one).
    fn exec_amo<const RV64: bool>(&mut self, d: Decoded) -> Result<(), Trap> {
        let word = matches!(
            d.op,
            Op::LrW
                | Op::ScW
                | Op::AmoswapW
                | Op::AmoaddW
                | Op::AmoxorW
                | Op::AmoandW
                | Op::AmoorW
                | Op::AmominW
                | Op::AmomaxW
                | Op::AmominuW
                | Op::AmomaxuW
        );
        let size: u64 = if word { 4 } else { 8 };
        let addr = self.effective_address::<RV64>(self.rx(d.rs1), 0);
        let src = self.rx(d.rs2);
        let extend = |v: u64| if word { sext32(v) } else { v };
        let misaligned = addr & (size - 1) != 0;
        match d.op {
            Op::LrW | Op::LrD => {
                if misaligned {
                    return Err(Trap::new(cause::MISALIGNED_LOAD, addr));
                }
                let v = self
                    .mem
                    .slice(addr, size)
                    .map(|s| if word { le32(s) } else { le64(s) })
                    .ok_or(Trap::new(cause::LOAD_ACCESS, addr))?;
                self.reservation = Some(addr);
                self.wx::<RV64>(d.rd, extend(v));
            }
            Op::ScW | Op::ScD => {
                if misaligned {
                    return Err(Trap::new(cause::MISALIGNED_STORE, addr));
                }
                if self.mem.slice_mut(addr, size, false).is_none() {
                    return Err(Trap::new(cause::STORE_ACCESS, addr));
                }
                let ok = self.reservation == Some(addr);
                self.reservation = None;
                if ok {
                    self.store(addr, size, src)?;
                }
                self.wx::<RV64>(d.rd, u64::from(!ok));
            }
            op => {
                if misaligned {
                    return Err(Trap::new(cause::MISALIGNED_STORE, addr));
                }
                let old = self
                    .mem
                    .slice_mut(addr, size, false)
                    .map(|s| if word { le32(s) } else { le64(s) })
                    .ok_or(Trap::new(cause::STORE_ACCESS, addr))?;
                let (o, s) = (extend(old), extend(src));
                let new = match op {
                    Op::AmoswapW | Op::AmoswapD => s,
                    Op::AmoaddW | Op::AmoaddD => o.wrapping_add(s),
                    Op::AmoxorW | Op::AmoxorD => o ^ s,
                    Op::AmoandW | Op::AmoandD => o & s,
                    Op::AmoorW | Op::AmoorD => o | s,
                    Op::AmominW | Op::AmominD => (o as i64).min(s as i64) as u64,
                    Op::AmomaxW | Op::AmomaxD => (o as i64).max(s as i64) as u64,
                    Op::AmominuW | Op::AmominuD => {
                        if word {
                            u64::from((o as u32).min(s as u32))
                        } else {
                            o.min(s)
                        }
                    }
                    _ => {
                        if word {
                            u64::from((o as u32).max(s as u32))
                        } else {
                            o.max(s)
                        }
                    }
                };
                self.store(addr, size, new)?;
                self.wx::<RV64>(d.rd, o);
            }
        }
        Ok(())
    }

    /// Write `f` register `rd`, accrue `flags`, mark the FP state dirty.
    fn set_f(&mut self, rd: u8, v: u64, flags: u8) {
        self.f[usize::from(rd & 31)] = v;
        self.csr.fflags |= flags;
        self.csr.mstatus |= MSTATUS_FS;
    }

    /// Write integer register `rd` from an FP operation that may raise `flags`.
    fn set_x_fp<const RV64: bool>(&mut self, rd: u8, v: u64, flags: u8) {
        self.wx::<RV64>(rd, v);
        if flags != 0 {
            self.csr.fflags |= flags;
            self.csr.mstatus |= MSTATUS_FS;
        }
    }

    /// F and D extensions (illegal while `mstatus.FS` is Off, as spike does).
    fn exec_fp<const RV64: bool>(&mut self, d: Decoded) -> Result<(), Trap> {
        let illegal = Trap::new(cause::ILLEGAL_INSTRUCTION, u64::from(d.raw));
        if self.csr.mstatus & MSTATUS_FS == 0 {
            return Err(illegal);
        }
        let rm = if d.op.uses_rm() {
            let rm = if d.rm == 7 { self.csr.frm } else { d.rm };
            if rm > 4 {
                return Err(illegal);
            }
            rm
        } else {
            0
        };
        let f1 = self.f[usize::from(d.rs1 & 31)];
        let f2 = self.f[usize::from(d.rs2 & 31)];
        let f3 = self.f[usize::from(d.rs3 & 31)];
        let xa = self.rx(d.rs1);
        let (s1, s2, s3) = (f32::unbox(f1), f32::unbox(f2), f32::unbox(f3));
        let (d1, d2, d3) = (f64::unbox(f1), f64::unbox(f2), f64::unbox(f3));
        let rd = d.rd;
        let single = |(r, fl): (f32, u8)| (r.boxed(), fl);
        let double = |(r, fl): (f64, u8)| (r.boxed(), fl);
        let (v, flags) = match d.op {
            Op::Flw => {
                let addr = self.effective_address::<RV64>(xa, d.imm);
                (0xffff_ffff_0000_0000 | self.load(addr, 4)?, 0)
            }
            Op::Fld => (self.load(self.effective_address::<RV64>(xa, d.imm), 8)?, 0),
            Op::Fsw => {
                self.store(self.effective_address::<RV64>(xa, d.imm), 4, f2)?;
                return Ok(());
            }
            Op::Fsd => {
                self.store(self.effective_address::<RV64>(xa, d.imm), 8, f2)?;
                return Ok(());
            }
            Op::FmaddS => single(fpu::fma(s1, s2, s3, false, false, rm)),
            Op::FmsubS => single(fpu::fma(s1, s2, s3, false, true, rm)),
            Op::FnmsubS => single(fpu::fma(s1, s2, s3, true, false, rm)),
            Op::FnmaddS => single(fpu::fma(s1, s2, s3, true, true, rm)),
            Op::FaddS => single(fpu::add(s1, s2, rm)),
            Op::FsubS => single(fpu::sub(s1, s2, rm)),
            Op::FmulS => single(fpu::mul(s1, s2, rm)),
            Op::FdivS => single(fpu::div(s1, s2, rm)),
            Op::FsqrtS => single(fpu::sqrt(s1, rm)),
            Op::FsgnjS => (fpu::sign_inject(s1, s2, 0).boxed(), 0),
            Op::FsgnjnS => (fpu::sign_inject(s1, s2, 1).boxed(), 0),
            Op::FsgnjxS => (fpu::sign_inject(s1, s2, 2).boxed(), 0),
            Op::FminS => single(fpu::min_max(s1, s2, false)),
            Op::FmaxS => single(fpu::min_max(s1, s2, true)),
            Op::FmaddD => double(fpu::fma(d1, d2, d3, false, false, rm)),
            Op::FmsubD => double(fpu::fma(d1, d2, d3, false, true, rm)),
            Op::FnmsubD => double(fpu::fma(d1, d2, d3, true, false, rm)),
            Op::FnmaddD => double(fpu::fma(d1, d2, d3, true, true, rm)),
            Op::FaddD => double(fpu::add(d1, d2, rm)),
            Op::FsubD => double(fpu::sub(d1, d2, rm)),
            Op::FmulD => double(fpu::mul(d1, d2, rm)),
            Op::FdivD => double(fpu::div(d1, d2, rm)),
            Op::FsqrtD => double(fpu::sqrt(d1, rm)),
            Op::FsgnjD => (fpu::sign_inject(d1, d2, 0).boxed(), 0),
            Op::FsgnjnD => (fpu::sign_inject(d1, d2, 1).boxed(), 0),
            Op::FsgnjxD => (fpu::sign_inject(d1, d2, 2).boxed(), 0),
            Op::FminD => double(fpu::min_max(d1, d2, false)),
            Op::FmaxD => double(fpu::min_max(d1, d2, true)),
            Op::FcvtSD => single(fpu::f64_to_f32(d1, rm)),
            Op::FcvtDS => double(fpu::f32_to_f64(s1)),
            Op::FcvtSW => single(fpu::from_int(i128::from(xa as i32), rm)),
            Op::FcvtSWu => single(fpu::from_int(i128::from(xa as u32), rm)),
            Op::FcvtSL => single(fpu::from_int(i128::from(xa as i64), rm)),
            Op::FcvtSLu => single(fpu::from_int(i128::from(xa), rm)),
            Op::FcvtDW => double(fpu::from_int(i128::from(xa as i32), rm)),
            Op::FcvtDWu => double(fpu::from_int(i128::from(xa as u32), rm)),
            Op::FcvtDL => double(fpu::from_int(i128::from(xa as i64), rm)),
            Op::FcvtDLu => double(fpu::from_int(i128::from(xa), rm)),
            Op::FmvWX => (0xffff_ffff_0000_0000 | (xa & 0xffff_ffff), 0),
            Op::FmvDX => (xa, 0),
            // Operations writing an integer register.
            op => {
                let (v, flags) = match op {
                    Op::FcvtWS => fpu::to_int(s1, rm, 32, true),
                    Op::FcvtWuS => fpu::to_int(s1, rm, 32, false),
                    Op::FcvtLS => fpu::to_int(s1, rm, 64, true),
                    Op::FcvtLuS => fpu::to_int(s1, rm, 64, false),
                    Op::FcvtWD => fpu::to_int(d1, rm, 32, true),
                    Op::FcvtWuD => fpu::to_int(d1, rm, 32, false),
                    Op::FcvtLD => fpu::to_int(d1, rm, 64, true),
                    Op::FcvtLuD => fpu::to_int(d1, rm, 64, false),
                    Op::FmvXW => (sext32(f1), 0),
                    Op::FmvXD => (f1, 0),
                    Op::FclassS => (fpu::classify(s1), 0),
                    Op::FclassD => (fpu::classify(d1), 0),
                    Op::FeqS | Op::FltS | Op::FleS | Op::FeqD | Op::FltD | Op::FleD => {
                        let cmp = match op {
                            Op::FeqS | Op::FeqD => Compare::Eq,
                            Op::FltS | Op::FltD => Compare::Lt,
                            _ => Compare::Le,
                        };
                        let (r, fl) = if matches!(op, Op::FeqS | Op::FltS | Op::FleS) {
                            fpu::compare(s1, s2, cmp)
                        } else {
                            fpu::compare(d1, d2, cmp)
                        };
                        (u64::from(r), fl)
                    }
                    _ => return Err(illegal),
                };
                self.set_x_fp::<RV64>(rd, v, flags);
                return Ok(());
            }
        };
        self.set_f(rd, v, flags);
        Ok(())
    }
}

fn div_signed(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

fn rem_signed(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

fn div_signed32(a: i32, b: i32) -> i32 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

fn rem_signed32(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}
