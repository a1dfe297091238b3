/*
 * recursion.c - calls and returns, many levels deep.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 9 (inferable call, jal ra) and itype 13 (return, ret) in large
 *     numbers, with call depths far beyond any return-address stack: a chain
 *     of 48 distinct non-inlined functions, a 100-deep self recursion, the
 *     doubly recursive fib and the Ackermann function (depth about 60);
 *   - itype 11 (inferable jump): gcc turns ack's tail calls into jumps;
 *   - itype 4/5 branches between the calls.
 * Meant for the call-counter / return-stack logic of the encoder (implicit
 * return, irdepth) and for te_inst format 1/2 packets after each return
 * (an uninferable discontinuity).
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

/* Doubly recursive Fibonacci: fib(18) makes 8361 calls. */
NOINLINE static uint32_t fib(uint32_t n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

/* Ackermann-Peter function; ack(3, 3) = 61 makes 2432 calls. */
NOINLINE static uint32_t ack(uint32_t m, uint32_t n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

/* Self recursion 100 deep; the result is mixed after the call returns, so
 * gcc cannot turn it into a loop. */
NOINLINE static uint32_t depth_sum(uint32_t n)
{
	if (n == 0)
		return 1;
	uint32_t r = depth_sum(n - 1);
	return r + (r >> 5) + n;
}

/* Hofstadter's mutually recursive female/male sequences. */
NOINLINE static uint32_t hof_m(uint32_t n);
NOINLINE static uint32_t hof_f(uint32_t n)
{
	return n == 0 ? 1 : n - hof_m(hof_f(n - 1));
}
NOINLINE static uint32_t hof_m(uint32_t n)
{
	return n == 0 ? 0 : n - hof_f(hof_m(n - 1));
}

/* A chain of 48 distinct functions, each calling the next and then mixing
 * the result: 48 nested frames with 48 different return addresses. */
NOINLINE static uint32_t level48(uint32_t x)
{
	return x ^ 0x5a5a5a5au;
}

#define LEVEL(k, next)                                      \
	NOINLINE static uint32_t level##k(uint32_t x)       \
	{                                                   \
		uint32_t r = next(x * 3u + (k));            \
		return (r ^ (r >> 1)) + (k);                \
	}

LEVEL(47, level48)
LEVEL(46, level47)
LEVEL(45, level46)
LEVEL(44, level45)
LEVEL(43, level44)
LEVEL(42, level43)
LEVEL(41, level42)
LEVEL(40, level41)
LEVEL(39, level40)
LEVEL(38, level39)
LEVEL(37, level38)
LEVEL(36, level37)
LEVEL(35, level36)
LEVEL(34, level35)
LEVEL(33, level34)
LEVEL(32, level33)
LEVEL(31, level32)
LEVEL(30, level31)
LEVEL(29, level30)
LEVEL(28, level29)
LEVEL(27, level28)
LEVEL(26, level27)
LEVEL(25, level26)
LEVEL(24, level25)
LEVEL(23, level24)
LEVEL(22, level23)
LEVEL(21, level22)
LEVEL(20, level21)
LEVEL(19, level20)
LEVEL(18, level19)
LEVEL(17, level18)
LEVEL(16, level17)
LEVEL(15, level16)
LEVEL(14, level15)
LEVEL(13, level14)
LEVEL(12, level13)
LEVEL(11, level12)
LEVEL(10, level11)
LEVEL(9, level10)
LEVEL(8, level9)
LEVEL(7, level8)
LEVEL(6, level7)
LEVEL(5, level6)
LEVEL(4, level5)
LEVEL(3, level4)
LEVEL(2, level3)
LEVEL(1, level2)
LEVEL(0, level1)

/* Recursive walk of a complete binary tree of 127 nodes (implicit, in an
 * array): in-order sum of node values weighted by depth. */
#define TREE_NODES 127
static uint32_t tree_value[TREE_NODES];

NOINLINE static uint32_t tree_walk(uint32_t node, uint32_t depth)
{
	if (node >= TREE_NODES)
		return 0;
	uint32_t left = tree_walk(2 * node + 1, depth + 1);
	uint32_t here = tree_value[node] * depth;
	uint32_t right = tree_walk(2 * node + 2, depth + 1);
	return left + here + right;
}

int main(void)
{
	CHECK_EQ(1, fib(18), 2584);
	CHECK_EQ(2, ack(2, 3), 9);
	CHECK_EQ(3, ack(3, 3), 61);
	CHECK_EQ(4, depth_sum(100), 0x47bfu);
	CHECK_EQ(5, hof_f(20), 13);
	CHECK_EQ(6, hof_m(20), 12);
	CHECK_EQ(7, level0(1), 0xa331a41au);
	CHECK_EQ(8, level0(0xdeadbeefu), 0x2fed0f01u);

	for (uint32_t i = 0; i < TREE_NODES; i++)
		tree_value[i] = i + 1;
	/* Node i (0-based, heap order) is at depth floor(log2(i + 1)). */
	uint32_t expected = 0;
	for (uint32_t i = 0; i < TREE_NODES; i++) {
		uint32_t d = 0;
		while (((i + 1) >> (d + 1)) != 0)
			d++;
		expected += (i + 1) * d;
	}
	CHECK_EQ(9, tree_walk(0, 0), expected);
	return 0;
}
