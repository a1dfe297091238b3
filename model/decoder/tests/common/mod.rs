//! Set-up shared by the decoder's integration tests: a test program's run on the hart
//! model, the golden encoder's packets for it, decoding them (`decoder.adoc`), and the
//! comparison of the reconstructed steps with the hart's.

#![allow(dead_code)] // each test file uses a part

use etrace_decoder::pcs::Step;
use etrace_decoder::{DecodeError, DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_hart::HartConfig;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{pack, unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;

/// A test program (`programs/elf/<stem>.elf`) and its whole run on the hart model.
pub struct Program {
    /// The file stem, for example `traps-rv32`.
    pub stem: String,
    /// The ELF file.
    pub elf: Vec<u8>,
    /// The ingress records of the run.
    pub records: Vec<IngressRecord>,
    /// The decoder's image of the ELF.
    pub image: ProgramImage,
}

/// Runs `<stem>.elf` on the hart model (default configuration).
pub fn program(stem: &str) -> Program {
    let elf = etrace_programs::elf(stem).unwrap();
    let config = etrace_programs::hart_config(stem, HartConfig::default()).unwrap();
    let records = etrace_programs::run_records(stem, &elf, config).unwrap();
    let image = ProgramImage::from_elf(&elf).unwrap();
    Program {
        stem: stem.to_string(),
        elf,
        records,
        image,
    }
}

/// The default encoder parameters of a program's target (`-rv32` or `-rv64` stem).
pub fn params_for(stem: &str) -> Params {
    if stem.ends_with("rv32") {
        Params::rv32()
    } else {
        Params::rv64()
    }
}

/// Decodes `packets` (indices from 0, no byte offsets) and flushes the elements.
pub fn decode<'p>(
    image: &ProgramImage,
    params: &Params,
    config: DecoderConfig,
    packets: impl IntoIterator<Item = &'p TeInst>,
) -> Vec<TraceElement> {
    let mut decoder = TeDecoder::new(image, params, config);
    for (i, p) in packets.into_iter().enumerate() {
        decoder.process(p, i as u64, None);
    }
    decoder.take_elements(true)
}

/// [`decode`] of the packets as a receiver gets them: each packed into its payload and
/// unpacked with the options of the latest support packet (`sec:format33`).
pub fn decode_payloads<'p>(
    image: &ProgramImage,
    params: &Params,
    packets: impl IntoIterator<Item = &'p TeInst>,
) -> Vec<TraceElement> {
    let mut ioptions = IOptions::default();
    let unpacked: Vec<TeInst> = packets
        .into_iter()
        .map(|p| {
            let payload = pack(p, params).unwrap().bytes;
            let packet = unpack_with(&payload, params, &ioptions).unwrap();
            if let TeInst::Support(s) = &packet {
                ioptions = s.ioptions;
            }
            packet
        })
        .collect();
    decode(image, params, DecoderConfig::default(), &unpacked)
}

/// The first decode error among `elements`, if any.
pub fn first_error(elements: &[TraceElement]) -> Option<&DecodeError> {
    elements.iter().find_map(TraceElement::decode_error)
}

/// Panics, naming `what`, if `elements` hold a decode error.
pub fn assert_no_decode_error(elements: &[TraceElement], what: &str) {
    if let Some(e) = first_error(elements) {
        panic!("{what}: decode error {e}");
    }
}

/// Panics, naming `what` and the first step that differs (with the hart's steps around
/// it), unless the decoded steps `got` are the hart's `want`.
pub fn assert_same_steps(got: &[Step], want: &[Step], what: &str) {
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        panic!(
            "{what}: step {i} differs: decoded {:?}, hart {:?} (hart context {:?})",
            got[i],
            want[i],
            &want[i.saturating_sub(3)..(i + 3).min(want.len())]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: number of steps");
}
