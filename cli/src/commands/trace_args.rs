//! The inputs of the commands that decode a framed trace against its programs (`decode`,
//! `calltree`): the trace file, the ELF(s), the parameters and the framing, and how they
//! are loaded (`docs/cli.md`, "Shared option groups").

use super::framing_args::FramingArgs;
use super::hart_args::add_bootrom_code;
use super::io::{load_params_for, read_elf, read_pieces};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::stream::{payloads, Framing, PayloadEvent, PayloadStream};
use etrace_decoder::ProgramImage;
use etrace_spec::elf::parse_elf;
use etrace_spec::framing::PositionUnit;
use etrace_spec::params::Params;
use std::path::PathBuf;

use super::element_text::OffsetUnit;

/// A framed trace and the programs it was made from.
#[derive(Args)]
pub struct TraceArgs {
    /// The framed stream (for atb: one beat per line, as `etrace encode` writes it); read
    /// in pieces, of any length; an empty file is an error.
    pub input: PathBuf,
    /// The traced program (statically linked ELF, with its symbols, at most 256 MiB);
    /// repeat for more programs.
    #[arg(long, value_name = "PROG.elf", required = true)]
    pub elf: Vec<PathBuf>,
    /// Encoder parameters (TOML or static config, at most 1 MiB); default: those of the
    /// ELF's XLEN.
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Framing options.
    #[command(flatten)]
    pub framing: FramingArgs,
    /// The trace starts in spike's boot ROM: add its code at 0x1000 to the program image
    /// (with the first ELF's entry point and XLEN).
    #[arg(long)]
    pub spike_bootrom: bool,
}

/// What [`TraceArgs::load`] reads.
pub struct LoadedTrace {
    /// The programs' code.
    pub image: ProgramImage,
    /// The encoder parameters.
    pub params: Params,
    /// The deframed payloads and framing errors, in stream order.
    pub events: Vec<PayloadEvent>,
}

impl TraceArgs {
    /// Loads the programs, the parameters (those of the programs' XLEN by default) and the
    /// trace, deframed with the deframer of `--framing`.
    pub fn load(&self) -> Result<LoadedTrace, CliError> {
        let (image, params) = self.programs()?;
        let (framing, _) = framing_of(&self.framing)?;
        let mut events = Vec::new();
        self.stream(&framing, |piece| {
            events.extend_from_slice(piece);
            Ok(())
        })?;
        Ok(LoadedTrace {
            image,
            params,
            events,
        })
    }

    /// Loads the programs and the parameters (those of the programs' XLEN by default).
    pub fn programs(&self) -> Result<(ProgramImage, Params), CliError> {
        let mut image = load_image(&self.elf)?;
        if let (true, Some(first)) = (self.spike_bootrom, self.elf.first()) {
            let bytes = read_elf(first)?;
            let elf = parse_elf(&bytes).at(first.display())?;
            add_bootrom_code(&mut image, elf.xlen, elf.entry)?;
        }
        let params = load_params_for(self.params.as_deref(), &image)?;
        Ok((image, params))
    }

    /// The framing of `--framing` and the unit of the offsets its events name.
    pub fn framing(&self) -> Result<(Framing, OffsetUnit), CliError> {
        framing_of(&self.framing)
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
fn framing_of(framing: &FramingArgs) -> Result<(Framing, OffsetUnit), CliError> {
    let config = framing.config()?;
    let unit = match config.position_unit() {
        PositionUnit::Byte => OffsetUnit::Byte,
        PositionUnit::Beat => OffsetUnit::Beat,
    };
    Ok((config, unit))
}

/// Deframes a whole stream into te_inst payloads with the deframer of `--framing`; also
/// the unit of the offsets they name.
pub(super) fn payload_events(
    framing: &FramingArgs,
    data: &[u8],
) -> Result<(Vec<PayloadEvent>, OffsetUnit), CliError> {
    let (config, unit) = framing_of(framing)?;
    Ok((payloads(&config, data), unit))
}
