/*
 * privilege.c - privilege changes: M -> U -> M and M -> S -> U -> S -> M.
 *
 * Trace features (ingressPort.adoc): the `priv` input changes; itype 3
 * (xRET) for mret into U and S and for sret into U; itype 1 (exception) for
 * ecall from U (mcause 8, to M and, delegated by medeleg, to S), ecall from
 * S (mcause 9) and an illegal instruction in U (a CSR read, mcause 2). On
 * the encoder side: te_inst format 3 packets with the new privilege after
 * each trap and return, and (with context / privilege in the packets) a
 * packet on each privilege change.
 *
 * Phase 1 (M and U): run_in_mode() enters user_phase1() with mret (MPP=U).
 *   U computes, makes an "add" system call (ecall, handled in M, mret back),
 *   reads mstatus (illegal in U: trap to M, skipped), then an "exit" system
 *   call whose handler resumes M-mode in resume_machine.
 * Phase 2 (M, S, U): medeleg delegates U ecalls to S. run_in_mode() enters
 *   supervisor_phase2() in S (mret, MPP=S); S sets stvec and enters
 *   user_phase2() with sret. U makes an "add" system call (handled in S,
 *   sret back) and an "exit" system call; S's handler then makes its own
 *   "exit" system call to M (ecall from S), which resumes M-mode.
 * Finally M checks the results, prints "privilege ok" and exits from M.
 *
 * Needs a hart with S- and U-mode and no PMP (accesses from U/S are not
 * checked), like the reference flow's spike.
 *
 * Exit code: 0 when all went as expected, else the number of the failed
 * check (100: an unexpected trap).
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

#define SYS_EXIT 0
#define SYS_ADD 1

uintptr_t run_in_mode(void (*fn)(void), uintptr_t mpp, uintptr_t stack_top);
void s_enter_user(void (*fn)(void), uintptr_t stack_top) __attribute__((noreturn));
extern char resume_machine[];

#define STACK_WORDS 512
static uintptr_t user_stack1[STACK_WORDS] __attribute__((aligned(16)));
static uintptr_t user_stack2[STACK_WORDS] __attribute__((aligned(16)));
static uintptr_t supervisor_stack[STACK_WORDS] __attribute__((aligned(16)));
#define TOP(stack) ((uintptr_t)&(stack)[STACK_WORDS])

/* What the handlers saw, checked by main(). */
static volatile uint32_t m_user_ecalls, m_super_ecalls, m_user_illegal;
static volatile uint32_t s_user_ecalls;

static inline uintptr_t syscall2(uintptr_t nr, uintptr_t a, uintptr_t b)
{
	register uintptr_t a0 __asm__("a0") = a;
	register uintptr_t a1 __asm__("a1") = b;
	register uintptr_t a7 __asm__("a7") = nr;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
	return a0;
}

static void sys_exit(uintptr_t value) __attribute__((noreturn));
static void sys_exit(uintptr_t value)
{
	syscall2(SYS_EXIT, value, 0);
	fail(30, "sys_exit returned");
}

/* Some work at the current privilege: a small checksum. */
NOINLINE static uint32_t work(uint32_t seed, uint32_t n)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		h = (h ^ (seed >> 24)) * 16777619u;
	}
	return h;
}

/* ---- phase 1: U-mode, traps go to M ---- */
NOINLINE static void user_phase1(void)
{
	uint32_t h = work(1, 50);
	uintptr_t sum = syscall2(SYS_ADD, h, 1000);
	/* Reading mstatus from U-mode is illegal; M skips the instruction. */
	uintptr_t status = 0x5a;
	__asm__ volatile(".option push\n.option norvc\n"
			 "csrr %0, mstatus\n"
			 ".option pop\n"
			 : "+r"(status)
			 :
			 : "memory");
	sys_exit(sum + status - 0x5a - h);
}

/* ---- phase 2: S-mode kernel, U-mode program ---- */
NOINLINE static void user_phase2(void)
{
	uint32_t h = work(2, 40);
	uintptr_t r = syscall2(SYS_ADD, 7, h & 0xff);
	sys_exit(r - (h & 0xff) * 2);
}

NOINLINE static void supervisor_phase2(void)
{
	CSR_WRITE(stvec, (uintptr_t)_strap_entry);
	(void)work(3, 20);
	s_enter_user(user_phase2, TOP(user_stack2));
}

/* S-mode handler: U ecalls only. "add" returns a0 + 2 * a1 to U (sret);
 * "exit" passes a0 + 2000 on to M with an ecall from S. */
void strap_handler(struct trap_frame *f)
{
	CHECK_EQ(40, f->cause, CAUSE_USER_ECALL);
	CHECK_EQ(41, f->status & MSTATUS_SPP, 0);
	s_user_ecalls++;
	if (f->x[17] == SYS_ADD) {
		f->x[10] = f->x[10] + 2 * f->x[11];
		f->epc += 4;
		return;
	}
	CHECK_EQ(42, f->x[17], SYS_EXIT);
	sys_exit(f->x[10] + 2000);
}

/* M-mode handler: ecalls from U and S, the illegal CSR read from U. */
void trap_handler(struct trap_frame *f)
{
	uintptr_t mpp = (f->status & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;
	switch (f->cause) {
	case CAUSE_USER_ECALL:
	case CAUSE_SUPERVISOR_ECALL:
		CHECK_EQ(50, mpp, f->cause == CAUSE_USER_ECALL ? PRV_U : PRV_S);
		if (f->cause == CAUSE_USER_ECALL)
			m_user_ecalls++;
		else
			m_super_ecalls++;
		if (f->x[17] == SYS_ADD) {
			f->x[10] = f->x[10] + f->x[11];
			f->epc += 4;
			return;
		}
		CHECK_EQ(51, f->x[17], SYS_EXIT);
		/* Resume M-mode in resume_machine, a0 stays the exit value. */
		f->epc = (uintptr_t)resume_machine;
		CSR_SET(mstatus, MSTATUS_MPP);
		return;
	case CAUSE_ILLEGAL_INSTRUCTION:
		CHECK_EQ(52, mpp, PRV_U);
		CHECK(53, f->tval == 0 || f->tval == insn_bits(f->epc));
		m_user_illegal++;
		f->epc += insn_length(f->epc);
		return;
	default:
		fail(EXIT_UNEXPECTED_TRAP, "unexpected trap");
	}
}

int main(void)
{
	/* Phase 1: M -> U -> M. */
	uintptr_t r1 = run_in_mode(user_phase1, PRV_U, TOP(user_stack1));
	CHECK_EQ(1, r1, 1000);
	CHECK_EQ(2, m_user_ecalls, 2);
	CHECK_EQ(3, m_user_illegal, 1);
	/* Back in M (reading mstatus would trap otherwise); the mret into
	 * resume_machine left MPP at the least privileged mode, U. */
	CHECK_EQ(4, (CSR_READ(mstatus) & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT, PRV_U);

	/* Phase 2: M -> S -> U -> S -> M, U ecalls delegated to S. */
	CSR_WRITE(medeleg, 1u << CAUSE_USER_ECALL);
	CHECK_EQ(5, CSR_READ(medeleg), 1u << CAUSE_USER_ECALL);
	uintptr_t r2 = run_in_mode(supervisor_phase2, PRV_S, TOP(supervisor_stack));
	CSR_WRITE(medeleg, 0);
	CHECK_EQ(6, r2, 2007);
	CHECK_EQ(7, s_user_ecalls, 2);
	CHECK_EQ(8, m_super_ecalls, 1);
	CHECK_EQ(9, m_user_ecalls, 2);

	puts("privilege ok");
	return 0;
}
