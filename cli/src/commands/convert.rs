//! `etrace convert`: spike instruction-trace CSV -> encoder-input CSV, deriving `itype`,
//! `iretire` and `ilastsize` as the hart's ingress port does.
//! The output appears only once the whole input is converted (written as `OUT.part`, then
//! renamed).

use super::io::{check_distinct, create_folder_of, load_params, PartFile};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_spec::formats::convert::{ConvertOptions, SpikeToIngress};
use etrace_spec::formats::encoder_input::{EncoderInputOptions, EncoderInputWriter};
use etrace_spec::formats::spike_csv::SpikeReader;
use etrace_spec::isa::Xlen;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

/// Arguments of `etrace convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// Spike instruction trace CSV to read (lines of at most 64 KiB).
    #[arg(long, value_name = "IN")]
    pub spike_csv: PathBuf,
    /// Encoder-input CSV to write.
    #[arg(long, value_name = "OUT")]
    pub encoder_input: PathBuf,
    /// Encoder parameters (TOML or static config, at most 1 MiB): `iaddress_width_p` gives
    /// RV32 / RV64, `itype_width_p` the itype codes (the columns written are always the
    /// same, the optional `context` and `sijump_0` included).
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Decode the instructions as RV32 (overrides the parameters).
    #[arg(long, conflicts_with = "rv64")]
    pub rv32: bool,
    /// Decode the instructions as RV64 (the default without parameters).
    #[arg(long)]
    pub rv64: bool,
}

/// Runs `etrace convert`.
pub fn run(args: ConvertArgs) -> Result<(), CliError> {
    let mut inputs = vec![("--spike-csv", args.spike_csv.as_path())];
    inputs.extend(args.params.as_deref().map(|p| ("--params", p)));
    check_distinct(&[("--encoder-input", &args.encoder_input)], &inputs)?;
    let params = load_params(args.params.as_deref(), 64)?;
    let mut options = ConvertOptions::from_params(&params);
    if args.rv32 {
        options.xlen = Xlen::X32;
    } else if args.rv64 {
        options.xlen = Xlen::X64;
    }
    let input = File::open(&args.spike_csv).at(args.spike_csv.display())?;
    let reader = SpikeReader::new(BufReader::with_capacity(1 << 20, input))
        .with_file_name(args.spike_csv.display().to_string());
    // Written whole or not at all: a failed conversion leaves an existing file as it was.
    create_folder_of(&args.encoder_input)?;
    let out = PartFile::create(&args.encoder_input)?;
    // The reference flow's columns, plus `sijump_0` so that the hart's sequentially
    // inferable jumps survive the file (readers find columns by name).
    let columns = EncoderInputOptions {
        context: true,
        sijump: true,
    };
    let mut writer = EncoderInputWriter::new(out, columns).at(args.encoder_input.display())?;
    let mut count = 0u64;
    for record in SpikeToIngress::new(reader, options) {
        let record = record.map_err(|e| CliError::input(e, args.spike_csv.display()))?;
        writer
            .write_record(&record)
            .at(args.encoder_input.display())?;
        count += 1;
    }
    writer
        .into_inner()
        .at(args.encoder_input.display())?
        .finish()?;
    eprintln!(
        "{} -> {}: {count} records",
        args.spike_csv.display(),
        args.encoder_input.display()
    );
    Ok(())
}
