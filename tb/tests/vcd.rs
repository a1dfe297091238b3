//! VCD dumps of a verilated encoder (`Rtl::open_vcd`): a file with Verilator's header and
//! the dumped cycles; a missing directory, or a model built without tracing, is an error,
//! not a panic.

use std::path::PathBuf;

use etrace_tb::{Inputs, Rtl, Variant, VcdError};

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("etrace-tb-vcd-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn vcd_file_holds_the_header_and_every_cycle() {
    let dir = temp_dir("ok");
    let path = dir.join("rv32.vcd");
    {
        let mut rtl = Rtl::traced(Variant::Rv32);
        rtl.open_vcd(&path).unwrap();
        assert_eq!(rtl.vcd_path(), Some(path.as_path()));
        rtl.reset(2);
        let inputs = Inputs {
            trace_enable: true,
            ready: true,
            ..Inputs::default()
        };
        for _ in 0..20 {
            rtl.step(&inputs);
        }
        // Dropped here: the file is closed.
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("$enddefinitions"), "VCD header");
    assert!(text.contains(" clock "), "the clock is traced");
    // Two dumps per cycle, clock low at 10 c and high at 10 c + 5: the rising edge of the
    // last of the 22 cycles is at 215.
    assert!(
        text.contains("\n#215\n"),
        "the last cycle's rising edge is dumped"
    );
    assert!(!text.contains("\n#220\n"), "no more than 22 cycles");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vcd_reopened_and_closed_explicitly() {
    let dir = temp_dir("reopen");
    let mut rtl = Rtl::traced(Variant::Rv64Atb16);
    for name in ["a.vcd", "b.vcd"] {
        let path = dir.join(name);
        rtl.open_vcd(&path).unwrap();
        rtl.reset(1);
        rtl.close_vcd();
        assert_eq!(rtl.vcd_path(), None);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("$enddefinitions"), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vcd_into_a_missing_directory_is_an_error() {
    let dir = temp_dir("missing").join("no/such/dir");
    let path = dir.join("x.vcd");
    let mut rtl = Rtl::traced(Variant::Rv32);
    assert_eq!(
        rtl.open_vcd(&path),
        Err(VcdError::MissingDirectory {
            path: path.clone(),
            dir
        })
    );
    assert_eq!(rtl.vcd_path(), None);
    // The model still runs.
    rtl.reset(1);
    assert_eq!(rtl.cycles(), 1);
}

#[test]
fn vcd_onto_a_directory_is_an_error() {
    let dir = temp_dir("isdir");
    let mut rtl = Rtl::traced(Variant::Rv32);
    assert_eq!(
        rtl.open_vcd(&dir),
        Err(VcdError::Open { path: dir.clone() })
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vcd_of_the_fast_build_is_an_error() {
    let dir = temp_dir("untraced");
    let path = dir.join("x.vcd");
    let mut rtl = Rtl::new(Variant::Rv32);
    assert!(!rtl.is_traced());
    let err = rtl.open_vcd(&path).unwrap_err();
    assert_eq!(err, VcdError::Untraced { path: path.clone() });
    assert!(err.to_string().contains("without tracing"), "{err}");
    assert_eq!(rtl.vcd_path(), None);
    assert!(!path.exists(), "no file is created");
    // The model still runs.
    rtl.reset(1);
    assert_eq!(rtl.cycles(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
