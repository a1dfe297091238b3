//! `etrace encode`: ingress (ELF run on the hart model, spike CSV or encoder-input CSV) ->
//! te_inst packets of the golden encoder (`exampleAlgorithm.adoc`, `payload.adoc`) ->
//! a framed stream (`--framing encap|smi|atb`); with `--protocol ntrace`, N-Trace messages
//! of the N-Trace encoder (`RISC-V-N-Trace.adoc`) as MSEO bytes. The output is written as
//! the encoder produces it (every few thousand records), never held whole, into
//! `OUT.part`, renamed to `OUT` when the encode succeeded: a failed encode leaves no
//! partial output and an existing `OUT` as it was.

use super::encoder_args::PipelineArgs;
use super::fit_check::FitCheck;
use super::io::{check_distinct, create_folder_of, load_params, outln, read_elf, PartFile};
use super::packet_framer::PacketFramer;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_encoder::Encoder;
use etrace_hart::Hart;
use etrace_ntrace::NtraceEncoder;
use etrace_spec::elf::{parse_elf, ElfImage};
use etrace_spec::formats::convert::{ConvertOptions, SpikeToIngress};
use etrace_spec::formats::encoder_input::EncoderInputReader;
use etrace_spec::formats::spike_csv::SpikeReader;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

/// Arguments of `etrace encode`.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["elf", "spike_csv", "encoder_input"])))]
pub struct EncodeArgs {
    /// Statically linked RISC-V ELF program, run on the hart model.
    #[arg(long, value_name = "PROG.elf")]
    pub elf: Option<PathBuf>,
    /// Spike instruction trace CSV.
    #[arg(long, value_name = "IN")]
    pub spike_csv: Option<PathBuf>,
    /// Encoder-input CSV.
    #[arg(long, value_name = "IN")]
    pub encoder_input: Option<PathBuf>,
    /// Parameters, hart, encoder and framing options.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Output: the framed byte stream (encap, smi) or one ATB beat per line (atb).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Print statistics: instructions, packets by kind, bytes, bits per instruction.
    #[arg(long)]
    pub stats: bool,
}

/// Runs `etrace encode`.
pub fn run(args: EncodeArgs) -> Result<(), CliError> {
    let mut inputs = Vec::new();
    inputs.extend(args.elf.as_deref().map(|p| ("--elf", p)));
    inputs.extend(args.spike_csv.as_deref().map(|p| ("--spike-csv", p)));
    inputs.extend(
        args.encoder_input
            .as_deref()
            .map(|p| ("--encoder-input", p)),
    );
    inputs.extend(args.pipeline.params.as_deref().map(|p| ("--params", p)));
    check_distinct(&[("--output", &args.output)], &inputs)?;
    // Options of the other protocol and framing problems are reported before the program
    // runs.
    args.pipeline.check_protocol()?;
    let input = load_input(&args)?;
    // The output appears only once the encode succeeded: a failed one leaves an existing
    // file as it was.
    let encoded = if args.pipeline.framing.ntrace() {
        encode_ntrace(&args, &input)?
    } else {
        encode_etrace(&args, &input)?
    };
    if args.stats {
        for line in &encoded.stats {
            outln!("{line}")?;
        }
    }
    if let Some((code, elf)) = encoded.exit {
        return Err(CliError::check(
            format!("the program exited with code {code}"),
            elf.display(),
        ));
    }
    Ok(())
}

/// Ingress records between two writes of the encoder's output.
const RECORDS_PER_PIECE: u64 = 4096;

/// What an encode that succeeded leaves to print.
struct Encoded {
    /// The exit of an ELF program that exited non-zero.
    exit: Exit,
    /// The statistics lines of `--stats`.
    stats: Vec<String>,
}

/// The golden encoder over the input: packets packed, framed and written to `-o` as they
/// are produced. The encoder and the framing are set up (and refused) before the output
/// is created.
fn encode_etrace(args: &EncodeArgs, input: &Input) -> Result<Encoded, CliError> {
    let options = args.pipeline.encoder.options()?;
    let mut enc = Encoder::new(&input.params, options).at("encoder options")?;
    let mut framer = PacketFramer::new(&args.pipeline.framing, &input.params)?;
    let mut fit = FitCheck::new(&input.params);
    create_folder_of(&args.output)?;
    let mut out = PartFile::create(&args.output)?;
    let mut by_kind: BTreeMap<&str, u64> = BTreeMap::new();
    let mut bytes = Vec::new();
    let mut failed = None;
    let mut write = |enc: &mut Encoder, bytes: &mut Vec<u8>| -> Result<(), CliError> {
        let packets = enc.take_packets();
        for p in &packets {
            *by_kind.entry(p.packet.kind_name()).or_default() += 1;
        }
        framer.write(&packets, bytes)?;
        out.write_all(bytes).at(args.output.display())?;
        bytes.clear();
        Ok(())
    };
    let mut records = 0u64;
    let (retired, exit) = feed(args, input, &mut |rec, line| {
        fit.record(rec, line);
        enc.push(rec);
        records += 1;
        if records % RECORDS_PER_PIECE == 0 && failed.is_none() {
            failed = write(&mut enc, &mut bytes).err();
        }
    })?;
    fit.result(&input.place)?;
    if let Some(e) = failed {
        return Err(e);
    }
    enc.finish();
    write(&mut enc, &mut bytes)?;
    out.finish()?;
    let mut stats = vec![
        format!("instructions: {retired}"),
        format!("packets: {}", framer.packets),
    ];
    stats.extend(by_kind.iter().map(|(kind, n)| format!("  {kind}: {n}")));
    stats.extend(framer.size_lines(retired));
    Ok(Encoded { exit, stats })
}

/// The N-Trace encoder over the input (`--protocol ntrace`): MSEO bytes written to `-o`
/// as they are produced. The encoder is set up (and its options refused) before the
/// output is created.
fn encode_ntrace(args: &EncodeArgs, input: &Input) -> Result<Encoded, CliError> {
    let p = &args.pipeline;
    let options = p
        .ntrace
        .options(&p.encoder, &p.framing, input.params.itype_width())?;
    let mut enc = NtraceEncoder::new(options).map_err(|e| CliError::input(e.reason, e.option))?;
    let mut fit = FitCheck::ntrace();
    create_folder_of(&args.output)?;
    let mut out = PartFile::create(&args.output)?;
    let mut bytes = 0u64;
    let mut write = |enc: &mut NtraceEncoder| -> Result<(), CliError> {
        let piece = enc.take_bytes();
        bytes += piece.len() as u64;
        out.write_all(&piece).at(args.output.display())
    };
    let mut records = 0u64;
    let mut failed = None;
    let (retired, exit) = feed(args, input, &mut |rec, line| {
        fit.record(rec, line);
        enc.push(rec);
        records += 1;
        if records % RECORDS_PER_PIECE == 0 && failed.is_none() {
            failed = write(&mut enc).err();
        }
    })?;
    fit.result(&input.place)?;
    if let Some(e) = failed {
        return Err(e);
    }
    enc.finish();
    write(&mut enc)?;
    out.finish()?;
    let stats = vec![
        format!("instructions: {retired}"),
        format!("messages: {}", enc.messages()),
        format!("bytes: {bytes}"),
        format!(
            "bits per instruction: {:.4}",
            8.0 * bytes as f64 / retired.max(1) as f64
        ),
    ];
    Ok(Encoded { exit, stats })
}

/// The exit code of an ELF program that exited non-zero, with the ELF.
type Exit = Option<(u64, PathBuf)>;

/// The input of `encode` before it runs: the parameters and, for `--elf`, the program.
struct Input {
    params: Params,
    /// The input's name, for error places.
    place: String,
    elf: Option<(PathBuf, ElfImage)>,
}

fn load_input(args: &EncodeArgs) -> Result<Input, CliError> {
    if let Some(elf) = &args.elf {
        let bytes = read_elf(elf)?;
        let image = parse_elf(&bytes).at(elf.display())?;
        let params = args.pipeline.with_default_sizes(load_params(
            args.pipeline.params.as_deref(),
            image.xlen.bits(),
        )?);
        return Ok(Input {
            params,
            place: elf.display().to_string(),
            elf: Some((elf.clone(), image)),
        });
    }
    let csv = args.spike_csv.as_ref().or(args.encoder_input.as_ref());
    Ok(Input {
        params: args
            .pipeline
            .with_default_sizes(load_params(args.pipeline.params.as_deref(), 64)?),
        place: csv.map_or_else(String::new, |p| p.display().to_string()),
        elf: None,
    })
}

/// Hands every ingress record of the input (the hart model's run of the ELF, or a CSV) to
/// `sink`, with the line of the CSV row it came from; returns the retired instructions
/// and the exit of an ELF that exited non-zero.
fn feed(
    args: &EncodeArgs,
    input: &Input,
    sink: &mut dyn FnMut(&IngressRecord, Option<u64>),
) -> Result<(u64, Exit), CliError> {
    let mut retired = 0u64;
    let mut push = |rec: &IngressRecord, line: Option<u64>| {
        retired += u64::from(rec.iretire != 0);
        sink(rec, line);
    };
    if let Some((elf, image)) = &input.elf {
        let config = args.pipeline.hart.config(input.params.itype_width())?;
        let mut hart = Hart::from_image(image, config).at(elf.display())?;
        let mut hart_sink = |rec: &IngressRecord, _insn: u32| push(rec, None);
        let outcome = hart.run(&mut hart_sink).at(elf.display())?;
        let exit = (outcome.exit_code != 0).then(|| (outcome.exit_code, elf.clone()));
        return Ok((retired, exit));
    }
    if let Some(path) = &args.spike_csv {
        let reader = SpikeReader::new(open(path)?).with_file_name(path.display().to_string());
        let mut records = SpikeToIngress::new(reader, ConvertOptions::from_params(&input.params));
        while let Some(rec) = records.next() {
            push(&rec.at(path.display())?, Some(records.line()));
        }
    } else if let Some(path) = &args.encoder_input {
        let mut reader =
            EncoderInputReader::new(open(path)?).with_file_name(path.display().to_string());
        while let Some(rec) = reader.read_record().at(path.display())? {
            push(&rec, Some(reader.line()));
        }
    } else {
        return Err(CliError::input(
            "no input: give --elf, --spike-csv or --encoder-input",
            "command line",
        ));
    }
    Ok((retired, None))
}

fn open(path: &Path) -> Result<BufReader<File>, CliError> {
    Ok(BufReader::with_capacity(
        1 << 20,
        File::open(path).at(path.display())?,
    ))
}
