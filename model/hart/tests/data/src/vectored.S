/* Vectored trap vectors: a machine software interrupt (msip) goes to mtvec base + 4*3;
   then in S-mode a delegated supervisor software interrupt (sip.SSIP, mideleg) goes to
   stvec base + 4*1. An ecall from S (not vectored: exception) ends the run. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        la t0, mvec
        ori t0, t0, 1
        csrw mtvec, t0
        la t0, svec
        ori t0, t0, 1
        csrw stvec, t0
        li t0, 1 << 1               /* delegate SSIP */
        csrw mideleg, t0
        li t0, (1 << 3) | (1 << 1)  /* MSIE | SSIE */
        csrs mie, t0
        csrsi mstatus, 8            /* MIE */
        li t1, CLINT_MSIP
        li t2, 1
        sw t2, 0(t1)
        .globl m_after
m_after:
        j m_after

m_soft:
        li t1, CLINT_MSIP
        sw zero, 0(t1)
        li t0, 3 << 11
        csrc mstatus, t0
        li t0, 1 << 11              /* MPP = S */
        csrs mstatus, t0
        la t0, s_code
        csrw mepc, t0
        mret
        .globl s_code
s_code:
        csrsi sstatus, 2            /* SIE */
        csrsi sip, 2                /* SSIP */
        .globl s_after
s_after:
        j s_after
s_soft:
        .globl s_ecall
s_ecall:
        ecall
m_exc:
        EXIT(0)

        .option push
        .option norvc
        .align 6
        .globl mvec
mvec:   j m_exc
        j m_exc
        j m_exc
        j m_soft
        j m_exc
        j m_exc
        j m_exc
        j m_exc
        .align 6
        .globl svec
svec:   j m_exc
        j s_soft
        j m_exc
        .option pop
        TOHOST_SECTION
