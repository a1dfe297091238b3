//! The inputs of the commands that decode a trace against its programs (`decode`,
//! `calltree`): the trace file, the ELF(s), the parameters, the protocol and the framing,
//! and how they are loaded and decoded (`docs/cli.md`, "Shared option groups").

use super::framing_args::FramingArgs;
use super::hart_args::add_bootrom_code;
use super::io::{read_elf, read_pieces};
use super::protocol_args::ETRACE_ONLY;
use super::protocol_decoder::ProtocolDecoder;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::parallel::{decode_parallel, ParallelConfig, Setup};
use etrace_decoder::stream::{Framing, PayloadEvent, PayloadStream};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_ntrace::decoder::MessageStream;
use etrace_ntrace::{NtraceDecoder, NtraceDecoderConfig};
use etrace_spec::elf::parse_elf;
use etrace_spec::framing::PositionUnit;
use etrace_spec::params::Params;
use std::path::PathBuf;

use super::element_text::OffsetUnit;

/// Most decoding threads (`--jobs`): far more than there are cores on any machine the
/// decoder runs on, and few enough that the system can start them (each thread reserves
/// its stack).
pub const MAX_JOBS: usize = 256;

/// A trace and the programs it was made from.
#[derive(Args)]
pub struct TraceArgs {
    /// The framed stream (for atb: one beat per line, as `etrace encode` writes it; for
    /// `--protocol ntrace` MSEO bytes); read in pieces, of any length; an empty file is an
    /// error.
    pub input: PathBuf,
    /// The traced program (statically linked ELF, with its symbols, at most 256 MiB);
    /// repeat for more programs.
    #[arg(long, value_name = "PROG.elf", required = true)]
    pub elf: Vec<PathBuf>,
    /// Encoder parameters (TOML or static config, at most 1 MiB); default: those of the
    /// ELF's XLEN, with return_stack_size_p 3 and bpred_size_p 6 as `encode` uses them.
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Protocol and framing options.
    #[command(flatten)]
    pub framing: FramingArgs,
    /// Decoding threads (E-Trace, 1 to 256): the trace is cut at its synchronisation
    /// packets and the pieces are decoded at once, with the sequential decoder's output;
    /// no more threads are started than there are pieces, and fewer if the system will
    /// not start more; 1: the sequential decoder. Default: the number of available cores
    /// (at most 256).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS as i64))]
    pub jobs: Option<u16>,
    /// The trace starts in spike's boot ROM: add its code at 0x1000 to the program image
    /// (with the first ELF's entry point and XLEN).
    #[arg(long)]
    pub spike_bootrom: bool,
    /// Most instructions the decoder follows for one packet before it takes the packet
    /// for a corrupted one (E-Trace; default 67108864 = 2^26). Raise it for a trace of a
    /// loop that runs longer with every branch predicted: one format 0 packet.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_walk: Option<u64>,
}

impl TraceArgs {
    /// Loads the programs and the parameters (those of the programs' XLEN by default), after
    /// checking the options against the protocol (`--framing` and the E-Trace framings'
    /// options refused on an N-Trace stream, its SRC field checked).
    pub fn programs(&self) -> Result<(ProgramImage, Params), CliError> {
        self.framing.check_protocol()?;
        if self.framing.ntrace() {
            CliError::refuse_given(&[(self.max_walk.is_some(), "--max-walk")], ETRACE_ONLY)?;
        }
        let mut image = load_image(&self.elf)?;
        if let (true, Some(first)) = (self.spike_bootrom, self.elf.first()) {
            let bytes = read_elf(first)?;
            let elf = parse_elf(&bytes).at(first.display())?;
            add_bootrom_code(&mut image, elf.xlen, elf.entry)?;
        }
        let params = super::io::decoder_params_for(self.params.as_deref(), &image)?;
        Ok((image, params))
    }

    /// The unit of the offsets that decode errors name.
    pub fn unit(&self) -> Result<OffsetUnit, CliError> {
        if self.framing.ntrace() {
            return Ok(OffsetUnit::Byte);
        }
        Ok(framing_of(&self.framing)?.1)
    }

    /// The decoder of `--protocol` for `image`: E-Trace with `params` and `config` (its walk
    /// bound that of `--max-walk` when given); N-Trace following the SRC of `--src-id`
    /// (sequentially inferable jumps may be unreported).
    pub fn decoder<'a>(
        &self,
        image: &'a ProgramImage,
        params: &Params,
        config: DecoderConfig,
    ) -> ProtocolDecoder<'a> {
        if self.framing.ntrace() {
            ProtocolDecoder::ntrace(ntrace_decoder(image, &self.framing, true))
        } else {
            let config = DecoderConfig {
                max_steps_per_packet: self.max_walk.unwrap_or(config.max_steps_per_packet),
                ..config
            };
            ProtocolDecoder::etrace(TeDecoder::new(image, params, config), params)
        }
    }

    /// Reads the trace in pieces into `decoder` (deframed with `--framing`, or split into
    /// N-Trace messages) and hands the elements of each piece to `elements` as they come,
    /// the last time with `true`: memory stays bounded however long the trace. With more
    /// than one `--jobs`, an E-Trace stream is decoded by the parallel decoder (the same
    /// elements; `decoder` then only counts the packets).
    pub fn decode(
        &self,
        decoder: &mut ProtocolDecoder,
        mut elements: impl FnMut(&[TraceElement], bool) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        if self.framing.ntrace() {
            let mut stream = MessageStream::new(self.framing.ntrace_fields(), true);
            read_pieces(&self.input, |piece| {
                decoder.messages_each(stream.push(piece), |e| elements(e, false))
            })?;
            decoder.messages_each(stream.finish(), |e| elements(e, false))?;
        } else {
            let (framing, _) = framing_of(&self.framing)?;
            if let (true, Some((image, params, config))) = (self.jobs() > 1, decoder.etrace_setup())
            {
                let setup = Setup {
                    image,
                    params: &params,
                    config,
                    framing: &framing,
                };
                let parallel = ParallelConfig::new(self.jobs());
                let read = |push: &mut dyn FnMut(&[u8]) -> Result<(), CliError>| {
                    read_pieces(&self.input, push).map(|_| ())
                };
                decoder.packets = decode_parallel(setup, parallel, read, elements)?.packets;
                return Ok(());
            }
            self.stream(&framing, |events| {
                decoder.payloads_each(events, |e| elements(e, false))?;
                elements(&decoder.take_elements(false), false)
            })?;
        }
        elements(&decoder.take_elements(true), true)
    }

    /// The decoding threads of `--jobs` (default: the available cores, at most
    /// [`MAX_JOBS`]).
    pub fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| usize::from(n).min(MAX_JOBS)),
            usize::from,
        )
    }

    /// Reads the trace in pieces, deframed with `framing`, handing the payload events of
    /// each piece to `events` as they come (memory stays bounded however long the trace).
    pub fn stream(
        &self,
        framing: &Framing,
        mut events: impl FnMut(&[PayloadEvent]) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let mut stream = PayloadStream::new(framing, true);
        read_pieces(&self.input, |piece| events(&stream.push(piece)))?;
        events(&stream.finish())
    }

    /// The input files with their options (for [`super::io::check_distinct`]).
    pub fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        let mut inputs = vec![("the trace", self.input.as_path())];
        inputs.extend(self.elf.iter().map(|e| ("--elf", e.as_path())));
        inputs.extend(self.params.iter().map(|p| ("--params", p.as_path())));
        inputs
    }

    /// The trace file's name, for error places.
    pub fn place(&self) -> String {
        self.input.display().to_string()
    }
}

/// The code of the ELF files `elfs`, in one image.
pub(super) fn load_image(elfs: &[PathBuf]) -> Result<ProgramImage, CliError> {
    let mut image = ProgramImage::new();
    for elf in elfs {
        let bytes = read_elf(elf)?;
        image.add_elf(&bytes).at(elf.display())?;
    }
    Ok(image)
}

/// The framing of `framing`'s options, and the unit of the offsets its events name.
pub(super) fn framing_of(framing: &FramingArgs) -> Result<(Framing, OffsetUnit), CliError> {
    let config = framing.config()?;
    let unit = match config.position_unit() {
        PositionUnit::Byte => OffsetUnit::Byte,
        PositionUnit::Beat => OffsetUnit::Beat,
    };
    Ok((config, unit))
}

/// The N-Trace decoder for `image`, following the SRC of `--src-id` when `--src-bits`
/// gives a SRC field; `sijump`: the encoder may have left sequentially inferable jumps
/// unreported.
pub(super) fn ntrace_decoder<'a>(
    image: &'a ProgramImage,
    framing: &FramingArgs,
    sijump: bool,
) -> NtraceDecoder<'a> {
    let fields = framing.ntrace_fields();
    NtraceDecoder::new(
        image,
        NtraceDecoderConfig {
            fields,
            src: (fields.src_bits > 0).then(|| framing.src_id.unwrap_or(0)),
            sijump,
        },
    )
}
