/* Machine timer interrupt during a loop, then wfi with the timer armed (the hart
   jumps mtime forward), then a machine software interrupt through msip. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        la t0, handler
        csrw mtvec, t0
        li s1, 0                    /* interrupts taken */
        li t1, CLINT_MTIME
        lw t2, 0(t1)
        addi t2, t2, 3
        li t1, CLINT_MTIMECMP
        sw zero, 4(t1)
        sw t2, 0(t1)
        li t0, 1 << 7               /* mie.MTIE */
        csrs mie, t0
        csrsi mstatus, 8            /* mstatus.MIE */
        .globl spin
spin:
        addi s2, s2, 1
        j spin
        .globl wfi_point
wfi_point:
        wfi
        .globl after_wfi
after_wfi:
        j after_wfi
        .globl set_msip
set_msip:
        li t1, CLINT_MSIP
        li t2, 1
        sw t2, 0(t1)
        .globl after_msip
after_msip:
        j after_msip

        .align 2
        .globl handler
handler:
        addi s1, s1, 1
        csrr s3, mcause
        li t0, 1
        beq s1, t0, first
        li t0, 2
        beq s1, t0, second
        EXIT(0)
first:                              /* arm the timer 1000 ticks ahead, resume at wfi */
        li t1, CLINT_MTIME
        lw t2, 0(t1)
        li t3, 1000
        add t2, t2, t3
        li t1, CLINT_MTIMECMP
        sw t2, 0(t1)
        la t0, wfi_point
        csrw mepc, t0
        mret
second:                             /* disarm the timer, enable the software interrupt */
        li t1, CLINT_MTIMECMP
        li t2, -1
        sw t2, 0(t1)
        sw t2, 4(t1)
        li t0, 1 << 3               /* mie.MSIE */
        csrs mie, t0
        la t0, set_msip
        csrw mepc, t0
        mret
        TOHOST_SECTION
