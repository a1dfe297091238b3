//! `etrace encode` and `etrace dump` end to end on `programs/elf/minimal-rv32.elf`: every
//! framing of `docs/cli.md` (`--framing encap|smi|atb`), exit codes and the error line
//! convention.

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
