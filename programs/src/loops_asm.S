/*
 * loops_asm.S - a branch-only loop with an exactly known branch pattern.
 *
 * uint32_t asm_branch_run(uint32_t n): for i = n down to 1:
 *     if (i & 1) s += i;            (beqz: taken when i is even)
 *     if ((i & 3) == 0) s ^= i;     (bnez: taken unless i % 4 == 0)
 *     loop back                     (bnez: taken while i != 0)
 * returns s. Three conditional branches per iteration and no jump: with
 * n = 200 the 600 branches from entry to `ret` fill the branch map
 * (31 branches) 19 times over. Trace features: itype 4/5 only, then one
 * return (itype 13).
 */
	.text
	.globl asm_branch_run
	.type asm_branch_run, @function
asm_branch_run:
	li a1, 0
1:	andi t0, a0, 1
	beqz t0, 2f
	add a1, a1, a0
2:	andi t0, a0, 3
	bnez t0, 3f
	xor a1, a1, a0
3:	addi a0, a0, -1
	bnez a0, 1b
	mv a0, a1
	ret
	.size asm_branch_run, . - asm_branch_run
