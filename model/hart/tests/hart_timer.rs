//! Interrupts on the hart model: the CLINT machine timer (`mtime` advancing by one every
//! 100 retired instructions, MTIP = `mtime >= mtimecmp`), `wfi` with the timer armed,
//! and the machine software interrupt through `msip` (privileged ISA, "Machine Timer
//! Registers", "Machine Interrupt Registers"); interrupt records have `iretire = 0`,
//! `itype = 2`, `iaddr` the interrupted instruction, `cause` without the interrupt bit
//! (`ingressPort.adoc` `tab:itype`, conventions of `etrace_spec::ingress`).

mod hart_common;

use etrace_hart::INSNS_PER_RTC_TICK;
use etrace_spec::ingress::{Itype, Privilege};
use hart_common::{run, TARGETS};

#[test]
fn interrupt_records_timer_wfi_and_software() {
    for target in TARGETS {
        let r = run("timer", target);
        let outcome = r.outcome();
        assert_eq!(outcome.exit_code, 0, "{target}");
        let interrupts = r.indices_of(Itype::Interrupt);
        assert_eq!(interrupts.len(), 3, "{target}");
        for &i in &interrupts {
            let rec = r.records[i].0;
            assert_eq!(rec.iretire, 0, "{target}");
            assert!(rec.interrupt, "{target}");
            assert_eq!(rec.tval, 0, "{target}");
            assert_eq!(rec.privilege, Privilege::Machine, "{target}");
            assert_eq!(r.records[i + 1].0.iaddr, r.at("handler"), "{target}");
        }
        // 1: mtimecmp = 3: pending once 3 * 100 instructions have retired.
        let first = r.records[interrupts[0]].0;
        assert_eq!(first.cause, 7, "{target}");
        assert_eq!(interrupts[0] as u64, 3 * INSNS_PER_RTC_TICK, "{target}");
        let spin = r.at("spin");
        assert!(
            (spin..spin + 8).contains(&first.iaddr),
            "{target}: {first:?}"
        );
        // 2: wfi retires, mtime jumps to mtimecmp, the interrupt comes before the next
        // instruction.
        let second = r.records[interrupts[1]].0;
        assert_eq!(second.cause, 7, "{target}");
        assert_eq!(second.iaddr, r.at("after_wfi"), "{target}");
        let wfi = r.records[interrupts[1] - 1].0;
        assert_eq!((wfi.iaddr, wfi.iretire), (r.at("wfi_point"), 1), "{target}");
        // 3: the store to msip is followed by the software interrupt.
        let third = r.records[interrupts[2]].0;
        assert_eq!(third.cause, 3, "{target}");
        assert_eq!(third.iaddr, r.at("after_msip"), "{target}");
        assert_eq!(outcome.trap_count(true, 7), 2, "{target}");
        assert_eq!(outcome.trap_count(true, 3), 1, "{target}");
        assert_eq!(outcome.exceptions(), 0, "{target}");
        assert!(r.hart.mtime() >= 1000, "{target}: mtime {}", r.hart.mtime());
        let mcause = r.hart.read_csr(0x342).unwrap();
        let interrupt_bit = if target == "rv32" { 1 << 31 } else { 1 << 63 };
        assert_eq!(mcause, interrupt_bit | 3, "{target}: mcause");
    }
}
