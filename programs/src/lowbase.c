/*
 * lowbase.c - a program laid out as the Embench builds that the RISC-V trace
 * groups publish their compression results on: linked at 0x2001_0000
 * (common/link-low.ld) with its stack at the top of that 256 KiB region,
 * outside every ELF segment, so it runs only on a machine given the memory
 * map spike is given for them, -m0x20010000:0x40000,0x80000000:0x400000.
 *
 * What it does: a recursive sum with a 256-byte frame per level (40 levels,
 * about 10 KiB of stack near the region's top), a .data table read and
 * rewritten in place, and a scratch buffer in the map's second region
 * (0x8000_0000) written and read back; each result is checked, then
 * "lowbase ok" is printed on the HTIF console.
 *
 * Exit code: 0 when every check holds, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

/* The map's two regions (manifest.toml `memory`). */
#define LOW_BASE 0x20010000u
#define LOW_SIZE 0x40000u
#define HIGH_BASE 0x80000000u
#define SCRATCH_WORDS 1024u

extern char __stack_top[];

static uint32_t table[32] = {
	17, 3, 29, 11, 5, 23, 31, 2, 19, 7, 13, 27, 1, 25, 9, 21,
	30, 4, 16, 12, 28, 8, 24, 0, 20, 14, 6, 26, 10, 18, 22, 15,
};

/* Sum of 1..n through n stack frames of 256 bytes each; the deepest frame's
 * address goes to *deepest. */
NOINLINE static uint32_t frame_sum(uint32_t n, uintptr_t *deepest)
{
	volatile uint32_t frame[64];
	for (uint32_t i = 0; i < 64; i++)
		frame[i] = n + i;
	if (n == 0) {
		*deepest = (uintptr_t)frame;
		return 0;
	}
	return frame[0] + frame_sum(n - 1, deepest) + frame[63] - (n + 63);
}

/* The set of the values of a[0..n) (each below 32) as a bit mask. */
NOINLINE static uint32_t value_set(const uint32_t *a, unsigned n)
{
	uint32_t set = 0;
	for (unsigned i = 0; i < n; i++)
		set |= 1u << (a[i] & 31);
	return set;
}

int main(void)
{
	uintptr_t sp = (uintptr_t)__stack_top;
	CHECK_EQ(1, sp, LOW_BASE + LOW_SIZE);
	uintptr_t deepest = 0;
	CHECK_EQ(2, frame_sum(40, &deepest), 40 * 41 / 2);
	/* The deepest frame lies in the region, 40 frames below its top. */
	CHECK(3, deepest >= LOW_BASE && deepest < sp - 40 * 256);
	/* .data holds a permutation of 0..31, and stays one when every value is
	 * complemented in place. */
	CHECK_EQ(4, value_set(table, 32), 0xffffffffu);
	for (unsigned i = 0; i < 32; i++)
		table[i] ^= 31;
	CHECK_EQ(6, value_set(table, 32), 0xffffffffu);
	volatile uint32_t *scratch = (volatile uint32_t *)HIGH_BASE;
	for (uint32_t i = 0; i < SCRATCH_WORDS; i++)
		scratch[i] = i * 2654435761u;
	uint32_t sum = 0;
	for (uint32_t i = 0; i < SCRATCH_WORDS; i++)
		sum += scratch[i] ^ (i * 2654435761u);
	CHECK_EQ(5, sum, 0);
	puts("lowbase ok");
	return 0;
}
