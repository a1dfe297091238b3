/* Every synchronous exception kind in M-mode. The handler logs (mcause, mtval, mepc)
   at `log` and resumes after the trapping instruction (or at ra for a fetch fault). */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        la t0, handler
        csrw mtvec, t0
        la s0, log
        .globl t_illegal
t_illegal:
        .word 0x00004073            /* SYSTEM funct3 100: reserved */
        .globl t_cillegal
t_cillegal:
        .half 0x0000                /* the all-zero parcel */
        .globl t_ebreak
t_ebreak:
        .option push
        .option norvc
        ebreak
        .option pop
        .globl t_cebreak
t_cebreak:
        c.ebreak
        .globl t_ecall
t_ecall:
        ecall
        li t1, 0x80001001
        .globl t_lmis
t_lmis:
        lw t2, 0(t1)
        .globl t_smis
t_smis:
        sh t2, 0(t1)
        .globl t_amomis
t_amomis:
        amoadd.w t2, t2, (t1)
        li t1, 0x10
        .globl t_lacc
t_lacc:
        LREG t2, 0(t1)
        .globl t_sacc
t_sacc:
        SREG t2, 0(t1)
        li t1, 0x40000000
        .globl t_call
t_call:
        jalr ra, 0(t1)              /* retires; the fetch at 0x40000000 faults */
        .globl t_pmpcfg
t_pmpcfg:
        csrw pmpcfg0, zero
        .globl t_pmpaddr
t_pmpaddr:
        csrr t2, pmpaddr0
        .globl t_ro
t_ro:
        csrw mhartid, zero
        .globl t_fp
t_fp:
        fadd.d f0, f0, f0           /* mstatus.FS is Off */
        EXIT(0)

        .align 2
        .globl handler
handler:
        csrr t3, mcause
        csrr t4, mtval
        csrr t5, mepc
        SREG t3, 0(s0)
        SREG t4, REGBYTES(s0)
        SREG t5, 2*REGBYTES(s0)
        addi s0, s0, 3*REGBYTES
        li t6, 1
        bne t3, t6, 1f
        csrw mepc, ra
        mret
1:      lhu t6, 0(t5)
        andi t6, t6, 3
        addi t5, t5, 2
        li t3, 3
        bne t6, t3, 2f
        addi t5, t5, 2
2:      csrw mepc, t5
        mret

        TOHOST_SECTION
        .data
        .globl log
log:    .zero 64*REGBYTES
