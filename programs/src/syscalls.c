/*
 * syscalls.c - prints as the riscv-tests benchmarks' console does: each line
 * is a `write` system call to the host (HTIF device 0, command 0): the
 * arguments go into a 64-byte aligned block `magic_mem` = [64 (SYS_write),
 * fd 1, buffer, length], `tohost` gets the block's address, and the program
 * polls `fromhost` until the host answers there, clears it and reads the
 * result from magic_mem[0]. spike answers only between its chunks of 5000
 * instructions, so on spike (and on the hart model with --spike-bootrom) the
 * program spins on `fromhost` for up to a chunk per line.
 *
 * What it prints: three lines built from small computations (a sum, a
 * product, a string reversed), each checked against the write's result (the
 * length written), then "syscalls ok".
 *
 * Exit code: 0 when every write returned its length, else the number of the
 * failed check.
 */
#include "runtime.h"

#define SYS_WRITE 64u

static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));

/* One request to the host; its result (magic_mem[0] after the answer). */
static int64_t host_syscall(uint64_t which, uint64_t a0, uint64_t a1, uint64_t a2)
{
	magic_mem[0] = which;
	magic_mem[1] = a0;
	magic_mem[2] = a1;
	magic_mem[3] = a2;
	__sync_synchronize();
	tohost = (uintptr_t)magic_mem;
	while (fromhost == 0)
		;
	fromhost = 0;
	__sync_synchronize();
	return (int64_t)magic_mem[0];
}

/* Writes `n` bytes of `s` to the console; the host's result. */
static int64_t write_out(const char *s, size_t n)
{
	return host_syscall(SYS_WRITE, 1, (uintptr_t)s, n);
}

static size_t length(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* Appends v in decimal at buf + n; the new length. */
static size_t put_dec(char *buf, size_t n, uint32_t v)
{
	char digits[12];
	unsigned k = 0;
	do {
		digits[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (k > 0)
		buf[n++] = digits[--k];
	return n;
}

static size_t put_str(char *buf, size_t n, const char *s)
{
	while (*s)
		buf[n++] = *s++;
	return n;
}

/* Writes the line `label value\n`, checking the result (`check`). */
static void line(int check, const char *label, uint32_t value)
{
	char buf[64];
	size_t n = put_str(buf, 0, label);
	n = put_dec(buf, n, value);
	buf[n++] = '\n';
	CHECK_EQ(check, write_out(buf, n), n);
}

int main(void)
{
	uint32_t sum = 0, product = 1;
	for (uint32_t i = 1; i <= 100; i++)
		sum += i;
	for (uint32_t i = 1; i <= 10; i++)
		product *= i;
	line(1, "sum 1..100 = ", sum);
	line(2, "10! = ", product);
	char word[] = "sllacsys";
	size_t n = length(word);
	for (size_t i = 0; i < n / 2; i++) {
		char c = word[i];
		word[i] = word[n - 1 - i];
		word[n - 1 - i] = c;
	}
	char buf[32];
	size_t k = put_str(buf, 0, word);
	k = put_str(buf, k, " ok\n");
	CHECK_EQ(3, write_out(buf, k), k);
	return 0;
}
