/* F and D: fld, fadd.d, fmadd.d, feq.d, fmv.w.x, NaN-boxing, fcvt, fdiv by zero,
   accrued flags. Results are left in registers and at `out`. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        li t0, 1 << 13              /* mstatus.FS = Initial */
        csrs mstatus, t0
        la a0, data
        fld f1, 0(a0)               /* 1.5 */
        fld f2, 8(a0)               /* 2.25 */
        fadd.d f3, f1, f2           /* 3.75, exact */
        fld f4, 16(a0)              /* 0.1 */
        fmadd.d f5, f1, f2, f4      /* 3.475, inexact */
        feq.d s2, f3, f3            /* 1 */
        feq.d s3, f1, f2            /* 0 */
        li t1, 0x3fc00000           /* 1.5f */
        fmv.w.x f6, t1              /* NaN-boxed */
        fcvt.d.s f7, f6             /* 1.5 */
        feq.d s4, f7, f1            /* 1 */
        fadd.s f8, f1, f1           /* f1 is not a boxed single: canonical NaN */
        fclass.s s5, f8             /* quiet NaN: 1 << 9 */
        fcvt.d.w f10, zero
        fdiv.d f9, f1, f10          /* +inf, DZ */
        fcvt.w.d s6, f5, rtz        /* 3 */
        fcvt.w.d s7, f5, rup        /* 4 */
        frflags s8                  /* NX | DZ */
        la a1, out
        fsd f3, 0(a1)
        fsd f5, 8(a1)
        fsw f6, 16(a1)
        csrr s9, mstatus
        EXIT(0)
        TOHOST_SECTION
        .data
        .align 3
data:   .double 1.5, 2.25, 0.1
        .globl out
out:    .zero 24
