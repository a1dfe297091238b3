//! Hostile input (`docs/cli.md`, "Exit codes" and "Parameter files"): inputs that never end,
//! that are empty, that are garbage, or that once made a command misbehave. Each case is a
//! command line, the exit code it must give, what its error must say and how much output
//! it may write; the corpus `tests/data/hostile/` holds the inputs that once misbehaved,
//! each replayed here (a test checks that every file of the corpus has a case).
//!
//! Corpus: `loop-traps-rv32-*.smi` are Siemens-framed traces of `traps-rv32.elf` with a few
//! corrupted bytes whose decode once walked 2^26 instructions per packet into the `j .` of
//! `exit` (seconds and gigabytes); `garbage-4k.bin` is seeded random bytes.
//!
//! Generated inputs: `ntrace-*` are N-Trace streams of a few messages ([`ntrace_stream`])
//! whose counts (ResourceFull I-CNT, RepeatBranch B-CNT) add up to billions of
//! instructions round the `j .` of `exit` in `traps-rv32.elf`: they once ran for hours or
//! aborted out of memory. `wrap64.elf` is `traps-rv64.elf` with its code segment moved to
//! where its address range wraps past 2^64.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::{elf, etrace, out_dir};

/// A file of the corpus.
fn hostile(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile")
        .join(name)
        .display()
        .to_string()
}

/// A scratch file with `contents`.
fn scratch(name: &str, contents: &[u8]) -> String {
    let path = out_dir().join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

/// Most time a case may take (a debug build; the misbehaving inputs took seconds to
/// minutes in a release build).
const MAX_TIME: Duration = Duration::from_secs(20);

/// The cases: the command line (words; `{name}` is a file of [`files`], `{hostile:NAME}`
/// a file of the corpus), the exit code, texts the first stderr line (`error: ...`) must
/// hold (separated by `|`), and the most bytes of standard output.
#[rustfmt::skip]
const CASES: &[(&str, i32, &str, usize)] = &[
    // Corrupted traces that walked 2^26 instructions per packet; garbage.
    ("decode {hostile:loop-traps-rv32-a.smi} --elf {traps} --framing smi", 1, "decode errors", 64 << 10),
    ("decode {hostile:loop-traps-rv32-b.smi} --elf {traps} --framing smi", 1, "decode errors", 64 << 10),
    ("decode {hostile:loop-traps-rv32-c.smi} --elf {traps} --framing smi", 1, "decode errors", 64 << 10),
    ("decode {hostile:loop-traps-rv32-d.smi} --elf {traps} --framing smi", 1, "decode errors", 64 << 10),
    ("decode {hostile:garbage-4k.bin} --elf {traps} --framing smi", 1, "decode errors", 16 << 10),
    ("decode {hostile:garbage-4k.bin} --elf {traps} --framing encap", 1, "decode errors", 16 << 10),
    ("dump {hostile:garbage-4k.bin} --rv32 --framing smi", 1, "framing or packet errors", 64 << 10),
    ("dump {hostile:garbage-4k.bin} --rv32 --framing encap", 1, "framing or packet errors", 64 << 10),
    // Binary read as an ATB beat listing: named, never echoed (the test checks stderr).
    ("decode {hostile:garbage-4k.bin} --elf {traps} --framing atb", 1, "decode errors", 16 << 10),
    ("dump {hostile:garbage-4k.bin} --rv32 --framing atb", 1, "framing or packet errors", 64 << 10),
    // An empty trace, a trace of idle bytes only.
    ("decode {empty} --elf {traps} --framing encap", 2, "empty trace", 0),
    ("dump {empty} --rv32 --framing encap", 2, "empty trace", 0),
    ("calltree {empty} --elf {traps} --framing encap", 2, "empty trace", 0),
    ("decode {zeros} --elf {traps} --framing encap", 2, "no te_inst packets", 0),
    ("dump {zeros} --rv32 --framing encap", 2, "no te_inst packets", 0),
    // Files read whole that never end; a CSV that never ends a line.
    ("decode {zeros} --elf /dev/zero --framing encap", 2, "larger than 268435456 bytes|/dev/zero", 0),
    ("iss /dev/zero", 2, "larger than 268435456 bytes", 0),
    ("decode {zeros} --elf {traps} --params /dev/zero --framing encap", 2, "larger than 1048576 bytes|/dev/zero", 0),
    ("encode --spike-csv {header} --params /dev/zero --framing encap -o {out}", 2, "larger than 1048576 bytes", 0),
    ("convert --spike-csv /dev/zero --encoder-input {out}", 2, "longer than 65536 bytes|line 1", 0),
    // Empty spike CSVs: once 0 records and exit 0.
    ("convert --spike-csv {empty} --encoder-input {out}", 2, "empty file: no header line and no rows|empty.bin line 1", 0),
    ("encode --spike-csv {empty} --framing encap -o {out}", 2, "empty file|empty.bin line 1", 0),
    // dump refuses to guess the field widths, and takes them from an ELF.
    ("dump {hostile:garbage-4k.bin} --framing smi", 2, "field widths|--rv32", 0),
    ("dump {hostile:garbage-4k.bin} --elf {traps} --framing smi", 1, "framing or packet errors", 64 << 10),
    // A segment whose address range wraps past 2^64 (the decoder's image once panicked).
    ("decode {zeros} --elf {wrap64} --framing encap", 2, "address range wraps|wrap64.elf", 0),
    ("calltree {zeros} --elf {wrap64} --framing encap", 2, "address range wraps|wrap64.elf", 0),
    ("iss {wrap64}", 2, "address range wraps|wrap64.elf", 0),
    // A parameter set twice to different values (in two sections): it once took the later
    // value silently.
    ("run {traps} --params {twice-scf}", 2, "`iaddress_width_p` is set twice|twice.scf line 3", 0),
    ("run {traps} --params {twice-toml}", 2, "`iaddress_width_p` is set twice|twice.toml line 4", 0),
    // Parameters that cannot represent what the program produces.
    ("encode --elf {traps} --params {ecause1} --framing encap -o {out}", 2, "trap cause 11 does not fit ecause_width_p = 1", 0),
    ("encode --elf {traps64} --params {width16} --framing encap -o {out}", 2, "does not fit iaddress_width_p = 16", 0),
    ("run {traps} --params {lsb2}", 2, "iaddress_lsb_p|compressed", 0),
    ("encode --encoder-input {context5} --framing encap -o {out}", 2, "context 0x5 does not fit|ingress record 1|context5.csv", 0),
    // An odd instruction address is wrong input for either protocol (N-Trace once dropped
    // its bit 0 silently), named with its CSV line.
    ("encode --encoder-input {odd-in} --framing encap -o {out}", 2, "the input's instruction address 0x80000005 is misaligned|ingress record 1|odd-in.csv line 3", 0),
    ("encode --encoder-input {odd-in} --protocol ntrace -o {out}", 2, "the input's instruction address 0x80000005 is misaligned|ingress record 1|odd-in.csv line 3", 0),
    ("encode --spike-csv {odd-spike} --framing encap -o {out}", 2, "the input's instruction address 0x80000005 is misaligned|ingress record 1|odd-spike.csv line 3", 0),
    ("encode --spike-csv {odd-spike} --protocol ntrace -o {out}", 2, "the input's instruction address 0x80000005 is misaligned|ingress record 1|odd-spike.csv line 3", 0),
    // The N-Trace SRC field, checked as the encoder checks it by every command (the
    // readers once took any width).
    ("decode {ntrace-direct-at-jump} --elf {traps} --protocol ntrace --src-bits 13", 2, "13 is above 12|--src-bits", 0),
    ("dump {ntrace-direct-at-jump} --protocol ntrace --src-bits 64", 2, "64 is above 12|--src-bits", 0),
    ("calltree {ntrace-direct-at-jump} --elf {traps} --protocol ntrace --src-bits 4 --src-id 19", 2, "19 does not fit in 4 bits|--src-id", 0),
    ("capture --serial {capin} --elf {traps} --protocol ntrace --src-bits 13", 2, "13 is above 12|--src-bits", 0),
    ("run {traps} --protocol ntrace --src-bits 4 --src-id 19", 2, "19 does not fit in 4 bits|--src-id", 0),
    ("encode --elf {traps} --protocol ntrace --src-bits 13 -o {out}", 2, "13 is above 12|--src-bits", 0),
    // smi timestamps are 16 bits: another length was once ignored.
    ("encode --elf {traps} --framing smi --timestamp --timestamp-bytes 4 -o {out}", 2, "smi timestamps are always 2 bytes|--timestamp-bytes", 0),
    ("decode {capin} --elf {traps} --framing smi --timestamp --timestamp-bytes 1", 2, "smi timestamps are always 2 bytes|--timestamp-bytes", 0),
    // Framing options the framing does not use were once ignored.
    ("encode --elf {traps} --framing encap --timestamp-bytes 4 -o {out}", 2, "only --timestamp adds|--timestamp-bytes", 0),
    ("capture --serial {capin} --elf {traps} --timestamp-bytes 4", 2, "only --timestamp adds|--timestamp-bytes", 0),
    ("capture --serial {capin} --elf {traps} --protocol ntrace --timestamp --timestamp-bytes 4", 2, "an option of E-Trace|--timestamp-bytes", 0),
    ("decode {capin} --elf {traps} --framing encap --atb-bits 64", 2, "encap has no ATDATA width|--atb-bits", 0),
    ("run {traps} --framing smi --atb-bits 64", 2, "smi has no ATDATA width|--atb-bits", 0),
    ("encode --elf {traps} --framing atb --sync-interval 64 -o {out}", 2, "atb has no synchronisation sequences|--sync-interval", 0),
    // One path for two outputs, an output over an input.
    ("iss {traps} --spike-csv {same} --encoder-input {same}", 2, "refusing to overwrite|--encoder-input", 0),
    ("convert --spike-csv {binary} --encoder-input {binary}", 2, "refusing to overwrite", 0),
    ("encode --elf {traps} --framing encap -o {traps}", 2, "refusing to overwrite", 0),
    ("capture --serial {capin} --elf {victim} --synced -o {victim}", 2, "refusing to overwrite|--output", 0),
    ("capture --serial {capin} --elf {victim} --synced --raw {capin}", 2, "refusing to overwrite|--raw", 0),
    ("capture --serial {capin} --elf {victim} --raw {same} -o {same}", 2, "refusing to overwrite|--output", 0),
    ("calltree {capin} --elf {victim} --framing encap --folded {victim}", 2, "refusing to overwrite|--folded", 0),
    ("calltree {capin} --elf {victim} --framing encap --svg {capin}", 2, "refusing to overwrite|--svg", 0),
    ("cosim {victim} --config rv32 -o {victim}", 2, "refusing to overwrite|--output", 0),
    ("cosim {victim} --config rv32 --wave {same} -o {same}", 2, "refusing to overwrite|--output", 0),
    // Binary input is named, never echoed.
    ("convert --spike-csv {binary} --encoder-input {same}", 2, "unexpected header `\\xff\\xfe", 0),
    // Options the hardware does not have, said as such.
    ("gen-verilog --config rv32 --framing atb --atb-bits 7 -o {hw} --no-check", 2, "7 bits is not supported", 0),
    ("gen-verilog --config rv32 --fifo-depth 512 -o {hw} --no-check", 2, "FIFO depth 512", 0),
    ("cosim --random 0", 2, "nothing would be checked|--random", 0),
    // N-Trace counts that add up to billions of instructions: cut at one message's bound.
    ("decode {ntrace-icnt} --elf {traps} --protocol ntrace -o /dev/null", 1, "decode errors\nI-CNT not used up", 0),
    ("decode {ntrace-repeat} --elf {traps} --protocol ntrace -o /dev/null", 1, "decode errors\nI-CNT not used up", 0),
    ("calltree {ntrace-repeat} --elf {traps} --protocol ntrace", 1, "decode errors\nI-CNT not used up", 64 << 10),
    // A count that ends a block where its message says no block ends.
    ("decode {ntrace-direct-at-jump} --elf {traps} --protocol ntrace -o /dev/null", 1, "decode errors\nDirectBranch ends its block at 0x80000052 with a direct jump", 0),
];

/// The `j .` at the end of `exit` in `traps-rv32.elf`.
const EXIT_LOOP: u64 = 0x8000_0052;

/// One N-Trace message of an [`ntrace_stream`] recipe (no SRC field, no timestamps).
enum Msg {
    /// ProgTraceSync (TCODE 9) at an address.
    Sync(u64),
    /// DirectBranch (TCODE 3) with an I-CNT.
    Direct(u64),
    /// IndirectBranch (TCODE 4) with B-TYPE 2 (an exception), an I-CNT and U-ADDR 0 (the
    /// handler is the address the trace started at).
    Exception(u64),
    /// ResourceFull (TCODE 27) RCODE 0: an I-CNT overflow.
    IcntFull(u64),
    /// RepeatBranch (TCODE 30) with a B-CNT.
    Repeat(u64),
}

/// The MSEO bytes of `messages` ("N-Trace Messages (Details)").
fn ntrace_stream(messages: &[Msg]) -> Vec<u8> {
    let mut w = etrace_ntrace::mseo::MseoWriter::new();
    for m in messages {
        match *m {
            Msg::Sync(address) => {
                w.fixed(6, 9);
                w.fixed(4, 5);
                w.var(0);
                w.var(address >> 1);
            }
            Msg::Direct(icnt) => {
                w.fixed(6, 3);
                w.var(icnt);
            }
            Msg::Exception(icnt) => {
                w.fixed(6, 4);
                w.fixed(2, 2);
                w.var(icnt);
                w.var(0);
            }
            Msg::IcntFull(icnt) => {
                w.fixed(6, 27);
                w.fixed(4, 0);
                w.var(icnt);
            }
            Msg::Repeat(bcnt) => {
                w.fixed(6, 30);
                w.var(bcnt);
            }
        }
        w.end();
    }
    w.take()
}

/// `traps-rv64.elf` with its first PT_LOAD segment moved to `addr` (p_vaddr, p_paddr).
fn elf64_loaded_at(addr: u64) -> Vec<u8> {
    let mut bytes = std::fs::read(elf("traps-rv64.elf")).unwrap();
    let phoff = u64::from_le_bytes(bytes[0x20..0x28].try_into().unwrap()) as usize;
    let phnum = usize::from(u16::from_le_bytes([bytes[0x38], bytes[0x39]]));
    let load = (0..phnum)
        .map(|i| phoff + 56 * i)
        .find(|&h| bytes[h..h + 4] == [1, 0, 0, 0])
        .unwrap();
    bytes[load + 16..load + 24].copy_from_slice(&addr.to_le_bytes());
    bytes[load + 24..load + 32].copy_from_slice(&addr.to_le_bytes());
    bytes
}

/// Largest I-CNT field ("Maximum Field Sizes") and B-CNT field.
const MAX_ICNT: u64 = (1 << 22) - 1;
const MAX_BCNT: u64 = (1 << 18) - 1;

/// The files the cases name, by placeholder.
fn files() -> Vec<(&'static str, String)> {
    let header = b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n";
    let scratch_path = |name: &str| out_dir().join(name).display().to_string();
    vec![
        ("traps", elf("traps-rv32.elf")),
        ("traps64", elf("traps-rv64.elf")),
        ("empty", scratch("empty.bin", b"")),
        ("zeros", scratch("zeros.bin", &[0u8; 1 << 16])),
        ("header", scratch("header.csv", header)),
        (
            "binary",
            scratch("binary.csv", &(0..=255u8).rev().collect::<Vec<_>>()),
        ),
        (
            "ecause1",
            scratch("ecause1.scf", b"iaddress_width_p=32\necause_width_p=1\n"),
        ),
        ("width16", scratch("width16.scf", b"iaddress_width_p=16\n")),
        (
            "twice-scf",
            scratch(
                "twice.scf",
                b"iaddress_width_p=32\n[optional]\niaddress_width_p=40\n",
            ),
        ),
        (
            "twice-toml",
            scratch(
                "twice.toml",
                b"[required]\niaddress_width_p = 32\n[optional]\niaddress_width_p = 40\n",
            ),
        ),
        (
            "context5",
            scratch(
                "context5.csv",
                b"itype_0,cause,tval,priv,iaddr_0,context,ctype,sijump_0,iretire_0,ilastsize_0\n\
                  0,0,0,3,80000000,0,0,0,1,1\n\
                  0,0,0,3,80000004,5,2,0,1,1\n",
            ),
        ),
        (
            "odd-in",
            scratch(
                "odd-in.csv",
                b"itype_0,cause,tval,priv,iaddr_0,iretire_0,ilastsize_0\n\
                  0,0,0,3,80000000,1,1\n\
                  0,0,0,3,80000005,1,1\n\
                  0,0,0,3,80000009,1,1\n",
            ),
        ),
        (
            "odd-spike",
            scratch(
                "odd-spike.csv",
                b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n\
                  1,80000000,00000013,3,0,0,0,0\n\
                  1,80000005,00000013,3,0,0,0,0\n\
                  1,80000009,00000013,3,0,0,0,0\n",
            ),
        ),
        (
            "lsb2",
            scratch("lsb2.scf", b"iaddress_width_p=32\niaddress_lsb_p=2\n"),
        ),
        (
            "ntrace-icnt",
            scratch("icnt.nt", &{
                let mut m = vec![Msg::Sync(EXIT_LOOP)];
                m.extend((0..100).map(|_| Msg::IcntFull(MAX_ICNT)));
                m.push(Msg::Direct(MAX_ICNT));
                ntrace_stream(&m)
            }),
        ),
        (
            "ntrace-direct-at-jump",
            scratch(
                "direct-at-jump.nt",
                &ntrace_stream(&[Msg::Sync(EXIT_LOOP), Msg::Direct(1)]),
            ),
        ),
        (
            "ntrace-repeat",
            scratch(
                "repeat.nt",
                &ntrace_stream(&[
                    Msg::Sync(EXIT_LOOP),
                    Msg::Exception(MAX_ICNT),
                    Msg::Repeat(MAX_BCNT),
                ]),
            ),
        ),
        (
            "wrap64",
            scratch("wrap64.elf", &elf64_loaded_at(0xffff_ffff_ffff_ff00)),
        ),
        (
            "victim",
            scratch("victim.elf", &std::fs::read(elf("traps-rv32.elf")).unwrap()),
        ),
        ("capin", scratch("capin.encap", &[0u8; 64])),
        ("same", scratch_path("same.csv")),
        ("out", scratch_path("out.bin")),
        ("hw", scratch_path("hw")),
    ]
}

/// A case's command line with its placeholders replaced.
fn expand(line: &str, files: &[(&str, String)]) -> Vec<String> {
    line.split_whitespace()
        .map(|word| {
            let Some(name) = word.strip_prefix('{').and_then(|w| w.strip_suffix('}')) else {
                return word.to_string();
            };
            if let Some(file) = name.strip_prefix("hostile:") {
                return hostile(file);
            }
            files
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no file {{{name}}}"))
                .1
                .clone()
        })
        .collect()
}

/// The corpus files a case replays.
fn corpus_of(line: &str) -> impl Iterator<Item = &str> {
    line.split_whitespace().filter_map(|w| {
        w.strip_prefix("{hostile:")
            .and_then(|w| w.strip_suffix('}'))
    })
}

/// Every case: exit code, first error line (the expectation's `|`-separated pieces; after
/// a newline, pieces of the lines below it), bounded output and time, no panic, nothing
/// but printable ASCII on standard error.
#[test]
fn hostile_inputs_end_with_the_contracted_error() {
    let files = files();
    for &(line, code, error, max_stdout) in CASES {
        let args = expand(line, &files);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = Instant::now();
        let out = etrace(&args);
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let what = format!("etrace {line}");
        assert_eq!(out.status.code(), Some(code), "{what}\n{stderr}");
        let first = stderr.lines().next().unwrap_or("");
        assert!(first.starts_with("error: "), "{what}: first line {first}");
        let (head, detail) = error.split_once('\n').unwrap_or((error, ""));
        for needle in head.split('|') {
            assert!(first.contains(needle), "{what}: `{needle}` not in {first}");
        }
        for needle in detail.split('|').filter(|n| !n.is_empty()) {
            assert!(
                stderr.contains(needle),
                "{what}: `{needle}` not in {stderr}"
            );
        }
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(
            out.stderr
                .iter()
                .all(|&b| b == b'\n' || (b' '..=b'~').contains(&b)),
            "{what}: stderr is not printable ASCII: {stderr}"
        );
        assert!(
            out.stdout.len() <= max_stdout,
            "{what}: {} bytes of output",
            out.stdout.len()
        );
        assert!(took < MAX_TIME, "{what}: took {took:?}");
    }
}

/// N-Trace messages that each stand for a million instructions round a `j .` are decoded
/// one message at a time: the memory holds one message's trace elements, not those of
/// every message in a piece of the file (it once grew by about 45 MiB per message).
#[test]
fn ntrace_memory_holds_one_message() {
    let traps = elf("traps-rv32.elf");
    let mut messages = vec![Msg::Sync(EXIT_LOOP)];
    messages.extend((0..12).map(|_| Msg::Exception(1 << 20)));
    let trace = scratch("spin.nt", &ntrace_stream(&messages));
    let stdout = out_dir().join("spin.pcs");
    let args = [
        "decode",
        &trace,
        "--elf",
        &traps,
        "--protocol",
        "ntrace",
        "-o",
        "/dev/null",
    ];
    let cost = common::measured(&args, &stdout, MAX_TIME);
    assert_eq!(cost.code, Some(0), "exit code");
    assert!(
        cost.max_rss_kib < 160 << 10,
        "peak {} KiB",
        cost.max_rss_kib
    );
}

/// An ATB beat listing whose line never ends is refused at 64 KiB, without holding the
/// line (it was read whole, so `/dev/zero` grew without bound).
#[test]
fn an_endless_atb_line_is_refused_in_bounded_memory() {
    use std::io::Write;
    let path = out_dir().join("endless.atb");
    let mut file = std::fs::File::create(&path).unwrap();
    let mib = vec![b'A'; 1 << 20];
    for _ in 0..128 {
        file.write_all(&mib).unwrap();
    }
    drop(file);
    let listing = path.display().to_string();
    let stdout = out_dir().join("endless.dump");
    let args = ["dump", &listing, "--rv32", "--framing", "atb"];
    let cost = common::measured(&args, &stdout, MAX_TIME);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(cost.code, Some(1), "exit code");
    assert!(cost.max_rss_kib < 64 << 10, "peak {} KiB", cost.max_rss_kib);
    let listing = std::fs::read_to_string(&stdout).unwrap();
    assert!(listing.contains("line longer than 64 KiB"), "{listing}");
}

/// The corrupted traces that once walked 2^26 instructions per packet now end each such
/// walk at the loop, with the decode error naming it.
#[test]
fn looping_walks_are_reported_as_loops() {
    let files = files();
    for &(line, ..) in CASES {
        if !corpus_of(line).any(|f| f.starts_with("loop-")) {
            continue;
        }
        let args = expand(line, &files);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stdout = String::from_utf8(etrace(&args).stdout).unwrap();
        assert!(
            stdout.contains("never reached: the path loops at 0x80000052 without a branch"),
            "{line}:\n{stdout}"
        );
    }
}

/// A run of garbage is reported once with its extent, not once per unreadable packet.
#[test]
fn garbage_runs_are_reported_once() {
    let traps = elf("traps-rv32.elf");
    let garbage = hostile("garbage-4k.bin");
    let out = etrace(&["decode", &garbage, "--elf", &traps, "--framing", "smi"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("decode-error"))
        .collect();
    let merged = errors
        .iter()
        .filter(|l| l.contains("more errors through packet #"))
        .count();
    assert!(merged > 0, "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let count: usize = stderr
        .strip_prefix("error: ")
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(count, errors.len(), "one error per run: {stderr}");
}

/// Every file of the corpus is replayed by a case.
#[test]
fn every_corpus_file_is_replayed() {
    let replayed: Vec<&str> = CASES.iter().flat_map(|c| corpus_of(c.0)).collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(replayed.contains(&name.as_str()), "{name} is not replayed");
    }
}

/// An output that is one of the inputs (the trace, the ELF) is refused, and the input is
/// left as it was.
#[test]
fn an_output_over_an_input_is_refused() {
    let traps = elf("traps-rv32.elf");
    let original = std::fs::read(hostile("loop-traps-rv32-a.smi")).unwrap();
    let trace = scratch("over.smi", &original);
    for output in [&trace, &traps] {
        let before = std::fs::read(output).unwrap();
        let args = [
            "decode",
            &trace,
            "--elf",
            &traps,
            "--framing",
            "smi",
            "-o",
            output,
        ];
        common::assert_input_error(&etrace(&args), &["refusing to overwrite", "--output"]);
        assert_eq!(&std::fs::read(output).unwrap(), &before, "{output}");
    }
}

/// `gen-verilog --help` says the FIFO depths the generator accepts; yosys missing is a
/// usage error (exit 2), not a failed check.
#[test]
fn gen_verilog_says_what_it_accepts() {
    let help = String::from_utf8(etrace(&["gen-verilog", "--help"]).stdout).unwrap();
    assert!(
        help.contains("16, 32, 64, 128 or 256 bytes (64 with atb)"),
        "{help}"
    );
    assert!(!help.contains("4096"), "{help}");
    let hw = out_dir().join("hw-no-yosys").display().to_string();
    let nowhere = out_dir().join("empty-path");
    std::fs::create_dir_all(&nowhere).unwrap();
    let out = common::etrace_env(
        &["gen-verilog", "--config", "rv32", "-o", &hw],
        &[("PATH", nowhere.as_path())],
    );
    common::assert_input_error(&out, &["cannot run yosys", "--no-check"]);
}

/// A closed standard output ends a command quietly (no panic, no error line): the reader
/// goes away after the first line of an output far larger than a pipe's buffer, so the
/// command certainly writes into the closed pipe.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let loops = elf("loops-rv32.elf");
    let trace = out_dir().join("loops.encap").display().to_string();
    let enc = etrace(&[
        "encode",
        "--elf",
        &loops,
        "--framing",
        "encap",
        "-o",
        &trace,
    ]);
    common::assert_code(&enc, 0, "encode");
    let args = [
        "decode",
        &trace,
        "--elf",
        &loops,
        "--framing",
        "encap",
        "--format",
        "pcs",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The pipe's reading end is closed here; the output is about 500 KiB.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(first.starts_with("0x"), "{first}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

/// `capture` on a FIFO that no writer ever opens ends after `--timeout` / `--duration`
/// (it used to block in open()).
#[test]
fn capture_honours_its_time_limits_from_the_start() {
    let traps = elf("traps-rv32.elf");
    let fifo = out_dir().join("no-writer.fifo");
    let _ = std::fs::remove_file(&fifo);
    let path = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let fifo = fifo.display().to_string();
    for (limit, said) in [("--timeout", "--timeout"), ("--duration", "--duration")] {
        let started = Instant::now();
        let out = etrace(&["capture", "--serial", &fifo, "--elf", &traps, limit, "1"]);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(10), "{limit}: took {took:?}");
        common::assert_code(&out, 1, limit);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no bytes received") && stderr.contains(said),
            "{stderr}"
        );
    }
}

/// A failed write to standard output (a full disk) is an error naming `(standard output)`,
/// exit 2, never a panic: each command that prints its results, with standard output on
/// `/dev/full`.
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let loops = elf("loops-rv32.elf");
    let traps = elf("traps-rv32.elf");
    let out = out_dir().join("full-out").display().to_string();
    let hw = out_dir().join("full-hw").display().to_string();
    let lines: [&[&str]; 6] = [
        &["run", &loops],
        &["run", &loops, "--protocol", "ntrace"],
        // Its console output, "traps ok".
        &["iss", &traps],
        &[
            "encode",
            "--elf",
            &loops,
            "--framing",
            "encap",
            "-o",
            &out,
            "--stats",
        ],
        &[
            "encode",
            "--elf",
            &loops,
            "--protocol",
            "ntrace",
            "-o",
            &out,
            "--stats",
        ],
        &["gen-verilog", "--config", "rv32", "-o", &hw, "--no-check"],
    ];
    for args in lines {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_etrace"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        let what = args.join(" ");
        assert_eq!(run.status.code(), Some(2), "{what}: {stderr}");
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ") && first.ends_with("(standard output)"),
            "{what}: {first}"
        );
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    }
}
