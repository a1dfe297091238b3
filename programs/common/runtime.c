/*
 * runtime.c - console, CLINT access, failure reporting, default trap
 * handlers and the mem* helpers for the project's bare-metal test programs.
 *
 * HTIF console request (device 1 "bcd", command 1 "write"):
 *   tohost = (1 << 56) | (1 << 48) | ch
 * then wait until the host has cleared tohost, and clear fromhost (a host
 * like spike answers there). On RV32 the 64-bit request is two stores: the
 * high word first, then the low word; a host acts on the store of the low
 * word (the same order exit() uses). Built with -DNO_CONSOLE (the SoC builds
 * of scripts/build-programs.sh), console output is dropped.
 */
#include "runtime.h"

static void htif_request(uint64_t cmd)
{
#if __riscv_xlen == 64
	tohost = cmd;
	while (tohost != 0)
		;
	fromhost = 0;
#else
	volatile uint32_t *th = (volatile uint32_t *)&tohost;
	volatile uint32_t *fh = (volatile uint32_t *)&fromhost;
	th[1] = (uint32_t)(cmd >> 32);
	th[0] = (uint32_t)cmd;
	while ((th[0] | th[1]) != 0)
		;
	fh[1] = 0;
	fh[0] = 0;
#endif
}

int putchar(int c)
{
#ifdef NO_CONSOLE
	/* The lock-step SoCs have no HTIF host to answer: output is dropped. */
	return (uint8_t)c;
#endif
	htif_request(((uint64_t)1 << 56) | ((uint64_t)1 << 48) | (uint8_t)c);
	return (uint8_t)c;
}

void print(const char *s)
{
	while (*s)
		putchar(*s++);
}

int puts(const char *s)
{
	print(s);
	putchar('\n');
	return 0;
}

void print_hex(uint64_t v, unsigned digits)
{
	while (digits-- > 0)
		putchar("0123456789abcdef"[(v >> (4 * digits)) & 0xf]);
}

void print_dec(uint32_t v)
{
	char buf[12];
	unsigned n = 0;
	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		putchar(buf[--n]);
}

void fail(int code, const char *what)
{
	print("FAIL ");
	puts(what);
	exit(code);
}

void fail_eq(int code, const char *what, uint64_t actual, uint64_t expected)
{
	print("FAIL ");
	print(what);
	print(": got 0x");
	print_hex(actual, 16);
	print(" want 0x");
	print_hex(expected, 16);
	putchar('\n');
	exit(code);
}

uint64_t clint_mtime(void)
{
#if __riscv_xlen == 64
	return *(volatile uint64_t *)CLINT_MTIME;
#else
	volatile uint32_t *t = (volatile uint32_t *)CLINT_MTIME;
	uint32_t hi, lo;
	do {
		hi = t[1];
		lo = t[0];
	} while (t[1] != hi);
	return ((uint64_t)hi << 32) | lo;
#endif
}

void clint_set_mtimecmp(uint64_t value)
{
#if __riscv_xlen == 64
	*(volatile uint64_t *)CLINT_MTIMECMP = value;
#else
	/* No spurious interrupt in between: high word to all ones first. */
	volatile uint32_t *c = (volatile uint32_t *)CLINT_MTIMECMP;
	c[1] = 0xffffffffu;
	c[0] = (uint32_t)value;
	c[1] = (uint32_t)(value >> 32);
#endif
}

static void report_trap(const char *mode, const struct trap_frame *f)
{
	print("unexpected ");
	print(mode);
	print(" trap cause=");
	print_hex(f->cause, __riscv_xlen / 4);
	print(" epc=");
	print_hex(f->epc, __riscv_xlen / 4);
	print(" tval=");
	print_hex(f->tval, __riscv_xlen / 4);
	putchar('\n');
	exit(EXIT_UNEXPECTED_TRAP);
}

__attribute__((weak)) void trap_handler(struct trap_frame *f)
{
	report_trap("M", f);
}

__attribute__((weak)) void strap_handler(struct trap_frame *f)
{
	report_trap("S", f);
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}
