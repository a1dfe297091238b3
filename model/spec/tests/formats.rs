//! Tests of the reference flow's file formats (`etrace_spec::formats`): conversion of a
//! hand-written spike trace into `ingressPort.adoc` records, parameter files of
//! `discovery.adoc` in both syntaxes, error locations, and robustness on mutated inputs.

use etrace_spec::formats::convert::{convert_rows, ConvertOptions, SpikeToIngress};
use etrace_spec::formats::encoder_input::{self, EncoderInputOptions};
use etrace_spec::formats::params_file::{parse_params, ParamsSyntax};
use etrace_spec::formats::spike_csv::{self, SpikeReader};
use etrace_spec::formats::{FormatError, Location};
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;

/// A small RV64 trace: auipc, taken beq, not-taken bne, jal ra (call), ret, c.jr a0,
/// illegal instruction (exception), csrr, mret, ecall from U, mret, interrupt (with the
/// interrupt bit in ECAUSE), mret, auipc t1 + jalr x0,16(t1) (sequentially inferable),
/// and a final beq. ECAUSE and INTERRUPT are left set after traps, as spike does.
const SPIKE_TRACE: &str = "\
VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT
1,80000000,297,3,0,0,0,0
1,80000004,463,3,0,0,0,0
1,8000000c,1463,3,0,0,0,0
1,80000010,10000ef,3,0,0,0,0
1,80000020,8067,3,0,0,0,0
1,80000014,8502,3,0,0,0,0
1,80000030,0,3,1,2,0,0
1,80000100,342022f3,3,0,2,0,0
1,80000104,30200073,3,0,2,0,0
1,80000034,73,0,1,8,0,0
1,80000100,30200073,3,0,8,0,0
1,80000038,317,0,1,8000000000000007,0,1
1,80000100,30200073,3,0,8000000000000007,0,1
1,80000038,317,0,0,8000000000000007,0,1
1,8000003c,1030067,0,0,8000000000000007,0,1
1,80000048,463,0,0,8000000000000007,0,1
";

fn rec(
    itype: Itype,
    iretire: u8,
    iaddr: u64,
    ilastsize: u8,
    privilege: Privilege,
) -> IngressRecord {
    IngressRecord {
        iretire,
        itype,
        iaddr,
        ilastsize,
        privilege,
        interrupt: itype == Itype::Interrupt,
        ..IngressRecord::default()
    }
}

fn expected(width: ItypeWidth) -> Vec<IngressRecord> {
    use Privilege::{Machine as M, User as U};
    let w4 = width == ItypeWidth::W4;
    let pick = |four: Itype, three: Itype| if w4 { four } else { three };
    vec![
        rec(Itype::None, 1, 0x8000_0000, 1, M),
        rec(Itype::TakenBranch, 1, 0x8000_0004, 1, M),
        rec(Itype::NontakenBranch, 1, 0x8000_000c, 1, M),
        rec(
            pick(Itype::InferableCall, Itype::None),
            1,
            0x8000_0010,
            1,
            M,
        ),
        rec(
            pick(Itype::Return, Itype::UninferableJump3),
            1,
            0x8000_0020,
            1,
            M,
        ),
        rec(
            pick(Itype::UninferableJump, Itype::UninferableJump3),
            1,
            0x8000_0014,
            0,
            M,
        ),
        IngressRecord {
            cause: 2,
            ..rec(Itype::Exception, 0, 0x8000_0030, 0, M)
        },
        rec(Itype::None, 1, 0x8000_0100, 1, M),
        rec(Itype::TrapReturn, 1, 0x8000_0104, 1, M),
        IngressRecord {
            cause: 8,
            ..rec(Itype::Exception, 1, 0x8000_0034, 1, U)
        },
        rec(Itype::TrapReturn, 1, 0x8000_0100, 1, M),
        IngressRecord {
            cause: 7,
            ..rec(Itype::Interrupt, 0, 0x8000_0038, 1, U)
        },
        rec(Itype::TrapReturn, 1, 0x8000_0100, 1, M),
        rec(Itype::None, 1, 0x8000_0038, 1, U),
        IngressRecord {
            sijump: true,
            ..rec(
                pick(Itype::UninferableJump, Itype::UninferableJump3),
                1,
                0x8000_003c,
                1,
                U,
            )
        },
        rec(Itype::NontakenBranch, 1, 0x8000_0048, 1, U),
    ]
}

#[test]
fn ingress_port_conversion_itype_width_4() {
    let rows = spike_csv::read_all(SPIKE_TRACE.as_bytes()).unwrap();
    let options = ConvertOptions {
        xlen: Xlen::X64,
        itype_width: ItypeWidth::W4,
    };
    let got = convert_rows(&rows, options).unwrap();
    assert_eq!(got, expected(ItypeWidth::W4));
}

#[test]
fn ingress_port_conversion_itype_width_3() {
    let rows = spike_csv::read_all(SPIKE_TRACE.as_bytes()).unwrap();
    let options = ConvertOptions {
        xlen: Xlen::X64,
        itype_width: ItypeWidth::W3,
    };
    let got = convert_rows(&rows, options).unwrap();
    assert_eq!(got, expected(ItypeWidth::W3));
    assert!(got.iter().all(|r| r.itype.fits_width(ItypeWidth::W3)));
}

#[test]
fn streaming_conversion_equals_list_conversion() {
    let options = ConvertOptions::from_params(&Params::rv64());
    assert_eq!(options.itype_width, ItypeWidth::W4);
    let reader = SpikeReader::new(SPIKE_TRACE.as_bytes());
    let got: Vec<IngressRecord> = SpikeToIngress::new(reader, options)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(got, expected(ItypeWidth::W4));
}

#[test]
fn conversion_then_encoder_input_round_trip() {
    let rows = spike_csv::read_all(SPIKE_TRACE.as_bytes()).unwrap();
    let records = convert_rows(&rows, ConvertOptions::default()).unwrap();
    let options = EncoderInputOptions {
        context: true,
        sijump: true,
    };
    let bytes = encoder_input::write_all(&records, options);
    assert_eq!(encoder_input::read_all(&bytes[..]).unwrap(), records);
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(
        text.lines().nth(12),
        Some("2,7,0,0,80000038,0,0,0,0,1"),
        "interrupt line"
    );
    assert_eq!(text.lines().nth(15), Some("10,0,0,0,8000003c,0,0,1,1,1"));
}

#[test]
fn rv32_conversion_masks_interrupt_bit_and_address() {
    let text = "\
1,ffffffff80000000,13,3,0,0,0,0
1,80000004,13,3,1,80000007,0,1
1,80000100,8082,3,0,0,0,0
";
    let rows = spike_csv::read_all(text.as_bytes()).unwrap();
    let options = ConvertOptions {
        xlen: Xlen::X32,
        itype_width: ItypeWidth::W4,
    };
    let got = convert_rows(&rows, options).unwrap();
    use Privilege::Machine as M;
    assert_eq!(
        got,
        vec![
            rec(Itype::None, 1, 0x8000_0000, 1, M),
            IngressRecord {
                cause: 7,
                ..rec(Itype::Interrupt, 0, 0x8000_0004, 1, M)
            },
            rec(Itype::Return, 1, 0x8000_0100, 0, M),
        ]
    );
}

#[test]
fn conversion_errors_are_located() {
    let text = "1,80000000,13,3,0,0,0,0\n1,80000004,13,2,0,0,0,0\n";
    let reader = SpikeReader::new(text.as_bytes()).with_file_name("t.csv");
    let result: Result<Vec<_>, _> =
        SpikeToIngress::new(reader, ConvertOptions::default()).collect();
    let err = result.unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid value `2` in column PRIVILEGE: reserved privilege code (t.csv line 2, column 4)"
    );
    let text = "1,80000000,1f,3,0,0,0,0\n";
    let rows = spike_csv::read_all(text.as_bytes()).unwrap();
    let err = convert_rows(&rows, ConvertOptions::default()).unwrap_err();
    assert!(matches!(
        err,
        FormatError::InvalidValue {
            column: "INSN",
            at: Location {
                line: 2,
                column: Some(3),
                ..
            },
            ..
        }
    ));
    // VALID=0 rows are skipped.
    let text = "0,80000000,13,3,0,0,0,0\n1,80000004,13,3,0,0,0,0\n";
    let rows = spike_csv::read_all(text.as_bytes()).unwrap();
    let got = convert_rows(&rows, ConvertOptions::default()).unwrap();
    assert_eq!(
        got,
        vec![rec(Itype::None, 1, 0x8000_0004, 1, Privilege::Machine)]
    );
}

/// A static-config file in the reference flow's style (sections, comments, blanks, hex).
const SCF: &str = "\
# static configuration
[Required Attributes]
arch_p=0
iaddress_lsb_p = 1          # compressed instructions
iaddress_width_p=0x40
nocontext_p=0
notime_p=1
context_width_p = 32
ecause_width_p=6
sijump_p=1

[Other Recommended Attributes]
  itype_width_p	= 3
iretire_width_p=1
";

const TOML: &str = "\
# the same parameters as TOML
arch_p = 0
iaddress_lsb_p = 1

[required]
iaddress_width_p = 0x40
nocontext_p = false
notime_p = true
context_width_p = 32
ecause_width_p = 6
sijump_p = true

[other.recommended]
itype_width_p = 3
iretire_width_p = 1
";

fn expected_params() -> Params {
    Params {
        iaddress_width_p: 64,
        nocontext_p: 0,
        notime_p: 1,
        context_width_p: 32,
        ecause_width_p: 6,
        sijump_p: 1,
        itype_width_p: 3,
        iretire_width_p: 1,
        ..Params::default()
    }
}

#[test]
fn discovery_parameters_from_static_config_and_toml_are_equal() {
    let scf = parse_params(SCF, ParamsSyntax::StaticConfig, Params::default(), None).unwrap();
    let toml = parse_params(TOML, ParamsSyntax::Toml, Params::default(), None).unwrap();
    assert_eq!(scf, expected_params());
    assert_eq!(toml, expected_params());
    assert_eq!(ParamsSyntax::detect(SCF), ParamsSyntax::StaticConfig);
    assert_eq!(ParamsSyntax::detect(TOML), ParamsSyntax::Toml);
    // Keys not in the file keep the base's values.
    let over_rv32 = parse_params(
        "itype_width_p=3\n",
        ParamsSyntax::StaticConfig,
        Params::rv32(),
        None,
    )
    .unwrap();
    assert_eq!(
        over_rv32,
        Params {
            itype_width_p: 3,
            ..Params::rv32()
        }
    );
}

#[test]
fn params_files_load_from_disk() {
    let dir = std::env::temp_dir().join(format!("etrace-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scf = dir.join("p.scf");
    let toml = dir.join("p.toml");
    let plain = dir.join("params");
    std::fs::write(&scf, SCF).unwrap();
    std::fs::write(&toml, TOML).unwrap();
    std::fs::write(&plain, SCF).unwrap();
    use etrace_spec::formats::params_file::load_params;
    assert_eq!(
        load_params(&scf, Params::default()).unwrap(),
        expected_params()
    );
    assert_eq!(
        load_params(&toml, Params::default()).unwrap(),
        expected_params()
    );
    assert_eq!(
        load_params(&plain, Params::default()).unwrap(),
        expected_params()
    );
    std::fs::write(&scf, "iaddress_width_p=64\nbogus_p=1\n").unwrap();
    let err = load_params(&scf, Params::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "unknown parameter `bogus_p` ({} line 2, column 1)",
            scf.display()
        )
    );
    let missing = dir.join("missing.toml");
    assert!(matches!(
        load_params(&missing, Params::default()),
        Err(FormatError::File { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn params_file_errors_name_line_and_column() {
    let scf = |t: &str| {
        parse_params(t, ParamsSyntax::StaticConfig, Params::default(), None)
            .unwrap_err()
            .to_string()
    };
    let toml = |t: &str| {
        parse_params(t, ParamsSyntax::Toml, Params::default(), None)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        scf("# c\n[s]\n  bogus_p = 1\n"),
        "unknown parameter `bogus_p` (line 3, column 3)"
    );
    assert_eq!(
        scf("itype_width_p = 5\n"),
        "parameter `itype_width_p` = 5 is out of range 3..=4 (line 1, column 17)"
    );
    assert_eq!(
        scf("itype_width_p = 99999999999999999999999\n"),
        "parameter `itype_width_p` = 99999999999999999999999 is out of range 3..=4 (line 1, column 17)"
    );
    assert_eq!(
        scf("\nitype_width_p = four\n"),
        "parameter `itype_width_p` must be an integer, found `four` (line 2, column 17)"
    );
    assert_eq!(
        scf("itype_width_p 4\n"),
        "syntax error: expected `name=value` (line 1, column 1)"
    );
    assert_eq!(
        scf("itype_width_p =  # none\n"),
        "syntax error: missing value for `itype_width_p` (line 1, column 16)"
    );
    assert_eq!(
        scf("[Required\n"),
        "syntax error: section header without closing `]` (line 1, column 1)"
    );
    assert_eq!(
        toml("[required]\narch_p = 0\n\nbogus_p = 1\n"),
        "unknown parameter `bogus_p` (line 4, column 1)"
    );
    assert_eq!(
        toml("[a]\nitype_width_p = 5\n"),
        "parameter `itype_width_p` = 5 is out of range 3..=4 (line 2, column 17)"
    );
    assert_eq!(
        toml("arch_p = -1\n"),
        "parameter `arch_p` = -1 is out of range 0..=15 (line 1, column 10)"
    );
    assert_eq!(
        toml("itype_width_p = \"4\"\n"),
        "parameter `itype_width_p` must be an integer, found a string (line 1, column 17)"
    );
    assert_eq!(
        toml("itype_width_p = true\n"),
        "parameter `itype_width_p` must be an integer, found a boolean (line 1, column 17)"
    );
    let err = toml("arch_p = 0\nitype_width_p = = 4\n");
    assert!(err.starts_with("syntax error: invalid TOML"), "{err}");
    assert!(err.ends_with("(line 2, column 17)"), "{err}");
    // Errors come in file order, whatever the TOML table structure.
    assert_eq!(
        toml("[z]\nbad1_p = 1\n[a]\nbad2_p = 1\n"),
        "unknown parameter `bad1_p` (line 2, column 1)"
    );
}

/// Cheap deterministic byte mutations of `text`: every truncation, and every byte replaced
/// by a few troublesome bytes.
fn mutations(text: &str) -> Vec<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..bytes.len() {
        out.push(bytes[..i].to_vec());
        for b in [
            b',', b'\n', b'x', b'=', b'#', b'[', b'0', b'f', 0xff, b'"', b'-',
        ] {
            let mut m = bytes.to_vec();
            m[i] = b;
            out.push(m);
        }
    }
    out
}

#[test]
fn mutated_inputs_never_panic() {
    let options = ConvertOptions::default();
    for m in mutations(SPIKE_TRACE) {
        let reader = SpikeReader::new(&m[..]);
        let _ = SpikeToIngress::new(reader, options).count();
        let reader = SpikeReader::new(&m[..]);
        let _ = SpikeToIngress::new(
            reader,
            ConvertOptions {
                xlen: Xlen::X32,
                itype_width: ItypeWidth::W3,
            },
        )
        .count();
    }
    let rows = spike_csv::read_all(SPIKE_TRACE.as_bytes()).unwrap();
    let records = convert_rows(&rows, options).unwrap();
    let text = String::from_utf8(encoder_input::write_all(
        &records,
        EncoderInputOptions {
            context: true,
            sijump: true,
        },
    ))
    .unwrap();
    for m in mutations(&text) {
        let _ = encoder_input::read_all(&m[..]);
    }
    for source in [SCF, TOML] {
        for m in mutations(source) {
            let t = String::from_utf8_lossy(&m);
            for syntax in [ParamsSyntax::StaticConfig, ParamsSyntax::Toml] {
                let _ = parse_params(&t, syntax, Params::default(), None);
            }
        }
    }
}
