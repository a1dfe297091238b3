//! `etrace encode` and `etrace dump` end to end on `programs/elf/minimal-rv32.elf`: every
//! framing of `docs/cli.md` (`--framing encap|smi|atb`), exit codes and the error line
//! convention; a failed encode (or convert) leaves an existing output as it was.

mod common;
use common::{elf, etrace, out_dir, scratch, stat};

#[test]
fn encode_then_dump_lists_every_packet_for_each_framing() {
    let elf = elf("minimal-rv32.elf");
    for framing in ["encap", "smi", "atb"] {
        let out = out_dir().join(format!("minimal-rv32.{framing}"));
        let out = out.display().to_string();
        let mut args = vec!["encode", "--elf", &elf, "--framing", framing, "-o", &out];
        args.extend(["--stats", "--timestamp"]);
        if framing == "smi" {
            args.extend(["--src-bits", "4", "--src-id", "9"]);
        }
        let enc = etrace(&args);
        let stdout = String::from_utf8_lossy(&enc.stdout);
        assert_eq!(
            enc.status.code(),
            Some(0),
            "{framing}: {}",
            String::from_utf8_lossy(&enc.stderr)
        );
        let packets = stat(&stdout, "packets");
        assert!(stat(&stdout, "instructions") > 10, "{framing}:\n{stdout}");
        assert!(packets >= 3, "{framing}:\n{stdout}");
        assert!(stat(&stdout, "framed bytes") > stat(&stdout, "payload bytes"));

        let mut args = vec!["dump", &out, "--rv32", "--framing", framing, "--timestamp"];
        args.push("--ioptions-from-stream");
        if framing == "smi" {
            args.extend(["--src-bits", "4"]);
        }
        let dump = etrace(&args);
        let listing = String::from_utf8_lossy(&dump.stdout);
        assert_eq!(
            dump.status.code(),
            Some(0),
            "{framing}: {}",
            String::from_utf8_lossy(&dump.stderr)
        );
        let lines: Vec<&str> = listing.lines().collect();
        assert_eq!(lines.len() as u64, packets, "{framing}:\n{listing}");
        for (i, line) in lines.iter().enumerate() {
            assert!(line.starts_with(&format!("#{i} @")), "{framing}: {line}");
        }
        assert!(
            lines[0].contains("(support) ienable=1"),
            "{framing}: {}",
            lines[0]
        );
        assert!(lines[1].contains("(start)"), "{framing}: {}", lines[1]);
        assert!(
            lines.last().unwrap().contains("(support) ienable=0"),
            "{framing}: {listing}"
        );
    }
}

#[test]
fn dump_reports_a_damaged_stream_and_exits_1() {
    let elf = elf("minimal-rv32.elf");
    let out = scratch("damaged.smi");
    let enc = etrace(&["encode", "--elf", &elf, "--framing", "smi", "-o", &out]);
    assert_eq!(enc.status.code(), Some(0));
    let mut bytes = std::fs::read(&out).unwrap();
    bytes.push(0x45); // a header announcing 5 bytes that never come
    std::fs::write(&out, &bytes).unwrap();
    let dump = etrace(&["dump", &out, "--rv32", "--framing", "smi"]);
    // A failed check, as `etrace decode` of the same stream.
    assert_eq!(dump.status.code(), Some(1));
    let listing = String::from_utf8_lossy(&dump.stdout);
    let last = listing.lines().last().unwrap();
    let offset = bytes.len() - 1;
    assert!(
        last.starts_with(&format!("#? @{offset} error: ")),
        "{listing}"
    );
    assert!(String::from_utf8_lossy(&dump.stderr).starts_with("error: "));
}

#[test]
fn bad_framing_name_exits_2() {
    let elf = elf("minimal-rv32.elf");
    let out = scratch("bad.bin");
    let run = etrace(&["encode", "--elf", &elf, "--framing", "hdlc", "-o", &out]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).starts_with("error:"));
}

#[test]
fn missing_elf_exits_2_naming_the_file() {
    let out = scratch("missing.bin");
    let run = etrace(&[
        "encode",
        "--elf",
        "no-such-program.elf",
        "--framing",
        "encap",
        "-o",
        &out,
    ]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("(no-such-program.elf)"), "{stderr}");
}

#[test]
fn encoder_input_csv_encodes_like_the_elf() {
    let elf = elf("minimal-rv32.elf");
    let dir = out_dir();
    let csv = scratch("minimal-rv32.encoder_input");
    let iss = etrace(&["iss", &elf, "--encoder-input", &csv]);
    assert_eq!(iss.status.code(), Some(0));
    let params = dir.join("rv32.toml");
    std::fs::write(&params, "iaddress_width_p = 32\necause_width_p = 5\n").unwrap();
    let params = params.display().to_string();
    let from_elf = scratch("from-elf.encap");
    let from_csv = scratch("from-csv.encap");
    let a = etrace(&[
        "encode",
        "--elf",
        &elf,
        "--framing",
        "encap",
        "-o",
        &from_elf,
    ]);
    let b = etrace(&[
        "encode",
        "--encoder-input",
        &csv,
        "--params",
        &params,
        "--framing",
        "encap",
        "-o",
        &from_csv,
    ]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(
        b.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&b.stderr)
    );
    assert_eq!(
        std::fs::read(&from_elf).unwrap(),
        std::fs::read(&from_csv).unwrap()
    );
}

/// Failing encodes ({prog}: `loops-rv32.elf`, {csv}: an encoder-input CSV whose last
/// record has an odd address, so that the whole stream is written before the refusal;
/// {header}: a CSV with a bad header; {out}: the existing output) and a failed convert
/// (an empty spike CSV): each exits 2 and leaves the existing output as it was, without
/// a `.part` file. So does every command that writes an output file (`create_output` in
/// `io.rs`), such as a decode of an empty trace with `-o`.
#[rustfmt::skip]
const FAILING_WRITES: &[(&str, &str)] = &[
    ("encode --elf {prog} --framing encap --src-bits 4 --src-id 16 -o {out}", "srcID 16 does not fit"),
    ("encode --elf {prog} --framing atb --src-id 0 -o {out}", "ATID 0x00 is reserved"),
    ("encode --elf {prog} --framing smi --src-bits 8 --src-id 256 -o {out}", "index 256 does not fit"),
    ("encode --elf {prog} --framing encap --params /no/such.scf -o {out}", "/no/such.scf"),
    ("encode --encoder-input {header} --framing encap -o {out}", "missing column"),
    ("encode --encoder-input {csv} --framing encap -o {out}", "misaligned"),
    ("encode --encoder-input {csv} --protocol ntrace -o {out}", "misaligned"),
    ("convert --spike-csv {empty} --encoder-input {out}", "empty file"),
    ("decode {empty} --elf {prog} --framing encap -o {out}", "empty trace"),
];

#[test]
fn a_failed_encode_leaves_an_existing_output_as_it_was() {
    let mut csv = String::from("itype_0,cause,tval,priv,iaddr_0,iretire_0,ilastsize_0\n");
    for i in 0..5000u64 {
        csv.push_str(&format!("0,0,0,3,{:x},1,1\n", 0x8000_0000 + 4 * i));
    }
    csv.push_str("0,0,0,3,80005003,1,1\n");
    let files = [
        ("{prog}", elf("loops-rv32.elf")),
        ("{csv}", scratch("odd-last.csv")),
        ("{header}", scratch("bad-header.csv")),
        ("{empty}", scratch("empty-spike.csv")),
        ("{out}", scratch("kept.out")),
    ];
    std::fs::write(&files[1].1, csv).unwrap();
    std::fs::write(&files[2].1, "foo,bar\n1,2\n").unwrap();
    std::fs::write(&files[3].1, "").unwrap();
    let out = &files[4].1;
    let part = format!("{out}.part");
    for (line, said) in FAILING_WRITES {
        std::fs::write(out, "precious\n").unwrap();
        let args: Vec<String> = line
            .split_whitespace()
            .map(|w| {
                files
                    .iter()
                    .fold(w.to_string(), |w, (n, p)| w.replace(n, p))
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = etrace(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{line}: {stderr}");
        assert!(stderr.contains(said), "{line}: `{said}` not in {stderr}");
        assert_eq!(
            std::fs::read_to_string(out).unwrap(),
            "precious\n",
            "{line}"
        );
        assert!(!std::path::Path::new(&part).exists(), "{line}: {part} left");
    }
    // A successful encode replaces it.
    let ok = etrace(&[
        "encode",
        "--elf",
        &files[0].1,
        "--framing",
        "encap",
        "-o",
        out,
    ]);
    assert_eq!(ok.status.code(), Some(0));
    assert_ne!(std::fs::read(out).unwrap(), b"precious\n");
    assert!(!std::path::Path::new(&part).exists());
}
