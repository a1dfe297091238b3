/* Never exits. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        li t0, 0
        .globl forever
forever:
        addi t0, t0, 1
        j forever
        TOHOST_SECTION
