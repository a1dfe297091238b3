//! spike's commit log reader (`etrace_spec::formats::spike_log`) on captured excerpts
//! (`tests/data/spike_log/`, see its README): every excerpt gives the entries written next
//! to it, every malformed line its error with the line number.

use std::path::PathBuf;

use etrace_spec::formats::spike_log::{SpikeLogEntry, SpikeLogError, SpikeLogReader};
use etrace_spec::ingress::Privilege;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/spike_log")
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex in .expected")
}

/// One line of a `.expected` file.
fn expected_entry(line: &str) -> SpikeLogEntry {
    let f: Vec<&str> = line.split_whitespace().collect();
    match f[..] {
        ["commit", p, pc, insn] => SpikeLogEntry::Commit {
            privilege: Privilege::from_code(p.parse().unwrap()).unwrap(),
            pc: hex(pc),
            insn: hex(insn) as u32,
        },
        ["trap", epc, cause, kind] => SpikeLogEntry::Trap {
            epc: hex(epc),
            cause: cause.parse().unwrap(),
            interrupt: kind == "interrupt",
        },
        _ => panic!("bad .expected line `{line}`"),
    }
}

#[test]
fn excerpts_read_as_expected() {
    let mut checked = 0;
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "log") {
            continue;
        }
        let log = std::fs::read(&path).unwrap();
        let got: Vec<SpikeLogEntry> = SpikeLogReader::new(&log[..])
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let want: Vec<SpikeLogEntry> = std::fs::read_to_string(path.with_extension("expected"))
            .unwrap()
            .lines()
            .map(expected_entry)
            .collect();
        assert!(!want.is_empty(), "{}", path.display());
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "{checked} excerpts");
}

#[test]
fn malformed_lines_name_line_and_reason() {
    let cases = std::fs::read_to_string(data_dir().join("bad_lines.txt")).unwrap();
    let mut checked = 0;
    for case in cases.lines() {
        let (line, reason) = case.rsplit_once(" | ").unwrap();
        // The bad line as line 3, after a commit line and a blank line.
        let log = format!("core   0: 3 0x00001000 (0x00000297) x5  0x00001000\n\n{line}\n");
        let mut reader = SpikeLogReader::new(log.as_bytes());
        assert!(matches!(
            reader.next(),
            Some(Ok(SpikeLogEntry::Commit { pc: 0x1000, .. }))
        ));
        match reader.next() {
            Some(Err(e @ SpikeLogError::BadLine { .. })) => {
                let SpikeLogError::BadLine {
                    line: n,
                    text,
                    reason: r,
                } = &e
                else {
                    unreachable!()
                };
                assert_eq!((*n, text.as_str(), *r), (3, line, reason), "{line}");
                assert!(e.to_string().ends_with("(spike log line 3)"), "{e}");
            }
            other => panic!("`{line}`: expected an error, got {other:?}"),
        }
        checked += 1;
    }
    assert!(checked >= 10);
}
