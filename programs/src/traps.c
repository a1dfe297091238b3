/*
 * traps.c - synchronous exceptions taken in M-mode and returned from with mret.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 1 (exception) with these mcause values, in this order:
 *       11 ecall from M (retires, 4 bytes),
 *        3 ebreak (4 bytes) and c.ebreak (2 bytes),
 *        2 illegal instruction: c.unimp (0x0000, 2 bytes), unimp
 *          (csrrw x0, cycle, x0: a write to a read-only CSR, 4 bytes) and
 *          `csrw pmpcfg0, zero` (traps on a hart without PMP, like the
 *          reference flow's spike; 4 bytes),
 *        4 misaligned load (lw from an odd address, 4 bytes),
 *        6 misaligned store (sh to an odd address, 4 bytes);
 *     ecall/ebreak retire; the others do not (the trap replaces the
 *     instruction);
 *   - itype 3 (xRET): every handler returns with mret to the instruction
 *     after the trapping one (mepc + 2 or + 4, from the instruction length);
 *   - te_inst format 3 subformat 1 (trap) packets with ecause / interrupt /
 *     thaddr / tval, and the format 3 packet after each mret.
 * The handler (a C function called from crt0.S's _trap_entry) checks mcause,
 * mepc and mtval and records them; main() checks what was recorded. The
 * program prints "traps ok" on the HTIF console at the end.
 *
 * Exit code: 0 when every trap was taken as expected, else the number of
 * the failed check (100: a trap nobody expected).
 *
 * The SERV build (-DSERV) leaves out the illegal instructions (SERV does not
 * detect them) and the check of mstatus.MPP (SERV has M-mode only and reads 0
 * there); a build without the C extension leaves out c.ebreak.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

static volatile uint32_t trap_count[16];
static volatile uintptr_t last_cause;
static volatile uintptr_t last_epc;
static volatile uintptr_t last_tval;
static volatile uintptr_t last_len;

void trap_handler(struct trap_frame *f)
{
	if ((f->cause & INTERRUPT_BIT) || f->cause >= 16)
		fail(EXIT_UNEXPECTED_TRAP, "interrupt or unknown cause");
	uint32_t len = insn_length(f->epc);
	uint32_t bits = insn_bits(f->epc);
	switch (f->cause) {
	case CAUSE_MACHINE_ECALL:
		CHECK(20, f->tval == 0);
		/* A "system call": return a0 * 2 + 1 in a0. */
		f->x[10] = f->x[10] * 2 + 1;
		break;
	case CAUSE_BREAKPOINT:
		/* mtval is the breakpoint address (spike) or 0. */
		CHECK(21, f->tval == f->epc || f->tval == 0);
		break;
	case CAUSE_ILLEGAL_INSTRUCTION:
		/* mtval is the instruction bits (spike) or 0. */
		CHECK(22, f->tval == bits || f->tval == 0);
		break;
	case CAUSE_MISALIGNED_LOAD:
	case CAUSE_MISALIGNED_STORE:
		break;
	default:
		fail(EXIT_UNEXPECTED_TRAP, "unexpected exception");
	}
#ifndef SERV /* SERV's mstatus.MPP reads 0 (it has M-mode only) */
	CHECK(23, (f->status & MSTATUS_MPP) == (PRV_M << MSTATUS_MPP_SHIFT));
#endif
	trap_count[f->cause]++;
	last_cause = f->cause;
	last_epc = f->epc;
	last_tval = f->tval;
	last_len = len;
	f->epc += len;
}

/* Checks the trap recorded last: cause, address and length of the
 * trapping instruction. */
static void expect_trap(int code, uintptr_t cause, uintptr_t epc, uintptr_t len)
{
	CHECK_EQ(code, last_cause, cause);
	CHECK_EQ(code, last_epc, epc);
	CHECK_EQ(code, last_len, len);
}

NOINLINE static void test_ecall(void)
{
	uintptr_t pc;
	register uintptr_t a0 __asm__("a0") = 20;
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: ecall\n"
			 ".option pop\n"
			 : "=&r"(pc), "+r"(a0)
			 :
			 : "memory");
	uintptr_t result = a0; /* read a0 before any call clobbers it */
	expect_trap(1, CAUSE_MACHINE_ECALL, pc, 4);
	CHECK_EQ(2, result, 41);
}

NOINLINE static void test_ebreak(void)
{
	uintptr_t pc;
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: ebreak\n"
			 ".option pop\n"
			 : "=&r"(pc)
			 :
			 : "memory");
	expect_trap(3, CAUSE_BREAKPOINT, pc, 4);
	CHECK_EQ(3, last_tval == 0 || last_tval == pc, 1);
#ifdef __riscv_compressed
	__asm__ volatile("lla %0, 1f\n"
			 "1: c.ebreak\n"
			 : "=&r"(pc)
			 :
			 : "memory");
	expect_trap(4, CAUSE_BREAKPOINT, pc, 2);
#endif
}

#ifndef SERV
NOINLINE static void test_illegal(void)
{
	uintptr_t pc;
	/* c.unimp: the all-zero 16-bit pattern is defined to be illegal. */
	__asm__ volatile("lla %0, 1f\n"
			 "1: .half 0x0000\n"
			 : "=&r"(pc)
			 :
			 : "memory");
	expect_trap(5, CAUSE_ILLEGAL_INSTRUCTION, pc, 2);
	CHECK_EQ(5, last_tval, 0);
	/* unimp: csrrw x0, cycle, x0 (0xc0001073), cycle is read-only. */
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: .word 0xc0001073\n"
			 ".option pop\n"
			 : "=&r"(pc)
			 :
			 : "memory");
	expect_trap(6, CAUSE_ILLEGAL_INSTRUCTION, pc, 4);
	CHECK(6, last_tval == 0 || last_tval == 0xc0001073u);
	/* pmpcfg0 does not exist on a hart without PMP. */
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: csrw pmpcfg0, zero\n"
			 ".option pop\n"
			 : "=&r"(pc)
			 :
			 : "memory");
	expect_trap(7, CAUSE_ILLEGAL_INSTRUCTION, pc, 4);
}
#endif

static uint8_t buffer[16] __attribute__((aligned(8)));

NOINLINE static void test_misaligned(void)
{
	uintptr_t pc;
	uint32_t value = 0x600dcafeu;
	for (uint32_t i = 0; i < 16; i++)
		buffer[i] = (uint8_t)(0xa0 + i);
	/* The load does not happen: `value` keeps its old contents. */
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: lw %1, 0(%2)\n"
			 ".option pop\n"
			 : "=&r"(pc), "+r"(value)
			 : "r"(buffer + 1)
			 : "memory");
	expect_trap(8, CAUSE_MISALIGNED_LOAD, pc, 4);
	CHECK_EQ(8, last_tval, (uintptr_t)(buffer + 1));
	CHECK_EQ(9, value, 0x600dcafeu);
	/* The store does not happen: the buffer keeps its contents. */
	__asm__ volatile(".option push\n.option norvc\n"
			 "lla %0, 1f\n"
			 "1: sh %1, 0(%2)\n"
			 ".option pop\n"
			 : "=&r"(pc)
			 : "r"(value), "r"(buffer + 5)
			 : "memory");
	expect_trap(10, CAUSE_MISALIGNED_STORE, pc, 4);
	CHECK_EQ(10, last_tval, (uintptr_t)(buffer + 5));
	for (uint32_t i = 0; i < 16; i++)
		CHECK_EQ(11, buffer[i], 0xa0 + i);
}

int main(void)
{
	test_ecall();
	test_ebreak();
#ifdef SERV
	const uint32_t illegal = 0;
#else
	const uint32_t illegal = 3;
	test_illegal();
#endif
	test_misaligned();

	CHECK_EQ(12, trap_count[CAUSE_MACHINE_ECALL], 1);
#ifdef __riscv_compressed
	const uint32_t breakpoints = 2;
#else
	const uint32_t breakpoints = 1; /* no c.ebreak */
#endif
	CHECK_EQ(13, trap_count[CAUSE_BREAKPOINT], breakpoints);
	CHECK_EQ(14, trap_count[CAUSE_ILLEGAL_INSTRUCTION], illegal);
	CHECK_EQ(15, trap_count[CAUSE_MISALIGNED_LOAD], 1);
	CHECK_EQ(16, trap_count[CAUSE_MISALIGNED_STORE], 1);
	uint32_t total = 0;
	for (uint32_t i = 0; i < 16; i++)
		total += trap_count[i];
	CHECK_EQ(17, total, 3 + breakpoints + illegal);

	puts("traps ok");
	return 0;
}
