//! One verilated encoder ([`Rtl`]): a Verilator model with its own `VerilatedContext`,
//! stepped one clock cycle per call or a batch of cycles per call (`hdl/DESIGN.md`, "Cycle
//! contract": cycle `t` is the interval before rising edge `t`). [`Rtl::new`] makes the
//! fast build, verilated without tracing; [`Rtl::traced`] the build that can dump a VCD
//! file (slower: every signal stays visible to the VCD writer).

use std::ffi::CString;
use std::os::raw::c_void;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use crate::ffi::{traced_vtable, vtable, VTable};
use crate::io::{Inputs, Outputs, RawOutputs};
use crate::variant::Variant;

/// Why a VCD file could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VcdError {
    /// The directory the file would go into does not exist.
    #[error("VCD file {path}: directory {dir} does not exist")]
    MissingDirectory {
        /// The requested file.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
    },
    /// The path is not valid UTF-8 or holds a NUL byte.
    #[error("VCD file {path}: the path is not valid UTF-8 without NUL bytes")]
    BadPath {
        /// The requested file.
        path: PathBuf,
    },
    /// The model was built without tracing (make it with `Rtl::traced`).
    #[error(
        "VCD file {path}: this model was verilated without tracing (a traced model is needed)"
    )]
    Untraced {
        /// The requested file.
        path: PathBuf,
    },
    /// Verilator could not create the file (permissions, a directory of that name, ...).
    #[error("VCD file {path}: Verilator could not open it for writing")]
    Open {
        /// The requested file.
        path: PathBuf,
    },
}

/// The VCD file of one verilated model, opened and closed through its C functions.
#[derive(Debug, Default)]
pub(crate) struct VcdFile(Option<PathBuf>);

impl VcdFile {
    /// Opens `path` on the model `handle` of `vt`, closing any open file first. The
    /// directory must exist.
    pub(crate) fn open(
        &mut self,
        vt: &VTable,
        handle: NonNull<c_void>,
        path: &Path,
    ) -> Result<(), VcdError> {
        self.close(vt, handle);
        let path = path.to_path_buf();
        if !vt.traced {
            return Err(VcdError::Untraced { path });
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(VcdError::MissingDirectory { path, dir });
        }
        let c_path = path
            .to_str()
            .and_then(|s| CString::new(s).ok())
            .ok_or_else(|| VcdError::BadPath { path: path.clone() })?;
        // SAFETY: the handle is live and `c_path` is a NUL-terminated string.
        let status = unsafe { (vt.trace_open)(handle.as_ptr(), c_path.as_ptr()) };
        if status != 0 {
            return Err(VcdError::Open { path });
        }
        self.0 = Some(path);
        Ok(())
    }

    /// The open file, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.0.as_deref()
    }

    /// Closes the file (flushing it), if one is open.
    pub(crate) fn close(&mut self, vt: &VTable, handle: NonNull<c_void>) {
        if self.0.take().is_some() {
            // SAFETY: the handle is live.
            unsafe { (vt.trace_close)(handle.as_ptr()) };
        }
    }
}

/// One Verilator model behind the C functions of its build (an encoder of a [`Variant`]
/// or an N-Trace encoder), stepped with [`Inputs`] and sampled as [`Outputs`]; freed when
/// dropped.
pub(crate) struct Verilated {
    vt: VTable,
    handle: NonNull<c_void>,
    cycles: u64,
    /// The outputs of the last [`Verilated::run`] as the shim writes them.
    raw: Vec<RawOutputs>,
}

// SAFETY: the model is only reached through `&mut self` (or `Drop`), never shared; the
// Verilator model and its context are plain heap objects with no thread affinity (the
// context runs single-threaded: `threads(1)` in `src/shim.h`).
unsafe impl Send for Verilated {}

impl Verilated {
    /// A new model from the C functions `vt`.
    pub(crate) fn new(vt: VTable) -> Verilated {
        // SAFETY: `new` has no preconditions and returns a fresh model.
        let raw = unsafe { (vt.new)() };
        let handle = NonNull::new(raw).expect("the C++ shim returned a null model");
        Verilated {
            vt,
            handle,
            cycles: 0,
            raw: Vec::new(),
        }
    }

    /// Clock cycles run so far.
    pub(crate) fn cycles(&self) -> u64 {
        self.cycles
    }

    /// One clock cycle (see [`Rtl::step`]).
    pub(crate) fn step(&mut self, inputs: &Inputs) -> Outputs {
        let mut raw = RawOutputs::default();
        // SAFETY: the handle is live; `Inputs` and `RawOutputs` are `#[repr(C)]` and the
        // shim's `In` / `Out` are made from the same declaration (`src/ports.rs`; the
        // `layout` test checks both compilers agree).
        unsafe {
            (self.vt.step)(
                self.handle.as_ptr(),
                (inputs as *const Inputs).cast(),
                (&mut raw as *mut RawOutputs).cast(),
            )
        };
        self.cycles += 1;
        raw.into()
    }

    /// `inputs.len()` clock cycles in one call (see [`Rtl::run`]).
    pub(crate) fn run(&mut self, inputs: &[Inputs], outputs: &mut Vec<Outputs>) {
        self.raw.clear();
        self.raw.resize(inputs.len(), RawOutputs::default());
        // SAFETY: the handle is live; `inputs` and `raw` hold `inputs.len()` `#[repr(C)]`
        // structs laid out as the shim's `In` / `Out` (see `step`).
        unsafe {
            (self.vt.run)(
                self.handle.as_ptr(),
                inputs.as_ptr().cast(),
                self.raw.as_mut_ptr().cast(),
                inputs.len(),
            )
        };
        self.cycles += inputs.len() as u64;
        outputs.clear();
        outputs.extend(self.raw.iter().map(|&r| Outputs::from(r)));
    }

    /// `n` cycles with `reset` high and every other input 0.
    pub(crate) fn reset(&mut self, n: u32) {
        let inputs = Inputs {
            reset: true,
            ..Inputs::default()
        };
        for _ in 0..n {
            self.step(&inputs);
        }
    }

    /// The C++ layout of the shim's `In` and `Out` structs (see `src/shim.h`).
    #[cfg(test)]
    pub(crate) fn shim_layout(&self) -> Vec<u64> {
        let mut v = vec![0u64; 64];
        // SAFETY: `layout` writes at most `len` values into the buffer.
        let n = unsafe { (self.vt.layout)(v.as_mut_ptr(), v.len()) };
        v.truncate(n.min(64));
        v
    }
}

impl Drop for Verilated {
    fn drop(&mut self) {
        // SAFETY: the handle came from `new` and is freed exactly once (it also closes a
        // VCD file).
        unsafe { (self.vt.free)(self.handle.as_ptr()) };
    }
}

/// One verilated encoder of a [`Variant`], after power-up (run [`Rtl::reset`] first).
///
/// Each model has its own Verilator context, so models of any variants can coexist and run
/// in different threads; one model is used by one thread at a time (`Send`, not `Sync`).
pub struct Rtl {
    variant: Variant,
    model: Verilated,
    vcd: VcdFile,
}

impl Rtl {
    /// A new model of `variant`, clock low and evaluated once; registers hold Verilator's
    /// initial values until [`Rtl::reset`]. The fast build: it cannot dump a VCD file
    /// ([`Rtl::open_vcd`] fails with [`VcdError::Untraced`]).
    pub fn new(variant: Variant) -> Rtl {
        Rtl::of(variant, vtable(variant))
    }

    /// As [`Rtl::new`], but the build verilated with `--trace`, which can dump a VCD file
    /// ([`Rtl::open_vcd`]); cycle for cycle the same as the fast build, and slower.
    pub fn traced(variant: Variant) -> Rtl {
        Rtl::of(variant, traced_vtable(variant))
    }

    /// A new model of `variant` from the C functions `vt`.
    fn of(variant: Variant, vt: VTable) -> Rtl {
        Rtl {
            variant,
            model: Verilated::new(vt),
            vcd: VcdFile::default(),
        }
    }

    /// The variant of this model.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether this is the traced build ([`Rtl::traced`]), which can dump a VCD file.
    pub fn is_traced(&self) -> bool {
        self.model.vt.traced
    }

    /// Clock cycles run so far (every [`Rtl::step`], reset cycles included).
    pub fn cycles(&self) -> u64 {
        self.model.cycles()
    }

    /// One clock cycle: drives `inputs`, evaluates with the clock low, samples the outputs
    /// (this cycle's values, before the rising edge: `out_valid && ready` means the byte is
    /// taken in this cycle), then makes the rising edge. The returned outputs are those
    /// sampled. While a VCD file is open, both clock phases are dumped.
    pub fn step(&mut self, inputs: &Inputs) -> Outputs {
        self.model.step(inputs)
    }

    /// `inputs.len()` clock cycles in one call into the model, each as [`Rtl::step`] with
    /// `inputs[i]`; `outputs` is cleared and receives the outputs sampled in each cycle.
    /// Equal to stepping cycle by cycle, without crossing the C ABI in every cycle.
    pub fn run(&mut self, inputs: &[Inputs], outputs: &mut Vec<Outputs>) {
        self.model.run(inputs, outputs);
    }

    /// `n` cycles with `reset` high and every other input 0 (the reset pin acts two cycles
    /// later; `hdl/DESIGN.md` items 0 and 3). The next [`Rtl::step`] is the first with the
    /// pin low; the encoder leaves reset two cycles after it (timestamp counter 0, item 5).
    pub fn reset(&mut self, n: u32) {
        self.model.reset(n);
    }

    /// Opens a VCD file that receives every following cycle (closing any open one first).
    /// It is closed by [`Rtl::close_vcd`], by another `open_vcd`, or when the model is
    /// dropped. The directory must exist, and the model must be [`Rtl::traced`].
    pub fn open_vcd(&mut self, path: impl AsRef<Path>) -> Result<(), VcdError> {
        self.vcd
            .open(&self.model.vt, self.model.handle, path.as_ref())
    }

    /// The open VCD file, if any.
    pub fn vcd_path(&self) -> Option<&Path> {
        self.vcd.path()
    }

    /// Closes the VCD file (flushing it), if one is open.
    pub fn close_vcd(&mut self) {
        self.vcd.close(&self.model.vt, self.model.handle);
    }

    /// The C++ layout of the shim's `In` and `Out` structs (see `src/shim.h`).
    #[cfg(test)]
    pub(crate) fn shim_layout(&self) -> Vec<u64> {
        self.model.shim_layout()
    }
}

impl std::fmt::Debug for Rtl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rtl")
            .field("variant", &self.variant)
            .field("cycles", &self.model.cycles())
            .field("vcd", &self.vcd)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Inputs` / `RawOutputs` are laid out exactly as the shim's `In` / `Out` (both made
    /// from `src/ports.rs`: this checks the C++ compiler agrees with Rust's).
    #[test]
    fn layout_of_the_ffi_structs_matches_the_shim() {
        let want = [Inputs::layout(), RawOutputs::layout()].concat();
        for &v in Variant::all() {
            assert_eq!(Rtl::new(v).shim_layout(), want, "variant {v}");
            assert_eq!(Rtl::traced(v).shim_layout(), want, "variant {v}, traced");
        }
    }

    #[test]
    fn variant_names_round_trip() {
        for &v in Variant::all() {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert!("rv128".parse::<Variant>().is_err());
    }

    /// A batch ([`Rtl::run`]) of the fast build gives the outputs of stepping the same
    /// inputs cycle by cycle on the traced build, on every variant, over a random ingress
    /// stream that makes the encoder send (so the two builds and the two ways of stepping
    /// agree).
    #[test]
    fn fast_batches_equal_traced_steps() {
        use etrace_spec::ingress::random::{RandomStream, RandomStreamConfig};
        for &v in Variant::all() {
            let config = RandomStreamConfig::for_params(&v.config().params());
            let mut inputs: Vec<Inputs> = RandomStream::new(config, 3)
                .take(3000)
                .map(|r| {
                    let mut i = Inputs {
                        trace_enable: true,
                        ready: true,
                        ..Inputs::default()
                    };
                    i.set_block(Some(&r));
                    i
                })
                .collect();
            inputs.extend([Inputs::default(); 500].map(|i| Inputs { ready: true, ..i }));
            let (mut stepped, mut batched) = (Rtl::traced(v), Rtl::new(v));
            assert!(stepped.is_traced() && !batched.is_traced());
            stepped.reset(2);
            batched.reset(2);
            let want: Vec<Outputs> = inputs.iter().map(|i| stepped.step(i)).collect();
            let mut got = Vec::new();
            let mut out = Vec::new();
            for chunk in inputs.chunks(700) {
                batched.run(chunk, &mut out);
                got.extend_from_slice(&out);
            }
            assert_eq!(got, want, "variant {v}");
            assert_eq!(batched.cycles(), stepped.cycles());
            let sent = want.iter().filter(|o| o.out_valid || o.atvalid).count();
            assert!(sent > 200, "variant {v}: {sent} items sent");
        }
    }

    /// After reset, with trace disabled, the encoder presents nothing (`hdl/DESIGN.md`
    /// item 3: reset clears everything).
    #[test]
    fn idle_after_reset() {
        for &v in Variant::all() {
            let mut rtl = Rtl::new(v);
            rtl.reset(2);
            let inputs = Inputs {
                ready: true,
                ..Inputs::default()
            };
            for _ in 0..20 {
                let out = rtl.step(&inputs);
                assert!(
                    !out.out_valid && !out.atvalid && !out.trace_lost,
                    "variant {v}: {out:?}"
                );
            }
            assert_eq!(rtl.cycles(), 22);
        }
    }
}
