/*
 * loops.c - long runs of conditional branches without uninferable jumps.
 *
 * Trace features (ingressPort.adoc, table tab:itype): itype 4 (not taken)
 * and 5 (taken) branches, hundreds to thousands of them between two
 * uninferable discontinuities (each function body runs without calls; the
 * only uninferable jump is its final `ret`). Meant for the branch map:
 * te_inst format 1 packets with a full map of 31 branches, a branch count
 * that keeps growing across many packets, data-dependent taken/not-taken
 * patterns, nested loops and loop exits. The hand-written loop of
 * loops_asm.S gives an exactly known pattern.
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

uint32_t asm_branch_run(uint32_t n);

/* 200 iterations of a xorshift generator with four data-dependent
 * branches each, no calls. */
NOINLINE static uint32_t branchy_loop(uint32_t seed)
{
	uint32_t x = seed, a = 0, b = 0, c = 0;
	for (uint32_t i = 0; i < 200; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (x & 0x100)
			a += x >> 24;
		if ((x & 7) == 3)
			b ^= x;
		else if (x & 0x8000)
			c += 1;
		if (a > b)
			a -= b >> 28;
	}
	return a ^ b ^ (c << 16);
}

/* Three nested loops: count the triples (i, j, k), 0 <= i < j < k < 20,
 * whose sum is divisible by 7. */
NOINLINE static uint32_t nested_triples(void)
{
	uint32_t count = 0;
	for (uint32_t i = 0; i < 20; i++)
		for (uint32_t j = i + 1; j < 20; j++)
			for (uint32_t k = j + 1; k < 20; k++)
				if ((i + j + k) % 7 == 0)
					count++;
	return count;
}

/* Bubble sort with early exit: nested loops, data-dependent swaps. */
NOINLINE static void bubble_sort(uint32_t *a, uint32_t n)
{
	for (uint32_t i = 0; i + 1 < n; i++) {
		uint32_t swapped = 0;
		for (uint32_t j = 0; j + 1 < n - i; j++) {
			if (a[j] > a[j + 1]) {
				uint32_t t = a[j];
				a[j] = a[j + 1];
				a[j + 1] = t;
				swapped = 1;
			}
		}
		if (!swapped)
			break;
	}
}

/* Sieve of Eratosthenes below 2000: returns the number of primes. */
#define SIEVE_N 2000
static uint8_t composite[SIEVE_N];

NOINLINE static uint32_t sieve(void)
{
	uint32_t count = 0;
	for (uint32_t i = 2; i < SIEVE_N; i++) {
		if (composite[i])
			continue;
		count++;
		for (uint32_t j = i * i; j < SIEVE_N; j += i)
			composite[j] = 1;
	}
	return count;
}

int main(void)
{
	CHECK_EQ(1, branchy_loop(0x12345678u), 0x438d101fu);
	CHECK_EQ(2, nested_triples(), 163);

	uint32_t a[64];
	uint32_t x = 0xcafef00du;
	for (uint32_t i = 0; i < 64; i++) {
		x = x * 1103515245u + 12345u;
		a[i] = x >> 16;
	}
	bubble_sort(a, 64);
	uint32_t weighted = 0;
	for (uint32_t i = 0; i < 64; i++) {
		CHECK(3, i == 0 || a[i - 1] <= a[i]);
		weighted += a[i] * (i + 1);
	}
	CHECK_EQ(4, weighted, 0x058671deu);

	CHECK_EQ(5, sieve(), 303);
	CHECK_EQ(6, asm_branch_run(200), 0x2e14u);
	return 0;
}
