/*
 * minimal.S - the smallest useful trace source: a counted loop, a call, a
 * return and the HTIF exit, in a handful of instructions and no runtime.
 *
 * Trace features (ingressPort.adoc, table tab:itype):
 *   - itype 5 / 4: a backward branch taken 4 times, then not taken once;
 *   - itype 9: an inferable call (jal ra);
 *   - itype 13: a return (ret = jalr x0, 0(ra));
 *   - itype 4: a not-taken forward branch (the self-check);
 *   - the final store to tohost ends the run (exit code 0).
 * Retired instructions (the final store included): 28 on RV32, 27 on RV64.
 */
	.option norelax

	.section .text.init, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	li a0, 0                /* sum */
	li a1, 5                /* counter */
1:	add a0, a0, a1
	addi a1, a1, -1
	bnez a1, 1b             /* 5 + 4 + 3 + 2 + 1 = 15 */
	jal ra, double_it       /* 30 */
	li t1, 30
	bne a0, t1, fail
	li a0, 1                /* (0 << 1) | 1: exit code 0 */
	j done
fail:
	li a0, 3                /* (1 << 1) | 1: exit code 1 */
done:
	la t0, tohost
#if __riscv_xlen == 64
	sd a0, 0(t0)
#else
	sw zero, 4(t0)          /* high word first: the low word's store ends the run */
	sw a0, 0(t0)
#endif
2:	j 2b
	.size _start, . - _start

	.type double_it, @function
double_it:
	slli a0, a0, 1
	ret
	.size double_it, . - double_it

	.section .tohost, "aw", @progbits
	.align 6
	.globl tohost
tohost:
	.dword 0
	.align 6
	.globl fromhost
fromhost:
	.dword 0
