//! One verilated SoC ([`Soc`]): a Verilator model with its own context, stepped
//! one clock cycle per call as the encoder variants are (`crate::rtl`), and its program
//! RAM filled from an ELF through the SoC's load port, with an optional VCD dump.

use std::os::raw::c_void;
use std::path::Path;
use std::ptr::NonNull;

use etrace_hdl::rvfi::soc::SOC_RAM_BYTES;
use etrace_spec::elf::ElfImage;

use crate::ffi::{soc_vtable, VTable};
use crate::ports::{SocInputs, SocOutputs};
use crate::rtl::{VcdError, VcdFile};
use crate::variant::SocVariant;

/// A segment of the program does not fit the SoC's RAM.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "program segment {index} at {addr:#x} ({size} bytes) is outside the SoC's RAM \
     ({base:#x}, {ram} bytes)"
)]
pub struct LoadError {
    /// Program header index.
    pub index: usize,
    /// Its address.
    pub addr: u64,
    /// Its size in memory.
    pub size: u64,
    /// The RAM's base.
    pub base: u64,
    /// The RAM's size.
    pub ram: u64,
}

/// One verilated SoC of a [`SocVariant`] (`Send`, not `Sync`, as [`crate::Rtl`]).
pub struct Soc {
    variant: SocVariant,
    vt: VTable,
    handle: NonNull<c_void>,
    cycles: u64,
    vcd: VcdFile,
}

// SAFETY: as `crate::Rtl`: the model is only reached through `&mut self` (or `Drop`).
unsafe impl Send for Soc {}

impl Soc {
    /// A new SoC, clock low and evaluated once.
    pub fn new(variant: SocVariant) -> Soc {
        let vt = soc_vtable(variant);
        // SAFETY: `new` has no preconditions and returns a fresh model.
        let raw = unsafe { (vt.new)() };
        let handle = NonNull::new(raw).expect("the C++ shim returned a null model");
        Soc {
            variant,
            vt,
            handle,
            cycles: 0,
            vcd: VcdFile::default(),
        }
    }

    /// The build of this SoC.
    pub fn variant(&self) -> SocVariant {
        self.variant
    }

    /// Clock cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// One clock cycle, as [`crate::Rtl::step`]: the outputs are sampled before the
    /// rising edge.
    pub fn step(&mut self, inputs: &SocInputs) -> SocOutputs {
        let mut out = SocOutputs::default();
        // SAFETY: the handle is live; both structs are `#[repr(C)]` and the shim's `In` /
        // `Out` are made from the same declaration (`src/ports.rs`).
        unsafe {
            (self.vt.step)(
                self.handle.as_ptr(),
                (inputs as *const SocInputs).cast(),
                (&mut out as *mut SocOutputs).cast(),
            )
        };
        self.cycles += 1;
        out
    }

    /// Holds the SoC in reset and writes `image`'s segments into its RAM through the load
    /// port (one word per cycle; the bytes past a segment's file data are zero), then
    /// `extra` more reset cycles. The next [`Soc::step`] may release reset.
    pub fn load(&mut self, image: &ElfImage, extra: u32) -> Result<(), LoadError> {
        let mut inputs = SocInputs {
            reset: true,
            te_reset: true,
            ..SocInputs::default()
        };
        let base = self.variant.ram_base();
        for seg in &image.segments {
            let inside = seg.addr >= base && seg.addr + seg.mem_size <= base + SOC_RAM_BYTES;
            if !inside {
                return Err(LoadError {
                    index: seg.index,
                    addr: seg.addr,
                    size: seg.mem_size,
                    base,
                    ram: SOC_RAM_BYTES,
                });
            }
            let first = seg.addr & !3;
            let end = (seg.addr + seg.mem_size + 3) & !3;
            for word in (first..end).step_by(4) {
                let mut bytes = [0u8; 4];
                for (i, b) in bytes.iter_mut().enumerate() {
                    let at = word + i as u64;
                    if at >= seg.addr {
                        *b = seg.data.get((at - seg.addr) as usize).copied().unwrap_or(0);
                    }
                }
                inputs.load_enable = true;
                inputs.load_addr = word;
                inputs.load_data = u64::from(u32::from_le_bytes(bytes));
                self.step(&inputs);
            }
        }
        inputs.load_enable = false;
        if image.segments.is_empty() {
            // The registers' reset takes a cycle.
            self.step(&inputs);
        }
        inputs.te_reset = false;
        for _ in 0..extra {
            self.step(&inputs);
        }
        Ok(())
    }

    /// Writes the trace control registers (byte offset, value) as a debugger would, one a
    /// cycle, with the core held in reset (after [`Soc::load`]). The next [`Soc::step`]
    /// may release reset.
    pub fn write_registers(&mut self, writes: &[(u32, u32)]) {
        for &(offset, value) in writes {
            let inputs = SocInputs {
                reset: true,
                host_write: true,
                host_address: (offset / 4) as u16,
                host_data: u64::from(value),
                ..SocInputs::default()
            };
            self.step(&inputs);
        }
    }

    /// Opens a VCD file that receives every following cycle, both clock phases (closing
    /// any open one first); the VCD time of cycle `c` ([`Soc::cycles`] before its step) is
    /// 10·c. It is closed by [`Soc::close_vcd`], by another `open_vcd`, or when the SoC is
    /// dropped. The directory must exist.
    pub fn open_vcd(&mut self, path: impl AsRef<Path>) -> Result<(), VcdError> {
        self.vcd.open(&self.vt, self.handle, path.as_ref())
    }

    /// The open VCD file, if any.
    pub fn vcd_path(&self) -> Option<&Path> {
        self.vcd.path()
    }

    /// Closes the VCD file (flushing it), if one is open.
    pub fn close_vcd(&mut self) {
        self.vcd.close(&self.vt, self.handle);
    }

    /// The C++ layout of the shim's `In` and `Out` structs (see `src/shim.h`).
    #[cfg(test)]
    pub(crate) fn shim_layout(&self) -> Vec<u64> {
        let mut v = vec![0u64; 96];
        // SAFETY: `layout` writes at most `len` values into the buffer.
        let n = unsafe { (self.vt.layout)(v.as_mut_ptr(), v.len()) };
        v.truncate(n.min(96));
        v
    }
}

impl Drop for Soc {
    fn drop(&mut self) {
        // SAFETY: the handle came from `new` and is freed exactly once.
        unsafe { (self.vt.free)(self.handle.as_ptr()) };
    }
}

impl std::fmt::Debug for Soc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Soc")
            .field("variant", &self.variant)
            .field("cycles", &self.cycles)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_of_the_soc_structs_matches_the_shim() {
        let want = [SocInputs::layout(), SocOutputs::layout()].concat();
        for v in SocVariant::ALL {
            assert_eq!(Soc::new(v).shim_layout(), want, "{v:?}");
        }
    }
}
