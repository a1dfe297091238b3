/*
 * runtime.h - the tiny bare-metal runtime shared by the project's test programs.
 *
 * Target machine (spike-like): RAM at 0x8000_0000, entry `_start` in M-mode,
 * CLINT at 0x0200_0000 (msip +0, mtimecmp +0x4000, mtime +0xbff8), HTIF through
 * the `tohost` / `fromhost` symbols (section `.tohost`), no PMP.
 *
 * The start-up code (crt0.S) sets up gp, sp and mtvec, clears .bss, calls
 * main() and passes its return value to exit().
 */
#ifndef RUNTIME_H
#define RUNTIME_H

#include <stddef.h>
#include <stdint.h>

/* ---- CSR access ---------------------------------------------------------- */
#define CSR_READ(csr)                                                  \
	({                                                             \
		uintptr_t v_;                                          \
		__asm__ volatile("csrr %0, " #csr : "=r"(v_)::"memory"); \
		v_;                                                    \
	})
#define CSR_WRITE(csr, val) \
	__asm__ volatile("csrw " #csr ", %0" ::"r"((uintptr_t)(val)) : "memory")
#define CSR_SET(csr, val) \
	__asm__ volatile("csrs " #csr ", %0" ::"r"((uintptr_t)(val)) : "memory")
#define CSR_CLEAR(csr, val) \
	__asm__ volatile("csrc " #csr ", %0" ::"r"((uintptr_t)(val)) : "memory")

#define MSTATUS_SIE 0x2u
#define MSTATUS_MIE 0x8u
#define MSTATUS_SPIE 0x20u
#define MSTATUS_MPIE 0x80u
#define MSTATUS_SPP 0x100u
#define MSTATUS_MPP 0x1800u
#define MSTATUS_MPP_SHIFT 11

#define PRV_U 0u
#define PRV_S 1u
#define PRV_M 3u

#define MIP_MSIP (1u << 3)
#define MIP_MTIP (1u << 7)

/* mcause / scause values (privileged spec, table "cause values"). */
#define INTERRUPT_BIT ((uintptr_t)1 << (__riscv_xlen - 1))
#define CAUSE_MISALIGNED_LOAD 4u
#define CAUSE_MISALIGNED_STORE 6u
#define CAUSE_ILLEGAL_INSTRUCTION 2u
#define CAUSE_BREAKPOINT 3u
#define CAUSE_USER_ECALL 8u
#define CAUSE_SUPERVISOR_ECALL 9u
#define CAUSE_MACHINE_ECALL 11u
#define IRQ_M_SOFT 3u
#define IRQ_M_TIMER 7u

/* ---- traps --------------------------------------------------------------- */

/*
 * What the trap entry code saves. x[0] is unused, x[2] is the interrupted sp.
 * For M-mode traps cause/epc/tval/status are mcause/mepc/mtval/mstatus, for
 * S-mode traps (_strap_entry) scause/sepc/stval/sstatus. The entry code
 * writes `epc` back to xepc before xRET, so a handler resumes elsewhere by
 * changing it; register values are restored from x[] (a handler may change
 * them, e.g. to return a value in a0 = x[10]).
 */
struct trap_frame {
	uintptr_t x[32];
	uintptr_t cause;
	uintptr_t epc;
	uintptr_t tval;
	uintptr_t status;
};

/* M-mode trap handler, called by _trap_entry (mtvec). Weak default: report
 * the trap and exit(EXIT_UNEXPECTED_TRAP). */
void trap_handler(struct trap_frame *f);
/* S-mode trap handler, called by _strap_entry (stvec); same default. */
void strap_handler(struct trap_frame *f);
extern char _trap_entry[];
extern char _strap_entry[];

/* Size in bytes (2 or 4) of the instruction at `addr`. */
static inline unsigned insn_length(uintptr_t addr)
{
	return ((*(volatile uint16_t *)addr) & 3u) == 3u ? 4u : 2u;
}

/* Instruction bits at `addr` (16 or 32 bits, read as halfwords). */
static inline uint32_t insn_bits(uintptr_t addr)
{
	uint32_t lo = *(volatile uint16_t *)addr;
	if ((lo & 3u) != 3u)
		return lo;
	return lo | ((uint32_t)(*(volatile uint16_t *)(addr + 2)) << 16);
}

/* ---- CLINT ----------------------------------------------------------------- */
#define CLINT_BASE 0x02000000u
#define CLINT_MSIP (CLINT_BASE + 0x0u)
#define CLINT_MTIMECMP (CLINT_BASE + 0x4000u)
#define CLINT_MTIME (CLINT_BASE + 0xbff8u)

uint64_t clint_mtime(void);
void clint_set_mtimecmp(uint64_t value);
static inline void clint_set_msip(uint32_t value)
{
	*(volatile uint32_t *)CLINT_MSIP = value;
}

/* ---- HTIF console and exit ------------------------------------------------ */
extern volatile uint64_t tohost;
extern volatile uint64_t fromhost;

/* Ends the run: stores (code << 1) | 1 to tohost (crt0.S). */
void exit(int code) __attribute__((noreturn));
/* HTIF console (device 1, command 1): one character per request. */
int putchar(int c);
/* Writes the string and a newline. */
int puts(const char *s);
/* Writes the string, no newline. */
void print(const char *s);
/* Writes `digits` hex digits of v (most significant first). */
void print_hex(uint64_t v, unsigned digits);
/* Writes v in decimal. */
void print_dec(uint32_t v);

/* Exit codes shared by all programs. */
#define EXIT_UNEXPECTED_TRAP 100

/* Prints "FAIL <what>" and exits with `code` (1..99 are the programs'). */
void fail(int code, const char *what) __attribute__((noreturn));
/* Prints "FAIL <what>: got 0x<actual> want 0x<expected>" and exits with `code`. */
void fail_eq(int code, const char *what, uint64_t actual, uint64_t expected)
	__attribute__((noreturn));

/* Exits with `code` unless `cond` holds. */
#define CHECK(code, cond)                    \
	do {                                 \
		if (!(cond))                 \
			fail((code), #cond); \
	} while (0)

/* Exits with `code` unless `actual` == `expected` (compared as 64-bit values). */
#define CHECK_EQ(code, actual, expected)                              \
	do {                                                          \
		uint64_t a_ = (uint64_t)(actual);                     \
		uint64_t e_ = (uint64_t)(expected);                   \
		if (a_ != e_)                                         \
			fail_eq((code), #actual, a_, e_);             \
	} while (0)

/* ---- freestanding helpers gcc may call ----------------------------------- */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
