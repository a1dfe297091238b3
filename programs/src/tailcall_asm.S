/*
 * tailcall_asm.S - every kind of jump of ingressPort.adoc's classification,
 * written by hand so that the exact instruction is certain (gcc only emits a
 * few of them). Called from tailcall.c; each function follows the standard
 * calling convention towards its C caller.
 *
 *   asm_tail_jr_t1      itype 10: jr t1 (c.jr t1), target loaded from memory
 *   asm_tail_auipc_jalr itype 10, sequentially inferable: auipc t1 + jalr x0
 *   asm_tail_reg        itype 10: jalr x0, 0(a2) (32-bit form), target in an argument
 *   asm_tail_direct     itype 11: jal x0 (j) to another function
 *   asm_call_t0         itype 9 / 13: jal t0 call, jr t0 return (millicode style)
 *   asm_call_seq        itype 8, sequentially inferable: auipc ra + jalr ra, ra
 *   asm_coroutine       itype 12: c.jalr t0 and jalr t0, ra (co-routine swaps)
 *   asm_link_other      itype 15: jal t1 (other inferable jump with linkage),
 *                       itype 14: jalr a3, a4 (other uninferable jump with linkage),
 *                       each answered by a jr through the same register (itype 10)
 */
	.option norelax

/* Common targets: uint32_t f(uint32_t x) */
	.text
	.align 1
	.type target_double, @function
target_double:
	slli a0, a0, 1
	ret
	.size target_double, . - target_double

	.type target_plus7, @function
target_plus7:
	addi a0, a0, 7
	ret
	.size target_plus7, . - target_plus7

/* uint32_t asm_tail_jr_t1(uint32_t x): tail call through t1 (loaded from a
 * table) -> target_double. */
	.globl asm_tail_jr_t1
	.type asm_tail_jr_t1, @function
asm_tail_jr_t1:
	lla t1, jump_slot
#if __riscv_xlen == 64
	ld t1, 0(t1)
#else
	lw t1, 0(t1)
#endif
	jr t1
	.size asm_tail_jr_t1, . - asm_tail_jr_t1

/* uint32_t asm_tail_auipc_jalr(uint32_t x): auipc immediately followed by
 * the jalr that uses it -> target_plus7. */
	.globl asm_tail_auipc_jalr
	.type asm_tail_auipc_jalr, @function
asm_tail_auipc_jalr:
	addi a0, a0, 1
1:	auipc t1, %pcrel_hi(target_plus7)
	jalr x0, %pcrel_lo(1b)(t1)
	.size asm_tail_auipc_jalr, . - asm_tail_auipc_jalr

/* uint32_t asm_tail_reg(uint32_t x, uint32_t y, uint32_t (*fn)(uint32_t)):
 * tail call to fn(x + y) with a 32-bit jalr x0, 0(a2). */
	.globl asm_tail_reg
	.type asm_tail_reg, @function
asm_tail_reg:
	add a0, a0, a1
	.option push
	.option norvc
	jalr x0, 0(a2)
	.option pop
	.size asm_tail_reg, . - asm_tail_reg

/* uint32_t asm_tail_direct(uint32_t x): j target_double(x + 3). */
	.globl asm_tail_direct
	.type asm_tail_direct, @function
asm_tail_direct:
	addi a0, a0, 3
	j target_double
	.size asm_tail_direct, . - asm_tail_direct

/* Millicode-style leaf called with jal t0 and returning with jr t0. */
	.type milli_mix, @function
milli_mix:
	xor a0, a0, a1
	addi a0, a0, 5
	jr t0
	.size milli_mix, . - milli_mix

/* uint32_t asm_call_t0(uint32_t x, uint32_t y): ((x ^ y) + 5) twice. */
	.globl asm_call_t0
	.type asm_call_t0, @function
asm_call_t0:
	jal t0, milli_mix
	jal t0, milli_mix
	ret
	.size asm_call_t0, . - asm_call_t0

/* uint32_t asm_call_seq(uint32_t x): 2 * (x + 7) through two calls that are
 * auipc ra + jalr ra, ra pairs (the expansion of `call` without relaxation). */
	.globl asm_call_seq
	.type asm_call_seq, @function
asm_call_seq:
	addi sp, sp, -16
#if __riscv_xlen == 64
	sd s0, 0(sp)
	sd ra, 8(sp)
#else
	sw s0, 0(sp)
	sw ra, 4(sp)
#endif
	mv s0, a0
1:	auipc ra, %pcrel_hi(target_plus7)
	jalr ra, %pcrel_lo(1b)(ra)
2:	auipc ra, %pcrel_hi(target_double)
	jalr ra, %pcrel_lo(2b)(ra)
#if __riscv_xlen == 64
	ld s0, 0(sp)
	ld ra, 8(sp)
#else
	lw s0, 0(sp)
	lw ra, 4(sp)
#endif
	addi sp, sp, 16
	ret
	.size asm_call_seq, . - asm_call_seq

/* uint32_t asm_coroutine(uint32_t n): a consumer and a producer that hand
 * control to each other n times with co-routine swaps; the producer yields
 * 3, 6, 9, ... and the consumer sums them: returns 3 * n * (n + 1) / 2.
 * n must be >= 1. */
	.globl asm_coroutine
	.type asm_coroutine, @function
asm_coroutine:
	mv t3, ra               /* our own return address */
	li a1, 0                /* sum */
	lla t0, producer        /* the producer's resume point */
1:
#ifdef __riscv_compressed
	c.jalr t0                /* jalr ra, 0(t0): swap to the producer */
#else
	jalr ra, 0(t0)           /* builds without C (SERV) */
#endif
	add a1, a1, a2
	addi a0, a0, -1
	bnez a0, 1b
	mv a0, a1
	mv ra, t3
	ret

producer:
	li a2, 0
2:	addi a2, a2, 3
	jalr t0, 0(ra)          /* swap back to the consumer */
	j 2b
	.size asm_coroutine, . - asm_coroutine

/* Helpers that return through a non-link register. */
	.type link_t1_helper, @function
link_t1_helper:
	addi a0, a0, 11
	jr t1
	.size link_t1_helper, . - link_t1_helper

	.type link_a3_helper, @function
link_a3_helper:
	slli a0, a0, 2
	jr a3
	.size link_a3_helper, . - link_a3_helper

/* uint32_t asm_link_other(uint32_t x): ((x + 11) * 4) via jal t1 and jalr a3, a4. */
	.globl asm_link_other
	.type asm_link_other, @function
asm_link_other:
	jal t1, link_t1_helper
	lla a4, link_a3_helper
	jalr a3, 0(a4)
	ret
	.size asm_link_other, . - asm_link_other

	.section .rodata
	.align 3
jump_slot:
#if __riscv_xlen == 64
	.dword target_double
#else
	.word target_double
#endif
