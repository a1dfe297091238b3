/*
 * privilege_asm.S - mode switches for privilege.c.
 *
 * run_in_mode(fn, mpp, stack_top): saves the callee-saved registers, sets
 *   mepc = fn, mstatus.MPP = mpp, mstatus.MPIE = 0, sp = stack_top and
 *   executes mret: fn runs at privilege mpp. It "returns" when the M-mode
 *   trap handler resumes at resume_machine in M-mode (mepc = resume_machine,
 *   MPP = M); the value in a0 at that moment is the return value.
 * s_enter_user(fn, stack_top): in S-mode, sepc = fn, sstatus.SPP = 0,
 *   sp = stack_top, sret: fn runs in U-mode. Does not return.
 */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif

	.text
	.globl run_in_mode
	.type run_in_mode, @function
run_in_mode:
	lla t0, saved_context
	REG_S ra, 0*SZREG(t0)
	REG_S sp, 1*SZREG(t0)
	REG_S s0, 2*SZREG(t0)
	REG_S s1, 3*SZREG(t0)
	REG_S s2, 4*SZREG(t0)
	REG_S s3, 5*SZREG(t0)
	REG_S s4, 6*SZREG(t0)
	REG_S s5, 7*SZREG(t0)
	REG_S s6, 8*SZREG(t0)
	REG_S s7, 9*SZREG(t0)
	REG_S s8, 10*SZREG(t0)
	REG_S s9, 11*SZREG(t0)
	REG_S s10, 12*SZREG(t0)
	REG_S s11, 13*SZREG(t0)
	csrw mepc, a0
	li t0, 0x1880           /* MPP | MPIE */
	csrc mstatus, t0
	slli a1, a1, 11
	csrs mstatus, a1
	mv sp, a2
	mret
	.size run_in_mode, . - run_in_mode

	.globl resume_machine
	.type resume_machine, @function
resume_machine:
	lla t0, saved_context
	REG_L ra, 0*SZREG(t0)
	REG_L sp, 1*SZREG(t0)
	REG_L s0, 2*SZREG(t0)
	REG_L s1, 3*SZREG(t0)
	REG_L s2, 4*SZREG(t0)
	REG_L s3, 5*SZREG(t0)
	REG_L s4, 6*SZREG(t0)
	REG_L s5, 7*SZREG(t0)
	REG_L s6, 8*SZREG(t0)
	REG_L s7, 9*SZREG(t0)
	REG_L s8, 10*SZREG(t0)
	REG_L s9, 11*SZREG(t0)
	REG_L s10, 12*SZREG(t0)
	REG_L s11, 13*SZREG(t0)
	ret
	.size resume_machine, . - resume_machine

	.globl s_enter_user
	.type s_enter_user, @function
s_enter_user:
	csrw sepc, a0
	li t0, 0x100            /* SPP */
	csrc sstatus, t0
	mv sp, a1
	sret
	.size s_enter_user, . - s_enter_user

	.bss
	.align 3
saved_context:
	.zero 14 * SZREG
