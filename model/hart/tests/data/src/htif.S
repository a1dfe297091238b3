/* HTIF console (device 1, command 1) and proxy-kernel write syscall (magic_mem), then
   exit 3. Requests are 64-bit stores (RV64) or two word stores (RV32, low word first
   for the console, high word first for the syscall). */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        la s0, tohost
        li s1, 0x01010000           /* high word of a console request */
        li a0, 'H'
        call putchar
        li a0, 'i'
        call putchar
        li a0, '\n'
        call putchar
        la t0, magic
        li t1, 64                   /* SYS_write */
        SREG t1, 0(t0)
        li t1, 1
        sw t1, 8(t0)
        la t1, msg
        sw t1, 16(t0)
        li t1, 6
        sw t1, 24(t0)
        sw zero, 4(s0)
        sw t0, 0(s0)
1:      lw t1, 0(s0)                /* wait until the host has cleared tohost */
        bnez t1, 1b
        la t0, magic
        lw s2, 0(t0)                /* return value: 6 */
        la t0, fromhost
        lw s3, 0(t0)                /* fromhost: 1 */
        EXIT(3)

putchar:
#if __riscv_xlen == 64
        slli t1, s1, 32
        or t1, t1, a0
        sd t1, 0(s0)
#else
        sw a0, 0(s0)
        sw s1, 4(s0)
#endif
1:      lw t1, 0(s0)
        bnez t1, 1b
        ret
        TOHOST_SECTION
        .data
        .align 3
magic:  .zero 64
msg:    .ascii "hello\n"
