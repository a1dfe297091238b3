//! Why decoding a packet failed (`decoder.adoc` "Decoder pseudo code": the places where
//! the pseudo code says `ERROR`, and those of this project's extensions), as values that
//! callers can tell apart; the one-line message of each is its `Display`.

/// A decode error: the packet it happened at, and its cause. The decoder reports it as a
/// [`crate::TraceElement::DecodeError`] and waits for the next format 3 synchronisation
/// packet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("packet {packet_index} at {}: {cause}", byte_offset.map_or("?".to_string(), |o| o.to_string()))]
pub struct DecodeError {
    /// Index (0-based) of the packet being processed.
    pub packet_index: u64,
    /// Byte offset of that packet in the stream (for ATB: the index of its first beat),
    /// when known.
    pub byte_offset: Option<u64>,
    /// What was wrong.
    pub cause: DecodeCause,
}

/// What was wrong with a packet, or with the packet stream against the program image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeCause {
    /// The layers below the decoder (deframing, unpacking) could not read the packet; their
    /// message.
    #[error("{reason}")]
    Unreadable {
        /// The lower layer's message.
        reason: String,
    },
    /// A packet other than format 3 before the first synchronisation (`decoder.adoc`
    /// `process_te_inst`: "expecting trace to start with format 3").
    #[error("expecting trace to start with format 3")]
    NotSynchronised,
    /// Format 0 subformat 1 (`sec:format0`): this decoder has no jump target cache.
    #[error("format 0 subformat 1 (jump target cache) is not supported")]
    JumpTargetCache,
    /// A trap packet without handler address (`sec:implicit-exception`) and no trap
    /// vectors given to the decoder ([`crate::DecoderConfig::trap_vectors`]).
    #[error(
        "trap packet without handler address (implicit exception mode needs the trap \
         vectors, which this decoder is not given)"
    )]
    NoTrapVectors,
    /// A trap packet without handler address into a privilege level that has no trap
    /// vector (only M and S have one).
    #[error("no trap vector for privilege {privilege} (implicit exception)")]
    NoTrapVector {
        /// The `privilege` field of the trap packet.
        privilege: u8,
    },
    /// The trace reaches an address where the program image has no instruction.
    #[error("no instruction in the program image at {address:#x}")]
    NoInstruction {
        /// The address.
        address: u64,
    },
    /// A branch whose outcome no packet reported (`decoder.adoc` `is_taken_branch`: the
    /// branch map, predicted and mispredicted branches are used up).
    #[error("cannot resolve branch at {address:#x}")]
    BranchesExhausted {
        /// The address of the branch.
        address: u64,
    },
    /// An uninferable discontinuity while following a branch map that ends with a branch
    /// (`decoder.adoc` `next_pc`: `stop_at_last_branch`).
    #[error("unexpected uninferable discontinuity")]
    UnexpectedDiscontinuity,
    /// Branches left over at the target of an uninferable jump (`decoder.adoc`
    /// `follow_execution_path`: "unprocessed branches").
    #[error("unprocessed branches at an uninferable jump target")]
    UnprocessedBranches,
    /// The reported address was not reached within the bound of instructions per packet
    /// ([`crate::DecoderConfig::max_steps_per_packet`]) or between two branches
    /// ([`crate::DecoderConfig::max_steps_between_branches`]).
    #[error(
        "address {address:#x} not reached within {within} instructions, or \
         {between_branches} without a branch"
    )]
    NotReached {
        /// The reported address.
        address: u64,
        /// The bound per packet.
        within: u64,
        /// The bound between two branches.
        between_branches: u64,
    },
    /// Following the path to the reported address repeats a state without using a branch
    /// outcome: the path loops and never reaches the address.
    #[error("address {address:#x} never reached: the path loops at {at:#x} without a branch")]
    Loops {
        /// The reported address.
        address: u64,
        /// An address of the loop.
        at: u64,
    },
    /// N-Trace ("I-CNT Details"): the instruction count ends inside an instruction (an odd
    /// count of half-words left at a 32-bit instruction).
    #[error("I-CNT ends inside the instruction at {address:#x}")]
    CountEndsInside {
        /// The instruction's address.
        address: u64,
    },
    /// N-Trace ("Decoding Algorithm Principles"): an uninferable jump or trap return
    /// before the instruction count ends.
    #[error("uninferable instruction at {address:#x} before the end of the instruction count")]
    UninferableInBlock {
        /// The instruction's address.
        address: u64,
    },
    /// N-Trace: history bits left when the instruction count ends.
    #[error("I-CNT ends at {address:#x} with HIST bits left")]
    HistoryLeft {
        /// Address after the last instruction counted.
        address: u64,
    },
    /// N-Trace ("Maximum Field Sizes"): a field above the specification's maximum.
    #[error("{field} = {value:#x} is above its maximum {max:#x}")]
    FieldTooLarge {
        /// The field name.
        field: &'static str,
        /// The value read.
        value: u64,
        /// The maximum.
        max: u64,
    },
    /// N-Trace ("DirectBranch Message", "IndirectBranch Message", "IndirectBranchHist
    /// Message", Explanations and Notes): the block a branch message ends does not end
    /// with the instruction the message reports (a taken conditional branch; an indirect
    /// jump, call or return, or a trap return, for B-TYPE 0; for a trap, not an indirect
    /// jump whose own message is missing).
    #[error("{message} ends its block at {address:#x} with {found}, not with {expected}")]
    WrongBlockEnd {
        /// The message's name.
        message: &'static str,
        /// The block's last instruction (where the block starts, when it is empty).
        address: u64,
        /// What the block ends with.
        found: &'static str,
        /// What the message says it ends with.
        expected: &'static str,
    },
    /// N-Trace ("Synchronizing Messages"): the F-ADDR of a synchronising message that
    /// stands for a taken branch or a block of code is not where the program goes after
    /// the block.
    #[error("{message} gives F-ADDR {address:#x}, but the program goes on at {next:#x}")]
    SyncAddressDisagrees {
        /// The message's name.
        message: &'static str,
        /// The address of its F-ADDR field.
        address: u64,
        /// Where the program goes after the message's block.
        next: u64,
    },
    /// N-Trace: a RepeatBranch message with no branch message before it to repeat.
    #[error("RepeatBranch without a previous branch message")]
    NothingToRepeat,
    /// N-Trace: following the instruction counts of one message (with the ResourceFull
    /// counts and RepeatBranch repeats it completes) takes more instructions than the
    /// decoder's bound: taken for a corrupted stream, as [`DecodeCause::NotReached`] is for
    /// E-Trace.
    #[error("I-CNT not used up at {address:#x} after {within} instructions for one message")]
    CountTooLong {
        /// The address the walk was cut at.
        address: u64,
        /// The bound per message.
        within: u64,
    },
}

impl From<String> for DecodeCause {
    fn from(reason: String) -> DecodeCause {
        DecodeCause::Unreadable { reason }
    }
}
