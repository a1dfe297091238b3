/* CSR behaviour: counter writes, WARL fields, counter-enable gating from U, FP CSRs with
   mstatus.FS off, invalid dynamic rounding mode, satp modes other than Bare. Results go
   to `out`; every trap is counted in s11 and logged at `causes`. */
#include "common.h"
#define OUT(n) SREG t2, (n)*REGBYTES(s0)
        .section .text.init
        .globl _start
_start:
        la t0, handler
        csrw mtvec, t0
        la s0, out
        la s9, causes
        li s10, 0
        li s11, 0
        li t1, 100
        .globl c_minstret
c_minstret:
        csrw minstret, t1
        csrr t2, minstret           /* 100 */
        OUT(0)
        li t1, 1000
        csrw mcycle, t1
        nop
        csrr t2, mcycle             /* 1001 */
        OUT(1)
        csrr t2, misa
        OUT(2)
        li t1, 2 << 11              /* MPP = 2 (reserved) reads as U */
        csrs mstatus, t1
        csrr t2, mstatus
        srli t2, t2, 11
        andi t2, t2, 3
        OUT(3)
        la t1, handler
        ori t1, t1, 3               /* mode 3 reads as 1 (spike clears bit 1) */
        csrw mtvec, t1
        csrr t2, mtvec
        andi t2, t2, 3
        OUT(4)
        la t1, handler
        csrw mtvec, t1
        li t1, -1
        csrw mie, t1
        csrr t2, mie
        OUT(5)
        csrw mie, zero
        csrw mip, t1
        csrr t2, mip
        OUT(6)
        csrw mip, zero
        csrw medeleg, t1
        csrr t2, medeleg
        OUT(7)
        csrw medeleg, zero
        csrw mideleg, t1
        csrr t2, mideleg
        OUT(8)
        csrw mideleg, zero
        csrr t2, marchid
        OUT(9)
#if __riscv_xlen == 64
        li t1, 8 << 60              /* Sv39 */
#else
        li t1, 1 << 31              /* Sv32 */
#endif
        csrw satp, t1
        csrr t2, satp
        OUT(10)
        .globl c_fcsr_off
c_fcsr_off:
        csrr t2, fcsr
        li t1, 1 << 13
        csrs mstatus, t1
        li t1, 0xff
        csrw fcsr, t1
        csrr t2, fcsr
        OUT(11)
        csrr t2, frm
        OUT(12)
        .globl c_badrm
c_badrm:
        fadd.d f0, f0, f0           /* dynamic rounding with frm = 7 */
        csrw fcsr, zero
        li t1, 3 << 11              /* to U */
        csrc mstatus, t1
        la t1, u_code
        csrw mepc, t1
        mret
u_code:
        .globl c_u_cycle
c_u_cycle:
        rdcycle t2                  /* mcounteren = 0: illegal */
        ecall
u_code2:
        .globl c_u_instret
c_u_instret:
        rdinstret t2
        OUT(13)
        ecall
m_final:
        .globl c_cycleh
c_cycleh:
        csrr t2, cycleh             /* RV64: illegal; RV32: the high half */
        mv t2, s11
        OUT(14)
        EXIT(0)

        .align 2
handler:
        addi s11, s11, 1
        csrr t4, mcause
        SREG t4, 0(s9)
        addi s9, s9, REGBYTES
        li t5, 8
        beq t4, t5, 1f
        csrr t5, mepc
        addi t5, t5, 4
        csrw mepc, t5
        mret
1:      bnez s10, 2f
        li s10, 1
        li t5, 7
        csrw mcounteren, t5
        csrw scounteren, t5
        la t5, u_code2
        csrw mepc, t5
        mret
2:      li t5, 3 << 11              /* back to M */
        csrs mstatus, t5
        la t5, m_final
        csrw mepc, t5
        mret

        TOHOST_SECTION
        .data
        .align 3
        .globl out
out:    .zero 16*REGBYTES
        .globl causes
causes: .zero 16*REGBYTES
