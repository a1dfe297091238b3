//! `etrace capture` (`docs/cli.md`) on a pseudo-terminal fed with the byte stream of the
//! encoder RTL under Verilator (`etrace_tb`, the RV32 byte-stream variant) running the
//! `fnptr_switch` program's ingress trace (8 KB of encap stream): its output equals `etrace decode` of the same bytes
//! and the hart's retired addresses; corrupted and cut-off streams give `etrace decode`'s
//! decode errors with exit 1; bad options and devices exit 2.

use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use etrace_hart::HartConfig;
use etrace_spec::ingress::IngressRecord;
use etrace_tb::{Inputs, Rtl, Variant};

mod common;
use common::{assert_code, etrace, out_dir, scratch};

fn elf() -> String {
    common::elf("fnptr_switch-rv32.elf")
}

/// The hart model's ingress records of the program.
fn records() -> Vec<IngressRecord> {
    etrace_programs::records("fnptr_switch-rv32", HartConfig::default(), usize::MAX)
        .expect("program runs")
}

/// The RTL's byte stream for the program: reset, one block every 41 cycles (no packet is
/// dropped, as in the co-simulation tests), trace disabled after the last one, the output
/// always ready; and the hart's retired addresses.
fn rtl_stream() -> &'static (Vec<u8>, Vec<u64>) {
    static STREAM: OnceLock<(Vec<u8>, Vec<u64>)> = OnceLock::new();
    STREAM.get_or_init(|| {
        let records = records();
        let mut rtl = Rtl::new(Variant::Rv32);
        rtl.reset(2);
        let mut inputs = Inputs {
            ready: true,
            ..Inputs::default()
        };
        inputs.set_options(&Default::default());
        let stride = 41;
        let disable = records.len() * stride;
        let mut bytes = Vec::new();
        for cycle in 0..disable + 400 {
            let block = (cycle % stride == 0)
                .then(|| records.get(cycle / stride))
                .flatten();
            inputs.set_block(block);
            inputs.trace_enable = cycle < disable;
            let out = rtl.step(&inputs);
            assert!(!out.trace_lost, "no packet dropped");
            if out.out_valid {
                bytes.push(out.out_data);
            }
        }
        let pcs = records
            .iter()
            .filter(|r| r.iretire != 0)
            .map(|r| r.iaddr)
            .collect();
        (bytes, pcs)
    })
}

/// A pseudo-terminal: the master (where the board's bytes are written) and the slave's
/// path (the "serial device"). The slave is opened here too, in raw mode, so that the
/// line discipline passes every byte through unchanged from the first one on.
struct Pty {
    master: File,
    _slave: File,
    path: String,
}

fn openpty() -> Pty {
    // SAFETY: plain libc calls on descriptors this function owns; `name` is a buffer of
    // the length given.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0, "grantpt");
        assert_eq!(libc::unlockpt(master), 0, "unlockpt");
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(
            libc::ptsname_r(master, name.as_mut_ptr(), name.len()),
            0,
            "ptsname_r"
        );
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_string_lossy()
            .into_owned();
        let slave = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
        assert!(slave >= 0, "open {path}");
        let mut tio: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave, &mut tio), 0);
        libc::cfmakeraw(&mut tio);
        assert_eq!(libc::tcsetattr(slave, libc::TCSANOW, &tio), 0);
        Pty {
            master: File::from_raw_fd(master),
            _slave: File::from_raw_fd(slave),
            path,
        }
    }
}

/// Runs `etrace capture` on a regular file `name` (in the scratch folder) holding
/// `bytes` as its "device", with the test program's ELF and `args`.
fn capture_file(name: &str, bytes: &[u8], args: &[&str]) -> Output {
    let file = scratch(name);
    std::fs::write(&file, bytes).unwrap();
    let e = elf();
    let mut command = vec!["capture", "--serial", &file, "--elf", &e];
    command.extend(args);
    etrace(&command)
}

/// Runs `etrace capture --serial <pty> args...` while writing `bytes` into the master in
/// pieces.
fn capture_pty(bytes: &[u8], args: &[&str]) -> Output {
    let pty = openpty();
    let child = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(["capture", "--serial", &pty.path, "--baud", "3000000"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("etrace runs");
    let mut master = pty.master.try_clone().unwrap();
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || {
        for piece in data.chunks(997) {
            master.write_all(piece).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    drop(pty);
    out
}

/// `etrace decode` of `bytes` (saved as `name`) with `format`.
fn decode(bytes: &[u8], name: &str, format: &str) -> Output {
    let file = out_dir().join(name);
    std::fs::write(&file, bytes).unwrap();
    etrace(&[
        "decode",
        file.to_str().unwrap(),
        "--elf",
        &elf(),
        "--framing",
        "encap",
        "--format",
        format,
    ])
}

fn pcs(stdout: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| u64::from_str_radix(l.trim_start_matches("0x"), 16).expect("hex"))
        .collect()
}

#[test]
fn capture_from_a_pty_decodes_the_rtl_stream_to_the_retired_addresses() {
    let (bytes, want) = rtl_stream();
    assert!(bytes.len() > 4096, "a stream with several sync sequences");
    let raw = out_dir().join("pty.raw");
    let max = bytes.len().to_string();
    let out = capture_pty(
        bytes,
        &[
            "--elf",
            &elf(),
            "--format",
            "pcs",
            "--max-bytes",
            &max,
            "--raw",
            raw.to_str().unwrap(),
        ],
    );
    assert_code(&out, 0, "capture");
    assert_eq!(
        &std::fs::read(&raw).unwrap(),
        bytes,
        "--raw keeps the bytes"
    );
    let got = pcs(&out.stdout);
    assert_eq!(got.len(), want.len(), "instructions");
    assert!(&got == want, "addresses differ from the hart's");
    let dec = decode(bytes, "rtl.encap", "pcs");
    assert_code(&dec, 0, "decode");
    assert_eq!(out.stdout, dec.stdout, "capture and decode agree");
}

#[test]
fn capture_stops_after_the_timeout_and_writes_decodes_elements() {
    let (bytes, _) = rtl_stream();
    let out = capture_pty(
        bytes,
        &["--elf", &elf(), "--format", "elements", "--timeout", "1.5"],
    );
    assert_code(&out, 0, "capture");
    let dec = decode(bytes, "rtl.encap", "elements");
    assert_code(&dec, 0, "decode");
    assert!(!out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&dec.stdout)
    );
}

#[test]
fn corrupted_stream_gives_the_decode_errors_of_etrace_decode_with_exit_1() {
    let (bytes, _) = rtl_stream();
    let mut bad = bytes.clone();
    // Headers and payload bytes after the first sync sequence.
    for at in [100, 101, 2000, 5000, 7000] {
        bad[at] ^= 0x9d;
    }
    let max = bad.len().to_string();
    let out = capture_pty(
        &bad,
        &["--elf", &elf(), "--format", "json", "--max-bytes", &max],
    );
    assert_code(&out, 1, "capture");
    let dec = decode(&bad, "bad.encap", "json");
    assert_code(&dec, 1, "decode");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&dec.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("decode-error"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("error: ")
            && first.contains("decode errors")
            && first.contains("/dev/pts/"),
        "{stderr}"
    );
    assert_eq!(
        stderr.lines().skip(1).collect::<Vec<_>>(),
        String::from_utf8_lossy(&dec.stderr)
            .lines()
            .skip(1)
            .collect::<Vec<_>>(),
        "the same decode-error lines"
    );
}

/// A file as the device: its end is the end of the stream, so a packet cut off there
/// is a decode error, as in `etrace decode`.
#[test]
fn truncated_stream_file_is_a_decode_error_like_etrace_decode() {
    let (bytes, _) = rtl_stream();
    let cut = &bytes[..bytes.len() - 1];
    let out = capture_file("cut.encap", cut, &["--format", "elements"]);
    assert_code(&out, 1, "capture");
    let dec = decode(cut, "cut2.encap", "elements");
    assert_code(&dec, 1, "decode");
    assert_eq!(out.stdout, dec.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: 1 decode errors ("), "{stderr}");
    assert!(stderr.contains("truncated packet"), "{stderr}");
}

/// Exit code 2 and a first stderr line `error: ...` containing every `needle`.
fn assert_input_error(out: &Output, needles: &[&str]) {
    assert_code(out, 2, "usage error");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "first line: {first}");
    for n in needles {
        assert!(first.contains(n), "`{n}` not in: {first}");
    }
}

#[test]
fn bad_device_baud_framing_and_timeout_are_usage_errors() {
    let e = elf();
    let pty = openpty();
    let p = pty.path.as_str();
    for (args, needles) in [
        (
            vec!["--serial", "/nonexistent/tty"],
            &["cannot open", "/nonexistent/tty"][..],
        ),
        (
            vec!["--serial", p, "--baud", "123456"],
            &["baud rate 123456", "--baud"],
        ),
        (
            vec!["--serial", p, "--framing", "smi"],
            &["encap", "--framing"],
        ),
        (
            vec!["--serial", p, "--timeout", "0"],
            &["seconds", "--timeout"],
        ),
    ] {
        let mut command = vec!["capture"];
        command.extend(args);
        command.extend(["--elf", &e]);
        assert_input_error(&etrace(&command), needles);
    }
    let out = etrace(&["capture", "--serial", p, "--elf", "/nonexistent.elf"]);
    assert_input_error(&out, &["/nonexistent.elf"]);
}

#[test]
fn nothing_received_is_a_failed_check() {
    let pty = openpty();
    let out = etrace(&[
        "capture",
        "--serial",
        &pty.path,
        "--elf",
        &elf(),
        "--timeout",
        "0.3",
    ]);
    assert_code(&out, 1, "capture");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: no bytes received (--timeout without data)"),
        "{stderr}"
    );
}

/// Bytes that never contain a synchronisation sequence: a clear error, not a panic.
#[test]
fn stream_without_a_sync_sequence_is_a_decode_error() {
    let bytes = [0x21u8, 0x05, 0x22, 0x01, 0x02, 0xff, 0x13];
    let out = capture_file("nosync.bin", &bytes, &[]);
    assert_code(&out, 1, "capture");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no synchronisation point"), "{stderr}");
}

/// Issue 23, a board tracing a running core: the bytes the verilated PicoRV32 SoC's
/// encoder sends through the board tops' UART (1 Mbaud from 12 MHz, Dhrystone in lock step
/// with the hart model, which checks every byte and the decoded trace), fed to `capture`
/// on a pseudo-terminal. The UART cannot keep up, so the FIFO overflows: `capture` decodes
/// every run of the trace the lock step decoded, as `decode` does, and reports the losses.
#[test]
fn capture_of_a_running_core_through_a_slow_uart_reports_the_losses() {
    use etrace_tb::soc::lockstep::{run_with, LockstepConfig, OutputPace};
    let elf_path = common::elf("dhrystone-picorv32.elf");
    let program = std::fs::read(&elf_path).unwrap();
    let mut config = LockstepConfig::new(etrace_tb::SocVariant::PicoRv32);
    config.pace = OutputPace::Uart {
        cycles_per_bit: etrace_hdl::board::cycles_per_bit(12_000_000, 1_000_000).unwrap(),
    };
    let mut bytes = Vec::new();
    let outcome = run_with(&program, &config, &mut |piece| {
        bytes.extend_from_slice(piece);
        std::ops::ControlFlow::Continue(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bytes.len() as u64, outcome.bytes);
    assert!(outcome.losses > 1, "{outcome:?}");
    let max = bytes.len().to_string();
    let out = capture_pty(
        &bytes,
        &["--elf", &elf_path, "--format", "pcs", "--max-bytes", &max],
    );
    assert_code(&out, 0, "capture");
    // Dhrystone takes no trap: a decoded step is an instruction.
    assert_eq!(pcs(&out.stdout).len() as u64, outcome.decoded.steps);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reported = outcome.decoded.runs - 1;
    assert!(
        stderr.contains(&format!("trace lost {reported} times")),
        "{stderr}"
    );
    let file = out_dir().join("core.encap");
    std::fs::write(&file, &bytes).unwrap();
    let dec = etrace(&[
        "decode",
        file.to_str().unwrap(),
        "--elf",
        &elf_path,
        "--framing",
        "encap",
        "--format",
        "pcs",
    ]);
    assert_code(&dec, 0, "decode");
    assert_eq!(out.stdout, dec.stdout, "capture and decode agree");
}

/// A read error ends the capture as bad input at the device (exit 2), after the raw file
/// and the decoded output have been written with what was received (a capture is a
/// recording; here nothing, as a directory fails at its first read), not left as `.part`
/// files.
#[test]
fn a_read_error_keeps_what_was_received() {
    let dir = out_dir().join("capture-read-error");
    let device = dir.join("not-a-tty");
    std::fs::create_dir_all(&device).unwrap();
    let raw = dir.join("raw.bin");
    let decoded = dir.join("decoded.txt");
    std::fs::write(&raw, "old").unwrap();
    let out = etrace(&[
        "capture",
        "--serial",
        device.to_str().unwrap(),
        "--elf",
        &elf(),
        "--raw",
        raw.to_str().unwrap(),
        "-o",
        decoded.to_str().unwrap(),
    ]);
    assert_input_error(&out, &["directory", "not-a-tty"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the outputs hold what was received before the error (0 bytes)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&raw).unwrap(), b"");
    assert_eq!(std::fs::read(&decoded).unwrap(), b"");
    assert!(!dir.join("raw.bin.part").exists());
    assert!(!dir.join("decoded.txt.part").exists());
}
