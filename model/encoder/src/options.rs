//! Run-time options of the encoder (`branchTrace.adoc`, "Optional and run-time configurable
//! modes"), with the reference flow's user-config names as in `docs/cli.md`.

/// Run-time configuration of the instruction trace encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncoderOptions {
    /// `sec:full-address`: every address is absolute instead of differential.
    pub full_address: bool,
    /// `sec:implicit-exception`: omit the trap handler address from format 3.1 packets.
    pub implicit_exception: bool,
    /// `sec:si-jump`: treat sequentially inferable jumps as inferable (needs `sijump_p`).
    pub sijump: bool,
    /// `sec:implicit-return`: don't report returns predicted by the call counter / return
    /// stack. Off by default (2.0 errata, see `spec/README.md`).
    pub implicit_return: bool,
    /// `sec:branch-prediction`: report correctly predicted branches as a count (format 0;
    /// needs `bpred_size_p > 0`).
    pub branch_prediction: bool,
    /// `sec:resync`: force a synchronisation after this many te_inst packets; 0 disables it.
    pub resync_max: u32,
}

impl Default for EncoderOptions {
    /// Differential addresses, resync after 256 packets (the reference flow's code 4), no
    /// optional modes.
    fn default() -> Self {
        EncoderOptions {
            full_address: false,
            implicit_exception: false,
            sijump: false,
            implicit_return: false,
            branch_prediction: false,
            resync_max: 256,
        }
    }
}

impl EncoderOptions {
    /// The reference flow's `resync-max = k` code means `2^(k+4)` packets.
    pub fn resync_packets_from_code(code: u32) -> Option<u32> {
        1u32.checked_shl(code.checked_add(4)?)
    }
}
