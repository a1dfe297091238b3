//! What the decoder is told besides the packets: its limits (see `walk_bound`), and the trap vectors of the
//! traced program for implicit exception mode (`sec:implicit-exception`).

/// Decoder limits and knowledge of the target.
#[derive(Debug, Clone, Copy)]
pub struct DecoderConfig {
    /// Most instructions followed for one packet before the address counts as never
    /// reached.
    pub max_steps_per_packet: u64,
    /// Most instructions followed without using a branch outcome before the address
    /// counts as never reached: the trace describes a path through its branch outcomes
    /// (branch maps, branch counts), so a longer branch-free stretch is taken for a
    /// corrupted packet.
    pub max_steps_between_branches: u64,
    /// Most trace elements a walk keeps while it is not known to reach its address: a walk
    /// that outgrows them is first followed to its end without keeping what it finds (see
    /// `walk_bound`), so that a corrupted packet (a format 0 branch count of billions)
    /// yields at most these elements before its error; a walk that reaches its address is
    /// then handed out in pieces of this size ([`crate::TeDecoder::process_with`]).
    pub walk_buffer: usize,
    /// The trap vectors, for implicit exception mode (`sec:implicit-exception`: "the
    /// decoder can infer the address of the trap handler from just the exception cause").
    pub trap_vectors: Option<TrapVectors>,
}

impl Default for DecoderConfig {
    fn default() -> Self {
        DecoderConfig {
            max_steps_per_packet: 1 << 26,
            max_steps_between_branches: 1 << 16,
            walk_buffer: 1 << 12,
            trap_vectors: None,
        }
    }
}

/// The `mtvec` / `stvec` values of the traced program (privileged ISA: BASE in bits
/// XLEN-1:2, MODE in bits 1:0; MODE 1 = vectored, interrupts at BASE + 4 x cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrapVectors {
    /// `mtvec`: handler of traps taken into M-mode.
    pub mtvec: u64,
    /// `stvec`: handler of traps taken into S-mode.
    pub stvec: u64,
}

impl TrapVectors {
    /// The first handler instruction of a trap taken into `privilege` (the privilege field
    /// of the trap packet).
    pub fn handler(&self, privilege: u8, ecause: u64, interrupt: bool) -> Option<u64> {
        let tvec = match privilege {
            3 => self.mtvec,
            1 => self.stvec,
            _ => return None,
        };
        let base = tvec & !3;
        Some(if tvec & 3 == 1 && interrupt {
            base.wrapping_add(4 * ecause)
        } else {
            base
        })
    }
}
