//! spike's host-target interface (HTIF) as the front end serves it (`docs/spike.md`,
//! "HTIF"): a non-zero value in `tohost` is a request `device << 56 | command << 48 |
//! payload`; device 0 command 0 is the proxy-kernel syscall device (payload bit 0 set:
//! exit with code `payload >> 1`; otherwise `payload` points at `magic_mem`, eight 64-bit
//! words `[syscall number, arg0, arg1, arg2, ...]`, and the reply goes to `magic_mem[0]`
//! with `fromhost = 1`); device 1 command 1 is the "bcd" console: print byte `payload`,
//! reply `fromhost = tohost-header | 0x100 | byte`. The front end clears `tohost` after
//! reading a request.
//!
//! With [`crate::HartConfig::spike_bootrom`] the requests other than the exit are served
//! when spike's host would serve them (`docs/spike.md`, "HTIF"): at the end of spike's
//! current chunk of instructions, which ends after [`HTIF_INTERLEAVE`] instructions, or
//! earlier at a trap or a `wfi`; chunks are counted from the first instruction. The CLINT's
//! `mtime` then ticks as spike's does, by `INTERLEAVE / INSNS_PER_RTC_TICK` at the end of
//! every chunk, and pending interrupts are taken only where spike looks for them: at the
//! start of a chunk and after a serializing instruction (CSR instructions, `mret`, `sret`).

use super::error::HartError;
use super::{Hart, INSNS_PER_RTC_TICK};

/// Proxy-kernel syscall numbers (RISC-V Linux numbering).
const SYS_WRITE: u64 = 64;
const SYS_EXIT: u64 = 93;
const ENOSYS: i64 = 38;
const EBADF: i64 = 9;
const EFAULT: i64 = 14;
/// Largest `write` the model copies to its console.
const MAX_WRITE: u64 = 1 << 24;

/// Instructions in one of spike's chunks, between which its host serves HTIF requests
/// (spike's `INTERLEAVE`, `docs/spike.md` "HTIF").
pub const HTIF_INTERLEAVE: u64 = 5000;

/// Whether `value` written to `tohost` is the exit request (device 0, command 0, payload
/// bit 0 set).
fn is_exit_request(value: u64) -> bool {
    value >> 48 == 0 && value & 1 == 1
}

impl Hart {
    /// Append program output, decoding UTF-8 across writes (invalid bytes become U+FFFD).
    fn push_console(&mut self, bytes: &[u8]) {
        if !self.keep_console {
            return;
        }
        self.console_pending.extend_from_slice(bytes);
        loop {
            match std::str::from_utf8(&self.console_pending) {
                Ok(s) => {
                    self.console.push_str(s);
                    self.console_pending.clear();
                    return;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    let (good, _) = self.console_pending.split_at(valid);
                    self.console
                        .push_str(std::str::from_utf8(good).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => {
                            self.console.push(char::REPLACEMENT_CHARACTER);
                            self.console_pending.drain(..valid + n);
                        }
                        None => {
                            self.console_pending.drain(..valid);
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Under `spike_bootrom`, let a request other than the exit wait for the end of
    /// spike's chunk (`docs/spike.md`, "HTIF"); true when it waits.
    pub(crate) fn defer_htif_request(&mut self, store_pc: u64) -> bool {
        if !self.config.spike_bootrom {
            return false;
        }
        let value = self.mem.load(self.tohost_lo, 8).unwrap_or(0);
        if value == 0 || is_exit_request(value) {
            return false;
        }
        self.htif_waiting = Some(store_pc);
        true
    }

    /// Under `spike_bootrom`, one of spike's chunks ended (its last instruction retired,
    /// or a trap or `wfi` ended it early): the CLINT ticks by the chunk's
    /// `INTERLEAVE / INSNS_PER_RTC_TICK`, the next chunk starts, and a waiting request is
    /// served (an exit through the `exit` syscall ends the run).
    pub(crate) fn end_htif_chunk(&mut self) -> Result<(), HartError> {
        if !self.config.spike_bootrom {
            return Ok(());
        }
        self.chunk_end = self.retired + HTIF_INTERLEAVE;
        self.interrupt_window = self.retired;
        self.mem.clint.mtime = self
            .mem
            .clint
            .mtime
            .wrapping_add(HTIF_INTERLEAVE / INSNS_PER_RTC_TICK);
        self.update_clint_interrupts();
        if let Some(store_pc) = self.htif_waiting.take() {
            if let Some(code) = self.serve_tohost(store_pc)? {
                self.exit = Some((code, store_pc));
            }
        }
        Ok(())
    }

    /// Under `spike_bootrom`, the instruction executing (a CSR instruction or an `xRET`)
    /// serializes spike's hart: pending interrupts are looked at once it has retired.
    pub(crate) fn serialize(&mut self) {
        self.interrupt_window = self.retired + 1;
    }

    /// Whether a pending interrupt may be taken before the next instruction: always, but
    /// under `spike_bootrom` only where spike looks (the start of a chunk, after a
    /// serializing instruction).
    pub(crate) fn interrupt_may_be_taken(&self) -> bool {
        !self.config.spike_bootrom || self.retired == self.interrupt_window
    }

    /// Under `spike_bootrom`, `wfi` with only the machine timer to wait for: spike idles
    /// chunk by chunk, each one ticking the CLINT, until `mtime` reaches `mtimecmp`.
    pub(crate) fn idle_until_timer(&mut self) {
        let step = HTIF_INTERLEAVE / INSNS_PER_RTC_TICK;
        let clint = &mut self.mem.clint;
        let chunks = (clint.mtimecmp - clint.mtime).div_ceil(step);
        clint.mtime = clint.mtime.wrapping_add(chunks * step);
        self.update_clint_interrupts();
    }

    fn write_fromhost(&mut self, value: u64) {
        if let Some(addr) = self.fromhost {
            let _ = self.mem.store(addr, 8, value);
        }
    }

    /// Serve the request in `tohost` (written by the store at `store_pc`); the exit
    /// code when the program asked to exit.
    pub(crate) fn serve_tohost(&mut self, store_pc: u64) -> Result<Option<u64>, HartError> {
        let addr = self.tohost_lo;
        let value = self.mem.load(addr, 8).unwrap_or(0);
        if value == 0 {
            return Ok(None);
        }
        let _ = self.mem.store(addr, 8, 0);
        let bad = |reason: &'static str| HartError::BadHtifRequest {
            value,
            pc: store_pc,
            reason,
        };
        let device = value >> 56;
        let command = (value >> 48) & 0xff;
        let payload = value & 0xffff_ffff_ffff;
        match (device, command) {
            (0, 0) if payload & 1 == 1 => Ok(Some(payload >> 1)),
            (0, 0) => {
                let mut magic = [0u64; 8];
                for (i, m) in magic.iter_mut().enumerate() {
                    *m = self
                        .mem
                        .load(payload + 8 * i as u64, 8)
                        .ok_or_else(|| bad("syscall block (magic_mem) is not in memory"))?;
                }
                let ret: i64 = match magic[0] {
                    SYS_WRITE => {
                        let (fd, buf, len) = (magic[1], magic[2], magic[3]);
                        if fd != 1 && fd != 2 {
                            -EBADF
                        } else {
                            match self.mem.slice(buf, len.min(MAX_WRITE)) {
                                Some(bytes) => {
                                    let bytes = bytes.to_vec();
                                    self.push_console(&bytes);
                                    len as i64
                                }
                                None => -EFAULT,
                            }
                        }
                    }
                    SYS_EXIT => return Ok(Some(magic[1])),
                    _ => -ENOSYS,
                };
                let _ = self.mem.store(payload, 8, ret as u64);
                self.write_fromhost(1);
                Ok(None)
            }
            (1, 1) => {
                let byte = payload as u8;
                self.push_console(&[byte]);
                self.write_fromhost((value >> 48 << 48) | 0x100 | u64::from(byte));
                Ok(None)
            }
            _ => Err(bad("unsupported HTIF device/command")),
        }
    }
}
