//! Privilege changes on the hart model: `mret` to S, `sret` to U, an ecall from U
//! delegated to S through `medeleg`, an illegal instruction in U taken to M, `ebreak` in
//! U taken to M (privileged ISA, "Machine Trap Delegation Registers", `mret`/`sret`);
//! `priv` of every record is the level the instruction ran at (`ingressPort.adoc`
//! `tab:priv`), xRET retires with itype 3.

mod hart_common;

use etrace_spec::ingress::{Itype, Privilege};
use hart_common::{run, TARGETS};
use Privilege::{Machine as M, Supervisor as S, User as U};

/// (label, iretire, itype, cause, priv of the record, priv of the next record,
///  label of the next record or "" for the sequential next instruction)
#[allow(clippy::type_complexity)]
const STEPS: &[(&str, u8, Itype, u64, Privilege, Privilege, &str)] = &[
    ("m_mret", 1, Itype::TrapReturn, 0, M, S, "s_entry"),
    ("s_sret", 1, Itype::TrapReturn, 0, S, U, "u_entry"),
    ("u_ecall", 1, Itype::Exception, 8, U, S, "s_handler"),
    ("u_illegal", 0, Itype::Exception, 2, U, M, "m_handler"),
    ("u_ebreak", 1, Itype::Exception, 3, U, M, "m_handler"),
];

#[test]
fn privilege_changes_delegation_and_xret_records() {
    for target in TARGETS {
        let r = run("privilege", target);
        let outcome = r.outcome();
        assert_eq!(outcome.exit_code, 0, "{target}");
        for &(label, iretire, itype, cause, privilege, next_priv, next) in STEPS {
            let i = r.index_at(label);
            let (rec, _) = r.records[i];
            let what = format!("{target} {label}");
            assert_eq!((rec.iretire, rec.itype), (iretire, itype), "{what}");
            assert_eq!(rec.privilege, privilege, "{what}: priv");
            if itype == Itype::Exception {
                assert_eq!(rec.cause, cause, "{what}: cause");
            }
            let (after, _) = r.records[i + 1];
            assert_eq!(after.privilege, next_priv, "{what}: next priv");
            assert_eq!(after.iaddr, r.at(next), "{what}: next address");
        }
        // The S handler returns to U after the ecall, the M handler after the illegal
        // instruction.
        let ecall = r.index_at("u_ecall");
        let back = r.records[ecall..]
            .iter()
            .position(|(rec, _)| rec.itype == Itype::TrapReturn)
            .unwrap()
            + ecall;
        assert_eq!(r.records[back].0.privilege, S, "{target}: sret in S");
        assert_eq!(r.records[back + 1].0.iaddr, r.at("u_illegal"), "{target}");
        assert_eq!(r.records[back + 1].0.privilege, U, "{target}");
        // M -> S -> U -> S -> U -> M -> U -> M
        assert_eq!(outcome.privilege_changes, 7, "{target}");
        assert_eq!(outcome.exceptions(), 3, "{target}");
        for cause in [8, 2, 3] {
            assert_eq!(
                outcome.trap_count(false, cause),
                1,
                "{target}: cause {cause}"
            );
        }
        // CSRs as the traps left them.
        let illegal_bits = r.insn_at("u_illegal");
        assert_eq!(r.record_at("u_illegal").tval, illegal_bits, "{target}");
        let h = &r.hart;
        assert_eq!(h.read_csr(0x142), Some(8), "{target}: scause");
        assert_eq!(
            h.read_csr(0x141),
            Some(r.at("u_ecall") + 4),
            "{target}: sepc"
        );
        assert_eq!(h.read_csr(0x342), Some(3), "{target}: mcause");
        assert_eq!(h.read_csr(0x341), Some(r.at("u_ebreak")), "{target}: mepc");
        assert_eq!(h.read_csr(0x343), Some(r.at("u_ebreak")), "{target}: mtval");
        let mstatus = h.read_csr(0x300).unwrap();
        assert_eq!((mstatus >> 11) & 3, 0, "{target}: mstatus.MPP = U");
        assert_eq!(h.privilege(), M, "{target}");
    }
}
