//! The inputs of the commands that decode a framed trace against its programs (`decode`,
//! `calltree`): the trace file, the ELF(s), the parameters and the framing, and how they
//! are loaded (`docs/cli.md`, "Shared option groups").

use super::framing_args::FramingArgs;
use super::io::load_params_for;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::stream::{decode_payloads, payloads, PayloadEvent};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_ntrace::decoder::decode_bytes;
use etrace_ntrace::{NtraceDecoder, NtraceDecoderConfig};
use etrace_spec::framing::PositionUnit;
use etrace_spec::params::Params;
use std::path::PathBuf;

use super::element_text::OffsetUnit;

/// A framed trace and the programs it was made from.
#[derive(Args)]
pub struct TraceArgs {
    /// The framed stream (for atb: one beat per line, as `etrace encode` writes it).
    pub input: PathBuf,
    /// The traced program (statically linked ELF, with its symbols); repeat for more
    /// programs.
    #[arg(long, value_name = "PROG.elf", required = true)]
    pub elf: Vec<PathBuf>,
    /// Encoder parameters (TOML or static config); default: those of the ELF's XLEN.
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Framing options.
    #[command(flatten)]
    pub framing: FramingArgs,
}

/// What [`TraceArgs::load`] reads.
pub struct LoadedTrace {
    /// The programs' code.
    pub image: ProgramImage,
    /// The encoder parameters.
    pub params: Params,
    /// The deframed payloads and framing errors, in stream order.
    pub events: Vec<PayloadEvent>,
    /// The unit of the offsets the events name.
    pub unit: OffsetUnit,
}

impl TraceArgs {
    /// Loads the programs, the parameters (those of the programs' XLEN by default) and the
    /// trace, deframed with the deframer of `--framing`.
    pub fn load(&self) -> Result<LoadedTrace, CliError> {
        let image = load_image(&self.elf)?;
        let params = load_params_for(self.params.as_deref(), &image)?;
        let data = std::fs::read(&self.input).at(self.input.display())?;
        let (events, unit) = payload_events(&self.framing, &data)?;
        Ok(LoadedTrace {
            image,
            params,
            events,
            unit,
        })
    }

    /// Loads the programs and the trace and decodes it: E-Trace with the decoder of
    /// `decoder.adoc` (`config`), N-Trace (`--protocol ntrace`) with the decoder of the
    /// N-Trace decoding guidelines; the programs, the elements and the unit of their
    /// offsets.
    pub fn decode(
        &self,
        config: DecoderConfig,
    ) -> Result<(ProgramImage, Vec<TraceElement>, OffsetUnit), CliError> {
        if !self.framing.ntrace() {
            let loaded = self.load()?;
            let mut decoder = TeDecoder::new(&loaded.image, &loaded.params, config);
            let elements = decode_payloads(&mut decoder, &loaded.params, &loaded.events);
            return Ok((loaded.image, elements, loaded.unit));
        }
        let image = load_image(&self.elf)?;
        let data = std::fs::read(&self.input).at(self.input.display())?;
        let elements = decode_ntrace(&image, &self.framing, true, &data);
        Ok((image, elements, OffsetUnit::Byte))
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
        let bytes = std::fs::read(elf).at(elf.display())?;
        image.add_elf(&bytes).at(elf.display())?;
    }
    Ok(image)
}

/// Deframes a whole stream into te_inst payloads with the deframer of `--framing`; also
/// the unit of the offsets they name.
pub(super) fn payload_events(
    framing: &FramingArgs,
    data: &[u8],
) -> Result<(Vec<PayloadEvent>, OffsetUnit), CliError> {
    let config = framing.config()?;
    let unit = match config.position_unit() {
        PositionUnit::Byte => OffsetUnit::Byte,
        PositionUnit::Beat => OffsetUnit::Beat,
    };
    Ok((payloads(&config, data), unit))
}

/// Decodes an N-Trace MSEO stream against `image`, following the SRC of `--src-id` when
/// `--src-bits` gives a SRC field; `sijump`: the encoder may have left sequentially
/// inferable jumps unreported.
pub(super) fn decode_ntrace(
    image: &ProgramImage,
    framing: &FramingArgs,
    sijump: bool,
    data: &[u8],
) -> Vec<TraceElement> {
    let fields = framing.ntrace_fields();
    let config = NtraceDecoderConfig {
        fields,
        src: (fields.src_bits > 0).then(|| framing.src_id.unwrap_or(0)),
        sijump,
    };
    let mut decoder = NtraceDecoder::new(image, config);
    decode_bytes(&mut decoder, fields, data)
}
