/*
 * exitcode.c - a program that fails: it counts the odd numbers below 10
 * and returns the count, 5, from main, so it exits with code 5 (the store of
 * (5 << 1) | 1 to `tohost`) after printing "exiting with 5". Commands that run
 * it must report the non-zero exit code and fail.
 *
 * Exit code: 5.
 */
#include "runtime.h"

int main(void)
{
	volatile uint32_t limit = 10;
	int odd = 0;
	for (uint32_t i = 0; i < limit; i++)
		odd += (int)(i & 1);
	print("exiting with ");
	print_dec((uint32_t)odd);
	putchar('\n');
	return odd;
}
