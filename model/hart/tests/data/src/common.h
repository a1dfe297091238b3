/* Shared macros of the hart model's test programs (model/hart/tests/data/src). */
#if __riscv_xlen == 64
#define LREG ld
#define SREG sd
#define REGBYTES 8
#else
#define LREG lw
#define SREG sw
#define REGBYTES 4
#endif

#define CLINT_MSIP 0x02000000
#define CLINT_MTIMECMP 0x02004000
#define CLINT_MTIME 0x0200bff8

/* HTIF exit request (code << 1) | 1 (on RV32: low word, then high word = 0). */
#define EXIT(code)              \
        li a0, ((code) << 1) | 1; \
        la t0, tohost;          \
        sw zero, 4(t0);         \
        sw a0, 0(t0);           \
99:     j 99b

#define TOHOST_SECTION                  \
        .section .tohost, "aw", @progbits; \
        .align 6;                       \
        .globl tohost;                  \
tohost: .dword 0;                       \
        .align 6;                       \
        .globl fromhost;                \
fromhost: .dword 0
