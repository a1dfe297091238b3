/* M -> S (mret) -> U (sret); U ecall delegated to S; S sret back to U; U reads mstatus:
   illegal, taken to M; M mret back to U; U ebreak taken to M, which exits. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        la t0, m_handler
        csrw mtvec, t0
        la t0, s_handler
        csrw stvec, t0
        li t0, 1 << 8               /* delegate ecall from U */
        csrw medeleg, t0
        li t0, 3 << 11
        csrc mstatus, t0
        li t0, 1 << 11              /* MPP = S */
        csrs mstatus, t0
        la t0, s_entry
        csrw mepc, t0
        .globl m_mret
m_mret:
        mret
        .globl s_entry
s_entry:
        li t0, 1 << 8               /* SPP = U */
        csrc sstatus, t0
        la t0, u_entry
        csrw sepc, t0
        .globl s_sret
s_sret:
        sret
        .globl u_entry
u_entry:
        .globl u_ecall
u_ecall:
        ecall
        .globl u_illegal
u_illegal:
        csrr t0, mstatus
        .globl u_ebreak
u_ebreak:
        .option push
        .option norvc
        ebreak
        .option pop
1:      j 1b

        .align 2
        .globl s_handler
s_handler:
        csrr t1, sepc
        addi t1, t1, 4
        csrw sepc, t1
        sret

        .align 2
        .globl m_handler
m_handler:
        csrr t1, mcause
        li t2, 3
        beq t1, t2, m_exit
        csrr t1, mepc
        addi t1, t1, 4
        csrw mepc, t1
        mret
m_exit:
        EXIT(0)
        TOHOST_SECTION
