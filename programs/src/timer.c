/*
 * timer.c - machine timer and software interrupts, and wfi.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 2 (interrupt), mcause 7 (machine timer) 6 times and mcause 3
 *     (machine software) once; the interrupted instruction does not retire
 *     and is executed after the mret (itype 3) that returns to it;
 *   - interrupts arrive at arbitrary places of a compute loop (branches,
 *     calls, returns), so the trap packets (te_inst format 3, subformat 1,
 *     interrupt = 1) follow all kinds of branch-map states;
 *   - one wfi (retires as a plain instruction, itype 0).
 *
 * Phase 1: mtimecmp = mtime + 20 (about 2000 instructions on the hart
 *   model, where mtime advances once per 100 retired instructions), MTIE
 *   and MIE on; the compute loop runs until 5 timer interrupts were handled
 *   (the handler re-arms mtimecmp each time and disarms it after the fifth).
 * Phase 2 (wfi): with mstatus.MIE off, arm the timer 2 ticks ahead, poll
 *   mip.MTIP until it is pending, execute wfi (it returns at once because
 *   an enabled interrupt is pending, on any implementation), then set
 *   mstatus.MIE: the 6th timer interrupt is taken right after that csrs.
 * Phase 3: MSIE on, msip = 1: one software interrupt; the handler clears msip.
 * Prints "timer ok" at the end.
 *
 * Exit code: 0 when all went as expected, else the number of the failed
 * check (100: an unexpected trap).
 *
 * The SERV build (-DSERV): SERV has the machine timer interrupt only, and no
 * readable mip or mstatus.MPIE. Phase 1 as above; phase 2 with mstatus.MIE
 * off polls mtime until it reaches mtimecmp (no mip, no wfi), then sets
 * mstatus.MIE: the 6th timer interrupt is taken right after that csrs;
 * no phase 3.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

#define INTERVAL 20
#define ROUNDS_MAX 10000
#define TIMER_ARMED_IRQS 5

static volatile uint32_t timer_irqs;
static volatile uint32_t soft_irqs;

void trap_handler(struct trap_frame *f)
{
	if (!(f->cause & INTERRUPT_BIT))
		fail(EXIT_UNEXPECTED_TRAP, "exception in timer test");
#ifndef SERV
	/* Interrupts were enabled where the hart was interrupted. */
	CHECK(20, (f->status & MSTATUS_MPIE) != 0);
#endif
	switch (f->cause & ~INTERRUPT_BIT) {
	case IRQ_M_TIMER:
#ifndef SERV
		CHECK(21, (CSR_READ(mip) & MIP_MTIP) != 0);
#endif
		timer_irqs++;
		if (timer_irqs < TIMER_ARMED_IRQS)
			clint_set_mtimecmp(clint_mtime() + INTERVAL);
		else
			clint_set_mtimecmp(UINT64_MAX);
		break;
	case IRQ_M_SOFT:
		CHECK(22, (CSR_READ(mip) & MIP_MSIP) != 0);
		soft_irqs++;
		clint_set_msip(0);
		break;
	default:
		fail(EXIT_UNEXPECTED_TRAP, "unexpected interrupt");
	}
	/* mepc is the interrupted instruction: resume there. */
}

/* A few hundred instructions of work with calls and branches. */
NOINLINE static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v;
	h *= 0x01000193u;
	return (h << 7) | (h >> 25);
}

NOINLINE static uint32_t compute(void)
{
	uint32_t h = 0x811c9dc5u;
	for (uint32_t i = 0; i < 40; i++) {
		if (i & 1)
			h = mix(h, i);
		else
			h += i * 3;
	}
	return h;
}

int main(void)
{
	/* Phase 1: periodic timer interrupts during a compute loop. */
	uint32_t reference = compute();
	CHECK_EQ(1, reference, 0x78493ac6u);
	clint_set_mtimecmp(clint_mtime() + INTERVAL);
	CSR_SET(mie, MIP_MTIP);
	CSR_SET(mstatus, MSTATUS_MIE);
	uint32_t rounds = 0;
	while (timer_irqs < TIMER_ARMED_IRQS) {
		CHECK_EQ(2, compute(), reference);
		if (++rounds > ROUNDS_MAX)
			fail(3, "no timer interrupt (mtime / mtimecmp / mie)");
	}
	CHECK(4, rounds >= TIMER_ARMED_IRQS);

	/* Phase 2: wfi with the timer pending, then the interrupt. */
	CSR_CLEAR(mstatus, MSTATUS_MIE);
	uint64_t due = clint_mtime() + 2;
	clint_set_mtimecmp(due);
#ifdef SERV
	for (rounds = 0; clint_mtime() < due; rounds++)
		if (rounds > ROUNDS_MAX)
			fail(5, "mtime never reached mtimecmp");
#else
	for (rounds = 0; (CSR_READ(mip) & MIP_MTIP) == 0; rounds++)
		if (rounds > ROUNDS_MAX)
			fail(5, "mip.MTIP never set");
	__asm__ volatile("wfi" ::: "memory");
#endif
	CHECK_EQ(6, timer_irqs, TIMER_ARMED_IRQS);
	CSR_SET(mstatus, MSTATUS_MIE);
	CHECK_EQ(7, timer_irqs, TIMER_ARMED_IRQS + 1);
#ifndef SERV
	CHECK(8, (CSR_READ(mip) & MIP_MTIP) == 0);

	/* Phase 3: one software interrupt through the CLINT's msip. */
	CSR_SET(mie, MIP_MSIP);
	clint_set_msip(1);
	for (rounds = 0; soft_irqs == 0; rounds++)
		if (rounds > ROUNDS_MAX)
			fail(9, "no software interrupt (msip / mie)");
	CHECK_EQ(10, soft_irqs, 1);
#endif

	CSR_CLEAR(mstatus, MSTATUS_MIE);
	CSR_CLEAR(mie, MIP_MTIP | MIP_MSIP);
	puts("timer ok");
	return 0;
}
