/*
 * fnptr_switch.c - indirect calls through function pointers and switch
 * statements compiled to jump tables.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 8 (uninferable call): `jalr ra, aN` / `c.jalr aN` through a table
 *     of function pointers and through a struct of callbacks;
 *   - itype 10 (uninferable jump): the jump-table dispatch of dense switch
 *     statements (`lw/ld aN, 0(aN)` + `jr aN`), once per interpreted
 *     bytecode instruction of a tiny stack machine;
 *   - itype 13 (return) from the indirectly called functions.
 * Every uninferable target forces an address into the trace: expect many
 * te_inst format 1 / 2 packets with differential addresses.
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

/* ---- function pointers ---- */
typedef uint32_t (*binop_fn)(uint32_t, uint32_t);

NOINLINE static uint32_t f_add(uint32_t a, uint32_t b)
{
	return a + b;
}
NOINLINE static uint32_t f_sub(uint32_t a, uint32_t b)
{
	return a - b;
}
NOINLINE static uint32_t f_xor(uint32_t a, uint32_t b)
{
	return a ^ b;
}
NOINLINE static uint32_t f_mul(uint32_t a, uint32_t b)
{
	return a * (b | 1u);
}
NOINLINE static uint32_t f_rotl(uint32_t a, uint32_t b)
{
	b &= 31;
	return b ? (a << b) | (a >> (32 - b)) : a;
}
NOINLINE static uint32_t f_max(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}
NOINLINE static uint32_t f_and_not(uint32_t a, uint32_t b)
{
	return a & ~b;
}
NOINLINE static uint32_t f_avg(uint32_t a, uint32_t b)
{
	return (a >> 1) + (b >> 1) + (a & b & 1u);
}

static binop_fn const binops[8] = {
	f_add, f_sub, f_xor, f_mul, f_rotl, f_max, f_and_not, f_avg,
};

/* 256 indirect calls chosen by a pseudo-random sequence. */
NOINLINE static uint32_t run_binops(uint32_t seed)
{
	uint32_t acc = 1;
	for (uint32_t i = 0; i < 256; i++) {
		seed = seed * 1664525u + 1013904223u;
		acc = binops[seed >> 29](acc, seed);
	}
	return acc;
}

/* ---- callbacks in a struct ---- */
struct visitor {
	void (*on_even)(struct visitor *v, uint32_t x);
	void (*on_odd)(struct visitor *v, uint32_t x);
	uint32_t even_sum;
	uint32_t odd_count;
};

NOINLINE static void count_even(struct visitor *v, uint32_t x)
{
	v->even_sum += x;
}
NOINLINE static void count_odd(struct visitor *v, uint32_t x)
{
	(void)x;
	v->odd_count++;
}

NOINLINE static void visit(struct visitor *v, const uint32_t *data, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (data[i] & 1)
			v->on_odd(v, data[i]);
		else
			v->on_even(v, data[i]);
	}
}

/* ---- a stack machine dispatched by a dense switch (jump table) ---- */
enum op {
	OP_HALT,
	OP_PUSH, /* next byte: value 0..255 */
	OP_DUP,
	OP_DROP,
	OP_SWAP,
	OP_OVER,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DEC,
	OP_JNZ, /* next byte: signed offset from the byte after it; pops */
	OP_LOAD, /* next byte: variable index */
	OP_STORE, /* next byte: variable index; pops */
	OP_SHL,
	OP_XOR,
};

NOINLINE static uint32_t vm_run(const uint8_t *code, uint32_t *steps)
{
	uint32_t stack[16];
	uint32_t vars[4] = { 0, 0, 0, 0 };
	uint32_t sp = 0, pc = 0, n = 0;
	for (;;) {
		uint8_t op = code[pc++];
		n++;
		switch (op) {
		case OP_HALT:
			*steps = n;
			return sp ? stack[sp - 1] : 0;
		case OP_PUSH:
			stack[sp++] = code[pc++];
			break;
		case OP_DUP:
			stack[sp] = stack[sp - 1];
			sp++;
			break;
		case OP_DROP:
			sp--;
			break;
		case OP_SWAP: {
			uint32_t t = stack[sp - 1];
			stack[sp - 1] = stack[sp - 2];
			stack[sp - 2] = t;
			break;
		}
		case OP_OVER:
			stack[sp] = stack[sp - 2];
			sp++;
			break;
		case OP_ADD:
			sp--;
			stack[sp - 1] += stack[sp];
			break;
		case OP_SUB:
			sp--;
			stack[sp - 1] -= stack[sp];
			break;
		case OP_MUL:
			sp--;
			stack[sp - 1] *= stack[sp];
			break;
		case OP_DEC:
			stack[sp - 1]--;
			break;
		case OP_JNZ: {
			int8_t off = (int8_t)code[pc++];
			if (stack[--sp] != 0)
				pc += (uint32_t)(int32_t)off;
			break;
		}
		case OP_LOAD:
			stack[sp++] = vars[code[pc++] & 3];
			break;
		case OP_STORE:
			vars[code[pc++] & 3] = stack[--sp];
			break;
		case OP_SHL:
			sp--;
			stack[sp - 1] <<= (stack[sp] & 31);
			break;
		case OP_XOR:
			sp--;
			stack[sp - 1] ^= stack[sp];
			break;
		default:
			*steps = n;
			return 0xdeadu;
		}
	}
}

/* factorial(12) = 479001600: v0 = 1; v1 = 12; do { v0 *= v1; v1--; } while (v1) */
static const uint8_t prog_fact[] = {
	OP_PUSH, 1, OP_STORE, 0, OP_PUSH, 12, OP_STORE, 1,
	/* loop (offset 8): */
	OP_LOAD, 0, OP_LOAD, 1, OP_MUL, OP_STORE, 0,
	OP_LOAD, 1, OP_DEC, OP_DUP, OP_STORE, 1, OP_JNZ, (uint8_t)-15,
	OP_LOAD, 0, OP_HALT,
};

/* Sum of squares 1..100 (338350) xor a shift hash of 100..1:
 * v0 = 0; v1 = 100; v2 = 0;
 * do { v0 += v1 * v1; v2 = (v2 << 1) ^ v1; } while (--v1); result v0 ^ v2 */
static const uint8_t prog_squares[] = {
	OP_PUSH, 0, OP_STORE, 0, OP_PUSH, 100, OP_STORE, 1, OP_PUSH, 0, OP_STORE, 2,
	/* loop (offset 12): */
	OP_LOAD, 1, OP_DUP, OP_MUL, OP_LOAD, 0, OP_ADD, OP_STORE, 0,
	OP_LOAD, 2, OP_PUSH, 1, OP_SHL, OP_LOAD, 1, OP_XOR, OP_STORE, 2,
	OP_LOAD, 1, OP_DEC, OP_DUP, OP_STORE, 1, OP_JNZ, (uint8_t)-27,
	OP_LOAD, 2, OP_LOAD, 0, OP_SWAP, OP_OVER, OP_DROP, OP_XOR, OP_HALT,
};

int main(void)
{
	CHECK_EQ(1, run_binops(7), 0xbbeefbcbu);

	uint32_t data[64];
	for (uint32_t i = 0; i < 64; i++)
		data[i] = i * i + 3 * i;
	struct visitor v = { count_even, count_odd, 0, 0 };
	visit(&v, data, 64);
	uint32_t even_sum = 0, odd_count = 0;
	for (uint32_t i = 0; i < 64; i++) {
		if (data[i] & 1)
			odd_count++;
		else
			even_sum += data[i];
	}
	CHECK_EQ(2, v.even_sum, even_sum);
	CHECK_EQ(3, v.odd_count, odd_count);

	uint32_t steps = 0;
	CHECK_EQ(4, vm_run(prog_fact, &steps), 479001600u);
	CHECK_EQ(5, steps, 4 + 12 * 9 + 2);
	CHECK_EQ(6, vm_run(prog_squares, &steps), 0x7b86add7u);
	CHECK_EQ(7, steps, 6 + 100 * 17 + 7);
	return 0;
}
