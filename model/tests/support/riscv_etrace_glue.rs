//! Glue to the independent `riscv-etrace` crate (0.10), shared by the interoperability
//! tests and the decoder benchmark (included with `#[path]`): our parameters in its terms,
//! and a program's loadable segments as its `Binary`.

use etrace_model::hart::loader::parse_elf;
use etrace_model::isa::Xlen;
use etrace_model::params::Params;
use riscv_etrace::binary::error::SegmentError;
use riscv_etrace::binary::Binary;
use riscv_etrace::config::Parameters;
use riscv_etrace::instruction::{base, Instruction, Kind};

/// riscv-etrace's parameters equal to ours (`discovery.adoc`, `tab:iparameters`).
#[allow(dead_code)]
pub fn their_params(p: &Params) -> Parameters {
    let nz = |v: u64| std::num::NonZeroU8::new(v as u8).unwrap();
    Parameters {
        cache_size_p: p.cache_size_p as u8,
        call_counter_size_p: p.call_counter_size_p as u8,
        context_width_p: nz(p.context_width_p),
        time_width_p: nz(p.time_width_p),
        ecause_width_p: nz(p.ecause_width_p),
        f0s_width_p: p.f0s_width_p as u8,
        iaddress_lsb_p: p.iaddress_lsb_p as u8,
        iaddress_width_p: nz(p.iaddress_width_p),
        nocontext_p: p.nocontext_p == 1,
        notime_p: p.notime_p == 1,
        privilege_width_p: nz(p.privilege_width_p),
        return_stack_size_p: p.return_stack_size_p as u8,
        sijump_p: p.sijump_p == 1,
    }
}

/// The program binary in riscv-etrace's terms: the ELF's loadable segments.
#[allow(dead_code)]
pub struct Code {
    segments: Vec<(u64, Vec<u8>)>,
    base: base::Set,
}

#[allow(dead_code)]
impl Code {
    /// The loadable segments of an ELF file.
    pub fn from_elf(bytes: &[u8]) -> Code {
        let elf = parse_elf(bytes).unwrap();
        Code {
            segments: elf.segments.into_iter().map(|s| (s.addr, s.data)).collect(),
            base: match elf.xlen {
                Xlen::X32 => base::Set::Rv32I,
                Xlen::X64 => base::Set::Rv64I,
            },
        }
    }
}

impl Binary<Option<Kind>> for Code {
    type Error = SegmentError;

    fn get_insn(&mut self, address: u64) -> Result<Instruction<Option<Kind>>, SegmentError> {
        let (base, data) = self
            .segments
            .iter()
            .find(|(base, data)| address >= *base && address - base < data.len() as u64)
            .ok_or(SegmentError::AddressNotCovered)?;
        Instruction::extract(&data[(address - base) as usize..], &self.base)
            .map(|(i, _)| i)
            .ok_or(SegmentError::InvalidInstruction)
    }
}
