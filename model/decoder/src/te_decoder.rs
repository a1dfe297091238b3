//! The instruction trace decoder of `decoder.adoc` ("Decoder pseudo code"): te_inst packets
//! and the program image in, trace elements out.
//!
//! It follows the spec's algorithm (`process_te_inst`, `follow_execution_path`, `next_pc`,
//! `process_support`, `exception_address`), extended with what this project's encoder
//! sends beyond the pseudo code's assumptions:
//! * branch prediction (`sec:branch-prediction`, format 0 branch counts): branch outcomes
//!   come from the branch map first, then from the predictor for the counted correctly
//!   predicted branches, then (for `branch_fmt` `no-addr` / `addr-fail`) one mispredicted
//!   branch; the predictor is updated with every branch and reset by every sync packet;
//! * implicit return (`sec:implicit-return`, 2.0 `irreport` / `irdepth`): calls of the
//!   jump class "call" (`ingressPort.adoc` `JumpClasses`, as the encoder counts them)
//!   push, returns pop; a full stack drops its oldest entry;
//! * sequentially inferable jumps exclude returns (see `isa::Decoded::is_sequential_jump`).
//!
//! Where the pseudo code says `ERROR`, or the program image has no instruction at an
//! address the trace reaches, or an address is not reached within a bound, the decoder
//! emits a [`TraceElement::DecodeError`] (its [`DecodeCause`]) and waits for the next
//! format 3 synchronisation packet.
//!
//! The parts: `packets` (`process_te_inst`), `follow` (`follow_execution_path`),
//! `next_pc` (`next_pc` and `report_pc`, the one source of those rules), `cursor` (`pc`,
//! `last_pc` and the open instruction range), `return_stack` (implicit return), `resume` (joining pieces decoded apart), `lookup`
//! (the program image), `walk_bound` (where a walk that cannot reach its address ends),
//! `long_walk` (walks longer than a buffer: verified first, then handed out in pieces),
//! `config`.

mod config;
mod cursor;
mod follow;
mod long_walk;
mod lookup;
mod next_pc;
mod packets;
mod resume;
mod return_stack;
mod walk_bound;

pub use config::{DecoderConfig, TrapVectors};

use crate::branches::BranchQueue;
use crate::element::TraceElement;
use crate::error::{DecodeCause, DecodeError};
use crate::image::ProgramImage;
use cursor::Cursor;
use etrace_spec::bitfield::mask;
use etrace_spec::ingress::Privilege;
use etrace_spec::isa::Xlen;
use etrace_spec::packet::{IOptions, TeInst};
use etrace_spec::params::Params;
use etrace_spec::predictor::BranchPredictor;
use long_walk::{CycleFinder, Paused};
use lookup::Lookup;
use return_stack::ReturnStack;

/// Why decoding of a packet failed (boxed: one pointer, so that the decoder's results
/// fit in registers).
#[derive(Debug)]
struct Fail(Box<DecodeCause>);

impl From<DecodeCause> for Fail {
    #[cold]
    fn from(cause: DecodeCause) -> Fail {
        Fail(Box::new(cause))
    }
}

/// Where the current packet came from (for error elements).
#[derive(Debug, Clone, Copy, Default)]
struct PacketPlace {
    index: u64,
    offset: Option<u64>,
}

/// The `decoder.adoc` decoder state, with element output.
#[derive(Clone)]
pub struct TeDecoder<'a> {
    lookup: Lookup<'a>,
    config: DecoderConfig,
    lsb: u32,
    addr_mask: u64,
    xlen: Xlen,
    /// The encoder keeps a return address stack (else a call counter).
    compare_return_addresses: bool,
    /// After a decode error: packets other than syncs are skipped silently.
    resyncing: bool,
    // decoder.adoc globals
    /// `pc`, `last_pc` and the open range (moved by the walks, see [`Cursor`]).
    cursor: Cursor,
    /// Branch outcomes reported and not yet used (`branches`, `branch_map`).
    outcomes: BranchQueue,
    stop_at_last_branch: bool,
    inferred_address: bool,
    start_of_trace: bool,
    address: u64,
    privilege: u8,
    context: u64,
    options: IOptions,
    return_stack: ReturnStack,
    predictor: BranchPredictor,
    // element output
    place: PacketPlace,
    elements: Vec<TraceElement>,
    // long walks (see `long_walk`)
    /// `elements.len()` at which the current walk's buffer is full.
    buffer_end: usize,
    /// The current walk was found to reach its address.
    walk_verified: bool,
    /// A walk paused with its buffer full.
    paused: Option<Box<Paused>>,
    /// Set in a probe: a copy that follows a walk to its end keeping no elements.
    probe: Option<Box<CycleFinder>>,
}

impl<'a> TeDecoder<'a> {
    /// A decoder for packets of an encoder with `params`, over `image`.
    pub fn new(image: &'a ProgramImage, params: &Params, config: DecoderConfig) -> Self {
        let xlen = image.xlen().unwrap_or(if params.iaddress_width_p > 32 {
            Xlen::X64
        } else {
            Xlen::X32
        });
        let stack_size = if params.return_stack_size_p > 0 {
            params.return_stack_size_p
        } else {
            params.call_counter_size_p
        };
        TeDecoder {
            lookup: Lookup::new(image),
            config,
            lsb: params.iaddress_lsb_p as u32,
            addr_mask: mask(params.iaddress_width_p.min(64) as u32),
            xlen,
            compare_return_addresses: params.return_stack_size_p > 0,
            resyncing: false,
            cursor: Cursor::default(),
            outcomes: BranchQueue::default(),
            stop_at_last_branch: false,
            inferred_address: false,
            start_of_trace: true,
            address: 0,
            privilege: Privilege::Machine.code(),
            context: 0,
            options: IOptions::default(),
            return_stack: ReturnStack::new(1usize << stack_size.min(16)),
            predictor: BranchPredictor::new(params.bpred_size_p.max(1), params.iaddress_lsb_p),
            place: PacketPlace::default(),
            elements: Vec::new(),
            buffer_end: usize::MAX,
            walk_verified: false,
            paused: None,
            probe: None,
        }
    }

    /// The program image decoded against.
    pub fn image(&self) -> &'a ProgramImage {
        self.lookup.image()
    }

    /// The decoder configuration.
    pub fn config(&self) -> DecoderConfig {
        self.config
    }

    /// The options of the most recent support packet (needed to unpack the next packets).
    pub fn options(&self) -> IOptions {
        self.options
    }

    /// Instructions reconstructed so far.
    pub fn instructions(&self) -> u64 {
        self.cursor.instructions
    }

    /// Takes the elements produced so far. The open instruction range stays open (it may
    /// grow with the next packet) unless `flush` is set.
    pub fn take_elements(&mut self, flush: bool) -> Vec<TraceElement> {
        if flush {
            self.close_range();
        }
        std::mem::take(&mut self.elements)
    }

    /// Makes `buffer` (emptied first) the one the next elements are written to, with the
    /// elements produced so far: a caller that decodes many pieces reuses the buffers it
    /// was given back by [`Self::take_elements`] instead of growing fresh ones (parallel
    /// decoding, issue 27).
    pub fn reuse_element_buffer(&mut self, mut buffer: Vec<TraceElement>) {
        buffer.clear();
        buffer.append(&mut self.elements);
        self.elements = buffer;
    }

    /// Records that packets were lost or could not be read before the next one: the trace
    /// has a gap; decoding resumes at the next synchronisation packet.
    pub fn lost(&mut self) {
        self.close_range();
        if !self.start_of_trace {
            self.elements.push(TraceElement::TraceLost);
        }
        self.restart();
    }

    /// Processes one te_inst packet (`process_te_inst`); `index` and `offset` say where it
    /// came from, for error elements. All its elements are kept until they are taken
    /// ([`Self::take_elements`]), however long its walk: see [`Self::process_with`] for a
    /// decoding in bounded memory.
    pub fn process(&mut self, packet: &TeInst, index: u64, offset: Option<u64>) {
        self.begin(packet, index, offset);
        while let Some(paused) = self.paused.take() {
            self.go_on(*paused);
        }
    }

    /// [`Self::process`], with the elements of a long walk handed to `out` as they are
    /// produced: each time the walk has added [`DecoderConfig::walk_buffer`] elements,
    /// once it is known to reach its address, `out` is given the elements produced so far
    /// (those of earlier packets not yet taken too), to take (drain) or leave. A packet
    /// whose walk does not reach its address gives at most that many elements before its
    /// error. The first error of `out` ends the packet's walk where it is.
    pub fn process_with<E>(
        &mut self,
        packet: &TeInst,
        index: u64,
        offset: Option<u64>,
        mut out: impl FnMut(&mut Vec<TraceElement>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.begin(packet, index, offset);
        while let Some(paused) = self.paused.take() {
            out(&mut self.elements)?;
            self.go_on(*paused);
        }
        Ok(())
    }

    /// The start of [`Self::process`]: up to the end of the packet or the first pause of
    /// its walk.
    fn begin(&mut self, packet: &TeInst, index: u64, offset: Option<u64>) {
        self.place = PacketPlace { index, offset };
        if self.resyncing && !matches!(packet, TeInst::Start(_) | TeInst::Trap(_)) {
            // Already reported: packets are skipped until the next synchronisation.
            if let TeInst::Support(s) = packet {
                self.options = s.ioptions;
            }
            return;
        }
        if let Err(fail) = self.process_te_inst(packet) {
            self.fail(index, offset, *fail.0);
        }
    }

    /// Goes on with a paused walk, to the end of its packet or its next pause.
    fn go_on(&mut self, paused: Paused) {
        if let Err(fail) = self.resume_walk(paused) {
            let PacketPlace { index, offset } = self.place;
            self.fail(index, offset, *fail.0);
        }
    }

    /// Reports a packet that could not be read or decoded (`cause`: a [`DecodeCause`], or
    /// the message of the layer that could not read it): a decode-error element, then
    /// nothing until the next format 3 synchronisation packet.
    pub fn fail(&mut self, index: u64, offset: Option<u64>, cause: impl Into<DecodeCause>) {
        self.place = PacketPlace { index, offset };
        self.resyncing = true;
        self.push_error(cause.into());
        self.restart();
    }

    /// Closes the open range and reports `cause` at the current packet.
    fn push_error(&mut self, cause: DecodeCause) {
        self.close_range();
        self.elements
            .push(TraceElement::DecodeError(Box::new(DecodeError {
                packet_index: self.place.index,
                byte_offset: self.place.offset,
                cause,
            })));
    }

    /// Forgets the path: decoding resumes at the next synchronisation packet.
    fn restart(&mut self) {
        self.start_of_trace = true;
        self.inferred_address = false;
        self.stop_at_last_branch = false;
        self.outcomes.clear();
        self.return_stack.clear();
    }

    /// Closes the open range into an element.
    fn close_range(&mut self) {
        if let Some(e) = self.cursor.close() {
            self.elements.push(e);
        }
    }
}
