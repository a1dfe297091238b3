/* Sequentially inferable jumps (sijump), jalr through x0, self-modifying code,
   LR/SC and AMOs, M-extension corner cases. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        .globl si_auipc
si_auipc:
        auipc t1, 0
        .globl si_call
si_call:
        jalr ra, 12(t1)             /* call, sequentially inferable */
        j 1f
        .globl si_func
si_func:
        ret
1:      .globl si_lui
si_lui:
#if __riscv_xlen == 32
        lui t2, %hi(si_target)
        .globl si_jump
si_jump:
        jalr x0, %lo(si_target)(t2) /* tail jump, sequentially inferable */
#else
        auipc t2, 0
        .globl si_jump
si_jump:
        jalr x0, 8(t2)              /* tail jump, sequentially inferable */
#endif
        .globl si_target
si_target:
        mv t3, ra
        la t1, si_func
        .globl nosi_call
nosi_call:
        jalr ra, 0(t1)              /* call, not sequentially inferable */
        /* self-modifying code: the second pass executes the patched instruction */
        li s1, 0
        li s2, 0
        .align 2
again:
        .globl patch
patch:
        .option push
        .option norvc
        addi a0, x0, 1
        .option pop
        add s1, s1, a0
        bnez s2, 2f
        li s2, 1
        la t0, patch
        li t1, 0x00500513           /* addi a0, x0, 5 */
        sw t1, 0(t0)
        fence.i
        j again
2:      /* LR/SC and AMOs */
        la t0, word
        lr.w t1, (t0)               /* 10 */
        addi t1, t1, 1
        sc.w s3, t1, (t0)           /* 0: success */
        sc.w s4, t1, (t0)           /* 1: no reservation */
        li t2, -5
        amomin.w s5, t2, (t0)       /* old 11, new -5 */
        amomaxu.w s6, t2, (t0)      /* old -5, new 0xfffffffb (same) */
        lw s7, 0(t0)                /* -5 */
        /* M extension corner cases */
        li t1, -1
        li t2, 0
        div s8, t1, t2              /* -1 */
        rem s9, t1, t2              /* -1 */
        li t1, 1
        slli t1, t1, __riscv_xlen - 1  /* most negative */
        li t2, -1
        div s10, t1, t2             /* overflow: the dividend */
        rem s11, t1, t2             /* 0 */
        mulhu a2, t2, t2            /* 2^XLEN - 2 */
        mulh a3, t2, t2             /* 0 */
        mulhsu a4, t2, t2           /* -1 */
        EXIT(0)
        TOHOST_SECTION
        .data
        .align 3
word:   .word 10
