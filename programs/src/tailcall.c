/*
 * tailcall.c - tail calls and the other jumps without linkage.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 11 (inferable jump): gcc -O2 turns calls in tail position into
 *     `j` (jal x0) - a Collatz state machine of mutually tail-calling
 *     functions, and a chain of tail calls a -> b -> c;
 *   - itype 10 (uninferable jump): tail calls through a function pointer
 *     (`jr a5`, c.jr) here, and in tailcall_asm.S `jr t1`, `jalr x0, 0(a2)`
 *     and an auipc + jalr x0 pair (sequentially inferable, sijump);
 *   - itype 8, 9, 12, 13, 14, 15 from the hand-written helpers of
 *     tailcall_asm.S (calls through t0, co-routine swaps, other jumps with
 *     linkage);
 *   - a return (itype 13) that ends a chain of tail calls returns to the
 *     caller of the first function of the chain: the decoder's return
 *     address stack must not push for jumps.
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

uint32_t asm_tail_jr_t1(uint32_t x);
uint32_t asm_tail_auipc_jalr(uint32_t x);
uint32_t asm_tail_reg(uint32_t x, uint32_t y, uint32_t (*fn)(uint32_t));
uint32_t asm_tail_direct(uint32_t x);
uint32_t asm_call_t0(uint32_t x, uint32_t y);
uint32_t asm_call_seq(uint32_t x);
uint32_t asm_coroutine(uint32_t n);
uint32_t asm_link_other(uint32_t x);

/* Collatz steps as a state machine: each state tail-calls the next. */
NOINLINE static uint32_t collatz_odd(uint32_t x, uint32_t steps);
NOINLINE static uint32_t collatz_even(uint32_t x, uint32_t steps)
{
	x >>= 1;
	steps++;
	if (x == 1)
		return steps;
	if (x & 1)
		return collatz_odd(x, steps);
	return collatz_even(x, steps);
}
NOINLINE static uint32_t collatz_odd(uint32_t x, uint32_t steps)
{
	x = 3 * x + 1;
	steps++;
	return collatz_even(x, steps);
}
NOINLINE static uint32_t collatz(uint32_t x)
{
	if (x <= 1)
		return 0;
	if (x & 1)
		return collatz_odd(x, 0);
	return collatz_even(x, 0);
}

/* A chain of tail calls: chain_a -> chain_b -> chain_c -> return. */
NOINLINE static uint32_t chain_c(uint32_t x)
{
	return x * 7u + 1u;
}
NOINLINE static uint32_t chain_b(uint32_t x)
{
	return chain_c(x ^ 0x55u);
}
NOINLINE static uint32_t chain_a(uint32_t x)
{
	return chain_b(x + 9u);
}

/* Tail calls through a function pointer (jr aN). */
typedef uint32_t (*unary_fn)(uint32_t);

NOINLINE static uint32_t op_inc(uint32_t x)
{
	return x + 1;
}
NOINLINE static uint32_t op_neg(uint32_t x)
{
	return 0u - x;
}
NOINLINE static uint32_t op_rot(uint32_t x)
{
	return (x << 5) | (x >> 27);
}

static unary_fn const unary_ops[4] = { op_inc, op_neg, op_rot, chain_a };

NOINLINE static uint32_t apply_indirect(uint32_t which, uint32_t x)
{
	return unary_ops[which & 3](x ^ which);
}

int main(void)
{
	/* Collatz(27) takes 111 steps; sum over 1..40 computed on the host. */
	CHECK_EQ(1, collatz(27), 111);
	uint32_t total = 0;
	for (uint32_t i = 1; i <= 40; i++)
		total += collatz(i);
	CHECK_EQ(2, total, 709);

	CHECK_EQ(3, chain_a(1), ((1u + 9u) ^ 0x55u) * 7u + 1u);

	uint32_t acc = 0x12345678u;
	for (uint32_t i = 0; i < 64; i++)
		acc = apply_indirect(i, acc) + i;
	CHECK_EQ(4, acc, 0x4a6efebbu);

	CHECK_EQ(5, asm_tail_jr_t1(21), 42);
	CHECK_EQ(6, asm_tail_auipc_jalr(10), 18);
	CHECK_EQ(7, asm_tail_reg(3, 4, op_rot), 7u << 5);
	CHECK_EQ(8, asm_tail_direct(4), 14);
	CHECK_EQ(9, asm_call_t0(6, 3), (((6u ^ 3u) + 5u) ^ 3u) + 5u);
	CHECK_EQ(10, asm_call_seq(5), 24);
	CHECK_EQ(11, asm_coroutine(10), 165);
	CHECK_EQ(12, asm_link_other(1), 48);
	return 0;
}
