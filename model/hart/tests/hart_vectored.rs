//! Vectored trap vectors (privileged ISA, "Machine Trap-Vector Base-Address Register":
//! MODE 1, interrupts go to BASE + 4 * cause) for M and for S, and interrupt delegation
//! through `mideleg` (the supervisor software interrupt taken in S).

mod hart_common;

use etrace_spec::ingress::{Itype, Privilege};
use hart_common::{run, TARGETS};

#[test]
fn vectored_interrupts_and_delegation() {
    for target in TARGETS {
        let r = run("vectored", target);
        assert_eq!(r.outcome().exit_code, 0, "{target}");
        let ints = r.indices_of(Itype::Interrupt);
        assert_eq!(ints.len(), 2, "{target}");
        // (cause, priv at the interrupt, iaddr, handler entry, handler priv)
        let expected = [
            (
                3,
                Privilege::Machine,
                r.at("m_after"),
                r.at("mvec") + 12,
                Privilege::Machine,
            ),
            (
                1,
                Privilege::Supervisor,
                r.at("s_after"),
                r.at("svec") + 4,
                Privilege::Supervisor,
            ),
        ];
        for (&i, &(cause, privilege, iaddr, entry, handler_priv)) in ints.iter().zip(&expected) {
            let rec = r.records[i].0;
            assert_eq!(
                (rec.cause, rec.privilege, rec.iaddr),
                (cause, privilege, iaddr),
                "{target}"
            );
            let next = r.records[i + 1].0;
            assert_eq!(
                (next.iaddr, next.privilege),
                (entry, handler_priv),
                "{target}"
            );
        }
        // The ecall from S is an exception: not vectored, to mtvec base.
        let i = r.index_at("s_ecall");
        assert_eq!(r.records[i].0.cause, 9, "{target}");
        assert_eq!(r.records[i + 1].0.iaddr, r.at("mvec"), "{target}");
        let scause = r.hart.read_csr(0x142).unwrap();
        let bit = if target == "rv32" { 1 << 31 } else { 1 << 63 };
        assert_eq!(scause, bit | 1, "{target}: scause");
    }
}
