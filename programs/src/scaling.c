/*
 * scaling.c - the workload's four parts (workload.c), repeated: a run of any length
 * for the benchmark's "how cost grows" rows (scripts/bench, bench/).
 *
 * `scaling_rounds` is a run-time iteration count. It is 1 in the ELF, so that a plain
 * run is as long as the workload's; the benchmark sets it in the loaded image (as a
 * debugger would set a variable) to run past 10^7 instructions and cuts the run with
 * the hart's instruction limit.
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#define main workload_main
#include "workload.c"
#undef main

volatile uint32_t scaling_rounds = 1;

int main(void)
{
	for (uint32_t r = 0; r < scaling_rounds; r++) {
		test_sorting();
		test_crc();
		test_matmul();
		test_strings();
	}
	puts("scaling ok");
	return 0;
}
