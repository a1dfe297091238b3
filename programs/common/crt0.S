/*
 * crt0.S - start-up code, trap entries, exit and the HTIF mailbox shared by
 * all C test programs (not used by the pure-assembly `minimal`).
 *
 * _start:       gp, sp, mtvec = _trap_entry, clear .bss, call main, exit(main()).
 * _trap_entry:  M-mode trap entry (mtvec, direct mode): saves x1..x31 and
 *               mcause/mepc/mtval/mstatus in a struct trap_frame on the
 *               current stack, calls trap_handler(frame), writes frame->epc to
 *               mepc, restores the registers, mret.
 * _strap_entry: the same for S-mode traps (stvec) with the s-CSRs, calls
 *               strap_handler(frame), sret.
 * exit(code):   stores (code << 1) | 1 to tohost and loops. On RV32 the high
 *               word is stored first (0), then the low word: the run ends at
 *               the store that sets bit 0.
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

/* struct trap_frame: x[32], cause, epc, tval, status (36 words, 16-byte multiple) */
#define FRAME_WORDS 36
#define FRAME_SIZE (FRAME_WORDS * SZREG)
#define OFF_CAUSE (32 * SZREG)
#define OFF_EPC (33 * SZREG)
#define OFF_TVAL (34 * SZREG)
#define OFF_STATUS (35 * SZREG)

	.section .text.init, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop
	la sp, __stack_top
#ifndef PICORV32
	/* PicoRV32 has no mtvec (no CSRs): its builds take no traps (scripts/build-programs.sh). */
	la t0, _trap_entry
	csrw mtvec, t0
#endif
	la t0, __bss_start
	la t1, __bss_end
1:	bgeu t0, t1, 2f
	REG_S zero, 0(t0)
	addi t0, t0, SZREG
	j 1b
2:	call main
	j exit
	.size _start, . - _start

	.text
/* exit(int code): never returns. */
	.globl exit
	.type exit, @function
exit:
	slli a0, a0, 1
	ori a0, a0, 1
	la t0, tohost
#if __riscv_xlen == 64
	sd a0, 0(t0)
#else
	sw zero, 4(t0)
	sw a0, 0(t0)
#endif
1:	j 1b
	.size exit, . - exit

/* Save x1, x3..x31 (x2 = the sp before the trap) and the four CSRs. */
.macro SAVE_FRAME cause, epc, tval, status
	addi sp, sp, -FRAME_SIZE
	REG_S x1, 1*SZREG(sp)
	REG_S x3, 3*SZREG(sp)
	REG_S x4, 4*SZREG(sp)
	REG_S x5, 5*SZREG(sp)
	REG_S x6, 6*SZREG(sp)
	REG_S x7, 7*SZREG(sp)
	REG_S x8, 8*SZREG(sp)
	REG_S x9, 9*SZREG(sp)
	REG_S x10, 10*SZREG(sp)
	REG_S x11, 11*SZREG(sp)
	REG_S x12, 12*SZREG(sp)
	REG_S x13, 13*SZREG(sp)
	REG_S x14, 14*SZREG(sp)
	REG_S x15, 15*SZREG(sp)
	REG_S x16, 16*SZREG(sp)
	REG_S x17, 17*SZREG(sp)
	REG_S x18, 18*SZREG(sp)
	REG_S x19, 19*SZREG(sp)
	REG_S x20, 20*SZREG(sp)
	REG_S x21, 21*SZREG(sp)
	REG_S x22, 22*SZREG(sp)
	REG_S x23, 23*SZREG(sp)
	REG_S x24, 24*SZREG(sp)
	REG_S x25, 25*SZREG(sp)
	REG_S x26, 26*SZREG(sp)
	REG_S x27, 27*SZREG(sp)
	REG_S x28, 28*SZREG(sp)
	REG_S x29, 29*SZREG(sp)
	REG_S x30, 30*SZREG(sp)
	REG_S x31, 31*SZREG(sp)
	addi t0, sp, FRAME_SIZE
	REG_S t0, 2*SZREG(sp)
	csrr t0, \cause
	REG_S t0, OFF_CAUSE(sp)
	csrr t0, \epc
	REG_S t0, OFF_EPC(sp)
	csrr t0, \tval
	REG_S t0, OFF_TVAL(sp)
	csrr t0, \status
	REG_S t0, OFF_STATUS(sp)
.endm

/* Write frame->epc back to xepc and restore x1, x3..x31 and sp. */
.macro RESTORE_FRAME epc
	REG_L t0, OFF_EPC(sp)
	csrw \epc, t0
	REG_L x1, 1*SZREG(sp)
	REG_L x3, 3*SZREG(sp)
	REG_L x4, 4*SZREG(sp)
	REG_L x5, 5*SZREG(sp)
	REG_L x6, 6*SZREG(sp)
	REG_L x7, 7*SZREG(sp)
	REG_L x8, 8*SZREG(sp)
	REG_L x9, 9*SZREG(sp)
	REG_L x10, 10*SZREG(sp)
	REG_L x11, 11*SZREG(sp)
	REG_L x12, 12*SZREG(sp)
	REG_L x13, 13*SZREG(sp)
	REG_L x14, 14*SZREG(sp)
	REG_L x15, 15*SZREG(sp)
	REG_L x16, 16*SZREG(sp)
	REG_L x17, 17*SZREG(sp)
	REG_L x18, 18*SZREG(sp)
	REG_L x19, 19*SZREG(sp)
	REG_L x20, 20*SZREG(sp)
	REG_L x21, 21*SZREG(sp)
	REG_L x22, 22*SZREG(sp)
	REG_L x23, 23*SZREG(sp)
	REG_L x24, 24*SZREG(sp)
	REG_L x25, 25*SZREG(sp)
	REG_L x26, 26*SZREG(sp)
	REG_L x27, 27*SZREG(sp)
	REG_L x28, 28*SZREG(sp)
	REG_L x29, 29*SZREG(sp)
	REG_L x30, 30*SZREG(sp)
	REG_L x31, 31*SZREG(sp)
	addi sp, sp, FRAME_SIZE
.endm

	.align 2
	.globl _trap_entry
	.type _trap_entry, @function
_trap_entry:
	SAVE_FRAME mcause, mepc, mtval, mstatus
	mv a0, sp
	call trap_handler
	RESTORE_FRAME mepc
	mret
	.size _trap_entry, . - _trap_entry

	.align 2
	.globl _strap_entry
	.type _strap_entry, @function
_strap_entry:
	SAVE_FRAME scause, sepc, stval, sstatus
	mv a0, sp
	call strap_handler
	RESTORE_FRAME sepc
	sret
	.size _strap_entry, . - _strap_entry

/* HTIF mailbox: 64-bit words, tohost and fromhost 64 bytes apart. */
	.section .tohost, "aw", @progbits
	.align 6
	.globl tohost
	.type tohost, @object
tohost:
	.dword 0
	.size tohost, 8
	.align 6
	.globl fromhost
	.type fromhost, @object
fromhost:
	.dword 0
	.size fromhost, 8
