/*
 * scaling.c - the workload's four parts (workload.c), repeated: a run of any length
 * for the benchmark's "how cost grows" rows (scripts/bench, bench/).
 *
 * Two run-time iteration counts set the length; the benchmark sets them in a copy of
 * the ELF or in the loaded image (as a debugger would set a variable):
 *   - `scaling_rounds` (1 in the ELF, so that a plain run is as long as the
 *     workload's): the four parts, about 1.6 million instructions a round;
 *   - `scaling_steps` (0 in the ELF): after the rounds, small steps of the same kinds
 *     of code (a recursive quicksort of 64 numbers, CRC-32 of 256 bytes bitwise and by
 *     table, a string copy and compare), about 2 * 10^4 instructions each, for runs
 *     shorter than a round (10^5 instructions and up);
 *   - `scaling_spin` (0 in the ELF): last, a loop of that many turns of 5 instructions
 *     whose one branch is always taken until the end: with branch prediction, one
 *     format 0 packet for the whole loop, however long (the decoder sees none of its
 *     instructions until the loop ends).
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#define main workload_main
#include "workload.c"
#undef main

/* Both in .data (not .bss), so that a copy of the ELF file can set them. */
volatile uint32_t scaling_rounds = 1;
volatile uint32_t scaling_steps __attribute__((section(".data"))) = 0;
volatile uint32_t scaling_spin __attribute__((section(".data"))) = 0;
/* The spin loop's result, kept so that the loop is. */
volatile uint32_t spin_result;

#define STEP_N 64
static uint32_t step_data[STEP_N];
static char step_text[16];

/* One step: about 2 * 10^4 instructions, self-checked. */
static void scaling_step(uint32_t s)
{
	rng_state = 0x2545f491u + s;
	for (uint32_t i = 0; i < STEP_N; i++)
		step_data[i] = rng();
	uint32_t crc = crc32_bitwise((const uint8_t *)step_data, sizeof step_data);
	CHECK_EQ(40, crc32_table((const uint8_t *)step_data, sizeof step_data), crc);
	quicksort(step_data, 0, STEP_N - 1);
	CHECK(41, is_sorted(step_data, STEP_N));
	const char *word = words[s & 15];
	my_strcpy(step_text, word);
	CHECK_EQ(42, my_strcmp(step_text, word), 0);
}

int main(void)
{
	for (uint32_t r = 0; r < scaling_rounds; r++) {
		test_sorting();
		test_crc();
		test_matmul();
		test_strings();
	}
	uint32_t steps = scaling_steps;
	if (steps != 0)
		crc32_init_table();
	for (uint32_t s = 0; s < steps; s++)
		scaling_step(s);
	uint32_t turns = scaling_spin, x = 0;
	for (uint32_t i = 0; i < turns; i++)
		x += i ^ (x >> 3);
	spin_result = x;
	puts("scaling ok");
	return 0;
}
